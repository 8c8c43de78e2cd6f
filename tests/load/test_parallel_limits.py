"""The attempt limits hold under real parallel requests to a multi-process server: gunicorn with
4 workers on a throw-away database (SQLite file on the suite's SQLite run, a fresh PostgreSQL
database on its PostgreSQL run), driven by threads released together by one barrier. Each
attempt is one atomic statement in the database (tournament.access.throttle), so exactly the limit
gets through, however the requests are spread over the processes.

Every case is a subtest of one test, so that the server starts once per database even under
`pytest -n 2` (xdist would deal two tests of a module to both workers, each starting its own
server; `--dist loadgroup` can't group them with pytest 9's node ids). A new case: a function
taking the site (and `phone_table`, for the phone pages), one more subtest below; wrong
personal codes at one table go through parallel_site.wrong_personal_codes_at_once. Timings are
printed (`-s` shows them).
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoring.sheets.table_entry.guessing import CLIENT_ALLOWANCE, PLAYER_BUDGET
from scoring.sheets.table_entry.links import CODE_ALPHABET, CODE_LENGTH
from scoring.sheets.views.table.page import ADDRESS_CODE_ATTEMPTS, DEVICE_CODE_ATTEMPTS
from tests.load.parallel_site import (
    PhoneTable,
    ServedSite,
    all_at_once,
    form_page,
    request,
    served_site,
    tally,
    wrong_personal_codes_at_once,
)
from tournament.signup.services import MIN_FORM_SECONDS, THROTTLE_ATTEMPTS

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
DATABASE = "postgres" if ON_POSTGRES else "sqlite"

# How many requests each case sends at once. gunicorn serves WORKERS x 4 threads = 16 requests
# at a time: a count read, then written (not one atomic statement) lets through about as many
# as are in flight together, so a few dozen requests over a small limit show it; more prove
# nothing more, only take longer. The address's table-code budget (300) needs its own count,
# plus a margin refused.
SIGNUPS = 40  # THROTTLE_ATTEMPTS (10) accepted
TABLE_CODES = 60  # DEVICE_CODE_ATTEMPTS (10) checked
ADDRESS_TABLE_CODES = ADDRESS_CODE_ATTEMPTS + 30  # the budget left checked, the rest refused
PERSONAL_CODES = 40  # CLIENT_ALLOWANCE (5) checked
BUDGET_CODES = 60  # wrong codes from fresh cookies; PLAYER_BUDGET (12) at most checked
RIGHT_CODES = 10  # right codes mixed in, from new phones

SIGNUP_THROTTLED = "Trop de tentatives depuis cette connexion"
CODE_UNKNOWN = "Code inconnu"
CODE_THROTTLED = "Trop d'essais"  # from this phone, or from this network

pytestmark = [pytest.mark.slow, pytest.mark.database]


@pytest.fixture(scope="module")
def site() -> Iterator[ServedSite]:
    with tempfile.TemporaryDirectory(prefix="tarot-parallel-") as tmp:
        with served_site(DATABASE, Path(tmp)) as served:
            print(
                f"\n[{DATABASE}] seeded in {served.timings['seed_s']:.1f} s, "
                f"gunicorn -w 4 up in {served.timings['boot_s']:.1f} s"
            )
            yield served


@pytest.fixture(scope="module")
def phone_table(site: ServedSite) -> PhoneTable:
    """The seeded published position in phone entry mode: one table of four, its link's token
    and code, and its seats with each registration's personal code (for the personal-code lock
    under parallel wrong codes: parallel_site.wrong_personal_codes_at_once)."""
    return site.phone_table


def _timed(label: str, started: float) -> None:
    print(f"[{DATABASE}] {label}: {time.monotonic() - started:.2f} s")


def check_parallel_signups_from_one_address_accept_exactly_the_limit(site: ServedSite):
    started = time.monotonic()
    # The visitors open the page: a stamp, a CSRF cookie and a token each.
    pages = all_at_once(SIGNUPS, lambda _i: form_page(site.port, site.signup_page))
    _timed(f"{SIGNUPS} sign-up pages read", started)
    assert not [page for page in pages if isinstance(page, BaseException)], pages
    time.sleep(MIN_FORM_SECONDS + 0.5)  # the stamps are old enough for a person's typing

    def sign_up(i: int):
        cookies, hidden = pages[i]
        form = {
            **hidden,  # csrfmiddlewaretoken and the stamp
            "last_name": f"PARALLELE{i:02d}",
            "first_name": "Camille",
            "licence": "",
            "club": "",
            "website": "",
        }
        return request(site.port, "POST", site.signup_page, form=form, cookies=cookies)

    started = time.monotonic()
    results = all_at_once(SIGNUPS, sign_up)
    _timed(f"{SIGNUPS} parallel sign-ups", started)
    counts = tally(
        results,
        accepted=lambda a: a.status == 302 and "/confirmation/" in a.location,
        throttled=lambda a: a.status == 429 and SIGNUP_THROTTLED in a.text,
    )
    print(f"[{DATABASE}] sign-ups: {counts}")
    assert counts["accepted"] == THROTTLE_ATTEMPTS, counts
    assert counts["throttled"] == SIGNUPS - THROTTLE_ATTEMPTS, counts

    stored = site.read_back()
    assert len(stored["signed_up"]) == THROTTLE_ATTEMPTS
    # Every attempt was counted, the refused ones included: one row, one exact count.
    assert stored["counters"]["signup-attempts:127.0.0.1"] == SIGNUPS


def _wrong_table_codes(phone_table: PhoneTable, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    wrong: set[str] = set()
    while len(wrong) < count:
        code = "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code != phone_table.code:
            wrong.add(code)
    return sorted(wrong)


def check_parallel_wrong_table_codes_from_one_phone_check_exactly_its_limit(
    site: ServedSite, phone_table: PhoneTable
):
    cookies, hidden = form_page(site.port, "/table/")
    device = cookies["tarot_device"]  # the code page gives the phone its id
    codes = _wrong_table_codes(phone_table, TABLE_CODES, 21)

    def guess(i: int):
        form = {**hidden, "code": codes[i]}
        return request(site.port, "POST", "/table/", form=form, cookies=cookies)

    started = time.monotonic()
    results = all_at_once(TABLE_CODES, guess)
    _timed(f"{TABLE_CODES} parallel table codes from one phone", started)
    counts = tally(
        results,
        checked=lambda a: a.status == 400 and CODE_UNKNOWN in a.text,
        throttled=lambda a: a.status == 400 and "Trop d'essais depuis ce téléphone" in a.text,
    )
    print(f"[{DATABASE}] table codes from one phone: {counts}")
    assert counts["checked"] == DEVICE_CODE_ATTEMPTS, counts
    assert counts["throttled"] == TABLE_CODES - DEVICE_CODE_ATTEMPTS, counts
    stored = site.read_back()["counters"]
    assert stored[f"table-code:d:{device}"] == TABLE_CODES
    assert stored["table-code:127.0.0.1"] == DEVICE_CODE_ATTEMPTS  # the wrong codes checked

    # Once over its limit the phone's right code is refused too; another phone of the same
    # address gets in (and its right code is not counted against the address).
    answer = request(
        site.port, "POST", "/table/", form={**hidden, "code": phone_table.code}, cookies=cookies
    )
    assert answer.status == 400 and CODE_THROTTLED in answer.text
    other, other_hidden = form_page(site.port, "/table/")
    form = {**other_hidden, "code": phone_table.code}
    answer = request(site.port, "POST", "/table/", form=form, cookies=other)
    assert answer.status == 302 and answer.location.endswith(phone_table.page), answer
    assert site.read_back()["counters"]["table-code:127.0.0.1"] == DEVICE_CODE_ATTEMPTS


def check_parallel_wrong_table_codes_from_fresh_cookies_check_exactly_the_address_budget(
    site: ServedSite, phone_table: PhoneTable
):
    """A new cookie at each guess buys nothing past the address's budget, sized for a room."""
    cookies, hidden = form_page(site.port, "/table/")
    used = site.read_back()["counters"].get("table-code:127.0.0.1", 0)
    codes = _wrong_table_codes(phone_table, ADDRESS_TABLE_CODES, 22)

    def guess(i: int):
        form = {**hidden, "code": codes[i]}
        fresh = {**cookies, "tarot_device": f"fresh{i:04d}"}
        return request(site.port, "POST", "/table/", form=form, cookies=fresh)

    started = time.monotonic()
    results = all_at_once(ADDRESS_TABLE_CODES, guess)
    _timed(f"{ADDRESS_TABLE_CODES} parallel table codes from fresh cookies", started)
    counts = tally(
        results,
        checked=lambda a: a.status == 400 and CODE_UNKNOWN in a.text,
        throttled=lambda a: a.status == 400 and "Trop d'essais depuis ce réseau" in a.text,
    )
    print(f"[{DATABASE}] table codes from fresh cookies: {counts}")
    assert counts["checked"] == ADDRESS_CODE_ATTEMPTS - used, counts
    assert counts["throttled"] == ADDRESS_TABLE_CODES - (ADDRESS_CODE_ATTEMPTS - used), counts
    # Refused attempts are given back: the count is exactly the wrong codes checked.
    assert site.read_back()["counters"]["table-code:127.0.0.1"] == ADDRESS_CODE_ATTEMPTS


