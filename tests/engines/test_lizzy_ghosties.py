"""Lizzy Ghosties engine tests: rulings LG-1 to LG-11 (and ALL-2, ALL-3), playouts, bots.

Rule tests build their positions directly with `build()`; the state's shape is described in
games/engines/lizzy_ghosties/engine.py.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.engines.base import IllegalMove, new_rng  # noqa: E402
from games.engines.dizzy_cards import DECK, PARTS, throw_dice  # noqa: E402
from games.engines.lizzy_ghosties import ENGINE, SPEC  # noqa: E402
from games.engines.lizzy_ghosties.rules import (  # noqa: E402
    MAX_CYCLES,
    SHOWDOWN_TEAM_TURNS,
    cards_per_part,
    event_won_by_dice,
)
from tests.rule_vectors import cases_for  # noqa: E402

SKIP = {"type": "skip"}

Stacks = dict[str, list[str]]
Json = dict[str, Any]


# --- building positions -------------------------------------------------------------------------


def h(name: str) -> str:
    return f"head-{name}"


def b(name: str) -> str:
    return f"body-{name}"


def t(name: str) -> str:
    return f"tail-{name}"


def liz(heads: list[str], bodies: list[str], tails: list[str]) -> Stacks:
    """A Lizzy's three stacks, bottom card first."""
    return {"head": list(heads), "body": list(bodies), "tail": list(tails)}


def one(head: str, body: str, tail: str) -> Stacks:
    """A Lizzy of one card per stack, written as colour-pattern: one("red-dots", ...)."""
    return liz([h(head)], [b(body)], [t(tail)])


def lizzy_turn(seat: int, opponent: int) -> dict[str, Any]:
    return {"seat": seat, "kind": "lizzy", "opponent": opponent, "event": None}


def ghost_turn(seat: int) -> dict[str, Any]:
    return {"seat": seat, "kind": "ghost", "opponent": None, "event": None}


def build(
    players: int,
    lizzies: list[Stacks | None],
    step: dict[str, Any],
    burn: Stacks | None = None,
    side: list[str] | None = None,
    piles: dict[int, list[str]] | None = None,
    filler: str | int = "burn",
    dicey: bool = False,
    showdown: dict[str, Any] | None = None,
    settled: bool = True,
) -> dict[str, Any]:
    """A legal state with the named cards where they are said to be. The side stack starts with
    `side` and is filled up to its size; every other card goes face down under the Burn Lizzy's
    stacks (filler "burn": its tops stay) or into ghost `filler`'s pile."""
    burn = burn or one("purple-stripes", "purple-dots", "red-diamonds")
    piles = piles or {}
    side = list(side or [])
    named = [card for stacks in lizzies if stacks for part in PARTS for card in stacks[part]]
    named += [card for part in PARTS for card in burn[part]] + side
    named += [card for pile in piles.values() for card in pile]
    left = Counter(DECK)
    left.subtract(named)
    assert all(count >= 0 for count in left.values()), f"cards used too often: {-left}"
    rest = sorted(left.elements())
    need = len(DECK) - 3 * (players * cards_per_part(players) + 1) - len(side)
    side, rest = side + rest[:need], rest[need:]
    all_piles = [list(piles.get(seat, [])) for seat in range(players)]
    burn = {part: list(cards) for part, cards in burn.items()}
    if filler == "burn":
        for card in rest:
            burn[card.split("-")[0]].insert(0, card)
    else:
        assert lizzies[filler] is None, "the filler must be a ghost"
        all_piles[filler].extend(rest)
    living = [seat for seat, stacks in enumerate(lizzies) if stacks is not None]
    state = {
        "players": players,
        "dicey": dicey,
        "rng": new_rng(12345),
        "lizzies": [None if s is None else {p: list(c) for p, c in s.items()} for s in lizzies],
        "piles": all_piles,
        "burn": burn,
        "side": side,
        "loaned": None,
        "first": 0,
        "phase": "showdown" if showdown else ("opening" if len(living) == players else "transition"),
        "turns_taken": 0,
        "cycle_moved": False,
        "quiet_cycles": 0,
        "step": step,
        "showdown": showdown,
        "last_draw": None,
        "result": None,
    }
    if settled:  # a settled state: the seat to act has a real choice
        ENGINE.check_invariants(state)
    return state


def showdown_of(lizzies: list[int], ghosts: list[int], team: str = "lizzies", **extra: Any) -> dict[str, Any]:
    found = {
        "lizzies": lizzies,
        "ghosts": ghosts,
        "team": team,
        "team_turns": 0,
        "next": {"lizzies": 1 if team == "lizzies" else 0, "ghosts": 1 if team == "ghosts" else 0},
        "extra_turn": False,
    }
    found.update(extra)
    return found


