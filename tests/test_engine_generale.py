"""The générale (RULES-SPACE A6): one player alone promises every trick.

No shipped rule set allows it, so every rule set here is a shipped one with
``auction.generale.allowed`` turned on (tests/support.py). What is expected
comes from docs/rules-model.md §2 and §6:
- ``generale<strain>`` beats every number and every capot; nothing beats it;
- it follows the capot's ``ends_auction`` and ``may_be_coinched``;
- it is made only when the declarer alone took all eight tricks;
- the ``bid`` term counts ``auction.generale.value``; a made générale uses
  ``scoring.capot_made`` when that is not null; card points as for any sweep.
Every number is worked out by hand in the comment beside it.

Seat order: anticlockwise (federation, cafe-sans-tout-atout) N -> W -> S -> E;
clockwise (cafe-1000, cafe-701) N -> E -> S -> W. Partners N-S and E-W.
"""

from __future__ import annotations

import copy

import pytest

from coinche_spec.docsgen.page import render_page
from coinche_spec.engine.auction import Auction, replay
from coinche_spec.engine.game import Deal, run_deal_case
from coinche_spec.engine.scoring import ScoreInputError, score_deal
from coinche_spec.notation import Call, Contract, NotationError, parse_call, parse_card, parse_contract
from coinche_spec.protocol.cases import CaseError, canonicalise, run_case
from coinche_spec.protocol.server import Session
from coinche_spec.variants import load_variant
from support import changed_rules

ON = {"auction.generale.allowed": True}
GFED = changed_rules("federation", ON)                                   # générale worth 500
G1000 = changed_rules("cafe-1000", ON)                                   # capot ends the auction, no coinche
G701 = changed_rules("cafe-701", {**ON, "auction.generale.value": 1000})  # capot_made: 500 x M
GSTA = changed_rules("cafe-sans-tout-atout", ON)                         # higher_value_or_strain
FED = load_variant("federation").rules

NONE = {"NS": 0, "EW": 0}


def calls(text: str) -> list:
    """'W:80H S:pass' -> [("W", Call 80H), ("S", Call pass)]."""
    return [(item.split(":")[0], parse_call(item.split(":")[1])) for item in text.split()]


# --- notation -------------------------------------------------------------------------

@pytest.mark.parametrize("text, strain", [
    ("generaleH", "H"), ("générale ♠", "S"), ("GENERALE ta", "TA"), ("Générale sa", "SA"),
    ("generale d", "D"), ("GÉNÉRALE C", "C"),
])
def test_generale_calls_lenient_in_canonical_out(text, strain):
    call = parse_call(text)
    assert call == Call("bid", "generale", strain) and call.is_generale and not call.is_capot
    assert str(call) == "generale" + strain


@pytest.mark.parametrize("bad, words", [
    ("generale", "bad call 'generale': a générale bid names its strain, such as 'generaleH'"),
    ("générale X", "bad call 'générale X': 'X' is not a strain (S, H, D, C, TA, SA)"),
])
def test_bad_generale_calls(bad, words):
    with pytest.raises(NotationError) as exc:
        parse_call(bad)
    assert str(exc.value) == words


def test_generale_contracts():
    c = parse_contract({"value": "Générale", "strain": "s", "declarer": "w", "multiplier": 2})
    assert c == Contract("generale", "S", "W", 2) and c.is_generale and not c.is_capot
    assert c.to_json() == {"value": "generale", "strain": "S", "declarer": "W", "multiplier": 2}
    assert not Contract("capot", "S", "W").is_generale


# --- the auction (§2) ---------------------------------------------------------------------

def test_a_generale_bid_over_a_capot():
    # dealer N, anticlockwise: W 80H, S capotH (beats every number), E générale (beats the capot),
    # then three passes (passes_to_end 3) settle it: E's générale in spades, not doubled
    n, a, why = replay(GFED, "N", calls("W:80H S:capotH E:generaleS N:pass W:pass S:pass"))
    assert (n, why, a.state) == (6, None, "contract")
    assert a.contract == Contract("generale", "S", "E", 1)


