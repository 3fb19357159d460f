"""Differential fuzzing: random legal deals, played by an implementation and by the reference engine.

Deal ``k`` of seed ``S`` is drawn from its own ``random.Random`` (named by
``S`` and ``k``), so any slice of the seed range can be played anywhere and
gives the same cases: ``--shard 3/8`` of 800 deals is deals 200 to 299,
whatever machine or number of jobs plays it. Each deal is cut into protocol
cases (``fuzz_cases``); the engine answers each case as ``coinche-spec
serve`` would, the implementation answers it over the protocol, and the
fields the protocol defines are compared as the runner compares them.

A divergence is named by its case kind and the first field that differs
(``score/score``, ``legal_cards/legal``): the first deal showing it, in
seed order, is kept and later shrunk (``shrink``) and written as a fixture
(``fixture_writer``). Keeping the first in seed order makes the outcome the
same with one job or eight.
"""

from __future__ import annotations

import json
import multiprocessing
import queue as queue_mod
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import CoincheSpecError
from ..protocol.cases import CaseError, run_case
from ..protocol.client import Implementation, ImplementationError
from .compare import compare
from .fixtures import EXPECT_FIELDS
from .fuzz_cases import KINDS
from .fuzz_causes import Cause, deal_cause, part_ways
from .fuzz_deals import BatchDisagrees, PerDeal, deal_rng, deal_source

# After this many cases in a row without a proper reply, the implementation is taken for dead.
DEAD_AFTER = 5

# The rules each compared field can depend on, by kind: a generous superset (a whole group where
# one of its rules may matter), so that an expectation carried by these paths is never carried
# to a rule set that would answer otherwise. auction.strains decides whether a tout atout or sans
# atout case may be asked at all.
_PLAY = ["table.direction", "auction", "play", "card_values"]
FIELD_RULES: dict[str, dict[str, list[str]]] = {
    "dealing": {"hands": ["table.direction", "deal"], "rejected": ["table.direction", "deal"],
                "before_auction": ["table.direction", "deal"]},
    "auction": {f: ["table.direction", "auction"] for f in EXPECT_FIELDS["auction"]},
    "legal_cards": {"legal": ["auction.strains", "play", "card_values"]},
    "deal": {"accepted": _PLAY, "contract": _PLAY, "tricks": _PLAY, "tricks_won": _PLAY,
             "legal_next": _PLAY, "card_points": _PLAY,
             "melds": _PLAY + ["melds", "belote"], "belote": _PLAY + ["melds", "belote"],
             "made": _PLAY + ["melds", "belote", "contract", "scoring"],
             "score": _PLAY + ["melds", "belote", "contract", "scoring"]},
    "score": {f: ["auction", "card_values", "melds", "belote", "contract", "scoring"]
              for f in EXPECT_FIELDS["score"]},
    "melds": {f: ["auction.strains", "table.direction", "melds", "belote"] for f in EXPECT_FIELDS["melds"]},
}

NO_REPLY = "(no result)"   # the field name of a divergence where the implementation gave no result


class FuzzAbort(CoincheSpecError):
    """The run cannot go on (the implementation is gone); printed as one line, exit status 2."""


def depends_on(kind: str, fields) -> list[str]:
    """The rule paths the given fields of a case of ``kind`` may depend on, sorted, none covered twice."""
    paths = sorted({p for f in fields for p in FIELD_RULES[kind].get(f, sum(FIELD_RULES[kind].values(), []))})
    return [p for p in paths if not any(p.startswith(q + ".") for q in paths)]


