"""Tournaments, the player roster, teams, registrations, positions, tables and seats."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# The seat vocabulary lives in tournament.seats; re-exported here, where it used to be.
from .seats import DIRECTIONS as DIRECTIONS
from .seats import SHEET_ORDER as SHEET_ORDER
from .seats import SHORT_DIRECTIONS as SHORT_DIRECTIONS
from .seats import seat_code as seat_code
from .seats import seat_label as seat_label
from .seats import sheet_order_key as sheet_order_key
from .seats import start_codes
from .seats import start_display as start_display


class Direction(models.TextChoices):
    NORTH = "N", _("Nord")
    EAST = "E", _("Est")
    SOUTH = "S", _("Sud")
    WEST = "W", _("Ouest")
    FIFTH = "X", _("5e")


class Player(models.Model):
    """A person on the club roster, shared by every tournament."""

    last_name = models.CharField(_("nom"), max_length=80)
    first_name = models.CharField(_("prénom"), max_length=80, blank=True)
    licence = models.CharField(_("licence FFT"), max_length=20, blank=True, null=True, default=None)
    club = models.CharField(_("club"), max_length=120, blank=True)
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("joueur")
        verbose_name_plural = _("joueurs")
        ordering = ["last_name", "first_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["licence"],
                condition=Q(licence__isnull=False) & ~Q(licence=""),
                name="unique_licence_when_given",
            )
        ]
        indexes = [models.Index(fields=["last_name", "first_name"])]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args, **kwargs):
        # Blank licences are stored as NULL so that the uniqueness only binds given numbers.
        if not self.licence:
            self.licence = None
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.last_name.upper()} {self.first_name}".strip()


def new_pin() -> str:
    """A player's personal 4-digit confirmation code, printed on their itinerary card."""
    import secrets

    return f"{secrets.randbelow(10_000):04d}"


