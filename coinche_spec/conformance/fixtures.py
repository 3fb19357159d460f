"""The fixture corpus: strict loading of ``conformance/*.yaml``.

A fixture is a scenario a person worked out by hand, with the result some
rule sets must give (``expect``, keyed by rule set id or by a rule-set file
relative to the fixture file) and the rules that result depends on
(``depends_on``), by which it carries to other rule sets (see carry.py). The
loader refuses anything it would otherwise have to guess about — a duplicate
key, an unknown field, a misspelt rule set or rule path, a card that does not
exist, an expectation field the case kind never returns, an id used twice or
retired — and reports every problem as one line ``FILE:LINE:COL: path: message``.

Cases are canonicalised here (``10H`` becomes ``TH``) so that the runner
sends every implementation the same canonical bytes.
"""

from __future__ import annotations

import json
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import inputs, yamlstrict
from ..errors import CoincheSpecError
from ..protocol.cases import CaseError, PlayOrderError, canonicalise, check_for_rules
from ..protocol.cases import check_cards as _cards
from ..protocol.cases import check_contract as _contract
from ..protocol.cases import check_int as _int
from ..protocol.cases import check_object as _object
from ..protocol.cases import check_seat as _seat
from ..protocol.cases import check_seat_keyed as _seat_keyed
from ..protocol.cases import check_team as _team
from ..protocol.cases import check_team_ints as _team_ints
from ..resources import corpus_dir, fixture_schema_path
from .rulepaths import covers, known_paths

AREAS = ("dealing", "auction", "play", "perft", "melds", "belote", "scoring", "match", "deal")
RETIRED_FILE = "retired-ids.txt"


class CorpusError(CoincheSpecError):
    """The corpus has problems; ``problems`` holds one line each."""

    def __init__(self, problems: list):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
        first = next((p for p in self.problems if hasattr(p, "filename") and hasattr(p, "line")), None)
        if first is not None:           # the first located problem's place (yamlstrict.Problem)
            self.locate(first.filename, first.line, getattr(first, "col", None), getattr(first, "path", ()))


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
    expect: dict                    # rule set id -> Expectation
    file: str
    line: int | None = None
    tags: list = field(default_factory=list)
    exercises: list = field(default_factory=list)
    sources: list = field(default_factory=list)
    depends_on: list | None = None  # None: not declared, so the expectations carry nowhere
    expected_by: str = "hand"       # hand, or engine (written by the engine, e.g. by fuzzing)
    rule_sets: dict = field(default_factory=dict, repr=False)  # rule set id -> Variant, for each expect key

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


def _held(value, path):
    """A match result's ``held``: litige points still waiting (present only when some wait)."""
    return _int(value, path, 1)


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
                    "cards": _cards(t["cards"], p + ("cards",), 3, 4)})   # 3: a générale's partner sits out
    return out


def _sides(value, path):
    """A list of sides, each once (a deal's rebelote_forgiven)."""
    if not isinstance(value, list) or len(set(map(str, value))) != len(value):
        raise CaseError(path, "expected a list of sides (NS, EW), each once")
    return [_team(v, path + (i,)) for i, v in enumerate(value)]


def _contract_or_null(value, path):
    return None if value is None else _contract(value, path)


