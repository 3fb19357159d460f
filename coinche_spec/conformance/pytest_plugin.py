"""The conformance corpus as pytest items, inside a programmer's own test suite.

    pytest --coinche-impl "python3 my_engine.py" [--coinche-variant ID ...]

Installed with the package (a ``pytest11`` entry point), this plugin adds
nothing unless ``--coinche-impl`` is given: no item, no import of the
engine, no process. With it, every (fixture, rule set) pair that
``coinche-spec conformance`` would play becomes one item named
``fixture-id[rule-set]``, and each item is judged by the runner itself
(runner.run on that one pair: the same expectation, hand, carried or
engine, the same carry check, the same comparison), so a pytest run and a
conformance run never disagree on a case. The implementation is started
once, when the items are collected, reused by every item, and stopped when
the session ends.
"""

from __future__ import annotations

import types

import pytest

from ..errors import CoincheSpecError

_IMPL = pytest.StashKey()     # the started implementation
_PLAY = pytest.StashKey()     # what every item needs: engine verdicts on or off, the stderr keeper


def pytest_addoption(parser) -> None:
    group = parser.getgroup("coinche", "coinche-spec conformance corpus")
    group.addoption("--coinche-impl", metavar="SPEC", default=None,
                    help="run the coinche-spec conformance corpus against SPEC (as `coinche-spec conformance "
                         "--impl`: a command line speaking the protocol, python:MODULE:FACTORY, or an adapter's "
                         "short name), one item per fixture and rule set; without it the plugin does nothing")
    group.addoption("--coinche-variant", metavar="ID|FILE", action="append", default=None,
                    help="a rule set to play the corpus under (repeatable; default: every shipped rule set)")
    group.addoption("--coinche-timeout", metavar="S", type=float, default=10.0,
                    help="seconds the implementation may take to answer one case (default 10)")


def _usage(text: str):
    return pytest.UsageError(f"coinche-spec: {text}")


@pytest.hookimpl(tryfirst=True)   # before -k and -m deselect, so they apply to the corpus items too
def pytest_collection_modifyitems(session, config, items) -> None:
    spec = config.getoption("coinche_impl")
    if spec is None:
        return
    items.extend(_corpus_items(session, config, spec))


def _corpus_items(session, config, spec: str) -> list:
    from ..protocol.client import ImplementationError
    from ..protocol.impls import open_implementation
    from ..variants import shipped_ids
    from .cli import _rule_sets
    from .fixtures import CorpusError, load_corpus
    from .limits import watch
    from .runner import is_reference, plan

    variants, problems = _rule_sets(config.getoption("coinche_variant") or shipped_ids())
    if problems:
        raise _usage("; ".join(line.replace("--variant", "--coinche-variant", 1) for line in problems))
    try:
        fixtures = load_corpus()
    except CorpusError as exc:
        raise _usage("; ".join(map(str, exc.problems))) from None
    timeout = config.getoption("coinche_timeout")
    if not 0 < timeout <= 86400:
        raise _usage(f"--coinche-timeout {timeout:g}: give a number of seconds above 0 and at most 86400")
    try:
        impl = open_implementation(spec, timeout)
    except ValueError as exc:
        raise _usage(f"--coinche-impl: {exc}") from None
    try:
        impl.start()
    except ImplementationError as exc:
        impl.stop()
        raise _usage(f"--coinche-impl \"{spec}\" did not start: {exc.message.removeprefix('the implementation ')}")
    config.stash[_IMPL] = impl
    # engine verdicts only where the runner would give them: never for the reference engine itself
    engine_verdicts = not is_reference(impl)
    # limits.watch keeps each case's standard error on its outcome; pytest's own -x and --maxfail stop the run
    config.stash[_PLAY] = (engine_verdicts, watch(types.SimpleNamespace(), impl))
    parent = CorpusCollector.from_parent(session, name="coinche-conformance", nodeid="coinche-conformance")
    # the pairs the runner plays, n/a ones left out: they are not tests (runner.playable_count)
    return [CorpusItem.from_parent(parent, name=f"{fixture.id}[{variant.id}]", fixture=fixture, variant=variant)
            for variant in variants for fixture, source in plan(fixtures, variant, engine_verdicts)
            if source is None or source.expectation.applicable]


def pytest_unconfigure(config) -> None:
    impl = config.stash.get(_IMPL, None)
    if impl is not None:
        del config.stash[_IMPL]
        impl.stop()


class CorpusCollector(pytest.Collector):
    """The parent of the corpus items (they come from the corpus, not from a file of the suite)."""

    def collect(self):  # pragma: no cover - the items are made by the hook above
        return []


class CaseWentWrong(CoincheSpecError):
    """A case that failed, errored, timed out or showed a corpus defect: the runner's own words."""


class CorpusItem(pytest.Item):
    """One fixture under one rule set, judged by the conformance runner."""

    def __init__(self, *, fixture, variant, **kwargs) -> None:
        super().__init__(**kwargs)
        self.fixture, self.variant = fixture, variant

    def runtest(self) -> None:
        from .runner import run
        impl = self.config.stash[_IMPL]
        engine_verdicts, keep_stderr = self.config.stash[_PLAY]
        report = run(impl, [self.fixture], [self.variant], keep_stderr, engine_verdicts=engine_verdicts)
        outcome = report.outcomes[0]
        self.user_properties += [("expected_by", outcome.expected_by), ("outcome", outcome.outcome)]
        if outcome.carried_from:
            self.user_properties.append(("carried_from", outcome.carried_from))
        if outcome.outcome == "pass":
            return
        if outcome.outcome in ("skip", "n/a"):
            pytest.skip(f"{outcome.outcome}: {outcome.message}")
        raise CaseWentWrong(failure_text(outcome))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseWentWrong):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.fixture.file, self.fixture.line - 1 if self.fixture.line else None, self.name


def failure_text(outcome) -> str:
    """The runner's account of a case that went wrong, with the rules the fixture depends on (added
    here only where the runner's account does not already name them)."""
    from .reports import describe_problem
    lines = describe_problem(outcome)
    rules = outcome.fixture.depends_on
    if not any(line.strip().startswith(("rules:", "depends on:")) for line in lines):
        lines.insert(1, "  depends on: " + (", ".join(rules) if rules else "(no depends_on: expectations are "
                                                                              "never carried)"))
    return "\n".join(lines)
