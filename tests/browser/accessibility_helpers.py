"""The accessibility tests' evening: one tournament with every page filled, and what each page
template is reached by (tests/browser/test_accessibility_browser.py)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

# Templates that are no page of their own, so the audit reaches them through the pages that use
# them: partials (`_*.html`, htmx answers included), the layouts other pages extend, and the
# PDFs' templates, those extending print/base.html (WeasyPrint renders them to paper; the
# screens under print/, its index and the loopback question, are audited). The error pages
# are audited like any page, rendered by the test itself
# (tests/browser/test_accessibility_browser.py: ERROR_TEMPLATES).
LAYOUTS = {
    "base.html",
    "error_base.html",
    "error_page.html",
    "tournament/base_signup.html",
    "tournament/base_tournament.html",
    "print/base.html",
}
PDF_LAYOUT = '{% extends "print/base.html" %}'


def page_templates() -> set[str]:
    """Every template under templates/ that renders a whole page on screen."""
    found = set()
    for path in TEMPLATES.rglob("*.html"):
        name = path.relative_to(TEMPLATES).as_posix()
        if path.name.startswith("_") or name in LAYOUTS:
            continue
        if PDF_LAYOUT in path.read_text(encoding="utf-8"):
            continue
        found.add(name)
    return found


# axe-core's impacts that fail the test; "moderate" and "minor" are reported, not failed.
FAILING_IMPACTS = ("serious", "critical")
AXE = Axe()

# axe-core runs on the page as shown (every rule, as axe_playwright_python runs it) and hands
# back only the failing violations, with what their report lines need: the whole result of a
# filled page is megabytes sent over Playwright's pipe for nothing.
_AXE_RUN = """async (impacts) => {
  const result = await axe.run({resultTypes: ['violations']});
  return result.violations.filter((v) => impacts.includes(v.impact)).map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map((node) => node.target),
    checks: [...v.nodes[0].any, ...v.nodes[0].all, ...v.nodes[0].none].map((c) => c.message),
  }));
}"""


def axe_in_every_page(context) -> None:
    """For a context whose every page is audited: the browser gets axe's script once and runs
    it in each document it opens, instead of 570 kB sent over Playwright's pipe per page."""
    context.add_init_script(script=AXE.axe_script)


def axe_violations(page) -> list[str]:
    """The serious and critical axe-core violations of the page as shown, one line each. axe's
    script goes into a document once: a later audit of the page (changed, resized) reuses it."""
    if page.evaluate("() => typeof window.axe === 'undefined'"):
        page.evaluate(AXE.axe_script)
    found = []
    for violation in page.evaluate(_AXE_RUN, list(FAILING_IMPACTS)):
        targets = [", ".join(map(str, target)) for target in violation["targets"]]
        checks = violation["checks"]
        why = checks[0] if checks else violation["help"]
        found.append(
            f"{violation['id']} ({violation['impact']}, {len(targets)}×): "
            f"{'; '.join(targets[:4])} — {why}"
        )
    return found


@dataclass
class Evening:
    """The ids the pages' addresses need."""

    club: int
    tournament: int
    upcoming: int
    registration: int
    expected: int
    signup_code: str
    sheet: int
    deal: int
    draft_table: int
    table_token: str
    hall_token: str
    championship: int
    championship_player: int
    event: int = 0
    event_bracket: int = 0
    licence_conflict: int = 0


