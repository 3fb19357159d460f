"""The simple players (engine/players.py) on B deals at once: the same call and card, deal for deal.

The per-deal simple players count each hand once per strain (bidding,
defence, support), then choose by comparing those counts with the bid; the
counts are sums over the four suits, so here they are table look-ups on each
hand's suit bytes, built from the per-deal functions themselves (a suit
alone in an otherwise empty hand gives its part), and worked out once per
deal before the auction. A call is then a few comparisons per open auction.

In the play, what a simple player knows (the cards gone, the suits each
player showed void in) is kept as masks over the deals. Every rule of
thumb of ``players._play`` becomes a card mask (the masters, the cards sure
to win, the cuts, the cards to give or throw) and each deal keeps the first
that applies; the card is then the least of that mask in the rule's order
(cheapest, most valuable, ...), found by permuting the mask's bits into
that order with four byte look-ups and taking the lowest bit. The
deal-for-deal test (tests/test_batch_simple.py) replays batch deals through
the per-deal simple players and checks every call and card.
"""

from __future__ import annotations

import numpy as np

from ..engine import players as P
from ..engine.masks import SUIT_MASKS
from ..variants.compiled import STRAINS
from .auction import _get

__all__ = ["SimplePlayers", "simple_tables"]

_U32 = np.uint32
_ONE = _U32(1)
_SUIT_MASK = np.array(SUIT_MASKS, dtype=np.uint32)
# orders a card is chosen in (the least first): rank of each card per strain
_THROW, _CHEAP, _GIVE, _VALUE = range(4)
_BLOCK = 6 * 1024          # an order's block in the perm table (6 strains, 4 byte positions, 256 bytes)
_THROW_O, _CHEAP_O, _GIVE_O, _VALUE_O = (np.uint32(o * _BLOCK) for o in range(4))
_A_ = 1 << 7
_J_ = 1 << 4
_SUIT_BIT = np.array([1, 2, 4, 8], dtype=np.uint8)
_BYTE_BASE = (np.arange(4) * 256)[:, None]      # a table's four byte positions, 256 entries each


def _bytes(x):
    """The four bytes of each uint32 of x as a (4, n) view, the lowest first (no copy)."""
    return x.astype("<u4", copy=False).view(np.uint8).reshape(-1, 4).T


def _nz(x):
    return _U32(0) - (x != 0).astype(np.uint32)


def _m(b):
    """All ones where the boolean b holds."""
    return _U32(0) - b.astype(np.uint32)


def _sel(m, a, b):
    return b ^ ((a ^ b) & m)


