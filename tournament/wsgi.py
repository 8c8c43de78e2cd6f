"""WSGI entry point (gunicorn tournament.wsgi): the application, warmed up before its first
request (tournament.warmup)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
application = get_wsgi_application()

from tournament.warmup import warm_up  # noqa: E402 - needs the settings configured above

warm_up()
