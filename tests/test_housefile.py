"""``coinche-spec new FILE --extends ID``: a house file from the table's answers."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from coinche_spec.cli import main
from coinche_spec.housefile import _get, questions
from coinche_spec.variants import load_variant
from coinche_spec.variants.loader import check_files

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*argv, stdin: str = ""):
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(argv))
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def _answers(parent_id: str, given: dict) -> str:
    """One line per question, in the order asked: ``given`` maps a rule path or an interpretation id
    to its lines (a list), every other question takes its default (an empty line)."""
    lines = []
    for q in questions(load_variant(parent_id)):
        key = q[1] if q[0] == "house" else q[1]["id"]
        if q[0] == "house" and q[3] and key == "auction.surcoinche.multiplier" and given.get(q[3]) == ["no"]:
            continue
        lines.extend(given.get(key, [""]))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("parent", ["federation", "cafe-sans-tout-atout", "federation-1500-x3"])
def test_defaults_write_a_valid_file_with_the_parents_rules(tmp_path, parent):
    target = tmp_path / "our-club.yaml"
    code, out, err = run_cli("new", str(target), "--extends", parent, "--defaults")
    assert code == 0 and err == "" and out.startswith(f"wrote {target}")
    assert check_files([target]) == []
    assert run_cli("variants", "check", str(target))[0] == 0
    v = load_variant(target)
    assert v.id == "our-club" and v.document["status"] == "house"
    assert v.document["rules"] == load_variant(parent).document["rules"]
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# House rules written by `coinche-spec new")
    # every question asked is recorded as an interpretation of the new file
    rules = load_variant(parent).document["rules"]
    for q in questions(load_variant(parent)):
        if q[0] == "house":
            if q[3] and not _get(rules, q[3]):
                continue
            key = "house-" + q[1].replace(".", "-").replace("_", "-")
        else:
            key = q[1]["id"]
        assert f"  - id: {key}\n" in text, key
    assert any(q[0] == "house" for q in questions(load_variant(parent)))


def test_answers_on_stdin_are_recorded_and_checked(tmp_path):
    target = tmp_path / "club.yaml"
    answers = _answers("federation", {
        "match.target": ["lots", "1500"],                   # not a number: asked again
        "dealer-after-throw-in": ["n", "same_dealer"],       # the parent's reading changed
    })
    code, out, err = run_cli("new", str(target), "--extends", "federation", stdin=answers)
    assert code == 0 and err == "", err
    assert "expected a whole number" in out
    assert run_cli("variants", "check", str(target))[0] == 0
    r = load_variant(target).rules
    assert r.match.target == 1500 and r.auction.surcoinche.multiplier == 4
    assert r.table.dealer_after_throw_in == "same_dealer"
    assert r.auction.coinche.multiplier == 2 and r.melds.enabled          # defaults kept
    text = target.read_text(encoding="utf-8")
    assert 'reading: "1500 instead of federation\'s 2000."' in text
    assert "target: 1500   # federation: 2000" in text
    assert "table.dealer_after_throw_in is same_dealer (not next_seat)" in text


def test_an_answer_the_other_rules_refuse_is_asked_again(tmp_path):
    # federation's surcoinche multiplier is one of its readings' rules; contree-701 asks it plainly
    target = tmp_path / "club.yaml"
    answers = _answers("contree-701", {
        "auction.surcoinche.multiplier": ["2", "3"],         # 2 is no more than the coinche: asked again
    })
    code, out, err = run_cli("new", str(target), "--extends", "contree-701", stdin=answers)
    assert code == 0 and err == "", err
    assert "not with the other rules" in out
    assert run_cli("variants", "check", str(target))[0] == 0
    assert load_variant(target).rules.auction.surcoinche.multiplier == 3


def test_no_surcoinche_skips_its_multiplier(tmp_path):
    target = tmp_path / "club.yaml"
    answers = _answers("contree-701", {"auction.surcoinche.allowed": ["no"], "melds.enabled": ["yes"]})
    code, out, err = run_cli("new", str(target), "--extends", "contree-701", stdin=answers)
    assert code == 0, err
    assert "What does a surcoinche multiply" not in out
    r = load_variant(target).rules
    assert not r.auction.surcoinche.allowed and r.melds.enabled


def test_an_existing_file_is_never_overwritten(tmp_path):
    target = tmp_path / "club.yaml"
    target.write_text("mine\n", encoding="utf-8")
    code, out, err = run_cli("new", str(target), "--extends", "federation", "--defaults")
    assert code == 2 and err.count("\n") == 1 and "already exists" in err
    assert target.read_text(encoding="utf-8") == "mine\n"


def test_answers_that_end_early_write_nothing(tmp_path):
    target = tmp_path / "club.yaml"
    code, out, err = run_cli("new", str(target), "--extends", "federation", stdin="1500\n")
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
    # federation reads "only a trump suit may be bid"; this table also plays tout atout
    answers = _answers("federation", {"suit-strains-only": ["n", "", "yes"]})
    code, out, err = run_cli("new", str(target), "--extends", "federation", stdin=answers)
    assert code == 0, err
    assert run_cli("variants", "check", str(target))[0] == 0
    r = load_variant(target).rules
    assert r.auction.strains.tout_atout and not r.auction.strains.sans_atout
    assert list(r.auction.strain_order) == ["C", "D", "H", "S", "TA"]
    text = target.read_text(encoding="utf-8")
    assert "auction.strains.tout_atout is yes (not no); auction.strain_order is C, D, H, S, TA" in text


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
    for stdin in (None, "\n" * 200):
        target = tmp_path / ("gen-defaults.yaml" if stdin is None else "gen-asked.yaml")
        argv = ["new", str(target), "--extends", str(parent)] + (["--defaults"] if stdin is None else [])
        code, out, err = run_cli(*argv, stdin=stdin or "")
        assert code == 0 and "Traceback" not in err, err
        assert check_files([target]) == []
        text = target.read_text(encoding="utf-8")
        assert "  - id: club-floor\n" in text
        block = text.split("  - id: club-floor\n", 1)[1].split("  - id:", 1)[0]
        assert "alternative:" not in block
        assert load_variant(target).document["rules"]["contract"]["minimum_total"] == 82
