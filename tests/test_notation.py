"""Notation: canonical output, lenient input, and a clear message for every bad token."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinche_spec import notation as n
from coinche_spec.notation import Call, Contract, NotationError

# --- card numbering: suit * 8 + rank, suits S H D C, ranks 7 8 9 T J Q K A ---


@pytest.mark.parametrize("name, index", [
    ("7S", 0),    # 0 * 8 + 0
    ("AS", 7),    # 0 * 8 + 7
    ("7H", 8),    # 1 * 8 + 0
    ("JH", 12),   # 1 * 8 + 4
    ("9D", 18),   # 2 * 8 + 2
    ("TC", 27),   # 3 * 8 + 3
    ("AC", 31),   # 3 * 8 + 7
])
def test_card_index_is_suit_times_eight_plus_rank(name, index):
    assert n.parse_card(name) == index
    assert n.card_name(index) == name


def test_every_card_round_trips_and_the_pack_has_32():
    names = [n.card_name(i) for i in range(32)]
    assert len(set(names)) == 32
    assert [n.parse_card(x) for x in names] == list(range(32))
    assert n.card_suit(12) == "H" and n.card_rank(12) == "J"


@pytest.mark.parametrize("text, canonical", [
    ("jh", "JH"), (" JH ", "JH"), ("10H", "TH"), ("10h", "TH"), ("tS", "TS"),
    ("J♥", "JH"), ("A♠", "AS"), ("7♦", "7D"), ("K♣", "KC"), ("Q♡", "QH"), ("10♤", "TS"),
])
def test_lenient_cards_come_out_canonical(text, canonical):
    assert n.canonical_card(text) == canonical


@pytest.mark.parametrize("index, pretty", [(12, "J♥"), (3, "10♠"), (31, "A♣"), (16, "7♦")])
def test_pretty_cards_for_people(index, pretty):
    # 12 = hearts (1) * 8 + J (4); 3 = spades T; 31 = clubs A; 16 = diamonds 7
    assert n.pretty_card(index) == pretty


@pytest.mark.parametrize("bad, words", [
    ("ZH", "bad card 'ZH': rank 'Z' is not one of 7 8 9 T J Q K A (10 is accepted for T)"),
    ("JX", "bad card 'JX': suit 'X' is not one of S H D C (or ♠ ♥ ♦ ♣)"),
    ("1H", "bad card '1H': rank '1' is not one of"),
    ("6S", "bad card '6S': rank '6' is not one of"),
    ("J", "bad card 'J': expected rank then suit, such as 'JH' or 'TS'"),
    ("", "bad card '': expected rank then suit"),
    ("JHH", "bad card 'JHH': rank 'JH' is not one of"),
    (12, "bad card 12: expected a string such as 'JH'"),
    (None, "bad card None: expected a string"),
])
def test_bad_card_messages(bad, words):
    with pytest.raises(NotationError) as exc:
        n.parse_card(bad)
    assert str(exc.value).startswith(words)
    assert "\n" not in str(exc.value)


def test_card_lists():
    assert n.parse_cards(["JH", "10s", "a♣"]) == [12, 3, 31]
    with pytest.raises(NotationError, match=r"^bad hand: card JH appears twice$"):
        n.parse_cards(["JH", "jh"], what="hand")
    assert n.parse_cards(["JH", "JH"], unique=False) == [12, 12]
    with pytest.raises(NotationError, match=r"^bad cards: expected a list of cards, got str$"):
        n.parse_cards("JH")
    with pytest.raises(NotationError, match=r"^bad card 'XX'"):
        n.parse_cards(["JH", "XX"])


# --- seats, teams, direction ---------------------------------------------

def test_seats_and_teams():
    assert [n.parse_seat(s) for s in ("n", " E", "s ", "W")] == ["N", "E", "S", "W"]
    assert n.parse_team("ns") == "NS" and n.parse_team("SN") == "NS"
    assert n.parse_team("we") == "EW" and n.parse_team("EW") == "EW"
    assert [n.team_of(s) for s in n.SEATS] == ["NS", "EW", "NS", "EW"]
    assert n.other_team("NS") == "EW" and n.other_team("EW") == "NS"
    assert [n.partner(s) for s in n.SEATS] == ["S", "W", "N", "E"]


def test_next_seat_follows_the_direction_of_play():
    # clockwise N -> E -> S -> W; anticlockwise N -> W -> S -> E (PROTOCOL.md)
    assert [n.next_seat(s, "clockwise") for s in "NESW"] == ["E", "S", "W", "N"]
    assert [n.next_seat(s, "anticlockwise") for s in "NESW"] == ["W", "N", "E", "S"]


@pytest.mark.parametrize("bad, words", [
    ("X", "bad seat 'X': expected one of N, E, S, W"),
    ("NS", "bad seat 'NS': expected one of N, E, S, W"),
    (1, "bad seat 1: expected one of N, E, S, W"),
])
def test_bad_seat_messages(bad, words):
    with pytest.raises(NotationError) as exc:
        n.parse_seat(bad)
    assert str(exc.value) == words


@pytest.mark.parametrize("bad", ["N", "NE", "", None])
def test_bad_team_messages(bad):
    with pytest.raises(NotationError) as exc:
        n.parse_team(bad)
    assert str(exc.value) == f"bad team {bad!r}: expected NS or EW"


# --- strains and calls -------------------------------------------------

@pytest.mark.parametrize("text, strain", [
    ("h", "H"), ("S", "S"), ("♦", "D"), ("♧", "C"), ("ta", "TA"), (" Sa ", "SA"),
])
def test_strains(text, strain):
    assert n.parse_strain(text) == strain


@pytest.mark.parametrize("bad", ["X", "", "T", "HS", "NT", 3])
def test_bad_strain_messages(bad):
    with pytest.raises(NotationError) as exc:
        n.parse_strain(bad)
    assert str(exc.value) == f"bad strain {bad!r}: expected S, H, D, C, TA or SA"


@pytest.mark.parametrize("text, call, canonical", [
    ("pass", Call("pass"), "pass"),
    ("Passe", Call("pass"), "pass"),
    ("p", Call("pass"), "pass"),
    ("coinche", Call("coinche"), "coinche"),
    ("Contre", Call("coinche"), "coinche"),
    ("surcontre", Call("surcoinche"), "surcoinche"),
    ("SURCOINCHE", Call("surcoinche"), "surcoinche"),
    ("80H", Call("bid", 80, "H"), "80H"),
    ("80h", Call("bid", 80, "H"), "80H"),
    ("80 ♥", Call("bid", 80, "H"), "80H"),
    ("120sa", Call("bid", 120, "SA"), "120SA"),
    ("90TA", Call("bid", 90, "TA"), "90TA"),
    ("capotS", Call("bid", "capot", "S"), "capotS"),
    ("Capot ♣", Call("bid", "capot", "C"), "capotC"),
    ("capotta", Call("bid", "capot", "TA"), "capotTA"),
])
def test_calls_lenient_in_canonical_out(text, call, canonical):
    assert n.parse_call(text) == call
    assert n.canonical_call(text) == canonical
    assert str(call) == canonical


def test_capot_calls_know_they_are_capot():
    assert n.parse_call("capotH").is_capot
    assert not n.parse_call("160H").is_capot
    assert not n.parse_call("pass").is_capot


@pytest.mark.parametrize("bad, words", [
    ("", "bad call '': expected pass, a bid such as '80H', capot<strain>, coinche or surcoinche"),
    ("double", "bad call 'double': expected pass, a bid such as '80H', capot<strain>, coinche or surcoinche"),
    (None, "bad call None: expected pass, a bid such as '80H', capot<strain>, coinche or surcoinche"),
    ("80", "bad call '80': the bid 80 names no strain (add S, H, D, C, TA or SA)"),
    ("80X", "bad call '80X': 'X' is not a strain (S, H, D, C, TA, SA)"),
    ("capot", "bad call 'capot': a capot bid names its strain, such as 'capotH'"),
    ("capotZ", "bad call 'capotZ': 'Z' is not a strain (S, H, D, C, TA, SA)"),
])
def test_bad_call_messages(bad, words):
    with pytest.raises(NotationError) as exc:
        n.parse_call(bad)
    assert str(exc.value) == words


@given(value=st.integers(min_value=1, max_value=999), strain=st.sampled_from(n.STRAINS),
       lower=st.booleans(), space=st.booleans())
def test_any_bid_round_trips(value, strain, lower, space):
    text = f"{value}{' ' if space else ''}{strain.lower() if lower else strain}"
    call = n.parse_call(text)
    assert call == Call("bid", value, strain)
    assert n.parse_call(str(call)) == call and str(call) == f"{value}{strain}"


# --- contracts -----------------------------------------------------------

def test_contract_parse_and_json():
    c = n.parse_contract({"value": 90, "strain": "h", "declarer": "e", "multiplier": 2})
    assert c == Contract(90, "H", "E", 2)
    assert c.takers == "EW" and c.defenders == "NS" and not c.is_capot
    assert c.to_json() == {"value": 90, "strain": "H", "declarer": "E", "multiplier": 2}
    cap = n.parse_contract({"value": "Capot", "strain": "SA", "declarer": "N"})
    assert cap == Contract("capot", "SA", "N", 1) and cap.is_capot  # multiplier defaults to 1


@pytest.mark.parametrize("bad, words", [
    ([], "bad contract []: expected an object with value, strain, declarer, multiplier"),
    ({"value": 90, "strain": "H", "declarer": "N", "colour": 1}, "bad contract: unknown field 'colour'"),
    ({"value": 90, "strain": "H"}, "bad contract: missing field 'declarer'"),
    ({"value": True, "strain": "H", "declarer": "N"}, "bad contract value True: expected a number or \"capot\""),
    ({"value": "90", "strain": "H", "declarer": "N"}, "bad contract value '90': expected a number or \"capot\""),
    ({"value": 90, "strain": "H", "declarer": "N", "multiplier": 0},
     "bad contract multiplier 0: expected 1, 2, 3 or 4"),
    ({"value": 90, "strain": "X", "declarer": "N"}, "bad strain 'X': expected S, H, D, C, TA or SA"),
    ({"value": 90, "strain": "H", "declarer": "Q"}, "bad seat 'Q': expected one of N, E, S, W"),
])
def test_bad_contract_messages(bad, words):
    with pytest.raises(NotationError) as exc:
        n.parse_contract(bad)
    assert str(exc.value) == words
