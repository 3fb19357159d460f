"""Melds and belote, worked out by hand from the seeds and docs/rules-model.md §4-§5.

Seed 000 (federation) §03: "A square scores 200 for 4 jacks, 150 for 4 nines, or 100 for 4 aces,
tens, kings or queens; sevens and eights do not score. A same-suit run in A K Q J 10 9 8 7 order
scores 100 for 5 cards, 50 for 4, or 20 for 3. For a longer run our stated convention uses only its
highest 5 cards; cards cannot be reused in another ordinary meld." ... "Squares beat runs; squares
rank by value, then card rank. Runs rank by length category, highest card, then trump status. An
unresolved tie cancels ordinary melds for both sides. Otherwise the winning side shows and scores
all its declared melds."
"""


import pytest

from coinche_spec.engine.belote import belote_points, belotes
from coinche_spec.engine.errors import EngineError
from coinche_spec.engine.masks import mask_of
from coinche_spec.engine.melds import MeldInputError, compare, evaluate, hand_declarations, side_totals
from coinche_spec.notation import parse_card
from coinche_spec.variants import load_variant
from support import changed_rules

FED = load_variant("federation").rules            # highest_five, card reuse forbidden, trump breaks ties, cancel
STA = load_variant("cafe-sans-tout-atout").rules  # count_as_five
CONTREE = load_variant("contree-701").rules       # no melds; belote automatic


def house(base_id, changes):
    return changed_rules(base_id, changes)


def cs(text):
    return [parse_card(t) for t in text.split()]


# --- what is a meld ----------------------------------------------------------------

@pytest.mark.parametrize("cards, kind, points", [
    ("JS JH JD JC", "square", 200),
    ("9S 9H 9D 9C", "square", 150),
    ("AS AH AD AC", "square", 100),
    ("TS TH TD TC", "square", 100),
    ("KS KH KD KC", "square", 100),
    ("QS QH QD QC", "square", 100),
    ("AH KH QH", "run", 20),
    ("QH AH KH", "run", 20),            # the order of declaration does not matter
    ("AH KH QH JH", "run", 50),
    ("9D 8D 7D TD JD", "run", 100),
    ("TC 9C 8C", "run", 20),
])
def test_valid_melds(cards, kind, points):
    meld = evaluate(FED, "H", cs(cards))
    assert meld is not None
    assert (meld.kind, meld.points) == (kind, points)


@pytest.mark.parametrize("cards", [
    "8S 8H 8D 8C",      # "sevens and eights do not score"
    "7S 7H 7D 7C",
    "AH KH JH",         # not consecutive
    "AH KS QH",         # not one suit
    "AH KH",            # too short
    "AS AH AD",         # three of a kind is nothing
    "AH AH KH",         # a card twice
    "JS JH JD JC 9S",   # a square plus a card
])
def test_invalid_declarations(cards):
    assert evaluate(FED, "H", cs(cards)) is None


def test_melds_disabled_everything_invalid():
    # seed 001: "No announcements" (contree-701: melds.enabled false)
    assert evaluate(CONTREE, "H", cs("JS JH JD JC")) is None
    r = compare(CONTREE, "H", {"N": [cs("JS JH JD JC")], "E": [cs("AD KD QD")], "S": [], "W": []})
    assert r.winner is None
    assert r.points == {"NS": 0, "EW": 0}
    assert r.invalid == [cs("JS JH JD JC"), cs("AD KD QD")]


# --- long runs and card reuse -------------------------------------------------------

def test_long_run_highest_five_frees_the_lower_cards():
    # seed 000: "For a longer run our stated convention uses only its highest 5 cards"
    meld = evaluate(FED, "D", cs("AS KS QS JS TS 9S"))
    assert meld.points == 100
    assert sorted(meld.cards) == sorted(cs("AS KS QS JS TS"))
    # so 9S may still sit in a square of nines: 100 + 150 = 250 for NS
    r = compare(FED, "D", {"N": [cs("AS KS QS JS TS 9S"), cs("9S 9H 9D 9C")]})
    assert r.invalid == []
    assert r.points == {"NS": 250, "EW": 0}


