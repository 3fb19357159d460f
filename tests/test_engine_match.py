"""The match: running totals, the target, both sides crossing, and the belote-only rule.

Expected totals are added up by hand in the comments (docs/rules-model.md §7).
"""


import pytest

from coinche_spec.engine.errors import EngineError
from coinche_spec.engine.match import MatchInputError, run_match
from coinche_spec.variants import load_variant
from support import changed_rules

FED = load_variant("federation").rules             # 2000, reach, higher_total, play_on, belote_validation
CONTREE = load_variant("contree-701").rules        # 701, higher_total, tie: deal_winner
STA = load_variant("cafe-sans-tout-atout").rules   # 1500, both_cross: deal_winner
C1000 = load_variant("cafe-1000").rules            # 1000, higher_total, play_on


def house(base_id, changes):
    return changed_rules(base_id, changes)


def d(ns, ew, takers="NS", made=True, belote=None, tricks=(5, 3)):
    """One deal as the protocol's match case gives it."""
    return {"score": {"NS": ns, "EW": ew}, "takers": takers, "made": made, "belote": belote,
            "tricks_won": {"NS": tricks[0], "EW": tricks[1]}}


def outcome(rules, deals):
    r = run_match(rules, deals)
    return r.state, r.winner, r.totals


def test_open_match_adds_the_deals():
    # 250 + 90 = 340; 0 + 160 = 160
    assert outcome(FED, [d(250, 0), d(90, 160)]) == ("open", None, {"NS": 340, "EW": 160})
    assert outcome(FED, []) == ("open", None, {"NS": 0, "EW": 0})


def test_first_side_to_reach_the_target_wins_and_later_deals_are_ignored():
    # seed 000: "After a deal, the first side reaching 2000 wins"
    # NS 1000 + 1000 = 2000 reaches 2000; EW 500 + 300 = 800; the third deal is ignored
    deals = [d(1000, 500), d(1000, 300), d(0, 5000, takers="EW")]
    assert outcome(FED, deals) == ("over", "NS", {"NS": 2000, "EW": 800})
    assert run_match(FED, deals).deals_counted == 2


def test_exceed_needs_more_than_the_target():
    exceed = house("federation", {"match.reach": "exceed"})
    # 2000 is not more than 2000: open; 2000 + 10 = 2010 is
    assert outcome(exceed, [d(1000, 500), d(1000, 300)]) == ("open", None, {"NS": 2000, "EW": 800})
    assert outcome(exceed, [d(1000, 500), d(1000, 300), d(10, 152)]) == ("over", "NS", {"NS": 2010, "EW": 952})


def test_both_cross_higher_total_wins():
    # seed 000: "if both do, the higher total wins"
    # NS 1900 + 300 = 2200, EW 1950 + 100 = 2050 -> NS
    assert outcome(FED, [d(1900, 1950), d(300, 100)]) == ("over", "NS", {"NS": 2200, "EW": 2050})
    # NS made the deal but EW end higher: NS 1900 + 150 = 2050, EW 1950 + 200 = 2150 -> EW
    assert outcome(FED, [d(1900, 1950), d(150, 200)]) == ("over", "EW", {"NS": 2050, "EW": 2150})


def test_both_cross_level_play_on():
    # seed 000: "with further play on equality": 1900 + 100 = 2000 each -> open
    deals = [d(1900, 1900), d(100, 100)]
    assert outcome(FED, deals) == ("open", None, {"NS": 2000, "EW": 2000})
    # the next deal: NS 2000 + 0, EW 2000 + 160 = 2160 -> EW, both over the target, higher total
    assert outcome(FED, deals + [d(0, 160, takers="EW")]) == ("over", "EW", {"NS": 2000, "EW": 2160})


def test_contree_tie_goes_to_the_deal_winner():
    # seed 001 §5: "If both pairs pass 701 on the same deal, the higher score wins; on a tie,
    # the pair that won the last deal."
    # NS takers made: NS 600 + 110 = 710, EW 650 + 60 = 710 -> NS won the deal
    assert outcome(CONTREE, [d(600, 650), d(110, 60)]) == ("over", "NS", {"NS": 710, "EW": 710})
    # EW takers failed (keeping their belote): NS 458 + 252 = 710, EW 690 + 20 = 710 -> NS, the defenders
    deals = [d(458, 690), d(252, 20, takers="EW", made=False, belote="EW", tricks=(6, 2))]
    assert outcome(CONTREE, deals) == ("over", "NS", {"NS": 710, "EW": 710})


