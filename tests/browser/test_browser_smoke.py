"""The browser harness works: Chromium opens the home page and logs in an arbiter."""

import pytest

from tests.conftest import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_arbiter_logs_in_through_the_real_form(page, live_server, arbiter):
    browser_login(page, live_server, "arbitre-test", "pw-arbitre-1")
    assert "arbitre-test" in page.inner_text("header")
