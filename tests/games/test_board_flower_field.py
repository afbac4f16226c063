"""The Doubting Flower Field board: its presenter (games/engines/flower_field/board.py) from engine
states, and the pages it draws: hiding, planting and challenging by clicking cells, what each viewer sees
(own hidden flowers only, FF-2 / ALL-3), that no page ever lists challenges (FF-9), and that every
control is named by its visible text.

Page moves are made the way a player makes them: follow the links a page offers (`?select=...`), then
post the JSON of a button found on the page.
"""

from __future__ import annotations

import ast
import html
import inspect
import json
import random
import re

import pytest
from django.test import Client

from games import actions
from games.engines import tutorial as tutorials
from games.engines.flower_field import board as ff_board
from games.engines.flower_field.rules import CELL_INDEX, CELLS, fields_equal
from games.engines.registry import SPECS, get_engine
from games.engines.spec import BoardInput
from games.models import Match
from tests.helpers import start_match

GAME = "doubting-flower-field"
ENGINE = get_engine(GAME)
NAMES = ["alice", "bob"]
pytestmark = pytest.mark.django_db
MOVE_BUTTONS = re.compile(r'name="move" value="([^"]*)"')
SELECT_LINKS = re.compile(r'href="/matches/\d+/\?select=([^"#]*)#ff-field"')
ALICE_HIDDEN = [("B2", "red"), ("F6", "blue")]
BOB_HIDDEN = [("A7", "yellow"), ("G1", "yellow")]


def hide(flowers: list[tuple[str, str]]) -> dict:
    return {"type": "hide", "flowers": [{"cell": c, "colour": k} for c, k in flowers]}


def plant(*flowers: tuple[str, str]) -> dict:
    return {"type": "plant", "flowers": [{"cell": c, "colour": k} for c, k in flowers]}


# --- the presenter, from engine states ---------------------------------------------------------------
def engine_state(*moves: tuple[int, dict]) -> dict:
    """A game where alice (seat 0) has the advantage, after `moves` (seat, move)."""
    state = ENGINE.new_state(2, {"advantage": "0"}, 7)
    for seat, move in moves:
        state, _ = ENGINE.apply(state, seat, move)
    return state


HIDDEN = ((0, {"type": "order", "go": "first"}), (0, hide(ALICE_HIDDEN)), (1, hide(BOB_HIDDEN)))
# Bob's planting D6 + D2 makes D2-D5 (R R Y R) equal to D3-D6 (R Y R R); alice to act.
DUPLICATE = (*HIDDEN, (0, plant(("D5", "red"), ("D3", "red"))), (1, plant(("D6", "red"), ("D2", "red"))))


def present(state: dict, seat: int | None, select: str = "", view: dict | None = None) -> ff_board.Board:
    to_act = seat is not None and seat in ENGINE.to_act(state)
    legal = ENGINE.legal_moves(state, seat) if to_act else []
    given = BoardInput(view or ENGINE.view(state, seat), legal, seat, to_act, NAMES, select, False)
    return ff_board.present(given)


def cells(board: ff_board.Board) -> dict[str, ff_board.Cell]:
    return {cell.name: cell for row in board.rows for cell in row.cells}


def picks(board: ff_board.Board) -> dict[str, str]:
    return {name: cell.pick for name, cell in cells(board).items() if cell.pick is not None}


def test_the_order_is_chosen_by_the_advantage_player():
    state = engine_state()
    mine = present(state, 0)
    assert [c.label for c in mine.controls.order] == ["Plant first", "Plant second"]
    assert mine.status == "" and picks(mine) == {}
    theirs = present(state, 1)
    assert theirs.controls.order == [] and theirs.status == "Alice has the advantage and chooses who plants first."


def test_hiding_goes_cell_colour_cell_colour_on_the_engines_hideable_cells():
    state = engine_state((0, {"type": "order", "go": "first"}))
    start = present(state, 0)
    assert start.controls.mode == "h" and set(picks(start)) == set(ENGINE.view(state, 0)["hideable"])
    assert "D4" not in picks(start)
    step = present(state, 0, "h:B2")
    choices = step.controls.flowers.pick_colour
    assert [c.select for c in choices] == ["h:B2r", "h:B2b", "h:B2y"] and step.controls.flowers.plant_one == []
    step = present(state, 0, "h:B2r")
    assert picks(step)["F6"] == "h:B2rF6" and cells(step)["B2"].autofocus  # the next cell is picked from B2 on
    step = present(state, 0, "h:B2rF6")
    assert [json.loads(c.move) for c in step.controls.flowers.finish] == [
        hide([("B2", "red"), ("F6", colour)]) for colour in ("red", "blue", "yellow")
    ]
    assert cells(step)["B2"].chosen == "red" and "selected as your second cell" in cells(step)["F6"].label
    # Bob, still hiding, sees only his own choice; a spectator has nothing to click.
    assert picks(present(state, 1, "h:B2rF6"))["F6"] == "h:B2r"  # a click on the second cell steps back
    assert picks(present(state, 1, "h:B2rF6"))["C6"] == "h:B2rC6"
    assert picks(present(state, None, "h:B2rF6")) == {} and present(state, None).status.startswith("Both")


