"""coinche-spec fingerprint: which rules an implementation plays, found from its answers.

The implementation here is the reference engine playing contree-701 with two rules changed
(tests/impls/changed_rules.py): the fingerprint must name exactly those two, with evidence,
and list the rules no case kind can show.
"""

from pathlib import Path

import pytest

from coinche_spec.cli import main
from coinche_spec.conformance import fingerprint as fp
from coinche_spec.protocol.impls import open_implementation
from coinche_spec.variants import load_variant

IMPLS = Path(__file__).parent / "impls"
CHANGED = f"python:{IMPLS / 'changed_rules.py'}:Changed"
AUCTION_ONLY = f"python:{IMPLS / 'changed_rules.py'}:AuctionOnly"


def take(spec, base="contree-701", deals=0):
    impl = open_implementation(spec)
    impl.start()
    try:
        return fp.fingerprint(impl, load_variant(base), deals=deals)
    finally:
        impl.stop()


@pytest.fixture(scope="module")
def changed():
    return take(CHANGED)


def test_names_exactly_the_changed_rules(changed):
    found = {f.path: f.found for f in changed.changed()}
    assert found == {"auction.surcoinche.multiplier": 3, "play.cannot_overtrump": "may_discard"}
    assert changed.rules["auction"]["surcoinche"]["multiplier"] == 3
    assert changed.rules["play"]["cannot_overtrump"] == "may_discard"


def test_each_change_comes_with_a_case_the_implementation_answered_as_found(changed):
    for finding in changed.changed():
        shown = fp.best_evidence(finding)
        assert shown is not None, finding.path
        # the two options answer differently on that case, and the implementation as the found one
        assert shown.found != shown.other
        assert fp._agrees(shown.found, shown.evidence.implementation, set(shown.evidence.fields))
        assert not fp._agrees(shown.other, shown.evidence.implementation, set(shown.evidence.fields))


def test_unobservable_rules_are_listed(changed):
    unobservable = {f.path for f in changed.by_status("unobservable")}
    assert "table.first_dealer" in unobservable
    # a rule the engine plays alike under every option tried is not claimed either way
    statuses = {f.path: f.status for f in changed.findings}
    assert statuses["auction.coinche.multiplier"] in ("same", "untold")
    assert statuses["scoring.rounding"] == "same"


def test_text_says_plays_like_base_except(changed):
    text = fp.render_text(changed)
    assert "plays like contree-701 except:" in text
    assert "auction.surcoinche.multiplier: 3 (not 4)" in text
    assert 'play.cannot_overtrump: "may_discard" (not "must_undertrump")' in text
    assert "evidence: fixture " in text
    assert "no case kind can observe" in text


def test_answers_no_rule_explains_are_in_the_headline():
    """An engine wrong in a way no single option explains must not read as a clean match."""
    result = take(f"python:{IMPLS / 'changed_rules.py'}:ScoresOffByOne")
    assert result.changed() == [] and result.by_status("unclear")
    text = fp.render_text(result)
    headline = text.splitlines()[1]
    assert headline.startswith("does not play like contree-701, and no single rule explains it:")
    assert "no rule found to differ" not in text


def test_kinds_not_answered_leave_rules_not_observed():
    result = take(AUCTION_ONLY)
    assert {f.path: f.found for f in result.changed()} == {"auction.surcoinche.multiplier": 3}
    not_observed = {f.path for f in result.by_status("not-observed")}
    assert {"play.cannot_overtrump", "match.target", "scoring.rounding"} <= not_observed
    assert fp.observing_kinds("match.target") == ["match"]


def test_output_is_a_rule_set_extending_the_base_and_never_overwritten(tmp_path, capsys):
    out = tmp_path / "auction-engine.yaml"
    assert main(["fingerprint", "--impl", AUCTION_ONLY, "--deals", "0", "--output", str(out)]) == 0
    assert "auction.surcoinche.multiplier: 3 (not 4)" in capsys.readouterr().out
    variant = load_variant(str(out))          # valid: the same check as `variants check`
    assert variant.id == "auction-engine"
    assert variant.written["extends"] == "contree-701"
    assert variant.document["rules"]["auction"]["surcoinche"]["multiplier"] == 3
    reading = variant.written["interpretations"][0]
    assert reading["rules"] == ["auction.surcoinche.multiplier"] and "implementation answered" in reading["reading"]
    before = out.read_bytes()
    assert main(["fingerprint", "--impl", AUCTION_ONLY, "--output", str(out)]) == 2
    assert "never overwritten" in capsys.readouterr().err
    assert out.read_bytes() == before


def test_json_for_scripts(capsys):
    import json
    assert main(["fingerprint", "--impl", AUCTION_ONLY, "--deals", "0", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["differences"] == [{"rule": "auction.surcoinche.multiplier", "base": 4, "found": 3}]
    assert data["base"] == "contree-701" and data["kinds"] == ["auction"]


@pytest.mark.parametrize("argv, said", [
    (["--base", "no-such-rules"], "--base no-such-rules"),
    (["--output", "x.txt"], "ends in .yaml"),
    (["--impl", "python:nowhere_module_x:Engine"], "--impl"),
    (["--timeout", "0"], "--timeout"),
])
def test_bad_options_are_one_line_and_exit_2(argv, said, capsys):
    assert main(["fingerprint"] + argv) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1


def test_the_residue_of_rules_found_is_none_when_the_rules_explain_every_answer(changed):
    assert changed.answered > 0 and changed.residue == []
    assert f"residue: none: the rules found give all {changed.answered} answers" in fp.render_text(changed)


def test_answers_no_option_explains_are_the_residue_with_a_few_fixture_ids(capsys):
    """One point too many on every score: no option gives it, so every score case answered is residue."""
    import json
    spec = f"python:{IMPLS / 'changed_rules.py'}:ScoresOffByOne"
    result = take(spec)
    assert result.answered > 0 and len(result.residue) == result.answered
    shown = fp.examples(result.residue)
    assert 0 < len(shown) <= fp.RESIDUE_EXAMPLES and all(c.source.startswith("fixture ") for c in shown)
    text = fp.render_text(result)
    assert (f"residue: {result.answered} of the {result.answered} cases it answered still differ from the rules "
            f"found, which no single option value explains; for example: "
            + ", ".join(c.source for c in shown)) in text
    assert main(["fingerprint", "--impl", spec, "--deals", "0", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["residue"] == {"cases": result.answered, "of": result.answered,
                               "examples": [c.source for c in shown]}
