"""Whole deals through engine.game (Deal, run_deal_case), the `deal` command and docs/engine.md.

Every expected trick, point and score below is worked out by hand from the
seed text and docs/rules-model.md, with the arithmetic in the comments.
Seat order, for reading the scenarios: anticlockwise (federation,
cafe-sans-tout-atout) N -> W -> S -> E; clockwise (contree-701, cafe-701,
cafe-1000) N -> E -> S -> W. Card values (seed 000 §02): trump J 20, 9 14,
A 11, T 10, K 4, Q 3, 8 and 7 nothing; plain A 11, T 10, K 4, Q 3, J 2.
"""

from __future__ import annotations

import copy
import io
import random
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from coinche_spec.engine import Deal, random_deal, run_deal_case
from coinche_spec.engine.errors import BadInput, IllegalCall, IllegalPlay
from coinche_spec.notation import Call, parse_call, parse_card
from coinche_spec.variants import load_variant

ROOT = Path(__file__).resolve().parent.parent


def rules(variant_id: str, **changes):
    """A shipped variant's rules, some of them changed (``play__first_leader="taker"``)."""
    if not changes:
        return load_variant(variant_id).rules
    doc = copy.deepcopy(load_variant(variant_id).document)
    doc["id"] = variant_id + "-test"
    for path, value in changes.items():
        node = doc["rules"]
        *parents, leaf = path.split("__")
        for key in parents:
            node = node[key]
        assert leaf in node, path
        node[leaf] = value
    return load_variant(doc).rules


def hands_of(spec: dict) -> dict:
    return {seat: [parse_card(c) for c in text.split()] for seat, text in spec.items()}


def calls_of(text: str) -> list:
    """'N:80H W:pass' -> [(N, Call), (W, Call)]."""
    out = []
    for item in text.split():
        seat, call = item.split(":")
        out.append((seat, parse_call(call)))
    return out


def plays_of(text: str, melds: dict | None = None, say: dict | None = None) -> list:
    """'N:AS W:7S ...' -> play entries; melds/say are keyed by (seat, card text)."""
    out = []
    for item in text.split():
        seat, card = item.split(":")
        entry = {"seat": seat, "card": parse_card(card), "melds": None, "say": None}
        if melds and (seat, card) in melds:
            entry["melds"] = [[parse_card(c) for c in m.split()] for m in melds[(seat, card)]]
        if say and (seat, card) in say:
            entry["say"] = say[(seat, card)]
        out.append(entry)
    return out


def tricks_of(text: str) -> list:
    """'N>N:AS 7S 9S QS | ...' (leader > winner: cards) -> protocol tricks."""
    out = []
    for part in text.split("|"):
        head, cards = part.split(":")
        leader, winner = head.strip().split(">")
        out.append({"leader": leader, "winner": winner, "cards": cards.split()})
    return out


# ---------------------------------------------------------------------------
# LATIN: every player holds two cards of each suit.
#   trump hearts: E holds J 9, W A T, N K Q (the belote), S 8 7
#   spades: N A T;  diamonds: S A T;  clubs: E A T
LATIN = hands_of({
    "N": "AS TS KH QH JD 9D 8C 7C",
    "E": "KS QS JH 9H 8D 7D AC TC",
    "S": "JS 9S 8H 7H AD TD KC QC",
    "W": "8S 7S AH TH KD QD JC 9C",
})
# Dealer E; anticlockwise the seat after E is N: N speaks first and leads.
LATIN_PLAY = ("N:AS W:7S S:9S E:QS "      # N leads: A wins spades               11+0+0+3  = 14 NS
              "N:TS W:8S S:JS E:KS "      # N: T beats K and J                   10+0+2+4  = 16 NS
              "N:9D W:QD S:AD E:7D "      # S: the A of diamonds                 0+3+11+0  = 14 NS
              "S:TD E:8D N:JD W:KD "      # S: T beats K, J                      10+0+2+4  = 16 NS
              "S:KC E:AC N:7C W:9C "      # E: A of clubs                        4+11+0+0  = 15 EW
              "E:TC N:8C W:JC S:QC "      # E: T of clubs                        10+0+2+3  = 15 EW
              "E:9H N:QH W:TH S:7H "      # E: trump 9; nobody can overtrump it  14+3+10+0 = 27 EW
              "E:JH N:KH W:AH S:8H")      # E: trump J                           20+4+11+0 = 35 EW
