"""Playing the corpus against an implementation: every fixture under every rule set.

Each (fixture, rule set) pair gets an expectation from one of three places
(carry.py): written for that rule set (``hand``), carried from a rule set with
the same values at every rule the fixture depends on (``carried``), or, when
neither exists, the reference engine's own answer under that rule set
(``engine``; never when the implementation under test is the reference
engine, which would only be compared with itself). Then one outcome:

- ``pass``    the result has every expected field, equal;
- ``fail``    a field differs or is missing (the diffs say which);
- ``error``   the implementation answered ``errored``, or said something that is
  not a reply, or died; or it refused the rule set;
- ``timeout`` no reply in time;
- ``skip``    the implementation does not play this kind of case or this rule
  set (it said so), or it skipped the case;
- ``n/a``     the fixture says the case cannot be played under this rule set;
- ``not run`` the run was stopped before this case (``limits``: ``--max-fail``,
  ``-x``, or an implementation given up after ``--max-restarts``).
- ``defect``  the expectation would be carried, but the reference engine
  answers the two rule sets differently: the fixture's depends_on is
  incomplete. A fault of the corpus, not of the implementation.

One case going wrong never stops the run by itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from ..protocol.client import Implementation, ImplementationError
from ..protocol.server import IMPLEMENTATION
from .carry import CarryCheck, Source, find
from ..protocol.wire import outgoing
from .compare import Diff, compare
from .fixtures import Fixture
from .verdicts import engine_source

OUTCOMES = ("pass", "fail", "error", "timeout", "skip", "n/a", "not run", "defect")
SOURCES = ("hand", "carried", "engine")


@dataclass
class Outcome:
    fixture: Fixture
    variant: str
    outcome: str
    diffs: list = field(default_factory=list)
    message: str | None = None
    seconds: float = 0.0
    result: dict | None = None
    expected_by: str = "hand"
    carried_from: str | None = None
    stderr: str | None = None  # what the implementation wrote on standard error during this case
    through: str | None = None  # "deal": a score fixture posed as its realised whole deal (realised.py)
    sent: dict | None = None    # the case sent, when it is not the fixture's own (a realised deal)

    def to_json(self) -> dict:
        return {"fixture": self.fixture.id, "variant": self.variant, "area": self.fixture.area,
                "kind": self.fixture.kind, "outcome": self.outcome, "expected_by": self.expected_by,
                "carried_from": self.carried_from,
                "diff": [d.to_json() for d in self.diffs], "message": self.message,
                "seconds": round(self.seconds, 6), "file": self.fixture.file, "line": self.fixture.line,
                "stderr": self.stderr, **({"through": self.through} if self.through else {})}


@dataclass
class Report:
    implementation: str
    variants: list
    outcomes: list = field(default_factory=list)
    seconds: float = 0.0
    notes: list = field(default_factory=list)  # what was not run, and why
    unjudged: int = 0  # cases no expectation covered and no engine verdict was asked for
    refused: dict = field(default_factory=dict)  # rule set id -> why the implementation would not play it
    header: dict | None = None  # what was run, on what, when (records.header), for the results file

    def counts(self) -> dict:
        counts = {o: 0 for o in OUTCOMES}
        for o in self.outcomes:
            counts[o.outcome] += 1
        return counts

    def counts_by_source(self) -> dict:
        """expected_by -> {"pass": n, "fail": n}: the three kinds of verdict, never mixed."""
        out = {s: {"pass": 0, "fail": 0} for s in SOURCES}
        for o in self.outcomes:
            if o.outcome in ("pass", "fail"):
                out[o.expected_by][o.outcome] += 1
        return out

    @property
    def ok(self) -> bool:
        c = self.counts()
        return all(c[k] == 0 for k in ("fail", "error", "timeout", "not run", "defect"))

    def problems(self) -> list:
        return [o for o in self.outcomes if o.outcome in ("fail", "error", "timeout", "defect")]


def is_reference(impl: Implementation) -> bool:
    """Whether the implementation under test is our own engine (in-process or ``coinche-spec serve``),
    by the name its start reply gives."""
    info = (impl.info or {}).get("implementation")
    return isinstance(info, dict) and info.get("name") == IMPLEMENTATION["name"]


def outcome_of(exc: ImplementationError) -> str:
    if exc.kind == "protocol":   # --check-protocol: a reply that breaks the schema (protocol.wire)
        return "fail"
    return exc.kind if exc.kind in ("timeout", "not run") else "error"


def judge(expected: dict, reply: dict) -> tuple[str, list[Diff], str | None]:
    """The outcome of one reply against one expectation."""
    if "result" in reply:
        diffs = compare(expected, reply["result"])
        return ("fail" if diffs else "pass"), diffs, None
    if reply.get("skipped"):
        return "skip", [], str(reply.get("reason") or "skipped by the implementation")
    return "error", [], str(reply.get("message") or "errored")


def _refusal(impl: Implementation, variant, playable) -> tuple[str, str] | None:
    """Configure the rule set: by id when the implementation lists it, else as a whole document."""
    if playable is not None and variant.id not in playable:
        return ("skip", f"the implementation does not play {variant.id}")
    try:
        reply = impl.configure(variant.id if playable is not None else variant.document)
    except ImplementationError as exc:
        return (outcome_of(exc), exc.message if exc.kind == "not run" else f"configure {variant.id}: {exc.message}")
    if reply.get("ok"):
        return None
    unsupported = reply.get("unsupported")
    if unsupported:
        return ("skip", "unsupported rules: " + ", ".join(map(str, unsupported)))
    return ("error", f"configure {variant.id} refused: {reply.get('message')}")


def plan(fixtures: list[Fixture], variant, engine_verdicts: bool) -> list[tuple[Fixture, Source | None]]:
    """The cases to play under one rule set, each with the expectation that answers for it (None:
    an engine verdict is wanted)."""
    out = []
    for f in fixtures:
        source = find(f, variant)
        if source is not None or engine_verdicts:
            out.append((f, source))
    return out


# the fixture kinds realised deals pose, and the kind an implementation must answer for that
POSED_THROUGH = {"score": "deal", "melds": "deal", "match": "played_match"}


def through_deal(fixture: Fixture, variant, kinds: set, store) -> dict | None:
    """The whole ``deal`` case that poses a score (or melds) fixture to an implementation answering
    deals but not that kind, or the ``played_match`` case (whole deals) that poses a match fixture to
    one answering that extension but not ``match``: stored deals that realise the fixture's case under
    ``variant`` (None: none)."""
    needs = POSED_THROUGH.get(fixture.kind)
    if needs is None or fixture.kind in kinds or needs not in kinds:
        return None
    deal = store().deal_for(fixture, variant)
    return deal.case() if deal is not None else None


def deal_fields(kind: str, fields: dict) -> dict | None:
    """The expectation a realised deal's reply is judged on: a score fixture's own fields (a deal reply
    has them all); a melds fixture's ``points`` as the deal's ``melds`` (a deal reply says neither the
    comparison's winner nor the invalid declarations). None: nothing a deal reply shows."""
    if kind == "melds":
        return {"melds": fields["points"]} if "points" in fields else None
    return fields


def run(impl: Implementation, fixtures: list[Fixture], variants: list,
        on_outcome: Callable[[Outcome, int, int], None] | None = None,
        engine_verdicts: bool = True, realised=None) -> Report:
    """Play every fixture under every rule set (loaded Variants); the implementation must already be
    started.

    An implementation that answers ``deal`` but not ``score`` is judged on each score fixture through
    the whole deal that realises its summary (``realised``: a realised.Store; by default the shipped
    one, read when first needed), on the fixture's own expectation, marked ``through: deal``."""
    info = impl.info or {}
    kinds = set(info.get("kinds") or [])
    playable = info.get("variants")
    report = Report(implementation=impl.describe(), variants=[v.id for v in variants])
    if engine_verdicts and is_reference(impl):
        engine_verdicts = False
        report.notes.append("engine verdicts not run: the implementation under test is the reference engine "
                            "itself, so they would compare it with itself")
    elif not engine_verdicts:
        report.notes.append("engine verdicts not run (--no-engine-verdicts)")
    plans = {v.id: plan(fixtures, v, engine_verdicts) for v in variants}
    report.unjudged = sum(1 for v in variants for f in fixtures if find(f, v) is None) if not engine_verdicts else 0
    total = sum(len(p) for p in plans.values())
    carry = CarryCheck()
    stores = [realised]

    def store():
        if stores[0] is None:
            from .realised import load_store
            stores[0] = load_store()
        return stores[0]

    started = time.monotonic()
    done = 0

    def add(outcome: Outcome) -> None:
        nonlocal done
        done += 1
        report.outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome, done, total)

    for variant in variants:
        todo = []
        for fixture, source in plans[variant.id]:
            if source is None:
                source = engine_source(fixture, variant)
            todo.append((fixture, source))
        refusal = None
        if any(s.expectation.applicable for _, s in todo):
            refusal = _refusal(impl, variant, playable)
            if refusal is not None:
                report.refused[variant.id] = refusal[1]
        steps = []   # (fixture, source, the outcome it gets without being run or None, the case sent, through)
        for fixture, source in todo:
            expectation = source.expectation
            if not expectation.applicable:
                steps.append((fixture, source, ("n/a", expectation.not_applicable), None, None))
                continue
            defect = carry.defect(fixture, variant, source)
            if defect is not None:
                steps.append((fixture, source, ("defect", defect), None, None))
            elif refusal is not None:
                steps.append((fixture, source, refusal, None, None))
            elif fixture.kind not in kinds:
                posed = through_deal(fixture, variant, kinds, store)
                if posed is not None and deal_fields(fixture.kind, expectation.fields) is not None:
                    steps.append((fixture, source, None, posed, "deal"))
                else:
                    why = f"the implementation does not answer {fixture.kind}"
                    if POSED_THROUGH.get(fixture.kind) in kinds:
                        why += f" (and no realised deal poses this fixture under {variant.id})"
                    steps.append((fixture, source, ("skip", why), None, None))
            else:
                steps.append((fixture, source, None, fixture.case, None))
        to_run = [(f"{f.id}@{variant.id}", case) for f, _, ready, case, _ in steps if ready is None]
        following = dict(zip((seq for seq, _ in to_run), to_run[1:]))
        for fixture, source, ready, case, through in steps:
            def outcome(kind, diffs=(), message=None, seconds=0.0, result=None):
                return Outcome(fixture, variant.id, kind, list(diffs), message, seconds, result,
                               source.expected_by, source.carried_from, through=through,
                               sent=case if through else None)
            if ready is not None:
                add(outcome(ready[0], message=ready[1]))
                continue
            seq = f"{fixture.id}@{variant.id}"
            after = following.get(seq)
            if after is not None:   # sent ahead: an implementation answering out of order is caught at once
                impl.queue_next(after[0], outgoing(after[1], variant.rules))
            t0 = time.perf_counter()
            try:
                reply = impl.run(seq, outgoing(case, variant.rules))
            except ImplementationError as exc:
                add(outcome(outcome_of(exc), message=exc.message, seconds=time.perf_counter() - t0))
                continue
            seconds = time.perf_counter() - t0
            expected = source.expectation.fields if through is None else deal_fields(fixture.kind,
                                                                                      source.expectation.fields)
            verdict, diffs, message = judge(expected, reply)
            add(outcome(verdict, diffs, message, seconds, reply.get("result")))
    report.seconds = time.monotonic() - started
    for kind, needs in POSED_THROUGH.items():
        posed = sum(o.through == "deal" and o.fixture.kind == kind and o.outcome not in ("skip", "not run")
                    for o in report.outcomes)
        if posed:
            report.notes.append(
                f"{posed} {kind} {'case was' if posed == 1 else 'cases were'} posed as realised whole deals (the "
                f"implementation answers {needs}, not {kind}) and judged on the fixtures' own expectations"
                + (" (the meld points, as the deal's melds)" if kind == "melds" else ""))
    report.notes.extend(given_up_notes(impl, report))
    return report


def given_up_notes(impl: Implementation, report: Report) -> list[str]:
    """Why cases were not run: the kinds the implementation was given up for, or the whole of it."""
    not_run = [o for o in report.outcomes if o.outcome == "not run"]
    notes = []
    for kind, why in getattr(impl, "kinds_given_up", {}).items():
        n = sum(o.fixture.kind == kind for o in not_run)
        notes.append(f"{kind} given up: {why} ({n} {'case' if n == 1 else 'cases'} not run)")
    if impl.gave_up is not None:
        n = sum(o.message == f"not run: {impl.gave_up}" for o in not_run)
        notes.append(f"stopped: {impl.gave_up} ({n} {'case' if n == 1 else 'cases'} not run)")
    return notes


def playable_count(fixtures: list[Fixture], variants: list, engine_verdicts: bool = True) -> int:
    """How many (fixture, rule set) pairs may be real tests: an applicable expectation, or an engine
    verdict to come."""
    count = 0
    for v in variants:
        for f in fixtures:
            source = find(f, v)
            count += (source.expectation.applicable if source is not None else engine_verdicts)
    return count
