"""A fuzz run keeps what it finds however it ends, and counts divergent deals by cause.

- one auction rule played otherwise shows in a dozen kind/field divergences, and is one cause named
  by its rule (tests/impls/changed_rules.py ``CoincheEndsSooner``);
- ``--time-budget`` stops the deals and still shrinks and writes everything;
- SIGTERM or SIGINT in the middle of a run keeps every divergence written so far, writes the summary,
  and exits 143 or 130;
- ``--report-jsonl`` replaces only a file coinche-spec wrote.
"""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coinche_spec import outputs, yamlstrict
from coinche_spec.cli import main
from coinche_spec.conformance import fuzz_causes
from coinche_spec.conformance.compare import Diff
from coinche_spec.conformance.fuzz import Divergence

ROOT = Path(__file__).resolve().parent.parent
IMPLS = ROOT / "tests" / "impls"
OFF_BY_ONE = f"{sys.executable} {IMPLS / 'off_by_one.py'}"
SOONER = f"python:{IMPLS / 'changed_rules.py'}:CoincheEndsSooner"
SCORES_OFF = f"python:{IMPLS / 'changed_rules.py'}:ScoresOffByOne"


def records(path: Path) -> list:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_one_auction_rule_is_one_cause_named_by_its_rule(capsys):
    code = main(["fuzz", "--impl", SOONER, "--variant", "contree-701", "--deals", "20", "--generator", "deal",
                 "--json"])
    out, err = capsys.readouterr()
    info = json.loads(out)
    assert code == 1, err
    # the one rule spreads over many fields of many kinds...
    assert info["divergences"] >= 5 and len({k.split("/")[0] for k in info["keys"]}) >= 2
    # ...and is counted once, every divergent deal under it, named by the option that explains it
    assert info["causes"] == 1
    cause = info["by_cause"][0]
    assert cause["deals"] == info["divergent_deals"]
    assert cause["likely_rule"] == "auction.coinche.passes_after = 1"
    assert cause["where"].startswith("the auction")
    assert set(info["keys"]) <= set(cause["shows_as"])


def _divergence(kind, field, index, case, diffs=()):
    return Divergence(kind, field, index, 0, case, {}, {}, list(diffs))


def test_a_deal_is_filed_under_the_earliest_point_of_the_game():
    auction = {"kind": "auction", "dealer": "N", "calls": [{"seat": "E", "call": "pass"}] * 3}
    trick = {"kind": "legal_cards", "strain": "H", "seat": "N", "hand": ["7S"] * 5, "trick": [{}]}
    score = {"kind": "score"}
    deal = {"kind": "deal", "calls": [], "play": []}
    points = [fuzz_causes.part_ways(auction, ["accepted"], []), fuzz_causes.part_ways(trick, ["legal"], []),
              fuzz_causes.part_ways(deal, ["tricks"], [Diff("tricks[5].winner", "N", "E")]),
              fuzz_causes.part_ways(deal, ["score"], []), fuzz_causes.part_ways(score, ["score"], [])]
    assert points == sorted(points) and points[0] == (1, 3) and points[1] == (2, 13) and points[2] == (2, 20)
    # one point, two kinds: the plainer case names the cause (a summary before a whole deal)
    key, d = fuzz_causes.deal_cause([(points[3], _divergence("deal", "score", 4, deal)),
                                     (points[4], _divergence("score", "score", 4, score))])
    assert key == "score/score"
    assert fuzz_causes.where(trick, ["legal"], []) == "the play, card 14"


