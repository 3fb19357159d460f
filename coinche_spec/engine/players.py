"""Simple, plausible players: a fixed rule of thumb for every call and card.

These players are meant to look like a careful beginner at the table, not to
play well. They exist so that a rule change can be judged on deals played
roughly the way people play them (the comparison of rule sets), and so that
``coinche-spec deal --players simple`` shows a believable deal.

- **Bidding** counts the hand: trump length and honours (the jack and the
  nine above all), side aces and tens, and the belote; about 30 points are
  assumed from the partner. A player bids the best strain he may when the
  count reaches a legal bid (tout atout wants two jacks, sans atout three
  aces), raises his partner's bid once with honours and aces, and otherwise
  passes. A capot is bid only with a hand that counts to a sweep; a
  générale never.
- **Coinche** when the defenders' count in the takers' trump (sure trumps,
  side aces) leaves the takers short of their bid; **surcoinche** when the
  declarer's count, or what his partner's hand adds, beats the bid by 30. Every coinche window a
  rule set opens (in turn, at any moment, after the auction) is read from
  the engine's legal calls.
- **Play**: the takers draw trumps with the master trump; anyone leads his
  masters, else a low card of his longest side suit. Following, a player
  gives points to a partner who is sure to win (the ten under the partner's
  ace), wins cheaply with a card nobody still to play can beat (or by
  cutting), and otherwise throws his cheapest card, keeping trumps.
- **Melds and belote**: every meld held is declared with the first card, and
  belote and rebelote are said with the king and queen of trump.

Nothing is random: the same hands give the same deal, so a seed (which
deals the hands) names a deal. Every call and card comes from what the
engine lists as legal (``Deal.legal_calls``, ``Deal.legal_mask``) and goes
back through the engine, which checks it again. The batch engine plays the
same players on many deals at once (``batch/simple.py``), call for call and
card for card (tests/test_batch_simple.py): a change here is a change there.
"""

from __future__ import annotations

import random

from ..notation import SEATS, next_seat, partner, team_of
from ..variants.compiled import compiled_rules
from ..variants.rules import Rules
from .belote import belote_suits
from .game import Deal
from .masks import SUIT_MASKS, cards_of
from .random_play import declarable_melds, random_hands

__all__ = ["simple_deal", "play_hands", "play_out", "choose_call", "choose_card",
           "bidding_strength", "defence_strength"]

_FULL = (1 << 32) - 1
# rank indices: 7 8 9 T J Q K A
_9, _T, _J, _Q, _K, _A = 2, 3, 4, 5, 6, 7
PARTNER_SHARE = 30     # the points a bidder counts on from his partner, on the 162-point scale
CAPOT_COUNT = 190      # a count this high (partner's share included) is worth a capot bid
COINCHE_MARGIN = 20    # the defenders coinche when their count beats the takers' need by this much
SURCOINCHE_MARGIN = 30 # the takers surcoinche when their count beats the bid by this much
UNSEEN_CARD = 5        # a card still to be dealt after the auction: an average card, 162 / 32 points
MAX_CALLS = 400        # no auction is this long; a guard against a loop, never reached


def _has(hand: int, suit: int, rank: int) -> bool:
    return bool(hand >> (suit * 8 + rank) & 1)


def _count(hand: int, suit: int) -> int:
    return (hand & SUIT_MASKS[suit]).bit_count()


def _trump_part(p: int) -> int:
    """The count of a trump suit held as the 8-bit pattern ``p`` (belote apart)."""
    n = p.bit_count()
    jack = p >> _J & 1
    pts = 25 if jack else 0
    if p >> _9 & 1:
        pts += 15 if jack or n >= 3 else 8
    if p >> _A & 1:
        pts += 11 if n >= 3 else 7
    if p >> _T & 1:
        pts += 10 if n >= 3 else 5
    pts += 4 * sum(p >> r & 1 for r in (0, 1, _Q, _K))
    if n > 3:
        pts += 10 * (n - 3)
    return pts


