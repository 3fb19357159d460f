"""The protocol's case kinds: every field checked, canonical output, answers from the engine.

Expected results are worked out by hand from docs/rules-model.md and the
shipped rule files; the arithmetic is in the comments.
"""

import copy

import pytest

from coinche_spec.protocol.cases import CaseError, canonicalise, run_case
from coinche_spec.variants import load_variant

DECK = [r + s for s in "SHDC" for r in "789TJQKA"]  # card index order: 7S 8S ... AS 7H ... AC


def rules(vid):
    return load_variant(vid).rules


def full_hands():
    return {"N": [r + "S" for r in "789TJQKA"], "E": [r + "H" for r in "789TJQKA"],
            "S": [r + "D" for r in "789TJQKA"], "W": [r + "C" for r in "789TJQKA"]}


GOOD = {
    "legal_cards": {"kind": "legal_cards", "strain": "H", "seat": "S", "hand": ["JH", "7H", "AS", "8D"],
                    "trick": [{"seat": "N", "card": "KS"}, {"seat": "W", "card": "9H"}]},   # anticlockwise
    "auction": {"kind": "auction", "dealer": "N", "calls": [{"seat": "W", "call": "80H"}]},
    "deal": {"kind": "deal", "dealer": "N", "hands": full_hands(),
             "calls": [{"seat": "W", "call": "80C"}], "play": [{"seat": "W", "card": "AC"}]},
    "score": {"kind": "score", "contract": {"value": 90, "strain": "H", "declarer": "N", "multiplier": 1},
              "trick_points": {"NS": 79, "EW": 73}, "tricks_won": {"NS": 4, "EW": 4}, "last_trick": "NS",
              "melds": {"NS": 0, "EW": 0}, "belote": None},
    "melds": {"kind": "melds", "strain": "H",
              "declared": {"N": [["JS", "JH", "JD", "JC"]], "E": [["AD", "KD", "QD"]], "S": [], "W": []}},
    "match": {"kind": "match", "deals": [{"score": {"NS": 250, "EW": 0}, "takers": "EW", "made": False,
                                          "belote": None, "tricks_won": {"NS": 6, "EW": 2}}]},
    "dealing": {"kind": "dealing", "dealer": "S", "deck": list(DECK), "cut": 12},
    "perft": {"kind": "perft", "strain": "H", "leader": "W",
              "hands": {"N": ["7S", "8S"], "E": ["9S", "TS"], "S": ["JS", "QS"], "W": ["KS", "AS"]}, "depth": 8},
}


@pytest.mark.parametrize("kind", sorted(GOOD))
def test_good_cases_are_accepted_and_already_canonical(kind):
    assert canonicalise(copy.deepcopy(GOOD[kind])) == GOOD[kind]


def test_lenient_notation_becomes_canonical():
    case = {"kind": "legal_cards", "strain": "♥", "seat": "s", "hand": ["jh", "10♥", "A♠"],
            "trick": [{"seat": "w", "card": "10s"}]}
    assert canonicalise(case) == {"kind": "legal_cards", "strain": "H", "seat": "S", "hand": ["JH", "TH", "AS"],
                                  "trick": [{"seat": "W", "card": "TS"}]}
    auction = canonicalise({"kind": "auction", "dealer": "n",
                            "calls": [{"seat": "w", "call": "80 ♥"}, {"seat": "n", "call": "contre"},
                                      {"seat": "e", "call": "Capot sa"}]})
    assert [c["call"] for c in auction["calls"]] == ["80H", "coinche", "capotSA"]


def mutate(kind, change):
    case = copy.deepcopy(GOOD[kind])
    change(case)
    return case


