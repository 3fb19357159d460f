"""Faulty implementations cost a few cases, never the whole run: crash, hang, rubbish, out of order, slow.

Each fake program below is faulty in one way on every case. The corpus is
ten perft fixtures under one rule set, so a harness that paid a time-out or
a restart per case would show ten time-outs; what the tests check is how
many cases were *sent* before the implementation was given up (the
outcomes, never the clock): ``--max-restarts K`` means K + 1 broken cases
of one kind, then every case of that kind left is ``not run``; a second kind
given up with nothing answered between gives the implementation up.
"""

import sys
import textwrap
from pathlib import Path

import pytest

from coinche_spec.cli import main
from coinche_spec.protocol.client import ImplementationError, Subprocess
from support import case_records

HEAD = textwrap.dedent(r'''
    import json, sys, time
    n = 0
    for line in sys.stdin:
        req = json.loads(line)
        if req["cmd"] == "stop":
            break
        if req["cmd"] == "start":
            print(json.dumps({"protocol": 1, "implementation": {"name": "faulty"}, "kinds": ["perft"],
                              "variants": None}), flush=True)
            continue
        if req["cmd"] == "configure":
            print(json.dumps({"ok": True}), flush=True)
            continue
        n += 1
        seq = req["seq"]
        good = {"seq": seq, "result": {"count": 16}}
''')

FAULTS = {
    "crash": 'sys.stderr.write(f"dying on {seq}\\n"); sys.stderr.flush(); sys.exit(3)',
    "hang": "time.sleep(60)",
    "garbage": 'print("<html>oops</html>", flush=True)',
    # answers every case twice: the second copy arrives while the runner waits for the next case
    "twice": 'print(json.dumps(good), flush=True); print(json.dumps(good), flush=True)',
    # keeps the reply of each case and sends it after the next one's: out of order from the second case on
    "late": ("if n > 1:\n"
             "    print(json.dumps(previous), flush=True)\n"
             "previous = good\n"
             "if n == 1:\n"
             "    print(json.dumps(good), flush=True)"),
    "slow": 'time.sleep(0.3); print(json.dumps(good), flush=True)',
}


def program(tmp_path, fault):
    path = tmp_path / f"faulty_{fault}.py"
    path.write_text(HEAD + textwrap.indent(FAULTS[fault], "    ") + "\n")
    return f"{sys.executable} {path}"


PERFT = ("  - id: perft-{n}\n"
         "    title: two tricks of spades\n"
         "    case: {{kind: perft, strain: H, leader: W, depth: 8,\n"
         "           hands: {{N: [7S, 8S], E: [9S, TS], S: [JS, QS], W: [KS, AS]}}}}\n"
         "    expect:\n"
         "      federation: {{count: 16}}   # 2 * 2 * 2 * 2 = 16\n"
         "      cafe-1000, cafe-701, cafe-sans-tout-atout, contree-701: {{not_applicable: federation only here}}\n")


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    directory = tmp_path / "corpus"
    directory.mkdir()
    (directory / "perft.yaml").write_text("area: perft\nfixtures:\n" + "".join(PERFT.format(n=n) for n in range(10)))
    return directory


def conformance(capsys, tmp_path, corpus, impl, *options):
    report = tmp_path / "run.jsonl"
    code = main(["conformance", "--corpus-only", "--corpus", str(corpus), "--variant", "federation", "--impl", impl,
                 "--report-jsonl", str(report), *options])
    out, err = capsys.readouterr()
    records = case_records(report)
    return code, out, [r["outcome"] for r in records], records


@pytest.mark.parametrize("fault,broken", [("crash", "error"), ("hang", "timeout"), ("garbage", "error")])
def test_a_dying_implementation_is_given_up_after_max_restarts(capsys, tmp_path, corpus, fault, broken):
    code, out, outcomes, records = conformance(capsys, tmp_path, corpus, program(tmp_path, fault),
                                               "--timeout", "0.5", "--max-restarts", "2")
    # 2 restarts in a row allowed: the 3rd broken case gives it up; 10 - 3 = 7 cases never sent
    assert outcomes == [broken] * 3 + ["not run"] * 7
    assert records[3]["message"] == ("not run: the implementation broke 3 perft cases in a row (--max-restarts 2): "
                                     "its other perft cases were not run")
    assert code == 1
    assert out.rstrip().splitlines()[-1] == "0 passed, 0 failed, 7 not run"
    # the console says why, not only the records
    assert ("perft given up: the implementation broke 3 perft cases in a row (--max-restarts 2): its other perft "
            "cases were not run (7 cases not run)") in out.splitlines()


