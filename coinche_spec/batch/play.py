"""The eight tricks of B deals: legal sets as masks, a uniformly random legal card.

Hands are uint32 masks in a (seat, deal) array; the only Python loop is over
the 32 cards. The legal set is engine/play.py StrainRules.legal written with
masked bit selects (``b ^ ((a ^ b) & m)``, m all ones or all zeros) instead
of branches: each deal's strain picks its trump mask, its beat table row
(the cards that beat the card winning the trick) and its card values; every
other play rule is a constant of the batch, so a rule that does not apply
costs nothing. A random legal card: k = floor(u * n) for the n legal cards,
then the k lowest set bits are cleared and the lowest remaining one played,
so each legal card has probability 1/n (u is a float64 in [0, 1)).
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
