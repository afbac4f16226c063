"""Lizzy Ghosties in Dutch: its cards' phrases, its presenter's words, its log, its result and
its refusals.

The words are Msgs (games/engines/words.py) whose Dutch is in the game's own catalogue,
games/engines/lizzy_ghosties/locale/nl/LC_MESSAGES/django.po. The English stays what it always was
(tests/engines/test_lizzy_ghosties.py compares the log texts), so the cards' phrases are held to
games.engines.dizzy_cards' own words here.
"""

from __future__ import annotations

import dataclasses
import gettext
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation

from games import actions
from games.engines import dizzy_cards
from games.engines.base import Result
from games.engines.dizzy_phrases import card_name, card_words, the_card
from games.engines.lizzy_ghosties import ENGINE
from games.engines.lizzy_ghosties.board import present
from games.engines.lizzy_ghosties.phrases import BURN_LIZZYS, YOUR, a_card, owned_card, owner
from games.engines.spec import BoardInput
from games.engines.words import Msg
from games.i18n import entry_text, tr
from games.models import Move, fill_names
from tests.dutch_words import english_texts
from tests.helpers import start_match, user_to_act

GAME = "lizzy-ghosties"
PACKAGE = Path(settings.BASE_DIR) / "games" / "engines" / "lizzy_ghosties"
MO = PACKAGE / "locale" / "nl" / "LC_MESSAGES" / "django.mo"
SHARED_MO = PACKAGE.parent / "locale" / "nl" / "LC_MESSAGES" / "django.mo"
NAMES = ["An", "Bo", "Cas", "Dirk", "Eef", "Fem", "Guus", "Hein"]
# A template made only of placeholders and signs ("{short}{rest}", "{first}, {next}") needs no translation.
ONLY_SIGNS = re.compile(r"^(\{[a-z]+\}|[ ,])*$")
# English words of this game that Dutch does not share (besides tests/dutch_words.py's).
CARD_WORDS = {"head", "body", "tail", "dots", "stripes", "golden", "steal", "stole", "burn", "burned", "give", "gave"}
CARD_WORDS |= {"double", "showdown", "event", "attempt", "loaned", "stack", "side", "cycle", "pick", "grab", "threw"}
# Games that between them reach every phase: the showdown (four or more players), the dice, three players.
GAMES = [(3, False, 1), (4, False, 2), (5, True, 3), (8, False, 4)]


def known_templates() -> dict:
    """The game's own catalogue and the engines' shared one (the cards' words, games/engines/dizzy_phrases.py)."""
    known = {}
    for mo in (MO, SHARED_MO):
        with mo.open("rb") as handle:
            known |= gettext.GNUTranslations(handle)._catalog
    return known


def templates_of(stored: dict) -> list[str]:
    """Every template in a stored entry or value ({"msg", "args"}), its values' templates too."""
    found = [stored["msg"]]
    for value in (stored.get("args") or {}).values():
        if isinstance(value, dict):
            found += templates_of(value)
    return found


def msg_templates(words: Msg) -> list[Any]:
    """A Msg's catalogue keys (a plural's is (singular, 0)) and those of the Msgs among its values."""
    found: list[Any] = [words.template if words.plural_template is None else (words.template, 0)]
    for value in words.values.values():
        if isinstance(value, Msg):
            found += msg_templates(value)
    return found


def msgs_in(value: Any) -> Iterator[Msg]:
    """Every Msg inside a board's sections (its cards and choices too)."""
    if isinstance(value, Msg):
        yield value
    elif dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            yield from msgs_in(getattr(value, field.name))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from msgs_in(item)


def played(players: int, dicey: bool, seed: int) -> tuple[list[dict], list[dict]]:
    """A whole game with random legal moves: each position, and the log entries of each move."""
    rng = random.Random(seed)
    state = ENGINE.new_state(players, {"dicey": dicey}, seed)
    positions, logs = [state], []
    while ENGINE.result(state) is None:
        seat = ENGINE.to_act(state)[0]
        state, entries = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        positions.append(state)
        logs += entries
    return positions, logs


