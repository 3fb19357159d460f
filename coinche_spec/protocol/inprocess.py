"""Implementations that live in this process, under the same time limit as a separate program.

A Python call cannot be interrupted, so every call to the implementation runs
on a worker thread and the runner waits for it at most ``timeout`` seconds.
When the time is up, the thread is left behind (it cannot be killed; it is a
daemon, so it never keeps the process alive) and the next case gets a fresh
thread and a fresh object from the factory, started and configured again:
the same recovery as restarting a program. ``Worker`` is that mechanism on
its own, for any in-process caller that needs a time limit.

``PythonObject`` is ``--impl python:MODULE:FACTORY``: an object with the
protocol's commands as methods (docs/protocol.md, "An implementation in
Python, in-process"). Everything it is given and everything it answers goes
through JSON text, so it sees exactly what a program reading standard input
would, and an answer that could not be sent over the protocol is refused.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import traceback
from typing import Any, Callable

from . import jsonline
from .client import Implementation, ImplementationError, check_configure_reply, check_run_reply, check_start_reply

CASE_STDERR_CHARS = 20_000


class _Raised:
    """What the worker hands back when the call raised."""

    def __init__(self, exc: BaseException):
        self.exc = exc
        self.traceback = traceback.format_exc()


class Worker:
    """One daemon thread that runs calls; the caller waits for each at most ``timeout`` seconds."""

    def __init__(self, name: str = "implementation") -> None:
        self._jobs: queue.Queue = queue.Queue()
        self.stuck = False
        self._thread = threading.Thread(target=self._serve, name=f"coinche-spec {name}", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, args, answer = job
            try:
                answer.put((True, fn(*args)))
            except BaseException as exc:  # the implementation's failure, handed to the caller
                answer.put((False, _Raised(exc)))

    def call(self, fn: Callable, *args: Any, timeout: float | None) -> Any:
        """``fn(*args)`` on the worker thread. Raises ``ImplementationError("timeout")`` when it takes
        longer than ``timeout`` (the worker is then stuck for good); returns a ``_Raised`` when it raised."""
        if self.stuck:
            raise ImplementationError("crashed", "the implementation is still busy with an earlier call")
        answer: queue.Queue = queue.Queue(maxsize=1)
        self._jobs.put((fn, args, answer))
        try:
            ok, value = answer.get(timeout=timeout)
        except queue.Empty:
            self.stuck = True
            raise ImplementationError("timeout", f"no reply within {timeout:g} s") from None
        return value

    def close(self) -> None:
        if not self.stuck:
            self._jobs.put(None)

    @property
    def ident(self) -> int | None:
        return self._thread.ident


class _StderrTap:
    """Standard error while a call runs: what the worker thread writes is kept with the case, not
    printed (as a separate program's is), and what any other thread writes is passed on."""

    def __init__(self, stream, thread_id: int | None):
        self._stream, self._thread_id = stream, thread_id
        self.kept: list[str] = []
        self._size = 0

    def write(self, text: str) -> int:
        if threading.get_ident() != self._thread_id:
            return self._stream.write(text)
        if self._size < CASE_STDERR_CHARS:
            self.kept.append(text[:CASE_STDERR_CHARS - self._size])
            self._size += len(text)
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _StdoutTap(_StderrTap):
    """Standard output while a call runs: the report is written there, so what the worker thread
    prints is kept apart (and held against the implementation), never mixed into the report."""


def _through_json(value: Any, what: str) -> Any:
    """The value as the other side of a pipe would read it; refused if it cannot be written as JSON."""
    try:
        text = json.dumps(value, ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ImplementationError("malformed", f"{what}: the reply cannot be written as JSON: {exc}") from None
    except RecursionError:
        raise ImplementationError("malformed", f"{what}: the reply nests lists or dicts too deeply to be written "
                                               "as JSON") from None
    try:   # the limits a program's reply line is held to (64 levels, numbers of 100 characters)
        return jsonline.decode(text)
    except jsonline.LineError as exc:
        raise ImplementationError("malformed", f"{what}: the reply {exc.message.removeprefix('the line ')}") from None


class PythonObject(Implementation):
    """An object in this process with ``start()``, ``configure(variant)``, ``run(case)`` and, if it
    likes, ``stop()``; each call under a time limit, as a separate program would be."""

    def __init__(self, factory: Callable[[], Any], label: str, timeout: float | None = 10.0,
                 start_timeout: float = 30.0, max_restarts: int | None = 3):
        self.factory, self.label = factory, label
        self.timeout = timeout
        self.start_timeout = start_timeout if timeout is None else max(start_timeout, timeout)
        self.max_restarts = max_restarts
        self._worker: Worker | None = None
        self._obj: Any = None
        self._variant: Any = None
        self._broken = False
        self.restarts = 0

    # -- calling the object ------------------------------------------------------
    def _call(self, method: str, *args: Any, timeout: float | None) -> Any:
        """The method's return value, or a ``_Raised``; a time-out leaves the object broken."""
        worker = self._worker
        if worker is None:
            raise ImplementationError("crashed", "the implementation is not running")
        fn = getattr(self._obj, method, None) if method != "factory" else self.factory
        if not callable(fn):
            raise ImplementationError("malformed", f"the implementation object has no {method}() method")
        tap = _StderrTap(sys.stderr, worker.ident)
        out_tap = _StdoutTap(sys.stdout, worker.ident)
        saved, sys.stderr = sys.stderr, tap
        saved_out, sys.stdout = sys.stdout, out_tap
        try:
            value = worker.call(fn, *args, timeout=timeout)
        except ImplementationError:
            self._broken = True
            raise
        finally:
            if sys.stderr is tap:
                sys.stderr = saved
            if sys.stdout is out_tap:
                sys.stdout = saved_out
            if method == "run":
                self.case_stderr = "".join(tap.kept).rstrip("\n") or None
        printed = "".join(out_tap.kept)
        if printed.strip():
            name = "the factory" if method == "factory" else f"{method}()"
            raise ImplementationError("malformed", f"{name} wrote on standard output, where the runner writes its "
                                                   f"report (an in-process implementation returns its replies; "
                                                   f"log on standard error): {printed.strip()[:200]!r}")
        if method == "factory" and not isinstance(value, _Raised):
            self._obj = value
        return value

    def _launch(self) -> dict:
        if self._worker is not None:
            self._worker.close()
        self._worker = Worker(self.label)
        made = self._call("factory", timeout=self.start_timeout)
        if isinstance(made, _Raised):
            raise ImplementationError("crashed", f"the factory raised {_one_line(made.exc)}")
        reply = self._call("start", timeout=self.start_timeout)
        if isinstance(reply, _Raised):
            raise ImplementationError("crashed", f"start() raised {_one_line(reply.exc)}")
        info = check_start_reply(_through_json(reply, "start"))
        self._broken = False
        return info

    def _restart(self) -> None:
        self.restarts += 1
        try:
            self._launch()
            if self._variant is not None:
                reply = self._configure(self._variant)
                if not reply["ok"]:
                    raise ImplementationError("crashed", f"after a restart, configure failed: {reply.get('message')}")
        except ImplementationError as exc:
            self._broken = True
            raise ImplementationError("crashed", f"could not restart the implementation: {exc.message}") from None

    def _configure(self, variant: Any) -> dict:
        reply = self._call("configure", _through_json(variant, "configure"), timeout=self.start_timeout)
        if isinstance(reply, _Raised):
            return {"ok": False, "message": f"configure() raised {_one_line(reply.exc)}"}
        return check_configure_reply(_through_json(reply, "configure"))

    # -- the protocol ----------------------------------------------------------------
    def start(self) -> dict:
        self.info = self._launch()
        return self.info

    def configure(self, variant: str | dict) -> dict:
        self._refuse_if_given_up()
        if self._broken:
            self._variant = None
            self._restart()
        reply = self._configure(variant)
        self._variant = variant if reply["ok"] else None
        return reply

    def run(self, seq: Any, case: dict) -> dict:
        self._refuse_if_given_up(case)
        self.case_stderr = None
        try:
            if self._broken:
                self._restart()
            reply = self._call("run", _through_json(case, "run"), timeout=self.timeout)
            if isinstance(reply, _Raised):
                reply = {"errored": True, "message": f"run() raised {_one_line(reply.exc)}",
                         "traceback": reply.traceback}
            reply = _through_json(reply, "run")
            if isinstance(reply, dict):
                reply["seq"] = seq
            reply = check_run_reply(reply, seq)
        except ImplementationError:
            self._broken = True
            self._broke()
            raise
        self._answered()
        return reply

    def stop(self) -> None:
        worker, self._worker = self._worker, None
        if worker is None:
            return
        if not worker.stuck and self._obj is not None and callable(getattr(self._obj, "stop", None)):
            self._worker = worker
            try:
                self._call("stop", timeout=min(5.0, self.start_timeout))
            except ImplementationError:
                pass
            self._worker = None
        worker.close()


def _one_line(exc: BaseException) -> str:
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= 500 else text[:497] + "..."
