"""When a fuzz run stops starting deals: its time budget spent, or a signal.

The budget only stops new deals: the run then shrinks and writes as after its last deal. A signal
stops the run where it is (the implementations ended first, as the runner's other commands do), and
the fuzz command writes what was found and exits with 128 + the signal's number.
"""

from __future__ import annotations

import sys
import time


class Signalled(BaseException):
    """A signal came: the implementations are ended, and the run writes what it found and exits with
    128 + the signal's number. Private control flow, caught by the fuzz command (never shown); a
    BaseException, as KeyboardInterrupt, so no handler of errors takes it."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class Stopper:
    """When the run stops starting deals: its time budget spent, or a signal.

    The first SIGINT, SIGTERM or SIGHUP ends the implementations at once (one may hang on the case in
    hand), as the runner's other commands do, and stops the run where it is: nothing more is played,
    shrunk or looked for, the summary is printed and written, and the run exits with 128 + the
    signal's number (130, 143, 129). A second signal ends it at once."""

    def __init__(self, budget: float | None):
        self.budget = budget
        self.deadline = None
        self.signal = 0
        self.budget_spent = False

    def start(self) -> None:
        if self.budget is not None:
            self.deadline = time.monotonic() + self.budget

    def stop(self) -> bool:
        if self.deadline is not None and not self.budget_spent and time.monotonic() >= self.deadline:
            self.budget_spent = True
        return self.budget_spent or bool(self.signal)

    def ended(self, asked: int, played: int) -> str:
        import signal
        if self.signal:
            return signal.Signals(self.signal).name
        if self.budget_spent and played < asked:
            return "time budget"
        return "all deals"

    def catching_signals(self):
        """While inside, the first signal only asks the run to stop (see the class); a second ends it."""
        import signal
        from ..protocol import children

        def handler(signum, frame) -> None:  # noqa: ARG001
            if self.signal:
                children.end_now(signum)
            self.signal = signum
            children.end_all()
            print(f"coinche-spec: fuzz: {signal.Signals(signum).name}: stopped; writing what was found "
                 "(a second signal stops at once)", file=sys.stderr, flush=True)
            raise Signalled(signum)
        return children.handling_signals(handler)


__all__ = ["Signalled", "Stopper"]