BAD = [
    # (kind, change, path, words in the message)
    ("legal_cards", lambda c: c.update(extra=1), "case.extra", "unknown field 'extra'"),
    ("legal_cards", lambda c: c.pop("seat"), "case", "missing field 'seat'"),
    ("legal_cards", lambda c: c["hand"].__setitem__(1, "ZH"), "case.hand[1]", "bad card 'ZH'"),
    ("legal_cards", lambda c: c["hand"].append("JH"), "case.hand[4]", "JH appears twice"),
    ("legal_cards", lambda c: c.update(hand=[]), "case.hand", "expected 1 to 8 cards, got 0"),
    ("legal_cards", lambda c: c["trick"][1].update(seat="S"), "case.trick[1].seat", "is the player to act"),
    ("legal_cards", lambda c: c["trick"][1].update(card="JH"), "case.trick[1].card", "also in the hand"),
    ("legal_cards", lambda c: c.update(strain="X"), "case.strain", "bad strain 'X'"),
    ("legal_cards", lambda c: c.update(trick="KS"), "case.trick", "expected a list, got a string"),
    ("auction", lambda c: c["calls"][0].update(call="85"), "case.calls[0].call", "names no strain"),
    ("auction", lambda c: c["calls"][0].update(seat="X"), "case.calls[0].seat", "bad seat 'X'"),
    ("deal", lambda c: c["hands"]["N"].pop(), "case.hands.N", "exactly 8 cards, got 7"),
    ("deal", lambda c: c["hands"]["E"].__setitem__(0, "7S"), "case.hands.E[0]", "also in N's hand"),
    ("deal", lambda c: c["hands"].pop("W"), "case.hands", "missing seat 'W'"),
    ("deal", lambda c: c["play"][0].update(say="beloote"), "case.play[0].say", "bad say"),
    ("deal", lambda c: c["play"][0].update(melds=[["AC", "AC"]]), "case.play[0].melds[0][1]", "AC appears twice"),
    ("deal", lambda c: c["play"][0].update(melds=[[]]), "case.play[0].melds[0]", "expected 1 to 8 cards"),
    ("deal", lambda c: c.update(rebelote_forgiven=["EW", "EW"]), "case.rebelote_forgiven", "EW is named twice"),
    ("deal", lambda c: c.update(rebelote_forgiven=["N"]), "case.rebelote_forgiven[0]", "bad team 'N'"),
    ("deal", lambda c: c.update(rebelote_forgiven="NS"), "case.rebelote_forgiven", "expected a list"),
    ("score", lambda c: c["tricks_won"].update(NS=5), "case.tricks_won", "took 5 + 4 tricks; a deal has 8"),
    ("score", lambda c: c.update(tricks_won={"NS": 8, "EW": 0}, last_trick="EW"), "case.last_trick",
     "EW took the last trick"),
    ("score", lambda c: c["trick_points"].update(NS="79"), "case.trick_points.NS", "expected a whole number"),
    ("score", lambda c: c["trick_points"].update(NS=True), "case.trick_points.NS", "expected a whole number"),
    ("score", lambda c: c["contract"].update(multiplier=8), "case.contract.multiplier", "1, 2, 3 or 4"),
    ("score", lambda c: c["contract"].update(value="lots"), "case.contract", "bad contract value"),
    ("score", lambda c: c.update(belote="N"), "case.belote", "bad team 'N'"),
    ("melds", lambda c: c["declared"]["S"].append(["JS", "QS", "KS"]), "case.declared.S[0][0]",
     "JS is also declared by N"),
    ("melds", lambda c: c.update(leader="Q"), "case.leader", "bad seat"),
    ("match", lambda c: c.update(deals=[]), "case.deals", "expected 1 to 1000 deals, got 0"),
    ("match", lambda c: c["deals"][0].update(made="yes"), "case.deals[0].made", "expected true or false"),
    ("match", lambda c: c["deals"][0].pop("takers"), "case.deals[0]", "missing field 'takers'"),
    ("dealing", lambda c: c["deck"].pop(), "case.deck", "exactly 32 cards, got 31"),
    ("dealing", lambda c: c.update(cut=33), "case.cut", "above the largest allowed value 32"),
    ("dealing", lambda c: c.update(packets=[3, 0, 3]), "case.packets[1]", "below the smallest"),
    ("perft", lambda c: c["hands"]["N"].append("9D"), "case.hands", "same number of cards"),
    ("perft", lambda c: c.update(depth=9), "case.depth", "above the largest allowed value 8"),
]


