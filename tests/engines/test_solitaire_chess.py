"""Solitaire Chess engine tests: one or more per ruling point (SC-1 to SC-7, ALL-2), plus playouts.

Positions for rule tests are built by editing a fresh state directly (see `position`).
"""

from __future__ import annotations

import json
import pathlib
import random

import pytest

from games.engines.base import BadOptions, IllegalMove, random_bot
from games.engines.solitaire_chess import ENGINE, SPEC, rules

SEED = 987654321987654321


# --- helpers ----------------------------------------------------------------------------------


def put_card(state: dict, square: str, card: str) -> None:
    """Put `card` on `square`, swapping with the square that held it (the deck stays whole)."""
    cards = state["cards"]
    holder = next(sq for sq, c in cards.items() if c == card)
    cards[holder], cards[square] = cards[square], card


def position(
    ruleset: str = "death",
    pieces: dict[str, int] | None = None,
    cards: dict[str, str] | None = None,
    stacks: dict[int, dict[str, list[str]]] | None = None,
    turn: int = 0,
    hand: tuple[int, int] = (0, 0),
    advantage: int = 0,
) -> dict:
    """A play-phase state with the given pieces (square -> owner), cards, stacks and turn."""
    state = ENGINE.new_state(2, {"ruleset": ruleset, "advantage": str(advantage)}, SEED)
    state["phase"] = "play"
    state["first"] = advantage
    state["turn"] = turn
    state["turn_number"] = 20
    state["in_hand"] = list(hand)
    state["pieces"] = {
        sq: {"owner": owner, "entered": None if rules.KIND[sq] == rules.GREY else 0}
        for sq, owner in (pieces or {}).items()
    }
    for square, card in (cards or {}).items():
        put_card(state, square, card)
    for seat, seat_stacks in (stacks or {}).items():
        for suit, cards_of_suit in seat_stacks.items():
            state["stacks"][seat][suit] = list(cards_of_suit)
    ENGINE.check_invariants(state)
    return state


def move(origin: str, target: str) -> dict:
    return {"type": "move", "from": origin, "to": target}


def targets_of(state: dict, seat: int, origin: str) -> set[str]:
    return {m["to"] for m in ENGINE.legal_moves(state, seat) if m["type"] == "move" and m["from"] == origin}


def assert_illegal(state: dict, seat: int, bad_move: dict, words: str = "") -> str:
    """The move is refused with a message (containing `words`) and the state is left unchanged."""
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, seat, bad_move)
    assert json.dumps(state, sort_keys=True) == before
    assert words in str(error.value)
    return str(error.value)


def playout(ruleset: str, seed: int, bots=(random_bot, random_bot)) -> tuple[dict, list[tuple[int, dict]]]:
    state = ENGINE.new_state(2, {"ruleset": ruleset}, seed)
    rng = random.Random(seed)
    history = []
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        chosen = bots[seat](ENGINE.view(state, seat), ENGINE.legal_moves(state, seat), rng)
        history.append((seat, chosen))
        state, _ = ENGINE.apply(state, seat, chosen)
    return state, history


# --- facts and options ----------------------------------------------------------------------


def test_engine_facts():
    assert ENGINE.slug == "solitaire-chess"
    assert ENGINE.name == "Solitaire Chess"
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 2)
    assert ENGINE.timeout_policy == "engine"
    assert set(SPEC.bots) == {"random", "normal", "hard"}


def test_options_defaults_and_refusals():
    assert ENGINE.parse_options({}, 2) == {"ruleset": "death", "advantage": "random"}
    assert ENGINE.parse_options({"ruleset": "final", "advantage": 1}, 2) == {
        "ruleset": "final",
        "advantage": "1",
    }
    with pytest.raises(BadOptions):
        ENGINE.parse_options({"ruleset": "blitz"}, 2)
    with pytest.raises(BadOptions):
        ENGINE.parse_options({"advantage": "2"}, 2)
    with pytest.raises(BadOptions):
        ENGINE.parse_options({}, 3)


def test_no_django_import_in_engine_folder():
    folder = pathlib.Path(rules.__file__).parent
    for source in folder.glob("*.py"):
        assert "django" not in source.read_text().lower(), source


# --- SC-1 board -------------------------------------------------------------------------------


def test_sc1_geometry_counts():
    assert len(rules.PLAY_SQUARES) == 52
    assert len(rules.GREY_SQUARES) == 30
    assert sorted(rules.HOLES) == ["b1", "b7", "i1", "i7"]
    for corner in ("a0", "j0", "a8", "j8"):  # the grey ring has no corners
        assert corner not in rules.KIND
    assert {sq[0] for sq in rules.PLAY_SQUARES} == set("bcdefghi")
    assert {int(sq[1:]) for sq in rules.PLAY_SQUARES} == set(range(1, 8))
    for sq in rules.GREY_SQUARES:
        assert sq[0] in "aj" or sq[1] in "08"


