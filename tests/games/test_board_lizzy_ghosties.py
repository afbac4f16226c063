"""The Lizzy Ghosties board: its presenter from engine states (games/engines/lizzy_ghosties/board.py) and the
page its template draws (jinja2_templates/games/lizzy-ghosties/board.html).

The presenter tests play random games through the engine alone and look at the typed sections; the page
tests go through the real actions and the Django test client. Every stack on the page is a
<figure id="lg-stack-<seat|burn>-<part>">, and every card drawn has the classes
"lz-card lz-<part> lz-<colour> lz-<pattern>", so a test can say exactly which cards a page shows where.
"""

from __future__ import annotations

import dataclasses
import html
import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games import actions
from games.engines.dizzy_cards import DECK, PARTS
from games.engines.lizzy_card import LizzyCard
from games.engines.lizzy_ghosties import ENGINE
from games.engines.lizzy_ghosties.board import LAYOUT, Board, Control, Stack, present
from games.engines.spec import BoardInput, move_json
from games.models import Match
from tests.helpers import post_move, start_match, user_to_act

GAME = "lizzy-ghosties"
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
CARD_CLASSES = re.compile(r'class="lz-card ([^"]*)"')
MOVE_BUTTONS = re.compile(r'name="move" value="([^"]*)"')
PICK_LINKS = re.compile(r'href="\?select=(d[0-9b]{1,2})"')

State = dict[str, Any]


# --- the presenter, from engine states ---------------------------------------------------------------


def playout(players: int, seed: int, done: Callable[[State], bool], options: dict | None = None) -> State | None:
    """A random game through the engine until done(state); None when it ended first."""
    rng = random.Random(seed)
    state = ENGINE.new_state(players, ENGINE.parse_options(options or {}, players), seed)
    while ENGINE.result(state) is None:
        if done(state):
            return state
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state if done(state) else None


def find(done: Callable[[State], bool], players: int = 4, options: dict | None = None) -> State:
    for seed in range(200):
        state = playout(players, seed, done, options)
        if state is not None:
            return state
    raise AssertionError("no game came to that position")


def acting(state: State) -> int:
    return ENGINE.to_act(state)[0]


def board_for(state: State, seat: int | None, select: str = "") -> Board:
    """What present() makes of the view of `seat` (None: a spectator), as the site calls it."""
    to_act = seat is not None and seat in ENGINE.to_act(state)
    return present(
        BoardInput(
            view=ENGINE.view(state, seat),
            legal=ENGINE.legal_moves(state, seat) if to_act else [],
            seat=seat,
            my_turn=to_act,
            names=NAMES[: state["players"]],
            select=select,
            is_over=ENGINE.result(state) is not None,
        )
    )


def walk(value: Any) -> Iterator[Any]:
    """Every object inside a board's sections."""
    yield value
    if dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            yield from walk(getattr(value, field.name))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from walk(item)


def stacks_of(board: Board) -> list[Stack]:
    return [item for item in walk(board) if isinstance(item, Stack)]


def controls_of(board: Board) -> list[Control]:
    return [control for stack in stacks_of(board) for control in stack.controls]


def stack(board: Board, id: str) -> Stack:
    return next(s for s in stacks_of(board) if s.id == id)


def cards_shown(board: Board) -> list[str]:
    return [item.name for item in walk(board) if isinstance(item, LizzyCard) and not item.back]


def test_the_player_to_act_gets_every_legal_move_and_nothing_else():
    for players in (3, 5, 8):
        state = find(lambda s, n=players: s["turns_taken"] >= n, players)
        seat = acting(state)
        legal = {move_json(m) for m in ENGINE.legal_moves(state, seat)}
        board = board_for(state, seat)
        assert {c.json for c in board.decision.choices} == legal
        on_table = {c.json for c in controls_of(board) if c.json}
        skip = {board.decision.skip.json} if board.decision.skip else set()
        assert on_table | skip <= legal
        # Every move but a ghost double (picked card by card) has its button on a stack.
        assert on_table | skip == {m for m in legal if '"ghost_double"' not in m}
        assert board.decision.mine and board.decision.hint


