"""The batch engine's auction options against the per-deal engine, deal for deal (issue 12).

Décoinchage (coinche.effect: overbid_cancels), a coinche by any player, by the side to act
(coinche.when: side_in_turn), no coinche at all, a lowest coinchable bid, an explicit ladder
of bids, no second bid in a strain a player has named (raise_own_bid: never_in_a_named_strain),
the coincher's partner's turn skipped (coinche.partner_may_speak: false), a capot overcalled by a
capot in a higher strain (capot.overcall_by_capot), a cap on the rounds (max_rounds) and on a
player's bids (max_bids_per_player) and «à la vache» (all_pass: dealer_must_bid): each test rule
set of conformance/rulesets/ that sets one, and rule sets that combine them with other auction
rules, replayed through the per-deal engine for random and simple players (batch/replay.py: the seat to act, the whole legal set at every call and card, every
field of the result, and for simple players their every choice). Each test also checks, from
the calls the batch recorded, that the option was at work in the deals replayed: a replay of
deals where it never mattered would prove nothing.
"""

from __future__ import annotations

import pytest

from coinche_spec.batch.replay import _call_of, _calls_by_deal
from coinche_spec.notation import SEATS
from coinche_spec.variants import load_variant
from tests.support import changed_rules
from tests.test_batch_engine import _replayed

DEALS = 1000
CHANGED_DEALS = 800


def _auctions(batch) -> list:
    """Every recorded call as (deal, seat to act, seat calling, the call, the highest bid before it,
    its bidder, coinched before it?), in order (seats as 0..3, calls and bids as Calls)."""
    br = batch.rules
    out = []
    for i, steps in sorted(_calls_by_deal(batch).items()):
        high = bidder = None
        coinched = False
        for step in steps:
            call = _call_of(br, step)
            if call is None:
                break
            seat, c = SEATS.index(call[0]), call[1]
            out.append((i, step[0], seat, c, high, bidder, coinched))
            if c.kind == "bid":
                high, bidder, coinched = c, seat, False
            elif c.kind == "coinche":
                coinched = True
    return out


def _bid_over_a_coinche(batch) -> bool:
    return any(call.kind == "bid" and coinched for *_, call, _h, _b, coinched in _auctions(batch))


def _takers_coinche(batch) -> bool:
    return any(call.kind == "coinche" and (seat ^ bidder) & 1 == 0
               for _, _, seat, call, _h, bidder, _ in _auctions(batch))


def _partner_of_the_seat_to_act_coinches(batch) -> bool:
    return any(call.kind == "coinche" and seat == to_act ^ 2 for _, to_act, seat, call, *_ in _auctions(batch))


def _bid_of(value):
    def check(batch) -> bool:
        return any(call.kind == "bid" and call.value == value for _, _, _, call, *_ in _auctions(batch))
    return check


def _no_coinche(batch) -> bool:
    legal = any((cmask != 0).any() for *_, cmask, _s, _c in batch.auction.steps)
    return not legal and (batch.multiplier == 1).all()


def _coinche_from(minimum):
    def check(batch) -> bool:
        coinches = [high for _, _, _, call, high, *_ in _auctions(batch) if call.kind == "coinche"]
        below = [v for v in _contract_values(batch) if type(v) is int and v < minimum]
        return bool(coinches) and bool(below) and all(type(h.value) is not int or h.value >= minimum
                                                      for h in coinches)
    return check


def _contract_values(batch) -> list:
    return [batch.rules.ladder[int(j)].value for j in batch.bid]


def _bids_off_the_tens(batch) -> bool:
    """A contract on a value the default ladder (80, 90, ...) does not have."""
    return any(type(v) is int and v % 10 for v in _contract_values(batch))


def _coinchers_partner_skipped(batch) -> bool:
    """After a coinche, the seat to act was the one after the coincher's partner, who was passed over."""
    br = batch.rules
    for steps in _calls_by_deal(batch).values():
        coincher = None
        for k, step in enumerate(steps):
            call = _call_of(br, step)
            if call is None:
                break
            seat = SEATS.index(call[0])
            if call[1].kind == "coinche":
                coincher = seat
            elif call[1].kind == "bid":
                coincher = None
            elif coincher is not None and seat == (coincher + br.step) % 4 and k + 1 < len(steps) \
                    and steps[k + 1][0] == (coincher + 3 * br.step) % 4:
                return True
    return False


def _named_strain_left_out(batch) -> bool:
    """A player who was not the highest bidder found a strain he had bid in left out of his bids,
    though bids in it were still high enough (what only never_in_a_named_strain forbids)."""
    br = batch.rules
    sc = br.strain_count
    for steps in _calls_by_deal(batch).values():
        bidder = None
        for step in steps:
            ta, lo, excl = step[0], step[1], step[2]
            if ta >= 0 and ta != bidder and any(excl >> s & 1 and sc[s, br.n_bids] > sc[s, lo] for s in range(6)):
                return True
            call = _call_of(br, step)
            if call is None:
                break
            if call[1].kind == "bid":
                bidder = SEATS.index(call[0])
    return False


