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
import selectors
import shlex
import signal
import subprocess
import threading
import time
from typing import Any, Callable

from . import children, jsonline
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


_NOTHING = object()


def check_start_reply(reply: Any) -> dict:
    if not isinstance(reply, dict):
        raise ImplementationError("malformed", f"start: expected a JSON object, got {reply!r:.200}")
    if reply.get("errored"):
        raise ImplementationError("malformed", f"start refused: {reply.get('message')}")
    if type(reply.get("protocol")) is not int or reply.get("protocol") != PROTOCOL_VERSION:  # true == 1
        raise ImplementationError("malformed", f"start: protocol {reply.get('protocol')!r}, expected 1")
    if "implementation" in reply and not isinstance(reply["implementation"], dict):
        raise ImplementationError("malformed", "start: \"implementation\" must be an object (name, version, "
                                               f"language, homepage), got {reply['implementation']!r:.100}")
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


def check_run_reply(reply: Any, seq: Any, earlier: Any = (), ahead: Any = _NOTHING) -> dict:
    """``earlier``: the seqs already answered or given up, to name a reply out of order as such;
    ``ahead``: the seq of a request sent after this one."""
    if not isinstance(reply, dict):
        raise ImplementationError("malformed", f"run: expected a JSON object, got {reply!r:.200}")
    if reply.get("seq") != seq:
        if ahead is not _NOTHING and "seq" in reply and reply["seq"] == ahead:
            raise ImplementationError("malformed", f"run: replies out of order: got the reply for the next "
                                                   f"case (seq {reply['seq']!r}) while waiting for seq {seq!r}")
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

    def queue_next(self, seq: Any, case: dict) -> None:
        """Say which case ``run`` will be asked next: a program may be sent it before the current
        case's reply is read, so that one answering out of order is caught at once (its reply to
        this one arrives first) rather than by a time-out. Ignored where nothing is sent ahead."""

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


_TOO_LONG = object()
CASE_STDERR_LINES = 50        # kept per case: enough to see a traceback, bounded for a chatty program
CASE_STDERR_LINE_CHARS = 500
STDERR_LINE_BYTES = 4096      # of one stderr line, the rest is dropped: a program may write 400 MB without "\n"
READ_CHUNK = 65536
EXIT_GRACE = 0.5              # once the program has exited, how long a pipe left open by its helpers is read


