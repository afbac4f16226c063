"""The Dizzy Duo Battle board: its presenter (games/engines/dizzy_duo_battle/board.py) on engine states,
and the page its template draws (jinja2_templates/games/dizzy-duo-battle/board.html).

Cards are drawn by the macro of jinja2_templates/games/_lizzy_card.html, whose frame carries the card's
part, colour, pattern and gold as classes: `drawn_cards()` reads every face-up card of a page back from
them, so a test can say exactly which cards a page shows.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter

import pytest
from django.utils import translation

from games import actions
from games.engines import dizzy_cards
from games.engines.dizzy_duo_battle import SPEC
from games.engines.dizzy_duo_battle.board import Board, present
from games.engines.lizzy_card import SHAPES, CardArt
from games.engines.registry import get_engine
from games.engines.spec import BoardInput, move_json
from games.models import Match
from tests.helpers import post_move, start_match, user_to_act

GAME = "dizzy-duo-battle"
ENGINE = get_engine(GAME)
CARD_CLASSES = re.compile(r'class="lz-card ([^"]*)"')
MOVE_BUTTONS = re.compile(r'name="move" value="([^"]*)"')
BUTTON = re.compile(r"<button\b([^>]*)>(.*?)</button>", re.S)


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


def rig(state: dict, seat: int, hand: list[str], turns: int | None = None, blind_top: str = "") -> dict:
    """Rig a state: `seat` holds `hand` (its old cards go to the blind pile), every player has had
    `turns` turns, `blind_top` is drawn next. The 54 cards stay one each in one place."""
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
    return state


def give(match: Match, seat: int, hand: list[str], turns: int | None = None, blind_top: str = "") -> None:
    """rig() the saved state of `match`."""
    rig(match.state, seat, hand, turns, blind_top)
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

# --- the presenter, on engine states (no database) -------------------------------------------
NAMES = ["ann", "ben", "cat"]


def new_state(players: int = 2, seed: int = 7, **options) -> dict:
    return ENGINE.new_state(players, options, seed)


def board_for(state: dict, seat: int | None) -> Board:
    """What `seat` (None: a spectator) is shown, as the site builds it: the engine's view and legal moves."""
    mine = seat is not None and seat in ENGINE.to_act(state)
    return present(
        BoardInput(
            view=ENGINE.view(state, seat),
            legal=ENGINE.legal_moves(state, seat) if mine else [],
            seat=seat,
            my_turn=mine,
            names=NAMES[: state["players"]],
            is_over=state["phase"] == "over",
        )
    )


def play(state: dict, move: dict) -> dict:
    return ENGINE.apply(state, state["current"], move)[0]


def hand_cards(board: Board) -> list:
    return [card for group in board.hand.groups for card in group.cards]


def test_the_card_macro_draws_svg_with_its_own_pattern_and_words():
    from django.template import engines

    assert len(set(SHAPES.values())) == 3
    numbering = CardArt()
    uids = [numbering.card(c).uid for c in dizzy_cards.DECK] + [numbering.back().uid]
    assert len(set(uids)) == len(uids)  # every card its own pattern id
    template = engines["jinja2"].from_string(
        '{% from "games/_lizzy_card.html" import lizzy_card %}{{ lizzy_card(a) }}{{ lizzy_card(b, small=True) }}'
    )
    numbering = CardArt()
    with translation.override("en"):  # another test may have left Dutch active in this thread
        text = template.render({"a": numbering.card("body-blue-stripes-gold"), "b": numbering.back()})
    assert text.count("<svg") == 2 and '<pattern id="lz1"' in text and 'fill="url(#lz1)"' in text
    assert "lz-golden" in text and '<span aria-hidden="true">★ </span>golden' in text and "blue stripes body" in text
    assert "a face-down card" in text and drawn_cards(text) == ["body-blue-stripes-gold"]


def test_the_spec_draws_this_board():
    assert SPEC.present is present and SPEC.board_template == "games/dizzy-duo-battle/board.html"


