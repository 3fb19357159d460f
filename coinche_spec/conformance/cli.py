"""``coinche-spec conformance``: play the fixture corpus against an implementation.

By default our own engine, in-process, under every shipped rule set; with
``--variant`` any rule set (an id or a file). With ``--impl "python3
my_engine.py"`` any program speaking the protocol (docs/protocol.md) on its
standard input and output. Exit status: 0 when nothing failed, 1 when a case
failed, errored, timed out or showed a corpus defect, 2 when the fixture or
rule-set files themselves are wrong (one line per problem), the command line
is, the selection leaves no case to play, the implementation cannot even
start, refused every rule set or skipped every case: a run that played
nothing never looks like one that passed.
"""

from __future__ import annotations

import sys
import time

from .. import outputs
from ..errors import OutputError
from ..protocol.impls import IMPL_HELP
from . import html_report, limits, records, reports
from .fixtures import CorpusError, load_corpus, select
from .runner import playable_count, run as run_corpus
from .uncovered import uncovered_lines


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "conformance", help="run the conformance corpus against an implementation",
        description="Play every fixture of the corpus under every shipped rule set (or those named with "
                    "--variant) against the reference engine, or against another implementation with --impl. "
                    "Each case's expectation is written for the rule set (hand), carried from a rule set "
                    "with the same values at every rule the fixture depends on (carried), or the reference "
                    "engine's own answer (engine). Prints a matrix (area x rule set), the cases that went "
                    "wrong with their differences, and closes with 'N passed, N failed'.",
        epilog="exit status: 0 when every case played passed; 1 when a case failed, errored, timed out, was "
               "not run or is a corpus defect; 2, with one line per problem and nothing run, for a mistake "
               "on the command line, a fixture or rule-set file that does not load, a selection that leaves "
               "nothing to play, or an --impl that cannot start (docs/protocol.md, 'Running the suite').")
    p.add_argument("--variant", action="append", metavar="ID|FILE", default=None,
                   help="a rule set: a shipped or house id, or a rule-set file (repeat for several; "
                        "default: all shipped)")
    p.add_argument("-k", dest="keyword", action="append", metavar="TEXT", default=None,
                   help="only fixtures whose id, title, area, kind or a tag contains TEXT (case-insensitive); "
                        "repeat it to take the fixtures matching any of them: -k belote -k score")
    p.add_argument("--impl", metavar="SPEC", default=None, help=IMPL_HELP)
    p.add_argument("--corpus", metavar="DIR", action="append", default=None,
                   help="a folder of your own fixture files, played with the shipped corpus (repeatable)")
    p.add_argument("--corpus-only", action="store_true",
                   help="play only the --corpus folders, not the shipped corpus")
    p.add_argument("--no-engine-verdicts", action="store_true",
                   help="do not judge cases that no hand or carried expectation covers against the "
                        "reference engine")
    p.add_argument("--uncovered", action="store_true",
                   help="list every rule value of the --variant rule sets that no hand or carried "
                        "expectation tells apart (the fixtures to write next), and play nothing")
    p.add_argument("--timeout", metavar="S", type=float, default=10.0,
                   help="seconds an implementation (the in-process engine as well) may take to answer one "
                        "case (default 10); a case that takes longer counts as a time-out")
    limits.add_arguments(p)
    p.add_argument("--report-jsonl", metavar="FILE", default=None,
                   help="write the run as JSON Lines to FILE: a header record (implementation, rule-set hashes, "
                        "corpus version, date), one record per case, a footer with the counts (docs/reports.md)")
    p.add_argument("--junit", metavar="FILE", default=None, help="write a JUnit XML report to FILE")
    p.add_argument("--markdown", metavar="FILE", default=None, help="write the matrix and failures as Markdown")
    p.add_argument("--html", metavar="FILE", default=None,
                   help="write a self-contained HTML report: the matrix (area x rule set, passed, failed and other "
                        "cases), and every case that went wrong, grouped by what differed with its likely rules, opening "
                        "on its differences, rules and arithmetic (docs/reports.md)")
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


def _keywords(keywords: list[str] | None) -> str:
    return " ".join(f"-k {k}" for k in keywords or ())


def _rule_sets(refs: list[str]):
    """The Variants named on the command line, or the lines saying why one cannot be used."""
    from ..variants import VariantError, load_variant
    variants, problems = [], []
    from ..variants.registry import clipped
    for ref in dict.fromkeys(refs):
        try:
            variant = load_variant(ref)
        except VariantError as exc:
            problems.extend(f"--variant {clipped(ref)}: {line.split(': id: ', 1)[1]}"
                            if line.startswith("<variant>: id: ") else line for line in exc.lines)
            continue
        if any(v.id == variant.id for v in variants):
            problems.append(f"--variant {ref}: rule set id '{variant.id}' is given twice")
        variants.append(variant)
    return variants, problems


