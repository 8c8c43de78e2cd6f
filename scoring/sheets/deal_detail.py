"""A played deal in words, besides its figures: what the paper sheet's detail columns hold
(taker, partner, bouts, points, poignées, petit au bout, chelem), for the sheet screen and the
completed sheets.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.core.notation.keys import SeatInfo
from scoring.models import Deal
from scoring.sheets.history import ALONE_LABELS, POIGNEE_LABELS, SIDE_LABELS


@dataclass(frozen=True)
class DealDetail:
    """A played deal besides its figures, in the desk's keys and words: everything the paper
    sheet's detail columns hold, so that a figure can be checked against the paper."""

    taker: str  # the taker's key: "N", "S", "E", "O", "5"
    partner: str = ""  # at a table of 5 with a called king: the partner's key
    # At a table of 5 with a called king and no partner: "dog" (roi au chien), "self" (appelé
    # soi-même), or "unknown" (typed before the reason was recorded); "" with a partner.
    alone: str = ""
    oudlers: str = ""
    points: str = ""
    poignees: tuple[str, ...] = ()  # "simple E", "double N"
    petit_au_bout: str = ""  # "attaque" or "défense"
    chelem: str = ""  # "annoncé réussi", "réussi sans annonce", ...
    figure_only: bool = False  # typed from the FFT sheet: no card fields are known

    @property
    def text(self) -> str:
        """One line for the screen: "E · 2 bouts · 49 points · poignée simple E · …"."""
        lead = f"{self.taker} + {self.partner}" if self.partner else self.taker
        if self.alone:
            lead += " " + self.alone_text
        return self.text_led_by(lead)

    def text_led_by(self, lead: str) -> str:
        """The line with `lead` in place of the taker's key (the phone names the contract and
        the taker: "Garde · DURAND Paul · 2 bouts · 45 points")."""
        parts = [lead]
        if self.figure_only:
            parts.append(gettext("saisie au chiffre (feuille FFT)"))
        else:
            parts.append(
                ngettext(
                    "%(oudlers)s bout",
                    "%(oudlers)s bouts",
                    int(self.oudlers) if self.oudlers.isdigit() else 0,
                )
                % {"oudlers": self.oudlers}
            )
            parts.append(gettext("%(points)s points") % {"points": self.points})
        parts += [gettext("poignée %(which)s") % {"which": p} for p in self.poignees]
        if self.petit_au_bout:
            parts.append(gettext("petit au bout : %(side)s") % {"side": self.petit_au_bout})
        if self.chelem:
            parts.append(gettext("chelem %(how)s") % {"how": self.chelem})
        return " · ".join(parts)

    @property
    def alone_words(self) -> str:
        """Why the taker plays alone, in words: "roi au chien", "appelé soi-même", or ""."""
        return str(ALONE_LABELS.get(self.alone, ""))

    @property
    def alone_text(self) -> str:
        """ "seul (roi au chien)", "seul (appelé soi-même)", or "seul" when not recorded."""
        if not self.alone:
            return ""
        words = self.alone_words
        if not words:
            return gettext("seul")
        return gettext("seul (%(why)s)") % {"why": words}


# (side that took every trick, announced) → how the chelem went.
CHELEM_WORDS = {
    ("attack", True): _("annoncé réussi"),
    ("attack", False): _("réussi sans annonce"),
    (None, True): _("annoncé chuté"),
    ("defense", False): _("fait par la défense"),
    ("defense", True): _("annoncé, fait par la défense"),
}


def deal_detail(deal: Deal, seats: SeatInfo) -> DealDetail | None:
    """The deal's detail for the screen and the completed sheet; None for a passed or
    cancelled deal."""
    if deal.passed or deal.cancelled or deal.taker is None:
        return None
    partner = seats.key_for_seat(deal.partner) if seats.called_king else ""
    # Alone at 5: the called king was in the chien, or the taker called themself (both score
    # the same); deals typed before the reason was recorded say only "seul".
    alone = ""
    if seats.called_king and deal.partner is None:
        alone = deal.alone or "unknown"
    if deal.is_figure_only:
        return DealDetail(
            taker=seats.key_for_seat(deal.taker), partner=partner, alone=alone, figure_only=True
        )
    chelem = CHELEM_WORDS.get((deal.chelem or None, deal.chelem_announced), "")
    return DealDetail(
        taker=seats.key_for_seat(deal.taker),
        partner=partner,
        alone=alone,
        oudlers=str(deal.oudlers),
        points="" if deal.points is None else f"{float(deal.points):g}".replace(".", ","),
        poignees=tuple(
            f"{POIGNEE_LABELS.get(size, size)} {seats.key_for_seat(seat)}"
            for seat, size in deal.poignees
        ),
        petit_au_bout=str(SIDE_LABELS.get(deal.petit_au_bout, "")),
        chelem=str(chelem),
    )
