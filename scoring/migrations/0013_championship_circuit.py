"""A championship may be a circuit: the clubs it invites, whose arbiters add their own
tournaments to it. Existing championships invite none (each stays its club's own)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0012_championship_host_club"),
        ("tournament", "0016_one_club_for_existing_installs"),
    ]

    operations = [
        migrations.AddField(
            model_name="championship",
            name="participating_clubs",
            field=models.ManyToManyField(
                blank=True,
                related_name="circuits",
                to="tournament.club",
                verbose_name="clubs du circuit",
            ),
        ),
    ]
