"""Bots for Lizzy Ghosties. A bot sees only its seat's view and its legal moves (ENGINE.md).

The "normal" bot scores every legal move with a one-step look at what it does to the table, as
far as the view tells (top cards and stack sizes; a card below a top is unknown):

- as a Lizzy at a table of up to four it hoards: it steals whenever it can, hunts doubles (an
  event means more cards) and chains them, never gives (so its own Lizzy stays as valid as its
  steals made it), and takes cards first from the weakest Lizzies, whose cards would otherwise end
  in the ghosts' piles;
- as a Lizzy at a table of five or more, where the ghosts usually win, it turns ghost soon by
  giving away its two smaller stacks (LG-6's ghostly give) and keeps its biggest for its pile;
- as a ghost it takes doubles (three cards and an event) before single steals, and steals from
  the strongest Lizzies;
- whenever a move ends the game (a showdown Lizzy turning ghost, the Burn Lizzy emptied, the last
  Lizzy standing) or starts the showdown, it counts the cards of both sides and plays for the side
  it will be on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from games.engines.base import Bot, Move, View, random_bot
from games.engines.dizzy_cards import PARTS
from games.engines.lizzy_ghosties.engine import ENGINE
from games.engines.lizzy_ghosties.rules import BURN, info_of_tops
from games.engines.lizzy_ghosties.sampler import sample_state
from games.engines.search import flat_pimc

WIN = 1000.0  # a move that ends the game in our favour beats everything else
CARD = 10.0  # one card more for us
EVENT = 24.0  # a new double on our own (or loaned, or Burn) Lizzy: an event
GOLDEN = 20.0  # a golden double wins its event without a draw
EXTRA_TURN = 8.0  # a double in the showdown: team Lizzies plays again
WEAK_VICTIM = 1.0  # per card the victim has fewer than the richest Lizzy
GHOST_TABLE = 5  # from this many players the ghosts usually win (random play: 87%+): aim to become one
EXPOSED = 6.0  # a showdown Lizzy one steal away from turning ghost


@dataclass
class Table:
    """The counts the bot reasons about, built from the view and changed by a move's effects."""

    me: int
    players: int
    sizes: dict[int, dict[str, int]]  # living Lizzies only: stack sizes
    tops: dict[int, list[str | None]]  # living Lizzies only: top cards
    piles: dict[int, int]  # ghosts only: pile sizes
    burn_sizes: dict[str, int]
    burn_tops: list[str | None]
    loaned_tops: list[str | None] | None
    phase: str
    killed: list[int] = field(default_factory=list)  # Lizzies the move turns ghost

    @classmethod
    def from_view(cls, view: View) -> Table:
        sizes, tops, piles = {}, {}, {}
        for seat_view in view["seats"]:
            seat = seat_view["seat"]
            if seat_view["ghost"]:
                piles[seat] = seat_view["pile_size"]
            else:
                stacks = seat_view["stacks"]
                sizes[seat] = {part: stacks[part]["size"] for part in PARTS}
                tops[seat] = [stacks[part]["top"] for part in PARTS]
        burn = view["burn"]["stacks"]
        loaned = view["loaned"]
        return cls(
            me=view["seat"],
            players=view["players"],
            sizes=sizes,
            tops=tops,
            piles=piles,
            burn_sizes={part: burn[part]["size"] for part in PARTS},
            burn_tops=[burn[part]["top"] for part in PARTS],
            loaned_tops=None if loaned is None else [loaned["stacks"][part]["top"] for part in PARTS],
            phase=view["phase"],
        )

    def copy(self) -> Table:
        """A copy whose counts a move's effects may change (tops of Burn and loaned are read-only)."""
        return replace(
            self,
            sizes={seat: dict(sizes) for seat, sizes in self.sizes.items()},
            tops={seat: list(cards) for seat, cards in self.tops.items()},
            piles=dict(self.piles),
            burn_sizes=dict(self.burn_sizes),
            killed=[],
        )

    def cards(self, seat: int) -> int:
        return sum(self.sizes[seat].values()) if seat in self.sizes else self.piles[seat]

    def take(self, seat: int, part: str) -> str | None:
        """Remove a Lizzy's top card of `part`; turn it ghost when one body part is left (LG-6)."""
        card = self.tops[seat][PARTS.index(part)]
        self.sizes[seat][part] -= 1
        self.tops[seat][PARTS.index(part)] = None  # the card below is unknown
        if sum(1 for size in self.sizes[seat].values() if size) < 2:
            self.piles[seat] = sum(self.sizes.pop(seat).values())
            del self.tops[seat]
            self.killed.append(seat)
        return card

    def put(self, seat: int, card: str | None, part: str) -> None:
        self.sizes[seat][part] += 1
        self.tops[seat][PARTS.index(part)] = card

    def burn_empty(self) -> bool:
        return not any(self.burn_sizes.values())

    def totals(self) -> tuple[int, int]:
        return sum(self.cards(seat) for seat in self.sizes), sum(self.piles.values())

    def verdict(self) -> float | None:
        """WIN or -WIN (0 for a draw) when the game is over now, None while it goes on. Teams
        are what players are at the end (the engine's table rule)."""
        lizzies, ghosts = self.totals()
        if self.phase == "showdown":
            if not (self.killed or self.burn_empty()):  # LG-8's ends
                return None
            if lizzies == ghosts:
                return 0.0
        elif len(self.sizes) == 1:  # LG-9: the last Lizzy takes the Burn Lizzy; equal -> ghosts
            lizzies += sum(self.burn_sizes.values())
        elif self.sizes:
            return None
        else:
            return 0.0  # no Lizzy left: a draw
        lizzies_win = lizzies > ghosts
        return WIN if lizzies_win == (self.me in self.sizes) else -WIN

    def showdown_prospect(self) -> float:
        """How good a showdown starting now looks for the bot's side (a rough count)."""
        lizzies, ghosts = self.totals()
        # The two Lizzies collect much of the Burn Lizzy; the ghosts steal from them meanwhile.
        margin = lizzies + 0.6 * sum(self.burn_sizes.values()) - ghosts
        return margin if self.me in self.sizes else -margin


