"""The simple players' hand count read from tables gives what the rule of thumb says, card by card."""

from __future__ import annotations

import random

from coinche_spec.engine import players

_9, _T, _J, _Q, _K, _A = 2, 3, 4, 5, 6, 7


def _has(hand, suit, rank):
    return bool(hand >> (suit * 8 + rank) & 1)


def _count(hand, suit):
    return bin(hand >> (suit * 8) & 0xFF).count("1")


def reference_suit_count(hand, trump, belote):
    """The count as docs and players.py's docstring state it, written out without tables."""
    n = _count(hand, trump)
    jack = _has(hand, trump, _J)
    pts = 25 if jack else 0
    if _has(hand, trump, _9):
        pts += 15 if jack or n >= 3 else 8
    if _has(hand, trump, _A):
        pts += 11 if n >= 3 else 7
    if _has(hand, trump, _T):
        pts += 10 if n >= 3 else 5
    pts += 4 * sum(_has(hand, trump, r) for r in (0, 1, _Q, _K))
    if n > 3:
        pts += 10 * (n - 3)
    if belote and _has(hand, trump, _K) and _has(hand, trump, _Q):
        pts += belote
    for s in range(4):
        if s == trump:
            continue
        k = _count(hand, s)
        if k == 0 and n >= 3:
            pts += 5
        if _has(hand, s, _A):
            pts += 12
            if _has(hand, s, _T):
                pts += 8
        elif _has(hand, s, _T) and k >= 3:
            pts += 3
    return pts


def test_table_count_equals_the_rule_of_thumb_on_many_hands():
    rng = random.Random(4)
    for _ in range(3000):
        hand = sum(1 << c for c in rng.sample(range(32), 8))
        for trump in range(4):
            for belote in (0, 20):
                assert players._suit_count(hand, trump, belote) == reference_suit_count(hand, trump, belote)


def test_every_trump_pattern_alone():
    for p in range(256):
        for trump in range(4):
            hand = p << (trump * 8)
            assert players._suit_count(hand, trump, 20) == reference_suit_count(hand, trump, 20)
