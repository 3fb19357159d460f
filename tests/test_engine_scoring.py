"""Card points, made/failed and the deal's award, worked out by hand from the seeds.

Every expected number is computed in the comment beside it from the seed text
and docs/rules-model.md §6, never copied from the engine. Seeds:
000 federation, 001 contree-701, 002 cafe-sans-tout-atout, 003 cafe-1000,
004 cafe-701.
"""


import pytest

from coinche_spec.engine.errors import EngineError
from coinche_spec.engine.scoring import ScoreInputError, card_points, round_award, score_deal
from coinche_spec.notation import Contract
from coinche_spec.variants import load_variant
from support import changed_rules

FED = load_variant("federation").rules
CONTREE = load_variant("contree-701").rules
STA = load_variant("cafe-sans-tout-atout").rules
C1000 = load_variant("cafe-1000").rules
C701 = load_variant("cafe-701").rules

NONE = {"NS": 0, "EW": 0}


def house(base_id, changes):
    return changed_rules(base_id, changes)


def score(rules, value, strain, declarer, mult, tp, won, last, melds=None, belote=None):
    return score_deal(rules, Contract(value, strain, declarer, mult),
                      {"NS": tp[0], "EW": tp[1]}, {"NS": won[0], "EW": won[1]}, last,
                      melds or dict(NONE), belote or dict(NONE))


# --- card points -------------------------------------------------------------

def test_card_points_last_trick():
    # 79 + 10 for the last trick = 89; EW 73 unchanged
    assert card_points(FED, "H", {"NS": 79, "EW": 73}, {"NS": 4, "EW": 4}, "NS") == {"NS": 89, "EW": 73}
    # the last trick goes to EW this time: 73 + 10 = 83
    assert card_points(FED, "H", {"NS": 79, "EW": 73}, {"NS": 4, "EW": 4}, "EW") == {"NS": 79, "EW": 83}


def test_card_points_sweep_kinds():
    sweep = ({"NS": 152, "EW": 0}, {"NS": 8, "EW": 0}, "NS")
    # seed 000 §04: "Capturing every trick replaces the last bonus by 100: ... 252 for capot" -> 152 + 100
    assert card_points(FED, "S", *sweep) == {"NS": 252, "EW": 0}
    # seed 001 §3: "if one pair takes all 8 tricks, they count 252 (the last trick is worth 100)"
    assert card_points(CONTREE, "S", *sweep) == {"NS": 252, "EW": 0}
    # cafe-1000: sweep kind none, the last trick stays 10 -> 152 + 10 = 162
    assert card_points(C1000, "S", *sweep) == {"NS": 162, "EW": 0}
    # sweep kind bonus (house rule): 152 + 10 + 90 = 252
    bonus = house("cafe-1000", {"card_values.sweep": {"kind": "bonus", "value": 90}})
    assert card_points(bonus, "S", *sweep) == {"NS": 252, "EW": 0}


# --- rounding (seed 000 §04 "Round awards to the nearest 10: 85 becomes 90, 84 becomes 80") ---

def test_round_award_modes():
    assert round_award("nearest_10_half_up", 85) == 90
    assert round_award("nearest_10_half_up", 84) == 80
    assert round_award("nearest_10_half_down", 85) == 80
    assert round_award("nearest_10_half_down", 86) == 90
    assert round_award("none", 85) == 85


def test_federation_rounds_each_award_85_up_84_down():
    # Bid 80S by N; NS trick points 67 + last trick 10 = 77, EW 85; NS hold a quarante (50).
    # NS total 77 + 50 = 127 >= 80 and > 85: made.
    r = score(FED, 80, "S", "N", 1, (67, 85), (4, 4), "NS", melds={"NS": 50, "EW": 0})
    assert r.made is True
    # NS: 77 + 50 + 80 = 207 -> 210; EW: 85 -> 90
    assert r.score == {"NS": 210, "EW": 90}
    # NS trick points 68 + 10 = 78, EW 84: NS 78 + 50 + 80 = 208 -> 210; EW 84 -> 80
    r = score(FED, 80, "S", "N", 1, (68, 84), (4, 4), "NS", melds={"NS": 50, "EW": 0})
    assert r.score == {"NS": 210, "EW": 80}


