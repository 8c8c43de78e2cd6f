# Tarot Desk: `make run` serves the demo site, `make club` serves the club's phones on the LAN,
# `make test` runs lint, types, the whole suite on SQLite, then every test a database engine
# can change again on PostgreSQL (a server it starts, and stops at the end).
# Both set up everything they need on a fresh Debian machine (virtualenv, Python packages,
# Debian packages), so nothing has to be installed by hand.

PYTHON ?= python3
# Python writes its compiled modules (__pycache__, pytest's rewritten test modules) even where
# the environment says not to: without them every pytest worker and every server a test starts
# compiles the whole project again (collection 10.7 s against 3.6 s a process).
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages: WeasyPrint's Pango, fonts for the PDFs, gettext for translations,
# Chromium for the browser tests, PostgreSQL for the second run of the suite, poppler (pdftoppm)
# and zbar (zbarimg) to read the printed QR codes back.
RUN_DEBS := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core gettext
TEST_DEBS := $(RUN_DEBS) chromium postgresql poppler-utils zbar-tools

.PHONY: run club test test-sqlite test-postgres lint typecheck deps debs-run debs-test demo clean messages bench load fixtures

# uv installs the packages into the virtualenv and compiles them on both cores: 10 s from a clean
# clone against pip's 29 s (left uncompiled, each test process compiled them again: a worker's
# collection took 15.7 s instead of 3.9 s). pip does it where uv can't be had.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	($(VENV)/bin/pip install -q uv && \
	  $(VENV)/bin/uv pip install -q --compile-bytecode --python $(VENV)/bin/python -e ".[dev]") || \
	  ($(VENV)/bin/pip install -q --upgrade pip && $(VENV)/bin/pip install -q -e ".[dev]")
	touch $@

deps: $(VENV)/.installed

debs-run:
	@missing=$$(for p in $(RUN_DEBS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

debs-test:
	@missing=$$(for p in $(TEST_DEBS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

run: deps debs-run
	$(PY) manage.py compilemessages -v 0 --ignore=.venv
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py load_demo
	$(PY) manage.py ensure_arbiter
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

# A club evening: every interface of the laptop, gunicorn + WhiteNoise, DEBUG off, the LAN
# addresses and host name allowed, PUBLIC_URL for the printed QR codes (tournament/club.py).
# SQLite by default, PostgreSQL when DATABASE_URL says so.
club: deps debs-run
	$(PY) -m tournament.club --port $(PORT)

lint: deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# mypy on the whole app with django-stubs, the pure modules with every --strict flag
# (pyproject.toml [tool.mypy]): any error fails the build.
typecheck: deps
	$(VENV)/bin/mypy

# The import-linter contracts and the missing-migration check are tests of the suite
# (tests/project/test_architecture.py): run there once, not again here.
# Workers steal queued tests from each other (--dist worksteal): 8 min 57 s for the SQLite pass
# against 10 min 4 s with the default distribution, from clean clones of the same code.
# One after the other: run side by side (make -j4) they took 19 min 30 s from a clean clone
# against 15 min 19 s in a row (four pytest workers and a database server on two cores slow
# the browser tests more than the idle time they fill).
test: deps debs-test
	$(PY) manage.py compilemessages -v 0 --ignore=.venv
	$(MAKE) --no-print-directory lint typecheck test-sqlite test-postgres

test-sqlite: deps
	@echo "== the whole suite on SQLite =="
	$(VENV)/bin/pytest -n 2 --dist worksteal $(PYTEST_ARGS)

# This checkout's own throw-away server on loopback, stopped at the end even when tests fail.
# No pytest cache: the SQLite pass writes that one.
test-postgres: deps debs-test
	@echo "== the database tests again on PostgreSQL =="
	@url=$$(scripts/pg-test-server) || exit 1; status=0; \
	DATABASE_URL=$$url $(VENV)/bin/pytest -n 2 --dist worksteal -p no:cacheprovider --engine-only $(PYTEST_ARGS) || status=$$?; \
	scripts/pg-test-server-stop; exit $$status

messages: deps
	$(PY) manage.py makemessages -l en --ignore=.venv --ignore=tests --ignore=bench
	$(PY) manage.py makemessages -d djangojs -l en --ignore=.venv --ignore=tests --ignore=bench --ignore=staticfiles

# The staged tournaments the tests share (fixtures/staged/*.json), rebuilt through the desk after
# a model or scoring change; a test fails while the committed files are stale.
fixtures: deps
	$(PY) -m tests.staged

bench: deps
	$(PY) bench/seating.py
	$(PY) bench/pdf.py
	$(PY) bench/reports.py
	$(PY) bench/imports.py
	$(PY) bench/restore.py
	$(PY) bench/championship.py

# 50 score-entry clients for 60 s on SQLite and PostgreSQL, then the same with a server crash;
# 50 tables entering deals on their phones, then 50 tables' phones polling their sheets;
# a big event (200 and 800 players, 1,000 phones polling the standings and their own pages).
load: deps debs-test
	$(PY) bench/load.py --clients 50 --seconds 60 --db both
	$(PY) bench/load.py --clients 50 --seconds 60 --db both --crash
	$(PY) bench/table_entry.py --tables 50 --seconds 60 --db both
	$(PY) bench/polls.py --tables 50 --seconds 20 --db both
	$(PY) bench/big_event.py --db both

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-wal db.sqlite3-shm staticfiles
