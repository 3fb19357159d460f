"""``coinche-spec new FILE --extends ID``: a house file from the table's answers.

The table is scripted: each answer is given for the question on screen (found by its words),
so a test says "to 1500, no melds, belote counted without a word" as a secretary would, and
the questions earlier answers make moot are simply never met.
"""

from __future__ import annotations

import io
import re
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from coinche_spec.cli import main
from coinche_spec.variants import load_variant
from coinche_spec.variants.loader import check_files, paged_ids

ROOT = Path(__file__).resolve().parent.parent


class Table:
    """Standard input that answers the question last printed: ``answers`` maps words of a
    question to the lines to give it, in turn; any other prompt gets Enter (the default)."""

    def __init__(self, out: io.StringIO, answers: dict):
        self.out = out
        self.answers = {k: list(v) for k, v in answers.items()}
        self.prompts = 0

    def question(self) -> str:
        lines = [x for x in self.out.getvalue().splitlines() if re.match(r"\(\d+\) |Who decides", x)]
        return lines[-1] if lines else ""

    def readline(self) -> str:
        self.prompts += 1
        assert self.prompts < 400, "new asks the same question for ever"
        q = self.question()
        for words, lines in self.answers.items():
            if words in q and lines:
                return lines.pop(0) + "\n"
        return "\n"


def run_cli(*argv, answers: dict | None = None, stdin: str | None = None):
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin) if stdin is not None else Table(out, answers or {})
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(argv))
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def asked(out: str) -> list[str]:
    return [x.split(") ", 1)[1] for x in out.splitlines() if re.match(r"\(\d+\) ", x)]


@pytest.mark.parametrize("parent", ["federation", "cafe-sans-tout-atout", "federation-1500-x3"])
def test_defaults_write_the_parents_rules_and_no_interpretation(tmp_path, parent):
    target = tmp_path / "our-club.yaml"
    code, out, err = run_cli("new", str(target), "--extends", parent, "--defaults")
    assert code == 0 and err == "" and out.startswith(f"wrote {target}")
    assert check_files([target]) == []
    v = load_variant(target)
    assert v.id == "our-club" and v.document["status"] == "house"
    assert v.document["rules"] == load_variant(parent).document["rules"]
    written = v.written
    # a kept default is neither a rule nor an interpretation
    assert written["interpretations"] == [] and written["rules"] == {} and "sources" not in written
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# House rules written by `coinche-spec new")


def test_defaults_sheet_has_no_house_rule_entry(tmp_path):
    target = tmp_path / "our-club.yaml"
    assert run_cli("new", str(target), "--extends", "federation", "--defaults")[0] == 0
    for fmt in ("md", "html"):
        page = tmp_path / f"page.{fmt}"
        code, _, err = run_cli("docs", str(target), "--format", fmt, "-o", str(page))
        assert code == 0, err
        text = page.read_text(encoding="utf-8")
        assert "House rule" not in text and "the words this house rule replaces" not in text


def test_a_club_to_1500_no_melds_belote_counted_without_a_word(tmp_path):
    target = tmp_path / "club.yaml"
    code, out, err = run_cli("new", str(target), "--extends", "federation", answers={
        "Who decides": ["Le Club des As"],
        "win the match": ["lots", "1500"],                  # not a number: asked again
        "melds": ["no"],
        "belote be announced": ["2"],                       # it counts without a word
    })
    assert code == 0 and err == "", err
    assert "expected a whole number" in out
    questions = asked(out)
    assert "Must the belote be announced, or does it count without a word?" in questions
    # no meld question once melds are not played (federation has two open meld questions)
    after = questions[[i for i, q in enumerate(questions) if q.startswith("Do you play melds")][0] + 1:]
    assert not [q for q in after if "run" in q.lower() or "declaration" in q.lower()], questions
    shown = load_variant("federation").document["interpretations"]
    assert {"shared-card-declaration-order", "long-run-spare-cards"} <= {i["id"] for i in shown}
    assert run_cli("variants", "check", str(target))[0] == 0
    v = load_variant(target)
    r = v.rules
    assert r.match.target == 1500 and not r.melds.enabled and r.belote.claim == "automatic"
    assert r.auction.coinche.multiplier == 2 and r.belote.enabled        # defaults kept
    written = v.written
    assert written["rules"] == {"match": {"target": 1500}, "melds": {"enabled": False},
                                "belote": {"claim": "automatic"}}
    assert written["interpretations"] == []
    decisions = written["sources"]
    assert [d["rules"] for d in decisions] == [["match.target"], ["melds.enabled"], ["belote.claim"]]
    assert all(d["decided_by"] == "Le Club des As" for d in decisions)
    assert decisions[2]["quote"] == "Must the belote be announced, or does it count without a word? " \
                                    "It counts without a word."
    text = target.read_text(encoding="utf-8")
    assert "target: 1500   # federation: 2000" in text


