"""Can a deal with melds give this award? The exhaustion of engine/awards.py, on arrays.

Without melds the per-deal engine scores every contract, multiplier, strain,
split of the card points and last trick in about half a second. Melds multiply
that by every total a side may count, so the batch scorer does it: one call per
strain kind and contract value, the rows every multiplier, split, last trick
and meld total. The meld totals are a bound, never a guess: every sum of
what the side's two hands of 8 can declare, squares and runs laid out
card by card with no card in both hands, counted by one side only
(``meld_totals``). No answer where both sides score their melds: the
pairs are too many.
"""

from __future__ import annotations

import numpy as np

from ..engine.errors import EngineError
from ..engine.melds import side_totals
from ..engine.scoring import belote_dict
from ..variants.compiled import STRAINS, compiled_rules
from .play import PlayResult
from .rules import BatchUnsupported, batch_rules
from .scoring import score_deals

_KIND = {"TA": "tout_atout", "SA": "sans_atout"}


def meld_totals(c, strain: str) -> np.ndarray:
    """Every total one side may count in ``strain``, and more: a sound bound.

    Each of the side's two players declares from his own 8 cards, laid out card by card
    (engine.melds.side_totals): every one to three melds a hand holds, the two hands sharing no card.
    What the side counts after the comparison is some of those melds, so it is one of these totals.
    Under belote-cli's rules that leaves 550 at most (the squares of jacks and nines in one hand, two
    squares of 100 in the other) and no 510, 600 or 640."""
    return np.array(sorted(side_totals(c, strain)), dtype=np.int64)


def _with_one_bid(br, value: int, kind: int, scored: int):
    """The batch rules with a one-bid ladder: ``value`` (numbers past the batch's own ladder too)."""
    one = object.__new__(type(br))
    one.__dict__.update(br.__dict__)
    one.bid_value = np.array([value], np.int64)
    one.bid_kind = np.array([kind], np.intp)
    one.bid_scored = np.array([scored], np.int64)
    return one


def scored_rows(rules, award: dict, strain: str, values: list, multipliers: list):
    """Yield, for each contract value (and, for a générale, each way the takers share their tricks),
    the rows' parameters and the batch scorer's ScoreArrays: every multiplier, split of the card
    points, last trick and meld total of either side, under ``strain``. Nothing when the award's
    belote cannot be held in that strain, or scores nothing there (a deal then records none)."""
    c = compiled_rules(rules)
    br = batch_rules(rules)
    takers = award["takers"]
    t = 0 if takers == "NS" else 1
    won = award["tricks_won"]
    lasts = [i for i, side in enumerate(("NS", "EW")) if won[side]]
    declarer, partner = (0, 2) if t == 0 else (1, 3)
    defender = 1 if t == 0 else 0     # E defends against N-S, N against E-W
    si = STRAINS.index(strain)
    total = c.card_total(strain)
    try:
        bel = belote_dict(rules, strain, award.get("belote"))
    except (EngineError, ValueError):
        return
    if award.get("belote") in bel and not bel[award["belote"]]:
        return      # a deal records a side's belote only where it scores: none in this strain
    splits = [0] if won["NS"] == 0 else [total] if won["EW"] == 0 else list(range(total + 1))
    melds = meld_totals(c, strain)
    # rows: multiplier x split x last trick x (the takers' meld total, or the defenders')
    mults = np.array([m for m, _ in multipliers], np.int64)
    grid = np.indices((len(mults), len(splits), len(lasts), 2, len(melds))).reshape(5, -1)
    n = grid.shape[1]
    mult = mults[grid[0]]
    ns = np.array(splits, np.int64)[grid[1]]
    last_side = np.array(lasts, np.intp)[grid[2]]
    meld_side = np.where(grid[3] == 0, t, 1 - t)
    meld_arr = np.zeros((2, n), np.int64)
    meld_arr[meld_side, np.arange(n)] = melds[grid[4]]
    points = np.stack([ns, total - ns])
    belote = np.stack([np.full(n, bel["NS"], np.int64), np.full(n, bel["EW"], np.int64)])
    last_seat = np.where(last_side == t, declarer, defender).astype(np.intp)
    for value in values:
        kind = 0 if isinstance(value, int) else 1 if value == "capot" else 2
        number = value if kind == 0 else (c.auction.capot.value if kind == 1 else c.auction.generale.value)
        scored = c.scored_bid(value) if kind == 0 else number
        one = _with_one_bid(br, int(number), kind, int(scored))
        shares = [(won[takers], 0)] + ([(won[takers] - 1, 1)] if kind == 2 and won[takers] else [])
        for mine, theirs in shares:
            by_seat = np.zeros((4, n), np.int64)
            by_seat[declarer] = mine
            by_seat[partner] = theirs
            by_seat[defender] = won["EW" if takers == "NS" else "NS"]
            play = PlayResult(points, by_seat, last_seat, np.zeros(n, np.intp), None, None, None, None)
            s = score_deals(one, np.full(n, si, np.intp), np.zeros(n, np.intp), np.full(n, declarer, np.intp),
                            mult, play, meld_arr, belote)
            rows = {"value": value, "by_seat": {"NSEW"[declarer]: mine, "NSEW"[partner]: theirs},
                    "multiplier": mult, "points_ns": ns, "last": last_side, "melds": meld_arr}
            yield rows, s


def strain_kinds(c) -> list:
    """One strain of each kind the rule set plays (a suit, sans atout, tout atout): the suits score alike."""
    kinds: dict = {}
    for strain in STRAINS:
        if c.strain_allowed(strain):
            kinds.setdefault(_KIND.get(strain, "suit"), strain)
    return list(kinds.values())


def gives(scores, award: dict) -> np.ndarray:
    """Which rows of the batch scorer's ScoreArrays give ``award``: made or not, score and held points."""
    held = award.get("held") or {}
    return ((scores.made == award["made"]) & (scores.score[0] == award["score"]["NS"])
            & (scores.score[1] == award["score"]["EW"]) & (scores.held[0] == held.get("NS", 0))
            & (scores.held[1] == held.get("EW", 0)))


def some_deal_gives(rules, award: dict, values: list, multipliers: list) -> bool | None:
    """True when a deal under ``rules`` (with melds) gives ``award``, False when none does, None when
    this cannot tell (both sides score melds, or the batch engine does not play the rule set).
    ``values`` are the contract values to try and ``multipliers`` the (multiplier, doubling) pairs, as
    engine/awards.py lists them."""
    c = compiled_rules(rules)
    if c.melds.sides_scoring != "best_side":
        return None     # both sides' melds: too many pairs of totals to exhaust
    try:
        batch_rules(rules)
    except BatchUnsupported:
        return None
    for strain in strain_kinds(c):
        for _, s in scored_rows(rules, award, strain, values, multipliers):
            if gives(s, award).any():
                return True
    return False