def check_parallel_wrong_personal_codes_check_exactly_the_allowance(
    site: ServedSite, phone_table: PhoneTable
):
    """One phone sends PERSONAL_CODES wrong codes for one player at once: exactly the allowance
    is checked, the rest refused unchecked; the player's own phone still gets in with the right
    code."""
    path = f"/table/{phone_table.token}/identifier/"
    target = 1

    def post(cookies: dict[str, str], pin: str):
        body = {"seat": target, "pin": pin}
        return request(site.port, "POST", path, json_body=body, cookies=cookies)

    started = time.monotonic()
    results = wrong_personal_codes_at_once(
        site.port, phone_table, target_seat=target, count=PERSONAL_CODES, post=post
    )
    _timed(f"{PERSONAL_CODES} parallel personal codes", started)
    counts = tally(
        results,
        checked=lambda a: (
            a.status == 403 and "Code personnel erroné" in json.loads(a.text)["error"]
        ),
        locked=lambda a: a.status == 429 and "Trop de codes erronés" in json.loads(a.text)["error"],
    )
    print(f"[{DATABASE}] personal codes: {counts}")
    assert counts["checked"] == CLIENT_ALLOWANCE, counts
    assert counts["locked"] == PERSONAL_CODES - CLIENT_ALLOWANCE, counts
    # The lock is the guessing phone's: the real player's phone is not blocked by it.
    own_phone = phone_table.csrf_cookies(site.port)
    answer = post(own_phone, phone_table.seats[target]["pin"])
    assert answer.status == 200, (answer.status, answer.text[:300])