@pytest.mark.parametrize("kind,change,path,words", BAD, ids=[f"{b[0]}-{b[2]}" for b in BAD])
def test_bad_fields_are_located_and_explained(kind, change, path, words):
    with pytest.raises(CaseError) as info:
        canonicalise(mutate(kind, change))
    text = str(info.value)
    assert text.startswith(path + ": "), text
    assert words in text, text
    assert "\n" not in text


def test_case_must_be_an_object_with_a_known_kind():
    with pytest.raises(CaseError, match=r"^case: expected an object"):
        canonicalise(["legal_cards"])
    with pytest.raises(CaseError, match=r"^case: missing field 'kind'"):
        canonicalise({})
    with pytest.raises(CaseError, match=r"^case.kind: unknown kind 'bidding'"):
        canonicalise({"kind": "bidding"})


# --- answers, worked by hand ---------------------------------------------------

def test_score_seed_000_example():
    # Seed 000 §05: bid 90 hearts, 89 points: fails; 160 + 90 = 250 to the defenders.
    # Card points: NS 79 + 10 (last trick) = 89; EW 73.
    result = run_case(rules("federation"), GOOD["score"])
    assert result == {"made": False, "card_points": {"NS": 89, "EW": 73}, "score": {"NS": 0, "EW": 250}}
    # contree-701: "the opponents score 162 plus the bid": 162 + 90 = 252.
    result = run_case(rules("contree-701"), GOOD["score"])
    assert result["score"] == {"NS": 0, "EW": 252}


def test_dealing_anticlockwise_and_clockwise():
    # The cut lifts 12 cards (7S..AS, 7H..TH) and puts them under: the pack starts at JH.
    # federation deals anticlockwise from the dealer S: E, N, W, S; packets 3, 2, 3.
    result = run_case(rules("federation"), GOOD["dealing"])
    assert result == {"hands": {
        "N": ["AH", "7D", "8D", "9C", "TC", "TS", "JS", "QS"],
        "E": ["JH", "QH", "KH", "7C", "8C", "7S", "8S", "9S"],
        "S": ["QD", "KD", "AD", "KC", "AC", "8H", "9H", "TH"],
        "W": ["9D", "TD", "JD", "JC", "QC", "KS", "AS", "7H"]}}
    # contree-701 deals clockwise from S: W first.
    result = run_case(rules("contree-701"), GOOD["dealing"])
    assert result["hands"]["W"] == ["JH", "QH", "KH", "7C", "8C", "7S", "8S", "9S"]


def test_dealing_a_forbidden_cut_is_a_result_not_an_error():
    case = dict(GOOD["dealing"], cut=1)
    # federation: "at least 3 in each packet"; a cut of 1 leaves a packet of 1.
    result = run_case(rules("federation"), case)
    assert set(result) == {"rejected"} and result["rejected"]
    # contree-701 asks for no minimum beyond 1 card.
    assert "hands" in run_case(rules("contree-701"), case)


def test_legal_cards_must_follow_suit():
    # Spades led (N KS, W trumps with 9H); S holds AS: he must follow spades.
    assert run_case(rules("federation"), GOOD["legal_cards"]) == {"legal": ["AS"]}


def _trick(*seats):
    cards = ["KS", "9H", "QS"]
    return [{"seat": s, "card": c} for s, c in zip(seats, cards)]


# (rule set, trick seats, seat to act, the field refused, the words)
OUT_OF_ORDER = [
    # federation is anticlockwise N W S E: after N comes W
    ("federation", ("N", "E"), "S", "case.trick[1].seat",
     "under this rule set's direction of play (anticlockwise) W plays after N, not E"),
    ("federation", ("N",), "E", "case.seat",
     "under this rule set's direction of play (anticlockwise) W plays after N (the last to play to the trick), not E"),
    # contree-701 is clockwise N E S W: after W comes N; S after W is never a next seat
    ("contree-701", ("W", "N"), "S", "case.seat",
     "under this rule set's direction of play (clockwise) E plays after N (the last to play to the trick), not S"),
    ("contree-701", ("E", "S", "N"), "W", "case.trick[2].seat",
     "under this rule set's direction of play (clockwise) W plays after S, not N"),
]


