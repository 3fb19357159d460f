"""perft: the number of legal card sequences from the start of a trick.

Small positions are counted by hand (the tree is written out in comments);
bigger ones are checked against a plain walk through PlayState.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche_spec.engine.errors import BadInput
from coinche_spec.engine.play import PlayState, perft
from coinche_spec.engine.masks import cards_of
from coinche_spec.notation import SEATS, parse_card
from coinche_spec.variants import load_variant
from support import changed_rules

ALL5 = ("federation", "contree-701", "cafe-sans-tout-atout", "cafe-1000", "cafe-701")
RULES = {vid: load_variant(vid).rules for vid in ALL5}


def hands_of(spec: dict) -> dict:
    return {s: [parse_card(c) for c in text.split()] for s, text in spec.items()}


def custom(base: str, **changes):
    """A variant like ``base`` with rules changed (``void_opponent_winning__must_trump=False``)."""
    return changed_rules(base, changes, separator="__")


def test_one_card_each():
    # One card each: every player has exactly one choice, so one sequence of
    # any length 0..4.
    hands = hands_of({"N": "AS", "E": "KS", "S": "QS", "W": "JS"})
    for depth in range(5):
        assert perft(RULES["contree-701"], "H", "N", hands, depth) == 1


# contree-701, hearts trump, clockwise N E S W, N leads.
POS = {"N": "AS KD", "E": "7H 8C", "S": "QS 9C", "W": "JS TC"}
# N leads AS: E is void in spades, the opponent N wins, E holds 7H: must trump
#   (1). S follows QS (1), W follows JS (1). E wins with the trump, leads 8C;
#   S 9C, W TC, N KD are forced: 1 sequence.
# N leads KD: E void, must trump 7H (1). S: void in diamonds, no trump, the
#   opponent E wins: any card, QS or 9C (2). W: void, no trump: JS or TC (2).
#   E won (trump) and leads 8C; each of the 4 ways leaves one card per player
#   and trick 2 is forced: 4 sequences.
# depth 1: AS, KD = 2
# depth 2: AS-7H, KD-7H = 2
# depth 3: AS (1) + KD (2) = 3
# depth 4..8: 1 + 4 = 5
POS_COUNTS = {1: 2, 2: 2, 3: 3, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5}


@pytest.mark.parametrize("depth,count", sorted(POS_COUNTS.items()))
def test_counted_by_hand(depth, count):
    assert perft(RULES["contree-701"], "H", "N", hands_of(POS), depth) == count


# P6 makes a difference: hearts trump, clockwise, N leads.
P6POS = {"N": "AS 7D", "E": "JH 8D", "S": "9H KC", "W": "TH QC"}
# N leads AS: E void in spades, must trump: JH (1). S void, the opponent's JH
#   wins and 9H cannot beat it: must_undertrump -> 9H (1); may_discard -> 9H
#   or KC (2). W: partner E wins, may discard: TH or QC (2).
# N leads 7D: E follows 8D (1). S void in diamonds, the opponent's 8D wins, no
#   trump in the trick: must trump 9H (1). W: void, the opponent's 9H wins,
#   TH cannot beat it (9 above T): must_undertrump -> TH (1); may_discard ->
#   TH or QC (2).
# depth 3: undertrump 1 + 1 = 2; may_discard 2 + 1 = 3
# depth 4: undertrump 1*1*2 + 1*1*1 = 3; may_discard 1*2*2 + 1*1*2 = 6
@pytest.mark.parametrize("rule,depth,count", [
    ("must_undertrump", 3, 2), ("must_undertrump", 4, 3),
    ("may_discard", 3, 3), ("may_discard", 4, 6),
])
def test_cannot_overtrump_changes_the_count(rule, depth, count):
    rules = custom("contree-701", play__cannot_overtrump=rule)
    assert perft(rules, "H", "N", hands_of(P6POS), depth) == count


# Tout atout, cafe-sans-tout-atout (anticlockwise N W S E), N leads.
TAPOS = {"N": "9S 7D", "W": "TS QD", "S": "AS KD", "E": "JS 8S"}
# N leads 9S: W must follow with TS (below the 9 in J 9 A T ...: 1); S
#   follows AS (also below the 9: 1); E: go up -> JS only (1); without going
#   up -> JS or 8S (2).
# N leads 7D: W QD (1), S KD (1), E void in diamonds: JS or 8S (2).
# depth 4: go up 1 + 2 = 3; no go up 2 + 2 = 4
def test_tout_atout_going_up():
    assert perft(RULES["cafe-sans-tout-atout"], "TA", "N", hands_of(TAPOS), 4) == 3
    lenient = custom("cafe-sans-tout-atout", play__tout_atout_must_go_up=False)
    assert perft(lenient, "TA", "N", hands_of(TAPOS), 4) == 4


def test_depth_zero_and_full_hand_leader():
    rng = random.Random(7)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = {s: deck[8 * k:8 * k + 8] for k, s in enumerate(SEATS)}
    # nothing played: exactly one (empty) sequence
    assert perft(RULES["federation"], "H", "N", hands, 0) == 1
    # the leader may lead any of his 8 cards
    assert perft(RULES["federation"], "H", "N", hands, 1) == 8


def brute(state: PlayState, depth: int) -> int:
    """Count sequences the slow way: every legal card, through PlayState."""
    if depth == 0:
        return 1
    return sum(brute(state.apply(c), depth - 1) for c in cards_of(state.legal()))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), vid=st.sampled_from(ALL5),
       strain=st.sampled_from(("S", "H", "D", "C", "TA", "SA")), leader=st.sampled_from(SEATS),
       size=st.integers(1, 3), data=st.data())
def test_perft_agrees_with_playstate(seed, vid, strain, leader, size, data):
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = {s: sum(1 << c for c in deck[size * k:size * k + size]) for k, s in enumerate(SEATS)}
    depth = data.draw(st.integers(1, 4 * size))
    rules = RULES[vid]
    start = PlayState.start(rules, strain, leader, hands)
    assert perft(rules, strain, leader, hands, 1) == start.legal().bit_count()
    assert perft(rules, strain, leader, hands, depth) == brute(start, depth)


@pytest.mark.parametrize("hands,depth,message", [
    ({"N": "AS", "E": "AS", "S": "QS", "W": "JS"}, 1, "also in another hand"),
    ({"N": "AS KS", "E": "QS", "S": "JS", "W": "TS"}, 1, "as many cards"),
    ({"N": "AS", "E": "KS", "S": "QS"}, 1, "no hand for W"),
    ({"N": "AS", "E": "KS", "S": "QS", "W": "JS"}, 5, "only 4 are left"),
    ({"N": "AS", "E": "KS", "S": "QS", "W": "JS"}, -1, "depth"),
])
def test_bad_positions(hands, depth, message):
    with pytest.raises(BadInput) as err:
        perft(RULES["federation"], "H", "N", hands_of(hands), depth)
    assert message in str(err.value)