class Tournament(models.Model):
    """A tournament in donnes libres, with the organiser's settings."""

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

    class Status(models.TextChoices):
        DRAFT = "draft", _("En préparation")
        RUNNING = "running", _("En cours")
        FINISHED = "finished", _("Terminé")

    name = models.CharField(_("nom"), max_length=200)
    date = models.DateField(_("date"))
    venue = models.CharField(_("lieu"), max_length=200, blank=True)
    club = models.CharField(_("club organisateur"), max_length=200, blank=True)
    format = models.CharField(
        _("formule"), max_length=12, choices=Format.choices, default=Format.INDIVIDUAL
    )
    positions_count = models.PositiveSmallIntegerField(_("nombre de positions"), default=4)
    deals_per_table_4 = models.PositiveSmallIntegerField(_("donnes par table de 4"), default=5)
    deals_per_table_5 = models.PositiveSmallIntegerField(_("donnes par table de 5"), default=5)
    deals_per_table_3 = models.PositiveSmallIntegerField(_("donnes par table de 3"), default=6)
    remainder = models.CharField(
        _("joueurs en surnombre"),
        max_length=12,
        choices=Remainder.choices,
        default=Remainder.FIVE,
        help_text=_("Quand le nombre de joueurs n'est pas un multiple de 4."),
    )
    rule_set = models.CharField(_("règlement"), max_length=20, default="fft")
    status = models.CharField(
        _("état"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    is_public = models.BooleanField(
        _("classement public"),
        default=False,
        help_text=_("Les joueurs peuvent suivre le classement en direct."),
    )
    entry_mode = models.CharField(
        _("saisie des donnes"),
        max_length=8,
        choices=EntryMode.choices,
        default=EntryMode.PAPER,
        help_text=_(
            "Avec les téléphones, chaque table saisit ses donnes par son QR code ; un adversaire "
            "les confirme avec son code personnel."
        ),
    )
    sheet_style = models.CharField(
        _("feuille de marque"),
        max_length=10,
        choices=SheetStyle.choices,
        default=SheetStyle.DETAILED,
        help_text=_(
            "La feuille FFT officielle ne porte que le contrat et le chiffre de chaque joueur : "
            "l'arbitre saisit le contrat, le preneur et son chiffre."
        ),
    )
    position_minutes = models.PositiveSmallIntegerField(
        _("durée d'une position (minutes)"), default=50
    )
    hall_token = models.CharField(
        _("lien de l'écran de salle"), max_length=43, unique=True, null=True, blank=True
    )
    hall_announcement = models.CharField(_("annonce en salle"), max_length=200, blank=True)
    # Online pre-registration: a public page, open only while the arbiter says so.
    signup_open = models.BooleanField(_("inscriptions en ligne ouvertes"), default=False)
    signup_capacity = models.PositiveSmallIntegerField(
        _("nombre maximum d'inscrits"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(2000)],
        help_text=_("Vide : pas de limite."),
    )
    signup_closes_at = models.DateTimeField(
        _("clôture des inscriptions en ligne"),
        null=True,
        blank=True,
        help_text=_("Vide : jusqu'à ce que vous les fermiez."),
    )
    signup_licence_required = models.BooleanField(
        _("licence FFT obligatoire pour s'inscrire"), default=False
    )
    public_requires_validation = models.BooleanField(
        _("publier seulement les feuilles validées"), default=False
    )
    share_penalties = models.BooleanField(
        _("répartir les pénalités entre les autres joueurs de la table"), default=False
    )
    penalty_defaults = models.JSONField(
        _("pénalités par défaut (points par type d'incident)"), default=dict, blank=True
    )
    tie_breaks = models.JSONField(_("critères de départage"), default=list, blank=True)
    normalise_tables = models.BooleanField(
        _("ramener les tables de 3 et de 5 à l'échelle de 4"), default=False
    )
    seating_seed = models.PositiveIntegerField(_("graine du placement"), default=0)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("arbitre"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)
    updated_at = models.DateTimeField(_("modifié le"), auto_now=True)

    class Meta:
        verbose_name = _("tournoi")
        verbose_name_plural = _("tournois")
        ordering = ["-date", "name"]

    def __str__(self) -> str:
        date = self.date.strftime("%d/%m/%Y") if hasattr(self.date, "strftime") else self.date
        return f"{self.name} ({date})"

    def get_absolute_url(self) -> str:
        return reverse("tournament-detail", args=[self.pk])

    @property
    def team_size(self) -> int | None:
        sizes: dict[str, int] = {self.Format.DUO: 2, self.Format.TEAM4: 4}
        return sizes.get(self.format)

    def deals_for_table_size(self, size: int) -> int:
        return {3: self.deals_per_table_3, 4: self.deals_per_table_4}.get(
            size, self.deals_per_table_5
        )


class TournamentRole(models.Model):
    """A person's role on one tournament besides its owner: co-arbiter or scorer."""

    class Role(models.TextChoices):
        ARBITER = "arbiter", _("Co-arbitre")
        SCORER = "scorer", _("Marqueur")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournoi"), on_delete=models.CASCADE, related_name="roles"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("utilisateur"),
        on_delete=models.CASCADE,
        related_name="tournament_roles",
    )
    role = models.CharField(_("rôle"), max_length=10, choices=Role.choices)
    created_at = models.DateTimeField(_("ajouté le"), auto_now_add=True)

    class Meta:
        verbose_name = _("rôle sur un tournoi")
        verbose_name_plural = _("rôles sur les tournois")
        ordering = ["tournament", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="unique_role_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.user} ({self.get_role_display()})"


class Team(models.Model):
    """A duo or a team of four; teammates never meet and their scores add up."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournoi"), on_delete=models.CASCADE, related_name="teams"
    )
    name = models.CharField(_("nom"), max_length=120)

    class Meta:
        verbose_name = _("équipe")
        verbose_name_plural = _("équipes")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_team_name")
        ]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    """A player's entry in one tournament."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Présent")
        WITHDRAWN = "withdrawn", _("Forfait")
        # Signed up online, not checked in at the door yet: seated nowhere, ranked nowhere.
        EXPECTED = "expected", _("Pré-inscrit")

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournoi"),
        on_delete=models.CASCADE,
        related_name="registrations",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("joueur"), on_delete=models.PROTECT, related_name="registrations"
    )
    team = models.ForeignKey(
        Team,
        verbose_name=_("équipe"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="members",
    )
    number = models.PositiveIntegerField(_("numéro"))
    status = models.CharField(
        _("état"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    # First position the player plays (late arrivals) and last one (withdrawals).
    first_position = models.PositiveSmallIntegerField(_("arrivé à la position"), default=1)
    withdrawn_after = models.PositiveSmallIntegerField(
        _("forfait après la position"), null=True, blank=True
    )
    # Confirms the opponents' deals at the table (printed on the itinerary card).
    pin = models.CharField(_("code de confirmation"), max_length=4, default=new_pin)
    # Online sign-up: when, and the code the player shows at the door (None otherwise).
    signed_up_at = models.DateTimeField(_("inscrit en ligne le"), null=True, blank=True)
    signup_code = models.CharField(
        _("code d'inscription"), max_length=8, null=True, blank=True, default=None
    )
    checked_in_at = models.DateTimeField(_("pointé le"), null=True, blank=True)

    class Meta:
        verbose_name = _("inscription")
        verbose_name_plural = _("inscriptions")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="unique_player_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "number"], name="unique_number_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "signup_code"], name="unique_signup_code_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.player}"

    def plays_position(self, number: int) -> bool:
        if self.status == self.Status.EXPECTED:
            return False  # pre-registered online, not (yet) at the door
        if number < self.first_position:
            return False
        return self.withdrawn_after is None or number <= self.withdrawn_after

    @property
    def start_label(self) -> str:
        """How FFT sheets name a player: table and seat at their first position, e.g. "3 N"."""
        return start_display(start_codes_of(self.seats.all()).get(self.pk, ""))


class Position(models.Model):
    """A round: every table plays its deals once; draft → published → closed."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Brouillon")
        PUBLISHED = "published", _("Publiée")
        # French "close" (adjective) is also Django's English "Close", translated "Fermer".
        CLOSED = "closed", pgettext_lazy("position status", "Close")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournoi"), on_delete=models.CASCADE, related_name="positions"
    )
    number = models.PositiveSmallIntegerField(_("numéro"))
    status = models.CharField(
        _("état"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    seed = models.PositiveIntegerField(_("graine"), default=0)
    published_at = models.DateTimeField(_("publiée le"), null=True, blank=True)
    # The position's clock: running while clock_ends_at is set, paused while
    # clock_paused_left (seconds) is set, not started when both are empty.
    clock_ends_at = models.DateTimeField(_("fin prévue"), null=True, blank=True)
    clock_paused_left = models.PositiveIntegerField(
        _("temps restant à la pause (secondes)"), null=True, blank=True
    )

    class Meta:
        verbose_name = _("position")
        verbose_name_plural = _("positions")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_position_number")
        ]

    def __str__(self) -> str:
        return _("Position %(number)s") % {"number": self.number}

    @property
    def is_public(self) -> bool:
        return self.status != self.Status.DRAFT


class Table(models.Model):
    """A table at one position."""

    class Game(models.TextChoices):
        FOUR = "four", _("4 joueurs")
        THREE = "three", _("3 joueurs")
        FIVE = "five", _("5 joueurs, roi appelé")
        FIVE_DEAD = "five_dead", _("5 joueurs avec un mort")

    position = models.ForeignKey(
        Position, verbose_name=_("position"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("numéro"))
    game = models.CharField(_("jeu"), max_length=10, choices=Game.choices, default=Game.FOUR)
    # Not a field: services.position_plan sets it, the seats in the score sheet's order.
    seat_list: list[Seat]

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["position", "number"]
        constraints = [
            models.UniqueConstraint(fields=["position", "number"], name="unique_table_number")
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}


class Seat(models.Model):
    """Who sits where at a table."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="seats"
    )
    # RESTRICT: a seated player can't be deleted alone, but a whole tournament can.
    registration = models.ForeignKey(
        Registration, verbose_name=_("joueur"), on_delete=models.RESTRICT, related_name="seats"
    )
    direction = models.CharField(_("orientation"), max_length=1, choices=Direction.choices)

    class Meta:
        verbose_name = _("place")
        verbose_name_plural = _("places")
        ordering = ["table", "direction"]
        constraints = [
            models.UniqueConstraint(fields=["table", "direction"], name="unique_seat_direction"),
            models.UniqueConstraint(
                fields=["table", "registration"], name="unique_player_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.direction}: {self.registration}"

    @property
    def index(self) -> int:
        return DIRECTIONS.index(self.direction)

    @property
    def label(self) -> str:
        """Table number and seat as printed on sheets: "3 N", "3 O", "3 — 5e"."""
        return seat_label(self.table.number, self.direction)


class ChangeLog(models.Model):
    """Who changed what, when, with the state before and after: nothing is overwritten.

    The one history of every write (results, seating, settings), in this lower app so that both
    apps record through tournament.audit.change_record. Its table keeps the name it had when it
    lived in scoring (no data moved); `sheet` points up at scoring's sheets by name only.
    """

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
        INCIDENT = "incident", _("incident")
        CHAMPIONSHIP = "championship", _("championnat")

    # Empty only for what spans tournaments (a season championship's settings).
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournoi"),
        on_delete=models.CASCADE,
        related_name="changes",
        null=True,
        blank=True,
    )
    sheet = models.ForeignKey(
        "scoring.ScoreSheet",
        verbose_name=_("feuille"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="changes",
    )
    object_type = models.CharField(_("objet"), max_length=40, choices=ObjectType.choices)
    object_id = models.PositiveBigIntegerField(_("identifiant"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    before = models.JSONField(_("avant"), null=True, blank=True)
    after = models.JSONField(_("après"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("par"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The author's username as text: the history stays readable when the account goes, and a
    # restored history names its authors without being credited to any local account.
    username = models.CharField(_("auteur"), max_length=150, blank=True)
    at = models.DateTimeField(_("le"), auto_now_add=True)

    class Meta:
        db_table = "scoring_changelog"  # where it was created, in the scoring app
        verbose_name = _("historique")
        verbose_name_plural = _("historique")
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.object_type} {self.object_id}"

    def save(self, *args, **kwargs):
        if self.user_id and not self.username and self.user is not None:
            self.username = self.user.get_username()
        super().save(*args, **kwargs)


def start_codes_of(seats: models.QuerySet[Seat]) -> dict[int, str]:
    """Registration pk → starting position code ("3 N") for these seats, in one query, by the
    one rule of `seats.start_codes` (the first position each registration played)."""
    rows = seats.order_by("table__position__number").values_list(
        "registration_id", "table__number", "direction"
    )
    return start_codes(rows)
