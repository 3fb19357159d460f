"""The client side of the protocol: our engine in-process, and another program over stdio.

The other program here is a deliberately small fake implementation: what it
does with a case is chosen by the case's ``seq`` (the runner sends
``fixture-id@variant``), so a test can make it answer, skip, err, print
rubbish, hang or die, and check that the client turns each into the right
outcome and carries on.
"""

import sys
import textwrap

import pytest

from coinche_spec.protocol.client import ImplementationError, InProcess, Subprocess

FAKE = textwrap.dedent(r'''
    import json, sys, time

    KINDS = ["perft", "score"]
    configured = None
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        cmd = req.get("cmd")
        if cmd == "start":
            reply = {"protocol": 1, "implementation": {"name": "fake", "version": "0", "language": "Python"},
                     "kinds": KINDS, "variants": ["federation", "contree-701", "cafe-1000"]}
        elif cmd == "configure":
            if req["variant"] == "cafe-1000":
                reply = {"ok": False, "unsupported": ["deal.shuffle"], "message": "no"}
            else:
                configured = req["variant"]
                reply = {"ok": True}
        elif cmd == "stop":
            sys.exit(0)
        elif cmd == "run":
            seq = req["seq"]
            name = str(seq)
            if "slow" in name:
                time.sleep(30)
            if "crash" in name:
                sys.stderr.write("boom: the fake fell over\n")
                sys.stderr.flush()
                sys.exit(3)
            if "garbage" in name:
                print("this is not json", flush=True)
                continue
            if "wrongseq" in name:
                reply = {"seq": "someone else", "result": {}}
            elif "erring" in name:
                reply = {"seq": seq, "errored": True, "message": "fake engine error"}
            elif "skipme" in name:
                reply = {"seq": seq, "skipped": True, "reason": "fake does not do that"}
            elif req["case"]["kind"] == "perft":
                reply = {"seq": seq, "result": {"count": 16, "configured": configured}}
            else:
                reply = {"seq": seq, "result": {"made": False, "card_points": {"NS": 89, "EW": 73},
                                                "score": {"NS": 0, "EW": 250}}}
        else:
            reply = {"errored": True, "message": "unknown"}
        print(json.dumps(reply), flush=True)
''')


def write_fake(directory):
    path = directory / "fake_impl.py"
    path.write_text(FAKE)
    return f"{sys.executable} {path}"


PERFT = {"kind": "perft", "strain": "H", "leader": "W",
         "hands": {"N": ["7S", "8S"], "E": ["9S", "TS"], "S": ["JS", "QS"], "W": ["KS", "AS"]}, "depth": 8}


@pytest.fixture
def fake(tmp_path):
    impl = Subprocess(write_fake(tmp_path), timeout=1.0, start_timeout=20)
    impl.start()
    yield impl
    impl.stop()


def test_subprocess_answers_pass_through(fake):
    assert fake.info["kinds"] == ["perft", "score"]
    assert fake.describe() == "fake 0 (Python)"
    assert fake.configure("federation") == {"ok": True}
    assert fake.run("p@federation", PERFT) == {"seq": "p@federation",
                                               "result": {"count": 16, "configured": "federation"}}
    assert fake.run("skipme@federation", PERFT)["skipped"] is True
    assert fake.run("erring@federation", PERFT)["message"] == "fake engine error"
    reply = fake.configure("cafe-1000")
    assert reply["ok"] is False and reply["unsupported"] == ["deal.shuffle"]


def test_rubbish_and_wrong_seq_are_malformed_and_the_next_case_still_runs(fake):
    fake.configure("federation")
    with pytest.raises(ImplementationError) as info:
        fake.run("garbage@federation", PERFT)
    assert info.value.kind == "malformed" and "not JSON" in info.value.message
    assert fake.run("ok@federation", PERFT)["result"]["count"] == 16
    with pytest.raises(ImplementationError) as info:
        fake.run("wrongseq@federation", PERFT)
    assert info.value.kind == "malformed" and "seq" in info.value.message
    # the restarted program was configured again with the same rule set
    assert fake.run("ok2@federation", PERFT)["result"]["configured"] == "federation"
    assert fake.restarts == 2


def test_a_hang_is_a_timeout_and_the_program_is_restarted(fake):
    fake.configure("contree-701")
    with pytest.raises(ImplementationError) as info:
        fake.run("slow@contree-701", PERFT)
    assert info.value.kind == "timeout"
    reply = fake.run("after@contree-701", PERFT)
    assert reply["result"] == {"count": 16, "configured": "contree-701"}
    assert fake.restarts == 1


