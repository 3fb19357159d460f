"""The colver adapter: colver's own answers, through the protocol.

Expectations are worked out by hand from colver's rules as observed on the
0.11.1 wheel (RULESETS-IN-THE-WILD.md §3, cited by rule id: P6, S4 ...),
never copied from colver's output. Until variants/implementations/colver.yaml
is merged, the rule set the adapter compares against is stood in by a seed
(``stand_in``): these tests are about the translation (seats, cards, calls,
refusals, configure's comparison), which holds for any such file.

colver is an extra: without it this module is skipped, except where CI says
it must be there (COINCHE_REQUIRE_COLVER=1), and then its absence fails.
"""

import pytest
from support import require_colver

colver_package = require_colver()

from coinche_spec.adapters import colver as adapter_module
from coinche_spec.adapters.colver import ColverAdapter, call_action, card_index, card_text
from coinche_spec.conformance.fixtures import load_corpus
from coinche_spec.protocol.cases import CaseError, run_case
from coinche_spec.protocol.impls import open_implementation
from coinche_spec.variants import load_variant


@pytest.fixture
def stand_in(monkeypatch):
    """Make ``ref`` colver's rule set for the test (default: contree-701, a clockwise table)."""
    def use(ref="contree-701"):
        monkeypatch.setattr(ColverAdapter, "_colver_variant", lambda self: load_variant(ref))
    use()
    return use


@pytest.fixture
def colver(stand_in):
    a = ColverAdapter()
    assert a.configure("colver") == {"ok": True}
    return a


def result(adapter, case):
    reply = adapter.run(case)
    assert "result" in reply, reply
    return reply["result"]


# --- notation -----------------------------------------------------------------------

def test_cards_and_calls_in_colver_numbers():
    # colver: card = suit x 8 + rank, suits S H D C, ranks 7 8 9 J Q K T A
    assert card_index("7S") == 0 and card_index("AS") == 7 and card_index("JH") == 11 and card_index("AC") == 31
    assert [card_text(i) for i in (0, 6, 11, 31)] == ["7S", "TS", "JH", "AC"]
    # actions: 0 pass, 1 + 4 x ((value - 80) / 10) + suit, 37 + suit capot, 41 coinche, 42 surcoinche
    assert [call_action(c) for c in ("pass", "80S", "90H", "160C", "capotD", "coinche", "surcoinche")] == \
        [0, 1, 6, 36, 39, 41, 42]
    assert [call_action(c) for c in ("82H", "170S", "100SA", "80TA", "generaleH")] == [None] * 5


# --- start and configure --------------------------------------------------------------

def test_start_names_colver_its_rule_set_and_what_it_cannot_answer():
    hello = ColverAdapter().start()
    assert hello["implementation"]["name"] == "colver" and hello["implementation"]["version"] == colver_package.__version__
    assert hello["kinds"] == ["legal_cards", "auction", "deal", "perft"]
    assert hello["variants"] == ["colver"]
    assert set(hello["unanswered"]) == {"score", "melds", "match", "dealing"}


def test_configure_accepts_colvers_rules_and_names_the_rules_that_differ(stand_in):
    a = ColverAdapter()
    assert a.run({"kind": "perft"})["errored"] is True            # nothing configured yet
    assert a.configure("colver") == {"ok": True}
    # the same rules under another id, another match and another way of dealing: nothing colver shows
    same = {"extends": "contree-701", "id": "club-copy",
            "rules": {"match": {"target": 2000}, "deal": {"packets": [3, 3, 2]}}}
    assert a.configure(same) == {"ok": True}
    other = {"extends": "contree-701", "id": "x3", "rules": {"auction": {"surcoinche": {"multiplier": 3}}}}
    reply = a.configure(other)
    assert reply["ok"] is False and reply["unsupported"] == ["auction.surcoinche.multiplier"]
    assert a.run({"kind": "perft"})["errored"] is True            # a refused configure leaves nothing configured
    reply = a.configure("federation")
    assert reply["ok"] is False and "table.direction" in reply["unsupported"]
    assert not any(p.startswith(("match.", "deal.")) for p in reply["unsupported"])
    reply = a.configure("no-such-rules")
    assert reply["ok"] is False and "unknown" in reply["message"] and "unsupported" not in reply