def test_each_move_sits_on_the_stack_its_card_leaves():
    state = find(lambda s: s["step"]["kind"] == "lizzy" and s["step"]["event"] is None)
    seat = acting(state)
    board = board_for(state, seat)
    for move in ENGINE.legal_moves(state, seat):
        if move["type"] == "skip":
            assert board.decision.skip.json == move_json(move)
            continue
        owner = seat if move["type"] == "give" else move["from"]
        assert move_json(move) in [c.json for c in stack(board, f"{owner}-{move['part']}").controls]


def test_others_see_the_decision_but_no_control():
    state = find(lambda s: s["turns_taken"] >= 2)
    seat = acting(state)
    for viewer in [None, *(s for s in range(4) if s != seat)]:
        board = board_for(state, viewer)
        assert not controls_of(board)
        assert not board.decision.mine and not board.decision.choices and board.decision.hint == ""
        assert NAMES[seat] in board.decision.prompt and "{p" not in board.decision.prompt


def test_a_board_shows_the_top_cards_and_nothing_below_them():
    state = find(lambda s: s["turns_taken"] >= 6 and s["phase"] != "over", 5)
    tops = [s[p][-1] for s in state["lizzies"] if s for p in PARTS if s[p]]
    tops += [state["burn"][p][-1] for p in PARTS if state["burn"][p]]
    if state["last_draw"] and state["last_draw"]["card"]:
        tops.append(state["last_draw"]["card"])
    for viewer in (None, 0, acting(state)):
        board = board_for(state, viewer)
        assert sorted(cards_shown(board)) == sorted(tops)
        for seat, stacks in enumerate(state["lizzies"]):
            for part in PARTS:
                if stacks is not None:
                    assert stack(board, f"{seat}-{part}").size == len(stacks[part])
        assert board.middle.side_count == f"{len(state['side'])} cards"


def test_the_viewer_sits_at_the_bottom_and_every_seat_has_its_own_place():
    for players in LAYOUT:
        state = ENGINE.new_state(players, ENGINE.parse_options({}, players), players)
        for viewer in (None, players - 1):
            seats = board_for(state, viewer).seats
            assert sorted(s.seat for s in seats) == list(range(players))
            assert len({(s.row, s.column) for s in seats}) == players and (2, 2) not in {
                (s.row, s.column) for s in seats
            }
            assert (seats[0].seat, seats[0].row, seats[0].column) == (viewer or 0, 3, 2)


def test_what_a_move_sets_off_comes_from_the_engine():
    """ "(a double: a new event)" is said of exactly the moves the engine's move_effects name, and those
    moves do start an event when played."""
    state = find(lambda s: any(e["effect"] == "event" for e in ENGINE.view(s, acting(s))["move_effects"]))
    seat = acting(state)
    view = ENGINE.view(state, seat)
    effects = {move_json(e["move"]): e["effect"] for e in view["move_effects"]}
    for choice in board_for(state, seat).decision.choices:
        assert ("(a double: a new event)" in choice.label) == (effects.get(choice.json) == "event"), choice
    for move in ENGINE.legal_moves(state, seat):
        if move["type"] in ("steal", "burn"):
            _, logs = ENGINE.apply(state, seat, move)
            started = any("is a double with" in entry["text"] for entry in logs)
            assert started == (effects.get(move_json(move)) == "event"), move


def test_a_ghost_picks_a_double_card_by_card():
    def ghost_with_double(s: State) -> bool:
        return any(m["type"] == "ghost_double" for m in ENGINE.legal_moves(s, acting(s)))

    state = find(ghost_with_double, 5)
    seat = acting(state)
    doubles = [m for m in ENGINE.legal_moves(state, seat) if m["type"] == "ghost_double"]

    def code(source) -> str:
        return "b" if source == "burn" else str(source)

    board = board_for(state, seat)
    heads = {c.select for c in controls_of(board) if c.select}
    assert heads == {"d" + code(m["head"]) for m in doubles}
    assert [c for c in controls_of(board) if c.focus] == [controls_of(board)[0]]
    pick = sorted(heads)[0]
    board = board_for(state, seat, pick)
    assert stack(board, f"{pick[1:]}-head").picked and board.decision.picking
    bodies = {c.select for c in controls_of(board) if c.select}
    assert bodies == {pick + code(m["body"]) for m in doubles if "d" + code(m["head"]) == pick}
    focused = [c for c in controls_of(board) if c.focus]
    assert len(focused) == 1 and focused[0].select in bodies  # the next card of the double, not a steal
    pick2 = sorted(bodies)[0]
    board = board_for(state, seat, pick2)
    tails = [c for c in controls_of(board) if c.json and '"ghost_double"' in c.json]
    expected = {move_json(m) for m in doubles if code(m["head"]) + code(m["body"]) == pick2[1:]}
    assert {c.json for c in tails} == expected and not any(c.select for c in controls_of(board))
    assert all(c.short == "Grab the double" and "(a double: a new event)" in c.rest for c in tails)
    # A selection that begins no legal double is ignored.
    assert board_for(state, seat, "d9z") == board_for(state, seat) == board_for(state, seat, "d" + pick2[1:] + "0")


