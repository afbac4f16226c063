"""The Dizzy Lizzy deck, shared by Dizzy Duo Battle and Lizzy Ghosties (rulings LZ-1 to LZ-3).

A card is a string "part-colour-pattern", with "-gold" for a golden card: "tail-purple-diamonds-gold".
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

PARTS = ("head", "body", "tail")
COLOURS = ("red", "blue", "purple")
PATTERNS = ("dots", "stripes", "diamonds")

# ruling LZ-1: per part, one copy of each of these (colour, pattern) pairs is golden. The deck is
# this one table; a corrected list is a one-line change.
GOLDEN_PAIRS = (("red", "dots"), ("blue", "stripes"), ("purple", "diamonds"))
COPIES = 2


def _build_deck() -> tuple[str, ...]:
    deck = []
    for part in PARTS:
        for colour in COLOURS:
            for pattern in PATTERNS:
                golden = (colour, pattern) in GOLDEN_PAIRS
                for copy_index in range(COPIES):
                    gold = golden and copy_index == 0
                    deck.append(f"{part}-{colour}-{pattern}" + ("-gold" if gold else ""))
    return tuple(deck)


DECK: tuple[str, ...] = _build_deck()  # 54 cards


@dataclass(frozen=True)
class Card:
    part: str
    colour: str
    pattern: str
    golden: bool

    @property
    def name(self) -> str:
        return f"{self.part}-{self.colour}-{self.pattern}" + ("-gold" if self.golden else "")


def parse(card: str) -> Card:
    bits = card.split("-")
    if len(bits) not in (3, 4) or bits[0] not in PARTS or bits[1] not in COLOURS or bits[2] not in PATTERNS:
        raise ValueError(f"not a Dizzy Lizzy card: {card!r}")
    if len(bits) == 4 and bits[3] != "gold":
        raise ValueError(f"not a Dizzy Lizzy card: {card!r}")
    return Card(bits[0], bits[1], bits[2], len(bits) == 4)


def part_of(card: str) -> str:
    return card.split("-", 1)[0]


def describe(card: str) -> str:
    """Plain words for a card: "golden purple diamonds tail"."""
    c = parse(card)
    return ("golden " if c.golden else "") + f"{c.colour} {c.pattern} {c.part}"


def _condition(values: Iterable[str]) -> str | None:
    distinct = len(set(values))
    if distinct == 1:
        return "same"
    if distinct == 3:
        return "different"
    return None


@dataclass(frozen=True)
class LizzyInfo:
    """Ruling LZ-2 for one (head, body, tail)."""

    colours: str | None  # "same", "different" or None
    patterns: str | None
    valid: bool
    double: bool
    golden: bool


_CLASSIFIED: dict[tuple[str, ...], LizzyInfo] = {}  # at most 30 x 30 x 30 valid names


def classify(lizzy: tuple[str, str, str] | list[str]) -> LizzyInfo:
    """Classify a Lizzy given as (head, body, tail). Raises ValueError for wrong parts."""
    key = tuple(lizzy)
    info = _CLASSIFIED.get(key)
    if info is None:
        info = _classify(key)
        _CLASSIFIED[key] = info
    return info


def _classify(lizzy: tuple[str, ...]) -> LizzyInfo:
    cards = [parse(c) for c in lizzy]
    if [c.part for c in cards] != list(PARTS):
        raise ValueError(f"a Lizzy is head, body, tail: {list(lizzy)!r}")
    colours = _condition(c.colour for c in cards)
    patterns = _condition(c.pattern for c in cards)
    valid = colours is not None or patterns is not None
    double = colours is not None and patterns is not None
    golden = valid and all(c.golden for c in cards)
    return LizzyInfo(colours, patterns, valid, double, golden)


# ruling LZ-3: every Dizzy Die has these six faces (colour, pattern).
DIE_FACES = (
    ("red", "stripes"),
    ("red", "diamonds"),
    ("blue", "dots"),
    ("blue", "diamonds"),
    ("purple", "dots"),
    ("purple", "stripes"),
)


def throw_dice(rng: random.Random) -> list[str]:
    """Three Dizzy Dice (head, body, tail), read as a Lizzy of non-golden cards."""
    return [f"{part}-{c}-{p}" for part, (c, p) in zip(PARTS, (rng.choice(DIE_FACES) for _ in PARTS))]


# --- attack power (Dizzy Duo Battle, rulings DD-2 to DD-5) ------------------------------------

# ruling DD-3: the power of one valid Lizzy.
SINGLE_POWER = 1  # one condition
MIXED_DOUBLE_POWER = 2  # a colour and a pattern condition, one "same" and one "different"
PURE_DOUBLE_POWER = 3  # two "same" or two "different"
GOLDEN_POWER = 5  # three golden cards forming a valid Lizzy
# ruling DD-4: the duo bonuses.
SAME_CONDITION_BONUS = 1
IDENTICAL_BONUS = 2
SPECIAL_DUO_BONUS = 10


def card_sort_key(card: str) -> tuple[int, int, int, int]:
    """Head, body, tail; then colour, pattern, plain before golden: a tidy order for a hand."""
    key = _SORT_KEYS.get(card)
    if key is None:
        c = parse(card)  # raises ValueError for a name that is no card
        key = (PARTS.index(c.part), COLOURS.index(c.colour), PATTERNS.index(c.pattern), int(c.golden))
    return key


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=card_sort_key)


def _power_of(info: LizzyInfo) -> int:
    """Ruling DD-3, from a classification."""
    if not info.valid:
        return 0
    if info.golden:
        return GOLDEN_POWER
    if info.double:
        return PURE_DOUBLE_POWER if info.colours == info.patterns else MIXED_DOUBLE_POWER
    return SINGLE_POWER


def lizzy_power(lizzy: tuple[str, str, str] | list[str]) -> int:
    """Attack power of one Lizzy (head, body, tail) by ruling DD-3; 0 when it is not valid."""
    return _power_of(classify(lizzy))


def lizzy_summary(lizzy: tuple[str, str, str] | list[str]) -> str:
    """Plain words for what a Lizzy meets: "all blue, patterns all different"."""
    cards = [parse(c) for c in lizzy]
    info = classify(lizzy)
    bits = []
    if info.colours == "same":
        bits.append(f"all {cards[0].colour}")
    elif info.colours == "different":
        bits.append("colours all different")
    if info.patterns == "same":
        bits.append(f"all {cards[0].pattern}")
    elif info.patterns == "different":
        bits.append("patterns all different")
    if not bits:
        return "not a valid Lizzy"
    return ("golden: " if info.golden else "") + ", ".join(bits)


@dataclass(frozen=True)
class Bonus:
    """One duo bonus, for display: what it is for and how many points it adds."""

    label: str
    points: int

    def as_dict(self) -> dict[str, object]:
        return {"label": self.label, "points": self.points}


def _dimension_bonus(
    condition_a: str | None, condition_b: str | None, values_a: tuple[str, ...], values_b: tuple[str, ...]
) -> int:
    # ruling DD-4: same condition kind +1, raised to +2 when also identical in head-body-tail order;
    # a dimension where either Lizzy meets no condition adds 0.
    if condition_a is None or condition_a != condition_b:
        return 0
    return IDENTICAL_BONUS if values_a == values_b else SAME_CONDITION_BONUS


def _bonus_label(dimension: str, condition: str | None, points: int) -> str:
    if points == IDENTICAL_BONUS:
        return f"identical {dimension}"  # e.g. both blue-blue-blue, or both red-blue-purple
    return f"both {dimension} {condition}"  # e.g. both "colours same": one all blue, one all red


def duo_bonus(lizzy_a: tuple[str, str, str] | list[str], lizzy_b: tuple[str, str, str] | list[str]) -> list[Bonus]:
    """The bonuses of two valid Lizzies by ruling DD-4 (at most two), largest first."""
    cards_a = [parse(c) for c in lizzy_a]
    cards_b = [parse(c) for c in lizzy_b]
    info_a, info_b = classify(lizzy_a), classify(lizzy_b)
    colour_points = _dimension_bonus(
        info_a.colours, info_b.colours, tuple(c.colour for c in cards_a), tuple(c.colour for c in cards_b)
    )
    pattern_points = _dimension_bonus(
        info_a.patterns, info_b.patterns, tuple(c.pattern for c in cards_a), tuple(c.pattern for c in cards_b)
    )
    colour = Bonus(_bonus_label("colours", info_a.colours, colour_points), colour_points)
    pattern = Bonus(_bonus_label("patterns", info_a.patterns, pattern_points), pattern_points)
    if info_a.golden and info_b.golden:
        # ruling DD-4: a Special Dizzy Duo adds +10, and then only the larger dimension bonus counts.
        larger = colour if colour.points >= pattern.points else pattern
        bonuses = [Bonus("Special Dizzy Duo", SPECIAL_DUO_BONUS), larger]
    else:
        bonuses = sorted([colour, pattern], key=lambda b: -b.points)
    return [b for b in bonuses if b.points > 0]


@dataclass(frozen=True)
class Arrangement:
    """A hand arranged into zero, one or two valid Lizzies, and how its attack power adds up."""

    lizzies: tuple[tuple[str, str, str], ...]
    lizzy_powers: tuple[int, ...]
    bonuses: tuple[Bonus, ...]
    unused: tuple[str, ...]

    @property
    def power(self) -> int:
        return sum(self.lizzy_powers) + sum(b.points for b in self.bonuses)

    def breakdown(self) -> str:
        """ "1 + 2 + 2 (identical colours) = 5"; "3" for one Lizzy; "0" with none."""
        terms = [str(p) for p in self.lizzy_powers] + [f"{b.points} ({b.label})" for b in self.bonuses]
        if not terms:
            return "0"
        return " + ".join(terms) + f" = {self.power}" if len(terms) > 1 else terms[0]

    def as_dict(self) -> dict[str, object]:
        """JSON for views: lizzies with their power and words, bonuses, unused cards, total."""
        return {
            "power": self.power,
            "lizzies": [
                {"cards": list(lizzy), "power": power, "summary": lizzy_summary(lizzy)}
                for lizzy, power in zip(self.lizzies, self.lizzy_powers)
            ],
            "bonuses": [b.as_dict() for b in self.bonuses],
            "unused": list(self.unused),
            "breakdown": self.breakdown(),
        }


# The fast path: a card as (part index, kind) where kind = (colour * 3 + pattern) * 2 + golden, so
# a Lizzy's power is one lookup in a table over 18 x 18 x 18 kinds and hands can be searched quickly.
_KINDS = 18


def _card_of_kind(part: str, kind: int) -> str:
    colour_pattern, golden = divmod(kind, 2)
    colour, pattern = divmod(colour_pattern, 3)
    return f"{part}-{COLOURS[colour]}-{PATTERNS[pattern]}" + ("-gold" if golden else "")


def _all_names() -> dict[str, tuple[int, int]]:
    names = {}
    for part_index, part in enumerate(PARTS):
        for kind in range(_KINDS):
            names[_card_of_kind(part, kind)] = (part_index, kind)
    return names


_CODE: dict[str, tuple[int, int]] = _all_names()  # every name, golden or not, a deck has or not
_SORT_KEYS: dict[str, tuple[int, int, int, int]] = {
    name: (part_index, kind // 6, kind // 2 % 3, kind % 2) for name, (part_index, kind) in _CODE.items()
}


def _lizzy_tables() -> tuple[list[int], list[tuple[str | None, str | None, int, int, bool]]]:
    powers: list[int] = []
    signatures: list[tuple[str | None, str | None, int, int, bool]] = []
    for h in range(_KINDS):
        for b in range(_KINDS):
            for t in range(_KINDS):
                lizzy = (_card_of_kind("head", h), _card_of_kind("body", b), _card_of_kind("tail", t))
                info = classify(lizzy)
                powers.append(_power_of(info))
                colours = (h // 6) * 9 + (b // 6) * 3 + t // 6  # the colours in head-body-tail order
                patterns = (h // 2 % 3) * 9 + (b // 2 % 3) * 3 + t // 2 % 3
                signatures.append((info.colours, info.patterns, colours, patterns, info.golden))
    return powers, signatures


_LIZZY_POWER, _LIZZY_SIGNATURE = _lizzy_tables()


def _index(h: int, b: int, t: int) -> int:
    return (h * _KINDS + b) * _KINDS + t


def _bonus_points(index_a: int, index_b: int) -> int:
    """Ruling DD-4 on table signatures (the same rule as duo_bonus, without the words)."""
    colours_a, patterns_a, colour_order_a, pattern_order_a, golden_a = _LIZZY_SIGNATURE[index_a]
    colours_b, patterns_b, colour_order_b, pattern_order_b, golden_b = _LIZZY_SIGNATURE[index_b]
    colour_points = 0
    if colours_a is not None and colours_a == colours_b:
        colour_points = IDENTICAL_BONUS if colour_order_a == colour_order_b else SAME_CONDITION_BONUS
    pattern_points = 0
    if patterns_a is not None and patterns_a == patterns_b:
        pattern_points = IDENTICAL_BONUS if pattern_order_a == pattern_order_b else SAME_CONDITION_BONUS
    if golden_a and golden_b:
        return SPECIAL_DUO_BONUS + max(colour_points, pattern_points)
    return colour_points + pattern_points


def _split(hand: Iterable[str]) -> tuple[list[int], list[int], list[int]]:
    by_part: tuple[list[int], list[int], list[int]] = ([], [], [])
    for card in hand:
        try:
            part_index, kind = _CODE[card]
        except KeyError:
            raise ValueError(f"not a Dizzy Lizzy card: {card!r}") from None
        by_part[part_index].append(kind)
    return by_part


def _pairs(items: list[int]) -> list[tuple[int, int]]:
    """Ordered pairs of two different positions, as values."""
    return [(items[i], items[j]) for i in range(len(items)) for j in range(len(items)) if i != j]


def _search(heads: list[int], bodies: list[int], tails: list[int]) -> tuple[int, tuple[int, ...]]:
    """(best power, the table indexes of its Lizzies) over zero, one or two Lizzies (DD-2, DD-5)."""
    best_power = 0
    best: tuple[int, ...] = ()
    valid = []
    for h in set(heads):
        for b in set(bodies):
            for t in set(tails):
                index = _index(h, b, t)
                power = _LIZZY_POWER[index]
                if power:
                    valid.append(index)
                    if power > best_power:
                        best_power, best = power, (index,)
    # (Two copies of one card may make two equal Lizzies: `valid` holds distinct ones only.)
    if not valid or len(heads) < 2 or len(bodies) < 2 or len(tails) < 2:
        return best_power, best
    # Two Lizzies: the first takes heads[i], the second heads[j] with i < j; bodies and tails in
    # either order. Positions (not values) so that two copies of a card may both be used.
    for i in range(len(heads)):
        for j in range(i + 1, len(heads)):
            for b1, b2 in _pairs(bodies):
                for t1, t2 in _pairs(tails):
                    first = _index(heads[i], b1, t1)
                    power_first = _LIZZY_POWER[first]
                    if not power_first:
                        continue
                    second = _index(heads[j], b2, t2)
                    power_second = _LIZZY_POWER[second]
                    if not power_second:
                        continue
                    power = power_first + power_second + _bonus_points(first, second)
                    if power > best_power or (power == best_power and len(best) < 2):
                        best_power, best = power, (first, second)
    return best_power, best


_POWER_CACHE: dict[tuple[str, ...], int] = {}
_POWER_CACHE_LIMIT = 500_000


def hand_power(hand: Iterable[str]) -> int:
    """The attack power of a hand: its best arrangement's (rulings DD-2 to DD-5). Cached, fast."""
    key = tuple(sorted(hand))
    power = _POWER_CACHE.get(key)
    if power is None:
        power = _search(*_split(key))[0]
        if len(_POWER_CACHE) >= _POWER_CACHE_LIMIT:
            _POWER_CACHE.clear()
        _POWER_CACHE[key] = power
    return power


