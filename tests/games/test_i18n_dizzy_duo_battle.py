"""Dizzy Duo Battle in Dutch: its presenter's words, its log, its results and its refusals.

The words are Msgs (games/engines/words.py) whose Dutch is in the game's own catalogue,
games/engines/dizzy_duo_battle/locale/nl/LC_MESSAGES/django.po. The English stays what it always was,
so the cards' phrases are held to games.engines.dizzy_cards' own words here.
"""

from __future__ import annotations

import gettext
import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation

from games import actions
from games.engines import dizzy_cards
from games.engines.base import Result
from games.engines.dizzy_duo_battle import ENGINE
from games.engines.dizzy_duo_battle.board import present
from games.engines.dizzy_duo_battle.phrases import breakdown, lizzy_summary
from games.engines.dizzy_phrases import card_name, card_words, the_card
from games.engines.spec import BoardInput
from games.i18n import entry_text, tr
from games.models import Move, fill_names
from tests.dutch_words import english_texts
from tests.helpers import start_match, user_to_act

GAME = "dizzy-duo-battle"
MO = Path(settings.BASE_DIR) / "games" / "engines" / "dizzy_duo_battle" / "locale" / "nl" / "LC_MESSAGES" / "django.mo"
SHARED_MO = Path(settings.BASE_DIR) / "games" / "engines" / "locale" / "nl" / "LC_MESSAGES" / "django.mo"
# A template made only of placeholders and signs (phrases.joined: "{t0}, {t1}") needs no translation.
ONLY_SIGNS = re.compile(r"^(\{t\d+\}|[ ,;·+=0-9])*$")
# English words of this game's board that Dutch does not share (besides tests/dutch_words.py's).
CARD_WORDS = {"head", "body", "tail", "dots", "stripes", "diamonds", "golden", "fight", "battle", "lifeline"}
OPTION_SETS = [
    {},
    {"lifeline": True, "lives": 6},
    {"points_target": 12},
    {"open_battles": True, "main_attack": True, "lives": 8},
]


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


def played(options: dict, seed: int, players: int = 3):
    """A whole game with random legal moves: each position, and the log entries of each move."""
    rng = random.Random(seed)
    state = ENGINE.new_state(players, options, seed)
    positions, logs = [state], []
    while ENGINE.result(state) is None:
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_moves(state, seat)
        attack = [m for m in legal if m["type"] == "attack"]
        state, entries = ENGINE.apply(
            state, seat, rng.choice(attack) if attack and rng.random() < 0.5 else rng.choice(legal)
        )
        positions.append(state)
        logs += entries
    return positions, logs


def board_page(state: dict, seat: int | None, names: list[str]) -> str:
    over = state["phase"] == "over"
    legal = [] if over or seat is None else ENGINE.legal_moves(state, seat)
    given = BoardInput(
        view=ENGINE.view(state, seat),
        legal=legal,
        seat=seat,
        my_turn=bool(legal),
        names=names,
        is_over=over,
    )
    return engines["jinja2"].get_template("games/dizzy-duo-battle/board.html").render({"board": present(given)})


# --- the words of cards, Lizzies and duos keep their English ------------------------------------------


def test_the_card_phrases_read_as_dizzy_cards_describes_them():
    for card in dizzy_cards.DECK:
        assert card_name(card) == dizzy_cards.describe(card)
        assert card_words(card) == dizzy_cards.describe(card).removeprefix("golden ")
        assert the_card(card) == "the " + dizzy_cards.describe(card)
    heads, bodies, tails = (sorted({c for c in dizzy_cards.DECK if c.startswith(part)}) for part in dizzy_cards.PARTS)
    for lizzy in ([h, b, t] for h in heads for b in bodies for t in tails):
        assert lizzy_summary(lizzy) == dizzy_cards.lizzy_summary(lizzy)


def test_a_duos_breakdown_reads_as_its_arrangement_says():
    rng = random.Random(19)
    seen = set()
    for _ in range(3000):
        arrangement = dizzy_cards.best_arrangement(rng.sample(dizzy_cards.DECK, 6)).as_dict()
        assert breakdown(arrangement) == arrangement["breakdown"]
        seen.add(len(arrangement["lizzies"]) + len(arrangement["bonuses"]))
    assert seen >= {0, 1, 2, 3}


def test_cards_in_dutch_bend_their_colour_by_the_part_and_the_article():
    with translation.override("nl"):
        assert tr(card_words("head-red-dots")) == "rode kop met stippen"
        assert tr(card_words("body-blue-stripes")) == "blauw lijf met strepen"
        assert tr(card_name("body-blue-stripes-gold")) == "gouden blauw lijf met strepen"
        assert tr(the_card("body-purple-diamonds")) == "het paarse lijf met ruiten"
        assert tr(the_card("tail-red-dots-gold")) == "de gouden rode staart met stippen"
        assert tr(lizzy_summary(["head-blue-dots", "body-blue-stripes", "tail-blue-diamonds"])) == (
            "helemaal blauw, patronen allemaal verschillend"
        )


