"""A hostile implementation for the runner's tests: the reference engine, broken in one way per mode.

    python3 tests/impls/hostile.py MODE [PIDFILE]

It answers as ``coinche-spec serve`` does, except for what MODE breaks
(issue 19). Every process it starts writes its pid on a line of PIDFILE, so
a test can check that none is left running.

- ``session-helper``: on the first case, starts a helper in a session of its
  own that keeps standard output open, then hangs;
- ``group-helper``: on the first case, starts a helper in its process group
  that keeps standard output open, then exits without a reply;
- ``deaf``: after ``start``, never reads its input again;
- ``late``: holds each case's reply back and sends it after the next case's;
- ``stderr-flood``: on each case, writes 20 MB on standard error without a
  newline, then answers;
- ``mid-line``: on the first case, writes half a reply and exits with status 7;
- ``duplicate-keys``: every reply to a case has ``"errored"`` twice;
- ``protocol-true``: its start reply says ``"protocol": true``;
- ``implementation-text``: its start reply's ``implementation`` is a string.
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from coinche_spec.protocol.server import Session  # noqa: E402

MODE = sys.argv[1]
PIDFILE = sys.argv[2] if len(sys.argv) > 2 else None


def note_pid() -> None:
    if PIDFILE:
        with open(PIDFILE, "a") as fh:
            fh.write(f"{os.getpid()}\n")


def helper(new_session: bool) -> None:
    """A forked process that keeps this one's standard output open for a minute."""
    if os.fork() == 0:
        if new_session:
            os.setsid()
        note_pid()
        time.sleep(60)
        os._exit(0)


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main() -> None:
    note_pid()
    session = Session()
    cases = 0
    held = None
    for line in sys.stdin:
        request = json.loads(line)
        cmd = request.get("cmd")
        reply, stop = session.handle_line(line)
        if stop:
            break
        if cmd == "start":
            answer = json.loads(reply)
            if MODE == "protocol-true":
                answer["protocol"] = True
            if MODE == "implementation-text":
                answer["implementation"] = "hostile"
            say(json.dumps(answer))
            if MODE == "deaf":
                time.sleep(60)
            continue
        if cmd != "run":
            say(reply)
            continue
        cases += 1
        if MODE in ("session-helper", "group-helper") and cases == 1:
            helper(MODE == "session-helper")
            if MODE == "session-helper":
                time.sleep(60)
            os._exit(0)
        if MODE == "mid-line" and cases == 1:
            sys.stdout.write(reply[:len(reply) // 2])
            sys.stdout.flush()
            os._exit(7)
        if MODE == "stderr-flood":
            chunk = "x" * (1 << 20)
            for _ in range(20):
                sys.stderr.write(chunk)
            sys.stderr.write("\n")
            sys.stderr.flush()
        if MODE == "duplicate-keys":
            reply = reply[:-1] + ',"errored":true,"errored":false}'
        if MODE == "late":
            if held is None:
                held = reply
                continue
            say(reply)
            say(held)
            held = None
            continue
        say(reply)


if __name__ == "__main__":
    main()
