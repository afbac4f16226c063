"""Doubting Flower Field engine: every ruling FF-1..FF-9 (and ALL-2/3) is tested here, plus random
playouts (hypothesis), the rule vectors, redaction, JSON round trip and replay determinism."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import BadOptions, IllegalMove
from games.engines.flower_field import ENGINE, SPEC
from games.engines.flower_field import bots as flower_bots
from games.engines.flower_field.rules import (
    CELL_INDEX,
    CELLS,
    COLOURS,
    PLACEMENTS,
    codes_of,
    fields_equal,
    is_connected,
    placement_key,
)
from tests.engines.flower_field_moves import FAR0, FAR1, challenge, hide, plant, started, step, with_duplicate
from tests.rule_vectors import cases_for

ROOT = Path(__file__).resolve().parents[2]

# --- helpers ---------------------------------------------------------------------------------


DUPLICATE = challenge("D2 D3 D4 D5", "D3 D4 D5 D6")


def without_duplicate() -> dict:
    """The same cells, but D2-D5 (R B Y R) and D3-D6 (B Y R R) are not equal."""
    state = started()
    state = step(state, 0, plant(("D5", "red"), ("D3", "blue")))
    return step(state, 1, plant(("D6", "red"), ("D2", "red")))


def refused(state: dict, seat: int, move: dict, message: str | None = None) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, seat, move)
    assert state == before
    if message is not None:
        assert str(error.value) == message


def full_board_state(last_cell: str = "G7") -> dict:
    """Every cell red but `last_cell`, seat 1 to plant it; all hidden flowers cancelled (FF-2)."""
    state = started(hidden0=[("A1", "red"), ("B1", "red")], hidden1=[("A1", "red"), ("B1", "red")])
    flowers = [{"cell": c, "colour": "red"} for c in CELLS if c not in ("D4", last_cell)]
    state["board"].update({f["cell"]: "red" for f in flowers})
    state["plantings"].append({"seat": 0, "flowers": flowers, "exploded": [], "standing": True})
    state["last_planter"] = 0
    state["turn"] = 1
    ENGINE.check_invariants(state)
    return state


# --- facts, options, FF-1 --------------------------------------------------------------------


def test_engine_facts():
    assert ENGINE.slug == "doubting-flower-field"
    assert ENGINE.name == "Doubting Flower Field"
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 2)
    assert ENGINE.timeout_policy == "engine"
    assert {"random", "normal", "hard"} <= set(SPEC.bots)


def test_no_django_import_in_the_package():
    for path in (ROOT / "games" / "engines" / "flower_field").glob("*.py"):
        assert "django" not in path.read_text().lower(), path


def test_ff1_board_lives_and_options():
    """FF-1: 7x7, D4 yellow, 5 lives; the advantage option takes random, 0 or 1."""
    state = ENGINE.new_state(2, {"advantage": "1"}, 3)
    assert state["board"] == {"D4": "yellow"} and state["lives"] == [5, 5]
    assert state["advantage"] == 1 and ENGINE.to_act(state) == [1]
    assert len(CELLS) == 49 and CELLS[0] == "A1" and CELLS[-1] == "G7"
    with pytest.raises(BadOptions):
        ENGINE.parse_options({"advantage": "2"}, 2)
    with pytest.raises(BadOptions):
        ENGINE.parse_options({"colours": "4"}, 2)
    assert ENGINE.parse_options({}, 2) == {"advantage": "random"}


def test_ff1_random_advantage_comes_from_the_state_generator():
    """FF-1: a random advantage is drawn from the seed (ALL-2): same seed, same player; both occur."""
    drawn = [ENGINE.new_state(2, {}, seed)["advantage"] for seed in range(30)]
    assert drawn == [ENGINE.new_state(2, {}, seed)["advantage"] for seed in range(30)]
    assert set(drawn) == {0, 1}
    assert all(ENGINE.new_state(2, {}, seed)["rng"]["draws"] == 1 for seed in range(3))


@pytest.mark.parametrize("go, first", [("first", 1), ("second", 0)])
def test_ff1_advantage_player_chooses_to_go_first_or_second(go, first):
    state = ENGINE.new_state(2, {"advantage": "1"}, 3)
    refused(state, 0, {"type": "order", "go": "first"}, "It is not your turn.")
    refused(state, 1, {"type": "order", "go": "last"})
    state = step(state, 1, {"type": "order", "go": go})
    assert state["first"] == first and state["phase"] == "hide"
    state = step(state, 0, hide(FAR0))
    state = step(state, 1, hide(FAR1))
    assert ENGINE.to_act(state) == [first]


# --- FF-2 hidden flowers -----------------------------------------------------------------------


def test_ff2_hiding_is_simultaneous_and_secret():
    """FF-2: both seats act until each has hidden two flowers; nobody sees the other's."""
    state = step(ENGINE.new_state(2, {"advantage": "0"}, 1), 0, {"type": "order", "go": "first"})
    assert ENGINE.to_act(state) == [0, 1]
    state = step(state, 1, hide(FAR1))
    assert ENGINE.to_act(state) == [0]
    assert ENGINE.legal_moves(state, 1) == []
    refused(state, 1, hide(FAR1), "It is not your turn.")
    view0 = ENGINE.view(state, 0)
    assert view0["hidden"] == [] and view0["hidden_chosen"] == [False, True]
    assert ENGINE.view(twin_with_moved_hidden_flowers(state, [1], random.Random(1)), 0) == view0
    assert not any(c["hidden"] for row in view0["grid"] for c in row["cells"])
    assert ENGINE.view(state, 1)["hidden"][0] == {"cell": "A7", "colour": "yellow", "status": "live"}
    state = step(state, 0, hide(FAR0))
    assert state["phase"] == "play" and ENGINE.to_act(state) == [0]


