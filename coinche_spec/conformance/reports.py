"""What a conformance run tells people and machines.

The console gets the matrix (area x rule set, passed/applicable, with the
cases whose expectation was carried or came from the reference engine counted
inside the cell, and the cases the implementation skipped counted apart as
``+N skip``), then every case that went wrong with its differences, then the
counts: passed and failed for each kind of expectation (hand, carried,
engine), errors, time-outs, n/a and corpus defects; the closing line is always
``N passed, N failed`` (``, N skipped`` when some were skipped), so a script
can read it. The same outcomes can be written as JSON Lines (one
object per fixture and rule set), JUnit XML (for CI dashboards) and a
Markdown matrix (for a README or an issue).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from .. import outputs
from . import records, what_differed
from .compare import show
from .fixture_comments import arithmetic
from .fixtures import AREAS
from .runner import Outcome, Report

_LABEL = {"fail": "FAIL", "error": "ERROR", "timeout": "TIMEOUT", "defect": "CORPUS DEFECT", "not run": "NOT RUN"}


def _areas(report: Report) -> list[str]:
    present = {o.fixture.area for o in report.outcomes}
    return [a for a in AREAS if a in present] + sorted(present - set(AREAS))


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 rule set``, ``5 rule sets``: the plural only when the count needs it."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


LEGEND = ("Each cell: passed/applicable (n/a cases left out), with how many of those were carried from "
          "another rule set (N carried) or judged against the reference engine (N engine); +N skip: cases "
          "skipped, not counted (kinds or rule sets the implementation did not claim).")


def matrix(report: Report) -> dict:
    """(area, variant) -> (passed, applicable, skipped, carried, engine).

    A skipped case is not applicable: the implementation never claimed it, so
    it is neither passed nor failed. n/a cases are not counted at all."""
    cells: dict = {}
    for o in report.outcomes:
        if o.outcome == "n/a":
            continue
        passed, applicable, skipped, carried, engine = cells.get((o.fixture.area, o.variant), (0, 0, 0, 0, 0))
        if o.outcome == "skip":
            skipped += 1
        else:
            passed += o.outcome == "pass"
            applicable += 1
            carried += o.expected_by == "carried"
            engine += o.expected_by == "engine"
        cells[(o.fixture.area, o.variant)] = (passed, applicable, skipped, carried, engine)
    return cells


def cell_text(passed: int, applicable: int, skipped: int, carried: int = 0, engine: int = 0) -> str:
    """``8/8``, ``8/8 (6 carried, +2 skip)``, ``0/0 (+7 skip)``; ``-`` when every case there is n/a."""
    if not applicable and not skipped:
        return "-"
    bits = [f"{n} {word}" for n, word in ((carried, "carried"), (engine, "engine")) if n]
    bits += [f"+{skipped} skip"] if skipped else []
    return f"{passed}/{applicable}" + (f" ({', '.join(bits)})" if bits else "")


def _cell(cells: dict, key) -> str:
    return cell_text(*cells[key]) if key in cells else "-"


def _totals(cells: dict, variant: str, areas: list[str]) -> str:
    mine = [cells[(a, variant)] for a in areas if (a, variant) in cells]
    return cell_text(*(sum(c[i] for c in mine) for i in range(5)))


def matrix_rows(report: Report) -> list[list[str]]:
    cells = matrix(report)
    areas = _areas(report)
    rows = [["area"] + list(report.variants)]
    for area in areas:
        rows.append([area] + [_cell(cells, (area, v)) for v in report.variants])
    rows.append(["all"] + [_totals(cells, v, areas) for v in report.variants])
    return rows


def source_line(report: Report) -> str:
    """Passed and failed for each kind of expectation, so that no kind passes for another."""
    by = report.counts_by_source()
    return "by expectation: " + "; ".join(f"{kind} {by[kind]['pass']} passed, {by[kind]['fail']} failed"
                                          for kind in ("hand", "carried", "engine"))


def closing_lines(report: Report) -> list[str]:
    """The counts: passed and failed by kind of expectation; errors, time-outs, n/a (and corpus
    defects, if any) on one line; then the closing line."""
    c = report.counts()
    closing = f"{c['pass']} passed, {c['fail']} failed"
    if c["skip"]:
        closing += f", {c['skip']} skipped"
    errors = f"{plural(c['error'], 'error')}, {plural(c['timeout'], 'timeout')}, {c['n/a']} n/a"
    if c["defect"]:
        errors += f", {plural(c['defect'], 'corpus defect')}"
    if c["not run"]:
        closing += f", {c['not run']} not run"
    return [source_line(report), errors, closing]


def note_lines(report: Report) -> list[str]:
    """What the run did not do, and why."""
    lines = list(report.notes)
    if report.unjudged:
        lines.append(f"{plural(report.unjudged, 'case')} without a hand or carried expectation "
                     f"{'was' if report.unjudged == 1 else 'were'} not played")
    return lines


def rules_line(o: Outcome) -> str:
    """The rules the fixture's answer depends on (its depends_on), as its author declared them."""
    if o.fixture.depends_on is None:
        return "rules: not declared (the fixture has no depends_on)"
    return "rules: " + (", ".join(o.fixture.depends_on) or "none")


