"""``coinche-spec report RUN.jsonl [RUN2.jsonl ...] [--html FILE]``: several runs side by side.

Each ``conformance --report-jsonl`` file is one run (an implementation under
some rule sets). This command reads them back, checks each is whole (header,
cases, footer: runfile.py), and prints implementations x rule sets, one row
per run, with each run's header and the rules its failures exercise; with
``--html`` it writes the same as one self-contained page (html_report.py).
Exit status 0 when every file was read (whatever the runs' own results: a
report of failures is still a report), 2 for a file that is not a whole run,
named with its line, or an output that would replace one of the inputs.
"""

from __future__ import annotations

import os
import sys

from ..errors import CoincheSpecError


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "report", help="set several conformance runs (--report-jsonl files) side by side, as text or HTML",
        description="Read conformance results files (written by `coinche-spec conformance --report-jsonl FILE`) "
                    "and set them side by side: one row per run (an implementation), one column per rule set, "
                    "each cell passed/played with the failed and other cases counted, then what each run "
                    "says about itself and the rules its failures exercise. --html FILE writes a "
                    "self-contained page with every failure expandable.")
    p.add_argument("runs", nargs="+", metavar="RUN.jsonl", help="a results file of `conformance --report-jsonl`")
    p.add_argument("--html", metavar="FILE", default=None, help="write the side-by-side report as one HTML page")
    p.add_argument("--title", metavar="TEXT", default="Conformance runs side by side",
                   help="the page's title (default: %(default)s)")
    p.set_defaults(func=main)


def _usage(text: str) -> int:
    print(f"coinche-spec: {text}", file=sys.stderr, flush=True)
    return 2


def main(args) -> int:
    from .. import outputs
    from ..errors import OutputError
    from . import html_report
    from .report_text import summary
    from .runfile import read_run

    seen: dict = {}
    for given in args.runs:
        real = os.path.realpath(given) if given.strip() and "\0" not in given else given
        if real in seen:
            return _usage(f"report: {given} is given twice (also as {seen[real]})")
        seen[real] = given
    try:
        targets = outputs.plan([("--html", args.html)], args.runs)
    except OutputError as exc:
        return _usage(str(exc))
    runs = []
    for given in args.runs:
        try:
            runs.append(read_run(given))
        except CoincheSpecError as exc:
            return _usage(str(exc))
    print(summary(runs), flush=True)
    for target in targets:
        try:
            outputs.write_text(target, html_report.render(runs, args.title), "--html")
        except OutputError as exc:
            return _usage(str(exc))
    return 0
