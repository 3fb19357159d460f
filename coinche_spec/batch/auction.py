"""The auction of B deals as a masked state machine, with random bidders.

Each deal's auction is a handful of small integers (the seat to act, the
highest bid as an index into the rule set's bid ladder, the bidder, passes
in a row, who passed, the multiplier, ...), stored as arrays over the deals.
One step lets every deal whose auction is still open make one call: the
legal calls are worked out as masks (the lowest ladder bid that may be made,
the seats that may coinche, the seats that may surcoinche), one call is drawn
among them, and the state moves on exactly as engine/auction.py says. Deals
whose auction is over drop out of the step, so the last long auctions cost
little.

The random bidder (its choice among the legal calls), with the per-deal
random player's probabilities (engine.random_play: COINCHE, OPENING_BID,
OVERCALL, CHEAP_RANGE):

* with probability COINCHE, when a coinche or surcoinche is legal (for the
  seat to act, or out of turn where the rules allow it), one of them,
  uniformly;
* otherwise with probability OPENING_BID (no bid yet) or OVERCALL (over a
  bid), when a bid is legal, a bid drawn uniformly from the cheap end of the
  ladder: the lowest legal bid and every numeric bid at most CHEAP_RANGE
  points above it, in every strain (only the lowest capot or générale when
  no number is left); a bid in the strain a player may not repeat over his
  own bid (``raise_own_bid: when_changing_strain``) is replaced by the next
  bid of the ladder, and one in a strain he has named in this auction
  (``never_in_a_named_strain``) by the next bid of the ladder in a strain he
  has not named (the one before, where none is left above);
* otherwise pass, or where no pass is legal (the dealer «à la vache», ``all_pass:
  dealer_must_bid``) the bid drawn as above;
* in the after-auction window (``coinche.when: after_auction``): with
  probability COINCHE one of the legal coinches (either defender) or, once
  coinched, surcoinches (either taker), uniformly; otherwise the play starts.
"""

from __future__ import annotations

import numpy as np

from ..engine.random_play import COINCHE, OPENING_BID, OVERCALL

__all__ = ["AuctionResult", "run_auction", "call_code_names"]

_BIDDING, _DOUBLED, _OVER = 0, 1, 2
COMPACT = 0.7      # the step's arrays are copied down to the open auctions when fewer are left
OPEN, CONTRACT, REDEAL = 0, 1, 2


class AuctionResult:
    """The settled auctions: per deal the state (CONTRACT or REDEAL), the contract's ladder index,
    declarer, multiplier and first bidder; ``steps`` (when recorded) lists every call made."""

    def __init__(self, state, high, bidder, mult, first_bidder, steps):
        self.state = state
        self.high = high
        self.bidder = bidder
        self.mult = mult
        self.first_bidder = first_bidder
        self.steps = steps


_I = np.int16     # the auction's small integers (seats, ladder indices, masks): a quarter of intp's memory traffic


def _pos(x):
    """max(x, 0) for int16 x: x & ~(x >> 15), a few microseconds where np.maximum against a scalar
    takes a slow path (about 40 times slower)."""
    return x & ~(x >> 15)


def _w(m, a, b):
    """a where the boolean m holds, else b, for integers: a bit select, several times cheaper
    than np.where on an unpredictable condition."""
    return b ^ ((a ^ b) & -m.astype(_I))


def _get(table, index):
    """table[index] for indices known to be in range (numpy's take in "wrap" mode skips the bounds
    check that makes the default gather two to three times slower)."""
    return table.take(index, mode="wrap")


# _KTH[k * 256 + mask]: the index of the k-th lowest set bit of an 8-bit mask (a seat mask of coinches
# in the low four bits, of surcoinches in the high four)
_KTH = np.zeros(8 * 256, _I)
for _mask in range(256):
    for _k, _bit in enumerate(b for b in range(8) if _mask >> b & 1):
        _KTH[_k * 256 + _mask] = _bit
_P32 = float(1 << 32)
# the probabilities as thresholds on a uniform 32-bit number r: r < p * 2^32 holds with probability p
_COINCHE_BELOW = np.uint32(int(COINCHE * _P32))
_OPENING_BELOW, _OVERCALL_BELOW = np.uint32(int(OPENING_BID * _P32)), np.uint32(int(OVERCALL * _P32))
_TO_UNIT = 1.0 / _P32