def _side_part(q: int, long_trumps: bool) -> int:
    """The count of a side suit held as the 8-bit pattern ``q``: a void to cut with, the ace and ten."""
    k = q.bit_count()
    pts = 5 if k == 0 and long_trumps else 0
    if q >> _A & 1:
        pts += 12
        if q >> _T & 1:
            pts += 8
    elif q >> _T & 1 and k >= 3:
        pts += 3
    return pts


# the two parts for every pattern of a suit, worked out once: a hand is counted by four look-ups
_TRUMP_PART = tuple(_trump_part(p) for p in range(256))
_SIDE_PART = (tuple(_side_part(q, False) for q in range(256)), tuple(_side_part(q, True) for q in range(256)))
_KQ = 1 << _K | 1 << _Q


def _suit_count(hand: int, trump: int, belote: int) -> int:
    """The count of a hand for a suit contract with ``trump``, on the 162-point scale (no partner)."""
    p = hand >> (trump * 8) & 0xFF
    pts = _TRUMP_PART[p]
    if belote and p & _KQ == _KQ:
        pts += belote
    side = _SIDE_PART[p.bit_count() >= 3]
    for s in range(4):
        if s != trump:
            pts += side[hand >> (s * 8) & 0xFF]
    return pts


def _sans_atout_count(hand: int) -> int:
    """Aces and the tens and length behind them; nothing without three aces."""
    if sum(_has(hand, s, _A) for s in range(4)) < 3:
        return 0
    pts = 0
    for s in range(4):
        if not _has(hand, s, _A):
            if _has(hand, s, _T) and _count(hand, s) >= 3:
                pts += 4
            continue
        pts += 22
        if _has(hand, s, _T):
            pts += 12
            if _has(hand, s, _K):
                pts += 5
            pts += 8 * max(0, _count(hand, s) - 3)
    return pts


def _tout_atout_count(hand: int) -> int:
    """Jacks and the nines beside them; nothing without two jacks."""
    if sum(_has(hand, s, _J) for s in range(4)) < 2:
        return 0
    pts = 0
    for s in range(4):
        jack = _has(hand, s, _J)
        if jack:
            pts += 20
        if _has(hand, s, _9):
            pts += 14 if jack else 6 if _count(hand, s) >= 2 else 2
        if jack and _has(hand, s, _9) and _has(hand, s, _A):
            pts += 8
    return pts


def bidding_strength(rules, hand: int, strain: str) -> int:
    """What a player counts on his side taking in ``strain`` (his partner's share included).

    On the scale of the strain's card points (162 in a suit or sans atout,
    268 in tout atout with the usual values), so it compares with a bid.
    """
    key = (id(rules), hand, strain)
    hit = _STRENGTHS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    if strain == "SA":
        own = _sans_atout_count(hand)
    elif strain == "TA":
        own = _tout_atout_count(hand)
    else:
        b = rules.belote
        belote = b.points if b.enabled and b.counts_towards_contract else 0
        own = _suit_count(hand, "SHDC".index(strain), belote)
    if own == 0:
        return 0
    out = own + PARTNER_SHARE * _deal_total(rules, strain) // 162
    if len(_STRENGTHS) > 4096:
        _STRENGTHS.clear()
    _STRENGTHS[key] = (rules, out)
    return out


_STRENGTHS: dict = {}     # (rules id, hand, strain) -> (rules, count): a hand is counted once per deal


def _support(hand: int, strain: str) -> int:
    """What a partner adds to his partner's bid: side aces, and the trump jack and nine."""
    if strain in ("TA", "SA"):
        rank = _J if strain == "TA" else _A
        return 15 * sum(_has(hand, s, rank) for s in range(4))
    t = "SHDC".index(strain)
    pts = 20 if _has(hand, t, _J) else 0
    pts += 10 if _has(hand, t, _9) else 0
    pts += 10 * sum(_has(hand, s, _A) for s in range(4) if s != t)
    if _count(hand, t) >= 3:
        pts += 10
    return pts