def test_causes_one_rule_explains_are_counted_as_one():
    a = fuzz_causes.Cause("auction/accepted", 5, _divergence("auction", "accepted", 2, {}), {"auction/accepted"},
                          "r = 1")
    b = fuzz_causes.Cause("deal/contract", 2, _divergence("deal", "contract", 1, {}), {"deal/score"}, "r = 1")
    c = fuzz_causes.Cause("score/score", 9, _divergence("score", "score", 0, {}), set(), None)
    merged = fuzz_causes.merge_by_rule([a, b, c])
    assert [(m.key, m.deals) for m in merged] == [("score/score", 9), ("deal/contract", 7)]
    assert merged[1].first.index == 1 and merged[1].fields == {"deal/contract", "deal/score", "auction/accepted"}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_time_budget_stops_the_deals_and_writes_everything(capsys, tmp_path, jobs):
    """Whatever the machine's speed: the first deal is always played, and every score this
    implementation gives is one point off, so that deal diverges."""
    jsonl, out = tmp_path / "run.jsonl", tmp_path / "found"
    code = main(["fuzz", "--impl", SCORES_OFF, "--variant", "contree-701", "--deals", "100000000",
                 "--time-budget", "2", "--jobs", jobs, "--report-jsonl", str(jsonl), "--out", str(out), "--json"])
    stdout, err = capsys.readouterr()
    info = json.loads(stdout)
    assert code == 1, err
    assert info["ended"] == "time budget" and 0 < info["deals"] < 100000000 and info["time_budget"] == 2
    assert info["found"] and all(d["shrunk"] and d["file"] for d in info["found"])
    written = records(jsonl)
    assert written[0]["written_by"] == outputs.MARK and written[0]["record"] == "header"
    assert [r["record"] for r in written].count("divergence") == info["divergences"]
    assert written[-1]["record"] == "summary" and written[-1]["deals"] == info["deals"]
    files = sorted(out.glob("*.yaml"))
    assert files == sorted(Path(d["file"]) for d in info["found"])   # the shrunk fixture replaced the first
    for f in files:
        data, _ = yamlstrict.load(f.read_text(encoding="utf-8"), str(f))
        assert "shrunk" in data["fixtures"][0]["notes"]


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_mid_run_keeps_the_divergences_and_writes_the_summary(tmp_path, sig, status):
    jsonl, out = tmp_path / "run.jsonl", tmp_path / "found"
    proc = subprocess.Popen([sys.executable, "-m", "coinche_spec", "fuzz", "--impl", OFF_BY_ONE, "--variant",
                             "federation", "--deals", "100000000", "--report-jsonl", str(jsonl), "--out", str(out),
                             "--json"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(1200):   # wait for the first divergence on file (a bound, not a speed check)
            if jsonl.exists() and '"record": "divergence"' in jsonl.read_text(encoding="utf-8"):
                break
            time.sleep(0.1)
        else:
            pytest.fail("no divergence written")
        proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == status, stderr
    info = json.loads(stdout)
    assert info["ended"] == sig.name and info["deals"] < 100000000 and info["found"]
    written = records(jsonl)
    assert written[-1]["record"] == "summary" and written[-1]["ended"] == sig.name
    found = [r for r in written if r["record"] == "divergence"]
    assert {r["key"] for r in found} == set(info["keys"])
    for r in found:   # each one's fixture on disk, as found (the signal stops the shrinking)
        assert r["file"] and Path(r["file"]).is_file()
        data, _ = yamlstrict.load(Path(r["file"]).read_text(encoding="utf-8"), r["file"])
        assert data["fixtures"][0]["case"] == r["case"] or "shrunk" in data["fixtures"][0]["notes"]


def test_the_results_file_replaces_only_a_file_coinche_spec_wrote(capsys, tmp_path):
    mine = tmp_path / "notes.jsonl"
    mine.write_text('{"my": "notes"}\n', encoding="utf-8")
    args = ["fuzz", "--impl", OFF_BY_ONE, "--variant", "federation", "--deals", "2"]
    assert main(args + ["--report-jsonl", str(mine)]) == 2
    err = capsys.readouterr().err
    assert "--report-jsonl" in err and "coinche-spec did not write it" in err and len(err.strip().splitlines()) == 1
    assert mine.read_text(encoding="utf-8") == '{"my": "notes"}\n'
    ours = tmp_path / "run.jsonl"
    for _ in range(2):   # the second run replaces the first's file: it carries the mark
        assert main(args + ["--report-jsonl", str(ours)]) in (0, 1)
        capsys.readouterr()
        assert [r["record"] for r in records(ours)][0] == "header"
        assert records(ours)[-1]["record"] == "summary"


@pytest.mark.parametrize("value", ["0", "-3", "soon", "inf", "nan"])
def test_a_bad_time_budget_is_one_line(capsys, value):
    assert main(["fuzz", "--impl", OFF_BY_ONE, "--variant", "federation", "--deals", "2",
                 "--time-budget", value]) == 2
    err = capsys.readouterr().err
    assert f"--time-budget {value}: give a number of seconds above 0" in err and len(err.strip().splitlines()) == 1
