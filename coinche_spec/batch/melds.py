"""Melds and belote of B deals, declared at the start of each deal.

Every player declares what the per-deal random player declares
(engine.random_play.declarable_melds): the squares the rule set values, then
the runs of three or more among his other cards, each run whole. Such
declarations are always valid melds and never share a card, so each seat's
melds come from table lookups on its four suit bytes: the squares are the
ranks held in all four suits, and each suit byte (less the squares) gives
its runs' points, its best run and the cards that form its runs (256-entry
tables in BatchRules). The sides' best melds are then compared as
engine/melds.py compares them, with one integer key per meld.

The belote: the random players say "belote" and "rebelote" with the king
and queen as they play them, so a belote counts exactly when it is held
under ``belote.claim`` said, said_once, said_rebelote_forgiven_once and
automatic, and under king_first
when its king was played before its queen (read from the cards played);
with ``belote.in_run: forbidden`` the pair must not sit in one of the
holder's runs.
"""

from __future__ import annotations

import numpy as np

__all__ = ["meld_points", "belote_points"]


def _bytes(hands):
    """The four suit bytes of each hand: a list of four (4 seats, n) int64 arrays."""
    h = hands.astype(np.intp)
    return [(h >> (8 * s)) & 0xFF for s in range(4)]


def _seat_melds(br, hands, strain):
    """Per seat: total points, best key, best meld's points, run-card bytes (4 suits of (4, n)).

    As declarable_melds: the valued squares first, then each run of the hand that shares no
    card with them (a run touching a square is not declared at all): per suit byte, one lookup
    of (byte, squares held) in the rule set's tables."""
    b = _bytes(hands)
    sq = b[0] & b[1] & b[2] & b[3] & br.square_ranks[strain][None, :]   # (4, n) valued ranks held in every suit
    total = br.sq_points[strain[None, :], sq]                 # scored by the deal's strain's table
    sq_key = br.sq_key[strain[None, :], sq]
    run_key = np.zeros_like(sq_key)
    run_best = np.zeros_like(sq_key)
    cards = []
    trump = np.where(strain < 4, strain, -1)
    for s in range(4):
        i = (b[s] << 8) | sq
        total += np.take(br.byte_run_points, i)
        k = np.take(br.byte_run_key, i)
        if br.trump_breaks_ties:
            k += (k > 0) & (trump == s)[None, :]
        better = k > run_key
        run_key = np.where(better, k, run_key)
        run_best = np.where(better, np.take(br.byte_run_best, i), run_best)
        cards.append(np.take(br.byte_run_cards, i))
    key = np.maximum(sq_key, run_key)
    best = np.where(sq_key >= run_key, br.sq_best[strain[None, :], sq], run_best)
    return total, key, best, cards, sq


def meld_points(br, hands, strain, leader0):
    """(melds (2, n): the scoring ordinary melds of NS and EW, run-card bytes per suit or None)."""
    n = hands.shape[1]
    if not br.melds_enabled:
        return np.zeros((2, n), np.int64), None
    total, key, best, run_cards, sq = _seat_melds(br, hands, strain)
    team_key = np.maximum(key[0:2], key[2:4])                   # NS = seats 0, 2; EW = 1, 3
    if br.winner_scores_all:
        team_points = total[0:2] + total[2:4]
    else:
        team_points = np.where(key[0] >= key[2], best[0], best[2]), np.where(key[1] >= key[3], best[1], best[3])
        team_points = np.stack(team_points)
    ns, ew = team_key
    ns_wins = ns > ew
    ew_wins = ew > ns
    if not br.meld_equal_cancels:
        # equal best melds: the side of the first player, in play order from the first leader, holding one
        tie = (ns == ew) & (ns > 0)
        first = np.full(n, -1)
        for pos in range(3, -1, -1):
            seat = (leader0 + pos * br.step) & 3
            holds = key[seat, np.arange(n)] == ns
            first = np.where(holds, seat, first)
        ns_wins |= tie & ((first & 1) == 0)
        ew_wins |= tie & ((first & 1) == 1)
    out = np.zeros((2, n), np.int64)
    if br.both_sides:                       # melds.sides_scoring: each side scores its own melds
        out[0], out[1] = team_points[0], team_points[1]
    else:
        out[0] = np.where(ns_wins, team_points[0], 0)
        out[1] = np.where(ew_wins, team_points[1], 0)
    if br.sevens_cancel:                    # melds.sevens_cancel: four sevens declared annul every meld
        out[:, ((sq & 1) != 0).any(axis=0)] = 0
    return out, run_cards


def belote_points(br, hands, strain, run_cards, cards=None):
    """(2, n): each side's belote points before the contract is judged (``cards`` (32, n), the cards
    in the order played, are needed where belote.claim is king_first)."""
    n = hands.shape[1]
    out = np.zeros((2, n), np.int64)
    if not br.belote_enabled:
        return out
    suits = br.belote_suits[strain]                          # (n,) 4-bit mask
    b = _bytes(hands)
    count = np.zeros((4, n), np.int64)
    for s in range(4):
        held = ((b[s] & 0x60) == 0x60) & ((suits >> s & 1) == 1)[None, :]
        if not br.belote_in_run and run_cards is not None:
            held &= (run_cards[s] & 0x60) != 0x60
        if br.belote_king_first:
            # the holder played both: his king must come first
            king_first = np.argmax(cards == 8 * s + 6, axis=0) < np.argmax(cards == 8 * s + 5, axis=0)
            held &= king_first[None, :]
        count += held
    out[0] = (count[0] + count[2]) * br.belote_points
    out[1] = (count[1] + count[3]) * br.belote_points
    return out
