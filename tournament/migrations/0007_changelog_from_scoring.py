# The history (ChangeLog) arrives from the scoring app (scoring.0008): it keeps its table
# (scoring_changelog) and every row, so this is Django's picture of the models only.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0008_changelog_moves_to_tournament'),
        ('tournament', '0006_signup_checkin'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ChangeLog',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('object_type', models.CharField(choices=[('tournament', 'tournoi'), ('penalty_defaults', 'pénalités par défaut'), ('tournamentrole', 'équipe arbitrale'), ('player', 'joueur'), ('registration', 'inscription'), ('team', 'équipe'), ('position', 'position'), ('tablelink', 'lien de table'), ('sheet', 'feuille'), ('sheet_status', 'état de la feuille'), ('sheet_extra_deals', 'donnes supplémentaires'), ('paper_bilans', 'bilans papier'), ('deal', 'donne'), ('deal_confirmation', 'confirmation de donne'), ('incident', 'incident')], max_length=40, verbose_name='objet')),
                        ('object_id', models.PositiveBigIntegerField(blank=True, null=True, verbose_name='identifiant')),
                        ('action', models.CharField(choices=[('create', 'Création'), ('update', 'Modification'), ('delete', 'Suppression'), ('conflict', 'Conflit de saisie'), ('reopen', 'Réouverture')], max_length=10, verbose_name='action')),
                        ('before', models.JSONField(blank=True, null=True, verbose_name='avant')),
                        ('after', models.JSONField(blank=True, null=True, verbose_name='après')),
                        ('username', models.CharField(blank=True, max_length=150, verbose_name='auteur')),
                        ('at', models.DateTimeField(auto_now_add=True, verbose_name='le')),
                        ('sheet', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='changes', to='scoring.scoresheet', verbose_name='feuille')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='changes', to='tournament.tournament', verbose_name='tournoi')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='par')),
                    ],
                    options={
                        'verbose_name': 'historique',
                        'verbose_name_plural': 'historique',
                        'db_table': 'scoring_changelog',
                        'ordering': ['-at', '-pk'],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