# NS 14 + 16 + 14 + 16 = 60; EW 15 + 15 + 27 + 35 = 92; 60 + 92 = 152. Last trick EW.
LATIN_TRICKS = tricks_of("N>N: AS 7S 9S QS | N>N: TS 8S JS KS | N>S: 9D QD AD 7D | S>S: TD 8D JD KD"
                         "| S>E: KC AC 7C 9C | E>E: TC 8C JC QC | E>E: 9H QH TH 7H | E>E: JH KH AH 8H")
LATIN_SAY = {("N", "QH"): "belote", ("N", "KH"): "rebelote"}


def test_federation_latin_deal_fails_by_equality_of_promise_not_of_points():
    # seed 000: N bids 80 hearts, three passes settle it.
    result = run_deal_case(rules("federation"), "E", LATIN, calls_of("N:80H W:pass S:pass E:pass"),
                           plays_of(LATIN_PLAY, say=LATIN_SAY))
    assert result["accepted"] == {"calls": 4, "plays": 32}
    assert result["contract"] == {"value": 80, "strain": "H", "declarer": "N", "multiplier": 1}
    assert result["tricks"] == LATIN_TRICKS
    assert result["tricks_won"] == {"NS": 4, "EW": 4}
    # card points: NS 60; EW 92 + 10 for the last trick = 102
    assert result["card_points"] == {"NS": 60, "EW": 102}
    assert result["melds"] == {"NS": 0, "EW": 0}
    # N held K and Q of hearts and said belote, rebelote: 20 to NS
    assert result["belote"] == "NS"
    # takers 60 + belote 20 = 80 reach the bid, but must "strictly exceed the defenders' total" (102): failed
    assert result["made"] is False
    # failure: "bidders retain only belote" -> NS 20; defenders 160 + 80 = 240
    assert result["score"] == {"NS": 20, "EW": 240}
    assert "legal_next" not in result


def test_federation_belote_not_said_does_not_count():
    # Same deal, N plays K and Q of hearts in silence: seed 000 "claims belote ... by saying".
    result = run_deal_case(rules("federation"), "E", LATIN, calls_of("N:80H W:pass S:pass E:pass"),
                           plays_of(LATIN_PLAY))
    assert result["belote"] is None
    # takers 60 < 80: failed; NS 0, EW 160 + 80 = 240
    assert result["made"] is False
    assert result["score"] == {"NS": 0, "EW": 240}


def test_federation_surcoinched_success_multiplies_the_whole_award():
    # N passes, W bids 80H, S coinches in turn, E surcoinches: "ends it immediately and makes the multiplier 4".
    result = run_deal_case(rules("federation"), "E", LATIN,
                           calls_of("N:pass W:80H S:coinche E:surcoinche"), plays_of(LATIN_PLAY, say=LATIN_SAY))
    assert result["accepted"] == {"calls": 4, "plays": 32}
    assert result["contract"] == {"value": 80, "strain": "H", "declarer": "W", "multiplier": 4}
    # the leader is still next to the dealer (N), so the tricks are the same
    assert result["tricks"] == LATIN_TRICKS
    # takers EW 102 >= 80 and > defenders' 60 + belote 20 = 80: made
    assert result["made"] is True
    # "the bidders receive 160 ... plus both sides' ordinary melds ... and the bid, multiplied by 2 or 4":
    # (160 + 0 + 80) x 4 = 960; "Defenders retain only their belote": 20
    assert result["score"] == {"NS": 20, "EW": 960}


# RANKS: each player holds the same two ranks in every suit.
RANKS = hands_of({
    "N": "AS TS AH TH AD TD AC TC",
    "E": "KS QS KH QH KD QD KC QC",
    "S": "JS 9S JH 9H JD 9D JC 9C",
    "W": "8S 7S 8H 7H 8D 7D 8C 7C",
})