def test_the_view_carries_the_attack_gate_and_two_lizzies():
    state = rig(new_state(3), 0, DUO_HAND, turns=2)
    view = ENGINE.view(state, 0)
    assert (view["fewest_turns"], view["attacks_open"], view["two_lizzies"]) == (2, False, True)
    state["turns"][1] = 3  # the gate counts the fewest turns of the players still in
    assert ENGINE.view(state, 0)["fewest_turns"] == 2
    state = rig(new_state(3), 0, ONE_LIZZY_HAND, turns=3)
    assert ENGINE.view(state, 0)["attacks_open"] and not ENGINE.view(state, 0)["two_lizzies"]
    assert ENGINE.view(state, None)["two_lizzies"] is None  # a spectator holds no hand


def test_take_choices_are_the_legal_takes():
    state = new_state()
    seat = state["current"]
    board = board_for(state, seat)
    legal = {move_json(m) for m in ENGINE.legal_moves(state, seat)}
    assert {board.piles.take_open.json, board.piles.take_blind.json} <= legal
    assert board.hint == "Take the open card or a blind card."
    assert board.hand.power == ENGINE.view(state, seat)["best"]["power"]
    assert not board.hand.choosing and not any(c.autofocus for c in hand_cards(board))
    other = board_for(state, 1 - seat)
    assert other.piles.take_open is None and other.piles.take_blind is None and other.hint == ""


def test_after_taking_every_card_discards_and_the_first_takes_the_focus():
    state = rig(new_state(), 0, DUO_HAND, blind_top="head-purple-stripes")
    state["current"] = state["round_starter"] = 0
    state = play(state, {"type": "take", "from": "blind"})
    board = board_for(state, 0)
    cards = hand_cards(board)
    assert len(cards) == 7 and all(c.discard and c.discard.label == "Discard" for c in cards)
    assert {c.discard.json for c in cards} == {move_json(m) for m in ENGINE.legal_moves(state, 0)}
    assert [c.autofocus for c in cards] == [True] + [False] * 6
    assert [c.card.name for c in cards if c.new] == ["head-purple-stripes"]
    assert all(c.keeps.startswith("keeps power ") for c in cards)
    assert board.piles.holding.title == "Just taken" and "purple stripes head" in board.piles.holding.text
    assert board.hint.startswith("Now discard one card")
    # The other player and a spectator see a back: a blind draw is the taker's alone (ALL-3).
    for viewer in (1, None):
        holding = board_for(state, viewer).piles.holding
        assert holding.card.back and holding.text == "Ann took a card from the blind pile and will discard one card."


def test_the_hand_is_arranged_into_its_best_duo():
    state = rig(new_state(), 0, DUO_HAND)
    hand = board_for(state, 0).hand
    assert hand.power == 6 and hand.headline == "Your best Dizzy Duo" and hand.several_terms
    assert hand.terms == "2 (Lizzy 1) + 3 (Lizzy 2) + 1 (bonus: both colours same)"
    assert [g.title for g in hand.groups] == [
        "Lizzy 1: all red, patterns all different · power 2",
        "Lizzy 2: all blue, all dots · power 3",
    ]
    assert Counter(c.card.name for g in hand.groups for c in g.cards) == Counter(DUO_HAND)
    one = board_for(rig(new_state(), 0, ONE_LIZZY_HAND), 0).hand
    assert one.headline == "Your best is one Lizzy" and one.groups[-1].title == "Not in a Lizzy"


