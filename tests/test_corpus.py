"""The shipped corpus: every fixture under every rule set it applies to, through the protocol.

Each test is one (fixture, rule set) pair, named ``fixture-id@rule-set``, run
by our engine in-process but through the protocol's JSON requests and
replies, exactly as ``coinche-spec conformance`` does. A fixture marked
not_applicable for a rule set is not a test there, so it is not collected.
"""

import pytest

from coinche_spec.conformance.fixtures import CorpusError, load_corpus
from coinche_spec.conformance.runner import judge
from coinche_spec.protocol.client import InProcess
from coinche_spec.variants import load_variant

try:
    FIXTURES = load_corpus()
    LOAD_PROBLEMS: list = []
except CorpusError as exc:
    FIXTURES = []
    LOAD_PROBLEMS = [str(p) for p in exc.problems]

PAIRS = [(f, v) for f in FIXTURES for v in sorted(f.expect) if f.expect[v].applicable]


def test_the_corpus_loads():
    assert not LOAD_PROBLEMS, "\n" + "\n".join(LOAD_PROBLEMS)
    assert FIXTURES, "the corpus has no fixture"


_IMPLEMENTATIONS: dict = {}


def implementation(variant: str) -> InProcess:
    """One configured in-process implementation per rule set, given the whole document as the runner does."""
    if variant not in _IMPLEMENTATIONS:
        impl = InProcess()
        impl.start()
        reply = impl.configure(load_variant(variant).document)
        assert reply == {"ok": True}, reply
        _IMPLEMENTATIONS[variant] = impl
    return _IMPLEMENTATIONS[variant]


if PAIRS:
    @pytest.mark.parametrize("fixture,variant", PAIRS, ids=[f"{f.id}@{v}" for f, v in PAIRS])
    def test_fixture(fixture, variant):
        reply = implementation(variant).run(f"{fixture.id}@{variant}", fixture.case)
        outcome, diffs, message = judge(fixture.expect[variant].fields, reply)
        assert outcome == "pass", "\n".join([f"{fixture.where}: {fixture.title} [{variant}]"]
                                            + [str(d) for d in diffs] + ([message] if message else []))
