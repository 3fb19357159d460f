"""Where a case's expectation comes from: written for this rule set, or carried from another.

An expectation written for rule set X answers for any rule set R that has
X's values at every path of the fixture's ``depends_on``: the outcome does
not look at anything else (tests/test_fixture_dependencies.py checks that
claim rule by rule). The report then says ``carried from X``.

The claim is checked again at run time, on the rule set actually played:
the reference engine answers the case under R and under X, and if the two
answers differ the fixture's ``depends_on`` is incomplete. That case is a
corpus defect, reported as such, never a verdict on the implementation.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from ..variants.rules import Rules
from .arise import why_not
from .dependencies import fields_of, outcome
from .fixtures import Expectation, Fixture, normalised
from .rulepaths import differences


@dataclass(frozen=True)
class Source:
    """An expectation and where it came from: ``hand``, ``carried`` (from ``carried_from``) or
    ``engine`` (a fixture the engine wrote, ``expected_by: engine``)."""

    expectation: Expectation
    expected_by: str
    carried_from: str | None = None


def _rules(variant) -> dict:
    return variant.document["rules"]


def find(fixture: Fixture, variant) -> Source | None:
    """The expectation that answers for ``variant`` (a loaded Variant), if the fixture has one; not
    applicable where the case cannot arise under it (arise.py: a match history whose awards no deal of
    the rule set gives), whatever is written."""
    source = written(fixture, variant)
    why = why_not(fixture, variant)
    if why is None:
        return source
    return Source(Expectation(not_applicable=f"the case cannot arise under {variant.id}: {why}"),
                  source.expected_by if source is not None else "engine",
                  source.carried_from if source is not None else None)


def written(fixture: Fixture, variant) -> Source | None:
    """The expectation written for ``variant`` or carried to it, before asking whether the case arises."""
    by = "engine" if fixture.expected_by == "engine" else None
    mine = fixture.rule_sets.get(variant.id)
    if mine is not None and _rules(mine) == _rules(variant):
        return Source(fixture.expect[variant.id], by or "hand")
    if fixture.depends_on is None:
        return None
    for vid, other in fixture.rule_sets.items():
        if not differences(_rules(other), _rules(variant), fixture.depends_on):
            return Source(fixture.expect[vid], by or "carried", vid)
    return None


def _same(a: Expectation, b: Expectation) -> bool:
    if a.applicable != b.applicable:
        return False
    return not a.applicable or normalised(a.fields) == normalised(b.fields)


def conflicting_expectations(fixture: Fixture) -> list[str]:
    """Pairs of rule sets that agree at every depends_on path yet expect different things."""
    if fixture.depends_on is None:
        return []
    ids = list(fixture.rule_sets)
    out = []
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if (not differences(_rules(fixture.rule_sets[a]), _rules(fixture.rule_sets[b]), fixture.depends_on)
                    and not _same(fixture.expect[a], fixture.expect[b])):
                out.append(f"{fixture.where}: {fixture.id}: {a} and {b} agree at every depends_on path but "
                           "expect different results: a rule that tells them apart is missing from depends_on")
    return out


class CarryCheck:
    """The run-time guard: does the reference engine really answer R as it answers X?"""

    def __init__(self) -> None:
        self._rules: dict = {}
        self._outcomes: dict = {}

    def _outcome(self, fixture: Fixture, variant):
        key = (fixture.id, variant.id, id(variant))
        if key not in self._outcomes:
            rules = self._rules.setdefault((variant.id, id(variant)), (variant, Rules(_rules(variant), variant.id)))
            self._outcomes[key] = outcome(rules[1], fixture, fields_of(fixture))
        return self._outcomes[key]

    def defect(self, fixture: Fixture, variant, source: Source) -> str | None:
        """Why carrying ``source`` to ``variant`` would be wrong, or None when the engine agrees."""
        if source.carried_from is None:
            return None
        origin = fixture.rule_sets[source.carried_from]
        mine, theirs = self._outcome(fixture, variant), self._outcome(fixture, origin)
        if mine == theirs:
            return None
        differ = differences(_rules(origin), _rules(variant))
        culprits = [p for p in differ if self._moves(fixture, origin, p, variant) not in (None, theirs)]
        named = culprits or differ
        return (f"corpus defect: the expectation would be carried from {source.carried_from}, but the reference "
                f"engine answers this case differently under {variant.id} ({_shown(mine)}) and under "
                f"{source.carried_from} ({_shown(theirs)}): depends_on is incomplete; "
                + ("it misses " if culprits else "the rule sets differ at ") + ", ".join(named[:12])
                + (f" and {len(named) - 12} more" if len(named) > 12 else ""))

    def _moves(self, fixture: Fixture, origin, path: str, variant):
        """The outcome under ``origin`` with the one rule at ``path`` taken from ``variant`` (None when
        that mixture is not a rule set the engine can play)."""
        rules = copy.deepcopy(_rules(origin))
        node, theirs = rules, _rules(variant)
        keys = path.split(".")
        for key in keys[:-1]:
            theirs = theirs.get(key) if isinstance(theirs, dict) else None
            if not isinstance(node.get(key), dict):
                node[key] = {}
            node = node[key]
        if isinstance(theirs, dict) and keys[-1] in theirs:
            node[keys[-1]] = copy.deepcopy(theirs[keys[-1]])
        else:
            node.pop(keys[-1], None)
        try:
            return outcome(Rules(rules, origin.id), fixture, fields_of(fixture))
        except Exception:  # noqa: BLE001 - a half-and-half rule set may be one the engine refuses
            return None


def _shown(result: tuple) -> str:
    return result[0] if len(result) == 1 else result[1][:160]