def test_sc1_deal_is_one_full_deck_and_depends_on_seed():
    state = ENGINE.new_state(2, {}, 1)
    assert sorted(state["cards"]) == sorted(rules.PLAY_SQUARES)
    assert sorted(state["cards"].values()) == sorted(rules.DECK)
    assert len(set(state["cards"].values())) == 52
    assert ENGINE.new_state(2, {}, 1)["cards"] == state["cards"]
    assert ENGINE.new_state(2, {}, 2)["cards"] != state["cards"]


def test_sc1_nothing_stands_on_a_hole():
    state = position(pieces={"b2": 0, "e5": 1}, hand=(1, 0))
    assert_illegal(state, 0, move("b2", "b1"), "hole")
    assert_illegal(state, 0, {"type": "place", "to": "b1"}, "grey squares")
    assert not any(m.get("to") in rules.HOLES for m in ENGINE.legal_moves(state, 0))


def test_card_names():
    assert rules.card_name("QH") == "the queen of hearts"
    assert rules.card_name("10S") == "the 10 of spades"
    assert rules.card_name("AD") == "the ace of diamonds"
    assert rules.rank_of("AD") < rules.rank_of("2D") < rules.rank_of("10D") < rules.rank_of("JD") < rules.rank_of("KD")


# --- SC-2 advantage and order ---------------------------------------------------------------


def test_sc2_fixed_advantage_player_chooses_order():
    for advantage in (0, 1):
        state = ENGINE.new_state(2, {"advantage": str(advantage)}, SEED)
        assert state["phase"] == "order"
        assert ENGINE.to_act(state) == [advantage]
        assert ENGINE.legal_moves(state, 1 - advantage) == []
        assert_illegal(state, 1 - advantage, {"type": "order", "first": True}, "not your turn")
        first, _ = ENGINE.apply(state, advantage, {"type": "order", "first": True})
        assert first["first"] == advantage and ENGINE.to_act(first) == [advantage]
        second, _ = ENGINE.apply(state, advantage, {"type": "order", "first": False})
        assert second["first"] == 1 - advantage and ENGINE.to_act(second) == [1 - advantage]
        assert second["phase"] == "setup"


def test_sc2_random_advantage_is_drawn_from_the_state_generator():
    drawn = {ENGINE.new_state(2, {}, seed)["advantage"] for seed in range(40)}
    assert drawn == {0, 1}
    for seed in range(10):
        assert ENGINE.new_state(2, {}, seed)["advantage"] == ENGINE.new_state(2, {}, seed)["advantage"]


def test_sc2_order_choice_must_be_yes_or_no():
    state = ENGINE.new_state(2, {"advantage": "0"}, SEED)
    assert_illegal(state, 0, {"type": "order", "first": "yes"}, "first or second")
    assert_illegal(state, 0, {"type": "place", "to": "a3"}, "order of play")


# --- SC-3 setup -------------------------------------------------------------------------------


def test_sc3_setup_alternates_until_each_placed_five():
    state = ENGINE.new_state(2, {"advantage": "1"}, SEED)
    state, _ = ENGINE.apply(state, 1, {"type": "order", "first": False})  # seat 0 goes first
    grey = list(rules.GREY_SQUARES)
    expected = [0, 1] * 5
    for i, seat in enumerate(expected):
        assert state["phase"] == "setup"
        assert ENGINE.to_act(state) == [seat]
        assert ENGINE.legal_moves(state, 1 - seat) == []
        legal = ENGINE.legal_moves(state, seat)
        assert all(m["type"] == "place" for m in legal)
        assert len(legal) == 30 - i
        state, entries = ENGINE.apply(state, seat, {"type": "place", "to": grey[i]})
        assert entries[0]["text"] == f"{{p{seat}}} placed a piece on {grey[i]}."
    assert state["phase"] == "play"
    assert ENGINE.to_act(state) == [0]  # the first player moves first too
    assert state["in_hand"] == [0, 0]
    assert [p["owner"] for p in state["pieces"].values()].count(0) == 5


def test_sc3_setup_refuses_taken_and_non_grey_squares_and_moves():
    state = ENGINE.new_state(2, {"advantage": "0"}, SEED)
    state, _ = ENGINE.apply(state, 0, {"type": "order", "first": True})
    state, _ = ENGINE.apply(state, 0, {"type": "place", "to": "a3"})
    assert_illegal(state, 1, {"type": "place", "to": "a3"}, "already taken")
    assert_illegal(state, 1, {"type": "place", "to": "d4"}, "grey squares")
    state, _ = ENGINE.apply(state, 1, {"type": "place", "to": "a4"})
    assert_illegal(state, 0, move("a3", "b3"), "placed their five pieces")