def test_half_down_rounding_house_rule():
    down = house("federation", {"scoring.rounding": "nearest_10_half_down"})
    # same deal: NS 77 + 50 + 80 = 207 -> 210 (7 goes up); EW 85 -> 80 (5 goes down)
    r = score(down, 80, "S", "N", 1, (67, 85), (4, 4), "NS", melds={"NS": 50, "EW": 0})
    assert r.score == {"NS": 210, "EW": 80}


# --- seed worked examples ------------------------------------------------------

def test_seed000_bid_90_take_89_fails_before_rounding():
    # seed 000 §05: "A partnership bids 90 hearts and finishes with 89 points, no melds or belote.
    # The contract fails even though rounding would produce 90. Without a double, defenders score
    # 160 + 90 = 250 and bidders 0."
    r = score(FED, 90, "H", "N", 1, (79, 73), (4, 4), "NS")   # 79 + 10 = 89
    assert r.card_points == {"NS": 89, "EW": 73}
    assert r.made is False
    assert r.score == {"NS": 0, "EW": 250}      # 160 + 90 = 250
    assert "defenders EW: base 160 + bid 90 = 250" in r.lines
    assert "takers NS: nothing = 0" in r.lines


def test_seed001_example_bid_90_with_belote():
    # seed 001 §4: "bid 90 hearts; the bidders take 100 in tricks and hold a belote (20).
    # They score 100 + 20 + 90 = 210, the opponents 62."
    # 100 in tricks = 90 trick points + 10 last trick; 90 + 62 = 152 card values.
    r = score(CONTREE, 90, "H", "N", 1, (90, 62), (5, 3), "NS", belote={"NS": 20, "EW": 0})
    assert r.made is True                     # 100 + 20 = 120 >= 90, not level with 62
    assert r.score == {"NS": 210, "EW": 62}   # 100 + 90 + 20 = 210; 62
    assert any(line.startswith("takers NS:") and line.endswith("= 210") for line in r.lines)


def test_score_case_belote_given_as_team():
    # the protocol's score case names the belote's side; it is worth belote.points (20)
    r = score_deal(CONTREE, Contract(90, "H", "N", 1), {"NS": 90, "EW": 62}, {"NS": 5, "EW": 3}, "NS",
                   {"NS": 0, "EW": 0}, "NS")
    assert r.score == {"NS": 210, "EW": 62}   # 100 + 90 + 20; 62
    # no belote at sans atout, whatever the case says: 100 + 90 = 190
    r = score_deal(STA, Contract(90, "SA", "N", 1), {"NS": 90, "EW": 62}, {"NS": 5, "EW": 3}, "NS",
                   {"NS": 0, "EW": 0}, "NS")
    assert r.score == {"NS": 90, "EW": 0}     # sans-tout-atout made: bid 90 only


# --- made / failed / coinched / surcoinched under each shipped variant -------------
# The made deal: 100H by E; EW trick points 102 + last trick 10 = 112, NS 50 (102 + 50 = 152).
# The failed deal: 120H by E with the same cards: 112 < 120.

MADE = dict(value=100, strain="H", declarer="E", tp=(50, 102), won=(2, 6), last="EW")
FAILED = dict(value=120, strain="H", declarer="E", tp=(50, 102), won=(2, 6), last="EW")


def run(rules, case, mult, **extra):
    return score(rules, case["value"], case["strain"], case["declarer"], mult, case["tp"], case["won"],
                 case["last"], **extra)


