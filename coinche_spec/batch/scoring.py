"""Scoring B deals: card points, the contract judged, each side's award, rounding.

engine/scoring.py on arrays, in the same order: card points (the last trick
or the sweep), made or failed on unrounded totals, the sweep's transfer of
melds, each outcome's awards from its terms and multiplier, the belote, the
rounding. Every outcome's awards are worked out for every deal and each deal
keeps its own outcome's, which is cheaper than sorting deals by outcome.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ScoreArrays", "score_deals"]

_ROUND = {"none": lambda a: a, "nearest_10_half_up": lambda a: (a + 5) // 10 * 10,
          "nearest_10_half_down": lambda a: (a + 4) // 10 * 10}
_OUTCOME_INDEX = {"made": 0, "failed": 1, "coinched_made": 2, "coinched_failed": 3, "capot_made": 4}


class ScoreArrays:
    """Per deal: card points (2, n), made (n,), score (2, n), swept (n,: the side that took all, -1)."""

    def __init__(self, card_points, made, score, sweeper):
        self.card_points = card_points
        self.made = made
        self.score = score
        self.sweeper = sweeper


def score_deals(br, strain, bid_index, declarer, mult, play, melds, belote) -> ScoreArrays:
    """Score n played deals (``play`` a PlayResult; melds and belote (2, n) arrays)."""
    n = strain.shape[0]
    ar = np.arange(n)
    takers = declarer & 1
    defenders = takers ^ 1
    won = np.stack([play.won_by_seat[0] + play.won_by_seat[2], play.won_by_seat[1] + play.won_by_seat[3]])
    cp = play.points.copy()
    last = play.last_winner & 1
    if br.capot_by == "card_points":          # the last trick taken, the other side's tricks worth 0
        sweeper = np.where(cp[last ^ 1, ar] == 0, last, -1)
    else:                                     # all eight tricks
        sweeper = np.where(won[0] == 8, 0, np.where(won[1] == 8, 1, -1))
    extra = np.where(sweeper >= 0, br.sweep_extra, br.last_trick)
    cp[last, ar] += extra                       # the sweeper took the last trick too
    # the contract, judged on unrounded totals
    totals = cp.copy()
    if br.melds_count:
        totals += melds
    if br.belote_count:
        totals += belote
    mine, theirs = totals[takers, ar], totals[defenders, ar]
    kind = br.bid_kind[bid_index]
    bid = br.bid_value[bid_index]
    made_number = (mine >= bid) & (mine >= br.minimum_total)
    if br.versus == "not_level":
        made_number &= mine != theirs
    elif br.versus == "strictly_more":
        made_number &= mine > theirs
    made = np.where(kind == 0, made_number,
                    np.where(kind == 1, sweeper == takers, play.won_by_seat[declarer, ar] == 8))
    coinched = mult > 1
    outcome = np.where(made, np.where(coinched, 2, 0), np.where(coinched, 3, 1))
    if br.capot_made:
        outcome = np.where(made & (kind > 0), 4, outcome)
    # a sweep may carry the swept side's melds over to the sweepers
    eff = melds
    if br.sweep_takes_melds != "never":
        moves = sweeper >= 0
        if br.sweep_takes_melds == "taker_sweep":
            moves &= sweeper == takers
        eff = melds.copy()
        s = np.maximum(sweeper, 0)
        moved = np.where(moves, melds[s ^ 1, ar], 0)
        eff[s, ar] += moved
        eff[s ^ 1, ar] -= moved
    awards = np.zeros((2, n), np.int64)
    dest_all = np.zeros((2, n), bool)           # is side t's award multiplied whole (for the belote)?
    for name, sides in br.awards.items():
        here = outcome == _OUTCOME_INDEX[name]
        if not here.any():
            continue
        for role, (terms, multiplied, base, base_on_sweep) in enumerate(sides):
            side = takers if role == 0 else defenders
            swept = sweeper == side
            plain = np.zeros(n, np.int64)
            bid_part = np.zeros(n, np.int64)
            for term in terms:
                if term == "card_points":
                    plain += cp[side, ar]
                elif term == "bid":
                    plain += bid
                    bid_part += bid
                elif term == "base":
                    b = base[strain]
                    if base_on_sweep is not None:
                        b = np.where(swept, base_on_sweep, b)
                    plain += b
                elif term == "own_melds":
                    plain += eff[side, ar]
                elif term == "all_melds":
                    plain += eff[0] + eff[1]
                elif term == "sweep_bonus":
                    plain += np.where(swept, br.sweep_bonus, 0)
            if multiplied == "all":
                value = plain * mult
            elif multiplied == "bid":
                value = plain + bid_part * (mult - 1)
            else:
                value = plain
            awards[side, ar] = np.where(here, value, awards[side, ar])
            if multiplied == "all":
                dest_all[side, ar] |= here
    # the belote joins its holder's award; a failing takers' belote goes where belote.on_failure says
    for holder in (0, 1):
        amount = belote[holder]
        dest = np.full(n, holder)
        lost = np.zeros(n, bool)
        failing = (takers == holder) & ~made
        if br.belote_on_failure == "defenders":
            dest = np.where(failing, holder ^ 1, dest)
        elif br.belote_on_failure == "lost":
            lost = failing
        times = np.ones(n, np.int64)
        if br.belote_multiplied:
            times = np.where(dest_all[dest, ar] & (mult > 1), mult, 1)
        add = np.where(lost, 0, amount * times)
        awards[dest, ar] += add
    score = _ROUND[br.rounding](awards)
    return ScoreArrays(cp, made, score, sweeper)