def test_federation_melds_sweep_and_rounding():
    # Dealer N; anticlockwise W speaks first and leads. S bids 80 hearts.
    plays = plays_of(
        "W:7S S:9S E:QS N:TS "   # N (T)                       0+0+3+10  = 13
        "N:AS W:8S S:JS E:KS "   # N                           11+0+2+4  = 17
        "N:AD W:7D S:9D E:QD "   # N                           11+0+0+3  = 14
        "N:TD W:8D S:JD E:KD "   # N                           10+0+2+4  = 16
        "N:AC W:7C S:9C E:QC "   # N                           11+0+0+3  = 14
        "N:TC W:8C S:JC E:KC "   # N                           10+0+2+4  = 16
        "N:TH W:7H S:9H E:QH "   # S: trump 9 over the T       10+0+14+3 = 27
        "S:JH E:KH N:AH W:8H",   # S: trump J                  20+4+11+0 = 35
        melds={("S", "9S"): ["JS JH JD JC"], ("E", "QS"): ["KS KH KD KC"],
               ("W", "7S"): ["8S 8H 8D 8C"],      # eights: "sevens and eights do not score"
               ("N", "AS"): ["AS AH AD AC"]},     # N's second card: too late to declare
        say={("E", "QH"): "belote", ("E", "KH"): "rebelote"})
    result = run_deal_case(rules("federation"), "N", RANKS, calls_of("W:pass S:80H E:pass N:pass W:pass"), plays)
    assert result["accepted"] == {"calls": 5, "plays": 32}
    assert [t["winner"] for t in result["tricks"]] == ["N"] * 6 + ["S"] * 2
    # NS 13+17+14+16+14+16+27+35 = 152, every trick: "252 for capot"
    assert result["tricks_won"] == {"NS": 8, "EW": 0}
    assert result["card_points"] == {"NS": 252, "EW": 0}
    # four jacks (200) beat four kings (100): NS scores its 200, EW nothing; N's late aces never count
    assert result["melds"] == {"NS": 200, "EW": 0}
    assert sorted(result["invalid_melds"]) == [["8S", "8H", "8D", "8C"], ["AS", "AH", "AD", "AC"]]
    assert result["belote"] == "EW"
    # takers 252 + 200 = 452 >= 80 and > EW 20: made; 252 + 200 + 80 = 532, rounded to 530
    # defenders: 0 + their belote 20 = 20
    assert result["made"] is True
    assert result["score"] == {"NS": 530, "EW": 20}


def test_contree_coinched_failure_multiplies_only_the_bid():
    # contree-701, clockwise; dealer N so E speaks first and leads. E bids 80 spades, N coinches in turn,
    # then three passes (seed 001: "After a contre there are no more bids").
    plays = plays_of(
        "E:KS S:JS W:7S N:TS "   # S: trump J                  4+20+0+10  = 34
        "S:9S W:8S N:AS E:QS "   # S: trump 9                  14+0+11+3  = 28
        "S:JH W:7H N:AH E:KH "   # N: plain A                  2+0+11+4   = 17
        "N:TH E:QH S:9H W:8H "   # N                           10+3+0+0   = 13
        "N:AD E:KD S:JD W:7D "   # N                           11+4+2+0   = 17
        "N:TD E:QD S:9D W:8D "   # N                           10+3+0+0   = 13
        "N:AC E:KC S:JC W:7C "   # N                           17
        "N:TC E:QC S:9C W:8C")   # N                           13
    result = run_deal_case(rules("contree-701"), "N", RANKS,
                           calls_of("E:80S S:pass W:pass N:coinche E:pass S:pass W:pass"), plays)
    assert result["accepted"] == {"calls": 7, "plays": 32}
    assert result["contract"] == {"value": 80, "strain": "S", "declarer": "E", "multiplier": 2}
    # NS 34+28+17+13+17+13+17+13 = 152, all eight tricks: "they count 252"
    assert result["card_points"] == {"NS": 252, "EW": 0}
    # E held K and Q of spades: belote "counted automatically", 20 to EW
    assert result["belote"] == "EW"
    # takers 0 + 20 < 80: failed. "the opponents score 162 plus the bid"; "Contre multiplies only the value
    # of the bid, by 2": 162 + 80 x 2 = 322. "The bidders keep only their belote": 20
    assert result["made"] is False
    assert result["score"] == {"NS": 322, "EW": 20}


