"""Which rules a fixture's outcome really depends on, found by changing them one at a time.

The outcome of a fixture under some rules is what the reference engine
answers, cut down to the fields the fixture's expectations check (an error
or a skip counts as an outcome of its own). A rule matters when changing it
alone changes that outcome.

Trying every change of every rule on every fixture is slow, so each run is
first made once with compiled rules that note what the engine reads (the
facts they work out, such as the strains that may be bid, count as reads of
the rules they come from). The engine is deterministic: if a run never
looks at a rule, changing that rule cannot change the run, and the change
need not be played. Every rule it does look at is changed and played.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..protocol.cases import CaseError, run_canonical
from ..variants.compiled import recording_rules
from ..variants.rules import Rules
from .fixtures import Fixture, normalised
from .variations import variations


def fields_of(fixture: Fixture) -> tuple:
    """The result fields any of the fixture's expectations checks."""
    names: dict = {}
    for expectation in fixture.expect.values():
        for key in expectation.fields or ():
            names[key] = None
    return tuple(names)


def outcome(rules, fixture: Fixture, fields: tuple | None = None):
    """The reference engine's answer to the fixture, reduced to what the fixture checks."""
    from ..engine.errors import EngineError, Unsupported
    fields = fields_of(fixture) if fields is None else fields
    try:
        result = run_canonical(rules, fixture.case)
    except Unsupported:
        return ("skipped",)
    except (CaseError, EngineError):
        return ("errored",)
    return ("result", repr(sorted(normalised({k: result[k] for k in fields if k in result}).items())))


def rules_read(rules_doc: dict, fixture: Fixture) -> set:
    """Every rule path the engine looked at while answering the fixture (``rules.`` first; ``.*`` for
    a group whose keys were listed, ``.**`` for a group read whole)."""
    seen: set = set()
    try:
        run_canonical(recording_rules(rules_doc, seen), fixture.case)
    except Exception:  # noqa: BLE001 - an error is an outcome too; the paths read up to it are what matter
        pass
    return seen


@dataclass(frozen=True)
class _Reads:
    """What one run read, arranged for quick questions: the paths read and every group above them,
    the groups whose keys were listed, the groups read whole."""

    touched: frozenset
    listed: frozenset
    whole: tuple

    @classmethod
    def of(cls, read: set) -> "_Reads":
        touched, listed, whole = set(), set(), []
        for r in read:
            r = r.split("[", 1)[0]  # an element of a list: the list was read
            if r.endswith(".**"):
                whole.append(r[:-3])
            elif r.endswith(".*"):
                listed.add(r[:-2])
            else:
                parts = r.split(".")
                touched.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        return cls(frozenset(touched), frozenset(listed), tuple(whole))

    def saw(self, path: str) -> bool:
        """Whether the run may have seen the rule at ``path`` or anything under it."""
        path = "rules." + path
        if path in self.touched or path.rpartition(".")[0] in self.listed:
            return True
        if any(g == path or g.startswith(path + ".") for g in self.listed):
            return True
        return any(path == w or path.startswith(w + ".") or w.startswith(path + ".") for w in self.whole)


@dataclass(frozen=True)
class Change:
    """A rule whose change alone changed the fixture's outcome."""

    path: str
    value: object
    before: tuple
    after: tuple


def changes_by_rule_set(fixtures: list[Fixture], document: dict,
                        skip=lambda fixture, path: False) -> dict:
    """Every one-rule change of ``document`` that changes a fixture's outcome, for many fixtures under
    one rule set: fixture id -> [Change] (changes ``skip(fixture, path)`` names are not tried).

    Each changed rule set is played on every fixture before the next is built,
    so the engine compiles it once (its caches hold only a few rule sets). Only the rules some fixture
    both read and does not skip are changed: the others could not change an outcome here."""
    base = Rules(document["rules"], document["id"])
    plan = []
    for f in fixtures:
        fields = fields_of(f)
        plan.append((f, fields, outcome(base, f, fields),
                     _Reads.of(rules_read(document["rules"], f))))
    out: dict = {f.id: [] for f in fixtures}
    players: dict = {}      # rule path -> the fixtures that read it and do not skip it (asked once a path)

    def wanted(path: str) -> bool:
        players[path] = [(f, fields, before) for f, fields, before, read in plan
                         if read.saw(path) and not skip(f, path)]
        return bool(players[path])

    for v in variations(document, wanted):
        for f, fields, before in players[v.path]:
            after = outcome(v.rules, f, fields)
            if after != before:
                out[f.id].append(Change(v.path, v.value, before, after))
    return out
