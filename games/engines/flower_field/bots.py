"""Doubting Flower Field bots: "random", "normal" and "hard".

A bot sees its seat's view and its legal moves only, and always answers with a move from that list.

What the levels do:
- normal: challenges every equal pair the opponent's last planting made (legal_moves lists every
  challenge that could be true, so it checks each against the board and its own hidden flowers);
  plants one flower that makes no equal pair, away from its own hidden flowers; hides at random;
  challenges every challenge it cannot prove true; never bluffs.
- hard: as normal, and it also
  - plants to leave the opponent without a safe planting (the game's real end: a player who cannot
    plant without making equal fields loses a life at every redo) with a short look-ahead, and
    weighs the chance that a cell holds one of the opponent's hidden flowers;
  - hides its flowers near the centre, where the opponent soon plants on them (each costs them a life)
    and where they can complete equal fields;
  - bluffs sometimes, with an empty cell, when it has no safe planting left;
  - decides a challenge-challenge from the odds: what it knows for sure (cells that cannot hold the
    opponent's hidden flower, what earlier challenge-challenges proved) and otherwise the opponent's
    record of honest and false claims.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import Bot, Move, View, random_bot
from games.engines.flower_field.rules import (
    CELL_INDEX,
    CELLS,
    CENTRE,
    COLOURS,
    EMPTY,
    NEIGHBOURS,
    PLACEMENTS,
    PLACEMENTS_OF_CELL,
    SIZE,
    codes_of,
    fields_equal,
    key_counts,
    new_keys,
    placement_key,
    planting_makes_duplicate,
)

# A challenge-challenge pays +2 lives of difference when right and costs 1 when wrong: doubt when the
# chance that the claim is false is above 1/3.
DOUBT_THRESHOLD = 1 / 3
# How likely a claim the bot accepted was true (its cell then probably holds a hidden flower).
SUSPECTED = 0.7


class Knowledge:
    """What one seat knows, read from its view."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.opponent = 1 - self.seat
        self.colours = {CELL_INDEX[cell]: colour for cell, colour in view["board"].items()}
        self.codes = codes_of(self.colours)
        self.my_hidden = {CELL_INDEX[h["cell"]]: h for h in view["hidden"]}
        self.my_live = {cell: h["colour"] for cell, h in self.my_hidden.items() if h["status"] == "live"}
        self.ever_planted = {CELL_INDEX[f["cell"]] for p in view["plantings"] for f in p["flowers"]}
        explosions = [CELL_INDEX[cell] for cell in view["explosions"]]
        cancelled = sum(1 for h in self.my_hidden.values() if h["status"] == "cancelled")
        mine_exploded = sum(1 for h in self.my_hidden.values() if h["status"] == "exploded")
        # Each cancelled cell was also one of theirs; every explosion not on my flowers was theirs.
        self.opponent_hidden = 2 - cancelled
        self.opponent_live = max(0, self.opponent_hidden - (len(explosions) - mine_exploded))
        # Cells where a challenge-challenge proved the opponent's hidden flower, with possible colours.
        self.proven: dict[int, set[str]] = {}
        self.suspected: dict[int, set[str]] = {}  # cells of claims I accepted (truth unknown), colours
        self.claimed: set[int] = set()  # every cell the opponent ever claimed
        self.honest_record = 0
        self.false_record = 0
        self.my_claims_accepted = 0
        self.my_claims_doubted = 0
        for challenge in view["challenges"]:
            if not challenge["empty"]:
                continue
            if challenge["seat"] == self.seat:
                if challenge["doubt"] == "accepted":
                    self.my_claims_accepted += 1
                elif challenge["doubt"] in ("successful", "failed"):
                    self.my_claims_doubted += 1
                continue
            empty = [CELL_INDEX[c] for c in challenge["empty"]]
            self.claimed.update(empty)
            if challenge["doubt"] == "failed":
                self.honest_record += 1
                for cell, colours in self._possible_fillings(challenge).items():
                    self.proven.setdefault(cell, set(COLOURS)).intersection_update(colours)
            elif challenge["doubt"] == "successful":
                self.false_record += 1
            elif challenge["doubt"] == "accepted":
                for cell, colours in self._possible_fillings(challenge).items():
                    self.suspected.setdefault(cell, set()).update(colours)
        # A proven or suspected flower is gone once its cell was planted on.
        self.proven = {c: k for c, k in self.proven.items() if c not in self.ever_planted}
        self.suspected = {
            c: k for c, k in self.suspected.items() if c not in self.ever_planted and c not in self.proven
        }

    def _possible_fillings(self, challenge: dict[str, Any]) -> dict[int, set[str]]:
        """For a claim proved true: the colours each empty cell may have, on the board it was made on."""
        a = [CELL_INDEX[c] for c in challenge["a"]]
        b = [CELL_INDEX[c] for c in challenge["b"]]
        empty = [CELL_INDEX[c] for c in challenge["empty"]]
        seen = {CELL_INDEX[c]: colour for c, colour in challenge["seen"].items() if colour}
        found: dict[int, set[str]] = {cell: set() for cell in empty}
        for filling in _fillings(empty):
            if fields_equal({**seen, **filling}, a, b):
                for cell, colour in filling.items():
                    found[cell].add(colour)
        return found

    def claimable_by_opponent(self, cell: int) -> bool:
        """Whether the opponent may still have a live hidden flower on this cell."""
        if cell in self.colours or cell in self.ever_planted or cell in self.my_hidden:
            return False
        return self.opponent_live > 0 and CELLS[cell] != CENTRE

    def explosion_risk(self, cell: int) -> float:
        """The chance that planting on this cell explodes one of the opponent's hidden flowers."""
        if cell in self.proven:
            return 1.0
        if not self.claimable_by_opponent(cell):
            return 0.0
        if cell in self.suspected:
            return SUSPECTED
        unknown_live = max(0.0, self.opponent_live - len(self.proven) - SUSPECTED * len(self.suspected))
        unknown_cells = sum(
            1
            for i in range(SIZE * SIZE)
            if self.claimable_by_opponent(i) and i not in self.proven and i not in self.suspected
        )
        return unknown_live / unknown_cells if unknown_cells else 0.0


