"""Dealing B deals at once: each a uniformly shuffled pack, eight cards to each seat.

The pack is dealt by sorting random keys that carry a card label in their
low bits: card i gets the key ``random & ~31 | i``, so sorting a deal's 32
keys puts its cards in a uniformly random order (ties in the high bits are
broken by the label, a bias below one in a hundred million), and positions
0-7 go to N, 8-15 to E, and so on. Shuffling, cutting and the packets of the
rule set do not change the distribution of the hands when the pack is
shuffled, so the batch deals each hand as often as the per-deal random
player (engine.random_play) does, though not the same hands for one seed.
"""

from __future__ import annotations

import numpy as np

__all__ = ["deal_hands"]

_LABELS = np.arange(32, dtype=np.uint32)


def deal_hands(rng: np.random.Generator, n: int, before: int = 8) -> tuple:
    """(hands, dealer): hands is a (4, n) uint32 array of masks (N E S W), dealer an (n,) int8 array.

    With ``before`` below 8 (deal.packets_after_auction), (hands, dealer, seen): seen holds the
    first ``before`` cards of each hand, those its player bids on (a uniformly random part of it,
    as the cards of the first packets are)."""
    keys = rng.bit_generator.random_raw(16 * n).view(np.uint32).reshape(n, 32)   # two keys a word
    keys &= np.uint32(0xFFFFFFE0)
    keys |= _LABELS
    keys.sort(axis=1)
    keys &= np.uint32(31)
    bits = np.left_shift(np.uint32(1), keys, out=keys).reshape(n, 4, 8)   # one card per position
    hands = bits[:, :, 0] | bits[:, :, 1]
    for j in range(2, 8):
        hands |= bits[:, :, j]
    dealer = rng.integers(0, 4, size=n, dtype=np.int8)
    if before < 8:
        seen = bits[:, :, 0].copy()
        for j in range(1, before):
            seen |= bits[:, :, j]
        return hands.T.copy(), dealer, seen.T.copy()
    return hands.T.copy(), dealer
