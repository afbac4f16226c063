"""The Dizzy Duo Battle pages: the drawn hand, the piles, battles and what each viewer may see.

Cards are drawn by templates/games/cards/lizzy-card.html, whose frame carries the card's part,
colour, pattern and gold as classes: `drawn_cards()` reads every face-up card of a page back from
them, so a test can say exactly which cards a page shows.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter

import pytest

from games import actions
from games.boards.lizzy_cards import SHAPES, CardArt, card_art
from games.engines import dizzy_cards
from games.engines.registry import get_engine
from games.models import Match
from tests.helpers import post_move, start_match, user_to_act

pytestmark = pytest.mark.django_db

GAME = "dizzy-duo-battle"
ENGINE = get_engine(GAME)
CARD_CLASSES = re.compile(r'class="lz-card ([^"]*)"')
MOVE_BUTTONS = re.compile(r'name="move" value="([^"]*)"')


# --- reading pages ---------------------------------------------------------------------------
def page(client, match: Match) -> str:
    response = client.get(f"/matches/{match.pk}/")
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


def mentions(text: str, card: str) -> bool:
    """Does `text` name `card` in words, in its text or its attributes (aria-labels)? A plain card's
    words are inside its golden twin's ("golden blue stripes body"), which does not count."""
    # Tags become their attribute values, then whitespace collapses: "★ golden</strong> blue ..."
    # reads "★ golden blue ...".
    flat = re.sub(r"<[^>]*>", lambda m: " " + " ".join(re.findall(r'="([^"]*)"', m.group(0))) + " ", text)
    flat = re.sub(r"\s+", " ", html.unescape(flat))
    words = re.escape(dizzy_cards.describe(card))
    return re.search(words if card.endswith("-gold") else f"(?<!golden ){words}", flat) is not None


def backs(text: str) -> int:
    return sum("lz-back" in classes.split() for classes in CARD_CLASSES.findall(text))


def buttons(text: str) -> list[dict]:
    return [json.loads(html.unescape(value)) for value in MOVE_BUTTONS.findall(text)]


def block(text: str, marker: str, end: str = "</section>") -> str:
    """The markup from `marker` (e.g. 'class="panel ddb-hand"') to the next `end`; '' if absent."""
    if marker not in text:
        return ""
    return text.split(marker, 1)[1].split(end, 1)[0]


# --- setting up matches ----------------------------------------------------------------------
@pytest.fixture
def match(alice, bob):
    return start_match(alice, [bob], game=GAME)


def mover_and_other(match: Match, alice, bob):
    mover = user_to_act(match).user
    return mover, (bob if mover == alice else alice)


def seat_number(match: Match, user) -> int:
    return match.seats.get(user=user).number


def give(match: Match, seat: int, hand: list[str], turns: int | None = None, blind_top: str = "") -> None:
    """Rig the saved state: `seat` holds `hand` (its old cards go to the blind pile), every player has
    had `turns` turns, `blind_top` is drawn next. The 54 cards stay one each in one place."""
    state = match.state
    wanted = hand + ([blind_top] if blind_top else [])
    pool = Counter(state["blind"])
    pool.update(state["hands"][seat])

    def spare() -> str:
        card = next(c for c in pool.elements() if c not in wanted)
        pool[card] -= 1
        return card

    for card in wanted:
        if pool[card]:
            pool[card] -= 1
            continue
        # Fetch it from another player's hand or the open pile, where a spare card takes its place.
        for other, other_hand in enumerate(state["hands"]):
            if other != seat and card in other_hand:
                other_hand[other_hand.index(card)] = spare()
                state["hands"][other] = dizzy_cards.sort_cards(other_hand)
                break
        else:
            state["open"][state["open"].index(card)] = spare()
    state["hands"][seat] = dizzy_cards.sort_cards(hand)
    state["blind"] = list(pool.elements()) + ([blind_top] if blind_top else [])
    if turns is not None:
        state["turns"] = [turns] * state["players"]
        state["history"] = [
            {"seat": s, "from": "blind", "took": state["open"][-1], "discarded": state["open"][-1]}
            for s in range(state["players"])
            for _ in range(turns)
        ]
    ENGINE.check_invariants(state)
    match.save(update_fields=["state"])


