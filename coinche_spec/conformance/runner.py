"""Playing the corpus against an implementation: every fixture under every rule set.

Each (fixture, rule set) pair gets one outcome:

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

One case going wrong never stops the run by itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from ..protocol.client import Implementation, ImplementationError
from ..protocol.wire import outgoing
from .compare import Diff, compare
from .fixtures import Fixture

OUTCOMES = ("pass", "fail", "error", "timeout", "skip", "n/a", "not run")


@dataclass
class Outcome:
    fixture: Fixture
    variant: str
    outcome: str
    diffs: list = field(default_factory=list)
    message: str | None = None
    seconds: float = 0.0
    result: dict | None = None
    stderr: str | None = None  # what the implementation wrote on standard error during this case

    def to_json(self) -> dict:
        return {"fixture": self.fixture.id, "variant": self.variant, "area": self.fixture.area,
                "kind": self.fixture.kind, "outcome": self.outcome,
                "diff": [d.to_json() for d in self.diffs], "message": self.message,
                "seconds": round(self.seconds, 6), "file": self.fixture.file, "line": self.fixture.line,
                "stderr": self.stderr}


@dataclass
class Report:
    implementation: str
    variants: list
    outcomes: list = field(default_factory=list)
    seconds: float = 0.0

    def counts(self) -> dict:
        counts = {o: 0 for o in OUTCOMES}
        for o in self.outcomes:
            counts[o.outcome] += 1
        return counts

    @property
    def ok(self) -> bool:
        c = self.counts()
        return c["fail"] == 0 and c["error"] == 0 and c["timeout"] == 0 and c["not run"] == 0

    def problems(self) -> list:
        return [o for o in self.outcomes if o.outcome in ("fail", "error", "timeout")]


def _variant_document(variant_id: str) -> dict:
    from ..variants import load_variant
    return load_variant(variant_id).document


def _rules(variant_id: str):
    from ..variants import load_variant
    return load_variant(variant_id).rules


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


def run(impl: Implementation, fixtures: list[Fixture], variants: list[str],
        on_outcome: Callable[[Outcome, int, int], None] | None = None) -> Report:
    """Play every fixture under every named rule set; the implementation must already be started."""
    info = impl.info or {}
    kinds = set(info.get("kinds") or [])
    playable = info.get("variants")
    report = Report(implementation=impl.describe(), variants=list(variants))
    total = sum(1 for v in variants for f in fixtures if v in f.expect)
    started = time.monotonic()
    done = 0

    def add(outcome: Outcome) -> None:
        nonlocal done
        done += 1
        report.outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome, done, total)

    for variant in variants:
        todo = [f for f in fixtures if variant in f.expect]
        if not todo:
            continue
        # Choose the rule set: by id when the implementation lists it, else as a whole document.
        refusal: tuple[str, str] | None = None
        if playable is not None and variant not in playable:
            refusal = ("skip", f"the implementation does not play {variant}")
        elif any(f.expect[variant].applicable for f in todo):
            try:
                ref = variant if playable is not None else _variant_document(variant)
                reply = impl.configure(ref)
            except ImplementationError as exc:
                refusal = (outcome_of(exc), exc.message if exc.kind == "not run" else f"configure {variant}: {exc.message}")
            else:
                if not reply.get("ok"):
                    unsupported = reply.get("unsupported")
                    if unsupported:
                        refusal = ("skip", "unsupported rules: " + ", ".join(map(str, unsupported)))
                    else:
                        refusal = ("error", f"configure {variant} refused: {reply.get('message')}")
        for fixture in todo:
            expectation = fixture.expect[variant]
            if not expectation.applicable:
                add(Outcome(fixture, variant, "n/a", message=expectation.not_applicable))
                continue
            if refusal is not None:
                add(Outcome(fixture, variant, refusal[0], message=refusal[1]))
                continue
            if fixture.kind not in kinds:
                add(Outcome(fixture, variant, "skip", message=f"the implementation does not answer {fixture.kind}"))
                continue
            t0 = time.perf_counter()
            try:
                reply = impl.run(f"{fixture.id}@{variant}", outgoing(fixture.case, _rules(variant)))
            except ImplementationError as exc:
                add(Outcome(fixture, variant, outcome_of(exc), message=exc.message, seconds=time.perf_counter() - t0))
                continue
            seconds = time.perf_counter() - t0
            outcome, diffs, message = judge(expectation.fields, reply)
            add(Outcome(fixture, variant, outcome, diffs, message, seconds, reply.get("result")))
    report.seconds = time.monotonic() - started
    return report


def playable_count(fixtures: list[Fixture], variants: list[str]) -> int:
    """How many (fixture, rule set) pairs are real tests: those not marked not_applicable."""
    return sum(1 for v in variants for f in fixtures if v in f.expect and f.expect[v].applicable)
