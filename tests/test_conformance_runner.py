"""`coinche-spec conformance`: outcomes, the matrix, the closing line, exit codes and reports."""

import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from coinche_spec.outputs import MARK_COMMENT
from coinche_spec.cli import main
from test_conformance_fixtures import GOOD_DEALING, GOOD_SCORING
from test_protocol_client import write_fake
from support import case_records

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ["cafe-1000", "cafe-701", "cafe-sans-tout-atout", "contree-701", "federation"]


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    directory = tmp_path / "corpus"
    directory.mkdir()
    (directory / "scoring.yaml").write_text(GOOD_SCORING)
    (directory / "dealing.yaml").write_text(GOOD_DEALING)
    return directory


def run(capsys, *argv):
    code = main(["conformance", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def last_lines(out, n=2):
    return out.rstrip("\n").split("\n")[-n:]


def test_everything_passes_with_the_reference_engine(corpus, capsys):
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus))
    # 2 fixtures x 5 rule sets = 10 cases, all applicable
    assert last_lines(out) == ["0 errors, 0 timeouts, 0 n/a", "10 passed, 0 failed"]
    assert code == 0
    header = next(line for line in out.splitlines() if line.startswith("area"))
    assert header.split() == ["area"] + SHIPPED
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()
            if line.split() and line.split()[0] in ("dealing", "scoring", "all")}
    assert rows["scoring"] == ["1/1"] * 5 and rows["dealing"] == ["1/1"] * 5 and rows["all"] == ["2/2"] * 5


def test_a_wrong_expectation_fails_with_a_readable_diff(corpus, capsys):
    text = GOOD_SCORING.replace("score: {NS: 0, EW: 250}         # 160 + 90 = 250", "score: {NS: 0, EW: 252}")
    (corpus / "scoring.yaml").write_text(text)
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus))
    assert code == 1
    assert last_lines(out) == ["0 errors, 0 timeouts, 0 n/a", "9 passed, 1 failed"]
    assert "FAIL score-089-on-090 under federation" in out
    assert "  score.EW: expected 252, got 250" in out
    assert '"kind": "score"' in out  # the case is shown


def test_not_applicable_is_not_counted(corpus, capsys):
    text = GOOD_SCORING.replace('''      cafe-sans-tout-atout:
        made: false                     # 89 < 90
        score: {NS: 0, EW: 162}         # 162 + both sides' melds 0 = 162, no bid term''',
                                '''      cafe-sans-tout-atout: {not_applicable: "for the test"}''')
    assert text != GOOD_SCORING
    (corpus / "scoring.yaml").write_text(text)
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "--variant", "cafe-sans-tout-atout", "--variant", "federation")
    assert code == 0
    assert last_lines(out) == ["0 errors, 0 timeouts, 1 n/a", "3 passed, 0 failed"]
    scoring = next(line for line in out.splitlines() if line.startswith("scoring"))
    assert scoring.split() == ["scoring", "-", "1/1"]


def test_keyword_and_variant_selection(corpus, capsys):
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "-k", "cut-one", "--variant", "federation")
    assert code == 0 and last_lines(out, 1) == ["1 passed, 0 failed"]


def test_bad_fixture_files_exit_2_with_one_line_per_problem(corpus, capsys):
    (corpus / "scoring.yaml").write_text(GOOD_SCORING.replace("strain: h", "strain: hearts"))
    (corpus / "dealing.yaml").write_text(GOOD_DEALING.replace("dealer: S", "dealer: South"))
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus))
    assert code == 2 and out == ""
    problems = [line for line in err.splitlines() if line.startswith("corpus/")]
    assert len(problems) == 2
    assert problems[0].startswith("corpus/dealing.yaml:6:") and "fixtures[0].case.dealer: bad seat 'South'" in problems[0]
    assert problems[1].startswith("corpus/scoring.yaml:13:") and "case.contract: bad strain 'hearts'" in problems[1]


