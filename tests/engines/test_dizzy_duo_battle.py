"""Dizzy Duo Battle engine: rulings DD-1 to DD-9 and ALL-2 to ALL-4, vectors, playouts, bots."""

from __future__ import annotations

import copy
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import dizzy_cards as dc
from games.engines.base import BadOptions, IllegalMove
from games.engines.dizzy_duo_battle import ENGINE, SPEC
from games.engines.dizzy_duo_battle.rules import FORCED_ATTACK_TURN, MAX_ROUNDS
from tests.rule_vectors import cases_for

ROOT = Path(__file__).resolve().parents[2]


# Hands found by search, disjoint enough to deal together (make_state checks the copies).
POWER_5 = ["head-blue-dots", "head-blue-dots", "body-blue-dots", "body-blue-stripes", "tail-blue-diamonds"]
POWER_5.append("tail-blue-stripes")  # the seed's worked example: 1 + 2 + 2, two Lizzies
POWER_3_NO_DUO = ["head-red-dots", "head-red-stripes", "head-purple-dots", "head-purple-diamonds"]
POWER_3_NO_DUO += ["body-purple-stripes", "tail-blue-diamonds"]
POWER_6 = [
    "head-purple-dots",
    "head-purple-diamonds-gold",
    "body-purple-stripes",
    "body-purple-diamonds-gold",
]
POWER_6 += ["tail-purple-dots", "tail-purple-diamonds"]
POWER_2 = ["head-red-diamonds", "head-red-diamonds", "body-red-diamonds", "body-blue-stripes-gold"]
POWER_2 += ["tail-red-stripes", "tail-purple-diamonds-gold"]
POWER_0 = ["body-red-dots", "body-purple-dots", "tail-red-diamonds", "tail-blue-dots", "tail-purple-dots"]
POWER_0.append("tail-purple-stripes")


def test_the_hands_have_the_powers_the_tests_rely_on():
    assert dc.hand_power(POWER_5) == 5 and dc.has_two_lizzies(POWER_5)
    assert dc.hand_power(POWER_3_NO_DUO) == 3 and not dc.has_two_lizzies(POWER_3_NO_DUO)
    assert dc.hand_power(POWER_6) == 6 and dc.has_two_lizzies(POWER_6)
    assert dc.hand_power(POWER_2) == 2 and dc.has_two_lizzies(POWER_2)
    assert dc.hand_power(POWER_0) == 0


def filler_history(turns: list[int], hands: list[list[str]]) -> list[dict[str, Any]]:
    history = []
    for seat, count in enumerate(turns):
        for _ in range(count):
            history.append({"seat": seat, "from": "blind", "took": hands[seat][0], "discarded": hands[seat][0]})
    return history


def make_state(
    hands: list[list[str]],
    *,
    options: dict[str, Any] | None = None,
    current: int = 0,
    turns: list[int] | int = 0,
    open_pile: list[str] | None = None,
    blind: list[str] | None = None,
    seed: int = 11,
) -> dict[str, Any]:
    """A state in round 1 with these hands; the other cards go to the blind (or open) pile."""
    players = len(hands)
    state = ENGINE.new_state(players, options or {}, seed)
    rest = Counter(dc.DECK)
    rest.subtract(c for hand in hands for c in hand)
    rest.subtract(open_pile or [])
    rest.subtract(blind or [])
    assert min(rest.values()) >= 0, "these hands use a card more often than the deck has it"
    remaining = sorted(rest.elements())
    random.Random(seed).shuffle(remaining)
    if blind is None:
        blind = remaining if open_pile is not None else remaining[:-1]
        open_pile = open_pile if open_pile is not None else remaining[-1:]
    else:
        open_pile = (open_pile or []) + remaining  # what is left lies on the open pile
    state["hands"] = [dc.sort_cards(hand) for hand in hands]
    state["blind"] = list(blind)
    state["open"] = list(open_pile)
    state["current"] = state["round_starter"] = current
    state["turns"] = [turns] * players if isinstance(turns, int) else list(turns)
    state["history"] = filler_history(state["turns"], state["hands"])
    ENGINE.check_invariants(state)
    return state


def apply_ok(state, seat, move):
    before = copy.deepcopy(state)
    new, logs = ENGINE.apply(state, seat, move)
    assert state == before, "apply() changed its input"
    ENGINE.check_invariants(new)
    return new, logs


def assert_illegal(state, seat, move, *words: str) -> str:
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, seat, move)
    assert state == before, "a refused move changed the state"
    message = str(error.value)
    for word in words:
        assert word.lower() in message.lower(), message
    return message


# --- the engine's facts -----------------------------------------------------------------------


def test_engine_facts_and_options():
    assert ENGINE.slug == "dizzy-duo-battle" and ENGINE.name == "Dizzy Duo Battle"
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 6)  # ruling DD-1
    defaults = ENGINE.parse_options({}, 4)
    assert defaults == {
        "lives": 20,
        "lifeline": False,
        "points_target": 0,
        "open_battles": False,
        "main_attack": False,
    }
    assert set(SPEC.bots) >= {"random", "normal"}