@pytest.mark.parametrize("rules, mult, made, expected", [
    # federation (seed 000 §04). Undoubled success: "bidders record their total plus the bid;
    # defenders record their own total"; rounded to 10.
    (FED, 1, True, {"NS": 50, "EW": 210}),     # EW 112 + 100 = 212 -> 210; NS 50
    # "For a coinched or surcoinched success, the bidders receive 160 ... plus ... the bid,
    # multiplied by 2 or 4. Defenders retain only their belote."
    (FED, 2, True, {"NS": 0, "EW": 520}),      # (160 + 100) x 2 = 520
    (FED, 4, True, {"NS": 0, "EW": 1040}),     # (160 + 100) x 4 = 1040
    # contree-701 (seed 001 §4): "Contre multiplies only the value of the bid, by 2; surcontre by 4."
    (CONTREE, 1, True, {"NS": 50, "EW": 212}),    # 112 + 100 = 212; NS 50
    (CONTREE, 2, True, {"NS": 50, "EW": 312}),    # 112 + 100 x 2 = 312
    (CONTREE, 4, True, {"NS": 50, "EW": 512}),    # 112 + 100 x 4 = 512
    # cafe-1000 (seed 003): "If surcoinché was called, the score for the bid is tripled."
    (C1000, 1, True, {"NS": 50, "EW": 212}),      # 112 + 100 = 212
    (C1000, 2, True, {"NS": 50, "EW": 312}),      # 112 + 100 x 2 = 312
    (C1000, 3, True, {"NS": 50, "EW": 412}),      # 112 + 100 x 3 = 412
    # cafe-701 (seed 004): "Coinched or surcoinched contract made: (bid + points made) x 2 or x 4,
    # and the defenders score nothing."
    (C701, 1, True, {"NS": 50, "EW": 212}),       # 100 + 112 = 212; defenders keep their 50
    (C701, 2, True, {"NS": 0, "EW": 424}),        # (100 + 112) x 2 = 424
    (C701, 4, True, {"NS": 0, "EW": 848}),        # (100 + 112) x 4 = 848
    # cafe-sans-tout-atout (seed 002): "they score the full BID VALUE (not their raw card points)
    # plus their own declarations"; "A coinche doubles the resulting score"
    (STA, 1, True, {"NS": 0, "EW": 100}),         # bid 100
    (STA, 2, True, {"NS": 0, "EW": 200}),         # 100 x 2
    (STA, 4, True, {"NS": 0, "EW": 400}),         # 100 x 4
])
def test_made_outcomes(rules, mult, made, expected):
    r = run(rules, MADE, mult)
    assert r.made is made
    assert r.card_points == {"NS": 50, "EW": 112}
    assert r.score == expected


@pytest.mark.parametrize("rules, mult, expected", [
    # seed 000: "defenders score 160 plus both sides' ordinary melds, their own belote and the bid";
    # "For a doubled failure, multiply the defenders' failure award by 2 or 4"
    (FED, 1, {"NS": 280, "EW": 0}),       # 160 + 120 = 280
    (FED, 2, {"NS": 560, "EW": 0}),       # (160 + 120) x 2 = 560
    (FED, 4, {"NS": 1120, "EW": 0}),      # (160 + 120) x 4 = 1120
    # seed 001: "If it fails, the opponents score 162 plus the bid." Contre multiplies the bid only.
    (CONTREE, 1, {"NS": 282, "EW": 0}),   # 162 + 120 = 282
    (CONTREE, 2, {"NS": 402, "EW": 0}),   # 162 + 120 x 2 = 402
    (CONTREE, 4, {"NS": 642, "EW": 0}),   # 162 + 120 x 4 = 642
    # seed 003: "the other team scores 162 + the amount of the bid"; "The points for the cards
    # (or 162 when losing) remain the same."
    (C1000, 1, {"NS": 282, "EW": 0}),     # 162 + 120
    (C1000, 2, {"NS": 402, "EW": 0}),     # 162 + 120 x 2
    (C1000, 3, {"NS": 522, "EW": 0}),     # 162 + 120 x 3
    # seed 004: "Contract failed: the defenders score (162 + the bid) x the multiplier."
    (C701, 1, {"NS": 282, "EW": 0}),      # 162 + 120
    (C701, 2, {"NS": 564, "EW": 0}),      # (162 + 120) x 2
    (C701, 4, {"NS": 1128, "EW": 0}),     # (162 + 120) x 4
    # seed 002: "the defenders score every card point in the hand (162 ...) plus both sides'
    # declarations, and the takers score nothing."
    (STA, 1, {"NS": 162, "EW": 0}),       # 162
    (STA, 2, {"NS": 324, "EW": 0}),       # 162 x 2
    (STA, 4, {"NS": 648, "EW": 0}),       # 162 x 4
])
def test_failed_outcomes(rules, mult, expected):
    r = run(rules, FAILED, mult)
    assert r.made is False                 # 112 < 120
    assert r.score == expected