def play_until(match: Match, users: dict[int, object], done, limit: int = 3000) -> Match:
    """Play through the real actions (attack as soon as it is legal) until done(match)."""
    for _ in range(limit):
        match.refresh_from_db()
        if done(match) or match.status != Match.Status.ACTIVE:
            return match
        seat = ENGINE.to_act(match.state)[0]
        legal = ENGINE.legal_moves(match.state, seat)
        move = next((m for m in legal if m["type"] == "attack"), legal[0])
        actions.do_move(match.pk, users[seat], match.version, move)
    raise AssertionError("the match did not get there")


# A hand with two Lizzies: all red with patterns all different (power 2) and all blue, all dots
# (power 3), bonus +1 for both "colours same": 2 + 3 + 1 = 6.
DUO_HAND = [
    "head-blue-dots",
    "body-blue-dots",
    "tail-blue-dots",
    "head-red-dots-gold",
    "body-red-stripes",
    "tail-red-diamonds",
]
# No two Lizzies can be made from this: three heads, two bodies, one tail.
ONE_LIZZY_HAND = [
    "head-blue-dots",
    "head-red-stripes",
    "head-purple-diamonds",
    "body-blue-dots",
    "body-red-dots",
    "tail-blue-dots",
]


# --- the card art ----------------------------------------------------------------------------
def test_card_art_gives_three_shapes_words_and_gold():
    assert len(set(SHAPES.values())) == 3
    art = card_art("tail-purple-diamonds-gold", "x1")
    assert art["part"] == "tail" and art["pattern"] == "diamonds" and art["golden"]
    assert art["label"] == "golden purple diamonds tail"
    plain = card_art("head-blue-dots", "x2")
    assert not plain["golden"] and plain["eye"] and plain["label"] == "blue dots head"
    numbering = CardArt()
    uids = [numbering.card(c)["uid"] for c in dizzy_cards.DECK] + [numbering.back()["uid"]]
    assert len(set(uids)) == len(uids)  # every card its own pattern id


def test_the_card_include_draws_svg_with_its_own_pattern_and_label():
    from django.template.loader import render_to_string

    numbering = CardArt()
    text = render_to_string(
        "games/cards/lizzy-card.html", {"card": numbering.card("body-blue-stripes-gold")}
    ) + render_to_string("games/cards/lizzy-card.html", {"card": numbering.back()})
    assert text.count("<svg") == 2
    assert '<pattern id="lz1"' in text and 'fill="url(#lz1)"' in text
    assert "lz-golden" in text and "★ golden" in text and "blue stripes body" in text
    assert "a face-down card" in text and drawn_cards(text) == ["body-blue-stripes-gold"]


# --- the player to act -----------------------------------------------------------------------
def test_player_to_act_gets_legal_take_buttons_then_discard_buttons(match, alice, bob, client_for):
    mover, _ = mover_and_other(match, alice, bob)
    seat = seat_number(match, mover)
    c = client_for(mover)
    text = page(c, match)
    offered = buttons(text)
    legal = ENGINE.legal_moves(match.state, seat)
    assert {"type": "take", "from": "open"} in offered and {"type": "take", "from": "blind"} in offered
    assert all(move in legal for move in offered)
    assert "Take the open card or a blind card." in text
    assert 'aria-label="Take the top card of the blind pile' in text

    # Take the blind card with the very button the page drew.
    take = next(m for m in offered if m.get("from") == "blind")
    assert post_move(c, match, take).status_code == 302
    match.refresh_from_db()
    text = page(c, match)
    offered = buttons(text)
    hand = match.state["hands"][seat]
    assert len(hand) == 7
    discards = [m["card"] for m in offered if m["type"] == "discard"]
    assert len(discards) == 7 and set(discards) == set(hand)  # a button on every card
    assert all(m in ENGINE.legal_moves(match.state, seat) for m in offered)
    assert "just taken" in text and "Now discard one card" in text
    # Posting a rendered discard button ends the turn.
    version = match.version
    assert post_move(c, match, offered[0]).status_code == 302
    match.refresh_from_db()
    assert match.version == version + 1 and match.state["phase"] == "take"


def test_the_hand_shows_six_drawn_cards_with_labels_and_the_best_duo(match, alice, bob, client_for):
    mover, _ = mover_and_other(match, alice, bob)
    seat = seat_number(match, mover)
    give(match, seat, DUO_HAND)
    text = page(client_for(mover), match)
    hand = block(text, 'class="panel ddb-hand"')
    assert hand.count("<svg") == 6
    assert Counter(drawn_cards(hand)) == Counter(DUO_HAND)
    for card in DUO_HAND:
        assert dizzy_cards.describe(card).replace("golden ", "") in hand
    assert "★ golden" in hand
    assert 'attack power <span class="ddb-power">6</span>' in hand
    assert "2 (Lizzy 1) + 3 (Lizzy 2) + 1 (bonus: both colours same) = <strong>6</strong>" in hand
    assert "all blue, all dots" in hand and "all red, patterns all different" in hand