def normal_bot(view: View, legal: list[Move], rng: random.Random) -> Move:
    table = Table.from_view(view)
    best_score = None
    best: list[Move] = []
    for move in legal:
        score = _score(view, table.copy(), move)
        if best_score is None or score > best_score + 1e-9:
            best_score, best = score, [move]
        elif abs(score - best_score) <= 1e-9:
            best.append(move)
    return rng.choice(best)


def _score(view: View, table: Table, move: Move) -> float:
    """The move's worth for the bot's side; `table` is changed to the position after it."""
    kind = move["type"]
    if kind == "skip":
        return 0.0
    me = table.me
    pending = view["pending"]
    if me in table.sizes and table.phase != "showdown" and table.players >= GHOST_TABLE:
        return _score_ghost_seeker(table, move)
    score = 0.0
    if kind in ("steal", "burn", "ghost_steal"):
        score += _score_taking(pending, table, move)
    elif kind == "give":
        card = table.take(me, move["part"])
        score -= 2 * CARD  # a gift strengthens a rival and weakens us
        if me in table.killed:
            score -= CARD
    elif kind == "ghost_double":
        cards = []
        for part in PARTS:
            source = move[part]
            if source == BURN:
                table.burn_sizes[part] -= 1
                cards.append(view["burn"]["stacks"][part]["top"])
            else:
                cards.append(table.take(source, part))
        info = info_of_tops(cards)
        score += 3 * CARD + EVENT + (GOLDEN if info is not None and info.golden else 0.0)
    elif kind == "move":
        card = table.take(move["from"], move["part"])
        if move["to"] in table.sizes:
            score += _extra_turn_bonus(view, table.tops[move["to"]], card)
            table.put(move["to"], card, move["part"])
    elif kind == "take_burn":
        part = move["part"]
        card = view["burn"]["stacks"][part]["top"]
        table.burn_sizes[part] -= 1
        score += CARD + _extra_turn_bonus(view, table.tops[move["to"]], card)
        if table.sizes[move["to"]][part] == 0:
            score += 3.0  # a third stack makes the Lizzy much harder to turn ghost
        table.put(move["to"], card, part)
    verdict = table.verdict()
    if verdict is not None:
        return verdict + score * 0.01
    if table.killed and table.phase != "showdown" and len(table.sizes) == 2 and table.players > 3:
        score += 2.0 * table.showdown_prospect()  # this move starts the showdown (LG-8)
    if table.phase == "showdown" and me in table.sizes:
        score -= EXPOSED * sum(1 for seat in table.sizes if _exposed(table, seat))
    return score


def _score_taking(pending: dict, table: Table, move: Move) -> float:
    """A steal, a burn or a ghost's steal: what the card is worth where it goes, and whose it was."""
    kind, me = move["type"], table.me
    victim, part = move["from"], move["part"]
    victim_cards = table.cards(victim)
    richest = max(table.cards(seat) for seat in table.sizes if seat != me)
    card = table.take(victim, part)
    if kind == "burn":
        score = CARD * 0.8  # the card leaves a rival for the Burn Lizzy, which Lizzies collect later
        score += _double_bonus(table.burn_tops, card)
    elif pending["kind"] == "ghost_event":
        score = CARD + _double_bonus(table.loaned_tops, card)
    elif kind == "ghost_steal":
        score = CARD + 0.5 * victim_cards  # ghosts take from the likely survivors
    else:
        score = CARD + _double_bonus(table.tops[me], card)
        table.put(me, card, part)
    if kind != "ghost_steal":
        score += WEAK_VICTIM * (richest - victim_cards)  # future ghosts' cards, taken first
    return score