def _fillings(empty: list[int]) -> list[dict[int, str]]:
    result: list[dict[int, str]] = [{}]
    for cell in empty:
        result = [{**partial, cell: colour} for partial in result for colour in COLOURS]
    return result


def _challenge_cells(move: Move) -> tuple[list[int], list[int]]:
    return [CELL_INDEX[c] for c in move["a"]], [CELL_INDEX[c] for c in move["b"]]


def certain_challenges(know: Knowledge, legal: list[Move]) -> tuple[list[Move], list[Move]]:
    """Listed challenges this seat knows to be true: (on visible flowers only, using its hidden flowers)."""
    visible, hidden = [], []
    for move in legal:
        if move["type"] != "challenge":
            continue
        a, b = _challenge_cells(move)
        empty = [i for i in set(a + b) if i not in know.colours]
        if not empty:
            if fields_equal(know.colours, a, b):
                visible.append(move)
        elif all(i in know.my_live for i in empty):
            if fields_equal({**know.colours, **{i: know.my_live[i] for i in empty}}, a, b):
                hidden.append(move)
    return visible, hidden


def open_cells(codes: list[int]) -> list[int]:
    return [i for i in range(SIZE * SIZE) if codes[i] == EMPTY and any(codes[n] != EMPTY for n in NEIGHBOURS[i])]


def safe_singles(codes: list[int], counts: Any, avoid: set[int] = frozenset()) -> list[tuple[int, int]]:
    """(cell, colour code) plantings of one flower that make no equal fields."""
    safe = []
    for cell in open_cells(codes):
        if cell in avoid:
            continue
        for colour in range(3):
            codes[cell] = colour
            keys = new_keys(codes, cell)
            codes[cell] = EMPTY
            if len(set(keys)) == len(keys) and not any(counts.get(k, 0) for k in keys):
                safe.append((cell, colour))
    return safe


def _plant_move(flowers: list[tuple[int, int]]) -> Move:
    flowers = sorted(flowers)
    return {"type": "plant", "flowers": [{"cell": CELLS[c], "colour": COLOURS[k]} for c, k in flowers]}


def _play(cells_colours: list[tuple[int, int]], codes: list[int], counts: Any) -> None:
    """Put flowers on the board of codes and count their new fields (undo with _unplay)."""
    for cell, colour in cells_colours:
        codes[cell] = colour
    done = set()
    for cell, _ in cells_colours:
        for p in PLACEMENTS_OF_CELL[cell]:
            if p in done:
                continue
            done.add(p)
            key = placement_key(codes, p)
            if key is not None:
                counts[key] += 1


