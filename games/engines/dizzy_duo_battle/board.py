"""The Dizzy Duo Battle board as typed sections (piles, hand, attack, players, battle, scores) for its
Jinja2 template.

Everything comes from the viewer's engine view and legal moves (ruling ALL-3): another player's hand
is only a count, the blind pile only a size, a battle's duos only those the view holds (DD-7). The
rules are the engine's: the hand's best Dizzy Duo and its power (`best`), what each discard keeps
(`discard_choices`), the attack gate (`attacks_open`, `fewest_turns`, `two_lizzies`, `attack_blocked`,
`must_attack`, `attack_cards`). A button is offered only for a move in `legal`.

Every word is a `Msg` (games/engines/words.py): English text that the board template shows
in the viewer's language with `tr()`; the Dutch is in this package's locale/ catalogue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from games.engines.dizzy_duo_battle.phrases import bonus_words, breakdown, joined, listed, lizzy_summary
from games.engines.dizzy_phrases import card_name, card_words, the_card
from games.engines.lizzy_card import CardArt, LizzyCard
from games.engines.spec import BoardInput, MoveChoice, legal_json, move_json
from games.engines.words import Msg, _, gettext_noop, ngettext

PLACEHOLDER = re.compile(r"\{p(\d)\}")  # how engine texts name seats


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    you: bool
    lives: int  # or points
    unit: str  # "lives", "life", "points", "point" (a Msg, as every text of this board)
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
    label: str  # "Ann's Dizzy Duo, power 6": what a screen reader says of the section


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
    title: str  # "Lives table"
    caption: str
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
    word_title: str  # "Lives" or "Points"
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
        return _("you") if seat == self.seat else self.names[seat]

    def title(self, seat: int) -> str:
        if seat == self.seat:
            return _("You")
        name = self.names[seat]
        return name[:1].upper() + name[1:]

    def unit(self, count: int) -> Msg:
        """The word for `count` of the score: "life", "lives", "point", "points"."""
        if self.points:
            return ngettext("point", "points", abs(count))
        return ngettext("life", "lives", abs(count))

    @property
    def word(self) -> Msg:
        return _("points") if self.points else _("lives")

    def fill(self, text: str) -> str:
        return PLACEHOLDER.sub(lambda m: self.names[int(m.group(1))], text)

    def stored(self, words: dict[str, Any]) -> Msg:
        """Words an engine stored as {"msg", "args"} (a result's reason), seats filled in with names."""
        return Msg(words["msg"], **{key: self._stored_value(value) for key, value in (words.get("args") or {}).items()})

    def _stored_value(self, value: Any) -> Any:
        if isinstance(value, dict):
            return self.stored(value)
        return self.fill(value) if isinstance(value, str) else value


class Art(CardArt):
    """The card art with each card's words as Msgs, so they read in the viewer's language."""

    def card(self, name: str) -> LizzyCard:
        return replace(super().card(name), label=card_name(name), words=card_words(name))


def signed(number: int) -> str:
    """+3, −5 (a real minus sign), 0: how a change reads in a table."""
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"


def shown_score(score: int, *, points: bool) -> int:
    """A seat's lives as the board shows them: a player at 0 or below is out (ruling DD-8), and "-1
    life" reads as nonsense, so never below 0. Points are shown as they are."""
    return score if points else max(0, score)


def ended(given: BoardInput) -> bool:
    """The game is over, by its rules or by a moderator's abort (then the state stopped mid-round)."""
    return given.is_over or given.view["phase"] == "over"


def present(given: BoardInput) -> Board:
    view = given.view
    over = ended(given)
    words = Words(given.names, given.you, view["scoring"] == "points")
    art = Art()
    hand = None if over else _hand(given, art)
    attack = None if over else _attack(given, art, hand)
    return Board(
        about=_about(view),
        word=words.word,
        word_title=_("Points") if words.points else _("Lives"),
        over=over,
        outcome=_outcome(view, words),
        hint=_hint(given, attack),
        piles=None if over else _piles(given, art, words),
        hand=hand,
        viewer_note=_viewer_note(given) if hand is None and not over else "",
        attack=attack,
        players=_players(given, words),
        battle=_battle(given, art, words) if view["last_battle"] else None,
        scores=_scores(view, words) if view["battle_log"] else None,
    )


OPTION_WORDS = {"open_battles": _("open battles"), "main_attack": _("main attack")}


def _about(view: dict[str, Any]) -> Msg:
    options = view["options"]
    if view["scoring"] == "points":
        goal = _("playing for points: the first to {target} wins", target=options["points_target"])
    else:
        goal = _(
            "playing for lives: {lives} each at the start, the last player with lives wins", lives=view["start_lives"]
        )
    parts = [_("Round {round} (at most {rounds})", round=view["round"], rounds=view["max_rounds"]), goal]
    chosen = [words for name, words in OPTION_WORDS.items() if options[name]]
    if options["lifeline"] and view["scoring"] == "lives":
        chosen.append(_("lifeline"))
    if chosen:
        parts.append(listed(chosen))
    return joined(parts, " · ")


def _outcome(view: dict[str, Any], words: Words) -> Outcome | None:
    result = view["result"]
    if not result:
        return None
    if result.get("draw"):
        title = _("A draw")
    else:
        title = _("Winner: {names}", names=", ".join(words.names[s] for s in result["winners"]))
    # A result stored before its words were kept has only its English reason.
    reason = words.stored(result["reason_words"]) if result.get("reason_words") else words.fill(result["reason"])
    return Outcome(title, reason)


def _viewer_note(given: BoardInput) -> Msg:
    if given.seat is None:
        return _("You are watching: every hand is hidden; you see how many cards each player holds.")
    return _("You are out of the game: you see the piles, the players and the battles.")


def _hint(given: BoardInput, attack: Attack | None) -> Msg | str:
    view = given.view
    if not given.my_turn or ended(given):
        return ""
    move, heads = (attack.move, attack.heads) if attack else (None, [])
    turn = view["forced_attack_turn"]
    main = view["options"]["main_attack"]
    if view["must_attack"] and main and view["phase"] == "discard":
        return _("This is your {turn}th turn this round: you must attack by discarding a head card.", turn=turn)
    if view["must_attack"] and main:
        return _(
            "This is your {turn}th turn this round: take a card, then attack by discarding a head card.", turn=turn
        )
    if view["must_attack"]:
        return _("This is your {turn}th turn this round: you must attack.", turn=turn)
    if view["phase"] == "take" and move:
        return _("Take the open card or a blind card. Or attack now with your Dizzy Duo.")
    if view["phase"] == "take":
        return _("Take the open card or a blind card.")
    if heads:
        return _(DISCARD_OR_ATTACK)
    return _("Now discard one card onto the open pile (it may be the one you just took).")


DISCARD_OR_ATTACK = gettext_noop(
    "Now discard one card onto the open pile (it may be the one you just took). Or attack by discarding a head card."
)


def _choice(given: BoardInput, move: dict[str, Any], label: str) -> MoveChoice | None:
    text = move_json(move)
    return MoveChoice(text, label) if text in legal_json(given.legal) else None


# --- the table ---------------------------------------------------------------------------------
def _piles(given: BoardInput, art: Art, words: Words) -> Piles:
    view = given.view
    top = view["open_top"]
    return Piles(
        blind=art.back(_("face down")),
        blind_count=ngettext("{n} card, face down", "{n} cards, face down", view["blind_size"]),
        take_blind=_choice(given, {"type": "take", "from": "blind"}, _("Take a blind card")),
        open_top=art.card(top) if top else None,
        open_count=ngettext("{n} card, face up", "{n} cards, face up", len(view["open_pile"])),
        take_open=_choice(given, {"type": "take", "from": "open"}, _("Take the open card")),
        open_pile=art.cards(list(reversed(view["open_pile"]))),
        holding=_holding(given, art, words),
    )


# What the player who took a card holds, between the take and the discard: (pile, the taker is the viewer).
TOOK_WORDS = {
    ("open", True): gettext_noop("{player} took {card} from the open pile."),
    ("blind", True): gettext_noop("{player} took {card} from the blind pile."),
    ("open", False): gettext_noop("{player} took {card} from the open pile and will discard one card."),
    ("blind", False): gettext_noop("{player} took {card} from the blind pile and will discard one card."),
}
TOOK_UNSEEN_WORDS = {
    "open": gettext_noop("{player} took a card from the open pile and will discard one card."),
    "blind": gettext_noop("{player} took a card from the blind pile and will discard one card."),
}


def _holding(given: BoardInput, art: Art, words: Words) -> Holding | None:
    take = given.view["current_take"]
    if not take:
        return None
    current = given.view["current"]
    mine = current == given.seat
    card = take["card"]  # None when another player drew it from the blind pile
    if card:
        text = _(TOOK_WORDS[take["from"], mine], player=words.title(current), card=the_card(card))
    else:
        text = _(TOOK_UNSEEN_WORDS[take["from"]], player=words.title(current))
    return Holding(
        title=_("Just taken") if mine else _("Being held"),
        card=art.card(card) if card else art.back(_("a face-down card")),
        text=text,
    )


# --- the viewer's hand, arranged into its best Dizzy Duo (DD-2) -------------------------------
def _lizzy_title(number: int, lizzy: dict[str, Any]) -> Msg:
    return _(
        "Lizzy {n}: {summary} · power {power}", n=number, summary=lizzy_summary(lizzy["cards"]), power=lizzy["power"]
    )


def _hand(given: BoardInput, art: Art) -> Hand | None:
    view = given.view
    best = view["best"]
    if not view["hand"] or not best:
        return None
    lizzies = best["lizzies"]
    order = [card for lizzy in lizzies for card in lizzy["cards"]] + best["unused"]
    cards = _hand_cards(given, art, order)
    groups = [
        CardGroup(_lizzy_title(n, lizzy), True, cards[3 * (n - 1) : 3 * n]) for n, lizzy in enumerate(lizzies, start=1)
    ]
    if best["unused"]:
        title = _("Not in a Lizzy") if lizzies else _("No valid Lizzy yet")
        groups.append(CardGroup(title, False, cards[3 * len(lizzies) :]))
    terms: list[Any] = [_("{power} (Lizzy {n})", power=lizzy["power"], n=n) for n, lizzy in enumerate(lizzies, start=1)]
    terms += [
        _("{points} (bonus: {bonus})", points=bonus["points"], bonus=bonus_words(bonus["label"]))
        for bonus in best["bonuses"]
    ]
    headline = (_("No valid Lizzy yet"), _("Your best is one Lizzy"), _("Your best Dizzy Duo"))[len(lizzies)]
    return Hand(
        power=best["power"],
        headline=headline,
        terms=joined(terms, " + ") if terms else "",
        several_terms=len(terms) > 1,
        size=len(view["hand"]),
        groups=groups,
        choosing=any(c.discard for c in cards),
    )


def _hand_cards(given: BoardInput, art: Art, order: list[str]) -> list[HandCard]:
    view = given.view
    take = view["current_take"]
    new = take["card"] if take and view["current"] == given.seat else None
    choices = {c["card"]: c for c in view["discard_choices"]}
    discards = [_choice(given, {"type": "discard", "card": card}, _("Discard")) for card in order]
    first = next((i for i, choice in enumerate(discards) if choice), None)
    cards = []
    for index, (card, discard) in enumerate(zip(order, discards)):
        is_new = card == new
        new = None if is_new else new  # one copy only
        cards.append(
            HandCard(art.card(card), is_new, discard, _keeps(choices.get(card)) if discard else "", index == first)
        )
    return cards


def _keeps(choice: dict[str, Any] | None) -> Msg | str:
    """What the six cards kept after a discard are worth."""
    if not choice:
        return ""
    if choice["two_lizzies"]:
        return _("keeps power {power}, two Lizzies", power=choice["power"])
    return _("keeps power {power}", power=choice["power"])


# --- attacking: the buttons when legal, the reason when not --------------------------------------
def _attack(given: BoardInput, art: Art, hand: Hand | None) -> Attack | None:
    view = given.view
    power = view["best"]["power"] if view["best"] else 0
    move = _choice(given, {"type": "attack"}, _("Attack everyone with power {power}", power=power))
    focus_heads = not (hand and hand.choosing)
    heads = []
    for card in view["attack_cards"]:
        choice = _choice(given, {"type": "attack", "card": card}, _("Attack, discarding"))
        if choice:
            heads.append(HeadAttack(art.card(card), choice, focus_heads and not heads))
    if given.my_turn and view["must_attack"]:
        intro = _("You must attack: choose the card to discard.")
    else:
        intro = _("Attack by discarding one of these head cards (the six cards you keep hold two Lizzies):")
    blocked = "" if move or heads else _attack_blocked(given)
    return Attack(move, intro, heads, blocked) if move or heads or blocked else None


def _attack_blocked(given: BoardInput) -> str:
    """Why the viewer may not attack, as it will count on their own turn; "" when nothing helps to say."""
    view = given.view
    if given.seat is None or view["out"][given.seat]:
        return ""
    main = view["options"]["main_attack"]
    gate = {"turns": view["turns_before_attack"], "fewest": view["fewest_turns"]}
    if given.my_turn and view["phase"] == "discard" and not main:
        return ""  # between the take and the discard the only thing to do is discard
    if given.my_turn and main and view["phase"] == "take" and not view["attacks_open"]:
        return _(
            "You cannot attack yet: every player needs {turns} turns this round (the fewest so far is {fewest}).",
            **gate,
        )
    if given.my_turn:
        return view["attack_blocked"] or ""
    if not view["two_lizzies"]:
        return _("You cannot attack: you need two Lizzies in your hand.")
    if not view["attacks_open"]:
        return _("Not yet: every player needs {turns} turns this round (the fewest so far is {fewest}).", **gate)
    return _("You hold two Lizzies: you may attack on your turn.")


# --- the players ---------------------------------------------------------------------------------
def _turns(count: int, starter: bool) -> Msg:
    if starter:
        return ngettext("{n} turn, started this round", "{n} turns, started this round", count)
    return ngettext("{n} turn", "{n} turns", count)


def _players(given: BoardInput, words: Words) -> Players:
    view = given.view
    over = ended(given)
    winners = set((view["result"] or {}).get("winners", []))
    seats = [
        Seat(
            seat=seat,
            name=given.names[seat],
            you=seat == given.you,
            lives=shown_score(view["lives"][seat], points=words.points),
            unit=words.unit(shown_score(view["lives"][seat], points=words.points)),
            out=view["out"][seat],
            won=seat in winners,
            lifeline_used=view["lifeline_used"][seat],
            to_act=seat == view["current"] and not over,
            in_round=not over and not view["out"][seat],
            hand_size=view["hand_sizes"][seat],
            turns=_turns(view["turns"][seat], seat == view["round_starter"]),
        )
        for seat in range(view["players"])
    ]
    return Players(seats, "" if over else _gate(view))


def _gate(view: dict[str, Any]) -> Msg:
    """The attack gate of ruling DD-7 in words."""
    values = {"turns": view["turns_before_attack"], "forced": view["forced_attack_turn"]}
    if view["attacks_open"]:
        return _(GATE_OPEN, **values)
    return _(GATE_SHUT, fewest=view["fewest_turns"], **values)


GATE_OPEN = gettext_noop(
    "Attacks are allowed once every player has had {turns} turns this round (they have); "
    "a player's {forced}th turn must be an attack."
)
GATE_SHUT = gettext_noop(
    "Attacks are allowed once every player has had {turns} turns this round (the fewest so far: {fewest}); "
    "a player's {forced}th turn must be an attack."
)


# --- the last battle (DD-7): the duos the view holds, every power and change ----------------------
def _battle(given: BoardInput, art: Art, words: Words) -> Battle:
    view = given.view
    last = view["last_battle"]
    attacker = last["attacker"]
    over = ended(given)
    if view["options"]["open_battles"] or over:
        who_sees = _("Every Dizzy Duo of this battle is shown to everyone.")
    else:
        who_sees = _(WHO_SEES_POINTS if words.points else WHO_SEES_LIVES)
    return Battle(
        round=last["round"],
        title=_("Battle of round {round}: {player} attacked", round=last["round"], player=words.title(attacker)),
        how=_how(last, words),
        who_sees=who_sees,
        duos=[_duo(last, seat, art, words) for seat in [attacker, *last["defenders"]]],
        fights=[_fight(last, fight, words) for fight in last["fights"]],
        standings=_standings(last, words),
        next_round="" if over else _next_round(view, words),
        summary=_battle_summary(given, words),
        fresh=_fresh(given),
    )


WHO_SEES_LIVES = gettext_noop(
    "Each fighter sees the Dizzy Duos of their own fights; everyone sees the powers and the lives won and lost."
)
WHO_SEES_POINTS = gettext_noop(
    "Each fighter sees the Dizzy Duos of their own fights; everyone sees the powers and the points won and lost."
)


def _how(last: dict[str, Any], words: Words) -> Msg:
    values = {
        "player": words.title(last["attacker"]),
        "card": the_card(last["attack_card"]),
        "order": listed([words.name(s) for s in last["defenders"]]),
    }
    template = HOW_BY_HEAD if last["attack_kind"] == "head" else HOW_BY_BLIND
    return _(template, **values)


HOW_BY_HEAD = gettext_noop(
    "{player} attacked by discarding {card}. The fights run in seat order from the attacker: {order}."
)
HOW_BY_BLIND = gettext_noop(
    "{player} attacked, turning {card} from the blind pile onto the open pile. "
    "The fights run in seat order from the attacker: {order}."
)


def _next_round(view: dict[str, Any], words: Words) -> Msg:
    if view["round_starter"] == words.seat:
        return _(NEXT_ROUND_YOU, round=view["round"])
    return _(NEXT_ROUND, round=view["round"], player=words.names[view["round_starter"]])


NEXT_ROUND_YOU = gettext_noop(
    "Then all 54 cards were shuffled and six dealt to each player still in: round {round} began with you."
)
NEXT_ROUND = gettext_noop(
    "Then all 54 cards were shuffled and six dealt to each player still in: round {round} began with {player}."
)


def _duo(last: dict[str, Any], seat: int, art: Art, words: Words) -> Duo:
    duo = last["duos"][seat]  # None: not the viewer's to see
    lizzies = duo["lizzies"] if duo else []
    power = last["powers"][seat]
    if seat == words.seat:
        label = _("Your Dizzy Duo, power {power}", power=power)
    else:
        label = _("{player}'s Dizzy Duo, power {power}", player=words.title(seat), power=power)
    return Duo(
        name=words.title(seat),
        attacker=seat == last["attacker"],
        power=power,
        shown=duo is not None,
        lizzies=[
            ShownLizzy(_lizzy_title(n, lizzy), art.cards(lizzy["cards"])) for n, lizzy in enumerate(lizzies, start=1)
        ],
        breakdown=breakdown(duo) if len(lizzies) > 1 else "",
        label=label,
    )


def _fight(last: dict[str, Any], fight: dict[str, Any], words: Words) -> Fight:
    attacker, defender = last["attacker"], fight["defender"]
    powers = {"attacker_power": fight["attacker_power"], "defender_power": fight["defender_power"]}
    if defender == words.seat:
        match_up = _(
            "{attacker} ({attacker_power}) against you ({defender_power})", attacker=words.title(attacker), **powers
        )
    else:
        match_up = _(
            "{attacker} ({attacker_power}) against {defender} ({defender_power})",
            attacker=words.title(attacker),
            defender=words.names[defender],
            **powers,
        )
    if fight["winner"] is None:
        return Fight(match_up, _("A draw: nobody gains or loses"))
    outcome = _(
        "{winner} won: {attacker} {attacker_change}, {defender} {defender_change}",
        winner=words.title(fight["winner"]),
        attacker=words.name(attacker),
        attacker_change=signed(fight["attacker_change"]),
        defender=words.name(defender),
        defender_change=signed(fight["defender_change"]),
    )
    return Fight(match_up, outcome)


def _standings(last: dict[str, Any], words: Words) -> list[Standing]:
    lifelines = {entry["seat"]: entry for entry in last["lifelines"]}
    rows = []
    for seat, power in enumerate(last["powers"]):
        if power is None:
            continue  # out before this battle
        if seat in lifelines:
            entry = lifelines[seat]
            note = _("fell to {fell}, returns once with {back} (lifeline)", fell=entry["from"], back=entry["to"])
        else:
            note = _("out") if seat in last["fallen"] else ""
        rows.append(Standing(words.title(seat), power, signed(last["changes"][seat]), last["lives_after"][seat], note))
    return rows


def _battle_summary(given: BoardInput, words: Words) -> Msg:
    """One line of news: the attacker's result, and the viewer's own."""
    last = given.view["last_battle"]
    attacker = last["attacker"]

    def result(seat: int) -> Msg:
        change = last["changes"][seat]
        return _(
            "power {power} ({change} {unit})",
            power=last["powers"][seat],
            change=signed(change),
            unit=words.unit(change),
        )

    values = {"player": words.title(attacker), "result": result(attacker)}
    if given.you in last["defenders"]:
        summary = _("{player} attacked with {result}; you had {own}.", own=result(given.you), **values)
    else:
        summary = _("{player} attacked with {result}.", **values)
    returned = {entry["seat"] for entry in last["lifelines"]}
    gone = [words.name(s) for s in last["fallen"] if s not in returned]
    return _("{news} Out: {names}.", news=summary, names=listed(gone)) if gone else summary


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
def _scores(view: dict[str, Any], words: Words) -> Scores:
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
    if words.points:
        title = _("Points table")
        caption = _("Points after each battle, newest first, with the change and the power fought with")
    else:
        title = _("Lives table")
        caption = _("Lives after each battle, newest first, with the change and the power fought with")
    return Scores(title, caption, list(words.names), view["start_lives"], rows)
