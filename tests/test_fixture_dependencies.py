"""The dependency guard: every fixture's ``depends_on`` names every rule its outcome depends on.

An expectation carries from rule set X to any rule set R with X's values at
the fixture's ``depends_on`` paths (coinche_spec/conformance/carry.py). That is
honest only if no other rule can change the outcome. So, starting from every
rule set a fixture has an expectation for, each rule it does not name is
changed alone, over the options the schema allows (conformance/variations.py),
and the reference engine plays the fixture again: any change of outcome fails
here, naming the rule to add. New fixtures and new rule sets (conformance/
rulesets/) are picked up from the corpus as it loads.

The work is shared between two processes, one rule set at a time.
"""

from __future__ import annotations

import multiprocessing

import pytest

from coinche_spec.conformance.carry import conflicting_expectations
from coinche_spec.conformance.dependencies import changes_by_rule_set
from coinche_spec.conformance.fixtures import CorpusError, load_corpus
from coinche_spec.conformance.rulepaths import covers
from support import two_cores

try:
    FIXTURES = load_corpus()
except CorpusError:  # test_corpus.py reports the problems
    FIXTURES = []


def _by_rule_set() -> dict:
    out: dict = {}
    for f in FIXTURES:
        if f.depends_on is None:
            continue
        for vid, variant in f.rule_sets.items():
            out.setdefault(vid, (variant.document, []))[1].append(f)
    return out


def _undeclared(vid: str) -> list[str]:
    document, fixtures = _by_rule_set()[vid]
    found = changes_by_rule_set(fixtures, document, skip=lambda f, path: covers(f.depends_on, path))
    where = {f.id: f.where for f in fixtures}
    return [f"{where[fid]}: {fid} under {vid}: changing {c.path} to {c.value!r} changes the outcome "
            f"({c.before[0]} -> {c.after[0]}); add {c.path} to depends_on"
            for fid, cs in found.items() for c in cs]


def test_every_shipped_fixture_declares_its_dependencies():
    assert FIXTURES
    assert [f.where for f in FIXTURES if f.depends_on is None] == []


def test_no_undeclared_rule_changes_an_outcome():
    by_rule_set = _by_rule_set()
    assert by_rule_set
    # the rule sets with the most fixtures first, so that neither process is left with a big one at the end
    rule_sets = sorted(by_rule_set, key=lambda v: (-len(by_rule_set[v][1]), v))
    if two_cores():
        with multiprocessing.get_context("fork").Pool(2) as pool:
            found = dict(zip(rule_sets, pool.map(_undeclared, rule_sets, chunksize=1)))
    else:  # pragma: no cover - one process
        found = {v: _undeclared(v) for v in rule_sets}
    problems = [line for v in sorted(found) for line in found[v]]
    assert not problems, "\n" + "\n".join(problems[:40]) + (f"\n... {len(problems)} in all"
                                                              if len(problems) > 40 else "")


def test_expectations_that_would_carry_to_each_other_agree():
    """Two rule sets with equal values at every depends_on path must expect the same: otherwise a
    third rule set equal to both would get two answers."""
    problems = [line for f in FIXTURES for line in conflicting_expectations(f)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("fixture_id,rule_set,path", [
    ("score-seed001-bid-90-belote-210-62", "federation", "scoring.rounding"),  # 62 is recorded 60
    ("match-reach-701-exactly", "contree-701", "match.target"),                # 701 >= 701 ends it
])
def test_the_guard_itself_finds_a_missing_dependency(fixture_id, rule_set, path):
    """A fixture whose outcome depends on ``path``, with the path left out of depends_on, is flagged."""
    [fixture] = [f for f in FIXTURES if f.id == fixture_id]
    assert path in fixture.depends_on
    declared = [p for p in fixture.depends_on if p != path]
    document = fixture.rule_sets[rule_set].document
    changes = changes_by_rule_set([fixture], document, skip=lambda f, p: covers(declared, p))[fixture.id]
    assert path in {c.path for c in changes}
    assert all(covers([path], c.path) for c in changes)  # and nothing else: the rest is declared