def test_nothing_beats_a_generale():
    # W opens with a générale; S, to act, may not bid a capot, a number, nor a générale in another
    # strain: only pass, or coinche (S is an opponent of W and federation coinches in turn)
    after = Auction.start(GFED, "N").apply("W", parse_call("generaleH"))
    for text in ("capotS", "160S", "generaleS"):
        assert after.check("S", parse_call(text)) == (
            f"bid {text} does not beat the generaleH bid: nothing outranks a générale")
    assert {(s, str(c)) for s, c in after.legal_calls()} == {("S", "pass"), ("S", "coinche")}
    n, a, why = replay(GFED, "N", calls("W:generaleH S:capotS"))
    assert (n, a.state, a.to_act) == (1, "open", "S") and "nothing outranks a générale" in why


def test_a_generale_in_a_higher_strain_does_not_beat_one():
    # cafe-sans-tout-atout overcalls by strain at equal value (C < D < H < S < TA < SA), but not
    # a générale: dealer N, W générale hearts, S générale sans atout is refused
    n, _, why = replay(GSTA, "N", calls("W:generaleH S:generaleSA"))
    assert n == 1 and "nothing outranks a générale" in why
    # a numeric bid of the same value in a higher strain still overcalls there
    assert replay(GSTA, "N", calls("W:100H S:100SA"))[0] == 2


def test_only_a_generale_beats_a_capot():
    n, _, why = replay(GFED, "N", calls("W:capotH S:capotS"))
    assert n == 1 and why == "bid capotS does not beat the capotH bid: only a générale outranks a capot bid"
    assert replay(GFED, "N", calls("W:capotH S:generaleC"))[0] == 2


def test_a_coinched_generale():
    # federation lets a capot be coinched, so a générale too. W générale, S coinches in turn; the bids
    # freeze and E (after S) speaks: a surcoinche ends the auction at once, x4
    n, a, _ = replay(GFED, "N", calls("W:generaleH S:coinche E:surcoinche"))
    assert (n, a.state, a.contract) == (3, "contract", Contract("generale", "H", "W", 4))
    # or three passes after the coinche (passes_after 3): x2
    n, a, _ = replay(GFED, "N", calls("W:generaleH S:coinche E:pass N:pass W:pass"))
    assert (n, a.state, a.contract) == (5, "contract", Contract("generale", "H", "W", 2))


def test_generale_follows_the_capot_settings():
    # cafe-1000: "Bidding ends when all players in a row pass, coinché or surcoinché is called, or a
    # capot is called", and a capot may not be coinched. Dealer N, clockwise: E 80H, S générale clubs
    # ends the auction at once; nobody may coinche it afterwards
    n, a, why = replay(G1000, "N", calls("E:80H S:generaleC W:coinche"))
    assert (n, a.state, a.contract) == (2, "contract", Contract("generale", "C", "S", 1))
    assert why.startswith("W cannot call coinche: the auction is over")
    # federation with capot.may_be_coinched false: the générale may not be coinched in turn either
    nocoinche = changed_rules("federation", {**ON, "auction.capot.may_be_coinched": False})
    n, _, why = replay(nocoinche, "N", calls("W:generaleH S:coinche"))
    assert n == 1 and why == ("S cannot coinche: a générale may not be coinched in this variant "
                              "(it follows the capot, and auction.capot.may_be_coinched is false)")


def test_generale_without_capot():
    # a générale may be allowed where capot is not: it beats the highest number; capot stays refused
    nocapot = changed_rules("cafe-1000", {**ON, "auction.capot.allowed": False})
    n, a, why = replay(nocapot, "N", calls("E:160H S:capotH"))
    assert n == 1 and why == "bid capotH: capot may not be bid in this variant"
    n, a, _ = replay(nocapot, "N", calls("E:160H S:generaleH"))
    assert (n, a.contract) == (2, Contract("generale", "H", "S", 1))   # capot.ends_auction still applies
    assert Auction.start(nocapot, "N").check("E", parse_call("170H")) == (
        "bid 170H: the highest bid is 160 (générale outranks it)")


def test_generale_refused_where_not_allowed():
    assert Auction.start(FED, "N").check("W", parse_call("generaleH")) == (
        "bid generaleH: the générale may not be bid in this variant")


# --- the score (§6) ---------------------------------------------------------------------------

ALONE_N = {"N": 8, "E": 0, "S": 0, "W": 0}
PARTNER_ONE = {"N": 7, "E": 0, "S": 1, "W": 0}       # NS swept, but S took a trick
DEFENDER_ONE = {"N": 7, "E": 1, "S": 0, "W": 0}


