"""The Dizzy Duo Battle board as typed sections (piles, hand, attack, players, battle, scores) for its
Jinja2 template.

Everything comes from the viewer's engine view and legal moves (ruling ALL-3): another player's hand
is only a count, the blind pile only a size, a battle's duos only those the view holds (DD-7). The
rules are the engine's: the hand's best Dizzy Duo and its power (`best`), what each discard keeps
(`discard_choices`), the attack gate (`attacks_open`, `fewest_turns`, `two_lizzies`, `attack_blocked`,
`must_attack`, `attack_cards`). A button is offered only for a move in `legal`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from games.engines.dizzy_cards import describe
from games.engines.lizzy_card import CardArt, LizzyCard
from games.engines.spec import BoardInput, MoveChoice, legal_json, move_json, plural

PLACEHOLDER = re.compile(r"\{p(\d)\}")  # how engine texts name seats


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    you: bool
    lives: int  # or points
    unit: str  # "lives", "life", "points", "point"
    out: bool
    won: bool
    lifeline_used: bool
    to_act: bool
    in_round: bool  # holds cards this round: the count and the turns are shown
    hand_size: int
    turns: str  # "3 turns, started this round"


@dataclass(frozen=True)
class Players:
    seats: list[Seat]
    gate: str  # the attack gate (DD-7) in words; "" after the end


@dataclass(frozen=True)
class Holding:
    """The card taken this turn, between the take and the discard (a back when it is not ours to see)."""

    title: str
    card: LizzyCard
    text: str


@dataclass(frozen=True)
class Piles:
    blind: LizzyCard
    blind_count: str
    take_blind: MoveChoice | None
    open_top: LizzyCard | None
    open_count: str
    take_open: MoveChoice | None
    open_pile: list[LizzyCard]  # newest first; every card in it was put there face up
    holding: Holding | None


@dataclass(frozen=True)
class HandCard:
    card: LizzyCard
    new: bool  # the card just taken
    discard: MoveChoice | None
    keeps: str  # what the six cards kept after this discard are worth
    autofocus: bool  # the first choice after taking: the focus goes there


@dataclass(frozen=True)
class CardGroup:
    title: str  # "Lizzy 1: all blue, all dots · power 3", "Not in a Lizzy"
    lizzy: bool
    cards: list[HandCard]


@dataclass(frozen=True)
class Hand:
    power: int
    headline: str  # "Your best Dizzy Duo"
    terms: str  # "2 (Lizzy 1) + 3 (Lizzy 2) + 1 (bonus: both colours same)", "" for none
    several_terms: bool
    size: int
    groups: list[CardGroup]
    choosing: bool  # discard buttons are on the cards


@dataclass(frozen=True)
class HeadAttack:
    card: LizzyCard
    move: MoveChoice
    autofocus: bool


@dataclass(frozen=True)
class Attack:
    move: MoveChoice | None  # the attack by turning the blind card
    heads_intro: str
    heads: list[HeadAttack]  # the main attack (DD-9): discard one of these head cards
    blocked: str  # why not, as it will count on the viewer's turn


@dataclass(frozen=True)
class ShownLizzy:
    title: str
    cards: list[LizzyCard]


@dataclass(frozen=True)
class Duo:
    name: str
    attacker: bool
    power: int
    shown: bool  # the view holds this Dizzy Duo (DD-7)
    lizzies: list[ShownLizzy]
    breakdown: str  # "2 + 3 + 1 (both colours same) = 6" when it has two Lizzies


@dataclass(frozen=True)
class Fight:
    match_up: str
    outcome: str


@dataclass(frozen=True)
class Standing:
    name: str
    power: int
    change: str
    after: int
    note: str


@dataclass(frozen=True)
class Battle:
    round: int
    title: str
    how: str
    who_sees: str
    duos: list[Duo]
    fights: list[Fight]
    standings: list[Standing]
    next_round: str
    summary: str  # one line of news
    fresh: bool  # news the viewer has not played past: shown open, above the players


@dataclass(frozen=True)
class ScoreCell:
    after: int
    change: str
    power: int | None  # None: out before this battle
    attacker: bool


@dataclass(frozen=True)
class ScoreRow:
    round: int
    cells: list[ScoreCell]


@dataclass(frozen=True)
class Scores:
    names: list[str]
    start: int
    rows: list[ScoreRow]  # newest first


@dataclass(frozen=True)
class Outcome:
    title: str
    reason: str


@dataclass(frozen=True)
class Board:
    about: str
    word: str  # "lives" or "points"
    over: bool
    outcome: Outcome | None
    hint: str
    piles: Piles | None
    hand: Hand | None
    viewer_note: str
    attack: Attack | None
    players: Players
    battle: Battle | None
    scores: Scores | None


@dataclass(frozen=True)
class Words:
    """How this board names seats ("you" for the viewer) and the score (lives or points)."""

    names: list[str]
    seat: int | None
    points: bool

    def name(self, seat: int) -> str:
        return "you" if seat == self.seat else self.names[seat]

    def title(self, seat: int) -> str:
        name = self.name(seat)
        return name[:1].upper() + name[1:]

    def unit(self, count: int) -> str:
        """The word for `count` of the score: "life", "lives", "point", "points"."""
        if self.points:
            return "point" if abs(count) == 1 else "points"
        return "life" if abs(count) == 1 else "lives"

    @property
    def word(self) -> str:
        return "points" if self.points else "lives"

    def fill(self, text: str) -> str:
        return PLACEHOLDER.sub(lambda m: self.names[int(m.group(1))], text)


def signed(number: int) -> str:
    """+3, −5 (a real minus sign), 0: how a change reads in a table."""
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"


def the(card: str) -> str:
    return "the " + describe(card)


def ended(given: BoardInput) -> bool:
    """The game is over, by its rules or by a moderator's abort (then the state stopped mid-round)."""
    return given.is_over or given.view["phase"] == "over"