class SimpleTables:
    """The simple players' counts and choice orders for one rule set, laid out once."""

    def __init__(self, br):
        c = br.rules
        self.total = np.array([c.card_total(s) + int(c.card_values.last_trick) for s in STRAINS], dtype=np.int64)
        b = c.belote
        self.belote = int(b.points) if b.enabled and b.counts_towards_contract else 0
        q = range(256)
        self.trump_part = np.array(P._TRUMP_PART, dtype=np.int32)
        self.side_part = np.array(P._SIDE_PART, dtype=np.int32)            # (long trumps?, byte)
        # sans atout and tout atout: one suit's part, the other suits holding a lone ace (jack)
        self.sa_part = np.array([P._sans_atout_count(x | _A_ << 8 | _A_ << 16 | _A_ << 24) - 66 for x in q], dtype=np.int32)
        self.ta_part = np.array([P._tout_atout_count(x | _J_ << 8 | _J_ << 16) - 40 for x in q], dtype=np.int32)
        d = P.defence_strength
        self.def_trump = np.array([d(c, x, "S") for x in q], dtype=np.int32)
        self.def_side = np.array([d(c, x << 8, "S") for x in q], dtype=np.int32)
        self.def_ta = np.array([d(c, x, "TA") for x in q], dtype=np.int32)
        self.def_sa = np.array([d(c, x, "SA") for x in q], dtype=np.int32)
        s = P._support
        self.sup_trump = np.array([s(x, "S") for x in q], dtype=np.int32)
        self.sup_side = np.array([s(x << 8, "S") for x in q], dtype=np.int32)
        self.sup_ta = np.array([s(x, "TA") for x in q], dtype=np.int32)
        self.sup_sa = np.array([s(x, "SA") for x in q], dtype=np.int32)
        self._bids(br)
        self._play(br)

    def _bids(self, br):
        L = br.n_bids
        numeric = br.bid_kind == 0
        self.vmax = int(br.bid_value[numeric].max()) if numeric.any() else 0
        # top_le[s, v + 1]: the highest numeric bid of strain s worth at most v (-1: none)
        top = np.full((6, self.vmax + 2), -1, dtype=np.intp)
        cap = np.full(6, -1, dtype=np.intp)
        for j in range(L):
            s = int(br.bid_strain[j])
            if numeric[j]:
                top[s, int(br.bid_value[j]) + 1:] = j
            elif br.bid_kind[j] == 1:
                cap[s] = j
        self.top_le = top.ravel()
        self.capot_index = cap
        # the strains the ladder has bids in (the others are never bid, their counts never read), and
        # the highest ladder index of each strain (-1: none)
        self.strains = tuple(s for s in range(6) if (br.bid_strain == s).any())
        self.last_index = np.array([max((j for j in range(L) if br.bid_strain[j] == s), default=-1)
                                    for s in range(6)], dtype=np.intp)
        self.capot_need = P.CAPOT_COUNT * self.total // 162
        self.key_bid = L + 1
        self.key_ratio = 10_001 * (L + 1)
        self._best_bid_tables(-20, self.vmax + 100, br)

    def best_bids(self, s: int, afford, br) -> tuple:
        """For hands that afford ``afford`` in strain s: the highest numeric bid they afford (-1: none)
        and its key, and the key of the capot (-1: not afforded), keys as players._bid_wanted
        compares bids: (afford as a share of the strain's points, the bid, first in the ladder)."""
        L = br.n_bids
        a = afford.astype(np.int64)
        j = self.top_le[s * (self.vmax + 2) + np.clip(a, -1, self.vmax) + 1]
        ratio = (a * 1000 // self.total[s]) * self.key_ratio
        key_num = ratio + br.bid_value[np.maximum(j, 0)] * self.key_bid + (L - j)
        cap = self.capot_index[s]
        if cap >= 0:
            key_cap = np.where(a >= self.capot_need[s], ratio + 10_000 * self.key_bid + (L - cap), -1)
        else:
            key_cap = np.full(a.size, -1, np.int64)
        return j, key_num, key_cap

    def best_bid(self, s: int, afford, br) -> tuple:
        """best_bids folded into one bid per hand: the capot where it is afforded (its key is above
        every number's, and it is legal whenever a number it would replace is), else the highest
        number; (ladder index, key), (-1, -1) where the hand affords no bid in strain s. Read from
        a table of every afford (a few hundred values), widened when a hand affords more or less."""
        low, high = self.afford_range
        if afford.size and (afford.min() < low or afford.max() > high):
            self._best_bid_tables(min(low, int(afford.min())), max(high, int(afford.max())), br)
        i = np.subtract(afford, self.afford_range[0], dtype=np.intp)
        return _get(self.bid_pick[s], i), _get(self.bid_key[s], i)

    def _best_bid_tables(self, low: int, high: int, br) -> None:
        self.afford_range = (low, high)
        self.bid_pick, self.bid_key = {}, {}
        afford = np.arange(low, high + 1)
        for s in self.strains:
            j, key_num, key_cap = self.best_bids(s, afford, br)
            capot = key_cap >= 0
            self.bid_pick[s] = np.where(capot, self.capot_index[s], j).astype(np.int16)
            self.bid_key[s] = np.where(capot, key_cap, np.where(j >= 0, key_num, -1))

    def _play(self, br):
        c = br.rules
        above = np.zeros(6 * 4 * 256, dtype=np.uint32)
        top = np.zeros(6 * 4 * 256, dtype=np.uint32)
        perm = np.zeros(4 * 6 * 4 * 256, dtype=np.uint32)
        inv = np.zeros(4 * 6 * 32 + 32, dtype=np.intp)
        lowkey = np.zeros(6 * 4 * 256, dtype=np.int64)
        for st, strain in enumerate(STRAINS):
            beat = [int(b) for b in br.beat[st * 32:st * 32 + 32]]      # the rule set's beat table
            value = c.card_table(strain)
            trump = st if st < 4 else -1

            def power(card):
                return 7 - (beat[card] & SUIT_MASKS[card >> 3]).bit_count()
            keys = {_THROW: lambda k: (k >> 3 == trump, value[k], power(k), k),
                    _CHEAP: lambda k: (k >> 3 == trump, power(k), value[k], k),
                    _GIVE: lambda k: (-value[k], power(k), k),
                    _VALUE: lambda k: (-value[k], -k)}
            for o, key in keys.items():
                order = sorted(range(32), key=key)
                rank = [0] * 32
                for r, card in enumerate(order):
                    rank[card] = r
                    inv[(o * 6 + st) * 32 + r] = card
                for bp in range(4):
                    for byte in range(256):
                        perm[((o * 6 + st) * 4 + bp) * 256 + byte] = sum(
                            1 << rank[bp * 8 + i] for i in range(8) if byte >> i & 1)
            for s in range(4):
                for byte in range(256):
                    i = (st * 4 + s) * 256 + byte
                    held = byte << (8 * s)
                    cards = [s * 8 + r for r in range(8) if byte >> r & 1]
                    above[i] = sum(1 << (s * 8 + r) for r in range(8) if not beat[s * 8 + r] & held)
                    for k in cards:
                        if not beat[k] & held:
                            top[i] = 1 << k
                    if cards:
                        low = min(cards, key=keys[_THROW])
                        lowkey[i] = len(cards) << 16 | (1023 - value[low]) << 5 | (31 - low)
        self.above, self.top, self.perm, self.lowkey = above, top, perm, lowkey
        self.inv_bit = (np.uint32(1) << inv.astype(np.uint32)).astype(np.uint32)    # the card, as its bit
        if br.any_suit:
            self._by_rank_tables(br)

    def _by_rank_tables(self, br):
        """play.trick_winner: any_suit_by_rank lets a plain card of another suit beat the winner; the
        per-deal player's ``holds`` then fails it if a player still to follow suit may hold a card of
        the led suit above it. Per strain: each card's strength (the cards weaker than it, 1..32), the
        strongest of each suit byte (0: empty) and the cards weaker than a given strength."""
        self.led_top = np.zeros(6 * 4 * 256, dtype=np.intp)
        self.weaker = np.zeros(6 * 33, dtype=np.uint32)
        for st in range(6):
            beat = [int(b) for b in br.beat[st * 32:st * 32 + 32]]
            power = [32 - b.bit_count() for b in beat]
            for s in range(4):
                for byte in range(256):
                    self.led_top[(st * 4 + s) * 256 + byte] = max(
                        (power[s * 8 + r] for r in range(8) if byte >> r & 1), default=0)
            for t in range(33):
                self.weaker[st * 33 + t] = sum(1 << k for k in range(32) if power[k] < t)

    def counts(self, hands):
        """(bid, defence, support): (6 * 4 * n,) arrays, strain-major (S H D C TA SA), then seat, then deal."""
        n = hands.shape[1]
        b = [((hands >> np.uint32(8 * s)) & np.uint32(0xFF)).astype(np.intp) for s in range(4)]   # (4 seats, n) each
        bid = np.zeros((6, 4, n), np.int32)           # counts are a few hundred at most
        dfc = np.zeros((6, 4, n), np.int32)
        sup = np.zeros((6, 4, n), np.int32)
        # the side-suit parts of every suit, summed once; a trump suit's own part is taken back out
        side = [[_get(self.side_part[k], x) for x in b] for k in (0, 1)]
        side_sum = [sum(side[0]), sum(side[1])]
        def_side = [_get(self.def_side, x) for x in b]
        sup_side = [_get(self.sup_side, x) for x in b]
        def_sum, sup_sum = sum(def_side), sum(sup_side)
        for t in range(4):
            # the side suits as counted with three trumps or more, else without (arithmetic, not
            # np.where: the length is unpredictable, and np.where costs many times more then)
            long = (np.bitwise_count(b[t].astype(np.uint8)) >= 3).astype(np.int32)
            short_side = side_sum[0] - side[0][t]
            own = _get(self.trump_part, b[t]) + short_side + long * (side_sum[1] - side[1][t] - short_side)
            if self.belote:
                own += self.belote * ((b[t] & 0x60) == 0x60)
            bid[t] = own
            dfc[t] = _get(self.def_trump, b[t]) + def_sum - def_side[t]
            sup[t] = _get(self.sup_trump, b[t]) + sup_sum - sup_side[t]
        # tout atout and sans atout, where the ladder has them (else never read: no bid, no contract)
        if 4 in self.strains:
            jacks = sum((x >> 4) & 1 for x in b)
            bid[4] = (jacks >= 2) * sum(_get(self.ta_part, x) for x in b)
            dfc[4] = sum(_get(self.def_ta, x) for x in b)
            sup[4] = sum(_get(self.sup_ta, x) for x in b)
        if 5 in self.strains:
            aces = sum((x >> 7) & 1 for x in b)
            bid[5] = (aces >= 3) * sum(_get(self.sa_part, x) for x in b)
            dfc[5] = sum(_get(self.def_sa, x) for x in b)
            sup[5] = sum(_get(self.sup_sa, x) for x in b)
        share = (P.PARTNER_SHARE * self.total // 162).astype(np.int32)[:, None, None]
        bid += share * (bid != 0)
        return bid.ravel(), dfc.ravel(), sup.ravel()


def simple_tables(br) -> SimpleTables:
    """The SimpleTables of a BatchRules (built once per rule set)."""
    t = getattr(br, "_simple", None)
    if t is None:
        t = br._simple = SimpleTables(br)
    return t


class SimplePlayers:
    """The simple players of B deals: ``call`` for the auction (batch.auction), ``card`` for the play."""

    def __init__(self, br, hands, seen=None):
        self.br = br
        self.t = simple_tables(br)
        self.n = hands.shape[1]
        # the auction is bid on the cards dealt before it (deal.packets_after_auction), with an
        # allowance for each card still to come in what a bid affords (players._bid_wanted)
        seen = hands if seen is None else seen
        self.bid, self.defence, self.support = self.t.counts(seen)
        unseen = 8 - np.bitwise_count(seen).astype(np.int64).ravel()
        self.afford = self.bid + P.UNSEEN_CARD * np.tile(unseen, len(self.bid) // unseen.size)
        n4 = self.n * 4
        # each hand's best bid in each strain of the ladder, (strain, seat * n + deal): the ladder index
        # and the key players._bid_wanted compares bids by
        best = [self.t.best_bid(s, self.afford[s * n4:(s + 1) * n4], br) for s in self.t.strains]
        self.pick = np.stack([b[0] for b in best])
        self.key = np.stack([b[1] for b in best])

    # -- the auction -----------------------------------------------------------
    def call(self, idx, seat, hi, bd, bs, lo, excl, cmask, smask, inwin, has_high, nbids, last=None):
        """players.choose_call for each open auction: (do_double, double bit, do_bid, ladder index)."""
        br, t = self.br, self.t
        L = br.n_bids
        seat = seat.astype(np.intp)           # the auction's small integers, widened for the indices
        bd = bd.astype(np.intp)
        h = np.maximum(hi, 0)
        hs = _get(br.bid_strain, h)
        value = _get(br.bid_value, h)
        number = _get(br.bid_kind, h) == 0
        n4 = self.n * 4
        N = self.n
        b = np.maximum(bd, 0)
        hs_base = hs * n4 + idx
        total = _get(t.total, hs)
        # coinche and surcoinche, in the order the engine lists them: the seat to act, then his
        # partner (coinche.when: side_in_turn), else the seats coinche.by names (the defender after
        # the bidder, his partner, then with any_player the bidder's partner and the bidder); the
        # bidder's surcoinche, then his partner's
        do_double = np.zeros(idx.size, bool)
        dbit = np.zeros(idx.size, np.intp)
        c1 = (b + br.step) & 3
        cands = []
        if cmask.any():
            if br.coinche_when == "side_in_turn":
                order = (seat, seat ^ 2)
            elif br.coinche_by_last:      # the side opposite the last call: after it, then his partner
                l1 = (np.maximum(last, 0).astype(np.intp) + br.step) & 3
                order = (l1, l1 ^ 2)
            else:
                order = (c1, c1 ^ 2, b ^ 2, b) if br.coinche_by_any else (c1, c1 ^ 2)
            # a defender coinches a number when his count and his partner's share beat what the
            # defenders need by the margin; a capot or générale with one sure trick (25)
            need = np.where(number, total - value + (P.COINCHE_MARGIN - P.PARTNER_SHARE), 25)
            for d in order:
                want = _get(self.defence, hs_base + d * N) >= need
                cands.append(((((cmask >> d) & 1) == 1) & want & has_high, d))
        if smask.any():
            own = _get(self.bid, hs_base + b * N)
            cands.append(((((smask >> b) & 1) == 1) & number & (own >= value + P.SURCOINCHE_MARGIN), 4 + b))
            add = _get(self.support, hs_base + (b ^ 2) * N) - 10
            cands.append(((((smask >> (b ^ 2)) & 1) == 1) & number & (add >= P.SURCOINCHE_MARGIN), 4 + (b ^ 2)))
        for want, bit in reversed(cands):
            do_double |= want
            dbit = np.where(want, bit, dbit)
        # the bid: the hand's best bid per strain was worked out before the auction; here only
        # whether it is still legal (a strain's bids from ``lo`` up, the strains he may not
        # bid in apart), and a raising player's afford is worked out again
        may = (nbids > 0) & ~inwin
        sbase = seat * N + idx
        strains = t.strains
        raising = has_high & (bd == (seat ^ 2)) & (((bs >> seat) & 1) == 0) & number
        raising &= may & (_get(t.last_index, hs) >= lo) & (((excl >> hs) & 1) == 0)      # his partner's strain is biddable
        pick = self.pick.take(sbase, axis=1, mode="wrap")               # (strains, open auctions)
        key = self.key.take(sbase, axis=1, mode="wrap")
        r = np.flatnonzero(raising)
        if r.size:
            # raising the partner: his bid plus what this hand adds; another strain only 20 better
            lifted = value[r] + self.support[sbase[r] + hs[r] * n4] - 10
            for k, s in enumerate(strains):
                afford = self.afford[sbase[r] + s * n4] - 20
                afford = np.where(hs[r] == s, np.maximum(afford + 20, lifted), afford)
                pick[k, r], key[k, r] = t.best_bid(s, afford, br)
        ok = (pick >= lo) & may
        if excl.any():
            ok &= ((excl[None, :] >> np.array(strains)[:, None]) & 1) == 0
        best = (key | (ok.astype(np.int64) - 1)).max(axis=0)      # -1 where the bid is not legal
        # the key ends with L - the bid's ladder index (best_bids)
        pick = L - best % (L + 1)
        do_bid = ~do_double & (best >= 0)
        return do_double, dbit, do_bid, pick

    # -- the play --------------------------------------------------------------
    def start_play(self, strain, declarer):
        """Before the first card of the deals played (strain and declarer per deal)."""
        br = self.br
        n = strain.size
        self.strain = strain
        self.trump = np.where(strain < 4, strain, -1)
        self.ts = np.minimum(strain, 3)
        self.tmask = np.take(br.trump_mask, strain)
        self.declarer = declarer
        self.b1024 = strain * 1024
        self.b1024x4 = self.b1024 + _BYTE_BASE           # (4, n): a byte table's entries for each byte
        self.s32 = strain * 32
        self.played = np.zeros(n, np.uint32)
        self.void = np.zeros((4, n), np.uint8)           # rows in play order, as the hands; a bit per suit
        self.has_trump = self.trump >= 0
        self.trump_bit = np.where(self.has_trump, 1 << np.maximum(self.trump, 0), 0).astype(np.uint8)

    def rotate(self, turn):
        self.void = np.take_along_axis(self.void, turn, axis=0)

    def _select(self, mask, o):
        """The bit of the least card of each (non-empty) mask in an order, ``o`` the order's block
        (_THROW_O, ...; uint32 per deal)."""
        t = self.t
        x = _get(t.perm, self.b1024x4 + o + _bytes(mask))
        x = x[0] | x[1] | x[2] | x[3]
        low = x & (~x + _ONE)
        return _get(t.inv_bit, (o >> 5) + self.s32 + np.bitwise_count(low - _ONE))

    def _masters(self, hand, unseen):
        a = _get(self.t.above, self.b1024x4 + _bytes(unseen))
        return hand & (a[0] | a[1] | a[2] | a[3])

    def card(self, t_, pos, lead, hand, legal, led, led_mask, win, beatw, win_pos):
        """The card bit each deal's player at ``pos`` of trick ``t_`` plays (players._play)."""
        br, t = self.br, self.t
        n = hand.size
        tmask = self.tmask
        unseen = ~self.played & ~hand
        masters = self._masters(hand, unseen)
        if pos == 0:
            trumps = hand & tmask
            hb = (hand.astype(np.intp) >> (8 * self.ts)) & 255
            top = _get(t.top, self.b1024 + self.ts * 256 + hb)
            taker = ((lead ^ self.declarer) & 1) == 0
            draw = taker & (trumps != 0) & ((tmask & unseen) != 0) & ((top & masters) != 0)
            mp = masters & ~tmask
            plain = hand & ~tmask
            has_mp = _nz(mp)
            chosen = self._select(_sel(has_mp, mp, hand), _sel(has_mp, _VALUE_O, _THROW_O))
            k = _get(t.lowkey, self.b1024x4 + _bytes(plain))
            key = np.maximum(np.maximum(k[0], k[1]), np.maximum(k[2], k[3]))
            low = _ONE << (31 - (key & 31)).astype(np.uint32)
            bit = _sel(has_mp | ~_nz(plain), chosen, low)
            bit = _sel(_m(draw), top, bit)
        else:
            pw = win_pos == (pos ^ 2)
            A = np.zeros(n, bool)
            B = np.zeros(n, bool)
            led_bit = _get(_SUIT_BIT, led)
            for q in range(pos + 1, 4):
                v = self.void[q]
                vl = (v & led_bit) != 0
                A |= ~vl
                B |= vl & ((v & self.trump_bit) == 0)
            B &= self.has_trump
            higher = beatw & unseen
            fail_w = (A & ((higher & led_mask) != 0)) | (B & ((higher & tmask) != 0))
            give = pw & ~fail_w
            plain = legal & ~tmask
            spare = plain & (led_mask | ~masters)
            beating = legal & beatw
            nm = legal & ~masters
            fail = nm & led_mask & _m(A)
            fail |= ((plain & _nz(unseen & tmask)) | (nm & tmask)) & _m(B)
            if br.any_suit:                    # a plain card of another suit: the led suit may still beat it
                led_byte = ((unseen >> (led.astype(np.uint32) * _U32(8))) & _U32(0xFF)).astype(np.intp)
                top_led = _get(t.led_top, self.b1024 + led * 256 + led_byte)
                fail |= plain & ~led_mask & _get(t.weaker, self.strain * 33 + top_led) & _m(A)
            npw = _m(~pw)
            sure = beating & ~fail & npw
            trump_led = led == self.trump
            cut = beating & tmask & npw & _m(~trump_led)
            # the mask and order of the first rule that applies (bit selects: np.where on an
            # unpredictable condition costs many times more)
            has_plain, has_spare = _nz(plain), _nz(spare)
            g_mask = _sel(has_plain, _sel(has_spare, spare, plain), legal)
            g_order = _sel(has_plain & has_spare, _GIVE_O, _THROW_O)
            has_cut, has_sure = _nz(cut), _nz(sure)
            mask = _sel(has_sure, sure, _sel(has_cut, cut, legal))
            order = _sel(has_sure | has_cut, _CHEAP_O, _THROW_O)
            gives = _m(give)
            bit = self._select(_sel(gives, g_mask, mask), _sel(gives, g_order, order))
            # what the table learns: a void in the led suit, and in trumps when he had to trump
            off = (bit & led_mask) == 0
            self.void[pos] |= led_bit * off.view(np.uint8)
            if br.vow_must_trump:
                no_trump = off & self.has_trump & ~trump_led & ((bit & tmask) == 0) & ((win >> 3) != self.trump)
                if br.vpw_may_discard:
                    no_trump &= ~pw
                self.void[pos] |= self.trump_bit * no_trump.view(np.uint8)
        self.played |= bit
        return bit
