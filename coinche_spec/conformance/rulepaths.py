"""Rule paths as fixtures write them: ``scoring.failed.defenders``, ``match.target``, ``play``.

A path names a rule or a whole group of the variant schema, without the
leading ``rules.``. The set of valid paths comes from the schema itself, not
from the shipped rule sets, so a fixture may name a rule no seed writes (an
optional ``base``, the parts of a ``capot_made`` award).
"""

from __future__ import annotations

import json
from functools import lru_cache

from ..resources import variant_schema_path

MISSING = object()  # the value at a path a rule set does not write


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(variant_schema_path().read_text(encoding="utf-8"))


def deref(node: dict) -> dict:
    """The schema node itself, following one ``$ref`` into ``$defs``."""
    ref = node.get("$ref")
    return schema()["$defs"][ref.rsplit("/", 1)[-1]] if ref else node


def object_branch(node: dict) -> dict | None:
    """The object schema of a node (directly, or the object branch of a ``oneOf``), if it has one."""
    node = deref(node)
    if node.get("type") == "object" and "properties" in node:
        return node
    for branch in node.get("oneOf", ()):
        branch = deref(branch)
        if branch.get("type") == "object" and "properties" in branch:
            return branch
    return None


def _paths(node: dict, prefix: tuple) -> set:
    out = set()
    obj = object_branch(node)
    if obj is None:
        return out
    for key, sub in obj["properties"].items():
        path = prefix + (key,)
        out.add(".".join(path))
        out |= _paths(sub, path)
    return out


@lru_cache(maxsize=1)
def known_paths() -> frozenset:
    """Every rule path of the schema, groups and leaves alike."""
    return frozenset(_paths(schema()["$defs"]["rules"], ()))


def value_at(rules: dict, path: str):
    """The value a rules document gives a path, or MISSING."""
    node = rules
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return MISSING
        node = node[key]
    return node


def leaves(rules: dict, prefix: str = ""):
    """(path, value) for every rule a rules document writes (a list or null is one value)."""
    for key, value in rules.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from leaves(value, path + ".")
        else:
            yield path, value


def covers(depends_on, path: str) -> bool:
    """Whether a declared path (or a group above it) names ``path``."""
    return any(path == d or path.startswith(d + ".") for d in depends_on)


def differences(a: dict, b: dict, paths=None) -> list[str]:
    """The paths at which two rules documents differ (empty when they agree on all of them; without
    ``paths``, every rule either writes)."""
    if paths is None:
        paths = dict.fromkeys([p for p, _ in leaves(a)] + [p for p, _ in leaves(b)])
    return [p for p in paths if value_at(a, p) != value_at(b, p)]
