"""The belote-cli adapter: belote-cli's own answers, through the protocol.

Expectations are worked out by hand from belote-cli 4.9.6's code (the ``belote`` package:
game.py's legal cards, scoring.py's score_round and coinche_adjusted_credits, config.py's
constants), cited by module and function, never copied from its output.

belote-cli is an extra: without it this module is skipped, except where CI says it must be there
(COINCHE_REQUIRE_BELOTE_CLI=1), and then its absence fails.
"""

import sys

import pytest
from support import require_belote_cli

belote_package = require_belote_cli()

from coinche_spec.adapters import belote_cli as adapter_module
from coinche_spec.adapters.belote_cli import BeloteCliAdapter, card_text, seat_text, to_card, to_seat
from coinche_spec.cli import main
from coinche_spec.conformance.fixtures import load_corpus
from coinche_spec.conformance.runner import run
from coinche_spec.protocol.cases import CaseError, run_case
from coinche_spec.protocol.impls import SpecError, open_implementation
from coinche_spec.variants import load_variant


@pytest.fixture
def bcli():
    a = BeloteCliAdapter()
    a.start()
    assert a.configure("belote-cli") == {"ok": True}
    return a


def result(adapter, case):
    reply = adapter.run(case)
    assert "result" in reply, reply
    return reply["result"]


# --- notation -----------------------------------------------------------------------------

def test_cards_and_seats_in_belote_cli_terms():
    from belote.deck import Card, Rank, Suit
    from belote.game import Seat
    assert to_card("TH") == Card(Suit.HEARTS, Rank.TEN) and to_card("7S") == Card(Suit.SPADES, Rank.SEVEN)
    assert [card_text(Card(s, Rank.ACE)) for s in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)] == \
        ["AS", "AH", "AD", "AC"]
    assert all(card_text(to_card(r + s)) == r + s for r in "789TJQKA" for s in "SHDC")
    # the same names; belote-cli's next seat (Seat.next_seat: value + 1, S E N W) is our anticlockwise N W S E
    assert [to_seat(s) for s in "NESW"] == [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST]
    assert [seat_text(to_seat(s).next_seat()) for s in "NWSE"] == ["W", "S", "E", "N"]


# --- start and configure -------------------------------------------------------------------

def test_start_names_belote_cli_its_rule_set_and_what_it_cannot_answer():
    hello = BeloteCliAdapter().start()
    assert hello["implementation"]["name"] == "belote-cli"
    assert hello["implementation"]["version"] == belote_package.__version__ == "4.9.6"
    assert hello["kinds"] == ["legal_cards", "deal", "perft", "match"] and hello["variants"] == ["belote-cli"]
    assert set(hello["unanswered"]) == {"auction", "score", "melds", "dealing", "deal"}


def test_configure_accepts_its_rules_any_match_target_and_names_what_differs():
    a = BeloteCliAdapter()
    assert a.run({"kind": "perft"})["errored"] is True             # nothing configured yet
    assert a.configure("belote-cli") == {"ok": True}
    to_500 = {"extends": "belote-cli", "id": "belote-cli-500", "rules": {"match": {"target": 500}}}
    assert a.configure(to_500) == {"ok": True}                      # belote-cli --target 500
    x3 = {"extends": "belote-cli", "id": "x3", "rules": {"auction": {"surcoinche": {"multiplier": 3}}}}
    reply = a.configure(x3)
    assert reply["ok"] is False and reply["unsupported"] == ["auction.surcoinche.multiplier"]
    assert a.run({"kind": "perft"})["errored"] is True             # a refused configure leaves nothing configured
    reply = a.configure("federation")   # anticlockwise too, but a player unable to overtrump may discard
    assert reply["ok"] is False and "play.cannot_overtrump" in reply["unsupported"]
    assert "table.direction" not in reply["unsupported"]
    assert not any(p.startswith(("deal.", "auction.bids", "match.target")) for p in reply["unsupported"])
    reply = a.configure("contree-701")
    assert reply["ok"] is False and "table.direction" in reply["unsupported"]
    reply = a.configure("no-such-rules")
    assert reply["ok"] is False and "unsupported" not in reply


