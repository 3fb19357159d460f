"""The eight tricks of B deals: legal sets as masks, a uniformly random legal card.

Hands are uint32 masks in a (seat, deal) array; the only Python loop is over
the 32 cards. The legal set is engine/play.py StrainRules.legal written with
masked bit selects (``b ^ ((a ^ b) & m)``, m all ones or all zeros) instead
of branches; every play rule is a constant of the batch, so a rule that does
not apply costs nothing.

Random players (``_play_random``) play in each strain's own layout of the
cards (``_Layout``): the trump suit is the top byte and every byte is in the
strain's order of strength, so the trump mask is a constant per kind of
strain, the cards that beat the winning card are bit arithmetic, and the card
points are summed once per side's pile at the end; the cards and legal sets
are turned back into real cards where the batch is recorded. A random legal
card: k = r * n >> 29 for the n legal cards and a fresh 29-bit r, then the k
lowest set bits are cleared and the lowest remaining one played, so each
legal card has probability 1/n (to within 2^-26 of it). The simple players
(``chooser``) play in the real layout, with each strain's beat and value
tables.
"""
from __future__ import annotations

import numpy as np

__all__ = ["PlayResult", "play_tricks"]

_U32 = np.uint32
_ONE = _U32(1)
_FULL = _U32(0xFFFFFFFF)
_SUIT_MASK = np.array([0xFF << (8 * s) for s in range(4)], dtype=np.uint32)


def _nz(x):
    """All ones where x != 0, else zero (a mask for the bit selects)."""
    return _U32(0) - (x != 0).astype(np.uint32)


def _or_else(a, b):
    """a where a is not empty, else b (the engine's ``a or b`` on masks)."""
    return b ^ ((a ^ b) & _nz(a))


def _sel(m, a, b):
    """a where the mask m is all ones, else b."""
    return b ^ ((a ^ b) & m)


class PlayResult:
    """Per deal: tricks won and card values per side and per seat, the last trick's winner,
    the leader of the first trick; when recorded, the card and legal set of every play."""

    def __init__(self, points, won_by_seat, last_winner, leader0, cards, legal, leaders, winners):
        self.points = points              # (2, n) card values in NS, EW tricks (no bonus)
        self.won_by_seat = won_by_seat    # (4, n)
        self.last_winner = last_winner    # (n,) seat
        self.leader0 = leader0
        self.cards = cards                # (32, n) int8 in play order, or None
        self.legal = legal                # (32, n) uint32, or None
        self.leaders = leaders            # (8, n) or None
        self.winners = winners


def _legal(br, hand, led_mask, trumps_mask, beatw, partner_wins, go_up, win_is_trump):
    """The legal cards of ``hand`` (not leading): engine/play.py StrainRules.legal on arrays.

    trumps_mask is 0 at tout atout and sans atout; go_up, partner_wins and win_is_trump are masks:
    whether a player following suit must beat the winning card (a trump lead under P3, or P8/P9),
    whether his partner's card wins the trick, whether a trump wins it."""
    follow = hand & led_mask
    trumps = hand & trumps_mask
    beating = trumps & beatw
    up = (follow & beatw)
    r_follow = _sel(go_up, _or_else(up, follow), follow)
    # void in the led suit, holding a trump (only in a suit contract)
    pw = partner_wins
    others = hand ^ trumps
    over_or_any = others | _or_else(beating, trumps)
    # partner winning and the player may discard (P4, P7)
    if br.vpw_may_discard:
        only_trumps = _U32(0) - (trumps == hand).astype(np.uint32)
        only = _or_else(beating, trumps) if br.pcot else trumps
        mixed = over_or_any if br.vpw_tmo else hand
        r_partner = _sel(only_trumps, only, mixed)
    # an opponent winning (or a partner, where P4 does not free the player): P5, P6
    if not br.vow_must_trump:
        r_opp = over_or_any if br.vow_must_overtrump else hand
    else:
        if br.cannot_overtrump == "must_undertrump":
            cannot = trumps
        elif br.cannot_overtrump == "may_discard":
            cannot = hand
        else:                                  # must_discard: keep the trumps if he holds another card
            cannot = _or_else(others, trumps)
        if br.vow_must_overtrump:
            r_opp = _sel(win_is_trump, _or_else(beating, cannot), trumps)
        else:
            r_opp = trumps
    r_void = _sel(pw, r_partner, r_opp) if br.vpw_may_discard else r_opp
    r = _sel(_nz(trumps), r_void, hand)
    return _sel(_nz(follow), r_follow, r)


