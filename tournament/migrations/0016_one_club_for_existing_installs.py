"""An install from before clubs becomes one club: every tournament, event and roster entry is
attached to it, and every account that ran tournaments is its arbiter. Nothing else changes.

The club is named after the organiser text its tournaments carry most often (ties: the first
in alphabetical order), or "Mon club". An empty install (a fresh database) gets no club: its
superuser creates the first one.
"""

from collections import Counter

from django.conf import settings
from django.db import migrations

ARBITER_GROUP = "arbitre"
DEFAULT_NAME = "Mon club"


def club_name(texts) -> str:
    counts = Counter(text.strip() for text in texts if text and text.strip())
    if not counts:
        return DEFAULT_NAME
    return min(counts, key=lambda name: (-counts[name], name))[:200]


def attach_everything(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    Event = apps.get_model("tournament", "Event")
    Player = apps.get_model("tournament", "Player")
    TournamentRole = apps.get_model("tournament", "TournamentRole")
    Club = apps.get_model("tournament", "Club")
    ClubMember = apps.get_model("tournament", "ClubMember")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    arbiters = set(User.objects.filter(groups__name=ARBITER_GROUP).values_list("pk", flat=True))
    arbiters |= set(Tournament.objects.exclude(owner=None).values_list("owner_id", flat=True))
    arbiters |= set(Event.objects.exclude(owner=None).values_list("owner_id", flat=True))
    arbiters |= set(TournamentRole.objects.filter(role="arbiter").values_list("user_id", flat=True))
    if not (arbiters or Tournament.objects.exists() or Player.objects.exists()):
        return  # a fresh install: nothing to attach
    name = club_name(Tournament.objects.values_list("club", flat=True))
    club = Club.objects.create(name=name)
    Tournament.objects.update(host_club=club)
    Event.objects.update(host_club=club)
    Player.objects.update(origin_club=club)
    admins = set(
        User.objects.filter(is_superuser=True, is_active=True).values_list("pk", flat=True)
    )
    ClubMember.objects.bulk_create(
        [ClubMember(club=club, user_id=pk, role="admin") for pk in sorted(admins)]
        + [ClubMember(club=club, user_id=pk, role="arbiter") for pk in sorted(arbiters - admins)]
    )


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("auth", "0012_alter_user_first_name_max_length"),  # the groups' table
        ("tournament", "0015_clubs"),
    ]

    operations = [migrations.RunPython(attach_everything, migrations.RunPython.noop)]