def test_long_run_count_as_five_uses_every_card():
    # cafe-sans-tout-atout: seed 002 "Quinte (5 or more card sequence in one suit): 100 points."
    meld = evaluate(STA, "D", cs("AS KS QS JS TS 9S"))
    assert meld.points == 100
    assert sorted(meld.cards) == sorted(cs("AS KS QS JS TS 9S"))
    # 9S is already in the run: the square of nines reuses it and is invalid -> NS 100 only
    r = compare(STA, "D", {"N": [cs("AS KS QS JS TS 9S"), cs("9S 9H 9D 9C")]})
    assert r.invalid == [cs("9S 9H 9D 9C")]
    assert r.points == {"NS": 100, "EW": 0}


def test_seven_card_run_scores_as_five():
    # K Q J 10 9 8 7 of hearts: highest five K Q J 10 9 -> 100
    meld = evaluate(FED, "C", cs("KH QH JH TH 9H 8H 7H"))
    assert meld.points == 100
    assert sorted(meld.cards) == sorted(cs("KH QH JH TH 9H"))


def test_card_reuse_forbidden_in_declaration_order():
    # seed 000: "cards cannot be reused in another ordinary meld"
    # run K Q J of hearts first (20), then the square of kings reuses KH: invalid -> NS 20
    r = compare(FED, "C", {"N": [cs("KH QH JH"), cs("KS KH KD KC")]})
    assert r.invalid == [cs("KS KH KD KC")]
    assert r.points == {"NS": 20, "EW": 0}
    # declared the other way round the square stands and the run is invalid -> NS 100
    r = compare(FED, "C", {"N": [cs("KS KH KD KC"), cs("KH QH JH")]})
    assert r.invalid == [cs("KH QH JH")]
    assert r.points == {"NS": 100, "EW": 0}


def test_card_reuse_allowed_house_rule():
    reuse = house("federation", {"melds.card_reuse": "allowed"})
    r = compare(reuse, "C", {"N": [cs("KH QH JH"), cs("KS KH KD KC")]})
    assert r.invalid == []
    assert r.points == {"NS": 120, "EW": 0}       # 20 + 100


@pytest.mark.parametrize("declared, invalid, points", [
    # the same tierce said twice is one tierce: 20
    (["AS KS QS", "AS KS QS"], ["AS KS QS"], 20),
    # A-K-Q then K-Q-J of spades share K and Q: the second run is invalid, 20
    (["AS KS QS", "KS QS JS"], ["KS QS JS"], 20),
    # count_as_five: the 8-card run is one meld of every spade; 9-8-7 again is a second run on them: 100
    (["AS KS QS JS TS 9S 8S 7S", "9S 8S 7S"], ["9S 8S 7S"], 100),
    # the square of jacks said twice counts once: 200; the run through JS beside it stands: 200 + 50 = 250
    (["JS JH JD JC", "JS JH JD JC", "AS KS QS JS"], ["JS JH JD JC"], 250),
])
def test_card_reuse_allowed_means_a_square_and_a_run_never_two_runs(declared, invalid, points):
    # belote-cli (the program: scoring.py detect_sequences finds each suit's maximal runs, detect_carres
    # the squares, apart): a card sits in at most one run and one square
    rules = load_variant("belote-cli").rules
    r = compare(rules, "H", {"N": [cs(d) for d in declared]})
    assert r.invalid == [cs(i) for i in invalid]
    assert r.points == {"NS": points, "EW": 0}


def test_declaration_with_a_card_not_held_is_invalid():
    hands = {"N": mask_of(cs("AH KH QH 7S 8S 9S 7D 8D")), "E": mask_of(cs("AS KS QS JS 7C 8C 9C TC"))}
    # N declares JH, which E... nobody at all holds here: invalid; E's run stands
    r = compare(FED, "D", {"N": [cs("KH QH JH")], "E": [cs("AS KS QS JS")]}, hands=hands)
    assert r.invalid == [cs("KH QH JH")]
    assert (r.winner, r.points) == ("EW", {"NS": 0, "EW": 50})


# --- comparing the sides ----------------------------------------------------------------

def test_protocol_example_square_of_jacks_beats_a_tierce():
    r = compare(FED, "H", {"N": [cs("JS JH JD JC")], "E": [cs("AD KD QD")], "S": [], "W": []})
    assert r.winner == "NS"
    assert r.points == {"NS": 200, "EW": 0}       # the losing side scores nothing