def _unplay(cells_colours: list[tuple[int, int]], codes: list[int], counts: Any) -> None:
    done = set()
    for cell, _ in cells_colours:
        for p in PLACEMENTS_OF_CELL[cell]:
            if p in done:
                continue
            done.add(p)
            key = placement_key(codes, p)
            if key is not None:
                counts[key] -= 1
    for cell, _ in cells_colours:
        codes[cell] = EMPTY


# --- the shared turn logic ----------------------------------------------------------------


def _choose(view: View, legal: list[Move], rng: random.Random, hard: bool) -> Move:
    kinds = {move["type"] for move in legal}
    if "order" in kinds:
        return rng.choice(legal)
    if "hide" in kinds:
        return _hide(view, legal, rng, hard)
    know = Knowledge(view)
    if "challenge_challenge" in kinds:
        if hard:
            return _hard_doubt(know, rng)
        return _doubt(know, legal, rng, hard)
    visible, hidden = certain_challenges(know, legal)
    if visible:
        return rng.choice(visible)
    if hidden:
        return rng.choice(hidden)
    if "pass" in kinds:
        return {"type": "pass"}
    if hard and "give_up" in kinds:
        bluff = _mixed_bluff(know, legal, rng)
        if bluff is not None:
            return bluff
    plant = _plant(know, legal, rng, hard)
    if plant is not None:
        return plant
    # No safe planting: every planting makes equal fields.
    if hard:
        bluff = _bluff(know, legal, rng)
        if bluff is not None:
            return bluff
    return _least_bad_planting(know, legal, rng)


def _hide(view: View, legal: list[Move], rng: random.Random, hard: bool) -> Move:
    if not hard:
        return rng.choice(legal)
    # Next to the centre (mostly) or one step further: the opponent soon plants there, and each
    # explosion costs them a life; fields form there too, for honest claims. Measured against normal:
    # about 76% wins next to D4, 68% within two steps, 68% anywhere.
    weights = {1: 3, 2: 1}
    cells = [cell for cell in CELLS if _distance(cell, CENTRE) in weights]
    chosen: list[str] = []
    while len(chosen) < 2:
        cell = rng.choices(cells, [weights[_distance(c, CENTRE)] for c in cells])[0]
        if cell not in chosen:
            chosen.append(cell)
    first, second = sorted(chosen, key=CELL_INDEX.get)
    move = {
        "type": "hide",
        "flowers": [
            {"cell": first, "colour": rng.choice(COLOURS)},
            {"cell": second, "colour": rng.choice(COLOURS)},
        ],
    }
    return move if move in legal else rng.choice(legal)


def _distance(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))


def _doubt(know: Knowledge, legal: list[Move], rng: random.Random, hard: bool) -> Move:
    pending = know.view["pending"]
    a = [CELL_INDEX[c] for c in pending["a"]]
    b = [CELL_INDEX[c] for c in pending["b"]]
    empty = [CELL_INDEX[c] for c in pending["empty"]]
    # The undone planting is part of the board the claim was judged on.
    colours = dict(know.colours)
    for flower in pending["undone"]:
        colours[CELL_INDEX[flower["cell"]]] = flower["colour"]
    p_false = _chance_false(know, colours, a, b, empty, hard)
    doubt = p_false > DOUBT_THRESHOLD + 1e-9
    return {"type": "challenge_challenge"} if doubt else {"type": "accept"}


def _chance_false(
    know: Knowledge, colours: dict[int, str], a: list[int], b: list[int], empty: list[int], hard: bool
) -> float:
    if any(not know.claimable_by_opponent(cell) and cell not in know.proven for cell in empty):
        return 1.0  # a cell that surely holds none of the opponent's live hidden flowers
    unproven = [cell for cell in empty if cell not in know.proven]
    if len(unproven) > know.opponent_live - len([c for c in know.proven if c not in empty]):
        return 1.0  # more claimed flowers than they can have
    if not unproven:
        # Every cell proved before: true exactly when some proved colours make the fields equal.
        for filling in _fillings(empty):
            if all(filling[cell] in know.proven[cell] for cell in empty):
                if fields_equal({**colours, **filling}, a, b):
                    return 0.0
        return 1.0
    if not hard:
        return 1.0  # normal doubts whatever it cannot prove true
    # The odds, from the opponent's record of claims proved honest or false (smoothed towards honest:
    # a claim is cheap to refuse only when it is a lie); two unknown cells are twice as unlikely.
    honesty = (know.honest_record + 2) / (know.honest_record + know.false_record + 3)
    p_true = honesty ** len(unproven)
    if len(know.claimed | set(empty)) > know.opponent_hidden:
        p_true *= 0.3  # they have claimed more cells than they ever had hidden flowers
    return 1.0 - p_true