def play(state: dict[str, Any], seat: int, move: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """apply(), checking that the input is untouched and the result keeps the invariants."""
    before = json.dumps(state, sort_keys=True)
    new, logs = ENGINE.apply(state, seat, move)
    assert json.dumps(state, sort_keys=True) == before, "apply() changed its input"
    ENGINE.check_invariants(new)
    return new, [entry["text"] for entry in logs]


def event(state: dict[str, Any]) -> dict[str, Any] | None:
    return state["step"]["event"]


def tops_of(stacks: Stacks) -> list[str | None]:
    return [stacks[part][-1] if stacks[part] else None for part in PARTS]


# --- facts, options, deal (LG-1) -----------------------------------------------------------------


def test_engine_facts() -> None:
    assert (ENGINE.slug, ENGINE.name, ENGINE.min_players, ENGINE.max_players) == (
        "lizzy-ghosties",
        "Lizzy Ghosties",
        3,
        8,
    )
    assert ENGINE.parse_options({}, 4) == {"dicey": False}
    assert ENGINE.parse_options({"dicey": "yes"}, 4) == {"dicey": True}
    assert set(SPEC.bots) == {"random", "normal", "hard"}
    assert ENGINE.timeout_policy == "bot"  # ruling ALL-4
    with pytest.raises(NotImplementedError):
        ENGINE.apply_timeout(ENGINE.new_state(4, {}, 1), 0)


def test_no_django_import_in_the_engine() -> None:
    folder = ROOT / "games" / "engines" / "lizzy_ghosties"
    for path in folder.glob("*.py"):
        assert not re.search(r"^\s*(from|import)\s+django", path.read_text(), re.M), path


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_deal_lg1(players: int) -> None:
    """Ruling LG-1: three of each part per player, two above five players; one of each part
    for the Burn Lizzy; the rest of the deck is the side stack."""
    state = ENGINE.new_state(players, {}, seed=7)
    per = 2 if players > 5 else 3
    for stacks in state["lizzies"]:
        assert {part: len(stacks[part]) for part in PARTS} == {part: per for part in PARTS}
        assert all(card.startswith(part) for part in PARTS for card in stacks[part])
    assert {part: len(state["burn"][part]) for part in PARTS} == {"head": 1, "body": 1, "tail": 1}
    assert len(state["side"]) == 54 - 3 * (players * per + 1)
    assert state["phase"] == "opening"
    ENGINE.check_invariants(state)


def test_first_player_drawn_from_the_states_generator() -> None:
    """Ruling LG-1 / ALL-2: the first player is random, and the same seed gives the same deal."""
    firsts = {ENGINE.new_state(5, {}, seed)["first"] for seed in range(60)}
    assert firsts == set(range(5))
    assert ENGINE.new_state(5, {}, 99) == ENGINE.new_state(5, {}, 99)
    assert ENGINE.new_state(5, {}, 99)["lizzies"] != ENGINE.new_state(5, {}, 100)["lizzies"]
    state = ENGINE.new_state(5, {}, 99)
    assert ENGINE.to_act(state) == [state["first"]]


# --- visibility (LG-2, ALL-2, ALL-3) --------------------------------------------------------------


def test_view_shows_only_tops_and_sizes_lg2() -> None:
    state = build(
        4,
        [
            liz([h("blue-dots"), h("red-dots")], [b("red-stripes")], [t("blue-diamonds")]),
            one("red-stripes", "red-stripes", "red-diamonds"),
            one("blue-dots", "blue-stripes", "blue-diamonds"),
            None,
        ],
        lizzy_turn(0, 1),
        piles={3: [h("purple-dots"), b("purple-dots")]},
        filler=3,
    )
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        own = view["seats"][0]["stacks"]
        assert own["head"] == {"top": h("red-dots"), "size": 2}  # the owner too sees only the top
        assert view["seats"][3]["ghost"] and view["seats"][3]["stacks"] is None
        assert view["seats"][3]["pile_size"] == len(state["piles"][3])
        assert view["side_stack_size"] == len(state["side"])
        assert view["revealed"] is None
        text = json.dumps(view)
        assert h("blue-dots") not in json.dumps(view["seats"][0])  # the card below the top
        assert h("purple-dots") not in text and "rng" not in text and "12345" not in text
    assert ENGINE.view(state, 0)["legal_moves"] == ENGINE.legal_moves(state, 0)
    assert ENGINE.view(state, 1)["legal_moves"] == []
    assert ENGINE.view(state, None)["legal_moves"] == []


def test_everything_is_public_after_the_end_all3() -> None:
    state = finished_game(4, seed=3)
    view = ENGINE.view(state, None)
    assert view["phase"] == "over" and view["to_act"] == []
    assert view["revealed"]["side_stack"] == state["side"]
    assert view["revealed"]["piles"] == state["piles"]
    assert view["result"]["winners"] == ENGINE.result(state).winners
    assert "rng" not in json.dumps(view)


# --- moves (LG-3) and the Lizzy turn (LG-4) -------------------------------------------------------


def opening_position(side: list[str] | None = None, **kwargs: Any) -> dict[str, Any]:
    """Seat 0 passes seat 1. Seat 0: red dots, red stripes, blue diamonds (patterns different).
    Stealing seat 1's red diamonds tail makes it all red with different patterns: a double."""
    return build(
        4,
        [
            one("red-dots", "red-stripes", "blue-diamonds"),
            liz([h("blue-stripes"), h("purple-diamonds")], [b("purple-dots")], [t("red-diamonds")]),
            liz([h("blue-dots")], [b("blue-dots")], [t("purple-stripes")]),
            liz([h("red-stripes")], [b("blue-stripes")], [t("red-dots")]),
        ],
        lizzy_turn(0, 1),
        side=side,
        **kwargs,
    )


def test_steal_only_when_own_lizzy_is_valid_afterwards_lg3() -> None:
    state = opening_position()
    legal = ENGINE.legal_moves(state, 0)
    # Seat 1's purple diamonds head would give purple, red, blue (different colours): valid.
    assert {"type": "steal", "from": 1, "part": "head"} in legal
    # Seat 1's purple dots body: red, purple, blue colours different: valid.
    assert {"type": "steal", "from": 1, "part": "body"} in legal
    # Giving the red dots head to seat 1: red, purple, red / dots, dots, diamonds: invalid.
    assert {"type": "give", "to": 1, "part": "head"} not in legal
    with pytest.raises(IllegalMove, match="would not be valid"):
        play(state, 0, {"type": "give", "to": 1, "part": "head"})
    assert SKIP in legal


def test_invalid_own_lizzy_may_steal_a_card_that_makes_it_valid_lg3() -> None:
    # Seat 0 is invalid (red dots, red stripes, blue stripes); the purple diamonds tail fixes it.
    state = build(
        4,
        [
            one("red-dots", "red-stripes", "blue-stripes"),
            one("blue-dots", "blue-stripes", "purple-diamonds"),
            one("blue-dots", "purple-stripes", "red-stripes"),
            one("purple-dots", "purple-stripes", "blue-dots"),
        ],
        lizzy_turn(0, 1),
    )
    legal = ENGINE.legal_moves(state, 0)
    assert {"type": "steal", "from": 1, "part": "tail"} in legal
    # The giver need not stay valid: giving the red dots head leaves seat 0 without a valid Lizzy
    # but seat 1 (red dots, blue stripes, purple diamonds) valid.
    assert {"type": "give", "to": 1, "part": "head"} in legal


def test_incomplete_lizzy_takes_only_a_completing_card_lg3() -> None:
    # Seat 0 has no tail: only a tail that makes a valid Lizzy may go on it.
    state = build(
        4,
        [
            liz([h("red-dots")], [b("red-stripes"), b("blue-dots")], []),
            liz(
                [h("blue-stripes"), h("blue-diamonds")],
                [b("red-diamonds")],
                [t("purple-dots"), t("blue-dots")],
            ),
            one("blue-dots", "purple-stripes", "red-stripes"),
            one("purple-dots", "purple-stripes", "blue-dots"),
        ],
        lizzy_turn(0, 1),
    )
    legal = ENGINE.legal_moves(state, 0)
    assert {"type": "steal", "from": 1, "part": "head"} not in legal  # still no tail: incomplete
    assert {"type": "steal", "from": 1, "part": "tail"} in legal  # red dots, blue dots, blue dots
    new, _ = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
    assert new["lizzies"][0]["tail"] == [t("blue-dots")]


def test_pass_around_goes_clockwise_and_skips_ghosts_lg4() -> None:
    state = build(
        5,
        [
            one("red-dots", "red-stripes", "blue-diamonds"),
            one("blue-stripes", "purple-dots", "red-diamonds"),
            None,
            one("blue-dots", "blue-dots", "purple-stripes"),
            one("red-stripes", "blue-stripes", "red-dots"),
        ],
        lizzy_turn(0, 1),
        piles={2: [h("purple-dots")]},
    )
    seen = []
    while ENGINE.to_act(state) == [0]:
        seen.append(state["step"]["opponent"])
        state, _ = play(state, 0, SKIP)
    assert seen == [1, 3, 4]  # the ghost in seat 2 is not passed
    assert state["step"]["seat"] == 1


def test_give_never_starts_an_event_lg4() -> None:
    # Seat 0 gives its red diamonds tail to seat 1 (red dots, red stripes): a double for seat 1.
    state = build(
        4,
        [
            liz([h("blue-dots")], [b("purple-dots"), b("blue-stripes")], [t("red-diamonds")]),
            liz([h("red-dots")], [b("red-stripes")], [t("blue-stripes")]),
            one("blue-dots", "purple-stripes", "red-stripes"),
            one("purple-dots", "purple-stripes", "blue-dots"),
        ],
        lizzy_turn(0, 1),
    )
    new, logs = play(state, 0, {"type": "give", "to": 1, "part": "tail"})
    assert new["lizzies"][1]["tail"][-1] == t("red-diamonds")
    assert event(new) is None and new["last_draw"] is None
    assert new["step"] == lizzy_turn(0, 2)
    assert logs == ["{p0} gave {p1} a red diamonds tail."]


# --- events (LG-5) ---------------------------------------------------------------------------------


def test_steal_event_won_attempts_from_the_player_after_the_victim_lg5() -> None:
    state = opening_position(side=[b("red-dots")])
    side_size = len(state["side"])
    new, logs = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
    assert new["lizzies"][0]["tail"] == [t("blue-diamonds"), t("red-diamonds")]
    # The drawn card is shown to all and goes to the bottom of the side stack.
    assert new["side"][-1] == b("red-dots") and len(new["side"]) == side_size
    assert new["last_draw"]["card"] == b("red-dots") and new["last_draw"]["won"] is True
    assert ENGINE.view(new, 2)["last_draw"]["card"] == b("red-dots")
    assert event(new) == {"kind": "steal", "on": "own", "won": True, "start": 2, "targets": [2, 3, 1]}
    assert "same colours: steal event; drew a red dots body: won" in logs[1]
    # Only seat 2's cards that keep seat 0 valid are offered, plus skip.
    assert ENGINE.legal_moves(new, 0) == [{"type": "steal", "from": 2, "part": "head"}, SKIP]
    new, _ = play(new, 0, {"type": "steal", "from": 2, "part": "head"})
    assert new["lizzies"][0]["head"][-1] == h("blue-dots")
    assert event(new)["targets"] == [3, 1]
    new, _ = play(new, 0, SKIP)  # seat 3's red stripes head was on offer
    assert event(new)["targets"] == [1]
    new, _ = play(new, 0, SKIP)  # seat 1's purple dots body was on offer
    # After the event the pass-around goes on with the opponent after seat 1.
    assert event(new) is None and new["step"]["seat"] == 0 and new["step"]["opponent"] == 2


def test_steal_event_lost_gives_one_card_of_choice_lg5() -> None:
    state = opening_position(side=[b("blue-dots")])
    new, logs = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
    assert new["last_draw"]["won"] is False
    assert event(new)["won"] is False and event(new)["targets"] == []
    legal = ENGINE.legal_moves(new, 0)
    victims = {move["from"] for move in legal if move["type"] == "steal"}
    assert victims == {2, 3}  # a card of choice from any other living Lizzy
    new, _ = play(new, 0, {"type": "steal", "from": 3, "part": "head"})
    assert new["lizzies"][0]["head"][-1] == h("red-stripes")
    assert event(new) is None and new["step"]["opponent"] == 2


def test_event_starts_even_when_the_lizzy_was_already_a_double_lg4() -> None:
    # Seat 0 is already a double (all red, patterns different); stealing another red diamonds
    # tail keeps it a double: a new event starts.
    state = build(
        4,
        [
            one("red-dots", "red-stripes", "red-diamonds"),
            one("blue-stripes", "purple-dots", "red-diamonds"),
            one("blue-dots", "blue-dots", "purple-stripes"),
            one("red-stripes", "blue-stripes", "red-dots"),
        ],
        lizzy_turn(0, 1),
        burn=one("purple-stripes", "purple-dots", "blue-dots"),
        side=[h("blue-dots")],
    )
    new, _ = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
    assert event(new) is not None and event(new)["kind"] == "steal"


def test_burn_event_won_burns_onto_the_burn_lizzy_lg5() -> None:
    # Seat 0 steals purple diamonds: red dots, blue stripes, purple diamonds (not golden).
    # Different colours: a burn event, won when the drawn colour equals that of the same part.
    state = build(
        4,
        [
            one("red-dots", "blue-stripes", "blue-dots"),
            liz([h("blue-dots")], [b("purple-dots")], [t("purple-diamonds")]),
            one("blue-dots", "red-stripes", "red-stripes"),
            one("red-stripes", "purple-stripes", "red-dots"),
        ],
        lizzy_turn(0, 1),
        side=[b("blue-diamonds")],  # a body: compare with seat 0's blue stripes body -> won
    )
    new, logs = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
    assert event(new)["kind"] == "burn" and event(new)["won"] is True
    assert "different colours: burn event; drew a blue diamonds body: won" in logs[1]
    # Burn Lizzy: purple stripes, purple dots, red diamonds. Seat 2's blue dots head would make
    # blue, purple, red (different colours): valid. Its red stripes body (purple, red, red;
    # stripes, stripes, diamonds) and red stripes tail (purple, purple, red; stripes, dots,
    # stripes) would not.
    assert ENGINE.legal_moves(new, 0) == [{"type": "burn", "from": 2, "part": "head"}, SKIP]
    with pytest.raises(IllegalMove, match="Burn Lizzy would not be valid"):
        play(new, 0, {"type": "burn", "from": 2, "part": "body"})
    new, logs = play(new, 0, {"type": "burn", "from": 2, "part": "head"})
    assert new["burn"]["head"][-1] == h("blue-dots") and logs[0] == "{p0} burned {p2}'s blue dots head."


def test_burn_event_lost_by_the_colour_of_the_same_part_lg5() -> None:
    state = build(
        4,
        [
            one("red-dots", "blue-stripes", "blue-dots"),
            liz([h("blue-dots")], [b("purple-dots")], [t("purple-diamonds")]),
            one("blue-dots", "red-stripes", "purple-stripes"),
            one("red-stripes", "purple-stripes", "red-dots"),
        ],
        lizzy_turn(0, 1),
        side=[h("blue-diamonds")],  # a head: seat 0's head is red -> lost
    )
    new, _ = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
    assert event(new)["kind"] == "burn" and event(new)["won"] is False
    assert {move["type"] for move in ENGINE.legal_moves(new, 0)} == {"burn", "skip"}


def test_golden_lizzy_wins_without_a_draw_lg5() -> None:
    state = build(
        4,
        [
            one("red-dots-gold", "blue-stripes-gold", "blue-dots"),
            liz([h("blue-dots")], [b("purple-dots")], [t("purple-diamonds-gold")]),
            one("blue-dots", "red-stripes", "purple-stripes"),
            one("red-stripes", "blue-stripes", "red-dots"),
        ],
        lizzy_turn(0, 1),
    )
    side = list(state["side"])
    new, logs = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
    assert new["side"] == side  # no draw
    assert new["last_draw"]["golden"] is True and new["last_draw"]["card"] is None
    assert event(new)["won"] is True and event(new)["kind"] == "burn"
    assert "golden Lizzy, won without a draw" in logs[1]


def test_chain_restarts_at_the_first_events_start_lg5() -> None:
    # Won steal event (start seat 2). Seat 3's red diamonds tail keeps seat 0 all red: a new
    # double, a new event whose attempts start again at seat 2.
    state = build(
        4,
        [
            one("red-dots", "red-stripes", "blue-diamonds"),
            liz([h("blue-stripes")], [b("purple-dots")], [t("purple-stripes"), t("red-diamonds")]),
            liz([h("blue-dots")], [b("blue-dots")], [t("purple-stripes")]),
            liz([h("red-stripes")], [b("blue-stripes")], [t("blue-diamonds"), t("red-diamonds")]),
        ],
        lizzy_turn(0, 1),
        burn=one("purple-stripes", "purple-dots", "blue-dots"),
        side=[h("red-stripes"), b("red-diamonds")],
    )
    new, _ = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
    assert event(new)["targets"] == [2, 3, 1]
    new, _ = play(new, 0, SKIP)  # seat 2
    new, logs = play(new, 0, {"type": "steal", "from": 3, "part": "tail"})
    assert "steal event" in logs[1] and new["last_draw"]["card"] == b("red-diamonds")
    assert event(new) == {"kind": "steal", "on": "own", "won": True, "start": 2, "targets": [2, 3, 1]}


def test_double_on_the_burn_lizzy_starts_its_own_event_lg5() -> None:
    # A won burn event; burning seat 2's purple diamonds tail makes the Burn Lizzy all purple
    # (purple stripes, purple dots, purple diamonds): a steal event drawn against the Burn
    # Lizzy, whose steals still go on seat 0's Lizzy.
    state = build(
        4,
        [
            one("red-dots", "blue-stripes", "blue-dots"),
            liz([h("blue-dots")], [b("purple-dots")], [t("purple-diamonds")]),
            liz([h("red-stripes")], [b("red-stripes")], [t("purple-diamonds-gold")]),
            liz([h("red-stripes")], [b("purple-stripes")], [t("purple-dots")]),
        ],
        lizzy_turn(0, 1),
        side=[b("blue-diamonds"), h("purple-dots")],
    )
    new, _ = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
    assert event(new)["kind"] == "burn" and event(new)["targets"][0] == 2
    new, logs = play(new, 0, {"type": "burn", "from": 2, "part": "tail"})
    assert new["burn"]["tail"][-1] == t("purple-diamonds-gold")
    expected = "The Burn Lizzy is a double with same colours: steal event; drew a purple dots head"
    assert logs[1].startswith(expected)
    assert event(new) == {"kind": "steal", "on": "burn", "won": True, "start": 2, "targets": [2, 3, 1]}
    assert all(move["type"] in ("steal", "skip") for move in ENGINE.legal_moves(new, 0))


# --- becoming a ghost (LG-6) -----------------------------------------------------------------------


def test_a_lizzy_with_one_body_part_left_turns_ghost_lg6() -> None:
    # Seat 1 holds only a body and one tail: stealing the tail leaves one body part.
    state = build(
        5,
        [
            one("red-dots", "red-stripes", "blue-diamonds"),
            liz([], [b("purple-dots"), b("blue-dots")], [t("red-diamonds")]),
            one("blue-dots", "blue-dots", "purple-stripes"),
            one("red-stripes", "blue-stripes", "red-dots"),
            one("purple-stripes", "purple-stripes", "blue-stripes"),
        ],
        lizzy_turn(0, 1),
        side=[b("blue-diamonds")],
    )
    new, logs = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
    assert new["lizzies"][1] is None
    assert sorted(new["piles"][1]) == sorted([b("purple-dots"), b("blue-dots")])
    assert "{p1} has one body part left and turns into a ghost (2 cards face down)." in logs
    assert new["phase"] == "transition"
    view = ENGINE.view(new, 1)
    assert view["seats"][1]["ghost"] and view["seats"][1]["pile_size"] == 2
    assert b("purple-dots") not in json.dumps(view["seats"][1])


def test_giving_into_ghosthood_ends_the_turn_at_once_lg6() -> None:
    state = build(
        5,
        [
            liz([h("blue-dots")], [b("red-stripes")], []),
            one("red-dots", "red-dots", "blue-diamonds"),
            one("blue-dots", "blue-dots", "purple-stripes"),
            one("red-stripes", "blue-stripes", "red-dots"),
            one("purple-stripes", "purple-stripes", "blue-stripes"),
        ],
        lizzy_turn(0, 1),
    )
    # red dots, red stripes... seat 1 receiving the red stripes body: red, red, blue / dots,
    # stripes, diamonds (different patterns): valid.
    new, logs = play(state, 0, {"type": "give", "to": 1, "part": "body"})
    assert new["lizzies"][0] is None and new["piles"][0] == [h("blue-dots")]
    assert new["step"]["seat"] == 1  # seat 0's turn ended at once
    assert logs[-1] == "{p1}'s turn."


# --- ghost turns (LG-7) ---------------------------------------------------------------------------


def ghost_position(side: list[str] | None = None, **kwargs: Any) -> dict[str, Any]:
    """Five players; seat 0 is a ghost. Seats 1, 2, 3 offer red dots head, red stripes body, red
    diamonds tail: a same-colours double."""
    return build(
        5,
        [
            None,
            liz([h("blue-dots"), h("red-dots")], [b("blue-dots"), b("purple-dots")], [t("blue-stripes")]),
            liz([h("purple-stripes")], [b("red-stripes")], [t("purple-dots"), t("blue-diamonds")]),
            liz([h("blue-stripes"), h("purple-diamonds")], [b("blue-diamonds")], [t("red-diamonds")]),
            liz([h("blue-diamonds")], [b("red-stripes")], [t("red-stripes")]),
        ],
        ghost_turn(0),
        side=side,
        filler=0,
        **kwargs,
    )


def test_ghost_single_steal_ends_the_turn_lg7() -> None:
    state = ghost_position()
    pile = len(state["piles"][0])
    new, logs = play(state, 0, {"type": "ghost_steal", "from": 4, "part": "body"})
    assert len(new["piles"][0]) == pile + 1 and new["piles"][0][-1] == b("red-stripes")
    assert logs[0] == "Ghost {p0} stole {p4}'s red stripes body."
    assert new["step"]["seat"] == 1


def test_ghost_double_and_ghost_event_lg7() -> None:
    state = ghost_position(side=[h("red-stripes")])  # a head: compare with the loaned red dots head
    move = {"type": "ghost_double", "head": 1, "body": 2, "tail": 3}
    assert move in ENGINE.legal_moves(state, 0)
    new, logs = play(state, 0, move)
    assert new["loaned"] == {"head": [h("red-dots")], "body": [b("red-stripes")], "tail": [t("red-diamonds")]}
    assert "ghost event; drew a red stripes head: won" in logs[1]
    # Attempts: every living Lizzy clockwise from the ghost's left.
    assert event(new) == {"kind": "ghost", "on": "loaned", "won": True, "start": 1, "targets": [1, 2, 3, 4]}
    view = ENGINE.view(new, None)
    assert view["loaned"]["stacks"]["head"] == {"top": h("red-dots"), "size": 1}
    # Seat 1's blue dots head would leave the loaned Lizzy blue, red, red / dots, stripes, diamonds:
    # patterns different, valid.
    assert {"type": "steal", "from": 1, "part": "head"} in ENGINE.legal_moves(new, 0)
    pile = len(new["piles"][0])
    while ENGINE.to_act(new) == [0]:
        new, _ = play(new, 0, SKIP)
    assert new["loaned"] is None and len(new["piles"][0]) == pile + 3  # all taken cards end in the pile
    assert new["step"]["seat"] == 1


def test_ghost_event_lost_gives_one_card_of_choice_lg7() -> None:
    state = ghost_position(side=[t("blue-dots")])  # a tail: the loaned red diamonds tail -> lost
    new, _ = play(state, 0, {"type": "ghost_double", "head": 1, "body": 2, "tail": 3})
    assert event(new)["won"] is False
    # Onto red dots, red stripes, red diamonds: seat 1's blue dots head, seat 2's blue diamonds
    # tail, seat 4's red stripes body or tail; nothing of seat 3's keeps it valid.
    victims = {move["from"] for move in ENGINE.legal_moves(new, 0) if move["type"] == "steal"}
    assert victims == {1, 2, 4}


def test_ghost_event_chains_lg7() -> None:
    # Won ghost event; stealing seat 4's red stripes tail keeps the loaned Lizzy all red: a chain.
    state = ghost_position(side=[h("red-stripes"), t("blue-dots")])
    new, _ = play(state, 0, {"type": "ghost_double", "head": 1, "body": 2, "tail": 3})
    while event(new)["targets"][0] != 4:
        new, _ = play(new, 0, SKIP)  # seats 1, 2, 3 (those with no card to offer are passed at once)
    new, logs = play(new, 0, {"type": "steal", "from": 4, "part": "body"})
    assert new["loaned"]["body"] == [b("red-stripes"), b("red-stripes")]
    assert "ghost event; drew a blue dots tail: lost" in logs[1]
    assert event(new)["start"] == 1 and event(new)["won"] is False


def test_ghost_with_fewer_than_three_living_lizzies_only_steals_lg7() -> None:
    state = build(
        3,
        [
            None,
            one("red-dots", "blue-stripes", "red-diamonds"),
            one("red-stripes", "red-dots", "blue-stripes"),
        ],
        ghost_turn(0),
        filler=0,
    )
    assert {move["type"] for move in ENGINE.legal_moves(state, 0)} == {"ghost_steal"}
    with pytest.raises(IllegalMove, match="three living Lizzies"):
        play(state, 0, {"type": "ghost_double", "head": 1, "body": 2, "tail": 1})


# --- showdown (LG-8) ---------------------------------------------------------------------------------


def test_showdown_starts_at_once_and_drops_the_rest_of_the_turn_lg8() -> None:
    # Four players, seat 3 a ghost. Seat 0's steal leaves seat 1 one body part and makes seat 0 a
    # double: the showdown starts at once, so no event and no more passing.
    state = build(
        4,
        [
            one("red-dots", "red-stripes", "blue-diamonds"),
            liz([], [b("purple-dots"), b("blue-dots")], [t("red-diamonds")]),
            liz([h("blue-dots")], [b("blue-dots")], [t("purple-stripes")]),
            None,
        ],
        lizzy_turn(0, 1),
        filler=3,
    )
    new, logs = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
    assert new["phase"] == "showdown" and new["last_draw"] is None
    # Within each team, seat order clockwise from the player whose turn was cut off.
    assert new["showdown"]["lizzies"] == [2, 0] and new["showdown"]["ghosts"] == [1, 3]
    assert new["step"] == {"seat": 2, "kind": "showdown_lizzies", "opponent": None, "event": None}
    assert "Showdown! Team Lizzies ({p2} and {p0}) against team Ghosties." in logs
    view = ENGINE.view(new, 1)
    assert view["teams"] == {"lizzies": [2, 0], "ghosts": [1, 3]} and view["showdown"]["team"] == "lizzies"
    assert [seat["team"] for seat in view["seats"]] == ["lizzies", "ghosts", "lizzies", "ghosts"]
    assert ENGINE.view(state, 1)["teams"] == {"lizzies": [0, 1, 2], "ghosts": [3]}  # before: by status


def showdown_position(**kwargs: Any) -> dict[str, Any]:
    """Seats 0 and 2 are the showdown Lizzies, seats 1 and 3 ghosts; seat 0 plays for team Lizzies."""
    defaults: dict[str, Any] = {
        "burn": liz([h("purple-stripes")], [b("purple-dots")], [t("purple-diamonds"), t("red-diamonds")]),
        "showdown": showdown_of([0, 2], [1, 3]),
    }
    defaults.update(kwargs)
    return build(
        4,
        [
            liz([h("red-dots"), h("red-stripes")], [b("red-stripes")], [t("blue-diamonds")]),
            None,
            liz([h("blue-dots")], [b("blue-stripes"), b("red-dots")], [t("purple-stripes")]),
            None,
        ],
        {"seat": 0, "kind": "showdown_lizzies", "opponent": None, "event": None},
        filler=1,
        **defaults,
    )


def test_showdown_lizzies_move_or_take_from_the_burn_lizzy_lg8() -> None:
    state = showdown_position()
    legal = ENGINE.legal_moves(state, 0)
    assert legal and {move["type"] for move in legal} <= {"move", "take_burn"}
    # Seat 0 (red stripes, red stripes, blue diamonds) taking the red diamonds tail: all red,
    # valid; patterns stripes, stripes, diamonds: not a double.
    take = {"type": "take_burn", "to": 0, "part": "tail"}
    assert take in legal
    new, logs = play(state, 0, take)
    assert new["lizzies"][0]["tail"][-1] == t("red-diamonds")
    assert logs[0] == "{p0} took the Burn Lizzy's red diamonds tail onto {p0}'s Lizzy."
    assert new["showdown"]["team"] == "ghosts" and new["showdown"]["team_turns"] == 1
    assert new["step"]["seat"] == 1 and new["step"]["kind"] == "ghost"


def test_showdown_double_gives_one_extra_turn_never_two_lg8() -> None:
    state = showdown_position(
        burn=liz([h("red-stripes")], [b("purple-dots")], [t("red-dots"), t("purple-diamonds")]),
    )
    # Seat 0 (red stripes, red stripes, blue diamonds) takes the purple dots body: red, purple,
    # blue and stripes, dots, diamonds: a double, so team Lizzies plays again.
    new, logs = play(state, 0, {"type": "take_burn", "to": 0, "part": "body"})
    assert "A double: team Lizzies plays an extra turn." in logs
    assert new["showdown"]["team"] == "lizzies" and new["showdown"]["extra_turn"] is True
    assert new["step"]["seat"] == 2  # the team's next player plays the extra turn
    # The red stripes head makes red stripes, purple dots, blue diamonds: a double again, but
    # never two extra turns in a row.
    new, logs = play(new, 2, {"type": "take_burn", "to": 0, "part": "head"})
    assert "A double: team Lizzies plays an extra turn." not in logs
    assert new["showdown"]["team"] == "ghosts" and new["showdown"]["extra_turn"] is False
    assert new["showdown"]["team_turns"] == 2  # extra turns count


def test_showdown_ghost_double_with_a_burn_card_lg8() -> None:
    state = showdown_position(showdown=showdown_of([0, 2], [1, 3], team="ghosts"))
    state["step"] = {"seat": 1, "kind": "ghost", "opponent": None, "event": None}
    # Seat 0's red stripes head, seat 2's red dots body, the Burn Lizzy's red diamonds tail.
    move = {"type": "ghost_double", "head": 0, "body": 2, "tail": "burn"}
    assert move in ENGINE.legal_moves(state, 1)
    new, logs = play(state, 1, move)
    assert logs[0] == (
        "Ghost {p1} took {p0}'s red stripes head, {p2}'s red dots body, the Burn Lizzy's red diamonds tail"
        " as a loaned Lizzy."
    )
    assert new["showdown"]["team_turns"] == 0 and event(new)["kind"] == "ghost"


def test_showdown_ends_when_the_burn_lizzy_is_empty_lg8() -> None:
    state = showdown_position(burn=liz([], [], [t("red-diamonds")]))
    new, logs = play(state, 0, {"type": "take_burn", "to": 0, "part": "tail"})
    assert new["phase"] == "over"
    result = ENGINE.result(new)
    lizzies = sum(len(new["lizzies"][seat][part]) for seat in (0, 2) for part in PARTS)
    ghosts = len(new["piles"][1]) + len(new["piles"][3])
    assert result.scores == [lizzies, ghosts, lizzies, ghosts]
    assert result.winners == ([0, 2] if lizzies > ghosts else [1, 3])
    assert "The Burn Lizzy is empty" in result.reason


def test_showdown_ends_when_a_showdown_lizzy_turns_ghost_lg8() -> None:
    state = showdown_position(showdown=showdown_of([0, 2], [1, 3], team="ghosts"))
    state["step"] = {"seat": 1, "kind": "ghost", "opponent": None, "event": None}
    state["lizzies"][2] = liz([], [b("blue-stripes"), b("red-dots")], [t("purple-stripes")])
    state["burn"]["head"].append(h("blue-dots"))
    ENGINE.check_invariants(state)
    new, _ = play(state, 1, {"type": "ghost_steal", "from": 2, "part": "tail"})
    assert new["phase"] == "over" and new["lizzies"][2] is None
    result = ENGINE.result(new)
    # Table rule: teams are what players are at the end, so seat 2 now counts with the ghosts.
    assert new["result"]["lizzies"] == [0] and new["result"]["ghosts"] == [1, 2, 3]
    assert result.winners == [1, 2, 3]
    assert "A Lizzy of the showdown turned ghost" in result.reason


def test_showdown_ends_after_200_team_turns_lg8() -> None:
    state = showdown_position(showdown=showdown_of([0, 2], [1, 3], team_turns=SHOWDOWN_TEAM_TURNS - 1))
    new, _ = play(state, 0, ENGINE.legal_moves(state, 0)[0])
    assert new["phase"] == "over" and f"{SHOWDOWN_TEAM_TURNS} team turns" in ENGINE.result(new).reason


def test_showdown_team_without_a_move_passes_lg8() -> None:
    # Both Lizzies lack a tail and the Burn Lizzy holds none: team Lizzies cannot move.
    state = build(
        4,
        [
            liz([h("red-dots")], [b("red-stripes"), b("red-diamonds")], []),
            None,
            liz([h("blue-dots")], [b("blue-stripes")], []),
            None,
        ],
        {"seat": 3, "kind": "ghost", "opponent": None, "event": None},
        burn=liz([h("purple-stripes")], [b("purple-dots")], []),
        filler=1,
        showdown=showdown_of([0, 2], [3, 1], team="ghosts"),
    )
    new, logs = play(state, 3, {"type": "ghost_steal", "from": 0, "part": "body"})
    assert "Team Lizzies cannot move a card and passes." in logs
    assert new["showdown"]["team"] == "ghosts" and new["showdown"]["team_turns"] == 2
    assert new["step"]["seat"] == 1


def test_a_tie_is_a_draw_lg8() -> None:
    # Team Lizzies holds 8 cards, the two ghosts 4 each; a move between the Lizzies on the 200th
    # team turn keeps 8 against 8.
    state = build(
        4,
        [
            liz([h("red-dots"), h("red-stripes")], [b("red-stripes")], [t("blue-diamonds")]),
            None,
            liz([h("blue-dots")], [b("blue-stripes"), b("red-dots")], [t("purple-stripes")]),
            None,
        ],
        {"seat": 0, "kind": "showdown_lizzies", "opponent": None, "event": None},
        piles={
            1: [h("blue-dots"), h("purple-dots"), b("blue-dots"), t("blue-dots")],
            3: [b("purple-dots"), b("purple-stripes"), t("red-stripes"), t("purple-dots")],
        },
        showdown=showdown_of([0, 2], [1, 3], team_turns=SHOWDOWN_TEAM_TURNS - 1),
    )
    new, _ = play(state, 0, {"type": "move", "from": 0, "to": 2, "part": "body"})
    result = ENGINE.result(new)
    assert result.draw and result.winners == [] and result.scores == [8, 8, 8, 8]


def wipe_position(last_one_lives: bool) -> dict[str, Any]:
    """Five players, ghosts in seats 0 and 4. A ghost double from seats 1, 2 and 3 empties a
    second stack of seats 1 and 2 (and of seat 3 unless `last_one_lives`)."""
    third = (
        liz([h("purple-dots")], [b("purple-dots")], [t("purple-stripes"), t("red-diamonds")])
        if last_one_lives
        else liz([h("purple-dots")], [], [t("red-diamonds")])
    )
    return build(
        5,
        [
            None,
            liz([h("red-dots")], [b("blue-dots")], []),
            liz([], [b("red-stripes")], [t("blue-dots")]),
            third,
            None,
        ],
        ghost_turn(0),
        piles={4: [h("blue-stripes")]},
        filler=0,
    )


def test_two_lizzies_ghosted_at_once_skip_the_showdown() -> None:
    """Table rule: with fewer than two Lizzies left at once (4+ players), the game ends as in
    three-player mode (LG-9): the last Lizzy takes the Burn Lizzy."""
    state = wipe_position(last_one_lives=True)
    new, logs = play(state, 0, {"type": "ghost_double", "head": 1, "body": 2, "tail": 3})
    assert new["phase"] == "over" and new["showdown"] is None
    assert "{p3} is the last Lizzy standing and takes the 3 Burn Lizzy cards." in logs
    result = ENGINE.result(new)
    # Seat 3: its three cards left and the three of the Burn Lizzy, against every other card.
    assert new["result"]["cards"][3] == 6 and result.scores == [42, 42, 42, 6, 42]
    assert "One Lizzy is left" in result.reason and result.winners == [0, 1, 2, 4]
    assert new["loaned"] is None
    assert {h("red-dots"), b("red-stripes"), t("red-diamonds")} <= set(new["piles"][0])  # loaned cards


def test_no_lizzy_left_is_a_draw() -> None:
    state = wipe_position(last_one_lives=False)
    new, _ = play(state, 0, {"type": "ghost_double", "head": 1, "body": 2, "tail": 3})
    result = ENGINE.result(new)
    assert new["phase"] == "over" and result.draw and "No Lizzy is left" in result.reason


# --- three-player mode (LG-9) ---------------------------------------------------------------------


def test_three_player_last_lizzy_takes_the_burn_lizzy_and_wins_with_more_cards_lg9() -> None:
    state = build(
        3,
        [
            liz([h("red-stripes")] * 2, [b("red-stripes")] * 2, [t("blue-diamonds"), t("blue-dots")]),
            liz([], [b("purple-dots")], [t("red-diamonds")]),
            None,
        ],
        lizzy_turn(0, 1),
        burn=liz([h("purple-stripes")], [b("purple-dots")], [t("red-dots")]),
        piles={2: [h("blue-dots")] * 2},
        filler="burn",
    )
    # Every leftover card went under the Burn Lizzy: the last Lizzy takes them all.
    burn_cards = sum(len(cards) for cards in state["burn"].values())
    new, logs = play(state, 0, {"type": "steal", "from": 1, "part": "body"})
    assert new["phase"] == "over" and new["lizzies"][1] is None
    assert not any(new["burn"].values())
    mine = sum(len(cards) for cards in new["lizzies"][0].values())
    assert mine == 6 + 1 + burn_cards
    assert f"{{p0}} is the last Lizzy standing and takes the {burn_cards} Burn Lizzy cards." in logs
    assert ENGINE.result(new).winners == [0]


def test_three_player_equal_cards_go_to_the_ghosts_lg9() -> None:
    """30 cards are in play with three players (24 in the side stack). Seat 0 ends with 12 of its
    own and the Burn Lizzy's 3: 15 against the ghosts' 15, which is not more: the ghosts win."""
    state = build(
        3,
        [
            liz(
                [h("blue-dots"), h("blue-diamonds"), h("purple-stripes"), h("red-stripes")],
                [b("blue-dots"), b("blue-diamonds"), b("purple-stripes"), b("red-stripes")],
                [t("blue-dots"), t("blue-diamonds"), t("blue-diamonds")],
            ),
            liz([], [b("purple-dots")], [t("red-diamonds")]),
            None,
        ],
        lizzy_turn(0, 1),
        burn=one("purple-stripes", "purple-dots", "red-dots"),
        filler=2,
    )
    assert len(state["piles"][2]) == 14
    new, _ = play(state, 0, {"type": "steal", "from": 1, "part": "body"})
    assert new["phase"] == "over" and new["last_draw"] is None  # no event: the game is over
    assert new["result"]["scores"] == [15, 15, 15]
    assert ENGINE.result(new).winners == [1, 2] and not ENGINE.result(new).draw


# --- the stuck game (LG-10) ------------------------------------------------------------------------


def test_two_quiet_cycles_end_the_game_as_a_draw_without_ghosts_lg10() -> None:
    # No Lizzy has a tail and no tail is anywhere a Lizzy could take it: nobody can move.
    lizzies = [
        liz([h("red-dots")], [b("red-stripes")], []),
        liz([h("blue-dots")], [b("blue-stripes")], []),
        liz([h("purple-dots")], [b("purple-stripes")], []),
    ]
    burn = liz([h("red-stripes")], [b("red-dots")], [])
    state = build(3, lizzies, lizzy_turn(0, 1), burn=burn, settled=False)
    logs: list[dict[str, Any]] = []
    ENGINE._settle(state, logs)  # what apply() does after every move: forced skips, turn after turn
    ENGINE.check_invariants(state)
    assert state["phase"] == "over" and state["turns_taken"] == 6
    result = ENGINE.result(state)
    assert result.draw and result.winners == []
    assert "2 cycles passed with no card moved" in result.reason


def test_forty_cycles_end_the_game_before_the_showdown_lg10() -> None:
    state = ghost_position()
    state["turns_taken"] = MAX_CYCLES * 5 - 1
    new, _ = play(state, 0, {"type": "ghost_steal", "from": 1, "part": "head"})
    assert new["phase"] == "over"
    result = ENGINE.result(new)
    lizzies = sum(len(new["lizzies"][seat][part]) for seat in (1, 2, 3, 4) for part in PARTS)
    assert result.scores[1] == lizzies and result.scores[0] == len(new["piles"][0])
    assert result.winners == ([1, 2, 3, 4] if lizzies > len(new["piles"][0]) else [0])
    assert f"{MAX_CYCLES} cycles passed before the showdown" in result.reason


# --- the Dicey variant (LG-11) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("same", "dice", "won"),
    [
        (True, [h("red-dots"), b("red-stripes"), t("blue-dots")], False),
        (True, [h("red-dots"), b("red-stripes"), t("red-diamonds")], True),  # all same colours
        (True, [h("blue-dots"), b("purple-dots"), t("red-dots")], True),  # all same patterns
        (False, [h("red-dots"), b("blue-stripes"), t("red-diamonds")], True),  # different patterns
        (False, [h("red-dots"), b("blue-dots"), t("purple-dots")], True),  # different colours
        (False, [h("red-dots"), b("red-stripes"), t("red-diamonds")], True),
        (False, [h("red-dots"), b("red-dots"), t("blue-stripes")], False),
    ],
)
def test_dice_decide_events_lg11(same: bool, dice: list[str], won: bool) -> None:
    assert event_won_by_dice(same, dice) is won


