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

from coinche_spec.conformance.fixtures import CorpusError, load_corpus
from coinche_spec.conformance.runner import run
from coinche_spec.protocol.impls import open_implementation
from coinche_spec.variants import known_ids, load_variant

GROUPS = 4
IDS = known_ids()


@pytest.mark.parametrize("group", range(GROUPS))
def test_no_carried_expectation_disagrees_with_the_engine(group):
    try:
        corpus = load_corpus()
    except CorpusError:  # test_corpus.py reports the problems
        pytest.fail("the corpus does not load")
    variants = [load_variant(vid) for vid in IDS[group::GROUPS]]
    impl = open_implementation(None)
    impl.start()
    try:
        report = run(impl, corpus, variants)
    finally:
        impl.stop()
    problems = [f"{o.fixture.where}: {o.fixture.id} under {o.variant}: {o.outcome}: {o.message}"
                for o in report.problems()]
    more = f"\n... {len(problems)} in all" if len(problems) > 20 else ""
    assert not problems, "\n" + "\n".join(problems[:20]) + more
    assert report.counts()["pass"] > 0