def _bluff(know: Knowledge, legal: list[Move], rng: random.Random) -> Move | None:
    """Sometimes, when stuck, claim a hidden flower on an empty cell the opponent cannot rule out; the
    more often the opponent accepted my claims, the more often."""
    accept_rate = (know.my_claims_accepted + 1) / (know.my_claims_accepted + know.my_claims_doubted + 2)
    if rng.random() > 0.7 * accept_rate:
        return None
    options = _plausible_bluffs(know, legal)
    return rng.choice(options) if options else None


def _plausible_bluffs(know: Knowledge, legal: list[Move]) -> list[Move]:
    """The challenges a bluff may use: their cells leave exactly one empty cell, and not one holding a
    hidden flower of the bot's own."""
    options = []
    for move in legal:
        if move["type"] != "challenge":
            continue
        a, b = _challenge_cells(move)
        empty = [i for i in set(a + b) if i not in know.colours]
        if len(empty) == 1 and empty[0] not in know.my_hidden:
            options.append(move)
    return options


def _least_bad_planting(know: Knowledge, legal: list[Move], rng: random.Random) -> Move:
    singles = [m for m in legal if m["type"] == "plant" and len(m["flowers"]) == 1]
    safe_cells = [m for m in singles if CELL_INDEX[m["flowers"][0]["cell"]] not in know.my_live]
    options = safe_cells or singles or [m for m in legal if m["type"] == "plant"] or legal
    return rng.choice(options)


def _plant(know: Knowledge, legal: list[Move], rng: random.Random, hard: bool) -> Move | None:
    """A planting that makes no equal fields, or None if there is none."""
    if not any(m["type"] == "plant" for m in legal):
        return None
    codes = list(know.codes)
    counts = key_counts(codes)
    avoid = set(know.my_live) | set(know.proven)
    singles = safe_singles(codes, counts, avoid)
    if not singles:
        return None
    if not hard:
        return _plant_move([rng.choice(singles)])
    return _hard_planting(know, codes, counts, singles, rng)


def _hidden_chance(know: Knowledge, cell: int, colour: int) -> float:
    """The chance that the opponent holds a live hidden flower of this colour on this cell."""
    for known, chance in ((know.proven, 1.0), (know.suspected, SUSPECTED)):
        if cell in known:
            return chance / len(known[cell]) if COLOURS[colour] in known[cell] else 0.0
    return know.explosion_risk(cell) / 3


class Threats:
    """Where the opponent's hidden flowers could complete equal fields: a planting that makes a field
    equal to a field with one empty cell (or the other way round) invites an honest claim."""

    def __init__(self, know: Knowledge, codes: list[int]) -> None:
        self.know = know
        self.holes: dict[int, list[tuple[int, int, float]]] = {}  # key -> (hole, colour, chance)
        for p, cells in enumerate(PLACEMENTS):
            empty = [c for c in cells if codes[c] == EMPTY]
            if len(empty) != 1 or not self.may_hold(empty[0]):
                continue
            hole = empty[0]
            for colour in range(3):
                chance = _hidden_chance(know, hole, colour)
                if chance > 0:
                    codes[hole] = colour
                    self.holes.setdefault(placement_key(codes, p), []).append((hole, colour, chance))
            codes[hole] = EMPTY

    def may_hold(self, cell: int) -> bool:
        return self.know.claimable_by_opponent(cell) or cell in self.know.proven

    def threat(self, codes: list[int], counts: Any, flowers: list[tuple[int, int]]) -> float:
        """The chance-weighted count of claims the planting would invite (at most 1)."""
        new_cells = {cell for cell, _ in flowers}
        for cell, colour in flowers:
            codes[cell] = colour
        found: dict[tuple[int, int], float] = {}
        try:
            for cell in new_cells:
                for p in PLACEMENTS_OF_CELL[cell]:
                    empty = [c for c in PLACEMENTS[p] if codes[c] == EMPTY]
                    if not empty:
                        for hole, colour, chance in self.holes.get(placement_key(codes, p), ()):
                            if hole not in new_cells:
                                found[(hole, colour)] = chance
                    elif len(empty) == 1 and self.may_hold(empty[0]):
                        hole = empty[0]
                        for colour in range(3):
                            chance = _hidden_chance(self.know, hole, colour)
                            if chance > 0:
                                codes[hole] = colour
                                if counts.get(placement_key(codes, p), 0):
                                    found[(hole, colour)] = chance
                        codes[hole] = EMPTY
        finally:
            for cell in new_cells:
                codes[cell] = EMPTY
        return min(1.0, sum(found.values()))