def test_dd1_player_count_and_unknown_options_are_refused():
    for players in (1, 7):
        with pytest.raises(BadOptions):
            ENGINE.parse_options({}, players)
    with pytest.raises(BadOptions):
        ENGINE.parse_options({"jokers": True}, 3)
    with pytest.raises(BadOptions):
        ENGINE.parse_options({"lives": 0}, 3)
    assert ENGINE.parse_options({"lives": "7", "lifeline": "yes"}, 2)["lives"] == 7


def test_all4_a_bot_plays_a_late_turn():
    assert ENGINE.timeout_policy == "bot"
    state = ENGINE.new_state(2, {}, 1)
    with pytest.raises(NotImplementedError):
        ENGINE.apply_timeout(state, ENGINE.to_act(state)[0])


def test_engine_files_do_not_import_django():
    folder = ROOT / "games" / "engines"
    for path in [folder / "dizzy_cards.py", folder / "dizzy_phrases.py", *(folder / "dizzy_duo_battle").glob("*.py")]:
        assert "django" not in path.read_text(), path


# --- deal and first player (DD-1, DD-6) -------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_deal_gives_six_cards_each_and_turns_one_open(players):
    state = ENGINE.new_state(players, {}, 3)
    ENGINE.check_invariants(state)
    assert [len(h) for h in state["hands"]] == [6] * players
    assert len(state["open"]) == 1
    assert len(state["blind"]) == 54 - 6 * players - 1
    assert state["round"] == 1 and state["phase"] == "take"
    assert ENGINE.to_act(state) == [state["current"]] == [state["round_starter"]]


def test_dd1_first_player_is_drawn_at_random_from_the_seed():
    starters = {ENGINE.new_state(4, {}, seed)["current"] for seed in range(40)}
    assert starters == {0, 1, 2, 3}
    assert ENGINE.new_state(4, {}, 99) == ENGINE.new_state(4, {}, 99)


# --- a turn (DD-6) ------------------------------------------------------------------------------


def test_dd6_take_open_then_discard_keeps_the_same_seat_between_decisions():
    state = make_state([POWER_5, POWER_2], open_pile=["head-red-dots"])
    state, logs = apply_ok(state, 0, {"type": "take", "from": "open"})
    assert state["phase"] == "discard" and ENGINE.to_act(state) == [0]
    assert "head-red-dots" in state["hands"][0] and len(state["hands"][0]) == 7
    assert state["open"] == []
    assert any("took the red dots head" in entry["text"] and entry["audience"] == "all" for entry in logs)
    # ruling DD-6: the card just taken may go straight back
    state, _ = apply_ok(state, 0, {"type": "discard", "card": "head-red-dots"})
    assert state["open"] == ["head-red-dots"] and state["hands"][0] == dc.sort_cards(POWER_5)
    assert state["turns"] == [1, 0] and ENGINE.to_act(state) == [1] and state["phase"] == "take"


def test_all1_turn_key_covers_take_and_discard_as_one_turn():
    state = make_state([POWER_5, POWER_2], turns=3)
    key = ENGINE.turn_key(state)
    taken, _ = apply_ok(state, 0, {"type": "take", "from": "blind"})
    assert ENGINE.turn_key(taken) == key  # the same turn: the clock goes on
    done, _ = apply_ok(taken, 0, {"type": "discard", "card": taken["hands"][0][0]})
    assert ENGINE.turn_key(done) != key
    attacked, _ = apply_ok(state, 0, {"type": "attack"})
    assert ENGINE.turn_key(attacked) != key


def test_dd6_a_blind_card_is_told_only_to_its_taker():
    state = make_state([POWER_5, POWER_2])
    top = state["blind"][-1]
    state, logs = apply_ok(state, 0, {"type": "take", "from": "blind"})
    assert dc.sort_cards(POWER_5 + [top]) == state["hands"][0]
    public = [e["text"] for e in logs if e["audience"] == "all"]
    private = [e["text"] for e in logs if e["audience"] == [0]]
    assert not any(dc.describe(top) in text for text in public)
    assert any(dc.describe(top) in text for text in private)
    assert ENGINE.view(state, 0)["current_take"] == {"from": "blind", "card": top}
    assert ENGINE.view(state, 1)["current_take"] == {"from": "blind", "card": None}


def test_dd6_empty_blind_pile_is_rebuilt_from_the_open_pile_but_its_top():
    state = make_state([POWER_5, POWER_2], blind=[])
    open_before = list(state["open"])
    state, logs = apply_ok(state, 0, {"type": "take", "from": "blind"})
    assert state["open"] == [open_before[-1]]  # the top stays
    assert len(state["blind"]) == len(open_before) - 2  # the rest became the blind; one was taken
    drawn = Counter(state["hands"][0]) - Counter(POWER_5)
    assert sum(drawn.values()) == 1
    assert Counter(state["blind"]) + drawn == Counter(open_before[:-1])
    assert any("shuffled" in entry["text"] for entry in logs)