@pytest.mark.parametrize(
    "flowers, message",
    [
        ([("D4", "red"), ("A1", "red")], "D4 already holds a flower: hide yours elsewhere."),
        ([("A1", "red"), ("A1", "blue")], "Hide your two flowers on two different cells."),
        ([("A1", "red")], "Hide exactly two flowers."),
        ([("A1", "red"), ("H9", "red")], "'H9' is not a cell of the field (A1 to G7)."),
        ([("A1", "red"), ("A2", "green")], "'green' is not a flower colour: red, blue or yellow."),
    ],
)
def test_ff2_hiding_refuses_bad_choices(flowers, message):
    state = step(ENGINE.new_state(2, {"advantage": "0"}, 1), 0, {"type": "order", "go": "first"})
    refused(state, 0, hide(flowers), message)


def test_ff2_a_cell_chosen_by_both_holds_no_hidden_flower_and_each_is_told_privately():
    state = step(ENGINE.new_state(2, {"advantage": "0"}, 1), 0, {"type": "order", "go": "first"})
    state = step(state, 0, hide([("C3", "red"), ("A1", "blue")]))
    state, entries = ENGINE.apply(state, 1, hide([("C3", "blue"), ("G7", "red")]))
    private = [e for e in entries if e["audience"] != "all"]
    assert {tuple(e["audience"]) for e in private if "cancelled" in e["text"]} == {(0,), (1,)}
    assert all("C3" not in e["text"] for e in entries if e["audience"] == "all")
    assert [h["status"] for h in state["hidden"][0]] == ["cancelled", "live"]
    assert [h["status"] for h in state["hidden"][1]] == ["cancelled", "live"]
    assert ENGINE.view(state, 0)["hidden"][0]["status"] == "cancelled"
    # Planting there now explodes nothing.
    state = step(state, 0, plant(("D3", "red")))
    state = step(state, 1, plant(("C3", "red")))
    assert state["lives"] == [5, 5] and state["explosions"] == []


# --- FF-3 planting -----------------------------------------------------------------------------


def test_ff3_one_or_two_flowers_next_to_flowers_visible_before_the_turn():
    state = started()
    refused(state, 0, plant(("D6", "red")), "D6 is not next to a flower that was on the board before this turn.")
    # The second flower may not lean on the first one.
    refused(
        state,
        0,
        plant(("D5", "red"), ("D6", "red")),
        "D6 is not next to a flower that was on the board before this turn.",
    )
    refused(state, 0, plant(("D4", "red")), "D4 already holds a flower.")
    refused(state, 0, plant(("D5", "red"), ("D5", "blue")), "Plant your two flowers on two different cells.")
    refused(state, 0, plant(), "Plant one or two flowers.")
    refused(state, 0, plant(("D5", "red"), ("D3", "red"), ("C4", "red")), "Plant one or two flowers.")
    state = step(state, 0, plant(("D5", "red"), ("D3", "blue")))
    assert state["board"] == {"D4": "yellow", "D5": "red", "D3": "blue"}
    assert ENGINE.to_act(state) == [1]


def test_ff3_hidden_flowers_do_not_count_as_neighbours():
    state = started(hidden0=[("D5", "red"), ("A1", "red")])
    refused(state, 0, plant(("D6", "red")), "D6 is not next to a flower that was on the board before this turn.")