def test_failed_lines_show_the_multiplier():
    r = run(FED, FAILED, 2)
    assert "defenders NS: (base 160 + bid 120) × 2 = 560" in r.lines
    r = run(CONTREE, FAILED, 4)
    assert "defenders NS: base 162 + bid 120 × 4 = 642" in r.lines


def test_sans_tout_atout_failures_at_ta_and_sa():
    # seed 002: "the defenders score every card point in the hand (162, or 258 for a Tout Atout hand,
    # or 152 for Sans Atout)"; the variant takes 162 for sans atout ("152 plus 10" elsewhere in the seed).
    # TA: 248 card values; EW trick points 100 + 10 = 110 < 130 bid -> fails; NS 258
    r = score(STA, 130, "TA", "E", 1, (148, 100), (4, 4), "EW")
    assert r.made is False
    assert r.score == {"NS": 258, "EW": 0}                       # base for tout atout 258
    # SA: 152 card values; EW 60 + 10 = 70 < 80 -> fails; NS 162 (the variant's reading)
    r = score(STA, 80, "SA", "E", 2, (92, 60), (4, 4), "EW")
    assert r.made is False
    assert r.score == {"NS": 324, "EW": 0}                       # 162 x 2


# --- the judgement: versus defenders, minimum total, level totals -----------------

def test_contree_level_totals_fail():
    # seed 001 §4: "level points with the opponents count as a failure"
    # 80S by N; NS 71 + 10 = 81, EW 81 (71 + 81 = 152)
    r = score(CONTREE, 80, "S", "N", 1, (71, 81), (4, 4), "NS")
    assert r.made is False
    assert r.score == {"NS": 0, "EW": 242}     # 162 + 80


def test_contree_level_totals_include_the_defenders_belote():
    # NS 81 + 10 = 91; EW 71 + belote 20 = 91: level -> fails
    r = score(CONTREE, 80, "S", "N", 1, (81, 71), (5, 3), "NS", belote={"NS": 0, "EW": 20})
    assert r.made is False
    assert r.score == {"NS": 0, "EW": 262}     # 162 + 80 + belote 20 = 262


def test_contree_belote_breaks_the_level():
    # NS 81 + belote 20 = 101 vs EW 81: made; NS 81 + 80 + 20 = 181, EW 81
    r = score(CONTREE, 80, "S", "N", 1, (71, 81), (4, 4), "NS", belote={"NS": 20, "EW": 0})
    assert r.made is True
    assert r.score == {"NS": 181, "EW": 81}


def test_same_81_points_under_the_other_variants():
    # NS 81, EW 81, bid 80S by N
    # federation: "strictly exceed the defenders' total" -> fails: EW 160 + 80 = 240
    r = score(FED, 80, "S", "N", 1, (71, 81), (4, 4), "NS")
    assert (r.made, r.score) == (False, {"NS": 0, "EW": 240})
    # cafe-701: only the bid counts -> made: NS 81 + 80 = 161, EW 81
    r = score(C701, 80, "S", "N", 1, (71, 81), (4, 4), "NS")
    assert (r.made, r.score) == (True, {"NS": 161, "EW": 81})
    # cafe-sans-tout-atout: "meets or exceeds their bid" -> made: NS bid 80, EW nothing
    r = score(STA, 80, "S", "N", 1, (71, 81), (4, 4), "NS")
    assert (r.made, r.score) == (True, {"NS": 80, "EW": 0})


def test_cafe_1000_needs_82_for_an_80_bid():
    # seed 003: "a team must at least earn as many points as their bid (82 if the bid was 80)"
    # NS 71 + 10 = 81 >= 80 but < 82: fails; EW 162 + 80 = 242
    r = score(C1000, 80, "H", "N", 1, (71, 81), (4, 4), "NS")
    assert (r.made, r.score) == (False, {"NS": 0, "EW": 242})
    # NS 72 + 10 = 82: made; NS 82 + 80 = 162, EW 80
    r = score(C1000, 80, "H", "N", 1, (72, 80), (4, 4), "NS")
    assert (r.made, r.score) == (True, {"NS": 162, "EW": 80})


