"""Nothing that must be shared lives in one server process: sessions, login locks, counters and
locks are in the database, so that several application servers on one database behave as one
(README, "Several application servers"; tests/load/test_two_servers.py runs two).

Settings define no CACHES, so Django's cache would be a per-process LocMemCache: a value put in
it on one server is unknown to the next one, which is why no module may use it. Memoisation
(functools.cache, lru_cache) is allowed only in the pure cores, which import no model and so
cannot cache anything read from the database."""

import ast
from pathlib import Path

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.utils.module_loading import import_string

ROOT = Path(__file__).resolve().parents[2]
APPS = ("scoring", "tournament")
PURE_CORES = ("scoring/core/", "tournament/core/")
CACHE_MODULES = ("django.core.cache", "django.middleware.cache", "django.views.decorators.cache")
ALLOWED_CACHE_NAMES = {"never_cache", "patch_cache_control", "cache_control"}  # headers only
MEMOISERS = {"cache", "lru_cache"}
GLOBAL_STATEMENTS = {"tournament/hooks.py"}  # the app wiring, set once in AppConfig.ready()


def sources():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text("utf-8"))


def test_no_module_uses_the_per_process_cache():
    found = []
    for name, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found += [f"{name}: import {a.name}" for a in node.names if a.name in CACHE_MODULES]
            elif isinstance(node, ast.ImportFrom) and node.module:
                if node.module in CACHE_MODULES or node.module == "django.core":
                    used = {a.name for a in node.names}
                    if node.module == "django.core":
                        used &= {"cache"}
                    elif node.module != "django.utils.cache":
                        used -= ALLOWED_CACHE_NAMES
                    found += [f"{name}: from {node.module} import {u}" for u in sorted(used)]
    assert not found, found


def test_no_template_caches_a_fragment():
    templates = [*ROOT.joinpath("templates").rglob("*.html")]
    for app in APPS:
        templates += ROOT.joinpath(app).rglob("templates/**/*.html")
    cached = [str(t) for t in templates if "{% load cache" in t.read_text("utf-8")]
    assert not cached


def _decorator_names(node: ast.AST) -> set[str]:
    """The names a def or class is decorated with: `cache`, `functools.lru_cache(64)`, ..."""
    names = set()
    for decorator in getattr(node, "decorator_list", ()):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Name):
            names.add(target.id)
        elif isinstance(target, ast.Attribute):
            names.add(target.attr)
    return names


def test_memoisation_only_in_the_pure_cores():
    found = [
        f"{name}:{node.lineno}"
        for name, tree in sources()
        if not name.startswith(PURE_CORES)
        for node in ast.walk(tree)
        if _decorator_names(node) & MEMOISERS
    ]
    assert not found, found


def test_module_state_is_set_only_by_the_app_wiring():
    found = [
        f"{name}:{node.lineno}"
        for name, tree in sources()
        for node in ast.walk(tree)
        if isinstance(node, ast.Global) and name not in GLOBAL_STATEMENTS
    ]
    assert not found, found


def test_sessions_and_login_locks_are_in_the_database():
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    assert issubclass(import_string(settings.AXES_HANDLER), AxesDatabaseHandler)
    # Messages ride on the cookie, then the session: both reach every server.
    assert settings.MESSAGE_STORAGE == "django.contrib.messages.storage.fallback.FallbackStorage"