def present(given: BoardInput) -> Board:
    view = given.view
    over = ended(given)
    words = Words(given.names, given.seat, view["scoring"] == "points")
    art = CardArt()
    hand = None if over else _hand(given, art)
    attack = None if over else _attack(given, art, hand)
    return Board(
        about=_about(view),
        word=words.word,
        over=over,
        outcome=_outcome(view, words),
        hint=_hint(given, attack),
        piles=None if over else _piles(given, art, words),
        hand=hand,
        viewer_note=_viewer_note(given) if hand is None and not over else "",
        attack=attack,
        players=_players(given, words),
        battle=_battle(given, art, words) if view["last_battle"] else None,
        scores=_scores(view, given.names) if view["battle_log"] else None,
    )


def _about(view: dict[str, Any]) -> str:
    options = view["options"]
    if view["scoring"] == "points":
        goal = f"playing for points: the first to {options['points_target']} wins"
    else:
        goal = f"playing for lives: {view['start_lives']} each at the start, the last player with lives wins"
    parts = [f"Round {view['round']} (at most {view['max_rounds']})", goal]
    chosen = [name for name in ("open battles", "main attack") if options[name.replace(" ", "_")]]
    if options["lifeline"] and view["scoring"] == "lives":
        chosen.append("lifeline")
    if chosen:
        parts.append(", ".join(chosen))
    return " · ".join(parts)


def _outcome(view: dict[str, Any], words: Words) -> Outcome | None:
    result = view["result"]
    if not result:
        return None
    title = "A draw" if result.get("draw") else "Winner: " + ", ".join(words.names[s] for s in result["winners"])
    return Outcome(title, words.fill(result.get("reason", "")))


def _viewer_note(given: BoardInput) -> str:
    if given.seat is None:
        return "You are watching: every hand is hidden; you see how many cards each player holds."
    return "You are out of the game: you see the piles, the players and the battles."


def _hint(given: BoardInput, attack: Attack | None) -> str:
    view = given.view
    if not given.my_turn or ended(given):
        return ""
    move, heads = (attack.move, attack.heads) if attack else (None, [])
    tenth = f"This is your {view['forced_attack_turn']}th turn this round"
    main = view["options"]["main_attack"]
    if view["must_attack"] and main and view["phase"] == "discard":
        return f"{tenth}: you must attack by discarding a head card."
    if view["must_attack"] and main:
        return f"{tenth}: take a card, then attack by discarding a head card."
    if view["must_attack"]:
        return f"{tenth}: you must attack."
    if view["phase"] == "take":
        return "Take the open card or a blind card." + (" Or attack now with your Dizzy Duo." if move else "")
    return "Now discard one card onto the open pile (it may be the one you just took)." + (
        " Or attack by discarding a head card." if heads else ""
    )


