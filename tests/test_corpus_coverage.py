"""The corpus tells apart every option of the schema, and every rule the seeds dispute.

Two checks. The whole-schema one (coinche_spec/conformance/coverage.py says what an option
is): for every option the variant schema allows -- each enum value, each boolean, each
numeric rule's value, each award's terms and multiplied setting -- some hand-derived fixture
must list the rule in ``exercises`` and expect different results from a rule set that has
the option and one that has not. Where no shipped rule set plays an option, a test rule set
in conformance/rulesets/ does. The test walks the schema, so an option added to it later
is uncovered until a fixture shows it; it reads the rule sets the fixtures name, so test,
house and published rule sets count as soon as fixtures name them.

The older check, kept because it says which seed values matter:

For each rule path and each value a shipped rule set uses there (a leaf of the
rules; a whole award object {terms, base, ...} counts as one value), when the
shipped rule sets do not all share that value, some fixture must list the path
in ``exercises`` and expect different results from a rule set with that value
and one without. Otherwise the corpus cannot tell an implementation that gets
the rule wrong from one that gets it right.

A path listed in ``exercises`` covers itself and, for an award object, any
path inside it (``scoring.made.takers.terms``).
"""

import functools
import json

import pytest

from coinche_spec.conformance import coverage
from coinche_spec.conformance.fixtures import CorpusError, load_corpus, normalised, rule_paths
from coinche_spec.variants import load_variant, shipped_ids
from coinche_spec.variants import loader as variants_loader

NOT_OBSERVABLE = coverage.NOT_OBSERVABLE


@functools.lru_cache(maxsize=None)
def rules_of(ref: str) -> dict:
    return load_variant(ref).document["rules"]


@functools.lru_cache(maxsize=None)
def corpus() -> tuple:
    try:
        return tuple(load_corpus())
    except CorpusError as exc:
        raise AssertionError("the corpus does not load:\n" + "\n".join(str(p) for p in exc.problems)) from None


def _is_group(value) -> bool:
    return isinstance(value, dict) and "terms" not in value


def _walk(values: dict, path: tuple, out: dict) -> None:
    """values: rule set -> its value at ``path``. Descend while every rule set has a group there;
    otherwise the whole value at ``path`` is one value (an award object, or null against an object)."""
    if all(_is_group(v) for v in values.values()):
        keys = sorted(set().union(*(v.keys() for v in values.values())))
        for key in keys:
            _walk({variant: v.get(key) for variant, v in values.items()}, path + (str(key),), out)
        return
    used: dict = {}
    for variant, value in values.items():
        used.setdefault(json.dumps(value, sort_keys=True), set()).add(variant)
    if len(used) > 1:
        for value, variants in used.items():
            out[(".".join(path), value)] = variants


def disputed_values() -> dict:
    """(path, value as JSON) -> the rule sets using it, wherever the shipped rule sets do not all agree."""
    out: dict = {}
    _walk({v: load_variant(v).document["rules"] for v in shipped_ids()}, (), out)
    return out


covers, differ = coverage.covers, coverage.differ


def shows(fixture, with_value: set) -> bool:
    """Some rule set with the value and one without it expect different results."""
    applicable = {v: normalised(e.fields) for v, e in fixture.expect.items() if e.applicable}
    have = [applicable[v] for v in applicable if v in with_value]
    lack = [applicable[v] for v in applicable if v not in with_value]
    return any(differ(a, b) for a in have for b in lack)


def test_not_observable_rules_are_real_rules_with_options():
    paths = rule_paths(load_variant(shipped_ids()[0]).document["rules"])
    with_options = {o.path for o in coverage.schema_options()}
    for path in NOT_OBSERVABLE:
        assert path in paths, f"{path} is not a rule path"
        assert path in with_options, f"{path}: the schema offers no choice there; remove it from NOT_OBSERVABLE"


def test_every_schema_option_is_told_apart():
    """The whole schema: every option not in NOT_OBSERVABLE is shown by a hand-derived fixture."""
    options = coverage.observable_options()
    missing = coverage.uncovered(corpus(), rules_of, options)
    assert not missing, (f"{len(missing)} of {len(options)} schema options no hand-derived fixture tells apart "
                         "(write a fixture, with a test rule set in conformance/rulesets/ if no shipped one "
                         "plays the option):\n" + "\n".join(map(str, missing)))


def test_not_observable_rules_really_are_not_shown():
    """If a fixture comes to show a rule listed as not observable, the list is wrong: shorten it."""
    fixtures = corpus()
    for option in coverage.schema_options():
        if option.path in NOT_OBSERVABLE:
            assert coverage.uncovered(fixtures, rules_of, [option]), \
                f"{option} is shown by a fixture: remove {option.path} from NOT_OBSERVABLE"


def test_the_schema_walk_finds_every_rule():
    """Each leaf rule of a rule set has options (or is an enum with a single value), so the walk skips nothing."""
    covered_paths = {o.path for o in coverage.schema_options()}
    rules = rules_of("federation")
    for path in sorted(rule_paths(rules)):
        value = coverage.value_at(rules, path)
        if isinstance(value, dict):
            continue
        inside_award = any(path.startswith(w + ".") for w in coverage.whole_objects() if w.startswith("scoring."))
        single = path in coverage.fixed_rules()
        assert path in covered_paths or single or inside_award, f"{path}: the walk gives it no option"