def defence_strength(rules, hand: int, strain: str) -> int:
    """What a defender counts on taking against a contract in ``strain`` (no partner's share)."""
    pts = 0
    if strain in ("TA", "SA"):
        top = _J if strain == "TA" else _A
        for s in range(4):
            if _has(hand, s, top):
                pts += 25
                if strain == "SA" and _has(hand, s, _T):
                    pts += 10
        return pts
    t = "SHDC".index(strain)
    n = _count(hand, t)
    if _has(hand, t, _J):
        pts += 25
    if _has(hand, t, _9) and (n >= 3 or _has(hand, t, _J)):
        pts += 14
    pts += 10 * max(0, n - 2)
    for s in range(4):
        if s != t and _has(hand, s, _A):
            pts += 13
            if _has(hand, s, _T):
                pts += 8
    return pts


def _deal_total(rules, strain: str) -> int:
    """The card points of a deal in ``strain``, the last trick included."""
    key = (id(rules), strain)
    hit = _TOTALS.get(key)
    if hit is None or hit[0] is not rules:
        c = compiled_rules(rules)
        if len(_TOTALS) > 256:
            _TOTALS.clear()
        hit = _TOTALS[key] = (rules, c.card_total(strain) + c.card_values.last_trick)
    return hit[1]


_TOTALS: dict = {}    # (rules id, strain) -> (rules, card points of a deal): read once per rule set


# --- the auction ------------------------------------------------------------

def _bid_value(call) -> int:
    """A bid's value for comparing what a player can afford: capot and générale above any number."""
    return call.value if type(call.value) is int else 10_000


def _double_wanted(deal: Deal, seat: str, call) -> bool:
    """Whether ``seat`` wants this coinche or surcoinche of the bid now standing."""
    auction = deal.auction
    high = auction.high_bid
    hand = deal.auction_hand(seat)
    strain = high.strain
    value = high.value
    if call.kind == "coinche":
        own = defence_strength(deal.rules, hand, strain)
        if type(value) is not int:          # capot or générale: one sure trick beats it
            return own >= 25
        need = _deal_total(deal.rules, strain) - value    # what the defenders need to beat the bid
        return own + PARTNER_SHARE >= need + COINCHE_MARGIN
    # surcoinche: the declarer on his own count, his partner on what his hand adds to the bid; never a
    # defender (surcoinche.by: next_caller lets him, but it only raises what his side stands to lose)
    if type(value) is not int or seat not in (auction.bidder, partner(auction.bidder)):
        return False
    if seat == auction.bidder:
        return bidding_strength(deal.rules, hand, strain) >= value + SURCOINCHE_MARGIN
    return _support(hand, strain) - 10 >= SURCOINCHE_MARGIN


