"""The Lizzy Ghosties pages: the drawn table, the decision in turn, what each viewer may see, the end.

Cards are drawn by templates/games/cards/lizzy-card.html, whose frame carries the card's part,
colour, pattern and gold as classes: `drawn_cards()` reads every face-up card of some markup back
from them. Every stack on the table is a <figure id="lg-stack-<seat>-<part>">, so a test can read
one stack's markup and say exactly which cards it shows.
"""

from __future__ import annotations

import html
import json
import random
import re

import pytest

from games import actions
from games.engines.dizzy_cards import PARTS
from games.engines.registry import get_engine
from games.models import Match
from tests.helpers import post_move, start_match, user_to_act

pytestmark = pytest.mark.django_db

GAME = "lizzy-ghosties"
ENGINE = get_engine(GAME)
CARD_CLASSES = re.compile(r'class="lz-card ([^"]*)"')
MOVE_BUTTONS = re.compile(r'name="move" value="([^"]*)"')
PICK_LINKS = re.compile(r'href="\?select=(d[0-9b]{1,2})"')


# --- reading pages ---------------------------------------------------------------------------
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


# --- matches ---------------------------------------------------------------------------------
@pytest.fixture
def match(alice, bob, make_user):
    return start_match(alice, [bob, make_user("dora")], game=GAME)


def users_by_seat(match: Match) -> dict[int, object]:
    return {s.number: s.user for s in match.seats.select_related("user")}


def others(match: Match, mover) -> list:
    return [u for u in users_by_seat(match).values() if u != mover]


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


# --- the player to act, the others, an outsider -----------------------------------------------
def test_the_player_to_act_gets_exactly_the_legal_moves_as_buttons(match, client_for):
    mover = user_to_act(match).user
    seat = match.seats.get(user=mover).number
    legal = ENGINE.legal_moves(match.state, seat)
    offered = buttons(page(client_for(mover), match))
    assert offered, "the player to act must see move buttons"
    assert all(move in legal for move in offered), "a button offers a move the engine refuses"
    assert all(move in offered for move in legal), "a legal move has no button"


def test_moves_sit_on_the_stacks_they_take_from_and_skip_in_the_panel(match, client_for):
    mover = user_to_act(match).user
    seat = match.seats.get(user=mover).number
    text = page(client_for(mover), match)
    pending = ENGINE.view(match.state, seat)["pending"]
    assert pending["kind"] == "pass"
    for move in ENGINE.legal_moves(match.state, seat):
        if move["type"] == "steal":
            where = stack_markup(text, move["from"], move["part"])
        elif move["type"] == "give":
            where = stack_markup(text, seat, move["part"])
        else:
            where = text.split('class="panel lg-decision', 1)[1].split("</section>", 1)[0]
        assert html.escape(json.dumps(move, separators=(",", ":"), sort_keys=True)) in where, move


def test_posting_a_button_of_the_page_moves_the_match(match, client_for):
    mover = user_to_act(match).user
    offered = buttons(page(client_for(mover), match))
    move = next(m for m in offered if m["type"] != "skip")
    response = post_move(client_for(mover), match, move)
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.version == 1 and match.moves.get().payload == move


def test_other_players_and_outsiders_see_no_move_buttons(match, carol, client_for, client):
    mover = user_to_act(match).user
    assert buttons(page(client_for(mover), match))
    for viewer in [*others(match, mover), carol]:
        text = page(client_for(viewer), match)
        assert 'name="move"' not in text and "?select=" not in text
        assert "Now: " in text  # they still see what is being decided
    assert 'name="move"' not in page(client, match)


def test_every_seat_shows_its_top_cards_and_stack_sizes(match, carol, client_for):
    text = page(client_for(carol), match)
    state = match.state
    for seat, stacks in enumerate(state["lizzies"]):
        for part in PARTS:
            markup = stack_markup(text, seat, part)
            assert markup, f"no {part} stack for seat {seat}"
            assert drawn_cards(markup) == [stacks[part][-1]]
            assert f"×{len(stacks[part])}</figcaption>" in markup
    for part in PARTS:
        assert drawn_cards(stack_markup(text, "burn", part)) == [state["burn"][part][-1]]
    assert f"{len(state['side'])} cards, face down" in text


def test_the_pending_prompt_shows_with_names(match, bob, client_for):
    text = page(client_for(bob), match)
    pending = ENGINE.view(match.state, None)["pending"]
    names = {s.number: s.public_name for s in match.seats.all()}
    assert f"{names[pending['seat']]} passes {names[pending['opponent']]}: steal, give or skip." in text
    assert "{p" not in text


def test_a_spectator_sees_no_card_below_a_top(match, carol, client_for, client):
    # Deep stacks first: a few turns in, some stacks hold more cards and some fewer.
    match = play_until(match, lambda m: m.version >= 12, random.Random(3))
    state = match.state
    for viewer in (client_for(carol), client):
        text = page(viewer, match)
        deep = 0
        for seat, stacks in enumerate(state["lizzies"]):
            for part in PARTS:
                markup = stack_markup(text, seat, part)
                if stacks is None:
                    assert markup == ""  # a ghost has a face-down pile, not stacks
                    continue
                expected = stacks[part][-1:]  # the top card only, or nothing
                assert drawn_cards(markup) == expected
                deep += len(stacks[part]) >= 2
        assert deep > 0
        # On the whole page: the tops, the Burn Lizzy's tops and the last drawn card, no more.
        tops = [s[p][-1] for s in state["lizzies"] if s for p in PARTS if s[p]]
        tops += [state["burn"][p][-1] for p in PARTS if state["burn"][p]]
        last = state["last_draw"]
        if last and last["card"]:
            tops.append(last["card"])
        assert sorted(drawn_cards(text)) == sorted(tops)


