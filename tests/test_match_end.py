"""Three ways real tables end a match: no win on a deal the side failed (match.last_deal_not_failed),
both sides crossing counted belote, melds, tricks (match.both_cross: counting_order), and the deal
that would win counted unrounded (match.last_deal_exact), with the match-deal fields they need
(`melds`, `exact_score`). Totals are added up by hand in the comments (docs/rules-model.md §7)."""

import pytest
from support import changed_rules

from coinche_spec.engine.match import MatchInputError, run_match
from coinche_spec.protocol.cases import CaseError, run_case
from coinche_spec.protocol.wire import problems
from coinche_spec.variants import load_variant


def d(ns, ew, takers="NS", made=True, belote=None, tricks=(5, 3), **extra):
    """One deal as the protocol's match case gives it (``melds``, ``exact_score`` as extra)."""
    deal = {"score": {"NS": ns, "EW": ew}, "takers": takers, "made": made, "belote": belote,
            "tricks_won": {"NS": tricks[0], "EW": tricks[1]}}
    deal.update(extra)
    return deal


def outcome(rules, deals):
    r = run_match(rules, deals)
    return r.state, r.winner, r.totals


NOT_FAILED = changed_rules("cafe-701", {"match.last_deal_not_failed": True})
COUNTING = changed_rules("cafe-701", {"match.both_cross": "counting_order"})
EXACT = changed_rules("federation", {"match.last_deal_exact": True})


# --- match.last_deal_not_failed --------------------------------------------------------------

def test_a_side_that_failed_wins_on_a_later_deal_it_did_not_fail():
    # NS 690 + 20 (their belote, failing) = 710 >= 701: no win on it; then 710 + 90 = 800, made
    deals = [d(690, 64), d(20, 242, made=False, belote="NS", tricks=(3, 5)), d(90, 80)]
    assert outcome(NOT_FAILED, deals) == ("over", "NS", {"NS": 800, "EW": 386})
    assert outcome(load_variant("cafe-701").rules, deals) == ("over", "NS", {"NS": 710, "EW": 306})


def test_the_defenders_of_a_failed_contract_may_win_on_it():
    # EW fail; NS 600 + 242 = 842 >= 701 as defenders: NS win
    assert outcome(NOT_FAILED, [d(600, 100), d(242, 20, takers="EW", made=False)]) == (
        "over", "NS", {"NS": 842, "EW": 120})


def test_the_last_of_a_fixed_number_of_deals_is_still_the_higher_total():
    # two deals at most: NS 300 + 20 = 320, EW 100 + 242 = 342: EW higher; NS's failure changes nothing
    rules = changed_rules("cafe-701", {"match.last_deal_not_failed": True, "match.deals": 2})
    assert outcome(rules, [d(300, 100), d(20, 242, made=False)]) == ("over", "EW", {"NS": 320, "EW": 342})


@pytest.mark.parametrize("deal", [
    {"score": {"NS": 20, "EW": 242}, "takers": "NS", "made": None, "belote": None, "tricks_won": {"NS": 3, "EW": 5}},
    {"score": {"NS": 20, "EW": 242}, "takers": None, "made": False, "belote": None, "tricks_won": {"NS": 3, "EW": 5}},
])
def test_not_failed_needs_takers_and_made(deal):
    with pytest.raises(MatchInputError, match=r"deal 2: takers and made .*match\.last_deal_not_failed"):
        run_match(NOT_FAILED, [d(690, 0), deal])


# --- match.both_cross: counting_order -----------------------------------------------------------

def test_the_belote_counts_first():
    # before: NS 690, EW 600; belote: NS 690 + 20 = 710 >= 701, EW 600: NS, though EW end 750 to 710
    deals = [d(690, 0), d(0, 600, takers="EW"), d(20, 150, takers="EW", belote="NS", melds={"NS": 0, "EW": 50})]
    assert outcome(COUNTING, deals) == ("over", "NS", {"NS": 710, "EW": 750})


