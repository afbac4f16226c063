"""Commit subjects are one line of at most 72 characters, the detail in the body: `git log --oneline`
and every tool that shows one line a commit stay readable. Held from the first commit that kept the
rule; the history before it is left as it was."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import require

ROOT = Path(__file__).resolve().parents[2]
FIRST_KEPT = "abe119f"  # the README split, the first commit written to this rule


def test_commit_subjects_are_at_most_72_characters():
    require(shutil.which("git") is not None and (ROOT / ".git").exists(), "no git checkout to read commits from")
    known = subprocess.run(["git", "cat-file", "-e", f"{FIRST_KEPT}^{{commit}}"], cwd=ROOT, capture_output=True)
    if known.returncode != 0:  # a shallow clone: the history is not here to read, which is no fault
        pytest.skip(f"commit {FIRST_KEPT} is not in this checkout's history")
    log = subprocess.run(
        ["git", "log", "--format=%h %s", f"{FIRST_KEPT}^..HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    subjects = [line.split(" ", 1) for line in log.stdout.splitlines()]
    assert len(subjects) >= 1
    assert [(sha, subject) for sha, subject in subjects if len(subject) > 72] == []
