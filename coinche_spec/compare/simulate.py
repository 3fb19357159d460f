"""The same deals played by the simple players under each rule set, and what came of them.

Every deal comes from ``deals`` (same hands, same dealer for all rule sets).
When the batch engine plays every rule set compared (numpy installed, no
rule it refuses), the deals are played by its vectorised simple players
(batch/simple.py) in blocks of BATCH_CHUNK; otherwise one by one by
``engine.players.play_hands``, and ``note`` says why. Both make the same
calls and cards on the same hands (tests/test_batch_simple.py), so both give
the same records and the same figures (tests/test_compare_batch.py). Deals
are played in chunks, in local processes when ``jobs`` > 1; chunks are put
back in order, so the figures depend on the seed and the number of deals only.

A deal in which all four pass is thrown in: it scores nothing and counts in
"how often the score differs" and in the swings (as 0 to 0), not in the
contract rates nor in points per deal, and not in a match's length; it
stands in the match as a deal nobody won only where it counts toward
``match.deals`` (``match.throw_ins_count``), else it is simply dealt again.
Matches are the played deals taken in order, a new match starting after each one the rule set's match rules
decide (``engine.match.run_match``); an unfinished last match is dropped.
"""

from __future__ import annotations

import multiprocessing
import sys
from dataclasses import dataclass, field

from ..engine.match import Match, exact_rules
from ..engine.players import play_hands
from ..engine.scoring import score_deal
from ..conformance.fuzz_deals import batch_refusal as _batch_refusal
from ..variants.compiled import compiled_rules
from .deals import deal_hands
from .stats import Estimate, largest, mean, mean_of, rate

# deals one comparison may simulate, far past what a comparison needs (2,000 by default): the task
# list is built whole, so a count past this is refused before anything is built (docs/limits.md)
MAX_DEALS = 1_000_000

CHUNK = 200          # deals per task: small enough for a live progress bar, large enough to be cheap
BATCH_CHUNK = 25_000  # deals per batch-engine task: past the per-call overhead, a few MB of arrays
_THROWN = (None, None, 1, False, 0, 0, 0, 0, None, None)
# scoring.litige replay: a level deal is dealt again, scoring nothing, as a thrown-in deal, but it is
# never one of the match's deals (match.deals does not count it): its multiplier field says 0
_REPLAYED = (None, None, 0, False, 0, 0, 0, 0, None, None)

# one deal under one rule set: (takers or None when thrown in, made, multiplier, swept, NS, EW,
#                              NS tricks, EW tricks, belote side, points a litige held back or None
#                              [, the score unrounded: only under match.last_deal_exact])
Record = tuple


def play_one(rules, dealer: str, hands: dict) -> Record:
    deal = play_hands(rules, dealer, hands)
    if deal.phase != "done":
        return _THROWN
    o = deal.outcome()
    if o.score_result is not None and o.score_result.outcome == "litige" and o.score_result.held is None:
        return _REPLAYED        # scoring.litige replay: a level deal is dealt again
    c = deal.contract
    won = o.tricks_won
    record = (c.takers, o.made, c.multiplier, won["NS"] == 8 or won["EW"] == 8,
              o.score["NS"], o.score["EW"], won["NS"], won["EW"], o.belote,
              o.score_result.held if o.score_result is not None else None)
    unrounded = exact_rules(rules)
    if unrounded is None:
        return record
    by_seat = deal.tricks_by_seat() if c.value == "generale" else None
    exact = score_deal(unrounded, c, o.trick_points, won, o.last_trick, o.melds, o.belote_points,
                       explain=False, tricks_by_seat=by_seat)
    return record + (dict(exact.score),)


_WORKER_RULES: list = []


def _init_worker(refs: list) -> None:
    from ..variants import load_variant
    _WORKER_RULES[:] = [load_variant(r).rules for r in refs]


def _play_chunk(task: tuple) -> list:
    seed, start, stop = task
    out = []
    for i in range(start, stop):
        dealer, hands = deal_hands(seed, i)
        out.append(tuple(play_one(r, dealer, hands) for r in _WORKER_RULES))
    return out


def batch_refusal(rules_list: list) -> str | None:
    """None when the batch engine plays every one of these rule sets, else why not (for ``note``)."""
    return _batch_refusal(*rules_list)