def test_dicey_events_throw_the_dice_instead_of_drawing_lg11() -> None:
    results = set()
    for seed in range(40):
        state = opening_position(dicey=True)
        state["rng"] = new_rng(seed)
        side = list(state["side"])
        new, logs = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})
        draw = new["last_draw"]
        assert new["side"] == side and draw["card"] is None and len(draw["dice"]) == 3
        assert draw["won"] is event_won_by_dice(True, draw["dice"])
        assert event(new)["won"] is draw["won"]
        assert "steal event; threw" in logs[1]
        results.add(draw["won"])
    assert results == {True, False}
    assert len(throw_dice(random.Random(1))) == 3


# --- illegal moves ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "move", "message"),
    [
        (1, SKIP, "not your turn"),
        (0, {"type": "ghost_steal", "from": 1, "part": "head"}, "cannot ghost_steal now"),
        (0, {"type": "steal", "from": 2, "part": "head"}, "the Lizzy you are passing"),
        (0, {"type": "steal", "from": 1, "part": "wing"}, "head, body or tail"),
        (0, {"type": "steal", "from": 9, "part": "head"}, "no such player"),
        (0, {"type": "steal", "from": True, "part": "head"}, "no such player"),
        (0, {"type": "steal", "from": 0, "part": "head"}, "your own Lizzy"),
        (0, {"type": "give", "to": 1, "part": "head"}, "would not be valid"),
        (0, {"type": "fly"}, "cannot fly now"),
        (0, {"type": "skip", "why": "bored"}, "exactly the fields type"),
        (0, {"part": "head"}, "type"),
        (0, "skip", "type"),
    ],
)
def test_illegal_moves_raise_and_leave_the_state_alone(seat: int, move: Any, message: str) -> None:
    state = opening_position()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove, match=re.compile(message, re.I)):
        ENGINE.apply(state, seat, move)
    assert json.dumps(state, sort_keys=True) == before


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ({"type": "steal", "from": 2, "part": "head"}, "cannot steal now"),
        ({"type": "move", "from": 0, "to": 1, "part": "body"}, "from one Lizzy of your team to the other"),
        ({"type": "move", "from": 2, "to": 2, "part": "body"}, "from one Lizzy of your team to the other"),
        ({"type": "move", "from": 0, "to": 2, "part": "head"}, "receiving Lizzy would not be valid"),
        ({"type": "take_burn", "to": 2, "part": "head"}, "receiving Lizzy would not be valid"),
        ({"type": "take_burn", "to": 1, "part": "head"}, "is a ghost"),
    ],
)
def test_illegal_showdown_moves(move: dict[str, Any], message: str) -> None:
    state = showdown_position()
    with pytest.raises(IllegalMove, match=message):
        play(state, 0, move)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ({"type": "ghost_double", "head": 1, "body": 1, "tail": 3}, "three different places"),
        ({"type": "ghost_double", "head": 0, "body": 2, "tail": 3}, "from a living Lizzy"),
        ({"type": "ghost_double", "head": "burn", "body": 2, "tail": 3}, "from a living Lizzy"),
        ({"type": "ghost_double", "head": 1, "body": 3, "tail": 2}, "do not form a double"),
        ({"type": "ghost_steal", "from": 0, "part": "head"}, "is a ghost"),
        (SKIP, "cannot skip now"),
        ({"type": "ghost_steal", "from": 1}, "exactly the fields from, part, type"),
    ],
)
def test_illegal_ghost_moves(move: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        play(ghost_position(), 0, move)


def test_illegal_ghost_event_moves() -> None:
    state, _ = play(
        ghost_position(side=[h("red-stripes")]), 0, {"type": "ghost_double", "head": 1, "body": 2, "tail": 3}
    )
    assert event(state)["targets"][0] == 1
    with pytest.raises(IllegalMove, match="attempt is on another Lizzy"):
        play(state, 0, {"type": "steal", "from": 4, "part": "body"})
    # Seat 1's body is purple dots: red dots, purple dots, red diamonds is not valid.
    with pytest.raises(IllegalMove, match="loaned Lizzy would not be valid"):
        play(state, 0, {"type": "steal", "from": 1, "part": "body"})


def test_no_move_after_the_end() -> None:
    state = finished_game(3, seed=5)
    assert ENGINE.to_act(state) == [] and all(ENGINE.legal_moves(state, seat) == [] for seat in range(3))
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.apply(state, 0, SKIP)


# --- clocks (ALL-1) and the hidden twin (ALL-2, ALL-3) ----------------------------------------------


def test_turn_key_covers_a_whole_pass_around_all1() -> None:
    state = opening_position(side=[b("red-dots")])
    key = ENGINE.turn_key(state)
    new, _ = play(state, 0, {"type": "steal", "from": 1, "part": "tail"})  # a won steal event
    assert ENGINE.turn_key(new) == key and event(new) is not None
    while ENGINE.to_act(new) == [0]:
        assert ENGINE.turn_key(new) == key
        new, _ = play(new, 0, SKIP)
    assert ENGINE.to_act(new) == [1] and ENGINE.turn_key(new) != key


def test_turn_key_changes_with_every_showdown_team_turn_all1() -> None:
    state = showdown_position()
    new, _ = play(state, 0, {"type": "take_burn", "to": 0, "part": "tail"})
    assert ENGINE.turn_key(new) != ENGINE.turn_key(state)


def mid_game_states() -> list[dict[str, Any]]:
    """States from random games at every phase, a ghost event with a loaned Lizzy among them."""
    found = []
    for players, seed in ((4, 1), (6, 2), (8, 3)):
        state = ENGINE.new_state(players, {}, seed)
        rng = random.Random(seed)
        while ENGINE.to_act(state):
            if rng.random() < (0.5 if state["phase"] == "showdown" else 0.1):  # the showdown is short
                found.append(state)
            seat = ENGINE.to_act(state)[0]
            legal = ENGINE.legal_moves(state, seat)
            doubles = [move for move in legal if move["type"] == "ghost_double"]
            move = (doubles or legal)[0] if rng.random() < 0.5 else rng.choice(legal)  # seek ghost events
            state, _ = ENGINE.apply(state, seat, move)
            if state["loaned"] is not None:
                found.append(state)
    return found


def test_hidden_twin_deals_anew_only_what_nobody_sees_lg2() -> None:
    rng = random.Random(5)
    states = mid_game_states()
    assert any(state["loaned"] for state in states) and any(state["phase"] == "showdown" for state in states)
    changed = 0
    for state in states:
        seat = rng.choice([None, *range(state["players"])])
        twin = ENGINE.hidden_twin(state, seat, rng)
        ENGINE.check_invariants(twin)
        assert twin["rng"]["seed"] != state["rng"]["seed"]
        for viewer in [None, *range(state["players"])]:
            assert ENGINE.view(twin, viewer) == ENGINE.view(state, viewer)
        assert ENGINE.turn_key(twin) == ENGINE.turn_key(state)
        changed += twin["side"] != state["side"] or twin["piles"] != state["piles"]
    assert changed > len(states) // 2  # the twin really hides something


def test_hidden_twin_after_the_end_changes_only_the_seed_all3() -> None:
    state = finished_game(5, seed=8)
    twin = ENGINE.hidden_twin(state, 0, random.Random(1))
    assert {**twin, "rng": None} == {**state, "rng": None}


# --- whole games --------------------------------------------------------------------------------------


def finished_game(players: int, seed: int, dicey: bool = False) -> dict[str, Any]:
    state = ENGINE.new_state(players, {"dicey": dicey}, seed)
    rng = random.Random(seed)
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


def public_cards(state: dict[str, Any]) -> set[str]:
    """Cards anyone may see while the game goes on: tops and the last draw (LG-2)."""
    seen: set[str] = set()
    for stacks in [*state["lizzies"], state["burn"], state["loaned"]]:
        if stacks is not None:
            seen.update(card for card in tops_of(stacks) if card)
    if state["last_draw"]:
        seen.update(state["last_draw"]["dice"] or [])  # dice faces read as cards (LZ-3)
        if state["last_draw"]["card"]:
            seen.add(state["last_draw"]["card"])
    return seen


def cards_in(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [card for item in value.values() for card in cards_in(item)]
    if isinstance(value, list):
        return [card for item in value for card in cards_in(item)]
    if isinstance(value, str) and value.split("-")[0] in PARTS and len(value.split("-")) in (3, 4):
        return [value]
    return []


def check_step(state: Json, new: Json, logs: list[Json], seat: int, move: Any) -> None:
    players = state["players"]
    ENGINE.check_invariants(new)
    # JSON round trip: the state is plain data, and a reloaded state plays on identically.
    assert json.loads(json.dumps(new)) == new
    again, again_logs = ENGINE.apply(json.loads(json.dumps(state)), seat, move)
    assert again == new and again_logs == logs
    acting = ENGINE.to_act(new)
    for other in range(players):
        assert bool(ENGINE.legal_moves(new, other)) == (other in acting)
    placeholders = {int(found) for entry in logs for found in re.findall(r"\{p(\d+)\}", entry["text"])}
    assert placeholders <= set(range(players))
    if new["phase"] != "over":
        visible = public_cards(new)
        for viewer in [*range(players), None]:
            view = ENGINE.view(new, viewer)
            assert set(cards_in(view)) <= visible, "a view shows a card below a top"
            assert "rng" not in view and view["revealed"] is None
        dice = new["last_draw"]["dice"] if new["last_draw"] else None
        for entry in logs:
            assert entry["audience"] == "all"
        assert dice is None or len(dice) == 3


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 6, 8]),
    dicey=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32),
    picks=st.randoms(use_true_random=False),
)
def test_random_playouts_keep_every_rule(players: int, dicey: bool, seed: int, picks: random.Random) -> None:
    state = ENGINE.new_state(players, {"dicey": dicey}, seed)
    ENGINE.check_invariants(state)
    limit = ENGINE.max_moves(players, {"dicey": dicey})
    moves = []
    for _ in range(limit):
        acting = ENGINE.to_act(state)
        if not acting:
            break
        seat = acting[0]
        move = picks.choice(ENGINE.legal_moves(state, seat))
        before = json.dumps(state, sort_keys=True)
        new, logs = ENGINE.apply(state, seat, move)
        assert json.dumps(state, sort_keys=True) == before, "apply() changed its input"
        check_step(state, new, logs, seat, move)
        moves.append((seat, move))
        state = new
    assert ENGINE.to_act(state) == [], "the game did not end within max_moves"
    assert ENGINE.result(state) is not None
    # Replay determinism: the seed and the moves rebuild the same state.
    replay = ENGINE.new_state(players, {"dicey": dicey}, seed)
    for seat, move in moves:
        replay, _ = ENGINE.apply(replay, seat, move)
    assert replay == state
    view = ENGINE.view(state, 0)
    assert sorted(cards_in(view["revealed"])) == sorted(DECK)  # ALL-3: every card, once


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_normal_bot_plays_only_legal_moves(players: int) -> None:
    state = ENGINE.new_state(players, {}, 11)
    rng = random.Random(11)
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_moves(state, seat)
        move = SPEC.bots["normal"](ENGINE.view(state, seat), legal, rng)
        assert move in legal
        state, _ = ENGINE.apply(state, seat, move)