# --- SC-4 moves -------------------------------------------------------------------------------


def test_sc4_queen_moves_on_an_open_board():
    state = position(pieces={"e4": 0, "c8": 1})
    # every play square on e4's row, column and diagonals (empty stacks take any card)
    expected = set()
    for step in rules.DIRECTIONS:
        column, row = rules.COLUMNS.index("e"), 4
        while True:
            column, row = column + step[0], row + step[1]
            name = f"{rules.COLUMNS[column]}{row}" if 0 <= column < 10 and 0 <= row < 9 else None
            if name is None or name not in rules.KIND:
                break
            if rules.KIND[name] == rules.PLAY:
                expected.add(name)
    assert targets_of(state, 0, "e4") == expected
    assert "e2" in expected and "h7" in expected and "b1" not in expected
    assert_illegal(state, 0, move("e4", "f6"), "straight line")


def test_sc4_pieces_block_the_way():
    state = position(pieces={"e4": 0, "e6": 1, "c4": 0, "g2": 1})
    reach = targets_of(state, 0, "e4")
    assert "e5" in reach and "e6" in reach and "e7" not in reach  # capture e6, not beyond
    assert "d4" in reach and "c4" not in reach and "b4" not in reach  # own piece blocks
    assert "f3" in reach and "g2" in reach and "h1" not in reach
    assert_illegal(state, 0, move("e4", "e7"), "blocked by the piece on e6")
    assert_illegal(state, 0, move("e4", "b4"), "blocked by the piece on c4")
    assert_illegal(state, 0, move("e4", "c4"), "own piece")


def test_sc4_moves_cross_holes():
    state = position(pieces={"b0": 0, "a1": 0, "j7": 1})
    assert "b2" in targets_of(state, 0, "b0")  # over the hole b1
    assert "c1" in targets_of(state, 0, "a1")  # over the hole b1
    new, _ = ENGINE.apply(state, 0, move("b0", "b2"))
    assert "b2" in new["pieces"] and "b0" not in new["pieces"]


def test_sc4_capture_from_the_play_area_removes_the_piece_and_gains_no_card():
    state = position(pieces={"e4": 0, "e6": 1, "a3": 1})
    new, entries = ENGINE.apply(state, 0, move("e4", "e6"))
    assert new["pieces"]["e6"]["owner"] == 0
    assert "e4" not in new["pieces"]
    assert sum(len(s) for s in new["stacks"][0].values()) == 0
    assert new["cards"]["e6"] == state["cards"]["e6"]  # the card stays on the board
    assert entries[0]["text"] == "{p0} moved from e4 to e6 and captured a piece of {p1}."


def test_sc4_no_capture_from_a_grey_square():
    state = position(pieces={"a4": 0, "b4": 1, "e4": 0})
    assert "b4" not in targets_of(state, 0, "a4")
    assert_illegal(state, 0, move("a4", "b4"), "cannot capture on the turn it enters")


def test_sc4_enemy_pieces_on_grey_cannot_be_captured():
    state = position(pieces={"b4": 0, "a4": 1, "e4": 1})
    assert "a4" not in targets_of(state, 0, "b4")
    assert_illegal(state, 0, move("b4", "a4"), "back out")


def test_sc4_never_grey_to_grey_never_back_out():
    state = position(pieces={"a3": 0, "c5": 0, "e4": 1})
    assert_illegal(state, 0, move("a3", "a5"), "cannot move to another grey square")
    assert_illegal(state, 0, move("c5", "a5"), "back out")
    assert all(rules.KIND[m["to"]] == rules.PLAY for m in ENGINE.legal_moves(state, 0))


def test_sc4_rank_rule_and_copy_added_to_the_stack():
    state = position(
        pieces={"e4": 0, "j2": 1},
        cards={"e5": "5H", "e6": "JH", "f5": "9H"},
        stacks={0: {"H": ["2H", "9H"]}},
    )
    reach = targets_of(state, 0, "e4")
    assert "e5" not in reach and "f5" not in reach and "e6" in reach
    message = assert_illegal(state, 0, move("e4", "e5"))
    assert message == "That square's card does not outrank your top heart (9H)."
    new, entries = ENGINE.apply(state, 0, move("e4", "e6"))
    assert new["stacks"][0]["H"] == ["2H", "9H", "JH"]
    assert new["cards"]["e6"] == "JH"  # a copy: the card stays on the board
    assert entries[0]["text"] == "{p0} moved from e4 to e6 and took the jack of hearts."


def test_sc4_empty_stack_takes_any_card():
    state = position(pieces={"e4": 0, "j2": 1}, cards={"e5": "KS", "e3": "AS"}, stacks={0: {"H": ["KH"]}})
    reach = targets_of(state, 0, "e4")
    assert {"e5", "e3"} <= reach
    new, _ = ENGINE.apply(state, 0, move("e4", "e5"))
    assert new["stacks"][0]["S"] == ["KS"]
    # now nothing more fits the spade stack
    new["turn"] = 0
    assert "e3" not in targets_of(new, 0, "e5")


