"""The corpus scenarios whose hand-derived outcomes differ between rule sets.

A rule change is easiest to believe on a worked case: "bid 90, take 89 —
252 to the defenders here, 250 there". Every fixture of the corpus whose
expectation differs between the rule sets compared is listed with both
outcomes, its title, the source sentence it rests on, and the arithmetic
comment written beside each expected field in the fixture file.

``expectation`` is the one place that says what a fixture expects of a rule
set, so that expectations carried by ``depends_on`` can take its place.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..conformance.fixtures import Expectation, Fixture, load_corpus

NO_EXPECTATION = "no expectation for this rule set in the corpus"


def expectation(fixture: Fixture, variant) -> tuple[Expectation | None, str]:
    """What ``fixture`` expects of ``variant``, and how it is known: "hand", "carried from X",
    "engine" (a fixture a program wrote), or why there is nothing. The runner's own lookup
    (``conformance.carry.find``), so a comparison and a conformance run never disagree."""
    from ..conformance.carry import find
    source = find(fixture, variant)
    if source is None:
        return None, NO_EXPECTATION
    how = f"carried from {source.carried_from}" if source.carried_from else source.expected_by
    return source.expectation, how


@dataclass(frozen=True)
class Outcome:
    """One rule set's side of a scenario: the expected fields (or why none) and their comments."""

    fields: dict | None
    note: str                      # "hand", not_applicable's reason, or NO_EXPECTATION
    comments: tuple[str, ...]      # "score: defenders 162 + 90 = 252 (x1)"

    def to_json(self) -> dict:
        return {"expected": self.fields, "expected_by": self.note if self.fields is not None else None,
                "note": None if self.fields is not None else self.note, "arithmetic": list(self.comments)}


@dataclass(frozen=True)
class Scenario:
    fixture: Fixture
    outcomes: tuple[Outcome, ...]

    @property
    def quote(self) -> str | None:
        from ..sources import source_title
        s = self.fixture.sources
        if not s or not s[0].get("quote"):
            return None
        where = ", ".join(x for x in (source_title(str(s[0].get("seed") or s[0].get("doc") or "")),
                                      s[0].get("section")) if x)
        return f"\"{s[0]['quote']}\"" + (f" ({where})" if where else "")


@functools.lru_cache(maxsize=1)
def shipped_corpus() -> tuple:
    """The corpus, read and checked once per process (a site compares several groups of rule sets)."""
    return tuple(load_corpus())


_ID_LINE = re.compile(r"^\s*-\s+id:")
_KEY_LINE = re.compile(r"^(\s*)([^#:]+):(.*)$")


def _expect_comments(fixture: Fixture, vid: str, cache: dict) -> tuple[str, ...]:
    """The comments beside the fields of ``vid``'s expectation in the fixture file (the arithmetic)."""
    path = Path(fixture.file)
    if path not in cache:
        try:
            cache[path] = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    start = (fixture.line or 1) - 1
    end = next((i for i in range(start + 1, len(lines)) if _ID_LINE.match(lines[i])), len(lines))
    i = next((i for i in range(start, end) if lines[i].strip().startswith("expect:")), None)
    if i is None:
        return ()
    for j in range(i + 1, end):
        m = _KEY_LINE.match(lines[j])
        if not m or vid not in [k.strip() for k in m.group(2).split(",")]:
            continue
        indent, out = len(m.group(1)), []
        for k in range(j + 1, end):
            text = lines[k]
            if not text.strip():
                continue
            if len(text) - len(text.lstrip()) <= indent:
                break
            if "#" in text:
                key = text.split(":", 1)[0].strip()
                out.append(f"{key}: {text.split('#', 1)[1].strip()}")
        return tuple(out)
    return ()


def differing(variants: list, fixtures: list[Fixture] | None = None) -> tuple[list[Scenario], int, list[str]]:
    """The scenarios whose outcome is not the same under every rule set that has one.

    Returns them, how many fixtures were looked at, and the rule sets no fixture has an
    expectation for (their outcomes cannot be compared: the output says so)."""
    fixtures = shipped_corpus() if fixtures is None else fixtures
    cache: dict = {}
    out = []
    seen = set()
    for f in fixtures:
        found = [expectation(f, v) for v in variants]
        keys = [json.dumps(e.fields, sort_keys=True) if e.applicable else "n/a: " + e.not_applicable
                for e, _ in found if e is not None]
        seen.update(v.id for v, (e, _) in zip(variants, found) if e is not None)
        if len(keys) < 2 or len(set(keys)) == 1:
            continue
        outcomes = []
        for v, (e, how) in zip(variants, found):
            if e is None:
                outcomes.append(Outcome(None, how, ()))
            elif not e.applicable:
                outcomes.append(Outcome(None, f"not applicable: {e.not_applicable}", ()))
            else:
                written_for = how[len("carried from "):] if how.startswith("carried from ") else v.id
                outcomes.append(Outcome(e.fields, how, _expect_comments(f, written_for, cache)))
        out.append(Scenario(f, tuple(outcomes)))
    return out, len(fixtures), [v.id for v in variants if v.id not in seen]


def shown_fields(scenario: Scenario) -> list[str]:
    """The expected fields worth showing side by side: those whose values differ (all, if none do)."""
    present = [o.fields for o in scenario.outcomes if o.fields is not None]
    keys = []
    for fields in present:
        keys += [k for k in fields if k not in keys]
    # a field one expectation leaves out is not checked there: it differs only where both give it
    differ = [k for k in keys
              if len({json.dumps(f[k], sort_keys=True) for f in present if k in f}) > 1]
    return differ or keys


def show_fields(fields: dict, keys=None) -> str:
    """An expectation on one line: ``made false; score NS 0, EW 252`` (only ``keys``, if given)."""
    parts = []
    for key, value in fields.items():
        if keys is not None and key not in keys:
            continue
        if isinstance(value, dict) and all(not isinstance(v, (dict, list)) for v in value.values()):
            shown = ", ".join(f"{k} {json.dumps(v, ensure_ascii=False)}" for k, v in value.items())
        else:
            shown = json.dumps(value, ensure_ascii=False)
        parts.append(f"{key} {shown}")
    return "; ".join(parts)