def test_contract_judged_before_rounding_never_on_rounded_points():
    # federation: NS 85 points on a bid of 90 would round to 90 but the contract fails
    # NS 75 + 10 = 85, EW 77: 85 < 90 -> EW 160 + 90 = 250
    r = score(FED, 90, "D", "N", 1, (75, 77), (5, 3), "NS")
    assert (r.made, r.score) == (False, {"NS": 0, "EW": 250})


def test_melds_count_towards_the_contract():
    # federation "Add card points, 10 for the last trick, valid ordinary melds and belote for each side"
    # 100H by N: NS 72 + 10 = 82 + tierce 20 = 102 >= 100 and > EW 80 -> made
    r = score(FED, 100, "H", "N", 1, (72, 80), (4, 4), "NS", melds={"NS": 20, "EW": 0})
    assert r.made is True
    assert r.score == {"NS": 200, "EW": 80}     # 82 + 20 + 100 = 202 -> 200; EW 80
    # house rule: melds do not count -> 82 < 100 fails: EW 160 + 20 (both sides' melds) + 100 = 280
    nomelds = house("federation", {"melds.count_towards_contract": False})
    r = score(nomelds, 100, "H", "N", 1, (72, 80), (4, 4), "NS", melds={"NS": 20, "EW": 0})
    assert (r.made, r.score) == (False, {"NS": 0, "EW": 280})


def test_belote_counts_towards_the_contract():
    # seed 004: "Contract made (the bidding team scores at least its bid, belote included)"
    # 100H by N: NS 72 + 10 = 82 + belote 20 = 102 >= 100 -> made
    r = score(C701, 100, "H", "N", 1, (72, 80), (4, 4), "NS", belote={"NS": 20, "EW": 0})
    assert r.made is True
    assert r.score == {"NS": 202, "EW": 80}     # 82 + 100 + belote 20 = 202; EW 80
    # house rule: belote does not count -> 82 < 100 fails: EW 162 + 100 = 262; NS keeps the belote 20
    nobel = house("cafe-701", {"belote.counts_towards_contract": False})
    r = score(nobel, 100, "H", "N", 1, (72, 80), (4, 4), "NS", belote={"NS": 20, "EW": 0})
    assert (r.made, r.score) == (False, {"NS": 20, "EW": 262})


# --- melds in the award ----------------------------------------------------------

def test_federation_failure_gives_both_sides_melds_to_the_defenders():
    # seed 000: "defenders score 160 plus both sides' ordinary melds, their own belote and the bid"
    # 100H by N: NS 62 + 10 = 72 + melds 20 = 92 < 100 -> fails: EW 160 + 20 + 100 = 280
    r = score(FED, 100, "H", "N", 1, (62, 90), (3, 5), "NS", melds={"NS": 20, "EW": 0})
    assert (r.made, r.score) == (False, {"NS": 0, "EW": 280})


def test_sans_tout_atout_defenders_keep_their_declarations():
    # seed 002: "the defenders score only their own declarations"
    # 80H by N: NS 90 + 10 = 100 >= 80 -> made (the defenders' total does not matter)
    r = score(STA, 80, "H", "N", 1, (90, 62), (5, 3), "NS", melds={"NS": 0, "EW": 50})
    assert (r.made, r.score) == (True, {"NS": 80, "EW": 50})     # bid 80; EW's 50
    # "A coinche doubles the resulting score": whichever side scores has it doubled
    r = score(STA, 80, "H", "N", 2, (90, 62), (5, 3), "NS", melds={"NS": 0, "EW": 50})
    assert r.score == {"NS": 160, "EW": 100}                     # 80 x 2; 50 x 2


# --- capot bids --------------------------------------------------------------------

SWEEP_NS = dict(tp=(152, 0), won=(8, 0), last="NS")
SEVEN_NS = dict(tp=(142, 10), won=(7, 1), last="NS")     # NS took 7 tricks: 142 + 10 = 152, EW 10


def cap(rules, mult, deal, **extra):
    return score(rules, "capot", "H", "N", mult, deal["tp"], deal["won"], deal["last"], **extra)