def _capot_over_capot(batch) -> bool:
    """A capot bid over a capot bid."""
    return any(call.kind == "bid" and call.value == "capot" and high is not None and high.value == "capot"
               for _, _, _, call, high, *_ in _auctions(batch))


def _dealer_forced(batch) -> bool:
    """A dealer who had no pass (the step's bit 6) bid after three passes."""
    return any(step[2] >> 6 & 1 and _call_of(batch.rules, step)[1].kind == "bid"
               for steps in _calls_by_deal(batch).values() for step in steps)


def _cut_by_rounds(batch) -> bool:
    """An auction that the round cap ended: exactly 4 x max_rounds calls before any after-auction
    window (none out of turn), the last of them not the passes_to_end-th pass after a bid."""
    br = batch.rules
    cap = 4 * br.max_rounds
    for i, steps in _calls_by_deal(batch).items():
        steps = [step for step in steps if step[0] >= 0]      # not the after-auction window
        calls = [_call_of(br, step) for step in steps]
        if len(calls) != cap or not batch.contract[i]:
            continue
        tail = [c[1].kind for c in calls[-br.passes_to_end:]]
        if tail != ["pass"] * br.passes_to_end and all(c[0] == SEATS[step[0]] for c, step in zip(calls, steps)):
            return True
    return False


def _bids_used_up(batch) -> bool:
    """A player who had bid max_bids_per_player times was to act in the bidding with bids above the
    highest bid left in the ladder, and had none (a recorded lowest bid of L)."""
    br = batch.rules
    for steps in _calls_by_deal(batch).values():
        made = [0, 0, 0, 0]
        high = -1
        coinched = False
        for step in steps:
            ta, lo = step[0], step[1]
            if (ta >= 0 and not coinched and made[ta] >= br.max_bids and lo == br.n_bids
                    and br.lowest[high + 1] < br.n_bids):
                return True
            call = _call_of(br, step)
            if call is None:
                break
            if call[1].kind == "bid":
                made[SEATS.index(call[0])] += 1
                high = br.ladder.index(call[1])
                coinched = False
            elif call[1].kind == "coinche":
                coinched = True
    return False


# test rule set -> (what the deals must show, for random players, for simple players)
RULE_SETS = {
    "test-decoinche": (_bid_over_a_coinche, _bid_over_a_coinche),
    "test-coinche-any-player": (_takers_coinche, _takers_coinche),
    "test-coinche-side-in-turn": (_partner_of_the_seat_to_act_coinches, _partner_of_the_seat_to_act_coinches),
    "test-no-coinche": (_no_coinche, _no_coinche),
    "test-no-coinche-on-80": (_coinche_from(90), _coinche_from(90)),
    "test-coinche-from-100": (_coinche_from(100), _coinche_from(100)),
    "test-ladder-82-85": (_bids_off_the_tens, _bids_off_the_tens),
    "test-ladder-ceiling-162": (_bid_of(162), None),     # the simple players never bid as high
    "test-ladder-contree-org": (_bids_off_the_tens, _bids_off_the_tens),
    "test-coinche-partner-silent": (_coinchers_partner_skipped, _coinchers_partner_skipped),
    "test-raise-named-strain": (_named_strain_left_out, _named_strain_left_out),
    "test-capot-over-capot": (None, None),          # capots come in the combinations below
    "test-dealer-must-bid": (_dealer_forced, _dealer_forced),
    "test-rounds-1": (_cut_by_rounds, _cut_by_rounds),
    "test-rounds-2": (_cut_by_rounds, _cut_by_rounds),
    "test-bids-once": (_bids_used_up, _bids_used_up),
    "test-bids-twice": (_bids_used_up, None),       # simple players seldom bid three times
}


@pytest.mark.parametrize("players", ["random", "simple"])
@pytest.mark.parametrize("ident", list(RULE_SETS))
def test_auction_rule_set_deal_for_deal(ident, players):
    batch, diffs = _replayed(load_variant(ident), DEALS, seed=31, players=players)
    assert diffs == []
    assert batch.contract.mean() > 0.8
    shows = RULE_SETS[ident][players == "simple"]
    if shows is not None:
        assert shows(batch), f"{ident}: the option was never at work in {DEALS} {players} deals"


