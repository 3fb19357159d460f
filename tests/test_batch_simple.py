"""The batch engine's simple players against the per-deal simple players, deal for deal (issue 12).

Every shipped and house rule set the batch engine plays: 2,000 recorded batch
deals of simple players (batch/simple.py) replayed through the per-deal
engine (tests/test_batch_engine.py, parametrised by the players), where at
every step the call or card the batch chose must be the one
engine/players.py chooses on the same deal (and the legal sets and results
agree, as for random players). Here: rule sets with auction and play rules
no shipped rule set uses, on fewer deals, and checks that the replay does
catch a choice the simple players would not make.
"""

from __future__ import annotations

import numpy as np
import pytest

from coinche_spec.batch import play_batch
from coinche_spec.batch.replay import replay_batch
from coinche_spec.variants import load_variant
from tests.support import changed_rules
from tests.test_batch_engine import _replayed

# Every shipped and house rule set: test_batch_engine.test_shipped_rule_set_deal_for_deal[...-simple].


_INVERTED = {"trump": ["7", "8", "Q", "K", "T", "A", "9", "J"], "plain": ["7", "8", "9", "J", "Q", "K", "T", "A"]}
CHANGED = [
    ("contree-701", {"auction.coinche.when": "any_moment", "auction.speak_after_pass": False}),
    ("federation", {"auction.coinche.when": "after_auction"}),
    ("cafe-1000", {"auction.coinche.effect": "ends_auction", "auction.raise_own_bid": "always"}),
    ("cafe-sans-tout-atout", {"auction.generale.allowed": True, "auction.capot.ends_auction": True}),
    ("contree-701", {"auction.passes_to_end": 4, "auction.raise_own_bid": "when_changing_strain",
                     "auction.overcall": "higher_value_or_strain", "play.first_leader": "taker"}),
    ("contree-701", {"auction.surcoinche.ends_auction": False, "auction.coinche.passes_after": 1,
                     "play.cannot_overtrump": "must_discard", "play.void_partner_winning.may_discard": False}),
    ("federation", {"play.void_opponent_winning.must_trump": False, "belote.counts_towards_contract": False}),
    ("cafe-sans-tout-atout", {"belote.tout_atout": "each_suit", "play.sans_atout_must_go_up": True,
                              "play.trump_lead_must_overtrump": False, "table.direction": "clockwise"}),
    # scoring and belote options: the simple players say belote as the random ones do
    ("cafe-701", {"belote.claim": "king_first", "scoring.litige": "takers_points_held",
                  "scoring.rounding": "nearest_5", "scoring.rounding_stage": "before_multiplier"}),
    ("contree-701", {"contract.versus_defenders": "at_least_level", "belote.claim": "said_once",
                     "scoring.rounding_stage": "card_points_complement"}),
    # libcoinche's trick, won by rank whatever the suit (the partner "wins" by it too), in every strain
    ("contree-701", {"play.trick_winner": "any_suit_by_rank"}),
    ("cafe-sans-tout-atout", {"play.trick_winner": "any_suit_by_rank"}),
    # coinche inversée: both rank orders reversed (card_values.order), with the usual trick and libcoinche's
    ("cafe-sans-tout-atout", {"card_values.order": _INVERTED}),
    ("contree-701", {"card_values.order": _INVERTED, "play.trick_winner": "any_suit_by_rank"}),
]


@pytest.mark.parametrize("base,changes", CHANGED, ids=[f"{b}:{','.join(c)}" for b, c in CHANGED])
def test_changed_rules_simple_players_deal_for_deal(base, changes):
    _, diffs = _replayed(changed_rules(base, changes), 400, 6, players="simple")
    assert diffs == []


def test_replay_finds_a_card_the_simple_player_would_not_play():
    """A batch card changed to another legal card (the rest of the deal left as it was) is caught."""
    batch = play_batch(load_variant("contree-701"), 30, seed=3, record=True, players="simple")
    legal, cards = batch.play.legal, batch.play.cards
    j = next(j for j in range(4, 32) if np.bitwise_count(legal[j, 0]) >= 2)
    other = int(legal[j, 0]) & ~(1 << int(cards[j, 0]))
    cards[j, 0] = (other & -other).bit_length() - 1
    diffs = dict(replay_batch(batch))
    assert f"card {j}: the simple player plays" in diffs[int(batch.played[0])]


def test_replay_finds_a_call_the_simple_players_would_not_make():
    """A random bidders' batch replayed as if the simple players had made it disagrees at once."""
    batch = play_batch(load_variant("contree-701"), 40, seed=3, record=True)
    batch.players = "simple"
    diffs = replay_batch(batch)
    assert len(diffs) > 20 and all("the simple players call" in d for _, d in diffs[:5])


def test_simple_batch_on_given_hands_is_deterministic():
    a = play_batch(load_variant("federation"), 500, seed=4, players="simple")
    b = play_batch(load_variant("federation"), 500, seed=9, players="simple", deals=(a.hands, a.dealer))
    assert (a.score == b.score).all() and (a.made == b.made).all()
    with pytest.raises(ValueError, match=r"deals: expected hands of shape \(4, 400\)"):
        play_batch(load_variant("federation"), 400, players="simple", deals=(a.hands, a.dealer))
    with pytest.raises(ValueError, match="players: expected 'random' or 'simple'"):
        play_batch(load_variant("federation"), 10, players="clever")
