"""The simple players: always legal, deterministic, sensible where the sensible card is obvious.

Legality is checked call by call and card by card against what the engine
lists as legal, on every shipped and house rule set and on rule sets with
the auction rules the shipped ones do not use (générale, coinche at any
moment or after the auction, a coinche that ends the auction). The
positions below are built by hand; the card expected in each is the one a
player would choose, said in the test's name.
"""

from __future__ import annotations

import random

import pytest

from coinche_spec.engine import Deal, random_deal
from coinche_spec.engine.players import (bidding_strength, choose_call, choose_card, defence_strength,
                                         play_hands, simple_deal)
from coinche_spec.engine.random_play import random_hands
from coinche_spec.notation import SEATS, Call, card_name, parse_card
from coinche_spec.variants import house_ids, load_variant, shipped_ids

from support import changed_rules

RULE_SETS = {vid: load_variant(vid).rules for vid in shipped_ids() + house_ids()}
RULE_SETS["generale"] = changed_rules("cafe-sans-tout-atout", {"auction.generale.allowed": True})
RULE_SETS["coinche-any-moment"] = changed_rules("contree-701", {"auction.coinche.when": "any_moment"})
RULE_SETS["coinche-after"] = changed_rules("federation", {"auction.coinche.when": "after_auction"})
RULE_SETS["coinche-ends"] = changed_rules("cafe-1000", {"auction.coinche.effect": "ends_auction",
                                                        "auction.raise_own_bid": "always"})
RULE_SETS["coinche-last-caller-window"] = changed_rules("contree-701", {
    "auction.coinche.by": "opponents_of_last_caller", "auction.coinche.when": "any_moment",
    "auction.coinche.effect": "ends_bidding_window"})
RULE_SETS["surcoinche-next-caller"] = changed_rules("contree-701", {"auction.coinche.by": "any_player",
                                                                   "auction.surcoinche.by": "next_caller"})
RULE_SETS["six-then-two"] = load_variant("peer-oliboy50").rules
RULE_SETS["raise-named-strain"] = changed_rules("contree-701", {"auction.raise_own_bid": "never_in_a_named_strain"})
RULE_SETS["coinche-partner-silent"] = changed_rules("federation", {"auction.coinche.partner_may_speak": False,
                                                                   "auction.coinche.passes_after": 2})
# «à la vache» (the dealer has no pass after three), capot over capot, caps on rounds and bids
RULE_SETS["dealer-must-bid"] = load_variant("test-dealer-must-bid").rules
RULE_SETS["capot-over-capot"] = load_variant("test-capot-over-capot").rules
RULE_SETS["rounds-1"] = load_variant("test-rounds-1").rules
RULE_SETS["bids-once"] = load_variant("test-bids-once").rules


def _stepwise(rules, seed: int) -> Deal:
    """A simple players' deal, each call and card checked against the engine's legal set before it is made."""
    rng = random.Random(seed)
    dealer = SEATS[rng.randrange(4)]
    seen: dict = {}     # the cards bid on (all 8, or those dealt before the auction)
    deal = Deal.start(rules, dealer, random_hands(rules, rng, dealer, seen), seen)
    while deal.phase == "auction" or (deal.phase == "play" and not deal.log and deal.auction.window_open):
        choice = choose_call(deal)
        if choice is None:
            assert deal.auction.to_act is None, "only the after-auction window may be left without a call"
            break
        assert choice in deal.legal_calls(), f"{choice} is not among the legal calls"
        deal = deal.apply_call(*choice)
    while deal.phase == "play":
        card, melds, say = choose_card(deal)
        assert deal.legal_mask() >> card & 1, f"{card_name(card)} is not a legal card"
        deal = deal.apply_card(deal.play.to_act, card, melds, say)
    return deal


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_every_call_and_card_is_legal(name):
    rules = RULE_SETS[name]
    finished = 0
    for seed in range(25):
        deal = _stepwise(rules, seed)
        assert deal.phase in ("done", "redeal")
        if deal.phase == "done":
            finished += 1
            cards = sorted(c for _, _, cs in deal.tricks() for c in cs)
            assert cards == list(range(32))
            # play_out keeps the table's memory as it goes; card by card it is read from the log: same play
            assert simple_deal(rules, random.Random(seed)).log == deal.log
    assert finished >= 20   # the simple players reach a contract in most deals


def test_same_seed_same_deal_and_same_hands_same_deal():
    rules = RULE_SETS["federation"]
    one = simple_deal(rules, random.Random(11))
    two = simple_deal(rules, random.Random(11))
    assert one.result() == two.result() and one.calls == two.calls
    again = play_hands(rules, one.dealer, one.hands)
    assert again.log == one.log
    other = simple_deal(rules, random.Random(12))
    assert other.hands != one.hands