def test_cafe_sans_tout_atout_coinche_after_the_auction():
    # seed 002: "After 3 consecutive passes, the last bid becomes the contract; defenders may coinche"
    r = rules("cafe-sans-tout-atout")
    deal = Deal.start(r, "E", LATIN)
    for seat, call in calls_of("N:80H W:pass S:pass E:pass"):
        deal = deal.apply_call(seat, call)
    assert deal.phase == "play" and deal.to_act == "N" and deal.contract.multiplier == 1
    # either defender (W or E) may coinche now; nobody may pass or bid
    assert sorted(s for s, c in deal.legal_calls() if c.kind == "coinche") == ["E", "W"]
    assert deal.check_call("N", "pass") is not None
    deal = deal.apply_call("W", Call("coinche"))
    assert deal.contract.multiplier == 2
    full = deal
    for entry in plays_of(LATIN_PLAY, say=LATIN_SAY):
        full = full.apply_card(entry["seat"], entry["card"], entry["melds"], entry["say"])
    out = full.result()
    assert out["tricks"] == LATIN_TRICKS
    # no "strictly more" here (versus_defenders: ignore): NS 60 + belote 20 = 80 >= 80: made
    assert out["made"] is True
    # made, coinched: (bid 80) x 2 = 160, plus belote 20 "always" and never multiplied = 180; defenders 0
    assert out["score"] == {"NS": 180, "EW": 0}
    # once the first card is down, the window is closed
    after_one = deal.apply_card("N", parse_card("AS"))
    assert after_one.legal_calls() == []
    with pytest.raises(IllegalCall):
        after_one.apply_call("N", Call("surcoinche"))


# SUITS: each player holds a whole suit; the leader's suit is never followed, so the leader wins every trick.
SUITS = hands_of({
    "N": "AS KS QS JS TS 9S 8S 7S",
    "E": "AH KH QH JH TH 9H 8H 7H",
    "S": "AD KD QD JD TD 9D 8D 7D",
    "W": "AC KC QC JC TC 9C 8C 7C",
})


def suits_plays():
    # dealer W; anticlockwise the seat after W is S, who leads every trick: S, E, N, W.
    order = ["A", "K", "Q", "J", "T", "9", "8", "7"]
    text = " ".join(f"S:{r}D E:{r}H N:{r}S W:{r}C" for r in order)
    return plays_of(text, melds={("N", "AS"): ["AS KS QS JS TS 9S 8S 7S"],
                                 ("E", "AH"): ["AH KH QH JH TH 9H 8H 7H"]})


@pytest.mark.parametrize("strain,trick_total,card_total", [
    ("TA", 248, 258),   # tout atout: (20+14+11+10+4+3) = 62 per suit x 4 = 248, + 10 last trick = 258
    ("SA", 152, 162),   # sans atout: (19+10+4+3+2) = 38 per suit x 4 = 152, + 10 = 162
])
def test_cafe_tout_atout_and_sans_atout_sweep(strain, trick_total, card_total):
    r = rules("cafe-sans-tout-atout")
    result = run_deal_case(r, "W", SUITS, calls_of(f"S:80{strain} E:pass N:pass W:pass"), suits_plays())
    assert result["accepted"] == {"calls": 4, "plays": 32}
    assert all(t["leader"] == "S" and t["winner"] == "S" for t in result["tricks"])
    assert result["tricks_won"] == {"NS": 8, "EW": 0}
    # sweep.kind none: the last trick keeps its 10
    assert result["card_points"] == {"NS": card_total, "EW": 0}
    # two runs of eight, both counted as five to the ace, no trump run at TA/SA: "cancel"
    assert result["melds"] == {"NS": 0, "EW": 0}
    assert result["belote"] is None
    # made: bid 80 + sweep bonus 90 ("an extra 90 points on top of their contract") = 170
    assert result["made"] is True
    assert result["score"] == {"NS": 170, "EW": 0}


