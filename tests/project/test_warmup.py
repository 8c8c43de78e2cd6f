"""A gunicorn worker is warm before its first request (tournament.warmup, called by
tournament.wsgi): the views imported, the translations loaded, the templates compiled."""

import json
import logging
import subprocess
import sys
from pathlib import Path

from tournament.warmup import _compile_templates, warm_up

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import tournament.wsgi
from django.template import engines
from django.utils.translation import trans_real
loader = engines["django"].engine.template_loaders[0]
print(json.dumps({
    "modules": sorted(m for m in sys.modules if m.startswith(("scoring", "openpyxl"))),
    "templates": sorted(key.split(":")[0] for key in loader.get_template_cache),
    "languages": sorted(trans_real._translations),
}))
"""


def test_importing_the_wsgi_application_warms_the_process_up():
    # A fresh process, as a gunicorn worker starts: nothing of a request has run yet.
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    state = json.loads(done.stdout.strip().splitlines()[-1])
    # Every view module, the exports' openpyxl with them.
    assert "scoring.live.views.public" in state["modules"]
    assert "scoring.documents.exports.championship_xlsx" in state["modules"]
    assert "openpyxl" in state["modules"]
    # Both languages' catalogs, and the pages the phones and the hall screen poll.
    assert {"fr", "en"} <= set(state["languages"])
    for name in ("base.html", "hall/_slides.html", "scoring/_public_deals.html"):
        assert name in state["templates"], name


def test_every_project_template_compiles_at_start():
    compiled = _compile_templates()
    html = sorted(
        p.relative_to(ROOT / "templates").as_posix() for p in (ROOT / "templates").rglob("*.html")
    )
    assert compiled == html


def test_a_template_that_does_not_compile_is_named_and_left_to_its_first_request(
    tmp_path, settings, caplog
):
    # The worker still starts: the broken template fails where it is used, not at start.
    (tmp_path / "good.html").write_text("{{ name }}")
    (tmp_path / "broken.html").write_text("{% if %}")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]
    with caplog.at_level(logging.WARNING, logger="tournament.warmup"):
        assert warm_up() == 1  # good.html
    assert "template broken.html not compiled at start" in caplog.text