def _bits_select(m, a, b):
    """a where m is all ones, else b, for signed integer arrays (m is 0 or -1)."""
    return b ^ ((a ^ b) & m)


def play_tricks(br, rng: np.random.Generator, hands, strain, leader, record: bool = False,
                chooser=None) -> PlayResult:
    """Play the 32 cards of every deal (hands (4, n) uint32, strain and leader (n,)) at random, or as
    ``chooser`` (batch.simple.SimplePlayers, its play started) chooses.

    Inside, the hands are kept in play order within the trick (row p is the p-th player of the
    current trick), so the player to act is a row, not a gather, and his partner's card is the
    one two places before or after; the rows are turned once per trick, to the winner."""
    if chooser is None:
        return _play_random(br, rng, hands, strain, leader, record)
    n = hands.shape[1]
    step = br.step
    ar = np.arange(n)
    strain = strain.astype(np.intp)
    sbase = strain * 32
    tmask = np.take(br.trump_mask, strain)
    go_up_strain = _U32(0) - np.take(br.go_up, strain).astype(np.uint32)
    trump_suit = np.where(strain < 4, strain, -1)
    # P3 on a trump lead: go up when the rule says so, over a partner too or only over an opponent
    tl_all = _FULL if (br.tlmo and br.tlop) else _U32(0)
    tl_opp = _FULL if br.tlmo else _U32(0)
    lead = leader.astype(np.intp)
    leader0 = lead.copy()
    # rows in play order from the leader: row p holds seat (lead + p * step) & 3
    order = (lead[None, :] + np.arange(4)[:, None] * step) & 3
    R = np.take_along_axis(hands, order, axis=0)
    ns_points = np.zeros(n, np.int64)
    ew_points = np.zeros(n, np.int64)
    won = np.zeros((4, n), np.int32)
    cards_rec = np.empty((32, n), np.int8) if record else None
    legal_rec = np.empty((32, n), np.uint32) if record else None
    leaders = np.empty((8, n), np.int8) if record else None
    winners = np.empty((8, n), np.int8) if record else None
    # one random 32-bit number per card: k = r * (legal cards) >> 32 is uniform below the count
    # (to within 2^-32)
    rand = rng.integers(0, 1 << 32, size=(32, n), dtype=np.uint64) if chooser is None else None
    led = led_mask = win = beatw = win_pos = None
    value = br.value
    beat = br.beat
    for t in range(8):
        if record:
            leaders[t] = lead
        tp = np.zeros(n, np.int64)
        win_pos = np.zeros(n, np.intp)
        for pos in range(4):
            hand = R[pos]
            if pos == 0:
                legal = hand
            else:
                pw = _U32(0) - (win_pos == (pos ^ 2)).astype(np.uint32)
                trump_led = _U32(0) - (led == trump_suit).astype(np.uint32)
                go_up = _sel(trump_led, tl_all | (tl_opp & ~pw), go_up_strain)
                wt = _U32(0) - ((win >> 3) == trump_suit).astype(np.uint32)
                legal = _legal(br, hand, led_mask, tmask, beatw, pw, go_up, wt)
            if chooser is None:
                # the k-th lowest legal card, k uniform below the number of legal cards (at most 8 - t)
                k = ((rand[4 * t + pos] * np.bitwise_count(legal)) >> 32).astype(np.uint32)
                x = legal
                for j in range(7 - t):
                    x = x & (x - (k > j).astype(np.uint32))
                low = x & (~x + _ONE)
            else:
                low = chooser.card(t, pos, lead, hand, legal, led, led_mask, win, beatw, win_pos)
            card = np.bitwise_count(low - _ONE).astype(np.intp)
            if record:
                cards_rec[4 * t + pos] = card
                legal_rec[4 * t + pos] = legal
            R[pos] = hand ^ low               # hand (and legal at a lead) is a view of this row
            tp += np.take(value, sbase + card)
            beat_card = np.take(beat, sbase + card)
            if pos == 0:
                led = card >> 3
                led_mask = np.take(_SUIT_MASK, led)
                win = card
                beatw = beat_card
            else:
                takes = _U32(0) - ((beatw & low) != 0).astype(np.uint32)
                beatw = _sel(takes, beat_card, beatw)
                ti = takes.astype(np.int64) | -(takes.astype(np.int64) & 1)   # 0 or -1
                win = _bits_select(ti, card, win)
                win_pos = _bits_select(ti, np.full(n, pos, np.intp), win_pos)
        win_seat = (lead + win_pos * step) & 3
        team = win_seat & 1
        ew_points += tp * team
        ns_points += tp * (1 - team)
        won[win_seat, ar] += 1
        if record:
            winners[t] = win_seat
        if t < 7:
            turn = (win_pos[None, :] + np.arange(4)[:, None]) & 3
            R = np.take_along_axis(R, turn, axis=0)
            if chooser is not None:
                chooser.rotate(turn)
        lead = win_seat
    points = np.stack([ns_points, ew_points])
    return PlayResult(points, won, lead, leader0, cards_rec, legal_rec, leaders, winners)