@pytest.mark.parametrize("vid,seats,seat,path,words", OUT_OF_ORDER)
def test_a_trick_out_of_the_direction_of_play_is_refused(vid, seats, seat, path, words):
    """No game reaches a trick whose seats do not go round the table's way: an engine that plays from
    a game loop could not be put in it, so the case is malformed under that rule set."""
    case = {"kind": "legal_cards", "strain": "H", "seat": seat, "hand": ["JH", "7H", "AS", "8D"],
            "trick": _trick(*seats)}
    canonicalise(case)   # well formed as such: it is the rule set's direction that refuses it
    with pytest.raises(CaseError) as info:
        run_case(rules(vid), case)
    assert str(info.value) == f"{path}: {words}"


@pytest.mark.parametrize("vid,seats,seat", [
    ("federation", ("N", "W"), "S"), ("federation", ("E", "N", "W"), "S"), ("federation", (), "E"),
    ("contree-701", ("N", "E"), "S"), ("contree-701", ("W", "N", "E"), "S"), ("contree-701", ("S",), "W"),
])
def test_a_trick_in_the_direction_of_play_is_answered(vid, seats, seat):
    case = {"kind": "legal_cards", "strain": "H", "seat": seat, "hand": ["JH", "7H", "AS", "8D"],
            "trick": _trick(*seats)}
    assert "legal" in run_case(rules(vid), case)


def test_swapping_east_and_west_turns_a_clockwise_trick_anticlockwise():
    # N leads KS, E trumps with 9H, S (holding no spade) to act, clockwise; E and W swapped, anticlockwise.
    # The opponent's 9H wins either way: S must overtrump, JH only (J above 9; 7H below).
    clockwise = {"kind": "legal_cards", "strain": "H", "seat": "S", "hand": ["JH", "7H", "8D"],
                 "trick": _trick("N", "E")}
    anticlockwise = dict(clockwise, trick=_trick("N", "W"))
    assert run_case(rules("contree-701"), clockwise) == {"legal": ["JH"]}
    assert run_case(rules("federation"), anticlockwise) == {"legal": ["JH"]}
    with pytest.raises(CaseError):
        run_case(rules("federation"), clockwise)
    with pytest.raises(CaseError):
        run_case(rules("contree-701"), anticlockwise)


def test_auction_first_speaker_depends_on_direction():
    case = {"kind": "auction", "dealer": "N", "calls": [{"seat": "W", "call": "80H"}, {"seat": "S", "call": "pass"},
                                                        {"seat": "E", "call": "pass"}, {"seat": "N", "call": "pass"}]}
    # federation is anticlockwise: W speaks first after dealer N; three passes end it.
    assert run_case(rules("federation"), case) == {
        "accepted": 4, "state": "contract", "to_act": None,
        "contract": {"value": 80, "strain": "H", "declarer": "W", "multiplier": 1}}
    # contree-701 is clockwise: E speaks first, so W's call is refused at once.
    result = run_case(rules("contree-701"), case)
    assert (result["accepted"], result["state"], result["to_act"], result["contract"]) == (0, "open", "E", None)


def test_melds_square_beats_run_and_nonsense_is_invalid():
    case = copy.deepcopy(GOOD["melds"])
    case["declared"]["W"] = [["7C", "9C", "TC"]]  # not consecutive: not a run
    result = run_case(rules("federation"), case)
    # four jacks 200 beat a run of three; the winner scores all its melds: NS 200, EW 0.
    assert result == {"winner": "NS", "points": {"NS": 200, "EW": 0}, "invalid": [["7C", "9C", "TC"]]}


def test_match_reaching_the_target():
    case = {"kind": "match", "deals": [{"score": {"NS": 2000, "EW": 0}, "takers": "NS", "made": True,
                                        "belote": None, "tricks_won": {"NS": 6, "EW": 2}}]}
    # federation: first to reach 2000; 2000 >= 2000.
    assert run_case(rules("federation"), case) == {"state": "over", "winner": "NS",
                                                    "totals": {"NS": 2000, "EW": 0}}


