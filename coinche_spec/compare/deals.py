"""Where the compared deals come from: one function, so a batch engine can take its place.

Deal ``i`` of seed ``s`` is drawn from its own generator, so a deal does not
depend on how many came before it or on which process plays it: the same
seed gives the same deals whatever ``--jobs`` says. The hands are dealt
without any rule set's packets (eight cards each from one shuffle), so every
rule set plays exactly the same hands with the same dealer.
"""

from __future__ import annotations

import random

from ..notation import SEATS


def deal_hands(seed: int, index: int) -> tuple[str, dict]:
    """Deal ``index`` of ``seed``: its dealer and each seat's hand (a card mask)."""
    rng = random.Random(f"coinche-spec compare {seed} {index}")
    pack = list(range(32))
    rng.shuffle(pack)
    hands = {}
    for k, seat in enumerate(SEATS):
        mask = 0
        for c in pack[8 * k:8 * k + 8]:
            mask |= 1 << c
        hands[seat] = mask
    return SEATS[rng.randrange(4)], hands