def test_tricks_total_in_tout_atout_through_the_deal_object():
    r = rules("cafe-sans-tout-atout")
    deal = Deal.start(r, "W", SUITS)
    for seat, call in calls_of("S:80TA E:pass N:pass W:pass"):
        deal = deal.apply_call(seat, call)
    for e in suits_plays():
        deal = deal.apply_card(e["seat"], e["card"], e["melds"])
    o = deal.outcome()
    assert o.trick_points == {"NS": 248, "EW": 0}   # 62 x 4
    assert o.meld_result.reason.startswith("the best melds are equal")
    assert any("sweep bonus 90" in line for line in o.lines)


# -- stopping early ----------------------------------------------------------

def test_an_illegal_card_stops_the_replay_and_reports_the_legal_cards():
    plays = plays_of("N:AS W:AH S:9S")      # W holds 8S 7S: he must follow spades
    result = run_deal_case(rules("federation"), "E", LATIN, calls_of("N:80H W:pass S:pass E:pass"), plays)
    assert result["accepted"] == {"calls": 4, "plays": 1}
    assert result["tricks"] == [] and result["tricks_won"] == {"NS": 0, "EW": 0}
    for key in ("card_points", "melds", "belote", "made", "score"):
        assert result[key] is None
    assert sorted(result["legal_next"]) == ["7S", "8S"]
    assert "follow suit" in result["reason"]


def test_play_cut_short_after_two_tricks():
    plays = plays_of(LATIN_PLAY)[:9]    # two tricks and N's 9D
    result = run_deal_case(rules("federation"), "E", LATIN, calls_of("N:80H W:pass S:pass E:pass"), plays)
    assert result["accepted"] == {"calls": 4, "plays": 9}
    assert result["tricks"] == LATIN_TRICKS[:2]
    assert result["tricks_won"] == {"NS": 2, "EW": 0}
    # W, following diamonds, holds KD QD
    assert sorted(result["legal_next"]) == ["KD", "QD"]
    assert result["score"] is None


def test_a_card_out_of_turn():
    result = run_deal_case(rules("federation"), "E", LATIN, calls_of("N:80H W:pass S:pass E:pass"),
                           plays_of("W:7S"))
    assert result["accepted"] == {"calls": 4, "plays": 0}
    assert "N's turn" in result["reason"]
    assert sorted(result["legal_next"]) == sorted(["AS", "TS", "KH", "QH", "JD", "9D", "8C", "7C"])


def test_four_passes_throw_the_cards_in():
    result = run_deal_case(rules("federation"), "E", LATIN, calls_of("N:pass W:pass S:pass E:pass"),
                           plays_of("N:AS"))
    assert result["accepted"] == {"calls": 4, "plays": 0}
    assert result["contract"] is None
    for key in ("tricks", "tricks_won", "card_points", "melds", "belote", "made", "score"):
        assert result[key] is None
    assert "legal_next" not in result
    assert "thrown in" in result["reason"]


def test_an_illegal_call_stops_everything():
    # dealer E: N speaks first, not W
    result = run_deal_case(rules("federation"), "E", LATIN, calls_of("W:80H"), plays_of("N:AS"))
    assert result["accepted"] == {"calls": 0, "plays": 0}
    assert result["contract"] is None and result["tricks"] is None
    assert "N's turn" in result["reason"]


def test_a_call_after_the_contract_is_refused_and_no_card_is_played():
    result = run_deal_case(rules("federation"), "E", LATIN, calls_of("N:80H W:pass S:pass E:pass N:pass"),
                           plays_of(LATIN_PLAY))
    assert result["accepted"] == {"calls": 4, "plays": 0}
    # the auction case would report the contract the accepted calls reached
    assert result["contract"] == {"value": 80, "strain": "H", "declarer": "N", "multiplier": 1}
    assert result["tricks"] is None and "legal_next" not in result


def test_an_unfinished_auction():
    result = run_deal_case(rules("federation"), "E", LATIN, calls_of("N:80H W:pass"), [])
    assert result["accepted"] == {"calls": 2, "plays": 0}
    assert result["contract"] is None and result["made"] is None


# -- the Deal object ------------------------------------------------------------

