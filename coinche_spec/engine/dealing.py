"""Dealing a known pack: the cut, then packets handed out round the table (rules-model §1).

No shuffling happens here: the pack arrives in a known order (top card
first), so two implementations dealing the same pack must give the same
hands. Anything the variant forbids (a cut too thin, packets it does not
use, a pack that is not the 32 cards) is a DealingRejected with the reason.
"""

from __future__ import annotations

from ..notation import NotationError, card_name, parse_card, parse_seat
from .errors import DealingRejected
from .options import Outside, choose, engine_phase, option_table
from .table import seat_step

_SEAT_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}
_PACK = frozenset(range(32))
_INT_ONLY = {int}


def _deck(deck) -> list[int]:
    """The pack as card indices, top first; DealingRejected names the first bad position."""
    # A shuffled list of the 32 card indices (every random deal) needs no card-by-card look:
    # 32 items whose set is 0..31 are the 32 distinct cards, once no item is a bool or a float.
    if (type(deck) is list or type(deck) is tuple) and len(deck) == 32 and set(deck) == _PACK \
            and set(map(type, deck)) == _INT_ONLY:
        return list(deck)
    return _checked_deck(deck)


def _checked_deck(deck) -> list[int]:
    """The pack checked card by card: lenient names, and a clear message for the first bad card."""
    if not isinstance(deck, (list, tuple)):
        raise DealingRejected(f"deck: expected a list of the 32 cards, got {type(deck).__name__}")
    out = []
    seen = 0
    for pos, item in enumerate(deck):
        if isinstance(item, int) and not isinstance(item, bool):
            if not 0 <= item < 32:
                raise DealingRejected(f"deck[{pos}]: card index {item} is outside 0..31")
            c = item
        else:
            try:
                c = parse_card(item)
            except NotationError as exc:
                raise DealingRejected(f"deck[{pos}]: {exc}") from None
        if seen >> c & 1:
            raise DealingRejected(f"deck[{pos}]: {card_name(c)} appears twice; the pack is 32 distinct cards")
        seen |= 1 << c
        out.append(c)
    if len(out) != 32:
        raise DealingRejected(f"deck: {len(out)} cards given; the pack is 32 distinct cards")
    return out


# The pack arrives in a known order, so neither who cuts nor whether it was shuffled changes the hands.
SHUFFLE = option_table("deal.shuffle", {
    "every_deal": Outside("the engine deals a pack given in a known order"),
    "never": Outside("the engine deals a pack given in a known order"),
    "dealer_choice": Outside("the engine deals a pack given in a known order"),
    "recommended": Outside("the engine deals a pack given in a known order"),
    "never_except_listed": Outside("the engine deals a pack given in a known order"),
})
# deal.method: whether the pack is cut and dealt in packets, or dealt as it lies, eight cards a seat
# (a uniformly random deal: colver). The value says whether a cut (and a packets order) is taken.
METHOD = option_table("deal.method", {
    "packets": True,
    "uniform": False,
})
CUT_BY = option_table("deal.cut.by", {
    "dealer_left": Outside("who lifts the cut does not change where it falls"),
    "dealer_right": Outside("who lifts the cut does not change where it falls"),
})


class DealRules:
    """The dealing rules of one rule set as plain values (names as in ``deal``), read once per rule set."""

    __slots__ = ("rules", "cuts", "cut_required", "cut_minimum_packet", "packets", "allowed", "step", "layouts")

    def __init__(self, c):
        self.rules = c
        self.cuts = choose(METHOD, c.deal.method)   # False: no cut, no packets
        cut = c.deal.cut
        self.cut_required = cut.required and self.cuts
        self.cut_minimum_packet = int(cut.minimum_packet)
        # uniform: whatever cut and packets the file gives, the pack goes out 8 cards a seat
        self.packets = [int(n) for n in c.deal.packets] if self.cuts else [8]
        self.allowed = [self.packets] + [[int(n) for n in alt] for alt in c.deal.alternative_packets]
        self.step = seat_step(c)
        self.layouts = {}   # (dealer, packet sizes) -> for each seat N E S W, its positions in the cut pack


