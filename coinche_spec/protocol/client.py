"""Driving an implementation through the conformance protocol.

The runner talks to every implementation the same way: ``start``,
``configure``, ``run`` (one case), ``stop``. ``InProcess`` is our own engine,
but every request and reply still goes through JSON text and the server's
session, so the protocol path is what the corpus tests. ``Subprocess`` is any
program speaking JSON Lines on stdin/stdout (``python my_engine.py``): each
reply has a time limit, and a program that hangs, dies or prints something
that is not a reply costs one case an error, never the whole run; it is
restarted and configured again before the next case, until it has broken
``max_restarts`` + 1 cases of one kind in a row: then that kind is given up,
and every case of that kind left is *not run*, while the other kinds go on
(an implementation that crashes on melds alone still has its scores judged);
when a second kind is given up with no case answered in between, the whole
implementation is given up (one that always hangs costs a few time-outs per
kind tried, not one per case). ``PythonObject`` (module ``inprocess``) is an object in this
process, with the same time limit.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from typing import Any, Callable

from . import jsonline
from ..errors import CoincheSpecError

PROTOCOL_VERSION = 1
# Requests sent at once by run_many stay well inside a pipe's buffer, so writing them never blocks.
PIPELINE_BYTES = 48_000


class ImplementationError(CoincheSpecError):
    """The implementation did not answer properly: ``kind`` is timeout, crashed or malformed; or
    ``not run``: the case was never sent, because the run was stopped (``Implementation.halt``)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


def check_start_reply(reply: Any) -> dict:
    if not isinstance(reply, dict):
        raise ImplementationError("malformed", f"start: expected a JSON object, got {reply!r:.200}")
    if reply.get("errored"):
        raise ImplementationError("malformed", f"start refused: {reply.get('message')}")
    if reply.get("protocol") != PROTOCOL_VERSION:
        raise ImplementationError("malformed", f"start: protocol {reply.get('protocol')!r}, expected 1")
    kinds = reply.get("kinds")
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
        raise ImplementationError("malformed", "start: \"kinds\" must be a list of case kinds")
    variants = reply.get("variants")
    if variants is not None and (not isinstance(variants, list)
                                 or not all(isinstance(v, str) for v in variants)):
        raise ImplementationError("malformed", "start: \"variants\" must be a list of ids or null")
    return reply


def check_configure_reply(reply: Any) -> dict:
    if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
        if isinstance(reply, dict) and reply.get("errored"):
            return {"ok": False, "message": str(reply.get("message"))}
        raise ImplementationError("malformed", f"configure: expected {{\"ok\": true|false}}, got {reply!r:.200}")
    return reply


def check_run_reply(reply: Any, seq: Any, earlier: Any = ()) -> dict:
    """``earlier``: the seqs already answered or given up, to name a reply out of order as such."""
    if not isinstance(reply, dict):
        raise ImplementationError("malformed", f"run: expected a JSON object, got {reply!r:.200}")
    if reply.get("seq") != seq:
        if "seq" in reply and reply["seq"] in earlier:
            raise ImplementationError("malformed", f"run: replies out of order: got the reply for an earlier "
                                                   f"case (seq {reply['seq']!r}) while waiting for seq {seq!r}")
        raise ImplementationError("malformed", f"run: reply for seq {reply.get('seq')!r}, expected {seq!r}")
    if "result" in reply:
        if not isinstance(reply["result"], dict):
            raise ImplementationError("malformed", "run: \"result\" must be an object")
    elif not reply.get("skipped") and not reply.get("errored"):
        raise ImplementationError("malformed", "run: the reply has neither result, skipped nor errored")
    return reply


