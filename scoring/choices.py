"""The scoring models' enumerations; each model names its own (`ScoreSheet.Status`,
`Deal.Contract`, `Incident.Kind`...), the convention of tournament.models.choices."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.core.deal import CONTRACT_NAMES, CONTRACTS


class SheetStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", _("En cours")
    COMPLETE = "complete", _("Complète")
    VALIDATED = "validated", _("Validée")


# Deal

# The engine's contracts, by their full names: PRISE, GARDE, GARDE_SANS, GARDE_CONTRE.
# (Enum's functional API, which django-stubs types only as a member's constructor.)
Contract = models.TextChoices(  # type: ignore[call-overload]
    "Contract", [(name.upper(), (name, _(CONTRACT_NAMES[name]))) for name in CONTRACTS]
)


class Side(models.TextChoices):
    ATTACK = "attack", _("Attaque")
    DEFENSE = "defense", _("Défense")


class Alone(models.TextChoices):
    """Why a taker at a table of 5 with a called king plays alone (both score the same)."""

    DOG = "dog", _("Roi au chien")
    SELF = "self", _("Appelé soi-même")


class IncidentKind(models.TextChoices):
    RENONCE_TAKER = "renonce_taker", _("Renonce du preneur")
    RENONCE_PARTNER = "renonce_partner", _("Renonce du partenaire")
    RENONCE_DEFENCE = "renonce_defence", _("Renonce en défense")
    FAUSSE_DONNE = "fausse_donne", _("Fausse donne")
    FAUX_ECART = "faux_ecart", _("Faux écart")
    PETIT_SEC = "petit_sec", _("Petit sec")
    POIGNEE_IRREGULIERE = "poignee", _("Poignée irrégulière")
    CARTE_EXPOSEE = "carte_exposee", _("Carte exposée")
    JEU_HORS_TOUR = "hors_tour", _("Jeu hors tour")
    ETHICS = "ethics", _("Éthique")
    LATENESS = "lateness", _("Retard")
    OTHER = "other", _("Autre")


class ChampionshipMethod(models.TextChoices):
    """How a championship turns a tournament's result into points."""

    RANK = "rank", _("Points selon la place (barème)")
    SUM = "sum", _("Somme des scores des tournois")