def test_the_default_is_three_restarts_in_a_row(capsys, tmp_path, corpus):
    code, out, outcomes, _ = conformance(capsys, tmp_path, corpus, program(tmp_path, "crash"))
    assert outcomes == ["error"] * 4 + ["not run"] * 6


def test_a_crash_keeps_its_stderr_on_the_case_record(capsys, tmp_path, corpus):
    _, _, outcomes, records = conformance(capsys, tmp_path, corpus, program(tmp_path, "crash"), "--max-restarts", "0")
    assert outcomes == ["error"] + ["not run"] * 9
    assert records[0]["stderr"] == "dying on perft-0@federation"
    assert records[1]["stderr"] is None
    _, out, _, _ = conformance(capsys, tmp_path, corpus, program(tmp_path, "crash"), "--max-restarts", "0")
    assert "  stderr: dying on perft-0@federation" in out.splitlines()   # shown with the error, too


def test_a_reply_repeated_is_seen_at_once_as_out_of_order(capsys, tmp_path, corpus):
    # --timeout 10: had the harness waited for a time-out, these would be time-outs, not errors
    _, _, outcomes, records = conformance(capsys, tmp_path, corpus, program(tmp_path, "twice"), "--timeout", "10")
    # case 0 passes; case 1 reads case 0's second copy: out of order, restart; then the same again
    assert outcomes == ["pass", "error"] * 5
    assert "replies out of order" in records[1]["message"]
    assert "perft-0@federation" in records[1]["message"]


def test_a_reply_sent_one_case_late_is_seen_at_once(capsys, tmp_path, corpus):
    _, _, outcomes, records = conformance(capsys, tmp_path, corpus, program(tmp_path, "late"), "--timeout", "10")
    # case 0 is answered at once; case 1 gets case 0's reply (out of order, restart); the restarted
    # program answers its first case at once again: pass, error, pass, error, ...
    assert outcomes == ["pass", "error"] * 5
    assert "earlier case" in records[1]["message"]


def test_a_slow_implementation_within_the_time_limit_passes(capsys, tmp_path, corpus):
    code, _, outcomes, _ = conformance(capsys, tmp_path, corpus, program(tmp_path, "slow"), "--timeout", "5", "-k",
                                       "perft-1")
    assert outcomes == ["pass"] and code == 0


def test_max_fail_and_x_stop_the_run(capsys, tmp_path, corpus):
    # the garbage program breaks every case; without restarts counting, -x stops at the first problem
    code, out, outcomes, records = conformance(capsys, tmp_path, corpus, program(tmp_path, "garbage"), "-x")
    assert outcomes == ["error"] + ["not run"] * 9
    assert records[1]["message"] == "not run: the run stopped after 1 failing case (-x)"
    _, _, outcomes, records = conformance(capsys, tmp_path, corpus, program(tmp_path, "garbage"), "--max-fail", "2",
                                          "--max-restarts", "5")
    assert outcomes == ["error"] * 2 + ["not run"] * 8
    assert records[2]["message"] == "not run: the run stopped after 2 failing cases (--max-fail 2)"


def test_max_fail_counts_wrong_answers_with_the_reference_engine(capsys, tmp_path, corpus):
    text = (corpus / "perft.yaml").read_text().replace("{count: 16}", "{count: 17}", 3)
    (corpus / "perft.yaml").write_text(text)
    code = main(["conformance", "--corpus-only", "--corpus", str(corpus), "--variant", "federation", "--max-fail", "3",
                 "--report-jsonl", str(tmp_path / "r.jsonl")])
    out, _ = capsys.readouterr()
    outcomes = [r["outcome"] for r in case_records(tmp_path / "r.jsonl")]
    assert outcomes == ["fail"] * 3 + ["not run"] * 7
    assert code == 1 and out.rstrip().splitlines()[-1] == "0 passed, 3 failed, 7 not run"


@pytest.mark.parametrize("option,value", [("--max-restarts", "-1"), ("--max-fail", "0"), ("--max-fail", "two")])
def test_bad_limits_are_refused(capsys, corpus, option, value):
    with pytest.raises(SystemExit) as info:
        main(["conformance", "--corpus-only", "--corpus", str(corpus), option, value])
    assert info.value.code == 2
    assert option in capsys.readouterr().err