def test_sans_tout_atout_both_cross_deal_winner():
    # seed 002: "If both sides cross the target in the same hand, the takers' result is credited first;
    # if the deal was a defenders' win that also crosses the target, the defenders take the match"
    # NS takers made: NS 1400 + 100 = 1500, EW 1450 + 200 = 1650 -> NS, though EW are higher
    assert outcome(STA, [d(1400, 1450), d(100, 200)]) == ("over", "NS", {"NS": 1500, "EW": 1650})
    # NS takers failed: the defenders EW win; NS 1450 + 60 = 1510, EW 1400 + 200 = 1600
    deals = [d(1450, 1400), d(60, 200, made=False, tricks=(3, 5))]
    assert outcome(STA, deals) == ("over", "EW", {"NS": 1510, "EW": 1600})


def test_cafe_1000_both_cross_higher_total():
    # NS takers made, but EW end higher: NS 900 + 100 = 1000, EW 950 + 60 = 1010 -> EW
    assert outcome(C1000, [d(900, 950), d(100, 60)]) == ("over", "EW", {"NS": 1000, "EW": 1010})


# --- seed 000 §04: "A side reaching the target only through belote while falling or being swept
# must still win an additional trick in a later deal to validate victory." ----------------------

def test_failing_takers_crossing_through_belote_must_win_a_later_trick():
    # NS takers fail keeping their belote: NS 1990 + 20 = 2010, but 2010 - 20 = 1990 < 2000 -> waiting
    # (they took 3 tricks in that deal: it must be a LATER deal)
    deals = [d(1990, 1000), d(20, 260, made=False, belote="NS", tricks=(3, 5))]
    assert outcome(FED, deals) == ("open", None, {"NS": 2010, "EW": 1260})
    assert run_match(FED, deals).waiting == {"NS": True, "EW": False}
    # a later deal where NS win two tricks: NS 2010 + 40 = 2050 -> NS win
    later = d(40, 120, takers="EW", tricks=(2, 6))
    assert outcome(FED, deals + [later]) == ("over", "NS", {"NS": 2050, "EW": 1380})


def test_waiting_side_stays_waiting_without_a_trick():
    deals = [d(1990, 1000), d(20, 260, made=False, belote="NS", tricks=(3, 5))]
    # EW sweep the next deal: NS still 2010, no trick -> still waiting; EW 1260 + 500 = 1760
    swept = d(0, 500, takers="EW", tricks=(0, 8))
    assert outcome(FED, deals + [swept]) == ("open", None, {"NS": 2010, "EW": 1760})
    # then a deal where NS take one trick: NS 2010 + 10 = 2020 -> NS win
    one = d(10, 200, takers="EW", tricks=(1, 7))
    assert outcome(FED, deals + [swept, one]) == ("over", "NS", {"NS": 2020, "EW": 1960})


def test_swept_defenders_crossing_through_belote_must_wait():
    # EW takers sweep; NS keep only their belote: NS 1985 + 20 = 2005, 2005 - 20 = 1985 -> waiting
    deals = [d(1985, 0), d(20, 500, takers="EW", belote="NS", tricks=(0, 8))]
    assert outcome(FED, deals) == ("open", None, {"NS": 2005, "EW": 500})


def test_the_other_side_wins_while_one_waits():
    # NS 1990 + 20 = 2010 only through belote (waiting); EW 1900 + 260 = 2160 -> EW win alone
    deals = [d(1990, 1900), d(20, 260, made=False, belote="NS", tricks=(3, 5))]
    assert outcome(FED, deals) == ("over", "EW", {"NS": 2010, "EW": 2160})


def test_crossing_by_more_than_the_belote_counts_at_once():
    # NS failing takers score 70 with a belote: 1950 + 70 = 2020; 2020 - 20 = 2000 still reaches -> NS win
    deals = [d(1950, 0), d(70, 260, made=False, belote="NS", tricks=(3, 5))]
    assert outcome(FED, deals) == ("over", "NS", {"NS": 2020, "EW": 260})