def board_of(state: dict, seat: int | None):
    over = ENGINE.result(state) is not None
    legal = [] if over or seat is None or seat not in ENGINE.to_act(state) else ENGINE.legal_moves(state, seat)
    given = BoardInput(
        view=ENGINE.view(state, seat),
        legal=legal,
        seat=seat,
        my_turn=bool(legal),
        names=NAMES[: state["players"]],
        is_over=over,
    )
    return present(given)


def english_words_in(text: str) -> set[str]:
    words = {word.lower() for word in re.findall(r"[A-Za-z']+", text)}
    return {word for text_words in english_texts(f"<p>{text}</p>").values() for word in text_words} | (
        words & CARD_WORDS
    )


def tr_nl(words: Any) -> str:
    with translation.override("nl"):
        return tr(words)


# --- the words of cards keep their English, and bend in Dutch --------------------------------------------


def test_the_card_phrases_read_as_dizzy_cards_describes_them():
    for card in dizzy_cards.DECK:
        described = dizzy_cards.describe(card)
        assert card_name(card) == described
        assert card_words(card) == described.removeprefix("golden ")
        assert the_card(card) == "the " + described and a_card(card) == "a " + described
        assert owned_card(card, owner("{p2}")) == "{p2}'s " + described
        assert owned_card(card, BURN_LIZZYS) == "the Burn Lizzy's " + described
        assert owned_card(card, YOUR) == "your " + described


def test_cards_in_dutch_bend_their_colour_by_the_part_and_the_article():
    assert tr_nl(card_words("body-blue-stripes")) == "blauw lijf met strepen"
    assert tr_nl(a_card("body-red-dots")) == "een rood lijf met stippen"
    assert tr_nl(a_card("head-red-dots-gold")) == "een gouden rode kop met stippen"
    assert tr_nl(the_card("tail-purple-diamonds")) == "de paarse staart met ruiten"
    assert tr_nl(owned_card("body-purple-diamonds-gold", owner("Bo"))) == "het gouden paarse lijf met ruiten van Bo"
    assert tr_nl(owned_card("head-blue-dots", BURN_LIZZYS)) == "de blauwe kop met stippen van de Brand-Lizzy"
    assert tr_nl(owned_card("tail-red-stripes", YOUR)) == "de rode staart met strepen van jou"


# --- every word of whole games is in the catalogue and reads in Dutch ------------------------------------


@pytest.mark.parametrize(("players", "dicey", "seed"), GAMES)
def test_every_log_template_of_a_whole_game_has_its_dutch(players, dicey, seed):
    known = known_templates()
    _, logs = played(players, dicey, seed)
    templates = {template for entry in logs for template in templates_of(entry)}
    assert sorted(t for t in templates if t not in known and not ONLY_SIGNS.match(t)) == []
    assert len(templates) > 15
    names = {f"p{seat}": name for seat, name in enumerate(NAMES)}
    with translation.override("nl"):
        dutch = [fill_names(entry_text(entry), names) for entry in logs]
    assert [(text, english_words_in(text)) for text in dutch if english_words_in(text)] == []
    with translation.override("en"):
        assert [entry_text(entry) for entry in logs] == [entry["text"] for entry in logs]  # the English is kept


