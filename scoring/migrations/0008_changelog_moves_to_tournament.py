# The history (ChangeLog) moves to the tournament app (tournament.0007). Only Django's picture of
# the models changes: the table scoring_changelog and its rows stay where they are.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_deal_alone"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="ChangeLog")],
            database_operations=[],
        ),
    ]