def test_the_attack_gate_comes_from_the_view():
    state = rig(new_state(), 0, DUO_HAND, turns=0)
    state["current"] = 0
    assert board_for(state, 0).attack.move is None
    assert board_for(state, 0).attack.blocked == ENGINE.view(state, 0)["attack_blocked"]
    assert "every player needs 3 turns" in board_for(state, 0).attack.blocked
    assert board_for(state, 1).attack.blocked.startswith("You cannot attack")  # ben's own hand
    assert board_for(state, None).attack is None

    state = rig(state, 0, ONE_LIZZY_HAND, turns=3)
    assert board_for(state, 0).attack.blocked == "You cannot attack: you need two Lizzies in your hand."

    state = rig(state, 0, DUO_HAND, turns=3)
    board = board_for(state, 0)
    assert board.attack.move.json == move_json({"type": "attack"}) and not board.attack.blocked
    assert board.attack.move.label == "Attack everyone with power 6"
    assert board.hint == "Take the open card or a blind card. Or attack now with your Dizzy Duo."
    # Off-turn, the viewer is told what will count on their turn.
    state["current"] = 1
    assert board_for(state, 0).attack.blocked == "You hold two Lizzies: you may attack on your turn."
    state = rig(state, 0, DUO_HAND, turns=1)
    assert (
        board_for(state, 0).attack.blocked == "Not yet: every player needs 3 turns this round (the fewest so far is 1)."
    )
    assert "(the fewest so far: 1)" in board_for(state, 0).players.gate


def test_a_forced_main_attack_focuses_the_first_head_card():
    state = rig(new_state(main_attack=True), 0, ONE_LIZZY_HAND, turns=9, blind_top="tail-red-stripes")
    state["current"] = 0
    assert board_for(state, 0).hint.endswith("take a card, then attack by discarding a head card.")
    state = play(state, {"type": "take", "from": "blind"})
    board = board_for(state, 0)
    assert not board.hand.choosing and board.attack.heads_intro.startswith("You must attack")
    assert {h.move.json for h in board.attack.heads} == {move_json(m) for m in ENGINE.legal_moves(state, 0)}
    assert [h.autofocus for h in board.attack.heads] == [True] + [False] * (len(board.attack.heads) - 1)


def test_a_spectator_sees_counts_and_the_battle_powers_only():
    state = rig(new_state(3), 0, DUO_HAND, turns=3)
    state["current"] = 0
    state = play(state, {"type": "attack"})
    board = board_for(state, None)
    assert board.hand is None and board.viewer_note.startswith("You are watching")
    assert [s.hand_size for s in board.players.seats] == [6, 6, 6]
    battle = board.battle
    assert battle.fresh and battle.title == "Battle of round 1: Ann attacked"
    assert not any(d.shown or d.lizzies for d in battle.duos)
    assert [d.power for d in battle.duos] == [p for p in state["battles"][-1]["powers"] if p is not None]
    # A defender sees the attacker's duo and its own, not the other defender's (DD-7).
    shown = {d.name: d.shown for d in board_for(state, 1).battle.duos}
    assert shown == {"Ann": True, "You": True, "Cat": False}
    assert board.scores.rows[0].round == 1 and board.scores.start == 20


def test_after_the_end_the_outcome_and_every_duo():
    state = new_state(lives=1)
    while state["phase"] != "over":
        legal = ENGINE.legal_moves(state, state["current"])
        state = play(state, next((m for m in legal if m["type"] == "attack"), legal[0]))
    board = board_for(state, None)
    assert board.over and board.piles is None and board.hand is None and board.attack is None
    assert board.outcome.title in ("A draw", "Winner: ann", "Winner: ben") and "{p" not in board.outcome.reason
    assert all(d.shown for d in board.battle.duos) and board.players.gate == ""


# --- the page: the player to act ---------------------------------------------------------------
@pytest.mark.django_db
def test_player_to_act_gets_legal_take_buttons_then_discard_buttons(match, alice, bob, client_for):
    mover, _ = mover_and_other(match, alice, bob)
    seat = seat_number(match, mover)
    c = client_for(mover)
    text = page(c, match)
    offered = buttons(text)
    legal = ENGINE.legal_moves(match.state, seat)
    assert {"type": "take", "from": "open"} in offered and {"type": "take", "from": "blind"} in offered
    assert all(move in legal for move in offered)
    assert "Take the open card or a blind card." in text and "data-autofocus" not in text

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
    # The second step of the turn: the focus goes to the first discard button (a site script moves it).
    assert text.count("data-autofocus") == 1
    attributes = BUTTON.search(block(text, 'class="panel ddb-hand"')).group(1)
    assert "data-autofocus" in attributes and '"type":"discard"' in html.unescape(attributes)
    # Posting a rendered discard button ends the turn.
    version = match.version
    assert post_move(c, match, offered[0]).status_code == 302
    match.refresh_from_db()
    assert match.version == version + 1 and match.state["phase"] == "take"