def test_a_crash_reports_exit_status_and_stderr(fake):
    fake.configure("federation")
    with pytest.raises(ImplementationError) as info:
        fake.run("crash@federation", PERFT)
    assert info.value.kind == "crashed"
    assert "exited with status 3" in info.value.message and "boom" in info.value.message
    assert fake.run("again@federation", PERFT)["result"]["count"] == 16


def test_many_cases_at_once_come_back_in_order_and_a_crash_fails_only_the_rest(fake):
    fake.configure("federation")
    calls = []
    replies = fake.run_many([("a", PERFT), ("skipme-b", PERFT), ("c", PERFT)], lambda: calls.append("meanwhile"))
    assert calls == ["meanwhile"]
    assert [r["seq"] for r in replies] == ["a", "skipme-b", "c"] and replies[1]["skipped"] is True
    replies = fake.run_many([("d", PERFT), ("crash-e", PERFT), ("f", PERFT)])
    assert replies[0]["result"]["count"] == 16
    assert all(isinstance(r, ImplementationError) and r.kind == "crashed" for r in replies[1:])
    # the program is started and configured again before the next cases
    assert [r["result"]["configured"] for r in fake.run_many([("g", PERFT), ("h", PERFT)])] == ["federation"] * 2
    assert fake.restarts == 1


def test_many_cases_in_process_are_answered_one_by_one():
    impl = InProcess()
    impl.start()
    impl.configure("federation")
    replies = impl.run_many([(1, PERFT), (2, {"kind": "perft"})])   # the second lacks its fields
    assert replies[0]["result"]["count"] > 0 and replies[1]["seq"] == 2 and replies[1]["errored"] is True


def test_a_missing_program_cannot_start(tmp_path):
    impl = Subprocess([str(tmp_path / "no-such-program")], timeout=1)
    with pytest.raises(ImplementationError) as info:
        impl.start()
    assert info.value.kind == "crashed" and "cannot start" in info.value.message
    impl.stop()


def test_a_program_that_dies_at_once(tmp_path):
    impl = Subprocess([sys.executable, "-c", "import sys; sys.exit(5)"], timeout=1, start_timeout=20)
    with pytest.raises(ImplementationError) as info:
        impl.start()
    assert "exited with status 5" in info.value.message


def test_in_process_goes_through_the_json_protocol():
    impl = InProcess()
    hello = impl.start()
    assert hello["protocol"] == 1 and "perft" in hello["kinds"]
    assert impl.run(1, PERFT)["errored"] is True          # run before configure
    assert impl.configure("federation") == {"ok": True}
    # W leads one of two spades, N, E, S each choose one of two: 2 * 2 * 2 * 2 = 16; the last trick is forced.
    assert impl.run(2, PERFT) == {"seq": 2, "result": {"count": 16}}
    assert impl.run({"a": [1]}, PERFT)["seq"] == {"a": [1]}  # any JSON seq is echoed
    impl.stop()


def test_a_missing_command_is_named(tmp_path):
    impl = Subprocess([str(tmp_path / "no-such-program"), "--stdio"], timeout=1)
    with pytest.raises(ImplementationError) as info:
        impl.start()
    assert info.value.message == f"cannot start: command not found: {tmp_path / 'no-such-program'}"


def test_a_bad_start_reply_brings_the_end_of_stderr(tmp_path):
    # The program answers start with protocol 2 and says why on stderr, then waits: it is killed.
    script = ("import json, sys\nsys.stdin.readline()\nsys.stderr.write('one\\ntwo\\n')\nsys.stderr.flush()\n"
              "print(json.dumps({'protocol': 2, 'kinds': []}), flush=True)\nsys.stdin.readline()\n")
    impl = Subprocess([sys.executable, "-c", script], timeout=1, start_timeout=20)
    with pytest.raises(ImplementationError) as info:
        impl.start()
    assert info.value.message == "start: protocol 2, expected 1; stderr: one | two"
    assert impl.returncode is None  # nothing left running


def test_a_silent_start_is_a_timeout_on_start(tmp_path):
    impl = Subprocess([sys.executable, "-c", "import time; time.sleep(60)"], timeout=0.5, start_timeout=0.5)
    with pytest.raises(ImplementationError) as info:
        impl.start()
    assert info.value.kind == "timeout" and info.value.message == "no reply to start within 0.5 s"