def test_dd6_wrong_decisions_are_refused_and_leave_the_state_alone():
    state = make_state([POWER_5, POWER_2])
    assert_illegal(state, 1, {"type": "take", "from": "open"}, "not your turn")
    assert_illegal(state, 0, {"type": "discard", "card": POWER_5[0]}, "take a card first")
    assert_illegal(state, 0, {"type": "take", "from": "sideways"}, "open", "blind")
    assert_illegal(state, 0, {"type": "dance"}, "unknown move")
    assert_illegal(state, 0, "take", "json object")  # type: ignore[arg-type]
    taken, _ = apply_ok(state, 0, {"type": "take", "from": "open"})
    assert_illegal(taken, 0, {"type": "take", "from": "blind"}, "discard")
    assert_illegal(taken, 0, {"type": "discard", "card": "head-red-dots-gold"}, "do not hold")
    assert_illegal(taken, 0, {"type": "discard"}, "do not hold")
    assert_illegal(taken, 0, {"type": "attack"}, "discard one")


# --- attack (DD-7) --------------------------------------------------------------------------------


def test_dd7_no_attack_before_every_player_has_had_3_turns():
    state = make_state([POWER_5, POWER_2, POWER_0], turns=[3, 3, 2])
    assert {"type": "attack"} not in ENGINE.legal_moves(state, 0)
    assert_illegal(state, 0, {"type": "attack"}, "every player needs 3 turns this round")
    view = ENGINE.view(state, 0)
    assert view["can_attack"] is False and "3 turns" in view["attack_blocked"]


def test_dd7_no_attack_without_two_lizzies():
    state = make_state([POWER_3_NO_DUO, POWER_2], turns=3)
    assert {"type": "attack"} not in ENGINE.legal_moves(state, 0)
    assert_illegal(state, 0, {"type": "attack"}, "you need two Lizzies")
    assert "two Lizzies" in ENGINE.view(state, 0)["attack_blocked"]


def test_dd7_attack_turns_the_blind_card_and_fights_everyone():
    state = make_state([POWER_5, POWER_2], turns=3)
    assert {"type": "attack"} in ENGINE.legal_moves(state, 0)
    view = ENGINE.view(state, 0)
    assert view["can_attack"] and view["attack_blocked"] is None
    blind_top = state["blind"][-1]
    new, logs = apply_ok(state, 0, {"type": "attack"})
    battle = new["battles"][-1]
    assert battle["attack_card"] == blind_top and battle["attack_kind"] == "blind"
    assert battle["powers"] == [5, 2]
    assert new["lives"] == [22, 15]  # the winner gains the loser's power, the loser loses the winner's
    assert new["round"] == 2


def test_dd7_seed_example_three_players():
    # Player 1 attacks with 5; player 2 defends with 3 and loses; player 3 defends with 6 and wins.
    state = make_state([POWER_5, POWER_3_NO_DUO, POWER_6], turns=3)
    new, logs = apply_ok(state, 0, {"type": "attack"})
    battle = new["battles"][-1]
    assert [f["defender"] for f in battle["fights"]] == [1, 2]  # seat order from the attacker
    assert battle["fights"][0] == {
        "defender": 1,
        "attacker_power": 5,
        "defender_power": 3,
        "winner": 0,
        "attacker_change": 3,
        "defender_change": -5,
    }
    assert battle["fights"][1]["winner"] == 2
    assert (battle["fights"][1]["attacker_change"], battle["fights"][1]["defender_change"]) == (-6, 5)
    # "player 1 has lost three lives, player 2 has lost five lives, and player 3 has gained five"
    assert battle["changes"] == [-3, -5, 5]
    assert new["lives"] == [17, 15, 25]


def test_dd7_fights_go_in_seat_order_from_the_attacker():
    state = make_state([POWER_0, POWER_5, POWER_2, POWER_3_NO_DUO], current=2, turns=3)
    new, _ = apply_ok(state, 2, {"type": "attack"})
    assert new["battles"][-1]["defenders"] == [3, 0, 1]
    assert any("seat order" in e["text"] for e in _ if e["audience"] == "all")


def test_dd7_equal_powers_change_nothing():
    twin = ["head-blue-dots", "head-blue-dots", "body-blue-dots", "body-blue-stripes", "tail-blue-diamonds"]
    twin.append("tail-blue-stripes")
    other = ["head-purple-dots", "head-purple-dots", "body-purple-dots", "body-purple-stripes"]
    other += ["tail-purple-diamonds", "tail-purple-stripes"]
    assert dc.hand_power(twin) == dc.hand_power(other)
    state = make_state([twin, other], turns=3)
    new, _ = apply_ok(state, 0, {"type": "attack"})
    assert new["battles"][-1]["fights"][0]["winner"] is None
    assert new["lives"] == [20, 20]


def test_dd7_the_10th_turn_must_be_an_attack_even_without_two_lizzies():
    state = make_state([POWER_0, POWER_5], turns=[FORCED_ATTACK_TURN - 1, FORCED_ATTACK_TURN - 1])
    assert ENGINE.legal_moves(state, 0) == [{"type": "attack"}]
    assert ENGINE.view(state, 0)["must_attack"] is True
    assert_illegal(state, 0, {"type": "take", "from": "blind"}, "10th turn", "must attack")
    new, _ = apply_ok(state, 0, {"type": "attack"})
    assert new["battles"][-1]["powers"] == [0, 5]
    assert new["lives"] == [15, 20]  # lost to 5; the defender gains the attacker's power 0


