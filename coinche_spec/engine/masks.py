"""Cards as 32-bit masks: bit i is card i = suit * 8 + rank (suits S H D C, ranks 7 8 9 T J Q K A).

A hand, a trick's cards or a side's pile is one int, so "does he hold a trump"
is a single ``&``. Everything here is precomputed at import so the play core
never builds a dict or a list per card.
"""

from __future__ import annotations

from ..notation import RANKS, SUITS

FULL_DECK = (1 << 32) - 1

# Rank indices inside a suit: 7=0 8=1 9=2 T=3 J=4 Q=5 K=6 A=7.
R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)

# Strength of each rank index (higher beats lower).
# Trump: J 9 A T K Q 8 7, strongest first.
TRUMP_RANK_ORDER = (0, 1, 6, 4, 7, 2, 3, 5)
# Plain suit (and every suit at sans atout): A T K Q J 9 8 7.
PLAIN_RANK_ORDER = (0, 1, 2, 6, 3, 4, 5, 7)

SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))

BITS = tuple(1 << i for i in range(32))


def bit(card: int) -> int:
    """The mask holding only ``card``."""
    return 1 << card


def mask_of(cards) -> int:
    """The mask of an iterable of card indices."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def popcount(mask: int) -> int:
    return mask.bit_count()


def lowest_card(mask: int) -> int:
    """Index of the lowest set bit (-1 for an empty mask)."""
    return (mask & -mask).bit_length() - 1


def highest_card(mask: int) -> int:
    """Index of the highest set bit (-1 for an empty mask)."""
    return mask.bit_length() - 1


def iter_cards(mask: int):
    """Yield the card indices of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[int]:
    """The card indices of ``mask`` in ascending order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def suit_of(card: int) -> int:
    return card >> 3


def rank_of(card: int) -> int:
    return card & 7


def suit_mask(suit: str) -> int:
    """Mask of the eight cards of a suit given as a letter (S H D C)."""
    try:
        return SUIT_MASKS[SUITS.index(suit)]
    except ValueError:
        raise ValueError(f"bad suit {suit!r}: expected one of S H D C") from None


def _above_in_suit(order: tuple[int, ...]) -> tuple[int, ...]:
    """For each rank index, the 8-bit mask of ranks stronger than it in ``order``."""
    return tuple(sum(1 << r for r in range(8) if order[r] > order[rank]) for rank in range(8))


# 8-bit masks: ranks above a given rank in trump / plain order.
TRUMP_ABOVE = _above_in_suit(TRUMP_RANK_ORDER)
PLAIN_ABOVE = _above_in_suit(PLAIN_RANK_ORDER)

STRAIN_NAMES = ("S", "H", "D", "C", "TA", "SA")
TRUMP_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3, "TA": -1, "SA": -1}


def _strength_table(strain: str, trump_order: tuple, plain_order: tuple) -> tuple[int, ...]:
    """Strength of every card inside its own suit under the strain's ranking: the trump order for
    the trump suit and for every suit at tout atout, the plain order otherwise."""
    trump = TRUMP_SUIT[strain]
    return tuple(
        (trump_order if (strain == "TA" or (c >> 3) == trump) else plain_order)[c & 7]
        for c in range(32))


def _beat_table(strain: str, trump_order: tuple, plain_order: tuple) -> tuple[int, ...]:
    """For each card w, the mask of cards that would beat w if w were winning a trick.

    In a suit contract a trump beats any plain card and higher cards of w's own
    suit beat w; at tout atout every suit ranks as trump, at sans atout as a
    plain suit, and only a higher card of the same suit beats.
    """
    trump = TRUMP_SUIT[strain]
    strength = _strength_table(strain, trump_order, plain_order)
    table = []
    for w in range(32):
        s = w >> 3
        m = sum(1 << c for c in range(8 * s, 8 * s + 8) if strength[c] > strength[w])
        if trump >= 0 and s != trump:
            m |= SUIT_MASKS[trump]
        table.append(m)
    return tuple(table)


def _rank_beat_table(strain: str, trump_order: tuple, plain_order: tuple) -> tuple[int, ...]:
    """The beat table of a trick won by rank whatever the suit (play.trick_winner: any_suit_by_rank).

    A card's strength is its rank in its own order, plus 8 for a trump (so every
    trump beats every plain card); a card beats w when its strength is strictly
    higher, of any suit. At tout atout every card has its trump-order rank, at
    sans atout its plain-order rank.
    """
    trump = TRUMP_SUIT[strain]
    strength = _strength_table(strain, trump_order, plain_order)
    power = [strength[c] + (8 if (c >> 3) == trump else 0) for c in range(32)]
    return tuple(sum(1 << c for c in range(32) if power[c] > power[w]) for w in range(32))


_TABLES: dict = {}


def _per_strain(build, trump_order: tuple, plain_order: tuple) -> dict:
    """{strain: build(strain, orders)}, built once per rank order (a rule set's card_values.order)."""
    key = (build, trump_order, plain_order)
    hit = _TABLES.get(key)
    if hit is None:
        hit = _TABLES[key] = {strain: build(strain, trump_order, plain_order) for strain in STRAIN_NAMES}
    return hit


def led_suit_beats(trump_order: tuple = TRUMP_RANK_ORDER, plain_order: tuple = PLAIN_RANK_ORDER) -> dict:
    """BEAT under these rank orders (strength by rank index, 7 = strongest): {strain: table}."""
    return _per_strain(_beat_table, trump_order, plain_order)


def any_suit_beats(trump_order: tuple = TRUMP_RANK_ORDER, plain_order: tuple = PLAIN_RANK_ORDER) -> dict:
    """RANK_BEAT under these rank orders: {strain: table}."""
    return _per_strain(_rank_beat_table, trump_order, plain_order)


# BEAT[strain][w]: the cards that beat card w (w being the card now winning the trick), usual orders.
BEAT = led_suit_beats()
# RANK_BEAT[strain][w]: the cards that beat w when the trick goes to the highest rank of any suit.
RANK_BEAT = any_suit_beats()
STRENGTH = {strain: _strength_table(strain, TRUMP_RANK_ORDER, PLAIN_RANK_ORDER) for strain in STRAIN_NAMES}

RANK_LETTERS = RANKS
