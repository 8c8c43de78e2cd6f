"""Score sheets, deals with their stored per-seat results, incidents, penalties and history."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring import choices, counting, late, uploads  # noqa: F401 - their models, registered
from scoring.core.engine_fields import ENGINE_FIELDS
from tournament.models import Club, Direction, Registration, Table, Tournament
from tournament.models.fields import Stamped, account_link, optional_link, tournament_part


class ScoreSheet(models.Model):
    """A feuille de marque: one per table and position, or free (a club evening)."""

    Status = choices.SheetStatus

    tournament = tournament_part("sheets")
    table = models.OneToOneField(
        Table,
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="sheet",
    )
    title = models.CharField(_("intitulé"), max_length=120, blank=True)
    status = models.CharField(
        _("état"), max_length=12, choices=Status.choices, default=Status.IN_PROGRESS
    )
    # Optimistic concurrency: every save bumps it; a save based on an older version is refused.
    version = models.PositiveIntegerField(_("version"), default=0)
    # Deals the arbiter allowed beyond the tournament's deals per table for this table size.
    extra_deals = models.PositiveSmallIntegerField(
        _("donnes supplémentaires autorisées"), default=0
    )
    # Bilans written on the paper sheet, by seat index, for the arbiter's cross-check.
    paper_bilans = models.JSONField(_("bilans de la feuille papier"), null=True, blank=True)
    # Who vouched for it at the table, by seat (scoring.sheets.table_entry.signatures).
    signatures = models.JSONField(_("visée par les joueurs"), default=list, blank=True)
    created_at = models.DateTimeField(_("créée le"), auto_now_add=True)
    updated_at = models.DateTimeField(_("modifiée le"), auto_now=True)

    class Meta:
        verbose_name = _("feuille de marque")
        verbose_name_plural = _("feuilles de marque")
        ordering = ["tournament", "table__position__number", "table__number", "pk"]

    def __str__(self) -> str:
        table = self.table  # None on a free sheet, without a query
        if table is not None:
            return _("Position %(position)s, table %(table)s") % {
                "position": table.position.number,
                "table": table.number,
            }
        return self.title or _("Feuille libre %(pk)s") % {"pk": self.pk}


class SheetPlayer(models.Model):
    """A player's column on a sheet, with the seat index the engine uses."""

    sheet = models.ForeignKey(
        ScoreSheet, verbose_name=_("feuille"), on_delete=models.CASCADE, related_name="players"
    )
    # RESTRICT: a player on a sheet can't be deleted alone, but a whole tournament can.
    registration = models.ForeignKey(
        Registration, verbose_name=_("joueur"), on_delete=models.RESTRICT, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(_("place"))
    direction = models.CharField(
        _("orientation"), max_length=1, choices=Direction.choices, blank=True
    )
    start_label = models.CharField(_("position de départ"), max_length=12, blank=True)

    class Meta:
        verbose_name = _("joueur de la feuille")
        verbose_name_plural = _("joueurs de la feuille")
        ordering = ["sheet", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "seat"], name="unique_sheet_seat"),
            models.UniqueConstraint(fields=["sheet", "registration"], name="unique_sheet_player"),
        ]

    def __str__(self) -> str:
        return f"{self.seat}: {self.registration.player}"


class TableLink(models.Model):
    """A table's own entry page: a secret link (QR code) and a short code to type instead."""

    table = models.OneToOneField(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="link"
    )
    token = models.CharField(_("jeton"), max_length=64, unique=True)
    code = models.CharField(_("code de table"), max_length=12, unique=True)
    revoked = models.BooleanField(_("révoqué"), default=False)
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("lien de table")
        verbose_name_plural = _("liens de table")

    def __str__(self) -> str:
        return self.code