def test_exactly_one_control_takes_the_focus_and_only_for_the_player_to_act():
    state = find(lambda s: s["turns_taken"] >= 3, 3)
    seat = acting(state)
    focused = [c for c in controls_of(board_for(state, seat)) if c.focus]
    assert len(focused) == 1
    for viewer in (None, (seat + 1) % 3):
        assert not any(c.focus for c in controls_of(board_for(state, viewer)))


def test_an_event_shows_its_draw_and_its_attempts():
    state = find(lambda s: s["step"] is not None and s["step"]["event"] is not None and s["last_draw"]["card"])
    board = board_for(state, None)
    draw = board.middle.draw
    assert draw.card.name == state["last_draw"]["card"] and not draw.dice
    assert draw.text.endswith("— won." if state["last_draw"]["won"] else "— lost.")
    assert board.decision.draw_text == draw.text
    event = state["step"]["event"]
    if event["won"]:
        assert [s.seat for s in board.seats if s.target] == event["targets"][:1]


def test_the_dicey_variant_throws_three_dice():
    state = find(lambda s: s["last_draw"] is not None and s["last_draw"]["dice"], 3, {"dicey": True})
    board = board_for(state, 1)
    dice = board.middle.draw.dice
    assert board.middle.draw_title == "Last dice throw" and board.status.dicey
    assert [d.words for d in dice] == [
        f"{part} die: {' '.join(die.split('-')[1:])}" for part, die in zip(PARTS, state["last_draw"]["dice"])
    ]


def test_the_showdown_shows_teams_and_team_turns():
    state = find(lambda s: s["phase"] == "showdown", 5)
    board = board_for(state, None)
    lizzies = sorted(state["showdown"]["lizzies"])
    assert board.status.teams.startswith("Team Lizzies: " + " and ".join(NAMES[s] for s in lizzies))
    assert board.status.showdown.startswith(f"Team turn {state['showdown']['team_turns'] + 1} of at most ")
    assert {s.seat for s in board.seats if s.team == "Lizzies"} == set(lizzies)


def test_the_end_shows_the_winners_and_every_card():
    state = find(lambda s: s["phase"] == "over", 4)
    result = state["result"]
    board = board_for(state, 2)
    assert board.decision is None and not controls_of(board)
    if result["draw"]:
        assert board.outcome.headline == "A draw"
    else:
        team = "Lizzies" if result["winners"] == result["lizzies"] else "Ghosties"
        assert board.outcome.headline.startswith(f"Team {team} wins: ")
    assert [r.cards for r in board.outcome.rows] == result["cards"]
    revealed = [card.name for group in board.revealed for strip in group.strips for card in strip.cards]
    assert sorted(revealed) == sorted(DECK)  # ALL-3: everything is public after the end


def test_presenter_functions_are_short():
    import inspect

    from games.engines.lizzy_ghosties import board

    for name, function in inspect.getmembers(board, inspect.isfunction):
        if function.__module__ == board.__name__:
            assert len(inspect.getsource(function).splitlines()) <= 60, name


# --- the page ------------------------------------------------------------------------------------------