def test_dd7_a_9th_turn_is_not_forced():
    state = make_state([POWER_0, POWER_5], turns=[FORCED_ATTACK_TURN - 2, FORCED_ATTACK_TURN - 1])
    assert {"type": "take", "from": "blind"} in ENGINE.legal_moves(state, 0)
    assert ENGINE.view(state, 0)["must_attack"] is False


def test_dd7_each_fighter_sees_the_other_duo_and_everyone_sees_powers():
    state = make_state([POWER_5, POWER_3_NO_DUO, POWER_6], turns=3)
    new, logs = apply_ok(state, 0, {"type": "attack"})
    attacker = ENGINE.view(new, 0)["last_battle"]
    defender = ENGINE.view(new, 1)["last_battle"]
    spectator = ENGINE.view(new, None)["last_battle"]
    assert all(duo is not None for duo in attacker["duos"])  # the attacker fought everyone
    assert defender["duos"][0] is not None and defender["duos"][1] is not None
    assert defender["duos"][2] is None  # another defender's duo stays hidden
    assert spectator["duos"] == [None, None, None]
    for battle in (attacker, defender, spectator):
        assert battle["powers"] == [5, 3, 6] and battle["changes"] == [-3, -5, 5]
    assert attacker["duos"][2]["power"] == 6 and attacker["duos"][2]["lizzies"]
    # the log: duos go to the two fighters of each fight only
    duo_entries = [e for e in logs if "Dizzy Duo:" in e["text"]]
    assert duo_entries and all(e["audience"] in ([0, 1], [0, 2]) for e in duo_entries)


def test_dd7_open_battles_show_every_duo_to_everyone():
    state = make_state([POWER_5, POWER_3_NO_DUO, POWER_6], turns=3, options={"open_battles": True})
    new, logs = apply_ok(state, 0, {"type": "attack"})
    for viewer in (None, 1, 2):
        assert all(duo is not None for duo in ENGINE.view(new, viewer)["last_battle"]["duos"])
    assert all(e["audience"] == "all" for e in logs)


# --- round end (DD-8) ----------------------------------------------------------------------------


def test_dd8_a_player_at_0_is_out_and_the_next_round_starts_after_the_attacker():
    state = make_state([POWER_0, POWER_6, POWER_2, POWER_3_NO_DUO], current=1, turns=3, options={"lives": 6})
    new, logs = apply_ok(state, 1, {"type": "attack"})
    # seat 1 (power 6) beats everyone: each loses 6 and is at 0; seat 1 gains 0 + 2 + 3
    assert new["lives"] == [0, 11, 0, 0]
    assert new["phase"] == "over" and ENGINE.result(new).winners == [1]
    assert new["out"] == [True, False, True, True]


def test_dd8_next_round_starts_with_the_next_player_still_in_after_the_attacker():
    state = make_state([POWER_0, POWER_6, POWER_2, POWER_5], current=1, turns=3, options={"lives": 6})
    # seat 1 (power 6) beats all: seat 2 (power 2) falls from 6 to 0; seats 0 and 3 keep 24
    state["lives"] = [30, 6, 6, 30]
    state["start_lives"] = 0  # lives set by hand: the ledger check below is not for this test
    new, logs = ENGINE.apply(state, 1, {"type": "attack"})
    assert new["out"] == [False, False, True, False] and new["lives"] == [24, 13, 0, 24]
    assert new["round"] == 2 and new["round_starter"] == 3  # seat 2 is out: the next in after 1 is 3
    assert [len(h) for h in new["hands"]] == [6, 6, 0, 6]
    assert new["turns"] == [0, 0, 0, 0] and new["history"] == []
    assert Counter(c for h in new["hands"] for c in h) + Counter(new["blind"] + new["open"]) == Counter(dc.DECK)
    assert any("is out" in e["text"] for e in logs)
    # an out player is skipped in turns and has no moves
    assert ENGINE.legal_moves(new, 2) == []


def test_dd8_after_50_rounds_the_most_lives_wins():
    state = make_state([POWER_5, POWER_2], turns=3)
    state["round"] = MAX_ROUNDS
    new, logs = apply_ok(state, 0, {"type": "attack"})
    result = ENGINE.result(new)
    assert result is not None and result.winners == [0] and not result.draw
    assert result.scores == [22, 15]
    assert ENGINE.to_act(new) == [] and ENGINE.legal_moves(new, 0) == []


def test_dd8_after_50_rounds_equal_lives_are_a_draw():
    twin = ["head-blue-dots", "head-blue-dots", "body-blue-dots", "body-blue-stripes", "tail-blue-diamonds"]
    twin.append("tail-blue-stripes")
    other = ["head-purple-dots", "head-purple-dots", "body-purple-dots", "body-purple-stripes"]
    other += ["tail-purple-diamonds", "tail-purple-stripes"]
    state = make_state([twin, other], turns=3)
    state["round"] = MAX_ROUNDS
    new, _ = apply_ok(state, 0, {"type": "attack"})
    result = ENGINE.result(new)
    assert result.draw and result.winners == []