def test_sc4_each_players_stacks_are_their_own():
    state = position(pieces={"e4": 0, "g4": 1}, cards={"e5": "4D"}, stacks={1: {"D": ["QD"]}}, turn=0)
    assert "e5" in targets_of(state, 0, "e4")


# --- SC-5 extra pieces ------------------------------------------------------------------------


def test_sc5_death_match_first_five_captures_give_the_capturer_a_piece():
    state = position("death", pieces={"e4": 0, "e6": 1, "a3": 1})
    state["captures"][0] = 4
    new, entries = ENGINE.apply(state, 0, move("e4", "e6"))
    assert new["in_hand"] == [1, 0]  # the capturer only
    assert any(e["text"] == "{p0} gains a piece to place." for e in entries)
    state["captures"][0] = 5  # a sixth capture gives nothing
    new, _ = ENGINE.apply(state, 0, move("e4", "e6"))
    assert new["in_hand"] == [0, 0]


def test_sc5_death_match_captures_are_counted_per_player():
    state = position("death", pieces={"e4": 0, "e6": 1, "a3": 1})
    state["captures"][1] = 5  # the other player's captures do not use up this player's bonuses
    new, _ = ENGINE.apply(state, 0, move("e4", "e6"))
    assert new["in_hand"] == [1, 0]


def test_sc5_placing_a_spare_piece_is_a_whole_turn():
    state = position("death", pieces={"e4": 0, "g6": 1}, hand=(1, 0))
    legal = ENGINE.legal_moves(state, 0)
    places = [m for m in legal if m["type"] == "place"]
    assert len(places) == 30
    new, _ = ENGINE.apply(state, 0, {"type": "place", "to": "a3"})
    assert new["pieces"]["a3"] == {"owner": 0, "entered": None}
    assert new["in_hand"] == [0, 0]
    assert ENGINE.to_act(new) == [1]
    assert_illegal(new, 1, {"type": "place", "to": "a4"}, "no pieces left to place")


def test_sc5_death_match_has_no_play_area_limit():
    state = position("death", pieces={"c3": 0, "d5": 0, "f3": 0, "g6": 0, "a4": 0, "j2": 1})
    assert "b4" in targets_of(state, 0, "a4")
    assert not any(m["type"] == "swap" for m in ENGINE.legal_moves(state, 0))
    assert_illegal(state, 0, {"type": "swap", "remove": "c3", "from": "a4", "to": "b4"}, "Final Match rule")


def test_sc5_final_match_first_six_captures_give_both_players_a_piece():
    state = position("final", pieces={"e4": 0, "e6": 1, "a3": 1})
    state["captures"] = [3, 2]
    new, entries = ENGINE.apply(state, 0, move("e4", "e6"))
    assert new["in_hand"] == [1, 1]
    assert any(e["text"] == "Both players gain a piece to place." for e in entries)
    state["captures"] = [3, 3]  # the seventh capture of the game gives nothing
    new, _ = ENGINE.apply(state, 0, move("e4", "e6"))
    assert new["in_hand"] == [0, 0]


def test_sc5_final_match_capture_the_turn_after_entry_gives_its_owner_a_piece():
    state = position("final", pieces={"a4": 1, "e4": 0, "h7": 0}, cards={"b4": "2C"}, turn=1)
    state["captures"] = [3, 3]  # past the first six: only the entry bonus is left
    entered, _ = ENGINE.apply(state, 1, move("a4", "b4"))
    assert entered["pieces"]["b4"]["entered"] == state["turn_number"]
    assert ENGINE.view(entered, 0)["pieces"]["b4"]["just_entered"] is True
    captured, entries = ENGINE.apply(entered, 0, move("e4", "b4"))
    assert captured["in_hand"] == [0, 1]
    assert any("captured the turn after it entered" in e["text"] for e in entries)
    # the same capture one turn later gives nothing
    later = json.loads(json.dumps(entered))
    later["turn_number"] += 1
    captured_later, _ = ENGINE.apply(later, 0, move("e4", "b4"))
    assert captured_later["in_hand"] == [0, 0]


def test_sc5_final_match_entry_bonus_stacks_with_first_six_bonus():
    state = position("final", pieces={"a4": 1, "e4": 0, "h7": 0}, cards={"b4": "2C"}, turn=1)
    entered, _ = ENGINE.apply(state, 1, move("a4", "b4"))
    captured, _ = ENGINE.apply(entered, 0, move("e4", "b4"))
    assert captured["in_hand"] == [1, 2]