class Implementation:
    """What the runner needs from an implementation under test.

    Besides the four commands, every implementation keeps two things the
    runner reads after each case: ``case_stderr`` (what it wrote on standard
    error during that case, bounded; None when nothing can be told apart),
    and what it has been given up for: once it has broken more than
    ``max_restarts`` cases of one kind in a row (a time-out, a crash,
    rubbish), ``run`` raises ``not run`` at once for that kind
    (``kinds_given_up``); once a second kind goes with nothing answered in
    between, or the runner called ``halt`` (``--max-fail``, ``-x``), for
    every case (``gave_up``), and nothing more is started."""

    label = "implementation"
    info: dict | None = None
    max_restarts: int | None = 3
    case_stderr: str | None = None
    gave_up: str | None = None
    broken_in_a_row = 0
    _case_kind: str | None = None       # the kind of the case being run (None: start, configure)

    @property
    def kinds_given_up(self) -> dict:
        """Kind -> why its later cases are not run (the implementation kept breaking on that kind)."""
        return self._tally()[0]

    def _tally(self) -> tuple:
        """(kinds given up, broken cases in a row per kind, kinds given up since the last answer)."""
        if "_kinds_given_up" not in self.__dict__:
            self._kinds_given_up, self._broken_by_kind, self._kinds_in_streak = {}, {}, set()
        return self._kinds_given_up, self._broken_by_kind, self._kinds_in_streak

    def halt(self, reason: str) -> None:
        """Stop here: every later case is not run, for ``reason``."""
        if self.gave_up is None:
            self.gave_up = reason
        self.stop()

    def _refuse_if_given_up(self, case: Any = None) -> None:
        self._case_kind = case.get("kind") if isinstance(case, dict) and isinstance(case.get("kind"), str) else None
        if self.gave_up is not None:
            raise ImplementationError("not run", f"not run: {self.gave_up}")
        why = self.kinds_given_up.get(self._case_kind)
        if why is not None:
            raise ImplementationError("not run", f"not run: {why}")

    def _broke(self) -> None:
        """One more case in a row that left the implementation broken: past the limit, give up the
        case's kind, or the whole implementation once a second kind goes with nothing answered between."""
        self.broken_in_a_row += 1
        limit, kind = self.max_restarts, self._case_kind
        if limit is None:
            return
        given_up, by_kind, streak = self._tally()
        if kind is None:    # starting or configuring: no kind to blame
            if self.broken_in_a_row > limit:
                n = self.broken_in_a_row
                self.halt(f"the implementation broke {n} {'case' if n == 1 else 'cases'} in a row "
                          f"(--max-restarts {limit})")
            return
        n = by_kind[kind] = by_kind.get(kind, 0) + 1
        if n > limit and kind not in given_up:
            given_up[kind] = (f"the implementation broke {n} {kind} {'case' if n == 1 else 'cases'} in a row "
                              f"(--max-restarts {limit}): "
                              f"its other {kind} cases were not run")
            streak.add(kind)
            if len(streak) > 1:
                self.halt(f"the implementation broke {self.broken_in_a_row} cases in a row, "
                          f"{len(streak)} kinds given up ({', '.join(sorted(streak))}; "
                          f"--max-restarts {limit}): every case left was not run")

    def _answered(self) -> None:
        self.broken_in_a_row = 0
        _, by_kind, streak = self._tally()
        streak.clear()
        by_kind.pop(self._case_kind, None)

    def start(self) -> dict:
        raise NotImplementedError

    def configure(self, variant: str | dict) -> dict:
        raise NotImplementedError

    def run(self, seq: Any, case: dict) -> dict:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def run_many(self, items: list, meanwhile: Callable[[], None] | None = None) -> list:
        """The replies to many (seq, case) pairs, each a reply or the ImplementationError it raised;
        ``meanwhile`` is called once, while the implementation works where it can work on its own."""
        if meanwhile is not None:
            meanwhile()
        replies: list = []
        for seq, case in items:
            try:
                replies.append(self.run(seq, case))
            except ImplementationError as exc:
                replies.append(exc)
        return replies

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def describe(self) -> str:
        impl = (self.info or {}).get("implementation") or {}
        if not isinstance(impl, dict):
            return self.label
        bits = [str(impl.get(k)) for k in ("name", "version") if impl.get(k)]
        if impl.get("language"):
            bits.append(f"({impl['language']})")
        return " ".join(bits) or self.label


