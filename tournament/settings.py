"""Tarot Desk settings: one module, read from the environment, safe defaults for a laptop."""

import ipaddress
import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool = False) -> bool:
    """A yes/no variable; unset or empty means the default, anything unrecognised is an error.

    A typo such as DEBUG=ture must not silently read as False (or True).
    """
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"Environment variable {name}={os.environ[name]!r} is not a yes/no value; "
        f"use one of true/false, 1/0, yes/no, on/off."
    )


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(
            f"Environment variable {name}={os.environ[name]!r} is not a whole number."
        ) from None


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
# The laptop default key is public (it is in this file), so it is only acceptable with DEBUG on;
# a production start without its own SECRET_KEY refuses to run rather than sign sessions with it.
DEVELOPMENT_SECRET_KEY = "django-insecure-tarot-desk-local-development-only-key"
SECRET_KEY = env_str("SECRET_KEY").strip() or DEVELOPMENT_SECRET_KEY
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set when DEBUG is false: export SECRET_KEY to a long random string "
        "(for example the output of "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`)."
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# The address every absolute link (QR codes, the hall screen's and sign-up links) is built from:
# "https://tarot.example.org" on a club server, "http://192.168.1.23:8000" in club mode (`make
# club` sets it from the laptop's LAN address). Unset: each link follows the request's own host
# (tournament.public_address).
PUBLIC_URL = env_str("PUBLIC_URL").strip().rstrip("/")
if PUBLIC_URL:
    _public = urlsplit(PUBLIC_URL)
    if _public.scheme not in ("http", "https") or not _public.netloc or _public.path:
        raise ImproperlyConfigured(
            f"PUBLIC_URL={PUBLIC_URL!r} must be a site's root such as https://tarot.example.org "
            "or http://192.168.1.23:8000 (a scheme, a host, no path)."
        )
    if PUBLIC_URL not in CSRF_TRUSTED_ORIGINS:
        CSRF_TRUSTED_ORIGINS.append(PUBLIC_URL)
# A public address in plain http (a club's LAN: no certificate to be had for 192.168.x.y) has
# no https to redirect to: the secure defaults below would lock every phone out.
PLAIN_HTTP = PUBLIC_URL.startswith("http://")

# The laptop sends finished tournaments to its comité's server over HTTPS and checks the
# server's certificate against the system's authorities, or against this file of certificates
# (PEM) when the comité's server uses its own (scoring.upload.transport).
COMITE_CA_BUNDLE = env_str("COMITE_CA_BUNDLE").strip()

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tables2",
    "axes",
    "csp",
    "tournament",
    "scoring",
]

# Compression: HTML and JSON through gzip; static files through WhiteNoise, which serves the
# gzip and brotli copies made by collectstatic (production) with year-long caching of the hashed
# names. GZip sits above WhiteNoise so that `make run` (DEBUG, no collectstatic) compresses the
# static files too; WhiteNoise's precompressed files already carry Content-Encoding and pass.
# BREACH (guessing a secret in a compressed page from its size, with guesses reflected into the
# same page): the CSRF token is masked afresh in every response, so it never repeats, and
# GZipMiddleware pads every response with up to 100 random bytes ("Heal the Breach"), which
# multiplies the requests a guess needs. The other secrets a page may show (a table's code or
# link, the hall screen's link) are on arbiters' pages, behind a login; so every response is
# compressed. A page that would echo request text next to such a secret must not be.
MIDDLEWARE = [
    "tournament.middleware.OpenerPolicyWhereTrustworthyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # High, so that every answer of the middleware below (CSRF refusal, lockout) carries it too.
    "csp.middleware.CSPMiddleware",
    "tournament.middleware.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "tournament.middleware.DropNulCookiesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "tournament.middleware.RejectNulQueryMiddleware",
    "tournament.club.AdminLoopbackOnlyMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes requires: it locks out repeated failed logins.
    "axes.middleware.AxesMiddleware",
]

# Content-Security-Policy on every response: scripts and styles only from our own files (no
# inline <script>, style="…" or on…= handler anywhere, htmx told not to add its <style>), images
# from us or data: URIs, nothing framing the site, forms posting only to it. A proxy in front
# must not add a second, different policy: browsers enforce both (README, production notes).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "rules.permissions.ObjectPermissionBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# No cache holds anything that must be shared: every counter and lock of the site is a row of
# tournament.models.Counter (tournament.access.throttle), one atomic statement per attempt, and
# sessions and login locks are rows too. No CACHES: Django's default is a per-process LocMemCache,
# which no module uses (tests/project/test_shared_state.py), so several application servers on
# one database behave as one (tests/load/test_two_servers.py) with nothing else to share.

