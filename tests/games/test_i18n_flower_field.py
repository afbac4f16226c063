"""for Doubting Flower Field: its own Dutch catalogue holds every word of its engine, its
board and their shared names, with the same placeholders; a refused move is refused in the player's
language; a stored log entry and the reason a match ended read in whatever language their reader has,
from the same stored words; yellow's letter is G in Dutch, as on the rules page."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from games import actions
from games.engines.base import Result
from games.engines.flower_field import ENGINE
from games.engines.flower_field.phrases import LETTERS, flowers_words
from games.i18n import entry_text, tr
from games.models import Match, Move
from tests.dutch_words import catalogue
from tests.helpers import start_match, time_out

PACKAGE = Path(settings.BASE_DIR) / "games" / "engines" / "flower_field"
MO = PACKAGE / "locale" / "nl" / "LC_MESSAGES" / "django.mo"
GAME = "doubting-flower-field"
FAR0 = {"type": "hide", "flowers": [{"cell": "A1", "colour": "red"}, {"cell": "B1", "colour": "blue"}]}
FAR1 = {"type": "hide", "flowers": [{"cell": "G7", "colour": "yellow"}, {"cell": "F7", "colour": "red"}]}


def marked_words(path: Path) -> list[tuple[str, bool]]:
    """Every msgid the module marks, the text given to `_` or `gettext_noop`, or the singular given to
    `ngettext`, with whether it has plurals."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            first = node.args[0]
            if node.func.id in ("_", "gettext_noop", "ngettext") and isinstance(first, ast.Constant):
                found.append((first.value, node.func.id == "ngettext"))
    return found


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("module", ["engine.py", "board.py", "phrases.py"])
def test_every_marked_word_is_in_the_games_catalogue_with_its_placeholders(module):
    words = marked_words(PACKAGE / module)
    known = catalogue(MO)
    assert len(words) > 10
    dutch = {
        word: [known.get((word, 0)), known.get((word, 1))] if plural else [known.get(word)] for word, plural in words
    }
    assert [word for word, texts in dutch.items() if None in texts or "" in texts] == []
    for word, texts in dutch.items():
        assert all(placeholders(text) <= placeholders(word) | {"n"} for text in texts), word


def test_yellows_letter_is_g_in_dutch_as_on_the_rules_page():
    with translation.override("nl"):
        assert [tr(LETTERS[colour]) for colour in ("red", "blue", "yellow")] == ["R", "B", "G"]
        assert tr(flowers_words([{"cell": "C4", "colour": "yellow"}, {"cell": "D5", "colour": "red"}])) == (
            "geel op C4 en rood op D5"
        )
    assert [str(LETTERS[colour]) for colour in ("red", "blue", "yellow")] == ["R", "B", "Y"]


@pytest.mark.django_db
def test_an_illegal_flower_field_move_is_refused_in_the_players_language(alice, bob):
    match = start_match(alice, [bob], game=GAME, options={"advantage": "0"})
    plant = {"type": "plant", "flowers": [{"cell": "D5", "colour": "red"}]}
    with translation.override("nl"), pytest.raises(actions.ActionError) as error:
        actions.do_move(match.pk, alice, match.version, plant)
    assert str(error.value) == "Planten mag nu niet."
    with translation.override("en"), pytest.raises(actions.ActionError) as error:
        actions.do_move(match.pk, alice, match.version, plant)
    assert str(error.value) == "A plant move is not allowed now."
    actions.do_move(match.pk, alice, match.version, {"type": "order", "go": "first"})
    match.refresh_from_db()
    off_the_field = {"type": "hide", "flowers": [{"cell": "A1", "colour": "red"}, {"cell": "H9", "colour": "red"}]}
    with translation.override("nl"), pytest.raises(actions.ActionError) as error:
        actions.do_move(match.pk, alice, match.version, off_the_field)
    assert str(error.value) == "'H9' is geen vak van het veld (A1 t/m G7)."
    match.refresh_from_db()
    assert match.state["phase"] == "hide" and match.state["hidden"] == [None, None]  # refused: nothing changed


@pytest.mark.django_db
def test_a_stored_log_entry_reads_in_the_language_of_whoever_reads_it(alice, bob, client_for):
    match = start_match(alice, [bob], game=GAME, options={"advantage": "0"})
    for user, move in ((alice, {"type": "order", "go": "first"}), (alice, FAR0), (bob, FAR1)):
        actions.do_move(match.pk, user, Match.objects.get(pk=match.pk).version, move)
    planting = {"type": "plant", "flowers": [{"cell": "D3", "colour": "blue"}, {"cell": "D5", "colour": "yellow"}]}
    actions.do_move(match.pk, alice, Match.objects.get(pk=match.pk).version, planting)
    stored = Move.objects.filter(match_id=match.pk).order_by("number").last()
    assert stored.log[0]["text"] == "{p0} planted blue D3 and yellow D5."  # the English text, as every entry has
    with translation.override("nl"):
        assert stored.texts_for(None, False) == ["{p0} plantte blauw op D3 en geel op D5."]
    with translation.override("en"):
        assert stored.texts_for(None, False) == ["{p0} planted blue D3 and yellow D5."]
    # The private entry of a hiding: its owner reads it, in their language; the other player does not.
    hidden = Move.objects.get(match_id=match.pk, number=stored.number - 2)
    with translation.override("nl"):
        assert "Je verstopte rood op A1 en blauw op B1." in hidden.texts_for(0, False)
        assert not any("A1" in text for text in hidden.texts_for(1, False))
    bob.language = "nl"
    bob.save()
    alice.language = "en"
    alice.save()
    assert "alice plantte blauw op D3 en geel op D5." in client_for(bob).get(f"/matches/{match.pk}/").content.decode()
    assert "alice planted blue D3 and yellow D5." in client_for(alice).get(f"/matches/{match.pk}/").content.decode()


@pytest.mark.django_db
def test_how_a_match_ended_is_kept_as_words_and_read_in_each_readers_language(alice, bob, client_for):
    match = start_match(alice, [bob], game=GAME, options={"advantage": "0"})
    actions.do_move(match.pk, alice, 0, {"type": "order", "go": "first"})  # a person moved: SITE-ABORT is past
    time_out(match)  # both are to hide their flowers; alice, the first seat, runs out of time first
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.end_reason == "lost on time"
    assert match.end_reason_words == {"msg": "lost on time", "args": {}}
    result = ENGINE.result(match.state)
    assert result == Result([1], [5, 5], "lost on time", reason_words={"msg": "lost on time", "args": {}})
    assert result.as_dict() == match.state["result"]  # the state keeps it as Result.as_dict() writes it
    with translation.override("nl"):
        assert match.end_reason_text() == "door de tijd heen"
        assert entry_text(match.moves.order_by("number").last().log[0]) == "{p0} is door de tijd heen en verliest."
    bob.language = "nl"
    bob.save()
    page = client_for(bob).get(f"/matches/{match.pk}/").content.decode()
    assert "Door de tijd heen." in page and "Jij wint!" in page and "Het spel is voorbij" in page
    assert "Lost on time" not in page and "You win!" not in page