def gen(rules, mult, by_seat, melds=None, belote=None, explain=True):
    """N's générale in hearts, NS taking every trick (152 in cards) unless E took one (10 in cards)."""
    if by_seat["E"]:
        tp, won = {"NS": 142, "EW": 10}, {"NS": 7, "EW": 1}
    else:
        tp, won = {"NS": 152, "EW": 0}, {"NS": 8, "EW": 0}
    return score_deal(rules, Contract("generale", "H", "N", mult), tp, won, "NS", melds or dict(NONE),
                      belote or dict(NONE), explain=explain, tricks_by_seat=by_seat)


def test_generale_made_by_the_declarer_alone():
    r = gen(GFED, 1, ALONE_N)
    assert r.made is True
    assert r.card_points == {"NS": 252, "EW": 0}          # 152 + 100: the last trick of a sweep
    assert r.score == {"NS": 750, "EW": 0}                # 252 + 500 = 752, rounded to 750
    assert "the générale is made: N alone took all eight tricks" in r.lines
    # with a tierce of 20 for NS and NS's belote: 252 + 20 + 500 = 772, + belote 20 = 792 -> 790
    r = gen(GFED, 1, ALONE_N, melds={"NS": 20, "EW": 0}, belote={"NS": 20, "EW": 0})
    assert (r.made, r.score) == (True, {"NS": 790, "EW": 0})
    # the same numbers come without the words, and the words when first read
    quiet = gen(GFED, 1, ALONE_N, explain=False)
    assert quiet.score == {"NS": 750, "EW": 0} and quiet.lines == gen(GFED, 1, ALONE_N).lines


def test_generale_failed_when_the_partner_took_a_trick():
    # NS took all eight tricks, but S took one: the générale fails although the side swept
    r = gen(GFED, 1, PARTNER_ONE)
    assert r.made is False
    assert r.card_points == {"NS": 252, "EW": 0}          # still a sweep for the card count: 152 + 100
    assert r.score == {"NS": 0, "EW": 660}                # defenders: 160 + 500 (the générale's value)
    assert ("the générale fails: NS took every trick, but S, the partner, took 1 of them; "
            "N had to take all eight alone") in r.lines


def test_generale_failed_when_a_defender_took_a_trick():
    r = gen(GFED, 1, DEFENDER_ONE)
    assert r.made is False
    assert r.card_points == {"NS": 152, "EW": 10}         # 142 + 10 for the last trick; EW 10
    assert r.score == {"NS": 0, "EW": 660}                # 160 + 500
    assert "the générale fails: N took 7 of the eight tricks" in r.lines


def test_a_coinched_generale_scored():
    # federation, coinched success: "the bidders receive 160, or 250 for a sweep, plus both sides'
    # ordinary melds, their own belote and the bid, multiplied by 2 or 4"
    assert gen(GFED, 2, ALONE_N).score == {"NS": 1500, "EW": 0}      # (250 + 500) x 2
    assert gen(GFED, 4, ALONE_N).score == {"NS": 3000, "EW": 0}      # (250 + 500) x 4
    # doubled failure: "multiply the defenders' failure award by 2 or 4"
    assert gen(GFED, 2, PARTNER_ONE).score == {"NS": 0, "EW": 1320}  # (160 + 500) x 2


def test_a_made_generale_uses_capot_made():
    # cafe-701 scores a made capot bid apart: "Capot: 500 points (x the multiplier)"; a made générale
    # takes that award, so its own value (1000 here) does not count
    r = gen(G701, 1, ALONE_N)
    assert (r.made, r.outcome, r.score) == (True, "capot_made", {"NS": 500, "EW": 0})   # 500 x 1
    assert gen(G701, 2, ALONE_N).score == {"NS": 1000, "EW": 0}                        # 500 x 2
    # failed, the bid counts the générale's value: (162 + 1000) x 1; the cards make 162 (no sweep value)
    r = gen(G701, 1, PARTNER_ONE)
    assert (r.made, r.card_points, r.score) == (False, {"NS": 162, "EW": 0}, {"NS": 0, "EW": 1162})


