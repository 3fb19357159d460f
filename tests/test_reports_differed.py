"""Failures grouped by what differed, with the likely rules from the evidence and the fingerprint to run.

The implementation (tests/impls/capot_and_belote.py) has two planted bugs: a capot made scores the
takers 10 too many, belote held by the defenders is left out of their score. The report must show two
groups, ``score.takers`` and ``score.defenders``, each naming its own rule first, and end with the
exact ``coinche-spec fingerprint`` command.
"""

import json
import shlex
import sys
from pathlib import Path

import pytest

from coinche_spec.cli import main
from coinche_spec.conformance import what_differed

ROOT = Path(__file__).resolve().parent.parent
TWO_BUGS = f"{sys.executable} {ROOT / 'tests' / 'impls' / 'capot_and_belote.py'}"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("differed")
    jsonl, html = folder / "run.jsonl", folder / "run.html"
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["conformance", "--impl", TWO_BUGS, "--variant", "federation", "-k", "capot", "-k", "belote",
                     "-k", "score", "--report-jsonl", str(jsonl), "--html", str(html)])
    return code, out.getvalue(), jsonl, html


def test_two_bugs_give_two_groups_each_naming_its_rule_first(run):
    code, out, jsonl, _ = run
    assert code == 1
    cases = [r for r in map(json.loads, jsonl.read_text(encoding="utf-8").splitlines()) if r["record"] == "case"]
    found = what_differed.groups(cases)
    assert [g.name for g in found] and {g.name for g in found} == {"score.takers", "score.defenders"}
    by_name = {g.name: g for g in found}
    assert "capot" in by_name["score.takers"].likely[0].rule
    assert by_name["score.defenders"].likely[0].rule.startswith("belote")
    # the capot rule is named ahead of belote where the capot cases fail, and the evidence says why
    takers = by_name["score.takers"].likely[0]
    assert takers.failing > takers.passing and takers.failing >= len(by_name["score.takers"].cases) // 2


def test_the_closing_summary_names_the_likely_rules_and_the_fingerprint_command(run):
    _, out, _, _ = run
    assert "== score.takers: " in out and "== score.defenders: " in out
    summary = out[out.index("went wrong, by what differed"):]
    assert "  score.takers: " in summary and "likely rules: " in summary
    takers_line = next(line for line in summary.splitlines() if line.startswith("  score.takers: "))
    assert "capot" in takers_line.split("likely rules: ")[1].split(" (")[0]
    command = f"coinche-spec fingerprint --impl {shlex.quote(TWO_BUGS)} --base federation"
    assert f"to tell which option of each rule it plays: {command}" in summary
    assert shlex.split(command)[3] == TWO_BUGS        # the command runs as written


def test_the_html_and_the_report_group_the_same_way(run, capsys):
    _, _, jsonl, html = run
    page = html.read_text(encoding="utf-8")
    assert 'data-differed="score.takers"' in page and 'data-differed="score.defenders"' in page
    assert "by rule" not in page and "coinche-spec fingerprint --impl" in page
    assert main(["report", str(jsonl)]) == 0
    out = capsys.readouterr().out
    assert "     score.takers: " in out and "to tell which option of each rule it plays: coinche-spec fingerprint" in out


@pytest.mark.parametrize("kind, path, case, name", [
    ("score", "score.NS", {"contract": {"declarer": "S"}}, "score.takers"),
    ("score", "score.NS", {"contract": {"declarer": "E"}}, "score.defenders"),
    ("deal", "card_points.EW", {"calls": [{"seat": "W", "call": "80H"}, {"seat": "N", "call": "coinche"},
                                          {"seat": "E", "call": "pass"}]}, "card_points.takers"),
    ("deal", "tricks[3].winner", {}, "tricks.winner"),
    ("deal", "legal_next", {}, "legal_cards"),
    ("legal_cards", "legal", {}, "legal_cards"),
    ("deal", "contract", {}, "auction.contract"),
    ("auction", "to_act", {}, "auction.to_act"),
    ("melds", "points.NS", {}, "melds.points.NS"),
])
def test_a_field_is_named_in_the_game_s_words(kind, path, case, name):
    assert what_differed.field_name(kind, path, what_differed.takers(case)) == name


def test_a_case_without_an_answer_is_filed_under_its_outcome():
    assert what_differed.differed({"outcome": "timeout", "kind": "score", "diff": []}) == "no answer (timeout)"
    assert what_differed.fingerprint_command(None, "federation") is None   # the reference engine itself