class InProcess(Implementation):
    """The reference engine in this process, reached through the server's JSON request/reply path.

    With a ``timeout`` every request is answered by a worker thread and waited for at most that
    long: a case that runs away ends as a time-out, like a hung program's, and the next case is
    answered by a fresh session (the runaway thread is abandoned; it cannot be killed)."""

    label = "reference engine (in-process)"

    def __init__(self, timeout: float | None = None) -> None:
        self.timeout = timeout
        self._session = None
        self._jobs: queue.Queue | None = None
        self._variant: str | dict | None = None
        self._broken = False
        self._fresh()

    def _fresh(self) -> None:
        from .server import Session
        self._session = Session()
        self._jobs = None
        if self.timeout is not None:
            jobs: queue.Queue = queue.Queue()
            session = self._session

            def work() -> None:
                while True:
                    line, answer = jobs.get()
                    if line is None:
                        return
                    try:
                        answer.put(session.handle_line(line)[0])
                    except BaseException as exc:  # noqa: BLE001 - handle_line answers everything; belt and braces
                        answer.put(exc)

            threading.Thread(target=work, daemon=True, name="coinche-spec in-process case").start()
            self._jobs = jobs

    def _call(self, request: dict, slow: bool = False) -> Any:
        """``slow``: start and configure, which may read rule files, get a longer limit."""
        if self._session is None:  # used again after stop: a new session, as a program would be started anew
            self._fresh()
        line = json.dumps(request)
        limit = max(self.timeout, 30.0) if slow and self.timeout is not None else self.timeout
        if self._jobs is None:
            reply, _ = self._session.handle_line(line)
        else:
            answer: queue.Queue = queue.Queue(maxsize=1)
            self._jobs.put((line, answer))
            try:
                reply = answer.get(timeout=limit)
            except queue.Empty:
                self._jobs = None  # the worker stays busy with the runaway case: leave it behind
                self._broken = True
                self._broke()  # --max-restarts counts these as it counts another program's
                raise ImplementationError("timeout", f"no reply within {limit:g} s") from None
            if isinstance(reply, BaseException):
                raise ImplementationError("crashed", f"{type(reply).__name__}: {reply}")
            self._answered()
        return None if reply is None else json.loads(reply)

    def _mend(self) -> None:
        """After a time-out: a new session, configured as the old one was."""
        self._fresh()
        self._broken = False
        if self._variant is not None:
            check_configure_reply(self._call({"cmd": "configure", "variant": self._variant}, slow=True))

    def start(self) -> dict:
        self.info = check_start_reply(self._call({"cmd": "start", "protocol": PROTOCOL_VERSION}, slow=True))
        return self.info

    def configure(self, variant: str | dict) -> dict:
        self._refuse_if_given_up()
        if self._broken:
            self._variant = None
            self._mend()
        self._variant = variant
        reply = check_configure_reply(self._call({"cmd": "configure", "variant": variant}, slow=True))
        if not reply["ok"]:
            self._variant = None
        return reply

    def run(self, seq: Any, case: dict) -> dict:
        self._refuse_if_given_up(case)
        if self._broken:
            self._mend()
        return check_run_reply(self._call({"cmd": "run", "seq": seq, "case": case}), seq)

    def stop(self) -> None:
        """End the session (and its worker); a second stop, or one after a time-out, does nothing."""
        if self._broken or self._session is None:
            return
        self._call({"cmd": "stop"})
        if self._jobs is not None:
            self._jobs.put((None, None))
        self._session, self._jobs = None, None


_EOF = object()
_TOO_LONG = object()
CASE_STDERR_LINES = 50        # kept per case: enough to see a traceback, bounded for a chatty program
CASE_STDERR_LINE_CHARS = 500