def _compiled(rules) -> DealRules:
    return engine_phase(rules, "dealing", DealRules)


def check_cut(rules, cut) -> int:
    """The cut as an int if the variant allows it, else DealingRejected with the reason."""
    return _check_cut(_compiled(rules), cut)


def _check_cut(dr: DealRules, cut) -> int:
    if isinstance(cut, bool) or not isinstance(cut, int):
        raise DealingRejected(f"cut: expected a number of cards from 0 to 32, got {cut!r}")
    if not 0 <= cut <= 32:
        raise DealingRejected(f"cut: {cut} cards cannot be lifted from a pack of 32")
    if not dr.cuts and cut != 0:
        raise DealingRejected(f"cut: {cut}, but this rule set deals the pack as it lies, with no cut (deal.method)")
    if cut in (0, 32):
        if dr.cut_required:
            raise DealingRejected(f"cut: {cut} is no cut, and this variant requires the pack to be cut")
        return cut
    least = dr.cut_minimum_packet
    if cut < least or 32 - cut < least:
        raise DealingRejected(
            f"cut: {cut} leaves packets of {cut} and {32 - cut} cards; "
            f"each part must hold at least {least}")
    return cut


def check_packets(rules, packets) -> list[int]:
    """The packet sizes to deal: the variant's own, or one of its alternatives."""
    return list(_check_packets(_compiled(rules), packets))


def _check_packets(dr: DealRules, packets) -> list[int]:
    if packets is not None and not dr.cuts:
        raise DealingRejected(f"packets: {packets!r}, but this rule set deals eight cards a seat, "
                              "with no packets (deal.method)")
    if packets is None:
        chosen = dr.packets
    else:
        if not isinstance(packets, (list, tuple)) or any(
                isinstance(n, bool) or not isinstance(n, int) for n in packets):
            raise DealingRejected(f"packets: expected a list of packet sizes such as [3, 2, 3], got {packets!r}")
        chosen = list(packets)
        allowed = dr.allowed
        if chosen not in allowed:
            shown = " or ".join("-".join(map(str, a)) for a in allowed)
            raise DealingRejected(
                f"packets: {'-'.join(map(str, chosen))} is not used by this variant (it deals {shown})")
    if any(n < 1 for n in chosen) or sum(chosen) != 8:
        raise DealingRejected(
            f"packets: {'-'.join(map(str, chosen))} gives each player {sum(chosen)} cards, not 8")
    return chosen


def _layout(dr: DealRules, dealer: str, sizes: list[int]) -> tuple:
    """Which positions of the cut pack each seat receives, in the order received (cached)."""
    key = (dealer, tuple(sizes))
    hit = dr.layouts.get(key)
    if hit is None:
        order = [(_SEAT_INDEX[dealer] + dr.step * k) & 3 for k in range(1, 5)]
        positions = ([], [], [], [])
        top = 0
        for size in sizes:
            for seat in order:
                positions[seat].extend(range(top, top + size))
                top += size
        hit = dr.layouts[key] = tuple(tuple(p) for p in positions)
    return hit


def deal(rules, dealer: str, deck, cut: int, packets=None) -> dict:
    """Cut the pack, then deal it in packets starting with the seat next to the dealer.

    Returns seat -> the cards in the order received.
    """
    try:
        dealer = dealer if dealer in _SEAT_INDEX else parse_seat(dealer)
    except NotationError as exc:
        raise DealingRejected(f"dealer: {exc}") from None
    dr = _compiled(rules)
    cards = _deck(deck)
    cut = _check_cut(dr, cut)
    sizes = _check_packets(dr, packets)
    pack = cards[cut:] + cards[:cut]
    n, e, s, w = _layout(dr, dealer, sizes)
    return {"N": [pack[i] for i in n], "E": [pack[i] for i in e],
            "S": [pack[i] for i in s], "W": [pack[i] for i in w]}