def test_usage_mistakes_exit_2(corpus, capsys):
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "--variant", "belote-classic")
    assert code == 2 and len(err.splitlines()) == 1
    assert err.startswith("coinche-spec: --variant belote-classic: unknown variant id 'belote-classic'")
    assert "; known ids: seed: " + ", ".join(SHIPPED) + ";" in err and "house: contree-701-rounded" in err
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "--timeout", "0")
    assert code == 2


def test_reports(corpus, capsys, tmp_path):
    jsonl, junit, md = tmp_path / "r.jsonl", tmp_path / "r.xml", tmp_path / "r.md"
    text = GOOD_SCORING.replace("score: {NS: 0, EW: 250}         # 160 + 90 = 250", "score: {NS: 0, EW: 252}")
    (corpus / "scoring.yaml").write_text(text)
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "--report-jsonl", str(jsonl), "--junit", str(junit),
                         "--markdown", str(md))
    assert code == 1
    rows = case_records(jsonl)
    assert len(rows) == 10  # one per fixture x rule set
    assert {(r["fixture"], r["variant"]) for r in rows} == {(f, v) for f in ("score-089-on-090", "dealing-cut-one-card")
                                                            for v in SHIPPED}
    [failed] = [r for r in rows if r["outcome"] == "fail"]
    assert failed["variant"] == "federation"
    assert failed["diff"] == [{"field": "score.EW", "expected": 252, "got": 250, "missing": False}]
    assert all(isinstance(r["seconds"], float) for r in rows)

    root = ET.parse(junit).getroot()
    assert root.get("tests") == "10" and root.get("failures") == "1" and root.get("errors") == "0"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert sorted(suites) == SHIPPED
    fed = {c.get("name"): c for c in suites["federation"].findall("testcase")}
    assert fed["score-089-on-090"].find("failure") is not None
    assert fed["dealing-cut-one-card"].find("failure") is None

    text = md.read_text()
    assert "| area | " + " | ".join(SHIPPED) + " |" in text
    assert "| scoring | 1/1 | 1/1 | 1/1 | 1/1 | 0/1 |" in text
    assert "`score.EW`: expected `252`, got `250`" in text
    body, mark = text.rstrip().rsplit("\n", 1)
    assert body.endswith("9 passed, 1 failed") and mark == MARK_COMMENT   # the last line says who wrote it