# --- every word of a game is in the catalogue, and no page is left in English --------------------------


@pytest.mark.parametrize("options", OPTION_SETS, ids=["lives", "lifeline", "points", "open-main"])
def test_every_log_template_of_a_whole_game_has_its_dutch(options):
    known = known_templates()
    _, logs = played(options, seed=7)
    templates = {template for entry in logs for template in templates_of(entry)}
    missing = sorted(t for t in templates if t not in known and not ONLY_SIGNS.match(t))
    assert missing == []
    assert len(templates) > 15
    with translation.override("nl"):
        dutch = [fill_names(entry_text(entry), {"p0": "An", "p1": "Bo", "p2": "Cas"}) for entry in logs]
    for text in dutch:
        assert english_texts(f"<p>{text}</p>") == {}, text


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=["lives", "lifeline", "points", "open-main"])
def test_every_board_of_a_whole_game_reads_in_dutch(options):
    positions, _ = played(options, seed=11)
    names = ["An", "Bo", "Cas"]
    with translation.override("nl"):
        for state in positions[:: max(1, len(positions) // 40)] + [positions[-1]]:
            for seat in (0, 1, 2, None):
                page = board_page(state, seat, names)
                leftover = english_texts(page)
                card_words_left = {
                    text: words
                    for text in re.findall(r">([^<>]+)<", page)
                    if (words := {w.lower() for w in re.findall(r"[A-Za-z]+", text)} & CARD_WORDS)
                }
                assert leftover == {} and card_words_left == {}, (seat, state["round"], leftover, card_words_left)


# --- a result, a refusal and a stored move, each in its reader's language ------------------------------


@pytest.mark.parametrize(
    "options, english, dutch",
    [
        ({}, "An is the last player with lives left.", "An heeft als laatste nog levens."),
        ({"points_target": 12}, "An reached 12 points and wins.", "An haalde 12 punten en wint."),
    ],
)
def test_a_result_keeps_its_words_through_the_stored_state(options, english, dutch):
    positions, logs = played(options, seed=3)
    final = positions[-1]
    result = ENGINE.result(final)  # read back from the state's JSON
    assert Result(**result.as_dict()) == result and result.as_dict() == final["result"]
    names = {"p0": "An", "p1": "Bo", "p2": "Cas"}
    words = {"text": result.reason, **result.reason_words}
    assert fill_names(result.reason, names) == fill_names(entry_text(words), names) == english
    assert fill_names(entry_text(logs[-1]), names) == english  # the log ends with the reason
    with translation.override("nl"):
        assert fill_names(entry_text(words), names) == dutch
        assert fill_names(entry_text(logs[-1]), names) == dutch
        assert dutch in board_page(final, 1, list(names.values()))


@pytest.mark.django_db
def test_an_illegal_dizzy_duo_battle_move_is_refused_in_the_players_language(alice, bob):
    match = start_match(alice, [bob], game=GAME)
    mover = user_to_act(match).user
    with translation.override("nl"), pytest.raises(actions.ActionError) as error:
        actions.do_move(match.pk, mover, match.version, {"type": "discard", "card": "head-red-dots"})
    assert str(error.value) == "Pak eerst een kaart, van de open of de blinde stapel."
    with pytest.raises(actions.ActionError) as error:
        actions.do_move(match.pk, mover, match.version, {"type": "discard", "card": "head-red-dots"})
    assert str(error.value) == "Take a card first, from the open or the blind pile."


@pytest.mark.django_db
def test_a_stored_move_reads_in_dutch_and_in_english(alice, bob, client_for):
    match = start_match(alice, [bob], game=GAME)
    mover = user_to_act(match).user
    top = match.state["open"][-1]
    actions.do_move(match.pk, mover, match.version, {"type": "take", "from": "open"})
    entry = Move.objects.get(match=match, number=1).log[0]
    name = match.seats.get(user=mover).public_name
    with translation.override("nl"):
        dutch = fill_names(entry_text(entry), match.seat_names())
    english = fill_names(entry_text(entry), match.seat_names())
    assert dutch == f"{name} pakte {tr_nl(the_card(top))} van de open stapel."
    assert english == f"{name} took the {dizzy_cards.describe(top)} from the open pile."
    mover.language = "nl"
    mover.save()
    page = client_for(mover).get(f"/matches/{match.pk}/").content.decode()
    assert f"{name} pakte {tr_nl(the_card(top))} van de open stapel." in page


def tr_nl(words) -> str:
    with translation.override("nl"):
        return tr(words)
