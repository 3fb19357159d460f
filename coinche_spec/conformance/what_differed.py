"""Cases that went wrong, grouped by what differed, with the rules the evidence points at.

A bug shows in the field it breaks: a capot scored wrong changes the
takers' score, a belote given to the wrong side the defenders'. Grouping
failures by the rules their fixtures depend on spreads one bug over a dozen
groups (every score fixture depends on the card values and the rounding).
So a case that went wrong is filed under the first field that differed, named in
the game's words: ``score.takers`` rather than ``score.NS``, ``tricks.winner``
rather than ``tricks[3].winner``, ``legal_cards`` for the legal cards of a
``legal_cards`` case and a deal's ``legal_next`` alike, ``auction.contract``
for an auction's or a deal's contract. A case with no answer to compare is
filed under its outcome (``no answer (error)``).

The likely rules of a group come from simple evidence (docs/reports.md): a
rule is counted for each failing case of the group whose fixture names it
(``depends_on`` or ``exercises``, or a rule below it: ``belote.placement``
for ``belote.placement.failed.defenders``) and against it for each passing
case of the same kinds whose fixture names it too. A rule every score fixture names is
named by as many passing cases, and drops out; the rule of the bug is named
by the failing cases and few passing ones. The evidence of a rule is
``failing - passing``; those above zero are named, the strongest first.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Callable

WENT_WRONG = ("fail", "error", "timeout", "defect")   # as records.WENT_WRONG
TEAMS = ("NS", "EW")
SHOWN_RULES = 3     # likely rules named per group, at most


def takers(case: dict | None) -> str | None:
    """The takers' team of a case, where it says: a score's contract, a deal's last bid."""
    if not isinstance(case, dict):
        return None
    contract = case.get("contract")
    if isinstance(contract, dict) and contract.get("declarer") in ("N", "S", "E", "W"):
        return "NS" if contract["declarer"] in "NS" else "EW"
    for call in reversed(case.get("calls") or []):
        if isinstance(call, dict) and str(call.get("call")) not in ("pass", "coinche", "surcoinche"):
            seat = call.get("seat")
            return ("NS" if seat in ("N", "S") else "EW") if seat in ("N", "S", "E", "W") else None
    return None


def field_name(kind: str, path: str, taker_team: str | None = None) -> str:
    """A differing field in the game's words: ``score.NS`` of a deal whose takers are NS -> ``score.takers``."""
    parts = re.sub(r"\[\d+\]", "", path).split(".")
    top = parts[0]
    if kind == "legal_cards" or (kind == "deal" and top == "legal_next"):
        return "legal_cards"
    if kind in ("auction", "dealing", "melds", "match", "perft") and top != kind:
        parts = [kind] + parts
    elif kind == "deal" and top == "contract":
        parts = ["auction"] + parts
    elif kind == "deal" and top == "accepted":
        parts = ["deal"] + parts
    if taker_team is not None:
        parts = [("takers" if p == taker_team else "defenders") if p in TEAMS else p for p in parts]
    return ".".join(parts)


def differed(record: dict) -> str:
    """The group of a case record that went wrong: the first field that differed (in the expectation's
    order: a contract judged made wrongly is filed under ``made``, not under the score that follows), or
    its outcome when there is no answer to compare."""
    diffs = record.get("diff") or []
    if not diffs:
        return f"no answer ({record.get('outcome')})"
    return field_name(record.get("kind") or "", diffs[0].get("field") or "", takers(record.get("case")))


@dataclass
class Rule:
    """One rule's evidence in a group: failing cases naming it, passing cases of those kinds naming it."""

    rule: str
    failing: int
    passing: int

    @property
    def evidence(self) -> int:
        return self.failing - self.passing

    def text(self, of: int) -> str:
        return f"{self.rule} ({self.failing} of {of} failing, {self.passing} passing)"


@dataclass
class Group:
    name: str
    cases: list                  # the items given (records or outcomes), in their order
    kinds: list = field(default_factory=list)
    likely: list = field(default_factory=list)   # Rule, the strongest first

    @property
    def evidence(self) -> int:
        return self.likely[0].evidence if self.likely else 0


def _rules_of(record: dict) -> set:
    """The rules a fixture names (depends_on, exercises) and the groups above them: a case naming
    ``belote.placement.failed.defenders`` is evidence about ``belote.placement`` too."""
    out = set()
    for rule in set(record.get("rules") or ()) | set(record.get("exercises") or ()):
        parts = str(rule).split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return out