def shard_range(deals: int, shard: tuple[int, int]) -> range:
    """The deal indices of shard ``(i, n)``: the i-th of n nearly equal slices of range(deals)."""
    i, n = shard
    return range((i - 1) * deals // n, i * deals // n)


def split(indices: range, parts: int) -> list[range]:
    """``indices`` cut into ``parts`` consecutive slices (some empty when there are few)."""
    n = len(indices)
    return [indices[j * n // parts:(j + 1) * n // parts] for j in range(parts)]


# --- one case -------------------------------------------------------------------

def reference(rules, case: dict) -> dict | None:
    """The engine's answer as ``serve`` would send it, or None where the engine would not answer."""
    from ..engine.errors import EngineError
    try:
        result = run_case(rules, case)
    except (CaseError, EngineError):
        return None
    return json.loads(json.dumps(result))


def compared_fields(kind: str, result: dict) -> dict:
    """The fields of an engine result that the protocol defines (the engine's extensions left out)."""
    out = {k: result[k] for k in EXPECT_FIELDS[kind] if k in result}
    if kind == "melds" and not out.get("invalid"):
        out.pop("invalid", None)   # an implementation need not list "invalid" when nothing is invalid
    return out


def top_field(path: str) -> str:
    """'tricks[3].winner' -> 'tricks'; 'score.NS' -> 'score'."""
    for i, ch in enumerate(path):
        if ch in ".[":
            return path[:i]
    return path


@dataclass
class Verdict:
    """One case judged: the fields that differ (empty: agreed), or the implementation's non-answer."""

    fields: list          # top-level fields that differ, in the expectation's order, or [NO_REPLY]
    diffs: list           # compare.Diff for each differing leaf
    answer: Any           # the implementation's result, or its skip/error/failure message
    skipped: bool = False


def judge(impl: Implementation, seq: Any, case: dict, expected: dict) -> Verdict:
    """Ask the implementation and compare its answer with the engine's ``expected`` fields."""
    try:
        reply = impl.run(seq, case)
    except ImplementationError as exc:
        reply = exc
    return verdict(reply, expected)


def verdict(reply: Any, expected: dict) -> Verdict:
    """A reply (or the ImplementationError in its place) against the engine's ``expected`` fields."""
    if isinstance(reply, ImplementationError):
        return Verdict([NO_REPLY], [], f"{reply.kind}: {reply.message}")
    if "result" not in reply:
        if reply.get("skipped"):
            return Verdict([], [], str(reply.get("reason") or "skipped"), skipped=True)
        return Verdict([NO_REPLY], [], f"errored: {reply.get('message')}")
    diffs = compare(expected, reply["result"])
    order = list(expected)
    fields = sorted({top_field(d.field) for d in diffs}, key=order.index)
    return Verdict(fields, diffs, reply["result"])


# --- many deals -------------------------------------------------------------------

@dataclass
class Divergence:
    """The first case (in seed order) that showed one kind of disagreement."""

    kind: str
    field: str
    index: int            # the deal
    number: int           # the case within the deal
    case: dict
    expected: dict        # the engine's compared fields
    answer: Any
    diffs: list

    @property
    def key(self) -> str:
        return f"{self.kind}/{self.field}"

    def order(self) -> tuple:
        return (self.index, self.number)


@dataclass
class Tally:
    """What a slice of deals gave: counts, and the first divergence of each key."""

    deals: int = 0
    cases: int = 0
    skipped: int = 0
    divergent_cases: int = 0
    divergent_deals: int = 0
    by_kind: dict = field(default_factory=dict)
    first: dict = field(default_factory=dict)     # key -> Divergence
    causes: dict = field(default_factory=dict)    # cause key -> fuzz_causes.Cause: each divergent deal once
    silent: int = 0      # cases in a row the implementation gave no proper reply to (not merged)

    def merge(self, other: "Tally") -> None:
        self.deals += other.deals
        self.cases += other.cases
        self.skipped += other.skipped
        self.divergent_cases += other.divergent_cases
        self.divergent_deals += other.divergent_deals
        for kind, n in other.by_kind.items():
            self.by_kind[kind] = self.by_kind.get(kind, 0) + n
        for key, d in other.first.items():
            if key not in self.first or d.order() < self.first[key].order():
                self.first[key] = d
        for key, c in other.causes.items():
            if key in self.causes:
                self.causes[key].merge(c)
            else:
                self.causes[key] = Cause(c.key, c.deals, c.first, set(c.fields))

    def divergences(self) -> list:
        return sorted(self.first.values(), key=Divergence.order)


def play_deal(impl: Implementation, rules, seed: int, index: int, kinds, tally: Tally, source=None) -> None:
    """Deal ``index``: every case to the implementation at once, the engine answering them meanwhile.

    ``source`` proposes the deal (fuzz_deals: the per-deal random player when None, or the batch
    engine); the engine answers every case either way."""
    cases = (source or PerDeal(rules, seed)).cases(index, kinds)
    answers: list = []
    replies = impl.run_many([(f"fuzz-{seed}-{index}-{n}", case) for n, case in enumerate(cases)],
                            lambda: answers.extend(reference(rules, case) for case in cases))
    divergent: list = []     # (where the case parts ways, its Divergence)
    shown: set = set()       # every kind/field the deal's cases differ in
    for number, (case, result, reply) in enumerate(zip(cases, answers, replies)):
        if result is None:   # a case the engine would refuse is not judged
            continue
        expected = compared_fields(case["kind"], result)
        judged = verdict(reply, expected)
        tally.cases += 1
        tally.by_kind[case["kind"]] = tally.by_kind.get(case["kind"], 0) + 1
        if judged.skipped:
            tally.skipped += 1
            continue
        tally.silent = tally.silent + 1 if judged.fields == [NO_REPLY] else 0
        if tally.silent >= DEAD_AFTER:
            raise FuzzAbort(f"the implementation gave no answer to {DEAD_AFTER} cases in a row; "
                            f"last: {judged.answer}")
        if not judged.fields:
            continue
        tally.divergent_cases += 1
        for f in judged.fields:
            key = f"{case['kind']}/{f}"
            shown.add(key)
            if key not in tally.first:
                tally.first[key] = Divergence(case["kind"], f, index, number, case, expected, judged.answer,
                                              judged.diffs)
        divergent.append((part_ways(case, judged.fields, judged.diffs),
                          Divergence(case["kind"], judged.fields[0], index, number, case, expected, judged.answer,
                                     judged.diffs)))
    tally.deals += 1
    if divergent:
        tally.divergent_deals += 1
        key, earliest = deal_cause(divergent)
        cause = tally.causes.get(key)
        if cause is None:
            tally.causes[key] = Cause(key, 1, earliest, shown)
        else:
            cause.deals += 1
            cause.fields |= shown


def play_range(impl: Implementation, rules, seed: int, indices, kinds,
               on_deal: Callable[[Tally], None] | None = None, generator: str = "deal", source=None,
               tally: Tally | None = None, stop: Callable[[], bool] | None = None) -> Tally:
    """Play the deals ``indices`` in order on one implementation already started and configured,
    the deals from ``generator`` ("deal" or "batch", fuzz_deals) or from ``source`` when given.

    Into ``tally`` when given (so a caller stopped half-way keeps what was played); no new deal is
    started once ``stop()`` says so (a time budget spent), the first deal always played."""
    tally = tally if tally is not None else Tally()
    source = source or deal_source(generator, rules, seed)
    for n, index in enumerate(indices):
        if n and stop is not None and stop():
            break
        play_deal(impl, rules, seed, index, kinds, tally, source)
        if on_deal is not None:
            on_deal(tally)
    return tally


# --- local jobs -------------------------------------------------------------------

@dataclass
class Setup:
    """What a job needs to play its slice on its own: everything picklable."""

    command: str
    timeout: float
    variant: str               # an id or an absolute file path: the engine's rule set
    configure: Any             # what the implementation is configured with: an id or the document
    seed: int
    kinds: tuple
    generator: str = "deal"    # where the deals come from: "deal" or "batch" (fuzz_deals)


def start_implementation(command: str, timeout: float) -> Implementation:
    """Open what ``--impl`` names (a command line, an adapter such as ``colver``, python:MODULE:FACTORY),
    start it and check its start reply; FuzzAbort saying why when it cannot start."""
    from ..protocol.impls import SpecError, open_implementation
    try:
        impl = open_implementation(command, timeout)
    except SpecError as exc:
        raise FuzzAbort(f"--impl: {exc}") from None
    try:
        impl.start()
    except ImplementationError as exc:
        impl.stop()
        raise FuzzAbort(f"--impl \"{command}\" did not start: {exc.message.removeprefix('the implementation ')}") \
            from None
    return impl


def configure_implementation(impl: Implementation, ref: Any, command: str) -> None:
    """Give the implementation the rule set; FuzzAbort saying why when it refuses it."""
    try:
        reply = impl.configure(ref)
    except ImplementationError as exc:
        impl.stop()
        raise FuzzAbort(f"--impl \"{command}\" did not take the rule set: {exc.message}") from None
    if not reply.get("ok"):
        impl.stop()
        unsupported = reply.get("unsupported")
        why = ("it does not play " + ", ".join(map(str, unsupported))) if unsupported else reply.get("message")
        raise FuzzAbort(f"--impl \"{command}\" refused the rule set: {why}")


def open_configured(setup: Setup) -> Implementation:
    """The implementation started and configured, ready for cases."""
    impl = start_implementation(setup.command, setup.timeout)
    configure_implementation(impl, setup.configure, setup.command)
    return impl


CHUNK = 5   # deals a job takes from the common pile at a time


class Pile:
    """The deals still to play, taken a chunk at a time by the jobs: a counter shared between processes,
    so that a pile of a billion deals costs nothing to lay out."""

    def __init__(self, context, indices: range, size: int = CHUNK):
        self.first, self.stop, self.size = indices.start, indices.stop, size
        self.next = context.Value("q", indices.start)

    def get(self) -> tuple | None:
        """The next chunk (first deal, deal after the last), or None when every deal is taken."""
        with self.next.get_lock():
            start = self.next.value
            if start >= self.stop:
                return None
            self.next.value = min(start + self.size, self.stop)
            return start, self.next.value


def _job(setup: Setup, tasks, out, stop=None) -> None:
    """One local process: its own implementation, chunks from the pile, one tally per deal on ``out``
    (so a run stopped half-way loses no deal a job finished), then ``done``.

    Takes no new deal once the ``stop`` event is set (the time budget is spent, the runner got a
    signal). Stopped with SIGTERM once every deal is played (it may still be starting): it then stops
    its implementation on the way out."""
    import signal
    import sys
    from ..protocol import children
    if multiprocessing.parent_process() is not None:   # a job process, not a caller of _job itself
        children.die_with_parent()   # a runner killed outright still takes its jobs with it

        def ended(*_) -> None:
            children.end_all()       # its implementation, and whatever that started, first
            sys.exit(0)
        signal.signal(signal.SIGTERM, ended)
        signal.signal(signal.SIGINT, ended)
    from ..variants import load_variant
    stopped = (lambda: stop.is_set()) if stop is not None else (lambda: False)
    try:
        rules = load_variant(setup.variant).rules
        source = deal_source(setup.generator, rules, setup.seed)
        impl = open_configured(setup)
        try:
            while not stopped():
                task = tasks.get()
                if task is None:
                    break
                for index in range(*task):
                    if stopped():
                        break
                    one = Tally()
                    play_deal(impl, rules, setup.seed, index, setup.kinds, one, source)
                    out.put(("deal", one, None))
        finally:
            impl.stop()
        out.put(("done", None, None))
    except BatchDisagrees as exc:
        out.put(("batch", None, str(exc)))
    except FuzzAbort as exc:
        out.put(("error", None, str(exc)))
    except Exception as exc:  # noqa: BLE001 - reported by the parent, never a silent death
        out.put(("error", None, f"a fuzz job failed: {type(exc).__name__}: {exc}"))


def play_jobs(setup: Setup, indices: range, jobs: int, on_progress: Callable[[int, int], None] | None = None,
              impl: Implementation | None = None, rules=None, on_deal: Callable[[Tally], None] | None = None,
              total: Tally | None = None, stop: Callable[[], bool] | None = None) -> Tally:
    """Play ``indices`` in ``jobs`` local jobs, each with its own implementation process.

    The deals wait in a common pile, in chunks: a job takes the next chunk when it is ready, so a
    job that starts late plays less, and one still starting when the pile is played is stopped.
    With ``impl`` (started and configured) and ``rules``, this process is one of the jobs, so
    ``jobs`` jobs start ``jobs - 1`` new processes. Which job plays a deal changes nothing in the
    outcome: counts add up, and the first divergence in seed order wins.

    Each deal a job plays reaches ``total`` (given, so that a caller stopped half-way keeps it) as
    soon as it is played, and ``on_deal(total)`` is called. Once ``stop()`` says so, no job starts a
    new deal; the jobs finish the deal in hand and the run ends with what was played."""
    context = multiprocessing.get_context("spawn")
    tasks, out = Pile(context, indices), context.Queue()
    halt = context.Event()
    spawned = jobs - 1 if impl is not None else jobs
    procs = [context.Process(target=_job, args=(setup, tasks, out, halt), daemon=True) for _ in range(spawned)]
    for p in procs:
        p.start()
    total = total if total is not None else Tally()
    errors: list = []
    finished = [0]   # spawned jobs that said "done"
    source = deal_source(setup.generator, rules, setup.seed) if impl is not None else None

    def stopping() -> bool:
        if stop is not None and stop():
            halt.set()
        return halt.is_set()

    def take(message) -> None:
        what, tally, error = message
        if what == "deal":
            total.merge(tally)
            if on_deal is not None:
                on_deal(total)
        elif what == "done":
            finished[0] += 1
        else:
            errors.append(BatchDisagrees(error) if what == "batch" else FuzzAbort(error))

    def drain() -> None:
        while True:
            try:
                take(out.get_nowait())
            except queue_mod.Empty:
                return

    def report() -> None:
        if on_progress is not None:
            on_progress(total.deals, total.divergent_cases)

    try:
        # this process's own share, reading the others' between deals; its first deal always played
        while impl is not None and not (total.deals and stopping()):
            task = tasks.get()
            if task is None:
                break
            for index in range(*task):
                if total.deals and stopping():
                    break
                one = Tally()
                play_deal(impl, rules, setup.seed, index, setup.kinds, one, source)
                take(("deal", one, None))
                drain()
                report()
        while total.deals < len(indices) and not errors and finished[0] < len(procs):
            stopping()
            try:
                take(out.get(timeout=0.2))
            except queue_mod.Empty:
                if not any(p.is_alive() for p in procs):
                    drain()
                    if finished[0] < len(procs) and total.deals < len(indices) and not halt.is_set():
                        errors.append(FuzzAbort("a fuzz job ended without a word"))
                    break
                continue
            report()
        drain()
    finally:
        halt.set()
        for p in procs:
            p.join(timeout=0.5 if finished[0] >= len(procs) else 0)
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():   # pragma: no cover - a job that ignores SIGTERM
                p.kill()
    if errors:
        raise errors[0]
    return total


# --- shrinking one divergence --------------------------------------------------------

@dataclass
class Shrunk:
    divergence: Divergence    # the shrunk case, its expectation and the implementation's answer
    tries: int
    fields: list              # every field that differs in the shrunk case


def shrink_divergence(impl: Implementation, rules, d: Divergence, budget: int = 400) -> Shrunk:
    """The smallest case the shrinker finds that still shows ``d``'s disagreement."""
    from .shrink import shrink

    def diverges(case: dict) -> bool:
        result = reference(rules, case)
        if result is None:
            return False
        verdict = judge(impl, "fuzz-shrink", case, compared_fields(case["kind"], result))
        return d.field in verdict.fields

    case, tries = shrink(rules, d.case, diverges, budget)
    expected = compared_fields(case["kind"], reference(rules, case))
    verdict = judge(impl, "fuzz-shrunk", case, expected)
    fields = verdict.fields if d.field in verdict.fields else [d.field] + verdict.fields
    small = Divergence(d.kind, d.field, d.index, d.number, case, expected, verdict.answer, verdict.diffs)
    return Shrunk(small, tries, fields)


def summary(tally: Tally, seconds: float, **extra) -> dict:
    """The JSON summary line's fields."""
    out = {"deals": tally.deals, "divergences": len(tally.first), "causes": len(tally.causes),
           "deals_per_second": round(tally.deals / seconds, 2) if seconds > 0 else None,
           "divergent_deals": tally.divergent_deals, "divergent_cases": tally.divergent_cases,
           "cases": tally.cases, "cases_by_kind": dict(sorted(tally.by_kind.items())),
           "skipped": tally.skipped, "seconds": round(seconds, 3),
           "keys": [d.key for d in tally.divergences()]}
    out.update(extra)
    return out


__all__ = ["KINDS", "Divergence", "Tally", "Setup", "FuzzAbort", "BatchDisagrees", "deal_rng", "play_range",
           "play_jobs", "shard_range", "shrink_divergence", "depends_on", "summary", "open_configured", "start_implementation",
           "configure_implementation"]
