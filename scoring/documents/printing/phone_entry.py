"""What the printed documents say about entering deals on phones: a table's code and QR code,
a player's personal code, and who entered and who confirmed a deal typed at the table.

Printing only reads: a table without a link (position not published yet, link revoked) simply
prints without one. Links are created when a position is published, never by a GET.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urljoin

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from scoring.models import Deal, TableLink
from scoring.qr import qr_svg
from tournament.models import Registration, Table, player_name


@dataclass(frozen=True)
class PhoneEntry:
    """The box printed on a table's blank sheet: its code, and a QR code of its entry page."""

    code: str
    url: str  # absolute URL of the table's entry page; "" when no base URL is known
    qr: str  # inline <svg>; "" without a URL (a relative link can't be scanned)
    hint: str  # HTML: the sentence, the address kept on one line


def usable_link(table: Table) -> TableLink | None:
    """The table's link if it was loaded with the table (select_related("link")) and not
    revoked; never a query, never a new link."""
    try:
        link = table.link
    except TableLink.DoesNotExist:
        return None
    return None if link is None or link.revoked else link


def site_address(base_url: str | None) -> str:
    """Where players type a table's code, as printed: "tarot.example.org/table/".

    An https address needs no scheme in a browser; a plain http one keeps it so it still works.
    """
    address = urljoin(base_url or "/", reverse("table-code"))
    return address.removeprefix("https://")


def phone_entry(link: TableLink, base_url: str | None) -> PhoneEntry:
    path = reverse("table-entry", args=[link.token])
    url = urljoin(base_url, path) if base_url else ""
    # The address stays on one line (WeasyPrint would break it after a slash).
    site = format_html('<span class="nowrap">{}</span>', site_address(base_url))
    hint = mark_safe(  # the sentence is escaped, the address is built by format_html
        escape(_("Saisie sur téléphone : scannez ou tapez le code sur %(site)s")) % {"site": site}
    )
    return PhoneEntry(code=link.code, url=url, qr=qr_svg(url) if url else "", hint=hint)


def player_label(number: int | None, last_name: str, first_name: str) -> str:
    """A player as the deal log names who entered or confirmed a deal: "12 – DUPONT Jean"."""
    name = player_name(last_name, first_name)
    return f"{number} – {name}" if number is not None else name


def arbiter_label(username: str) -> str:
    return _("arbitre %(username)s") % {"username": username}


def registration_label(registration: Registration | None) -> str:
    if registration is None:
        return ""
    player = registration.player
    return player_label(registration.number, player.last_name, player.first_name)


def entered_by(deal: Deal) -> str:
    """Who typed a deal at the table; "" for a deal typed at the desk."""
    return registration_label(deal.entered_by_player)


def confirmed_by(deal: Deal) -> str:
    """The player or the arbiter who confirmed a deal entered at the table; "" otherwise."""
    if deal.confirmed_by_player is not None:
        return registration_label(deal.confirmed_by_player)
    if deal.confirmed_by is not None:
        return arbiter_label(deal.confirmed_by.get_username())
    return ""


def entry_mention(deal: Deal) -> str:
    """The small line under a phone-entered deal on the completed sheet (HTML); "" for desk
    deals. A name never wraps in its middle: the line breaks before it, if it has to."""
    who = entered_by(deal)
    if not who:
        return ""
    names = {"who": _unbroken(who)}
    if deal.pending:
        sentence = _("Saisie par %(who)s, à confirmer")
    elif confirmer := confirmed_by(deal):
        sentence = _("Saisie par %(who)s, confirmée par %(confirmer)s")
        names["confirmer"] = _unbroken(confirmer)
    else:
        sentence = _("Saisie par %(who)s")
    return mark_safe(escape(sentence) % names)  # the sentence is escaped, the names too


def _unbroken(text: str) -> str:
    return format_html('<span class="nowrap">{}</span>', text)