class Deal(models.Model):
    """One deal: the engine's inputs and the per-seat result stored when it was saved."""

    Contract = choices.Contract
    Side = choices.Side
    Alone = choices.Alone

    sheet = models.ForeignKey(
        ScoreSheet, verbose_name=_("feuille"), on_delete=models.CASCADE, related_name="deals"
    )
    number = models.PositiveSmallIntegerField(_("donne n°"))
    dealer = models.PositiveSmallIntegerField(_("donneur"), null=True, blank=True)
    passed = models.BooleanField(_("tous passent"), default=False)
    cancelled = models.BooleanField(_("donne annulée"), default=False)
    # Engine inputs (null on a passed or cancelled deal).
    players = models.PositiveSmallIntegerField(_("joueurs"))
    taker = models.PositiveSmallIntegerField(_("preneur"), null=True, blank=True)
    partner = models.PositiveSmallIntegerField(_("partenaire"), null=True, blank=True)
    # At a table of 5 with a called king and no partner: the called king was in the chien, or
    # the taker called themself. Blank elsewhere; blank with no partner at 5 (deals typed
    # before it was recorded) means "alone, reason unknown".
    alone = models.CharField(_("seul"), max_length=4, choices=Alone.choices, blank=True)
    dead = models.PositiveSmallIntegerField(_("mort"), null=True, blank=True)
    contract = models.CharField(_("contrat"), max_length=12, choices=Contract.choices, blank=True)
    oudlers = models.PositiveSmallIntegerField(_("bouts"), null=True, blank=True)
    points = models.DecimalField(_("points"), max_digits=3, decimal_places=1, null=True, blank=True)
    poignees = models.JSONField(_("poignées"), default=list, blank=True)
    petit_au_bout = models.CharField(
        _("petit au bout"), max_length=8, choices=Side.choices, blank=True
    )
    chelem_announced = models.BooleanField(_("chelem annoncé"), default=False)
    chelem = models.CharField(_("chelem"), max_length=8, choices=Side.choices, blank=True)
    arbiter_called = models.BooleanField(_("arbitre appelé"), default=False)
    rule_set = models.CharField(_("règlement"), max_length=20, default="fft")
    # Stored result: one int per seat, summing to zero, so rankings never recompute the rules.
    scores = models.JSONField(_("scores"), default=list)
    adjusted = models.BooleanField(_("score arbitral"), default=False)
    adjustment_reason = models.TextField(_("motif de l'ajustement"), blank=True)
    computed_scores = models.JSONField(_("scores calculés"), default=list, blank=True)
    score_not_recorded = models.BooleanField(
        _("score non marqué (choix du preneur après renonce)"), default=False
    )
    created_by = account_link(_("saisi par"))
    # Deals entered at the table on a phone: the id the phone made (a resend is recognised),
    # who entered it, and who of the other side confirmed it (or which arbiter did).
    client_id = models.CharField(
        _("identifiant du téléphone"), max_length=64, null=True, blank=True
    )
    pending = models.BooleanField(_("à confirmer"), default=False)
    entered_by_player = optional_link(
        Registration, _("saisie par le joueur"), on_delete=models.SET_NULL
    )
    confirmed_by_player = optional_link(
        Registration, _("confirmée par le joueur"), on_delete=models.SET_NULL
    )
    confirmed_by = account_link(_("confirmée par l'arbitre"))
    confirmed_at = models.DateTimeField(_("confirmée le"), null=True, blank=True)
    # Contested at the table: pending too, until its enterer corrects it or the arbiter rules.
    disputed = models.BooleanField(_("contestée"), default=False)
    dispute_note = models.CharField(_("motif de la contestation"), max_length=200, blank=True)
    disputed_by_player = optional_link(
        Registration, _("contestée par le joueur"), on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(_("saisie le"), auto_now_add=True)
    updated_at = models.DateTimeField(_("modifiée le"), auto_now=True)
    objects = counting.DealQuerySet.as_manager()  # counted(), waiting(): the one rule

    class Meta:
        verbose_name = _("donne")
        verbose_name_plural = _("donnes")
        ordering = ["sheet", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="unique_deal_number"),
            models.UniqueConstraint(
                fields=["sheet", "client_id"],
                condition=models.Q(client_id__isnull=False),
                name="unique_deal_client_id",
            ),
        ]

    def __str__(self) -> str:
        return _("Donne %(number)s") % {"number": self.number}

    @property
    def is_figure_only(self) -> bool:
        """Typed from the FFT sheet: contract, taker and figures, without the card fields."""
        played = not (self.passed or self.cancelled) and self.taker is not None
        return played and self.points is None

    def engine_input(self) -> dict[str, Any]:
        """The engine's Deal fields (ENGINE_FIELDS), as the JSON contract names them."""
        data = {name: getattr(self, name) for name in ENGINE_FIELDS}
        data.update(
            points=float(self.points) if self.points is not None else None,
            poignees=[list(p) for p in self.poignees],
            petit_au_bout=self.petit_au_bout or None,
            chelem=self.chelem or None,
        )
        return data


class DealScore(models.Model):
    """A player's score on one deal, denormalised from Deal.scores for ranking queries."""

    deal = models.ForeignKey(
        Deal, verbose_name=_("donne"), on_delete=models.CASCADE, related_name="player_scores"
    )
    registration = models.ForeignKey(
        Registration, verbose_name=_("joueur"), on_delete=models.CASCADE, related_name="scores"
    )
    seat = models.PositiveSmallIntegerField(_("place"))
    points = models.IntegerField(_("points"))
    objects = counting.DealScoreQuerySet.as_manager()

    class Meta:
        verbose_name = _("score d'une donne")
        verbose_name_plural = _("scores des donnes")
        constraints = [
            models.UniqueConstraint(fields=["deal", "registration"], name="unique_deal_score")
        ]
        indexes = [models.Index(fields=["registration", "deal"])]

    def __str__(self) -> str:
        return f"{self.deal}: {self.registration} {self.points:+d}"