def test_first_leader_taker_and_first_bidder():
    # house rules: the taker leads; N passes, W bids 80H, then three passes
    deal = Deal.start(rules("federation", play__first_leader="taker"), "E", LATIN)
    for seat, call in calls_of("N:pass W:80H S:pass E:pass N:pass"):
        deal = deal.apply_call(seat, call)
    assert deal.to_act == "W"
    # the first bidder leads: W bids first, S overcalls and becomes the taker; W still leads
    deal = Deal.start(rules("federation", play__first_leader="first_bidder"), "E", LATIN)
    for seat, call in calls_of("N:pass W:80H S:90H E:pass N:pass W:pass"):
        deal = deal.apply_call(seat, call)
    assert deal.contract.declarer == "S" and deal.to_act == "W"


def test_deal_states_are_immutable_and_branch():
    deal = Deal.start(rules("federation"), "E", LATIN)
    for seat, call in calls_of("N:80H W:pass S:pass E:pass"):
        deal = deal.apply_call(seat, call)
    before = deal.legal_cards()
    a = deal.apply_card("N", parse_card("AS"))
    b = deal.apply_card("N", parse_card("7C"))
    assert deal.legal_cards() == before and deal.to_act == "N" and deal.log == ()
    # after the AS, W must follow spades (8S 7S); after the 7C, clubs (JC 9C)
    assert sorted(a.legal_cards()) == sorted(parse_card(c) for c in ("8S", "7S"))
    assert sorted(b.legal_cards()) == sorted(parse_card(c) for c in ("JC", "9C"))
    assert a.hand("N") == deal.hand("N") & ~(1 << parse_card("AS"))


def test_phases_and_refusals():
    deal = Deal.start(rules("federation"), "E", LATIN)
    assert deal.phase == "auction" and deal.to_act == "N" and deal.legal_cards() == []
    with pytest.raises(IllegalPlay, match="auction is not over"):
        deal.apply_card("N", parse_card("AS"))
    with pytest.raises(IllegalCall, match="N's turn"):
        deal.apply_call("W", "pass")
    thrown = deal
    for seat in "NWSE":
        thrown = thrown.apply_call(seat, "pass")
    assert thrown.phase == "redeal" and thrown.to_act is None and thrown.legal_calls() == []
    with pytest.raises(IllegalPlay, match="thrown in"):
        thrown.apply_card("N", parse_card("AS"))


def test_the_card_must_be_held():
    deal = Deal.start(rules("federation"), "E", LATIN)
    for seat, call in calls_of("N:80H W:pass S:pass E:pass"):
        deal = deal.apply_call(seat, call)
    assert deal.check_card("N", "JH") == "N does not hold JH"
    with pytest.raises(IllegalPlay, match="does not hold JH"):
        deal.apply_card("N", "JH")


@pytest.mark.parametrize("hands,message", [
    ({**LATIN, "N": LATIN["N"][:7]}, "hands.N: holds 7 cards"),
    ({**LATIN, "E": LATIN["N"]}, "hands.E: TS is also in another hand"),   # the lowest card shared
    ({k: v for k, v in LATIN.items() if k != "W"}, "hands: no hand for W"),
    ({**LATIN, "N": LATIN["N"][:7] + [99]}, "hands.N[7]: card index 99 is outside 0..31"),
    ({**LATIN, "X": []}, "hands: 'X' is not a seat"),
])
def test_bad_hands_are_one_line_messages(hands, message):
    with pytest.raises(BadInput) as info:
        Deal.start(rules("federation"), "E", hands)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_bad_dealer_melds_and_say():
    with pytest.raises(BadInput, match="dealer"):
        Deal.start(rules("federation"), "Q", LATIN)
    deal = Deal.start(rules("federation"), "E", LATIN)
    for seat, call in calls_of("N:80H W:pass S:pass E:pass"):
        deal = deal.apply_call(seat, call)
    with pytest.raises(BadInput, match="melds of N"):
        deal.apply_card("N", parse_card("AS"), melds="AS KS QS")
    with pytest.raises(BadInput, match="say"):
        deal.apply_card("N", parse_card("AS"), say=1)


# -- random deals and the `deal` command ------------------------------------------

@pytest.mark.parametrize("variant_id", ["federation", "contree-701", "cafe-sans-tout-atout", "cafe-1000",
                                        "cafe-701"])
