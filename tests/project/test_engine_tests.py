"""The PostgreSQL pass runs every test whose subject the engine can change (tests/engine.py):
a module of the apps that gains plain SQL, an upsert, a row lock, a constraint or an
engine-specific branch without an engine test fails here."""

from pathlib import Path

from tests.engine import ENGINE_CODE, ENGINE_FILES, ENGINE_SUBJECTS

ROOT = Path(__file__).resolve().parents[2]


def engine_specific_modules() -> set[str]:
    found = set()
    for app in ("scoring", "tournament"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            if ENGINE_CODE.search(path.read_text(encoding="utf-8")):
                found.add(str(path.relative_to(ROOT)))
    return found


def test_every_module_with_engine_specific_code_has_engine_tests():
    missing = sorted(engine_specific_modules() - set(ENGINE_SUBJECTS))
    assert not missing, f"name their engine tests in tests/engine.py ENGINE_SUBJECTS: {missing}"


def test_no_module_is_listed_without_engine_specific_code():
    stale = sorted(set(ENGINE_SUBJECTS) - engine_specific_modules())
    assert not stale, f"no engine-specific code left there: drop from tests/engine.py: {stale}"


def test_every_listed_engine_test_file_exists_and_uses_the_database():
    files = {path for paths in ENGINE_SUBJECTS.values() for path in paths} | set(ENGINE_FILES)
    for name in sorted(files):
        path = ROOT / name
        assert path.is_file(), name
        text = path.read_text(encoding="utf-8")
        assert any(
            word in text
            for word in ("django_db", "db,", "(db", "client", "staged", "arbiter", "database")
        ), f"{name} uses no database: not an engine test"