def _random_choice(br, rng, m, lo, excl, cmask, smask, inwin, has_high, nbids, raise_strain, named_strain,
                   cheap_end, bid_strain):
    """The random bidder's call for each open auction: (do_double, double bit, do_bid, ladder index).

    One 64-bit random word per auction, as two 32-bit halves: r0 decides between a coinche, a bid
    and a pass (r0 < p * 2^32 with probability p), u = r1 / 2^32 picks which (floor(u * count))."""
    L = br.n_bids
    r = rng.bit_generator.random_raw(m).view(np.uint32)
    r0, u = r[:m], r[m:] * _TO_UNIT
    dmask = cmask | (smask << 4)
    nd = np.bitwise_count(dmask.astype(np.uint8))
    do_double = (nd > 0) & (r0 < _COINCHE_BELOW)
    # a bid below the threshold of its case (the overcall's is the lower)
    do_bid = (r0 < _OVERCALL_BELOW) | ((r0 < _OPENING_BELOW) & ~has_high)
    do_bid &= ~do_double & ~inwin & (nbids > 0)
    pick = lo + (u * (_get(cheap_end, lo) - lo)).astype(_I)
    pick -= pick == L                                  # where no bid is left (not drawn then)
    if raise_strain:
        bad = ((excl >> _get(bid_strain, pick)) & 1) == 1
        pick = _w(bad, _w(pick + 1 < L, pick + 1, pick - 1), pick)
    elif named_strain:
        at = excl.astype(np.intp) * (L + 1) + pick
        up = _get(br.unnamed_from, at)
        pick = _w(up < L, up, _get(br.unnamed_to, at)).astype(_I)
    k = (u * nd).astype(np.intp)
    k <<= 8
    k += dmask
    return do_double, np.take(_KTH, k), do_bid, pick


