"""Statistics of many random deals, for ``coinche-spec deal --batch N`` and for scripts.

``batch_statistics(rules, n, seed)`` plays n deals with the batch engine, in
batches of at most 100,000 (memory stays well under a gigabyte), and sums
what a person comparing rule sets asks first: how often the contract is
made, how often one side takes every trick, how often the contract is
coinched, what a deal is worth. Rates and points are per played deal: a
deal that all four players passed is thrown in and only counted as such.
"""

from __future__ import annotations

import numpy as np

from .engine import play_batch

__all__ = ["batch_statistics", "CHUNK"]

CHUNK = 100_000


def batch_statistics(rules, n: int, seed: int) -> dict:
    """The statistics of n random deals (the same seed gives the same figures)."""
    sums = dict(played=0, made=0, sweeps=0, taker_sweeps=0, coinched=0, surcoinched=0, capot_bids=0,
                ns=0, ew=0, takers=0, defenders=0)
    seeds = np.random.SeedSequence(seed).spawn((n + CHUNK - 1) // CHUNK)
    br = None
    for i, child in enumerate(seeds):
        b = play_batch(rules, min(CHUNK, n - i * CHUNK), seed=child)
        br = b.rules
        m = b.played.size
        takers = b.declarer & 1
        ar = np.arange(m)
        sums["played"] += m
        sums["made"] += int(b.made.sum())
        sums["sweeps"] += int((b.sweeper >= 0).sum())
        sums["taker_sweeps"] += int((b.sweeper == takers).sum())
        sums["coinched"] += int((b.multiplier > 1).sum())
        sums["surcoinched"] += int((b.multiplier == br.sur_mult).sum()) if br.sur_allowed else 0
        sums["capot_bids"] += int((br.bid_kind[b.bid] > 0).sum())
        sums["ns"] += int(b.score[0].sum())
        sums["ew"] += int(b.score[1].sum())
        sums["takers"] += int(b.score[takers, ar].sum())
        sums["defenders"] += int(b.score[takers ^ 1, ar].sum())
    played = sums["played"]

    def rate(key):
        return round(sums[key] / played, 6) if played else None

    return {
        "deals": n, "seed": seed,
        "played": played, "thrown_in": n - played,
        "made_rate": rate("made"),
        "sweep_rate": rate("sweeps"), "taker_sweep_rate": rate("taker_sweeps"),
        "coinche_rate": rate("coinched"), "surcoinche_rate": rate("surcoinched"),
        "capot_bid_rate": rate("capot_bids"),
        "points_per_deal": {"NS": rate("ns"), "EW": rate("ew"), "takers": rate("takers"),
                            "defenders": rate("defenders"),
                            "both": round((sums["ns"] + sums["ew"]) / played, 6) if played else None},
    }