def test_no_belote_asks_neither_its_value_nor_its_announcement(tmp_path):
    target = tmp_path / "club.yaml"
    code, out, err = run_cli("new", str(target), "--extends", "federation", answers={"play the belote": ["no"]})
    assert code == 0, err
    questions = asked(out)
    assert not [q for q in questions if "belote" in q.lower() and "play the belote" not in q], questions
    assert not load_variant(target).rules.belote.enabled


@pytest.mark.parametrize("parent", ["federation", "contree-701", "colver", "peer-oliboy50", "peer-bga",
                                    "ffb-contree", "belote-cli"])
def test_questions_carry_no_schema_codes_paths_or_commits(tmp_path, parent):
    code, out, err = run_cli("new", str(tmp_path / "club.yaml"), "--extends", parent, answers={})
    assert code == 0, err
    shown = out.rsplit("\nwrote ", 1)[0]
    assert not re.search(r"\b[A-Z]\d{1,2}\.", shown)                       # schema codes: G1. A11.
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", shown)                      # value and rule names
    assert not re.search(r"\b[a-z]+\.[a-z_]+\.[a-z_]+", shown)              # rule paths
    assert not re.search(r"\b(?=\w*\d)(?=\w*[a-f])[0-9a-f]{7,40}\b", shown)  # commits
    assert not re.search(r"\.(py|ts|rs|go|java|js)\b", shown)               # program files


def test_every_paged_rule_set_can_be_extended_by_keeping_every_answer(tmp_path):
    for i, parent in enumerate(paged_ids()):
        target = tmp_path / f"club-{i}.yaml"
        code, out, err = run_cli("new", str(target), "--extends", parent, answers={})
        assert code == 0, (parent, err)
        assert load_variant(target).written["rules"] == {}, parent


def test_an_answer_the_other_rules_refuse_is_asked_again(tmp_path):
    target = tmp_path / "club.yaml"
    code, out, err = run_cli("new", str(target), "--extends", "contree-701", answers={
        "surcoinche multiplies": ["2", "3"],                  # 2 is no more than the coinche: asked again
    })
    assert code == 0 and err == "", err
    assert "not with the other rules" in out
    assert run_cli("variants", "check", str(target))[0] == 0
    assert load_variant(target).rules.auction.surcoinche.multiplier == 3


def test_no_surcoinche_skips_its_multiplier(tmp_path):
    target = tmp_path / "club.yaml"
    code, out, err = run_cli("new", str(target), "--extends", "contree-701",
                             answers={"answer a coinche with a surcoinche": ["no"], "melds": ["yes"]})
    assert code == 0, err
    assert "A surcoinche multiplies" not in out
    r = load_variant(target).rules
    assert not r.auction.surcoinche.allowed and r.melds.enabled


def test_a_reading_the_table_changes_is_a_decision(tmp_path):
    target = tmp_path / "club.yaml"
    code, out, err = run_cli("new", str(target), "--extends", "federation", "--club", "Tuesday table",
                             answers={"thrown the cards in": ["n", "2"]})
    assert code == 0, err
    v = load_variant(target)
    assert v.rules.table.dealer_after_throw_in == "same_dealer"
    assert v.written["interpretations"] == []
    (decision,) = v.written["sources"]
    assert decision["decided_by"] == "Tuesday table" and decision["rules"] == ["table.dealer_after_throw_in"]
    assert decision["quote"].startswith("Who deals after four passes have thrown the cards in?")
    # the parent's reading no longer speaks for this rule set
    assert "dealer-after-throw-in" not in {i["id"] for i in v.document["interpretations"]}


