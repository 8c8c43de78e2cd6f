"""Shared fixtures: users with each role, the browser and the live server."""

import gc
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from hypothesis import settings as hypothesis_settings

from tests.browser_helpers import DESK, open_page
from tests.club_helpers import join_club
from tournament.access.roles import ARBITER, SCORER

ENGLISH_PO = Path(__file__).resolve().parent.parent / "locale" / "en" / "LC_MESSAGES" / "django.po"
ENGLISH_MO = ENGLISH_PO.with_suffix(".mo")

# Property and fuzz tests draw the same examples on every run, so that CI can't fail on a draw
# nobody saw locally; HYPOTHESIS_PROFILE=explore draws new ones (run it before a release).
# No deadline: an example is judged by what it returns, never by the wall clock (under coverage
# and two busy processes a 0.2 ms example once took 316 ms and failed the notation property).
hypothesis_settings.register_profile("repeatable", derandomize=True, database=None, deadline=None)
hypothesis_settings.register_profile("explore", max_examples=200, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

# The tests' password hasher: MD5, a single digest instead of PBKDF2's million iterations (about
# 870 tests log an arbiter or a scorer in). The real hashers stay after it, so a hash made by
# them (a fixture, a server of its own) still checks; tests/project/test_password_hashing.py
# holds the production default to PBKDF2 and exercises it once.
FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_configure(config):
    # The collector less often: the suite allocates a great many short-lived objects (querysets,
    # templates, requests), and the default thresholds ran a full collection over every model,
    # URL pattern and module already loaded again and again (about 5% of a worker's CPU).
    # Everything alive by now (Django, the project's modules) is frozen out of collections.
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)

    from django.conf import settings

    real = [h for h in settings.PASSWORD_HASHERS if h not in FAST_PASSWORD_HASHERS]
    settings.PASSWORD_HASHERS = [*FAST_PASSWORD_HASHERS, *real]


# What a second database engine can change (tests/engine.py): the files it lists, tests marked
# `engine`, and those marked `database` (servers of their own on DATABASE_URL). The rest run once,
# on SQLite: `pytest --engine-only` is `make test`'s PostgreSQL pass.


def pytest_addoption(parser):
    parser.addoption(
        "--engine-only",
        action="store_true",
        help="only the tests whose subject the database engine can change (tests/engine.py)",
    )


def depends_on_the_engine(item) -> bool:
    if item.get_closest_marker("browser"):
        return False
    return bool(item.get_closest_marker("engine") or item.get_closest_marker("database"))


def pytest_collection_modifyitems(config, items):
    from tests.engine import engine_test_files

    files = engine_test_files()
    root = Path(str(config.rootpath))
    for item in items:
        if str(Path(str(item.path)).relative_to(root)) in files:
            item.add_marker(pytest.mark.engine)
    if config.getoption("--engine-only"):
        kept = [item for item in items if depends_on_the_engine(item)]
        dropped = [item for item in items if not depends_on_the_engine(item)]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
    slow_first(items)


