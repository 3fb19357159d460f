"""The auction engine against the seeds and docs/rules-model.md §2 (rules A1-A14).

Every expectation below is worked out by hand from the seed sentence quoted
next to it and the variant's parameters. Seat order, for reading the
scenarios: anticlockwise (federation, cafe-sans-tout-atout) N -> W -> S -> E;
clockwise (contree-701, cafe-701, cafe-1000) N -> E -> S -> W. Partners:
N-S and E-W.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinche_spec.engine.auction import LISTING_CEILING, Auction, replay
from coinche_spec.engine.errors import IllegalCall
from coinche_spec.notation import SEATS, Call, Contract, parse_call
from coinche_spec.variants import load_variant
from coinche_spec.variants.rules import Rules


# -- helpers ---------------------------------------------------------------

def rules_of(variant_id: str, changes: dict | None = None, validate: bool = True):
    """A shipped variant's rules, with some parameters changed (dotted paths under rules; a path
    starting with + adds an optional rule the variant leaves out)."""
    if not changes:
        return load_variant(variant_id).rules
    doc = copy.deepcopy(load_variant(variant_id).document)
    for path, value in changes.items():
        node = doc["rules"]
        adding = path.startswith("+")
        *parents, leaf = path.lstrip("+").split(".")
        for key in parents:
            node = node[key]
        assert adding or leaf in node, f"no rule {path}"  # a typo must not pass silently
        node[leaf] = value
    doc["id"] = variant_id + "-synthetic"
    if validate:
        return load_variant(doc).rules
    return Rules(doc["rules"], doc["id"])  # outside the schema's bounds, on purpose


def calls(text: str) -> list:
    """'W:80H S:pass' -> [("W", Call 80H), ("S", Call pass)]."""
    out = []
    for item in text.split():
        seat, call = item.split(":")
        out.append((seat, parse_call(call)))
    return out


def run(rules, dealer: str, text: str):
    return replay(rules, dealer, calls(text))


def after(rules, dealer: str, text: str) -> Auction:
    """The auction after calls that must all be legal."""
    n, auction, reason = run(rules, dealer, text)
    assert reason is None, reason
    assert n == len(text.split())
    return auction


def legal_set(auction: Auction) -> set:
    return {(seat, str(call)) for seat, call in auction.legal_calls()}


FED = rules_of("federation")
CONTREE = rules_of("contree-701")
CAFE701 = rules_of("cafe-701")
CAFE1000 = rules_of("cafe-1000")
STA = rules_of("cafe-sans-tout-atout")


# -- A1: the first speaker -------------------------------------------------

@pytest.mark.parametrize("dealer, first", [("N", "W"), ("W", "S"), ("S", "E"), ("E", "N")])
def test_a1_federation_first_speaker_is_on_the_dealers_right(dealer, first):
    # seed 000: "Starting on the dealer's right, pass or name a trump suit";
    # anticlockwise, the next seat is the right-hand neighbour.
    a = Auction.start(FED, dealer)
    assert a.state == "open" and a.to_act == first
    assert a.contract is None and a.first_bidder is None


@pytest.mark.parametrize("dealer, first", [("N", "E"), ("E", "S"), ("S", "W"), ("W", "N")])
def test_a1_contree_first_speaker_is_on_the_dealers_left(dealer, first):
    # seed 001: "The player to the dealer's left bids first, then the others in turn."
    assert Auction.start(CONTREE, dealer).to_act == first


def test_turn_order_follows_the_direction():
    # federation anticlockwise from W: W, S, E, N; contree clockwise from E: E, S, W, N.
    a = Auction.start(FED, "N")
    seen = []
    for _ in range(3):
        seen.append(a.to_act)
        a = a.apply(a.to_act, Call("pass"))
    seen.append(a.to_act)
    assert seen == ["W", "S", "E", "N"]
    b = Auction.start(CONTREE, "N")
    seen = []
    for _ in range(3):
        seen.append(b.to_act)
        b = b.apply(b.to_act, Call("pass"))
    seen.append(b.to_act)
    assert seen == ["E", "S", "W", "N"]


# -- A2: numeric bids --------------------------------------------------------

def test_a2_minimum_and_step():
    # seed 000: "a bid of at least 80, in multiples of 10 strictly above the previous bid"
    a = Auction.start(FED, "N")
    assert a.check("W", parse_call("70H")) == "bid 70H: the lowest bid is 80"
    assert a.check("W", parse_call("85H")) == "bid 85H: bids go up in steps of 10 from 80"
    assert a.check("W", parse_call("80H")) is None
    assert a.check("W", parse_call("90H")) is None
    with pytest.raises(IllegalCall, match="steps of 10 from 80"):
        a.apply("W", parse_call("85H"))


def test_a2_federation_has_no_maximum():
    # seed 000 names no highest bid; the federation file reads it as maximum: null.
    n, a, reason = run(FED, "N", "W:170H S:1000S")
    assert (n, reason) == (2, None)
    assert a.high_bid == Call("bid", 1000, "S") and a.bidder == "S"
    # 1000 is above the listing ceiling, so legal_calls() lists bids only up to it
    assert 1000 > LISTING_CEILING
    start = Auction.start(FED, "N")
    listed = {c.value for _, c in start.legal_calls() if c.kind == "bid"}
    # 80, 90, ..., 500 and capot
    assert listed == set(range(80, LISTING_CEILING + 1, 10)) | {"capot"}


def test_a2_contree_stops_at_160():
    # seed 001: "Bid 80 to 160 in tens with a trump suit, or bid capot"
    n, a, reason = run(CONTREE, "N", "E:160H S:170S")
    assert n == 1
    assert reason == "bid 170S: the highest bid is 160 (capot outranks it)"
    # E opens: 9 values (80..160: (160 - 80) / 10 + 1 = 9) x 4 suits + 4 capots + pass = 41
    assert len(Auction.start(CONTREE, "N").legal_calls()) == 9 * 4 + 4 + 1


def test_a2_synthetic_minimum_82_step_5():
    # RULES-SPACE A2: "minimum (80 or 82), step (10; some use 5)".
    r = rules_of("contree-701", {"auction.bids": {"minimum": 82, "step": 5, "maximum": 162}})
    a = Auction.start(r, "N")  # clockwise: E first
    assert a.check("E", parse_call("80H")) == "bid 80H: the lowest bid is 82"
    assert a.check("E", parse_call("85H")) == "bid 85H: bids go up in steps of 5 from 82"  # 85 - 82 = 3
    assert a.check("E", parse_call("87H")) is None  # 82 + 5 = 87
    assert a.check("E", parse_call("162H")) is None  # 82 + 16 * 5 = 162
    assert a.check("E", parse_call("167H")) == "bid 167H: the highest bid is 162 (capot outranks it)"
    values = sorted({c.value for _, c in a.legal_calls() if c.kind == "bid" and c.value != "capot"})
    assert values == list(range(82, 163, 5))  # 17 values: (162 - 82) / 5 + 1


# -- A3: strains --------------------------------------------------------------

def test_a3_four_suits_only():
    # seed 001: "no sans atout or tout atout, only the four suits as trump"
    a = Auction.start(CONTREE, "N")
    assert a.check("E", parse_call("90SA")) == "bid 90SA: sans atout may not be bid in this variant"
    assert a.check("E", parse_call("90TA")) == "bid 90TA: tout atout may not be bid in this variant"
    assert a.check("E", parse_call("capotTA")) == "bid capotTA: tout atout may not be bid in this variant"
    strains = {c.strain for _, c in a.legal_calls() if c.kind == "bid"}
    assert strains == {"S", "H", "D", "C"}


def test_a3_sans_and_tout_atout():
    # seed 002: "name a suit and a value of 80 or more (multiples of 10), or a Tout Atout,
    # Sans Atout, or Capot bid, or pass."
    n, a, reason = run(STA, "N", "W:80TA S:90SA E:capotTA")
    assert (n, reason) == (3, None)
    strains = {c.strain for _, c in Auction.start(STA, "N").legal_calls() if c.kind == "bid"}
    assert strains == {"S", "H", "D", "C", "TA", "SA"}


def test_a3_synthetic_tout_atout_only():
    r = rules_of("contree-701", {"auction.strains": {"sans_atout": False, "tout_atout": True},
                                 "auction.strain_order": ["C", "D", "H", "S", "TA"]})
    a = Auction.start(r, "N")
    assert a.check("E", parse_call("80TA")) is None
    assert a.check("E", parse_call("80SA")) == "bid 80SA: sans atout may not be bid in this variant"


# -- A4: what beats a bid --------------------------------------------------------

def test_a4_higher_value_only():
    # seed 001: "Each bid must beat the last one by number."
    n, a, reason = run(CONTREE, "N", "E:80H S:80S")
    assert n == 1
    assert reason == "bid 80S does not beat the 80H bid: only a higher value beats a bid in this variant"
    assert a.check("S", parse_call("70S")) == "bid 70S: the lowest bid is 80"
    assert a.check("S", parse_call("90C")) is None


def test_a4_same_value_in_a_higher_strain():
    # seed 002: "the same value in a suit that outranks the earlier one"; Tout Atout
    # "outranks a suited bid of equal value"; Sans Atout "outranks Tout Atout at the same
    # nominal value". strain_order C < D < H < S < TA < SA. Anticlockwise from W.
    n, a, reason = run(STA, "N", "W:80H S:80S E:80TA N:80SA W:80D")
    assert n == 4
    assert reason == ("bid 80D does not beat the 80SA bid: at equal value the strain must rank higher "
                      "(C < D < H < S < TA < SA)")
    assert a.bidder == "N" and a.high_bid == Call("bid", 80, "SA")
    # after 80H, the bids up to 90 that W's neighbour S may make: 80S, 80TA, 80SA and 90 in all six
    b = after(STA, "N", "W:80H")
    low = {str(c) for s, c in b.legal_calls() if c.kind == "bid" and c.value != "capot" and c.value <= 90}
    assert low == {"80S", "80TA", "80SA", "90C", "90D", "90H", "90S", "90TA", "90SA"}
    assert b.check("S", parse_call("80H")) is not None  # the same bid does not beat itself


def test_a4_strain_left_out_of_the_order_never_overcalls_by_strain():
    # The loader refuses a strain_order that leaves out an allowed strain; given such rules
    # anyway, the engine lets that strain beat, or be beaten, only by a higher value.
    r = rules_of("cafe-sans-tout-atout", {"auction.strain_order": ["C", "D", "H", "S"]}, validate=False)
    n, a, reason = run(r, "N", "W:80S S:80TA")
    assert n == 1 and "strain_order does not rank TA" in reason
    assert after(r, "N", "W:80TA").check("S", parse_call("90C")) is None


# -- A5: capot -------------------------------------------------------------------

def test_a5_capot_outranks_every_number_and_may_be_coinched():
    # seed 000: "Capot promises all 8 tricks and outranks every numerical bid."
    # federation: capot ends_auction false, may_be_coinched true, overcall higher_value.
    a = after(FED, "N", "W:1000H S:capotS")
    assert a.state == "open" and a.to_act == "E"
    # nothing outranks a capot under higher_value, not even another capot
    assert a.check("E", parse_call("capotH")) == "bid capotH does not beat the capotS bid: nothing outranks a capot bid"
    assert a.check("E", parse_call("2000H")) is not None
    assert {c.kind for s, c in a.legal_calls()} == {"pass", "coinche"}
    b = after(FED, "N", "W:1000H S:capotS E:coinche N:pass W:pass S:pass")
    assert b.contract == Contract("capot", "S", "S", 2)


def test_a5_capot_ends_the_auction_at_once():
    # seed 003: "Bidding ends when all players in a row pass, coinché or surcoinché is called,
    # or a capot is called." cafe-1000 is clockwise: E speaks first after dealer N.
    n, a, reason = run(CAFE1000, "N", "E:80H S:capotD W:coinche")
    assert n == 2
    assert a.state == "contract" and a.to_act is None
    assert a.contract == Contract("capot", "D", "S", 1)
    assert reason == "W cannot call coinche: the auction is over (capotD by S)"
    assert a.legal_calls() == []


def test_a5_capot_that_may_not_be_coinched():
    # cafe-1000 with a capot that does not end the auction: may_be_coinched false still bars a coinche.
    r = rules_of("cafe-1000", {"auction.capot.ends_auction": False})
    a = after(r, "N", "E:capotH")
    assert a.state == "open" and a.to_act == "S"
    assert a.check("S", Call("coinche")) == "S cannot coinche: a capot bid may not be coinched in this variant"
    assert legal_set(a) == {("S", "pass")}


def test_a5_nothing_beats_a_capot_even_by_strain():
    # seed 002: capot "is the highest possible contract"; docs/rules-model.md §2: nothing outranks a capot
    # bid, even where equal values overcall by strain (cafe-sans-tout-atout).
    n, a, reason = run(STA, "N", "W:capotS S:capotTA")
    assert n == 1 and reason == "bid capotTA does not beat the capotS bid: nothing outranks a capot bid"
    assert legal_set(after(STA, "N", "W:capotS")) == {("S", "pass")}  # no coinche before the end here


def test_a5_capot_above_the_maximum():
    # seed 001: "Bid 80 to 160 in tens with a trump suit, or bid capot"
    a = after(CONTREE, "N", "E:160H S:capotC")
    assert a.high_bid == Call("bid", "capot", "C")


def test_a5_capot_not_allowed():
    r = rules_of("contree-701", {"auction.capot.allowed": False})
    a = Auction.start(r, "N")
    assert a.check("E", parse_call("capotH")) == "bid capotH: capot may not be bid in this variant"
    assert all(c.value != "capot" for _, c in a.legal_calls())
    # 160H is then the top: E bids it and S may only pass or coinche (in turn)
    assert legal_set(a.apply("E", parse_call("160H"))) == {("S", "pass"), ("S", "coinche")}


# -- A6: générale ----------------------------------------------------------------

# The générale's auction, scoring and protocol are tested in test_engine_generale.py.

def test_a6_generale_only_where_allowed():
    # federation names no générale: the bid is refused, and never listed
    a = Auction.start(FED, "N")
    assert a.check("W", parse_call("generaleH")) == "bid generaleH: the générale may not be bid in this variant"
    assert all(not c.is_generale for _, c in a.legal_calls())
    # allowed: the auction starts, and the four générales are listed after the four capots
    r = rules_of("federation", {"auction.generale": {"allowed": True, "value": 500}})
    listed = [str(c) for _, c in Auction.start(r, "N").legal_calls() if c.kind == "bid"]
    assert listed[-8:] == ["capotC", "capotD", "capotH", "capotS",
                           "generaleC", "generaleD", "generaleH", "generaleS"]   # strain_order C D H S


# -- A7: the end of the auction ------------------------------------------------------

@pytest.mark.parametrize("rules", [FED, CONTREE, CAFE701, CAFE1000, STA])
def test_a7_four_passes_throw_the_cards_in(rules):
    # seed 000: "Initial 4 passes mean a new deal"; seed 001: "If all four pass, the cards are redealt."
    a = Auction.start(rules, "S")
    order = []
    for _ in range(4):
        assert a.state == "open"
        order.append(a.to_act)
        a = a.apply(a.to_act, Call("pass"))
    assert sorted(order) == sorted(SEATS)
    assert a.state == "redeal" and a.to_act is None and a.contract is None
    assert a.legal_calls() == []
    reason = a.check(order[0], parse_call("80H"))
    assert reason == f"{order[0]} cannot call 80H: the auction is over, all four passed and the cards are dealt again"


def test_a7_three_passes_after_a_bid():
    # seed 000: "after a bid, 3 successive passes settle it"
    a = after(FED, "N", "W:80H S:pass E:pass")
    assert a.state == "open" and a.to_act == "N"
    a = a.apply("N", Call("pass"))
    assert a.state == "contract" and a.to_act is None
    assert a.contract == Contract(80, "H", "W", 1)


def test_a7_passes_count_in_a_row():
    # two passes, a bid, then three more: the count starts again at the new bid
    a = after(FED, "N", "W:80H S:pass E:pass N:90S W:pass S:pass")
    assert a.state == "open" and a.to_act == "E"
    a = a.apply("E", Call("pass"))
    assert a.contract == Contract(90, "S", "N", 1)


def test_a7_cafe_1000_all_in_a_row_pass():
    # seed 003: "Bidding ends when all players in a row pass" — read as the three others
    # after the last bid (passes_to_end 3). Clockwise from E.
    a = after(CAFE1000, "N", "E:80H S:pass W:pass N:pass")
    assert a.contract == Contract(80, "H", "E", 1)


@pytest.mark.parametrize("passes, settled_after", [(1, "W:80H S:pass"), (2, "W:80H S:pass E:pass")])
def test_a7_synthetic_fewer_passes_to_end(passes, settled_after):
    r = rules_of("federation", {"auction.passes_to_end": passes})
    a = after(r, "N", settled_after)
    assert a.contract == Contract(80, "H", "W", 1)
    # but four passes are still needed to throw the cards in before any bid
    b = after(r, "N", "W:pass S:pass E:pass")
    assert b.state == "open" and b.to_act == "N"


def test_contract_declarer_is_the_seat_of_the_highest_bid():
    # seed 000: "the last bid becomes the contract" (seed 002: "the bidder's partnership becomes
    # the takers"); the declarer is the seat that made it, the first bidder is kept apart.
    a = after(FED, "N", "W:pass S:80H E:90H N:100H W:pass S:pass E:pass")
    assert a.contract == Contract(100, "H", "N", 1)
    assert a.first_bidder == "S"


# -- A8: speaking again after a pass ------------------------------------------------

def test_a8_passing_does_not_withdraw_you():
    # seed 000: "Passing does not withdraw you permanently."
    a = after(FED, "N", "W:pass S:80H E:pass N:pass W:90H")
    assert a.bidder == "W"


def test_a8_synthetic_no_speaking_after_a_pass():
    r = rules_of("federation", {"auction.speak_after_pass": False})
    n, a, reason = run(r, "N", "W:pass S:80H E:pass N:pass W:90H")
    assert n == 4
    assert reason == "W cannot bid 90H: W has passed, and in this variant a player who passed may not bid again"
    # W may still pass (which settles 80H: E, N, W pass in a row) or coinche S's bid in turn
    assert legal_set(a) == {("W", "pass"), ("W", "coinche")}
    assert a.apply("W", Call("pass")).contract == Contract(80, "H", "S", 1)


# -- A9: raising one's own bid ---------------------------------------------------------

def test_a9_never_reachable_with_three_passes():
    # seed 000: "You cannot raise your own bid without an intervening bid." With four players
    # and three passes ending the auction, the bidder never speaks again over his own bid.
    n, a, reason = run(FED, "N", "W:80H S:pass E:pass N:pass W:90H")
    assert n == 4 and a.state == "contract"
    assert reason == "W cannot call 90H: the auction is over (80H by W)"


def test_a9_passes_to_end_1_with_when_changing_strain_still_unreachable():
    r = rules_of("federation", {"auction.passes_to_end": 1, "auction.raise_own_bid": "when_changing_strain"})
    n, a, reason = run(r, "N", "W:80H S:pass W:90S")
    # one pass ends it: W never gets the turn back over his own 80H
    assert n == 2 and a.contract == Contract(80, "H", "W", 1)


@pytest.mark.parametrize("raise_own, expect_90H, expect_90S", [
    ("never_without_intervening_bid",
     "W cannot bid 90H: the 80H bid is W's own, and no one may raise his own bid without an intervening bid",
     "W cannot bid 90S: the 80H bid is W's own, and no one may raise his own bid without an intervening bid"),
    ("when_changing_strain", "W cannot bid 90H: W may raise his own 80H bid only in another strain", None),
    ("always", None, None),
])
def test_a9_raise_own_bid_with_four_passes_to_end(raise_own, expect_90H, expect_90S):
    # Outside the schema (passes_to_end is at most 3): four passes after a bid, so the
    # bidder speaks again over his own bid after the three others pass.
    r = rules_of("federation", {"auction.passes_to_end": 4, "auction.raise_own_bid": raise_own},
                 validate=False)
    a = after(r, "N", "W:80H S:pass E:pass N:pass")
    assert a.state == "open" and a.to_act == "W"
    assert a.check("W", parse_call("90H")) == expect_90H
    assert a.check("W", parse_call("90S")) == expect_90S
    offered = {str(c) for s, c in a.legal_calls() if c.kind == "bid"}
    assert ("90H" in offered) == (expect_90H is None)
    assert ("90S" in offered) == (expect_90S is None)
    # W's own pass is the fourth in a row: 80H by W
    assert a.apply("W", Call("pass")).contract == Contract(80, "H", "W", 1)


# -- A10: who may coinche -----------------------------------------------------------

def test_a10_only_an_opponent_of_the_bidder():
    # seed 000: "On your turn you may coinche an opponent's bid". W bids, anticlockwise S then E.
    n, a, reason = run(FED, "N", "W:90H S:pass E:coinche")
    assert n == 2 and reason == "E cannot coinche: the 90H bid is E's partner's"
    assert a.check("E", Call("coinche")) == reason
    assert ("E", "coinche") not in legal_set(a)
    assert after(FED, "N", "W:90H S:coinche").multiplier == 2


def test_a10_no_coinche_before_a_bid():
    a = Auction.start(FED, "N")
    assert a.check("W", Call("coinche")) == "W cannot coinche: there is no bid yet"


# -- A11: when a coinche may come ---------------------------------------------------------

def test_a11_in_turn_only():
    # seed 000: "No player can double out of turn." W bids 80H; S is to act.
    a = after(FED, "N", "W:80H")
    assert a.check("N", Call("coinche")) == "N cannot coinche: it is S's turn, and no one may coinche out of turn"
    assert legal_set(a) & {("N", "coinche"), ("S", "coinche")} == {("S", "coinche")}
    # after S passes, N still waits for E
    b = a.apply("S", Call("pass"))
    assert b.check("N", Call("coinche")) == "N cannot coinche: it is E's turn, and no one may coinche out of turn"


def test_a11_after_auction_window():
    # seed 002: "Once the auction ends and before the first card is led, either defender may
    # announce 'Coinche' ... either taker may announce 'Surcoinche'". W bids: takers W and E,
    # defenders N and S.
    n, a, reason = run(STA, "N", "W:80H S:coinche")
    assert n == 1
    assert reason == "S cannot coinche yet: in this variant a coinche comes only after the auction ends"
    assert {c.kind for s, c in a.legal_calls()} == {"pass", "bid"}

    a = after(STA, "N", "W:80H S:pass E:pass N:pass")
    assert a.state == "contract" and a.to_act is None and a.window_open
    assert a.contract == Contract(80, "H", "W", 1)
    assert legal_set(a) == {("N", "coinche"), ("S", "coinche")}
    assert a.check("N", Call("pass")) == ("N cannot call pass: the auction is over (80H by W); "
                                          "before the first card a defender may only coinche")
    assert a.check("E", Call("coinche")) == "E cannot coinche: the 80H bid is E's partner's"
    assert a.check("W", Call("coinche")) == "W cannot coinche: the 80H bid is W's own"
    assert a.check("W", Call("surcoinche")) == "W cannot surcoinche: the 80H by W contract is not coinched"
    # either defender, in any order: N, who spoke last, may coinche first
    b = a.apply("N", Call("coinche"))
    assert b.contract == Contract(80, "H", "W", 2) and b.window_open
    assert legal_set(b) == {("W", "surcoinche"), ("E", "surcoinche")}
    assert b.check("S", Call("coinche")) == "S cannot coinche: the 80H by W contract is already coinched"
    assert b.check("N", Call("surcoinche")) == "N cannot surcoinche: only the takers (W and E) may surcoinche"
    # either taker: E, the partner, surcoinches; the window closes
    c = b.apply("E", Call("surcoinche"))
    assert c.contract == Contract(80, "H", "W", 4) and not c.window_open
    assert c.legal_calls() == []
    assert c.check("W", Call("surcoinche")) == "W cannot call surcoinche: the auction is over (80H by W, surcoinched)"


def test_a11_first_card_closes_the_window():
    a = after(STA, "N", "W:80H S:pass E:pass N:pass")
    closed = a.close()
    assert not closed.window_open and closed.legal_calls() == []
    assert closed.contract == Contract(80, "H", "W", 1)
    assert closed.check("S", Call("coinche")) == "S cannot call coinche: the auction is over (80H by W)"
    assert a.window_open  # the old snapshot is untouched
    with pytest.raises(IllegalCall):
        Auction.start(STA, "N").close()


def test_a11_window_after_a_capot_that_ends_the_auction():
    # A capot with ends_auction under after_auction: the window opens only if capot may be coinched.
    yes = rules_of("cafe-sans-tout-atout", {"auction.capot.ends_auction": True})
    a = after(yes, "N", "W:capotH")
    assert a.state == "contract" and a.window_open
    assert legal_set(a) == {("S", "coinche"), ("N", "coinche")}
    no = rules_of("cafe-sans-tout-atout", {"auction.capot.ends_auction": True, "auction.capot.may_be_coinched": False})
    b = after(no, "N", "W:capotH")
    assert b.state == "contract" and not b.window_open and b.legal_calls() == []


def test_a11_synthetic_any_moment():
    # RULES-SPACE A11: "at any moment ('à la volée')". W bids 80H; S is to act, but N
    # (a defender) coinches out of turn; the doubled phase goes on from the seat after N: W.
    r = rules_of("federation", {"auction.coinche.when": "any_moment"})
    a = after(r, "N", "W:80H")
    assert legal_set(a) >= {("S", "coinche"), ("N", "coinche")}
    assert ("E", "coinche") not in legal_set(a)
    assert a.check("E", Call("coinche")) == "E cannot coinche: the 80H bid is E's partner's"
    b = a.apply("N", Call("coinche"))
    assert b.state == "open" and b.to_act == "W" and b.multiplier == 2
    assert legal_set(b) == {("W", "pass"), ("W", "surcoinche")}
    assert b.check("S", Call("coinche")) == "S cannot coinche: the contract is already coinched"
    # three passes after the coinche: W, S, E
    assert after(r, "N", "W:80H N:coinche W:pass S:pass E:pass").contract == Contract(80, "H", "W", 2)
    # once the bidding is over, no coinche at all
    c = after(r, "N", "W:80H S:pass E:pass N:pass")
    assert c.check("N", Call("coinche")) == "N cannot call coinche: the auction is over (80H by W)"


# -- A12: what a coinche does ------------------------------------------------------------

def test_a12_federation_freeze_then_three_passes():
    # seed 000: "the contract freezes and its award doubles. The next 3 passes end the auction
    # unless the bidders surcoinche". "A coinched contract cannot be raised."
    a = after(FED, "N", "W:80H S:coinche")
    assert a.to_act == "E" and a.state == "open"
    assert a.check("E", parse_call("90H")) == "E cannot bid 90H: the bids are frozen after the coinche"
    a = after(FED, "N", "W:80H S:coinche E:pass N:pass")
    assert a.state == "open" and a.to_act == "W"
    a = a.apply("W", Call("pass"))
    assert a.contract == Contract(80, "H", "W", 2)  # the multiplier 1 becomes 2


def test_a12_cafe_1000_one_answer_after_the_coinche():
    # seed 003: "The opponent can in turn call surcoinché"; "Bidding ends when ... coinché or
    # surcoinché is called". cafe-1000: passes_after 1. Clockwise: E bids, S coinches, W answers.
    a = after(CAFE1000, "N", "E:80H S:coinche")
    assert a.to_act == "W"
    assert legal_set(a) == {("W", "pass"), ("W", "surcoinche")}
    assert a.check("N", Call("pass")) == "N cannot call pass: it is W's turn"
    assert a.apply("W", Call("pass")).contract == Contract(80, "H", "E", 2)
    # seed 003: "If surcoinché was called, the score for the bid is tripled."
    assert a.apply("W", Call("surcoinche")).contract == Contract(80, "H", "E", 3)


def test_a12_synthetic_coinche_ends_the_auction():
    r = rules_of("federation", {"auction.coinche.effect": "ends_auction"})
    n, a, reason = run(r, "N", "W:80H S:coinche E:surcoinche")
    assert n == 2
    assert a.contract == Contract(80, "H", "W", 2)
    assert reason == "E cannot call surcoinche: the auction is over (80H by W)"


def test_a12_synthetic_two_passes_after():
    r = rules_of("federation", {"auction.coinche.passes_after": 2})
    a = after(r, "N", "W:80H S:coinche E:pass N:pass")
    assert a.contract == Contract(80, "H", "W", 2)


# -- A13: surcoinche -------------------------------------------------------------------

def test_a13_federation_surcoinche_ends_at_once():
    # seed 000: "unless the bidders surcoinche, which ends it immediately and makes the multiplier 4"
    a = after(FED, "N", "W:80H S:coinche E:surcoinche")
    assert a.contract == Contract(80, "H", "W", 4) and a.state == "contract"
    # the bidder himself, later in the doubled phase
    b = after(FED, "N", "W:80H S:coinche E:pass N:pass W:surcoinche")
    assert b.contract == Contract(80, "H", "W", 4)


def test_a13_only_the_bidding_side():
    n, a, reason = run(FED, "N", "W:80H S:coinche E:pass N:surcoinche")
    assert n == 3 and reason == "N cannot surcoinche: only the takers (W and E) may surcoinche"
    assert legal_set(a) == {("N", "pass")}


def test_a13_surcoinche_needs_a_coinche():
    a = after(FED, "N", "W:80H")
    assert a.check("S", Call("surcoinche")) == "S cannot surcoinche: there is no coinche to answer"


def test_a13_synthetic_no_surcoinche():
    r = rules_of("federation", {"auction.surcoinche.allowed": False})
    a = after(r, "N", "W:80H S:coinche")
    assert a.check("E", Call("surcoinche")) == "E cannot surcoinche: this variant has no surcoinche"
    assert legal_set(a) == {("E", "pass")}
    # after_auction without surcoinche: the coinche closes the window
    w = rules_of("cafe-sans-tout-atout", {"auction.surcoinche.allowed": False})
    b = after(w, "N", "W:80H S:pass E:pass N:pass S:coinche")
    assert b.contract == Contract(80, "H", "W", 2) and not b.window_open and b.legal_calls() == []


def test_a13_synthetic_surcoinche_that_does_not_end():
    # surcoinche.ends_auction false: after it, coinche.passes_after (3) passes in a row end it.
    r = rules_of("federation", {"auction.surcoinche.ends_auction": False})
    a = after(r, "N", "W:80H S:coinche E:surcoinche")
    assert a.state == "open" and a.to_act == "N" and a.multiplier == 4
    assert a.check("N", parse_call("90S")) == "N cannot bid 90S: the bids are frozen after the coinche"
    b = after(r, "N", "W:80H S:coinche E:surcoinche N:pass")
    assert b.check("W", Call("surcoinche")) == "W cannot surcoinche: the contract is already surcoinched"
    c = after(r, "N", "W:80H S:coinche E:surcoinche N:pass W:pass")
    assert c.state == "open" and c.to_act == "S"
    assert c.apply("S", Call("pass")).contract == Contract(80, "H", "W", 4)


# -- A14: multipliers -------------------------------------------------------------------

@pytest.mark.parametrize("rules, coinche, surcoinche", [
    (FED, 2, 4),       # seed 000: "its award doubles" ... "makes the multiplier 4"
    (CONTREE, 2, 4),   # seed 001: "surcontre (surcoinche) and quadruple it"
    (CAFE701, 2, 4),   # seed 004: "coinche: the points are doubled ... surcoinche: multiplied by four"
    (CAFE1000, 2, 3),  # seed 003: "the score is tripled"
])
def test_a14_multipliers(rules, coinche, surcoinche):
    # the first speaker bids, the next (a defender) coinches, the next (the bidder's partner) surcoinches
    first = Auction.start(rules, "N").to_act
    a = Auction.start(rules, "N").apply(first, parse_call("100S"))
    a = a.apply(a.to_act, Call("coinche"))
    assert a.multiplier == coinche and a.state == "open"
    a = a.apply(a.to_act, Call("surcoinche"))
    assert a.contract == Contract(100, "S", first, surcoinche)


def test_a14_synthetic_multipliers():
    r = rules_of("contree-701", {"auction.coinche.multiplier": 3, "auction.surcoinche.multiplier": 6})
    assert after(r, "N", "E:80H S:coinche W:pass N:pass E:pass").contract.multiplier == 3
    assert after(r, "N", "E:80H S:coinche W:surcoinche").contract.multiplier == 6


# -- wrong seat, after the end, replay ---------------------------------------------------

def test_a_call_by_the_wrong_seat_is_illegal():
    n, a, reason = run(FED, "N", "W:80H E:pass")
    assert n == 1 and reason == "E cannot call pass: it is S's turn"
    with pytest.raises(IllegalCall, match="it is S's turn"):
        a.apply("E", Call("pass"))


def test_replay_accepts_strings_and_reports_the_first_refusal():
    n, a, reason = replay(FED, "N", [("W", "80h"), ("S", "contre"), ("E", "90S"), ("N", "pass")])
    assert n == 2 and a.multiplier == 2 and reason.startswith("E cannot bid 90S")
    assert replay(FED, "N", []) [0:1] == (0,)


def test_bad_seat_is_a_reason_not_a_traceback():
    a = Auction.start(FED, "N")
    assert a.check("X", Call("pass")) == "'X' is not a seat: expected N, E, S or W"


def test_auctions_are_immutable_snapshots():
    a = Auction.start(FED, "N")
    b = a.apply("W", parse_call("80H"))
    assert a.to_act == "W" and a.high_bid is None
    assert b.to_act == "S" and b.high_bid == Call("bid", 80, "H")
    with pytest.raises(AttributeError):
        a.to_act = "E"
    assert not hasattr(a, "__dict__")


# -- properties: random legal auctions -------------------------------------------------

CONFIGS = [
    FED, CONTREE, CAFE701, CAFE1000, STA,
    rules_of("federation", {"auction.coinche.when": "any_moment", "auction.surcoinche.ends_auction": False}),
    rules_of("federation", {"auction.speak_after_pass": False, "auction.passes_to_end": 2}),
    rules_of("cafe-sans-tout-atout", {"auction.capot.ends_auction": True, "auction.coinche.passes_after": 1}),
    rules_of("contree-701", {"auction.coinche.effect": "ends_auction", "auction.overcall": "higher_value_or_strain",
                             "auction.bids": {"minimum": 82, "step": 5, "maximum": 122}}),
    rules_of("federation", {"auction.passes_to_end": 4, "auction.raise_own_bid": "when_changing_strain",
                            "auction.coinche.when": "any_moment"}, validate=False),
    # capot over capot (with the générale above), «à la vache», caps on rounds and on bids
    rules_of("contree-701", {"+auction.capot.overcall_by_capot": "higher_strain", "auction.bids.maximum": 90,
                             "auction.generale.allowed": True, "auction.raise_own_bid": "always",
                             "auction.passes_to_end": 4}),
    rules_of("federation", {"auction.all_pass": "dealer_must_bid", "+auction.max_rounds": 2,
                            "auction.coinche.when": "any_moment", "auction.coinche.effect": "overbid_cancels"}),
    rules_of("cafe-sans-tout-atout", {"+auction.max_bids_per_player": 1, "+auction.max_rounds": 3,
                                      "+auction.capot.overcall_by_capot": "higher_strain"}),
]
_SPECIAL = (Call("pass"), Call("coinche"), Call("surcoinche"))


def _universe(rules):
    """Every call legal_calls() could list (numeric bids up to its ceiling), for every seat."""
    bids = [c for _, c in Auction.start(rules, "N").legal_calls() if c.kind == "bid"]
    return [(s, c) for s in SEATS for c in _SPECIAL + tuple(bids)], len(bids)


_UNIVERSES = {id(r): _universe(r) for r in CONFIGS}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(CONFIGS))), st.sampled_from(SEATS), st.data())
def test_random_legal_auctions_terminate_and_agree_with_check(config, dealer, data):
    rules = CONFIGS[config]
    universe, n_bids = _UNIVERSES[id(rules)]
    a = rules.auction
    # Each bid beats the one before, so at most n_bids bids; at most 3 passes before the first,
    # fewer than passes_to_end between two, passes_to_end after the last; then a coinche,
    # passes_after - 1 passes, a surcoinche, passes_after passes; or the two window calls.
    bound = 3 + n_bids * a.passes_to_end + a.passes_to_end + 2 * a.coinche.passes_after + 2
    auction = Auction.start(rules, dealer)
    steps = 0
    while True:
        legal = auction.legal_calls()
        offered = set(legal)
        assert len(offered) == len(legal)  # nothing listed twice
        # legal_calls() is exactly the calls check() accepts (within the listing ceiling)
        accepted = {sc for sc in universe if auction.check(*sc) is None}
        assert offered == accepted
        if auction.state == "open":
            assert legal and all(s == auction.to_act or c.kind == "coinche" for s, c in legal)
        else:
            assert auction.to_act is None
            assert bool(legal) == auction.window_open
        if not legal:
            break
        seat, call = data.draw(st.sampled_from(legal))
        nxt = auction.apply(seat, call)
        assert nxt is not auction
        auction = nxt
        steps += 1
        assert steps <= bound
    assert auction.state in ("contract", "redeal")
    if auction.state == "contract":
        c = auction.contract
        assert c.multiplier in (1, a.coinche.multiplier, a.surcoinche.multiplier)
        assert c.declarer == auction.bidder
    else:
        assert auction.first_bidder is None


def test_a9_a_capot_in_the_same_strain_is_not_a_change_of_strain():
    """What the schema's raise_own_bid description says: with when_changing_strain a capot names a
    strain like any bid, so W's capotH over his own 80H is refused and his capotS is allowed."""
    r = load_variant("test-raise-new-strain").rules
    a = after(r, "N", "W:80H S:pass E:pass N:pass")
    assert a.to_act == "W"
    assert a.check("W", parse_call("capotH")) == "W cannot bid capotH: W may raise his own 80H bid only in another strain"
    assert a.check("W", parse_call("capotS")) is None