def test_perft_two_tricks():
    # W leads KS or AS (2 ways), N, E, S each have two spades (2 ways each): 2 * 2 * 2 * 2 = 16;
    # the second trick is forced: 16 sequences of 8 cards.
    assert run_case(rules("federation"), GOOD["perft"]) == {"count": 16}


def test_deal_stopped_early_reports_the_next_legal_cards():
    # federation: dealer N, W speaks first: 80C then three passes; W (next to dealer) leads AC.
    case = copy.deepcopy(GOOD["deal"])
    case["calls"] = [{"seat": "W", "call": "80C"}, {"seat": "S", "call": "pass"},
                     {"seat": "E", "call": "pass"}, {"seat": "N", "call": "pass"}]
    result = run_case(rules("federation"), case)
    assert result["accepted"] == {"calls": 4, "plays": 1}
    assert result["made"] is None and result["score"] is None
    # S plays next (anticlockwise after W); S holds only diamonds, no club, no trump: any card.
    assert sorted(result["legal_next"]) == sorted(r + "D" for r in "789TJQKA")


# --- what a case may ask of the configured rule set ------------------------------

from support import changed_rules  # noqa: E402


def score_case(**changes):
    case = copy.deepcopy(GOOD["score"])
    for key, value in changes.items():
        if key in ("value", "strain", "multiplier", "declarer"):
            case["contract"][key] = value
        else:
            case[key] = value
    return case


def no_capot():
    return changed_rules("federation", {"auction.capot.allowed": False})


def no_surcoinche():
    return changed_rules("federation", {"auction.surcoinche.allowed": False})


RULES_BAD = [
    # (rules, case, path, words): each refused with the field's path and one line
    ("federation", lambda: score_case(strain="TA", trick_points={"NS": 175, "EW": 73}), "case.contract.strain",
     "this rule set has no tout atout contract"),
    ("contree-701", lambda: score_case(strain="SA"), "case.contract.strain", "this rule set has no sans atout contract"),
    (no_capot, lambda: score_case(value="capot"), "case.contract.value", "this rule set has no capot bid"),
    # federation: 80, 90, 100 ... with no ceiling; 85 is between two steps
    ("federation", lambda: score_case(value=85), "case.contract.value",
     "85 is not a bid of this rule set (bids go from 80 in steps of 10, with no highest bid)"),
    ("federation", lambda: score_case(value=70), "case.contract.value", "70 is not a bid of this rule set"),
    # contree-701: at most 160
    ("contree-701", lambda: score_case(value=170), "case.contract.value",
     "170 is not a bid of this rule set (bids go from 80 in steps of 10, up to 160)"),
    # federation: coinche x2, surcoinche x4: 3 is neither
    ("federation", lambda: score_case(multiplier=3), "case.contract.multiplier",
     "3 is not a multiplier of this rule set (1 not doubled, 2 coinched, 4 surcoinched)"),
    # cafe-1000: surcoinche x3, so 4 is not one of its multipliers
    ("cafe-1000", lambda: score_case(multiplier=4), "case.contract.multiplier",
     "4 is not a multiplier of this rule set (1 not doubled, 2 coinched, 3 surcoinched)"),
    (no_surcoinche, lambda: score_case(multiplier=4), "case.contract.multiplier",
     "4 is not a multiplier of this rule set (1 not doubled, 2 coinched)"),
    # cafe-1000: a capot bid may not be coinched
    ("cafe-1000", lambda: score_case(value="capot", multiplier=2, tricks_won={"NS": 8, "EW": 0},
                                     trick_points={"NS": 152, "EW": 0}),
     "case.contract.multiplier", "a capot bid may not be coinched in this rule set"),
    # 79 + 70 = 149, not the 152 the cards are worth at hearts (62 trump + 3 x 30 plain)
    ("federation", lambda: score_case(trick_points={"NS": 79, "EW": 70}), "case.trick_points",
     "79 + 70 = 149, but the cards of a hearts contract are worth 152 in this rule set"),
    # tout atout: 4 x 62 = 248, so 152 does not add up
    ("cafe-sans-tout-atout", lambda: score_case(strain="TA"), "case.trick_points",
     "79 + 73 = 152, but the cards of a tout atout contract are worth 248 in this rule set"),
    # sans atout: 4 x 38 = 152 (ace 19), so 248 does not add up
    ("cafe-sans-tout-atout", lambda: score_case(strain="SA", trick_points={"NS": 175, "EW": 73}), "case.trick_points",
     "175 + 73 = 248, but the cards of a sans atout contract are worth 152 in this rule set"),
    # NS took all eight tricks: EW, with none, cannot have 2 points
    ("federation", lambda: score_case(tricks_won={"NS": 8, "EW": 0}, trick_points={"NS": 150, "EW": 2}),
     "case.trick_points.EW", "EW took no trick, so it has no trick points, got 2"),
    ("federation", lambda: score_case(melds={"NS": 20, "EW": 50}), "case.melds",
     "both sides score melds (NS 20, EW 50); after the comparison only one side can"),
    ("contree-701", lambda: score_case(melds={"NS": 0, "EW": 20}), "case.melds.EW",
     "20: this rule set has no melds (melds.enabled is false)"),
    # strains in the other kinds
    ("federation", lambda: dict(GOOD["legal_cards"], strain="TA"), "case.strain",
     "this rule set has no tout atout contract (auction.strains.tout_atout is false)"),
    ("cafe-701", lambda: dict(GOOD["perft"], strain="SA"), "case.strain",
     "this rule set has no sans atout contract (auction.strains.sans_atout is false)"),
    ("federation", lambda: dict(GOOD["melds"], strain="SA"), "case.strain", "this rule set has no sans atout contract"),
]


