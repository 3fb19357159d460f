"""What changed between two runs of one implementation: what got fixed and what newly fails.

``coinche-spec report A.jsonl B.jsonl`` sets runs side by side; when two of
them are runs of the same implementation (by its name, else its ``--impl``
spec: a new version is the same implementation), the later is read against
the earlier case by case, a case being one fixture under one rule set:

- fixed: it went wrong before (failed, errored, timed out, corpus defect)
  and passes now;
- newly failing: it passed before, or was not played then (a new fixture, a
  rule set or a kind not claimed), and goes wrong now;
- still failing, and no longer played (passed or failed before, skipped, n/a
  or absent now), are counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .records import WENT_WRONG
from .runfile import Run


@dataclass
class Change:
    fixture: str
    variant: str
    before: str          # the outcome in the earlier run ("absent": no such case)
    after: str
    title: str = ""
    file: str = ""


@dataclass
class RunChanges:
    earlier: int         # 1-based positions of the runs on the command line
    later: int
    label: str
    fixed: list = field(default_factory=list)
    newly_failing: list = field(default_factory=list)
    still_failing: int = 0
    no_longer_played: int = 0


def identity(run: Run) -> str:
    impl = run.header.get("implementation") or {}
    return str(impl.get("name") or impl.get("spec") or "coinche-spec reference engine")


def _by_case(run: Run) -> dict:
    return {(c["fixture"], c["variant"]): c for c in run.cases}


def changes(earlier: Run, later: Run, positions=(1, 2)) -> RunChanges:
    """The later run read against the earlier, case by case."""
    out = RunChanges(positions[0], positions[1], later.label)
    before = _by_case(earlier)
    for key, case in _by_case(later).items():
        was = before.get(key, {}).get("outcome", "absent")
        now = case["outcome"]
        change = Change(key[0], key[1], was, now, case.get("title") or "", case.get("file") or "")
        if was in WENT_WRONG and now == "pass":
            out.fixed.append(change)
        elif now in WENT_WRONG:
            if was in WENT_WRONG:
                out.still_failing += 1
            else:
                out.newly_failing.append(change)
    after = _by_case(later)
    out.no_longer_played = sum(1 for key, c in before.items() if c["outcome"] in ("pass",) + WENT_WRONG
                               and after.get(key, {}).get("outcome", "absent") not in ("pass",) + WENT_WRONG)
    return out


def pairs(runs: list[Run]) -> list[RunChanges]:
    """Each run read against the previous run of the same implementation on the command line."""
    out = []
    last: dict = {}
    for i, run in enumerate(runs, 1):
        who = identity(run)
        if who in last:
            j = last[who]
            out.append(changes(runs[j - 1], run, (j, i)))
        last[who] = i
    return out


def _case(c: Change) -> str:
    was = "not played" if c.before in ("absent", "skip", "n/a", "not run") else c.before
    return f"{c.fixture} [{c.variant}]: {c.after}, was {was}" + (f" ({c.title})" if c.title else "")


def lines(runs: list[Run]) -> list[str]:
    """The text section: one block per pair of runs of one implementation."""
    found = pairs(runs)
    if not found:
        return []
    out = []
    for rc in found:
        out += ["", f"From run {rc.earlier} to run {rc.later} ({rc.label}): {len(rc.fixed)} fixed, "
                    f"{len(rc.newly_failing)} newly failing, {rc.still_failing} still failing"
                    + (f", {rc.no_longer_played} no longer played" if rc.no_longer_played else "")]
        if rc.fixed:
            out.append("  fixed:")
            out += [f"    {_case(c)}" for c in rc.fixed]
        if rc.newly_failing:
            out.append("  newly failing:")
            out += [f"    {_case(c)}" for c in rc.newly_failing]
    return out