def test_a_generale_needs_the_tricks_of_each_player():
    tp, won = {"NS": 152, "EW": 0}, {"NS": 8, "EW": 0}
    with pytest.raises(ScoreInputError, match="tricks_won_by_seat: a générale is made only when"):
        score_deal(GFED, Contract("generale", "H", "N"), tp, won, "NS", None, None)
    with pytest.raises(ScoreInputError) as exc:
        score_deal(GFED, Contract("generale", "H", "N"), tp, won, "NS", None, None,
                   tricks_by_seat={"N": 5, "E": 0, "S": 2, "W": 0})
    assert str(exc.value) == "bad tricks_won_by_seat: N 5 + S 2 = 7, but tricks_won gives NS 8"
    with pytest.raises(ScoreInputError, match="missing W"):
        score_deal(GFED, Contract("generale", "H", "N"), tp, won, "NS", None, None,
                   tricks_by_seat={"N": 8, "E": 0, "S": 0})
    # any other contract does not need it, and is scored the same with it:
    # a capot bid made by NS with S taking a trick is still made: 252 + 250 = 502 -> 500
    cap = score_deal(GFED, Contract("capot", "H", "N"), tp, won, "NS", None, None, tricks_by_seat=PARTNER_ONE)
    assert (cap.made, cap.score) == (True, {"NS": 500, "EW": 0})


# --- whole deals (§8) ----------------------------------------------------------------------------

def hands_of(text: dict) -> dict:
    return {seat: [parse_card(c) for c in cards.split()] for seat, cards in text.items()}


# W holds every trump; the others one plain suit each
SWEEP_HANDS = {"W": "7S 8S 9S TS JS QS KS AS", "S": "7H 8H 9H TH JH QH KH AH",
               "E": "7D 8D 9D TD JD QD KD AD", "N": "7C 8C 9C TC JC QC KC AC"}
# W leads trumps seven times, then the 7 of hearts, which his partner E takes with the ace
PARTNER_HANDS = {"W": "8S 9S TS JS QS KS AS 7H", "E": "7S AH 7D 8D 9D TD JD QD",
                 "S": "8H 9H TH JH QH KH KD AD", "N": "7C 8C 9C TC JC QC KC AC"}
PARTNER_TRICKS = [  # in play order from W (anticlockwise: W, S, E, N)
    "JS 8H 7S 7C", "9S 9H 7D 8C", "AS TH 8D 9C", "TS JH 9D TC",
    "KS QH TD JC", "QS KD JD QC", "8S AD QD KC", "7H KH AH AC",
]


def sweep_plays() -> list:
    order = ("W", "S", "E", "N")
    cards = {s: SWEEP_HANDS[s].split() for s in order}
    # trick i: W's i-th trump, then each other player's i-th card (void in trumps, anything goes)
    return [{"seat": s, "card": parse_card(cards[s][i])} for i in range(8) for s in order]


def partner_plays() -> list:
    return [{"seat": s, "card": parse_card(c)} for trick in PARTNER_TRICKS
            for s, c in zip(("W", "S", "E", "N"), trick.split())]


def test_a_deal_with_a_generale_made():
    # dealer N: W (first to speak, and first to lead: next to the dealer) bids générale spades
    result = run_deal_case(GFED, "N", hands_of(SWEEP_HANDS), calls("W:generaleS S:pass E:pass N:pass"),
                           sweep_plays())
    assert result["accepted"] == {"calls": 4, "plays": 32}
    assert result["contract"] == {"value": "generale", "strain": "S", "declarer": "W", "multiplier": 1}
    assert all(t["winner"] == "W" for t in result["tricks"])
    assert result["tricks_won"] == {"NS": 0, "EW": 8}
    assert result["card_points"] == {"NS": 0, "EW": 252}   # trumps 62 + three plain suits 30 each = 152; + 100
    assert result["made"] is True
    assert result["score"] == {"NS": 0, "EW": 750}          # 252 + 500 = 752 -> 750
    assert result["belote"] is None                          # W held K and Q of spades but said nothing


def test_a_deal_with_a_coinched_generale():
    # S coinches in turn; E, N, W pass (passes_after 3): x2; then the same eight tricks to W
    result = run_deal_case(GFED, "N", hands_of(SWEEP_HANDS),
                           calls("W:generaleS S:coinche E:pass N:pass W:pass"), sweep_plays())
    assert result["contract"]["multiplier"] == 2
    assert result["score"] == {"NS": 0, "EW": 1500}          # (250 for a sweep + 500) x 2