def arithmetic_lines(o: Outcome, indent: str = "  ") -> list[str]:
    """The working written beside the expectation, as the fixture file has it."""
    written_for, comments = arithmetic(o)
    if written_for is None:
        return [f"{indent}arithmetic: none (the expectation is the reference engine's answer)"]
    if not comments:
        return [f"{indent}arithmetic: no comment beside the expectation for {written_for}"]
    span = (f"{comments[0].line}" if comments[0].line == comments[-1].line
            else f"{comments[0].line}-{comments[-1].line}")
    carried = f", carried from {written_for}" if o.carried_from else ""
    return [f"{indent}arithmetic ({o.fixture.file}:{span}{carried}):"] + [f"{indent}  {c}" for c in comments]


def describe_problem(o: Outcome, indent: str = "  ") -> list[str]:
    head = f"{_LABEL[o.outcome]} {o.fixture.id} under {o.variant}: {o.fixture.title} ({o.fixture.where})"
    if o.expected_by != "hand":
        head += f" [expected by {o.expected_by}" + (f", carried from {o.carried_from}]" if o.carried_from else "]")
    if o.through == "deal":
        head += " [through a realised deal]"
    lines = [head]
    for d in o.diffs:
        lines.append(f"{indent}{d}")
    if o.message:
        lines.append(f"{indent}{o.message}")
    if o.stderr:  # the end of what the implementation wrote during this case (all of it in --report-jsonl)
        lines.append(f"{indent}stderr: " + " | ".join(o.stderr.splitlines()[-5:]))
    if len(o.fixture.exercises) > 1:
        lines.append(f"{indent}exercises: {', '.join(o.fixture.exercises)}")
    lines.append(f"{indent}{rules_line(o)}")
    if o.outcome in ("fail", "defect") or o.diffs:
        lines.extend(arithmetic_lines(o, indent))
    if o.sent is not None:
        lines.append(f"{indent}score case: {show(o.fixture.case)}")
        lines.append(f"{indent}posed as the realised deal: {show(o.sent)}")
    else:
        lines.append(f"{indent}case: {show(o.fixture.case)}")
    return lines


def by_what_differed(report: Report) -> list:
    """The cases that went wrong grouped by the fields that differed, each group with its likely rules
    (what_differed.py), the largest group first."""
    return what_differed.groups(report.outcomes, what_differed.outcome_view)


def _spec(report: Report) -> str | None:
    return ((report.header or {}).get("implementation") or {}).get("spec")


def problem_lines(report: Report) -> list[str]:
    """The cases that went wrong, under what differed, then the closing summary: each group's likely
    rules and the fingerprint command to run."""
    found = by_what_differed(report)
    if not found:
        return []
    lines: list[str] = []
    for group in found:
        lines.append(f"== {group.name}: {plural(len(group.cases), 'case')} went wrong; "
                     f"{what_differed.likely_text(group)}")
        for o in group.cases:
            lines.extend(describe_problem(o))
        lines.append("")
    base = what_differed.base_for_fingerprint(found, what_differed.outcome_view)
    lines.extend(what_differed.summary_lines(found, _spec(report), base))
    return lines


def console(report: Report, verbose: bool = False) -> str:
    fixtures = len({o.fixture.id for o in report.outcomes})
    lines = [f"Conformance of {report.implementation}: {plural(fixtures, 'fixture')}, "
             f"{plural(len(report.variants), 'rule set')}, {report.seconds:.2f} s", ""]
    rows = matrix_rows(report)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
    lines.append(LEGEND)
    if verbose:
        skipped = [o for o in report.outcomes if o.outcome == "skip"]
        if skipped:
            lines.append("")
            for o in skipped:
                lines.append(f"SKIP {o.fixture.id} under {o.variant}: {o.message}")
    problems = problem_lines(report)
    if problems:
        lines.append("")
        lines.extend(problems)
    lines.append("")
    lines.extend(note_lines(report))
    lines.extend(closing_lines(report))
    return "\n".join(lines)


def progress_line(o: Outcome) -> str:
    """One line per case, for -v."""
    mark = {"pass": "ok", "n/a": "n/a"}.get(o.outcome, o.outcome.upper())
    origin = f" carried from {o.carried_from}" if o.carried_from else ("" if o.expected_by == "hand" else " engine")
    through = " through a realised deal" if o.through == "deal" else ""
    return f"{mark:7} {o.fixture.id} [{o.variant}{origin}{through}] {o.seconds * 1000:.1f} ms"


