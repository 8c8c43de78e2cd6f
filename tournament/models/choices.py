"""The tournament models' enumerations, in one place.

Each model still names its own as a class attribute (`Tournament.Status`, `Position.Status`,
`ChangeLog.Action`...), so callers are unchanged; migrations store the values, not these classes.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Direction(models.TextChoices):
    """A seat at a table; storage order as tournament.seats.DIRECTIONS (a Seat's index)."""

    NORTH = "N", _("Nord")
    EAST = "E", _("Est")
    SOUTH = "S", _("Sud")
    WEST = "W", _("Ouest")
    FIFTH = "X", _("5e")


# A seat letter's name as pages show it ("Ouest"), translated when read.
DIRECTION_LABELS = dict(Direction.choices)


# Club


class ClubRole(models.TextChoices):
    """A ClubMember: a club's administrator names its arbiters; an arbiter runs its tournaments."""

    ADMIN = "admin", _("Administrateur du club")
    ARBITER = "arbiter", _("Arbitre du club")


class ConflictStatus(models.TextChoices):
    """A LicenceConflict: open (the holding club's to settle), proposed to the other club
    (waiting for its consent), resolved."""

    OPEN = "open", _("À résoudre")
    PROPOSED = "proposed", _("Proposé à l'autre club")
    RESOLVED = "resolved", _("Résolu")


class ConflictResolution(models.TextChoices):
    """How a LicenceConflict was resolved."""

    MERGE = "merge", _("Fiches fusionnées (une seule personne)")
    CORRECT = "correct", _("Licence de la fiche erronée corrigée")


# Tournament


class Format(models.TextChoices):
    INDIVIDUAL = "individual", _("Individuel")
    DUO = "duo", _("Libre duo (équipes de 2)")
    TEAM4 = "team4", _("Équipes de 4")


class Remainder(models.TextChoices):
    FIVE = "five", _("Tables de 5 (jeu à 5, roi appelé)")
    FIVE_DEAD = "five_dead", _("Tables de 5 avec un mort tournant")
    THREE = "three", _("Tables de 3")


class EntryMode(models.TextChoices):
    PAPER = "paper", _("Feuilles papier saisies par l'arbitre")
    PHONES = "phones", _("Saisie par les joueurs sur leur téléphone")
    BOTH = "both", _("Téléphones et feuilles papier (contrôle des bilans)")


class SheetStyle(models.TextChoices):
    DETAILED = "detailed", _("Feuille détaillée (preneur, bouts, points, primes)")
    FIGURES = "figures", _("Feuille FFT (contrat et chiffre du preneur)")


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", _("En préparation")
    RUNNING = "running", _("En cours")
    FINISHED = "finished", _("Terminé")


class Role(models.TextChoices):
    """A TournamentRole: what a person does on a tournament besides its owner."""

    ARBITER = "arbiter", _("Co-arbitre")
    SCORER = "scorer", _("Marqueur")


class Bracket(models.TextChoices):
    """Which bracket of an event's session a tournament is (tournament.models.events)."""

    MAIN = "main", _("Tableau principal")
    CONSOLANTE = "consolante", _("Consolante")


class CutRule(models.TextChoices):
    TOP_N = "top_n", _("Les N premiers")
    TOP_PERCENT = "top_percent", _("Les P % premiers")
    # Qualifying sessions: the whole field plays the next session (the withdrawn set aside).
    ALL = "all", _("Tout le champ (séance suivante sans coupe)")


# Registration, Position, Table


class RegistrationStatus(models.TextChoices):
    ACTIVE = "active", _("Présent")
    WITHDRAWN = "withdrawn", _("Forfait")
    # Signed up online, not checked in at the door yet: seated nowhere, ranked nowhere.
    EXPECTED = "expected", _("Pré-inscrit")


class PositionStatus(models.TextChoices):
    DRAFT = "draft", _("Brouillon")
    PUBLISHED = "published", _("Publiée")
    # French "close" (adjective) is also Django's English "Close", translated "Fermer".
    CLOSED = "closed", pgettext_lazy("position status", "Close")


class PositionSeating(models.TextChoices):
    """How a position's tables were drawn: the generator's plan, or the standings for a final
    (tournament.core.seating.seeded)."""

    GENERATOR = "generator", _("par le générateur")
    RANK = "rank", _("par le classement (table d'honneur)")
    SNAKE = "snake", _("en serpentin")


class Game(models.TextChoices):
    """What is played at a table, by its number of players."""

    FOUR = "four", _("4 joueurs")
    THREE = "three", _("3 joueurs")
    FIVE = "five", _("5 joueurs, roi appelé")
    FIVE_DEAD = "five_dead", _("5 joueurs avec un mort")


# ChangeLog


class Action(models.TextChoices):
    CREATE = "create", _("Création")
    UPDATE = "update", _("Modification")
    DELETE = "delete", _("Suppression")
    CONFLICT = "conflict", _("Conflit de saisie")
    REOPEN = "reopen", _("Réouverture")


class ObjectType(models.TextChoices):
    """What a record is about; a model's own name unless the record tells one of its parts."""

    TOURNAMENT = "tournament", _("tournoi")
    PENALTY_DEFAULTS = "penalty_defaults", _("pénalités par défaut")
    TOURNAMENT_ROLE = "tournamentrole", _("équipe arbitrale")
    PLAYER = "player", _("joueur")
    REGISTRATION = "registration", _("inscription")
    TEAM = "team", _("équipe")
    POSITION = "position", _("position")
    TABLE_LINK = "tablelink", _("lien de table")
    SHEET = "sheet", _("feuille")
    SHEET_STATUS = "sheet_status", _("état de la feuille")
    SHEET_EXTRA_DEALS = "sheet_extra_deals", _("donnes supplémentaires")
    PAPER_BILANS = "paper_bilans", _("bilans papier")
    DEAL = "deal", _("donne")
    DEAL_CONFIRMATION = "deal_confirmation", _("confirmation de donne")
    DEAL_DISPUTE = "deal_dispute", _("contestation de donne")
    LATE_DEAL = "latedeal", _("donne tardive")
    PHONE_QUEUE = "phonequeue", _("donnes gardées sur un téléphone")
    TABLE_CALL = "tablecall", _("appel de l'arbitre")
    PLAYER_CODE = "player_code", _("code personnel")
    INCIDENT = "incident", _("incident")
    CHAMPIONSHIP = "championship", _("championnat")
    EVENT = "event", _("épreuve")
    CLUB = "club", _("club")
    CLUB_MEMBER = "clubmember", _("membre du club")
    CLUB_INVITATION = "clubinvitation", _("invitation dans un club")
    LICENCE_CONFLICT = "licenceconflict", _("conflit de licence")
    CUT = "cut", _("coupe")