def _related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def _strongest(rules: list) -> list:
    """The rules with evidence, the strongest first, leaving out one that only repeats a stronger one
    above or below it in the rule tree."""
    out: list = []
    for x in sorted((x for x in rules if x.evidence > 0), key=lambda x: (-x.evidence, -x.failing, x.rule)):
        if not any(_related(x.rule, y.rule) for y in out):
            out.append(x)
    return out


def groups(items: list, view: Callable[[Any], dict] = lambda x: x) -> list[Group]:
    """The items that went wrong grouped by what differed, each group with its likely rules; the
    largest group first, then the one with the strongest evidence. ``view`` gives an item's case record
    (``outcome``, ``kind``, ``diff``, ``case``, ``rules``, ``exercises``)."""
    records = [(item, view(item)) for item in items]
    passing = [r for _, r in records if r.get("outcome") == "pass"]
    out: dict = {}
    for item, r in records:
        if r.get("outcome") in WENT_WRONG:
            out.setdefault(differed(r), []).append((item, r))
    result = []
    for name, members in out.items():
        kinds = sorted({r.get("kind") for _, r in members if r.get("kind")})
        failing: dict = {}
        for _, r in members:
            for rule in _rules_of(r):
                failing[rule] = failing.get(rule, 0) + 1
        passing_of_kinds = [r for r in passing if r.get("kind") in kinds]
        rules = [Rule(rule, n, sum(rule in _rules_of(r) for r in passing_of_kinds)) for rule, n in failing.items()]
        result.append(Group(name, [item for item, _ in members], kinds, _strongest(rules)))
    return sorted(result, key=lambda g: (-len(g.cases), -g.evidence, g.name))


def likely_text(group: Group) -> str:
    """``likely rules: auction.capot (7 of 7 failing, 0 passing), ...``, or why none is named."""
    if not group.likely:
        return "no rule stands out (every rule its fixtures name is named as often by passing cases)"
    return "likely rules: " + ", ".join(x.text(len(group.cases)) for x in group.likely[:SHOWN_RULES])


def fingerprint_command(spec: str | None, base: str | None) -> str | None:
    """The exact ``coinche-spec fingerprint`` command for the implementation run, or None when the run
    was the reference engine itself (nothing to fingerprint)."""
    if not spec:
        return None
    command = f"coinche-spec fingerprint --impl {shlex.quote(spec)}"
    if base:
        command += f" --base {shlex.quote(base)}"
    return command


def outcome_view(o) -> dict:
    """A runner Outcome as the case record ``groups`` reads (records.case, without the arithmetic)."""
    return {"outcome": o.outcome, "kind": o.fixture.kind, "variant": o.variant,
            "diff": [d.to_json() for d in o.diffs], "case": o.fixture.case,
            "rules": o.fixture.depends_on, "exercises": o.fixture.exercises}


def base_for_fingerprint(found: list[Group], view: Callable[[Any], dict] = lambda x: x) -> str | None:
    """The rule set the most failing cases were played under: the base the fingerprint compares with."""
    counts: dict = {}
    for g in found:
        for item in g.cases:
            v = view(item).get("variant")
            counts[v] = counts.get(v, 0) + 1
    return max(counts, key=lambda v: (counts[v], v is not None)) if counts else None


def summary_lines(found: list[Group], spec: str | None, base: str | None, indent: str = "") -> list[str]:
    """The closing summary: each group with its likely rules, then the fingerprint to run."""
    if not found:
        return []
    total = sum(len(g.cases) for g in found)
    lines = [f"{indent}{total} case{'s' if total != 1 else ''} went wrong, by what differed "
             f"(likely rules: named by the failing cases' fixtures more than by passing cases of the same kinds):"]
    for g in found:
        lines.append(f"{indent}  {g.name}: {len(g.cases)} case{'s' if len(g.cases) != 1 else ''}; {likely_text(g)}")
    command = fingerprint_command(spec, base)
    if command:
        lines.append(f"{indent}to tell which option of each rule it plays: {command}")
    return lines


__all__ = ["WENT_WRONG", "Group", "Rule", "takers", "field_name", "differed", "groups", "likely_text",
           "fingerprint_command", "summary_lines", "outcome_view", "base_for_fingerprint"]