def test_a_deal_whose_generale_fails_to_the_partner():
    deal = Deal.start(GFED, "N", hands_of(PARTNER_HANDS))
    for seat, call in calls("W:generaleS S:pass E:pass N:pass"):
        deal = deal.apply_call(seat, call)
    for p in partner_plays():
        deal = deal.apply_card(p["seat"], p["card"])
    assert deal.phase == "done"
    assert deal.tricks()[-1][:2] == ("W", "E")               # E's ace of hearts takes the last trick
    assert deal.tricks_by_seat() == {"N": 0, "E": 1, "S": 0, "W": 7}
    result = deal.result()
    assert result["tricks_won"] == {"NS": 0, "EW": 8}
    assert result["card_points"] == {"NS": 0, "EW": 252}     # EW swept: 152 + 100
    assert result["made"] is False                           # but W did not take them all alone
    assert result["score"] == {"NS": 660, "EW": 0}           # defenders: 160 + 500
    assert any("E, the partner, took 1" in line for line in deal.outcome().lines)


# --- the protocol -------------------------------------------------------------------------------

def score_case(value="generale", mult=1, by_seat=None, declarer="N", won=(8, 0), tp=(152, 0)):
    case = {"kind": "score", "contract": {"value": value, "strain": "H", "declarer": declarer,
                                          "multiplier": mult},
            "trick_points": {"NS": tp[0], "EW": tp[1]}, "tricks_won": {"NS": won[0], "EW": won[1]},
            "last_trick": "NS", "melds": dict(NONE), "belote": None}
    if by_seat is not None:
        case["tricks_won_by_seat"] = by_seat
    return case


def test_score_cases_of_a_generale():
    made = run_case(GFED, score_case(by_seat=ALONE_N))
    assert made == {"made": True, "card_points": {"NS": 252, "EW": 0}, "score": {"NS": 750, "EW": 0}}  # 252+500
    failed = run_case(GFED, score_case(by_seat=PARTNER_ONE))
    assert failed == {"made": False, "card_points": {"NS": 252, "EW": 0}, "score": {"NS": 0, "EW": 660}}  # 160+500


def test_tricks_won_by_seat_is_canonicalised():
    case = canonicalise(score_case(by_seat={"w": 0, "s": 1, "e": 0, "n": 7}))
    assert list(case["tricks_won_by_seat"].items()) == [("N", 7), ("E", 0), ("S", 1), ("W", 0)]
    assert case["contract"]["value"] == "generale"


@pytest.mark.parametrize("rules, case, where, words", [
    (GFED, score_case(), "case", "missing field 'tricks_won_by_seat': a générale is made only when the declarer"),
    (GFED, score_case(by_seat={"N": 5, "E": 0, "S": 2, "W": 0}), "case.tricks_won_by_seat",
     "N 5 + S 2 = 7 tricks, but tricks_won gives NS 8"),
    (GFED, score_case(by_seat={"N": 9, "E": 0, "S": 0, "W": 0}), "case.tricks_won_by_seat.N",
     "9 is above the largest allowed value 8"),
    (GFED, score_case(by_seat={"N": 8, "E": 0, "S": 0, "X": 0}), "case.tricks_won_by_seat.X", "bad seat 'X'"),
    (GFED, score_case(by_seat={"N": 8, "E": 0, "S": 0}), "case.tricks_won_by_seat", "missing seat 'W'"),
    # checked for any contract when given: a 90 made by NS in 8 tricks, N 6 + S 1 = 7
    (GFED, score_case(90, by_seat={"N": 6, "E": 0, "S": 1, "W": 0}), "case.tricks_won_by_seat",
     "N 6 + S 1 = 7 tricks, but tricks_won gives NS 8"),
    (FED, score_case(by_seat=ALONE_N), "case.contract.value",
     "this rule set has no générale (auction.generale.allowed is false)"),
    (G1000, score_case(mult=2, by_seat=ALONE_N, tp=(152, 0)), "case.contract.multiplier",
     "2: a générale may not be coinched in this rule set"),
])
def test_score_case_errors(rules, case, where, words):
    with pytest.raises(CaseError) as exc:
        run_case(rules, case)
    assert str(exc.value).startswith(where + ": ") and words in str(exc.value)