def test_planting_offers_the_engines_plantable_cells_and_legal_buttons_only():
    state = engine_state(*HIDDEN, (0, plant(("D5", "red"))))
    view = ENGINE.view(state, 1)
    board = present(state, 1)
    assert set(picks(board)) == set(view["plantable"]) and "D6" in picks(board)
    step = present(state, 1, "p:D6")
    flowers = step.controls.flowers
    assert [c.colour for c in flowers.plant_one] == ["red", "blue", "yellow"]
    assert [c.spoken for c in flowers.plant_one] == [" on D6"] * 3
    step = present(state, 1, "p:D6b")
    assert step.controls.flowers.alone.label == "Plant only blue D6"
    assert "E6" not in picks(step)  # next to D6 only, which is planted this turn (FF-3)
    pairs = present(state, 1, "p:D6bE5").controls.flowers.finish
    assert [json.loads(c.move) for c in pairs] == [plant(("E5", k), ("D6", "blue")) for k in ("red", "blue", "yellow")]


def test_the_board_takes_the_rules_from_the_view_not_from_its_own_reckoning():
    """Which cells may be planted on is the engine's answer (view["plantable"]), never worked out here."""
    state = engine_state(*HIDDEN)
    view = ENGINE.view(state, 0)
    assert set(picks(present(state, 0, view=view))) == {"C4", "D3", "D5", "E4"}
    assert set(picks(present(state, 0, view={**view, "plantable": ["D5"]}))) == {"D5"}
    lives = present(state, 0, view={**view, "lives": [3, 6], "lives_at_start": 5}).players
    assert [p.lives_words for p in lives] == ["3 of 5 lives", "6 lives"]
    assert lives[0].hearts == [True] * 3 + [False] * 2 and lives[1].hearts == [True] * 6


def test_the_challenges_in_the_legal_moves_are_never_read():
    """FF-9: with or without the engine's listed challenges, the board is the same."""
    state = engine_state(*DUPLICATE)
    legal = ENGINE.legal_moves(state, 0)
    assert any(m["type"] == "challenge" for m in legal)
    view = ENGINE.view(state, 0)
    for select in ("", "ca::", "cb:D2D3D4D5:D3D4D5D6"):
        boards = [
            ff_board.present(BoardInput(view, moves, 0, True, NAMES, select))
            for moves in (legal, [m for m in legal if m["type"] != "challenge"])
        ]
        assert boards[0] == boards[1]


def test_a_challenge_is_built_cell_by_cell_with_the_focus_on_the_cell_just_added():
    state = engine_state(*DUPLICATE)
    board = present(state, 0)
    assert board.controls.start_challenge == "ca::" and board.controls.challenge is None
    start = present(state, 0, "ca::")
    assert cells(start)["D6"].autofocus  # the first cell of the last planting
    assert len(picks(start)) == 49 and picks(start)["D2"] == "ca:D2:"
    half = present(state, 0, "ca:D2D3:")
    assert cells(half)["D3"].autofocus and cells(half)["D3"].action == "remove D3 from field A"
    assert cells(half)["D2"].css.split().count("ff-in-a") == 1
    assert picks(present(state, 0, "ca:D2D3D4:"))["D5"] == "cb:D2D3D4D5:"  # A is full: B is next
    full_a = present(state, 0, "ca:D2D3D4D5:")
    assert "A1" not in picks(full_a) and full_a.controls.challenge.switch == "cb:D2D3D4D5:"
    done = present(state, 0, "cb:D2D3D4D5:D3D4D5D6")
    challenge = done.controls.challenge
    assert json.loads(challenge.submit.json) == {
        "type": "challenge",
        "a": ["D2", "D3", "D4", "D5"],
        "b": ["D3", "D4", "D5", "D6"],
    }
    assert challenge.stamp == f"cb:D2D3D4D5:D3D4D5D6@{state['moves']}"
    assert not any(c.autofocus for c in cells(done).values())  # the challenge button has it
    assert done.controls.give_up is not None
    # The stamp of another move count is stale: the selection is dropped.
    assert present(state, 0, f"cb:D2D3D4D5:D3D4D5D6@{state['moves'] - 1}").controls.challenge is None