def test_a5_a6_only_a_generale_outranks_a_capot():
    """The schema says a capot outranks every number and only a générale outranks it."""
    r = load_variant("test-generale").rules
    a = after(r, "N", "W:capotH")
    assert a.check("S", parse_call("capotS")) is not None      # no strain lifts one capot over another
    assert a.check("S", parse_call("generaleS")) is None


# -- capot over capot, «à la vache», caps on the rounds and on a player's bids (issue 8) ------------

def test_a5_capot_over_capot_in_a_higher_strain_only():
    """capot.overcall_by_capot higher_strain: after N's capotH, E may bid capot only in spades (the one
    strain above hearts in C < D < H < S); the refusal of capotD says so."""
    r = load_variant("test-capot-over-capot").rules
    a = after(r, "W", "N:capotH")
    assert legal_set(a) == {("E", "pass"), ("E", "capotS"), ("E", "coinche")}
    assert a.check("E", parse_call("capotD")) == ("bid capotD does not beat the capotH bid: only a capot in a "
                                                   "higher strain (C < D < H < S) outranks a capot bid")
    assert after(r, "W", "N:capotH E:capotS").high_bid == Call("bid", "capot", "S")


def test_a5_a6_a_generale_still_outranks_every_capot_and_no_capot_a_generale():
    r = rules_of("test-capot-over-capot", {"auction.generale.allowed": True})
    a = after(r, "W", "N:capotD")
    assert {str(c) for s, c in a.legal_calls() if c.kind == "bid"} == {
        "capotH", "capotS", "generaleC", "generaleD", "generaleH", "generaleS"}
    b = after(r, "W", "N:generaleC")
    assert b.check("E", parse_call("capotS")) == "bid capotS does not beat the generaleC bid: nothing outranks a générale"


