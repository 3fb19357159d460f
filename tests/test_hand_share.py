"""Under every shipped rule set, most cases are judged on an expectation worked out by hand (or carried
from a rule set that agrees on every rule the case depends on), not on the reference engine's answer.

Issue 20 asked for at least 60 % of the cases a third party plays: a case with no written or carried
expectation would be judged on what the reference engine says, which tests an implementation only
against ours. A case that cannot arise under the rule set (conformance/realised/cannot-arise.yaml)
counts neither way."""

import pytest

from coinche_spec.conformance.fixtures import load_corpus
from coinche_spec.conformance.runner import run
from coinche_spec.protocol.impls import open_implementation
from coinche_spec.variants import load_variant
from coinche_spec.variants.loader import paged_ids


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


@pytest.mark.parametrize("variant_id", sorted(paged_ids()))
def test_most_cases_are_judged_by_hand_or_carried(corpus, variant_id):
    impl = open_implementation(None)
    impl.start()
    try:
        report = run(impl, corpus, [load_variant(variant_id)], engine_verdicts=False)
    finally:
        impl.stop()
    judged = sum(1 for o in report.outcomes if o.outcome in ("pass", "fail") and o.expected_by in ("hand", "carried"))
    assert report.counts()["fail"] == 0
    share = judged / (judged + report.unjudged)
    print(f"{variant_id}: {judged} judged by hand or carried, {report.unjudged} by the engine ({100 * share:.1f} %)")
    assert share >= 0.6, f"{variant_id}: {100 * share:.1f} % ({judged} of {judged + report.unjudged})"