def test_attack_button_when_allowed_and_the_reasons_when_not(match, alice, bob, client_for):
    mover, other = mover_and_other(match, alice, bob)
    seat = seat_number(match, mover)
    c = client_for(mover)

    give(match, seat, DUO_HAND, turns=0)
    text = page(c, match)
    assert {"type": "attack"} not in buttons(text)
    assert "every player needs 3 turns" in block(text, 'class="panel ddb-attack"')

    give(match, seat, ONE_LIZZY_HAND, turns=3)
    text = page(c, match)
    assert {"type": "attack"} not in buttons(text)
    assert "you need two Lizzies" in block(text, 'class="panel ddb-attack"')

    give(match, seat, DUO_HAND, turns=3)
    text = page(c, match)
    assert {"type": "attack"} in buttons(text)
    assert "Attack everyone with power 6" in text
    # The waiting player is told what will count on their turn, not handed a button.
    assert {"type": "attack"} not in buttons(page(client_for(other), match))

    # The rendered attack button fights: a battle for both players to see.
    assert post_move(c, match, {"type": "attack"}).status_code == 302
    match.refresh_from_db()
    battle = match.state["battles"][-1]
    for user in (mover, other):
        text = page(client_for(user), match)
        shown = block(text, 'class="panel ddb-battle"', "</details>")
        assert "Battle of round 1" in shown and " open>" in text.split('id="ddb-battle"')[1][:20]
        # Both fighters see both duos (DD-7): every card of each shown Lizzy is drawn.
        expected = [c for duo in battle["duos"] for lizzy in duo for c in lizzy]
        assert Counter(drawn_cards(shown)) == Counter(expected)
        assert "The fights" in shown and "round 2 began" in shown

    # The other player starts round 2. Once they have played, the battle folds away for them, but
    # stays open for the attacker until their own first turn (a bot may play before they look).
    c_other = client_for(other)
    post_move(c_other, match, {"type": "take", "from": "open"})
    match.refresh_from_db()
    post_move(c_other, match, {"type": "discard", "card": match.state["hands"][seat_number(match, other)][0]})
    match.refresh_from_db()
    assert " open>" in page(c, match).split('id="ddb-battle"')[1][:20]
    assert " open>" not in page(c_other, match).split('id="ddb-battle"')[1][:20]


def test_main_attack_offers_head_cards_after_taking(alice, bob, client_for):
    match = start_match(alice, [bob], game=GAME, options={"main_attack": True})
    mover, _ = mover_and_other(match, alice, bob)
    seat = seat_number(match, mover)
    c = client_for(mover)
    give(match, seat, DUO_HAND, turns=3, blind_top="head-purple-stripes")
    text = page(c, match)
    assert "take a card first, then attack by discarding a head card" in text
    post_move(c, match, {"type": "take", "from": "blind"})
    match.refresh_from_db()
    text = page(c, match)
    attacks = [m for m in buttons(text) if m["type"] == "attack"]
    assert attacks and all(dizzy_cards.part_of(m["card"]) == "head" for m in attacks)
    assert all(m in ENGINE.legal_moves(match.state, seat) for m in attacks)
    assert 'aria-label="Attack, discarding the' in text


@pytest.mark.parametrize("main_attack", [False, True])
def test_the_tenth_turn_offers_only_the_attack(alice, bob, client_for, main_attack):
    match = start_match(alice, [bob], game=GAME, options={"main_attack": main_attack})
    mover, _ = mover_and_other(match, alice, bob)
    seat = seat_number(match, mover)
    c = client_for(mover)
    give(match, seat, ONE_LIZZY_HAND, turns=9)  # no two Lizzies: the attack is forced anyway
    text = page(c, match)
    assert "This is your 10th turn this round" in text
    if not main_attack:
        assert buttons(text) == [{"type": "attack"}]
        return
    assert {m.get("from") for m in buttons(text)} == {"open", "blind"}  # take first, then attack
    post_move(c, match, {"type": "take", "from": "blind"})
    match.refresh_from_db()
    text = page(c, match)
    offered = buttons(text)
    # Only attacks, each discarding a head card; no plain discard and no "press to discard" hint.
    assert offered and all(m["type"] == "attack" and m["card"].startswith("head-") for m in offered)
    assert sorted(offered, key=str) == sorted(ENGINE.legal_moves(match.state, seat), key=str)
    assert "Press a card to discard it" not in text and "You must attack" in text