def _choice(given: BoardInput, move: dict[str, Any], label: str) -> MoveChoice | None:
    text = move_json(move)
    return MoveChoice(text, label) if text in legal_json(given.legal) else None


# --- the table ---------------------------------------------------------------------------------
def _piles(given: BoardInput, art: CardArt, words: Words) -> Piles:
    view = given.view
    top = view["open_top"]
    return Piles(
        blind=art.back("face down"),
        blind_count=plural(view["blind_size"], "card") + ", face down",
        take_blind=_choice(given, {"type": "take", "from": "blind"}, "Take a blind card"),
        open_top=art.card(top) if top else None,
        open_count=plural(len(view["open_pile"]), "card") + ", face up",
        take_open=_choice(given, {"type": "take", "from": "open"}, "Take the open card"),
        open_pile=art.cards(list(reversed(view["open_pile"]))),
        holding=_holding(given, art, words),
    )


def _holding(given: BoardInput, art: CardArt, words: Words) -> Holding | None:
    take = given.view["current_take"]
    if not take:
        return None
    current = given.view["current"]
    mine = current == given.seat
    card = take["card"]  # None when another player drew it from the blind pile
    where = f"the {take['from']} pile"
    text = f"{words.title(current)} took {the(card) if card else 'a card'} from {where}"
    return Holding(
        title="Just taken" if mine else "Being held",
        card=art.card(card) if card else art.back("a face-down card"),
        text=text + ("." if mine else " and will discard one card."),
    )


# --- the viewer's hand, arranged into its best Dizzy Duo (DD-2) -------------------------------
def _hand(given: BoardInput, art: CardArt) -> Hand | None:
    view = given.view
    best = view["best"]
    if not view["hand"] or not best:
        return None
    lizzies = best["lizzies"]
    order = [card for lizzy in lizzies for card in lizzy["cards"]] + best["unused"]
    cards = _hand_cards(given, art, order)
    groups = [
        CardGroup(f"Lizzy {n}: {lizzy['summary']} · power {lizzy['power']}", True, cards[3 * (n - 1) : 3 * n])
        for n, lizzy in enumerate(lizzies, start=1)
    ]
    if best["unused"]:
        title = "Not in a Lizzy" if lizzies else "No valid Lizzy yet"
        groups.append(CardGroup(title, False, cards[3 * len(lizzies) :]))
    terms = [f"{lizzy['power']} (Lizzy {n})" for n, lizzy in enumerate(lizzies, start=1)]
    terms += [f"{bonus['points']} (bonus: {bonus['label']})" for bonus in best["bonuses"]]
    headline = ("No valid Lizzy yet", "Your best is one Lizzy", "Your best Dizzy Duo")[len(lizzies)]
    return Hand(
        power=best["power"],
        headline=headline,
        terms=" + ".join(terms),
        several_terms=len(terms) > 1,
        size=len(view["hand"]),
        groups=groups,
        choosing=any(c.discard for c in cards),
    )


def _hand_cards(given: BoardInput, art: CardArt, order: list[str]) -> list[HandCard]:
    view = given.view
    take = view["current_take"]
    new = take["card"] if take and view["current"] == given.seat else None
    choices = {c["card"]: c for c in view["discard_choices"]}
    discards = [_choice(given, {"type": "discard", "card": card}, "Discard") for card in order]
    first = next((i for i, choice in enumerate(discards) if choice), None)
    cards = []
    for index, (card, discard) in enumerate(zip(order, discards)):
        is_new = card == new
        new = None if is_new else new  # one copy only
        choice = choices.get(card)
        keeps = f"keeps power {choice['power']}" + (", two Lizzies" if choice["two_lizzies"] else "") if choice else ""
        cards.append(HandCard(art.card(card), is_new, discard, keeps if discard else "", index == first))
    return cards


