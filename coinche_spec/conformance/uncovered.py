"""What the corpus does not pin down for one rule set: ``conformance --variant R --uncovered``.

A rule value of R is told apart when some fixture with a hand-derived
expectation that answers for R (written for R, or carried to it) depends on
that rule: an implementation that got the rule wrong could fail there. The
rest is listed, one ``path = value`` a line: the fixtures a contributor should
write next. Engine verdicts do not count; they pin nothing down by hand.
"""

from __future__ import annotations

import json

from ..variants.relevance import cannot_matter
from .carry import find
from .fixtures import Fixture
from .rulepaths import covers, leaves


def uncovered(fixtures: list[Fixture], variant) -> list[tuple[str, object]]:
    """(path, value) for every rule of ``variant`` no hand or carried expectation depends on."""
    told = []
    for f in fixtures:
        source = find(f, variant)
        if source is not None and source.expected_by != "engine" and source.expectation.applicable:
            told.append(f.depends_on if f.depends_on is not None else [])
    return [(path, value) for path, value in leaves(variant.document["rules"])
            if not any(covers(deps, path) for deps in told)]


def uncovered_lines(fixtures: list[Fixture], variant) -> list[str]:
    """The uncovered rule values, those no deal can tell apart under the rule set's other rules
    (the strain order where bids overcall by value only: variants.relevance.cannot_matter) listed
    apart, after the fixtures to write next: no fixture can pin them down."""
    found = uncovered(fixtures, variant)
    total = sum(1 for _ in leaves(variant.document["rules"]))
    judged = [(path, value, cannot_matter(variant.document["rules"], path)) for path, value in found]
    moot = [entry for entry in judged if entry[2]]
    found = [(path, value) for path, value, why in judged if not why]
    lines = [f"  {path} = {json.dumps(value)}" for path, value in found]
    if not found:
        lines.insert(0, f"{variant.id}: every one of its {total} rule values that can matter is told apart by a "
                        "hand or carried expectation")
    else:
        lines.insert(0, f"{variant.id}: {len(found)} of {total} rule values are told apart by no hand or carried "
                        "expectation (a fixture whose outcome depends on one, with its expectation, would pin it "
                        "down):")
    if moot:
        lines.append(f"Cannot matter under its other rules, so no fixture can tell them apart ({len(moot)}):")
        lines += [f"  {path} = {json.dumps(value)} ({why})" for path, value, why in moot]
    return lines