# --- what the others see ---------------------------------------------------------------------
def test_the_other_player_sees_counts_not_cards(match, alice, bob, client_for):
    mover, other = mover_and_other(match, alice, bob)
    seat = seat_number(match, mover)
    c = client_for(mover)
    post_move(c, match, {"type": "take", "from": "blind"})  # a private draw
    match.refresh_from_db()
    state = match.state
    public = set(state["open"])
    text = page(client_for(other), match)
    other_seat = seat_number(match, other)
    # Only the viewer's own hand and the open pile are drawn face up.
    assert set(drawn_cards(text)) <= public | set(state["hands"][other_seat])
    secret = set(state["hands"][seat]) - public - set(state["hands"][other_seat])
    for card in secret:
        assert not mentions(text, card), card
    # The mover's hand is a count: no card art in the players' list, and no move buttons.
    seats = block(text, 'class="panel ddb-players"')
    assert "<svg" not in seats and "7 cards" in seats and "6 cards" in seats
    assert "took a card from the blind pile" in text and not buttons(text)
    # Nothing of the blind pile but its size (one back, one count); no state, no data attributes.
    assert f"<strong>{len(state['blind'])}</strong> cards, face down" in text
    assert "data-" not in block(text, 'class="ddb"', '<details class="history')
    assert '"blind"' not in text and "rng" not in text


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_spectators_see_hand_sizes_only(match, alice, bob, carol, client_for, client, who):
    viewer = client_for(carol) if who == "outsider" else client
    text = page(viewer, match)
    state = match.state
    assert "You are watching" in text and 'class="panel ddb-hand"' not in text
    assert Counter(drawn_cards(text)) <= Counter(state["open"] * 2)  # the top and the pile's list
    assert block(text, 'class="panel ddb-players"').count('aria-label="6 cards in hand"') == 2
    assert backs(text) == 1 and not buttons(text)


def test_spectators_see_powers_but_not_duos_unless_battles_are_open(alice, bob, carol, client_for):
    users = {}
    for options, duos_public in (({}, False), ({"open_battles": True}, True)):
        match = start_match(alice, [bob], game=GAME, options=options)
        users = {seat_number(match, u): u for u in (alice, bob)}
        match = play_until(match, users, lambda m: bool(m.state["battles"]))
        if match.status != Match.Status.ACTIVE:
            continue  # the first battle ended it: the finished test covers that page
        battle = match.state["battles"][-1]
        text = page(client_for(carol), match)
        shown = block(text, 'class="panel ddb-battle"', "</details>")
        assert "The fights" in shown
        for power in battle["powers"]:
            assert f"power <strong>{power}</strong>" in shown
        if duos_public:
            expected = [c for duo in battle["duos"] for lizzy in duo for c in lizzy]
            assert Counter(drawn_cards(shown)) == Counter(expected)
        else:
            assert drawn_cards(shown) == [] and "not shown to you" in shown


def test_a_finished_match_shows_the_winner(alice, bob, client_for):
    match = start_match(alice, [bob], game=GAME, options={"lives": 1})
    users = {seat_number(match, u): u for u in (alice, bob)}
    match = play_until(match, users, lambda m: m.status == Match.Status.FINISHED)
    result = match.result
    text = page(client_for(alice), match)
    box = block(text, 'class="panel ddb-result"')
    if result["winners"]:
        winner = users[result["winners"][0]]
        assert f"Winner: {winner.username}" in box
    else:
        assert "A draw" in box
    assert not buttons(text) and "Lives table" in text
    # After the end everything is public (ALL-3): the last battle's duos are drawn for all.
    battle = match.state["battles"][-1]
    expected = [c for duo in battle["duos"] for lizzy in duo for c in lizzy]
    assert Counter(drawn_cards(block(text, 'class="panel ddb-battle"', "</details>"))) == Counter(expected)


def test_rules_page_covers_the_table_rules(client):
    text = client.get(f"/games/{GAME}/rules/").content.decode()
    for words in ("two Lizzies", "3 turns", "10th turn", "lifeline", "points", "open battles", "main attack"):
        assert words in text.lower() or words in text
