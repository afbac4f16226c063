"""No dead code in the site's apps: every public function is used somewhere outside its definition
(code, templates or the benchmarks; tests do not count). The engines are held to their contract elsewhere."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("games", "moderation", "notifications", "accounts", "ratings", "api", "push", "tournaments", "dizzysite")
SKIPPED = {".venv", "tests", "var", "staticfiles"}


def site_texts() -> dict[Path, str]:
    texts = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] not in SKIPPED and "migrations" not in parts:
            texts[path] = path.read_text()
    for folder in ("templates", "jinja2_templates"):
        for path in (ROOT / folder).rglob("*.html"):
            texts[path] = path.read_text()
    return texts


@pytest.mark.slow
def test_every_public_function_of_the_apps_is_used():
    texts = site_texts()
    unused = []
    for path, source in texts.items():
        parts = path.relative_to(ROOT).parts
        if path.suffix != ".py" or parts[0] not in APPS or parts[:2] == ("games", "engines"):
            continue
        for node in ast.parse(source).body:
            # A decorated function is used by its decorator (a system check, a task, a view).
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and not node.decorator_list:
                word = re.compile(rf"\b{node.name}\b")
                if sum(len(word.findall(text)) for text in texts.values()) <= 1:
                    unused.append(f"{path.relative_to(ROOT)}: {node.name}")
    assert not unused, "never used outside tests: " + ", ".join(unused)