def test_without_its_rule_set_file_configure_says_so(monkeypatch):
    monkeypatch.setattr(adapter_module, "RULES_ID", "colver-file-that-is-not-there")
    reply = ColverAdapter().configure("colver")
    assert reply["ok"] is False and "colver's own rule set" in reply["message"]


def test_kinds_colver_cannot_answer_are_skipped(colver):
    for kind in ("score", "melds", "match", "dealing"):
        reply = colver.run({"kind": kind})
        assert reply["skipped"] is True and reply["reason"] == adapter_module.UNANSWERED[kind]
    reply = colver.run({"kind": "legal_cards", "strain": "SA", "seat": "N", "hand": ["AS"], "trick": []})
    assert reply["skipped"] is True and "suit contracts only" in reply["reason"]
    reply = colver.run({"kind": "legal_cards", "strain": "H", "seat": "N", "hand": ["ZZ"], "trick": []})
    assert reply["errored"] is True and "case.hand[0]" in reply["message"]


# --- legal cards: colver's positions (§3.2), hearts trump, clockwise N E S W ---------------

LEGAL = [
    # plain suit led, N holds it: follow (P2)
    ("N", ["AS", "7S", "JH", "8D"], [("W", "KS")], ["7S", "AS"]),
    # void, opponent W winning, trumps held: any trump (P5)
    ("N", ["JH", "7H", "8D", "9C"], [("W", "KS")], ["7H", "JH"]),
    # void, partner N winning: anything (P4)
    ("S", ["JH", "8D", "9C"], [("N", "AS"), ("E", "7S")], ["8D", "9C", "JH"]),
    # an opponent cut with 9H, JH held: must overcut, JH only (P5)
    ("W", ["JH", "7H", "8D"], [("E", "KS"), ("S", "9H")], ["JH"]),
    # an opponent cut with 9H, lower trumps and a side card: anything, discard or undercut (P6)
    ("W", ["7H", "8H", "8D"], [("E", "KS"), ("S", "9H")], ["7H", "8D", "8H"]),
    # an opponent cut with JH, only lower trumps: any of them (P6)
    ("W", ["7H", "8H"], [("E", "KS"), ("S", "JH")], ["7H", "8H"]),
    # trump led, partner KH, then opponent 7H: beat the partner, AH only (P3)
    ("S", ["AH", "QH", "8D"], [("N", "KH"), ("E", "7H")], ["AH"]),
    # partner S cut and wins, N holds only trumps: any, undertrump included (P7)
    ("N", ["JH", "7H", "8H"], [("E", "AS"), ("S", "9H"), ("W", "7S")], ["7H", "8H", "JH"]),
]


@pytest.mark.parametrize("seat,hand,trick,legal", LEGAL)
def test_legal_cards_are_colvers(colver, seat, hand, trick, legal):
    case = {"kind": "legal_cards", "strain": "H", "seat": seat, "hand": hand,
            "trick": [{"seat": s, "card": c} for s, c in trick]}
    assert result(colver, case) == {"legal": legal}


def test_an_anticlockwise_rule_set_gives_colvers_seats_other_letters(stand_in):
    stand_in("federation")   # anticlockwise: colver's seats 0 1 2 3 are N W S E
    a = ColverAdapter()
    assert a.configure("colver") == {"ok": True}
    case = {"kind": "legal_cards", "strain": "H", "seat": "W", "hand": ["AS", "JH"], "trick": [{"seat": "N", "card": "KS"}]}
    assert result(a, case) == {"legal": ["AS"]}
    reply = a.run(dict(case, seat="E", hand=["AS", "JH"]))
    assert reply == {"errored": True, "message": "case.seat: under this rule set's direction of play (anticlockwise) "
                                                 "W plays after N (the last to play to the trick), not E"}