class Incident(models.Model):
    """A fault recorded by the arbiter, with its decision and optional penalty points."""

    Kind = choices.IncidentKind

    tournament = tournament_part("incidents")
    sheet = optional_link(
        ScoreSheet, _("feuille"), on_delete=models.CASCADE, related_name="incidents"
    )
    deal = optional_link(Deal, _("donne"), on_delete=models.SET_NULL, related_name="incidents")
    registration = optional_link(
        Registration, _("joueur fautif"), on_delete=models.CASCADE, related_name="incidents"
    )
    # The deal's number on the sheet: a fausse donne is recorded before its deal has a row.
    deal_number = models.PositiveSmallIntegerField(_("donne n°"), null=True, blank=True)
    kind = models.CharField(_("type"), max_length=20, choices=Kind.choices)
    decision = models.TextField(_("décision de l'arbitre"), blank=True)
    note = models.TextField(_("note"), blank=True)
    penalty_points = models.PositiveIntegerField(_("points de pénalité"), default=0)
    # Shared among the other players of the table (zero-sum) instead of only charged.
    shared = models.BooleanField(_("répartie entre les autres joueurs"), default=False)
    created_by = account_link(_("arbitre"))
    created_at = models.DateTimeField(_("enregistré le"), auto_now_add=True)

    class Meta:
        verbose_name = _("incident")
        verbose_name_plural = _("incidents")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.registration})"


class Championship(Stamped):
    """A club's season "challenge": points earned in several finished tournaments add up.

    The ranking itself is pure code (`scoring.core.championship`), computed on read from the
    tournaments' final standings.
    """

    Method = choices.ChampionshipMethod

    name = models.CharField(_("nom"), max_length=120)
    season = models.CharField(_("saison"), max_length=20, blank=True)
    owner = account_link(_("organisateur"), related_name="championships")
    # The club whose season it is (its public pages list it): the owner's club when created.
    host_club = optional_link(
        Club, _("club"), on_delete=models.PROTECT, related_name="championships"
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("co-organisateurs"),
        blank=True,
        related_name="co_championships",
    )
    tournaments = models.ManyToManyField(
        Tournament, verbose_name=_("tournois"), blank=True, related_name="championships"
    )
    method = models.CharField(
        _("points par tournoi"), max_length=8, choices=Method.choices, default=Method.RANK
    )
    scale = models.JSONField(_("barème"), default=list, blank=True)
    floor = models.PositiveSmallIntegerField(_("points au-delà du barème"), default=0)
    best_of = models.PositiveSmallIntegerField(
        _("meilleurs résultats retenus"), null=True, blank=True
    )
    min_attendance = models.PositiveSmallIntegerField(_("participation minimale"), default=0)
    tie_breaks = models.JSONField(_("critères de départage"), default=list, blank=True)
    is_public = models.BooleanField(_("classement public"), default=False)
    # A circuit: the clubs invited to it, whose arbiters add their own tournaments
    # (scoring.season.circuits). Empty for a club's own season championship.
    participating_clubs = models.ManyToManyField(
        Club, verbose_name=_("clubs du circuit"), blank=True, related_name="circuits"
    )

    class Meta:
        verbose_name = _("championnat")
        verbose_name_plural = _("championnats")
        ordering = ["-season", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.season})" if self.season else self.name


class TableCall(models.Model):
    """A table calls the arbiter from a phone: shown on the cockpit and the desk until an arbiter
    takes it. One open call a table at a time (a second tap answers the first)."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="calls"
    )
    deal_number = models.PositiveSmallIntegerField(_("donne n°"), null=True, blank=True)
    note = models.CharField(_("message"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("appel le"), auto_now_add=True)
    taken_at = models.DateTimeField(_("pris en charge le"), null=True, blank=True)
    taken_by = account_link(_("pris en charge par"))

    class Meta:
        verbose_name = _("appel de l'arbitre")
        verbose_name_plural = _("appels de l'arbitre")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(taken_at__isnull=True),
                name="one_open_call_per_table",
            )
        ]

    def __str__(self) -> str:
        return _("Appel de la table %(number)s") % {"number": self.table.number}


class LiveArtifact(models.Model):
    """What a live page serves, computed once per revision of its tournament and shared by every
    server process (scoring.live.versioned): a ranking, a rendered page. One row per tournament,
    `what` and `variant` (audience, language, page), replaced in place, so the table holds the
    latest of each; `claim` names the revision a process is computing."""

    tournament = tournament_part("live_artifacts")
    what = models.CharField(_("contenu"), max_length=20)
    variant = models.CharField(_("variante"), max_length=40)
    revision = models.CharField(_("révision"), max_length=80)
    body = models.BinaryField(_("contenu calculé"))
    computed_at = models.DateTimeField(_("calculé le"))
    compute_seconds = models.FloatField(_("durée du calcul (secondes)"), default=0)
    claim = models.CharField(_("révision en calcul"), max_length=80, blank=True, default="")
    claimed_at = models.DateTimeField(_("calcul commencé le"), null=True, blank=True)

    class Meta:
        verbose_name = _("contenu en direct")
        verbose_name_plural = _("contenus en direct")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "what", "variant"], name="one_live_artifact_per_variant"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.what} {self.variant} @{self.revision}"