def slow_first(items) -> None:
    """The modules holding a test marked `slow` first, each module's tests kept together and in
    order (module fixtures are built once). The workers then end on short tests, which they
    steal from each other (--dist worksteal), instead of one of them idling while the other
    runs a 30-second test last."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)


def _staff_of_new_tournaments(user, role: str | None):
    """Make `user` the owner (role None) or a scorer of every tournament the test creates.

    Roles are per tournament: the feature tests act as *the* arbiter or scorer of the
    tournaments they build. The access tests build their own users and roles instead.
    """
    from django.db.models.signals import post_save

    from tournament.models import Tournament, TournamentRole

    def grant(sender, instance, created, **kwargs):
        if not created:
            return
        if role is None and instance.owner_id is None:
            Tournament.objects.filter(pk=instance.pk).update(owner=user)
            instance.owner = user
        elif role is not None:
            TournamentRole.objects.get_or_create(tournament=instance, user=user, role=role)

    post_save.connect(grant, sender=Tournament, weak=False, dispatch_uid=f"staff-{user.pk}")
    return lambda: post_save.disconnect(sender=Tournament, dispatch_uid=f"staff-{user.pk}")


@pytest.fixture(autouse=True)
def no_purge_by_chance(monkeypatch):
    """One throttled attempt in PURGE_ONE_IN also purges stale counters, drawn at random: a
    test counting a request's statements found one DELETE more about once in 500 attempts.
    The draw is tested on its own (tests/tournament/access/test_throttle.py)."""
    from tournament.access import throttle

    monkeypatch.setattr(throttle, "_maybe_purge", lambda now: None)


@pytest.fixture(autouse=True)
def fresh_public_standings(settings):
    """A test reads the standings right after its writes: no coalescing of the public ranking
    (scoring.live.shared), except where a test turns it on to test it."""
    settings.LIVE_STANDINGS_COALESCE = 0


# The seating solver's budget through the site (settings.SEATING_EXACT_BUDGET, 2 deterministic
# seconds): a tenth in the tests, enough for the exact solver to run and prove the small fields'
# plans they check. What it finds at the real budget is tested on the pure generator
# (tests/tournament/core/seating/, `generate`'s own default or an explicit exact_budget).
TEST_SEATING_BUDGET = 0.2
# The annealing's steps likewise (settings.SEATING_SEARCH_STEPS, at most 600,000): 2,000 a run,
# so the site's tests still anneal; their assertions hold on the tabu search's and the exact
# solver's plans (every test of tests/tournament/evening passes with no annealing at all). A test
# that judges a plan at the site's real budgets asks for `real_seating_budget`.
TEST_SEARCH_STEPS = 6_000


@pytest.fixture(autouse=True)
def small_seating_budget(settings):
    settings.SEATING_EXACT_BUDGET = TEST_SEATING_BUDGET
    settings.SEATING_SEARCH_STEPS = TEST_SEARCH_STEPS


@pytest.fixture
def real_seating_budget(settings):
    """The generator's real budgets, exact solver and annealing, for a test about plan quality."""
    from tournament import settings as site_settings

    settings.SEATING_EXACT_BUDGET = site_settings.SEATING_EXACT_BUDGET
    settings.SEATING_SEARCH_STEPS = site_settings.SEATING_SEARCH_STEPS


@pytest.fixture
def arbiter(db, django_user_model):
    """An arbiter who owns every tournament the test creates without an owner."""
    user = django_user_model.objects.create_user("arbitre-test", password="pw-arbitre-1")
    user.groups.add(Group.objects.get_or_create(name=ARBITER)[0])
    join_club(user, role="admin")
    undo = _staff_of_new_tournaments(user, None)
    yield user
    undo()


@pytest.fixture
def scorer(db, django_user_model):
    """A scorer assigned to every tournament the test creates."""
    user = django_user_model.objects.create_user("marqueur-test", password="pw-marqueur-1")
    user.groups.add(Group.objects.get_or_create(name=SCORER)[0])
    undo = _staff_of_new_tournaments(user, "scorer")
    yield user
    undo()