# -- random players: the play in the strain's own card order ---------------------------------------
#
# For random players the cards are renumbered per strain before the play (and back when recorded):
# the trump suit becomes the top byte (the other suits follow it round, so a suit contract's deals
# all share one layout), and inside every byte the bits are in the strain's order of strength (trump
# order for the trump suit and at tout atout, plain order otherwise). Then the trump mask is one
# constant per strain kind, and the cards that beat a winning card w are the bits above w within the
# led suit and the trumps, ``-(w << 1) & (led | trumps)``: no beat or value table per card.

def _mask(b):
    """All ones where the boolean b holds (a bit-select mask), in three cheap passes."""
    return np.negative(b.view(np.int8)).astype(np.uint32)


def _nzm(x, ones):
    """All ones where x != 0 (uint32), in two same-type passes: -min(x, 1) (``ones`` an array of
    ones like x: np.minimum against a scalar takes a slow path, four times slower)."""
    m = np.minimum(x, ones)
    np.negative(m, out=m)
    return m


def _internal_bit(strain: int, card: int, trump_order: tuple, plain_order: tuple) -> int:
    """The bit of real card ``card`` (suit * 8 + rank) in strain ``strain``'s layout, under the rule
    set's rank orders (each rank's strength by rank index: compiled rules' rank_orders)."""
    suit, rank = card >> 3, card & 7
    if strain < 4:
        byte = (suit - strain - 1) & 3
        order = trump_order if suit == strain else plain_order
    else:
        byte, order = suit, trump_order if strain == 4 else plain_order
    return byte * 8 + order[rank]


class _Layout:
    """Per rule set, the tables of the per-strain renumbering (strain s's entries at s * 1024 +
    byte * 256 + the byte's value): real suit byte -> its cards in the layout (``to_inner``), and
    back (``to_real``); the card values of a byte of the layout (``points``); the trump mask and
    each strain's 32 cards' value (``total``); the real card of each bit (``real_card``)."""

    def __init__(self, br):
        to_inner = np.zeros(6 * 1024, np.uint32)
        to_real = np.zeros(6 * 1024, np.uint32)
        points = np.zeros(6 * 1024, np.int32)
        self.real_card = np.zeros(6 * 32, np.int8)
        value = br.value.reshape(6, 32)
        for s in range(6):
            inner = [_internal_bit(s, c, *br.rank_orders) for c in range(32)]
            assert sorted(inner) == list(range(32))
            real = [0] * 32
            for c, i in enumerate(inner):
                real[i] = c
                self.real_card[s * 32 + i] = c
            for b in range(4):
                for v in range(256):
                    cards = [b * 8 + r for r in range(8) if v >> r & 1]
                    to_inner[s * 1024 + b * 256 + v] = sum(1 << inner[c] for c in cards)
                    to_real[s * 1024 + b * 256 + v] = sum(1 << real[c] for c in cards)
                    points[s * 1024 + b * 256 + v] = sum(int(value[s, real[c]]) for c in cards)
        self.to_inner, self.to_real, self.points = to_inner, to_real, points
        self.total = value.sum(axis=1).astype(np.int64)
        self.trumps = np.array([0xFF000000] * 4 + [0, 0], np.uint32)


def _layout(br) -> _Layout:
    lay = br.__dict__.get("_play_layout")
    if lay is None:
        lay = br.__dict__["_play_layout"] = _Layout(br)
    return lay


def _by_bytes(table, masks, base):
    """Look every byte of ``masks`` (uint32, any shape ending in n) up in ``table`` at base + byte * 256
    and sum (or, for disjoint card masks) the results."""
    out = None
    for b in range(4):
        part = np.take(table, base + b * 256 + ((masks >> (8 * b)) & 0xFF).astype(np.intp))
        out = part if out is None else out + part
    return out