def _hands(text: dict) -> dict:
    return {seat: [parse_card(c) for c in cards.split()] for seat, cards in text.items()}


def _position(rules, dealer, hands, bidder, bid, cards):
    """``bidder`` bids ``bid``, the others pass; then ``cards`` are played in turn."""
    deal = Deal.start(rules, dealer, _hands(hands))
    while deal.phase == "auction":
        seat = deal.auction.to_act
        deal = deal.apply_call(seat, bid if seat == bidder and deal.auction.high_bid is None else "pass")
    for c in cards.split():
        deal = deal.apply_card(deal.play.to_act, parse_card(c))
    return deal


# contree-701 plays clockwise; with W dealing, N speaks and leads first. Spades are trumps.
HANDS = {
    "N": "AH KH JS 9S 7S AD 7D 7C",
    "E": "7H 8H QD KD 8D QC KC 8S",
    "S": "TH QH 8C 9C TC 9D JD QS",
    "W": "9H JH AS TS KS TD AC JC",
}


def _played(deal) -> str:
    card, _, _ = choose_card(deal)
    return card_name(card)


def test_partner_winning_with_the_ace_gets_the_ten():
    deal = _position(RULE_SETS["contree-701"], "W", HANDS, "N", "80S", "AH 7H")
    assert deal.play.to_act == "S"
    assert _played(deal) == "TH"       # N's ace holds: S gives his ten rather than the queen


def test_last_to_play_wins_with_the_cheapest_card_that_wins():
    hands = {
        "N": "QC JS 9S 7S AD 7D AH KH",
        "E": "7C KC 8S 7H 8H QD KD 8D",
        "S": "8C JC QS TH QH 9D JD TD",
        "W": "AC TC 9C TS KS AS 9H JH",
    }
    deal = _position(RULE_SETS["contree-701"], "W", hands, "N", "80S", "QC 7C 8C")
    assert deal.play.to_act == "W"
    assert _played(deal) == "TC"       # the ten wins the queen as well as the ace does, and keeps the ace


def test_a_void_player_cuts_with_his_lowest_trump():
    # W takes 80 clubs and leads the 9 of hearts; N, next, is void in hearts and holds the 7, 8 and 9 of clubs
    hands = {
        "N": "JS 9S 7S AD 7D 7C 8C 9C",
        "E": "7H 8H QD KD 8D QC KC 8S",
        "S": "TH QH AH KH TC 9D JD QS",
        "W": "9H JH AS TS KS TD AC JC",
    }
    deal = _position(RULE_SETS["contree-701"], "S", hands, "W", "80C", "")
    # S dealt, so W speaks and leads first (clockwise); W took the contract in clubs
    assert deal.play.to_act == "W"
    deal = deal.apply_card("W", parse_card("9H"))
    # N must trump, and cuts with his lowest trump, the 7, not the 9 (14 points)
    assert deal.play.to_act == "N"
    assert _played(deal) == "7C"


def test_a_defender_holding_a_master_does_not_give_it_away():
    # E follows the ace of hearts low: he has no hope of the trick, and throws his cheapest card
    deal = _position(RULE_SETS["contree-701"], "W", HANDS, "N", "80S", "AH")
    assert _played(deal) == "7H"


def test_the_taker_draws_trumps_with_the_master_trump():
    deal = _position(RULE_SETS["contree-701"], "W", HANDS, "N", "80S", "")
    assert deal.play.to_act == "N"
    assert _played(deal) == "JS"


def test_counting_a_hand():
    rules = RULE_SETS["contree-701"]
    strong = sum(1 << parse_card(c) for c in "JH 9H AH TH 7H AS AD 7C".split())
    weak = sum(1 << parse_card(c) for c in "7H 8H 7S 8S 9D 8D 7C 8C".split())
    assert bidding_strength(rules, strong, "H") > bidding_strength(rules, strong, "S")
    assert bidding_strength(rules, strong, "H") >= 130
    assert max(bidding_strength(rules, weak, s) for s in "SHDC") < 80
    assert defence_strength(rules, strong, "H") > defence_strength(rules, weak, "H")


def _auction(rules, dealer, hands):
    deal = Deal.start(rules, dealer, _hands(hands))
    while deal.phase == "auction":
        deal = deal.apply_call(*choose_call(deal))
    return deal