def test_sc5_final_match_at_most_three_pieces_in_the_play_area():
    state = position("final", pieces={"c3": 0, "d5": 0, "f3": 0, "a4": 0, "j2": 1})
    legal = ENGINE.legal_moves(state, 0)
    assert not any(m["type"] == "move" and m["from"] == "a4" for m in legal)
    assert_illegal(state, 0, move("a4", "b4"), "already have 3 pieces in the play area")
    swaps = [m for m in legal if m["type"] == "swap"]
    assert {"type": "swap", "remove": "c3", "from": "a4", "to": "b4"} in swaps
    assert {m["remove"] for m in swaps} == {"c3", "d5", "f3"}
    assert {m["from"] for m in swaps} == {"a4"}
    # with only two there, the grey piece simply moves in
    del state["pieces"]["f3"]
    assert "b4" in targets_of(state, 0, "a4")
    assert_illegal(state, 0, {"type": "swap", "remove": "c3", "from": "a4", "to": "b4"}, "only for a player with 3")


def test_sc5_final_match_swap_turn_removes_one_and_brings_one_in():
    state = position("final", pieces={"c3": 0, "d5": 0, "f3": 0, "a4": 0, "j2": 1}, cards={"b4": "3D"})
    swap = {"type": "swap", "remove": "d5", "from": "a4", "to": "b4"}
    new, entries = ENGINE.apply(state, 0, swap)
    owned = sorted(sq for sq, p in new["pieces"].items() if p["owner"] == 0)
    assert owned == ["b4", "c3", "f3"]
    assert new["stacks"][0]["D"] == ["3D"]
    assert new["in_hand"] == [0, 0] and new["pieces_lost"] == [0, 0]  # no bonus for the removed piece
    assert ENGINE.to_act(new) == [1]
    assert entries[0]["text"] == "{p0} removed their piece on d5, then moved from a4 to b4 and took the 3 of diamonds."
    ENGINE.check_invariants(new)


def test_sc5_swap_the_removed_piece_leaves_first():
    """Table rule 9: the entering piece may land on, or pass over, the square just vacated."""
    state = position("final", pieces={"b4": 0, "d5": 0, "f3": 0, "a4": 0, "j2": 1}, cards={"c4": "4C"})
    assert "c4" not in rules.piece_destinations(state["cards"], state["pieces"], state["stacks"][0], "a4")
    swaps = [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "swap" and m["remove"] == "b4"]
    assert {m["to"] for m in swaps} >= {"b4", "c4"}
    new, _ = ENGINE.apply(state, 0, {"type": "swap", "remove": "b4", "from": "a4", "to": "c4"})
    assert new["pieces"]["c4"]["owner"] == 0 and "b4" not in new["pieces"]


def test_sc5_swap_refusals():
    state = position("final", pieces={"c3": 0, "d5": 0, "f3": 0, "a4": 0, "j2": 1, "e7": 1})
    assert_illegal(state, 0, {"type": "swap", "remove": "e7", "from": "a4", "to": "b4"}, "your pieces in the play")
    assert_illegal(state, 0, {"type": "swap", "remove": "a4", "from": "a4", "to": "b4"}, "your pieces in the play")
    assert_illegal(state, 0, {"type": "swap", "remove": "c3", "from": "d5", "to": "d6"}, "from a grey square")
    assert_illegal(state, 0, {"type": "swap", "remove": "c3", "from": "a4", "to": "a6"}, "another grey square")


# --- SC-6 end ---------------------------------------------------------------------------------


def stuck_position(ruleset: str, **extra) -> dict:
    """Seat 1's only piece, on e4, has no card it may take (kings on every stack) and no capture:
    seat 0's pieces on c3 and a3 (and b3, where a3 may go) are off e4's lines."""
    full = {suit: [f"K{suit}"] for suit in rules.SUITS}
    return position(ruleset, pieces={"c3": 0, "e4": 1, "a3": 0}, stacks={1: full}, **extra)


def test_sc6_a_player_with_no_legal_move_is_out_and_the_other_plays_on():
    state = stuck_position("death")
    assert not rules.has_play_move(state["cards"], state["pieces"], state["stacks"][1], 1, 0, False)
    new, entries = ENGINE.apply(state, 0, move("a3", "b3"))
    assert new["out"] == [False, True]
    assert not any(p["owner"] == 1 for p in new["pieces"].values())
    assert ENGINE.to_act(new) == [0]  # seat 0 plays again at once
    assert any("{p1} has no legal move" in e["text"] for e in entries)
    again, _ = ENGINE.apply(new, 0, ENGINE.legal_moves(new, 0)[0])
    assert ENGINE.to_act(again) in ([0], [])


def test_sc6_pieces_to_place_and_a_free_grey_square_keep_a_player_in():
    state = stuck_position("death", hand=(0, 1))
    new, _ = ENGINE.apply(state, 0, move("a3", "b3"))
    assert new["out"] == [False, False]
    assert ENGINE.to_act(new) == [1]
    assert {m["type"] for m in ENGINE.legal_moves(new, 1)} == {"place"}