def test_an_existing_file_is_never_overwritten(tmp_path):
    target = tmp_path / "club.yaml"
    target.write_text("mine\n", encoding="utf-8")
    code, out, err = run_cli("new", str(target), "--extends", "federation", "--defaults")
    assert code == 2 and err.count("\n") == 1 and "already exists" in err
    assert target.read_text(encoding="utf-8") == "mine\n"


def test_answers_that_end_early_write_nothing(tmp_path):
    target = tmp_path / "club.yaml"
    code, out, err = run_cli("new", str(target), "--extends", "federation", stdin="Club\n1500\n")
    assert code == 2 and "stdin: the answers ended" in err and err.count("\n") == 1
    assert not target.exists()


def test_bad_parent_and_bad_id_are_one_line(tmp_path):
    code, _, err = run_cli("new", str(tmp_path / "a.yaml"), "--extends", "no-such-rules", "--defaults")
    assert code == 2 and err.count("\n") == 1 and "no-such-rules" in err
    code, _, err = run_cli("new", str(tmp_path / "federation.yaml"), "--extends", "contree-701", "--defaults")
    assert code == 2 and err.startswith("coinche-spec: --id:")
    assert not (tmp_path / "federation.yaml").exists()


def test_a_parent_given_as_a_file_is_extended_by_relative_path(tmp_path):
    parent = ROOT / "variants" / "house" / "contree-701-rounded.yaml"
    target = tmp_path / "ours.yaml"
    code, _, err = run_cli("new", str(target), "--extends", str(parent), "--defaults")
    assert code == 0, err
    assert check_files([target]) == []
    line = next(x for x in target.read_text(encoding="utf-8").splitlines() if x.startswith("extends:"))
    assert "contree-701-rounded.yaml" in line and not line.split(":", 1)[1].strip().strip('"').startswith("/")


def test_a_strain_the_table_allows_joins_the_strain_order(tmp_path):
    target = tmp_path / "club.yaml"
    code, out, err = run_cli("new", str(target), "--extends", "federation", answers={"tout atout": ["yes"]})
    assert code == 0, err
    assert run_cli("variants", "check", str(target))[0] == 0
    r = load_variant(target).rules
    assert r.auction.strains.tout_atout and not r.auction.strains.sans_atout
    assert list(r.auction.strain_order) == ["C", "D", "H", "S", "TA"]
    (decision,) = load_variant(target).written["sources"]
    assert decision["rules"] == ["auction.strains.tout_atout", "auction.strain_order"]
    # tout atout can now be bid: how it is valued and played is a question again
    assert any("tout atout" in q and "valued" in q for q in asked(out))


def test_file_must_be_a_yaml_file(tmp_path):
    code, _, err = run_cli("new", str(tmp_path / "club.txt"), "--extends", "federation", "--defaults")
    assert code == 2 and "FILE:" in err and ".yaml" in err


def test_extends_a_house_file_whose_interpretation_leaves_out_its_alternative(tmp_path):
    """The format lets an interpretation leave `alternative` out: a child of such a file is written
    (once a traceback that lost every answer given)."""
    parent = tmp_path / "our-club.yaml"
    parent.write_text(
        "extends: contree-701\nid: our-club\nname: Our club\nstatus: house\n"
        "interpretations:\n"
        "  - id: club-floor\n    question: How much must the takers make?\n"
        "    reading: At least 82, whatever the bid.\n    rules: [contract.minimum_total]\n"
        "rules:\n  contract:\n    minimum_total: 82\n", encoding="utf-8")
    assert run_cli("variants", "check", str(parent))[0] == 0
    for defaults in (True, False):
        target = tmp_path / ("gen-defaults.yaml" if defaults else "gen-asked.yaml")
        argv = ["new", str(target), "--extends", str(parent)] + (["--defaults"] if defaults else [])
        code, out, err = run_cli(*argv, answers={})
        assert code == 0 and "Traceback" not in err, err
        assert check_files([target]) == []
        if not defaults:
            assert "How much must the takers make?" in out and "another reading" not in out.split(
                "How much must the takers make?")[1].split("\n(")[0]
        assert load_variant(target).document["rules"]["contract"]["minimum_total"] == 82