def test_dd8_round_49_goes_on():
    state = make_state([POWER_5, POWER_2], turns=3)
    state["round"] = MAX_ROUNDS - 1
    new, _ = apply_ok(state, 0, {"type": "attack"})
    assert ENGINE.result(new) is None and new["round"] == MAX_ROUNDS


# --- alternative rules (DD-9) ---------------------------------------------------------------------


def test_dd9_lifeline_returns_a_fallen_player_once_with_the_lowest_lives_still_in():
    state = make_state([POWER_6, POWER_2, POWER_5], turns=3, options={"lifeline": True, "lives": 6})
    new, logs = apply_ok(state, 0, {"type": "attack"})
    # seat 1 (2) loses 6 -> 0; seat 2 (5) loses 6 -> 0; seat 0 gains 7 -> 13. Both return with 13.
    battle = new["battles"][-1]
    assert battle["fallen"] == [1, 2]
    assert new["lives"] == [13, 13, 13] and new["out"] == [False, False, False]
    assert new["lifeline_used"] == [False, True, True]
    assert any("lifeline" in e["text"] for e in logs)
    # the second fall is final
    again = make_state([POWER_6, POWER_2, POWER_5], turns=3, options={"lifeline": True, "lives": 6})
    again["lifeline_used"] = [False, True, False]
    new, _ = apply_ok(again, 0, {"type": "attack"})
    assert new["out"] == [False, True, False] and new["lives"] == [13, 0, 13]


def test_dd9_lifeline_uses_the_lowest_lives_of_the_players_still_in():
    state = make_state([POWER_6, POWER_2, POWER_0], turns=3, options={"lifeline": True})
    state["lives"] = [20, 30, 5]
    state["start_lives"] = 0
    new, _ = ENGINE.apply(state, 0, {"type": "attack"})
    # seat 2 (power 0) falls to -1; still in: seat 0 (20 + 2 + 0 = 22) and seat 1 (30 - 6 = 24)
    assert new["lives"] == [22, 24, 22] and not new["out"][2]


def test_dd9_points_nobody_is_out_and_only_the_winner_scores():
    state = make_state([POWER_5, POWER_3_NO_DUO, POWER_6], turns=3, options={"points_target": 50, "lives": 3})
    assert state["lives"] == [0, 0, 0] and state["scoring"] == "points"
    new, _ = apply_ok(state, 0, {"type": "attack"})
    assert new["lives"] == [3, 0, 5]  # 0 beat 1 (+3); 2 beat 0 (+5); losers lose nothing
    assert new["out"] == [False, False, False] and ENGINE.result(new) is None


def test_dd9_points_first_to_reach_the_target_wins_and_several_means_the_highest():
    state = make_state([POWER_5, POWER_3_NO_DUO, POWER_6], turns=3, options={"points_target": 3})
    new, _ = apply_ok(state, 0, {"type": "attack"})
    assert new["lives"] == [3, 0, 5]
    assert ENGINE.result(new).winners == [2]  # both 0 and 2 reached 3: the highest wins


def test_dd9_points_equal_highest_at_the_target_is_a_draw():
    state = make_state([POWER_5, POWER_2], turns=3, options={"points_target": 5})
    state["lives"] = [3, 5]
    state["start_lives"] = 0
    new, _ = ENGINE.apply(state, 0, {"type": "attack"})
    result = ENGINE.result(new)
    assert new["lives"] == [5, 5] and result.draw and result.winners == []


def main_attack_state(turns=3) -> dict[str, Any]:
    options = {"main_attack": True}
    return make_state([POWER_5, POWER_2], turns=turns, options=options, open_pile=["head-red-stripes"])


def test_dd9_main_attack_takes_then_discards_a_head_card():
    state = main_attack_state()
    assert ENGINE.legal_moves(state, 0) == [
        {"type": "take", "from": "open"},
        {"type": "take", "from": "blind"},
    ]
    assert_illegal(state, 0, {"type": "attack"}, "main attack", "head card")
    state, _ = apply_ok(state, 0, {"type": "take", "from": "open"})
    legal = ENGINE.legal_moves(state, 0)
    assert {"type": "attack", "card": "head-red-stripes"} in legal
    assert all(m["card"].startswith("head-") for m in legal if m["type"] == "attack")
    view = ENGINE.view(state, 0)
    assert view["can_attack"] and "head-red-stripes" in view["attack_cards"]
    assert_illegal(state, 0, {"type": "attack", "card": "body-blue-dots"}, "head card")
    assert_illegal(state, 0, {"type": "attack", "card": "head-purple-dots"}, "do not hold")
    new, _ = apply_ok(state, 0, {"type": "attack", "card": "head-red-stripes"})
    battle = new["battles"][-1]
    assert battle["attack_card"] == "head-red-stripes" and battle["attack_kind"] == "head"
    assert battle["powers"] == [5, 2]  # the six cards kept fight