def test_sc6_a_player_with_no_pieces_left_is_out():
    state = position("final", pieces={"e4": 0, "e6": 1, "a3": 0})
    state["captures"] = [3, 3]  # no bonus pieces any more
    new, entries = ENGINE.apply(state, 0, move("e4", "e6"))
    assert new["out"] == [False, True]
    assert ENGINE.to_act(new) == [0]
    assert any("{p1} has no pieces left" in e["text"] for e in entries)


def test_sc6_game_ends_when_neither_can_move_and_more_cards_win():
    full = {suit: [f"K{suit}"] for suit in rules.SUITS}
    state = position("death", pieces={"e4": 0, "g6": 1}, cards={"e5": "2H"}, stacks={1: full}, advantage=1)
    state["stacks"][0]["H"] = ["AH"]
    # seat 0 takes 2H; then seat 1 is stuck and out; then seat 0 plays on until stuck
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[0])
    result = ENGINE.result(state)
    assert state["out"] == [True, True]
    assert state["out_order"] == [1, 0]
    scores = [sum(len(s) for s in state["stacks"][seat].values()) for seat in (0, 1)]
    assert result.scores == scores
    assert result.winners == ([0] if scores[0] > scores[1] else [1])
    assert not result.draw


def finished(ruleset: str, scores: tuple[int, int], out_order: list[int], advantage: int = 0) -> dict:
    state = position(ruleset, pieces={"e4": 0}, advantage=advantage)
    state["pieces"] = {}
    state["first"] = 1 - advantage  # so that "the advantage player" and "the first player" differ
    for seat, count in enumerate(scores):
        state["stacks"][seat] = rules.empty_stacks()
        state["stacks"][seat]["S"] = list(rules.DECK[39 : 39 + count])  # AS, 2S, ...
    state["out"] = [True, True]
    state["out_order"] = out_order
    state["phase"] = "over"
    state["turn"] = None
    ENGINE.check_invariants(state)
    return state


def test_sc6_death_match_tie_goes_to_the_advantage_player():
    for advantage in (0, 1):
        result = ENGINE.result(finished("death", (5, 5), [advantage, 1 - advantage], advantage=advantage))
        assert result.winners == [advantage] and not result.draw
        assert "advantage player" in result.reason
    result = ENGINE.result(finished("death", (6, 5), [0, 1], advantage=1))
    assert result.winners == [0]


def test_sc6_final_match_tie_goes_to_the_player_removed_last():
    for last in (0, 1):
        result = ENGINE.result(finished("final", (7, 7), [1 - last, last], advantage=1 - last))
        assert result.winners == [last] and not result.draw
    result = ENGINE.result(finished("final", (7, 8), [0, 1]))
    assert result.winners == [1] and result.scores == [7, 8]


def test_sc6_result_is_none_while_playing():
    assert ENGINE.result(position(pieces={"e4": 0})) is None


# --- SC-7 time --------------------------------------------------------------------------------


def test_sc7_death_match_timeout_loses():
    state = position("death", pieces={"e4": 0, "g6": 1}, stacks={0: {"S": ["AS", "2S", "3S"]}}, turn=0)
    before = json.dumps(state, sort_keys=True)
    new, entries = ENGINE.apply_timeout(state, 0)
    assert json.dumps(state, sort_keys=True) == before
    assert ENGINE.to_act(new) == []
    result = ENGINE.result(new)
    assert result.winners == [1]  # even with more cards
    assert "ran out of time" in result.reason
    assert any("ran out of time" in e["text"] for e in entries)
    with pytest.raises(IllegalMove):
        ENGINE.apply_timeout(state, 1)  # not their turn


def test_sc7_final_match_timeout_removes_pieces_and_the_other_plays_on():
    state = position("final", pieces={"e4": 0, "g6": 1, "a3": 0}, turn=0)
    new, _ = ENGINE.apply_timeout(state, 0)
    assert new["out"] == [True, False] and new["out_reason"][0] == "timeout"
    assert not any(p["owner"] == 0 for p in new["pieces"].values())
    assert ENGINE.to_act(new) == [1]
    after, _ = ENGINE.apply(new, 1, ENGINE.legal_moves(new, 1)[0])
    assert ENGINE.to_act(after) in ([1], [])  # seat 0 takes no further turns
    ENGINE.check_invariants(after)


def test_sc7_final_match_timeout_while_choosing_the_order():
    state = ENGINE.new_state(2, {"ruleset": "final", "advantage": "0"}, SEED)
    new, _ = ENGINE.apply_timeout(state, 0)
    assert new["phase"] == "setup" and new["first"] == 1
    assert ENGINE.to_act(new) == [1]
    for _ in range(5):
        new, _ = ENGINE.apply(new, 1, ENGINE.legal_moves(new, 1)[0])
    assert new["phase"] == "play" and ENGINE.to_act(new) == [1]