# --- attacking: the buttons when legal, the reason when not --------------------------------------
def _attack(given: BoardInput, art: CardArt, hand: Hand | None) -> Attack | None:
    view = given.view
    power = view["best"]["power"] if view["best"] else 0
    move = _choice(given, {"type": "attack"}, f"Attack everyone with power {power}")
    focus_heads = not (hand and hand.choosing)
    heads = []
    for card in view["attack_cards"]:
        choice = _choice(given, {"type": "attack", "card": card}, "Attack, discarding")
        if choice:
            heads.append(HeadAttack(art.card(card), choice, focus_heads and not heads))
    if given.my_turn and view["must_attack"]:
        intro = "You must attack: choose the card to discard."
    else:
        intro = "Attack by discarding one of these head cards (the six cards you keep hold two Lizzies):"
    blocked = "" if move or heads else _attack_blocked(given)
    return Attack(move, intro, heads, blocked) if move or heads or blocked else None


def _gate(view: dict[str, Any]) -> str:
    return (
        f"every player needs {view['turns_before_attack']} turns this round "
        f"(the fewest so far is {view['fewest_turns']})."
    )


def _attack_blocked(given: BoardInput) -> str:
    """Why the viewer may not attack, as it will count on their own turn; "" when nothing helps to say."""
    view = given.view
    if given.seat is None or view["out"][given.seat]:
        return ""
    main = view["options"]["main_attack"]
    if given.my_turn and view["phase"] == "discard" and not main:
        return ""  # between the take and the discard the only thing to do is discard
    if given.my_turn and main and view["phase"] == "take" and not view["attacks_open"]:
        return "You cannot attack yet: " + _gate(view)
    if given.my_turn:
        return view["attack_blocked"] or ""
    if not view["two_lizzies"]:
        return "You cannot attack: you need two Lizzies in your hand."
    if not view["attacks_open"]:
        return "Not yet: " + _gate(view)
    return "You hold two Lizzies: you may attack on your turn."


# --- the players ---------------------------------------------------------------------------------
def _players(given: BoardInput, words: Words) -> Players:
    view = given.view
    over = ended(given)
    winners = set((view["result"] or {}).get("winners", []))
    seats = []
    for seat in range(view["players"]):
        starter = ", started this round" if seat == view["round_starter"] else ""
        seats.append(
            Seat(
                seat=seat,
                name=given.names[seat],
                you=seat == given.seat,
                lives=view["lives"][seat],
                unit=words.unit(view["lives"][seat]),
                out=view["out"][seat],
                won=seat in winners,
                lifeline_used=view["lifeline_used"][seat],
                to_act=seat == view["current"] and not over,
                in_round=not over and not view["out"][seat],
                hand_size=view["hand_sizes"][seat],
                turns=plural(view["turns"][seat], "turn") + starter,
            )
        )
    if over:
        gate = ""
    else:
        had = "they have" if view["attacks_open"] else f"the fewest so far: {view['fewest_turns']}"
        gate = (
            f"Attacks are allowed once every player has had {view['turns_before_attack']} turns this round "
            f"({had}); a player's {view['forced_attack_turn']}th turn must be an attack."
        )
    return Players(seats, gate)


# --- the last battle (DD-7): the duos the view holds, every power and change ----------------------
def _battle(given: BoardInput, art: CardArt, words: Words) -> Battle:
    view = given.view
    last = view["last_battle"]
    attacker = last["attacker"]
    if last["attack_kind"] == "head":
        how = f"attacked by discarding {the(last['attack_card'])}"
    else:
        how = f"attacked, turning {the(last['attack_card'])} from the blind pile onto the open pile"
    order = ", ".join(words.name(s) for s in last["defenders"])
    if view["options"]["open_battles"] or ended(given):
        who_sees = "Every Dizzy Duo of this battle is shown to everyone."
    else:
        who_sees = (
            "Each fighter sees the Dizzy Duos of their own fights; everyone sees the powers and the "
            f"{words.word} won and lost."
        )
    over = ended(given)
    return Battle(
        round=last["round"],
        title=f"Battle of round {last['round']}: {words.title(attacker)} attacked",
        how=f"{words.title(attacker)} {how}. The fights run in seat order from the attacker: {order}.",
        who_sees=who_sees,
        duos=[_duo(last, seat, art, words) for seat in [attacker, *last["defenders"]]],
        fights=[_fight(last, fight, words) for fight in last["fights"]],
        standings=_standings(last, words),
        next_round="" if over else _next_round(view, words),
        summary=_battle_summary(given, words),
        fresh=_fresh(given),
    )


