"""`coinche-spec variants diff`: the rules two variants disagree on, with their basis."""

import json

from coinche_spec.cli import main
from coinche_spec.variants import load_variant
from coinche_spec.variants.diff import differences, flatten


def test_house_variant_differs_from_its_parent_only_where_it_says():
    # variants/house/federation-1500-x3.yaml changes exactly two rules: the target and the surcoinche.
    parent, house = load_variant("federation"), load_variant("federation-1500-x3")
    diffs = {d.path: (d.left, d.right) for d in differences(parent.document, house.document)}
    assert diffs == {"auction.surcoinche.multiplier": (4, 3), "match.target": (2000, 1500)}


def test_house_rule_is_explained_by_the_house_reading_first():
    parent, house = load_variant("federation"), load_variant("federation-1500-x3")
    (target,) = [d for d in differences(parent.document, house.document) if d.path == "match.target"]
    assert target.right_basis[0].startswith("reading [house-target-1500]")
    assert all("house" not in b for b in target.left_basis)


def test_a_variant_does_not_differ_from_itself():
    v = load_variant("contree-701")
    assert differences(v.document, v.document) == []


def test_awards_compare_as_whole_values():
    flat = flatten(load_variant("federation").document["rules"])
    assert flat["scoring.failed.defenders"] == {"terms": ["base", "all_melds", "bid"], "base": 160,
                                                 "multiplied": "none"}