def run_auction(br, rng: np.random.Generator, dealer, record: bool = False, chooser=None) -> AuctionResult:
    """Play the auctions of len(dealer) deals; ``br`` is the BatchRules. ``chooser`` picks the calls
    (batch.simple.SimplePlayers), else the random bidder does."""
    n = len(dealer)
    L = br.n_bids
    step = br.step
    to_act = ((dealer.astype(_I) + step) & 3)          # auction.first_speaker: next to the dealer
    phase = np.zeros(n, _I)
    state = np.zeros(n, _I)
    high = np.full(n, -1, _I)
    bidder = np.full(n, -1, _I)
    passes = np.zeros(n, _I)
    passed = np.zeros(n, _I)
    mult = np.ones(n, _I)
    coincher = np.full(n, -1, _I)
    surcoinched = np.zeros(n, bool)
    first_bidder = np.full(n, -1, _I)
    window = np.zeros(n, bool)
    bid_seats = np.zeros(n, _I)                 # the seats that have bid (a bit per seat)
    last_caller = np.full(n, -1, _I)            # the seat of the last call (coinche.by opponents_of_last_caller)
    named = np.zeros(n, np.int32)               # the strains each seat has bid in: bit 6 * seat + strain
    turns = np.zeros(n, _I)                     # calls made in turn (auction.max_rounds)
    bids_made = np.zeros(n, np.int64)           # bids made by each seat: 16 bits a seat (max_bids_per_player)
    # the rule set's ladder tables in the same small integers
    lowest, bid_strain = br.lowest.astype(_I), br.bid_strain.astype(_I)
    strain_count, cheap_end = br.strain_count.astype(_I), br.cheap_end.astype(_I)
    fields = (to_act, phase, state, high, bidder, passes, passed, mult, coincher, surcoinched,
              first_bidder, window, bid_seats, last_caller, named, turns, bids_made)
    coinchable_bid = br.coinchable
    when = br.coinche_when
    in_bidding_coinche = when != "after_auction" and coinchable_bid.any()
    after_auction = when == "after_auction"
    decoinche = br.overbid_cancels
    raise_never = br.raise_own == "never_without_intervening_bid"
    raise_strain = br.raise_own == "when_changing_strain"
    named_strain = br.raise_own == "never_in_a_named_strain"
    partner_silent = br.partner_silent
    steps = [] if record else None
    idx = np.arange(n)
    # the deals still in the step, with their state; a deal whose auction is over stays (and does
    # nothing) until fewer than COMPACT of the deals are left, then the rest are copied down
    ta, ph, st, hi, bd, ps, pd, mu, co, su, fb, wi, bs, lc, nm, tu, bm = (f.copy() for f in fields)
    round_cap = None if br.max_rounds is None else 4 * int(br.max_rounds)
    max_bids = br.max_bids
    while idx.size:
        m = idx.size
        seat = _pos(ta)
        inbid = ph == _BIDDING
        indbl = ph == _DOUBLED
        inwin = (ph == _OVER) & wi                    # the after-auction window
        has_high = hi >= 0
        b = _pos(bd)
        par = b & 1                                   # the bidder's side: seats 0 and 2 (0b0101) or 1 and 3
        # the seats auction.coinche.by lets coinche the highest bid: his opponents, anyone, or (Ten0)
        # the side opposite the last call, a bid or a pass
        if br.coinche_by_last:
            c = _pos(lc)
            by = _w(has_high, (1 << ((c + 1) & 3)) | (1 << ((c + 3) & 3)), 0)
        else:
            by = _w(has_high, 15 if br.coinche_by_any else 10 >> par, 0)
        takers = _w(has_high, 5 << par, 0)
        # the seats auction.surcoinche.by lets surcoinche: the takers, or anyone (next_caller, libcoinche)
        surcoinchers = _w(has_high, 15, 0) if br.sur_by_any else takers
        seat_bit = 1 << seat
        coinchable = has_high & _get(coinchable_bid, _pos(hi))
        # bids: the lowest legal ladder index (L: none) and the strains left out (a bit per strain,
        # 0: none); after a coinche only with décoinchage
        may_bid = (inbid | indbl) if decoinche else inbid.copy()
        if not br.speak_after_pass:
            may_bid &= (pd >> seat & 1) == 0
        if max_bids is not None:     # a player who has bid that many times may only pass or double
            may_bid &= ((bm >> (16 * seat.astype(np.int64))) & 0xFFFF) < max_bids
        # «à la vache» (all_pass: dealer_must_bid): the dealer may not pass after three passes
        must_bid = inbid & ~has_high & (ps == 3) if br.dealer_must_bid else np.zeros(m, bool)
        own = bd == seat
        if raise_never:
            may_bid &= ~own
        lo = _w(may_bid, _get(lowest, hi + 1), L)
        if raise_strain:          # not his own bid's strain
            ex = _get(bid_strain, _pos(hi))
            over_own = own & may_bid
            excl = _w(over_own, 1 << ex, 0)
            nbids = (L - lo) - _w(over_own, strain_count[ex, L] - strain_count[ex, lo], 0)
        elif named_strain:        # no strain he has named
            excl = _w(may_bid, (nm >> (6 * seat)) & 63, 0).astype(_I)
            nbids = L - lo
            for s in br.ladder_strains:
                nbids = nbids - _w(((excl >> s) & 1) == 1, strain_count[s, L] - strain_count[s, lo], 0)
        else:
            excl = np.zeros(m, _I)
            nbids = L - lo
        # coinches and surcoinches, as seat masks
        cmask = np.zeros(m, _I)
        if in_bidding_coinche:       # auction.coinche.when: the seat to act, his side, or anyone
            if when == "any_moment":
                who = by
            elif when == "side_in_turn":
                who = by & (seat_bit | (1 << (seat ^ 2)))
            else:
                who = by & seat_bit
            cmask = _w(inbid & coinchable, who, 0)
        if after_auction:
            cmask = _w(inwin & (co < 0), by, cmask)
        smask = np.zeros(m, _I)
        if br.sur_allowed:
            smask = _w(indbl & ~su & ((surcoinchers & seat_bit) != 0), seat_bit, 0)
            if after_auction or br.coinche_window:    # the window, once coinched
                smask = _w(inwin & (co >= 0), surcoinchers, smask)
        # the choice
        if chooser is None:
            do_double, dbit, do_bid, pick = _random_choice(br, rng, m, lo, excl, cmask, smask, inwin, has_high,
                                                           nbids, raise_strain, named_strain, cheap_end, bid_strain)
        else:
            do_double, dbit, do_bid, pick = chooser.call(idx, seat, hi, bd, bs, lo, excl, cmask, smask, inwin,
                                                         has_high, nbids, last=lc)
            dbit, pick = dbit.astype(_I), pick.astype(_I)
            # no bid wanted where no pass is legal: the engine's players take the first legal call, the lowest bid
            forced = must_bid & ~do_bid & ~do_double
            pick = _w(forced, lo, pick)
        do_bid |= must_bid & ~do_double
        actor = _w(do_double, dbit & 3, seat)
        is_coinche = do_double & (dbit < 4)
        is_sur = do_double & (dbit >= 4)
        is_pass = ~do_double & ~do_bid & (inbid | indbl)
        is_play = ~do_double & inwin
        lc = _w(inbid | indbl, actor, lc)          # every call but those of the window
        if record:
            code = _w(do_bid, 1 + pick, 0)
            code = _w(is_coinche, 1 + L + actor, code)
            code = _w(is_sur, 5 + L + actor, code)
            code = _w(is_play, 9 + L, code)
            act = inbid | indbl | inwin
            # bit 6 of the recorded exclusions: no pass is legal (the strains take bits 0-5)
            rex = _w(must_bid, excl | 64, excl)
            steps.append(tuple(x[act] for x in (idx, ta, ph, _w(inwin, L, lo), rex, cmask, smask, code)))
        # the moves, as engine/auction.py Auction._apply
        nxt_seat = (seat + step) & 3
        nxt_actor = (actor + step) & 3
        end = np.zeros(m, bool)
        settle = np.zeros(m, bool)
        # pass
        ps1 = ps + 1
        pass_dbl = is_pass & indbl
        pass_bid = is_pass & inbid
        end |= pass_dbl & br.coinche_ended_by(ps1, seat, bd, br.passes_after)
        pd = pd | _w(is_pass, seat_bit, 0)           # a pass after a coinche counts too (décoinchage)
        redeal = pass_bid & ~has_high & (ps1 >= 4)
        settle |= pass_bid & has_high & (ps1 >= br.passes_to_end)
        ps = _w(is_pass, ps1, 0)
        # bid
        hi = _w(do_bid, pick, hi)
        bd = _w(do_bid, seat, bd)
        bs = _w(do_bid, bs | seat_bit, bs)
        if max_bids is not None:
            bm = bm + (do_bid.astype(np.int64) << (16 * seat.astype(np.int64)))
        if named_strain:
            nm = nm | _w(do_bid, np.left_shift(1, 6 * seat.astype(np.int32) + _get(bid_strain, _pos(pick))), 0).astype(np.int32)
        fb = _w(do_bid & (fb < 0), seat, fb)
        if decoinche:                              # a bid after the coinche cancels it (and the surcoinche)
            rebid = do_bid & indbl
            ph = _w(rebid, _BIDDING, ph)
            mu = _w(rebid, 1, mu)
            co = _w(rebid, -1, co)
            su = su & ~rebid
        if br.capot_ends:
            settle |= do_bid & (_get(br.bid_kind, pick) > 0)
        # coinche and surcoinche
        co = _w(is_coinche, actor, co)
        mu = _w(is_coinche, br.coinche_mult, mu)
        mu = _w(is_sur, br.sur_mult, mu)
        su = su | is_sur
        if br.coinche_ends or br.coinche_window:
            end |= is_coinche & ~inwin
        ph = _w(is_coinche & inbid & (not (br.coinche_ends or br.coinche_window)), _DOUBLED, ph)
        if br.sur_ends:
            end |= is_sur & ~inwin
        # the window: a coinche leaves it open for a surcoinche (if any), anything else closes it
        wi = (inwin & is_coinche & br.sur_allowed) | (~inwin & wi)
        # the next seat to act
        ta = _w(is_coinche | is_sur, nxt_actor, nxt_seat)
        if partner_silent:        # while coinched, the coincher's partner's turn is skipped (engine: _after_in_doubled)
            skip = (ph == _DOUBLED) & (ta == (co ^ 2))
            ta = _w(skip, (ta + step) & 3, ta)
        if round_cap is not None:    # auction.max_rounds: the last call in turn of the last round ends it
            in_turn = (inbid | indbl) & (is_pass | do_bid | ((is_coinche | is_sur) & (actor == seat)))
            tu = tu + in_turn
            capped = (tu >= round_cap) & in_turn & ~(end | settle | redeal)
            capped_high = capped & (hi >= 0)
            settle |= capped_high & (ph == _BIDDING)     # as the passes after a bid: the window may open
            end |= capped_high & (ph == _DOUBLED)        # coinched: as the passes after a coinche
            redeal |= capped & (hi < 0)                  # never: four passes end the first round first
        # endings
        st = _w(redeal, REDEAL, st)
        over = end | settle | redeal
        st = _w(end | settle, CONTRACT, st)
        ph = _w(over, _OVER, ph)
        ta = _w(ph == _OVER, -1, ta)
        if after_auction:
            wi = (settle & (co < 0) & _get(coinchable_bid, _pos(hi))) | (~settle & wi)
        wi &= ~(end | redeal)
        if br.coinche_window and br.sur_allowed:   # BGA: the coinche ends the bidding, the takers may surcoinche
            wi |= is_coinche & inbid
        keep = (ph != _OVER) | wi
        left = int(np.count_nonzero(keep))
        if left < COMPACT * m:
            # only the settled fields an AuctionResult keeps go back to the full arrays
            gone, kept = np.flatnonzero(~keep), np.flatnonzero(keep)
            at = idx[gone]
            for f, v in ((state, st), (high, hi), (bidder, bd), (mult, mu), (first_bidder, fb)):
                f[at] = v[gone]
            ta, ph, st, hi, bd, ps, pd, mu, co, su, fb, wi, bs, lc, nm, tu, bm = (
                v[kept] for v in (ta, ph, st, hi, bd, ps, pd, mu, co, su, fb, wi, bs, lc, nm, tu, bm))
            idx = idx[kept]
    return AuctionResult(state, high, bidder, mult, first_bidder, steps)


def call_code_names(br) -> list:
    """What each call code of a recorded step means: (kind, detail) for pass, bids, coinche, surcoinche, play."""
    L = br.n_bids
    out = [("pass", None)] + [("bid", call) for call in br.ladder]
    out += [("coinche", s) for s in range(4)] + [("surcoinche", s) for s in range(4)] + [("play", None)]
    assert len(out) == 10 + L
    return out
