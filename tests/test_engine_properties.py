"""Properties of whole random deals, for every shipped variant (hypothesis).

Whatever the cards and the calls, under every rule set:
- every listed call is accepted, and someone may always call while the auction is open;
- the player to act always has a legal card, and only cards he holds;
- all 32 cards are played once, each player his own eight;
- the trick points add up to the pack's value: 152 in a suit contract, 248 at
  tout atout, 152 at sans atout (worked out below), and the card points to
  that plus the last trick or the sweep, as the variant says;
- turning the table (every seat, the dealer and every call moved one or two
  places round, partnerships kept) turns the result the same way;
- swapping two suits that are not trump changes nothing but the cards' names.

Examples are few (max_examples is modest) so the suite stays fast.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinche_spec.engine import Deal, random_deal, run_deal_case
from coinche_spec.engine.random_play import choose_call, choose_card, random_hands
from coinche_spec.notation import SEATS, SUITS, Call, card_name
from coinche_spec.variants import load_variant, shipped_ids

VARIANTS = shipped_ids()
RULES = {v: load_variant(v).rules for v in VARIANTS}
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
# where a replayed transcript stops: often the whole deal, else after any card
STOPS = st.one_of(st.just(32), st.integers(min_value=0, max_value=31))

# Trick points of the whole pack, by hand (seed 000 §02, seed 002 "Card Deck and Rankings"):
#   trump suit J 20 + 9 14 + A 11 + T 10 + K 4 + Q 3 = 62; plain A 11 + T 10 + K 4 + Q 3 + J 2 = 30
#   suit contract 62 + 3 x 30 = 152; tout atout 4 x 62 = 248;
#   sans atout (A 19 + T 10 + K 4 + Q 3 + J 2) = 38 per suit, 4 x 38 = 152
PACK = {"S": 152, "H": 152, "D": 152, "C": 152, "TA": 248, "SA": 152}
# Card points of both sides together: (without a sweep, with one side taking all eight tricks)
#   federation, contree-701: last trick 10 -> 162; a sweep makes the last trick 100 -> 152 + 100 = 252
#   cafe-sans-tout-atout, cafe-1000, cafe-701: last trick 10 and nothing else on a sweep -> 162
#   (and 248 + 10 = 258 at tout atout)
CARD_TOTAL = {
    "federation": (10, 100), "contree-701": (10, 100),
    "cafe-sans-tout-atout": (10, 10), "cafe-1000": (10, 10), "cafe-701": (10, 10),
}


def test_every_shipped_variant_has_its_card_totals_here():
    assert sorted(CARD_TOTAL) == sorted(VARIANTS)


def _checked_play_out(deal: Deal, rng: random.Random) -> Deal:
    """Play a deal to its end at random, checking the legal sets at every step."""
    while deal.phase == "auction":
        options = deal.legal_calls()
        assert options, "the auction is open but nobody may call"
        assert any(seat == deal.to_act for seat, _ in options)
        for seat, call in options:
            assert deal.check_call(seat, call) is None, (seat, call)
        deal = deal.apply_call(*choose_call(deal, rng))
    while deal.phase == "play":
        seat = deal.to_act
        legal = deal.legal_mask()
        held = deal.hand(seat)
        assert legal, f"{seat} has no legal card"
        assert legal & ~held == 0, "a legal card the player does not hold"
        card, melds, say = choose_card(deal, rng)
        deal = deal.apply_card(seat, card, melds, say)
    return deal


def _check_finished(variant_id: str, deal: Deal) -> None:
    played = [c for _, _, cards in deal.tricks() for c in cards]
    assert sorted(played) == list(range(32)), "every card once"
    for seat in SEATS:
        mine = [c for s, c, _ in deal.log if s == seat]
        assert len(mine) == 8
        assert sum(1 << c for c in mine) == deal.hands[seat], f"{seat} played his own eight cards"
    o = deal.outcome()
    strain = deal.contract.strain
    assert o.trick_points["NS"] + o.trick_points["EW"] == PACK[strain]
    last, sweep_last = CARD_TOTAL[variant_id]
    swept = 8 in o.tricks_won.values()
    total = PACK[strain] + (sweep_last if swept else last)
    assert o.card_points["NS"] + o.card_points["EW"] == total
    assert o.tricks_won["NS"] + o.tricks_won["EW"] == 8


@pytest.mark.parametrize("variant_id", VARIANTS)
@FAST
@given(seed=SEEDS)
def test_random_deals_are_legal_and_complete(variant_id, seed):
    rules = RULES[variant_id]
    rng = random.Random(seed)
    dealer = SEATS[seed % 4]
    deal = _checked_play_out(Deal.start(rules, dealer, random_hands(rules, rng, dealer)), rng)
    assert deal.phase in ("done", "redeal")
    if deal.phase == "done":
        _check_finished(variant_id, deal)
    else:
        assert [c.kind for _, c in deal.calls] == ["pass"] * 4


STRAIN_CASES = [(v, s) for v in VARIANTS for s in ("S", "H", "D", "C", "TA", "SA")
                if s in SUITS or RULES[v].auction.strains[{"TA": "tout_atout", "SA": "sans_atout"}[s]]]


@pytest.mark.parametrize("variant_id,strain", STRAIN_CASES)
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS)
def test_every_strain_the_variant_allows(variant_id, strain, seed):
    """The first speaker bids 80 in the strain and the others pass: the trick points are the pack's."""
    rules = RULES[variant_id]
    rng = random.Random(seed)
    deal = Deal.start(rules, "N", random_hands(rules, rng, "N"))
    deal = deal.apply_call(deal.to_act, Call("bid", 80, strain))
    while deal.phase == "auction":
        deal = deal.apply_call(deal.to_act, Call("pass"))
    assert deal.contract.strain == strain
    deal = _checked_play_out(deal, rng)
    _check_finished(variant_id, deal)