def test_a_trick_out_of_the_direction_of_play_is_refused_as_the_reference_refuses_it(colver):
    # clockwise N E S W: W, then N, then S skips E; the reference engine refuses it with the same words
    case = {"kind": "legal_cards", "strain": "H", "seat": "S", "hand": ["7H", "8C"],
            "trick": [{"seat": "W", "card": "KD"}, {"seat": "N", "card": "QD"}]}
    reply = colver.run(case)
    with pytest.raises(CaseError) as info:
        run_case(load_variant("colver").rules, case)
    assert reply == {"errored": True, "message": str(info.value)}
    assert reply["message"].startswith("case.seat: under this rule set's direction of play (clockwise) E plays after N")


def test_a_position_colver_cannot_be_brought_to_is_skipped_with_the_reason(colver, monkeypatch):
    # a colver that gave the first lead to the seat after the one asked: the case is posed as the
    # rules say, colver's game goes elsewhere, and the adapter says so instead of answering
    posed = ColverAdapter._play_position

    def one_seat_on(self, strain, leader, hands):
        return posed(self, strain, self._seat((self._index(leader) + 1) % 4), hands)
    monkeypatch.setattr(ColverAdapter, "_play_position", one_seat_on)
    case = {"kind": "legal_cards", "strain": "H", "seat": "N", "hand": ["AS", "7S"], "trick": [{"seat": "W", "card": "KS"}]}
    assert colver.run(case) == {"skipped": True, "reason": "colver cannot be put in this position: it gives the turn "
                                                           "to N, not W"}


# --- auction (dealer N: E speaks first) ----------------------------------------------------

def auction(colver, *calls, dealer="N"):
    order = "NESW"
    first = (order.index(dealer) + 1) % 4
    seats = [order[(first + k) % 4] for k in range(len(calls))]
    return result(colver, {"kind": "auction", "dealer": dealer,
                           "calls": [{"seat": s, "call": c} for s, c in zip(seats, calls)]})


def test_surcoinche_ends_the_auction_and_triples(colver):
    # A13: a surcoinche ends the auction at once; A14: x3
    r = auction(colver, "80H", "coinche", "surcoinche")
    assert r == {"accepted": 3, "state": "contract", "to_act": None,
                 "contract": {"value": 80, "strain": "H", "declarer": "E", "multiplier": 3}}


def test_coinche_then_three_passes(colver):
    # A12: after the coinche, three passes end it; x2
    r = auction(colver, "80H", "pass", "90S", "coinche", "pass", "pass", "pass")
    assert r["state"] == "contract" and r["accepted"] == 7
    assert r["contract"] == {"value": 90, "strain": "S", "declarer": "W", "multiplier": 2}


def test_the_coinchers_partner_may_only_pass(colver):
    # E 80H, S coinche, W pass, N (S's partner) bids: refused (A12)
    r = auction(colver, "80H", "coinche", "pass", "90H")
    assert (r["accepted"], r["state"], r["to_act"]) == (3, "open", "N")
    assert "not among colver's legal calls" in r["reason"]


def test_capot_coinched_and_surcoinched(colver):
    # A5: a capot may be coinched and surcoinched
    r = auction(colver, "capotS", "coinche", "surcoinche")
    assert r["contract"] == {"value": "capot", "strain": "S", "declarer": "E", "multiplier": 3}


def test_all_pass_is_a_redeal_and_calls_colver_has_not_are_refused(colver):
    assert auction(colver, "pass", "pass", "pass", "pass") == {"accepted": 4, "state": "redeal", "to_act": None,
                                                               "contract": None}
    for call in ("82H", "100SA", "170S"):   # A2: 80 to 160 in tens, four suits only
        r = auction(colver, "pass", call)
        assert (r["accepted"], r["state"], r["to_act"]) == (1, "open", "S")


def test_a_call_by_the_wrong_seat_is_refused(colver):
    r = result(colver, {"kind": "auction", "dealer": "N", "calls": [{"seat": "S", "call": "80H"}]})
    assert r["accepted"] == 0 and r["to_act"] == "E" and r["reason"] == "it is E's turn to call, not S's"


def test_a_player_who_passed_may_bid_later(colver):
    # A8: E passes, then bids 90H over W's 80H
    r = auction(colver, "pass", "pass", "80H", "pass", "90H")
    assert (r["accepted"], r["state"], r["to_act"]) == (5, "open", "S")