def build_evening(staged, arbiter) -> Evening:
    """with_incidents (position 1 published, its sheet typed, two penalties), made public, on
    phones and paper, open to sign-ups, with a hall screen, position 2 drafted, one pré-inscrit,
    and a public championship of two finished evenings."""
    from scoring.models import Deal, ScoreSheet
    from scoring.sheets.services import deal_delete
    from scoring.sheets.table_entry import links_for_position
    from tests.scoring.season.championship_helpers import championship, evening, people
    from tournament.evening import clock, hall
    from tournament.evening.positions import position_generate
    from tournament.models import Tournament
    from tournament.signup import checkin
    from tournament.signup import services as signup

    tournament = staged("with_incidents")
    Tournament.objects.filter(pk=tournament.pk).update(
        is_public=True,
        entry_mode=Tournament.EntryMode.BOTH,
        signup_open=True,
        date=datetime.date.today(),
    )
    tournament.refresh_from_db()
    hall.hall_link_create(tournament=tournament)
    hall.hall_announcement_set(tournament=tournament, text="Buvette ouverte à la pause")
    tournament.refresh_from_db()
    first = tournament.positions.get(number=1)
    clock.clock_start(position=first)
    link = links_for_position(first)[0]
    position_generate(tournament=tournament)
    draft = tournament.positions.get(number=2)
    # Next week's tournament, open to sign-ups: three pré-inscrits, one already at the door.
    upcoming = Tournament.objects.create(
        name="Open du dimanche",
        date=datetime.date.today() + datetime.timedelta(days=7),
        signup_open=True,
        signup_capacity=40,
    )
    signed = [
        signup.signup_register(tournament=upcoming, last_name=last, first_name=first, club=club)
        for last, first, club in [
            ("MARTIN", "Lucie", "Tarot Club Angevin"),
            ("CÔTÉ", "François", "Excuse Nantaise"),
            ("PERRIN", "Inès", ""),
        ]
    ]
    checkin.registration_check_in(registration=signed[1], present=True)
    expected = signed[0]
    sheet = ScoreSheet.objects.get(tournament=tournament, table__position=first)
    # Deal 5 still to play: the phones show their entry form, the desk a sheet in progress.
    deal_delete(deal=sheet.deals.get(number=5))
    registration = tournament.registrations.get(player__last_name="DURAND")

    p = people("ANNE", "BRUNO", "CLAIRE", "DENIS")
    evenings = [
        evening("Soirée de septembre", 1, [{p["ANNE"]: 300, p["BRUNO"]: 100,
                                            p["CLAIRE"]: -100, p["DENIS"]: -300}], owner=arbiter),
        evening("Soirée d'octobre", 8, [{p["ANNE"]: -300, p["BRUNO"]: 100,
                                         p["CLAIRE"]: 500, p["DENIS"]: -300}], owner=arbiter),
    ]  # fmt: skip
    Tournament.objects.filter(pk__in=[t.pk for t in evenings]).update(is_public=True)
    season = championship(evenings, owner=arbiter, is_public=True)
    _club_season(arbiter, [tournament, *evenings], season)
    # A circuit too, inviting that club: its arbiter's circuit page has content.
    season.participating_clubs.add(arbiter.club_memberships.get().club)
    event, bracket = _event_cut(arbiter)
    return Evening(
        licence_conflict=_licence_conflict(arbiter.club_memberships.get().club, registration),
        club=arbiter.club_memberships.get().club_id,
        event=event.pk,
        event_bracket=bracket.pk,
        tournament=tournament.pk,
        upcoming=upcoming.pk,
        registration=registration.pk,
        expected=expected.pk,
        signup_code=(expected.signup_code or "").lower(),
        sheet=sheet.pk,
        deal=Deal.objects.filter(sheet=sheet).order_by("number").first().pk,
        draft_table=draft.tables.first().pk,
        table_token=link.token,
        hall_token=tournament.hall_token or "",
        championship=season.pk,
        championship_player=p["ANNE"].pk,
    )


def _club_season(arbiter, tournaments, season) -> None:
    """The arbiter's club holds the evening, the season and its championship, and announces a
    public tournament open to sign-ups: its public page shows every part."""
    from tournament.models import Tournament

    club = arbiter.club_memberships.get().club
    Tournament.objects.filter(pk__in=[t.pk for t in tournaments]).update(host_club=club)
    type(season).objects.filter(pk=season.pk).update(host_club=club)
    Tournament.objects.create(
        name="Grand prix de printemps",
        date=datetime.date.today() + datetime.timedelta(days=30),
        host_club=club,
        is_public=True,
        signup_open=True,
    )


def _licence_conflict(club, registration) -> int:
    """A licence of a player of tonight's tournament, which another club's entry took too: the
    conflict goes to the arbiter's club, which held the licence first (issue 36)."""
    from tournament.models import Club, LicenceConflict, Player

    other = Club.objects.create(name="Club voisin")
    mine = registration.player
    Player.objects.filter(pk=mine.pk).update(licence="0999001", origin_club=club)
    theirs = Player.objects.create(
        last_name="DUPONT", first_name="Marc", licence="0999001", origin_club=other
    )
    conflict = LicenceConflict.objects.create(
        licence="0999001", existing=mine, newcomer=theirs, existing_club=club, newcomer_club=other
    )
    return conflict.pk


def _event_cut(arbiter):
    """An event whose session 1 (8 players) was cut: a tie at the line, a consolante."""
    from scoring.events.cuts import cut_apply
    from tests.scoring.events.event_helpers import new_event, play, seat

    event, bracket = new_event(8, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [5, 9, 2]])
    cut_apply(source=bracket, rule="top_n", value=3, seed=1, user=arbiter)
    return event, bracket