def test_kinds_belote_cli_cannot_answer_are_skipped(bcli):
    for kind in ("auction", "score", "melds", "dealing"):
        reply = bcli.run({"kind": kind})
        assert reply["skipped"] is True and reply["reason"] == adapter_module.UNANSWERED[kind]
    with_calls = next(f for f in load_corpus() if f.kind == "deal").case
    reply = bcli.run(with_calls)
    assert reply["skipped"] is True and "given contract" in reply["reason"]
    reply = bcli.run({"kind": "legal_cards", "strain": "H", "seat": "N", "hand": ["ZZ"], "trick": []})
    assert reply["errored"] is True and "case.hand[0]" in reply["message"]
    # a litige's held points go inside belote-cli's next round's score, never to a recorded one
    litige = {"score": {"NS": 0, "EW": 81}, "takers": "NS", "made": False, "belote": None,
              "tricks_won": {"NS": 4, "EW": 4}, "held": {"NS": 81, "EW": 0}}
    reply = bcli.run({"kind": "match", "deals": [litige]})
    assert reply == {"skipped": True, "reason": adapter_module.HELD_IN_MATCH}


# --- legal cards (game.py _calculate_legal_cards_impl) ----------------------------------------

LEGAL = [
    # hearts trump; N leads AS, W (anticlockwise next) holds spades: follow (any spade)
    ("H", "W", ["7S", "KS", "JH", "8D"], [("N", "AS")], ["7S", "KS"]),
    # void, opponent N winning, trumps held: must trump, any trump (none on the table yet)
    ("H", "W", ["JH", "7H", "8D", "9C"], [("N", "KS")], ["7H", "JH"]),
    # void, partner N winning: "Partner is winning - can discard": anything
    ("H", "S", ["JH", "8D", "9C"], [("N", "AS"), ("W", "7S")], ["8D", "9C", "JH"]),
    # opponent W cut with 9H, S holds only lower trumps and a side card: must still trump (undertrump)
    ("H", "S", ["7H", "8H", "8D"], [("N", "KC"), ("W", "9H")], ["7H", "8H"]),
    # opponent W cut with 9H, S holds JH: must overtrump, JH only
    ("H", "S", ["JH", "7H", "8D"], [("N", "KC"), ("W", "9H")], ["JH"]),
    # trump led by partner N with KH, W plays 7H: S must beat the highest trump, even his partner's: AH
    ("H", "S", ["AH", "QH", "8D"], [("N", "KH"), ("W", "7H")], ["AH"]),
    # tout atout: follow and rise within the led suit: 9H or JH over the led AH? rank J 9 A T K Q 8 7
    ("TA", "W", ["9H", "TH", "7H", "KS"], [("N", "AH")], ["9H"]),
    # sans atout: follow, no duty to rise
    ("SA", "W", ["AH", "7H", "JS"], [("N", "KH")], ["7H", "AH"]),
]


@pytest.mark.parametrize("strain,seat,hand,trick,legal", LEGAL)
def test_legal_cards_are_belote_clis(bcli, strain, seat, hand, trick, legal):
    case = {"kind": "legal_cards", "strain": strain, "seat": seat, "hand": hand,
            "trick": [{"seat": s, "card": c} for s, c in trick]}
    assert result(bcli, case) == {"legal": legal}


def test_a_trick_out_of_belote_clis_direction_is_refused_as_the_reference_refuses_it(bcli):
    # belote-cli plays anticlockwise N W S E: N, then E, is no trick of its game (belote-cli's own
    # legal_cards would answer it all the same, reading the seats only for the partner)
    case = {"kind": "legal_cards", "strain": "H", "seat": "S", "hand": ["7H", "8H", "8D"],
            "trick": [{"seat": "N", "card": "KC"}, {"seat": "E", "card": "9H"}]}
    with pytest.raises(CaseError) as info:
        run_case(load_variant("belote-cli").rules, case)
    assert bcli.run(case) == {"errored": True, "message": str(info.value)}
    assert str(info.value) == "case.trick[1].seat: under this rule set's direction of play (anticlockwise) W plays after N, not E"


