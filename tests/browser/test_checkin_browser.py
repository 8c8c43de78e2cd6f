"""In Chromium: a player pre-registers on a phone (390×844); at the door, with 18 registrations,
the arbiter checks in 16 with the keyboard search at desk size and generates position 1 with
exactly those 16."""

import time

import pytest

from tests.browser_helpers import log_in_by_cookie
from tournament.models import Registration, Seat, Tournament
from tournament.signup import services as signup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (last name, first name, what the arbiter types: no accents, lower case, a few letters).
COMING = [
    ("Côté", "François", "cote"),
    ("Lefèvre", "Hélène", "lefev"),
    ("Lefebvre", "Marc", "lefeb"),
    ("Noël", "Océane", "noel"),
    ("Martin", "Anne", "martin"),
    ("Martin", "Bruno", "martin"),  # the second MARTIN: one arrow down
    ("Œuvray", "Luc", "oeuv"),
    ("Dubois", "Paul", "dubois"),
    ("Faure", "Jeanne", "faure"),
    ("Girard", "Émile", "girard"),
    ("Hubert", "Zoé", "hubert"),
    ("Isnard", "Chloé", "isnard"),
    ("Jacquet", "Loïc", "jacq"),
    ("Klein", "Anaïs", "klein"),
    ("Roux", "Gaëlle", "roux"),
]
NOT_COMING = [("Perrin", "Inès"), ("Vidal", "Rose")]


@pytest.fixture
def tournament(arbiter):
    tournament = Tournament.objects.create(
        name="Challenge de Mâcon", date="2026-06-13", positions_count=3, signup_open=True
    )
    for last_name, first_name, *_typed in [*COMING, *NOT_COMING]:
        signup.signup_register(tournament=tournament, last_name=last_name, first_name=first_name)
    return tournament


def sign_up_on_a_phone(phone_page, live_server, tournament) -> Registration:
    page = phone_page
    page.goto(f"{live_server.url}/inscription/{tournament.pk}/")
    # Made for the phone: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.fill("#id_last_name", "Müller")
    page.fill("#id_first_name", "Jérôme")
    page.fill("#id_club", "Tarot Club Mâconnais")
    # A person takes longer than MIN_FORM_SECONDS to type that: the page's stamp says when the
    # form was shown, so it is dated back (as the sign-up view tests do) instead of waiting.
    page.locator("input[name=stamp]").evaluate(
        "(field, stamp) => { field.value = stamp; }",
        signup.form_stamp(now=time.time() - 30),
    )
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#signup-ticket")
    registration = tournament.registrations.get(player__last_name="Müller")
    assert registration.status == Registration.Status.EXPECTED
    assert page.inner_text("#signup-code") == signup.format_code(registration.signup_code)
    assert page.inner_text("#signup-number") == str(registration.number) == "18"
    return registration


def check_in(page, typed: str, registration: Registration, arrows: int = 0) -> None:
    page.keyboard.type(typed)  # the search text is selected after each check-in: this replaces it
    for _ in range(arrows):
        page.keyboard.press("ArrowDown")
    assert page.get_attribute(f"#reg-{registration.pk}", "class").split()[-1] == "current"
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#reg-{registration.pk}[data-present="1"]', state="attached")


def test_a_phone_sign_up_then_16_of_18_checked_in_by_keyboard_and_seated(
    page, phone_page, live_server, one_request_at_a_time, arbiter, tournament
):
    phoned = sign_up_on_a_phone(phone_page, live_server, tournament)
    assert tournament.registrations.count() == 18

    page.set_viewport_size({"width": 1280, "height": 900})
    log_in_by_cookie(page, live_server, arbiter)
    page.goto(f"{live_server.url}/tournois/{tournament.pk}/pointage/")
    page.wait_for_selector('#checkin[data-ready="1"]')
    assert page.evaluate("document.activeElement.id") == "checkin-q"

    expected_present = []
    seen_martin = 0
    for last_name, first_name, typed in COMING:
        registration = tournament.registrations.get(
            player__last_name=last_name, player__first_name=first_name
        )
        arrows = seen_martin if last_name == "Martin" else 0
        seen_martin += last_name == "Martin"
        check_in(page, typed, registration, arrows)
        expected_present.append(registration.pk)
    check_in(page, "muller", phoned)
    expected_present.append(phoned.pk)
    assert page.inner_text("#present-count") == "16"
    assert page.inner_text("#expected-count") == "2"

    present = set(
        tournament.registrations.filter(status=Registration.Status.ACTIVE).values_list(
            "pk", flat=True
        )
    )
    assert present == set(expected_present)

    page.goto(f"{live_server.url}/tournois/{tournament.pk}/positions/")
    page.click("section.generate button[type=submit]")
    page.wait_for_load_state()
    seated = list(
        Seat.objects.filter(
            table__position__tournament=tournament, table__position__number=1
        ).values_list("registration_id", flat=True)
    )
    assert len(seated) == 16 and set(seated) == present
    absent = tournament.registrations.filter(player__last_name__in=["Perrin", "Vidal"])
    assert not Seat.objects.filter(registration__in=absent).exists()
