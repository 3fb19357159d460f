"""Read-only, attribute-style access to a resolved, validated rule set.

The engine reads rules as ``rules.auction.coinche.when``: the names are the
schema's, so a rule's documentation and its use are one grep apart. The
object is built only from a document the schema has accepted, so a missing
key is a bug in the engine, not in the user's file.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class RuleNode(Mapping):
    __slots__ = ("_data", "_path")

    def __init__(self, data: Mapping[str, Any], path: str = "rules"):
        object.__setattr__(self, "_data", {k: _wrap(v, f"{path}.{k}") for k, v in data.items()})
        object.__setattr__(self, "_path", path)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._data[name]
        except KeyError:
            raise AttributeError(f"{self._path} has no rule {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("rules are read-only")

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"RuleNode({self._path})"

    def to_dict(self) -> dict:
        return {k: (v.to_dict() if isinstance(v, RuleNode) else
                    [x.to_dict() if isinstance(x, RuleNode) else x for x in v] if isinstance(v, tuple) else v)
                for k, v in self._data.items()}


def _wrap(value: Any, path: str) -> Any:
    if isinstance(value, Mapping):
        return RuleNode(value, path)
    if isinstance(value, list):
        return tuple(_wrap(v, f"{path}[{i}]") for i, v in enumerate(value))
    return value


class Rules(RuleNode):
    """The ``rules`` block of a resolved variant, plus its id for messages."""

    __slots__ = ("variant_id", "_compiled")   # _compiled: set by variants.compiled.compiled_rules

    def __init__(self, rules: Mapping[str, Any], variant_id: str = "?"):
        super().__init__(rules, "rules")
        object.__setattr__(self, "variant_id", variant_id)