def match_refusal(variants: list) -> str | None:
    """Why the matches of one of these rule sets cannot be played from simulated deals, or None."""
    for v in variants:
        if compiled_rules(v.rules).match.both_cross == "counting_order":
            return (f"{v.id}: rules.match.both_cross: counting_order counts a deal's melds apart from the "
                    "rest of its score, which a simulated deal does not record (compare with --deals 0)")
    return None


COLUMNS = ("takers", "made", "multiplier", "swept", "NS", "EW", "NS_tricks", "EW_tricks", "belote", "held")


def batch_columns(rules, hands, dealer) -> tuple:
    """These deals (hands (4, n), dealer (n,)) played by the batch simple players, as the records'
    ten fields in columns (numpy arrays over the deals): takers 0 NS, 1 EW, -1 thrown in; belote
    0 none, 1 NS, 2 EW; held: the takers' points a litige held back, else 0; a thrown-in deal
    scores 0 to 0 with multiplier 1, a level deal dealt again (scoring.litige replay) with 0."""
    import numpy as np

    from ..batch import play_batch
    from ..batch.scoring import OUTCOMES
    b = play_batch(rules, dealer.size, players="simple", deals=(hands, dealer))
    p = b.played
    n = dealer.size
    cols = [np.full(n, -1, np.int8), np.zeros(n, bool), np.ones(n, np.int16), np.zeros(n, bool),
            np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(n, np.int8), np.zeros(n, np.int8),
            np.zeros(n, np.int8), np.zeros(n, np.int32)]
    ns_belote, ew_belote = b.belote[0] > 0, b.belote[1] > 0
    for col, values in zip(cols, (b.declarer & 1, b.made, b.multiplier, b.sweeper >= 0, b.score[0], b.score[1],
                                  b.tricks_won[0], b.tricks_won[1],
                                  (ns_belote & ~ew_belote) * 1 + (ew_belote & ~ns_belote) * 2,
                                  b.held[0] + b.held[1])):
        col[p] = values
    if compiled_rules(rules).scoring.litige == "replay":
        # scoring.litige replay: a level deal is thrown in, as four passes are
        replayed = p[b.outcome == OUTCOMES.index("litige")]
        for col, thrown in zip(cols, (-1, False, 0, False, 0, 0, 0, 0, 0, 0)):     # as _REPLAYED
            col[replayed] = thrown
    return tuple(cols)


def records_of(cols) -> list:
    """The records (as ``play_one`` makes them) of one rule set's columns."""
    takers = [(None, "NS", "EW")[t + 1] for t in cols[0].tolist()]
    made = [m if t is not None else None for t, m in zip(takers, cols[1].tolist())]
    belote = [(None, "NS", "EW")[x] for x in cols[8].tolist()]
    # a litige holds the takers' points back (engine.scoring's ``held``: the defenders' 0 named too)
    held = [{t: h, ("EW" if t == "NS" else "NS"): 0} if h else None for t, h in zip(takers, cols[9].tolist())]
    return list(zip(takers, made, *(c.tolist() for c in cols[2:8]), belote, held))


def _play_batch_chunk(task: tuple) -> list:
    from .deals import deal_block
    seed, start, stop = task
    hands, dealer = deal_block(seed, start, stop)
    return [batch_columns(r, hands, dealer) for r in _WORKER_RULES]


def play_deals(refs: list, deals: int, seed: int, jobs: int = 1, progress=None, engine: str = "auto",
               note=None) -> list:
    """Per deal, one record per rule set (in the order of ``refs``), deal 0 first.

    ``engine``: "batch", "deal" (one by one) or "auto" (the batch engine when it plays every rule
    set, else one by one, saying why through ``note``)."""
    out = _play(refs, deals, seed, jobs, progress, engine, note)
    if isinstance(out, Columns):
        return list(zip(*(records_of(c) for c in out.per_rule_set)))
    return out


class Columns:
    """The batch engine's records: per rule set, the ten fields as numpy arrays over the deals."""

    def __init__(self, chunks: list):
        import numpy as np
        k = len(chunks[0]) if chunks else 0
        self.per_rule_set = [tuple(np.concatenate([c[r][f] for c in chunks]) for f in range(len(COLUMNS)))
                             for r in range(k)]