_CONTREE_ORG = [82, 92, 102, 112, 122, 132, 142, 152, 162, 182, 222]
# auction options combined with each other and with other auction rules: (seed rule set, changes,
# what the random deals must show, what the simple players' deals must show)
CHANGED = [
    ("federation", {"auction.coinche.effect": "overbid_cancels", "auction.speak_after_pass": False,
                    "auction.surcoinche.ends_auction": False, "auction.coinche.passes_after": 2},
     _bid_over_a_coinche, _bid_over_a_coinche),
    ("contree-701", {"auction.coinche.by": "any_player", "auction.coinche.when": "after_auction",
                     "auction.coinche.minimum_bid": 100},
     _coinche_from(100), _coinche_from(100)),
    ("contree-701", {"auction.coinche.by": "any_player", "auction.coinche.when": "any_moment",
                     "auction.coinche.effect": "overbid_cancels"},
     _takers_coinche, _takers_coinche),
    ("cafe-1000", {"auction.coinche.when": "side_in_turn", "auction.coinche.by": "any_player",
                   "auction.coinche.effect": "overbid_cancels", "auction.raise_own_bid": "always"},
     _partner_of_the_seat_to_act_coinches, _partner_of_the_seat_to_act_coinches),
    ("cafe-sans-tout-atout", {"auction.coinche.allowed": False}, _no_coinche, _no_coinche),
    ("cafe-sans-tout-atout", {"auction.coinche.when": "in_turn", "auction.bids.ladder": _CONTREE_ORG,
                              "auction.bids.minimum": 82, "auction.bids.maximum": 222,
                              "auction.coinche.minimum_bid": 92, "auction.coinche.effect": "overbid_cancels"},
     _bids_off_the_tens, _bids_off_the_tens),
    ("federation", {"auction.coinche.effect": "overbid_cancels", "auction.passes_to_end": 4,
                    "auction.raise_own_bid": "when_changing_strain", "auction.coinche.by": "any_player",
                    "auction.capot.may_be_coinched": False},
     _bid_over_a_coinche, _takers_coinche),
    ("federation", {"auction.coinche.partner_may_speak": False, "auction.coinche.effect": "overbid_cancels",
                    "auction.surcoinche.ends_auction": False, "table.direction": "anticlockwise"},
     _coinchers_partner_skipped, _coinchers_partner_skipped),
    ("federation", {"auction.raise_own_bid": "never_in_a_named_strain", "auction.coinche.effect": "overbid_cancels",
                    "auction.passes_to_end": 4, "auction.coinche.partner_may_speak": False},
     _named_strain_left_out, _named_strain_left_out),
    # capots early (the numbers stop at 90), over each other and under a générale, over one's own
    ("contree-701", {"auction.capot.overcall_by_capot": "higher_strain", "auction.bids.maximum": 90,
                     "auction.generale.allowed": True, "auction.passes_to_end": 4, "auction.raise_own_bid": "always"},
     _capot_over_capot, None),
    ("cafe-sans-tout-atout", {"auction.capot.overcall_by_capot": "higher_strain", "auction.bids.maximum": 100,
                              "auction.coinche.when": "in_turn", "auction.coinche.effect": "overbid_cancels"},
     _capot_over_capot, None),
    ("federation", {"auction.all_pass": "dealer_must_bid", "auction.max_rounds": 2, "auction.speak_after_pass": False,
                    "auction.coinche.when": "any_moment"},
     _dealer_forced, _dealer_forced),
    ("contree-701", {"auction.max_rounds": 1, "auction.coinche.when": "after_auction",
                     "auction.coinche.by": "any_player"},
     _cut_by_rounds, _cut_by_rounds),
    ("federation", {"auction.max_rounds": 2, "auction.coinche.effect": "overbid_cancels",
                    "auction.coinche.partner_may_speak": False, "auction.surcoinche.ends_auction": False},
     _cut_by_rounds, _cut_by_rounds),
    ("federation", {"auction.max_bids_per_player": 1, "auction.coinche.effect": "overbid_cancels",
                    "auction.passes_to_end": 4, "auction.raise_own_bid": "when_changing_strain"},
     _bids_used_up, _bids_used_up),
    ("cafe-sans-tout-atout", {"auction.max_bids_per_player": 2, "auction.max_rounds": 3,
                              "auction.raise_own_bid": "never_in_a_named_strain"},
     _bids_used_up, _bids_used_up),
]


@pytest.mark.parametrize("players", ["random", "simple"])
@pytest.mark.parametrize("base,changes,random_shows,simple_shows", CHANGED,
                         ids=[f"{b}:{','.join(c)}" for b, c, *_ in CHANGED])
def test_changed_auction_rules_deal_for_deal(base, changes, random_shows, simple_shows, players):
    batch, diffs = _replayed(changed_rules(base, changes), CHANGED_DEALS, seed=8, players=players)
    assert diffs == []
    shows = simple_shows if players == "simple" else random_shows
    assert shows is None or shows(batch), f"{base} {changes}: the option was never at work in {CHANGED_DEALS} {players} deals"


def test_the_checks_can_fail():
    """The checks above see the options' absence: a rule set without them shows none of them."""
    batch, _ = _replayed(load_variant("federation"), 300, seed=31)
    assert not _bid_over_a_coinche(batch) and not _takers_coinche(batch)
    assert not _partner_of_the_seat_to_act_coinches(batch) and not _no_coinche(batch)
    assert not _bids_off_the_tens(batch) and not _coinche_from(90)(batch) and not _bid_of(162)(batch)
    assert not _coinchers_partner_skipped(batch) and not _named_strain_left_out(batch)
    assert not _capot_over_capot(batch) and not _dealer_forced(batch)
    # caps so high they never bite
    batch, _ = _replayed(changed_rules("contree-701", {"auction.max_rounds": 40, "auction.max_bids_per_player": 40}),
                         300, seed=31)
    assert not _cut_by_rounds(batch) and not _bids_used_up(batch)
