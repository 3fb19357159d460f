"""``coinche-spec compare A B [C ...]``: arguments in, the comparison out (the work is in the modules)."""

from __future__ import annotations

import os
import sys


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "compare", help="what a rule change does at the table: rules in words, simulated deals (corpus outcomes)",
        description="Compare rule sets: the rules that differ, in words, without those that cannot matter; "
                    "then the same deals played by the simple players under each rule set, with 95 %% intervals "
                    "(the headline figures); with --scenarios, also the corpus scenarios whose hand-derived "
                    "outcomes differ, in protocol notation. The first rule set is the one the others are "
                    "measured against.")
    p.add_argument("refs", nargs="+", metavar="ID|FILE", help="two or more rule sets (ids or files)")
    p.add_argument("--deals", type=int, default=2000, help="deals to simulate (default 2000; 0: no simulation)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    p.add_argument("--scenarios", action="store_true",
                   help="also list the corpus scenarios whose hand-derived outcomes differ (long: hundreds of "
                        "fixtures in protocol notation)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="local processes playing the deals (default: one per core); the figures do not depend on it")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print JSON")
    fmt.add_argument("--html", action="store_true", help="print a self-contained HTML page with plots")
    p.add_argument("--output", "-o", metavar="FILE", help="write to FILE (a new file) instead of printing")
    p.set_defaults(func=run)


def _error(message: str):
    from ..errors import UserError
    return UserError(message)


def _note(message: str) -> None:
    sys.stderr.write(message + "\n")


def build(refs: list, deals: int, seed: int, jobs: int = 1, progress=None, note=_note, scenarios: bool = False):
    """The whole comparison of the rule sets named by ``refs`` (``note``: told when the deals are
    played one by one because the batch engine cannot play a rule set; ``scenarios``: whether the
    corpus scenarios are compared too)."""
    from ..conformance.fixtures import CorpusError
    from ..docsgen.cli import load
    from .outcomes import differing
    from .render import Comparison
    from ..docsgen.differences import worded_differences
    from .simulate import match_refusal, simulate

    variants = [load(r) for r in refs]
    ids = [v.id for v in variants]
    if len(set(ids)) < len(ids):
        raise _error(f"compare: a rule set is named twice ({', '.join(ids)})")
    changes, left_out = worded_differences(variants)
    found, seen, without = None, 0, []
    if scenarios:
        try:
            found, seen, without = differing(variants)
        except CorpusError as exc:
            raise _error(f"compare: the corpus does not load: {exc.problems[0]}") from None
    why = match_refusal(variants) if deals else None
    if why is not None:
        raise _error(f"compare: {why}")
    sim = simulate(variants, deals, seed, jobs, progress, note=note) if deals else None
    return Comparison(ids, changes, left_out, found, seen, without, sim)


def run(args) -> int:
    from pathlib import Path

    from .render import render_html, render_json, render_text
    from .simulate import progress_bar

    if len(args.refs) < 2:
        raise _error("compare: name at least two rule sets")
    if args.deals < 0:
        raise _error(f"compare: --deals must be 0 or more, got {args.deals}")
    from .simulate import MAX_DEALS
    if args.deals > MAX_DEALS:
        raise _error(f"compare: --deals {args.deals:,}: at most {MAX_DEALS:,} deals (docs/limits.md)")
    if args.jobs < 1:
        raise _error(f"compare: --jobs must be 1 or more, got {args.jobs}")
    if args.output and Path(args.output).exists():
        raise _error(f"compare: '{args.output}' exists: choose a new file (nothing is overwritten)")
    if args.output and not Path(args.output).parent.is_dir():
        raise _error(f"compare: cannot write '{args.output}': its folder does not exist")
    c = build(args.refs, args.deals, args.seed, args.jobs, progress_bar(), scenarios=args.scenarios)
    text = render_json(c) if args.json else render_html(c) if args.html else render_text(c)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