def _bid_wanted(deal: Deal, seat: str, bids: list):
    """The bid ``seat`` makes among his legal ``bids``, or None to pass."""
    rules = deal.rules
    hand = deal.auction_hand(seat)
    auction = deal.auction
    high = auction.high_bid
    strains = []
    for _, call in bids:
        if call.strain not in strains:
            strains.append(call.strain)
    # what he can afford in each strain he may bid
    afford = {s: bidding_strength(rules, hand, s) for s in strains}
    unseen = 8 - hand.bit_count()     # cards still to come after the auction (deal.packets_after_auction)
    if unseen:
        afford = {s: v + UNSEEN_CARD * unseen for s, v in afford.items()}
    has_bid = any(s == seat and c.kind == "bid" for s, c in deal.calls)
    if (high is not None and auction.bidder == partner(seat) and not has_bid
            and high.strain in afford and type(high.value) is int):
        # raising the partner (once, and only before he has bid himself): the partner's bid plus
        # what this hand adds to it
        afford[high.strain] = max(afford[high.strain], high.value + _support(hand, high.strain) - 10)
        # a new strain over the partner only with a clearly better count
        for s in strains:
            if s != high.strain:
                afford[s] -= 20
    totals = {s: _deal_total(rules, s) for s in strains}
    best = None
    for pair in bids:
        call = pair[1]
        limit = afford[call.strain]
        if type(call.value) is not int:
            if call.value != "capot" or limit < CAPOT_COUNT * totals[call.strain] // 162:
                continue
        elif call.value > limit:
            continue
        # the strain he counts best (as a share of the strain's card points), at the highest value it affords
        key = (limit * 1000 // totals[call.strain], _bid_value(call))
        if best is None or key > best[0]:
            best = (key, pair)
    return None if best is None else best[1]


def choose_call(deal: Deal):
    """The simple players' next (seat, call), or None to let the play start (after-auction window)."""
    options = deal.legal_calls()
    if not options:
        return None
    for pair in options:
        if pair[1].kind in ("coinche", "surcoinche") and _double_wanted(deal, pair[0], pair[1]):
            return pair
    seat = deal.auction.to_act
    if seat is None:          # the after-auction window: nobody wants to double
        return None
    bids = [p for p in options if p[0] == seat and p[1].kind == "bid"]
    if bids:
        bid = _bid_wanted(deal, seat, bids)
        if bid is not None:
            return bid
    for pair in options:
        if pair[0] == seat and pair[1].kind == "pass":
            return pair
    return options[0]   # no pass (the dealer «à la vache», all_pass dealer_must_bid): the lowest bid


# --- the play -----------------------------------------------------------------

class _Memory:
    """What the table has seen so far: the cards gone, and the suits each player showed void in."""

    __slots__ = ("played", "void")

    def __init__(self):
        self.played = 0
        self.void = {s: 0 for s in SEATS}      # seat -> suits (a bit per suit) he showed void in

    def note(self, sr, seat: str, card: int, led, win, win_seat) -> None:
        """``seat`` played ``card`` to a trick led in suit ``led`` (None: he led) that ``win`` was winning."""
        self.played |= 1 << card
        if led is None or card >> 3 == led:
            return
        self.void[seat] |= 1 << led
        trump = sr.trump
        if (trump >= 0 and led != trump and card >> 3 != trump and win >> 3 != trump
                and sr.void_opponent_winning_must_trump
                and not (team_of(win_seat) == team_of(seat) and sr.void_partner_winning_may_discard)):
            self.void[seat] |= 1 << trump      # he had to trump and did not: he holds none

    @classmethod
    def of(cls, deal: Deal) -> "_Memory":
        """The memory of a deal's play so far, read from its log."""
        m = cls()
        sr = deal.play.rules
        log = deal.log
        for start in range(0, len(log), 4):
            led = win = win_seat = None
            for who, card, _ in log[start:start + 4]:
                m.note(sr, who, card, led, win, win_seat)
                if led is None:
                    led, win, win_seat = card >> 3, card, who
                elif sr.beat[win] >> card & 1:
                    win, win_seat = card, who
        return m


_AFTER: dict = {}


def _after(seat: str, direction: str, played: int) -> list:
    """The seats still to play in a trick after ``seat``, when ``played`` cards are already in it."""
    key = (seat, direction, played)
    hit = _AFTER.get(key)
    if hit is None:
        hit, s = [], seat
        for _ in range(3 - played):
            s = next_seat(s, direction)
            hit.append(s)
        _AFTER[key] = hit = tuple(hit)
    return list(hit)


class _View:
    """What a player at the table knows when he plays: the cards gone, who showed a void, the trick."""

    __slots__ = ("sr", "seat", "hand", "unseen", "void", "trick", "win", "win_seat", "after")

    def __init__(self, deal: Deal, memory: _Memory):
        st = deal.play
        self.sr = sr = st.rules
        self.seat = seat = st.to_act
        self.hand = st.hand(seat)
        self.unseen = _FULL & ~memory.played & ~self.hand
        self.void = memory.void
        self.trick = trick = [c for _, c in st.trick]
        win = None
        for c in trick:
            if win is None or sr.beat[win] >> c & 1:
                win = c
        self.win = win
        self.win_seat = st.winning
        self.after = _after(seat, sr.direction, len(trick))   # who plays after him in this trick
        if st.sitting_out is not None:    # a générale's partner laid his hand aside: three to a trick
            self.after = [s for s in _after(seat, sr.direction, 0) if s != st.sitting_out][:2 - len(trick)]

    def holds(self, card: int, seats=None) -> bool:
        """Whether ``card``, winning the trick, cannot be beaten by anyone still to play (as far as he knows)."""
        sr = self.sr
        led = (self.trick[0] if self.trick else card) >> 3
        higher = sr.beat[card] & self.unseen
        in_suit = higher & SUIT_MASKS[led]
        trumps = higher & sr.trump_mask
        for s in (self.after if seats is None else seats):
            v = self.void[s]
            if v >> led & 1:
                if trumps and not (sr.trump >= 0 and v >> sr.trump & 1):
                    return False
            elif in_suit:
                return False
        return True

    def master(self, card: int) -> bool:
        """No card still out in other hands ranks above ``card`` in its suit."""
        return not (self.sr.beat[card] & SUIT_MASKS[card >> 3] & self.unseen)


def _power(sr, card: int) -> int:
    """Rank within its suit for this strain: 0 is the weakest (the 7), 7 the master (the jack of trump)."""
    return 7 - (sr.beat[card] & SUIT_MASKS[card >> 3]).bit_count()


def _cheapest_winner(sr, cards) -> int:
    """The least valuable card that does the job: plain before trump, weaker before stronger."""
    return min(cards, key=lambda c: (c >> 3 == sr.trump, _power(sr, c), sr.value[c], c))


def _throw(sr, cards) -> int:
    """The card that costs least to lose: plain before trump, fewest points, weakest."""
    return min(cards, key=lambda c: (c >> 3 == sr.trump, sr.value[c], _power(sr, c), c))


def _give(v: _View, cards) -> int:
    """Points to a partner sure of the trick: the most valuable plain card that is not a master elsewhere."""
    sr = v.sr
    led = v.trick[0] >> 3
    plain = [c for c in cards if c >> 3 != sr.trump] if sr.trump >= 0 else list(cards)
    if not plain:
        return _throw(sr, cards)
    spare = [c for c in plain if c >> 3 == led or not v.master(c)]
    if not spare:
        return _throw(sr, plain)
    return max(spare, key=lambda c: (sr.value[c], -_power(sr, c), -c))


def _lead(v: _View, takers: bool) -> int:
    sr = v.sr
    hand = v.hand
    cards = cards_of(hand)
    if sr.trump >= 0:
        trumps = hand & sr.trump_mask
        out = sr.trump_mask & v.unseen
        if takers and trumps and out:
            top = max(cards_of(trumps), key=lambda c: _power(sr, c))
            if v.master(top):
                return top              # draw the defenders' trumps with the master
    masters = [c for c in cards if c >> 3 != sr.trump and v.master(c)]
    if masters:
        return max(masters, key=lambda c: (sr.value[c], c))
    plain = [c for c in cards if c >> 3 != sr.trump]
    if not plain:
        return _throw(sr, cards)
    # a low card of the longest side suit (of two as long, the one whose low card costs least)
    by_suit = {}
    for c in plain:
        by_suit.setdefault(c >> 3, []).append(c)
    lows = [_throw(sr, cs) for cs in by_suit.values()]
    return max(lows, key=lambda c: (len(by_suit[c >> 3]), -sr.value[c], -c))


def _play(deal: Deal, v: _View) -> int:
    legal = deal.play.legal()
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    sr = v.sr
    cards = cards_of(legal)
    mine = team_of(v.seat)
    if not v.trick:
        return _lead(v, deal.contract.takers == mine)
    last = not v.after
    partner_wins = team_of(v.win_seat) == mine
    if partner_wins and (last or v.holds(v.win)):
        return _give(v, cards)
    beating = [c for c in cards if sr.beat[v.win] >> c & 1]
    if beating and not partner_wins:
        if last:
            return _cheapest_winner(sr, beating)
        sure = [c for c in beating if v.holds(c)]
        if sure:
            return _cheapest_winner(sr, sure)
        cut = [c for c in beating if c >> 3 == sr.trump and v.trick[0] >> 3 != sr.trump]
        if cut:
            return _cheapest_winner(sr, cut)
    return _throw(sr, cards)


_BELOTE_SUITS: dict = {}


def _belote_suits(rules, strain: str) -> tuple:
    """The suits whose king and queen make a belote in ``strain``, read once per rule set and strain."""
    key = (id(rules), strain)
    hit = _BELOTE_SUITS.get(key)
    if hit is None or hit[0] is not rules:
        if len(_BELOTE_SUITS) > 256:
            _BELOTE_SUITS.clear()
        hit = _BELOTE_SUITS[key] = (rules, tuple(belote_suits(rules, strain)))
    return hit[1]


def _belote_word(deal: Deal, seat: str, card: int) -> str | None:
    """"belote" with the first of the king and queen of a belote suit, "rebelote" with the second."""
    if card & 7 not in (_Q, _K) or card >> 3 not in _belote_suits(deal.rules, deal.play.strain):
        return None
    pair = 0x60 << (card & ~7)        # the queen and king of the card's suit
    if deal.hands[seat] & pair != pair:
        return None
    return "belote" if deal.play.hand(seat) & pair == pair else "rebelote"


def choose_card(deal: Deal, memory: _Memory | None = None) -> tuple:
    """The simple player's card for the player to act, with his melds (first card) and what he says.

    ``memory`` is what the table has seen (``play_out`` keeps one as it goes); without it, it is
    read from the deal's log.
    """
    v = _View(deal, memory if memory is not None else _Memory.of(deal))
    card = _play(deal, v)
    melds = None
    if len(deal.log) < 4:
        melds = declarable_melds(deal.rules, deal.hands[v.seat], deal.contract.strain) or None
    return card, melds, _belote_word(deal, v.seat, card)


def play_out(deal: Deal) -> Deal:
    """Play the simple players' calls and cards until the deal is over or thrown in."""
    for _ in range(MAX_CALLS):
        if not (deal.phase == "auction" or (deal.phase == "play" and not deal.log and deal.auction.window_open)):
            break
        choice = choose_call(deal)
        if choice is None:
            break
        deal = deal.apply_call(*choice)
    if deal.phase != "play":
        return deal
    memory = _Memory.of(deal)
    sr = deal.play.rules
    while deal.phase == "play":
        st = deal.play
        seat = st.to_act
        card, melds, say = choose_card(deal, memory)
        trick = st.trick
        if trick:
            win_seat = st.winning
            win = next(c for s, c in trick if s == win_seat)
            memory.note(sr, seat, card, trick[0][1] >> 3, win, win_seat)
        else:
            memory.note(sr, seat, card, None, None, None)
        deal = deal.apply_card(seat, card, melds, say)
    return deal


def play_hands(rules, dealer: str, hands: dict, seen: dict | None = None) -> Deal:
    """The simple players' deal from these hands (seat -> mask or card list): the same hands, the same
    deal. ``seen``: the cards each seat bids on, where the last packets come after the auction."""
    return play_out(Deal.start(rules, dealer, hands, seen))


def simple_deal(rules, rng: random.Random, dealer: str | None = None, max_redeals: int = 20) -> Deal:
    """Deal as ``random_deal`` does (same shuffle, cut and packets) and let the simple players play it.

    After four passes the cards are dealt again by the variant's next dealer,
    up to ``max_redeals`` times; the last thrown-in deal is returned if every one was.
    """
    if type(rules) is not Rules and not hasattr(rules, "auction") and hasattr(rules, "rules"):
        rules = rules.rules
    dealer = dealer or SEATS[rng.randrange(4)]
    deal = None
    for _ in range(max(1, max_redeals)):
        seen: dict = {}
        deal = play_hands(rules, dealer, random_hands(rules, rng, dealer, seen), seen)
        if deal.phase != "redeal":
            return deal
        if rules.table.dealer_after_throw_in == "next_seat":
            dealer = next_seat(dealer, rules.table.direction)
    return deal