EXPECT_FIELDS: dict[str, dict] = {
    "legal_cards": {"legal": _card_list},
    "auction": {"accepted": _count, "state": _enum("open", "contract", "redeal"),
                "to_act": _null_or(_seat), "contract": _contract_or_null},
    "deal": {"accepted": _deal_accepted, "contract": _contract_or_null, "tricks": _tricks,
             "tricks_won": _teams, "card_points": _null_or(_teams), "melds": _null_or(_teams),
             "belote": _null_or(_team), "made": _null_or(_bool), "score": _null_or(_teams),
             "legal_next": _card_list, "rebelote_forgiven": _sides},
    "score": {"made": _bool, "card_points": _teams, "score": _teams, "held": _teams},
    "melds": {"winner": _null_or(_team), "points": _teams, "invalid": _invalid},
    "match": {"state": _enum("open", "over"), "winner": _null_or(_team), "totals": _teams, "held": _held},
    "dealing": {"hands": _hands, "rejected": _rejected, "before_auction": _hands},
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
    if "rejected" in out and ("hands" in out or "before_auction" in out):
        raise CaseError(path, "a dealing is either rejected or dealt: expect hands or rejected, not both")
    return out


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
    if not os.path.lexists(path):
        return set()
    try:
        text = inputs.read_text(path, _display(path))
    except inputs.InputError as exc:
        raise CorpusError([yamlstrict.Problem(exc.file, None, None, (), exc.message)]) from None
    out = set()
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.add(line)
    return out


def _display(path: Path) -> str:
    from ..resources import shown_path
    return shown_path(path)


def _split_ids(key: str) -> list[str]:
    return [part.strip() for part in key.split(",")]


class RuleSets:
    """The rule sets named by ``expect`` keys, loaded once per corpus: an id, or a file path relative
    to the fixture file (``rulesets/foo.yaml``)."""

    def __init__(self) -> None:
        self._loaded: dict = {}

    def get(self, name: str, folder: Path):
        """The Variant the key names, or the reason it names none (a str)."""
        from ..variants import VariantError, load_variant
        from ..variants.loader import _looks_like_path
        ref = str((folder / name).resolve()) if _looks_like_path(name) else name
        if ref not in self._loaded:
            try:
                self._loaded[ref] = load_variant(ref)
            except VariantError as exc:
                first = exc.lines[0] if exc.lines else "cannot be loaded"
                if _looks_like_path(name):
                    self._loaded[ref] = f"rule set file {name!r}: {first}"
                else:
                    self._loaded[ref] = f"unknown rule set {name!r}: {first.split(': id: ', 1)[-1]}"
        return self._loaded[ref]


class _FileLoader:
    def __init__(self, display: str, positions, retired: set, seen_ids: dict, rule_sets: RuleSets,
                 folder: Path):
        self.display = display
        self.positions = positions
        self.retired = retired
        self.seen_ids = seen_ids
        self.rule_sets = rule_sets
        self.folder = folder
        self.problems: list = []

    def answerable(self, case: dict, epath: tuple, variant, fid: str) -> bool:
        """An expectation for a case the rule set cannot even be asked (a tout atout trick where tout
        atout may not be bid) would only ever meet an errored reply: say so, and how to mark it."""
        try:
            check_for_rules(variant.rules, case)
        except PlayOrderError as exc:
            self.problem(epath, f"{fid} under {variant.id}: {exc}; judge this rule set in a fixture whose trick goes "
                                f"round its way ({variant.rules.table.direction}): swapping E and W keeps the partners")
            return False
        except CaseError as exc:
            self.problem(epath, f"{variant.id}: {exc}; mark this rule set not_applicable")
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

    def declared_rules(self, base: tuple, raw: dict) -> list | None:
        """``exercises`` and ``depends_on``: rule paths of the schema; what a fixture exercises, its
        outcome must depend on."""
        for name in ("exercises", "depends_on"):
            for i, rule in enumerate(raw.get(name) or []):
                if rule not in known_paths():
                    hint = yamlstrict.suggest(str(rule).removeprefix("rules."), known_paths())
                    self.problem(base + (name, i), f"{rule!r} is not a rule path of the variant schema "
                                                   f"(write it without 'rules.', e.g. auction.coinche.when){hint}")
        depends_on = raw.get("depends_on")
        if depends_on is None:
            return None
        for i, rule in enumerate(raw.get("exercises") or []):
            if rule in known_paths() and not covers(depends_on, rule):
                self.problem(base + ("exercises", i), f"{rule!r} is exercised but not in depends_on: "
                                                      "an outcome that tells it apart depends on it")
        return list(depends_on)

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

        depends_on = self.declared_rules(base, raw)
        try:
            case = canonicalise(raw["case"], ("case",))
        except CaseError as exc:
            self.problem(base + exc.path, exc.message, prefer_key=False)
            case = None

        expect: dict = {}
        variants: dict = {}
        for key, value in raw["expect"].items():
            epath = base + ("expect", key)
            named = []
            for name in _split_ids(key):
                variant = self.rule_sets.get(name, self.folder)
                if isinstance(variant, str):
                    self.problem(epath, variant)
                elif variant.id in variants:
                    self.problem(epath, f"rule set {variant.id!r} has more than one expectation in this fixture")
                else:
                    variants[variant.id] = variant
                    named.append(variant)
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
            for variant in named:
                if expectation.applicable and not self.answerable(case, epath, variant, fid):
                    continue
                expect[variant.id] = expectation
        if len(self.problems) > count_before or case is None:
            return None
        line, _ = self.where(base, prefer_key=False)
        return Fixture(id=fid, title=raw["title"], area=area, kind=case["kind"], case=case, expect=expect,
                       file=self.display, line=line, tags=list(raw.get("tags") or []),
                       exercises=list(raw.get("exercises") or []), sources=list(raw.get("sources") or []),
                       depends_on=depends_on, expected_by=raw.get("expected_by", "hand"),
                       rule_sets={vid: variants[vid] for vid in expect})


def _schema_validator():
    import jsonschema
    schema = json.loads(fixture_schema_path().read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


# Each corpus file read and found well formed, by path and the name messages give it: its text, the
# fixture schema it passed, the data (pickled) and where each value is written. Reading and
# schema-checking are most of a load, and one run may load the corpus many times (a test suite,
# ``conformance`` then its report): a file whose text and schema are unchanged is read once. The data
# is handed out as a fresh copy, so what a reader does to it never reaches the next load.
_WELL_FORMED: dict = {}


def _read_checked(path: Path, display: str, validator) -> tuple:
    """(data, positions, schema errors) of one fixture file; YamlStrictError for one that cannot be read."""
    try:
        text = inputs.read_text(path, display)
    except inputs.InputError as exc:
        raise yamlstrict.YamlStrictError([yamlstrict.Problem(display, None, None, (), exc.message)]) from None
    key = (str(path), display)
    hit = _WELL_FORMED.get(key)
    if hit is not None and hit[0] == text and hit[1] == validator.schema:
        return pickle.loads(hit[2]), hit[3], yamlstrict.capped(())
    data, positions = yamlstrict.load(text, display)
    errors = yamlstrict.capped(validator.iter_errors(data))
    if errors or errors.more:
        _WELL_FORMED.pop(key, None)
    else:
        _WELL_FORMED[key] = (text, validator.schema, pickle.dumps(data), positions)
    return data, positions, errors


RULESETS_DIR = "rulesets"  # rule sets the fixtures name by file (test-only rule sets), not fixtures
REALISED_DIR = "realised"  # whole deals realising the score fixtures (realised.py), not fixtures



def corpus_files(directory: Path) -> list[Path]:
    """Every entry named *.yaml outside a rulesets/ folder: a folder, a link loop or a device so named
    is reported when read, not skipped."""
    directory = Path(directory)
    return sorted(p for p in directory.rglob("*.yaml")
                  if not {RULESETS_DIR, REALISED_DIR} & set(p.relative_to(directory).parts[:-1]))


def load_corpus(directory: Path | str | None = None, extra: list | tuple = (),
                shipped: bool = True) -> list[Fixture]:
    """Every fixture of the corpus, checked; raises CorpusError listing every problem.

    ``directory`` is the main corpus (default: the shipped one; left out when
    ``shipped`` is false); ``extra`` adds user corpus folders. Ids must be unique
    across all of them."""
    folders = [Path(directory) if directory is not None else corpus_dir()] if shipped else []
    extra_folders = [Path(d) for d in extra]
    folders += extra_folders
    missing = [f for f in folders if not f.is_dir()]
    if missing:
        raise CorpusError([f"{f}: the corpus directory does not exist" for f in missing])
    rule_sets = RuleSets()
    validator = _schema_validator()
    seen_ids: dict = {}
    problems: list = []
    fixtures: list[Fixture] = []
    for folder in folders:
        retired = read_retired(folder)
        files = corpus_files(folder)
        if not files and folder in extra_folders:   # a folder named by mistake must not pass unnoticed
            problems.append(f"{folder}: no fixture file (*.yaml) in this corpus folder")
        for path in files:
            problems.extend(_load_file(path, validator, retired, seen_ids, rule_sets, fixtures))
    if problems:
        raise CorpusError(problems)
    return fixtures


def _load_file(path: Path, validator, retired: set, seen_ids: dict, rule_sets: RuleSets,
               fixtures: list) -> list:
    """Load one fixture file into ``fixtures``; returns its problems."""
    display = _display(path)
    try:
        data, positions, errors = _read_checked(path, display, validator)
    except yamlstrict.YamlStrictError as exc:
        return list(exc.problems)
    loader = _FileLoader(display, positions, retired, seen_ids, rule_sets, path.parent)

    def locate(p, prefer_key, _loader=loader):
        line, col = _loader.where(tuple(p), prefer_key)
        return display, line, col

    problems = yamlstrict.schema_problems(errors, locate) + errors.note(display)
    if errors.more:
        return problems
    if not isinstance(data, dict) or not isinstance(data.get("fixtures"), list):
        return problems
    # fixtures the schema already refused are not checked further
    refused = {tuple(e.absolute_path)[1] for e in errors
               if len(e.absolute_path) >= 2 and e.absolute_path[0] == "fixtures"}
    if any(len(e.absolute_path) < 2 for e in errors):
        return problems
    for i, raw in enumerate(data["fixtures"]):
        if i in refused:
            continue
        fixture = loader.fixture(data["area"], i, raw)
        if fixture is not None:
            fixtures.append(fixture)
    return problems + loader.problems


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