# --- deals with a given contract (the protocol's extension) -------------------------------------

# One suit each: North spades, East hearts, South diamonds, West clubs (7 to A, pack order).
HANDS = {seat: [r + suit for r in "789TJQKA"] for seat, suit in zip("NESW", "SHDC")}


def deal_case(strain, multiplier, play, dealer="E", declarer="N"):
    doubling = {1: "none", 2: "coinche", 4: "surcoinche"}[multiplier]
    return {"kind": "deal", "dealer": dealer, "hands": HANDS, "play": play,
            "contract": {"value": 60, "strain": strain, "declarer": declarer, "multiplier": multiplier,
                         "doubling": doubling}}


def north_sweeps():
    """East deals, so North leads (place_bid: the dealer's next seat, anticlockwise N W S E); North
    leads his spades from the jack down, everybody else discards his lowest card."""
    order = ["JS", "9S", "AS", "TS", "KS", "QS", "8S", "7S"]
    play = []
    for i, card in enumerate(order):
        play += [{"seat": "N", "card": card}, {"seat": "W", "card": HANDS["W"][i]},
                 {"seat": "S", "card": HANDS["S"][i]}, {"seat": "E", "card": HANDS["E"][i]}]
    return play


@pytest.mark.parametrize("multiplier, takers", [(1, 472), (2, 944), (4, 1888)])
def test_a_capot_by_the_takers_scored_by_belote_cli(bcli, multiplier, takers):
    got = result(bcli, deal_case("S", multiplier, north_sweeps()))
    assert got["accepted"] == {"calls": 0, "plays": 32}
    assert got["tricks_won"] == {"NS": 8, "EW": 0}
    assert all(t["leader"] == "N" and t["winner"] == "N" for t in got["tricks"])
    # config.py CAPOT_BASE 252 for a suit contract
    assert got["card_points"] == {"NS": 252, "EW": 0}
    # every hand is a run of eight, a quinte (100: "5+ cards is always a Quinte"); the best runs tie on
    # length and top card, North's is trump: NS score both theirs, 100 + 100 = 200
    assert got["melds"] == {"NS": 200, "EW": 0}
    # North holds and plays KS and QS of trump
    assert got["belote"] == "NS" and got["made"] is True
    # _score_capot_outcome: 252 + 200 + 0 + 20 = 472; coinche_adjusted_credits: x2 = 944, x4 = 1888
    assert got["score"] == {"NS": takers, "EW": 0}


def test_a_defence_sweep_scored_by_belote_cli(bcli):
    # hearts trump, North takes: East trumps North's jack of spades with the 7, then leads his hearts
    hearts = ["8H", "9H", "TH", "JH", "QH", "KH", "AH"]
    play = [{"seat": "N", "card": "JS"}, {"seat": "W", "card": "7C"}, {"seat": "S", "card": "7D"},
            {"seat": "E", "card": "7H"}]
    rest = {"N": ["7S", "8S", "9S", "TS", "QS", "KS", "AS"], "W": HANDS["W"][1:], "S": HANDS["S"][1:]}
    for i, card in enumerate(hearts):   # East leads; anticlockwise the next are N, W, S
        play += [{"seat": "E", "card": card}, {"seat": "N", "card": rest["N"][i]},
                 {"seat": "W", "card": rest["W"][i]}, {"seat": "S", "card": rest["S"][i]}]
    got = result(bcli, deal_case("H", 1, play))
    assert got["tricks_won"] == {"NS": 0, "EW": 8} and got["card_points"] == {"NS": 0, "EW": 252}
    # East's run is trump: EW score theirs, 100 + 100; East holds KH QH of trump
    assert got["melds"] == {"NS": 0, "EW": 200} and got["belote"] == "EW" and got["made"] is False
    # failed capot: 252 + 200 (all declarations) + 20 (the defenders' belote) = 472, takers 0
    assert got["score"] == {"NS": 0, "EW": 472}