def _play(refs: list, deals: int, seed: int, jobs: int, progress, engine: str, note):
    """The records of the deals: a list (one by one) or Columns (batch engine)."""
    if engine not in ("auto", "batch", "deal"):
        raise ValueError(f"engine: expected auto, batch or deal, not {engine!r}")
    if engine != "deal":
        from ..variants import load_variant
        why = batch_refusal([load_variant(r).rules for r in refs])
        if why is not None and engine == "batch":
            raise ValueError(f"the batch engine cannot play these rule sets: {why}")
        if why is not None:
            if note is not None:
                note(f"compare: playing the deals one by one (slower): {why}")
            engine = "deal"
    batch = engine != "deal"
    size, work = (BATCH_CHUNK, _play_batch_chunk) if batch else (CHUNK, _play_chunk)
    tasks = [(seed, s, min(deals, s + size)) for s in range(0, deals, size)]
    done, out = 0, []

    def step(chunk, task):
        nonlocal done
        if batch:
            out.append(chunk)
        else:
            out.extend(chunk)
        done += task[2] - task[1]
        if progress is not None:
            progress(done, deals)

    if jobs <= 1 or len(tasks) <= 1:
        _init_worker(refs)
        for t in tasks:
            step(work(t), t)
    else:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with multiprocessing.get_context(method).Pool(jobs, _init_worker, (list(refs),)) as pool:
            for chunk, t in zip(pool.imap(work, tasks), tasks):      # imap keeps the order of the tasks
                step(chunk, t)
    return Columns(out) if batch else out


def match_lengths(rules, records: list) -> list[int]:
    """The number of played deals in each finished match, taking the deals in order.

    Every deal goes through ``engine.match.Match`` except the usual ones: where no belote must be
    validated and no trick is needed to win, a deal after which neither side has reached the target, or exactly one has, is
    decided by the totals alone (Match.add's own first test), so only deals where both sides
    reach it are handed to Match (with the whole match so far). A thrown-in deal is left out, except
    where it counts toward ``match.deals``: then every deal goes through Match, the thrown-in ones as
    deals nobody won, and a match's length is still its played deals."""
    probe = Match(rules, lines=False)
    if probe.last_deal is not None and probe.throw_ins_count:
        return _match_lengths_slow(rules, [r for r in records if r[0] is not None or r[2]])   # no replays
    played = [r for r in records if r[0] is not None]
    if (probe.g.belote_validation or probe.needs_trick or probe.not_failed or probe.exact
            or probe.last_deal is not None or any(_held(r) for r in played)):
        return _match_lengths_slow(rules, played)
    reached = probe.reached
    out = []
    start, ns, ew, slow = 0, 0, 0, None
    for i, r in enumerate(played):
        if slow is not None:
            if slow.add(_Record(r)) is not None:
                out.append(slow.count)
                start, ns, ew, slow = i + 1, 0, 0, None
            continue
        ns += r[4]
        ew += r[5]
        a, b = reached(ns), reached(ew)
        if not (a or b):
            continue
        if a != b:
            out.append(i + 1 - start)
            start, ns, ew = i + 1, 0, 0
            continue
        slow = Match(rules, lines=False)          # both reached: the match rules decide (or play on)
        for q in played[start:i + 1]:
            winner = slow.add(_Record(q))
        if winner is not None:
            out.append(slow.count)
            start, ns, ew, slow = i + 1, 0, 0, None
    return out                                      # the last match, unfinished, is left out


def _match_lengths_slow(rules, records: list) -> list[int]:
    out = []
    m, length = Match(rules, lines=False), 0
    for r in records:
        length += r[0] is not None
        if m.add(_Record(r)) is not None:
            out.append(length)
            m, length = Match(rules, lines=False), 0
    return out


def _held(r: Record):
    """The points a litige held back in this deal (a record of nine fields holds none)."""
    return r[9] if len(r) > 9 else None


class _Record:
    """A record read as a match deal (engine.match._Deal's fields), built without checks: it is ours."""

    __slots__ = ("score", "takers", "made", "belote", "tricks_won", "belotes", "held", "melds", "exact_score")

    def __init__(self, r):
        self.score = {"NS": r[4], "EW": r[5]}
        self.takers, self.made, self.belote = r[0], r[1], r[8]
        # a thrown-in deal: no card played, no trick won, nobody made or failed a contract
        self.tricks_won = {"NS": r[6], "EW": r[7]} if r[0] is not None else None
        self.belotes = self.melds = None
        self.held = _held(r)
        self.exact_score = r[10] if len(r) > 10 else None


