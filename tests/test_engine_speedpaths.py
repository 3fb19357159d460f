"""The engine's fast paths give exactly what the full paths give.

Several shortcuts keep a whole deal cheap (docs/performance.md): the score
worked out without its sentences (``score_deal(..., explain=False)``, the
``lines`` written on first reading), a shuffled pack of 32 card indices taken
without a card-by-card check, meld declarations judged once per rule set, and
the four hands of the play held in one int. Each test here plays the fast
path against the slow one on many inputs, so a shortcut that changes a single
number fails.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinche_spec.engine import random_deal
from coinche_spec.engine.dealing import _checked_deck, _deck, deal
from coinche_spec.engine.errors import DealingRejected, EngineError
from coinche_spec.engine.game import _checked_hand_masks, _hand_masks
from coinche_spec.engine.melds import compare, evaluate
from coinche_spec.engine.play import PlayState
from coinche_spec.engine.scoring import score_deal
from coinche_spec.notation import SEATS, Contract, card_name, parse_card
from coinche_spec.variants import load_variant, shipped_ids
from support import changed_rules

VARIANTS = shipped_ids()
RULES = {v: load_variant(v).rules for v in VARIANTS}
# House rule sets that reach the award branches no shipped variant uses.
HOUSE = {
    "bid-multiplied": changed_rules("federation", {
        "scoring.coinched_failed.defenders": {"terms": ["base", "bid"], "base": 162, "multiplied": "bid"}}),
    "base-by-kind": changed_rules("contree-701", {
        "scoring.failed.defenders": {"terms": ["base", "all_melds", "bid"],
                                     "base": {"suit": 160, "sans_atout": 130, "tout_atout": 260},
                                     "multiplied": "all"}}),
    "belote-lost": changed_rules("federation", {"belote.on_failure": "lost"}),
    "belote-to-defenders": changed_rules("contree-701", {"belote.on_failure": "defenders",
                                                         "belote.multiplied": "with_award"}),
    "sweep-bonus": changed_rules("cafe-1000", {"card_values.sweep": {"kind": "bonus", "value": 90}}),
    "any-sweep-melds": changed_rules("federation", {"scoring.sweep_takes_melds": "any_sweep",
                                                    "contract.versus_defenders": "not_level"}),
}
ALL_RULES = {**RULES, **HOUSE}
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEAMS = ("NS", "EW")


def _outcome(call):
    """What a call gives: its numbers, or the error it raises (type and message)."""
    try:
        return ("ok", call())
    except EngineError as exc:
        return ("error", type(exc).__name__, str(exc))


# --- the score without its words -------------------------------------------------

@st.composite
def score_inputs(draw):
    """A score request: mostly well formed deals, now and then a bad field."""
    value = draw(st.sampled_from([80, 90, 100, 110, 120, 140, 160, 180, 250, 500, "capot"]))
    contract = Contract(value, draw(st.sampled_from(["S", "H", "D", "C", "TA", "SA"])),
                        draw(st.sampled_from(SEATS)), draw(st.sampled_from([1, 2, 3, 4])))
    ns_tricks = draw(st.integers(0, 8))
    won = {"NS": ns_tricks, "EW": 8 - ns_tricks}
    last = draw(st.sampled_from([t for t in TEAMS if won[t]]))
    total = 248 if contract.strain == "TA" else 152
    ns_points = total if ns_tricks == 8 else 0 if ns_tricks == 0 else draw(st.integers(0, total))
    trick_points = {"NS": ns_points, "EW": total - ns_points}
    melds = draw(st.sampled_from([None, {"NS": 0, "EW": 0}, {"NS": 20, "EW": 0}, {"NS": 0, "EW": 150},
                                  {"NS": 100, "EW": 0}, {"NS": 0, "EW": 270}]))
    belote = draw(st.sampled_from([None, "NS", "EW", {"NS": 20, "EW": 0}, {"NS": 0, "EW": 20},
                                   {"NS": 20, "EW": 20}]))
    bad = draw(st.sampled_from([None] * 8 + ["tricks", "last", "melds", "belote", "points"]))
    if bad == "tricks":
        won = {"NS": ns_tricks, "EW": 7 - ns_tricks}
    elif bad == "last":
        last = "NE"
    elif bad == "melds":
        melds = {"NS": -10, "EW": 0}
    elif bad == "belote":
        belote = {"NS": True, "EW": 0}
    elif bad == "points":
        trick_points = {"NS": ns_points}
    return contract, trick_points, won, last, melds, belote


@FAST
@given(rules_id=st.sampled_from(sorted(ALL_RULES)), case=score_inputs())
def test_score_without_words_gives_the_same_numbers(rules_id, case):
    rules = ALL_RULES[rules_id]
    told = _outcome(lambda: score_deal(rules, *case))
    quiet = _outcome(lambda: score_deal(rules, *case, explain=False))
    assert told[0] == quiet[0]
    if told[0] == "error":
        assert told == quiet
        return
    a, b = told[1], quiet[1]
    assert (a.made, a.card_points, a.score, a.outcome, a.totals) == \
        (b.made, b.card_points, b.score, b.outcome, b.totals)
    # the words of a quiet score, written when read, are the same sentences
    assert b.lines == a.lines and a.lines


def test_quiet_score_writes_the_seed_000_words_when_read():
    # seed 000 §05: 90 hearts by N, 79 + 10 = 89 card points: failed; defenders 160 + 90 = 250
    r = score_deal(RULES["federation"], Contract(90, "H", "N", 1), {"NS": 79, "EW": 73},
                   {"NS": 4, "EW": 4}, "NS", None, None, explain=False)
    assert (r.made, r.score) == (False, {"NS": 0, "EW": 250})
    assert "defenders EW: base 160 + bid 90 = 250" in r.lines
    assert "takers NS: nothing = 0" in r.lines


def test_quiet_score_keeps_its_own_copy_of_the_inputs():
    # the words are written later, from the inputs as they were: changing the caller's
    # dicts afterwards must not change them (NS 79 + 10 = 89 stays in the first line)
    points, won = {"NS": 79, "EW": 73}, {"NS": 4, "EW": 4}
    r = score_deal(RULES["federation"], Contract(90, "H", "N", 1), points, won, "NS", None, None,
                   explain=False)
    points["NS"], won["NS"] = 0, 8
    assert r.lines[0] == "card points: NS 79 + last trick 10 = 89; EW 73"


@settings(max_examples=20, deadline=None)
@given(vid=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_deal_outcome_lines_are_the_told_score(vid, seed):
    deal = random_deal(RULES[vid], random.Random(seed))
    if deal.phase != "done":
        return
    o = deal.outcome()
    told = score_deal(RULES[vid], deal.contract, o.trick_points, o.tricks_won, o.last_trick,
                      o.melds, o.belote_points)
    assert (told.made, told.card_points, told.score) == (o.made, o.card_points, o.score)
    assert o.lines == told.lines


# --- the pack without a card-by-card check ---------------------------------------

PACK = list(range(32))


@st.composite
def decks(draw):
    """A shuffled pack, as a list or a tuple, sometimes spoiled in one place."""
    deck = list(draw(st.permutations(PACK)))
    spoil = draw(st.sampled_from([None, None, None, "twice", "bool", "float", "name", "low", "high",
                                  "short", "long", "none"]))
    pos = draw(st.integers(0, 31))
    if spoil == "twice":
        deck[pos] = deck[(pos + 1) % 32]
    elif spoil == "bool":
        deck[pos] = deck[pos] == 1          # True where the card was 1, else False
    elif spoil == "float":
        deck[pos] = float(deck[pos])
    elif spoil == "name":
        deck[pos] = card_name(deck[pos])
    elif spoil == "low":
        deck[pos] = -1
    elif spoil == "high":
        deck[pos] = 32
    elif spoil == "short":
        del deck[pos]
    elif spoil == "long":
        deck.append(deck[pos])
    elif spoil == "none":
        deck[pos] = None
    return tuple(deck) if draw(st.booleans()) else deck


@settings(max_examples=400, deadline=None)
@given(deck=decks())
def test_fast_pack_check_equals_the_card_by_card_check(deck):
    assert _outcome(lambda: _deck(deck)) == _outcome(lambda: _checked_deck(deck))


def test_the_fast_pack_check_still_refuses_what_the_slow_one_refuses():
    # 1.0 equals 1 and True equals 1 for a set, but neither is a card index
    for bad in (1.0, True):
        deck = PACK[:]
        deck[1] = bad
        with pytest.raises(DealingRejected, match=r"deck\[1\]"):
            _deck(deck)


def test_dealt_hands_are_new_lists():
    # dealing never hands back the caller's pack or shares a list with it
    pack = PACK[:]
    hands = deal(RULES["contree-701"], "N", pack, 3)
    hands["E"].clear()
    assert pack == PACK


# --- four dealt hands without a card-by-card check ---------------------------------------

@st.composite
def dealt_hands(draw):
    """Four hands of 8 from a shuffled pack, as masks or lists, sometimes spoiled."""
    pack = draw(st.permutations(PACK))
    masks = {seat: sum(1 << c for c in pack[8 * i:8 * i + 8]) for i, seat in enumerate(SEATS)}
    spoil = draw(st.sampled_from([None, None, None, "overlap", "twice", "nine", "seven", "bool", "list",
                                  "missing", "extra", "negative", "wide"]))
    seat = draw(st.sampled_from(SEATS))
    other = SEATS[(SEATS.index(seat) + 1) % 4]
    low = masks[other] & -masks[other]
    if spoil == "overlap":      # a card of the next hand given to this one too, and one of its own dropped
        own_low = masks[seat] & -masks[seat]
        masks[seat] = (masks[seat] ^ own_low) | low
    elif spoil == "twice":      # one card in two hands, the others whole: 9 + 8 + 8 + 8 cards
        masks[seat] |= low
    elif spoil == "nine":
        masks[seat] |= low
        masks[other] ^= low
    elif spoil == "seven":
        masks[seat] &= masks[seat] - 1
    elif spoil == "bool":
        masks[seat] = True
    elif spoil == "list":
        masks[seat] = [c for c in range(32) if masks[seat] >> c & 1]
    elif spoil == "missing":
        del masks[seat]
    elif spoil == "extra":
        masks["X"] = 0
    elif spoil == "negative":
        masks[seat] = -masks[seat]
    elif spoil == "wide":
        masks[seat] |= 1 << 40
    return masks


@settings(max_examples=300, deadline=None)
@given(hands=dealt_hands())
def test_fast_hand_check_equals_the_card_by_card_check(hands):
    assert _outcome(lambda: _hand_masks(hands)) == _outcome(lambda: _checked_hand_masks(hands))


# --- melds judged once per rule set ---------------------------------------------------

def test_a_remembered_meld_keeps_the_declaration_as_given():
    fed = RULES["federation"]
    kh, qh, jh = parse_card("KH"), parse_card("QH"), parse_card("JH")
    first = evaluate(fed, "H", [kh, qh, jh])
    again = evaluate(fed, "H", [jh, qh, kh])
    # a run of three is worth 20 under seed 000 whichever order it is declared in
    assert first.points == again.points == 20
    assert first.declared == (kh, qh, jh) and again.declared == (jh, qh, kh)
    assert first.cards == again.cards == (kh, qh, jh)   # highest first


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vid=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_comparing_twice_gives_the_same_judgement(vid, seed):
    rules = RULES[vid]
    deal = random_deal(rules, random.Random(seed))
    if deal.phase != "done":
        return
    args = (rules, deal.contract.strain, deal.declared)
    kw = {"hands": deal.hands, "leader": deal.log[0][0]}
    a, b = compare(*args, **kw), compare(*args, **kw)
    assert (a.winner, a.points, a.invalid, a.valid, a.best, a.reason) == \
        (b.winner, b.points, b.invalid, b.valid, b.best, b.reason)


# --- the four hands in one int ---------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(vid=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 32))
def test_hands_in_play_are_the_dealt_hands_less_the_cards_played(vid, seed, stop):
    rules = RULES[vid]
    rng = random.Random(seed)
    deal = random_deal(rules, rng)
    if deal.phase != "done":
        return
    state = PlayState.start(rules, deal.contract.strain, deal.log[0][0], deal.hands)
    for seat, card, _ in deal.log[:stop]:
        state = state.apply(card, seat)
    left = dict(deal.hands)
    for seat, card, _ in deal.log[:stop]:
        left[seat] &= ~(1 << card)
    assert state.hands == left
    assert all(state.hand(s) == left[s] for s in SEATS)
    assert state.done == (stop == 32)
    assert state.cards_played == stop
