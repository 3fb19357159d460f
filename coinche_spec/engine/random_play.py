"""Random legal deals, for the ``deal`` command, the benchmark and the property tests.

The players are not clever, only legal. The pack is shuffled, cut and dealt
in the variant's packets; in the auction a player now and then bids a little
above the last bid (so most auctions reach a contract), and an opponent
sometimes coinches; each card is drawn from the legal set; a player declares
the melds he holds with his first card and says belote and rebelote with
the king and queen of trump. Every choice comes from a seeded
``random.Random``, so a seed names a deal.

Every call and card is chosen from what the engine lists as legal
(``Deal.legal_calls`` and ``Deal.legal_mask``) and is then applied through
the engine, which checks it again: a random deal is legal by construction.
"""

from __future__ import annotations

import random

from ..notation import RANKS, SEATS, next_seat
from ..variants.compiled import compiled_rules
from ..variants.rules import Rules
from . import belote as belote_mod
from .dealing import METHOD as DEAL_METHOD
from .dealing import deal as deal_pack
from .game import Deal
from .options import choose, engine_phase, option_table

__all__ = ["random_hands", "random_deal", "play_out", "choose_call", "choose_card", "declarable_melds", "belote_word"]

# How often a player makes each kind of call when he may (the rest: pass).
OPENING_BID = 0.5        # the first bid of the auction
OVERCALL = 0.2           # a bid over someone else's
COINCHE = 0.05           # a coinche or surcoinche, in the auction or after it
CHEAP_RANGE = 20         # a random bid is at most this many points above the cheapest legal one


def _runs_of_byte(byte: int) -> tuple:
    """The runs of 3+ consecutive ranks in one suit's 8-bit mask, as rank-index lists, highest first."""
    runs, cur = [], []
    for r in range(8):
        if byte >> r & 1:
            cur.append(r)
            continue
        if len(cur) >= 3:
            runs.append(tuple(reversed(cur)))
        cur = []
    if len(cur) >= 3:
        runs.append(tuple(reversed(cur)))
    return tuple(runs)


# For each possible holding in one suit, its runs (A K Q J T 9 8 7 is rank index 7 down to 0).
_RUNS = tuple(_runs_of_byte(b) for b in range(256))
# The same per suit, as (mask, cards highest first): _SUIT_RUNS[suit][holding].
_SUIT_RUNS = tuple(
    tuple(tuple((sum(1 << (s * 8 + r) for r in run), tuple(s * 8 + r for r in run)) for run in runs)
          for runs in _RUNS)
    for s in range(4))
_SQUARE_MASKS = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))
# Squares are looked for strongest first (J 9 A T K Q 8 7) so a hand with two keeps the better one.
_SQUARE_ORDER = (4, 2, 7, 3, 6, 5, 1, 0)


# table.dealer_after_throw_in: who deals again after four passes, from (the dealer, the seat after him)
DEALER_AFTER_THROW_IN = option_table("table.dealer_after_throw_in", {
    "next_seat": lambda dealer, after: after,
    "same_dealer": lambda dealer, after: dealer,
})


class _PlayerRules:
    """What the random player derives from a rule set, once per rule set."""

    __slots__ = ("cut_minimum_packet", "cuts", "melds_enabled", "squares", "dealer_after_throw_in", "direction")

    def __init__(self, c):
        self.cut_minimum_packet = max(1, int(c.deal.cut.minimum_packet))   # a random cut never lifts none
        self.cuts = choose(DEAL_METHOD, c.deal.method)
        m = c.melds
        self.melds_enabled = m.enabled
        # strain -> the squares the variant values in that contract (melds.squares, or a sans atout or
        # tout atout table of its own), strongest first: (mask, cards in suit order)
        self.squares = {}
        for strain in ("S", "H", "D", "C", "TA", "SA"):
            own = m[{"SA": "squares_sans_atout", "TA": "squares_tout_atout"}.get(strain, "squares")]
            table = own if own is not None else m.squares
            self.squares[strain] = tuple((_SQUARE_MASKS[r], tuple(s * 8 + r for s in range(4)))
                                         for r in _SQUARE_ORDER if table[RANKS[r]] > 0)
        self.dealer_after_throw_in = choose(DEALER_AFTER_THROW_IN, c.table.dealer_after_throw_in)
        self.direction = c.table.direction


