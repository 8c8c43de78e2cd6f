"""/admin/ opens for superusers only: a staff flag alone is no way in."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_staff_account_that_is_not_superuser_is_refused(client, django_user_model):
    staff = django_user_model.objects.create_user("staff", password="pw-staff-1", is_staff=True)
    client.force_login(staff)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert client.get(reverse("admin:auth_user_changelist")).status_code == 302


def test_a_superuser_opens_the_admin(client, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", password="pw-boss-1")
    client.force_login(boss)
    assert client.get(reverse("admin:index")).status_code == 200
