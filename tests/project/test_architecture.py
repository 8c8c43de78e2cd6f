"""The layout holds what the README's Architecture section says: no missing migration, the
import contracts kept, and the size limits (folders, modules, functions) outside migrations,
with the README's listed exceptions only."""

import ast
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
APPS = ("scoring", "tournament")
MAX_MODULES, MAX_LINES, MAX_FUNCTION = 15, 400, 60


def sources():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def readme_exceptions() -> set[str]:
    """`path` or `path:function` named in the README's list under "Size limits"."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("Size limits:")
    section = readme[start : readme.index("\n\n", start)]
    return set(re.findall(r"`([\w/.:]+\.py(?::\w+)?)`", section))


@pytest.mark.django_db
def test_no_migration_is_missing():
    out = StringIO()
    call_command("makemigrations", check=True, dry_run=True, stdout=out)
    assert "No changes detected" in out.getvalue()


def test_the_import_contracts_are_kept():
    linter = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(linter)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout[-3000:]
    assert " 0 broken" in result.stdout


def test_no_folder_holds_more_than_15_modules():
    crowded = {}
    for app in APPS:
        for folder in [ROOT / app, *(ROOT / app).rglob("*/")]:
            if "migrations" in folder.parts or "__pycache__" in folder.parts:
                continue
            modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
            if len(modules) > MAX_MODULES:
                crowded[str(folder.relative_to(ROOT))] = len(modules)
    assert not crowded


def test_no_module_over_400_lines_nor_function_over_60():
    allowed = readme_exceptions()
    too_long = []
    for path in sources():
        name = str(path.relative_to(ROOT))
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MAX_LINES and name not in allowed:
            too_long.append(f"{name}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION and f"{name}:{node.name}" not in allowed:
                    too_long.append(f"{name}:{node.name}: {length} lines")
    assert not too_long, too_long