def test_square_beats_a_run_of_the_same_value():
    # "Squares beat runs": square of queens 100 against a quinte 100
    r = compare(FED, "H", {"N": [cs("QS QH QD QC")], "E": [cs("AD KD QD JD TD")]})
    assert (r.winner, r.points) == ("NS", {"NS": 100, "EW": 0})


def test_squares_by_value_then_rank():
    # nines (150) beat aces (100)
    r = compare(FED, "H", {"N": [cs("AS AH AD AC")], "E": [cs("9S 9H 9D 9C")]})
    assert (r.winner, r.points) == ("EW", {"NS": 0, "EW": 150})
    # equal value 100: aces beat tens
    r = compare(FED, "H", {"N": [cs("TS TH TD TC")], "E": [cs("AS AH AD AC")]})
    assert (r.winner, r.points) == ("EW", {"NS": 0, "EW": 100})
    # kings beat queens
    r = compare(FED, "H", {"N": [cs("KS KH KD KC")], "W": [cs("QS QH QD QC")]})
    assert (r.winner, r.points) == ("NS", {"NS": 100, "EW": 0})


def test_runs_by_length_and_winner_scores_all():
    # a quarante beats a tierce; EW score all their melds: 50 + W's tierce 20 = 70
    declared = {"N": [cs("AH KH QH")], "E": [cs("TS 9S 8S 7S")], "W": [cs("AC KC QC")]}
    r = compare(FED, "D", declared)
    assert (r.winner, r.points) == ("EW", {"NS": 0, "EW": 70})
    # house rule: the winning side scores only its best meld -> 50
    best = house("federation", {"melds.winner_scores": "best"})
    r = compare(best, "D", declared)
    assert (r.winner, r.points) == ("EW", {"NS": 0, "EW": 50})


def test_partners_melds_add_up():
    # N square of jacks 200 + S tierce 20 = 220 against E's quarante
    r = compare(FED, "C", {"N": [cs("JS JH JD JC")], "S": [cs("7H 8H 9H")], "E": [cs("AD KD QD JD")]})
    assert (r.winner, r.points) == ("NS", {"NS": 220, "EW": 0})


def test_runs_by_highest_card():
    # two tierces, strain diamonds (neither is trump): A-high beats K-high
    r = compare(FED, "D", {"N": [cs("KH QH JH")], "E": [cs("AS KS QS")]})
    assert (r.winner, r.points) == ("EW", {"NS": 0, "EW": 20})


@pytest.mark.parametrize("strain, winner, points", [
    ("H", "NS", {"NS": 20, "EW": 0}),     # N's run is in trump
    ("S", "EW", {"NS": 0, "EW": 20}),     # E's run is in trump
    ("D", None, {"NS": 0, "EW": 0}),      # neither: "An unresolved tie cancels ordinary melds for both sides"
    ("TA", None, {"NS": 0, "EW": 0}),     # at tout atout no run is "trump"
    ("SA", None, {"NS": 0, "EW": 0}),     # nor at sans atout
])
def test_equal_runs_trump_breaks_the_tie(strain, winner, points):
    r = compare(FED, strain, {"N": [cs("AH KH QH")], "E": [cs("AS KS QS")]})
    assert (r.winner, r.points) == (winner, points)


def test_trump_does_not_break_ties_house_rule():
    flat = house("federation", {"melds.compare.trump_breaks_ties": False})
    r = compare(flat, "H", {"N": [cs("AH KH QH")], "E": [cs("AS KS QS")]})
    assert (r.winner, r.points) == (None, {"NS": 0, "EW": 0})


def test_longer_than_five_counts_as_five_then_highest_card():
    # count_as_five: N's six-card run to the king against E's quinte to the ace -> E (A > K)
    r = compare(STA, "C", {"N": [cs("KH QH JH TH 9H 8H")], "E": [cs("AS KS QS JS TS")]})
    assert (r.winner, r.points) == ("EW", {"NS": 0, "EW": 100})
    # highest_five: N's six to the ace against E's five to the ace, strain clubs -> equal, cancel
    r = compare(FED, "C", {"N": [cs("AH KH QH JH TH 9H")], "E": [cs("AS KS QS JS TS")]})
    assert (r.winner, r.points) == (None, {"NS": 0, "EW": 0})