def _next_round(view: dict[str, Any], words: Words) -> str:
    return (
        "Then all 54 cards were shuffled and six dealt to each player still in: "
        f"round {view['round']} began with {words.name(view['round_starter'])}."
    )


def _duo(last: dict[str, Any], seat: int, art: CardArt, words: Words) -> Duo:
    duo = last["duos"][seat]  # None: not the viewer's to see
    lizzies = duo["lizzies"] if duo else []
    return Duo(
        name=words.title(seat),
        attacker=seat == last["attacker"],
        power=last["powers"][seat],
        shown=duo is not None,
        lizzies=[
            ShownLizzy(f"Lizzy {n}: {lizzy['summary']} · power {lizzy['power']}", art.cards(lizzy["cards"]))
            for n, lizzy in enumerate(lizzies, start=1)
        ],
        breakdown=duo["breakdown"] if len(lizzies) > 1 else "",
    )


def _fight(last: dict[str, Any], fight: dict[str, Any], words: Words) -> Fight:
    attacker, defender = last["attacker"], fight["defender"]
    match_up = (
        f"{words.title(attacker)} ({fight['attacker_power']}) against "
        f"{words.name(defender)} ({fight['defender_power']})"
    )
    if fight["winner"] is None:
        return Fight(match_up, "A draw: nobody gains or loses")
    changes = (
        f"{words.name(attacker)} {signed(fight['attacker_change'])}, "
        f"{words.name(defender)} {signed(fight['defender_change'])}"
    )
    return Fight(match_up, f"{words.title(fight['winner'])} won: {changes}")


def _standings(last: dict[str, Any], words: Words) -> list[Standing]:
    lifelines = {entry["seat"]: entry for entry in last["lifelines"]}
    rows = []
    for seat, power in enumerate(last["powers"]):
        if power is None:
            continue  # out before this battle
        if seat in lifelines:
            entry = lifelines[seat]
            note = f"fell to {entry['from']}, returns once with {entry['to']} (lifeline)"
        else:
            note = "out" if seat in last["fallen"] else ""
        rows.append(Standing(words.title(seat), power, signed(last["changes"][seat]), last["lives_after"][seat], note))
    return rows


def _battle_summary(given: BoardInput, words: Words) -> str:
    """One line of news: the attacker's result, and the viewer's own."""
    last = given.view["last_battle"]
    attacker = last["attacker"]

    def result(seat: int) -> str:
        change = last["changes"][seat]
        return f"power {last['powers'][seat]} ({signed(change)} {words.unit(change)})"

    summary = f"{words.title(attacker)} attacked with {result(attacker)}"
    if given.seat in last["defenders"]:
        summary += f"; you had {result(given.seat)}"
    returned = {entry["seat"] for entry in last["lifelines"]}
    gone = [words.name(s) for s in last["fallen"] if s not in returned]
    return summary + "." + (f" Out: {', '.join(gone)}." if gone else "")


def _fresh(given: BoardInput) -> bool:
    """A battle is fresh news for a player until their first turn of the new round is done (bots may
    have played since), for everyone else until anyone has played a turn; after the end, always."""
    view = given.view
    if ended(given):
        return True
    if given.seat is not None and not view["out"][given.seat]:
        return view["turns"][given.seat] == 0
    return not view["history"]


# --- the lives (or points) table, one row per battle ---------------------------------------------
def _scores(view: dict[str, Any], names: list[str]) -> Scores:
    rows = [
        ScoreRow(
            battle["round"],
            [
                ScoreCell(after, signed(change), power, seat == battle["attacker"])
                for seat, (after, change, power) in enumerate(
                    zip(battle["lives_after"], battle["changes"], battle["powers"])
                )
            ],
        )
        for battle in reversed(view["battle_log"])  # newest first: the latest round is what players look for
    ]
    return Scores(list(names), view["start_lives"], rows)