@pytest.mark.slow
def test_normal_bot_wins_more_than_random_seats() -> None:
    """The brief's target: with one normal bot and three random ones, the normal bot is on the
    winning team at least 1.5 times as often as the average random seat."""
    normal_wins = random_wins = 0
    games = 120
    for game in range(games):
        normal_seat = game % 4
        state = ENGINE.new_state(4, {}, 1000 + game)
        rngs = [random.Random(game * 10 + seat) for seat in range(4)]
        while ENGINE.to_act(state):
            seat = ENGINE.to_act(state)[0]
            level = "normal" if seat == normal_seat else "random"
            move = SPEC.bots[level](ENGINE.view(state, seat), ENGINE.legal_moves(state, seat), rngs[seat])
            state, _ = ENGINE.apply(state, seat, move)
        winners = ENGINE.result(state).winners
        normal_wins += normal_seat in winners
        random_wins += sum(1 for seat in winners if seat != normal_seat)
    assert normal_wins / games >= 1.5 * random_wins / (3 * games)


def test_normal_bot_takes_a_double_as_a_ghost() -> None:
    state = ghost_position()
    move = SPEC.bots["normal"](ENGINE.view(state, 0), ENGINE.legal_moves(state, 0), random.Random(0))
    assert move["type"] == "ghost_double"