# The hard bot's look-ahead works in "lives": an explosion costs one, an honest claim about one and a
# redo; leaving the opponent without a safe planting usually wins the game, being left so loses it.
STUCK_VALUE = 10.0
THREAT_WEIGHT = 1.2
# At most this many safe-planting counts per move (each about 2 ms), to stay well under 500 ms.
SEARCH_BUDGET = 150


def _hard_planting(
    know: Knowledge, codes: list[int], counts: Any, singles: list[tuple[int, int]], rng: random.Random
) -> Move:
    risk = {cell: know.explosion_risk(cell) for cell in {c for c, _ in singles}}
    threats = Threats(know, codes)
    candidates: list[list[tuple[int, int]]] = [[m] for m in singles]
    if len(singles) <= 12:
        # Two flowers change who runs out of safe plantings first.
        for i, m1 in enumerate(singles):
            for m2 in singles[i + 1 :]:
                if m1[0] != m2[0] and not planting_makes_duplicate(codes, counts, [m1, m2]):
                    candidates.append([m1, m2])
    scored = []
    for flowers in candidates:
        score = -sum(risk[c] for c, _ in flowers) - THREAT_WEIGHT * threats.threat(codes, counts, flowers)
        scored.append([score, flowers, None])
    budget = SEARCH_BUDGET
    if len(candidates) <= budget:
        # Two plies: which plantings leave the opponent without a safe planting?
        for entry in scored:
            _play(entry[1], codes, counts)
            entry[2] = safe_singles(codes, counts)
            _unplay(entry[1], codes, counts)
            if not entry[2]:
                entry[0] += STUCK_VALUE
        budget -= len(candidates)
        # Three plies, best first while the budget lasts: can the opponent's reply leave me stuck?
        avoid = set(know.my_live) | set(know.proven)
        for entry in sorted(scored, key=lambda e: -e[0]):
            replies = entry[2]
            if not replies or len(replies) > budget:
                continue
            budget -= len(replies)
            _play(entry[1], codes, counts)
            refuted = 0
            for reply in replies:
                _play([reply], codes, counts)
                if not safe_singles(codes, counts, avoid):
                    refuted += 1
                _unplay([reply], codes, counts)
            _unplay(entry[1], codes, counts)
            if refuted:
                # A careful opponent finds the reply, a careless one by chance.
                entry[0] -= STUCK_VALUE * (0.5 + 0.5 * refuted / len(replies))
    best = max(entry[0] for entry in scored)
    return _plant_move(rng.choice([entry[1] for entry in scored if entry[0] >= best - 1e-9]))


def normal_bot(view: View, legal: list[Move], rng: random.Random) -> Move:
    return _choose(view, legal, rng, hard=False)


def hard_bot(view: View, legal: list[Move], rng: random.Random, budget_s: float | None = None) -> Move:
    """Bounded work (about 25 ms a move, 100 ms at worst on the 2-core sandbox), far under any budget:
    `budget_s` is accepted like the other games' hard bots take it, and not needed."""
    return _choose(view, legal, rng, hard=True)


# --- hard: beliefs about claims and mixed bluffing -------------------------------------------------
# Every claim of the opponent is judged in three steps: can it be true at all (sampler.Facts: each
# empty named cell may still hold one of their live flowers, they have that many, and some colours
# make the fields equal)? How likely is a random deal of their flowers to make it true (sampled)?
# And how honest have their claims been, counting every claim: judged ones, and impossible ones
# as lies even when accepted. The hard bot's own bluffs are random in time and place, more
# frequent the more often the opponent let its claims pass.

HARD_BUDGET_S = 1.0  # the site's budget per move; this bot's bounded work needs far less (see hard_bot)
HONEST_PRIOR = (2.0, 1.0)  # Beta prior on a claim being honest (pseudo-counts honest, false)
DEALS = 60  # sampled deals of the opponent's flowers per claim
TOO_MANY_CLAIMED = 0.5  # a claim naming more live cells than they can have with their other claims
PASSED_CLAIM = 0.6  # per earlier claim let pass unjudged: honest claims are rare, repeated ones rarer
BLUFF_FLOOR = 0.02  # bluffing never stops entirely, so the bot's claims cannot be read
BLUFF_PROBE = 0.08  # before the opponent has answered any claim of the bot
BLUFF_CEILING = 0.85


