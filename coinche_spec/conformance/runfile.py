"""Reading a conformance results file (``--report-jsonl``) back, and counting what it holds.

``coinche-spec report`` sets several runs side by side, so every file it is
given must be whole and what it says it is: a header first, case records,
a footer last whose counts match the cases. Anything else — not JSON, a
line that is not an object, a missing header (a file from an older
coinche-spec, or not a run at all), a missing footer (a run cut short), a
case record without its fields — is a ``RunFileError`` naming the file and
the line. The counts (pass, fail, other, skip) are worked out from the case
records here once, for the text summary and the HTML alike.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .. import inputs
from ..errors import CoincheSpecError
from .fixtures import AREAS
from .records import WENT_WRONG, implementation_label
from .runner import OUTCOMES

MAX_RUN_BYTES = 64 * 1024 * 1024   # a full run of every rule set is about 2 MB; docs/limits.md
OTHER = ("error", "timeout", "defect", "not run")   # neither passed nor failed, but played and gone wrong
CASE_FIELDS = ("fixture", "variant", "area", "outcome", "expected_by")


class RunFileError(CoincheSpecError):
    """A results file that cannot be read as a whole run: ``FILE:LINE: message``."""

    def __init__(self, file: str, line: int | None, message: str):
        super().__init__(f"{file}:{line}: {message}" if line else f"{file}: {message}")
        self.message = message
        self.locate(file, line)


@dataclass
class Run:
    """One run file: its header, its case records and its footer."""

    file: str
    header: dict
    cases: list
    footer: dict
    label: str = ""
    rule_sets: list = field(default_factory=list)   # ids, in the header's order

    def cells(self) -> dict:
        """(area, rule set) -> Tally, and (None, rule set) -> the rule set's Tally."""
        out: dict = {}
        for c in self.cases:
            for key in ((c["area"], c["variant"]), (None, c["variant"])):
                out.setdefault(key, Tally()).add(c["outcome"])
        return out

    def areas(self) -> list[str]:
        present = {c["area"] for c in self.cases}
        return [a for a in AREAS if a in present] + sorted(present - set(AREAS))

    def problems(self) -> list[dict]:
        return [c for c in self.cases if c["outcome"] in WENT_WRONG]


@dataclass
class Tally:
    """Cases of one cell: passed, failed, gone wrong otherwise, skipped (n/a left out)."""

    passed: int = 0
    failed: int = 0
    other: int = 0
    skipped: int = 0

    def add(self, outcome: str) -> None:
        if outcome == "pass":
            self.passed += 1
        elif outcome == "fail":
            self.failed += 1
        elif outcome in OTHER:
            self.other += 1
        elif outcome == "skip":
            self.skipped += 1

    @property
    def played(self) -> int:
        return self.passed + self.failed + self.other

    def text(self) -> str:
        """``40/42 (1 fail, 1 other, +3 skip)``; ``-`` when nothing there was played or skipped."""
        if not self.played and not self.skipped:
            return "-"
        bits = [f"{n} {w}" for n, w in ((self.failed, "fail"), (self.other, "other")) if n]
        bits += [f"+{self.skipped} skip"] if self.skipped else []
        return f"{self.passed}/{self.played}" + (f" ({', '.join(bits)})" if bits else "")


def _decode(file: str, number: int, line: str) -> dict:
    from ..protocol import jsonline
    try:
        value = jsonline.decode(line)   # strict: no nesting past 64 levels, no key twice, no NaN
    except jsonline.LineError as exc:
        if exc.message.startswith("the line is not JSON: "):
            raise RunFileError(file, number, f"not JSON ({exc.message.removeprefix('the line is not JSON: ')})") \
                from None
        raise RunFileError(file, number, exc.message.replace("the line ", "the record ", 1)) from None
    if not isinstance(value, dict):
        raise RunFileError(file, number, "expected a JSON object (a header, case or footer record)")
    return value


def _check_case(file: str, number: int, record: dict) -> None:
    for name in CASE_FIELDS:
        if not isinstance(record.get(name), str):
            raise RunFileError(file, number, f"case record: field {name!r} is missing or not a string")
    if record["outcome"] not in OUTCOMES:
        raise RunFileError(file, number, f"case record: outcome {record['outcome']!r} is not one of "
                                         + ", ".join(OUTCOMES))


def parse_run(text: str, file: str) -> Run:
    """A run from the text of a results file; RunFileError at the first thing that is wrong."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise RunFileError(file, None, "the file is empty: not a conformance run (write one with "
                                       "coinche-spec conformance --report-jsonl FILE)")
    first_no, first = lines[0]
    head = _decode(file, first_no, first)
    if head.get("record") != "header":
        what = "a case record written by an older coinche-spec" if "fixture" in head else "not a header record"
        raise RunFileError(file, first_no, f"the first record is {what}: a run file opens with "
                                           "{\"record\": \"header\", ...} (rerun with this coinche-spec)")
    cases, foot, foot_line = [], None, None
    for number, line in lines[1:]:
        record = _decode(file, number, line)
        kind = record.get("record")
        if foot is not None:
            raise RunFileError(file, number, f"a {kind or 'record'} after the footer (line {foot_line}): "
                                             "two runs pasted together?")
        if kind == "case":
            _check_case(file, number, record)
            cases.append(record)
        elif kind == "footer":
            foot, foot_line = record, number
        elif kind == "header":
            raise RunFileError(file, number, f"a second header (the first is on line {first_no})")
        else:
            raise RunFileError(file, number, f"record {kind!r} is not header, case or footer")
    if foot is None:
        raise RunFileError(file, lines[-1][0], f"no footer record after the last line: the run is truncated "
                                               f"({len(cases)} case records read)")
    if foot.get("cases") != len(cases):
        raise RunFileError(file, foot_line, f"the footer counts {foot.get('cases')} cases but the file holds "
                                            f"{len(cases)}: the file is truncated or was edited")
    rule_sets = [r.get("id") for r in head.get("rule_sets") or [] if isinstance(r, dict)]
    for c in cases:
        if c["variant"] not in rule_sets:
            rule_sets.append(c["variant"])
    return Run(file, head, cases, foot, implementation_label(head), rule_sets)


def read_run(path) -> Run:
    """The run in a results file; RunFileError (or InputError for a file that cannot be read)."""
    return parse_run(inputs.read_text(path, str(path), limit=MAX_RUN_BYTES), str(path))


def from_records(records: list[dict], file: str = "(this run)") -> Run:
    """The run the conformance command holds in memory, as a file would give it back."""
    return parse_run("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), file)