# --- deals from the corpus, scored by colver's rules ----------------------------------------

FIXTURES = {f.id: f for f in load_corpus()}

# fixture id -> what colver's rules give (card play fields come from the fixture's contree-701
# expectation: card values, the last trick and the sweep are the same in colver, V1 V4)
DEALS = {
    # S1: 81 >= 80 is enough, no need to beat the defenders; S2: 81 + 80 = 161, defenders their 81
    "deal-level-81-cw": {"made": True, "score": {"NS": 81, "EW": 161}},
    # S5: a capot bid made: 252 + 250 = 502, + the takers' belote 20 = 522
    "deal-capot-bid-made-cw": {"made": True, "score": {"NS": 522, "EW": 0}},
    # S4: coinched and made: 162 + 100 x 2 = 362, + all belote 20 = 382; defenders 0
    "deal-coinched-made-cw": {"made": True, "score": {"NS": 382, "EW": 0}},
    # A14: x3; S3/S4: failed, defenders 162 + 90 x 3 = 432, + all belote 20 (B5) = 452; takers 0
    "deal-surcoinched-failed-cw": {"made": False, "score": {"NS": 0, "EW": 452},
                                   "contract": {"value": 90, "strain": "S", "declarer": "N", "multiplier": 3}},
}


@pytest.mark.parametrize("fixture_id", sorted(DEALS))
def test_a_whole_deal_scored_by_colver(colver, fixture_id):
    fixture = FIXTURES[fixture_id]
    got = result(colver, fixture.case)
    played = fixture.expect["contree-701"].fields
    for field in ("accepted", "contract", "tricks", "tricks_won", "card_points", "belote"):
        if field in played and field not in DEALS[fixture_id]:
            assert got[field] == played[field], field
    for field, value in DEALS[fixture_id].items():
        assert got[field] == value, field
    assert got["melds"] == {"NS": 0, "EW": 0}   # M1: colver has no melds


def test_a_card_colver_refuses_stops_the_deal(colver):
    case = dict(FIXTURES["deal-level-81-cw"].case)
    play = list(case["play"])
    # trick 1: E leads JS; S holds 9S and 7S and must follow; S plays TH instead
    play[1] = {"seat": "S", "card": "TH"}
    got = result(colver, dict(case, play=play))
    assert got["accepted"] == {"calls": 4, "plays": 1}
    assert got["legal_next"] == ["7S", "9S"] and got["made"] is None and got["score"] is None
    assert "TH is not among colver's legal cards for S" in got["reason"]


def test_no_card_after_an_auction_that_did_not_end(colver):
    case = dict(FIXTURES["deal-level-81-cw"].case, calls=[{"seat": "E", "call": "80S"}])
    got = result(colver, case)
    assert got["accepted"] == {"calls": 1, "plays": 0} and got["tricks"] is None
    assert got["reason"] == "no card may be played: the auction has not reached a contract"


# --- perft and the whole path ---------------------------------------------------------------

def test_perft_counts_colvers_legal_sequences(colver):
    # spades trump, N leads, clockwise; the second trick is forced, so count the first tricks.
    # N AH: E void, must trump: 9S (1); S void, cannot beat 9S, holds 7S KC: either (P6) (2);
    #   W: partner E wins: JS or QD (2) -> 4.
    # N 7D: E void: 9S (1); S void, cannot beat 9S: 7S or KC (2); W follows QD (1) -> 2.
    assert result(colver, FIXTURES["perft-undertrump-or-discard"].case) == {"count": 6}   # 4 + 2 = 6


def test_impl_colver_runs_in_process_through_the_protocol(stand_in):
    impl = open_implementation("colver", timeout=30)
    info = impl.start()
    assert info["implementation"]["name"] == "colver" and "colver" in impl.label
    assert impl.configure("colver") == {"ok": True}
    case = {"kind": "legal_cards", "strain": "H", "seat": "N", "hand": ["AS", "7S", "JH", "8D"],
            "trick": [{"seat": "W", "card": "KS"}]}
    assert impl.run("one", case) == {"seq": "one", "result": {"legal": ["7S", "AS"]}}
    impl.stop()
