"""``coinche-spec conformance``: play the fixture corpus against an implementation.

By default our own engine, in-process, under every shipped rule set. With
``--impl "python3 my_engine.py"`` any program speaking the protocol
(docs/protocol.md) on its standard input and output. Exit status: 0 when
nothing failed, 1 when a case failed, errored or timed out, 2 when the
fixture files themselves are wrong (one line per problem) or the command
line is.
"""

from __future__ import annotations

import sys
import time

from . import reports
from .fixtures import CorpusError, load_corpus, select
from .runner import failed_to_start, run as run_corpus


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "conformance", help="run the conformance corpus against an implementation",
        description="Play every fixture of the corpus under every shipped rule set (or those named with "
                    "--variant) against the reference engine, or against another implementation with --impl. "
                    "Prints a matrix (area x rule set), the cases that went wrong with their differences, and "
                    "closes with 'N passed, N failed'.")
    p.add_argument("--variant", action="append", metavar="ID", default=None,
                   help="a shipped rule set id (repeat for several; default: all shipped)")
    p.add_argument("-k", dest="keyword", metavar="TEXT", default=None,
                   help="only fixtures whose id, title, area, kind or a tag contains TEXT")
    p.add_argument("--impl", metavar="COMMAND", default=None,
                   help="command line of an implementation speaking the protocol over stdin/stdout "
                        "(default: the reference engine in-process)")
    p.add_argument("--corpus", metavar="DIR", default=None, help="fixture directory (default: the shipped corpus)")
    p.add_argument("--timeout", metavar="S", type=float, default=10.0,
                   help="seconds an implementation may take to answer one case (default 10)")
    p.add_argument("--report-jsonl", metavar="FILE", default=None, help="write one JSON object per case to FILE")
    p.add_argument("--junit", metavar="FILE", default=None, help="write a JUnit XML report to FILE")
    p.add_argument("--markdown", metavar="FILE", default=None, help="write the matrix and failures as Markdown")
    p.add_argument("-v", "--verbose", action="store_true", help="print every case as it is played")
    p.set_defaults(func=main)


def _err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _usage(text: str) -> int:
    """A mistake on the command line: one line, exit status 2."""
    _err(f"coinche-spec: {text}")
    return 2


def main(args) -> int:
    from ..protocol.client import ImplementationError, open_implementation
    from ..variants import shipped_ids

    if args.timeout <= 0:
        return _usage(f"--timeout {args.timeout:g}: give a number of seconds above 0")
    shipped = shipped_ids()
    variants = args.variant or shipped
    for v in variants:
        if v not in shipped:
            return _usage(f"--variant {v}: not a shipped rule set (shipped: {', '.join(shipped)})")
    variants = list(dict.fromkeys(variants))

    try:
        fixtures = load_corpus(args.corpus)
    except CorpusError as exc:
        for problem in exc.problems:
            _err(str(problem))
        _err(f"coinche-spec: {len(exc.problems)} problem(s) in the fixture files; nothing was run")
        return 2
    fixtures = select(fixtures, args.keyword)
    if not fixtures:
        _err("coinche-spec: no fixture to run" + (f" matches -k {args.keyword!r}" if args.keyword else ""))

    try:
        impl = open_implementation(args.impl, args.timeout)
    except ValueError as exc:
        return _usage(f"--impl: {exc}")
    chatty = args.impl is not None  # a separate program may be slow: say where we are
    last_note = [time.monotonic()]

    def on_outcome(outcome, done, total):
        if args.verbose:
            _err(reports.progress_line(outcome))
        elif chatty and (time.monotonic() - last_note[0] > 2 or done == total):
            last_note[0] = time.monotonic()
            _err(f"[conformance] {done}/{total} cases ({outcome.variant})")

    try:
        try:
            impl.start()
        except ImplementationError as exc:
            report = failed_to_start(fixtures, variants, impl.label, f"the implementation did not start: {exc.message}")
        else:
            report = run_corpus(impl, fixtures, variants, on_outcome)
    finally:
        impl.stop()

    print(reports.console(report, verbose=args.verbose), flush=True)
    for path, write in ((args.report_jsonl, reports.write_jsonl), (args.junit, reports.write_junit),
                        (args.markdown, reports.write_markdown)):
        if path:
            try:
                write(report, path)
            except OSError as exc:
                return _usage(f"cannot write {path}: {exc.strerror}")
    return 0 if report.ok else 1