class _Pipes:
    """The program's three pipes, never blocking: replies are read line by line (each at most
    ``jsonline.MAX_LINE_BYTES``), standard error is kept as a bounded tail, and requests are written
    while both are read, all with a deadline. No thread reads a pipe, so none is ever left blocked on
    one that a forked helper keeps open."""

    def __init__(self, proc: subprocess.Popen, stderr_lines: int):
        self.proc = proc
        self.stdin, self.stdout, self.stderr = proc.stdin.fileno(), proc.stdout.fileno(), proc.stderr.fileno()
        for fd in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(fd, False)
        self.inodes = [os.fstat(fd).st_ino for fd in (self.stdin, self.stdout, self.stderr)]
        self.lines: collections.deque = collections.deque()   # complete reply lines (or _TOO_LONG)
        self.partial = bytearray()       # the reply line being written
        self.skipping = False            # inside a reply line longer than the limit: dropped as it comes
        self.out_closed = False          # stdout ended (or the program exited and nothing more came)
        self.err_closed = False
        self.err_partial = bytearray()
        self.err_dropped = False
        self.said: collections.deque = collections.deque(maxlen=stderr_lines)
        self.case_lines: list = []
        self.exited_at: float | None = None

    # -- reading ------------------------------------------------------------------
    def _take_stdout(self, data: bytes) -> None:
        start = 0
        while True:
            nl = data.find(b"\n", start)
            piece = data[start:] if nl < 0 else data[start:nl + 1]
            if not self.skipping:
                if len(self.partial) + len(piece) > jsonline.MAX_LINE_BYTES + (1 if nl >= 0 else 0):
                    self.partial.clear()
                    self.skipping = True
                else:
                    self.partial += piece
            if nl < 0:
                return
            if self.skipping:
                self.lines.append(_TOO_LONG)
                self.skipping = False
            else:
                self.lines.append(bytes(self.partial))
                self.partial.clear()
            start = nl + 1

    def _stderr_line(self, raw: bytes) -> None:
        line = raw.decode("utf-8", "replace").rstrip("\r")
        cut = " ... (line cut)"
        self.said.append(line + cut if self.err_dropped else line)
        case_lines = self.case_lines
        if len(case_lines) < CASE_STDERR_LINES:
            short = len(line) <= CASE_STDERR_LINE_CHARS and not self.err_dropped
            case_lines.append(line if short else line[:CASE_STDERR_LINE_CHARS] + cut)
        elif len(case_lines) == CASE_STDERR_LINES:
            case_lines.append("... (more lines left out)")

    def _take_stderr(self, data: bytes) -> None:
        start = 0
        while True:
            nl = data.find(b"\n", start)
            piece = data[start:] if nl < 0 else data[start:nl]
            room = STDERR_LINE_BYTES - len(self.err_partial)
            if len(piece) > room:
                piece, self.err_dropped = piece[:max(room, 0)], True
            self.err_partial += piece
            if nl < 0:
                return
            self._stderr_line(bytes(self.err_partial))
            self.err_partial.clear()
            self.err_dropped = False
            start = nl + 1

    def _read(self, fd: int) -> None:
        try:
            data = os.read(fd, READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if fd == self.stdout:
            if data:
                self._take_stdout(data)
            else:
                self.out_closed = True
        elif data:
            self._take_stderr(data)
        else:
            self.err_closed = True
            if self.err_partial:
                self._stderr_line(bytes(self.err_partial))
                self.err_partial.clear()

    def pump(self, deadline: float, data: memoryview | None = None, for_reply: bool = True,
             stderr_only: bool = False) -> memoryview | None:
        """Read both outputs (and write ``data``, if any) until a reply line is there (``for_reply``),
        ``data`` is written, the output ends, or the deadline. Returns what is left of ``data``."""
        with selectors.DefaultSelector() as sel:
            if not self.out_closed and not stderr_only:
                sel.register(self.stdout, selectors.EVENT_READ)
            if not self.err_closed:
                sel.register(self.stderr, selectors.EVENT_READ)
            writing = data is not None and len(data) > 0
            if writing:
                sel.register(self.stdin, selectors.EVENT_WRITE)
            while True:
                if writing and not len(data):
                    return data
                if not writing and for_reply and (self.lines or self.out_closed):
                    return data
                if stderr_only and self.err_closed:
                    return data
                now = time.monotonic()
                if now >= deadline or not sel.get_map():
                    return data
                if self.exited_at is None and self.proc.poll() is not None:
                    self.exited_at = now
                if self.exited_at is not None and now - self.exited_at > EXIT_GRACE and not stderr_only:
                    # gone, and a helper it forked keeps the pipe open: nothing more will come from it
                    self.out_closed = True
                    return data
                for key, _ in sel.select(min(deadline - now, 0.1)):
                    fd = key.fd
                    if fd == self.stdin:
                        try:
                            written = os.write(fd, data[:READ_CHUNK])
                        except (BlockingIOError, InterruptedError):
                            continue
                        data = data[written:]
                        if not len(data):
                            sel.unregister(fd)
                            writing = False
                            return data
                        continue
                    self._read(fd)
                    if (fd == self.stdout and self.out_closed) or (fd == self.stderr and self.err_closed):
                        sel.unregister(fd)

    def close(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass


def _status(code: int) -> str:
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"exited with status {code}"


class Subprocess(Implementation):
    """Another program over stdio JSON Lines, with a time limit on every reply (and on every request:
    a program that stops reading its input costs a time-out, not a hang)."""

    def __init__(self, command: str | list[str], timeout: float = 10.0, start_timeout: float = 30.0,
                 cwd: str | None = None, env: dict | None = None, stderr_lines: int = 40):
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv or not self.argv[0]:
            raise ValueError("empty implementation command")
        self.label = " ".join(shlex.quote(a) for a in self.argv)
        self.timeout = timeout
        self.start_timeout = max(start_timeout, timeout)
        self.cwd, self.env = cwd, env
        self._stderr_lines = stderr_lines
        self._sent: collections.deque = collections.deque(maxlen=64)  # recent seqs, to spot a late reply
        self._proc: subprocess.Popen | None = None
        self._pipes: _Pipes | None = None
        self._last_pipes: _Pipes | None = None
        self._variant: str | dict | None = None
        self._broken = False
        self._next: tuple | None = None         # (seq, case) run will be asked next (queue_next)
        self._in_flight: Any = _NOTHING         # the seq of a run request sent ahead, its reply not read
        self.restarts = 0

    @property
    def _stderr(self) -> collections.deque:
        pipes = self._pipes or self._last_pipes
        return pipes.said if pipes is not None else collections.deque()

    # -- the process ---------------------------------------------------------
    def _spawn(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=self.cwd, env=self.env, start_new_session=(os.name == "posix"), bufsize=0)
        except FileNotFoundError:
            raise ImplementationError("crashed", f"cannot start: command not found: {self.argv[0]}") from None
        except PermissionError:
            raise ImplementationError("crashed", f"cannot start: {self.argv[0]} is not executable") from None
        except OSError as exc:
            raise ImplementationError("crashed", f"cannot start {self.argv[0]}: {exc.strerror or exc}") from None
        children.track(self)
        # this process's own standard error: a restarted program's tail never repeats its predecessors'
        self._pipes = self._last_pipes = _Pipes(self._proc, self._stderr_lines)

    def end(self) -> None:
        """Kill the program and everything it started (children.end_all calls this on the way out)."""
        self._kill(last_words=False)

    def _kill(self, last_words: bool = True) -> None:
        proc, pipes = self._proc, self._pipes
        self._proc = self._pipes = None
        self._in_flight = _NOTHING
        if proc is None:
            return
        children.kill_tree(proc.pid, pipes.inodes if pipes is not None else ())
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        if pipes is not None:
            if last_words:   # what it wrote on stderr before it died: read to its end, briefly
                pipes.pump(time.monotonic() + 0.5, for_reply=False, stderr_only=True)
            pipes.close()
        children.untrack(self)

    def _died(self) -> ImplementationError:
        proc, pipes = self._proc, self._pipes
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
        if pipes is not None:
            pipes.pump(time.monotonic() + (1.0 if code is not None else 0.1), for_reply=False, stderr_only=True)
        tail = self.stderr_tail()
        status = _status(code) if code is not None else "closed its output"
        if pipes is not None and (pipes.partial or pipes.skipping):
            status += (f" in the middle of a reply line ({len(pipes.partial):,} bytes written: "
                       f"{bytes(pipes.partial[:80])!r}...)")
        return ImplementationError("crashed", f"the implementation {status}" + (f"; stderr: {tail}" if tail else ""))

    def stderr_tail(self, lines: int = 5) -> str:
        """The last lines the program wrote on standard error, on one line."""
        return " | ".join(line.strip() for line in list(self._stderr)[-lines:] if line.strip())

    def _request(self, request: dict, timeout: float, expect_reply: bool = True) -> Any:
        deadline = time.monotonic() + timeout
        self._send([request], deadline, timeout)
        return self._receive(timeout, deadline) if expect_reply else None

    def _send(self, requests: list, deadline: float | None = None, timeout: float | None = None) -> None:
        """Write the requests, reading the program's outputs meanwhile; a program that does not read
        them all before the deadline is a time-out."""
        pipes = self._pipes
        if self._proc is None or pipes is None:
            raise ImplementationError("crashed", "the implementation is not running")
        if not requests:  # the case went ahead of its turn: nothing to write, and the reply is _receive's
            return        # to wait for (pumping here would read on, idle, to the deadline)
        if timeout is None:
            timeout = self.timeout
        if deadline is None:
            deadline = time.monotonic() + timeout
        data = memoryview(b"".join((json.dumps(r, ensure_ascii=True) + "\n").encode("utf-8") for r in requests))
        try:
            left = pipes.pump(deadline, data, for_reply=False)
        except (BrokenPipeError, ConnectionResetError):
            raise self._died() from None
        except OSError:
            raise self._died() from None
        if left is not None and len(left):
            if pipes.exited_at is not None or pipes.out_closed:
                raise self._died()
            raise ImplementationError("timeout", f"the implementation did not read the request within "
                                                 f"{timeout:g} s ({len(left):,} of {len(data):,} bytes unread)")

    def _receive(self, timeout: float, deadline: float | None = None) -> Any:
        pipes = self._pipes
        if pipes is None:
            raise ImplementationError("crashed", "the implementation is not running")
        if deadline is None:
            deadline = time.monotonic() + timeout
        while True:
            if not pipes.lines:
                if not pipes.out_closed:
                    pipes.pump(deadline)
                if not pipes.lines:
                    if pipes.out_closed:
                        raise self._died()
                    raise ImplementationError("timeout", f"no reply within {timeout:g} s")
            raw = pipes.lines.popleft()
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
            if exc.kind == "timeout" and exc.message.startswith("no reply"):
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

    def queue_next(self, seq: Any, case: dict) -> None:
        self._next = (seq, case)

    def run(self, seq: Any, case: dict) -> dict:
        self._refuse_if_given_up(case)
        lines: list = []
        self.case_stderr = None
        if self._in_flight is not _NOTHING and self._in_flight != seq:
            self._broken = True   # a reply to a request sent ahead is still to come: start afresh
        try:
            if self._broken:
                try:
                    self._restart()
                except ImplementationError as exc:
                    raise ImplementationError("crashed", f"could not restart the implementation: "
                                                         f"{exc.message}") from None
            if self._pipes is not None:
                self._pipes.case_lines = lines
            deadline = time.monotonic() + self.timeout
            requests = [] if self._in_flight == seq else [{"cmd": "run", "seq": seq, "case": case}]
            following, self._next, self._in_flight = self._next, None, _NOTHING
            if following is not None and following[0] != seq:
                requests.append({"cmd": "run", "seq": following[0], "case": following[1]})
            try:
                self._send(requests, deadline, self.timeout)
                if following is not None and following[0] != seq:
                    self._in_flight = following[0]
                reply = check_run_reply(self._receive(self.timeout, deadline), seq, self._sent, self._in_flight)
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
        answered: list = []
        for seq, _ in items[len(replies):]:
            try:
                replies.append(check_run_reply(self._receive(self.timeout), seq, answered))
                answered.append(seq)
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
            deadline = time.monotonic() + 2.0
            self._send([{"cmd": "stop"}], deadline, 2.0)
            proc.stdin.close()
            while proc.poll() is None and time.monotonic() < deadline:   # reading what it still says
                self._pipes.pump(min(deadline, time.monotonic() + 0.1), for_reply=False)
        except (ImplementationError, OSError, ValueError):
            pass
        self._kill()

    @property
    def returncode(self) -> int | None:
        return None if self._proc is None else self._proc.poll()


def open_implementation(spec: str | None, timeout: float = 10.0, max_restarts: int | None = 3) -> Implementation:
    """An ``--impl`` spec to an implementation: see ``impls`` (kept here for older imports)."""
    from .impls import open_implementation as open_spec
    return open_spec(spec, timeout=timeout, max_restarts=max_restarts)