def test_both_at_one_stage_the_higher_total_at_that_stage():
    # two belotes each side (tout atout, one per suit): NS 680 + 40 = 720, EW 670 + 40 = 710: NS higher
    deals = [d(680, 0), d(0, 670, takers="EW"),
             d(60, 200, takers="EW", belotes={"NS": 2, "EW": 2}, melds={"NS": 0, "EW": 0})]
    assert outcome(COUNTING, deals) == ("over", "NS", {"NS": 740, "EW": 870})


def test_melds_are_needed_only_when_both_cross():
    # one side alone reaches: no counting order, no melds needed (NS 600 + 200 = 800, EW 100 + 62)
    assert outcome(COUNTING, [d(600, 100), d(200, 62)]) == ("over", "NS", {"NS": 800, "EW": 162})
    with pytest.raises(MatchInputError, match=r"deal 2: melds is needed .*match\.both_cross: counting_order"):
        run_match(COUNTING, [d(650, 650), d(100, 62)])


# --- match.last_deal_exact -------------------------------------------------------------------

def test_rounding_cannot_take_a_side_to_the_target():
    # federation, 2000: 1820 + 180 = 2000 rounded, 1820 + 176 = 1996 exactly: play on
    deals = [d(1820, 60), d(180, 70, exact_score={"NS": 176, "EW": 66})]
    assert outcome(EXACT, deals) == ("open", None, {"NS": 1996, "EW": 126})
    assert outcome(load_variant("federation").rules, deals) == ("over", "NS", {"NS": 2000, "EW": 130})


def test_exact_score_needed_only_for_a_deal_that_would_reach():
    assert outcome(EXACT, [d(1000, 60), d(180, 70)]) == ("open", None, {"NS": 1180, "EW": 130})
    with pytest.raises(MatchInputError, match=r"deal 2: exact_score is needed.*match\.last_deal_exact"):
        run_match(EXACT, [d(1820, 60), d(180, 70)])


def test_an_exact_score_that_does_not_round_to_the_score_is_bad_input():
    # federation rounds each award to tens, 5 up: 300 rounds to 300, not to the 180 the deal scored
    with pytest.raises(MatchInputError, match=r"deal 2: exact_score\.NS 300 rounds to 300, not to its score 180"):
        run_match(EXACT, [d(1820, 60), d(180, 70, exact_score={"NS": 300, "EW": 66})])
    # 175 rounds up to 180 (5 up), 65 to 70: consistent, and 1820 + 175 = 1995 does not reach 2000
    assert outcome(EXACT, [d(1820, 60), d(180, 70, exact_score={"NS": 175, "EW": 65})]) == (
        "open", None, {"NS": 1995, "EW": 125})
    # a deal that reaches nothing is checked too: its exact score is given, so it must agree
    with pytest.raises(MatchInputError, match=r"deal 1: exact_score\.EW 74 rounds to 70, not to its score 80"):
        run_match(EXACT, [d(180, 80, exact_score={"NS": 176, "EW": 74})])


def test_exact_score_is_not_checked_where_rounding_leaves_no_simple_link():
    # rounding the card points (scoring.rounding_stage) before the awards: an award of 2 x (84 rounded to
    # 80 + 80) = 320 has the exact 2 x (84 + 80) = 328, which rounds to 330: the two need not agree
    rules = changed_rules("federation", {"match.last_deal_exact": True, "scoring.rounding_stage": "card_points"})
    assert outcome(rules, [d(1700, 0), d(320, 0, exact_score={"NS": 328, "EW": 0})]) == (
        "over", "NS", {"NS": 2028, "EW": 0})


def test_without_rounding_the_rule_cannot_matter():
    # cafe-701 rounds nothing: no exact score is asked for, 690 + 20 = 710 wins
    rules = changed_rules("cafe-701", {"match.last_deal_exact": True})
    assert outcome(rules, [d(690, 0), d(20, 242)]) == ("over", "NS", {"NS": 710, "EW": 242})


# --- the protocol fields -------------------------------------------------------------------------

def test_the_match_case_carries_melds_and_exact_score():
    case = {"kind": "match", "deals": [d(1820, 60), d(180, 70, exact_score={"NS": 176, "EW": 66},
                                                    melds={"NS": 20, "EW": 0})]}
    assert problems("case-match", case) == []
    assert run_case(EXACT, case) == {"state": "open", "winner": None, "totals": {"NS": 1996, "EW": 126}}