def test_random_deals_replay_through_run_deal_case(variant_id):
    """A random deal's own transcript, replayed as a protocol case, gives the same result."""
    r = rules(variant_id)
    rng = random.Random(7)
    for _ in range(10):
        deal = random_deal(r, rng)
        plays = [{"seat": s, "card": c, "say": say,
                  "melds": [list(m) for m in deal.declared[s]] if i < 4 and deal.declared[s] else None}
                 for i, (s, c, say) in enumerate(deal.log)]
        replayed = run_deal_case(r, deal.dealer, deal.hands, list(deal.calls), plays)
        assert replayed["accepted"] == {"calls": len(deal.calls), "plays": len(deal.log)}
        if deal.phase == "done":
            assert replayed["made"] is not None
            mine = deal.result()
            assert {k: replayed[k] for k in mine} == mine


def test_random_play_out_from_the_middle_of_a_trick():
    """play_out finishes a deal already under way; nobody declares with a later card."""
    from coinche_spec.engine.random_play import play_out
    deal = Deal.start(rules("federation"), "N", RANKS)
    for seat, call in calls_of("W:pass S:80H E:pass N:pass W:pass"):
        deal = deal.apply_call(seat, call)
    for seat, card in (("W", "7S"), ("S", "9S"), ("E", "QS"), ("N", "TS"), ("N", "AS")):
        deal = deal.apply_card(seat, parse_card(card))
    done = play_out(deal, random.Random(5))
    assert done.phase == "done" and len(done.log) == 32
    # N, E and S hold squares worth declaring, but their first cards are already played
    assert done.late_melds == () and all(m == () for m in done.declared.values())
    assert "invalid_melds" not in done.result()


def run_cli(*argv):
    from coinche_spec.cli import main
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_deal_command_prints_a_whole_deal():
    code, out, err = run_cli("deal", "--variant", "federation", "--seed", "3")
    assert code == 0 and err == ""
    # the same seed, the same deal
    assert run_cli("deal", "--variant", "federation", "--seed", "3")[1] == out
    assert run_cli("deal", "--variant", "federation", "--seed", "4")[1] != out
    lines = out.splitlines()
    for title in ("Hands", "Auction", "Tricks", "Score: the contract "):
        assert any(line.startswith(title) for line in lines), title
    assert all(sym in out for sym in "♠♥♦♣")
    deal = random_deal(rules("federation"), random.Random(3))
    trick_lines = [line for line in out.splitlines() if re.match(r"\s+\d\. ", line)]
    assert len(trick_lines) == (8 if deal.phase == "done" else 0)
    if deal.phase == "done":
        o = deal.outcome()
        assert f"recorded: NS {o.score['NS']}, EW {o.score['EW']}" in out
        for line in o.lines:
            assert line in out


def test_deal_command_unknown_variant_is_one_line_exit_2():
    code, out, err = run_cli("deal", "--variant", "no-such-variant", "--seed", "1")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no-such-variant" in err


# -- docs/engine.md: its examples run ------------------------------------------------

def test_engine_doc_examples_run():
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 4
    namespace: dict = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/engine.md block {i + 1}", "exec"), namespace)  # noqa: S102


# -- the benchmark script runs (a smoke test: no time is asserted) ---------------------

def _bench():
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_engine", ROOT / "benchmarks" / "engine.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_benchmark_prints_one_json_line():
    import json
    out = io.StringIO()
    with redirect_stdout(out):
        code = _bench().main(["--variant", "contree-701", "--deals", "12", "--rounds", "3", "--json"])
    assert code == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert report["variant"] == "contree-701" and report["deals"] == 12 and report["scored"] is True
    assert report["deals_per_second"] > 0 and report["legal_move_generations_per_second"] > 0
    # at least 4 calls (a bid and three passes) and 32 cards per deal
    assert report["legal_move_generations_per_second"] >= report["deals_per_second"] * 36 * 0.99


def test_benchmark_rejects_an_unknown_variant():
    err = io.StringIO()
    with redirect_stderr(err):
        code = _bench().main(["--variant", "no-such-variant", "--deals", "5"])
    assert code == 2 and err.getvalue().count("\n") == 1