def best_arrangement(hand: Iterable[str]) -> Arrangement:
    """The hand's best arrangement into zero, one or two valid Lizzies (rulings DD-2, DD-5).

    Equal powers prefer two Lizzies; the hand's order does not change the answer."""
    cards = sort_cards(hand)
    power, indexes = _search(*_split(cards))
    lizzies = []
    unused = list(cards)
    for index in indexes:
        h, rest = divmod(index, _KINDS * _KINDS)
        b, t = divmod(rest, _KINDS)
        lizzy = (_card_of_kind("head", h), _card_of_kind("body", b), _card_of_kind("tail", t))
        for card in lizzy:
            unused.remove(card)
        lizzies.append(lizzy)
    arrangement = arrangement_of(lizzies, unused)
    assert arrangement.power == power, (cards, arrangement, power)
    return arrangement


def arrangement_of(lizzies: Iterable[tuple[str, str, str] | list[str]], unused: Iterable[str] = ()) -> Arrangement:
    """The Arrangement (powers and bonuses) of zero, one or two given valid Lizzies."""
    chosen = tuple((lizzy[0], lizzy[1], lizzy[2]) for lizzy in lizzies)
    if len(chosen) > 2 or not all(classify(lizzy).valid for lizzy in chosen):
        raise ValueError(f"not zero, one or two valid Lizzies: {chosen!r}")
    powers = tuple(lizzy_power(lizzy) for lizzy in chosen)
    bonuses = tuple(duo_bonus(*chosen)) if len(chosen) == 2 else ()
    return Arrangement(chosen, powers, bonuses, tuple(unused))


def valid_lizzy_count(hand: Iterable[str]) -> int:
    """How many disjoint valid Lizzies the hand can hold at once: 0, 1 or 2 (a hand of up to 7)."""
    heads, bodies, tails = _split(hand)
    if not any(_LIZZY_POWER[_index(h, b, t)] for h in heads for b in bodies for t in tails):
        return 0
    if min(len(heads), len(bodies), len(tails)) < 2:
        return 1
    for i in range(len(heads)):
        for j in range(i + 1, len(heads)):
            for b1, b2 in _pairs(bodies):
                for t1, t2 in _pairs(tails):
                    if _LIZZY_POWER[_index(heads[i], b1, t1)] and _LIZZY_POWER[_index(heads[j], b2, t2)]:
                        return 2
    return 1


def has_two_lizzies(hand: Iterable[str]) -> bool:
    """Ruling DD-7: may this hand attack? (two valid Lizzies at once, whatever its best power)."""
    return valid_lizzy_count(hand) == 2