@pytest.mark.parametrize("ident", variants_loader.test_ids())
def test_test_rule_sets_are_small_and_used(ident):
    """A test rule set extends a shipped one (or another test set), says why it exists, and some fixture uses it."""
    from coinche_spec.variants.loader import load_variant as load
    variant = load(ident)
    assert ident.startswith("test-"), f"{ident}: test rule set ids start with 'test-'"
    assert variant.written.get("extends"), f"{ident}: a test rule set extends a seed"
    assert variant.written.get("description") and variant.written.get("interpretations"), \
        f"{ident}: say what it changes (description) and why it exists (an interpretation)"
    assert any(ident in f.expect for f in corpus()), f"{ident}: no fixture names it; remove it or write one"


def test_every_disputed_rule_value_is_exercised():
    fixtures = corpus()
    uncovered = []
    for (path, value), variants in disputed_values().items():
        if path in NOT_OBSERVABLE:
            continue
        if not any(covers(f, path) and shows(f, variants) for f in fixtures):
            uncovered.append(f"{path} = {value}  (used by {', '.join(sorted(variants))})")
    for line in uncovered:
        print("uncovered:", line)
    assert not uncovered, f"{len(uncovered)} rule values no fixture tells apart:\n" + "\n".join(uncovered)


def test_the_coverage_rule_itself():
    """The checks above on made-up fixtures: listed and different counts; anything less does not."""
    from coinche_spec.conformance.fixtures import Expectation, Fixture

    def fixture(exercises, expect):
        return Fixture(id="x", title="x", area="scoring", kind="score", case={}, file="x.yaml",
                       exercises=exercises, expect={v: Expectation(fields=f) if f is not None
                                                    else Expectation(not_applicable="n/a") for v, f in expect.items()})

    minimum_82 = {"cafe-1000"}
    made = {"made": True, "score": {"NS": 161, "EW": 81}}
    failed = {"made": False, "score": {"NS": 0, "EW": 242}}
    good = fixture(["contract.minimum_total"], {"cafe-1000": failed, "cafe-701": made})
    assert covers(good, "contract.minimum_total") and shows(good, minimum_82)
    assert not covers(fixture(["contract"], {}), "contract.minimum_total")          # a group is not the rule
    assert covers(fixture(["scoring.made.takers.terms"], {}), "scoring.made.takers")  # inside an award
    assert not shows(fixture([], {"cafe-1000": made, "cafe-701": made}), minimum_82)  # same answers
    assert not shows(fixture([], {"cafe-1000": failed, "cafe-701": None}), minimum_82)  # n/a shows nothing
    assert not shows(fixture([], {"cafe-1000": {"made": True}, "cafe-701": made}), minimum_82)  # more fields only
    assert shows(fixture([], {"cafe-1000": {"rejected": True}, "cafe-701": {"hands": {}}}), minimum_82)


def test_the_option_rule_itself():
    """The whole-schema check on made-up fixtures and rule sets: a split with different answers counts,
    the same answers, one side only, or an unlisted rule do not."""
    from coinche_spec.conformance.fixtures import Expectation, Fixture

    rules = {"a": {"auction": {"speak_after_pass": True, "bids": {"minimum": 80}},
                   "scoring": {"made": {"takers": {"terms": ["bid"], "multiplied": "none"}}}},
             "b": {"auction": {"speak_after_pass": False, "bids": {"minimum": 70}},
                   "scoring": {"made": {"takers": {"terms": ["bid", "base"], "base": 40, "multiplied": "none"}}}},
             "c": {"auction": {"speak_after_pass": False, "bids": {"minimum": 80}},
                   "scoring": {"made": {"takers": {"terms": ["bid"], "multiplied": "none"}}}}}

    def fixture(exercises, expect):
        return Fixture(id="x", title="x", area="auction", kind="auction", case={}, file="x.yaml", exercises=exercises,
                       expect={v: Expectation(fields=f) for v, f in expect.items()})

    options = {str(o): o for o in coverage.schema_options()}
    speak = options["auction.speak_after_pass = true / false"]
    minimum = options["auction.bids.minimum = its value"]
    base = options["scoring.made.takers.terms = base in terms / not"]
    one, two = {"accepted": 1}, {"accepted": 2}
    told = fixture(["auction.speak_after_pass"], {"a": one, "c": two})
    assert coverage.covers(told, speak.path) and coverage.shows(told, speak, rules.get)
    assert not coverage.shows(fixture([], {"a": one, "c": one}), speak, rules.get)           # same answers
    assert not coverage.shows(fixture([], {"b": one, "c": two}), speak, rules.get)           # both false
    assert not coverage.uncovered([told], rules.get, [speak]) and coverage.uncovered([told], rules.get, [minimum])
    assert coverage.shows(fixture([], {"a": one, "b": two}), minimum, rules.get)             # 80 against 70
    assert not coverage.shows(fixture([], {"a": one, "c": two}), minimum, rules.get)         # 80 and 80
    award = fixture(["scoring.made.takers"], {"a": one, "b": two})
    assert coverage.covers(award, base.path) and coverage.shows(award, base, rules.get)      # whole award listed
    assert not coverage.covers(fixture(["scoring.made"], {}), base.path)                    # a group is not the rule
    assert "auction.first_speaker" not in {o.path for o in options.values()}                # one allowed value: no choice
    assert "scoring.made.takers.multiplied" not in {o.path for o in options.values()}       # x1 only: no choice
    assert "scoring.coinched_made.takers.multiplied" in {o.path for o in options.values()}