class Subprocess(Implementation):
    """Another program over stdio JSON Lines, with a time limit on every reply."""

    def __init__(self, command: str | list[str], timeout: float = 10.0, start_timeout: float = 30.0,
                 cwd: str | None = None, env: dict | None = None, stderr_lines: int = 40):
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("empty implementation command")
        self.label = " ".join(shlex.quote(a) for a in self.argv)
        self.timeout = timeout
        self.start_timeout = max(start_timeout, timeout)
        self.cwd, self.env = cwd, env
        self._stderr: collections.deque = collections.deque(maxlen=stderr_lines)
        self._case_lines: list = []       # what the program writes on stderr during the current case
        self._sent: collections.deque = collections.deque(maxlen=64)  # recent seqs, to spot a late reply
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue | None = None
        self._variant: str | dict | None = None
        self._broken = False
        self._stderr_reader: threading.Thread | None = None
        self.restarts = 0

    # -- the process ---------------------------------------------------------
    def _spawn(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=self.cwd, env=self.env, start_new_session=(os.name == "posix"))
        except FileNotFoundError:
            raise ImplementationError("crashed", f"cannot start: command not found: {self.argv[0]}") from None
        except PermissionError:
            raise ImplementationError("crashed", f"cannot start: {self.argv[0]} is not executable") from None
        except OSError as exc:
            raise ImplementationError("crashed", f"cannot start {self.argv[0]}: {exc.strerror or exc}") from None
        lines: queue.Queue = queue.Queue()
        self._lines = lines
        proc = self._proc
        # this process's own standard error: a restarted program's tail never repeats its predecessors'
        said = self._stderr = collections.deque(maxlen=self._stderr.maxlen)

        def read_stdout() -> None:
            while True:  # line by line, never holding more than the line limit
                raw, too_long = jsonline.read_line(proc.stdout)
                if raw is None:
                    break
                lines.put(_TOO_LONG if too_long else raw)
            lines.put(_EOF)

        def read_stderr() -> None:
            for raw in proc.stderr:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                said.append(line)
                case_lines = self._case_lines
                if len(case_lines) < CASE_STDERR_LINES:
                    case_lines.append(line[:CASE_STDERR_LINE_CHARS])
                elif len(case_lines) == CASE_STDERR_LINES:
                    case_lines.append("... (more lines left out)")

        threading.Thread(target=read_stdout, daemon=True).start()
        self._stderr_reader = threading.Thread(target=read_stderr, daemon=True)
        self._stderr_reader.start()

    def _last_words(self, wait: float = 1.0) -> None:
        """Once the program is gone, let the stderr reader take in everything it wrote."""
        reader = self._stderr_reader
        if reader is not None:
            reader.join(timeout=wait)

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                if os.name == "posix":
                    os.killpg(proc.pid, signal.SIGKILL)
                else:  # pragma: no cover
                    proc.kill()
            except (ProcessLookupError, PermissionError):
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        self._last_words(0.5)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    def _died(self) -> ImplementationError:
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
        if code is not None:
            self._last_words()
        tail = self.stderr_tail()
        status = f"exited with status {code}" if code is not None else "closed its output"
        return ImplementationError("crashed", f"the implementation {status}" + (f"; stderr: {tail}" if tail else ""))

    def stderr_tail(self, lines: int = 5) -> str:
        """The last lines the program wrote on standard error, on one line."""
        return " | ".join(line.strip() for line in list(self._stderr)[-lines:] if line.strip())

    def _request(self, request: dict, timeout: float, expect_reply: bool = True) -> Any:
        self._send([request])
        return self._receive(timeout) if expect_reply else None

    def _send(self, requests: list) -> None:
        proc = self._proc
        if proc is None or self._lines is None:
            raise ImplementationError("crashed", "the implementation is not running")
        data = b"".join((json.dumps(r, ensure_ascii=True) + "\n").encode("utf-8") for r in requests)
        try:
            proc.stdin.write(data)
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died() from None

    def _receive(self, timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ImplementationError("timeout", f"no reply within {timeout:g} s")
            try:
                raw = self._lines.get(timeout=remaining)
            except queue.Empty:
                raise ImplementationError("timeout", f"no reply within {timeout:g} s") from None
            if raw is _EOF:
                raise self._died()
            if raw is _TOO_LONG:
                raise ImplementationError("malformed", f"the reply is longer than {jsonline.MAX_LINE_BYTES:,} "
                                                       "bytes, the limit")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ImplementationError("malformed", f"the reply is not UTF-8: {raw[:120]!r}") from None
            if not text.strip():
                continue
            try:
                return jsonline.decode(text)
            except jsonline.LineError as exc:
                if exc.message.startswith("the line is not JSON"):
                    raise ImplementationError("malformed", f"the reply is not JSON: {text.strip()[:200]!r}") from None
                raise ImplementationError("malformed", "the reply " + exc.message.removeprefix("the line ")) from None

    def _restart(self) -> None:
        self._kill()
        self.restarts += 1
        self._spawn()
        check_start_reply(self._request({"cmd": "start", "protocol": PROTOCOL_VERSION}, self.start_timeout))
        if self._variant is not None:
            reply = check_configure_reply(self._request({"cmd": "configure", "variant": self._variant},
                                                        self.start_timeout))
            if not reply["ok"]:
                raise ImplementationError("crashed", f"after a restart, configure failed: {reply.get('message')}")
        self._broken = False

    # -- the protocol ----------------------------------------------------------
    def start(self) -> dict:
        """Launch the program and check its start reply; on failure the program is gone and the
        error says why, with the end of its standard error when it wrote any."""
        self._spawn()
        try:
            self.info = check_start_reply(self._request({"cmd": "start", "protocol": PROTOCOL_VERSION},
                                                        self.start_timeout))
        except ImplementationError as exc:
            if exc.kind == "timeout":
                exc = ImplementationError("timeout", f"no reply to start within {self.start_timeout:g} s")
            self._kill()  # and read what it said on stderr to the end
            tail = self.stderr_tail()
            if tail and "stderr:" not in exc.message:
                exc = ImplementationError(exc.kind, f"{exc.message}; stderr: {tail}")
            raise exc from None
        return self.info

    def configure(self, variant: str | dict) -> dict:
        self._refuse_if_given_up()
        if self._broken or self._proc is None:
            self._variant = None
            self._restart()
        self._variant = variant
        try:
            reply = check_configure_reply(self._request({"cmd": "configure", "variant": variant},
                                                        self.start_timeout))
        except ImplementationError:
            self._broken = True
            raise
        if not reply["ok"]:
            self._variant = None
        return reply

    def run(self, seq: Any, case: dict) -> dict:
        self._refuse_if_given_up(case)
        self._case_lines = lines = []
        self.case_stderr = None
        try:
            if self._broken:
                try:
                    self._restart()
                except ImplementationError as exc:
                    raise ImplementationError("crashed", f"could not restart the implementation: "
                                                         f"{exc.message}") from None
            try:
                reply = check_run_reply(self._request({"cmd": "run", "seq": seq, "case": case}, self.timeout),
                                        seq, self._sent)
            finally:
                self._sent.append(seq)
        except ImplementationError:
            self._broken = True  # whatever it is doing now, start afresh before the next case
            self.case_stderr = "\n".join(lines) or None
            self._broke()
            raise
        self.case_stderr = "\n".join(lines) or None
        self._answered()
        return reply

    def run_many(self, items: list, meanwhile: Callable[[], None] | None = None) -> list:
        """Send every (seq, case) at once, call ``meanwhile`` while the program works, then read the
        replies in order: one wait for many cases. Too much at once to fit a pipe goes case by case."""
        requests = [{"cmd": "run", "seq": seq, "case": case} for seq, case in items]
        if sum(len(json.dumps(r)) for r in requests) > PIPELINE_BYTES:
            return super().run_many(items, meanwhile)
        if self._broken:
            try:
                self._restart()
            except ImplementationError as exc:
                self._broken = True
                failure = ImplementationError("crashed", f"could not restart the implementation: {exc.message}")
                if meanwhile is not None:
                    meanwhile()
                return [failure] * len(items)
        replies: list = []
        try:
            self._send(requests)
        except ImplementationError as exc:
            self._broken = True
            replies = [exc] * len(items)
        if meanwhile is not None:
            meanwhile()
        for seq, _ in items[len(replies):]:
            try:
                replies.append(check_run_reply(self._receive(self.timeout), seq))
            except ImplementationError as exc:
                self._broken = True  # what follows in the pipe can no longer be trusted: start afresh
                replies.extend([exc] * (len(items) - len(replies)))
                break
        return replies

    def stop(self) -> None:
        proc = self._proc
        if proc is None:
            return
        if self._broken:  # it did not answer the last request: it will not read a stop either
            self._kill()
            return
        try:
            self._request({"cmd": "stop"}, 0, expect_reply=False)
            proc.stdin.close()
            proc.wait(timeout=5)
        except (ImplementationError, OSError, subprocess.TimeoutExpired, ValueError):
            pass
        self._kill()

    @property
    def returncode(self) -> int | None:
        return None if self._proc is None else self._proc.poll()


def open_implementation(spec: str | None, timeout: float = 10.0, max_restarts: int | None = 3) -> Implementation:
    """An ``--impl`` spec to an implementation: see ``impls`` (kept here for older imports)."""
    from .impls import open_implementation as open_spec
    return open_spec(spec, timeout=timeout, max_restarts=max_restarts)
