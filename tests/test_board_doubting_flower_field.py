"""The Doubting Flower Field pages: hiding, planting and challenging by clicking cells, what each viewer
sees (own hidden flowers only, FF-2 / ALL-3), and that no page ever lists challenges (FF-9).

Moves are made the way a player makes them: follow the links a page offers (`?select=...`), then post
the JSON of a button found on the page.
"""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

import pytest
from django.test import Client

from games import actions
from games.engines.flower_field.fields import CELL_INDEX, CELLS, fields_equal
from games.engines.registry import get_engine
from games.models import Match
from tests.helpers import start_match

pytestmark = pytest.mark.django_db

GAME = "doubting-flower-field"
ENGINE = get_engine(GAME)
MOVE_BUTTONS = re.compile(r'name="move" value="([^"]*)"')
SELECT_LINKS = re.compile(r'href="/matches/\d+/\?select=([^"#]*)#ff-field"')
ROOT = Path(__file__).resolve().parents[1]


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


CELL_LINKS = re.compile(r'href="/matches/\d+/\?select=([^"#]*)#ff-field"[^>]*aria-label="([^"]*)"')


def cell_link(text: str, cell: str) -> tuple[str, str]:
    """(selection, what it does) of the link drawn on `cell`, e.g. ("ca:D2:", "add D2 to field A")."""
    for code, label in CELL_LINKS.findall(text):
        action = html.unescape(label).split(". ", 1)[0]
        if action.split()[1] == cell:
            return html.unescape(code), action
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


def hide(flowers: list[tuple[str, str]]) -> dict:
    return {"type": "hide", "flowers": [{"cell": c, "colour": k} for c, k in flowers]}


def plant(*flowers: tuple[str, str]) -> dict:
    return {"type": "plant", "flowers": [{"cell": c, "colour": k} for c, k in flowers]}


ALICE_HIDDEN = [("B2", "red"), ("F6", "blue")]
BOB_HIDDEN = [("A7", "yellow"), ("G1", "yellow")]


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
    assert 'aria-label="4 of 5 lives"' in text and 'aria-label="5 of 5 lives"' in text
    assert board_part(text).count("ff-life-lost") == 1
    alice_page = page(client_for(alice), started)
    assert "your hidden blue flower (exploded)" in alice_page
    assert "Hidden flowers exploded on F6." in text


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
    text = client.get("/games/doubting-flower-field/rules/").content.decode()
    assert "being built" not in text
    cells = re.findall(r'data-cell="([A-G][1-7])" data-colour="(\w+)"(?: data-field="(\w+)")?', text)
    colours = {CELL_INDEX[c]: k for c, k, _ in cells}
    a = [CELL_INDEX[c] for c, _, f in cells if "a" in f]
    b = [CELL_INDEX[c] for c, _, f in cells if "b" in f]
    assert len(a) == 4 and len(b) == 4 and set(a) != set(b)
    assert fields_equal(colours, a, b)
    for words in ("first or second", "plant again", "two lives", "0 lives", "field is full", "pass", "hidden"):
        assert words in text
