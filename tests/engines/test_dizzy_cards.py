"""The Dizzy Lizzy card library: deck (LZ-1), Lizzies (LZ-2), dice (LZ-3), attack power (DD-2 to DD-5)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import dizzy_cards as dc
from games.engines.dizzy_cards import (
    COLOURS,
    DECK,
    DIE_FACES,
    PARTS,
    PATTERNS,
    best_arrangement,
    classify,
    describe,
    duo_bonus,
    hand_power,
    has_two_lizzies,
    lizzy_power,
    parse,
    part_of,
    throw_dice,
)

# --- the existing API, which Lizzy Ghosties imports ---------------------------------------------


def test_shared_names_stay_importable_for_lizzy_ghosties():
    for name in ("DECK", "PARTS", "COLOURS", "PATTERNS", "parse", "part_of", "describe", "classify"):
        assert hasattr(dc, name), name
    assert hasattr(dc, "throw_dice") and hasattr(dc, "DIE_FACES")
    assert part_of("tail-purple-diamonds-gold") == "tail"
    assert describe("tail-purple-diamonds-gold") == "golden purple diamonds tail"
    assert parse("head-red-dots").golden is False


# --- ruling LZ-1 -----------------------------------------------------------------------------


def test_lz1_deck_has_54_cards_18_per_part_and_9_golden():
    assert len(DECK) == 54
    assert Counter(part_of(c) for c in DECK) == {"head": 18, "body": 18, "tail": 18}
    golden = [c for c in DECK if parse(c).golden]
    assert len(golden) == 9
    assert {(parse(c).colour, parse(c).pattern) for c in golden} == {
        ("red", "dots"),
        ("blue", "stripes"),
        ("purple", "diamonds"),
    }
    # two copies of every part-colour-pattern, one of them golden for the three golden pairs
    plain = Counter(c.removesuffix("-gold") for c in DECK)
    assert set(plain.values()) == {2} and len(plain) == 27


def test_parse_refuses_names_that_are_no_card():
    for bad in ("head-red", "head-green-dots", "wing-red-dots", "head-red-dots-silver"):
        try:
            parse(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


# --- ruling LZ-2 -----------------------------------------------------------------------------


def test_lz2_classification():
    info = classify(("head-blue-dots", "body-blue-stripes", "tail-blue-dots"))
    assert (info.colours, info.patterns, info.valid, info.double, info.golden) == (
        "same",
        None,
        True,
        False,
        False,
    )
    info = classify(("head-red-dots", "body-blue-stripes", "tail-purple-diamonds"))
    assert (info.colours, info.patterns, info.valid, info.double) == ("different", "different", True, True)
    info = classify(("head-red-dots", "body-red-dots", "tail-blue-stripes"))
    assert not info.valid and not info.double


def test_lz2_golden_lizzy_needs_three_golden_cards_that_are_valid():
    golden = classify(("head-red-dots-gold", "body-blue-stripes-gold", "tail-purple-diamonds-gold"))
    assert golden.golden and golden.double
    # three golden cards that meet no condition are no golden Lizzy
    invalid = classify(("head-red-dots-gold", "body-red-dots-gold", "tail-blue-stripes-gold"))
    assert not invalid.valid and not invalid.golden
    # two golden cards are not enough
    assert not classify(("head-red-dots-gold", "body-red-dots-gold", "tail-red-dots")).golden


def test_lz2_a_lizzy_is_head_body_tail_in_order():
    try:
        classify(("body-red-dots", "head-red-dots", "tail-red-dots"))
    except ValueError:
        return
    raise AssertionError("wrong order accepted")


# --- ruling LZ-3 -----------------------------------------------------------------------------


def test_lz3_dice_faces_and_throw():
    assert len(DIE_FACES) == 6 and len(set(DIE_FACES)) == 6
    seen = set()
    rng = random.Random(3)
    for _ in range(300):
        lizzy = throw_dice(rng)
        assert [part_of(c) for c in lizzy] == list(PARTS)
        for card in lizzy:
            c = parse(card)
            assert (c.colour, c.pattern) in DIE_FACES and not c.golden
            seen.add((c.colour, c.pattern))
    assert seen == set(DIE_FACES)


# --- ruling DD-3: Lizzy power ----------------------------------------------------------------


def test_dd3_lizzy_powers_follow_the_table():
    assert lizzy_power(("head-red-dots", "body-red-dots", "tail-blue-stripes")) == 0  # invalid
    assert lizzy_power(("head-blue-dots", "body-blue-dots", "tail-blue-stripes")) == 1  # one condition
    # colour same + patterns different (mixed kinds): 2
    assert lizzy_power(("head-blue-dots", "body-blue-stripes", "tail-blue-diamonds")) == 2
    # colours different + patterns same (mixed kinds): 2
    assert lizzy_power(("head-red-dots", "body-blue-dots", "tail-purple-dots")) == 2
    # two "same": 3; two "different": 3
    assert lizzy_power(("head-blue-dots", "body-blue-dots", "tail-blue-dots")) == 3
    assert lizzy_power(("head-red-dots", "body-blue-stripes", "tail-purple-diamonds")) == 3
    # golden: 5
    assert lizzy_power(("head-red-dots-gold", "body-red-dots-gold", "tail-red-dots-gold")) == 5


def test_dd3_all_blue_all_dots_is_3_not_the_seed_examples_2():
    # ruling DD-3: the table wins over the worked example's "all blue, all pattern dots = 2".
    assert lizzy_power(("head-blue-dots", "body-blue-dots", "tail-blue-dots")) == 3


# --- ruling DD-4: duo bonus ------------------------------------------------------------------


def test_dd4_worked_example_1_plus_2_plus_2_is_5():
    # The seed's first worked example read as DD-3 says: Lizzy 1 all blue, no pattern condition
    # (1); Lizzy 2 all blue, patterns all different (2); both all blue in the same order (+2).
    lizzy_1 = ("head-blue-dots", "body-blue-dots", "tail-blue-stripes")
    lizzy_2 = ("head-blue-dots", "body-blue-stripes", "tail-blue-diamonds")
    assert (lizzy_power(lizzy_1), lizzy_power(lizzy_2)) == (1, 2)
    assert [(b.label, b.points) for b in duo_bonus(lizzy_1, lizzy_2)] == [("identical colours", 2)]
    hand = list(lizzy_1 + lizzy_2)
    assert hand_power(hand) == 5
    arrangement = best_arrangement(hand)
    assert arrangement.power == 5
    assert sorted(arrangement.lizzy_powers) == [1, 2]
    assert arrangement.breakdown().endswith("= 5")


def test_dd4_bonus_example_plus_1_plus_2_is_plus_3():
    # "1 all blue + all patterns, 1 all purple + all patterns in the same order = +1 +2 = +3"
    all_blue = ("head-blue-dots", "body-blue-stripes", "tail-blue-diamonds")
    all_purple = ("head-purple-dots", "body-purple-stripes", "tail-purple-diamonds")
    bonuses = duo_bonus(all_blue, all_purple)
    assert sorted(b.points for b in bonuses) == [1, 2]
    assert sum(b.points for b in bonuses) == 3
    assert {b.label for b in bonuses} == {"both colours same", "identical patterns"}
    assert hand_power(list(all_blue + all_purple)) == 2 + 2 + 3


def test_dd4_a_dimension_where_either_lizzy_meets_no_condition_adds_nothing():
    colours_only = ("head-blue-dots", "body-blue-dots", "tail-blue-stripes")  # patterns: none
    colours_and_patterns = ("head-red-dots", "body-red-stripes", "tail-red-diamonds")
    bonuses = duo_bonus(colours_only, colours_and_patterns)
    assert [(b.label, b.points) for b in bonuses] == [("both colours same", 1)]


def test_dd4_different_conditions_add_nothing():
    same = ("head-blue-dots", "body-blue-dots", "tail-blue-stripes")  # colours same
    different = ("head-red-dots", "body-blue-dots", "tail-purple-stripes")  # colours different
    assert duo_bonus(same, different) == []


def test_dd4_identical_order_for_different_colours_gives_2():
    a = ("head-red-dots", "body-blue-dots", "tail-purple-stripes")
    b = ("head-red-stripes", "body-blue-diamonds", "tail-purple-diamonds")
    assert [b_.points for b_ in duo_bonus(a, b)] == [2]
    c = ("head-blue-stripes", "body-red-diamonds", "tail-purple-diamonds")  # other order
    assert [b_.points for b_ in duo_bonus(a, c)] == [1]


def test_dd4_special_dizzy_duo_adds_10_and_only_the_larger_dimension_bonus():
    a = ("head-red-dots-gold", "body-red-dots-gold", "tail-red-dots-gold")
    b = ("head-blue-stripes-gold", "body-blue-stripes-gold", "tail-blue-stripes-gold")
    bonuses = duo_bonus(a, b)
    # both dimensions give +1 ("same" both), but only one counts besides the +10
    assert [b_.points for b_ in bonuses] == [10, 1]
    assert hand_power(list(a + b)) == 5 + 5 + 10 + 1 == 21


def test_dd4_one_golden_lizzy_is_no_special_duo_and_both_bonuses_count():
    hand = ["body-red-dots", "body-red-dots-gold", "head-red-dots", "head-red-dots-gold", "tail-red-dots"]
    hand.append("tail-red-dots-gold")
    # golden 5 + plain 3 + identical colours 2 + identical patterns 2
    assert hand_power(hand) == 12
    assert [b.points for b in best_arrangement(hand).bonuses] == [2, 2]


# --- rulings DD-2 and DD-5: the best arrangement -----------------------------------------------


def test_dd2_a_single_strong_lizzy_may_beat_a_weak_duo():
    hand = [
        "head-blue-stripes-gold",
        "head-blue-diamonds",
        "body-red-stripes",
        "body-purple-stripes",
        "tail-purple-dots",
        "tail-purple-diamonds",
    ]
    assert has_two_lizzies(hand)  # a duo exists ...
    arrangement = best_arrangement(hand)
    assert len(arrangement.lizzies) == 1  # ... but one Lizzy alone is stronger
    assert arrangement.power == 3 == hand_power(hand)


def test_dd5_one_lizzy_gives_its_power_and_none_gives_0():
    one = ["head-blue-stripes-gold", "head-purple-dots", "body-blue-stripes-gold", "body-purple-dots"]
    one += ["body-purple-dots", "tail-blue-stripes-gold"]  # only one tail: one Lizzy at most
    assert hand_power(one) == 5 and len(best_arrangement(one).lizzies) == 1
    assert not has_two_lizzies(one)
    none = ["body-blue-dots", "body-blue-dots", "head-blue-diamonds", "head-blue-stripes"]
    none += ["tail-purple-dots", "tail-red-dots-gold"]
    assert hand_power(none) == 0
    assert best_arrangement(none).lizzies == () and best_arrangement(none).breakdown() == "0"


def test_arrangement_as_dict_is_json_for_views():
    hand = ["head-blue-dots", "body-blue-dots", "tail-blue-stripes"]
    hand += ["head-blue-dots", "body-blue-stripes", "tail-blue-diamonds"]
    data = best_arrangement(hand).as_dict()
    assert data["power"] == 5 and data["unused"] == []
    assert len(data["lizzies"]) == 2 and {liz["power"] for liz in data["lizzies"]} == {1, 2}
    assert data["bonuses"] == [{"label": "identical colours", "points": 2}]
    assert (
        data["breakdown"] == "2 + 1 + 2 (identical colours) = 5"
        or data["breakdown"] == "1 + 2 + 2 (identical colours) = 5"
    )


# --- the fast search against a slow, plain reading of the rules ----------------------------------


def slow_power(hand: list[str]) -> int:
    """Every way to pick one or two disjoint (head, body, tail) Lizzies, with the plain functions."""
    best = 0
    heads = [i for i, c in enumerate(hand) if part_of(c) == "head"]
    bodies = [i for i, c in enumerate(hand) if part_of(c) == "body"]
    tails = [i for i, c in enumerate(hand) if part_of(c) == "tail"]
    lizzies = [(h, b, t) for h in heads for b in bodies for t in tails]
    for h, b, t in lizzies:
        best = max(best, lizzy_power((hand[h], hand[b], hand[t])))
    for first, second in itertools.combinations(lizzies, 2):
        if set(first) & set(second):
            continue
        a = tuple(hand[i] for i in first)
        b_ = tuple(hand[i] for i in second)
        if lizzy_power(a) and lizzy_power(b_):
            best = max(best, lizzy_power(a) + lizzy_power(b_) + sum(x.points for x in duo_bonus(a, b_)))
    return best


def slow_two_lizzies(hand: list[str]) -> bool:
    heads = [i for i, c in enumerate(hand) if part_of(c) == "head"]
    bodies = [i for i, c in enumerate(hand) if part_of(c) == "body"]
    tails = [i for i, c in enumerate(hand) if part_of(c) == "tail"]
    valid = [(h, b, t) for h in heads for b in bodies for t in tails if classify((hand[h], hand[b], hand[t])).valid]
    return any(not set(x) & set(y) for x, y in itertools.combinations(valid, 2))


hands = st.integers(6, 7).flatmap(lambda size: st.permutations(DECK).map(lambda deck: list(deck[:size])))
balanced_hands = st.tuples(
    *[st.permutations([c for c in DECK if part_of(c) == p]).map(lambda cards: cards[:2]) for p in PARTS]
).map(lambda parts: [c for part in parts for c in part])


def test_two_copies_of_one_lizzy_make_a_duo():
    # Regression: equal Lizzies from the two plain copies of each card are still two Lizzies.
    hand = ["head-blue-dots", "head-blue-dots", "body-blue-dots", "body-blue-dots"]
    hand += ["tail-blue-dots", "tail-blue-dots"]
    assert hand_power(hand) == 3 + 3 + 2 + 2
    assert has_two_lizzies(hand)


@settings(max_examples=300, deadline=None)
@given(hand=st.one_of(hands, balanced_hands))
def test_hand_power_matches_a_plain_reading_of_dd2_to_dd5(hand):
    expected = slow_power(hand)
    assert hand_power(hand) == expected
    arrangement = best_arrangement(hand)
    assert arrangement.power == expected
    used = [c for lizzy in arrangement.lizzies for c in lizzy] + list(arrangement.unused)
    assert Counter(used) == Counter(hand)
    assert all(classify(lizzy).valid for lizzy in arrangement.lizzies)
    assert has_two_lizzies(hand) == slow_two_lizzies(hand)


@settings(max_examples=100, deadline=None)
@given(hand=hands, order=st.randoms(use_true_random=False))
def test_the_order_of_a_hand_does_not_matter(hand, order):
    shuffled = list(hand)
    order.shuffle(shuffled)
    assert hand_power(shuffled) == hand_power(hand)
    assert best_arrangement(shuffled) == best_arrangement(hand)


def test_every_name_has_a_sort_key_and_colours_patterns_are_the_three():
    assert len(COLOURS) == len(PATTERNS) == 3
    assert dc.sort_cards(["tail-red-dots", "head-blue-dots", "body-red-dots"]) == [
        "head-blue-dots",
        "body-red-dots",
        "tail-red-dots",
    ]