def test_capot_bids_made():
    # federation: 252 card points; "A successful capot bid adds 250 as its bid": 252 + 250 = 502 -> 500
    assert cap(FED, 1, SWEEP_NS).score == {"NS": 500, "EW": 0}
    # federation coinched: "the bidders receive 160, or 250 for a sweep, plus ... the bid":
    # (250 + 250) x 2 = 1000
    assert cap(FED, 2, SWEEP_NS).score == {"NS": 1000, "EW": 0}
    # contree-701: "A capot bid is worth 260"; 252 + 260 = 512; contre: 252 + 260 x 2 = 772
    assert cap(CONTREE, 1, SWEEP_NS).score == {"NS": 512, "EW": 0}
    assert cap(CONTREE, 2, SWEEP_NS).score == {"NS": 772, "EW": 0}
    # cafe-1000: "the points of their bid (250 points for capot) and the points of the cards":
    # 152 + 10 = 162 (no sweep value) + 250 = 412
    assert cap(C1000, 1, SWEEP_NS).score == {"NS": 412, "EW": 0}
    # cafe-701: "Capot: 500 points (x the multiplier)": flat 500, 1000, 2000
    assert cap(C701, 1, SWEEP_NS).score == {"NS": 500, "EW": 0}
    assert cap(C701, 2, SWEEP_NS).score == {"NS": 1000, "EW": 0}
    assert cap(C701, 4, SWEEP_NS).score == {"NS": 2000, "EW": 0}
    # cafe-sans-tout-atout: capot bid worth 250 + "an extra 90 points on top of their contract" = 340
    assert cap(STA, 1, SWEEP_NS).score == {"NS": 340, "EW": 0}


def test_capot_flat_award_with_belote_never_multiplied():
    # seed 004: "Capot: 500 points (x the multiplier)"; "Belote is always worth 20 points, never multiplied"
    r = cap(C701, 2, SWEEP_NS, belote={"NS": 20, "EW": 0})
    assert r.score == {"NS": 1020, "EW": 0}      # 500 x 2 + 20


def test_capot_bid_needs_all_eight_tricks():
    # seed 000: "a capot bid also requires every trick". NS 152 points in 7 tricks: fails.
    r = cap(FED, 1, SEVEN_NS)
    assert r.made is False
    assert r.score == {"NS": 0, "EW": 410}       # 160 + 250 (the capot's value as the bid)
    # contree-701: 162 + 260 = 422
    assert cap(CONTREE, 1, SEVEN_NS).score == {"NS": 0, "EW": 422}
    # cafe-701: (162 + 500) x 2 = 1324
    assert cap(C701, 2, SEVEN_NS).score == {"NS": 0, "EW": 1324}
    # cafe-1000: 162 + 250 = 412
    assert cap(C1000, 1, SEVEN_NS).score == {"NS": 0, "EW": 412}


# --- sweeps without a capot bid -----------------------------------------------------

def test_contree_unbid_sweep_counts_252():
    # 80H by N, NS take all eight: 152 + 100 = 252; made: 252 + 80 = 332
    r = score(CONTREE, 80, "H", "N", 1, *SWEEP_NS.values())
    assert r.card_points == {"NS": 252, "EW": 0}
    assert r.score == {"NS": 332, "EW": 0}


def test_sans_tout_atout_sweep_bonus_90():
    # seed 002: "a partnership that wins all 8 tricks scores an extra 90 points on top of their contract,
    # whether or not Capot was the bid itself": 80 + 90 = 170; with a tierce 80 + 20 + 90 = 190
    r = score(STA, 80, "H", "N", 1, *SWEEP_NS.values())
    assert r.score == {"NS": 170, "EW": 0}
    r = score(STA, 80, "H", "N", 1, *SWEEP_NS.values(), melds={"NS": 20, "EW": 0})
    assert r.score == {"NS": 190, "EW": 0}
    # coinched: the whole award doubles: (80 + 90) x 2 = 340
    assert score(STA, 80, "H", "N", 2, *SWEEP_NS.values()).score == {"NS": 340, "EW": 0}


def test_federation_taker_sweep_takes_the_defenders_melds():
    # seed 000: "On a taker sweep, the defenders' ordinary melds transfer to the takers, but their
    # belote stays with them." 100H by N, NS sweep (252); EW won the meld comparison with 50 and hold belote.
    r = score(FED, 100, "H", "N", 1, *SWEEP_NS.values(), melds={"NS": 0, "EW": 50}, belote={"NS": 0, "EW": 20})
    assert r.made is True                          # 252 >= 100 and > EW 50 + 20 = 70
    assert r.score == {"NS": 400, "EW": 20}        # 252 + 50 + 100 = 402 -> 400; EW keeps the belote 20
    assert any("melds 50 go to NS" in line for line in r.lines)