def test_stderr_is_kept_per_case_and_bounded(tmp_path):
    script = HEAD + textwrap.indent(textwrap.dedent('''
        for i in range(3 if n == 1 else 200):
            sys.stderr.write(f"case {n} line {i}\\n")
        sys.stderr.flush()
        time.sleep(0.2)
        print(json.dumps(good), flush=True)
    '''), "    ")
    path = tmp_path / "chatty.py"
    path.write_text(script)
    impl = Subprocess([sys.executable, str(path)], timeout=10, start_timeout=20)
    impl.start()
    impl.configure("federation")
    impl.run(1, {"kind": "perft"})
    assert impl.case_stderr == "case 1 line 0\ncase 1 line 1\ncase 1 line 2"
    impl.run(2, {"kind": "perft"})
    lines = impl.case_stderr.splitlines()
    assert lines[0] == "case 2 line 0" and len(lines) == 51 and lines[-1] == "... (more lines left out)"
    impl.stop()


def test_after_a_halt_nothing_is_sent_or_started(tmp_path):
    impl = Subprocess(program(tmp_path, "slow"), timeout=10, start_timeout=20)
    impl.start()
    impl.halt("enough")
    assert impl.returncode is None  # stopped, nothing running
    for call in (lambda: impl.configure("federation"), lambda: impl.run(1, {"kind": "perft"})):
        with pytest.raises(ImplementationError) as info:
            call()
        assert info.value.kind == "not run" and info.value.message == "not run: enough"


def test_cases_not_run_are_skipped_in_junit(capsys, tmp_path, corpus):
    import xml.etree.ElementTree as ET
    junit = tmp_path / "run.xml"
    conformance(capsys, tmp_path, corpus, program(tmp_path, "crash"), "--max-restarts", "0", "--junit", str(junit))
    root = ET.parse(junit).getroot()
    # 1 error, then 9 cases never sent: reported, as skipped, so the 10 cases are all there
    assert (root.get("tests"), root.get("errors"), root.get("skipped")) == ("10", "1", "9")
    skipped = [c.find("skipped").get("message") for c in root.iter("testcase") if c.find("skipped") is not None]
    assert skipped == ["not run: the implementation broke 1 perft case in a row (--max-restarts 0): "
                       "its other perft cases were not run"] * 9


MELDS = ("  - id: melds-{n}\n"
         "    title: a tierce to the nine\n"
         "    case: {{kind: melds, strain: H, declared: {{N: [[7S, 8S, 9S]], E: [], S: [], W: []}}}}\n"
         "    expect:\n"
         "      federation: {{winner: NS}}   # the only meld declared\n"
         "      cafe-1000, cafe-701, cafe-sans-tout-atout, contree-701: {{not_applicable: federation only here}}\n")

ONE_KIND_FAULTY = HEAD.replace('"kinds": ["perft"]', '"kinds": ["perft", "melds"]') + textwrap.indent(
    'if req["case"]["kind"] == "melds":\n'
    '    sys.stderr.write(f"no melds here ({seq})\\n"); sys.stderr.flush(); sys.exit(3)\n'
    'print(json.dumps(good), flush=True)\n', "    ")


def test_a_program_broken_on_one_kind_still_has_its_other_kinds_judged(capsys, tmp_path, corpus):
    """An engine that crashes on melds alone: melds is given up after K + 1 crashes, perft still plays."""
    (corpus / "melds.yaml").write_text("area: melds\nfixtures:\n" + "".join(MELDS.format(n=n) for n in range(6)))
    path = tmp_path / "melds_crash.py"
    path.write_text(ONE_KIND_FAULTY)
    code, out, outcomes, records = conformance(capsys, tmp_path, corpus, f"{sys.executable} {path}",
                                               "--max-restarts", "1")
    by_kind = {}
    for r in records:
        by_kind.setdefault(r["fixture"].split("-")[0], []).append(r["outcome"])
    assert by_kind["melds"] == ["error"] * 2 + ["not run"] * 4
    assert by_kind["perft"] == ["pass"] * 10
    assert code == 1
    lines = out.splitlines()
    assert ("melds given up: the implementation broke 2 melds cases in a row (--max-restarts 1): its other melds "
            "cases were not run (4 cases not run)") in lines
    assert lines[-1] == "10 passed, 0 failed, 4 not run"
    # each crash shows its own process's standard error, not its predecessors' piled up
    errors = [r for r in records if r["outcome"] == "error"]
    assert [r["message"].split("stderr: ", 1)[1] for r in errors] == [
        f"no melds here ({r['fixture']}@federation)" for r in errors]


