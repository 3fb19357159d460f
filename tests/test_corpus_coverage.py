"""Every rule on which the shipped rule sets disagree is shown to matter by some fixture.

For each rule path and each value a shipped rule set uses there (a leaf of the
rules; a whole award object {terms, base, ...} counts as one value), when the
shipped rule sets do not all share that value, some fixture must list the path
in ``exercises`` and expect different results from a rule set with that value
and one without. Otherwise the corpus cannot tell an implementation that gets
the rule wrong from one that gets it right.

A path listed in ``exercises`` covers itself and, for an award object, any
path inside it (``scoring.made.takers.terms``).
"""

import json

from coinche_spec.conformance.fixtures import CorpusError, load_corpus, normalised, rule_paths
from coinche_spec.variants import load_variant, shipped_ids

# Rules no case kind of the protocol can observe; each with the reason.
NOT_OBSERVABLE = {
    "deal.shuffle": "no case shuffles: the dealing case is handed the pack in a known order",
    "deal.cut.by": "the dealing case gives the cut itself, not which neighbour made it",
}


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


def covers(fixture, path: str) -> bool:
    return any(e == path or e.startswith(path + ".") for e in fixture.exercises)


def differ(a: dict, b: dict) -> bool:
    """Two expectations disagree: on a field both of them check (listing more fields is not a
    difference), or one expects a dealing to be rejected and the other expects it dealt."""
    if ("rejected" in a) != ("rejected" in b):
        return True
    return any(a[k] != b[k] for k in set(a) & set(b))


def shows(fixture, with_value: set) -> bool:
    """Some rule set with the value and one without it expect different results."""
    applicable = {v: normalised(e.fields) for v, e in fixture.expect.items() if e.applicable}
    have = [applicable[v] for v in applicable if v in with_value]
    lack = [applicable[v] for v in applicable if v not in with_value]
    return any(differ(a, b) for a in have for b in lack)


def test_not_observable_rules_are_real_and_disputed():
    paths = rule_paths(load_variant(shipped_ids()[0]).document["rules"])
    disputed = {path for path, _ in disputed_values()}
    for path in NOT_OBSERVABLE:
        assert path in paths, f"{path} is not a rule path"
        assert path in disputed, f"{path}: the shipped rule sets agree on it now; remove it from NOT_OBSERVABLE"


def test_every_disputed_rule_value_is_exercised():
    try:
        fixtures = load_corpus()
    except CorpusError as exc:
        raise AssertionError("the corpus does not load:\n" + "\n".join(str(p) for p in exc.problems)) from None
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