def test_the_strong_hand_bids_the_weak_hands_pass_and_trumps_in_the_defence_coinche():
    hands = {
        "N": "JH 9H AH TH 7H AS AD 7C",   # a hearts hand: N bids hearts
        "E": "7S 8S 9S QS 8C 9C 8D 9D",
        "S": "KH QH 8H TS KS 7D TD KD",
        "W": "JS AC TC KC QC JC JD QD",
    }
    deal = _auction(RULE_SETS["contree-701"], "W", hands)
    bids = [(s, c) for s, c in deal.calls if c.kind == "bid"]
    assert bids[0][0] == "N" and bids[0][1].strain == "H"
    assert all(c.kind == "pass" for s, c in deal.calls if s == "E")
    # the same hearts hand against a bid of 80 hearts by W: N coinches in turn
    deal = Deal.start(RULE_SETS["contree-701"], "S", _hands(hands))
    deal = deal.apply_call("W", "80H")
    assert choose_call(deal) == ("N", Call("coinche"))
    # and a hand with nothing in hearts lets the bid stand
    deal = Deal.start(RULE_SETS["contree-701"], "S", _hands({**hands, "N": hands["E"], "E": hands["N"]}))
    deal = deal.apply_call("W", "80H")
    assert choose_call(deal)[1].kind != "coinche"


@pytest.mark.parametrize("name", ["contree-701", "federation", "cafe-sans-tout-atout"])
def test_simple_takers_make_their_contract_more_often_than_random_bidders(name):
    rules = RULE_SETS[name]
    def rate(play):
        made = done = 0
        for seed in range(150):
            deal = play(rules, random.Random(seed))
            if deal.phase == "done":
                done += 1
                made += deal.outcome().made
        return made / done
    simple, chance = rate(simple_deal), rate(random_deal)
    assert simple > chance + 0.2, (simple, chance)
    assert simple > 0.6


def test_deal_command_with_simple_players():
    from test_engine_game import run_cli
    code, out, err = run_cli("deal", "--variant", "contree-701", "--seed", "7", "--players", "simple")
    assert code == 0 and err == ""
    deal = simple_deal(RULE_SETS["contree-701"], random.Random(7))
    assert f"recorded: NS {deal.outcome().score['NS']}, EW {deal.outcome().score['EW']}" in out
    assert run_cli("deal", "--variant", "contree-701", "--seed", "7")[1] != out   # random players by default
    with pytest.raises(SystemExit) as exc:     # argparse refuses the choice: one line, exit 2
        run_cli("deal", "--variant", "contree-701", "--players", "clever")
    assert exc.value.code == 2


def test_the_players_benchmark_prints_one_json_line():
    import importlib.util
    import io
    import json
    from contextlib import redirect_stdout
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "players.py"
    spec = importlib.util.spec_from_file_location("bench_players", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = io.StringIO()
    with redirect_stdout(out):
        assert module.main(["--variant", "cafe-701", "--deals", "5", "--rounds", "2", "--json"]) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert report["variant"] == "cafe-701" and report["deals"] == 5 and report["rounds"] == 2
    assert report["simple_deals_per_s"] > 0 and report["random_deals_per_s"] > 0


def test_a_partner_with_the_trump_jack_and_two_aces_surcoinches():
    hands = {
        "N": "JH 9H AH TH 7H AS AD 7C",
        "E": "7S 8S 9S QS 8C 9C 8D 9D",
        "S": "KH QH 8H TS KS 7D TD KD",
        "W": "JS AC TC KC QC JC JD QD",
    }
    deal = Deal.start(RULE_SETS["contree-701"], "E", _hands(hands))
    deal = deal.apply_call("S", "80H").apply_call("W", "coinche")
    assert deal.auction.to_act == "N"
    assert choose_call(deal) == ("N", Call("surcoinche"))
    # the weak hand in N's place lets the coinche stand
    deal = Deal.start(RULE_SETS["contree-701"], "E", _hands({**hands, "N": hands["E"], "E": hands["N"]}))
    deal = deal.apply_call("S", "80H").apply_call("W", "coinche")
    assert choose_call(deal)[1].kind == "pass"


def test_simple_players_bid_on_the_cards_dealt_before_the_auction():
    """With deal.packets_after_auction the simple players bid on their first six cards: trading
    the last two cards between North and East changes no call, only what is played after."""
    rules = RULE_SETS["six-then-two"]
    changed = 0
    for seed in range(40):
        rng = random.Random(seed)
        seen: dict = {}
        hands = random_hands(rules, rng, "N", seen)
        assert all(m.bit_count() == 6 and hands[s] & m == m for s, m in seen.items())
        last_n, last_e = hands["N"] & ~seen["N"], hands["E"] & ~seen["E"]
        swapped = dict(hands, N=seen["N"] | last_e, E=seen["E"] | last_n)
        one, two = play_hands(rules, "N", hands, seen), play_hands(rules, "N", swapped, seen)
        assert one.calls == two.calls
        # bidding on all eight cards instead does change some auctions
        changed += play_hands(rules, "N", hands).calls != one.calls
    assert changed > 0
