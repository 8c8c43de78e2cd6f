"""Shared fixtures: users with each role."""

import pytest
from django.contrib.auth.models import Group

from tournament.roles import ARBITER, SCORER


@pytest.fixture
def arbiter(db, django_user_model):
    user = django_user_model.objects.create_user("arbitre-test", password="pw-arbitre-1")
    user.groups.add(Group.objects.get_or_create(name=ARBITER)[0])
    return user


@pytest.fixture
def scorer(db, django_user_model):
    user = django_user_model.objects.create_user("marqueur-test", password="pw-marqueur-1")
    user.groups.add(Group.objects.get_or_create(name=SCORER)[0])
    return user


@pytest.fixture
def arbiter_client(client, arbiter):
    client.force_login(arbiter)
    return client