def _legal_inner(br, hand, led_mask, trumps_mask, beatw, pw, go_up, ones):
    """_legal in the strain's layout for a player who does not lead. ``pw`` (his partner's card wins
    the trick) and ``go_up`` are masks or None for none; whether the winning card is a trump needs no
    mask here: where it is not, every trump beats it, so 'overtrump if you can' is 'trump'."""
    follow = hand & led_mask
    if go_up is not None:
        up = follow & beatw
        r_follow = follow ^ ((up ^ follow) & (_nzm(up, ones) & go_up))
    else:
        r_follow = follow
    trumps = hand & trumps_mask
    beating = trumps & beatw
    can_over = _nzm(beating, ones)
    over = trumps ^ ((beating ^ trumps) & can_over)                   # overtrump if he can
    others = hand ^ trumps
    if br.vow_must_trump:
        if not br.vow_must_overtrump:
            r_opp = trumps
        elif br.cannot_overtrump == "must_undertrump":
            r_opp = over
        else:
            if br.cannot_overtrump == "may_discard":
                cannot = hand
            else:                                  # must_discard: keep the trumps if he holds another card
                cannot = trumps ^ ((others ^ trumps) & _nzm(others, ones))
            r_opp = cannot ^ ((beating ^ cannot) & can_over)
    else:
        r_opp = (others | over) if br.vow_must_overtrump else hand
    r_void = r_opp
    if br.vpw_may_discard and pw is not None:
        mixed = (others | over) if br.vpw_tmo else hand
        if br.pcot == br.vpw_tmo:
            r_partner = mixed                      # holding only trumps changes nothing then
        else:
            only = over if br.pcot else trumps
            r_partner = only ^ ((mixed ^ only) & _nzm(others, ones))
        r_void = r_opp ^ ((r_partner ^ r_opp) & pw)
    r = hand ^ ((r_void ^ hand) & _nzm(trumps, ones))
    return r ^ ((r_follow ^ r) & _nzm(follow, ones))


def _beat_by_rank(low, T, ones):
    """The cards that beat the card ``low`` (one bit per deal, in the layout) under play.trick_winner:
    any_suit_by_rank: the same place or higher in every byte is the same rank or stronger, so the
    cards strictly above it in every byte, and every trump if it is plain; only the higher trumps if
    it is a trump (T: the trump byte, empty at tout atout and sans atout)."""
    place = (np.bitwise_count(low - _ONE) & np.uint8(7)).astype(np.uint32)
    above = ((_U32(0xFE) << place) & _U32(0xFF)) * _U32(0x01010101)
    plain = above | T
    return plain ^ (((above & T) ^ plain) & _nzm(low & T, ones))


def _random_card(legal, r, t):
    """The k-th lowest card of ``legal`` for k = r * (legal cards) >> 29, r uniform below 2^29
    (uint32): each legal card with probability 1/n to within 2^-26 of it; at trick t at most
    8 - t cards are legal. (Every scalar is typed and the steps are in place: numpy's shift of
    a temporary by a Python int takes a slow path.)"""
    k = np.bitwise_count(legal).astype(np.uint32)
    k *= r
    k >>= _U32(29)
    x = legal.copy()
    d = np.empty_like(x)
    for j in range(7 - t):
        np.subtract(_U32(j), k, out=d)          # j - k wraps round where k > j: its top bit is set
        d >>= _U32(31)
        np.subtract(x, d, out=d)
        x &= d                                  # the lowest card cleared where k > j
    np.negative(x, out=d)
    d &= x
    return d


def _swap(a, b, m):
    """Exchange a and b in place where the mask m is all ones."""
    d = (a ^ b) & m
    a ^= d
    b ^= d