@pytest.mark.slow
@pytest.mark.parametrize(("players", "dicey", "seed"), GAMES)
def test_every_board_of_a_whole_game_reads_in_dutch(players, dicey, seed):
    known = known_templates()
    positions, _ = played(players, dicey, seed)
    page = engines["jinja2"].get_template("games/lizzy-ghosties/board.html")
    seen = 0
    for state in positions[:: max(1, len(positions) // 20)] + [positions[-1]]:
        for seat in [*range(min(players, 4)), None]:  # four seats and a spectator: every kind of viewer
            board = board_of(state, seat)
            for words in msgs_in(board):
                seen += 1
                missing = [key for key in msg_templates(words) if key not in known]
                assert [key for key in missing if not (isinstance(key, str) and ONLY_SIGNS.match(key))] == []
                assert english_words_in(tr_nl(words)) == set(), (words, tr_nl(words))
            with translation.override("nl"):
                text = page.render({"board": board, "pv": {"match": {"url": "/matches/1/"}}})
            assert english_texts(text) == {}
    assert seen > 1000


# --- a result, a refusal and a stored move, each in its reader's language ---------------------------------


def test_a_result_keeps_its_words_through_the_stored_state():
    positions, logs = played(5, False, 3)
    stored = positions[-1]["result"]
    result = ENGINE.result(positions[-1])
    assert stored["reason_words"]["msg"] and result.reason_words == stored["reason_words"]
    assert Result(**result.as_dict()) == result
    with translation.override("nl"):
        reason = entry_text({"text": result.reason, **result.reason_words})
    assert reason != result.reason and "team Lizzies" in reason and "kaarten" in reason
    assert english_words_in(reason) == set()
    assert logs[-1]["text"] == "Game over. " + result.reason  # the log ends with the reason, in words too
    assert logs[-1]["args"]["reason"] == result.reason_words


@pytest.mark.django_db
def test_an_illegal_lizzy_ghosties_move_is_refused_in_the_players_language(alice, bob, carol):
    match = start_match(alice, [bob, carol], game=GAME)
    mover = user_to_act(match).user
    step = match.state["step"]
    assert step["kind"] == "lizzy" and step["event"] is None  # the first Lizzy passes her first opponent
    third = ({0, 1, 2} - {step["seat"], step["opponent"]}).pop()
    move = {"type": "steal", "from": third, "part": "head"}
    with translation.override("nl"), pytest.raises(actions.ActionError) as error:
        actions.do_move(match.pk, mover, match.version, move)
    assert str(error.value) == "Je kunt alleen stelen van of geven aan de Lizzy waar je nu langskomt."
    with translation.override("en"), pytest.raises(actions.ActionError) as error:
        actions.do_move(match.pk, mover, match.version, move)
    assert str(error.value) == "You can only steal from or give to the Lizzy you are passing now."


@pytest.mark.django_db
def test_a_stored_move_reads_in_dutch_and_in_english(alice, bob, carol, client_for):
    match = start_match(alice, [bob, carol], game=GAME)
    # The first Lizzy skips each opponent until one of her moves takes a card; that move is then read.
    for _ in range(30):
        seat = ENGINE.to_act(match.state)[0]
        legal = ENGINE.legal_moves(match.state, seat)
        steals = [move for move in legal if move["type"] == "steal"]
        move = steals[0] if steals else {"type": "skip"}
        before = match.state
        actions.do_move(match.pk, user_to_act(match).user, match.version, move)
        match.refresh_from_db()
        if steals:
            break
    assert steals, "no steal came up"
    card = before["lizzies"][move["from"]][move["part"]][-1]
    entry = Move.objects.get(match=match, number=match.version).log[0]
    names = match.seat_names()
    thief, victim = names[f"p{seat}"], names[f"p{move['from']}"]
    with translation.override("nl"):
        dutch = fill_names(entry_text(entry), names)
    with translation.override("en"):
        english = fill_names(entry_text(entry), names)
    assert dutch == f"{thief} stal {tr_nl(owned_card(card, owner(victim)))}."
    assert re.fullmatch(rf"{thief} stal (de|het) (gouden )?\w+ (kop|lijf|staart) met \w+ van {victim}\.", dutch)
    assert english == f"{thief} stole {victim}'s {dizzy_cards.describe(card)}."
    reader = match.seats.get(number=seat).user
    reader.language = "nl"
    reader.save()
    page = client_for(reader).get(f"/matches/{match.pk}/").content.decode()
    assert dutch in page and english not in page