def test_another_implementation_skips_errors_and_timeouts(corpus, capsys, tmp_path):
    # The fake plays perft and score only, and federation, contree-701 and cafe-1000 only (it refuses
    # cafe-1000 as unsupported). Fixture ids steer it: "slow" hangs, "crash" dies, "erring" errs.
    perft = ["area: perft", "fixtures:"]
    for fid, count in (("perft-ok", 16), ("perft-wrong", 17), ("perft-slow", 16), ("perft-crash", 16),
                       ("perft-erring", 16)):
        perft += [f"  - id: {fid}",
                  "    title: two tricks of spades",
                  "    case: {kind: perft, strain: H, leader: W, depth: 8,",
                  "           hands: {N: [7S, 8S], E: [9S, TS], S: [JS, QS], W: [KS, AS]}}",
                  "    expect:",
                  f"      federation, contree-701, cafe-1000, cafe-701: {{count: {count}}}   # 2 * 2 * 2 * 2 = 16",
                  "      cafe-sans-tout-atout: {not_applicable: for the test}"]
    (corpus / "perft.yaml").write_text("\n".join(perft) + "\n")
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "--impl", write_fake(tmp_path), "--timeout", "1",
                         "--report-jsonl", str(tmp_path / "r.jsonl"))
    assert code == 1
    rows = {(r["fixture"], r["variant"]): r for r in case_records(tmp_path / "r.jsonl")}
    outcome = {k: r["outcome"] for k, r in rows.items()}
    assert outcome[("perft-ok", "federation")] == "pass"
    assert outcome[("perft-wrong", "federation")] == "fail"
    assert outcome[("perft-slow", "federation")] == "timeout"
    assert outcome[("perft-crash", "federation")] == "error"
    assert "exited with status 3" in rows[("perft-crash", "federation")]["message"]
    assert outcome[("perft-erring", "contree-701")] == "error"
    assert outcome[("perft-ok", "cafe-1000")] == "skip"          # configure said unsupported
    assert "deal.shuffle" in rows[("perft-ok", "cafe-1000")]["message"]
    assert outcome[("perft-ok", "cafe-701")] == "skip"           # not in the fake's list of variants
    assert outcome[("perft-ok", "cafe-sans-tout-atout")] == "n/a"
    assert outcome[("dealing-cut-one-card", "federation")] == "skip"  # kind not played by the fake
    # score: the fake always answers federation's numbers (EW 250), so it passes only there
    assert outcome[("score-089-on-090", "federation")] == "pass"
    assert outcome[("score-089-on-090", "contree-701")] == "fail"

    # By hand, rule set by rule set (7 fixtures each):
    #   cafe-1000: configure says unsupported: the 7 applicable cases are skipped        -> 7 skip
    #   cafe-701: not in the fake's list: 7 skipped                                       -> 7 skip
    #   cafe-sans-tout-atout: not in the list: dealing and score skipped, 5 perft n/a    -> 2 skip, 5 n/a
    #   contree-701: dealing skip; score fail (252 expected); ok pass; wrong fail; slow timeout;
    #                crash error; erring error                                            -> 1 pass, 2 fail
    #   federation: dealing skip; score pass; ok pass; wrong fail; slow timeout; crash error; erring error
    # pass 1 + 2 = 3; fail 2 + 1 = 3; timeout 2; error 2 + 2 = 4; skip 7 + 7 + 2 + 1 + 1 = 18; n/a 5
    assert last_lines(out) == ["4 errors, 2 timeouts, 5 n/a", "3 passed, 3 failed, 18 skipped"]
    assert "[conformance]" in err  # progress on stderr for a separate program


def test_the_real_command_exit_codes(corpus):
    cmd = [sys.executable, "-c", "import sys; from coinche_spec.cli import main; sys.exit(main(sys.argv[1:]))",
           "conformance", "--corpus-only", "--corpus", str(corpus)]
    env = dict(__import__("os").environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip("\n").split("\n")[-1] == "10 passed, 0 failed"
    (corpus / "dealing.yaml").write_text(GOOD_DEALING.replace("[8S, 9S, TS, QH", "[9S, 8S, TS, QH", 1))
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    # hands are compared in the order received: three rule sets share that wrong expectation
    assert done.returncode == 1
    assert done.stdout.rstrip("\n").split("\n")[-1] == "7 passed, 3 failed"


def test_verbose_lists_every_case_on_stderr(corpus, capsys):
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "-v", "--variant", "federation")
    assert code == 0
    lines = [line for line in err.splitlines() if line.startswith("ok")]
    assert len(lines) == 2 and any("score-089-on-090 [federation]" in line for line in lines)