def test_dd9_main_attack_must_keep_two_lizzies():
    state = make_state([POWER_5, POWER_2], turns=3, options={"main_attack": True}, open_pile=["body-red-stripes"])
    state, _ = apply_ok(state, 0, {"type": "take", "from": "open"})
    # discarding a blue-dots head leaves one head: no two Lizzies
    assert_illegal(state, 0, {"type": "attack", "card": "head-blue-dots"}, "two Lizzies")
    assert not any(m["type"] == "attack" for m in ENGINE.legal_moves(state, 0))


def test_dd9_main_attack_needs_3_turns_and_is_forced_on_the_10th():
    state = main_attack_state(turns=[2, 3])
    state, _ = apply_ok(state, 0, {"type": "take", "from": "open"})
    assert_illegal(state, 0, {"type": "attack", "card": "head-red-stripes"}, "3 turns")
    forced = main_attack_state(turns=[FORCED_ATTACK_TURN - 1, FORCED_ATTACK_TURN - 1])
    forced, _ = apply_ok(forced, 0, {"type": "take", "from": "blind"})
    legal = ENGINE.legal_moves(forced, 0)
    assert legal and all(m["type"] == "attack" for m in legal)
    assert_illegal(forced, 0, {"type": "discard", "card": forced["hands"][0][0]}, "must attack")
    new, _ = apply_ok(forced, 0, legal[0])
    assert len(new["battles"]) == 1


# --- views (ALL-2, ALL-3) --------------------------------------------------------------------------


def test_view_keys_for_a_player_in_the_discard_decision():
    state = make_state([POWER_5, POWER_2], open_pile=["head-red-dots"])
    state, _ = apply_ok(state, 0, {"type": "take", "from": "open"})
    view = ENGINE.view(state, 0)
    assert view["hand"] == state["hands"][0] and view["phase"] == "discard" and view["current"] == 0
    assert view["best"]["power"] == dc.hand_power(state["hands"][0])
    assert {c["card"] for c in view["discard_choices"]} == set(state["hands"][0])
    assert next(c for c in view["discard_choices"] if c["card"] == "head-red-dots")["power"] == 5
    assert view["hand_sizes"] == [7, 6] and view["blind_size"] == len(state["blind"])
    assert view["lives"] == [20, 20] and view["turns"] == [0, 0] and view["round"] == 1
    other = ENGINE.view(state, 1)
    assert other["hand"] == state["hands"][1] and other["discard_choices"] == []
    assert other["current_take"] == {"from": "open", "card": "head-red-dots"}
    assert "hands" not in other and "blind" not in other


def test_all2_views_never_hold_the_seed():
    seed = 987654321987654
    state = ENGINE.new_state(3, {}, seed)
    for viewer in (None, 0, 1, 2):
        text = json.dumps(ENGINE.view(state, viewer))
        assert str(seed) not in text and "rng" not in text


def test_all3_after_the_end_everything_is_public():
    state = make_state([POWER_5, POWER_2], turns=3, options={"lives": 1})
    new, _ = apply_ok(state, 0, {"type": "attack"})
    assert new["phase"] == "over"
    for viewer in (None, 1):
        view = ENGINE.view(new, viewer)
        assert view["hands"] == new["hands"] and view["blind"] == new["blind"]
        assert all(duo is not None for duo in view["last_battle"]["duos"])
        assert view["result"]["winners"] == [0]
        assert "rng" not in json.dumps(view)


def assert_views_hide_secrets(state: dict[str, Any], rng: random.Random) -> None:
    """ALL-3: a view is the same whatever other hands and the blind pile hold."""
    if state["phase"] == "over":
        return
    for viewer in [None, *range(state["players"])]:
        view = ENGINE.view(state, viewer)
        assert "blind" not in view and "hands" not in view and "rng" not in view
        twin = ENGINE.hidden_twin(state, viewer, rng)  # the engine's own, as the site's audit uses
        assert view == ENGINE.view(twin, viewer), f"view of {viewer} leaks"


def test_views_leak_nothing_in_a_fixed_game():
    rng = random.Random(5)
    state = ENGINE.new_state(4, {}, 5)
    for _ in range(80):
        if not ENGINE.to_act(state):
            break
        assert_views_hide_secrets(state, rng)
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))


def test_the_leak_check_can_fail():
    """The engine's hidden twin deals anew what a viewer may not see; a view that showed another
    player's hand, the blind pile or another's blind draw would differ between the two."""
    state = ENGINE.new_state(3, {}, 2)
    for _ in range(4):  # a few turns: blind draws in the history
        seat = ENGINE.to_act(state)[0]
        take_blind = [m for m in ENGINE.legal_moves(state, seat) if m.get("from") == "blind"]
        state, _ = ENGINE.apply(state, seat, (take_blind or ENGINE.legal_moves(state, seat))[0])
    other = ENGINE.hidden_twin(state, 0, random.Random(1))
    assert other["hands"][0] == state["hands"][0]
    assert other["hands"][1:] != state["hands"][1:] and other["blind"] != state["blind"]
    assert other["rng"] != state["rng"]
    assert Counter(c for h in other["hands"] for c in h) + Counter(other["blind"]) == Counter(
        c for h in state["hands"] for c in h
    ) + Counter(state["blind"])
    # A planted leak (another player's hand in seat 0's view) is caught by the comparison.
    leaky = lambda s: {**ENGINE.view(s, 0), "leak": s["hands"][1]}  # noqa: E731
    assert ENGINE.view(other, 0) == ENGINE.view(state, 0)
    assert leaky(other) != leaky(state)