def test_a_card_out_of_turn_or_illegal_stops_the_deal(bcli):
    got = result(bcli, deal_case("S", 1, [{"seat": "N", "card": "JS"}, {"seat": "E", "card": "7H"}]))
    assert got["accepted"] == {"calls": 0, "plays": 1} and got["reason"] == "it is W's turn to play, not E's"
    assert got["legal_next"] == sorted(HANDS["W"]) and got["score"] is None and got["tricks"] == []
    # South's turn after N JS, W 7C: his diamonds, anything (void, partner winning); a spade he does not hold
    got = result(bcli, deal_case("S", 1, [{"seat": "N", "card": "JS"}, {"seat": "W", "card": "7C"},
                                          {"seat": "S", "card": "8S"}]))
    assert got["accepted"]["plays"] == 2 and got["legal_next"] == sorted(HANDS["S"])
    assert got["reason"].startswith("8S is not among belote-cli's legal cards for S")


def test_contracts_belote_cli_does_not_have_are_refused(bcli):
    case = deal_case("S", 2, [])
    case["contract"]["multiplier"], case["contract"]["doubling"] = 3, "surcoinche"
    reply = bcli.run(case)
    assert reply["errored"] is True and reply["message"].startswith("case.contract.multiplier: 3")


# --- match (scoring.apply_round_score) ---------------------------------------------------------

def match(*scores):
    return {"kind": "match", "deals": [{"score": {"NS": ns, "EW": ew}, "takers": "NS", "made": ns > ew,
                                        "belote": None, "tricks_won": {"NS": 4, "EW": 4}} for ns, ew in scores]}


def test_the_match_ends_as_belote_cli_ends_it(bcli):
    # target 1000 (config.py TARGET_SCORE), reaching it is enough: 600 + 450 = 1050
    assert result(bcli, match((600, 100), (450, 0), (0, 900))) == {"state": "over", "winner": "NS",
                                                                  "totals": {"NS": 1050, "EW": 100}}
    # both reach it level, 1000 each: "DEAL on a tie at target so a tie-breaker round plays"
    assert result(bcli, match((500, 500), (500, 500))) == {"state": "open", "winner": None,
                                                          "totals": {"NS": 1000, "EW": 1000}}
    # both cross, the higher total wins
    assert result(bcli, match((900, 950), (200, 100))) == {"state": "over", "winner": "NS",
                                                          "totals": {"NS": 1100, "EW": 1050}}
    a = BeloteCliAdapter()
    assert a.configure({"extends": "belote-cli", "id": "belote-cli-500", "rules": {"match": {"target": 500}}})["ok"]
    assert result(a, match((500, 0)))["state"] == "over"


# --- the corpus, and the whole path ---------------------------------------------------------------

def test_the_corpus_under_belote_clis_rules():
    """Every case of a kind belote-cli answers passes, every other is skipped, nothing errs or times out."""
    impl = open_implementation("belote-cli", timeout=60)
    impl.start()
    try:
        report = run(impl, load_corpus(), [load_variant("belote-cli")])
    finally:
        impl.stop()
    played = [o for o in report.outcomes if o.outcome != "n/a"]
    # a deal is answered only with a given contract (published-belote-cli.yaml's deals), a match only
    # without a litige's held points
    answered = [o for o in played if o.fixture.kind in adapter_module.KINDS
                and (o.fixture.kind != "deal" or "contract" in o.fixture.case)
                and not (o.fixture.kind == "match" and any(d.get("held") for d in o.fixture.case["deals"]))]
    assert [o for o in played if o.outcome not in ("pass", "skip")] == []
    assert {o.fixture.id for o in played if o.outcome == "pass"} == {o.fixture.id for o in answered}
    assert len(answered) >= 70   # the legal_cards, perft, match and given-contract deal fixtures (80 at this writing)
    assert {o.fixture.kind for o in answered} == {"legal_cards", "perft", "match", "deal"}