def test_first_declared_breaks_a_tie():
    first = house("federation", {"melds.compare.equal": "first_declared"})
    declared = {"N": [cs("AH KH QH")], "E": [cs("AS KS QS")]}
    # anticlockwise from W: W, S, E, N -> E declared first -> EW 20
    r = compare(first, "D", declared, leader="W")
    assert (r.winner, r.points) == ("EW", {"NS": 0, "EW": 20})
    # from N: N first -> NS 20
    r = compare(first, "D", declared, leader="N")
    assert (r.winner, r.points) == ("NS", {"NS": 20, "EW": 0})
    # clockwise from W: W, N, E, S -> N first -> NS 20
    r = compare(first, "D", declared, leader="W", direction="clockwise")
    assert (r.winner, r.points) == ("NS", {"NS": 20, "EW": 0})


def test_first_declared_needs_a_leader():
    first = house("federation", {"melds.compare.equal": "first_declared"})
    with pytest.raises(MeldInputError) as info:
        compare(first, "D", {"N": [cs("AH KH QH")], "E": [cs("AS KS QS")]})
    assert "leader" in str(info.value)


def test_invalid_declaration_scores_nothing_and_is_listed():
    r = compare(FED, "H", {"N": [cs("AC KC QC")], "E": [cs("AD KD JD")]})
    assert r.invalid == [cs("AD KD JD")]
    assert (r.winner, r.points) == ("NS", {"NS": 20, "EW": 0})
    assert r.to_json()["invalid"] == [["AD", "KD", "JD"]]


def test_nothing_declared():
    r = compare(FED, "H", {"N": [], "E": [], "S": [], "W": []})
    assert (r.winner, r.points, r.invalid) == (None, {"NS": 0, "EW": 0}, [])


@pytest.mark.parametrize("declared, words", [
    ({"X": [[1, 2, 3]]}, "unknown seat"),
    ({"N": [[1, 2, 40]]}, "0..31"),
    ({"N": "AH KH QH"}, "list of melds"),
])
def test_bad_melds_input(declared, words):
    with pytest.raises(MeldInputError) as info:
        compare(FED, "H", declared)
    assert words in str(info.value)
    assert isinstance(info.value, EngineError)


# --- belote (seed 000 §03: "A player originally holding K and Q of trump separately claims belote,
# worth 20, by saying "Belote" on the first and "Rebelote" on the second.") -----------------------

N_HAND = mask_of(cs("KH QH AS 7S 8D 9D TC JC"))
HANDS = {"N": N_HAND, "E": mask_of(cs("KS QS AH 7H")), "S": 0, "W": 0}


def plays(*entries):
    return [(seat, parse_card(card), say) for seat, card, say in entries]


def test_belote_said_in_order_counts():
    p = plays(("N", "KH", "belote"), ("W", "7C", None), ("N", "QH", "rebelote"))
    assert belote_points(FED, "H", HANDS, p, {}) == {"NS": 20, "EW": 0}
    # the queen may come first: "belote" goes with whichever card is played first
    p = plays(("N", "QH", "belote"), ("N", "KH", "rebelote"))
    assert belote_points(FED, "H", HANDS, p, {}) == {"NS": 20, "EW": 0}


@pytest.mark.parametrize("entries", [
    (("N", "KH", None), ("N", "QH", None)),              # not said: lost
    (("N", "KH", "belote"), ("N", "QH", None)),          # rebelote not said
    (("N", "KH", "rebelote"), ("N", "QH", "belote")),    # the words the wrong way round
    (("N", "KH", "belote"),),                            # the queen is still to come
])
def test_belote_said_wrongly_or_not_yet_does_not_count(entries):
    assert belote_points(FED, "H", HANDS, plays(*entries), {}) == {"NS": 0, "EW": 0}


def test_belote_automatic_needs_no_words():
    # seed 001: "Belote-rebelote: K and Q of trump in one hand, 20 points, counted automatically."
    assert belote_points(CONTREE, "H", HANDS, [], {}) == {"NS": 20, "EW": 0}
    # spades are trump: E holds KS QS
    assert belote_points(CONTREE, "S", HANDS, [], {}) == {"NS": 0, "EW": 20}
    # diamonds: nobody holds both
    assert belote_points(CONTREE, "D", HANDS, [], {}) == {"NS": 0, "EW": 0}