# --- rule vectors ------------------------------------------------------------------------------


def test_rule_vectors():
    cases = cases_for({ENGINE.slug})
    assert {case["kind"] for case in cases} >= {"lizzy", "dizzy_hand_power"}
    failures = []
    for case in cases:
        try:
            ENGINE.check_vector(case)
        except AssertionError as error:
            failures.append(f"{case}: {error}")
    assert not failures, "\n".join(failures)


def test_check_vector_fails_on_a_wrong_power_and_an_unknown_kind():
    with pytest.raises(AssertionError):
        ENGINE.check_vector({"kind": "dizzy_hand_power", "hand": POWER_5, "power": 4})
    bad_lizzy = {"kind": "lizzy", "lizzy": ["head-blue-dots", "body-blue-dots", "tail-blue-dots"]}
    bad_lizzy |= {"colours": "same", "patterns": "same", "valid": True, "double": True, "golden": False}
    with pytest.raises(AssertionError):
        ENGINE.check_vector(bad_lizzy | {"power": 2})  # DD-3: it is 3
    ENGINE.check_vector(bad_lizzy | {"power": 3})
    with pytest.raises(AssertionError):
        ENGINE.check_vector({"kind": "flower_fields_equal"})


# --- random playouts --------------------------------------------------------------------------------


def expected_battle(before: dict[str, Any], attacker: int, move: dict[str, Any]) -> list[int]:
    """The life changes the battle rules give, worked out here from the hands before the attack."""
    players = before["players"]
    hands = [list(h) for h in before["hands"]]
    if "card" in move:
        hands[attacker].remove(move["card"])
    power = [dc.hand_power(h) for h in hands]
    points = before["scoring"] == "points"
    changes = [0] * players
    for defender in range(players):
        if defender == attacker or before["out"][defender]:
            continue
        a, d = power[attacker], power[defender]
        if a > d:
            changes[attacker] += d
            changes[defender] -= 0 if points else a
        elif d > a:
            changes[defender] += a
            changes[attacker] -= 0 if points else d
    return changes


def check_round_end(before, after, attacker, move) -> None:
    changes = expected_battle(before, attacker, move)
    battle = after["battles"][-1]
    assert battle["changes"] == changes
    lives = [before["lives"][s] + changes[s] for s in range(before["players"])]
    if before["scoring"] == "points":
        assert after["lives"] == lives
        return
    fallen = [s for s in range(before["players"]) if not before["out"][s] and lives[s] <= 0]
    assert battle["fallen"] == fallen
    returning = [s for s in fallen if before["options"]["lifeline"] and not before["lifeline_used"][s]]
    still_in = [s for s in range(before["players"]) if not before["out"][s] and s not in fallen]
    for seat in range(before["players"]):
        if seat in returning:
            assert after["lives"][seat] == min(lives[s] for s in still_in)
            assert not after["out"][seat]
        else:
            assert after["lives"][seat] == lives[seat]
            assert after["out"][seat] == (before["out"][seat] or seat in fallen)


options_strategy = st.fixed_dictionaries(
    {
        "lives": st.integers(1, 6),
        "lifeline": st.booleans(),
        "points_target": st.sampled_from([0, 0, 0, 6]),
        "open_battles": st.booleans(),
        "main_attack": st.booleans(),
    }
)


@pytest.mark.slow
@settings(max_examples=18, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    options=options_strategy,
    seed=st.integers(0, 2**40),
    chooser=st.integers(0, 2**32),
)
def test_random_playouts_keep_every_rule(players, options, seed, chooser):
    rng = random.Random(chooser)
    state = ENGINE.new_state(players, options, seed)
    moves = 0
    while ENGINE.to_act(state) and moves < 400:
        ENGINE.check_invariants(state)  # all 54 cards in one place each, lives ledger, hand sizes ...
        assert json.loads(json.dumps(state)) == state
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_moves(state, seat)
        assert legal and all(ENGINE.legal_moves(state, s) == [] for s in range(players) if s != seat)
        if moves % 12 == 0:
            assert_views_hide_secrets(state, rng)
        move = rng.choice(legal)
        before = json.dumps(state, sort_keys=True)
        new, _ = ENGINE.apply(state, seat, move)
        assert json.dumps(state, sort_keys=True) == before, "apply() changed its input"
        if move["type"] == "attack":
            assert len(new["battles"]) == len(state["battles"]) + 1
            check_round_end(state, new, seat, move)
        state = new
        moves += 1
    ENGINE.check_invariants(state)
    if not ENGINE.to_act(state):
        assert ENGINE.result(state) is not None
        assert moves <= ENGINE.max_moves(players, options)


