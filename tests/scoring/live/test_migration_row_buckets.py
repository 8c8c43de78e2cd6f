"""The bucket rows of the public ranking (scoring 0021) are dropped from the live store; the
ranking, pages and fragments stored beside them stay. Built with the migration executor."""

import pytest
from django.utils import timezone

from tests.migration_helpers import migrate, migrated_back

BEFORE = [("scoring", "0020_one_live_store"), ("tournament", "0022_live_revision")]
AFTER = [("scoring", "0021_drop_standings_row_buckets")]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def before():
    yield from migrated_back(BEFORE)


def test_the_bucket_rows_go_and_the_other_artifacts_stay(before):
    Tournament = before.get_model("tournament", "Tournament")
    LiveArtifact = before.get_model("scoring", "LiveArtifact")
    tournament = Tournament.objects.create(name="A", date="2026-11-29")
    for what, variant in [("standings-rows", "0"), ("standings-rows", "63"), ("ranking", "public")]:
        LiveArtifact.objects.create(
            tournament=tournament, what=what, variant=variant, revision="3", body=b"",
            computed_at=timezone.now(),
        )  # fmt: skip
    apps = migrate(AFTER)
    left = apps.get_model("scoring", "LiveArtifact").objects.values_list("what", "variant")
    assert list(left) == [("ranking", "public")]
