"""A shared page of the public standings is rendered from a request's query (its sort links
repeat it): only the page numbers the site's own links send are shared, so no visitor's odd
spelling of a page ("+1", "1_0", "1" and spaces, another script's digits) is stored and served
to every other viewer of that version."""

from __future__ import annotations

import re

import pytest

from scoring.models import LiveArtifact
from tests.scoring.live.test_shared_renders import built as built  # noqa: F401 - fixture
from tests.scoring.live.test_shared_renders import partial_url

pytestmark = pytest.mark.django_db

ODD_PAGES = ["%2B1", "1" + "%20" * 200, "%D9%A1", "1_0", "01", "2&page=1"]


@pytest.mark.parametrize("page", ODD_PAGES)
def test_an_odd_page_number_is_rendered_for_its_viewer_only(client, built, page):  # noqa: F811
    tournament = built["tournament"]
    odd = client.get(partial_url(tournament) + "?page=" + page)
    assert odd.status_code == 200
    assert not LiveArtifact.objects.filter(what="standings").exists()
    for plain in ("1", "10"):
        shown = client.get(partial_url(tournament, page=plain)).content.decode()
        links = re.findall(r'href="\?([^"]*)"', shown)  # the sort links
        assert links and all(link.startswith(f"page={plain}&amp;sort=") for link in links)
    keys = LiveArtifact.objects.filter(what="standings").values_list("variant", flat=True)
    assert sorted(keys) == ["fr:1", "fr:10"]