def test_normal_bot_hunts_doubles() -> None:
    state = opening_position()
    move = SPEC.bots["normal"](ENGINE.view(state, 0), ENGINE.legal_moves(state, 0), random.Random(0))
    assert move == {"type": "steal", "from": 1, "part": "tail"}  # the steal that makes a double


def test_max_moves_is_a_finite_bound_for_every_table() -> None:
    for players in range(3, 9):
        bound = ENGINE.max_moves(players, {"dicey": False})
        assert 0 < bound < 10**6
    # The showdown adds its 200 team turns only where there is a showdown (four or more players).
    assert ENGINE.max_moves(4, {}) > ENGINE.max_moves(3, {})


def test_rule_vectors_classify_lizzies() -> None:
    # LZ-2 classifies a Lizzy the same way in both Dizzy games (games/engines/dizzy_cards.py): the
    # "lizzy" cases of either game's files hold for this engine too.
    lizzy_cases = cases_for({ENGINE.slug, "dizzy-duo-battle"}, kinds={"lizzy"})
    for case in lizzy_cases:
        ENGINE.check_vector(case)
    with pytest.raises(AssertionError):
        ENGINE.check_vector({"kind": "lizzy", **{**lizzy_cases[0], "valid": not lizzy_cases[0]["valid"]}})
    with pytest.raises(AssertionError):
        ENGINE.check_vector({"kind": "unknown"})