def test_illegal_moves_leave_the_state_unchanged_throughout_a_game():
    rng = random.Random(8)
    state = ENGINE.new_state(3, {"lives": 4}, 8)
    bad_moves = [
        {"type": "take", "from": "nowhere"},
        {"type": "discard", "card": "head-green-dots"},
        {"type": "attack", "card": 5},
        {"type": "jump"},
    ]
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        for move in bad_moves:
            assert_illegal(state, seat, move)
        assert_illegal(state, (seat + 1) % 3, {"type": "take", "from": "open"})
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    assert_illegal(state, 0, {"type": "take", "from": "open"}, "game is over")


def play_random(players: int, options: dict[str, Any], seed: int, chooser: int):
    rng = random.Random(chooser)
    state = ENGINE.new_state(players, options, seed)
    record, logs = [], []
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        move = rng.choice(ENGINE.legal_moves(state, seat))
        state, entries = ENGINE.apply(state, seat, move)
        record.append((seat, move))
        logs.append(entries)
    return state, record, logs


def test_replay_rebuilds_the_same_game_and_json_round_trips():
    options = ENGINE.parse_options({"lives": 5, "lifeline": True}, 4)
    final, record, logs = play_random(4, options, 77, 78)
    state = json.loads(json.dumps(ENGINE.new_state(4, options, 77)))
    for (seat, move), entries in zip(record, logs):
        state, again = ENGINE.apply(json.loads(json.dumps(state)), seat, json.loads(json.dumps(move)))
        assert again == entries
    assert state == final
    assert ENGINE.result(state) is not None
    other, _, _ = play_random(4, options, 79, 78)
    assert other != final  # another seed is another game


def test_max_moves_bounds_a_round_where_nobody_attacks_until_forced():
    players = 3
    state = ENGINE.new_state(players, {}, 4)
    moves = 0
    while state["round"] == 1:
        seat = ENGINE.to_act(state)[0]
        legal = [m for m in ENGINE.legal_moves(state, seat) if m["type"] != "attack"] or ENGINE.legal_moves(state, seat)
        state, _ = ENGINE.apply(state, seat, legal[0])
        moves += 1
    assert moves == players * (FORCED_ATTACK_TURN - 1) * 2 + 1  # 9 turns each, then the forced attack
    assert ENGINE.max_moves(players, {}) >= MAX_ROUNDS * moves


# --- bots -------------------------------------------------------------------------------------------


def play_bots(levels: list[str], seed: int, options: dict[str, Any] | None = None):
    state = ENGINE.new_state(len(levels), options or {}, seed)
    rngs = [random.Random(f"{seed}:{s}") for s in range(len(levels))]
    slowest = 0.0
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        view = ENGINE.view(state, seat)
        legal = ENGINE.legal_moves(state, seat)
        started = time.perf_counter()
        move = SPEC.bots[levels[seat]](copy.deepcopy(view), copy.deepcopy(legal), rngs[seat])
        if levels[seat] == "normal":
            slowest = max(slowest, time.perf_counter() - started)
        assert move in legal, move
        state, _ = ENGINE.apply(state, seat, move)
    return ENGINE.result(state), slowest


def test_normal_bot_beats_random_head_to_head_and_answers_fast():
    wins, slowest = 0, 0.0
    for game in range(6):
        levels = ["normal", "random"] if game % 2 == 0 else ["random", "normal"]
        result, slow = play_bots(levels, 300 + game, {"lives": 10})
        wins += result.winners == [levels.index("normal")]
        slowest = max(slowest, slow)
    assert wins >= 5
    assert slowest < 0.5


def test_normal_bot_plays_the_alternative_rules():
    result, _ = play_bots(["normal", "random", "normal"], 5, {"lives": 6, "main_attack": True, "lifeline": True})
    assert result is not None
    result, _ = play_bots(["normal", "random"], 6, {"points_target": 15, "open_battles": True})
    assert result is not None


def test_normal_bot_attacks_with_a_strong_hand_and_waits_with_a_weak_one():
    strong = make_state([POWER_6, POWER_0, POWER_2], turns=3)
    move = SPEC.bots["normal"](ENGINE.view(strong, 0), ENGINE.legal_moves(strong, 0), random.Random(1))
    assert move == {"type": "attack"}
    weak = make_state([POWER_2, POWER_6, POWER_5], turns=3)
    move = SPEC.bots["normal"](ENGINE.view(weak, 0), ENGINE.legal_moves(weak, 0), random.Random(1))
    assert move["type"] == "take"


def test_normal_bot_keeps_a_card_that_completes_a_better_hand():
    state = make_state([POWER_5, POWER_2], open_pile=["head-red-dots"])
    state, _ = apply_ok(state, 0, {"type": "take", "from": "blind"})
    move = SPEC.bots["normal"](ENGINE.view(state, 0), ENGINE.legal_moves(state, 0), random.Random(2))
    kept = list(state["hands"][0])
    kept.remove(move["card"])
    assert dc.hand_power(kept) >= dc.hand_power(POWER_5)