def test_cli_json(capsys):
    assert main(["variants", "diff", "contree-701", "contree-701-rounded", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # the house file rounds awards to the nearest 10; nothing else changes
    assert [d["rule"] for d in out["differences"]] == ["scoring.rounding"]
    assert out["differences"][0]["left"] == "none"
    assert out["differences"][0]["right"] == "nearest_10_half_up"


def test_cli_unknown_variant_is_one_line(capsys):
    assert main(["variants", "diff", "federation", "no-such-rules"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown variant id 'no-such-rules'" in err


def test_cli_text_shows_both_values_and_the_house_reading(capsys):
    assert main(["variants", "diff", "federation", "federation-1500-x3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 rules differ between federation and federation-1500-x3:")
    # federation's target rests on its seed; the house's on its own reading, not on the parent's sentence
    target = out[out.index("match.target"):]
    assert "  federation: 2000" in target and '"Agree a 2000-point target."' in target
    house = target[target.index("  federation-1500-x3: 1500"):]
    assert "reading [house-target-1500]" in house and "Agree a 2000-point target" not in house


def test_cli_markdown_and_brief(capsys):
    assert main(["variants", "diff", "contree-701", "contree-701-rounded", "--format", "markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["| rule | contree-701 | contree-701-rounded |", "|---|---|---|"]
    assert len(lines) == 3 and lines[2].startswith('| `scoring.rounding` | "none"<br>reading [no-rounding] ')
    # the house cell carries the house's own reading, not the parent's
    assert '| "nearest_10_half_up"<br>reading [house-round-awards] ' in lines[2]
    assert main(["variants", "diff", "cafe-701", "cafe-701", "--brief"]) == 0
    assert capsys.readouterr().out == "cafe-701 and cafe-701 have the same rules.\n"


def test_awards_are_shown_as_a_reader_reads_them(capsys):
    assert main(["variants", "diff", "contree-701", "cafe-701", "--brief"]) == 0
    out = capsys.readouterr().out
    # contree-701 multiplies only the bid of a failed contract's award, cafe-701 the whole award
    assert "  contree-701: base + bid (base 162, multiplied: bid)" in out
    assert "  cafe-701: base + bid (base 162, multiplied: all)" in out


def test_cli_leaves_out_what_cannot_matter_and_says_so(capsys):
    """contree-701 plays no melds: cafe-sans-tout-atout's meld rules differ, but only because melds.enabled
    does (listed); the same test the rules pages and `compare` use (variants.relevance.moot_difference)."""
    assert main(["variants", "diff", "contree-701", "cafe-sans-tout-atout", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rules = [d["rule"] for d in out["differences"]]
    left_out = {d["rule"]: d["why"] for d in out["left_out"]}
    assert "melds.enabled" in rules and "melds.long_runs" not in rules
    assert left_out["melds.long_runs"] == "unused under contree-701 (melds are not played)"
    assert left_out["auction.strain_order"].startswith("unused under contree-701")
    assert not set(rules) & set(left_out)
    # --all lists them with the others
    assert main(["variants", "diff", "contree-701", "cafe-sans-tout-atout", "--format", "json", "--all"]) == 0
    every = json.loads(capsys.readouterr().out)
    assert {d["rule"] for d in every["differences"]} == set(rules) | set(left_out) and every["left_out"] == []
    # the text says what it left out
    assert main(["variants", "diff", "contree-701", "cafe-sans-tout-atout", "--brief"]) == 0
    text = capsys.readouterr().out
    assert "Left out, as they cannot matter under the other rules (" in text
    assert "melds.long_runs (unused under contree-701 (melds are not played))" in text


def test_an_uncoinched_awards_multiplier_cannot_matter():
    from coinche_spec.variants.relevance import moot_difference
    a = load_variant("federation").document["rules"]
    b = json.loads(json.dumps(a))
    b["scoring"]["made"]["takers"]["multiplied"] = "none" if a["scoring"]["made"]["takers"]["multiplied"] != "none" \
        else "all"
    assert moot_difference("scoring.made.takers", [a, b], ["a", "b"]) == \
        "differs only in what multiplies an uncoinched award (always x1)"
    b["scoring"]["made"]["takers"]["terms"] = ["card_points"]
    assert moot_difference("scoring.made.takers", [a, b], ["a", "b"]) is None


def test_a_belote_lowering_the_target_cannot_matter_without_a_comparison_with_the_defenders(capsys):
    """belote.counts_as changes an outcome only where the takers' total meets the defenders' (versus_defenders,
    a litige): under cafe-701 (versus_defenders ignore) it is left out, under contree-701 (not_level) kept."""
    from coinche_spec.variants.relevance import cannot_matter
    rules = json.loads(json.dumps(load_variant("cafe-701").document["rules"]))
    rules["belote"]["counts_as"] = "lowered_target"
    assert cannot_matter(rules, "belote.counts_as").startswith("the takers' total is never compared")
    rules["scoring"]["litige"] = "takers_points_held"          # a level total is judged apart
    assert cannot_matter(rules, "belote.counts_as") is None
    rules["scoring"]["litige"] = "none"
    rules["contract"]["versus_defenders"] = "strictly_more"
    assert cannot_matter(rules, "belote.counts_as") is None
    rules["belote"]["counts_towards_contract"] = False
    assert cannot_matter(rules, "belote.counts_as") == "the belote does not count towards the contract"
    assert main(["variants", "diff", "contree-701", "test-belote-lowers-target", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [d["rule"] for d in out["differences"]] == ["belote.counts_as"] and out["left_out"] == []


EXPLICIT_DEFAULTS = """\
extends: federation
id: fed-explicit
name: "federation, defaults written"
status: house
rules:
  auction:
    capot: {overcall_by_capot: never}
  play: {trick_winner: led_suit}
  belote: {counts_as: points}
  match: {last_deal_not_failed: false, last_deal_exact: false}
  card_values:
    order:
      trump: ["J","9","A","T","K","Q","8","7"]
      plain: ["A","T","K","Q","J","9","8","7"]
"""


def test_writing_an_optional_rule_at_its_left_out_value_is_no_difference(tmp_path, capsys):
    f = tmp_path / "fed-explicit.yaml"
    f.write_text(EXPLICIT_DEFAULTS, encoding="utf-8")
    assert main(["variants", "diff", "federation", str(f)]) == 0
    assert capsys.readouterr().out.startswith("federation and fed-explicit have the same rules")


def test_a_left_out_rule_shows_its_default_never_null(tmp_path, capsys):
    f = tmp_path / "fed-capot.yaml"
    f.write_text("extends: federation\nid: fed-capot\nname: capot over capot\nstatus: house\n"
                 "rules:\n  auction:\n    capot: {overcall_by_capot: higher_strain}\n", encoding="utf-8")
    assert main(["variants", "diff", "federation", str(f)]) == 0
    out = capsys.readouterr().out
    assert '  federation: "never" (left out)' in out and "null" not in out
    assert main(["variants", "diff", "federation", str(f), "--format", "markdown"]) == 0
    assert '"never" (left out)' in capsys.readouterr().out
    assert main(["variants", "diff", "federation", str(f), "--format", "json"]) == 0
    (d,) = json.loads(capsys.readouterr().out)["differences"]
    assert (d["left"], d["left_given"], d["right"], d["right_given"]) == ("never", False, "higher_strain", True)