def test_our_server_as_a_separate_program(corpus, capsys, monkeypatch):
    """The same corpus through `coinche-spec serve` over real pipes gives the same outcomes."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the server starts in the corpus's folder
    serve = f"{sys.executable} -c \"import sys; from coinche_spec.cli import main; sys.exit(main(['serve']))\""
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "--impl", serve)
    assert last_lines(out) == ["0 errors, 0 timeouts, 0 n/a", "10 passed, 0 failed"]
    assert code == 0
    assert "coinche-spec reference engine" in out.splitlines()[0]


# --- a run that plays nothing, repeated -k, rule sets the corpus does not know -------------

def test_a_keyword_matching_nothing_exits_2_with_one_line(corpus, capsys):
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "-k", "zzzzz")
    assert code == 2 and out == ""
    assert err.splitlines() == ["coinche-spec: no fixture matches -k zzzzz"]
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "-k", "zzzzz", "-k", "yyy")
    assert code == 2 and err.splitlines() == ["coinche-spec: no fixture matches -k zzzzz -k yyy"]


def test_an_empty_corpus_exits_2(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    code, out, err = run(capsys, "--corpus-only", "--corpus", "empty")
    assert code == 2 and out == ""
    # the folder itself is refused, with or without the shipped corpus (issue 19)
    assert err.splitlines() == ["empty: no fixture file (*.yaml) in this corpus folder",
                                "coinche-spec: 1 problem in the fixture files; nothing was run"]


def test_fixtures_all_n_a_under_the_chosen_rule_set_exit_2(corpus, capsys):
    text = GOOD_SCORING.replace('''      cafe-sans-tout-atout:
        made: false                     # 89 < 90
        score: {NS: 0, EW: 162}         # 162 + both sides' melds 0 = 162, no bid term''',
                                '''      cafe-sans-tout-atout: {not_applicable: "for the test"}''')
    (corpus / "scoring.yaml").write_text(text)
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "-k", "089", "--variant", "cafe-sans-tout-atout")
    assert code == 2 and out == ""
    assert err.splitlines() == ["coinche-spec: nothing to run: the 1 fixture matching -k 089 is not applicable "
                                "under cafe-sans-tout-atout"]


def test_k_may_be_repeated_and_takes_any_match(corpus, capsys):
    # "089" matches the scoring fixture's id, "cut-one" the dealing one: both, under one rule set
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "-k", "089", "-k", "cut-one", "--variant", "federation")
    assert code == 0 and last_lines(out) == ["0 errors, 0 timeouts, 0 n/a", "2 passed, 0 failed"]
    assert out.splitlines()[0].endswith(" 2 fixtures, 1 rule set, " + out.splitlines()[0].split(", ")[-1])
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "-k", "089", "-k", "zzzzz", "--variant", "federation")
    assert code == 0 and last_lines(out, 1) == ["1 passed, 0 failed"]
    assert " 1 fixture, 1 rule set, " in out.splitlines()[0]


def test_help_says_k_is_repeatable(capsys):
    with pytest.raises(SystemExit):
        main(["conformance", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "repeat it to take the fixtures matching any of them: -k belote -k score" in text


def test_a_house_rule_set_without_dependencies_in_the_corpus_plays_nothing(corpus, capsys, tmp_path):
    # GOOD_SCORING and GOOD_DEALING declare no depends_on: their expectations carry nowhere, and the
    # reference engine is not judged against itself, so nothing is played: exit 2, saying why.
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "--variant", "federation-1500-x3")
    assert code == 2
    assert err.splitlines()[-1] == ("coinche-spec: nothing was played: no case has a hand or carried expectation "
                                    "under federation-1500-x3, and engine verdicts not run: the implementation "
                                    "under test is the reference engine itself, so they would compare it with "
                                    "itself")
    mine = tmp_path / "mine.yaml"
    mine.write_text("extends: federation\nid: mine\nname: Mine\nstatus: house\n")
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "--variant", str(mine))
    assert code == 2 and "under mine, and engine verdicts not run" in err


# --- an implementation that cannot start fails fast ----------------------------------------

def fake_program(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(body)
    return f"{sys.executable} {path}"


@pytest.mark.parametrize("name,body,words", [
    ("dies.py", "import sys\nsys.stderr.write('loading...\\nImportError: no module named mine\\n')\nsys.exit(3)\n",
     ["exited with status 3", "stderr: loading... | ImportError: no module named mine"]),
    ("old.py", "import json, sys\nsys.stdin.readline()\nsys.stderr.write('I speak protocol 2\\n')\n"
               "print(json.dumps({'protocol': 2, 'kinds': []}), flush=True)\nsys.stdin.readline()\n",
     ["start: protocol 2, expected 1", "stderr: I speak protocol 2"]),
    ("chatty.py", "import sys\nsys.stdin.readline()\nprint('hello there', flush=True)\nsys.stdin.readline()\n",
     ["the reply is not JSON: 'hello there'"]),
])
def test_an_implementation_that_cannot_start_fails_fast(corpus, capsys, tmp_path, name, body, words):
    command = fake_program(tmp_path, name, body)
    started = time.monotonic()
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "--impl", command)
    assert time.monotonic() - started < 15  # one start, not one per case
    assert code == 2 and out == ""
    [line] = err.splitlines()
    assert line.startswith(f'coinche-spec: --impl "{command}" did not start: ')
    for w in words:
        assert w in line, line


def test_a_command_that_does_not_exist_fails_fast(corpus, capsys, tmp_path):
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "--impl", str(tmp_path / "no-such-engine") + " --stdio")
    assert code == 2 and out == ""
    assert err.splitlines() == [f'coinche-spec: --impl "{tmp_path / "no-such-engine"} --stdio" '
                                f"did not start: cannot start: command not found: {tmp_path / 'no-such-engine'}"]


PROXY = """
import json, sys
from coinche_spec.protocol.server import Session