def test_federation_coinched_sweep_uses_250_base():
    # seed 000: "the bidders receive 160, or 250 for a sweep, plus both sides' ordinary melds ...
    # and the bid, multiplied by 2 or 4": (250 + 50 + 100) x 2 = 800
    r = score(FED, 100, "H", "N", 2, *SWEEP_NS.values(), melds={"NS": 50, "EW": 0})
    assert r.score == {"NS": 800, "EW": 0}


def test_defenders_sweep_in_federation():
    # 80H by N, EW take all eight: EW 252, NS 0 -> fails: EW 160 + 80 = 240 (no sweep base on a failure)
    r = score(FED, 80, "H", "N", 1, (0, 152), (0, 8), "EW")
    assert r.card_points == {"NS": 0, "EW": 252}
    assert (r.made, r.score) == (False, {"NS": 0, "EW": 240})


def test_sweep_takes_melds_any_versus_taker_sweep():
    # A house rule where a failing contract's defenders score their card points and own melds,
    # so a defenders' sweep shows whether the takers' melds move to them.
    doc_changes = {"scoring.failed.defenders": {"terms": ["card_points", "own_melds"], "multiplied": "none"}}
    taker_only = house("federation", dict(doc_changes))
    any_sweep = house("federation", dict(doc_changes, **{"scoring.sweep_takes_melds": "any_sweep"}))
    # 80H by N with a tierce (NS 20); EW take all eight: EW 252
    args = (80, "H", "N", 1, (0, 152), (0, 8), "EW")
    melds = {"NS": 20, "EW": 0}
    assert score(taker_only, *args, melds=melds).score == {"NS": 0, "EW": 250}   # 252 -> 250
    assert score(any_sweep, *args, melds=melds).score == {"NS": 0, "EW": 270}    # 252 + 20 = 272 -> 270


# --- belote in the award -------------------------------------------------------------

def test_federation_failed_takers_keep_their_belote():
    # seed 000: "On failure, bidders retain only belote"
    # 100H by N: NS 62 + 10 = 72 + 20 = 92 < 100 -> EW 160 + 100 = 260; NS 20
    r = score(FED, 100, "H", "N", 1, (62, 90), (3, 5), "NS", belote={"NS": 20, "EW": 0})
    assert (r.made, r.score) == (False, {"NS": 20, "EW": 260})


def test_federation_doubled_failure_protected_belote_not_multiplied():
    # seed 000: "For a doubled failure, multiply the defenders' failure award by 2 or 4; the bidders'
    # protected belote is not multiplied." EW (160 + 100) x 2 = 520; NS 20
    r = score(FED, 100, "H", "N", 2, (62, 90), (3, 5), "NS", belote={"NS": 20, "EW": 0})
    assert r.score == {"NS": 20, "EW": 520}
    # the defenders' own belote is inside their multiplied award: (160 + 100) x 2 + 20 x 2 = 560
    r = score(FED, 100, "H", "N", 2, (62, 90), (3, 5), "NS", belote={"NS": 0, "EW": 20})
    assert r.score == {"NS": 0, "EW": 560}


def test_federation_doubled_success_belote():
    # the variant's reading: the takers' belote sits inside their multiplied award.
    # 100H by N: NS 102 + 10 = 112 + 20 = 132 > EW 40 -> made: (160 + 100) x 2 + 20 x 2 = 560
    r = score(FED, 100, "H", "N", 2, (102, 50), (6, 2), "NS", belote={"NS": 20, "EW": 0})
    assert r.score == {"NS": 560, "EW": 0}
    # "Defenders retain only their belote": EW 20, not multiplied
    r = score(FED, 100, "H", "N", 2, (102, 50), (6, 2), "NS", belote={"NS": 0, "EW": 20})
    assert r.score == {"NS": 520, "EW": 20}


