"""The fixture corpus: strict loading of ``conformance/*.yaml``.

A fixture is a scenario a person worked out by hand, with the result every
shipped rule set must give. The loader refuses anything it would otherwise
have to guess about — a duplicate key, an unknown field, a misspelt rule set,
a card that does not exist, an expectation field the case kind never
returns, a rule set forgotten in ``expect``, an id used twice or retired —
and reports every problem as one line ``FILE:LINE:COL: path: message``.

Cases are canonicalised here (``10H`` becomes ``TH``) so that the runner
sends every implementation the same canonical bytes.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import yamlstrict
from ..protocol.cases import CaseError, canonicalise, check_for_rules
from ..protocol.cases import check_cards as _cards
from ..protocol.cases import check_contract as _contract
from ..protocol.cases import check_int as _int
from ..protocol.cases import check_object as _object
from ..protocol.cases import check_seat as _seat
from ..protocol.cases import check_seat_keyed as _seat_keyed
from ..protocol.cases import check_team as _team
from ..protocol.cases import check_team_ints as _team_ints
from ..resources import corpus_dir, fixture_schema_path

AREAS = ("dealing", "auction", "play", "perft", "melds", "belote", "scoring", "match", "deal")
RETIRED_FILE = "retired-ids.txt"


class CorpusError(Exception):
    """The corpus has problems; ``problems`` holds one line each."""

    def __init__(self, problems: list):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class Expectation:
    """What one rule set must answer: the fields to check, or why the case does not apply."""

    fields: dict | None = None
    not_applicable: str | None = None

    @property
    def applicable(self) -> bool:
        return self.not_applicable is None


@dataclass
class Fixture:
    id: str
    title: str
    area: str
    kind: str
    case: dict                      # canonical
    expect: dict                    # variant id -> Expectation
    file: str
    line: int | None = None
    tags: list = field(default_factory=list)
    exercises: list = field(default_factory=list)
    sources: list = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


# --- expectation fields, kind by kind ---------------------------------------
# Each checker takes (value, path) and returns the value in canonical form, or
# raises CaseError; the path is relative to the fixture.

def _null_or(check):
    def inner(value, path):
        return None if value is None else check(value, path)
    return inner


def _bool(value, path):
    if not isinstance(value, bool):
        raise CaseError(path, f"expected true or false, got {value!r}")
    return value


def _enum(*choices):
    def inner(value, path):
        if value not in choices:
            raise CaseError(path, f"{value!r} is not one of: {', '.join(map(str, choices))}")
        return value
    return inner


def _count(value, path):
    return _int(value, path, 0)


def _card_list(value, path):
    return _cards(value, path, 0, 32)


def _teams(value, path):
    return _team_ints(value, path, None, None)


def _hands(value, path):
    return {seat: _cards(raw, path + (key,), 0, 32) for seat, (key, raw) in _seat_keyed(value, path).items()}


def _rejected(value, path):
    if value is True or (isinstance(value, str) and value.strip()):
        return value
    raise CaseError(path, "expected true (any reason) or the reason as text")


def _invalid(value, path):
    if not isinstance(value, list):
        raise CaseError(path, "expected a list of declarations (each a list of cards)")
    return [_cards(m, path + (i,), 1, 32) for i, m in enumerate(value)]


def _deal_accepted(value, path):
    _object(value, path, ("calls", "plays"))
    return {"calls": _int(value["calls"], path + ("calls",), 0),
            "plays": _int(value["plays"], path + ("plays",), 0, 32)}


def _tricks(value, path):
    if not isinstance(value, list):
        raise CaseError(path, "expected a list of tricks")
    out = []
    for i, t in enumerate(value):
        p = path + (i,)
        _object(t, p, ("leader", "winner", "cards"))
        out.append({"leader": _seat(t["leader"], p + ("leader",)), "winner": _seat(t["winner"], p + ("winner",)),
                    "cards": _cards(t["cards"], p + ("cards",), 4, 4)})
    return out


def _contract_or_null(value, path):
    return None if value is None else _contract(value, path)


EXPECT_FIELDS: dict[str, dict] = {
    "legal_cards": {"legal": _card_list},
    "auction": {"accepted": _count, "state": _enum("open", "contract", "redeal"),
                "to_act": _null_or(_seat), "contract": _contract_or_null},
    "deal": {"accepted": _deal_accepted, "contract": _contract_or_null, "tricks": _tricks,
             "tricks_won": _teams, "card_points": _null_or(_teams), "melds": _null_or(_teams),
             "belote": _null_or(_team), "made": _null_or(_bool), "score": _null_or(_teams),
             "legal_next": _card_list},
    "score": {"made": _bool, "card_points": _teams, "score": _teams},
    "melds": {"winner": _null_or(_team), "points": _teams, "invalid": _invalid},
    "match": {"state": _enum("open", "over"), "winner": _null_or(_team), "totals": _teams},
    "dealing": {"hands": _hands, "rejected": _rejected},
    "perft": {"count": _count},
}


def check_expectation(kind: str, value: dict, path: tuple = ()) -> dict:
    """The expectation with every field checked and written canonically."""
    allowed = EXPECT_FIELDS[kind]
    out = {}
    for key, item in value.items():
        if key not in allowed:
            raise CaseError(path + (key,), f"a {kind} result has no field {key!r} (it has: {', '.join(allowed)})")
        out[key] = allowed[key](item, path + (key,))
    if "hands" in out and "rejected" in out:
        raise CaseError(path, "a dealing is either rejected or dealt: expect hands or rejected, not both")
    return out


# --- rule paths named in `exercises` -----------------------------------------

def rule_paths(rules: dict, prefix: tuple = ()) -> set:
    """Every path into a rules document, groups and leaves alike, as dotted strings."""
    out = set()
    for key, value in rules.items():
        path = prefix + (str(key),)
        out.add(".".join(path))
        if isinstance(value, dict):
            out |= rule_paths(value, path)
    return out


# --- loading -------------------------------------------------------------------

def read_retired(directory: Path) -> set:
    path = Path(directory) / RETIRED_FILE
    if not path.exists():
        return set()
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.add(line)
    return out


def _display(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive
        return str(path)
    return str(path) if rel.startswith("..") else rel


def _split_ids(key: str) -> list[str]:
    return [part.strip() for part in key.split(",")]


class _FileLoader:
    def __init__(self, display: str, positions, known_variants: list[str], known_paths: set,
                 retired: set, seen_ids: dict, rule_sets: dict | None = None):
        self.rule_sets = rule_sets if rule_sets is not None else _known_rule_sets()
        self.display = display
        self.positions = positions
        self.known_variants = known_variants
        self.known_paths = known_paths
        self.retired = retired
        self.seen_ids = seen_ids
        self.problems: list = []

    def answerable(self, case: dict, epath: tuple, vid: str) -> bool:
        """An expectation for a case the rule set cannot even be asked (a tout atout trick where tout
        atout may not be bid) would only ever meet an errored reply: say so, and how to mark it."""
        try:
            check_for_rules(self.rule_sets[vid], case)
        except CaseError as exc:
            self.problem(epath, f"{vid}: {exc}; mark this rule set not_applicable")
            return False
        return True

    def where(self, path: tuple, prefer_key: bool = True) -> tuple:
        pos = self.positions.nearest(path, prefer_key) if self.positions is not None else None
        return (pos[0], pos[1]) if pos else (None, None)

    def problem(self, path: tuple, message: str, prefer_key: bool = True) -> None:
        line, col = self.where(path, prefer_key)
        # a key naming several rule sets is shown without its spaces: expect.contree-701,cafe-1000.score
        shown = tuple(p.replace(" ", "") if isinstance(p, str) and "," in p else p for p in path)
        self.problems.append(yamlstrict.Problem(self.display, line, col, shown, message))

    def fixture(self, area: str, index: int, raw: dict) -> Fixture | None:
        base = ("fixtures", index)
        fid = raw["id"]
        count_before = len(self.problems)
        if fid in self.retired:
            self.problem(base + ("id",), f"id {fid!r} is retired (conformance/{RETIRED_FILE}): choose a new id")
        elif fid in self.seen_ids:
            self.problem(base + ("id",), f"id {fid!r} is already used at {self.seen_ids[fid]}")
        else:
            line, _ = self.where(base + ("id",))
            self.seen_ids[fid] = f"{self.display}:{line}" if line else self.display

        for i, rule in enumerate(raw.get("exercises") or []):
            if rule not in self.known_paths:
                self.problem(base + ("exercises", i), f"{rule!r} is not a rule path of the variant schema "
                                                      "(write it without 'rules.', e.g. auction.coinche.when)")
        try:
            case = canonicalise(raw["case"], ("case",))
        except CaseError as exc:
            self.problem(base + exc.path, exc.message, prefer_key=False)
            case = None

        expect: dict = {}
        named: set = set()
        for key, value in raw["expect"].items():
            epath = base + ("expect", key)
            ids = _split_ids(key)
            for vid in ids:
                if vid not in self.known_variants:
                    self.problem(epath, f"unknown rule set {vid!r} (shipped: {', '.join(self.known_variants)})")
                elif vid in named:
                    self.problem(epath, f"rule set {vid!r} has more than one expectation in this fixture")
                named.add(vid)
            if "not_applicable" in value:
                if len(value) > 1:
                    extra = ", ".join(k for k in value if k != "not_applicable")
                    self.problem(epath, f"not_applicable stands alone: remove {extra}")
                    continue
                expectation = Expectation(not_applicable=value["not_applicable"])
            else:
                if case is None:
                    continue
                try:
                    fields = check_expectation(case["kind"], value, epath)
                except CaseError as exc:
                    self.problem(exc.path, exc.message, prefer_key=False)
                    continue
                expectation = Expectation(fields=fields)
            for vid in ids:
                if vid in self.known_variants and vid not in expect:
                    if expectation.applicable and not self.answerable(case, epath, vid):
                        continue
                    expect[vid] = expectation
        missing = [v for v in self.known_variants if v not in named]
        if missing:
            self.problem(base + ("expect",), "no expectation for " + ", ".join(missing)
                         + " (every shipped rule set needs one, or not_applicable with a reason)")
        if len(self.problems) > count_before or case is None:
            return None
        line, _ = self.where(base, prefer_key=False)
        return Fixture(id=fid, title=raw["title"], area=area, kind=case["kind"], case=case, expect=expect,
                       file=self.display, line=line, tags=list(raw.get("tags") or []),
                       exercises=list(raw.get("exercises") or []), sources=list(raw.get("sources") or []))


def _schema_validator():
    import jsonschema
    schema = json.loads(fixture_schema_path().read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _known_rule_sets() -> dict:
    """Shipped id -> its rules, read once per corpus load."""
    from ..variants import load_variant, shipped_ids
    return {vid: load_variant(vid).rules for vid in shipped_ids()}


def _known_rules() -> tuple[list[str], set]:
    from ..variants import load_variant, shipped_ids
    ids = shipped_ids()
    paths: set = set()
    for vid in ids:
        paths |= rule_paths(load_variant(vid).document["rules"])
    return ids, paths


# Not fixtures for this loader (yet): ``rulesets/`` holds test rule sets, and ``rules-*.yaml`` hold
# fixtures in the format of CONTRACTS.md (``depends_on``, expectations keyed by test rule sets),
# which branch core7's loader reads. Until that loader is merged, tests/test_rules_fixtures.py
# checks them against the engine; at the merge, drop PENDING and let the corpus load them.
PENDING = ("rules-*.yaml",)


def corpus_files(directory: Path) -> list[Path]:
    root = Path(directory)
    return sorted(p for p in root.rglob("*.yaml") if p.is_file()
                  and p.parent.name != "rulesets" and not any(p.match(g) for g in PENDING))


def load_corpus(directory: Path | str | None = None) -> list[Fixture]:
    """Every fixture of the corpus, checked; raises CorpusError listing every problem."""
    directory = Path(directory) if directory is not None else corpus_dir()
    if not directory.is_dir():
        raise CorpusError([f"{directory}: the corpus directory does not exist"])
    known_variants, known_paths = _known_rules()
    rule_sets = _known_rule_sets()
    retired = read_retired(directory)
    validator = _schema_validator()
    seen_ids: dict = {}
    problems: list = []
    fixtures: list[Fixture] = []
    for path in corpus_files(directory):
        display = _display(path)
        try:
            data, positions = yamlstrict.load_file(path, display)
        except yamlstrict.YamlStrictError as exc:
            problems.extend(exc.problems)
            continue
        loader = _FileLoader(display, positions, known_variants, known_paths, retired, seen_ids, rule_sets)

        def locate(p, prefer_key, _loader=loader):
            line, col = _loader.where(tuple(p), prefer_key)
            return display, line, col

        errors = list(validator.iter_errors(data))
        schema_problems = yamlstrict.schema_problems(errors, locate)
        problems.extend(schema_problems)
        if not isinstance(data, dict) or not isinstance(data.get("fixtures"), list):
            continue
        # fixtures the schema already refused are not checked further
        refused = {tuple(e.absolute_path)[1] for e in errors
                   if len(e.absolute_path) >= 2 and e.absolute_path[0] == "fixtures"}
        if any(len(e.absolute_path) < 2 for e in errors):
            continue
        area = data["area"]
        for i, raw in enumerate(data["fixtures"]):
            if i in refused:
                continue
            fixture = loader.fixture(area, i, raw)
            if fixture is not None:
                fixtures.append(fixture)
        problems.extend(loader.problems)
    if problems:
        raise CorpusError(problems)
    return fixtures


def select(fixtures: list[Fixture], keyword: str | list[str] | tuple | None) -> list[Fixture]:
    """Fixtures whose id, title, area, kind or a tag contains the keyword (case-insensitive).

    Several keywords (``-k belote -k score``) select the fixtures matching any of them."""
    if isinstance(keyword, str):
        keyword = [keyword]
    words = [k.lower() for k in keyword or () if k]
    if not words:
        return list(fixtures)

    def matches(f: Fixture, k: str) -> bool:
        return (k in f.id.lower() or k in f.title.lower() or k in f.area or k in f.kind
                or any(k in t.lower() for t in f.tags))

    return [f for f in fixtures if any(matches(f, k) for k in words)]


def normalised(fields: dict) -> Any:
    """An expectation in a form where equal meaning gives equal values (sets sorted)."""
    out = {}
    for key, value in fields.items():
        if key in ("legal", "legal_next") and isinstance(value, list):
            value = sorted(value)
        elif key == "invalid" and isinstance(value, list):
            value = sorted(sorted(m) for m in value)
        elif key == "rejected":
            value = True
        out[key] = value
    return out


