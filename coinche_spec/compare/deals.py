"""Where the compared deals come from: the same hands for every rule set and every engine.

Deal ``i`` of seed ``s`` is worked out from ``(s, i)`` alone by a counter-based
hash (splitmix64's mixer): each card gets a 32-bit key (the hash's top bits), the pack is the cards
sorted by key (the label of the card breaks ties, as batch/dealing.py does),
and eight cards go to each seat in turn; one more key picks the dealer. So a
deal does not depend on how many came before it, on which process plays it,
or on the engine: ``deal_hands`` (plain Python, for the per-deal engine) and
``deal_block`` (numpy, for the batch engine) give the same hands, which is
what lets the two simulations be compared deal for deal
(tests/test_compare_batch.py). The hands are dealt without any rule set's
packets (eight cards each from one shuffle), so every rule set plays exactly
the same hands with the same dealer.
"""

from __future__ import annotations

from ..notation import SEATS

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_LOW5 = 0xFFFFFFE0     # a key is the top 32 bits of the hash, its low five bits the card's label


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _base(seed: int) -> int:
    return _mix((seed * _GOLDEN + 0x632BE59BD9B4E019) & _M64)


def deal_hands(seed: int, index: int) -> tuple[str, dict]:
    """Deal ``index`` of ``seed``: its dealer and each seat's hand (a card mask)."""
    base = _base(seed)
    at = index * 33 + 1
    keys = [(_mix((base + (at + c) * _GOLDEN) & _M64) >> 32 & _LOW5) | c for c in range(32)]
    keys.sort()
    hands = {}
    for k, seat in enumerate(SEATS):
        mask = 0
        for key in keys[8 * k:8 * k + 8]:
            mask |= 1 << (key & 31)
        hands[seat] = mask
    dealer = _mix((base + (at + 32) * _GOLDEN) & _M64) >> 62
    return SEATS[dealer], hands


def deal_block(seed: int, start: int, stop: int):
    """Deals ``start`` to ``stop - 1`` of ``seed`` as the batch engine takes them: (hands (4, n) uint32
    masks in seat order N E S W, dealer (n,) seat index), the same hands as ``deal_hands``."""
    import numpy as np

    u = np.uint64
    base = u(_base(seed))
    at = np.arange(start, stop, dtype=np.uint64) * u(33) + u(1)
    z = base + (at[:, None] + np.arange(33, dtype=np.uint64)[None, :]) * u(_GOLDEN)
    z = (z ^ (z >> u(30))) * u(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> u(27))) * u(0x94D049BB133111EB)
    z ^= z >> u(31)
    dealer = (z[:, 32] >> u(62)).astype(np.int8)
    keys = (z[:, :32] >> u(32)).astype(np.uint32)
    keys &= np.uint32(_LOW5)
    keys |= np.arange(32, dtype=np.uint32)[None, :]
    keys.sort(axis=1)
    keys &= np.uint32(31)
    bits = np.left_shift(np.uint32(1), keys)
    n = stop - start
    hands = bits.reshape(n, 4, 8).sum(axis=2, dtype=np.uint32).T.copy()
    return hands, dealer
