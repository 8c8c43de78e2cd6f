"""The public ranking's rows are no longer stored apart in buckets for the players' cards (a card
reads its row from the stored ranking): the bucket rows of the live store are dropped. Derived
data: nothing is lost."""

from django.db import migrations


def drop_buckets(apps, schema_editor):
    apps.get_model("scoring", "LiveArtifact").objects.filter(what="standings-rows").delete()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0020_one_live_store")]

    operations = [migrations.RunPython(drop_buckets, migrations.RunPython.noop)]
