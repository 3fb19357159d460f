"""The implementation processes this run started: tracked, and ended with everything they started.

An implementation under test may fork: a helper in the same process group
that outlives it, or one in a session of its own that keeps the runner's
pipe open. Either would keep running after the case timed out, and a
runner waiting for the end of that pipe would wait for ever. So a child is
started in a session of its own, and ending it ends, with SIGKILL:

- its process group (even when the child itself has already exited: the
  group lives on while any member does);
- every process below it in the process tree (found in ``/proc``);
- every process still holding one of the pipes the runner reads or writes
  (found by the pipes' inodes in ``/proc/*/fd``): a grandchild that left the
  session and the group, and whose parent is gone, is still found by the
  pipe it holds.

Every live child is registered here; :func:`end_all` ends them all, at
exit (``atexit``) and when the runner itself gets SIGTERM or SIGINT
(:func:`ending_children_on_signals`, installed by the command line).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
import time
import weakref
from typing import Iterable

_live: "weakref.WeakSet" = weakref.WeakSet()
_lock = threading.Lock()


def track(child) -> None:
    """Register an object with an ``end()`` method, ended at exit or on a signal unless ended before."""
    with _lock:
        _live.add(child)


def untrack(child) -> None:
    with _lock:
        _live.discard(child)


def live() -> list:
    with _lock:
        return list(_live)


def end_all() -> None:
    """End every tracked child and what it started; errors are ignored (this runs on the way out)."""
    for child in live():
        try:
            child.end()
        except Exception:  # noqa: BLE001 - on the way out, every child gets its chance
            pass


atexit.register(end_all)


def _proc_entries() -> Iterable[int]:
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    return [int(n) for n in names if n.isdigit()]


def _parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            text = fh.read()
    except OSError:
        return None
    # the command name, in parentheses, may itself hold spaces or parentheses: split after the last ')'
    fields = text[text.rfind(b")") + 2:].split()
    try:
        return int(fields[1])
    except (IndexError, ValueError):
        return None


def _holds(pid: int, links: set) -> bool:
    folder = f"/proc/{pid}/fd"
    try:
        fds = os.listdir(folder)
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"{folder}/{fd}") in links:
                return True
        except OSError:
            continue
    return False


def related(root: int, pipe_inodes: Iterable[int] = ()) -> set:
    """The processes below ``root`` in the process tree, and every process holding one of the pipes
    (``pipe:[inode]``); never this process itself. Empty where there is no ``/proc``."""
    me = os.getpid()
    pids = [p for p in _proc_entries() if p != me]
    children: dict = {}
    for pid in pids:
        parent = _parent_of(pid)
        if parent is not None:
            children.setdefault(parent, []).append(pid)
    found: set = set()
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found and child != me:
                found.add(child)
                stack.append(child)
    links = {f"pipe:[{inode}]" for inode in pipe_inodes}
    if links:
        found.update(pid for pid in pids if pid not in found and pid != root and _holds(pid, links))
    return found


def _kill(pid: int, group: bool) -> None:
    try:
        if group:
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def kill_tree(pid: int, pipe_inodes: Iterable[int] = ()) -> None:
    """SIGKILL to the process group ``pid`` leads, to every process below ``pid``, and to every process
    holding one of the pipes; twice, for a process forked while the first round was sent."""
    if os.name != "posix":  # pragma: no cover
        return
    inodes = list(pipe_inodes)
    killed = {pid}
    for _ in range(2):
        others = related(pid, inodes)
        killed |= others
        _kill(pid, group=True)
        _kill(pid, group=False)
        for other in others:
            _kill(other, group=False)
            try:
                if os.getpgid(other) == other:   # a leader of its own group: its group goes too
                    _kill(other, group=True)
            except OSError:
                pass
        if not others:
            break
    _wait_gone(killed)


def _running(pid: int) -> bool:
    """Whether ``pid`` still runs: a zombie, or no process, does not (Linux /proc; elsewhere, no)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except (OSError, IndexError):
        return False


def _wait_gone(pids: set, limit: float = 2.0) -> None:
    """A SIGKILL is delivered asynchronously: wait, briefly and boundedly, until the processes it was
    sent to have stopped, so that nothing killed is still seen running when kill_tree returns."""
    deadline = time.monotonic() + limit
    left = {p for p in pids if _running(p)}
    while left and time.monotonic() < deadline:
        time.sleep(0.005)
        left = {p for p in left if _running(p)}


def die_with_parent() -> None:
    """Linux: this process gets SIGTERM when its parent dies (a fuzz job whose runner was killed)."""
    if not sys.platform.startswith("linux"):  # pragma: no cover
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover
        pass


ENDING_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def end_now(signum: int) -> None:
    """End every tracked child (and what it started), then the runner: status 128 + the signal's number
    (SIGINT: KeyboardInterrupt, which the command line turns into 130)."""
    end_all()
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def handling_signals(handler, signals: tuple = ENDING_SIGNALS):
    """While inside, ``handler(signum, frame)`` handles ``signals``; the handlers before are put back
    on the way out. Only in the main thread, where Python handles signals (elsewhere: nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved: dict = {}
    for sig in signals:
        try:
            saved[sig] = signal.signal(sig, handler)
        except (ValueError, OSError):  # pragma: no cover
            pass
    try:
        yield
    finally:
        for sig, old in saved.items():
            try:
                signal.signal(sig, old)
            except (ValueError, OSError, TypeError):  # pragma: no cover
                pass


def ending_children_on_signals(signals: tuple = ENDING_SIGNALS):
    """While inside: SIGTERM, SIGINT or SIGHUP to the runner first ends every tracked child (and what it
    started), then ends the runner with status 128 + the signal's number (SIGINT: KeyboardInterrupt, as
    before, once the children are gone)."""
    return handling_signals(lambda signum, frame: end_now(signum), signals)


__all__: list = ["track", "untrack", "live", "end_all", "kill_tree", "related", "die_with_parent",
                 "ending_children_on_signals", "handling_signals", "end_now", "ENDING_SIGNALS"]