def test_ff3_legal_plantings_are_listed_in_full():
    state = started()
    plantings = [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "plant"]
    assert len(plantings) == 4 * 3 + 6 * 9  # four open cells: singles and pairs, every colour
    for move in plantings[:: len(plantings) // 7]:
        ENGINE.apply(state, 0, move)


# --- FF-4 explosions ---------------------------------------------------------------------------


@pytest.mark.parametrize("owner", [0, 1])
def test_ff4_planting_on_a_hidden_flower_explodes_it_and_costs_the_planter_a_life(owner):
    hidden = [("D5", "blue"), ("A1", "red")]
    state = started(hidden0=hidden if owner == 0 else FAR0, hidden1=hidden if owner == 1 else FAR1)
    state, entries = ENGINE.apply(state, 0, plant(("D5", "red")))
    assert state["lives"] == [4, 5]
    assert state["explosions"] == ["D5"] and state["board"]["D5"] == "red"
    assert state["hidden"][owner][0]["status"] == "exploded"
    public = " ".join(e["text"] for e in entries if e["audience"] == "all")
    assert "exploded on D5" in public and "blue" not in public  # where, not whose or which colour
    assert ENGINE.view(state, None)["explosions"] == ["D5"]


def test_ff4_two_explosions_cost_two_lives():
    state = started(hidden0=[("D5", "blue"), ("A1", "red")], hidden1=[("D3", "red"), ("G1", "red")])
    state = step(state, 0, plant(("D5", "red"), ("D3", "red")))
    assert state["lives"] == [3, 5] and sorted(state["explosions"]) == ["D3", "D5"]


def test_ff4_explosion_to_zero_lives_ends_the_game():
    state = started(hidden0=[("D5", "blue"), ("A1", "red")])
    state["lives"][0] = 1
    state = step(state, 0, plant(("D5", "red")))
    assert state["phase"] == "over" and ENGINE.result(state).winners == [1]


# --- FF-5 challenges -------------------------------------------------------------------------


def test_ff5_no_challenge_on_the_first_turn():
    state = started()
    assert not any(m["type"] in ("challenge", "give_up") for m in ENGINE.legal_moves(state, 0))
    refused(state, 0, {"type": "give_up"})
    refused(state, 0, DUPLICATE, "There is nothing to challenge yet: your opponent has not planted.")


@pytest.mark.parametrize(
    "move, message",
    [
        (challenge("B3 B4 C6 D6", "D2 D3 D4 D5"), "B3, B4, C6, D6 is not connected."),
        (
            challenge("D3 D4 D5 C5", "C3 C4 C5 C6"),
            "Neither field holds a flower planted in your opponent's last turn.",
        ),
        (challenge("D2 D3 D4 D5", "D5 E5 F5 G5"), "Three named cells are empty: at most two may be."),
        (
            challenge("D2 D3 D4 D5", "D5 D4 D3 D2"),
            "The two fields are the same cells: name two different fields.",
        ),
        (challenge("D2 D3 D4", "D3 D4 D5 D6"), "Name two flower fields of exactly four cells each."),
        (
            challenge("D2 D2 D4 D5", "D3 D4 D5 D6"),
            "D2, D2, D4, D5 names a cell twice: a field is four different cells.",
        ),
        (challenge("D2 D3 D4 X5", "D3 D4 D5 D6"), "'X5' is not a cell of the field (A1 to G7)."),
    ],
)
def test_ff5_a_malformed_challenge_is_refused_with_a_message_and_costs_nothing(move, message):
    refused(with_duplicate(), 0, move, message)


def test_ff5_a_true_challenge_on_visible_flowers_succeeds():
    state = with_duplicate()
    state, entries = ENGINE.apply(state, 0, DUPLICATE)
    assert state["challenges"][-1]["announced"] == "successful"
    assert state["lives"] == [5, 4]
    assert any("successful" in e["text"] for e in entries)


def test_ff5_a_false_challenge_on_visible_flowers_fails():
    state = step(without_duplicate(), 0, DUPLICATE)
    assert state["challenges"][-1]["announced"] == "failed"
    assert state["lives"] == [4, 5]


def test_ff5_empty_cells_are_always_announced_successful():
    """FF-5: a claim on an empty cell (one of the challenger's hidden flowers) is announced
    "successful" whether or not it is true; its truth is not shown before the end."""
    for hidden0 in ([("D6", "red"), ("A1", "red")], FAR0):
        state = started(hidden0=hidden0)
        state = step(state, 0, plant(("D5", "red"), ("D3", "red")))
        state = step(state, 1, plant(("D2", "red")))
        state = step(state, 0, DUPLICATE)  # D6 is empty
        assert state["phase"] == "doubt" and state["lives"] == [5, 4]
        assert state["challenges"][-1]["empty"] == ["D6"]
        assert state["challenges"][-1]["truth"] is (hidden0[0][0] == "D6")
        for seat in (0, 1, None):
            view = ENGINE.view(state, seat)
            assert view["pending"]["announced"] == "successful"
            assert all("truth" not in c for c in view["challenges"])


def test_ff5_giving_up_is_an_announced_failure():
    state = with_duplicate()
    state = step(state, 0, {"type": "give_up"})
    assert state["lives"] == [4, 5] and ENGINE.to_act(state) == [0]
    assert state["give_ups"] == [0]


def test_ff5_a_redo_may_be_challenged():
    state = step(with_duplicate(), 0, DUPLICATE)
    state = step(state, 1, plant(("D6", "red"), ("D2", "red")))  # the same mistake again
    state = step(state, 0, DUPLICATE)
    assert state["lives"] == [5, 3]


def test_ff5_fields_may_overlap_and_the_other_field_may_be_old():
    state = with_duplicate()
    assert fields_equal(codes_to_colours(state), idx("D2 D3 D4 D5"), idx("D3 D4 D5 D6"))
    state = step(state, 0, challenge("D3 D4 D5 D6", "D2 D3 D4 D5"))  # either order
    assert state["lives"] == [5, 4]


def codes_to_colours(state: dict) -> dict[int, str]:
    return {CELL_INDEX[c]: k for c, k in state["board"].items()}


def idx(cells: str) -> list[int]:
    return [CELL_INDEX[c] for c in cells.split()]


# --- FF-6 results ------------------------------------------------------------------------------


def test_ff6_success_undoes_the_last_planting_and_the_opponent_must_plant_again():
    state = step(with_duplicate(), 0, DUPLICATE)
    assert "D6" not in state["board"] and "D2" not in state["board"]
    assert state["plantings"][-1]["standing"] is False
    assert ENGINE.to_act(state) == [1] and state["redo"]
    moves = ENGINE.legal_moves(state, 1)
    assert moves and all(m["type"] == "plant" for m in moves)
    refused(state, 1, {"type": "give_up"}, "You may not challenge now, so you cannot give up a challenge.")
    refused(
        state,
        1,
        challenge("D3 D4 D5 C5", "D3 D4 D5 E5"),
        "You must plant again after a successful challenge.",
    )


def test_ff6_explosions_stay_after_an_undo():
    state = started(hidden0=[("D2", "blue"), ("A1", "red")])
    state = step(state, 0, plant(("D5", "red"), ("D3", "red")))
    state = step(state, 1, plant(("D6", "red"), ("D2", "red")))  # explodes seat 0's D2
    assert state["lives"] == [5, 4]
    state = step(state, 0, DUPLICATE)
    assert state["lives"] == [5, 3]
    assert "D2" not in state["board"] and state["explosions"] == ["D2"]
    assert state["hidden"][0][0]["status"] == "exploded"
    state = step(state, 1, plant(("D2", "blue")))  # nothing left to explode
    assert state["lives"] == [5, 3]


def test_ff6_failure_costs_the_challenger_a_life_and_they_play_again():
    state = step(without_duplicate(), 0, DUPLICATE)
    assert state["lives"] == [4, 5]
    assert ENGINE.to_act(state) == [0] and not state["redo"]
    assert {m["type"] for m in ENGINE.legal_moves(state, 0)} >= {"plant", "challenge", "give_up"}
    state = step(state, 0, DUPLICATE)  # and may challenge again
    assert state["lives"] == [3, 5]


# --- FF-7 challenge-challenge ----------------------------------------------------------------


def claim(true_claim: bool, lives1: int = 5) -> dict:
    """Seat 0 claims a hidden red flower on D6 (true or not); seat 1 must answer."""
    hidden0 = [("D6", "red"), ("A1", "red")] if true_claim else [("D6", "blue"), ("A1", "red")]
    state = started(hidden0=hidden0)
    state = step(state, 0, plant(("D5", "red"), ("D3", "red")))
    state = step(state, 1, plant(("D2", "red")))
    state["lives"][1] = lives1
    return step(state, 0, DUPLICATE)


def test_ff7_window_offers_exactly_challenge_challenge_or_accept_to_the_challenged_player():
    state = claim(True)
    assert ENGINE.to_act(state) == [1]
    assert ENGINE.legal_moves(state, 1) == [{"type": "challenge_challenge"}, {"type": "accept"}]
    refused(state, 1, plant(("D2", "red")), "A plant move is not allowed now.")
    pending = ENGINE.view(state, 1)["pending"]
    assert pending["a"] == ["D2", "D3", "D4", "D5"] and pending["empty"] == ["D6"]
    assert pending["undone"] == [{"cell": "D2", "colour": "red"}]


def test_ff7_successful_challenge_challenge_moves_a_life_and_restores_the_planting():
    state = step(claim(False), 1, {"type": "challenge_challenge"})
    assert state["lives"] == [4, 5]  # seat 1: 5 -1 +1; seat 0: -1
    assert state["board"]["D2"] == "red" and state["plantings"][-1]["standing"]
    assert ENGINE.to_act(state) == [0] and not state["redo"]
    assert state["challenges"][-1]["doubt"] == "successful"


def test_ff7_failed_challenge_challenge_costs_a_life_and_the_doubter_replants():
    state = step(claim(True), 1, {"type": "challenge_challenge"})
    assert state["lives"] == [5, 3]
    assert "D2" not in state["board"] and ENGINE.to_act(state) == [1] and state["redo"]
    assert state["challenges"][-1]["doubt"] == "failed"


def test_ff7_accepting_leads_to_the_replant():
    state = step(claim(False), 1, {"type": "accept"})
    assert state["lives"] == [5, 4] and state["redo"] and ENGINE.to_act(state) == [1]


def test_ff7_the_announcement_says_only_successful_or_failed():
    _, entries = ENGINE.apply(claim(False), 1, {"type": "challenge_challenge"})
    text = " ".join(e["text"] for e in entries)
    assert "successful" in text and "blue" not in text and "D6" not in text


def test_ff7_lives_at_zero_are_judged_when_the_window_closes():
    state = claim(False, lives1=1)
    assert state["lives"][1] == 0 and state["phase"] == "doubt"
    ENGINE.check_invariants(state)
    saved = step(state, 1, {"type": "challenge_challenge"})
    assert saved["phase"] == "play" and saved["lives"] == [4, 1]
    lost = step(state, 1, {"type": "accept"})
    assert lost["phase"] == "over" and ENGINE.result(lost).winners == [0]
    lost = step(claim(True, lives1=1), 1, {"type": "challenge_challenge"})
    assert lost["phase"] == "over" and lost["lives"][1] == 0 and ENGINE.result(lost).winners == [0]


def test_ff7_a_claim_on_an_empty_cell_needs_the_challengers_own_live_flower():
    """FF-7: the opponent's hidden flower on the cell does not make the claim true."""
    state = started(hidden0=FAR0, hidden1=[("D6", "red"), ("G1", "red")])
    state = step(state, 0, plant(("D5", "red"), ("D3", "red")))
    state = step(state, 1, plant(("D2", "red")))
    state = step(state, 0, DUPLICATE)
    assert state["challenges"][-1]["truth"] is False


# --- FF-8 the end ----------------------------------------------------------------------------


def test_ff8_full_board_the_other_player_may_challenge_or_pass_then_more_lives_wins():
    state = step(full_board_state(), 1, plant(("G7", "red")))
    assert state["phase"] == "final" and ENGINE.to_act(state) == [0]
    kinds = {m["type"] for m in ENGINE.legal_moves(state, 0)}
    assert "pass" in kinds and "challenge" in kinds and "give_up" not in kinds
    won = step(state, 0, challenge("D7 E7 F7 G7", "A1 B1 C1 D1"))  # all red: true
    assert won["lives"] == [5, 4] and ENGINE.result(won).winners == [0]
    assert won["board"]["G7"] == "red"  # nothing is undone
    lost = step(state, 0, challenge("D7 E7 F7 G7", "A1 B1 A2 B2"))  # different shapes: false
    assert lost["lives"] == [4, 5] and ENGINE.result(lost).winners == [1]
    assert ENGINE.result(lost).reason == "full field: more lives"


def test_ff8_equal_lives_go_to_the_last_planter():
    state = step(step(full_board_state(), 1, plant(("G7", "red"))), 0, {"type": "pass"})
    result = ENGINE.result(state)
    assert result.winners == [1] and result.scores == [5, 5] and not result.draw
    assert ENGINE.to_act(state) == [] and ENGINE.legal_moves(state, 0) == []


def test_ff8_zero_lives_loses():
    state = with_duplicate()
    state["lives"][1] = 1
    state = step(state, 0, DUPLICATE)
    assert state["phase"] == "over" and ENGINE.result(state).winners == [0]
    assert ENGINE.result(state).reason == "out of lives"


# --- FF-9, ALL-2, ALL-3: views ---------------------------------------------------------------


def test_ff9_the_view_does_not_tell_whether_equal_fields_exist():
    """Two positions that differ only in one colour, one with equal fields and one without: the views
    differ in that flower's colour and nowhere else."""
    equal = with_duplicate()
    assert fields_equal(codes_to_colours(equal), idx("D2 D3 D4 D5"), idx("D3 D4 D5 D6"))
    plain = started()
    plain = step(plain, 0, plant(("D5", "red"), ("D3", "red")))
    plain = step(plain, 1, plant(("D6", "red"), ("D2", "blue")))

    def masked(view: dict, colour: str) -> str:
        text = json.dumps(view, sort_keys=True)
        return text.replace(f'"D2", "colour": "{colour}"', "X").replace(f'"D2": "{colour}"', "X")

    for seat in (0, 1, None):
        a, b = ENGINE.view(equal, seat), ENGINE.view(plain, seat)
        assert a != b
        assert masked(a, "red") == masked(b, "blue")


def test_views_hold_own_hidden_flowers_only_and_everything_after_the_end():
    """ALL-3: a player sees only their own hidden flowers, a spectator none; all after the end.
    ALL-2: never the generator's seed."""
    seed = 987654321987
    state = started(hidden0=[("B6", "red"), ("F2", "blue")], hidden1=[("C2", "yellow"), ("E6", "red")], seed=seed)
    rng = random.Random(1)
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        hidden_in_grid = sorted(c["cell"] for row in view["grid"] for c in row["cells"] if c["hidden"])
        if seat is None:
            assert view["hidden"] == [] and hidden_in_grid == []
            assert ENGINE.view(twin_with_moved_hidden_flowers(state, [0, 1], rng), None) == view
        else:
            assert view["hidden"] == state["hidden"][seat]
            assert hidden_in_grid == sorted(h["cell"] for h in state["hidden"][seat])
            assert ENGINE.view(twin_with_moved_hidden_flowers(state, [1 - seat], rng), seat) == view
        assert "all_hidden" not in view and str(seed) not in json.dumps(view)
    over, _ = ENGINE.apply_timeout(state, 0)
    view = ENGINE.view(over, None)
    assert [h["cell"] for h in view["all_hidden"][1]] == ["C2", "E6"]
    assert str(seed) not in json.dumps(view)


def test_hidden_twin_moves_what_the_viewer_may_not_know_and_nothing_else():
    state = claim(True)
    twin = ENGINE.hidden_twin(state, 1, random.Random(2))
    assert twin["hidden"][1] == state["hidden"][1]
    assert twin["hidden"][0] != state["hidden"][0] and twin["rng"] != state["rng"]
    assert twin["board"] == state["board"] and twin["lives"] == state["lives"]
    ENGINE.check_invariants(twin)
    assert ENGINE.view(twin, 1) == ENGINE.view(state, 1)
    assert ENGINE.view(twin, 0) != ENGINE.view(state, 0)
    # The pending claim is judged on the twin's flowers: D6 no longer holds seat 0's red flower.
    assert twin["challenges"][-1]["truth"] is False
    over, _ = ENGINE.apply_timeout(state, 1)
    assert ENGINE.hidden_twin(over, 1, random.Random(2))["hidden"] == over["hidden"]


def test_turn_key_keeps_one_clock_for_a_whole_turn():
    """ALL-1: a failed challenge and the turn played again are one turn; a planting ends it."""
    state = without_duplicate()
    key = ENGINE.turn_key(state)
    again = step(state, 0, DUPLICATE)
    assert ENGINE.to_act(again) == [0] and ENGINE.turn_key(again) == key
    assert ENGINE.turn_key(step(again, 0, plant(("C4", "red")))) != key


def test_all3_claim_truth_is_public_after_the_end():
    state = claim(False, lives1=1)
    state = step(state, 1, {"type": "accept"})
    assert ENGINE.view(state, None)["challenges"][-1]["truth"] is False


def test_view_keys_for_templates():
    view = ENGINE.view(with_duplicate(), 0)
    for key in (
        "phase",
        "to_act",
        "turn",
        "lives",
        "board",
        "grid",
        "last_planting",
        "explosions",
        "pending",
        "hidden",
        "challenges",
        "may_challenge",
        "result",
    ):
        assert key in view
    assert view["last_planting"] == {"seat": 1, "cells": ["D6", "D2"]}
    assert [row["row"] for row in view["grid"]] == [7, 6, 5, 4, 3, 2, 1]
    assert view["grid"][3]["cells"][3] == {
        "cell": "D4",
        "colour": "yellow",
        "last": False,
        "exploded": False,
        "hidden": None,
    }
    assert view["may_challenge"] and not ENGINE.view(with_duplicate(), 1)["may_challenge"]


# --- timeouts, legal moves, illegal moves ----------------------------------------------------


@pytest.mark.parametrize("phase_state", ["order", "hide", "play", "doubt"])
def test_timeout_loses_the_match(phase_state):
    """The seed: running out of time loses, the hidden-flower setup included."""
    if phase_state == "order":
        state, late = ENGINE.new_state(2, {"advantage": "1"}, 1), 1
    elif phase_state == "hide":
        state = step(ENGINE.new_state(2, {"advantage": "0"}, 1), 0, {"type": "order", "go": "first"})
        state, late = step(state, 0, hide(FAR0)), 1
    elif phase_state == "play":
        state, late = started(), 0
    else:
        state, late = claim(True), 1
    with pytest.raises(IllegalMove):
        ENGINE.apply_timeout(state, 1 - late)
    over, entries = ENGINE.apply_timeout(state, late)
    assert ENGINE.result(over).winners == [1 - late] and ENGINE.result(over).reason == "lost on time"
    assert ENGINE.to_act(over) == [] and entries


def test_legal_challenges_depend_only_on_public_knowledge():
    """The listed challenges are judged on the visible board: another hidden flower for either player
    changes nothing. The list holds the true visible challenge and claims on empty cells."""
    a = with_duplicate()
    b = with_duplicate(hidden0=[("E5", "red"), ("B2", "blue")], hidden1=[("C5", "red"), ("F3", "yellow")])
    listed = ENGINE.legal_moves(a, 0)
    assert listed == ENGINE.legal_moves(b, 0)
    challenges = [m for m in listed if m["type"] == "challenge"]
    assert DUPLICATE in challenges
    assert any(any(cell not in a["board"] for cell in m["a"] + m["b"]) for m in challenges)
    for move in challenges[:: max(1, len(challenges) // 10)]:
        ENGINE.apply(a, 0, move)


@pytest.mark.parametrize(
    "move",
    [
        {"type": "dance"},
        {"type": "plant", "flowers": "D5"},
        {"type": "plant", "flowers": [{"cell": "D5"}]},
        {"type": "plant", "flowers": [["D5", "red"]]},
        {"type": "challenge", "a": "D2 D3 D4 D5"},
        {"type": "accept"},
        {"type": "pass"},
        {"type": "order", "go": "first"},
        "plant",
    ],
)
def test_illegal_moves_raise_and_leave_the_state_unchanged(move):
    refused(with_duplicate(), 0, move)


# --- rule vectors and the field tables ------------------------------------------------------


def load_vectors() -> list[dict]:
    return cases_for({ENGINE.slug})


def test_rule_vectors_flower_fields_equal():
    cases = load_vectors()
    assert cases
    for case in cases:
        ENGINE.check_vector(case)


def test_rule_vectors_catch_a_wrong_answer():
    case = dict(load_vectors()[0])
    case["equal"] = not case["equal"]
    with pytest.raises(AssertionError):
        ENGINE.check_vector(case)
    with pytest.raises(AssertionError):
        ENGINE.check_vector({"kind": "lizzy"})


def test_equality_needs_both_shape_and_colour_and_distinct_cells():
    colours = {CELL_INDEX[c]: "red" for c in CELLS}
    assert fields_equal(colours, idx("A1 B1 C1 D1"), idx("A2 A3 A4 A5"))  # a rotation
    assert not fields_equal(colours, idx("A1 B1 C1 D1"), idx("A1 B1 C1 D1"))  # the same cells
    assert not fields_equal(colours, idx("A1 B1 C1 D1"), idx("A2 B2 A3 B3"))  # another shape
    colours[CELL_INDEX["A1"]] = "blue"
    assert fields_equal(colours, idx("A1 B1 C1 B2"), idx("C7 D7 E7 D6")) is False
    colours[CELL_INDEX["E7"]] = "blue"
    assert fields_equal(colours, idx("A1 B1 C1 B2"), idx("C7 D7 E7 D6"))  # a reflection
    del colours[CELL_INDEX["D6"]]
    assert not fields_equal(colours, idx("A1 B1 C1 B2"), idx("C7 D7 E7 D6"))  # an empty cell


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_fast_placement_keys_agree_with_the_plain_judgement(rng):
    colours = {i: rng.choice(COLOURS) for i in range(49) if rng.random() < 0.85}
    codes = codes_of(colours)
    assert all(is_connected(p) for p in PLACEMENTS) and len(PLACEMENTS) == 572
    for _ in range(60):
        p, q = rng.randrange(len(PLACEMENTS)), rng.randrange(len(PLACEMENTS))
        key_p, key_q = placement_key(codes, p), placement_key(codes, q)
        same = key_p is not None and key_p == key_q and p != q
        assert same == fields_equal(colours, PLACEMENTS[p], PLACEMENTS[q])


# --- random playouts (hypothesis) ------------------------------------------------------------


def twin_with_moved_hidden_flowers(state: dict, owners: list[int], rng: random.Random) -> dict:
    """The engine's hidden twin for the viewer who is not among `owners` (None: a spectator)."""
    viewer = None if len(owners) == 2 else 1 - owners[0]
    return ENGINE.hidden_twin(state, viewer, rng)


def playout(seed: int, levels: tuple[str, str], rng: random.Random, check_twins: bool) -> list:
    state = ENGINE.new_state(2, {}, seed)
    bots = [SPEC.bots[level] for level in levels]
    moves = []
    while ENGINE.to_act(state):
        seats = ENGINE.to_act(state)
        seat = rng.choice(seats)
        legal = ENGINE.legal_moves(state, seat)
        assert legal
        view = ENGINE.view(state, seat)
        if check_twins and state["phase"] not in ("order", "hide", "over"):
            other = 1 - seat
            twin = twin_with_moved_hidden_flowers(state, [other], rng)
            assert ENGINE.view(twin, seat) == view, "a view depends on the opponent's hidden flowers"
            assert ENGINE.view(twin_with_moved_hidden_flowers(state, [0, 1], rng), None) == ENGINE.view(state, None)
        own = {(h["cell"], h["colour"]) for h in view["hidden"]}
        assert own == {(h["cell"], h["colour"]) for h in state["hidden"][seat] or []}
        move = bots[seat](view, legal, random.Random(rng.random()))
        before = copy.deepcopy(state)
        new, _ = ENGINE.apply(state, seat, move)
        assert state == before, "apply mutated its input"
        state = new
        assert json.loads(json.dumps(state)) == state
        ENGINE.check_invariants(state)
        if state["phase"] != "over":
            assert min(state["lives"]) >= 0
        moves.append((seat, move))
    assert len(moves) <= ENGINE.max_moves(2, {})
    assert ENGINE.result(state) is not None and ENGINE.legal_moves(state, 0) == []
    return moves, state


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    levels=st.sampled_from([("random", "random"), ("random", "normal"), ("normal", "hard"), ("hard", "random")]),
    choice=st.randoms(use_true_random=False),
)
def test_random_playouts_keep_the_rules_and_replay_exactly(seed, levels, choice):
    moves, final = playout(seed, levels, choice, check_twins=True)
    # Replay determinism: the seed plus the moves rebuild the same state.
    state = ENGINE.new_state(2, {}, seed)
    for seat, move in moves:
        state, _ = ENGINE.apply(json.loads(json.dumps(state)), seat, json.loads(json.dumps(move)))
    assert state == final


@pytest.mark.slow
def test_undo_and_restore_keep_board_and_log_in_agreement():
    """Several seeds of random bots, which claim and doubt a lot: undo and restore happen."""
    undone = restored = 0
    for seed in range(6):
        _, final = playout(seed, ("random", "random"), random.Random(seed), check_twins=False)
        undone += sum(1 for c in final["challenges"] if c["undone"] is not None)
        restored += sum(1 for c in final["challenges"] if c["doubt"] == "successful")
    assert undone and restored


# --- bots --------------------------------------------------------------------------------------


def test_bots_challenge_a_visible_duplicate():
    state = with_duplicate()
    legal = ENGINE.legal_moves(state, 0)
    for level in ("normal", "hard"):
        move = SPEC.bots[level](ENGINE.view(state, 0), legal, random.Random(1))
        assert move["type"] == "challenge"
        new = step(state, 0, move)
        assert new["challenges"][-1]["truth"] is True


def test_bots_do_not_make_duplicates_when_they_can_help_it():
    state = started()
    state = step(state, 0, plant(("D5", "red"), ("D3", "red")))
    for level in ("normal", "hard"):
        move = SPEC.bots[level](ENGINE.view(state, 1), ENGINE.legal_moves(state, 1), random.Random(2))
        new = step(state, 1, move)
        listed = [m for m in ENGINE.legal_moves(new, 0) if m["type"] == "challenge"]
        assert not any(
            fields_equal(codes_to_colours(new), idx(" ".join(m["a"])), idx(" ".join(m["b"]))) for m in listed
        )


def test_bots_doubt_a_claim_on_a_cell_that_cannot_hold_a_hidden_flower():
    """Seat 1's own hidden flower is on D6, so seat 0's claim there is surely false."""
    state = started(hidden0=FAR0, hidden1=[("D6", "blue"), ("G1", "red")])
    state = step(state, 0, plant(("D5", "red"), ("D3", "red")))
    state = step(state, 1, plant(("D2", "red")))
    state = step(state, 0, DUPLICATE)
    for level in ("normal", "hard"):
        move = SPEC.bots[level](ENGINE.view(state, 1), ENGINE.legal_moves(state, 1), random.Random(3))
        assert move == {"type": "challenge_challenge"}


def test_hard_bot_accepts_a_claim_proved_true_before():
    """After a failed challenge-challenge proved seat 0's red D6, the same claim is accepted."""
    state = step(claim(True), 1, {"type": "challenge_challenge"})
    state = step(state, 1, plant(("D2", "red")))
    state = step(state, 0, DUPLICATE)
    move = SPEC.bots["hard"](ENGINE.view(state, 1), ENGINE.legal_moves(state, 1), random.Random(4))
    assert move == {"type": "accept"}


@pytest.mark.slow
def test_bots_answer_with_listed_moves_in_every_phase():
    rng = random.Random(5)
    for level in ("normal", "hard"):
        state = ENGINE.new_state(2, {}, 11)
        while ENGINE.to_act(state) and state["moves"] < 40:
            seat = ENGINE.to_act(state)[0]
            legal = ENGINE.legal_moves(state, seat)
            move = SPEC.bots[level](ENGINE.view(state, seat), legal, rng)
            assert move in legal
            state, _ = ENGINE.apply(state, seat, move)


def test_flower_bots_module_exposes_levels():
    assert SPEC.bots["random"] is flower_bots.random_bot