def test_a_score_case_of_another_contract_ignores_the_tricks_of_each_player():
    # 90H by N, NS 79 + 10 = 89 in 4 tricks: fails, 160 + 90 = 250 for EW, with or without the field
    plain = score_case(90, won=(4, 4), tp=(79, 73))
    assert run_case(GFED, plain)["score"] == {"NS": 0, "EW": 250}
    with_seats = dict(plain, tricks_won_by_seat={"N": 2, "E": 2, "S": 2, "W": 2})
    assert run_case(GFED, with_seats)["score"] == {"NS": 0, "EW": 250}


def test_auction_and_deal_cases_of_a_generale():
    case = {"kind": "auction", "dealer": "N",
            "calls": [{"seat": "W", "call": "80H"}, {"seat": "S", "call": "capot h"},
                      {"seat": "E", "call": "Générale ♠"}, {"seat": "N", "call": "pass"},
                      {"seat": "W", "call": "pass"}, {"seat": "S", "call": "pass"}]}
    assert canonicalise(case)["calls"][2]["call"] == "generaleS"
    result = run_case(GFED, case)
    assert (result["accepted"], result["state"]) == (6, "contract")
    assert result["contract"] == {"value": "generale", "strain": "S", "declarer": "E", "multiplier": 1}
    deal = {"kind": "deal", "dealer": "N", "hands": {s: h.split() for s, h in PARTNER_HANDS.items()},
            "calls": [{"seat": s, "call": c} for s, c in
                      (("W", "generale S"), ("S", "pass"), ("E", "pass"), ("N", "pass"))],
            "play": [{"seat": s, "card": c} for trick in PARTNER_TRICKS
                     for s, c in zip(("W", "S", "E", "N"), trick.split())]}
    result = run_case(GFED, deal)
    assert (result["made"], result["score"]) == (False, {"NS": 660, "EW": 0})   # 160 + 500


def test_configure_accepts_a_generale_rule_set():
    doc = copy.deepcopy(load_variant("federation").document)
    doc["id"] = "house-generale"
    doc["rules"]["auction"]["generale"]["allowed"] = True
    session = Session()
    reply, _ = session.handle({"cmd": "configure", "variant": doc})
    assert reply == {"ok": True}
    reply, _ = session.handle({"cmd": "run", "seq": 1, "case": score_case(by_seat=ALONE_N)})
    assert reply["result"]["score"] == {"NS": 750, "EW": 0}            # 252 + 500 = 752 -> 750


# --- the rules page ------------------------------------------------------------------------------

def rule_text(page: str, title: str) -> str:
    start = page.index(f"- **{title}**")
    return page[start:page.index("\n", start)]


def test_rules_page_of_a_generale_rule_set():
    doc = copy.deepcopy(load_variant("cafe-1000").document)
    doc["id"] = "house-generale"
    doc["rules"]["auction"]["generale"]["allowed"] = True
    page = render_page(load_variant(doc))
    text = rule_text(page, "Générale")
    assert "he alone takes all eight tricks" in text and "Unused" not in text
    assert "As a capot would, it ends the auction at once and may not be coinched." in text
    assert "does not play" not in page
    assert rule_text(page, "Value of a générale").endswith(
        "Wherever the scoring adds the bid, a générale counts 500.")
    assert "A capot bid ends the auction at once. So does a générale." in rule_text(
        page, "Capot and the end of the auction")
    # a shipped rule set keeps saying there is none
    shipped = render_page(load_variant("cafe-1000"))
    assert "There is no générale" in rule_text(shipped, "Générale")
    assert "Unused here: the générale is not played" in rule_text(shipped, "Value of a générale")


def test_random_deals_where_the_generale_may_be_bid_play_to_the_end():
    # the random bidder must cope with a second non-numeric bid (it once compared "generale" > 170)
    import random

    from coinche_spec.engine.random_play import random_deal
    from coinche_spec.variants import shipped_ids
    from support import changed_rules

    for base in shipped_ids():
        rules = changed_rules(base, {"auction.generale.allowed": True})
        rng = random.Random(11)
        for _ in range(300):
            deal = random_deal(rules, rng)
            assert deal.phase in ("done", "redeal")
            if deal.phase == "done":
                assert sum(deal.outcome().tricks_won.values()) == 8
