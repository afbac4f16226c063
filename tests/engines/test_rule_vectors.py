"""The rule-vector loader shared by the engine tests (tests/rule_vectors.py)."""

from __future__ import annotations

import json
import shutil

import pytest

import tests.conftest
from tests.rule_vectors import OWN_DIR, cases_for, vector_dirs

GAMES_WITH_VECTORS = {"dizzy-duo-battle", "doubting-flower-field"}


def test_the_repository_holds_the_public_vectors():
    """A fresh clone with nothing beside it still has cases for every game the vectors cover."""
    assert OWN_DIR in vector_dirs()
    for game in GAMES_WITH_VECTORS:
        assert cases_for({game}, dirs=[OWN_DIR]), game
    assert cases_for({"lizzy-ghosties", "dizzy-duo-battle"}, kinds={"lizzy"}, dirs=[OWN_DIR])


def test_a_folder_with_any_mix_of_files(tmp_path):
    """Every *.json is read whatever its name; other games' files and other files are left alone."""
    flower = json.loads((OWN_DIR / "doubting-flower-field.json").read_text())
    (tmp_path / "any-name.json").write_text(json.dumps(flower))
    (tmp_path / "notes.txt").write_text("not a vector file")
    (tmp_path / "other.json").write_text(json.dumps({"format": 1, "game": "solitaire-chess", "cases": []}))
    assert cases_for({"doubting-flower-field"}, dirs=[tmp_path]) == flower["cases"]


def test_rule_vectors_dir_adds_folders(tmp_path, monkeypatch):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    shutil.copy(OWN_DIR / "dizzy-lizzy.json", first / "x.json")
    monkeypatch.setenv("RULE_VECTORS_DIR", f"{first}:{second}")
    assert vector_dirs()[0] == OWN_DIR and first in vector_dirs() and second in vector_dirs()
    # The same file in two folders counts once.
    assert len(cases_for({"dizzy-duo-battle"})) == len(cases_for({"dizzy-duo-battle"}, dirs=[OWN_DIR]))


def test_no_case_for_a_game_skips_with_the_reason_or_fails_in_ci(tmp_path, monkeypatch):
    shutil.copy(OWN_DIR / "doubting-flower-field.json", tmp_path / "only-flowers.json")
    monkeypatch.setattr(tests.conftest, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match="no rule-vector cases for dizzy-duo-battle"):
        cases_for({"dizzy-duo-battle"}, dirs=[tmp_path])
    monkeypatch.setattr(tests.conftest, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="CI=true but no rule-vector cases for dizzy-duo-battle"):
        cases_for({"dizzy-duo-battle"}, dirs=[tmp_path])