@pytest.fixture
def arbiter_client(client, arbiter):
    client.force_login(arbiter)
    return client


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (no browser download: the machine has no network)."""
    import os

    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the test's ORM calls are still
    # synchronous and safe here.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


# A club's LAN as a phone sees it: a host name that is not loopback, so the page is not a secure
# context (no service worker), mapped to the live server on 127.0.0.1.
LAN_HOST = "club.lan"


@pytest.fixture(scope="session")
def lan_browser(browser):
    """Chromium resolving LAN_HOST to this machine (a second browser: the rule is per launch)."""
    browser = browser.browser_type.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1"],
    )
    yield browser
    browser.close()


@pytest.fixture
def lan_server(live_server, settings):
    """The live server as phones on the club's Wi-Fi reach it: http://club.lan:<port>, that
    host allowed, and PUBLIC_URL set to it as `make club` does."""
    url = live_server.url.replace("localhost", LAN_HOST).replace("127.0.0.1", LAN_HOST)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, LAN_HOST]
    settings.PUBLIC_URL = url
    return url


@pytest.fixture
def page(browser):
    yield from open_page(browser, {"width": 1280, "height": 900})


@pytest.fixture
def desk_page(browser):
    """At the desk's size: an arbiter's laptop."""
    yield from open_page(browser, DESK)


@pytest.fixture
def phone_page(browser):
    yield from open_page(browser, {"width": 390, "height": 844}, is_mobile=True, has_touch=True)


def browser_login(page, live_server, username: str, password: str) -> None:
    """Log in through the real login form."""
    page.goto(f"{live_server.url}/connexion/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_load_state()


@pytest.fixture
def one_request_at_a_time(live_server):
    """The live server's request threads all use the test's one in-memory SQLite connection.

    A live preview still reading while the deal is saved then fails with "database table is
    locked", which the real database (SQLite file in WAL mode, PostgreSQL) never does: serve
    one request at a time, as that connection can only take one. A test that writes while a
    page polls on its own (a real-time timer) writes between two requests:
    `with live_server.between_requests: ...`.
    """
    httpd = live_server.thread.httpd
    app = httpd.get_app()
    lock = threading.Lock()
    live_server.between_requests = lock

    def serialized(environ, start_response):
        with lock:
            return app(environ, start_response)

    httpd.set_app(serialized)
    yield live_server
    # A refresh a closed page sent may still be served: it ends before the test's database is
    # flushed (a flush beside it finds the table locked).
    with lock:
        httpd.set_app(app)


@pytest.fixture
def english_catalogue(settings):
    """A compiled catalogue as fresh as the .po (`make test` compiles it; plain pytest may not)."""
    if not ENGLISH_MO.exists() or ENGLISH_MO.stat().st_mtime < ENGLISH_PO.stat().st_mtime:
        if shutil.which("msgfmt") is None:
            pytest.fail("locale/en/LC_MESSAGES/django.mo is missing or stale and msgfmt is absent")
        fd, tmp = tempfile.mkstemp(dir=ENGLISH_MO.parent, suffix=".mo")
        os.close(fd)
        subprocess.run(["msgfmt", "--check", "-o", tmp, str(ENGLISH_PO)], check=True)
        os.replace(tmp, ENGLISH_MO)  # atomic: a parallel worker never reads half a file
    # Changing LOCALE_PATHS makes Django drop the catalogues it has already loaded.
    settings.LOCALE_PATHS = list(settings.LOCALE_PATHS)


# --- a desk sheet --------------------------------------------------------------------------


@pytest.fixture
def desk_sheet_004(db, arbiter_client):
    """A new tournament of 004's four players (DURAND Nord, DUBOIS Est, DUPONT Sud, DESPRES
    Ouest), its one table's sheet opened at the desk, no deal yet: (tournament, sheet)."""
    from tests.desk_helpers import NAMES_004, make_tournament, table_sheet

    tournament, position = make_tournament(names=NAMES_004)
    return tournament, table_sheet(arbiter_client, position)


# --- staged tournaments (fixtures/staged/*.json, built by tests/staged.py) -------------------


@pytest.fixture
def staged(db, arbiter):
    """Load a staged tournament, owned by the test's arbiter: `staged("with_incidents")`.

    Load it before the test creates tournaments of its own (the fixture's rows keep their ids).
    """
    from django.core.management import call_command

    from tests.staged import TOURNAMENT_NAME, fixture_path
    from tournament.models import Tournament

    def load(stage: str) -> Tournament:
        call_command("loaddata", fixture_path(stage), verbosity=0)
        return Tournament.objects.get(name=TOURNAMENT_NAME)

    return load


@pytest.fixture
def after_position_1(staged):
    """Position 1 published, its sheet holding 004's five deals typed at the desk."""
    return staged("after_position_1")


@pytest.fixture
def with_incidents(staged):
    """after_position_1 with two charged penalties: DUPONT 50 (revoke), DESPRES 40 (lateness)."""
    return staged("with_incidents")


@pytest.fixture
def after_last_position(staged):
    """Both positions played (004's deals, players moved round), validated, closed; finished."""
    return staged("after_last_position")


@pytest.fixture
def sheet_004(after_position_1):
    """The sheet of after_position_1: DURAND Nord, DUBOIS Est, DUPONT Sud, DESPRES Ouest."""
    from scoring.models import ScoreSheet

    return ScoreSheet.objects.get(tournament=after_position_1, table__position__number=1)