# Login throttling: after 5 failures for one username from one address, wait 15 minutes.
# The lock is on the (username, address) pair, so an attacker failing on "arbitre" from their
# own address does not lock the real arbiter out from theirs.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]

# Number of trusted reverse proxies (nginx, Caddy) in front of the application that each append
# the address they received the request from to X-Forwarded-For. 0 (the default): use the
# socket address, ignore X-Forwarded-For (anybody can send one). Behind one proxy every request
# comes from 127.0.0.1, so without this setting all clients share one address for django-axes.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
# How many licence conflicts one club's registrations may open in a day (issue 36): past it,
# none is opened (logged); the registering club sees the same either way.
LICENCE_CONFLICTS_PER_DAY = env_int("LICENCE_CONFLICTS_PER_DAY", 20)
# Club mode sets it (tournament/club.py): /admin/ answers only the laptop itself.
ADMIN_LOOPBACK_ONLY = env_bool("ADMIN_LOOPBACK_ONLY", False)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more.")


def client_ip_address(request) -> str | None:
    """The client's address as django-axes should see it, given TRUSTED_PROXY_COUNT.

    Each trusted proxy appends one entry to X-Forwarded-For, so the real client is the
    TRUSTED_PROXY_COUNT-th entry from the right; entries further left were sent by the client
    and may be forged. If the header is missing, too short or not an address, the socket
    address is used. (django-axes' own AXES_IPWARE_* settings need the optional django-ipware
    package, which is not installed, and its default "left-most" order trusts the forgeable end.)
    """
    from django.conf import settings  # read at call time, so tests can override it

    remote_addr = request.META.get("REMOTE_ADDR")
    count = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return remote_addr
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < count:
        return remote_addr
    candidate = forwarded[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote_addr


AXES_CLIENT_IP_CALLABLE = client_ip_address
# Axes counts a failure only after the password was checked: parallel wrong passwords would all
# be checked before the first is counted. This handler reserves each check atomically first.
AXES_HANDLER = "tournament.access.login_gate.GatedAxesHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

ROOT_URLCONF = "tournament.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "tournament.wsgi.application"
ASGI_APPLICATION = "tournament.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # Served (not DEBUG), a thread keeps its connection: opening one (and SQLite's pragmas)
        # cost a tenth of a live poll's CPU.
        conn_max_age=env_int("CONN_MAX_AGE", 0 if DEBUG else 60),
        conn_health_checks=True,
    )
}
# The public standings keep their version for this many times what computing them took (at most
# 5 s, a poll period) while new deals come: see scoring.live.shared. 0: a ranking every change.
LIVE_STANDINGS_COALESCE = env_int("LIVE_STANDINGS_COALESCE", 10)
# How often every live page (public standings, a player's card, the hall screens, the cockpit, a
# venue's desk) asks for news; an unchanged page answers 304.
LIVE_POLL_SECONDS = env_int("LIVE_POLL_SECONDS", 5)
# The seating generator's exact solver (tournament.core.seating.exact) works on a small field's
# plan for at most this many deterministic seconds (OR-Tools' unit, about a CPU second); the
# positions page announces a wait that follows it. The tests set it small (tests/conftest.py)
# and give the real budget back to the few that measure a plan's quality.
SEATING_EXACT_BUDGET = 2.0
# The generator's annealing takes at most this many steps in all (its own budget, about 2 s of
# CPU on a large field; deterministic, so a plan does not depend on the machine). The tests set
# it small too, and give it back where they measure a plan's quality.
SEATING_SEARCH_STEPS = 600_000
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers work while a sheet is saved; the timeout makes concurrent saves wait
    # instead of failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "fr"
# Each language is named in its own tongue in the menu, as sites usually do.
LANGUAGES = [("fr", "Français"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not PLAIN_HTTP)
    # SECURE_COOKIES=false for plain-http runs: loopback (bench/load.py) or a club's LAN.
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not PLAIN_HTTP)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not PLAIN_HTTP)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if PLAIN_HTTP else 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
