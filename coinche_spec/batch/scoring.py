"""Scoring B deals: card points, the contract judged, each side's award, rounding.

engine/scoring.py on arrays, in the same order: card points (the last trick
or the sweep, then card_values.scale), made or failed on unrounded totals (or
rounded ones, contract.judged_on; or a litige), the sweep's transfer of melds, each outcome's awards from its terms
and multiplier, the belote where belote.placement puts it, the rounding at the
stage scoring.rounding_stage names. Every outcome's awards are worked out for
every deal and each deal keeps its own outcome's, which is cheaper than
sorting deals by outcome; every option is a constant of the batch.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ScoreArrays", "score_deals", "OUTCOMES"]

# the outcome of each deal, as engine/scoring.py names it (ScoreResult.outcome)
OUTCOMES = ("made", "failed", "coinched_made", "coinched_failed", "capot_made", "capot_failed", "litige")
_OUTCOME_INDEX = {name: i for i, name in enumerate(OUTCOMES)}
_LITIGE = _OUTCOME_INDEX["litige"]


class ScoreArrays:
    """Per deal: card points (2, n), made (n,), score (2, n), swept (n,: the side that took all, -1),
    outcome (n,: an index into OUTCOMES), totals (2, n: what each side counted when the contract was
    judged), held (2, n: a litige's takers' points held back, else 0)."""

    def __init__(self, card_points, made, score, sweeper, outcome, totals, held):
        self.card_points = card_points
        self.made = made
        self.score = score
        self.sweeper = sweeper
        self.outcome = outcome
        self.totals = totals
        self.held = held


def _rounded(br, a, strain):
    """scoring.rounding (with scoring.rounding_up_from's threshold for each deal's strain)."""
    if br.round_unit == 1:
        return a
    return (a + br.round_add[strain]) // br.round_unit * br.round_unit


def _scaled(br, strain, tp, cp, takers, ar):
    """card_values.scale, as engine/scoring.py _scaled: the strain's ratio applied to the trick values
    (the last trick or sweep added after, unscaled) or to the card points; with ``complement`` the
    defenders get the scaled total less the takers' points. Deals in a strain without a ratio keep cp."""
    times, per = br.scale_times[strain], br.scale_per[strain]
    src = tp if br.scale_on_tricks else cp
    out = br.scale_round(src * times, per)
    if br.scale_complement:
        total = br.scale_round((src[0] + src[1]) * times, per)
        out[takers ^ 1, ar] = total - out[takers, ar]
    if br.scale_on_tricks:
        out += cp - tp
    return np.where(br.scaled[strain], out, cp)


def _counted(br, cp, strain, takers, ar):
    """The card points the awards count: scoring.rounding_stage card_points rounds each side's,
    card_points_complement the takers' and gives the defenders the rounded total less them."""
    if br.rounding_stage == "card_points":
        return _rounded(br, cp, strain)
    if br.rounding_stage == "card_points_complement":
        counted = np.empty_like(cp)
        mine = _rounded(br, cp[takers, ar], strain)
        counted[takers, ar] = mine
        counted[takers ^ 1, ar] = _rounded(br, cp[0] + cp[1], strain) - mine
        return counted
    return cp


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
    if br.scaled.any():
        cp = _scaled(br, strain, play.points, cp, takers, ar)
    # the contract, judged on unrounded totals (or rounded: contract.judged_on)
    totals = cp.copy()
    if br.melds_count:
        totals += melds
    if br.belote_count and not br.belote_lowers:
        totals += belote
    if br.judged_rounded:
        totals = _rounded(br, totals, strain)
    mine, theirs = totals[takers, ar], totals[defenders, ar]
    kind = br.bid_kind[bid_index]
    bid = br.bid_value[bid_index]
    # belote.counts_as lowered_target: the takers' belote lowers the bid and the least total instead
    lowered = belote[takers, ar] if br.belote_lowers else 0
    reaches = (mine >= bid + br.margin - lowered) & (mine >= br.minimum_total - lowered)
    made_number = reaches
    if br.versus is not None:
        made_number = reaches & br.versus(mine, theirs)
    made = np.where(kind == 0, made_number,
                    np.where(kind == 1, sweeper == takers, play.won_by_seat[declarer, ar] == 8))
    # scoring.litige: a level numeric contract that reaches the bid is neither made nor failed; it is
    # scored as made, the takers' award held back
    litige = (kind == 0) & reaches & (mine == theirs) if br.litige else np.zeros(n, bool)
    made &= ~litige
    as_made = made | litige
    coinched = mult > 1
    outcome = np.where(as_made, np.where(coinched, 2, 0), np.where(coinched, 3, 1))
    if br.capot_made:
        outcome = np.where(made & (kind > 0), 4, outcome)
    if br.capot_failed:
        outcome = np.where(~made & (kind > 0), 5, outcome)
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
    counted = _counted(br, cp, strain, takers, ar)
    # what the awards count for the bid (scoring.bid_scored_as), N times (scoring.bid_factor)
    bid = br.bid_scored[bid_index] * br.bid_factor[strain]
    before = br.rounding_stage == "before_multiplier"
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
            base_part = np.zeros(n, np.int64)
            for term in terms:
                if term == "card_points":
                    plain += counted[side, ar]
                elif term == "bid":
                    plain += bid
                    bid_part += bid
                elif term == "base":
                    b = base[strain]
                    if base_on_sweep is not None:
                        b = np.where(swept, base_on_sweep, b)
                    plain += b
                    base_part += b
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
            elif multiplied == "base":
                value = plain + base_part * (mult - 1)
            else:
                value = plain
            if before:
                # the terms' sum rounded before the multiplier: the difference multiplied where the
                # whole award is, else added once
                delta = _rounded(br, plain, strain) - plain
                value += delta * mult if multiplied == "all" else delta
            if (role == 0 and br.litige) or br.litige == "replay":
                value = np.where(litige, 0, value)          # a litige: the takers' award is held, not scored
            awards[side, ar] = np.where(here, value, awards[side, ar])
            if multiplied == "all":
                dest_all[side, ar] |= here
    # each side's belote goes where belote.placement (or belote.on_failure) says for this outcome
    placed = 2 * coinched + as_made
    for role, holder in ((0, takers), (1, defenders)):
        amount = belote[holder, ar]
        code = br.belote_dest[2 * placed + role]
        if (br.belote_capot_dest >= 0).any():   # a capot bid or générale: belote.placement.capot_*
            capot = br.belote_capot_dest[2 * made + role]
            code = np.where((kind > 0) & (capot >= 0), capot, code)
        dest = np.where(code == 0, takers, defenders)
        times = np.where(dest_all[dest, ar] & coinched, mult, 1) if br.belote_multiplied else 1
        lost = (code == 2) | litige if br.litige == "replay" else code == 2    # replay: nobody scores
        awards[dest, ar] += np.where(lost, 0, amount * times)
    score = _rounded(br, awards, strain) if br.rounding_stage == "award" else awards
    held = np.zeros((2, n), np.int64)
    if br.litige == "held":
        held[takers, ar] = np.where(litige, _rounded(br, cp[takers, ar], strain), 0)
    if br.litige:
        outcome = np.where(litige, _LITIGE, outcome)
    return ScoreArrays(cp, made, score, sweeper, outcome, totals, held)