@dataclass
class RuleSetFigures:
    ident: str
    thrown_in: Estimate
    failed: Estimate
    coinched: Estimate
    swept: Estimate
    points_per_deal: Estimate
    deals_per_match: Estimate
    match_lengths: list = field(default_factory=list)

    FIGURES = (("thrown_in", "thrown in (all pass)"), ("failed", "contract failed"),
               ("coinched", "coinched or surcoinched"), ("swept", "all eight tricks to one side"),
               ("points_per_deal", "points recorded per played deal"), ("deals_per_match", "deals per match"))


@dataclass
class PairFigures:
    """A rule set against the first one named, on the same deals."""

    left: str
    right: str
    score_differs: Estimate
    mean_swing: Estimate
    largest_swing: Estimate
    swings: list = field(default_factory=list)        # per deal, |margin here - margin there|


@dataclass
class Simulation:
    deals: int
    seed: int
    rule_sets: list
    pairs: list


def summarise(variants: list, per_deal: list, seed: int) -> Simulation:
    n = len(per_deal)
    sets = []
    for k, v in enumerate(variants):
        recs = [d[k] for d in per_deal]
        contracts = [r for r in recs if r[0] is not None]
        lengths = match_lengths(v.rules, recs)
        sets.append(RuleSetFigures(
            v.id, rate(n - len(contracts), n), rate(sum(1 for r in contracts if not r[1]), len(contracts)),
            rate(sum(1 for r in contracts if r[2] > 1), len(contracts)),
            rate(sum(1 for r in contracts if r[3]), len(contracts)),
            mean(r[4] + r[5] for r in contracts), mean(lengths), lengths))
    pairs = []
    for k in range(1, len(variants)):
        swings = [abs((d[0][4] - d[0][5]) - (d[k][4] - d[k][5])) for d in per_deal]
        differ = sum(1 for d in per_deal if (d[0][4], d[0][5]) != (d[k][4], d[k][5]))
        pairs.append(PairFigures(variants[0].id, variants[k].id, rate(differ, n), mean(swings),
                                 largest(swings), swings))
    return Simulation(n, seed, sets, pairs)


def summarise_columns(variants: list, cols: Columns, seed: int) -> Simulation:
    """``summarise`` on the batch engine's columns, with numpy: the same figures from the same deals."""
    import numpy as np
    per = cols.per_rule_set
    n = int(per[0][0].size) if per else 0
    sets = []
    for k, v in enumerate(variants):
        takers, made, mult, swept, ns, ew = per[k][:6]
        played = takers >= 0
        m = int(played.sum())
        points = (ns + ew)[played].astype(np.int64)
        lengths = match_lengths(v.rules, records_of(per[k]))
        sets.append(RuleSetFigures(
            v.id, rate(n - m, n), rate(int((played & ~made).sum()), m), rate(int((played & (mult > 1)).sum()), m),
            rate(int((played & swept).sum()), m), mean_of(m, int(points.sum()), int((points * points).sum())),
            mean(lengths), lengths))
    pairs = []
    margin0 = per[0][4].astype(np.int64) - per[0][5]
    for k in range(1, len(variants)):
        swings = np.abs(margin0 - (per[k][4].astype(np.int64) - per[k][5]))
        differ = int(((per[0][4] != per[k][4]) | (per[0][5] != per[k][5])).sum())
        values = swings.tolist()
        pairs.append(PairFigures(variants[0].id, variants[k].id, rate(differ, n),
                                 mean_of(n, int(swings.sum()), int((swings * swings).sum())),
                                 largest(values), values))
    return Simulation(n, seed, sets, pairs)


def progress_bar(stream=None):
    """A progress callback drawing a bar on a terminal (stderr), or None when stderr is not one."""
    stream = stream or sys.stderr
    if not stream.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        full = width * done // max(1, total)
        stream.write(f"\r  deals [{'#' * full}{'.' * (width - full)}] {done}/{total}")
        if done >= total:
            stream.write("\n")
        stream.flush()
    return show


def simulate(variants: list, deals: int, seed: int, jobs: int = 1, progress=None, engine: str = "auto",
             note=None) -> Simulation:
    refs = [str(v.path) if v.path is not None else v.id for v in variants]
    out = _play(refs, deals, seed, jobs, progress, engine, note)
    if isinstance(out, Columns):
        return summarise_columns(variants, out, seed)
    return summarise(variants, out, seed)
