"""Which options of the variant schema the corpus tells apart.

An *option* is one way a rule can be set, taken from the schema itself (not
from the rule sets that happen to ship), so a rule or value added to the
schema later is an option at once. An option splits rule sets in two: those
that have it and those that have another setting of the same rule.

- an enum rule: each of its values (against every other value). An enum
  with one allowed value offers no choice and has no option (it gets some as
  soon as the schema allows a second value);
- a boolean rule: one option, true against false (the same split seen from
  either side);
- an integer rule with at most four allowed values (``passes_to_end`` 1-4,
  ``passes_after`` 1-3): each value, since each ends the auction differently;
- any other integer rule (a bid floor, a multiplier, a card value, a target):
  "its value" -- the engine uses the number itself, so the option is shown
  when two rule sets with different numbers get different outcomes. A
  square's value has one more split the engine makes: 0 (four of that rank
  are no meld) against above 0;
- a nullable integer (``auction.bids.maximum``): null against a number;
- a list of integers (``deal.packets``): its value; a list of lists
  (``deal.alternative_packets``): none against some; a list of pairs (``scoring.bid_scored_as``):
  left out against given;
- a list of enum values (``auction.strain_order``): its order;
- an award (``scoring.made.takers`` ...): each term of ``terms``, present
  against absent; ``base`` one number against one amount per kind of
  contract, and ``base_on_sweep`` given against not given (both only in an
  award with the base term, the only place they count); ``multiplied`` each
  value -- but only in the coinched outcomes and ``capot_made``, the
  outcomes with a multiplier above 1 (``made`` and ``failed`` always
  multiply by 1, where the three values cannot differ);
- a nullable award pair (``scoring.capot_made``): null against an award pair
  (whose awards then have their own options as above).

An option is *covered* when some hand-derived fixture lists the rule in
``exercises`` and expects different results from a rule set that has the
option and one that has not. Rule sets are whatever the fixtures name in
``expect`` (seeds, house, test, published), so new rule sets count as soon
as fixtures name them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from ..resources import variant_schema_path
from .fixtures import Fixture, normalised

AWARD_REF = "#/$defs/award"

# Rules no case kind of the protocol can observe (docs/rules-model.md section 0); each with the reason.
NOT_OBSERVABLE = {
    "deal.shuffle": "no case shuffles: the dealing case is handed the pack in a known order",
    "deal.cut.by": "the dealing case gives the cut itself, not which neighbour made it",
    "table.first_dealer": "every case names its dealer; who dealt first is never asked",
    "table.dealer_after_throw_in": "no case plays on after a thrown-in deal: the auction case ends at `redeal`",
}
MULTIPLIED_OUTCOMES = ("coinched_made", "coinched_failed", "capot_made")
_ABSENT = object()


def _present(v) -> bool:
    return v is not _ABSENT


@dataclass(frozen=True)
class Option:
    """One setting of one rule. ``has``/``lacks`` sort a rule set's value at ``path`` into the two
    sides of the split; ``by_value``: the split is any two different values (a number)."""

    path: str
    label: str
    has: Callable[[Any], bool] = _present
    lacks: Callable[[Any], bool] | None = None
    by_value: bool = False
    read: str | None = None  # the rule the split looks at, when not ``path`` itself (a whole award)

    def __str__(self) -> str:
        return f"{self.path} = {self.label}"

    def split(self, a: Any, b: Any) -> bool:
        """Rule set values a and b sit on the two sides of this option."""
        if self.by_value:
            return _present(a) and _present(b) and a != b
        lacks = self.lacks or (lambda v: _present(v) and not self.has(v))
        return self.has(a) and lacks(b)


def _schema() -> dict:
    return json.loads(variant_schema_path().read_text(encoding="utf-8"))


def _deref(node: dict, schema: dict) -> dict:
    while "$ref" in node:
        node = schema["$defs"][node["$ref"].split("/")[-1]]
    return node


def _is(expected):
    return lambda v: _present(v) and v == expected and type(v) is type(expected)


def _award_options(path: str, node: dict) -> list[Option]:
    """Each option reads the whole award: ``base`` and ``base_on_sweep`` matter only with the base term."""
    def terms(award) -> list:
        return award.get("terms", []) if isinstance(award, dict) else []

    def with_base(test):
        return lambda award: "base" in terms(award) and test(award)

    out = [Option(f"{path}.terms", f"{term} in terms / not", lambda a, t=term: isinstance(a, dict) and t in terms(a),
                  lambda a, t=term: isinstance(a, dict) and t not in terms(a), read=path)
           for term in node["properties"]["terms"]["items"]["enum"]]
    out.append(Option(f"{path}.base", "one number / one amount per kind of contract",
                      with_base(lambda a: isinstance(a.get("base"), int)),
                      with_base(lambda a: isinstance(a.get("base"), dict)), read=path))
    out.append(Option(f"{path}.base_on_sweep", "given / not given", with_base(lambda a: "base_on_sweep" in a),
                      with_base(lambda a: "base_on_sweep" not in a), read=path))
    if path.split(".")[1] in MULTIPLIED_OUTCOMES:
        out += [Option(f"{path}.multiplied", value, _is(value))
                for value in node["properties"]["multiplied"]["enum"]]
    return out


def _options(path: str, node: dict, schema: dict) -> list[Option]:
    if node.get("$ref") == AWARD_REF:
        return _award_options(path, _deref(node, schema))
    if "oneOf" in node:  # capot_made: null or an award pair
        obj = next(n for n in node["oneOf"] if n.get("type") == "object")
        return ([Option(path, "null / an award pair", lambda v: v is None, lambda v: isinstance(v, dict))]
                + _options(path, obj, schema))
    node = _deref(node, schema)
    kind = node.get("type")
    if "enum" in node:
        values = node["enum"]
        return [] if len(values) < 2 else [Option(path, str(v), _is(v)) for v in values]
    if kind == "boolean":
        return [Option(path, "true / false", _is(True))]
    if kind == "object":
        out = []
        for key, child in node["properties"].items():
            out += _options(f"{path}.{key}" if path else key, child, schema)
        return out
    if kind == "integer":
        low, high = node.get("minimum"), node.get("maximum")
        if low is not None and high is not None and high - low <= 3:
            return [Option(path, str(n), _is(n)) for n in range(low, high + 1)]
        out = [Option(path, "its value", by_value=True)]
        if path.startswith("melds.squares."):
            out.append(Option(path, "0 (no meld) / above 0", _is(0), lambda v: isinstance(v, int) and v > 0))
        return out
    if kind == ["integer", "null"]:
        return [Option(path, "null / a number", lambda v: v is None, lambda v: isinstance(v, int))]
    if kind == "array":
        items = _deref(node["items"], schema)
        if "enum" in items:
            return [Option(path, "its order", by_value=True)]
        if items.get("type") == "array":
            return [Option(path, "none / some", lambda v: v == [], lambda v: bool(v))]
        if items.get("type") == "object":       # pairs (scoring.bid_scored_as), an optional rule
            return [Option(path, "left out / given", lambda v: not _present(v), _present)]
        return [Option(path, "its value", by_value=True)]
    raise ValueError(f"{path}: the coverage rules do not know this kind of schema node: {node}")


def schema_options() -> list[Option]:
    """Every option of every rule, walked from the variant schema."""
    schema = _schema()
    return _options("", schema["$defs"]["rules"], schema)


def fixed_rules() -> set:
    """Rules the schema allows one value for (an enum of one): no choice, so no option yet."""
    schema = _schema()
    out: set = set()

    def walk(path: str, node: dict) -> None:
        node = _deref(node, schema)
        if "enum" in node and len(node["enum"]) == 1:
            out.add(path)
        for key, child in (node.get("properties") or {}).items():
            walk(f"{path}.{key}" if path else key, child)
    walk("", schema["$defs"]["rules"])
    return out


def observable_options() -> list[Option]:
    """The options a fixture can show: all but those of NOT_OBSERVABLE rules."""
    return [o for o in schema_options() if o.path not in NOT_OBSERVABLE]


def value_at(rules: dict, path: str) -> Any:
    node: Any = rules
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return _ABSENT
        node = node[part]
    return node


def covers(fixture: Fixture, path: str) -> bool:
    """The fixture lists the rule, a rule inside it, or the whole object holding it when that object
    is one rule in many parts: an award (``scoring.made.takers`` covers ``scoring.made.takers.terms``)
    or a table of numbers (``melds.squares`` covers ``melds.squares.J``). Any other group is not
    its rules: ``contract`` does not cover ``contract.minimum_total``."""
    return any(e == path or e.startswith(path + ".") or (path.startswith(e + ".") and e in whole_objects())
               for e in fixture.exercises)


_WHOLE: set = set()


def whole_objects() -> set:
    """Paths of the awards, of capot_made, and of the tables of numbers (card values, squares, runs)."""
    if not _WHOLE:
        schema = _schema()

        def walk(path: str, node: dict) -> None:
            if node.get("$ref") == AWARD_REF:
                _WHOLE.add(path)
                return
            if "oneOf" in node:
                _WHOLE.add(path)
                node = next(n for n in node["oneOf"] if n.get("type") == "object")
            node = _deref(node, schema)
            props = node.get("properties") if node.get("type") == "object" else None
            if not props:
                return
            if all(_deref(c, schema).get("type") == "integer" for c in props.values()):
                _WHOLE.add(path)
            for key, child in props.items():
                walk(f"{path}.{key}" if path else key, child)
        walk("", schema["$defs"]["rules"])
    return _WHOLE


def differ(a: dict, b: dict) -> bool:
    """Two expectations disagree: on a field both of them check (listing more fields is not a
    difference), or one expects a dealing to be rejected and the other expects it dealt."""
    if ("rejected" in a) != ("rejected" in b):
        return True
    return any(a[k] != b[k] for k in set(a) & set(b))


def hand_derived(fixture: Fixture) -> bool:
    return getattr(fixture, "expected_by", "hand") == "hand"


def shows(fixture: Fixture, option: Option, rules_of: Callable[[str], dict]) -> bool:
    """Some rule set with the option and one without it expect different results."""
    applicable = {v: normalised(e.fields) for v, e in fixture.expect.items() if e.applicable}
    values = {v: value_at(rules_of(v), option.read or option.path) for v in applicable}
    return any(option.split(values[a], values[b]) and differ(applicable[a], applicable[b])
               for a in applicable for b in applicable)


def uncovered(fixtures: list[Fixture], rules_of: Callable[[str], dict],
              options: list[Option] | None = None) -> list[Option]:
    """The options no hand-derived fixture tells apart."""
    options = schema_options() if options is None else options
    hand = [f for f in fixtures if hand_derived(f)]
    return [o for o in options if not any(covers(f, o.path) and shows(f, o, rules_of) for f in hand)]


def main() -> int:
    """``python3 -m coinche_spec.conformance.coverage``: how many options the corpus covers, and which not."""
    import functools

    from ..variants import load_variant
    from .fixtures import CorpusError, load_corpus

    try:
        fixtures = load_corpus()
    except CorpusError as exc:
        print("\n".join(str(p) for p in exc.problems))
        return 2
    options = observable_options()
    missing = uncovered(fixtures, functools.lru_cache(maxsize=None)(lambda v: load_variant(v).document["rules"]),
                        options)
    print(f"{len(options) - len(missing)} of {len(options)} observable schema options covered "
          f"({len(schema_options()) - len(options)} more belong to rules no case observes: "
          f"{', '.join(NOT_OBSERVABLE)})")
    for option in missing:
        print(f"uncovered: {option}")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
