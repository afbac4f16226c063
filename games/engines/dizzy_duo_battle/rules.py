"""Pure rules of Dizzy Duo Battle, for the engine (engine.py) and the bots: who is still in, when an
attack is allowed and why not (ruling DD-7, DD-9), the legal moves, a fight's outcome. Nothing here
changes a state; the cards' own rules (Lizzies, Dizzy Duos, power) are games/engines/dizzy_cards.py.
"""

from __future__ import annotations

from typing import Any

from games.engines import dizzy_cards as cards
from games.engines.base import Move, State
from games.engines.words import Msg, _

HAND_SIZE = 6
TURNS_BEFORE_ATTACK = 3  # ruling DD-7
FORCED_ATTACK_TURN = 10  # ruling DD-7: the 10th turn of a round must be an attack
MAX_ROUNDS = 50  # ruling DD-8


def players_in(state: State) -> list[int]:
    return [seat for seat in range(state["players"]) if not state["out"][seat]]


def seats_from(state: State, seat: int) -> list[int]:
    """Players still in, clockwise, starting with `seat` (when in) — seat order."""
    players = state["players"]
    return [s for s in ((seat + k) % players for k in range(players)) if not state["out"][s]]


def next_in(state: State, seat: int) -> int:
    players = state["players"]
    for k in range(1, players + 1):
        candidate = (seat + k) % players
        if not state["out"][candidate]:
            return candidate
    raise AssertionError("nobody is in")


def attack_forced(state: State, seat: int) -> bool:
    # ruling DD-7: a player whose 10th turn of the round comes with no attack yet must attack.
    return state["turns"][seat] >= FORCED_ATTACK_TURN - 1


def fewest_turns(state: State) -> int:
    # ruling DD-7: the attack gate counts the turns of the players still in.
    return min((state["turns"][s] for s in players_in(state)), default=0)


def turns_block(state: State) -> Msg | None:
    # ruling DD-7: an attack needs every player still in to have taken 3 turns this round.
    fewest = fewest_turns(state)
    if fewest >= TURNS_BEFORE_ATTACK:
        return None
    return _(
        "You cannot attack yet: every player needs {turns} turns this round (the fewest so far is {fewest}).",
        turns=TURNS_BEFORE_ATTACK,
        fewest=fewest,
    )


def attack_block(state: State, seat: int) -> Msg | None:
    """Why `seat` may not attack right now (None: it may), as a player reads it."""
    if state["phase"] == "over":
        return _("The game is over.")
    if state["out"][seat]:
        return _("You are out of the game.")
    if seat != state["current"]:
        return _("You may attack only on your own turn.")
    main = state["options"]["main_attack"]
    if state["phase"] == "take":
        if main:
            return _("Main attack rule: take a card first, then attack by discarding a head card.")
        if attack_forced(state, seat):
            return None
        return turns_block(state) or (
            None
            if cards.has_two_lizzies(state["hands"][seat])
            else _("You cannot attack: you need two Lizzies in your hand.")
        )
    if not main:
        return _("You already took a card this turn: discard one.")
    if attack_forced(state, seat):
        return None
    blocked = turns_block(state)
    if blocked:
        return blocked
    if not main_attack_heads(state["hands"][seat]):
        return _(
            "You cannot attack: you need a head card to discard that leaves two Lizzies in the six cards you keep."
        )
    return None


def main_attack_heads(hand: list[str]) -> list[str]:
    """Ruling DD-9 main attack: the head cards whose discard keeps two valid Lizzies."""
    heads = []
    for card in sorted(set(hand)):
        if cards.part_of(card) == "head":
            rest = list(hand)
            rest.remove(card)
            if cards.has_two_lizzies(rest):
                heads.append(card)
    return heads


def forced_main_attack_cards(hand: list[str]) -> list[str]:
    # Table rule: a forced main attack discards a head card; a hand with no head discards any.
    heads = sorted({c for c in hand if cards.part_of(c) == "head"})
    return heads or sorted(set(hand))


def legal_moves(state: State, seat: int) -> list[Move]:
    """The moves `seat` may make now (the engine's legal_moves)."""
    if state["phase"] == "over" or seat != state["current"]:
        return []
    main = state["options"]["main_attack"]
    hand = state["hands"][seat]
    forced = attack_forced(state, seat)
    if state["phase"] == "take":
        if forced and not main:
            return [{"type": "attack"}]
        moves: list[Move] = []
        if state["open"]:
            moves.append({"type": "take", "from": "open"})
        moves.append({"type": "take", "from": "blind"})
        if not main and attack_block(state, seat) is None:
            moves.append({"type": "attack"})
        return moves
    if main and forced:
        return [{"type": "attack", "card": c} for c in forced_main_attack_cards(hand)]
    moves = [{"type": "discard", "card": c} for c in sorted(set(hand), key=cards.card_sort_key)]
    if main and attack_block(state, seat) is None:
        moves += [{"type": "attack", "card": c} for c in main_attack_heads(hand)]
    return moves


def fight_outcome(attack_power: int, defence_power: int, attacker: int, defender: int, points: bool) -> dict[str, Any]:
    """One fight of a battle. The winner gains the loser's power; the loser loses the winner's power (in
    points mode, ruling DD-9, scores only rise: the loser loses nothing). Equal: nothing (DD-7)."""
    attacker_change = defender_change = 0
    winner: int | None = None
    if attack_power > defence_power:
        winner = attacker
        attacker_change = defence_power
        defender_change = 0 if points else -attack_power
    elif defence_power > attack_power:
        winner = defender
        defender_change = attack_power
        attacker_change = 0 if points else -defence_power
    return {
        "defender": defender,
        "attacker_power": attack_power,
        "defender_power": defence_power,
        "winner": winner,
        "attacker_change": attacker_change,
        "defender_change": defender_change,
    }
