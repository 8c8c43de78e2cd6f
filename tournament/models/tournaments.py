"""A tournament with the organiser's settings, and the people who run it besides its owner."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from . import choices
from .clubs import Club
from .fields import Stamped, account_link, choice_field, optional_link, tournament_part

DEALS_PER_TABLE = [MinValueValidator(1), MaxValueValidator(30)]


class Tournament(Stamped):
    """A tournament in donnes libres, with the organiser's settings."""

    Format = choices.Format
    Remainder = choices.Remainder
    EntryMode = choices.EntryMode
    SheetStyle = choices.SheetStyle
    Status = choices.TournamentStatus
    Bracket = choices.Bracket

    name = models.CharField(_("nom"), max_length=200)
    date = models.DateField(_("date"))
    venue = models.CharField(_("lieu"), max_length=200, blank=True)
    # The name printed on its pages and sheets (an organiser's wording, possibly two clubs');
    # `host_club` is the club of this server the tournament belongs to (who may run it, whose
    # roster it reads). Empty only for a tournament made outside any club (a superuser's).
    club = models.CharField(_("club organisateur"), max_length=200, blank=True)
    host_club = optional_link(Club, _("club"), on_delete=models.PROTECT, related_name="tournaments")
    format = choice_field(_("formule"), Format.INDIVIDUAL, max_length=12)
    positions_count = models.PositiveSmallIntegerField(_("nombre de positions"), default=4)
    # A table plays at least one deal a position; 30 is far beyond any evening.
    deals_per_table_4 = models.PositiveSmallIntegerField(
        _("donnes par table de 4"), default=5, validators=DEALS_PER_TABLE
    )
    deals_per_table_5 = models.PositiveSmallIntegerField(
        _("donnes par table de 5"), default=5, validators=DEALS_PER_TABLE
    )
    deals_per_table_3 = models.PositiveSmallIntegerField(
        _("donnes par table de 3"), default=6, validators=DEALS_PER_TABLE
    )
    remainder = choice_field(
        _("joueurs en surnombre"),
        Remainder.FIVE,
        max_length=12,
        help_text=_("Quand le nombre de joueurs n'est pas un multiple de 4."),
    )
    rule_set = models.CharField(_("règlement"), max_length=20, default="fft")
    status = choice_field(_("état"), Status.DRAFT)
    is_public = models.BooleanField(
        _("classement public"),
        default=False,
        help_text=_("Les joueurs peuvent suivre le classement en direct."),
    )
    entry_mode = choice_field(
        _("saisie des donnes"),
        EntryMode.PAPER,
        max_length=8,
        help_text=_(
            "Avec les téléphones, chaque table saisit ses donnes par son QR code ; un adversaire "
            "les confirme avec son code personnel."
        ),
    )
    sheet_style = choice_field(
        _("feuille de marque"),
        SheetStyle.DETAILED,
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
    owner = account_link(_("arbitre"), related_name="tournaments")
    # A bracket of a big event's session (tournament.models.events); empty for a tournament of
    # its own. PROTECT: an event goes only once its brackets (and their deals) are gone.
    event = models.ForeignKey(
        "tournament.Event",
        verbose_name=_("épreuve"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="brackets",
    )
    session = models.PositiveSmallIntegerField(
        _("séance"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    bracket = choice_field(_("tableau"), Bracket.MAIN, max_length=12)
    carry_over_percent = models.PositiveSmallIntegerField(
        _("report du cumul (%)"),
        default=100,
        validators=[MaxValueValidator(100)],
        help_text=_(
            "La part du score cumulé des séances précédentes reprise dans cette séance "
            "(sans effet en séance 1)."
        ),
    )
    # Table numbers are unique across the venue: a session's brackets number theirs from here.
    first_table = models.PositiveSmallIntegerField(
        _("numéro de la première table"), default=1, validators=[MinValueValidator(1)]
    )

    class Meta:
        verbose_name = _("tournoi")
        verbose_name_plural = _("tournois")
        ordering = ["-date", "name"]
        constraints = [
            # Null events never collide (NULL is distinct on SQLite and PostgreSQL alike).
            models.UniqueConstraint(
                fields=["event", "session", "bracket"], name="unique_bracket_per_session"
            )
        ]

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

    Role = choices.Role

    tournament = tournament_part("roles")
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