@pytest.mark.parametrize("extra, where", [
    ({"melds": {"NS": 200, "EW": 0}}, ("case", "deals", 0, "melds", "NS")),     # more than the 180 NS scored
    ({"melds": {"NS": -1, "EW": 0}}, ("case", "deals", 0, "melds", "NS")),
    ({"exact_score": {"NS": 176}}, ("case", "deals", 0, "exact_score")),        # EW missing
])
def test_bad_melds_or_exact_score_is_located(extra, where):
    with pytest.raises(CaseError) as err:
        run_case(EXACT, {"kind": "match", "deals": [d(180, 70, **extra)]})
    assert err.value.path == where, str(err.value)


# --- the comparison's simulated matches -------------------------------------------------------------

def test_simulated_deals_carry_the_exact_score_where_the_match_needs_it():
    """Under test-match-exact (federation: each award rounded to 10, 5 up) a simulated deal records its
    unrounded score beside the rounded one; the rounded one is the exact one rounded."""
    from coinche_spec.compare import deals, simulate
    exact_rules = load_variant("test-match-exact").rules
    plain = load_variant("federation").rules
    seen = 0
    for i in range(40):
        dealer, hands = deals.deal_hands(3, i)
        record = simulate.play_one(exact_rules, dealer, hands)
        assert len(simulate.play_one(plain, dealer, hands)) == 10       # federation needs no exact score
        if record[0] is None:
            continue
        exact = record[10]
        assert (record[4], record[5]) == ((exact["NS"] + 5) // 10 * 10, (exact["EW"] + 5) // 10 * 10)
        seen += exact != {"NS": record[4], "EW": record[5]}
    assert seen      # some deal's award was not already a multiple of 10


def test_simulated_matches_play_the_new_rules_deal_by_deal():
    from coinche_spec.compare import simulate
    rules = load_variant("test-match-tournoi").rules
    # NS 690 + 20 = 710 in a deal NS failed (their belote kept): no win; the next deal, made, wins
    records = [("NS", True, 1, False, 690, 12, 7, 1, None, None),
               ("NS", False, 1, False, 20, 242, 3, 5, "NS", None),
               ("NS", True, 1, False, 90, 72, 5, 3, None, None)]
    assert simulate.match_lengths(rules, records) == [3]
    assert simulate.match_lengths(load_variant("cafe-701").rules, records) == [2]
    assert "last_deal_exact" in simulate.batch_refusal([load_variant("test-match-exact").rules])


def test_compare_refuses_to_simulate_a_counting_order_it_cannot_count():
    from coinche_spec.cli import UserError
    from coinche_spec.compare.cli import build
    with pytest.raises(UserError, match=r"test-match-counting-order: rules\.match\.both_cross: counting_order"):
        build(["cafe-701", "test-match-counting-order"], 10, 1)
    assert build(["cafe-701", "test-match-counting-order"], 0, 1).simulation is None


def test_a_deal_s_melds_and_exact_score_are_read_only_under_the_rules_that_ask_for_them():
    """What stands for a match deal (a whole deal played, a proof that its award cannot arise) need not
    give an extension the rule set's match never reads: the deal counts the same without it."""
    from coinche_spec.engine.match import as_read
    deal = d(180, 70, melds={"NS": 0, "EW": 0}, exact_score={"NS": 176, "EW": 66})
    plain = d(180, 70)
    assert as_read(load_variant("cafe-701").rules, deal) == plain
    assert as_read(COUNTING, deal) == dict(plain, melds={"NS": 0, "EW": 0})
    assert as_read(EXACT, deal) == dict(plain, exact_score={"NS": 176, "EW": 66})
    # cafe-701 rounds nothing: every score is exact already, and last_deal_exact cannot matter there
    unrounded = changed_rules("cafe-701", {"match.last_deal_exact": True})
    assert as_read(unrounded, deal) == plain
    # and the totals are the same with or without what is left out
    deals = [d(600, 0, tricks=(8, 0)), deal]
    assert outcome(load_variant("cafe-701").rules, deals) == outcome(load_variant("cafe-701").rules,
                                                                     [d(600, 0, tricks=(8, 0)), plain])