def test_a_program_broken_on_every_kind_is_given_up_after_two_kinds(capsys, tmp_path, corpus):
    (corpus / "melds.yaml").write_text("area: melds\nfixtures:\n" + "".join(MELDS.format(n=n) for n in range(6)))
    path = tmp_path / "all_crash.py"
    path.write_text(HEAD.replace('"kinds": ["perft"]', '"kinds": ["perft", "melds"]')
                    + textwrap.indent(FAULTS["crash"], "    ") + "\n")
    code, out, outcomes, records = conformance(capsys, tmp_path, corpus, f"{sys.executable} {path}",
                                               "--max-restarts", "1")
    # 2 broken cases of the first kind played, 2 of the second: then nothing more is sent
    assert outcomes.count("error") == 4 and outcomes.count("not run") == 12
    assert sum(r["message"].startswith("not run: the implementation broke 4 cases in a row, 2 kinds given up")
               for r in records) >= 8
    assert code == 1
    assert any(line.startswith("stopped: the implementation broke 4 cases in a row, 2 kinds given up")
               for line in out.splitlines())


# --- issue 19: programs that fork, stop reading, flood, answer out of order, die mid-line -------------

HOSTILE = Path(__file__).resolve().parent / "impls" / "hostile.py"


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie waiting for its parent counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


def hostile(tmp_path, mode: str, timeout: float = 1.0) -> tuple:
    pidfile = tmp_path / f"{mode}.pids"
    return Subprocess([sys.executable, str(HOSTILE), mode, str(pidfile)], timeout=timeout, start_timeout=timeout), \
        pidfile


def pids(pidfile) -> list:
    return [int(line) for line in pidfile.read_text().split()] if pidfile.exists() else []


@pytest.mark.parametrize("mode,kind,message", [
    # the helper keeps stdout open in a session of its own, the program hangs: a time-out, then all killed
    ("session-helper", "timeout", "no reply within 1 s"),
    # the program exits and leaves a helper (in its process group) holding stdout: a crash, told at once
    ("group-helper", "crashed", "the implementation exited with status 0"),
    ("mid-line", "crashed", "the implementation exited with status 7 in the middle of a reply line"),
])
def test_a_program_and_everything_it_started_are_gone_after_a_broken_case(tmp_path, mode, kind, message):
    impl, pidfile = hostile(tmp_path, mode, timeout=1.0 if mode == "session-helper" else 10.0)
    impl.start()
    assert impl.configure("federation")["ok"]
    with pytest.raises(ImplementationError) as info:
        impl.run(1, {"kind": "perft", "strain": "H", "leader": "W", "depth": 1,
                     "hands": {"N": ["7S"], "E": ["8S"], "S": ["9S"], "W": ["TS"]}})
    assert info.value.kind == kind and info.value.message.startswith(message), info.value.message
    impl.stop()
    started = pids(pidfile)
    assert len(started) == (1 if mode == "mid-line" else 2)
    assert not [pid for pid in started if alive(pid)]


def test_a_program_that_stops_reading_costs_its_time_out(tmp_path):
    impl, pidfile = hostile(tmp_path, "deaf", timeout=20)
    impl.start()
    impl.start_timeout = 0.5   # configure's limit; starting Python on a loaded machine takes longer
    with pytest.raises(ImplementationError) as info:   # 1 MB: far more than a pipe holds
        impl.configure({"id": "big", "description": "x" * 1_000_000})
    assert info.value.kind == "timeout"
    assert info.value.message.startswith("the implementation did not read the request within 0.5 s")
    impl.stop()
    assert not [pid for pid in pids(pidfile) if alive(pid)]


def test_a_flood_on_stderr_is_kept_bounded(tmp_path):
    from coinche_spec.protocol.client import STDERR_LINE_BYTES
    impl, pidfile = hostile(tmp_path, "stderr-flood", timeout=30)
    impl.start()
    impl.configure("federation")
    reply = impl.run(1, {"kind": "perft", "strain": "H", "leader": "W", "depth": 1,
                         "hands": {"N": ["7S"], "E": ["8S"], "S": ["9S"], "W": ["TS"]}})
    assert reply["result"] == {"count": 1}
    # 20 MB on one line: the first STDERR_LINE_BYTES kept, the rest dropped as it came
    assert impl.case_stderr.endswith("... (line cut)") and len(impl.case_stderr) < 600
    assert max(len(line) for line in impl._stderr) <= STDERR_LINE_BYTES + len(" ... (line cut)")
    impl.stop()


