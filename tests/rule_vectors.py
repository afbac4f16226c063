"""The one loader of rule vectors for every engine test (format: tests/vectors/README.md).

Folders read, each once: tests/vectors (the repository's own copy, so a fresh clone has them),
../shared/vectors when it is beside the clone, and every folder named in RULE_VECTORS_DIR
(several separated by os.pathsep). Every *.json file of every folder is read; a test keeps the
cases whose `game` is its engine, so a folder may hold any mix of files.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OWN_DIR = ROOT / "tests" / "vectors"
SHARED_DIR = ROOT.parent / "shared" / "vectors"


def vector_dirs() -> list[Path]:
    extra = [Path(p) for p in os.environ.get("RULE_VECTORS_DIR", "").split(os.pathsep) if p.strip()]
    dirs: list[Path] = []
    for folder in [OWN_DIR, SHARED_DIR, *extra]:
        if folder.is_dir() and folder.resolve() not in {d.resolve() for d in dirs}:
            dirs.append(folder)
    return dirs


def vector_files(dirs: list[Path] | None = None) -> list[Path]:
    """Every *.json file of the folders; a file found twice with the same bytes counts once."""
    files, seen = [], set()
    for folder in vector_dirs() if dirs is None else dirs:
        for path in sorted(folder.glob("*.json")):
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if digest not in seen:
                seen.add(digest)
                files.append(path)
    return files


def cases_for(games: set[str], kinds: set[str] | None = None, dirs: list[Path] | None = None) -> list[dict[str, Any]]:
    """The cases of files whose `game` is in `games` (and whose kind is in `kinds`, when given).

    Skips (fails under CI=true) with the reason when the folders yield no case."""
    from tests.conftest import require

    folders = vector_dirs() if dirs is None else dirs
    cases = []
    for path in vector_files(folders):
        data = json.loads(path.read_text())
        if isinstance(data, dict) and data.get("game") in games:
            cases += [case for case in data.get("cases", []) if kinds is None or case.get("kind") in kinds]
    wanted = f"{', '.join(sorted(kinds))} cases" if kinds else "cases"
    names = ", ".join(str(d) for d in folders) or "no folder"
    require(bool(cases), f"no rule-vector {wanted} for {', '.join(sorted(games))} in {names} (see RULE_VECTORS_DIR)")
    return cases