def _nothing_played(report) -> str | None:
    """Why a run played nothing (every case skipped, every rule set refused), or None."""
    c = report.counts()
    if any(c[k] for k in ("pass", "fail", "defect")):
        return None
    played = [o for o in report.outcomes if o.outcome != "n/a"]
    if not played:
        why = "; ".join(report.notes) or "every case is n/a"
        return (f"nothing was played: no case has a hand or carried expectation under "
                f"{', '.join(report.variants)}, and {why}")
    if all(o.variant in report.refused for o in played):
        first = next(iter(report.refused.values()))
        return (f"nothing was played: the implementation refused every rule set "
                f"({', '.join(report.refused)}); first reason: {first}")
    if c["skip"] == len(played):
        return (f"nothing was played: the implementation skipped all {c['skip']} cases "
                "(check the kinds and variants it lists in its start reply)")
    return None


def main(args) -> int:
    from ..protocol.client import ImplementationError
    from ..protocol.impls import open_implementation
    from ..variants import shipped_ids

    from ..protocol.impls import timeout_problem
    problem = timeout_problem("--timeout", f"{args.timeout:g}")
    if problem:
        return _usage(problem)
    if args.corpus_only and not args.corpus:
        return _usage("--corpus-only needs at least one --corpus DIR")
    if args.uncovered and not args.variant:
        return _usage("--uncovered needs --variant ID|FILE: the rule set whose uncovered rules to list")
    variants, problems = _rule_sets(args.variant or shipped_ids())
    if len(problems) == 1:
        return _usage(problems[0])
    if problems:
        for line in problems:
            _err(line)
        return _usage(f"{reports.plural(len(problems), 'problem')} with --variant; nothing was run")

    try:
        targets = _report_targets(args, variants)
    except OutputError as exc:
        return _usage(str(exc))
    try:
        fixtures = load_corpus(extra=args.corpus or (), shipped=not args.corpus_only)
    except CorpusError as exc:
        for problem in exc.problems:
            _err(str(problem))
        _err(f"coinche-spec: {reports.plural(len(exc.problems), 'problem')} in the fixture files; nothing was run")
        return 2
    # A run that plays nothing must not look like a run that passed.
    if not fixtures:
        return _usage(f"no fixture in {', '.join(args.corpus or ['the corpus'])}: nothing to run")
    fixtures = select(fixtures, args.keyword)
    if not fixtures:
        return _usage(f"no fixture matches {_keywords(args.keyword)}")
    if args.uncovered:
        for variant in variants:
            print("\n".join(uncovered_lines(fixtures, variant)), flush=True)
        return 0
    if playable_count(fixtures, variants, not args.no_engine_verdicts) == 0:
        chosen = f" matching {_keywords(args.keyword)}" if args.keyword else ""
        return _usage(f"nothing to run: the {reports.plural(len(fixtures), 'fixture')}{chosen} "
                      f"{'is' if len(fixtures) == 1 else 'are'} not applicable under "
                      f"{', '.join(v.id for v in variants)}")

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
        report = run_corpus(impl, fixtures, variants, limits.watch(args, impl, on_outcome),
                            engine_verdicts=not args.no_engine_verdicts)
    finally:
        impl.stop()

    report.header = records.header(args.impl, impl.info, variants, corpus_folders(args),
                                   keywords=args.keyword, engine_verdicts=not args.no_engine_verdicts)
    print(reports.console(report, verbose=args.verbose), flush=True)
    for target in targets:
        try:
            _WRITERS[target.option](report, target)
        except OutputError as exc:
            return _usage(str(exc))
    why = _nothing_played(report)
    if why is not None:
        return _usage(why)
    return 0 if report.ok else 1


_WRITERS = {"--report-jsonl": reports.write_jsonl, "--junit": reports.write_junit,
            "--markdown": reports.write_markdown, "--html": html_report.write}


def corpus_folders(args) -> list:
    """The folders the run's fixtures come from, the shipped corpus last."""
    from pathlib import Path

    from ..resources import corpus_dir
    return [Path(c) for c in args.corpus or ()] + ([] if args.corpus_only else [corpus_dir()])


def _report_targets(args, variants) -> list:
    """The report files, checked before the run: none may be an input (a fixture file, a rule-set
    file), none named twice."""
    from pathlib import Path

    from ..variants import registry
    from .fixtures import RETIRED_FILE

    folders = corpus_folders(args)
    inputs: list = []
    for folder in folders:
        if folder.is_dir():
            inputs += sorted(folder.rglob("*.yaml")) + [folder / RETIRED_FILE]
    for _, where in registry.folders():
        if where.is_dir():
            inputs += [p for p in where.iterdir() if p.suffix in (".yaml", ".yml")]
    inputs += [Path(v.path) for v in variants if getattr(v, "path", None) is not None]
    return outputs.plan([("--report-jsonl", args.report_jsonl), ("--junit", args.junit),
                         ("--markdown", args.markdown), ("--html", args.html)], inputs)