def test_sc7_final_match_timeout_of_the_last_player_ends_the_game():
    state = position("final", pieces={"e4": 0}, stacks={0: {"S": ["AS"]}, 1: {"H": ["AH"]}})
    state["out"] = [False, True]
    state["out_order"] = [1]
    ENGINE.check_invariants(state)
    new, _ = ENGINE.apply_timeout(state, 0)
    result = ENGINE.result(new)
    assert result.winners == [0]  # the tie goes to the player removed last: the one who timed out


# --- moves in general ---------------------------------------------------------------------------


def test_illegal_moves_raise_and_leave_the_state_unchanged():
    state = position("final", pieces={"e4": 0, "e6": 1, "a3": 0})
    for bad in (
        {"type": "jump"},
        {"type": "move"},
        {"type": "move", "from": "e6", "to": "e5"},
        {"type": "move", "from": "e4", "to": "z9"},
        {"type": "move", "from": "e4", "to": "e4"},
        {"type": "order", "first": True},
        {"type": "place", "to": "a5"},
        {"type": "swap", "remove": "e4", "from": "a3", "to": "b3"},
        ["not", "a", "dict"],
    ):
        assert_illegal(state, 0, bad)
    assert_illegal(state, 1, move("e6", "e5"), "not your turn")


@pytest.mark.slow
def test_legal_moves_are_exactly_the_moves_apply_accepts():
    """Every from/to pair of the mover is tried: apply accepts it exactly when it is listed."""
    for ruleset in ("death", "final"):
        for seed in range(6):
            state = ENGINE.new_state(2, {"ruleset": ruleset}, seed)
            rng = random.Random(seed)
            steps = 0
            while ENGINE.to_act(state):
                seat = ENGINE.to_act(state)[0]
                legal = ENGINE.legal_moves(state, seat)
                if state["phase"] == "play" and steps % 3 == 0:
                    listed = {(m["from"], m["to"]) for m in legal if m["type"] == "move"}
                    for origin, piece in state["pieces"].items():
                        if piece["owner"] != seat:
                            continue
                        for target in rules.KIND:
                            try:
                                ENGINE.apply(state, seat, move(origin, target))
                                accepted = True
                            except IllegalMove:
                                accepted = False
                            assert accepted == ((origin, target) in listed), (origin, target)
                    for swap in (m for m in legal if m["type"] == "swap"):
                        ENGINE.apply(state, seat, swap)
                state, _ = ENGINE.apply(state, seat, rng.choice(legal))
                steps += 1


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["death", "final"])
def test_random_playouts_end_within_max_moves(ruleset):
    bound = ENGINE.max_moves(2, {"ruleset": ruleset})
    for seed in range(60):
        state = ENGINE.new_state(2, {"ruleset": ruleset}, seed)
        rng = random.Random(seed)
        count = 0
        while ENGINE.to_act(state):
            ENGINE.check_invariants(state)
            acting = ENGINE.to_act(state)
            for seat in (0, 1):
                assert bool(ENGINE.legal_moves(state, seat)) == (seat in acting)
            seat = acting[0]
            before = json.dumps(state, sort_keys=True)
            state, entries = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
            assert json.dumps(state, sort_keys=True) != before
            assert entries and all(e["audience"] == "all" for e in entries)
            count += 1
            assert count <= bound
        ENGINE.check_invariants(state)
        assert ENGINE.legal_moves(state, 0) == [] and ENGINE.legal_moves(state, 1) == []
        assert ENGINE.result(state) is not None


def test_max_moves_values():
    assert ENGINE.max_moves(2, {"ruleset": "death"}) == 145
    assert ENGINE.max_moves(2, {"ruleset": "final"}) == 357


def test_apply_never_mutates_and_json_round_trips():
    for ruleset in ("death", "final"):
        state = ENGINE.new_state(2, {"ruleset": ruleset}, 7)
        rng = random.Random(7)
        while ENGINE.to_act(state):
            seat = ENGINE.to_act(state)[0]
            snapshot = json.dumps(state, sort_keys=True)
            assert json.loads(snapshot) == state
            chosen = rng.choice(ENGINE.legal_moves(state, seat))
            new, entries = ENGINE.apply(state, seat, chosen)
            assert json.dumps(state, sort_keys=True) == snapshot
            again, again_entries = ENGINE.apply(json.loads(snapshot), seat, json.loads(json.dumps(chosen)))
            assert again == new and again_entries == entries
            state = new