def test_hidden_flowers_are_the_owners_alone_until_the_end():
    state = engine_state(*DUPLICATE)
    mine = present(state, 0)
    assert [h.words for h in mine.own_hidden] == ["red on B2 (hidden)", "blue on F6 (hidden)"]
    assert cells(mine)["B2"].label == "B2: empty, your hidden red flower (hidden)"
    for seat in (1, None):
        board = present(state, seat)
        assert all(h.cell not in ("B2", "F6") for h in board.own_hidden)
        assert cells(board)["B2"].label == "B2: empty" and cells(board)["B2"].hidden == []
        # The board drawn from a twin (alice's flowers dealt anew) is the same board.
        twin = ENGINE.hidden_twin(state, seat, random.Random(5))
        if seat is None:
            twin["hidden"][1] = state["hidden"][1]
        assert present(twin, seat) == board


def test_a_claim_on_empty_cells_waits_for_the_challenge_challenge():
    state = engine_state(*HIDDEN, (0, plant(("D5", "red"), ("D3", "red"))), (1, plant(("D6", "red"))))
    state, _ = ENGINE.apply(
        state, 0, {"type": "challenge", "a": ["D2", "D3", "D4", "D5"], "b": ["D3", "D4", "D5", "D6"]}
    )
    bob = present(state, 1)
    assert [c.label for c in bob.controls.doubt] == ["Challenge the challenge", "Accept and plant again"]
    assert bob.pending.challenger == "Alice" and bob.pending.empty == "D2"
    assert bob.hint.startswith("Alice challenged naming empty cell D2")
    for seat in (0, 1, None):
        board = present(state, seat)
        assert cells(board)["D2"].in_a and cells(board)["D6"].in_b
        assert board.verdicts[0].announced == "successful" and board.verdicts[0].truth == ""
    assert present(state, 0).controls.doubt == []


def test_the_end_shows_the_winner_every_hidden_flower_and_the_truth():
    state = engine_state(*DUPLICATE)
    state, _ = ENGINE.apply(
        state, 0, {"type": "challenge", "a": ["D2", "D3", "D4", "D5"], "b": ["D3", "D4", "D5", "D6"]}
    )
    state["lives"][1] = 0
    state = ENGINE.apply_timeout(state, 1)[0]
    for seat in (0, 1, None):
        board = present(state, seat)
        assert board.over and board.outcome.reason == "Lost on time"
        assert [[h.words for h in p.flowers] for p in board.hidden_at_end] == [
            ["red on B2 (hidden)", "blue on F6 (hidden)"],
            ["yellow on A7 (hidden)", "yellow on G1 (hidden)"],
        ]
        assert board.verdicts[0].truth == "It was true: the two fields were equal."
        assert picks(board) == {} and board.controls.order == [] and not board.show_controls
    assert present(state, 0).outcome.title == "You win!" and present(state, None).outcome.title == "Alice wins"


def test_a_match_ended_mid_game_shows_everything_and_offers_nothing():
    """ALL-3: a moderator's abort leaves a mid-game state; once it ends, every hidden flower is public."""
    state = engine_state(*DUPLICATE)
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat, ended=True)
        board = ff_board.present(BoardInput(view, [], seat, False, NAMES, "ca::", is_over=True))
        assert board.over and board.own_hidden == [] and board.status == "" and picks(board) == {}
        assert [len(p.flowers) for p in board.hidden_at_end] == [2, 2]
        assert "alice's hidden red flower (hidden)" in cells(board)["B2"].label or seat == 0


def test_a_challenges_small_picture_covers_its_cells():
    cells_, width, height = ff_board._mini_picture(["D2", "D3", "D4", "D5"], ["D3", "D4", "D5", "D6"], {"D4": "yellow"})
    assert (width, height) == (10, 50)
    top = next(c for c in cells_ if c.y == 0)
    assert top.in_b and not top.in_a and top.letter == "?"
    assert next(c for c in cells_ if c.fill == "yellow").letter == "Y"


def test_no_presenter_function_is_longer_than_sixty_lines():
    tree = ast.parse(inspect.getsource(ff_board))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            assert node.end_lineno - node.lineno < 60, node.name