def _play_random(br, rng, hands, strain, leader, record):
    """play_tricks for random players, in the strain's layout (see _Layout)."""
    n = hands.shape[1]
    step = br.step
    lay = _layout(br)
    strain = strain.astype(np.intp)
    base = (strain * 1024)[None, :]
    inner = _by_bytes(lay.to_inner, hands, base)                       # (4, n) in seat order
    T = np.take(lay.trumps, strain)
    go_up_strain = _mask(np.take(br.go_up, strain)) if br.go_up[4:].any() else None
    lead = leader.astype(np.uint8)
    leader0 = leader.astype(np.intp).copy()
    order = (lead.astype(np.intp)[None, :] + np.arange(4)[:, None] * step) & 3
    R = np.take(inner.ravel(), order * n + np.arange(n))                 # row p: p-th player of the trick
    lead_ew = _mask((lead & 1).view(bool))
    ones = np.ones(n, np.uint32)
    ew_pile = np.zeros(n, np.uint32)
    won_bytes = np.zeros(n, np.uint32)                                  # tricks won: one byte per seat
    cards_rec = np.empty((32, n), np.int8) if record else None
    legal_rec = np.empty((32, n), np.uint32) if record else None
    leaders = np.empty((8, n), np.int8) if record else None
    winners = np.empty((8, n), np.int8) if record else None
    # a 29-bit random number for each of the first 28 cards (the last trick's cards are forced)
    draws = rng.bit_generator.random_raw(14 * n).view(np.uint32).reshape(28, n)
    draws >>= _U32(3)
    sbase = strain * 32
    any_suit = br.any_suit
    lows = [None] * 4
    for t in range(8):
        if record:
            leaders[t] = lead
        takes = [None] * 4
        led_mask = W = beatw = go_up = go_up_opp = None
        for pos in range(4):
            hand = R[pos]
            if pos == 0 or t == 7:
                legal = hand                       # a lead, or a last card
            else:
                pw = None if pos == 1 else ~takes[1] if pos == 2 else takes[1] & ~takes[2]
                gu = go_up
                if go_up_opp is not None:                        # P3 over an opponent only
                    opp = go_up_opp if pw is None else go_up_opp & ~pw
                    gu = opp if gu is None else gu | opp
                legal = _legal_inner(br, hand, led_mask, T, beatw, pw, gu, ones)
            low = _random_card(legal, draws[4 * t + pos], t) if t < 7 else hand.copy()
            if record:
                c = np.bitwise_count(low - _ONE).astype(np.intp)
                cards_rec[4 * t + pos] = np.take(lay.real_card, sbase + c)
                legal_rec[4 * t + pos] = _by_bytes(lay.to_real, legal, strain * 1024)
            hand ^= low                                                 # R[pos] in place
            lows[pos] = low
            if pos == 0:
                led_mask = np.left_shift(_U32(0xFF), np.bitwise_count(low - _ONE) & np.uint8(24),
                                         dtype=np.uint32)
                W = led_mask | T
                beatw = _beat_by_rank(low, T, ones) if any_suit else (_U32(0) - (low << _ONE)) & W
                # who must go up (engine StrainRules: P8/P9 at TA/SA, P3 on a trump lead, over a partner
                # too or only over an opponent); pw is None at the second card: nobody's partner wins yet
                go_up, go_up_opp = go_up_strain, None
                if br.tlmo:
                    trump_led = _nzm(led_mask & T, ones)
                    if br.tlop:
                        go_up = trump_led if go_up is None else go_up | trump_led
                    else:
                        go_up_opp = trump_led
            else:
                tk = _nzm(beatw & low, ones)
                takes[pos] = tk
                if pos < 3:
                    beat_low = _beat_by_rank(low, T, ones) if any_suit else (_U32(0) - (low << _ONE)) & W
                    beatw = beatw ^ ((beat_low ^ beatw) & tk)
        # the winner's place in the trick: bit 1 if the third or fourth card wins, bit 0 if the
        # second or fourth does
        m2 = takes[2] | takes[3]
        m1 = takes[3] | (takes[1] & ~takes[2])
        wp = ((m1 & _ONE) | (m2 & _U32(2))).astype(np.uint8)
        win_seat = (lead + wp * np.uint8(step)) & np.uint8(3)
        ew = lead_ew ^ m1
        ew_pile |= (lows[0] | lows[1] | lows[2] | lows[3]) & ew
        won_bytes += _ONE << (win_seat.astype(np.uint32) << np.uint32(3))
        if record:
            winners[t] = win_seat
        if t < 7:
            _swap(R[0], R[1], m1)            # turn the rows by one where bit 0 is set: (a b c d) -> (b c d a)
            _swap(R[1], R[2], m1)
            _swap(R[2], R[3], m1)
            _swap(R[0], R[2], m2)            # and by two where bit 1 is
            _swap(R[1], R[3], m2)
        lead = win_seat
        lead_ew = ew
    ew_points = _by_bytes(lay.points, ew_pile, strain * 1024).astype(np.int64)
    points = np.stack([np.take(lay.total, strain) - ew_points, ew_points])
    won = np.stack([(won_bytes >> np.uint32(8 * s)) & np.uint32(0xFF) for s in range(4)]).astype(np.int32)
    return PlayResult(points, won, lead.astype(np.intp), leader0, cards_rec, legal_rec, leaders, winners)