def _player_rules(rules) -> _PlayerRules:
    return engine_phase(rules, "random player", _PlayerRules)


def declarable_melds(rules, hand: int, strain: str = "S") -> list[list[int]]:
    """The squares and runs a player holds, no card in two of them (safe under every rule set).

    Only squares the variant values in the contract's ``strain`` are listed; a run is listed whole (a run
    longer than five is judged by the variant's long-run rule).
    """
    pr = _player_rules(rules)
    if not pr.melds_enabled:
        return []
    found = []
    used = 0
    for sq, cards in pr.squares[strain]:
        if hand & sq == sq:
            found.append(list(cards))
            used |= sq
    for s in range(4):
        for mask, cards in _SUIT_RUNS[s][(hand >> (8 * s)) & 0xFF]:
            if not mask & used:
                found.append(list(cards))
                used |= mask
    return found


def _pick(mask: int, u: float) -> int:
    """The card at position int(u * n) among the n cards of ``mask``, lowest first (u in [0, 1))."""
    for _ in range(int(u * mask.bit_count())):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _mask(cards) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def random_hands(rules, rng: random.Random, dealer: str, seen: dict | None = None) -> dict:
    """Shuffle, cut and deal a pack the variant's way; returns seat -> mask.

    ``seen``, when given, is filled with seat -> the mask of the cards dealt before the auction
    (all 8 unless deal.packets_after_auction keeps the last packets for after it)."""
    pack = list(range(32))
    rng.shuffle(pack)
    pr = _player_rules(rules)
    least = pr.cut_minimum_packet
    cut = rng.randint(least, 32 - least)    # drawn under every deal.method, so one seed deals one pack
    if not pr.cuts:
        cut = 0                             # deal.method: uniform deals the pack as it lies
    hands = deal_pack(rules, dealer, pack, cut)
    if seen is not None:
        n = compiled_rules(rules).cards_before_auction()
        seen.update({seat: _mask(cards[:n]) for seat, cards in hands.items()})
    return {seat: _mask(cards) for seat, cards in hands.items()}


def choose_call(deal: Deal, rng: random.Random):
    """A random legal (seat, call), or None to let the play start (after-auction window only).

    Bids are drawn from the cheap end of the legal bids, so auctions climb
    slowly and usually end with a contract. Speed only relies on the engine
    listing bids from low to high; legality never does.
    """
    options = deal.legal_calls()
    if not options:
        return None
    auction = deal.auction
    seat = auction.to_act
    r = rng.random()
    if seat is None:  # after the auction: a defender may coinche, then a taker surcoinche
        return rng.choice(options) if r < COINCHE else None
    if r < COINCHE:
        doubles = [p for p in options if p[1].kind in ("coinche", "surcoinche")]
        if doubles:
            return rng.choice(doubles)
    if r < (OPENING_BID if auction.bidder is None else OVERCALL):   # no bidder: no bid yet
        cheap = []
        top = None
        for pair in options:
            call = pair[1]
            if call.kind != "bid" or pair[0] != seat:
                continue
            value = call.value
            if type(value) is str:   # capot or générale: taken only when nothing cheaper is on offer
                if not cheap:
                    cheap.append(pair)
                continue
            if top is None:
                top = value + CHEAP_RANGE
            elif value > top:
                break
            cheap.append(pair)
        if cheap:
            return rng.choice(cheap)
    for pair in options:
        if pair[0] == seat and pair[1].kind == "pass":
            return pair
    return rng.choice(options)      # no pass (the dealer «à la vache»): any of his bids


