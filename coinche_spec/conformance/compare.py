"""Comparing an implementation's result with a fixture's expectation.

Only the fields the fixture expects are looked at; anything else the result
carries is ignored, so an implementation may add fields freely. ``legal`` and
``legal_next`` are sets of cards; ``invalid`` (declarations that are not
melds) is compared without regard to order, since the protocol does not fix
one; ``rejected`` checks that the dealing was refused, not the wording of the
reason. Everything else must be equal, and of the same JSON type: ``true``
is not ``1``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()


@dataclass(frozen=True)
class Diff:
    """One field that differs: where, what the fixture expects, what came back."""

    field: str
    expected: Any
    got: Any
    note: str = ""

    def to_json(self) -> dict:
        out = {"field": self.field, "expected": self.expected,
               "got": None if self.got is MISSING else self.got, "missing": self.got is MISSING}
        if self.note:
            out["note"] = self.note
        return out

    def __str__(self) -> str:
        got = "nothing (the field is missing)" if self.got is MISSING else show(self.got)
        text = f"{self.field}: expected {show(self.expected)}, got {got}"
        return text + (f" ({self.note})" if self.note else "")


def show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False, separators=(", ", ": "))


def same(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value, but a boolean only equals a boolean."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _join(prefix: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else str(key)


def _compare_value(name: str, expected: Any, got: Any, out: list) -> None:
    if isinstance(expected, dict) and isinstance(got, dict):
        for key, value in expected.items():
            if key not in got:
                out.append(Diff(_join(name, key), value, MISSING))
            else:
                _compare_value(_join(name, key), value, got[key], out)
        return
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        for i, (e, g) in enumerate(zip(expected, got)):
            _compare_value(_join(name, i), e, g, out)
        return
    if not same(expected, got):
        note = ""
        if isinstance(expected, list) and isinstance(got, list):
            note = f"{len(expected)} expected, {len(got)} received"
        out.append(Diff(name, expected, got, note))


def _as_card_set(value: Any):
    if isinstance(value, list) and all(isinstance(c, str) for c in value):
        return set(value)
    return None


def _compare_set(name: str, expected: list, got: Any, out: list) -> None:
    want, have = _as_card_set(expected), _as_card_set(got)
    if have is None or len(have) != len(got):
        out.append(Diff(name, expected, got, "expected a list of distinct cards"))
        return
    if want != have:
        missing = sorted(want - have)
        extra = sorted(have - want)
        bits = []
        if missing:
            bits.append("not received: " + " ".join(missing))
        if extra:
            bits.append("not expected: " + " ".join(extra))
        out.append(Diff(name, expected, got, "; ".join(bits)))


def _compare_declarations(name: str, expected: list, got: Any, out: list) -> None:
    def key(decls):
        if not isinstance(decls, list) or not all(isinstance(d, list) for d in decls):
            return None
        if not all(isinstance(c, str) for d in decls for c in d):
            return None
        return sorted(tuple(sorted(d)) for d in decls)
    if key(got) is None or key(expected) != key(got):
        out.append(Diff(name, expected, got, "compared without regard to order"))


def _compare_rejected(name: str, expected: Any, got: Any, out: list) -> None:
    if not (isinstance(got, str) and got.strip()):
        out.append(Diff(name, expected, got, "expected the dealing to be rejected, with a reason"))


_SPECIAL = {"legal": _compare_set, "legal_next": _compare_set, "invalid": _compare_declarations,
            "rejected": _compare_rejected}


def compare(expected: dict, result: dict) -> list[Diff]:
    """Every difference between the expected fields and the result; empty when it passes."""
    out: list[Diff] = []
    for key, value in expected.items():
        if key not in result:
            out.append(Diff(key, value, MISSING))
            continue
        special = _SPECIAL.get(key)
        if special is not None:
            special(key, value, result[key], out)
        else:
            _compare_value(key, value, result[key], out)
    return out