def test_no_belote_validation_in_contree():
    # contree-701 has no such rule: NS 690 + 20 = 710 (belote only, failing) -> NS win at once
    deals = [d(690, 0), d(20, 252, made=False, belote="NS", tricks=(3, 5))]
    assert outcome(CONTREE, deals) == ("over", "NS", {"NS": 710, "EW": 252})


# --- a thrown-in deal (four passes) inside a match: no card played, no trick won ----------------

THROWN_IN = {"score": {"NS": 0, "EW": 0}, "takers": None, "made": None, "belote": None, "tricks_won": None}


def test_a_waiting_side_still_waits_after_a_thrown_in_deal():
    # NS 1990 + 20 = 2010 through belote on a failure: waiting; thrown in: no trick, still waiting
    deals = [d(1990, 1000), d(20, 260, made=False, belote="NS", tricks=(3, 5)), THROWN_IN]
    r = run_match(FED, deals)
    assert (r.state, r.totals, r.waiting) == ("open", {"NS": 2010, "EW": 1260}, {"NS": True, "EW": False})
    # one trick in the deal after: NS 2010 + 10 = 2020 -> NS win
    assert outcome(FED, deals + [d(10, 200, takers="EW", tricks=(1, 7))]) == (
        "over", "NS", {"NS": 2020, "EW": 1460})


def test_nobody_wins_on_a_thrown_in_deal_where_a_trick_is_needed():
    rules = house("cafe-701", {"match.last_deal_needs_a_trick": True})
    # NS 690 + 20 = 710 while swept: no win; thrown in: no trick, no win; then 4 tricks: 710 + 90 = 800
    deals = [d(690, 0), d(20, 500, takers="EW", tricks=(0, 8)), THROWN_IN]
    assert outcome(rules, deals) == ("open", None, {"NS": 710, "EW": 500})
    assert outcome(rules, deals + [d(90, 72, tricks=(4, 4))]) == ("over", "NS", {"NS": 800, "EW": 572})


def test_litige_points_wait_past_a_thrown_in_deal():
    rules = house("federation", {"scoring.litige": "takers_points_held"})
    litige = dict(d(0, 80, made=False, tricks=(4, 4)), held={"NS": 80, "EW": 0})
    r = run_match(rules, [litige, THROWN_IN])
    assert (r.state, r.totals, r.held) == ("open", {"NS": 0, "EW": 80}, 80)
    # EW make the next contract: 80 + 180 + the 80 held = 340
    r = run_match(rules, [litige, THROWN_IN, d(70, 180, takers="EW", tricks=(3, 5))])
    assert (r.totals, r.held) == ({"NS": 70, "EW": 340}, 0)


@pytest.mark.parametrize("field, value, words", [
    ("score", {"NS": 20, "EW": 0}, "scores nothing, 0 to 0"),
    ("belote", "NS", "so no belote"),
    ("tricks_won", {"NS": 0, "EW": 0}, "a deal has 8"),
])
def test_a_thrown_in_deal_with_points_or_tricks_is_bad_input(field, value, words):
    from coinche_spec.protocol.cases import CaseError, run_case
    case = {"kind": "match", "deals": [d(100, 62), dict(THROWN_IN, **{field: value})]}
    with pytest.raises(CaseError) as err:
        run_case(FED, case)
    assert words in str(err.value)
    assert err.value.path[:4] == ("case", "deals", 1, field)


# --- bad input -----------------------------------------------------------------------

@pytest.mark.parametrize("deals, words", [
    ([{"takers": "NS"}], "deal 1: missing field 'score'"),
    ([d(10, 10), {"score": {"NS": "x", "EW": 0}}], "deal 2: score.NS"),
    ([d(10, 10, takers="XY")], "deal 1: takers"),
    ("not a list", "must be a list"),
])
def test_bad_match_input(deals, words):
    with pytest.raises(MatchInputError) as info:
        run_match(FED, deals)
    assert words in str(info.value)
    assert isinstance(info.value, EngineError)


def test_deal_winner_needs_takers_and_made():
    deals = [d(1400, 1450), {"score": {"NS": 100, "EW": 200}}]
    with pytest.raises(MatchInputError) as info:
        run_match(STA, deals)
    assert "takers and made" in str(info.value)
