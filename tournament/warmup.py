"""A server process's warm-up: what its first request would otherwise do while every request
behind it waits.

Django imports the URL configuration, and with it every view module (openpyxl and its numpy,
the PDF and export code), when the first request arrives; the translations and each template
are loaded at first use. Under gunicorn's threads, the first request of a new worker (at
start, or after a worker restarts in the middle of an evening) took over a second of CPU
(`bench/big_event.py`'s server log: 1.0 to 1.6 s for the first requests, every other thread
of that worker waiting behind its imports). tournament.wsgi calls warm_up() once the
application is built, before the worker takes requests.
"""

from __future__ import annotations

import logging
from pathlib import Path

from django.conf import settings
from django.template import TemplateDoesNotExist, TemplateSyntaxError, engines
from django.urls import get_resolver
from django.utils import translation

logger = logging.getLogger(__name__)


def warm_up() -> int:
    """Import every view, load every language's translations and compile the project's
    templates (kept by Django's cached template loader); the number of templates compiled."""
    get_resolver().url_patterns  # noqa: B018 - the URL configuration, imported on access
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Classement")
    return len(_compile_templates())


def _compile_templates() -> list[str]:
    engine = engines["django"]
    compiled = []
    for folder in engines["django"].dirs:
        root = Path(folder)
        for path in sorted(root.rglob("*.html")):
            name = path.relative_to(root).as_posix()
            try:
                engine.get_template(name)
            except (TemplateDoesNotExist, TemplateSyntaxError) as error:
                logger.warning("template %s not compiled at start: %s", name, error)
                continue
            compiled.append(name)
    return compiled