def test_an_unknown_selection_is_ignored(match, client_for):
    mover = user_to_act(match).user
    assert buttons(page(client_for(mover), match, "?select=d9z")) == buttons(page(client_for(mover), match))


# --- events, ghosts, the showdown, the end ------------------------------------------------------
def test_an_event_shows_its_draw_as_a_card_to_everyone(match, carol, client_for):
    match = play_until(match, lambda m: m.state["last_draw"] and m.state["last_draw"]["card"], random.Random(5))
    last = match.state["last_draw"]
    assert last and last["card"], "no event in this match"
    text = page(client_for(carol), match)
    draw = text.split('class="lg-area lg-last-draw"', 1)[1].split("</section>", 1)[0]
    assert drawn_cards(draw) == [last["card"]]
    assert ("— won." if last["won"] else "— lost.") in draw


def test_the_dicey_variant_draws_three_dice(alice, bob, carol, make_user, client_for):
    match = start_match(alice, [bob, make_user("dora")], game=GAME, options={"dicey": True})
    match = play_until(match, lambda m: m.state["last_draw"] and m.state["last_draw"]["dice"], random.Random(8))
    dice = match.state["last_draw"]["dice"]
    text = page(client_for(carol), match)
    assert text.count('class="lg-die ') == 3
    for part, die in zip(PARTS, dice):
        _, colour, pattern = die.split("-")
        assert f"lg-die-{colour} lg-die-{pattern}" in text
        assert f"{part} die: {colour} {pattern}" in text


def test_a_ghost_picks_a_double_card_by_card(alice, bob, carol, make_user, client_for):
    """A ghost double is chosen on the table: head, then body, then a tail that completes it."""
    match = start_match(alice, [bob, make_user("dora"), make_user("emil")], game=GAME)

    def ghost_with_double(m: Match) -> bool:
        if m.status != Match.Status.ACTIVE:
            return False
        seat = ENGINE.to_act(m.state)[0]
        return any(move["type"] == "ghost_double" for move in ENGINE.legal_moves(m.state, seat))

    rng = random.Random(11)
    for _ in range(10):
        match = play_until(match, ghost_with_double, rng)
        if ghost_with_double(match):
            break
        match = start_match(alice, [bob, make_user(f"x{rng.random()}"[:12]), carol], game=GAME)
    assert ghost_with_double(match), "no ghost double came up"
    seat = ENGINE.to_act(match.state)[0]
    ghost = users_by_seat(match)[seat]
    legal = ENGINE.legal_moves(match.state, seat)
    doubles = [m for m in legal if m["type"] == "ghost_double"]
    c = client_for(ghost)

    def code(source) -> str:
        return "b" if source == "burn" else str(source)

    first = set(PICK_LINKS.findall(page(c, match)))
    assert first == {"d" + code(m["head"]) for m in doubles}
    pick = sorted(first)[0]
    second = set(PICK_LINKS.findall(page(c, match, f"?select={pick}")))
    assert second == {pick + code(m["body"]) for m in doubles if "d" + code(m["head"]) == pick}
    pick2 = sorted(second)[0]
    text = page(c, match, f"?select={pick2}")
    assert not PICK_LINKS.findall(text)
    completing = {json.dumps(m, sort_keys=True) for m in buttons(text) if m["type"] == "ghost_double"}
    # The list in words holds every double; the table's tail buttons only those picked so far.
    on_table = [m for m in buttons(text.split('class="lg-table', 1)[1]) if m["type"] == "ghost_double"]
    assert on_table and all(code(m["head"]) + code(m["body"]) == pick2[1:] for m in on_table)
    assert completing == {json.dumps(m, sort_keys=True) for m in doubles}
    response = post_move(c, match, on_table[0])
    assert response.status_code == 302


def test_a_finished_match_shows_the_winning_team(match, carol, client_for):
    match = play_until(match, lambda m: False, random.Random(21))
    assert match.status == Match.Status.FINISHED
    result = match.state["result"]
    names = {s.number: s.public_name for s in match.seats.all()}
    text = page(client_for(carol), match)
    if result["draw"]:
        assert '<h2 id="lg-result-title">A draw</h2>' in text
    else:
        team = "Lizzies" if result["winners"] == result["lizzies"] else "Ghosties"
        headline = text.split('<h2 id="lg-result-title">', 1)[1].split("</h2>", 1)[0]
        assert headline.startswith(f"Team {team} wins: ")
        for seat in result["winners"]:
            assert names[seat] in headline
    assert 'name="move"' not in text
    assert "Every card, revealed after the end" in text  # ALL-3: everything is public now


def test_the_showdown_shows_teams_and_team_turns(alice, bob, carol, make_user, client_for):
    match = start_match(alice, [bob, make_user("dora"), make_user("emil")], game=GAME)
    rng = random.Random(2)
    for _ in range(10):
        match = play_until(match, lambda m: m.state["phase"] == "showdown", rng)
        if match.state["phase"] == "showdown":
            break
        match = start_match(alice, [bob, make_user(f"y{rng.random()}"[:12]), carol], game=GAME)
    assert match.state["phase"] == "showdown", "no showdown came up"
    names = {s.number: s.public_name for s in match.seats.all()}
    text = page(client_for(alice), match)
    lizzies = match.state["showdown"]["lizzies"]
    assert "Showdown" in text and "Team turn " in text
    assert "Team Lizzies: " + " and ".join(names[s] for s in sorted(lizzies)) in text


def test_the_rules_page_explains_the_game_and_the_table_rules(client):
    text = client.get(f"/games/{GAME}/rules/").content.decode()
    for words in ("Burn Lizzy", "side stack", "ghost", "showdown", "Dicey", "Table rules", "On this site"):
        assert words in text
