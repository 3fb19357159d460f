"""The results board: every published implementation against every rule set it was run under.

One row per implementation report (docs/implementations/NAME.json, as ``docs
--implementations`` writes it), one column per rule set, each cell the cases
passed out of those answered, or why there are none: the implementation does
not play that rule set, or skipped every case. Read from the reports' own
footers, so the board says nothing the reports do not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

WENT_WRONG = ("fail", "error", "timeout", "defect")


@dataclass(frozen=True)
class Cell:
    text: str
    state: str           # "pass" | "fail" | "refused" | "skipped"
    title: str = ""


@dataclass
class Row:
    name: str            # the implementation and its version
    report: str          # the report page's file name
    cells: dict = field(default_factory=dict)    # rule set id -> Cell
    fuzz: str = ""


def read_reports(folder: Path) -> list[dict]:
    """Each report's results (NAME.json beside NAME.html); an unreadable one is left out."""
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("conformance"), dict):
            data["_page"] = path.with_suffix(".html").name
            out.append(data)
    return out


def _footer(results: dict) -> dict:
    records = results["conformance"].get("records") or []
    return next((r for r in reversed(records) if r.get("record") == "footer"), {})


def _cell(counts: dict, refused: str | None) -> Cell:
    if refused:
        return Cell("does not play", "refused", refused)
    wrong = sum(counts.get(k, 0) for k in WENT_WRONG)
    answered = counts.get("pass", 0) + wrong
    if not answered:
        return Cell("skipped", "skipped", f"{counts.get('skip', 0)} cases skipped (kinds it does not answer)")
    title = ", ".join(f"{counts[k]} {k}" for k in ("pass",) + WENT_WRONG + ("skip", "n/a") if counts.get(k))
    return Cell(f"{counts.get('pass', 0)}/{answered}", "fail" if wrong else "pass", title)


def board(reports: list[dict]) -> tuple[list[str], list[Row]]:
    """(rule set ids in the order the reports name them, one row per implementation)."""
    columns: list[str] = []
    rows = []
    for results in reports:
        footer = _footer(results)
        impl = (results.get("start") or {}).get("implementation") or {}
        name = " ".join(str(x) for x in (impl.get("name") or results.get("name", "?"), impl.get("version")) if x)
        row = Row(name, results["_page"])
        refused = footer.get("refused") or {}
        for ident, counts in (footer.get("by_variant") or {}).items():
            if ident not in columns:
                columns.append(ident)
            row.cells[ident] = _cell(counts, refused.get(ident))
        fuzz = results.get("fuzz") or {}
        if fuzz.get("deals"):
            row.fuzz = (f"{fuzz.get('divergent_deals', 0)} divergent deals in {fuzz['deals']:,} random deals "
                        f"({fuzz.get('variant', '')})")
        rows.append(row)
    return columns, rows
