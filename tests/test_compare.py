"""coinche-spec compare: rules in words, differing corpus outcomes, the simulation and its intervals."""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout

import pytest

from coinche_spec.compare import deals, outcomes, render, simulate, stats
from coinche_spec.docsgen.differences import worded_differences
from coinche_spec.variants import load_variant


def run_cli(*argv):
    from coinche_spec.cli import main
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def contree_cafe():
    return [load_variant("contree-701"), load_variant("cafe-701")]


# --- intervals ---------------------------------------------------------------------------------

def test_wilson_interval_matches_the_formula_worked_by_hand():
    # 0 of 10: upper bound z^2/(n+z^2) = 3.8415/13.8415 = 0.2775
    e = stats.rate(0, 10)
    assert e.value == 0 and e.low == 0 and e.high == pytest.approx(0.2775, abs=1e-4)
    # 5 of 10: centre 0.5, half-width 1.96*sqrt(0.025 + 0.00960)/1.38415 = 0.2634
    e = stats.rate(5, 10)
    assert (e.low, e.high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    assert stats.rate(0, 0).value is None


def test_mean_interval_is_the_normal_approximation():
    # 1, 2, 3, 4: mean 2.5, s^2 = 5/3, half-width 1.96*sqrt(5/12) = 1.2652
    e = stats.mean([1, 2, 3, 4])
    assert e.value == 2.5 and e.high - e.value == pytest.approx(1.2652, abs=1e-4)
    assert e.method == "normal" and stats.largest([3, 9, 1]).value == 9


# --- (a) the rules in words ------------------------------------------------------------------

def test_rule_differences_in_words_leave_out_what_cannot_matter(contree_cafe):
    changes, left_out = worded_differences(contree_cafe)
    by_title = {c.title: c for c in changes}
    assert by_title["Value of a capot bid"].values == ("260", "500")
    assert by_title["All eight tricks"].values == ("last trick worth 100 (252)", "no change (162)")
    # made and failed differ only in what multiplies an uncoinched award: x1 there, it cannot matter
    assert "Contract made" not in by_title and "Contract failed" not in by_title
    assert any(x.startswith("Contract made:") for x in left_out)
    assert all(c.sentences[0] and c.sentences[1] for c in changes)


def test_a_rule_unused_under_one_rule_set_is_left_out():
    changes, left_out = worded_differences([load_variant("federation"), load_variant("cafe-sans-tout-atout")])
    assert "Order of strains" not in {c.title for c in changes}
    assert any(x.startswith("Order of strains: unused under federation") for x in left_out)


# --- (b) corpus scenarios ----------------------------------------------------------------------

def test_scenarios_whose_outcomes_differ_with_both_outcomes_and_their_arithmetic(contree_cafe):
    found, seen, without = outcomes.differing(contree_cafe)
    assert without == [] and 0 < len(found) < seen
    ids = {s.fixture.id for s in found}
    assert "score-089-on-090" not in ids            # 252 to the defenders under both
    level = next(s for s in found if s.fixture.id == "deal-level-81-cw")
    a, b = level.outcomes
    assert (a.fields["made"], b.fields["made"]) == (False, True)
    assert "score: 162 + 80 = 242" in a.comments
    assert "made" in outcomes.shown_fields(level) and "tricks_won" not in outcomes.shown_fields(level)
    assert level.quote.startswith('"The bidding pair makes its contract')


def test_a_rule_set_without_expectations_is_named_not_compared():
    pair = [load_variant("contree-701"), load_variant("contree-701-rounded")]
    # the house rule set has expectations of its own (its rounding) and others carried from contree-701
    found, _, without = outcomes.differing(pair)
    assert without == []
    notes = {o.note.split(" from ")[0] for sc in found for o in sc.outcomes[1:] if o.fields}
    assert notes == {"hand", "carried"}, notes
    found, _, without = outcomes.differing(pair, fixtures=[])
    assert found == [] and without == ["contree-701", "contree-701-rounded"]


# --- (c) the simulation ------------------------------------------------------------------------

def test_deals_are_whole_packs_and_do_not_depend_on_their_neighbours():
    dealer, hands = deals.deal_hands(7, 3)
    assert dealer in "NESW" and all(h.bit_count() == 8 for h in hands.values())
    assert hands["N"] | hands["E"] | hands["S"] | hands["W"] == (1 << 32) - 1
    assert deals.deal_hands(7, 3) == (dealer, hands) and deals.deal_hands(7, 4) != (dealer, hands)


def test_the_same_deals_whatever_the_number_of_processes():
    refs = ["contree-701", "cafe-701"]
    one = simulate.play_deals(refs, 30, seed=5, jobs=1)
    two = simulate.play_deals(refs, 30, seed=5, jobs=2)
    assert one == two and len(one) == 30


def test_one_rule_set_against_itself_never_differs():
    v = load_variant("contree-701")
    per_deal = simulate.play_deals(["contree-701", "contree-701"], 25, seed=2)
    sim = simulate.summarise([v, v], per_deal, 2)
    assert sim.pairs[0].score_differs.value == 0 and sim.pairs[0].largest_swing.value == 0


def test_swings_and_rates_from_records_worked_by_hand(contree_cafe):
    made = ("NS", True, 1, False, 100, 62, 5, 3, None)
    rich = ("NS", True, 2, True, 120, 42, 8, 0, None)
    thrown = (None, None, 1, False, 0, 0, 0, 0, None)
    sim = simulate.summarise(contree_cafe, [(made, rich), (thrown, thrown)], 1)
    p = sim.pairs[0]
    # deal 1: margins 100 - 62 = 38 and 120 - 42 = 78, a swing of 40; deal 2 thrown in under both: 0
    assert p.swings == [40, 0] and p.mean_swing.value == 20 and p.score_differs.value == 0.5
    left, right = sim.rule_sets
    assert left.thrown_in.value == 0.5 and left.coinched.value == 0 and right.coinched.value == 1
    assert right.swept.value == 1 and left.points_per_deal.value == 162


def test_a_match_ends_on_the_deal_that_reaches_the_target():
    rules_ = load_variant("contree-701").rules
    big = ("NS", True, 1, False, 400, 0, 8, 0, None)
    # 400 then 800 >= 701: two deals a match; the fifth deal starts a match that never ends
    assert simulate.match_lengths(rules_, [big] * 5) == [2, 2]


def test_points_a_litige_holds_back_count_for_the_match():
    rules_ = load_variant("test-litige").rules      # federation, to 2000
    litige = ("NS", False, 1, False, 0, 80, 4, 4, None, {"NS": 80, "EW": 0})
    ns_made = ("NS", True, 1, False, 1950, 0, 8, 0, None, None)
    # 0 + 1950 = 1950 < 2000 without what waits; with the 80 held back by the litige, 2030: over
    assert simulate.match_lengths(rules_, [litige, ns_made]) == [2]
    without = [litige[:9] + (None,), ns_made]
    assert simulate.match_lengths(rules_, without) == []


def test_swing_histogram_bins():
    bins = render.swing_bins([0, 0, 5, 40], bins=4)
    assert bins == [("0", 2), ("1-10", 1), ("11-20", 0), ("21-30", 0), ("31-40", 1)]
    svg = render.histogram_svg(bins, "t", "x")
    assert svg.startswith("<svg") and svg.count("<rect") == 5


# --- the command -----------------------------------------------------------------------------------

def test_compare_prints_all_three_parts_with_scenarios():
    code, out, err = run_cli("compare", "contree-701", "cafe-701", "--deals", "40", "--scenarios")
    assert code == 0, err
    for part in ("1. The rules that differ", "2. Corpus scenarios whose outcomes differ",
                 "3. Simulation: 40 deals", "Wilson", "deals per match", "largest swing"):
        assert part in out


def test_compare_defaults_to_the_rules_and_the_headline_figures():
    """Corpus scenarios (hundreds of lines of protocol notation) only with --scenarios."""
    code, out, err = run_cli("compare", "contree-701", "cafe-701", "--deals", "40")
    assert code == 0, err
    assert "1. The rules that differ" in out and "2. Simulation: 40 deals" in out and "largest swing" in out
    assert "Corpus scenarios whose outcomes differ:" not in out and "--scenarios lists them" in out
    assert "deal-level-81-cw" not in out
    code, long_out, _ = run_cli("compare", "contree-701", "cafe-701", "--deals", "40", "--scenarios")
    assert "deal-level-81-cw" in long_out and len(out.splitlines()) < len(long_out.splitlines()) / 3
    data = json.loads(run_cli("compare", "contree-701", "cafe-701", "--deals", "0", "--json")[1])
    assert "scenarios" not in data and data["rules"]["differences"]


@pytest.fixture(scope="module")
def built():
    from coinche_spec.compare.cli import build
    return build(["contree-701", "cafe-701"], 20, 1, scenarios=True)


def test_compare_html_marks_what_differs_from_the_first_rule_set():
    from coinche_spec.compare.cli import build
    c = build(["contree-701", "cafe-701", "contree-701-rounded"], 200, 1, scenarios=True)
    page = render.render_html(c)
    rules = page.split("<h2>1. The rules that differ</h2>", 1)[1].split("<h2>", 1)[0]
    rows = re.findall(r"<tr><td>([^<]+)</td>(.*?)</tr>", rules)
    assert rows
    for title, cells in rows:
        tds = re.findall(r"<td( class=\"differs\")?><details><summary><b>(.*?)</b>", cells)
        assert not tds[0][0], title                             # the first rule set is the measure
        for marked, value in tds[1:]:
            assert bool(marked) == (value != tds[0][1]), (title, value)
    # the rounding row: contree-701-rounded rounds, the two others do not
    rounding = next(cells for title, cells in rows if "ound" in title)
    assert rounding.count('class="differs"') == 1
    scenarios = page.split("2. Corpus scenarios", 1)[1].split("<h2>", 1)[0]
    assert 'class="differs"' in scenarios
    figures = page.split("3. Simulation", 1)[1]
    assert "does not overlap" in figures


def test_differs_from_first_reads_the_intervals():
    e = stats.Estimate
    first = e(0.5, 0.45, 0.55, 100, "wilson")
    assert render.differs_from_first([first, e(0.53, 0.48, 0.58, 100, "wilson"),
                                      e(0.6, 0.56, 0.64, 100, "wilson")]) == [False, False, True]
    assert render.differs_from_first([e(250, None, None, 100, "none"), e(250, None, None, 100, "none"),
                                      e(260, None, None, 100, "none")]) == [False, False, True]


def test_compare_json(built):
    data = json.loads(render.render_json(built))
    assert data["simulation"]["deals"] == 20
    assert data["simulation"]["rule_sets"]["cafe-701"]["failed"]["interval"] == "wilson"
    assert any(d["fixture"] == "deal-level-81-cw" for d in data["scenarios"]["differing"])
    assert data["rules"]["differences"][0]["rule_sets"]["contree-701"]["sentence"]


def test_compare_html_is_one_page_with_its_plots(built):
    out = render.render_html(built)
    assert out.startswith("<!DOCTYPE html>") and out.count("<svg") == 3     # swings, and a match plot each
    assert "<script" not in out and "http" not in out.split("</style>")[0]  # nothing fetched


@pytest.mark.parametrize("argv, message", [
    (["contree-701"], "name at least two rule sets"),
    (["contree-701", "contree-701"], "named twice"),
    (["contree-701", "no-such-rules"], "no-such-rules"),
    (["contree-701", "cafe-701", "--jobs", "0"], "--jobs must be 1 or more"),
])
def test_compare_bad_input_is_one_line(argv, message):
    code, out, err = run_cli("compare", *argv, "--deals", "0")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_compare_never_overwrites_a_file(tmp_path):
    target = tmp_path / "out.html"
    target.write_text("mine")
    code, _, err = run_cli("compare", "contree-701", "cafe-701", "--deals", "0", "--output", str(target))
    assert code == 2 and "exists" in err and target.read_text() == "mine"


def test_sources_are_named_by_title_never_by_a_seed_file_name():
    """Players read the comparison: a seed is "Atout! How to play Coinche ... (seed 004)", not its file."""
    import re
    code, out, err = run_cli("compare", "contree-701", "cafe-701", "--deals", "0")
    assert code == 0, err
    assert "(seed 004)" in out
    assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", out)
    code, out, err = run_cli("variants", "diff", "contree-701", "cafe-701")
    assert code == 0, err
    assert "(seed 001)" in out and not re.search(r"\d{3}_[0-9a-f]{16}\.txt", out)


def test_a_left_out_rule_reads_as_its_default_never_none(tmp_path):
    """libcoinche-like rules against federation, which leaves the trick-winner rule out."""
    f = tmp_path / "fed-any.yaml"
    f.write_text("extends: federation\nid: fed-any\nname: any suit\nstatus: house\n"
                 "rules:\n  play: {trick_winner: any_suit_by_rank}\n  belote: {counts_as: lowered_target}\n"
                 "  match: {last_deal_exact: true}\n", encoding="utf-8")
    code, out, err = run_cli("compare", "federation", str(f), "--deals", "0")
    assert code == 0, err
    rules_part = out[:out.index("--scenarios lists them")]
    assert "None" not in rules_part
    assert "Who wins a trick" in rules_part and "(left out)" in rules_part
    # the same file writing the defaults instead: nothing differs
    f.write_text("extends: federation\nid: fed-any\nname: any suit\nstatus: house\n"
                 "rules:\n  play: {trick_winner: led_suit}\n  match: {last_deal_exact: false}\n", encoding="utf-8")
    from coinche_spec.docsgen.cli import load
    changes, _ = worded_differences([load_variant("federation"), load(str(f))])
    assert changes == []


# --- every differing rule is listed, whatever words exist for it yet ------------------------------

def _rules_part(out: str) -> str:
    """Part 1 of the text report: the rules that differ."""
    return out.split("1. The rules that differ", 1)[1].split("\n2. ", 1)[0]


def test_compare_lists_a_differing_rule_with_no_short_words_yet(monkeypatch):
    """An option just added has its sentence but maybe not yet its few words in docsgen/compare.py's
    ENUM_WORDS: the rule is still listed, its value shown as the file writes it (underscores as spaces)."""
    from coinche_spec.docsgen import compare as docs_compare
    code, out, err = run_cli("compare", "federation", "cafe-701", "--deals", "0")
    assert code == 0, err
    assert "  Who cuts\n    federation: dealer's left\n" in _rules_part(out)
    monkeypatch.delitem(docs_compare.ENUM_WORDS, "deal.cut.by")
    code, out, err = run_cli("compare", "federation", "cafe-701", "--deals", "0")
    assert code == 0, err
    part = _rules_part(out)
    assert "  Who cuts\n    federation: dealer left\n" in part and "    cafe-701: dealer right\n" in part


def test_compare_lists_a_differing_rule_with_neither_sentence_nor_words(monkeypatch):
    """A rule with no template at all (no sentence, no short words) is listed by its path and values,
    in the command's output, never dropped."""
    from coinche_spec.docsgen import compare as docs_compare
    from coinche_spec.docsgen import templates
    without = tuple(t for t in templates.TEMPLATES if t.key != "cut-by")
    monkeypatch.setattr(templates, "TEMPLATES", without)
    monkeypatch.setattr(docs_compare, "TEMPLATES", without)
    monkeypatch.delitem(docs_compare.ENUM_WORDS, "deal.cut.by")
    code, out, err = run_cli("compare", "federation", "cafe-701", "--deals", "0")
    assert code == 0, err
    part = _rules_part(out)
    assert "Who cuts" not in part
    assert '  deal.cut.by\n    federation: "dealer_left"\n' in part and '    cafe-701: "dealer_right"\n' in part