def test_replies_out_of_order_are_caught_at_once(capsys, tmp_path, corpus):
    """The program holds each reply back until the next case comes: the runner sends the next case
    ahead, so the reply to it, arriving first, shows the disorder at once (--timeout 60: a time-out
    would not be an error)."""
    _, _, outcomes, records = conformance(capsys, tmp_path, corpus, f"{sys.executable} {HOSTILE} late",
                                          "--timeout", "60", "--max-restarts", "1")
    assert outcomes == ["error"] * 2 + ["not run"] * 8
    assert records[0]["message"] == ("run: replies out of order: got the reply for the next case "
                                     "(seq 'perft-1@federation') while waiting for seq 'perft-0@federation'")


@pytest.mark.parametrize("mode,message", [
    ("protocol-true", "start: protocol True, expected 1"),
    ("implementation-text", "start: \"implementation\" must be an object"),
])
def test_a_start_reply_of_the_wrong_type_is_refused(tmp_path, mode, message):
    impl, pidfile = hostile(tmp_path, mode, timeout=20)
    with pytest.raises(ImplementationError) as info:
        impl.start()
    assert info.value.message.startswith(message), info.value.message
    assert not [pid for pid in pids(pidfile) if alive(pid)]


def wait_for_pids(pidfile, count: int, proc) -> list:
    """The pids the hostile program wrote, once there are ``count`` of them (the runner still running)."""
    import time
    for _ in range(1200):   # at most two minutes, on a loaded machine
        found = pids(pidfile)
        if len(found) >= count or proc.poll() is not None:
            return found
        time.sleep(0.1)
    return pids(pidfile)


@pytest.mark.parametrize("command", [
    ["conformance", "--variant", "federation"],
    ["fuzz", "--variant", "federation", "--deals", "40", "--jobs", "2", "--generator", "deal"],
    ["fingerprint"],
])
def test_sigterm_to_the_runner_ends_every_process_it_started(tmp_path, command):
    """The implementation hangs on its first case after starting a helper in a session of its own;
    the runner gets SIGTERM mid-case: it ends with 143, and nothing it started is left."""
    import signal
    import subprocess
    pidfile = tmp_path / "pids"
    impl = f"{sys.executable} {HOSTILE} session-helper {pidfile}"
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-m", "coinche_spec", *command, "--impl", impl, "--timeout", "60"],
                            cwd=tmp_path, env={**__import__("os").environ, "PYTHONPATH": str(root)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        # each implementation process, and the helper it forked on its first case
        started = wait_for_pids(pidfile, 4 if "--jobs" in command else 2, proc)
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 128 + signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert started and not [pid for pid in pids(pidfile) if alive(pid)]


def test_a_reply_with_a_key_twice_is_refused_not_read_last_wins(tmp_path):
    """{"errored": true, "errored": false} would have been judged as a result."""
    impl, pidfile = hostile(tmp_path, "duplicate-keys", timeout=20)
    impl.start()
    impl.configure("federation")
    with pytest.raises(ImplementationError) as info:
        impl.run(1, {"kind": "perft", "strain": "H", "leader": "W", "depth": 1,
                     "hands": {"N": ["7S"], "E": ["8S"], "S": ["9S"], "W": ["TS"]}})
    assert info.value.kind == "malformed"
    assert info.value.message == 'the reply writes the key "errored" twice in one object'
    impl.stop()
    assert not [pid for pid in pids(pidfile) if alive(pid)]


class _Hostile:
    """An in-process implementation, misbehaving in ``run`` as ``how`` says."""

    def __init__(self, how: str):
        self.how = how

    def start(self):
        return {"protocol": 1, "implementation": {"name": "hostile"}, "kinds": ["perft"], "variants": None}

    def configure(self, variant):
        return {"ok": True}

    def run(self, case):
        if self.how == "deep":
            result: list = []
            for _ in range(100_000):   # json.dumps would raise RecursionError
                result = [result]
            return {"result": {"count": result}}
        print("debug: counting the perft")   # on the runner's standard output, where the report goes
        return {"result": {"count": 16}}


@pytest.mark.parametrize("how,message", [
    ("deep", "run: the reply nests lists or dicts too deeply to be written as JSON"),
    ("prints", "run() wrote on standard output, where the runner writes its report (an in-process implementation "
               "returns its replies; log on standard error): 'debug: counting the perft'"),
])
def test_an_in_process_object_misbehaving_is_an_error_of_its_case(capsys, how, message):
    from coinche_spec.protocol.inprocess import PythonObject
    impl = PythonObject(lambda: _Hostile(how), "hostile", timeout=10)
    impl.start()
    impl.configure("federation")
    with pytest.raises(ImplementationError) as info:
        impl.run(1, {"kind": "perft"})
    assert info.value.kind == "malformed" and info.value.message == message
    impl.stop()
    assert "debug" not in capsys.readouterr().out   # nothing of it in the report