def test_a5_capot_over_capot_needs_a_strain_order():
    """Where a capot may overcall a capot, the strain order may not be left out: a located error."""
    doc = copy.deepcopy(load_variant("contree-701").document)
    doc["id"] = "test-no-order"
    del doc["rules"]["auction"]["strain_order"]
    doc["interpretations"] = [i for i in doc.get("interpretations", [])
                              if "auction.strain_order" not in i.get("rules", [])]
    load_variant(copy.deepcopy(doc))                 # value only, no capot over capot: may be left out
    doc["rules"]["auction"]["capot"]["overcall_by_capot"] = "higher_strain"
    with pytest.raises(Exception, match=r"rules\.auction: missing rule 'strain_order'.*overcall_by_capot"):
        load_variant(copy.deepcopy(doc))
    doc["rules"]["auction"]["capot"]["ends_auction"] = True      # no bid follows a capot: cannot matter
    load_variant(doc)


def test_a7_a_la_vache_the_dealer_may_not_be_the_fourth_to_pass():
    r = load_variant("test-dealer-must-bid").rules
    a = after(r, "W", "N:pass E:pass S:pass")
    assert a.to_act == "W" and ("W", "pass") not in legal_set(a)
    assert a.legal_calls()[0] == ("W", Call("bid", 80, "C"))        # the lowest bid first
    assert a.check("W", Call("pass")).startswith("W cannot pass: the three other players have passed")
    b = after(r, "W", "N:pass E:pass S:pass W:80C N:pass E:pass")
    assert ("S", "pass") in legal_set(b)                            # only the dealer, only then
    assert after(r, "W", "N:pass E:80H S:pass W:pass N:pass").state == "contract"