def choose_card(deal: Deal, rng: random.Random) -> tuple:
    """A random legal card for the player to act, with his melds (first card) and what he says."""
    st = deal.play
    seat = st.to_act
    legal = st.legal()
    if legal & (legal - 1):
        card = _pick(legal, rng.random())
    else:  # a single legal card
        card = legal.bit_length() - 1
    melds = None
    if len(deal.log) < 4:
        melds = declarable_melds(deal.rules, deal.hands[seat], deal.contract.strain) or None
    return card, melds, belote_word(deal, seat, card, _belote_suits(deal))


def belote_word(deal: Deal, seat: str, card: int, suits) -> str | None:
    """What ``seat`` says playing ``card``: "belote" with the first of the king and queen of a belote
    suit (``suits``) he was dealt, "rebelote" with the second, else None."""
    if (card & 7) in (5, 6) and (card >> 3) in suits:  # Q or K of a belote suit
        pair = 0x60 << (card & ~7)       # the Q (rank 5) and K (rank 6) of the card's suit
        if deal.hands[seat] & pair == pair:
            return "belote" if deal.play.hand(seat) & pair == pair else "rebelote"
    return None


def _belote_suits(deal: Deal) -> tuple:
    """The suits whose king and queen make a belote in this deal's contract."""
    return belote_mod.compiled(deal.rules).suits.get(deal.play.strain, ())


def play_out(deal: Deal, rng: random.Random, stats: dict | None = None) -> Deal:
    """Play random legal calls and cards until the deal is over or thrown in.

    ``stats``, when given, counts the legal-move generations: ``calls`` and ``cards``.
    """
    calls = cards = 0
    while deal.phase == "auction" or (deal.phase == "play" and not deal.log and deal.auction.window_open):
        calls += 1
        choice = choose_call(deal, rng)
        if choice is None:
            break
        deal = deal.apply_call(*choice)
    if deal.phase == "play":
        # choose_card, unrolled: the same choices from the same draws, without the per-card lookups
        rules, hands, rand = deal.rules, deal.hands, rng.random
        played = len(deal.log)           # the first four cards are the players' first cards
        suits = _belote_suits(deal)
        pairs = {}                       # the king-queen pairs of a belote suit each seat was dealt
        for seat, hand in hands.items():
            held = 0
            for suit in suits:
                pair = 0x60 << (8 * suit)
                if hand & pair == pair:
                    held |= pair
            pairs[seat] = held
        while deal.phase == "play":
            st = deal.play
            seat = st.to_act
            legal = st.legal()
            if legal & (legal - 1):
                card = legal
                for _ in range(int(rand() * legal.bit_count())):
                    card &= card - 1
                card = (card & -card).bit_length() - 1
            else:
                card = legal.bit_length() - 1
            melds = (declarable_melds(rules, hands[seat], deal.contract.strain) or None) if played < 4 else None
            say = None
            if pairs[seat] >> card & 1:
                pair = 0x60 << (card & ~7)
                say = "belote" if st.hand(seat) & pair == pair else "rebelote"
            deal = deal.apply_card(seat, card, melds, say)
            cards += 1
            played += 1
    if stats is not None:
        stats["calls"] = stats.get("calls", 0) + calls
        stats["cards"] = stats.get("cards", 0) + cards
    return deal


def random_deal(rules, rng: random.Random, dealer: str | None = None, max_redeals: int = 20,
                stats: dict | None = None) -> Deal:
    """Deal and play one random legal deal to the end.

    When all four pass the cards are thrown in and dealt again, by the dealer
    the variant names (``table.dealer_after_throw_in``), up to ``max_redeals``
    times; the last thrown-in deal is returned if every one was.
    """
    if type(rules) is not Rules and not hasattr(rules, "auction") and hasattr(rules, "rules"):
        rules = rules.rules   # a Variant: its Rules keep the compiled rules
    pr = _player_rules(rules)
    dealer = dealer or SEATS[rng.randrange(4)]
    deal = None
    for _ in range(max(1, max_redeals)):
        deal = play_out(Deal.start(rules, dealer, random_hands(rules, rng, dealer)), rng, stats)
        if deal.phase != "redeal":
            return deal
        dealer = pr.dealer_after_throw_in(dealer, next_seat(dealer, pr.direction))
    return deal