def check_parallel_wrong_personal_codes_from_fresh_cookies_check_exactly_the_budget(
    site: ServedSite, phone_table: PhoneTable
):
    """BUDGET_CODES wrong codes for one player at once, each from a new cookie, mixed with
    RIGHT_CODES right codes from new phones: the wrong codes checked never pass the address's
    budget for that player, the counter holds exactly them (right and refused attempts given
    back), and the player's own phone, vouched by her code before, still gets in."""
    path = f"/table/{phone_table.token}/identifier/"
    target = 2
    seat = next(s for s in phone_table.seats if s["index"] == target)
    position = phone_table.seats.index(seat)  # wrong_pins takes the seat's place in the list
    pin = seat["pin"]
    own_phone = phone_table.csrf_cookies(site.port)
    assert (
        request(
            site.port, "POST", path, json_body={"seat": target, "pin": pin}, cookies=own_phone
        ).status
        == 200
    )
    base = phone_table.csrf_cookies(site.port)
    pins = phone_table.wrong_pins(position, BUDGET_CODES) + [pin] * RIGHT_CODES

    def post(i: int):
        cookies = {**base, "tarot_device": f"fresh{i:04d}"}
        body = {"seat": target, "pin": pins[i]}
        return request(site.port, "POST", path, json_body=body, cookies=cookies)

    started = time.monotonic()
    results = all_at_once(len(pins), post)
    _timed(f"{len(pins)} parallel personal codes from fresh cookies", started)
    counts = tally(
        results,
        right=lambda a: a.status == 200,
        checked=lambda a: (
            a.status == 403 and "Code personnel erroné" in json.loads(a.text)["error"]
        ),
        refused=lambda a: a.status == 429 and "depuis ce réseau" in json.loads(a.text)["error"],
    )
    print(f"[{DATABASE}] personal codes from fresh cookies: {counts}")
    assert counts["checked"] <= PLAYER_BUDGET, counts
    assert counts["checked"] + counts["right"] + counts["refused"] == len(pins), counts
    registration = seat["registration"]
    stored = site.read_back()["counters"]
    assert stored[f"pin-net:{registration}:127.0.0.1"] == counts["checked"]
    if counts["checked"] < PLAYER_BUDGET:  # right codes in flight refused a few: not spent yet
        more = phone_table.wrong_pins(position, PLAYER_BUDGET - counts["checked"], seed=5)
        for i, guess in enumerate(more):
            cookies = {**base, "tarot_device": f"more{i:04d}"}
            body = {"seat": target, "pin": guess}
            assert request(site.port, "POST", path, json_body=body, cookies=cookies).status == 403
    # The budget spent, her own phone still proves her code; a new phone waits for the arbiter.
    body = {"seat": target, "pin": pin}
    assert request(site.port, "POST", path, json_body=body, cookies=own_phone).status == 200
    new_phone = {**base, "tarot_device": "newphone"}
    answer = request(site.port, "POST", path, json_body=body, cookies=new_phone)
    assert answer.status == 429 and "téléphone" in json.loads(answer.text)["error"]


def test_limits_hold_under_parallel_requests_to_four_server_processes(site, phone_table, subtests):
    started = time.monotonic()
    with subtests.test(f"{SIGNUPS} parallel sign-ups from one address: exactly the limit accepted"):
        check_parallel_signups_from_one_address_accept_exactly_the_limit(site)
    with subtests.test(
        f"{TABLE_CODES} parallel wrong table codes from one phone: exactly its limit"
    ):
        check_parallel_wrong_table_codes_from_one_phone_check_exactly_its_limit(site, phone_table)
    with subtests.test(
        f"{PERSONAL_CODES} parallel wrong personal codes: exactly the allowance checked"
    ):
        check_parallel_wrong_personal_codes_check_exactly_the_allowance(site, phone_table)
    with subtests.test(
        f"{BUDGET_CODES} parallel wrong personal codes from fresh cookies: the budget"
    ):
        check_parallel_wrong_personal_codes_from_fresh_cookies_check_exactly_the_budget(
            site, phone_table
        )
    # Last: it spends the address's table-code budget.
    with subtests.test(
        f"{ADDRESS_TABLE_CODES} parallel wrong table codes from fresh cookies: the address's budget"
    ):
        check_parallel_wrong_table_codes_from_fresh_cookies_check_exactly_the_address_budget(
            site, phone_table
        )
    _timed("every case", started)