def desk_pages(e: Evening) -> list[tuple[str, str]]:
    """(template, address) of the arbiter's pages, logged in."""
    t = e.tournament
    return [
        ("home.html", "/"),
        ("tournament/tournament_list.html", "/tournois/"),
        ("tournament/tournament_form.html", "/tournois/nouveau/"),
        ("tournament/tournament_edit.html", f"/tournois/{t}/modifier/"),
        ("tournament/tournament_detail.html", f"/tournois/{t}/"),
        ("tournament/staff.html", f"/tournois/{t}/equipe-arbitrale/"),
        ("tournament/player_list.html", f"/tournois/{t}/joueurs/"),
        ("tournament/player_import.html", f"/tournois/{t}/joueurs/import/"),
        ("tournament/player_merge.html", "/joueurs/fusionner/"),
        ("tournament/player_itinerary.html", f"/tournois/{t}/joueurs/{e.registration}/"),
        ("tournament/team_list.html", f"/tournois/{t}/equipes/"),
        ("tournament/checkin.html", f"/tournois/{e.upcoming}/pointage/"),
        ("tournament/signup_settings.html", f"/tournois/{e.upcoming}/inscriptions-en-ligne/"),
        ("tournament/position_list.html", f"/tournois/{t}/positions/"),
        ("tournament/position_detail.html", f"/tournois/{t}/positions/1/"),
        ("tournament/position_detail.html", f"/tournois/{t}/positions/2/"),
        ("tournament/position_who_sits_where.html", f"/tournois/{t}/positions/1/qui-est-ou/"),
        ("tournament/seat_swap.html", f"/tournois/{t}/positions/2/echanger/"),
        ("tournament/backup_restore.html", "/tournois/restaurer/"),
        ("scoring/entry_overview.html", f"/tournois/{t}/saisie/"),
        ("scoring/sheet_detail.html", f"/feuilles/{e.sheet}/"),
        ("scoring/sheet_history.html", f"/feuilles/{e.sheet}/historique/"),
        ("scoring/sheet_open.html", f"/tables/{e.draft_table}/feuille/"),
        ("scoring/sheet_free_form.html", f"/tournois/{t}/feuilles/libre/"),
        ("scoring/deal_adjust.html", f"/donnes/{e.deal}/score-arbitral/"),
        ("scoring/incident_list.html", f"/tournois/{t}/incidents/"),
        ("scoring/incident_form.html", f"/tournois/{t}/incidents/nouveau/"),
        ("scoring/penalty_settings.html", f"/tournois/{t}/penalites/"),
        ("scoring/ranking.html", f"/tournois/{t}/classement/"),
        ("scoring/ranking_player.html", f"/tournois/{t}/classement/joueur/{e.registration}/"),
        ("statistics/tournament.html", f"/tournois/{t}/statistiques/"),
        ("print/index.html", f"/tournois/{t}/impressions/"),
        # Phones enter deals and the site answers on loopback: blank sheets ask first.
        (
            "print/loopback_confirm.html",
            f"/tournois/{t}/impressions/positions/1/feuilles-vierges.pdf",
        ),
        ("scoring/events/event_list.html", "/epreuves/"),
        ("scoring/events/event_form.html", "/epreuves/nouvelle/"),
        ("scoring/events/event_detail.html", f"/epreuves/{e.event}/"),
        ("scoring/events/cut_form.html", f"/tournois/{e.event_bracket}/coupe/"),
        ("clubs/club_members.html", f"/clubs/{e.club}/membres/"),
        ("clubs/club_invitations.html", "/clubs/invitations/"),
        ("clubs/upload_keys.html", f"/clubs/{e.club}/cles-d-envoi/"),
        ("clubs/club_identity.html", f"/clubs/{e.club}/identite/"),
        ("scoring/received_versions.html", f"/tournois/{t}/versions-recues/"),
        ("scoring/comite_settings.html", "/comite/serveur/"),
        ("scoring/tournament_send.html", f"/tournois/{t}/envoi-au-comite/"),
        ("scoring/deals_waiting.html", f"/tournois/{t}/donnes-en-attente/"),
        ("tournament/licence_conflicts.html", f"/clubs/{e.club}/conflits-licence/"),
        ("tournament/licence_conflict.html", f"/conflits-licence/{e.licence_conflict}/"),
        ("championship/list.html", "/championnats/"),
        ("championship/form.html", "/championnats/nouveau/"),
        ("championship/detail.html", f"/championnats/{e.championship}/"),
        (
            "championship/player.html",
            f"/championnats/{e.championship}/joueur/{e.championship_player}/",
        ),
        ("championship/circuit_list.html", "/championnats/circuits/"),
        ("championship/circuit_detail.html", f"/championnats/circuits/{e.championship}/"),
    ]