# Our engine, but claiming the score kind only, and skipping any case whose seq says skipme.
session = Session()
for line in sys.stdin:
    request = json.loads(line)
    if request.get("cmd") == "stop":
        break
    if request.get("cmd") == "run" and "skipme" in str(request.get("seq")):
        reply = {"seq": request["seq"], "skipped": True, "reason": "not today"}
    else:
        reply = session.handle(request)[0]
        if request.get("cmd") == "start":
            reply["kinds"] = ["score"]
    print(json.dumps(reply), flush=True)
"""


def test_the_matrix_shows_skipped_cases_apart(corpus, capsys, tmp_path, monkeypatch):
    # A second scoring fixture, the same summary under another id that the proxy skips.
    body = GOOD_SCORING.split("fixtures:\n", 1)[1].replace("id: score-089-on-090", "id: score-skipme-089")
    (corpus / "scoring.yaml").write_text(GOOD_SCORING + body)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    md = tmp_path / "r.md"
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "--impl", fake_program(tmp_path, "proxy.py", PROXY),
                         "--markdown", str(md))
    # Per rule set: score-089-on-090 passes; score-skipme-089 skipped (a skipped reply); the dealing
    # fixture skipped (kind not claimed). 5 rule sets: 5 passed, 5 x 2 = 10 skipped; nothing failed.
    assert code == 0
    assert last_lines(out) == ["0 errors, 0 timeouts, 0 n/a", "5 passed, 0 failed, 10 skipped"]
    lines = out.splitlines()
    scoring = next(line for line in lines if line.startswith("scoring"))
    dealing = next(line for line in lines if line.startswith("dealing"))
    total = next(line for line in lines if line.startswith("all"))
    # scoring: 1 played and passed, 1 skipped; dealing: nothing played, 1 skipped; all: 1/1, 1 + 1 = 2 skipped
    assert scoring.split("  ")[0] == "scoring" and scoring.count("1/1 (+1 skip)") == 5
    assert dealing.count("0/0 (+1 skip)") == 5
    assert total.count("1/1 (+2 skip)") == 5
    assert any(line.startswith("Each cell: passed/applicable") for line in lines)
    text = md.read_text()
    assert "| scoring | " + " | ".join(["1/1 (+1 skip)"] * 5) + " |" in text
    assert "| dealing | " + " | ".join(["0/0 (+1 skip)"] * 5) + " |" in text
    assert "+N skip" in text


def test_a_run_where_everything_was_skipped_says_so(corpus, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    code, out, err = run(capsys, "--corpus-only", "--corpus", str(corpus), "-k", "cut-one", "--impl",
                         fake_program(tmp_path, "proxy.py", PROXY))
    # the proxy claims score only: the dealing fixture is skipped under all 5 rule sets
    assert last_lines(out, 1) == ["0 passed, 0 failed, 5 skipped"]
    assert code == 2
    assert err.splitlines()[-1] == ("coinche-spec: nothing was played: the implementation skipped all 5 cases "
                                    "(check the kinds and variants it lists in its start reply)")