def _claim_record(view: View, facts: Any) -> tuple[int, int, set[str], int]:
    """(claims proven honest, claims known false, cells named by claims let pass, claims let pass)
    of the opponent."""
    from games.engines.flower_field.sampler import fillable

    honest = lies = passed = 0
    accepted: set[str] = set()
    for index, challenge in enumerate(view["challenges"]):
        if challenge["seat"] != facts.opponent or not challenge["empty"]:
            continue
        if view["pending"] is not None and index == len(view["challenges"]) - 1:
            continue  # the claim being judged now
        if challenge["doubt"] == "failed":
            honest += 1
        elif challenge["doubt"] == "successful":
            lies += 1
        elif not fillable(challenge["a"], challenge["b"], challenge["empty"], challenge["seen"]):
            lies += 1  # let pass, but no colour could make it true
        elif challenge["doubt"] == "accepted":
            passed += 1
            accepted.update(c for c in challenge["empty"] if c in facts.possible)
    return honest, lies, accepted, passed


def claim_truth_chance(view: View, rng: random.Random) -> float:
    """The chance that the pending claim of the opponent is true (see above)."""
    from games.engines.flower_field.sampler import Facts, claim_true, sample_hidden

    facts = Facts(view)
    claim = view["challenges"][-1]
    if not facts.claim_possible(claim["a"], claim["b"], claim["empty"], claim["seen"]):
        return 0.0
    hits = 0
    for _ in range(DEALS):
        flowers = {h["cell"]: h["colour"] for h in sample_hidden(facts, rng) if h["status"] == "live"}
        hits += claim_true(claim, flowers)
    by_chance = hits / DEALS
    honest, lies, accepted, passed = _claim_record(view, facts)
    honesty = (honest + HONEST_PRIOR[0]) / (honest + lies + HONEST_PRIOR[0] + HONEST_PRIOR[1])
    chance = honesty * PASSED_CLAIM**passed + (1.0 - honesty) * by_chance
    if len(accepted | set(claim["empty"])) > facts.live_count:
        chance *= TOO_MANY_CLAIMED
    return chance


def _hard_doubt(know: Knowledge, rng: random.Random) -> Move:
    """Doubt when the claim is false with a chance above 1/3 (+2 lives of difference when right,
    -1 when wrong); what earlier challenge-challenges proved decides first."""
    pending = know.view["pending"]
    colours = dict(know.colours)
    for flower in pending["undone"]:
        colours[CELL_INDEX[flower["cell"]]] = flower["colour"]
    a, b = _challenge_cells(pending)
    empty = [CELL_INDEX[c] for c in pending["empty"]]
    sure = _chance_false(know, colours, a, b, empty, hard=False)
    if sure == 0.0 or not all(cell not in know.proven for cell in empty):
        p_false = sure  # every cell proved before: the truth is known
    else:
        p_false = 1.0 - claim_truth_chance(know.view, rng)
    doubt = p_false > DOUBT_THRESHOLD + 1e-9
    return {"type": "challenge_challenge"} if doubt else {"type": "accept"}


def _mixed_bluff(know: Knowledge, legal: list[Move], rng: random.Random) -> Move | None:
    """A bluff at a random moment on a random plausible cell, as often as the opponent's answers to
    the bot's claims make it pay: it pays when they doubt less than a third of them."""
    answered = know.my_claims_accepted + know.my_claims_doubted
    doubt_rate = (know.my_claims_doubted + 1) / (answered + 2)
    if answered == 0:
        chance = BLUFF_PROBE
    elif doubt_rate >= 1 / 3:
        chance = BLUFF_FLOOR
    else:
        chance = min(BLUFF_CEILING, BLUFF_FLOOR + 4 * (1 / 3 - doubt_rate))
    if rng.random() >= chance:
        return None
    options = _plausible_bluffs(know, legal)
    return rng.choice(options) if options else None


# The game's bots by level, named by its spec (games/engines/flower_field/__init__.py).
BOTS: dict[str, Bot] = {"random": random_bot, "normal": normal_bot, "hard": hard_bot}