def test_replay_is_deterministic():
    for ruleset in ("death", "final"):
        state, history = playout(ruleset, 11)
        replayed = ENGINE.new_state(2, {"ruleset": ruleset}, 11)
        for seat, chosen in history:
            replayed, _ = ENGINE.apply(replayed, seat, chosen)
        assert replayed == state
        other_seed = ENGINE.new_state(2, {"ruleset": ruleset}, 12)
        assert other_seed["cards"] != ENGINE.new_state(2, {"ruleset": ruleset}, 11)["cards"]


# --- views ------------------------------------------------------------------------------------


def test_views_never_contain_the_seed():
    for ruleset in ("death", "final"):
        state = ENGINE.new_state(2, {"ruleset": ruleset}, SEED)
        rng = random.Random(1)
        while True:
            for viewer in (0, 1, None):
                text = json.dumps(ENGINE.view(state, viewer))
                assert str(SEED) not in text and "rng" not in text and "seed" not in text
            if not ENGINE.to_act(state):
                break
            seat = ENGINE.to_act(state)[0]
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))


def test_view_carries_the_board_and_the_viewers_destinations():
    state = position("final", pieces={"e4": 0, "a3": 0, "g6": 1}, stacks={1: {"C": ["4C"]}}, hand=(1, 0))
    view = ENGINE.view(state, 0)
    assert len(view["grid"]) == 9 and all(len(row) == 10 for row in view["grid"])
    kinds = [cell["kind"] for row in view["grid"] for cell in row]
    assert kinds.count("play") == 52 and kinds.count("grey") == 30 and kinds.count("hole") == 4
    assert view["grid"][0][0]["square"] == "a8" and view["grid"][8][9]["square"] == "j0"
    assert view["cards"] == state["cards"]
    assert view["pieces"]["e4"] == {"owner": 0, "area": "play", "just_entered": False}
    assert view["players"][1]["stacks"]["C"] == ["4C"] and view["players"][1]["tops"]["C"] == "4C"
    assert view["players"][0]["pieces_to_place"] == 1
    assert view["players"][0]["pieces_in_play_area"] == 1 and view["players"][0]["pieces_on_grey"] == 1
    assert view["play_area_limit"] == 3 and view["ruleset_name"] == "Final Match"
    legal = ENGINE.legal_moves(state, 0)
    listed = {(m["from"], m["to"]) for m in legal if m["type"] == "move"}
    assert {(o, t) for o, ts in view["destinations"].items() for t in ts} == listed
    assert sorted(view["place_squares"]) == sorted(m["to"] for m in legal if m["type"] == "place")
    other = ENGINE.view(state, 1)
    assert other["destinations"] == {} and other["place_squares"] == []
    assert other["grid"] == view["grid"]  # no hidden information
    assert view["result"] is None


def test_view_after_the_end_carries_the_result():
    state, _ = playout("death", 3)
    view = ENGINE.view(state, None)
    assert view["result"] == ENGINE.result(state).as_dict()
    assert view["phase"] == "over" and view["to_act"] == []


# --- checks and bots --------------------------------------------------------------------------


def test_check_invariants_catches_broken_states():
    good = position("final", pieces={"c3": 0, "d5": 0, "f3": 0, "j2": 1})
    broken = json.loads(json.dumps(good))
    broken["cards"]["c3"] = broken["cards"]["d5"]
    with pytest.raises(AssertionError):
        ENGINE.check_invariants(broken)
    broken = json.loads(json.dumps(good))
    broken["stacks"][0]["H"] = ["9H", "5H"]
    with pytest.raises(AssertionError):
        ENGINE.check_invariants(broken)
    broken = json.loads(json.dumps(good))
    broken["pieces"]["g3"] = {"owner": 0, "entered": 0}
    with pytest.raises(AssertionError):
        ENGINE.check_invariants(broken)
    broken = json.loads(json.dumps(good))
    broken["pieces"]["b1"] = {"owner": 1, "entered": 0}
    with pytest.raises(AssertionError):
        ENGINE.check_invariants(broken)


def test_check_vector_unknown_kind_fails():
    with pytest.raises(AssertionError):
        ENGINE.check_vector({"kind": "queen_moves"})


@pytest.mark.slow
def test_normal_bot_plays_legal_moves_and_beats_random():
    wins = 0
    games = 20
    for game in range(games):
        ruleset = ("death", "final")[game % 2]
        normal_seat = (game // 2) % 2
        bots = [random_bot, random_bot]
        bots[normal_seat] = SPEC.bots["normal"]
        state = ENGINE.new_state(2, {"ruleset": ruleset}, 500 + game)
        rng = random.Random(game)
        while ENGINE.to_act(state):
            seat = ENGINE.to_act(state)[0]
            legal = ENGINE.legal_moves(state, seat)
            chosen = bots[seat](ENGINE.view(state, seat), legal, rng)
            assert chosen in legal
            state, _ = ENGINE.apply(state, seat, chosen)
        wins += normal_seat in ENGINE.result(state).winners
    assert wins >= 17