@pytest.mark.django_db
def test_every_button_is_named_by_its_visible_text(match, alice, bob, client_for):
    """Voice control: a button's accessible name contains what it shows, so no aria-label on any."""
    mover, _ = mover_and_other(match, alice, bob)
    c = client_for(mover)
    post_move(c, match, {"type": "take", "from": "open"})
    match.refresh_from_db()
    text = page(c, match)
    board = block(text, 'class="ddb"', '<section class="history')
    found = BUTTON.findall(board)
    assert len(found) >= 7
    for attributes, _content in found:
        assert "aria-label" not in attributes and "aria-labelledby" not in attributes
    assert "<button" in board and 'aria-describedby="' in board  # what a discard keeps, described
    assert 'hx-get="' not in board or board.count('hx-get="') == board.count(' href="')


@pytest.mark.django_db
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
    assert '<span aria-hidden="true">★ </span>golden' in hand  # the star is drawn, not read out
    assert 'attack power <span class="ddb-power">6</span>' in hand
    assert "2 (Lizzy 1) + 3 (Lizzy 2) + 1 (bonus: both colours same) = <strong>6</strong>" in hand
    assert "all blue, all dots" in hand and "all red, patterns all different" in hand


@pytest.mark.django_db
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


@pytest.mark.django_db
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
    assert '<span class="ddb-pick-text">Attack, discarding</span>' in text


@pytest.mark.django_db
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
    assert text.count("data-autofocus") == 1


# --- the page: what the others see ---------------------------------------------------------------
@pytest.mark.django_db
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
    assert "<svg" not in seats and "7 cards in hand" in seats and "6 cards in hand" in seats
    assert "took a card from the blind pile" in text and not buttons(text)
    # Nothing of the blind pile but its size (one back, one count); no state, no data attributes.
    assert f"{len(state['blind'])} cards, face down" in text
    assert "data-" not in block(text, 'class="ddb"', '<section class="history')
    assert '"blind"' not in text and "rng" not in text


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_spectators_see_hand_sizes_only(match, alice, bob, carol, client_for, client, who):
    viewer = client_for(carol) if who == "outsider" else client
    text = page(viewer, match)
    state = match.state
    assert "You are watching" in text and 'class="panel ddb-hand"' not in text
    assert Counter(drawn_cards(text)) <= Counter(state["open"] * 2)  # the top and the pile's list
    assert block(text, 'class="panel ddb-players"').count("6 cards in hand") == 2
    assert backs(text) == 1 and not buttons(text)


@pytest.mark.slow
@pytest.mark.django_db
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


@pytest.mark.django_db
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


@pytest.mark.django_db
def test_rules_page_covers_the_table_rules(client):
    text = client.get(f"/games/{GAME}/rules/").content.decode()
    for words in ("two Lizzies", "3 turns", "10th turn", "lifeline", "points", "open battles", "main attack"):
        assert words in text.lower() or words in text


def test_a_seat_below_zero_lives_shows_zero_not_minus_one():
    """A player at 0 or below is out (DD-8); a fight that took more than was left reads "0 lives"."""
    state = new_state(lives=1)
    state["lives"][1] = -1
    seat = board_for(state, 0).players.seats[1]
    assert seat.lives == 0 and str(seat.unit) == "lives"
    state["lives"][1] = 1
    assert str(board_for(state, 0).players.seats[1].unit) == "life"
