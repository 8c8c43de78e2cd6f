"""One store of live artifacts (LiveArtifact) in place of the shared standings and renders: they
were derived data, recomputed when read, so nothing is copied."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0019_comite_server_allow_http"),
        ("tournament", "0022_live_revision"),
    ]

    operations = [
        migrations.CreateModel(
            name="LiveArtifact",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("what", models.CharField(max_length=20, verbose_name="contenu")),
                ("variant", models.CharField(max_length=40, verbose_name="variante")),
                ("revision", models.CharField(max_length=80, verbose_name="révision")),
                ("body", models.BinaryField(verbose_name="contenu calculé")),
                ("computed_at", models.DateTimeField(verbose_name="calculé le")),
                (
                    "compute_seconds",
                    models.FloatField(default=0, verbose_name="durée du calcul (secondes)"),
                ),
                (
                    "claim",
                    models.CharField(
                        blank=True, default="", max_length=80, verbose_name="révision en calcul"
                    ),
                ),
                (
                    "claimed_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="calcul commencé le"),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="live_artifacts",
                        to="tournament.tournament",
                        verbose_name="tournoi",
                    ),
                ),
            ],
            options={
                "verbose_name": "contenu en direct",
                "verbose_name_plural": "contenus en direct",
            },
        ),
        migrations.DeleteModel(
            name="SharedRender",
        ),
        migrations.DeleteModel(
            name="StandingsSnapshot",
        ),
        migrations.AddConstraint(
            model_name="liveartifact",
            constraint=models.UniqueConstraint(
                fields=("tournament", "what", "variant"), name="one_live_artifact_per_variant"
            ),
        ),
    ]
