"""A championship belongs to a club (its public pages list it). Existing championships go to
their owner's club (its first by name, as a new tournament does: tournament.clubs.selectors
home_club), or else to the one club all their tournaments belong to; none when neither tells
(tournament 0016 already put every tournament of a pre-club install in its one club)."""

import django.db.models.deletion
from django.db import migrations, models


def attach_to_clubs(apps, schema_editor):
    Championship = apps.get_model("scoring", "Championship")
    ClubMember = apps.get_model("tournament", "ClubMember")
    for championship in Championship.objects.filter(host_club=None):
        club_id = (
            ClubMember.objects.filter(user_id=championship.owner_id)
            .order_by("club__name", "club_id")
            .values_list("club_id", flat=True)
            .first()
            if championship.owner_id is not None
            else None
        )
        if club_id is None:
            clubs = set(
                championship.tournaments.exclude(host_club=None).values_list(
                    "host_club_id", flat=True
                )
            )
            club_id = clubs.pop() if len(clubs) == 1 else None
        if club_id is not None:
            Championship.objects.filter(pk=championship.pk).update(host_club_id=club_id)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0011_shared_render"),
        ("tournament", "0016_one_club_for_existing_installs"),
    ]

    operations = [
        migrations.AddField(
            model_name="championship",
            name="host_club",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="championships",
                to="tournament.club",
                verbose_name="club",
            ),
        ),
        migrations.RunPython(attach_to_clubs, migrations.RunPython.noop),
    ]
