"""``coinche-spec conformance``: play the fixture corpus against an implementation.

By default our own engine, in-process, under every shipped rule set. With
``--impl "python3 my_engine.py"`` any program speaking the protocol
(docs/protocol.md) on its standard input and output. Exit status: 0 when
nothing failed, 1 when a case failed, errored or timed out, 2 when the
fixture files themselves are wrong (one line per problem), the command line
is, the selection leaves no case to play, or the implementation cannot even
start: a run that played nothing never looks like one that passed.
"""

from __future__ import annotations

import sys
import time

from ..protocol.impls import IMPL_HELP
from . import limits, reports
from .fixtures import CorpusError, load_corpus, select
from .runner import playable_count, run as run_corpus


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "conformance", help="run the conformance corpus against an implementation",
        description="Play every fixture of the corpus under every shipped rule set (or those named with "
                    "--variant) against the reference engine, or against another implementation with --impl. "
                    "Prints a matrix (area x rule set), the cases that went wrong with their differences, and "
                    "closes with 'N passed, N failed'.")
    p.add_argument("--variant", action="append", metavar="ID", default=None,
                   help="a shipped seed rule set id (repeat for several; default: all shipped). The corpus "
                        "has expectations for these only, not for house rule sets or other files")
    p.add_argument("-k", dest="keyword", action="append", metavar="TEXT", default=None,
                   help="only fixtures whose id, title, area, kind or a tag contains TEXT (case-insensitive); "
                        "repeat it to take the fixtures matching any of them: -k belote -k score")
    p.add_argument("--impl", metavar="SPEC", default=None, help=IMPL_HELP)
    p.add_argument("--corpus", metavar="DIR", default=None, help="fixture directory (default: the shipped corpus)")
    p.add_argument("--timeout", metavar="S", type=float, default=10.0,
                   help="seconds an implementation may take to answer one case (default 10)")
    limits.add_arguments(p)
    p.add_argument("--report-jsonl", metavar="FILE", default=None, help="write one JSON object per case to FILE")
    p.add_argument("--junit", metavar="FILE", default=None, help="write a JUnit XML report to FILE")
    p.add_argument("--markdown", metavar="FILE", default=None, help="write the matrix and failures as Markdown")
    p.add_argument("--check-protocol", action="store_true",
                   help="validate every reply against the protocol's JSON Schema; a reply that breaks it fails "
                        "its case, with the path in the reply and the schema's message")
    p.add_argument("-v", "--verbose", action="store_true", help="print every case as it is played")
    p.set_defaults(func=main)


def _err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _usage(text: str) -> int:
    """A mistake on the command line: one line, exit status 2."""
    _err(f"coinche-spec: {text}")
    return 2


def _not_in_corpus(ref: str, variant, shipped: list[str]) -> str:
    """Why --variant REF cannot be run: the fixtures answer for the shipped seed rule sets only."""
    from ..variants import registry

    kind = registry.kind_of(variant.path) if variant.path is not None and ref == variant.id else None
    what = f"{'an' if kind and kind[0] in 'aeiou' else 'a'} {kind} rule set" if kind else "a rule-set file"
    return (f"--variant {ref}: {what}; the corpus has expectations only for the shipped seed rule sets: "
            f"{', '.join(shipped)}")


def _keywords(keywords: list[str] | None) -> str:
    return " ".join(f"-k {k}" for k in keywords or ())


def main(args) -> int:
    from ..protocol.client import ImplementationError
    from ..protocol.impls import open_implementation
    from ..variants import VariantError, shipped_ids
    from ..variants.cli import variant_for

    if args.timeout <= 0:
        return _usage(f"--timeout {args.timeout:g}: give a number of seconds above 0")
    shipped = shipped_ids()
    variants = args.variant or shipped
    for v in variants:
        try:
            found = variant_for(v)  # the one resolution: an unknown id, a missing or invalid file is said here
        except VariantError as exc:
            for line in exc.lines:
                _err(line)
            return 2
        if v not in shipped:
            return _usage(_not_in_corpus(v, found, shipped))
    variants = list(dict.fromkeys(variants))

    try:
        fixtures = load_corpus(args.corpus)
    except CorpusError as exc:
        for problem in exc.problems:
            _err(str(problem))
        _err(f"coinche-spec: {reports.plural(len(exc.problems), 'problem')} in the fixture files; nothing was run")
        return 2
    # A run that plays nothing must not look like a run that passed.
    if not fixtures:
        return _usage(f"no fixture in {args.corpus or 'the corpus'}: nothing to run")
    fixtures = select(fixtures, args.keyword)
    if not fixtures:
        return _usage(f"no fixture matches {_keywords(args.keyword)}")
    if playable_count(fixtures, variants) == 0:
        chosen = f" matching {_keywords(args.keyword)}" if args.keyword else ""
        return _usage(f"nothing to run: the {reports.plural(len(fixtures), 'fixture')}{chosen} "
                      f"{'is' if len(fixtures) == 1 else 'are'} not applicable under {', '.join(variants)}")

    try:
        impl = open_implementation(args.impl, args.timeout, args.max_restarts)
    except ValueError as exc:
        return _usage(f"--impl: {exc}")
    if args.check_protocol:
        from ..protocol.wire import Checked
        impl = Checked(impl)
    try:
        impl.start()
    except ImplementationError as exc:
        # fail fast: a program that cannot start would turn every case into the same error
        impl.stop()
        why = exc.message.removeprefix("the implementation ")
        return _usage(f"--impl \"{args.impl}\" did not start: {why}")
    chatty = args.impl is not None  # a separate program may be slow: say where we are
    last_note = [time.monotonic()]

    def on_outcome(outcome, done, total):
        if args.verbose:
            _err(reports.progress_line(outcome))
        elif chatty and (time.monotonic() - last_note[0] > 2 or done == total):
            last_note[0] = time.monotonic()
            _err(f"[conformance] {done}/{total} fixture × rule set pairs done (n/a included); "
                 f"now under {outcome.variant}")

    try:
        report = run_corpus(impl, fixtures, variants, limits.watch(args, impl, on_outcome))
    finally:
        impl.stop()

    print(reports.console(report, verbose=args.verbose), flush=True)
    counts = report.counts()
    if counts["skip"] and not any(counts[k] for k in ("pass", "fail", "error", "timeout")):
        _err(f"coinche-spec: warning: no case was played: the implementation skipped all {counts['skip']} "
             "(check the kinds and variants it lists in its start reply)")
    for path, write in ((args.report_jsonl, reports.write_jsonl), (args.junit, reports.write_junit),
                        (args.markdown, reports.write_markdown)):
        if path:
            try:
                write(report, path)
            except OSError as exc:
                return _usage(f"cannot write {path}: {exc.strerror}")
    return 0 if report.ok else 1