def test_cafe_701_belote_never_multiplied():
    # seed 004: "Belote is always worth 20 points, never multiplied": (112 + 100) x 2 + 20 = 444
    r = run(C701, MADE, 2, belote={"NS": 0, "EW": 20})
    assert r.score == {"NS": 0, "EW": 444}


def test_contree_failed_takers_keep_only_their_belote():
    # seed 001: "If it fails, the opponents score 162 plus the bid. The bidders keep only their belote."
    r = run(CONTREE, FAILED, 1, belote={"NS": 0, "EW": 20})
    # EW 112 + 20 = 132 >= 120 -> made after all: 112 + 120 + 20 = 252; NS 50
    assert (r.made, r.score) == (True, {"NS": 50, "EW": 252})
    # bid 140 instead: 132 < 140 -> fails
    r = score(CONTREE, 140, "H", "E", 1, (50, 102), (2, 6), "EW", belote={"NS": 0, "EW": 20})
    assert (r.made, r.score) == (False, {"NS": 302, "EW": 20})   # 162 + 140 = 302; EW 20


def test_belote_on_failure_defenders_and_lost():
    # house rules on contree-701: a failing takers' belote goes to the defenders, or is lost.
    # 140H by E: EW 112 + 20 = 132 < 140 -> fails
    to_def = house("contree-701", {"belote.on_failure": "defenders"})
    r = score(to_def, 140, "H", "E", 1, (50, 102), (2, 6), "EW", belote={"NS": 0, "EW": 20})
    assert r.score == {"NS": 322, "EW": 0}       # 162 + 140 + 20 = 322
    lost = house("contree-701", {"belote.on_failure": "lost"})
    r = score(lost, 140, "H", "E", 1, (50, 102), (2, 6), "EW", belote={"NS": 0, "EW": 20})
    assert r.score == {"NS": 302, "EW": 0}       # 162 + 140 = 302; the 20 is lost


# --- bad input: one clear line, never a traceback ------------------------------------------

@pytest.mark.parametrize("tp, won, last, words", [
    ({"NS": 79, "EW": 73}, {"NS": 4, "EW": 3}, "NS", "8 tricks"),
    ({"NS": 79, "EW": 73}, {"NS": 8, "EW": 0}, "EW", "last_trick"),
    ({"NS": 79}, {"NS": 4, "EW": 4}, "NS", "missing EW"),
    ({"NS": -1, "EW": 73}, {"NS": 4, "EW": 4}, "NS", "trick_points.NS"),
    ({"NS": 79, "EW": 73}, {"NS": 4, "EW": 4}, "XX", "last_trick"),
])
def test_bad_score_input_is_reported(tp, won, last, words):
    with pytest.raises(ScoreInputError) as info:
        score_deal(FED, Contract(90, "H", "N", 1), tp, won, last, dict(NONE), dict(NONE))
    message = str(info.value)
    assert words in message
    assert "\n" not in message
    assert isinstance(info.value, EngineError)


# --- a property from seed 000 §04: "card totals are 162 normally or 252 for capot" ------------

from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=150, deadline=None)
@given(ns_points=st.integers(0, 152), ns_tricks=st.integers(0, 8), last_ns=st.booleans())
def test_card_totals_162_or_252(ns_points, ns_tricks, last_ns):
    last = "NS" if last_ns else "EW"
    won = {"NS": ns_tricks, "EW": 8 - ns_tricks}
    if won[last] == 0:                       # the last trick's side took at least that trick
        last = "EW" if last == "NS" else "NS"
    cp = card_points(FED, "H", {"NS": ns_points, "EW": 152 - ns_points}, won, last)
    swept = ns_tricks in (0, 8)
    assert cp["NS"] + cp["EW"] == (252 if swept else 162)   # 152 + 100, or 152 + 10


def test_minimum_total_judges_numeric_bids_only():
    """The schema's words: a capot is judged on tricks alone, whatever contract.minimum_total says."""
    r = house("federation", {"contract.minimum_total": 400})
    # NS take all eight tricks: 152 + the last trick as a sweep, below 400 however it is counted
    capot = score(r, "capot", "H", "N", 1, (152, 0), (8, 0), "NS")
    assert capot.made
    numeric = score(r, 80, "H", "N", 1, (152, 0), (8, 0), "NS")
    assert not numeric.made          # 80 is reached, but not the least total of 400