@pytest.mark.parametrize("vid,make,path,words", RULES_BAD, ids=[f"{i}-{b[2]}" for i, b in enumerate(RULES_BAD)])
def test_a_case_the_rule_set_cannot_answer_is_refused(vid, make, path, words):
    rule_set = rules(vid) if isinstance(vid, str) else vid()
    with pytest.raises(CaseError) as info:
        run_case(rule_set, make())
    text = str(info.value)
    assert text.startswith(path + ": "), text
    assert words in text, text
    assert "\n" not in text


def test_what_the_rule_set_has_is_accepted():
    # cafe-1000: surcoinche x3 is one of its multipliers; 160 is its highest bid
    result = run_case(rules("cafe-1000"), score_case(multiplier=3, value=160))
    assert set(result) == {"made", "card_points", "score"}
    # cafe-sans-tout-atout: tout atout trick points add up to 248 (4 x 62), sans atout to 152 (4 x 38)
    assert "made" in run_case(rules("cafe-sans-tout-atout"), score_case(strain="TA", trick_points={"NS": 175, "EW": 73}))
    assert "made" in run_case(rules("cafe-sans-tout-atout"), score_case(strain="SA"))
    assert "legal" in run_case(rules("cafe-sans-tout-atout"), dict(GOOD["legal_cards"], strain="TA"))
    # federation: a capot bid may be coinched; NS took every trick, so all 152 points are theirs
    assert "made" in run_case(rules("federation"), score_case(value="capot", multiplier=2, tricks_won={"NS": 8, "EW": 0},
                                                              trick_points={"NS": 152, "EW": 0}))
    # a side may take tricks worth nothing (sevens and eights): 1 trick, 0 points is a real deal
    assert "made" in run_case(rules("federation"), score_case(tricks_won={"NS": 7, "EW": 1},
                                                              trick_points={"NS": 152, "EW": 0}))


def test_a_bid_the_rule_set_has_not_is_an_illegal_call_not_bad_input():
    # federation has no sans atout (rules-model §2): W, first to speak after dealer N (anticlockwise),
    # bids 100SA; the call is refused, so nothing is accepted and W is still to act.
    case = {"kind": "auction", "dealer": "N", "calls": [{"seat": "W", "call": "100SA"}]}
    result = run_case(rules("federation"), case)
    assert (result["accepted"], result["state"], result["to_act"], result["contract"]) == (0, "open", "W", None)
