"""Every rule set one rule away from a given one, over the options the schema allows.

The dependency guard (tests/test_fixture_dependencies.py) changes one rule at
a time and watches the engine's outcome: a rule whose change moves the outcome
must be named in the fixture's ``depends_on``. Enumerations and booleans take
every other value; numbers, lists and award parts take a few representative
values (the lower and upper bound, a small step and about twice the value),
since no engine reads a number digit by digit. A change the rules cannot live with (packets that do not add
up to eight, a surcoinche below the coinche) is left out: it is not a rule set;
allowing a strain also puts it in the strain order, which no rule set may leave out.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Iterator

from ..variants import semantics
from ..variants.rules import Rules
from .rulepaths import MISSING, deref, object_branch, schema

PARTITIONS = ([3, 2, 3], [3, 3, 2], [2, 3, 3], [4, 4], [2, 2, 2, 2], [8])
SAMPLE_AWARD = {"takers": {"terms": ["base"], "base": 500, "multiplied": "all"},
                "defenders": {"terms": [], "multiplied": "none"}}


@dataclass(frozen=True)
class Variation:
    """One rule changed: where, to what, and the rules that result."""

    path: str
    value: object
    rules: Rules


def _integers(node: dict, current) -> list:
    lo, hi = node.get("minimum"), node.get("maximum")
    if not isinstance(current, int) or isinstance(current, bool):
        picks = [lo if lo is not None else 0, 160]
    else:
        picks = [lo if lo is not None else 0, current + 10, current * 2 + 1]
    if hi is not None:
        picks.append(hi)
    return [p for p in picks if (lo is None or p >= lo) and (hi is None or p <= hi)]


def _toggles(items: list, current: list, ordered: bool) -> list:
    """A unique list with one item added or taken away (and reversed, where the order means something)."""
    out = [[x for x in current if x != item] if item in current else current + [item] for item in items]
    if ordered and len(current) > 1:
        out.append(list(reversed(current)))
    return out


def _base_options(current) -> list:
    if isinstance(current, dict):
        out = [current.get("suit", 0)]
        out += [dict(current, **{k: v + 10}) for k, v in current.items()]
        return out
    value = current if isinstance(current, int) else 160
    return [value + 10, 0, {"suit": value, "sans_atout": value, "tout_atout": value + 96}]


def options(node: dict, current, path: str) -> list:
    """Other values the schema allows at one rule (the current one left out)."""
    node = deref(node)
    if path.endswith((".base",)) and "oneOf" in node:
        picks = _base_options(None if current is MISSING else current)
    elif "enum" in node:
        picks = list(node["enum"])
    elif node.get("type") == "boolean":
        picks = [True, False]
    elif node.get("type") in ("integer", ["integer", "null"]):
        picks = _integers(node, current)
        if node.get("type") == ["integer", "null"]:
            picks.append(None)
    elif node.get("type") == "array":
        items = deref(node.get("items", {}))
        if "enum" in items:
            picks = _toggles(list(items["enum"]), list(current) if isinstance(current, list) else [],
                             ordered=not path.endswith(".terms"))  # terms are summed
        elif items.get("type") == "array":
            picks = [[]] + [[p] for p in PARTITIONS]
        elif items.get("type") == "object":
            # pairs (scoring.bid_scored_as): only left out, where given (below); which bids a rule set
            # may list is its own
            picks = []
        else:
            picks = [list(p) for p in PARTITIONS]
    elif "oneOf" in node:  # an award or nothing (capot_made)
        picks = [None, copy.deepcopy(SAMPLE_AWARD)]
    else:
        picks = []
    out = []
    for p in picks:
        if p != current and p not in out:
            out.append(p)
    return out


def points(node: dict, doc: dict, prefix: tuple = ()) -> Iterator[tuple[str, dict, object]]:
    """Every rule to vary under a rules object: (path, schema node, current value or MISSING)."""
    obj = object_branch(node)
    required = set(obj.get("required", ()))
    for key, sub in obj["properties"].items():
        path = prefix + (key,)
        current = doc.get(key, MISSING) if isinstance(doc, dict) else MISSING
        inner = object_branch(sub)
        if inner is not None and key != "base":
            if isinstance(current, dict):
                yield from points(sub, current, path)
            if "oneOf" in deref(sub) or key not in required:
                yield ".".join(path), sub, current  # the whole object: there or not
            continue
        yield ".".join(path), sub, current


def _set(rules: dict, path: str, value) -> dict:
    """``rules`` with one rule changed: a new dict along the path, the untouched groups shared (never
    changed in place: a variation is only read)."""
    out = dict(rules)
    node = out
    keys = path.split(".")
    for key in keys[:-1]:
        node[key] = dict(node[key])
        node = node[key]
    if value is MISSING:
        node.pop(keys[-1], None)
    else:
        node[keys[-1]] = copy.deepcopy(value)
    return out


def variations(document: dict, wanted=None) -> list[Variation]:
    """Every valid rule set one rule away from ``document`` (a resolved variant document); with
    ``wanted``, only the changes of the rules ``wanted(path)`` accepts (building a change checks and
    compiles a whole rule set, so a caller that will not play one saves that work)."""
    rules_schema = schema()["$defs"]["rules"]
    out = []
    for path, node, current in points(rules_schema, document["rules"]):
        if wanted is not None and not wanted(path):
            continue
        values = options(node, current, path) if path != "auction.bids.ladder" else _ladders(document, current)
        if current is not MISSING and path.rsplit(".", 1)[-1] not in _required_at(path):
            values.append(MISSING)  # an optional rule left out
        for value in values:
            rules = _set(document["rules"], path, value)
            if semantics.check(dict(document, rules=rules)):
                rules = _repaired(rules, path, value)
                if rules is None or semantics.check(dict(document, rules=rules)):
                    continue
            out.append(Variation(path, value, Rules(rules, f"{document['id']}~{path}")))
    return out


# A rule that cannot change alone: allowing a strain puts it in the strain order, and back.
_STRAIN_OF = {"auction.strains.tout_atout": "TA", "auction.strains.sans_atout": "SA"}


def _ladders(document: dict, current) -> list:
    """A ladder of bids one rule away: the usual bids from the lowest, plus one off the steps (the lowest
    + 2), up to the lowest + 170 (its bounds are set to match: see _repaired)."""
    bids = document["rules"]["auction"]["bids"]
    low, step = bids["minimum"], bids["step"]
    ladder = [low, low + 2] + list(range(low + step, low + 171, step))
    return [] if ladder == current else [ladder]


def _repaired(rules: dict, path: str, value) -> dict | None:
    """The change made playable by the one rule bound to it, or None."""
    if path == "auction.bids.ladder":     # a ladder's ends are the lowest and highest bids
        if value is MISSING:
            return None
        out = _set(rules, "auction.bids.minimum", value[0])
        return _set(out, "auction.bids.maximum", value[-1])
    strain = _STRAIN_OF.get(path)
    if strain is None:
        return None
    order = [s for s in rules["auction"]["strain_order"] if s != strain] + ([strain] if value else [])
    return _set(rules, "auction.strain_order", order)


def _required_at(path: str) -> set:
    """The required keys of the object holding ``path``."""
    node = schema()["$defs"]["rules"]
    for key in path.split(".")[:-1]:
        node = object_branch(node)["properties"][key]
    return set(object_branch(node).get("required", ()))
