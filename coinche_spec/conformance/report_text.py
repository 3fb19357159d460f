"""The text side of ``coinche-spec report``: runs side by side, for a terminal or a CI log.

One table, implementations (one row per run) x rule sets, each cell
``passed/played`` with the failed, other and skipped cases counted apart
(runfile.Tally); then one paragraph per run: where it came from (file,
``--impl``, date, corpus and rule hashes) and its failures grouped by what
differed, each group with its likely rules, and the fingerprint command; then, for two runs of one implementation,
what got fixed and what newly fails (run_changes.py).
"""

from __future__ import annotations

from . import run_changes
from . import what_differed
from .runfile import Run

LEGEND = ("Each cell: passed/played (n/a left out); fail: failed, other: errors, time-outs, corpus defects and "
          "cases not run; +N skip: cases the implementation did not claim, not counted.")


def _short(digest) -> str:
    return str(digest).split(":", 1)[-1][:12] if digest else "none"


def table(runs: list[Run]) -> list[str]:
    ids = list(dict.fromkeys(v for run in runs for v in run.rule_sets))
    rows = [["implementation"] + ids]
    for i, run in enumerate(runs, 1):
        cells = run.cells()
        rows.append([f"{i}. {run.label}"] + [cells[(None, v)].text() if (None, v) in cells else
                                             ("-" if v in run.rule_sets else "not run") for v in ids])
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]


def run_lines(i: int, run: Run) -> list[str]:
    h, f = run.header, run.footer
    impl = h.get("implementation") or {}
    corpus = h.get("corpus") or {}
    sets = ", ".join(f"{r.get('id')} {_short(r.get('hash'))}" for r in h.get("rule_sets") or [])
    c = f.get("counts") or {}
    lines = [f"{i}. {run.label}: {run.file}",
             f"   --impl {impl.get('spec') or '(the reference engine, in-process)'}; {h.get('date') or 'no date'}; "
             f"coinche-spec {h.get('coinche_spec') or '?'}; corpus {_short(corpus.get('hash'))}",
             f"   rule sets (rules hash): {sets or 'none recorded'}",
             "   " + ", ".join(f"{n} {k}" for k, n in c.items() if n)]
    found = what_differed.groups(run.cases)
    if found:
        lines.extend(what_differed.summary_lines(found, impl.get("spec"), what_differed.base_for_fingerprint(found),
                                                 indent="   "))
    for why in (f.get("refused") or {}).values():
        lines.append(f"   refused: {why}")
    return lines


def summary(runs: list[Run]) -> str:
    lines = [f"{len(runs)} conformance run{'s' if len(runs) != 1 else ''} side by side", ""]
    lines += table(runs) + [LEGEND, ""]
    corpora = {(r.header.get("corpus") or {}).get("hash") for r in runs}
    if len(corpora) > 1:
        lines += ["note: the runs did not play the same corpus (their corpus hashes differ)", ""]
    for i, run in enumerate(runs, 1):
        lines += run_lines(i, run)
    lines += run_changes.lines(runs)
    return "\n".join(lines)