# --- files --------------------------------------------------------------------

# Each writer goes through outputs: the old file is replaced whole or not at all.

def jsonl(report: Report) -> str:
    """A header record, one record per case, a footer record (records.py)."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records.records(report, report.header))


def write_jsonl(report: Report, path) -> None:
    outputs.write_text(path, jsonl(report), "--report-jsonl")


def write_junit(report: Report, path) -> None:
    outputs.write_bytes(path, junit(report), "--junit")


def junit(report: Report) -> bytes:
    c = report.counts()
    root = ET.Element("testsuites", {
        "name": "coinche-spec conformance",
        "tests": str(sum(c[k] for k in ("pass", "fail", "error", "timeout", "skip", "defect", "not run"))),
        "failures": str(c["fail"]), "errors": str(c["error"] + c["timeout"] + c["defect"]),
        "skipped": str(c["skip"] + c["not run"]), "time": f"{report.seconds:.3f}"})
    for variant in report.variants:
        mine = [o for o in report.outcomes if o.variant == variant and o.outcome != "n/a"]
        suite = ET.SubElement(root, "testsuite", {
            "name": variant, "tests": str(len(mine)),
            "failures": str(sum(o.outcome == "fail" for o in mine)),
            "errors": str(sum(o.outcome in ("error", "timeout", "defect") for o in mine)),
            "skipped": str(sum(o.outcome in ("skip", "not run") for o in mine)),
            "time": f"{sum(o.seconds for o in mine):.3f}"})
        for o in mine:
            case = ET.SubElement(suite, "testcase", {
                "classname": f"conformance.{o.fixture.area}.{variant}", "name": o.fixture.id,
                "file": o.fixture.file, "time": f"{o.seconds:.6f}"})
            if o.outcome == "fail":
                el = ET.SubElement(case, "failure", {"message": "; ".join(str(d) for d in o.diffs)[:500],
                                                     "type": "mismatch"})
                el.text = "\n".join(describe_problem(o))
            elif o.outcome in ("error", "timeout", "defect"):
                el = ET.SubElement(case, "error", {"message": (o.message or o.outcome)[:500], "type": o.outcome})
                el.text = "\n".join(describe_problem(o))
            elif o.outcome in ("skip", "not run"):
                ET.SubElement(case, "skipped", {"message": o.message or o.outcome})
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(report: Report) -> str:
    rows = matrix_rows(report)
    out = ["# Conformance report", "",
           f"Implementation: {_md(report.implementation)}", "",
           _md(LEGEND), "",
           "| " + " | ".join(_md(c) for c in rows[0]) + " |",
           "|" + "---|" * len(rows[0])]
    for r in rows[1:]:
        label = f"**{r[0]}**" if r[0] == "all" else r[0]
        out.append("| " + " | ".join([label] + r[1:]) + " |")
    out.append("")
    found = by_what_differed(report)
    if found:
        out.append("## Cases that went wrong, by what differed")
        out.append("")
    for group in found:
        out.append(f"### `{group.name}`")
        out.append("")
        likely = what_differed.likely_text(group)
        out.append(_md(likely[:1].upper() + likely[1:]) + ".")
        out.append("")
        for o in group.cases:
            out.append(f"- **{_LABEL[o.outcome]}** `{o.fixture.id}` under `{o.variant}`: "
                       f"{_md(o.fixture.title)} ({o.fixture.where})")
            for d in o.diffs:
                out.append(f"  - `{d.field}`: expected `{show(d.expected)}`, got "
                           + ("nothing (missing)" if d.to_json()["missing"] else f"`{show(d.got)}`")
                           + (f" ({_md(d.note)})" if d.note else ""))
            if o.message:
                out.append(f"  - {_md(o.message)}")
            out.append(f"  - {_md(rules_line(o))}")
            if o.outcome in ("fail", "defect") or o.diffs:
                head, *comments = arithmetic_lines(o, "")
                out.append(f"  - {_md(head)}" + "".join(f"\n    - {_md(c.strip())}" for c in comments))
        out.append("")
    if found:
        base = what_differed.base_for_fingerprint(found, what_differed.outcome_view)
        out.extend([_md(line) for line in what_differed.summary_lines(found, _spec(report), base)[:1]] + [""]
                   + [f"- `{g.name}`: {plural(len(g.cases), 'case')}; {_md(what_differed.likely_text(g))}"
                      for g in found])
        command = what_differed.fingerprint_command(_spec(report), base)
        if command:
            out.extend(["", f"To tell which option of each rule it plays: `{command}`"])
        out.append("")
    for line in note_lines(report):
        out.extend([_md(line), ""])
    by_source, errors_line, closing = closing_lines(report)
    out.extend([by_source, "", errors_line, "", closing])
    return "\n".join(out) + "\n"


def write_markdown(report: Report, path) -> None:
    outputs.write_text(path, markdown(report), "--markdown")
