"""Publishing a position gives every table its phone link, whatever path published it (the
service alone, no view), once the publication is committed; a publication rolled back gives
none."""

import pytest
from django.db import transaction

from scoring.models import TableLink
from tests.tournament.evening.positions_helpers import make_tournament
from tournament import hooks
from tournament.evening.positions import position_generate, position_publish
from tournament.models import Position

pytestmark = pytest.mark.django_db(transaction=True)


class RolledBack(Exception):
    pass


@pytest.fixture
def first_position() -> Position:
    tournament = make_tournament(players=12, positions=2, entry_mode="phones")
    position_generate(tournament=tournament, seed=1)
    return tournament.positions.get(number=1)


@pytest.fixture
def sent() -> list[Position]:
    positions: list[Position] = []

    def listen(sender, *, position, **kwargs):
        positions.append(position)

    hooks.position_published.connect(listen, sender=Position, weak=False)
    yield positions
    hooks.position_published.disconnect(listen, sender=Position)


def test_publishing_through_the_service_alone_creates_the_table_links(first_position, sent):
    position_publish(position=first_position)
    assert [p.pk for p in sent] == [first_position.pk]
    tables = set(first_position.tables.values_list("pk", flat=True))
    assert len(tables) == 3
    assert set(TableLink.objects.values_list("table_id", flat=True)) == tables


def test_the_links_come_once_the_publication_is_committed(first_position, sent):
    with transaction.atomic():
        position_publish(position=first_position)
        assert sent == [] and not TableLink.objects.exists()
    assert len(sent) == 1 and TableLink.objects.count() == 3


def test_a_publication_rolled_back_sends_nothing(first_position, sent):
    with pytest.raises(RolledBack), transaction.atomic():
        position_publish(position=first_position)
        raise RolledBack
    assert sent == []
    assert not TableLink.objects.exists()
    first_position.refresh_from_db()
    assert first_position.status == Position.Status.DRAFT
