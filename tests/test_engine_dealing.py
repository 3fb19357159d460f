"""Dealing a known pack (rules-model §1): the cut, the packets, the order round the table.

The pack used is cards 0..31 in order (7S 8S ... AS 7H ... AC), top card
first, so "card k" is the k-th card from the top before the cut.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche_spec.engine.dealing import deal
from coinche_spec.engine.errors import DealingRejected, EngineError
from coinche_spec.notation import SEATS, card_name
from coinche_spec.variants import Rules, load_variant
from support import changed_rules

FED, C701, STA, C1000, CAFE701 = ("federation", "contree-701", "cafe-sans-tout-atout",
                                  "cafe-1000", "cafe-701")
ALL5 = (FED, C701, STA, C1000, CAFE701)
RULES = {vid: load_variant(vid).rules for vid in ALL5}
PACK = list(range(32))


def custom(base: str, **changes):
    """A variant like ``base`` with rules changed (``void_opponent_winning__must_trump=False``)."""
    return changed_rules(base, changes, separator="__")


def test_federation_anticlockwise_3_2_3():
    # Cut 3: the pack reads 3, 4, ..., 31, 0, 1, 2. Anticlockwise from dealer
    # N the first hand is W, then S, E, N ("deal 8 each in packets of 3, 2, 3").
    # 3s: W 3-5, S 6-8, E 9-11, N 12-14; 2s: W 15-16, S 17-18, E 19-20,
    # N 21-22; 3s: W 23-25, S 26-28, E 29-31, N 0-2.
    hands = deal(RULES[FED], "N", PACK, 3)
    assert hands == {
        "W": [3, 4, 5, 15, 16, 23, 24, 25],
        "S": [6, 7, 8, 17, 18, 26, 27, 28],
        "E": [9, 10, 11, 19, 20, 29, 30, 31],
        "N": [12, 13, 14, 21, 22, 0, 1, 2],
    }


def test_contree_clockwise_3_2_3():
    # Same pack and cut; clockwise from dealer N the first hand is E.
    hands = deal(RULES[C701], "N", PACK, 3)
    assert hands == {
        "E": [3, 4, 5, 15, 16, 23, 24, 25],
        "S": [6, 7, 8, 17, 18, 26, 27, 28],
        "W": [9, 10, 11, 19, 20, 29, 30, 31],
        "N": [12, 13, 14, 21, 22, 0, 1, 2],
    }


def test_cafe701_dealer_south_cut_12():
    # Cut 12: the pack reads 12..31, 0..11. Clockwise from dealer S: W, N, E, S.
    # 3s: W 12-14, N 15-17, E 18-20, S 21-23; 2s: W 24-25, N 26-27, E 28-29,
    # S 30-31; 3s: W 0-2, N 3-5, E 6-8, S 9-11.
    hands = deal(RULES[CAFE701], "S", PACK, 12)
    assert hands["W"] == [12, 13, 14, 24, 25, 0, 1, 2]
    assert hands["N"] == [15, 16, 17, 26, 27, 3, 4, 5]
    assert hands["E"] == [18, 19, 20, 28, 29, 6, 7, 8]
    assert hands["S"] == [21, 22, 23, 30, 31, 9, 10, 11]


def test_cards_by_name():
    # With the federation deal above W's first card is card 3 = TS.
    hands = deal(RULES[FED], "N", [card_name(c) for c in PACK], 3)
    assert card_name(hands["W"][0]) == "TS"


@pytest.mark.parametrize("cut", [3, 16, 29])
def test_federation_accepts_cuts_of_at_least_3(cut):
    # "cut with at least 3 cards in each packet": 3 and 29 (32 - 29 = 3) are the limits.
    hands = deal(RULES[FED], "E", PACK, cut)
    assert sorted(c for h in hands.values() for c in h) == PACK


@pytest.mark.parametrize("cut,why", [
    (2, "at least 3"),      # 2 on one side
    (30, "at least 3"),     # 32 - 30 = 2 on the other
    (1, "at least 3"),
    (0, "requires"),        # no cut, but the cut is required
    (32, "requires"),       # lifting the whole pack is no cut either
    (33, "cannot be lifted"),
    (-1, "cannot be lifted"),
    (True, "expected a number"),
    ("3", "expected a number"),
])
def test_federation_rejects_bad_cuts(cut, why):
    with pytest.raises(DealingRejected) as err:
        deal(RULES[FED], "N", PACK, cut)
    assert why in str(err.value)
    assert "\n" not in str(err.value)


def test_cafe_1000_cut_not_required():
    # cafe-1000: cut.required false, minimum_packet 1 ("The cards are never
    # shuffled"). Cut 0 and cut 32 both leave the pack as it is; clockwise
    # from dealer W the first hand is N: N takes cards 0-2, 12-13, 20-22.
    for cut in (0, 32):
        hands = deal(RULES[C1000], "W", PACK, cut)
        assert hands["N"] == [0, 1, 2, 12, 13, 20, 21, 22]
    # cut 1: one card each side is enough. The pack reads 1..31, 0, so the
    # dealer W, last to receive, gets the old top card last.
    hands = deal(RULES[C1000], "W", PACK, 1)
    assert hands["W"][-1] == 0


def test_rejected_decks():
    with pytest.raises(DealingRejected, match="31 cards"):
        deal(RULES[FED], "N", PACK[:31], 3)
    with pytest.raises(DealingRejected, match="appears twice"):
        deal(RULES[FED], "N", PACK[:31] + [0], 3)
    with pytest.raises(DealingRejected, match="outside"):
        deal(RULES[FED], "N", PACK[:31] + [32], 3)
    with pytest.raises(DealingRejected, match="deck\\[5\\]"):
        deal(RULES[FED], "N", PACK[:5] + ["ZZ"] + PACK[6:], 3)
    with pytest.raises(DealingRejected, match="dealer"):
        deal(RULES[FED], "X", PACK, 3)
    assert issubclass(DealingRejected, EngineError)


def test_packets_must_be_the_variants():
    # federation deals 3-2-3 only.
    with pytest.raises(DealingRejected, match="3-3-2 is not used"):
        deal(RULES[FED], "N", PACK, 3, packets=[3, 3, 2])
    # naming its own packets is fine
    assert deal(RULES[FED], "N", PACK, 3, packets=[3, 2, 3]) == deal(RULES[FED], "N", PACK, 3)


def test_alternative_packets():
    rules = custom(C1000, deal__alternative_packets=[[3, 3, 2], [4, 4]])
    # 3-3-2 from dealer N, no cut, clockwise E S W N:
    # 3s: E 0-2, S 3-5, W 6-8, N 9-11; 3s: E 12-14, S 15-17, W 18-20,
    # N 21-23; 2s: E 24-25, S 26-27, W 28-29, N 30-31.
    hands = deal(rules, "N", PACK, 0, packets=[3, 3, 2])
    assert hands["E"] == [0, 1, 2, 12, 13, 14, 24, 25]
    assert hands["N"] == [9, 10, 11, 21, 22, 23, 30, 31]
    # 4-4: E 0-3, S 4-7, W 8-11, N 12-15; E 16-19, ...
    hands = deal(rules, "N", PACK, 0, packets=[4, 4])
    assert hands["E"] == [0, 1, 2, 3, 16, 17, 18, 19]
    with pytest.raises(DealingRejected, match="not used"):
        deal(rules, "N", PACK, 0, packets=[2, 3, 3])


def test_packets_must_make_eight():
    # Packets adding up to 3 + 2 + 2 = 7 cannot deal 8 each. The variant loader
    # refuses such a file; dealing checks again for rules built by hand.
    doc = copy.deepcopy(load_variant(C1000).document["rules"])
    doc["deal"]["packets"] = [3, 2, 2]
    with pytest.raises(DealingRejected, match="7 cards, not 8"):
        deal(Rules(doc, "hand-built"), "N", PACK, 0)


@settings(max_examples=100, deadline=None)
@given(perm=st.permutations(PACK), cut=st.integers(3, 29), dealer=st.sampled_from(SEATS),
       vid=st.sampled_from(ALL5))
def test_every_card_dealt_once(perm, cut, dealer, vid):
    hands = deal(RULES[vid], dealer, list(perm), cut)
    assert all(len(h) == 8 for h in hands.values())
    assert sorted(c for h in hands.values() for c in h) == PACK
    # the dealer receives the last card of the cut pack: the card just above the cut
    assert hands[dealer][-1] == perm[cut - 1]