def test_a7_a_player_who_has_bid_his_share_may_pass_coinche_or_surcoinche():
    r = load_variant("test-bids-once").rules
    a = after(r, "W", "N:80H E:90S S:pass W:pass")
    assert legal_set(a) == {("N", "pass"), ("N", "coinche")}
    assert a.check("N", parse_call("100H")).startswith("N cannot bid 100H: N has bid once")
    b = after(r, "W", "N:80H E:90S S:pass W:pass N:coinche")
    assert ("E", "surcoinche") in legal_set(b)


def test_a7_the_round_cap_ends_the_auction_and_opens_the_after_auction_window():
    """max_rounds 1 with coinche.when after_auction: the fourth call in turn ends the auction as the
    passes would, so the defenders may still coinche before the first card."""
    r = rules_of("contree-701", {"+auction.max_rounds": 1, "auction.coinche.when": "after_auction"})
    a = after(r, "W", "N:80H E:90S S:100H W:pass")
    assert a.state == "contract" and a.contract == Contract(100, "H", "S", 1) and a.window_open
    assert legal_set(a) == {("E", "coinche"), ("W", "coinche")}
    # a coinche out of turn is not a turn: under any_moment the round still needs four calls in turn
    r = rules_of("contree-701", {"+auction.max_rounds": 1, "auction.coinche.when": "any_moment"})
    b = after(r, "W", "N:80H W:coinche N:pass E:pass")     # W's coinche out of turn: 3 calls in turn
    assert b.to_act == "S" and b.state == "open"
    assert after(r, "W", "N:80H W:coinche N:pass E:pass S:pass").state == "contract"