def test_conformance_impl_belote_cli_variant_belote_cli(capsys):
    assert main(["conformance", "--impl", "belote-cli", "--variant", "belote-cli"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    passed, failed, skipped = (int(w) for w in last.replace(",", "").split()[::2])
    assert failed == 0 and passed >= 60 and skipped > 0


def test_without_belote_cli_the_impl_says_which_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "belote", None)   # as if it were not installed
    with pytest.raises(SpecError) as info:
        open_implementation("belote-cli")
    assert str(info.value).startswith("belote-cli: needs the belote-cli package (") and \
        str(info.value).endswith("pip install 'coinche-spec[belote-cli]'")


# --- belote-cli against the reference engine under belote-cli's rule set ------------------------

def random_deal(rng, adapter):
    """A deal played by belote-cli's own legal choices, every player declaring with his first card
    every meld belote-cli finds in his hand (it counts them undeclared)."""
    from belote.game import legal_cards, play_card
    from belote.scoring import detect_carres, detect_sequences
    deck = [r + s for s in "SHDC" for r in "789TJQKA"]
    rng.shuffle(deck)
    hands = {seat: deck[8 * i:8 * i + 8] for i, seat in enumerate("NESW")}
    multiplier = rng.choice([1, 1, 2, 4])
    case = {"kind": "deal", "dealer": rng.choice("NESW"), "hands": hands, "play": [],
            "contract": {"value": 60, "strain": rng.choice(["S", "H", "D", "C", "SA", "TA"]),
                         "declarer": rng.choice("NESW"), "multiplier": multiplier,
                         "doubling": {1: "none", 2: "coinche", 4: "surcoinche"}[multiplier]}}
    state = adapter._taken(case)
    for _ in range(32):
        card = rng.choice(sorted(legal_cards(state, state.turn), key=card_text))
        seat = seat_text(state.turn)
        entry = {"seat": seat, "card": card_text(card)}
        if all(p["seat"] != seat for p in case["play"]):
            held = tuple(to_card(c) for c in hands[seat])
            melds = [[card_text(c) for c in m.cards] for m in detect_sequences(held) + detect_carres(held)]
            if melds:
                entry["melds"] = melds
        case["play"].append(entry)
        state = play_card(state, card)
    return case, state


def test_belote_cli_and_the_reference_engine_differ_only_where_the_rule_set_says(bcli):
    """Seeded random deals: every difference is one docs/adapters.md records (a litige, a defence sweep
    at sans atout or tout atout, the comparison of declarations); cards, tricks and card points agree."""
    import random

    from belote.scoring import score_round
    from coinche_spec.protocol.server import Session
    session = Session()
    assert session.handle({"cmd": "configure", "variant": "belote-cli"})[0] == {"ok": True}
    rng, seen = random.Random(7), {}
    for n in range(300):
        case, state = random_deal(rng, bcli)
        mine = result(bcli, case)
        reference = session.handle({"cmd": "run", "seq": n, "case": case})[0]["result"]
        for field in ("accepted", "contract", "tricks", "tricks_won", "card_points"):
            assert mine[field] == reference[field], (field, case)
        differ = [f for f in ("melds", "belote", "made", "score") if mine[f] != reference[f]]
        if not differ:
            continue
        breakdown = score_round(state)
        if breakdown.is_litige:
            why = "litige"
        elif breakdown.is_capot and breakdown.is_failed and case["contract"]["strain"] in ("SA", "TA"):
            why = "defence sweep at SA or TA"
        else:
            assert "melds" in differ, (differ, case)
            why = "declarations compared"
        seen[why] = seen.get(why, 0) + 1
    assert set(seen) <= {"litige", "defence sweep at SA or TA", "declarations compared"}
    assert sum(seen.values()) < 30   # 300 deals: most agree field for field