def _score_ghost_seeker(table: Table, move: Move) -> float:
    """A Lizzy at a big table, where the ghosts nearly always win: turn ghost soon (LG-6's
    ghostly give) with as many cards as possible, by giving away the cards of its two smaller
    stacks and keeping the biggest one for its pile."""
    sizes = table.sizes[table.me]
    keep = max(PARTS, key=lambda part: sizes[part])
    if move["type"] == "give":
        return CARD if move["part"] != keep else -2 * CARD
    if move["type"] == "steal":
        # An event's steals go on our own Lizzy: welcome on the stack we keep, a burden elsewhere.
        return CARD / 2 if move["part"] == keep else -CARD
    return -1.0  # burns feed the Burn Lizzy, which only the Lizzies collect


def _double_bonus(top_cards: list[str | None] | None, card: str | None) -> float:
    """A card that makes its receiving Lizzy a double starts an event (or a chain)."""
    if top_cards is None or card is None:
        return 0.0
    changed = list(top_cards)
    changed[PARTS.index(card.split("-")[0])] = card
    info = info_of_tops(changed)
    if info is None or not info.double:
        return 0.0
    return EVENT + (GOLDEN if info.golden else 0.0)


def _extra_turn_bonus(view: View, top_cards: list[str | None], card: str | None) -> float:
    if view["showdown"] is None or view["showdown"]["extra_turn"]:
        return 0.0  # never two extra turns in a row (LG-8)
    return EXTRA_TURN if _double_bonus(top_cards, card) else 0.0


def _exposed(table: Table, seat: int) -> bool:
    """A showdown Lizzy that one ghost steal turns into a ghost, ending the game."""
    held = [size for size in table.sizes[seat].values() if size]
    return len(held) == 2 and min(held) == 1


# --- hard: information-set Monte Carlo over whole games ----------------------------------------
# The hard bot deals the hidden cards anew (sampler.py: states its view cannot tell apart), plays
# each of its legal moves on every such deal, lets `normal` bots finish the game for every seat and
# keeps the move that wins most often for the side it ends on. Games are short (about 100
# decisions, a few milliseconds), so whole games are played out rather than guessed at.

HARD_BUDGET_S = 1.0  # seconds per move; the ladder lowers it (1 s median, 3 s worst)
MIN_DEALS = 3  # deals looked at whatever the budget
MARGIN_Z = 1.0  # standard errors by which a searched move must beat the normal bot's choice
ROLLOUT_LIMIT = 2000  # decisions per rollout, a guard far above any real game
MARGIN_WEIGHT = 0.002  # per card of the final margin: among equal outcomes, the bigger win


def _outcome(state: dict[str, Any], me: int) -> float:
    """1 for a win of my side, 0.5 a draw, 0 a loss, plus a little for the card margin."""
    result = state["result"]
    if result is None or result["draw"]:
        return 0.5
    scores = result["scores"]
    other = result["ghosts"] if me in result["lizzies"] else result["lizzies"]
    margin = scores[me] - (scores[other[0]] if other else 0)
    return (1.0 if me in result["winners"] else 0.0) + MARGIN_WEIGHT * margin


def _play_out(engine: Any, state: dict[str, Any], me: int, move: Move, rng: random.Random) -> float:
    state, _ = engine.apply(state, me, move)
    for _ in range(ROLLOUT_LIMIT):
        if state["phase"] == "over":
            break
        seat = state["step"]["seat"]
        legal = engine.legal_moves(state, seat)
        choice = legal[0] if len(legal) == 1 else normal_bot(engine.view(state, seat), legal, rng)
        state, _ = engine.apply(state, seat, choice)
    return _outcome(state, me)


def hard_bot(view: View, legal: list[Move], rng: random.Random, budget_s: float | None = None) -> Move:
    favourite = normal_bot(view, legal, random.Random(rng.random()))
    if len(legal) == 1:
        return favourite
    engine = ENGINE
    me = view["seat"]
    candidates = [favourite] + [m for m in legal if m != favourite]
    # A move that ends the game in my side's favour needs no search: the end counts cards by the
    # stacks' and piles' sizes, which every deal shares.
    world = sample_state(view, rng)
    for move in candidates:
        after, _ = engine.apply(world, me, move)
        if after["result"] is not None and me in after["result"]["winners"]:
            return move
    best, _means, _rounds = flat_pimc(
        candidates,
        lambda r: sample_state(view, r),
        lambda state, move, r: _play_out(engine, state, me, move, r),
        rng,
        HARD_BUDGET_S if budget_s is None else budget_s,
        min_rounds=MIN_DEALS,
        margin_z=MARGIN_Z,
    )
    return best


# The game's bots by level, named by its spec (games/engines/lizzy_ghosties/__init__.py).
BOTS: dict[str, Bot] = {"random": random_bot, "normal": normal_bot, "hard": hard_bot}
