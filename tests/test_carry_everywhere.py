"""The corpus under every rule set the package knows, test rule sets included: no carried expectation
disagrees with the reference engine.

The dependency guard (test_fixture_dependencies.py) changes one rule at a time, and only rules a
fixture's run reads; a rule set written elsewhere can differ at a rule the run never reached from the
rule sets with an expectation (an optional group left out, a multiplier the case states itself). The
runner's own carry check plays every carried case under both rule sets and calls any difference a
corpus defect; here it runs under all of them, as `coinche-spec conformance --variant ...` would for
each, so that a missing ``depends_on`` path fails the suite wherever it shows. The rule sets are cut
into a few groups, so that pytest-xdist shares them between its workers.
"""

from __future__ import annotations

import pytest

from coinche_spec.conformance.carry import CarryCheck, find
from coinche_spec.conformance.fixtures import CorpusError, load_corpus
from coinche_spec.variants import known_ids, load_variant

GROUPS = 4
IDS = known_ids()


@pytest.mark.parametrize("group", range(GROUPS))
def test_no_carried_expectation_disagrees_with_the_engine(group):
    """The runner's check (``CarryCheck.defect``) on every applicable carried case of the group's rule
    sets; the cases themselves are not played here: test_corpus.py plays every written expectation."""
    try:
        corpus = load_corpus()
    except CorpusError:  # test_corpus.py reports the problems
        pytest.fail("the corpus does not load")
    check = CarryCheck()
    problems, checked = [], 0
    for vid in IDS[group::GROUPS]:
        variant = load_variant(vid)
        for fixture in corpus:
            source = find(fixture, variant)
            if source is None or source.carried_from is None or not source.expectation.applicable:
                continue
            checked += 1
            defect = check.defect(fixture, variant, source)
            if defect is not None:
                problems.append(f"{fixture.where}: {fixture.id} under {vid}: {defect}")
    more = f"\n... {len(problems)} in all" if len(problems) > 20 else ""
    assert not problems, "\n" + "\n".join(problems[:20]) + more
    assert checked > 1000, checked  # every group has carried cases to check