def page(client, match: Match, query: str = "") -> str:
    response = client.get(f"/matches/{match.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def drawn_cards(text: str) -> list[str]:
    """Every face-up card drawn in `text`, as card names; face-down backs are left out."""
    names = []
    for classes in CARD_CLASSES.findall(text):
        bits = classes.split()
        if "lz-back" in bits:
            continue
        part, colour, pattern = (b[3:] for b in bits[:3])
        names.append(f"{part}-{colour}-{pattern}" + ("-gold" if "lz-golden" in bits else ""))
    return names


def buttons(text: str) -> list[dict]:
    return [json.loads(html.unescape(value)) for value in MOVE_BUTTONS.findall(text)]


def stack_markup(text: str, owner: int | str, part: str) -> str:
    """One stack's <figure> on the table; '' when the page has none."""
    marker = f'id="lg-stack-{owner}-{part}"'
    if marker not in text:
        return ""
    return text.split(marker, 1)[1].split("</figure>", 1)[0]


@pytest.fixture
def match(db, alice, bob, make_user):
    return start_match(alice, [bob, make_user("dora")], game=GAME)


def users_by_seat(match: Match) -> dict[int, object]:
    return {s.number: s.user for s in match.seats.select_related("user")}


def play_until(match: Match, done, rng: random.Random, limit: int = 5000) -> Match:
    """Random legal moves through the real actions until done(match) or the end."""
    users = users_by_seat(match)
    for _ in range(limit):
        match.refresh_from_db()
        if done(match) or match.status != Match.Status.ACTIVE:
            return match
        seat = ENGINE.to_act(match.state)[0]
        actions.do_move(match.pk, users[seat], match.version, rng.choice(ENGINE.legal_moves(match.state, seat)))
    raise AssertionError("the match did not get there")


@pytest.mark.django_db
def test_the_page_offers_the_player_to_act_exactly_the_legal_moves(match, client_for):
    mover = user_to_act(match).user
    seat = match.seats.get(user=mover).number
    legal = ENGINE.legal_moves(match.state, seat)
    text = page(client_for(mover), match)
    offered = buttons(text)
    assert all(move in legal for move in offered) and all(move in offered for move in legal)
    for move in legal:
        if move["type"] == "steal":
            assert move in buttons(stack_markup(text, move["from"], move["part"])), move
        elif move["type"] == "give":
            assert move in buttons(stack_markup(text, seat, move["part"])), move
    assert text.count("data-autofocus") == 1
    response = post_move(client_for(mover), match, next(m for m in offered if m["type"] != "skip"))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.version == 1


@pytest.mark.django_db
def test_the_page_shows_others_the_decision_with_names_and_no_control(match, carol, client_for, client):
    mover = user_to_act(match).user
    pending = ENGINE.view(match.state, None)["pending"]
    names = {s.number: s.public_name for s in match.seats.all()}
    for viewer in [client_for(u) for u in users_by_seat(match).values() if u != mover] + [client_for(carol), client]:
        text = page(viewer, match)
        assert 'name="move"' not in text and "?select=" not in text and "data-autofocus" not in text
        assert f"Now: {names[pending['seat']]} passes {names[pending['opponent']]}: steal, give or skip." in text
        assert "{p" not in text


@pytest.mark.django_db
def test_the_page_shows_top_cards_and_sizes_and_nothing_below(match, carol, client_for, client):
    match = play_until(match, lambda m: m.version >= 12, random.Random(3))
    state = match.state
    for viewer in (client_for(carol), client):
        text = page(viewer, match)
        for seat, stacks in enumerate(state["lizzies"]):
            for part in PARTS:
                markup = stack_markup(text, seat, part)
                if stacks is None:
                    assert markup == ""  # a ghost has a face-down pile, not stacks
                    continue
                assert drawn_cards(markup) == stacks[part][-1:]
                assert f"×{len(stacks[part])}</figcaption>" in markup
        for part in PARTS:
            assert drawn_cards(stack_markup(text, "burn", part)) == state["burn"][part][-1:]
        assert f"{len(state['side'])} cards, face down" in text


@pytest.mark.django_db
def test_the_page_is_accessible_by_construction(match, client_for):
    """Every control says its visible text first (no aria-label to hide it), every HTMX link has an href,
    every section of the board is labelled."""
    mover = user_to_act(match).user
    text = page(client_for(mover), match)
    board = text.split('<div class="lg">', 1)[1].split("</form>", 1)[0]
    for tag in re.findall(r"<(?:button|a)\b[^>]*>", board):
        assert "aria-label" not in tag, tag
        if "hx-get" in tag:
            assert 'href="' in tag, tag
    for tag in re.findall(r"<section\b[^>]*>", board):
        assert "aria-labelledby" in tag, tag
    assert 'role="' not in board


@pytest.mark.slow
@pytest.mark.django_db
def test_the_ghost_double_links_lead_to_the_double(alice, bob, make_user, client_for):
    """A ghost double is picked on the table, one card a page; the last button grabs it."""
    match = start_match(alice, [bob, make_user("dora"), make_user("emil"), make_user("fred")], game=GAME)

    def ghost_with_double(m: Match) -> bool:
        return m.status == Match.Status.ACTIVE and any(
            move["type"] == "ghost_double" for move in ENGINE.legal_moves(m.state, ENGINE.to_act(m.state)[0])
        )

    rng = random.Random(11)
    for attempt in range(10):
        match = play_until(match, ghost_with_double, rng)
        if ghost_with_double(match):
            break
        others = [make_user(f"u{attempt}{n}") for n in range(4)]
        match = start_match(alice, others, game=GAME)
    assert ghost_with_double(match), "no ghost double came up"
    ghost = users_by_seat(match)[ENGINE.to_act(match.state)[0]]
    c = client_for(ghost)
    pick = sorted(set(PICK_LINKS.findall(page(c, match))))[0]
    pick2 = sorted(set(PICK_LINKS.findall(page(c, match, f"?select={pick}"))))[0]
    text = page(c, match, f"?select={pick2}")
    assert "Start the double again" in text and not PICK_LINKS.findall(text)
    on_table = [m for m in buttons(text.split('class="lg-table', 1)[1]) if m["type"] == "ghost_double"]
    assert on_table
    assert post_move(c, match, on_table[0]).status_code == 302


def match_at_a_roll(alice, bob, make_user) -> Match:
    """A running dicey match whose last draw rolled the dice. Its seed is the site's own, and some
    deals end before any draw rolls them (1 in 12 and 1 in 6 of the tries seen): those are dealt again."""
    for deal in range(10):
        match = start_match(alice, [bob, make_user(f"dora{deal}")], game=GAME, options={"dicey": True})
        match = play_until(match, lambda m: m.state["last_draw"] and m.state["last_draw"]["dice"], random.Random(8))
        if match.status == Match.Status.ACTIVE:
            return match
    raise AssertionError("ten deals ended before any draw rolled the dice")


@pytest.mark.slow
@pytest.mark.django_db
def test_the_page_draws_the_dice_and_the_end(alice, bob, carol, make_user, client_for):
    match = match_at_a_roll(alice, bob, make_user)
    text = page(client_for(carol), match)
    assert text.count('class="lg-die ') == 3
    for part, die in zip(PARTS, match.state["last_draw"]["dice"]):
        _, colour, pattern = die.split("-")
        assert f"lg-die-{colour} lg-die-{pattern}" in text and f"{part} die: {colour} {pattern}" in text
    match = play_until(match, lambda m: False, random.Random(21))
    assert match.status == Match.Status.FINISHED
    text = page(client_for(carol), match)
    assert '<h2 id="lg-result-title">' in text and 'name="move"' not in text
    assert "Every card, revealed after the end" in text
    assert sorted(drawn_cards(text.split('class="panel lg-revealed"', 1)[1])) == sorted(DECK)


@pytest.mark.django_db
def test_the_rules_page_explains_the_game_and_the_table_rules(client):
    text = client.get(f"/games/{GAME}/rules/").content.decode()
    for words in ("Burn Lizzy", "side stack", "ghost", "showdown", "Dicey", "Table rules", "On this site"):
        assert words in text


def test_the_rules_never_speak_of_two_players_resigning(client):
    """Lizzy Ghosties is for three to eight: its rules say what a resignation does then, in both languages."""
    english = client.get("/games/lizzy-ghosties/rules/").content.decode()
    assert "with two\n  players" not in english and "with two players" not in english
    assert "a normal bot plays your\n  seat to the end" in english
    dutch = client.get("/games/lizzy-ghosties/rules/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "met\n  twee spelers" not in dutch and "er speelt" in dutch
    assert "with two\n  players the match ends" in client.get("/games/dizzy-duo-battle/rules/").content.decode()
