"""A conformance report as one self-contained HTML page: matrices to scan, failures to open.

One page for one run (``conformance --html``) or several set side by side
(``report RUN.jsonl ... --html``, as Bowtie's report does for JSON Schema
implementations): first implementations x rule sets, one row per run, then
each run's matrix of areas x rule sets, then the cases that went wrong,
grouped by the fields that differed with the rules the evidence points at
(what_differed.py), each a ``<details>`` that opens
on the expected and received values, the rules the fixture depends on, the
arithmetic written beside its expectation and the case that was sent.
Every cell counts passed, failed and other (error, time-out, corpus defect,
not run) cases, with skipped ones apart, and carries those numbers as
``data-`` attributes, so a test (or a script) can read them back. The page
needs nothing outside itself: inline CSS, a few lines of inline JavaScript
that open the case a link's fragment names (``report.html#run-1-case-ID@RULES``);
without JavaScript every ``<details>`` still opens by hand.
"""

from __future__ import annotations

import json
from html import escape

from .runfile import Run, Tally

CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5rem auto; max-width: 78rem;
       padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
.meta { color: #555; margin: 0 0 1rem; } code, pre { font: 13px/1.4 ui-monospace, Menlo, Consolas, monospace; }
pre { overflow-x: auto; }
table { border-collapse: collapse; margin: .6rem 0 1rem; } th, td { border: 1px solid #d0d0d0; padding: .3rem .55rem; }
th { background: #f3f3f3; text-align: left; vertical-align: bottom; } td.cell { text-align: center; white-space: nowrap; }
td.all-pass { background: #e3f4e3; } td.some-fail { background: #fbe1e1; } td.some-other { background: #fdf0d8; }
td.none { color: #999; } .pass { color: #17771f; } .fail { color: #b3121b; font-weight: 600; }
.other { color: #9a5b00; font-weight: 600; } .skip { color: #777; } .hash { color: #777; font-size: 12px; }
details.problem { border: 1px solid #ddd; border-left: 4px solid #b3121b; margin: .35rem 0; padding: .2rem .6rem;
                  background: #fff; } details.problem.went-other { border-left-color: #d08a00; }
details.problem > summary { cursor: pointer; } details.problem[open] { background: #fcfcfc; }
.body { margin: .4rem 0 .6rem; } .body pre { background: #f6f6f6; padding: .45rem; overflow-x: auto; margin: .3rem 0; }
table.diff td { vertical-align: top; } .warn { background: #fff4d6; border: 1px solid #e4c66b; padding: .4rem .6rem; }
.tools button { margin-right: .4rem; }
@media print { details.problem { break-inside: avoid; } .tools { display: none; } }
"""

SCRIPT = """
function openTarget() {
  var id = decodeURIComponent(location.hash.slice(1));
  var el = id && document.getElementById(id);
  if (!el) return;
  for (var d = el; d; d = d.parentElement) { if (d.tagName === "DETAILS") d.open = true; }
  el.scrollIntoView();
}
function openAll(open) {
  document.querySelectorAll("details.problem").forEach(function (d) { d.open = open; });
}
window.addEventListener("hashchange", openTarget);
openTarget();
"""

LABEL = {"fail": "FAIL", "error": "ERROR", "timeout": "TIMEOUT", "defect": "CORPUS DEFECT", "not run": "NOT RUN"}


def _e(value) -> str:
    return escape(str(value), quote=True)


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _short(digest: str | None) -> str:
    return digest.split(":", 1)[-1][:12] if digest else "no hash"


def cell(t: Tally | None, attrs: str) -> str:
    """One matrix cell: its counts written out and kept as data- attributes."""
    t = t or Tally()
    data = (f' data-pass="{t.passed}" data-fail="{t.failed}" data-other="{t.other}" data-skip="{t.skipped}"')
    if not t.played and not t.skipped:
        return f'<td class="cell none"{attrs}{data}>-</td>'
    kind = "some-fail" if t.failed else "some-other" if t.other else "all-pass" if t.played else "none"
    bits = [f'<span class="pass">&#10003;&nbsp;{t.passed}</span>'] if t.played else []
    if t.failed:
        bits.append(f'<span class="fail">&#10007;&nbsp;{t.failed}</span>')
    if t.other:
        bits.append(f'<span class="other">!&nbsp;{t.other}</span>')
    if t.skipped:
        bits.append(f'<span class="skip">+{t.skipped}&nbsp;skip</span>')
    return f'<td class="cell {kind}"{attrs}{data} title="{_e(t.text())}">{" ".join(bits)}</td>'


def _hashes(runs: list[Run]) -> dict:
    """rule set id -> the set of rule hashes the runs give it (more than one: the rules differ)."""
    out: dict = {}
    for run in runs:
        for r in run.header.get("rule_sets") or []:
            if isinstance(r, dict) and r.get("hash"):
                out.setdefault(r.get("id"), set()).add(r["hash"])
    return out


def _rule_set_ids(runs: list[Run]) -> list[str]:
    return list(dict.fromkeys(v for run in runs for v in run.rule_sets))


def _column_head(rule_set: str, hashes: set) -> str:
    """A rule set's column: its id, and the hash of its rules (or a warning when runs disagree)."""
    if len(hashes) == 1:
        note = f'<br><span class="hash">rules {_e(_short(next(iter(hashes))))}</span>'
    elif hashes:
        note = '<br><span class="other">rules differ between runs</span>'
    else:
        note = ""
    return f"<th>{_e(rule_set)}{note}</th>"


def overview(runs: list[Run]) -> str:
    """Implementations x rule sets: one row per run."""
    ids = _rule_set_ids(runs)
    hashes = _hashes(runs)
    head = "".join(_column_head(v, hashes.get(v, set())) for v in ids)
    rows = []
    for i, run in enumerate(runs, 1):
        cells = run.cells()
        tds = "".join(cell(cells.get((None, v)), f' data-run="{i}" data-variant="{_e(v)}"') if v in run.rule_sets
                      else f'<td class="cell none" data-run="{i}" data-variant="{_e(v)}">not run</td>' for v in ids)
        rows.append(f'<tr><th><a href="#run-{i}">{_e(run.label)}</a><br><span class="hash">{_e(run.file)}</span></th>'
                    f'{tds}</tr>')
    return (f'<table class="overview"><thead><tr><th>implementation</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def area_matrix(run: Run, index: int) -> str:
    """Areas x rule sets for one run, with an ``all`` row."""
    cells = run.cells()
    head = "".join(f"<th>{_e(v)}</th>" for v in run.rule_sets)
    rows = []
    for area in run.areas() + [None]:
        name = area or "all"
        tds = "".join(cell(cells.get((area, v)), f' data-run="{index}" data-area="{_e(name)}" data-variant="{_e(v)}"')
                      for v in run.rule_sets)
        rows.append(f"<tr><th>{'<b>all</b>' if area is None else _e(area)}</th>{tds}</tr>")
    return (f'<table class="matrix" data-run="{index}"><thead><tr><th>area</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def case_id(index: int, c: dict) -> str:
    return f"run-{index}-case-{c['fixture']}@{c['variant']}"


def _diff_table(diffs: list) -> str:
    if not diffs:
        return ""
    rows = []
    for d in diffs:
        got = "nothing (the field is missing)" if d.get("missing") else _json(d.get("got"))
        note = f'<br><span class="skip">{_e(d["note"])}</span>' if d.get("note") else ""
        rows.append(f'<tr><td><code>{_e(d.get("field"))}</code></td><td><code>{_e(_json(d.get("expected")))}'
                    f'</code></td><td><code class="fail">{_e(got)}</code>{note}</td></tr>')
    return ('<table class="diff"><thead><tr><th>field</th><th>expected</th><th>received</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _arithmetic(c: dict) -> str:
    arith = c.get("arithmetic") or {}
    written_for = arith.get("written_for")
    if c.get("expected_by") == "engine" or (arith and written_for is None):
        return "<p>Arithmetic: none: the expectation is the reference engine's answer.</p>"
    comments = arith.get("comments") or []
    if not comments:
        return f"<p>Arithmetic: no comment beside the expectation for {_e(written_for or c['variant'])}.</p>"
    where = f"{c.get('file')}, written for {written_for}" + (" (carried)" if c.get("carried_from") else "")
    lines = "\n".join(f"line {x.get('line')}  " + (f"{x['field']}: " if x.get("field") else "") + str(x.get("text"))
                      for x in comments)
    return f'<p>Arithmetic ({_e(where)}):</p><pre class="arithmetic">{_e(lines)}</pre>'


def problem(c: dict, index: int) -> str:
    """One case that went wrong, folded: the summary line, then everything needed to judge it."""
    kind = "fail" if c["outcome"] == "fail" else "other"   # the colour of the label
    origin = "" if c["expected_by"] == "hand" else (
        f" [expected by {c['expected_by']}" + (f", carried from {c['carried_from']}]" if c.get("carried_from") else "]"))
    if c.get("through") == "deal":
        origin += " [through a realised deal]"
    where = f"{c.get('file')}:{c.get('line')}" if c.get("line") else str(c.get("file"))
    rules = c.get("rules")
    rules_html = ("not declared (the fixture has no depends_on)" if rules is None
                  else ", ".join(f"<code>{_e(r)}</code>" for r in rules) or "none")
    body = [f"<p>{_e(where)}{_e(origin)}</p>", _diff_table(c.get("diff") or [])]
    if c.get("message"):
        body.append(f"<p>{_e(c['message'])}</p>")
    if len(c.get("exercises") or []) > 1:
        body.append("<p>Exercises: " + ", ".join(f"<code>{_e(r)}</code>" for r in c["exercises"]) + "</p>")
    body.append(f"<p>Rules (depends_on): {rules_html}</p>")
    body.append(_arithmetic(c))
    if c.get("stderr"):
        body.append(f"<p>Standard error during the case:</p><pre>{_e(c['stderr'])}</pre>")
    if c.get("case") is not None:
        body.append(f"<p>Case sent:</p><pre>{_e(json.dumps(c['case'], ensure_ascii=False, indent=1))}</pre>")
    return (f'<details class="problem went-{kind}" id="{_e(case_id(index, c))}" data-outcome="{_e(c["outcome"])}">'
            f'<summary><b class="{kind}">{LABEL[c["outcome"]]}</b> <code>{_e(c["fixture"])}</code> under '
            f'<code>{_e(c["variant"])}</code>: {_e(c.get("title") or "")}</summary>'
            f'<div class="body">{"".join(body)}</div></details>')


def problems_by_field(run: Run, index: int) -> str:
    """The cases that went wrong grouped by the fields that differed (what_differed.py), each group with
    its likely rules; then the fingerprint command to run."""
    from . import what_differed
    found = what_differed.groups(run.cases)
    if not found:
        return "<p>No case went wrong.</p>"
    out = []
    for g in found:
        out.append(f'<section class="field-group" data-differed="{_e(g.name)}"><h4><code>{_e(g.name)}</code>: '
                   f'{len(g.cases)} case{"s" if len(g.cases) != 1 else ""} went wrong</h4>'
                   f'<p class="likely">{_e(what_differed.likely_text(g))}</p>'
                   + "".join(problem(c, index) for c in g.cases) + "</section>")
    spec = (run.header.get("implementation") or {}).get("spec")
    command = what_differed.fingerprint_command(spec, what_differed.base_for_fingerprint(found))
    if command:
        out.append(f'<p class="fingerprint">To tell which option of each rule it plays: <code>{_e(command)}</code>'
                   "</p>")
    return "".join(out)


def _run_meta(run: Run) -> str:
    h, f = run.header, run.footer
    impl = h.get("implementation") or {}
    corpus = h.get("corpus") or {}
    sets = ", ".join(f"{r.get('id')} ({_short(r.get('hash'))})" for r in h.get("rule_sets") or [])
    c = f.get("counts") or {}
    counts = ", ".join(f"{n} {k}" for k, n in c.items() if n)
    notes = "".join(f"<li>{_e(n)}</li>" for n in f.get("notes") or [])
    refused = "".join(f"<li>{_e(k)}: {_e(v)}</li>" for k, v in (f.get("refused") or {}).items())
    return (f'<ul class="meta"><li>implementation: {_e(run.label)}'
            + (f' ({_e(impl["language"])})' if impl.get("language") else "")
            + f', <code>--impl {_e(impl.get("spec") or "(the reference engine, in-process)")}</code></li>'
            f'<li>rule sets (rules hash): {_e(sets)}</li>'
            f'<li>corpus: {_e(_short(corpus.get("hash")))} ({_e(corpus.get("files", "?"))} files)</li>'
            f'<li>date: {_e(h.get("date") or "not recorded")}, coinche-spec {_e(h.get("coinche_spec") or "?")}, '
            f'{_e(f.get("seconds", "?"))} s</li><li>cases: {_e(counts or "none")}</li>'
            + (f"<li>refused rule sets:<ul>{refused}</ul></li>" if refused else "")
            + (f"<li>notes:<ul>{notes}</ul></li>" if notes else "") + "</ul>")


def _warnings(runs: list[Run]) -> str:
    out = []
    corpora = {(r.header.get("corpus") or {}).get("hash") for r in runs}
    if len(corpora) > 1:
        out.append("The runs did not play the same corpus (their corpus hashes differ): compare their counts "
                   "with care.")
    for v, hs in _hashes(runs).items():
        if len(hs) > 1:
            out.append(f"Rule set {v} has different rules in different runs ({', '.join(sorted(map(_short, hs)))}).")
    return "".join(f'<p class="warn">{_e(w)}</p>' for w in out)


def changes_between_runs(runs: list[Run]) -> str:
    """For two runs of one implementation: what got fixed and what newly fails (run_changes.py)."""
    from .run_changes import pairs

    out = []
    for rc in pairs(runs):
        out.append(f"<h3>From run {rc.earlier} to run {rc.later} ({_e(rc.label)}): {len(rc.fixed)} fixed, "
                   f"{len(rc.newly_failing)} newly failing, {rc.still_failing} still failing</h3>")
        for heading, found, cls in (("Fixed", rc.fixed, "fixed"), ("Newly failing", rc.newly_failing, "new-fail")):
            if found:
                out.append(f'<p><b>{heading}</b></p><ul class="{cls}">' + "".join(
                    f"<li><code>{_e(c.fixture)}</code> [{_e(c.variant)}]: {_e(c.after)}, was {_e(c.before)}"
                    + (f" &mdash; {_e(c.title)}" if c.title else "") + "</li>" for c in found) + "</ul>")
    return ("<h2>Between runs of one implementation</h2>" + "".join(out)) if out else ""


def render(runs: list[Run], title: str = "Conformance report") -> str:
    """The whole page."""
    sections = []
    for i, run in enumerate(runs, 1):
        sections.append(f'<section class="run" id="run-{i}" data-run="{i}"><h2>{_e(run.label)}</h2>'
                        f'{_run_meta(run)}<h3>Areas &times; rule sets</h3>{area_matrix(run, i)}'
                        f'<h3>Cases that went wrong, by what differed</h3>{problems_by_field(run, i)}</section>')
    legend = ("Each cell: &#10003; passed, &#10007; failed, ! other (error, time-out, corpus defect, not run); "
              "+N skip: cases the implementation did not claim, not counted; n/a cases are left out.")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{_e(title)}</title>"
            f"<style>{CSS}</style></head><body><h1>{_e(title)}</h1>"
            f'<p class="meta">{len(runs)} run{"s" if len(runs) != 1 else ""}. {legend}</p>'
            f'{_warnings(runs)}<h2>Implementations &times; rule sets</h2>{overview(runs)}{changes_between_runs(runs)}'
            '<p class="tools"><button type="button" onclick="openAll(true)">open every failure</button>'
            '<button type="button" onclick="openAll(false)">close them all</button></p>'
            f'{"".join(sections)}<script>{SCRIPT}</script></body></html>\n')


def page_of(report) -> str:
    """The page of one run the conformance command holds in memory."""
    from .records import records
    from .runfile import from_records
    return render([from_records(records(report, report.header))])


def write(report, target) -> None:
    from .. import outputs
    outputs.write_text(target, page_of(report), "--html")