def test_belote_needs_both_cards_in_one_hand():
    split = {"N": mask_of(cs("KH")), "S": mask_of(cs("QH")), "E": 0, "W": 0}
    assert belote_points(CONTREE, "H", split, [], {}) == {"NS": 0, "EW": 0}


def test_no_belote_at_sans_atout():
    # seed 002: "In a Sans Atout hand there is no trump suit, so Belote-Rebelote cannot be declared."
    assert belote_points(CONTREE, "SA", HANDS, [], {}) == {"NS": 0, "EW": 0}


def test_tout_atout_none_or_each_suit():
    said = plays(("N", "KH", "belote"), ("N", "QH", "rebelote"))
    # cafe-sans-tout-atout: belote.tout_atout none
    assert belote_points(STA, "TA", HANDS, said, {}) == {"NS": 0, "EW": 0}
    each = house("contree-701", {"belote.tout_atout": "each_suit"})
    two = {"N": mask_of(cs("KH QH KD QD")), "E": mask_of(cs("KS QS")), "S": 0, "W": 0}
    # N: hearts and diamonds, 20 + 20 = 40; E: spades, 20
    assert belote_points(each, "TA", two, [], {}) == {"NS": 40, "EW": 20}
    assert sorted(belotes(each, "TA", two, [], {})) == [("E", 0), ("N", 1), ("N", 2)]


def test_belote_in_a_run():
    # seed 000: "We explicitly allow these cards also in a run"
    declared = {"N": [cs("KH QH JH")]}
    valid = compare(FED, "H", declared).valid
    said = plays(("N", "KH", "belote"), ("N", "QH", "rebelote"))
    assert belote_points(FED, "H", HANDS, said, valid) == {"NS": 20, "EW": 0}
    # house rule in_run forbidden: the run K Q J holds both cards -> no belote
    forbid = house("contree-701", {"belote.in_run": "forbidden", "melds.enabled": True})
    valid = compare(forbid, "H", declared).valid
    assert belote_points(forbid, "H", HANDS, [], valid) == {"NS": 0, "EW": 0}
    # a run holding only the queen does not take the belote
    valid = compare(forbid, "H", {"N": [cs("QH JH TH")]}).valid
    assert belote_points(forbid, "H", HANDS, [], valid) == {"NS": 20, "EW": 0}


def test_belote_disabled():
    off = house("contree-701", {"belote.enabled": False})
    assert belote_points(off, "H", HANDS, [], {}) == {"NS": 0, "EW": 0}


def test_two_hands_declare_550_at_most_under_the_federation():
    # Federation squares: jacks 200, nines 150, aces, tens, kings, queens 100; runs 20, 50, 100; a card
    # in one meld only. A hand of 8 holds two squares at most, and then nothing else: the jacks and
    # nines, 350, are its most; a square and a run, 200 + 50 (a quarte) at most; runs alone, 120.
    # The side: with 350 in one hand the other holds two squares of 100 at most (200): 550; with
    # jacks and a 100 square (300) in one, nines and a 100 square (250) in the other: 550 again; with
    # no hand holding two squares, 250 + 250 at most. So 550, and nothing above it.
    fed = load_variant("federation").rules
    assert max(hand_declarations(fed, "S")) == 350
    totals = side_totals(fed, "S")
    assert max(totals) == 550 and {20, 40, 100, 350, 450, 500} <= totals
    result = compare(fed, "S", {"N": [cs("JS JH JD JC"), cs("9S 9H 9D 9C")], "E": [],
                                "S": [cs("AS AH AD AC"), cs("KS KH KD KC")], "W": []})
    assert result.points["NS"] == 550 and not result.invalid


def test_what_no_two_hands_declare_is_no_side_total():
    # belote-cli (a card may sit in a square and a run): the engine's enumeration of two hands of 8
    # (computed, not worked out by hand) has 550 at most and no 510, 600 or 640, which the bound
    # before it (squares of different ranks, runs on 16 cards) let through
    bcli = load_variant("belote-cli").rules
    totals = side_totals(bcli, "S")
    assert max(totals) == 550 and not {510, 600, 640} & totals and {490, 500} <= totals