# --- reading pages ---------------------------------------------------------------------------
def page(client: Client, match: Match, select: str = "", htmx: bool = False) -> str:
    url = f"/matches/{match.pk}/" + (f"?select={select}" if select else "")
    response = client.get(url, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
    assert response.status_code == 200
    return response.content.decode()


def buttons(text: str) -> list[dict]:
    return [json.loads(html.unescape(value)) for value in MOVE_BUTTONS.findall(text)]


def links(text: str) -> list[str]:
    return [html.unescape(code) for code in SELECT_LINKS.findall(text)]


CELL_LINKS = re.compile(
    r'<a class="ff-pick" href="/matches/\d+/(?:\?select=([^"#]*))?#ff-field"[^>]*aria-label="([^"]*)"[^>]*>'
    r'<span class="ff-coord">([A-G][1-7])</span></a>'
)


def cell_link(text: str, cell: str) -> tuple[str, str]:
    """(selection, what it does) of the link drawn on `cell`, e.g. ("ca:D2:", "add D2 to field A")."""
    for code, label, name in CELL_LINKS.findall(text):
        if name == cell:
            return html.unescape(code), html.unescape(label).rsplit("; ", 1)[1]
    raise AssertionError(f"no link on {cell}")


def board_part(text: str) -> str:
    """The drawn board only (from the symbols to the end of the form), not the history or chat."""
    return text.split('class="ff-symbols"', 1)[1].split("</form>", 1)[0]


def post(client: Client, match: Match, move: dict, select: str = "", **headers):
    match.refresh_from_db()
    url = f"/matches/{match.pk}/move/" + (f"?select={select}" if select else "")
    return client.post(url, {"version": match.version, "move": json.dumps(move)}, **headers)


# --- setting up matches ----------------------------------------------------------------------
@pytest.fixture
def match(alice, bob):
    """Alice (seat 0) has the advantage."""
    return start_match(alice, [bob], game=GAME, options={"advantage": "0"})


def do(match: Match, user, move: dict) -> None:
    match.refresh_from_db()
    actions.do_move(match.pk, user, match.version, move)
    match.refresh_from_db()


@pytest.fixture
def started(match, alice, bob):
    """Alice plants first; both have hidden their flowers."""
    do(match, alice, {"type": "order", "go": "first"})
    do(match, alice, hide(ALICE_HIDDEN))
    do(match, bob, hide(BOB_HIDDEN))
    return match


@pytest.fixture
def duplicate(started, alice, bob):
    """Bob's planting D6 + D2 makes D2-D5 (R R Y R) equal to D3-D6 (R Y R R); Alice to act."""
    do(started, alice, plant(("D5", "red"), ("D3", "red")))
    do(started, bob, plant(("D6", "red"), ("D2", "red")))
    return started


def viewers(client_for, alice, bob, carol) -> dict[str, Client]:
    return {"alice": client_for(alice), "bob": client_for(bob), "carol": client_for(carol), "anonymous": Client()}


# --- the order and the hiding ----------------------------------------------------------------
def test_the_advantage_player_chooses_first_or_second_with_two_buttons(match, alice, bob, client_for):
    alice_page = page(client_for(alice), match)
    assert buttons(alice_page) == [{"type": "order", "go": "first"}, {"type": "order", "go": "second"}]
    assert buttons(page(client_for(bob), match)) == []
    assert "has the advantage" in page(client_for(bob), match)
    assert post(client_for(alice), match, {"type": "order", "go": "second"}).status_code == 302
    match.refresh_from_db()
    assert match.state["first"] == 1


def test_hiding_two_flowers_through_the_links_and_buttons(match, alice, bob, carol, client_for):
    do(match, alice, {"type": "order", "go": "first"})
    c = client_for(alice)
    start = page(c, match)
    # Any cell but D4 may be picked; no move button yet (10,152 hiding choices are never buttons).
    assert sorted(links(start)) == sorted(f"h:{cell}" for cell in CELLS if cell != "D4")
    assert buttons(start) == []
    step = page(c, match, "h:B2")
    assert {"h:B2r", "h:B2b", "h:B2y"} <= set(links(step)) and buttons(step) == []
    step = page(c, match, "h:B2r")
    assert "h:B2rF6" in links(step) and "h:B2rD4" not in links(step)
    step = page(c, match, "h:B2rF6")
    offered = buttons(step)
    assert len(offered) == 3
    move = next(m for m in offered if m["flowers"][1]["colour"] == "blue")
    assert move == hide([("B2", "red"), ("F6", "blue")])
    assert post(c, match, move).status_code == 302
    match.refresh_from_db()
    assert match.state["hidden"][0] == [
        {"cell": "B2", "colour": "red", "status": "live"},
        {"cell": "F6", "colour": "blue", "status": "live"},
    ]
    # Alice sees hers as hidden flowers; Bob (still hiding), Carol and a visitor see none of them.
    mine = page(c, match)
    assert "your hidden red flower (hidden)" in mine and "Waiting for your opponent" in mine
    for name, client in (("bob", client_for(bob)), ("carol", client_for(carol)), ("anonymous", Client())):
        text = board_part(page(client, match))
        assert "B2: empty" in text and "F6: empty" in text, name
        assert "hidden red" not in text and "ff-hid " not in text and "ff-hid-live" not in text, name


def test_the_cancelled_hidden_flower_message_is_private(match, alice, bob, carol, client_for):
    do(match, alice, {"type": "order", "go": "first"})
    do(match, alice, hide([("B2", "red"), ("F6", "blue")]))
    do(match, bob, hide([("B2", "yellow"), ("C6", "red")]))
    message = "your hidden flower on B2 was cancelled"
    for user in (alice, bob):
        text = page(client_for(user), match)
        assert "Only you see this: " + message in text
        assert "was cancelled: your opponent chose it" in text  # the engine's private log line
    for client in (client_for(carol), Client()):
        text = page(client, match)
        assert "cancelled" not in text.lower()


# --- planting ----------------------------------------------------------------------------------
def test_planting_one_flower_through_a_cell_link_and_a_colour_button(started, alice, bob, client_for):
    c = client_for(alice)
    start = page(c, started)
    # The four cells next to D4 can be planted on; nothing else is clickable; no move buttons.
    assert sorted(links(start)) == ["p:C4", "p:D3", "p:D5", "p:E4"]
    assert buttons(start) == []
    step = page(c, started, "p:D5")
    singles = [m for m in buttons(step) if len(m["flowers"]) == 1]
    assert [m["flowers"][0]["colour"] for m in singles] == ["red", "blue", "yellow"]
    assert {"p:D5r", "p:D5b", "p:D5y"} <= set(links(step))
    assert post(c, started, singles[2]).status_code == 302
    started.refresh_from_db()
    assert started.state["board"]["D5"] == "yellow" and started.state["turn"] == 1
    # The new flower is drawn as the last planting, for everyone.
    for user in (alice, bob):
        assert "D5: yellow flower, planted last turn" in page(client_for(user), started)


def test_planting_two_flowers(started, alice, bob, client_for):
    do(started, alice, plant(("D5", "red")))
    c = client_for(bob)
    step = page(c, started, "p:D6b")
    # D6 blue is chosen: a second cell next to a flower from before this turn (E6 is not: D6 is new).
    second = {code for code in links(step) if code.startswith("p:D6b") and len(code) == 7}
    assert "p:D6bE5" in second and "p:D6bE6" not in second
    assert buttons(step) == [plant(("D6", "blue"))]  # "plant only blue D6"
    step = page(c, started, "p:D6bE5")
    pairs = [m for m in buttons(step) if len(m["flowers"]) == 2]
    assert len(pairs) == 3
    move = next(m for m in pairs if {"cell": "E5", "colour": "red"} in m["flowers"])
    assert post(c, started, move).status_code == 302
    started.refresh_from_db()
    assert started.state["board"]["D6"] == "blue" and started.state["board"]["E5"] == "red"


def test_only_the_player_to_act_gets_links_and_buttons(started, alice, bob, carol, client_for):
    for name, client in viewers(client_for, alice, bob, carol).items():
        text = page(client, started, "p:D5")
        if name == "alice":
            assert links(text) and buttons(text)
        else:
            assert links(text) == [] and buttons(text) == [], name


def test_a_stale_or_strange_selection_is_ignored(started, alice, client_for):
    c = client_for(alice)
    for select in ("p:A1", "p:Z9", "x", "c" * 64, "h:B3", "ca:D4D5:D3D2@0", "p:D5r@999"):
        text = page(c, started, select)
        assert sorted(links(text)) == ["p:C4", "p:D3", "p:D5", "p:E4"], select


# --- challenging -------------------------------------------------------------------------------
def test_no_page_ever_lists_challenges(duplicate, alice, bob, carol, client_for):
    """FF-9: the engine lists the challenges that could be true; no page shows them or hints at them."""
    assert any(m["type"] == "challenge" for m in ENGINE.legal_moves(duplicate.state, 0))
    for client in viewers(client_for, alice, bob, carol).values():
        for select in ("", "ca", "ca:D2D3D4D5:", "ca:D2D3D4D5:D3D4D5"):
            text = page(client, duplicate, select)
            assert '"type":"challenge"' not in text and "&quot;challenge&quot;" not in text
            assert "D2, D3, D4, D5" not in text or "Field A" in text  # only what the player selected


def test_the_challenge_mode_selects_two_fields_cell_by_cell(duplicate, alice, bob, client_for):
    c = client_for(alice)
    text = page(c, duplicate)
    assert "ca::" in links(text)  # "Challenge instead…"
    selection = "ca::"
    steps = [(c, "A") for c in ("D2", "D3", "D4", "D5")] + [(c, "B") for c in ("D3", "D4", "D5", "D6")]
    for cell, field in steps:
        text = page(c, duplicate, selection)
        # Any cell is clickable while the field has room (empty cells may claim hidden flowers).
        assert len(links(text)) >= 49
        selection, action = cell_link(text, cell)
        assert action == f"add {cell} to field {field}"
    # A click on a selected cell takes it out again.
    assert cell_link(page(c, duplicate, selection), "D6") == ("cb:D2D3D4D5:D3D4D5", "remove D6 from field B")
    assert selection == "cb:D2D3D4D5:D3D4D5D6"
    text = page(c, duplicate, selection)
    board = board_part(text)
    assert board.count("ff-tag ff-tag-a") >= 4 and board.count("ff-tag ff-tag-b") >= 4
    assert "D2: red flower, planted last turn, in field A" in board
    assert "D6: red flower, planted last turn, in field B" in board
    offered = [m for m in buttons(text) if m["type"] == "challenge"]
    assert offered == [{"type": "challenge", "a": ["D2", "D3", "D4", "D5"], "b": ["D3", "D4", "D5", "D6"]}]
    assert {"type": "give_up"} in buttons(text)
    response = post(c, duplicate, offered[0], select=selection)
    assert response.status_code == 302
    duplicate.refresh_from_db()
    assert duplicate.state["lives"] == [5, 4] and duplicate.state["redo"]
    # Bob must replant: no challenge mode for him, and the verdict is on everyone's page.
    text = page(client_for(bob), duplicate)
    assert "Successful" in text and "D2, D3, D4, D5" in text
    assert "Undone plantings: you: red D6 and red D2" in text
    assert "plant again (no challenge now)" in text and "ca::" not in links(text)
    assert "Undone plantings: bob: red D6 and red D2" in page(Client(), duplicate)


def test_a_malformed_pair_gets_the_engines_message_keeps_the_selection_and_costs_nothing(duplicate, alice, client_for):
    c = client_for(alice)
    selection = "cb:D2D3D4D5:A1B2C3D3"
    text = page(c, duplicate, selection)
    move = next(m for m in buttons(text) if m["type"] == "challenge")
    # The button posts to the move address with the selection and the version.
    assert f'formaction="/matches/{duplicate.pk}/move/?select={selection}@{duplicate.version}"' in text
    version = duplicate.version
    response = post(c, duplicate, move, select=f"{selection}@{version}", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 400
    assert "A1, B2, C3, D3 is not connected." in body
    assert next(m for m in buttons(body) if m["type"] == "challenge") == move  # still selected
    duplicate.refresh_from_db()
    assert duplicate.version == version and duplicate.state["lives"] == [5, 5]
    # Same cells twice, and a pair missing the last planting: each refused with its own reason.
    for a, b, reason in (
        ("D2D3D4D5", "D5D4D3D2", "The two fields are the same cells"),
        ("A1A2A3A4", "B1B2B3B4", "Neither field holds a flower planted in your opponent"),
    ):
        sel = f"cb:{a}:{b}"
        move = next(m for m in buttons(page(c, duplicate, sel)) if m["type"] == "challenge")
        response = post(c, duplicate, move, select=f"{sel}@{version}", HTTP_HX_REQUEST="true")
        assert response.status_code == 400 and html.escape(reason, quote=True) in response.content.decode()
    duplicate.refresh_from_db()
    assert duplicate.version == version and duplicate.state["lives"] == [5, 5]
    # After a move the stamped selection is stale and dropped.
    do(duplicate, alice, {"type": "give_up"})
    assert buttons(page(c, duplicate, f"{selection}@{version}")) == []


def test_a_claim_on_empty_cells_is_announced_successful_and_its_truth_stays_hidden(
    started, alice, bob, carol, client_for
):
    do(started, alice, plant(("D5", "red"), ("D3", "red")))
    do(started, bob, plant(("D6", "red")))
    # Bob's hidden flowers are far away; Alice claims her hidden B2 (red) makes D2..D5 equal to D3..D6:
    # a bluff (B2 is not in the fields; D2 is empty and holds nothing).
    sel = "cb:D2D3D4D5:D3D4D5D6"
    c = client_for(alice)
    move = next(m for m in buttons(page(c, started, sel)) if m["type"] == "challenge")
    assert post(c, started, move).status_code == 302
    started.refresh_from_db()
    assert started.state["phase"] == "doubt"
    pages = {name: page(client, started) for name, client in viewers(client_for, alice, bob, carol).items()}
    for name, text in pages.items():
        assert "Challenge with empty cells: announced successful" in text, name
        assert "It was true" not in text and "It was false" not in text, name
        assert "ff-tag ff-tag-a" in board_part(text), name  # the pending fields are drawn for all
    assert buttons(pages["bob"]) == [{"type": "challenge_challenge"}, {"type": "accept"}]
    assert buttons(pages["alice"]) == [] and buttons(pages["carol"]) == []
    do(started, bob, {"type": "challenge_challenge"})
    text = page(client_for(carol), started)
    assert "challenged back: successful" in text and "It was false" not in text


# --- hidden information ------------------------------------------------------------------------
def test_own_hidden_flowers_are_drawn_for_their_owner_only(started, alice, bob, carol, client_for):
    pages = {name: board_part(page(client, started)) for name, client in viewers(client_for, alice, bob, carol).items()}
    assert "B2: empty, your hidden red flower (hidden)" in pages["alice"]
    assert "F6: empty, your hidden blue flower (hidden)" in pages["alice"]
    assert "A7: empty, your hidden yellow flower (hidden)" in pages["bob"]
    assert "B2: empty" in pages["bob"] and "your hidden red" not in pages["bob"]
    for name in ("carol", "anonymous"):
        assert "your hidden" not in pages[name] and "ff-hid-live" not in pages[name]


def test_the_opponents_and_spectators_pages_do_not_change_when_the_hidden_flowers_move(
    started, alice, bob, carol, client_for
):
    """Like the audit: Alice's hidden flowers moved elsewhere must not change Bob's or Carol's page."""
    do(started, alice, plant(("D5", "red")))
    clients = {"bob": client_for(bob), "carol": client_for(carol), "anonymous": Client()}
    before = {name: board_part(page(client, started)) for name, client in clients.items()}
    twin = ENGINE.hidden_twin(started.state, 1, random.Random(3))
    twin["hidden"][1] = started.state["hidden"][1]  # Carol's twin: move only Alice's too
    assert twin["hidden"][0] != started.state["hidden"][0]
    Match.objects.filter(pk=started.pk).update(state=twin)
    after = {name: board_part(page(client, started)) for name, client in clients.items()}
    assert after == before


def test_explosions_undone_plantings_and_lives_are_drawn(started, alice, bob, client_for):
    do(started, alice, plant(("D5", "red")))
    do(started, bob, plant(("D6", "blue")))
    do(started, alice, plant(("D7", "red")))
    do(started, bob, plant(("E6", "yellow")))
    do(started, alice, plant(("C5", "blue")))
    do(started, bob, plant(("F6", "red")))  # F6 holds Alice's hidden blue flower
    started.refresh_from_db()
    assert started.state["lives"] == [5, 4]
    text = page(Client(), started)
    assert "F6: red flower, planted last turn, a hidden flower exploded here" in text
    assert '<span class="ff-lives">4 of 5 lives</span>' in text and '<span class="ff-lives">5 of 5 lives</span>' in text
    assert board_part(text).count("ff-life-lost") == 1
    alice_page = page(client_for(alice), started)
    assert "your hidden blue flower (exploded)" in alice_page
    assert "Hidden flowers exploded on F6." in text


# --- every control named by its visible text, every link a plain href too ----------------------------
A_TAGS = re.compile(r"<a\b[^>]*>.*?</a>", re.S)
BUTTONS = re.compile(r"<button\b[^>]*>.*?</button>", re.S)


def spoken_and_visible(tag: str) -> tuple[str, str]:
    """A link's or button's accessible name (its aria-label, else its text) and its visible text."""
    label = re.search(r'aria-label="([^"]*)"', tag.split(">", 1)[0])
    inner = re.sub(r"<svg\b.*?</svg>", "", tag.split(">", 1)[1].rsplit("<", 1)[0], flags=re.S)
    visible = re.sub(r'<span class="sr-only">.*?</span>', "", inner)
    text = html.unescape(re.sub(r"<[^>]+>", "", inner))
    return (html.unescape(label.group(1)) if label else text).strip(), html.unescape(
        re.sub(r"<[^>]+>", "", visible)
    ).strip()


def controls_checked(client: Client, match: Match, selections: list[str]) -> int:
    checked = 0
    for select in selections:
        text = board_part(page(client, match, select))
        for tag in A_TAGS.findall(text) + BUTTONS.findall(text):
            name, visible = spoken_and_visible(tag)
            assert visible and " ".join(visible.split()).lower() in " ".join(name.split()).lower(), tag
            assert "hx-get" not in tag or 'href="/' in tag, tag
            checked += 1
    return checked


def test_every_control_is_named_by_its_visible_text_and_every_link_works_without_javascript(
    match, alice, bob, client_for
):
    do(match, alice, {"type": "order", "go": "first"})
    c = client_for(alice)
    assert controls_checked(c, match, ["", "h:B2", "h:B2r", "h:B2rF6"]) > 4 * 48
    do(match, alice, hide(ALICE_HIDDEN))
    do(match, bob, hide(BOB_HIDDEN))
    do(match, alice, plant(("D5", "red"), ("D3", "red")))
    do(match, bob, plant(("D6", "red"), ("D2", "red")))
    selections = ["", "p:E3", "p:E3r", "p:E3rC3", "ca::", "ca:D2D3:", "cb:D2D3D4D5:D3D4D5D6"]
    assert controls_checked(c, match, selections) > 3 * 49


def test_the_next_control_of_a_step_is_marked_for_the_focus(started, duplicate, alice, client_for):
    c = client_for(alice)
    text = board_part(page(c, duplicate, "ca:D2D3:"))
    assert re.search(r'aria-label="D3: [^"]*; remove D3 from field A" data-autofocus', text)
    text = board_part(page(c, duplicate, "cb:D2D3D4D5:D3D4D5D6"))
    assert text.count("data-autofocus") == 1 and re.search(r'class="primary" data-autofocus>Challenge: A = ', text)
    text = board_part(page(c, duplicate, "p:E3"))
    assert text.count("data-autofocus") == 1 and re.search(r'class="ff-colour" data-autofocus>[^<]*<svg', text)


def test_the_lives_are_read_out_not_only_drawn(started, client_for, alice):
    text = board_part(page(client_for(alice), started))
    hearts = re.findall(r'<p class="ff-hearts">(.*?)</p>', text, re.S)
    assert len(hearts) == 2
    for row in hearts:
        assert '<span class="ff-heart-row" aria-hidden="true">' in row
        assert re.search(r'<span class="ff-lives">5 of 5 lives</span>$', row)


# --- the end -----------------------------------------------------------------------------------
def test_a_finished_match_shows_the_winner_and_every_hidden_flower(started, alice, bob, carol, client_for):
    state = started.state
    state["lives"] = [1, 5]
    Match.objects.filter(pk=started.pk).update(state=state)
    do(started, alice, plant(("D5", "red")))
    do(started, bob, plant(("D6", "blue")))
    do(started, alice, {"type": "give_up"})  # the last life
    assert started.status == Match.Status.FINISHED
    for client in (client_for(carol), Client(), client_for(alice)):
        text = page(client, started)
        assert "bob wins" in text.lower() or "You win!" in text
        assert "out of lives" in text.lower()
        board = board_part(text)
        for cell, colour in ALICE_HIDDEN + BOB_HIDDEN:
            assert f"hidden {colour} flower (hidden)" in board and f"{colour} on {cell} (hidden)" in board
        assert buttons(text) == [] and links(text) == []
    assert "You win!" in page(client_for(bob), started)


def test_a_full_field_offers_pass_and_the_final_challenge(started, alice, bob, client_for):
    state = started.state
    flowers = [
        {"cell": c, "colour": "red"} for c in CELLS if c not in ("D4", "G7") and c not in ("B2", "F6", "A7", "G1")
    ]
    for cell in ("B2", "F6", "A7", "G1"):  # the hidden flowers exploded earlier
        flowers.append({"cell": cell, "colour": "red"})
    state["board"].update({f["cell"]: "red" for f in flowers})
    exploded = ["B2", "F6", "A7", "G1"]
    state["plantings"].append({"seat": 0, "flowers": flowers, "exploded": exploded, "standing": True})
    state["explosions"] = exploded
    for hidden in state["hidden"]:
        for h in hidden:
            h["status"] = "exploded"
    state["lives"] = [3, 3]
    state["last_planter"] = 0
    state["turn"] = 1
    ENGINE.check_invariants(state)
    Match.objects.filter(pk=started.pk).update(state=state)
    do(started, bob, plant(("G7", "blue")))
    assert started.state["phase"] == "final"
    c = client_for(alice)
    text = page(c, started)
    assert "Final challenge" in text and {"type": "pass"} in buttons(text)
    assert not any(m["type"] == "give_up" for m in buttons(text))  # passing is free on a full field
    text = page(c, started, "cb:G4G5G6G7:A1A2A3A4")
    move = next(m for m in buttons(text) if m["type"] == "challenge")
    assert post(c, started, move).status_code == 302  # all red but G7 blue: a false challenge
    started.refresh_from_db()
    assert started.status == Match.Status.FINISHED
    text = page(Client(), started)
    assert "bob wins" in text.lower() and "It was false" in text


# --- the rules page --------------------------------------------------------------------------------
def test_the_rules_page_draws_two_equal_fields(client):
    """The "equal" picture is the tutorial's position before its first challenge: the board shows the
    flowers of both challenged fields, and the engine's own rule finds them equal."""
    text = client.get("/games/doubting-flower-field/rules/").content.decode()
    assert "being built" not in text
    spec = SPECS["doubting-flower-field"]
    at = spec.tutorial.pictures["equal"]
    move = spec.tutorial.steps[at][2].move
    assert move["type"] == "challenge"
    state = tutorials.position(spec.engine, spec.tutorial, at)
    colours = {CELL_INDEX[cell]: colour for cell, colour in state["board"].items()}
    assert fields_equal(colours, [CELL_INDEX[c] for c in move["a"]], [CELL_INDEX[c] for c in move["b"]])
    picture = text.split('id="pic-equal-', 1)[1].split("</figure>", 1)[0]
    for cell in {*move["a"], *move["b"]}:
        assert f"{cell}: {state['board'][cell]} flower" in picture
    for words in ("first or second", "plant again", "two lives", "0 lives", "field is full", "pass", "hidden"):
        assert words in text
