"""When a conformance run stops early: ``--max-restarts``, ``--max-fail`` and ``-x``.

A run never stops on one bad case, but it should not go on forever with an
implementation that is gone or hopeless: after ``--max-restarts`` restarts
in a row (3 by default) the implementation is given up, and after
``--max-fail N`` cases that failed, errored or timed out (``-x``: the first)
the run stops. Either way every case left is reported as *not run*, so the
report still lists the whole selection and never looks like a pass.

The stopping itself is the implementation's (``Implementation.halt``): this
module only reads the options and watches the outcomes as they come.
"""

from __future__ import annotations

import argparse
from typing import Callable

PROBLEMS = ("fail", "error", "timeout")


def _count(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected a number from {minimum} up, got {value}")
        return value
    return parse


def add_arguments(parser) -> None:
    parser.add_argument("--max-restarts", metavar="K", type=_count(0), default=3,
                        help="after the implementation has broken (timed out, crashed, answered rubbish) K+1 "
                             "cases of one kind in a row, that is after K restarts, give that kind up: its cases "
                             "left are reported as not run, the other kinds go on; a second kind given up with no "
                             "case answered in between gives the implementation up (default 3)")
    parser.add_argument("--max-fail", metavar="N", type=_count(1), default=None,
                        help="stop after N cases that failed, errored or timed out; the cases left are "
                             "reported as not run")
    parser.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first such case (--max-fail 1)")


def watch(args, impl, on_outcome=None):
    """An ``on_outcome`` callback for the runner: keeps each played case's standard error on its
    outcome, stops the implementation once ``--max-fail``/``-x`` is reached, then calls ``on_outcome``."""
    limit = 1 if getattr(args, "exitfirst", False) else getattr(args, "max_fail", None)
    option = "-x" if getattr(args, "exitfirst", False) else f"--max-fail {limit}"
    problems = 0

    def seen(outcome, done: int, total: int) -> None:
        nonlocal problems
        # case_stderr belongs to the case just played; cleared so a case that was not sent never gets it
        outcome.stderr, impl.case_stderr = getattr(impl, "case_stderr", None), None
        if outcome.outcome in PROBLEMS:
            problems += 1
            if limit is not None and problems >= limit:
                impl.halt(f"the run stopped after {problems} failing "
                          f"{'case' if problems == 1 else 'cases'} ({option})")
        if on_outcome is not None:
            on_outcome(outcome, done, total)

    return seen
