"""Reports people read: the results file's header and footer, failures that name their rules and show
the fixture's arithmetic, grouped by rule, and ``coinche-spec report`` over several runs (with every
way a results file can be broken refused on one line naming the file and the line)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from coinche_spec.cli import main
from coinche_spec.conformance.fixture_comments import expectation_comments, split_comment
from coinche_spec.conformance.fixtures import load_corpus
from coinche_spec.conformance.records import corpus_version, rule_set_hash
from coinche_spec.variants import load_variant

from support import case_records

# A corpus of one fixture, its federation answer wrong on purpose (the reference engine says 250):
# the failure must show the comment written beside it, and its depends_on.
SCORING = textwrap.dedent("""\
    area: scoring
    fixtures:
      - id: mine-089-on-090
        title: "Bid 90 hearts, take 89"
        exercises: [scoring.failed.defenders, scoring.rounding]
        depends_on: [card_values, scoring.failed, scoring.rounding, auction.bids, contract, belote]
        case:
          kind: score
          contract: {value: 90, strain: H, declarer: N, multiplier: 1}
          trick_points: {NS: 79, EW: 73}
          tricks_won: {NS: 4, EW: 4}
          last_trick: NS
          melds: {NS: 0, EW: 0}
          belote: null
        expect:
          federation:
            made: false                     # 79 + 10 = 89 < 90
            # the defenders take everything: 160 + 92 (a wrong sum, on purpose)
            score: {NS: 0, EW: 252}
          contree-701, cafe-701:
            made: false                     # 89 < 90
            score: {NS: 0, EW: 252}         # 162 + 90 = 252 "#1"
          cafe-1000: {not_applicable: "left out, for the test"}
    """)


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "scoring.yaml").write_text(SCORING, encoding="utf-8")
    return folder


def conformance(capsys, *argv):
    code = main(["conformance", "--corpus-only", "--corpus", "corpus", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_split_comment_leaves_quoted_hashes_alone():
    assert split_comment('  a: "x # y"   # the comment') == ('  a: "x # y"   ', "the comment")
    assert split_comment("a: 1#2") == ("a: 1#2", None)
    assert split_comment("# alone") == ("", "alone")


def test_the_comments_beside_an_expectation(corpus):
    [fixture] = load_corpus(extra=[corpus], shipped=False)
    fed = [(c.line, c.field, c.text) for c in expectation_comments(fixture, "federation")]
    assert fed == [(17, "made", "79 + 10 = 89 < 90"),
                   (18, "score", "the defenders take everything: 160 + 92 (a wrong sum, on purpose)")]
    # a key naming several rule sets gives each the same block; a '#' inside quotes is no comment
    for rule_set in ("contree-701", "cafe-701"):
        assert [str(c) for c in expectation_comments(fixture, rule_set)] == [
            "made: 89 < 90", 'score: 162 + 90 = 252 "#1"']
    assert expectation_comments(fixture, "cafe-1000") == []


def test_a_failure_names_its_rules_and_shows_its_arithmetic_grouped_by_what_differed(corpus, capsys):
    code, out, _ = conformance(capsys, "--variant", "federation", "--variant", "contree-701")
    assert code == 1
    # the defenders' score differed (EW defend N's 90 hearts); the one failing fixture names its rules, and
    # the one passing score case (under contree-701) names them too: none stands out
    block = out[out.index("== score.defenders: 1 case went wrong; no rule stands out"):]
    lines = block.splitlines()
    assert lines[1].startswith("FAIL mine-089-on-090 under federation: Bid 90 hearts, take 89 (corpus/scoring.yaml:3)")
    assert lines[2] == "  score.EW: expected 252, got 250"
    assert lines[3] == "  exercises: scoring.failed.defenders, scoring.rounding"
    assert lines[4] == "  rules: card_values, scoring.failed, scoring.rounding, auction.bids, contract, belote"
    assert lines[5:8] == ["  arithmetic (corpus/scoring.yaml:17-18):", "    made: 79 + 10 = 89 < 90",
                          "    score: the defenders take everything: 160 + 92 (a wrong sum, on purpose)"]
    assert lines[8].startswith("  case: {")


def test_the_results_file_has_a_header_cases_and_a_footer(corpus, capsys, tmp_path):
    out_file = tmp_path / "run.jsonl"
    code, _, _ = conformance(capsys, "--variant", "federation", "--variant", "contree-701", "--variant",
                             "cafe-1000", "--report-jsonl", str(out_file))
    assert code == 1
    rows = [json.loads(x) for x in out_file.read_text(encoding="utf-8").splitlines()]
    assert [r["record"] for r in rows] == ["header", "case", "case", "case", "footer"]
    head, foot = rows[0], rows[-1]
    assert head["implementation"]["spec"] is None
    assert head["implementation"]["name"] == "coinche-spec reference engine"
    assert [(r["id"], r["hash"]) for r in head["rule_sets"]] == [
        (v, rule_set_hash(load_variant(v))) for v in ("federation", "contree-701", "cafe-1000")]
    assert head["corpus"]["hash"] == corpus_version([corpus])["hash"] and head["corpus"]["files"] == 1
    assert head["coinche_spec"] and head["date"].endswith("Z") and head["format"] == 1
    cases = case_records(out_file)
    assert [c["outcome"] for c in cases] == ["fail", "pass", "n/a"]
    # the old fields are all there; the new ones say the rules, and what went wrong carries its arithmetic
    for name in ("fixture", "variant", "area", "kind", "outcome", "expected_by", "carried_from", "diff", "message",
                 "seconds", "file", "line", "stderr"):
        assert all(name in c for c in cases), name
    assert cases[0]["rules"] == ["card_values", "scoring.failed", "scoring.rounding", "auction.bids", "contract",
                                 "belote"]
    assert cases[0]["arithmetic"]["written_for"] == "federation"
    assert [c["line"] for c in cases[0]["arithmetic"]["comments"]] == [17, 18]
    assert "arithmetic" not in cases[1]
    assert foot["cases"] == 3
    assert foot["counts"] == {"pass": 1, "fail": 1, "error": 0, "timeout": 0, "skip": 0, "n/a": 1, "not run": 0,
                              "defect": 0}
    assert foot["by_expected_by"]["hand"]["fail"] == 1 and foot["by_expected_by"]["hand"]["pass"] == 1
    assert foot["by_variant"]["cafe-1000"]["n/a"] == 1 and foot["ok"] is False


def test_the_hashes_follow_the_rules_and_the_files(corpus, tmp_path):
    fed = load_variant("federation")
    same = tmp_path / "same.yaml"      # other words, other id, the same rules
    same.write_text("extends: federation\nid: same-rules\nname: Same\nstatus: house\n", encoding="utf-8")
    assert rule_set_hash(load_variant(str(same))) == rule_set_hash(fed)
    other = tmp_path / "other.yaml"
    other.write_text("extends: federation\nid: other-rules\nname: Other\nstatus: house\nrules:\n"
                     "  match: {target: 1500}\n", encoding="utf-8")
    assert rule_set_hash(load_variant(str(other))) != rule_set_hash(fed)
    before = corpus_version([corpus])
    (corpus / "scoring.yaml").write_text(SCORING.replace("# 89 < 90", "# 89 is less than 90"), encoding="utf-8")
    assert corpus_version([corpus])["hash"] != before["hash"]


def two_runs(capsys, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    conformance(capsys, "--variant", "federation", "--variant", "contree-701", "--report-jsonl", str(a))
    conformance(capsys, "--variant", "contree-701", "--variant", "cafe-701", "--report-jsonl", str(b))
    return a, b


def test_report_sets_runs_side_by_side(corpus, capsys, tmp_path):
    a, b = two_runs(capsys, tmp_path)
    page = tmp_path / "both.html"
    assert main(["report", str(a), str(b), "--html", str(page)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    table = out.splitlines()[2:5]
    assert table[0].split() == ["implementation", "federation", "contree-701", "cafe-701"]
    assert table[1].split() == ["1.", "coinche-spec", "reference", "engine", "0.1.0", "0/1", "(1", "fail)",
                                "1/1", "not", "run"]
    assert table[2].split() == ["2.", "coinche-spec", "reference", "engine", "0.1.0", "not", "run", "1/1", "1/1"]
    assert "     score.defenders: 1 case; " in out
    html = page.read_text(encoding="utf-8")
    assert 'id="run-1-case-mine-089-on-090@federation"' in html and 'id="run-2"' in html
    assert "the defenders take everything: 160 + 92" in html


def broken_run(tmp_path, name, edit):
    lines = (tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()
    (tmp_path / name).write_text(edit(lines), encoding="utf-8")
    return str(tmp_path / name)


BROKEN = [
    ("not-json", lambda ls: "\n".join([ls[0], ls[1][:40]] + ls[2:]) + "\n", r"not-json\.jsonl:2: not JSON \("),
    ("truncated", lambda ls: "\n".join(ls[:-1]) + "\n",
     r"truncated\.jsonl:3: no footer record after the last line: the run is truncated \(2 case records read\)"),
    ("cut-mid-line", lambda ls: "\n".join(ls)[:-30],
     r"cut-mid-line\.jsonl:4: not JSON"),
    ("empty", lambda ls: "", r"empty\.jsonl: the file is empty: not a conformance run"),
    ("no-header", lambda ls: "\n".join(ls[1:]) + "\n",
     r"no-header\.jsonl:1: the first record is a case record written by an older coinche-spec"),
    ("a-list", lambda ls: "\n".join([ls[0], "[1, 2]"] + ls[1:]) + "\n",
     r"a-list\.jsonl:2: expected a JSON object"),
    ("no-outcome", lambda ls: "\n".join([ls[0], ls[1].replace('"outcome"', '"result_kind"')] + ls[2:]) + "\n",
     r"no-outcome\.jsonl:2: case record: field 'outcome' is missing or not a string"),
    ("bad-outcome", lambda ls: "\n".join([ls[0], ls[1].replace('"outcome": "fail"', '"outcome": "meh"')] + ls[2:])
     + "\n", r"bad-outcome\.jsonl:2: case record: outcome 'meh' is not one of pass, fail"),
    ("case-lost", lambda ls: "\n".join([ls[0]] + ls[2:]) + "\n",
     r"case-lost\.jsonl:3: the footer counts 2 cases but the file holds 1"),
    ("two-runs", lambda ls: "\n".join(ls + ls) + "\n", r"two-runs\.jsonl:5: a header after the footer \(line 4\)"),
    ("second-header", lambda ls: "\n".join([ls[0]] + ls) + "\n",
     r"second-header\.jsonl:2: a second header \(the first is on line 1\)"),
    ("odd-record", lambda ls: "\n".join([ls[0], '{"record": "summary"}'] + ls[1:]) + "\n",
     r"odd-record\.jsonl:2: record 'summary' is not header, case or footer"),
]


@pytest.mark.parametrize("name, edit, pattern", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_results_file_is_refused_naming_the_file_and_line(corpus, capsys, tmp_path, name, edit, pattern):
    import re
    a, _ = two_runs(capsys, tmp_path)
    bad = broken_run(tmp_path, f"{name}.jsonl", edit)
    before = Path(bad).read_bytes()
    code = main(["report", str(a), bad, "--html", str(tmp_path / "out.html")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("coinche-spec: "), err
    assert re.search(pattern, err), err
    assert "Traceback" not in err and not (tmp_path / "out.html").exists()
    assert Path(bad).read_bytes() == before


def test_report_never_writes_over_an_input(corpus, capsys, tmp_path):
    a, b = two_runs(capsys, tmp_path)
    before = b.read_bytes()
    assert main(["report", str(a), str(b), "--html", str(b)]) == 2
    err = capsys.readouterr().err
    assert f"cannot write '{b}': it is one of this run's inputs ({b}); --html would replace it" in err
    assert b.read_bytes() == before
    assert main(["report", str(a), str(tmp_path / "missing.jsonl")]) == 2
    assert capsys.readouterr().err.strip() == f"coinche-spec: {tmp_path / 'missing.jsonl'}: no such file"
    assert main(["report", str(a), str(tmp_path / "." / "a.jsonl")]) == 2
    assert "is given twice" in capsys.readouterr().err


def test_conformance_html_is_checked_before_the_run(corpus, capsys):
    code, out, err = conformance(capsys, "--html", "corpus/scoring.yaml")
    assert code == 2 and out == ""
    assert "cannot write 'corpus/scoring.yaml': it is one of this run's inputs" in err and "--html" in err


def test_two_runs_of_one_implementation_say_what_got_fixed_and_what_newly_fails(corpus, capsys, tmp_path):
    """Run A: federation's expectation is wrong on purpose (252), contree-701's right. Between the runs
    the fixture is edited: federation's sum corrected (160 + 90 = 250), contree-701's broken (162 + 90
    written as 262, on purpose). Run B reads as one fixed case and one newly failing."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    conformance(capsys, "--variant", "federation", "--variant", "contree-701", "--report-jsonl", str(a))
    text = SCORING.replace("# the defenders take everything: 160 + 92 (a wrong sum, on purpose)\n"
                           "        score: {NS: 0, EW: 252}",
                           "# the defenders take everything: 160 + 90 = 250\n"
                           "        score: {NS: 0, EW: 250}")
    text = text.replace('score: {NS: 0, EW: 252}         # 162 + 90 = 252 "#1"',
                        'score: {NS: 0, EW: 262}         # 162 + 90 written as 262, wrong on purpose')
    assert text.count("EW: 250") == 1 and text.count("EW: 262") == 1
    (corpus / "scoring.yaml").write_text(text, encoding="utf-8")
    conformance(capsys, "--variant", "federation", "--variant", "contree-701", "--report-jsonl", str(b))
    page = tmp_path / "changes.html"
    assert main(["report", str(a), str(b), "--html", str(page)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    section = out.split("From run 1 to run 2 (coinche-spec reference engine 0.1.0): ", 1)[1]
    assert section.startswith("1 fixed, 1 newly failing, 0 still failing")
    fixed = section.split("  fixed:\n", 1)[1].split("\n  newly failing:", 1)[0]
    assert fixed.strip() == "mine-089-on-090 [federation]: pass, was fail (Bid 90 hearts, take 89)"
    newly = section.split("  newly failing:\n", 1)[1]
    assert newly.strip() == "mine-089-on-090 [contree-701]: fail, was pass (Bid 90 hearts, take 89)"
    html = page.read_text(encoding="utf-8")
    assert "From run 1 to run 2" in html and '<ul class="fixed">' in html and '<ul class="new-fail">' in html


def test_runs_of_different_implementations_are_not_read_as_changes(corpus, capsys, tmp_path):
    from coinche_spec.conformance import run_changes
    from coinche_spec.conformance.runfile import read_run
    a, b = two_runs(capsys, tmp_path)
    runs = [read_run(a), read_run(b)]
    assert len(run_changes.pairs(runs)) == 1          # both runs are of the reference engine
    runs[1].header["implementation"] = {"name": "someone-else", "spec": "python3 theirs.py"}
    assert run_changes.pairs(runs) == [] and run_changes.lines(runs) == []


def test_shipped_fixture_files_are_named_as_the_corpus_names_them(tmp_path, monkeypatch):
    """Run from a folder outside the data (as from a plain install), a report names
    `conformance/scoring.yaml`, never an absolute path into the package."""
    from coinche_spec.conformance.records import header
    from coinche_spec.resources import corpus_dir, variants_dir
    monkeypatch.chdir(tmp_path)
    files = {f.file for f in load_corpus()}
    assert files and all(x.startswith("conformance/") for x in files), sorted(files)[:3]
    head = header(None, None, [load_variant("federation")], [corpus_dir()])
    assert head["rule_sets"][0]["file"] == "variants/federation.yaml"
    assert head["corpus"]["folders"] == ["conformance"]
    assert str(variants_dir()) not in json.dumps(head)
