"""What Dizzy Duo Battle's hard bot could gain from what its view does not show.

    python bench/ddb_ceiling.py [--games N] [--players P] [--seed S] [--jobs J] [--budget S]

An analysis tool, never run by the site. It plays the hard bot against `normal` (2-handed; with
--players 3 or more, one hard bot among normal bots, its seat rotated) in four forms, on the same
deals:
- `hard`: as shipped (its endgame search at --budget CPU seconds a move, as `make ladder` runs it);
- `heuristic`: the same without the search;
- `sees hands`: the heuristic, told every other hand. It attacks, once another seat has passed an
  attack up, when its power beats every other hand by 1 or more (never otherwise, unless forced),
  and on the turn before another seat may attack it keeps the six cards that do best in the fights
  against those hands;
- `sees hands and blind`: also told the blind pile's top card when it chooses where to take from.

Then how much the view tells of the hand that decides most rounds (the other seat's hand when it
may first attack): at the hard bot's turns before that, the correlation between the other hand's
real power and its expectation over the sampler's deals, as the search deals them.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from games.engines import search  # noqa: E402
from games.engines.dizzy_cards import hand_power  # noqa: E402
from games.engines.dizzy_duo_battle import bots  # noqa: E402
from games.engines.dizzy_duo_battle.sampler import known_held, unseen  # noqa: E402
from games.engines.registry import get_engine  # noqa: E402

FORMS = ("hard", "heuristic", "sees hands", "sees hands and blind")
DEALS = 100  # sampler deals per position for the correlation


def fight_score(mine: int, theirs: int) -> int:
    """My life change less theirs in one fight (DD-7): the winner gains the loser's power and the
    loser loses the winner's."""
    if mine == theirs:
        return 0
    return mine + theirs if mine > theirs else -(mine + theirs)


def danger_discard(view: dict[str, Any]) -> bool:
    """The hard bot's discard on the turn before another seat may attack (bots.hard_weight)."""
    return view["phase"] == "discard" and bots.hard_weight(view) == bots.HARD_DANGER_WEIGHT


def _without_attacks(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in legal if m["type"] != "attack"] or legal


def informed_take(view: dict[str, Any], legal: list[dict[str, Any]], blind_top: str | None) -> dict[str, Any]:
    """The take whose best six are worth most, the blind card being known."""
    pool = Counter(unseen(view, known_held(view)))
    weight = bots.hard_weight(view)
    _, blind_value = bots.best_discard(view["hand"] + [blind_top], pool, weight)
    take_open = {"type": "take", "from": "open"}
    if view["open_top"] is not None and take_open in legal:
        _, open_value = bots.best_discard(view["hand"] + [view["open_top"]], pool, weight)
        if open_value > blind_value:
            return take_open
    return {"type": "take", "from": "blind"}


def informed_move(
    view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, powers: list[int], blind_top: str | None
) -> dict[str, Any]:
    """The `sees hands` forms: `powers` are the other hands' powers, `blind_top` the blind card or None."""
    if len(legal) == 1:
        return legal[0]
    if view["phase"] == "take":
        attacks = [m for m in legal if m["type"] == "attack"]
        if attacks and bots._passes(view) and hand_power(view["hand"]) >= max(powers) + 1:
            return attacks[0]
        if blind_top is not None and attacks != legal:
            return informed_take(view, legal, blind_top)
        return bots.hard_heuristic(view, _without_attacks(legal), rng)
    move = bots.hard_heuristic(view, legal, rng)
    if move["type"] != "discard" or not danger_discard(view):
        return move
    pool = Counter(unseen(view, known_held(view)))

    def outcome(card: str) -> tuple[int, float]:
        kept = bots._without(view["hand"], card)
        fights = sum(fight_score(hand_power(kept), theirs) for theirs in powers)
        return fights, bots.hand_value(kept, pool, bots.HARD_DANGER_WEIGHT)

    return {"type": "discard", "card": max(sorted(set(view["hand"])), key=outcome)}


def expected_power(view: dict[str, Any], seat: int, rng: random.Random) -> float:
    """The other seat's power on average over the search's deals (bots.deal)."""
    return statistics.fmean(hand_power(bots.deal(view, rng)["hands"][seat]) for _ in range(DEALS))


def play(task: tuple[str, int, int, int]) -> dict[str, Any]:
    form, seed, players, hard_seat = task
    engine = get_engine("dizzy-duo-battle")
    state = engine.new_state(players, engine.parse_options({}, players), seed)
    rngs = [random.Random(f"{seed}:ceiling:{seat}") for seat in range(players)]
    pairs = []
    while engine.to_act(state):
        seat = engine.to_act(state)[0]
        view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
        if seat != hard_seat:
            move = bots.normal_bot(view, legal, rngs[seat])
        elif form == "hard":
            move = bots.hard_bot(view, legal, rngs[seat])
            if players == 2 and danger_discard(view):
                other = 1 - seat
                pairs.append((hand_power(state["hands"][other]), expected_power(view, other, rngs[seat])))
        elif form == "heuristic":
            move = bots.hard_heuristic(view, legal, rngs[seat])
        else:
            powers = [hand_power(state["hands"][s]) for s in range(players) if s != seat and not state["out"][s]]
            blind_top = state["blind"][-1] if form == "sees hands and blind" and state["blind"] else None
            move = informed_move(view, legal, rngs[seat], powers, blind_top)
        state, _ = engine.apply(state, seat, move)
    result = engine.result(state)
    return {"form": form, "won": hard_seat in result.winners and not result.draw, "pairs": pairs}


def _init(budget: float) -> None:
    search.CLOCK = time.process_time
    bots.HARD_BUDGET_S = budget


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--budget", type=float, default=0.1)
    args = parser.parse_args()
    tasks = [
        (form, args.seed * 1_000_003 + index, args.players, index % args.players)
        for form in FORMS
        for index in range(args.games)
    ]
    with multiprocessing.Pool(args.jobs, _init, (args.budget,)) as pool:
        records = pool.map(play, tasks, chunksize=4)
    print(f"Dizzy Duo Battle, {args.players} players, {args.games} games a form, seeds from {args.seed}")
    for form in FORMS:
        won = sum(r["won"] for r in records if r["form"] == form)
        print(f"  {form:22} wins {won / args.games:6.1%} ({args.players * won / args.games:.2f}x fair share)")
    pairs = [pair for r in records for pair in r["pairs"]]
    if len(pairs) > 2:
        real, expected = zip(*pairs)
        print(
            f"  the other hand's power at the danger turn: real {statistics.fmean(real):.2f} on average, "
            f"expected {statistics.fmean(expected):.2f}; correlation {statistics.correlation(real, expected):.3f} "
            f"over {len(pairs)} positions"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
