"""Dealing a known pack: the cut, then packets handed out round the table (rules-model §1).

No shuffling happens here: the pack arrives in a known order (top card
first), so two implementations dealing the same pack must give the same
hands. Anything the variant forbids (a cut too thin, packets it does not
use, a pack that is not the 32 cards) is a DealingRejected with the reason.
"""

from __future__ import annotations

from ..notation import SEATS, NotationError, card_name, parse_card, parse_seat
from .errors import DealingRejected

_SEAT_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}


def _deck(deck) -> list[int]:
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


def check_cut(rules, cut) -> int:
    """The cut as an int if the variant allows it, else DealingRejected with the reason."""
    rule = rules.deal.cut
    if isinstance(cut, bool) or not isinstance(cut, int):
        raise DealingRejected(f"cut: expected a number of cards from 0 to 32, got {cut!r}")
    if not 0 <= cut <= 32:
        raise DealingRejected(f"cut: {cut} cards cannot be lifted from a pack of 32")
    if cut in (0, 32):
        if rule.required:
            raise DealingRejected(f"cut: {cut} is no cut, and this variant requires the pack to be cut")
        return cut
    least = int(rule.minimum_packet)
    if cut < least or 32 - cut < least:
        raise DealingRejected(
            f"cut: {cut} leaves packets of {cut} and {32 - cut} cards; "
            f"each part must hold at least {least}")
    return cut


def check_packets(rules, packets) -> list[int]:
    """The packet sizes to deal: the variant's own, or one of its alternatives."""
    own = [int(n) for n in rules.deal.packets]
    if packets is None:
        chosen = own
    else:
        if not isinstance(packets, (list, tuple)) or any(
                isinstance(n, bool) or not isinstance(n, int) for n in packets):
            raise DealingRejected(f"packets: expected a list of packet sizes such as [3, 2, 3], got {packets!r}")
        chosen = list(packets)
        allowed = [own] + [[int(n) for n in alt] for alt in rules.deal.alternative_packets]
        if chosen not in allowed:
            shown = " or ".join("-".join(map(str, a)) for a in allowed)
            raise DealingRejected(
                f"packets: {'-'.join(map(str, chosen))} is not used by this variant (it deals {shown})")
    if any(n < 1 for n in chosen) or sum(chosen) != 8:
        raise DealingRejected(
            f"packets: {'-'.join(map(str, chosen))} gives each player {sum(chosen)} cards, not 8")
    return chosen


def deal(rules, dealer: str, deck, cut: int, packets=None) -> dict:
    """Cut the pack, then deal it in packets starting with the seat next to the dealer.

    Returns seat -> the cards in the order received.
    """
    if not hasattr(rules, "deal") and hasattr(rules, "rules"):
        rules = rules.rules  # a Variant was passed
    try:
        dealer = dealer if dealer in _SEAT_INDEX else parse_seat(dealer)
    except NotationError as exc:
        raise DealingRejected(f"dealer: {exc}") from None
    cards = _deck(deck)
    cut = check_cut(rules, cut)
    sizes = check_packets(rules, packets)
    pack = cards[cut:] + cards[:cut]
    step = 1 if rules.table.direction == "clockwise" else 3
    order = [SEATS[(_SEAT_INDEX[dealer] + step * k) & 3] for k in range(1, 5)]
    hands: dict = {seat: [] for seat in SEATS}
    top = 0
    for size in sizes:
        for seat in order:
            hands[seat].extend(pack[top:top + size])
            top += size
    return hands