# -- symmetry -------------------------------------------------------------------

def _transcript(deal: Deal, stop: int) -> tuple:
    """The deal as a protocol case: (dealer, hands, calls, plays), the plays cut after ``stop`` cards."""
    plays = []
    for i, (seat, card, say) in enumerate(deal.log[:stop]):
        melds = [list(m) for m in deal.declared[seat]] if i < 4 and deal.declared[seat] else None
        plays.append({"seat": seat, "card": card, "melds": melds, "say": say})
    return deal.dealer, dict(deal.hands), list(deal.calls), plays


def _rotate_seat(seat: str, k: int) -> str:
    return SEATS[(SEATS.index(seat) + k) % 4]


def _swap_card(card: int, a: int, b: int) -> int:
    suit = card >> 3
    if suit == a:
        return b * 8 + (card & 7)
    if suit == b:
        return a * 8 + (card & 7)
    return card


def _swap_mask(mask: int, a: int, b: int) -> int:
    out = 0
    for c in range(32):
        if mask >> c & 1:
            out |= 1 << _swap_card(c, a, b)
    return out


def _comparable(result: dict) -> dict:
    """The result without the free-text reason, invalid melds in a fixed order."""
    out = {k: v for k, v in result.items() if k != "reason"}
    if "invalid_melds" in out:
        out["invalid_melds"] = sorted(out["invalid_melds"])
    if "legal_next" in out:
        out["legal_next"] = sorted(out["legal_next"])
    return out


def _rotate_result(result: dict, k: int) -> dict:
    """What the result must become when every seat moves k places round the table."""
    flip = k % 2 == 1   # one place round: N-S sit where E-W sat

    def team(t):
        return {"NS": "EW", "EW": "NS"}[t] if (flip and t) else t

    def sides(d):
        return None if d is None else {team(t): v for t, v in d.items()}

    out = dict(result)
    if out.get("contract"):
        out["contract"] = {**out["contract"], "declarer": _rotate_seat(out["contract"]["declarer"], k)}
    if out.get("tricks") is not None:
        out["tricks"] = [{"leader": _rotate_seat(t["leader"], k), "winner": _rotate_seat(t["winner"], k),
                          "cards": t["cards"]} for t in out["tricks"]]
    for key in ("tricks_won", "card_points", "melds", "score"):
        out[key] = sides(out.get(key))
    out["belote"] = team(out.get("belote"))
    return out


def _random_finished(variant_id: str, seed: int) -> Deal:
    return random_deal(RULES[variant_id], random.Random(seed))


@pytest.mark.parametrize("variant_id", VARIANTS)
@FAST
@given(seed=SEEDS, k=st.sampled_from([1, 2, 3]), stop=STOPS)
def test_turning_the_table_turns_the_result(variant_id, seed, k, stop):
    rules = RULES[variant_id]
    deal = _random_finished(variant_id, seed)
    dealer, hands, calls, plays = _transcript(deal, stop)
    before = run_deal_case(rules, dealer, hands, calls, plays)
    r = lambda s: _rotate_seat(s, k)  # noqa: E731
    after = run_deal_case(
        rules, r(dealer), {r(s): m for s, m in hands.items()}, [(r(s), c) for s, c in calls],
        [{**p, "seat": r(p["seat"])} for p in plays])
    assert _comparable(after) == _comparable(_rotate_result(before, k))


@pytest.mark.parametrize("variant_id", VARIANTS)
@FAST
@given(seed=SEEDS, pick=st.integers(min_value=0, max_value=5), stop=STOPS)
def test_swapping_two_plain_suits_changes_only_the_names(variant_id, seed, pick, stop):
    rules = RULES[variant_id]
    deal = _random_finished(variant_id, seed)
    if deal.phase == "redeal":
        return
    strain = deal.contract.strain
    free = [i for i, s in enumerate(SUITS) if s != strain]   # every suit at TA and SA
    pairs = [(a, b) for a in free for b in free if a < b]
    a, b = pairs[pick % len(pairs)]
    dealer, hands, calls, plays = _transcript(deal, stop)
    before = run_deal_case(rules, dealer, hands, calls, plays)
    sw = lambda c: _swap_card(c, a, b)  # noqa: E731
    after = run_deal_case(
        rules, dealer, {s: _swap_mask(m, a, b) for s, m in hands.items()}, calls,
        [{**p, "card": sw(p["card"]),
          "melds": [[sw(c) for c in m] for m in p["melds"]] if p["melds"] else None} for p in plays])
    name = lambda text: card_name(sw(SUITS.index(text[1]) * 8 + "789TJQKA".index(text[0])))  # noqa: E731
    expected = dict(before)
    if before.get("tricks") is not None:
        expected["tricks"] = [{**t, "cards": [name(c) for c in t["cards"]]} for t in before["tricks"]]
    if "legal_next" in before:
        expected["legal_next"] = [name(c) for c in before["legal_next"]]
    if "invalid_melds" in before:
        expected["invalid_melds"] = [[name(c) for c in m] for m in before["invalid_melds"]]
    assert _comparable(after) == _comparable(expected)
