"""The docs stay true to the code: the README stays short, every file, folder, module and make target
they name exists, every link between them resolves, and every ruling cited anywhere is defined in
docs/rulings.md."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "bench" / "RESULTS.md", *sorted((ROOT / "docs").glob("*.md"))]
APPS = ("accounts", "api", "dizzysite", "games", "live", "learn", "moderation", "notifications", "push", "ratings")
APPS += ("tournaments",)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
# A path in the repository: a folder or a file with an extension, no placeholders, no URLs.
REPO_PATH = re.compile(r"^(?:[\w.-]+/)+(?:[\w.-]+\.\w+)?$")
ROOT_FILE = re.compile(r"^[A-Z][\w-]*\.(?:md|toml|txt)$")
DOTTED = re.compile(r"^(?:" + "|".join(APPS) + r")(?:\.\w+)+$")
MAKE_TARGET = re.compile(r"^make ([a-z][\w-]*)")
MD_LINK = re.compile(r"\]\(([^)#\s]+)(?:#([\w-]+))?\)")
RULING = re.compile(r"\b(?:LZ|DD|LG|FF|SC|ALL|TRN)-\d+\b|\bSITE-(?:RESIGN|ABORT)\b")
SOURCE_SUFFIXES = {".py", ".html", ".js", ".css", ".json", ".txt", ".toml"}
OUTSIDE = {".venv", "var", "node_modules", "staticfiles", "test-artifacts", ".git"}
MADE_BY_RUNS = ("test-artifacts/",)  # written by the tests, ignored by git


def spans(doc: Path) -> list[str]:
    text = doc.read_text()
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # commands and config examples, not names
    return CODE_SPAN.findall(text)


def repo_paths(doc: Path) -> list[str]:
    found = []
    for span in spans(doc):
        for word in span.split():
            word = word.strip("(),;:")
            placeholder = "<" in word or "{" in word or "*" in word
            if placeholder or word.startswith(("var/", "/", "../", "http", *MADE_BY_RUNS)):
                continue
            if REPO_PATH.match(word) or ROOT_FILE.match(word):
                found.append(word)
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_named_files_exist(doc):
    missing = sorted({p for p in repo_paths(doc) if not (ROOT / p).exists()})
    assert missing == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_named_modules_exist(doc):
    missing = sorted({name for span in spans(doc) if DOTTED.match(span) and not resolves(span) for name in [span]})
    assert missing == []


def resolves(dotted: str) -> bool:
    """A module, an attribute of the longest module prefix (games.actions.do_move), or a model's label."""
    from django.apps import apps

    parts = dotted.split(".")
    if len(parts) == 2 and parts[1][:1].isupper() and apps.all_models.get(parts[0], {}).get(parts[1].lower()):
        return True
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_make_targets_exist(doc):
    targets = set(re.findall(r"(?m)^([a-z][\w-]*):", (ROOT / "Makefile").read_text()))
    named = {m.group(1) for span in spans(doc) if (m := MAKE_TARGET.match(span))}
    named |= set(re.findall(r"(?m)^make ([a-z][\w-]*)", doc.read_text()))  # in the shell examples
    assert named - targets == set()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve(doc):
    broken = []
    for target, anchor in MD_LINK.findall(doc.read_text()):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path = (doc.parent / target).resolve()
        if not path.exists():
            broken.append(target)
        elif anchor and anchor not in anchors(path):
            broken.append(f"{target}#{anchor}")
    assert broken == []


def anchors(doc: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    headings = re.findall(r"(?m)^#+ (.+)$", doc.read_text())
    return {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}


def test_readme_is_short():
    assert len((ROOT / "README.md").read_text().splitlines()) < 300


def test_every_cited_ruling_is_defined():
    rulings = (ROOT / "docs/rulings.md").read_text()
    defined = set(re.findall(r"\*\*((?:LZ|DD|LG|FF|SC|ALL|TRN|SITE)-[A-Z0-9]+)\b", rulings))
    cited = {}
    for path in ROOT.rglob("*"):
        if path.suffix not in SOURCE_SUFFIXES | {".md"} or OUTSIDE & set(path.relative_to(ROOT).parts):
            continue
        for ruling in RULING.findall(path.read_text(errors="replace")):
            cited.setdefault(ruling, str(path.relative_to(ROOT)))
    assert len(cited) > 40  # the scan does reach the code
    assert {r: where for r, where in cited.items() if r not in defined} == {}


def test_rules_pages_point_to_the_rulings():
    for page in (ROOT / "templates/games/rules").glob("*.html"):
        if page.name.startswith("_"):
            continue
        assert "docs/rulings.md" in page.read_text(), page.name