def players_pages(e: Evening) -> list[tuple[str, str]]:
    """(template, address) of the pages players open on their phones, no login."""
    t = e.tournament
    return [
        ("scoring/public_tournament.html", f"/public/{t}/"),
        ("scoring/public_me.html", f"/public/{t}/moi/"),
        ("scoring/public_me.html", f"/public/{t}/moi/?q=du"),
        ("scoring/public_player.html", f"/public/{t}/joueur/{e.registration}/"),
        ("statistics/player.html", f"/public/{t}/joueur/{e.registration}/statistiques/"),
        ("championship/detail.html", f"/public/championnat/{e.championship}/"),
        (
            "championship/player.html",
            f"/public/championnat/{e.championship}/joueur/{e.championship_player}/",
        ),
        ("scoring/public_person.html", f"/public/{t}/joueur/{e.registration}/parcours/"),
        ("clubs/public_club_list.html", "/public/clubs/"),
        ("clubs/public_club.html", f"/public/clubs/{e.club}/"),
        ("tournament/signup.html", f"/inscription/{e.upcoming}/"),
        (
            "tournament/signup_confirmation.html",
            f"/inscription/{e.upcoming}/confirmation/{e.signup_code}/",
        ),
        ("scoring/table_code.html", "/table/"),
        ("scoring/table_entry.html", f"/table/{e.table_token}/"),
        ("scoring/table_closed.html", "/table/lien-perime/"),
    ]


def anonymous_pages(e: Evening) -> list[tuple[str, str]]:
    """(template, address) of the other pages seen without a login."""
    return [
        ("registration/login.html", "/connexion/"),
        ("hall/screen.html", f"/salle/{e.hall_token}/"),
        # The club's public pages and a person's results, at the desk's size too (the phone's
        # are in players_pages).
        ("clubs/public_club_list.html", "/public/clubs/"),
        ("clubs/public_club.html", f"/public/clubs/{e.club}/"),
        ("scoring/public_person.html", f"/public/{e.tournament}/joueur/{e.registration}/parcours/"),
    ]


# The venue's pages (issue 26), audited on their own event by
# test_accessibility_browser.test_the_venue_pages_have_no_serious_axe_violation.
VENUE_TEMPLATES = {
    "scoring/events/venue/desk.html",
    "scoring/events/venue/public_event.html",
    # The hall screen's one template, here given the venue's title and slides.
    "hall/screen.html",
}


def venue_pages(arbiter) -> tuple[list[tuple[str, str]], list[tuple[str, str]], str]:
    """A public event cut after session 1, session 2 under way in both brackets, a hall link:
    (template, address) of the desk's pages, of the public's, and the hall screen's address."""
    from tests.scoring.events.venue_helpers import cut_event, start_session_2
    from tournament.evening import hall

    result = cut_event(arbiter, public=True)
    start_session_2(result)
    token = hall.hall_link_create(tournament=result.main).hall_token
    event = result.event.pk
    desk = [
        ("scoring/events/venue/desk.html", f"/epreuves/{event}/salle/"),
        ("scoring/events/venue/desk.html", f"/epreuves/{event}/salle/?seance=1"),
    ]
    public = [
        ("scoring/events/venue/public_event.html", f"/public/epreuves/{event}/"),
        ("scoring/events/venue/public_event.html", f"/public/epreuves/{event}/?seance=1"),
    ]
    return desk, public, f"/salle/epreuve/{token}/"


def event_player_pages(arbiter) -> list[str]:
    """The pages a player opens on a phone during an event (issue 26): the event cut after
    session 1 (half carried), session 2 under way in both brackets, on phones: the event's
    page, the main bracket's page and "ma table", a consolante player's card, a session-2
    table's entry page."""
    from scoring.sheets.table_entry import links_for_position
    from tests.scoring.events.venue_helpers import cut_event, start_session_2
    from tournament.models import Tournament

    result = cut_event(arbiter, public=True)
    brackets = Tournament.objects.filter(pk__in=[result.main.pk, result.consolante.pk])
    brackets.update(entry_mode=Tournament.EntryMode.BOTH)
    start_session_2(result)
    main, consolante = result.main, result.consolante
    player = consolante.registrations.order_by("number").first()
    link = links_for_position(main.positions.get(number=1))[0]
    event = result.event.pk
    return [
        f"/public/epreuves/{event}/",
        f"/public/epreuves/{event}/?seance=1",
        f"/public/{main.pk}/",
        f"/public/{main.pk}/moi/?q=P",
        f"/public/{consolante.pk}/joueur/{player.pk}/",
        f"/table/{link.token}/",
    ]
