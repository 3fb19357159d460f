"""The batch engine against the per-deal engine, deal for deal (issue 12).

Every shipped and house rule set, and every published or program's rule set the batch engine
plays (the others are refused for a rule added after it): 2,000 recorded batch deals replayed through
coinche_spec.engine.Deal, comparing the seat to act and the whole legal set at
every call and every card, and every field of the result (batch/replay.py).
Rule sets with options no shipped rule set uses are replayed on fewer deals.
The random legal card is checked to be uniform by a seeded chi-squared test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from coinche_spec.batch import BatchUnsupported, batch_rules, play_batch
from coinche_spec.batch.replay import replay_batch
from coinche_spec.batch.rules import BATCH_NOT_YET, BATCH_NOT_YET_RULES, BATCH_OPTIONS
from coinche_spec.engine.options import TABLES
from coinche_spec.variants import house_ids, load_variant, registry, shipped_ids
from tests.support import changed_rules

DEALS = 2000
# the published and programs' rule sets (variants/published/, variants/implementations/): the batch
# engine plays some; the others use a rule added after it, which it refuses (REFUSED below)
WRITTEN = registry.ids("published") + registry.ids("implementation")


def _batch_plays(ident) -> bool:
    try:
        batch_rules(load_variant(ident))
    except BatchUnsupported:
        return False
    return True


SHIPPED = shipped_ids() + house_ids() + [i for i in WRITTEN if _batch_plays(i)]
# rule set -> the rule its refusal names: each a rule the batch engine does not play yet
REFUSED = {"colver": "belote.placement", "peer-slim0": "belote.placement",
           "peer-bga": "auction.coinche.effect", "peer-ten0": "auction.coinche.by",
           "peer-alounv": "scoring.capot_failed", "peer-coinche-cli": "scoring.capot_failed",
           "peer-koubs934": "scoring.capot_failed", "peer-oliboy50": "deal.packets_after_auction",
           "peer-libcoinche": "auction.coinche.by",
           "belote-cli": "scoring.litige"}


# (rule set, players) whose deals are never coinched, and why: the replay's "some are coinched" check
# does not apply to them (the deal-for-deal comparison still does)
NEVER_COINCHED = {("belote-cli", "simple"): "its one bid is 60: the simple players coinche only when the "
                                            "defence counts 162 - 60 + 20 = 122 (own hand plus a partner share), never reached in these deals"}


def _replayed(rules, n, seed, players="random"):
    batch = play_batch(rules, n, seed=seed, record=True, players=players)
    assert len(batch) == n and batch.players == players
    return batch, replay_batch(batch)


@pytest.mark.parametrize("players", ["random", "simple"])
@pytest.mark.parametrize("ident", SHIPPED)
def test_shipped_rule_set_deal_for_deal(ident, players):
    """For simple players (batch/simple.py) the replay also checks every call and card against
    engine/players.py's choice on the same deal (tests/test_batch_simple.py has the rest)."""
    batch, diffs = _replayed(load_variant(ident), DEALS, seed=12 if players == "random" else 21, players=players)
    assert diffs == []
    # the replay saw real play: most deals reach a contract, some are coinched, some swept
    assert batch.contract.mean() > 0.8
    assert (batch.multiplier > 1).any() != ((ident, players) in NEVER_COINCHED)
    assert (batch.sweeper >= 0).any()


def test_every_shipped_rule_set_is_listed():
    assert {"federation", "contree-701", "cafe-sans-tout-atout", "cafe-1000", "cafe-701"} <= set(SHIPPED)
    assert len(house_ids()) >= 2
    assert {"ffb-contree", "ffb-contree-sa-ta", "peer-kffr", "peer-coincoinche"} <= set(SHIPPED)


@pytest.mark.parametrize("ident", WRITTEN)
def test_a_written_rule_set_is_played_or_refused_for_a_newer_rule(ident):
    """Each published or program's rule set is replayed deal for deal above, unless it uses a rule
    added after the batch engine: then it is refused, by a message naming that rule."""
    if ident not in REFUSED:
        assert ident in SHIPPED and _batch_plays(ident), f"{ident}: the batch engine refuses it; say why in REFUSED"
        return
    assert ident not in SHIPPED
    rule = REFUSED[ident]
    with pytest.raises(BatchUnsupported, match=r"^rules\." + rule.replace(".", r"\.")):
        batch_rules(load_variant(ident))
    assert rule in BATCH_NOT_YET or rule in {r for r, _, _ in BATCH_NOT_YET_RULES} or any(p == rule or p.startswith(rule + ".")
                                        for p in set(TABLES) - set(BATCH_OPTIONS)) or rule == "scoring.capot_failed"


# Options that no shipped rule set plays, each on a seed rule set (fewer deals: each checks a few rules).
CHANGED = [
    ("contree-701", {"auction.coinche.when": "any_moment", "auction.speak_after_pass": False}),
    ("contree-701", {"auction.passes_to_end": 4, "auction.raise_own_bid": "when_changing_strain",
                     "auction.overcall": "higher_value_or_strain"}),
    ("contree-701", {"auction.passes_to_end": 4, "auction.raise_own_bid": "always", "auction.bids.maximum": None}),
    ("contree-701", {"auction.coinche.effect": "ends_auction", "play.first_leader": "taker",
                     "belote.on_failure": "defenders", "scoring.rounding": "nearest_10_half_down"}),
    ("contree-701", {"auction.generale.allowed": True, "auction.capot.ends_auction": True,
                     "play.first_leader": "first_bidder", "belote.on_failure": "lost"}),
    ("contree-701", {"auction.surcoinche.ends_auction": False, "auction.coinche.passes_after": 1,
                     "play.cannot_overtrump": "must_discard", "play.void_partner_winning.may_discard": False}),
    ("federation", {"melds.compare.equal": "first_declared", "melds.winner_scores": "best",
                    "melds.long_runs": "count_as_five", "belote.in_run": "forbidden",
                    "scoring.sweep_takes_melds": "any_sweep"}),
    ("federation", {"play.void_opponent_winning.must_trump": False, "melds.compare.trump_breaks_ties": False,
                    "belote.multiplied": "never", "card_values.sweep.kind": "bonus"}),
    ("cafe-sans-tout-atout", {"belote.tout_atout": "each_suit", "play.sans_atout_must_go_up": True,
                              "play.trump_lead_must_overtrump": False, "auction.coinche.when": "any_moment",
                              "melds.long_runs": "highest_five", "belote.in_run": "forbidden"}),
    ("cafe-sans-tout-atout", {"play.void_opponent_winning.must_overtrump": False,
                              "play.partner_cut_only_trumps": "must_overtrump", "table.direction": "clockwise",
                              "scoring.sweep_takes_melds": "taker_sweep"}),
]


@pytest.mark.parametrize("base,changes", CHANGED, ids=[f"{b}:{','.join(c)}" for b, c in CHANGED])
def test_changed_rules_deal_for_deal(base, changes):
    _, diffs = _replayed(changed_rules(base, changes), 300, seed=5)
    assert diffs == []


def test_replay_finds_a_wrong_score():
    """The replay is not a tautology: a batch whose score is altered disagrees with the engine."""
    batch = play_batch(load_variant("contree-701"), 50, seed=3, record=True)
    batch.score[0, 0] += 10
    diffs = replay_batch(batch)
    assert [i for i, _ in diffs] == [int(batch.played[0])]
    assert "score" in diffs[0][1]


def test_replay_finds_a_wrong_legal_set():
    batch = play_batch(load_variant("federation"), 20, seed=3, record=True)
    batch.play.legal[5, 0] |= batch.play.legal[5, 0] << 1 | 1
    diffs = replay_batch(batch)
    assert diffs and diffs[0][0] == int(batch.played[0]) and "card 5" in diffs[0][1]


def _chi2_bound(df: int, z: float = 6.0) -> float:
    """Wilson-Hilferty: the chi-squared value z standard deviations above the mean (p about 1e-9)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_random_legal_card_is_uniform():
    """Where n cards are legal, the card played is the k-th lowest for k uniform in 0..n-1 (seeded)."""
    batch = play_batch(load_variant("contree-701"), 20000, seed=99, record=True)
    legal = batch.play.legal.astype(np.uint64).ravel()
    card = batch.play.cards.astype(np.uint64).ravel()
    n = np.bitwise_count(legal)
    below = np.bitwise_count(legal & ((np.uint64(1) << card) - np.uint64(1)))
    for count in range(2, 9):
        k = below[n == count]
        assert k.size > 5000
        observed = np.bincount(k.astype(np.int64), minlength=count)
        assert observed.size == count
        expected = k.size / count
        chi2 = float(((observed - expected) ** 2 / expected).sum())
        assert chi2 < _chi2_bound(count - 1), (count, observed)
    # the test sees a skewed choice: playing the lowest legal card half the time fails it
    skew = np.where(np.arange(below.size) % 2 == 0, 0, below)[n == 4]
    observed = np.bincount(skew.astype(np.int64), minlength=4)
    expected = skew.size / 4
    assert float(((observed - expected) ** 2 / expected).sum()) > _chi2_bound(3)


def test_every_engine_option_table_has_a_batch_entry():
    # the rules added after the batch engine (belote placement, SA/TA scaling) are refused where used
    assert all(p.startswith(("belote.placement.", "card_values.scale."))
               for p in set(TABLES) - set(BATCH_OPTIONS)), sorted(set(TABLES) - set(BATCH_OPTIONS))


@pytest.mark.parametrize("ident, rule", [("test-sa-ta-scaled", "card_values.scale"),
                                         ("test-colver-belote", "belote.placement"),
                                         ("test-capot-failed-500", "scoring.capot_failed"),
                                         ("test-level-makes", "contract.versus_defenders"),
                                         ("test-round-stage-card-points", "scoring.rounding_stage"),
                                         ("test-round-stage-before-multiplier", "scoring.rounding_stage"),
                                         ("test-multiply-base", "award.multiplied"),
                                         ("test-litige", "scoring.litige"),
                                         ("test-round-up-from-bulgarian", "scoring.rounding_up_from"),
                                         ("test-decoinche", "auction.coinche.effect"),
                                         ("test-coinche-any-player", "auction.coinche.by"),
                                         ("test-coinche-side-in-turn", "auction.coinche.when"),
                                         ("test-no-coinche", "auction.coinche.allowed"),
                                         ("test-no-coinche-on-80", "auction.coinche.minimum_bid"),
                                         ("test-ladder-82-85", "auction.bids.ladder"),
                                         ("test-belote-king-first", "belote.claim")])
def test_a_rule_added_after_the_batch_engine_is_refused_where_used(ident, rule):
    with pytest.raises(BatchUnsupported, match=r"rules\." + rule.replace(".", r"\.")):
        batch_rules(load_variant(ident))


def test_the_rounding_stage_the_batch_plays_is_accepted():
    """Rounding the final award is what the batch engine does, written out or left out."""
    assert batch_rules(load_variant("test-round-stage-award")).rounding == "nearest_10_half_up"


def test_an_option_the_batch_does_not_play_is_refused(monkeypatch):
    monkeypatch.setitem(BATCH_OPTIONS, "scoring.rounding", frozenset({"none"}))
    rules = changed_rules("contree-701", {"scoring.rounding": "nearest_10_half_down"})
    with pytest.raises(BatchUnsupported, match=r"rules\.scoring\.rounding.*nearest_10_half_down"):
        batch_rules(rules)


def test_a_rule_the_batch_does_not_know_is_refused(monkeypatch):
    monkeypatch.delitem(BATCH_OPTIONS, "play.cannot_overtrump")
    rules = changed_rules("contree-701", {"play.cannot_overtrump": "may_discard"})
    with pytest.raises(BatchUnsupported, match=r"rules\.play\.cannot_overtrump"):
        batch_rules(rules)


def test_same_seed_same_batch():
    a = play_batch(load_variant("federation"), 500, seed=4)
    b = play_batch(load_variant("federation"), 500, seed=4)
    assert (a.hands == b.hands).all() and (a.score == b.score).all()
    c = play_batch(load_variant("federation"), 500, seed=5)
    assert not (a.hands == c.hands).all()


def test_dealing_gives_each_seat_eight_distinct_cards():
    batch = play_batch(load_variant("contree-701"), 1000, seed=1)
    h = batch.hands
    assert (np.bitwise_count(h) == 8).all()
    assert ((h[0] | h[1] | h[2] | h[3]) == 0xFFFFFFFF).all()


def test_replay_finds_a_wrong_legal_call_set():
    batch = play_batch(load_variant("contree-701"), 20, seed=3, record=True)
    batch.auction.steps[0][3][0] += 1          # the first deal's lowest legal bid, one rung too high
    diffs = replay_batch(batch)
    assert diffs and diffs[0][0] == int(batch.auction.steps[0][0][0]) and "call 0: legal calls differ" in diffs[0][1]


# -- coinche-spec deal --batch N ------------------------------------------------------------------

def _deal_cli(capsys, *argv):
    from coinche_spec.cli import main
    code = main(["deal", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_deal_batch_json(capsys):
    import json
    code, out, _ = _deal_cli(capsys, "--variant", "federation", "--batch", "3000", "--seed", "3", "--json")
    assert code == 0
    stats = json.loads(out)
    assert stats["variant"] == "federation" and stats["deals"] == 3000
    assert stats["played"] + stats["thrown_in"] == 3000 and stats["played"] > 2500
    for key in ("made_rate", "sweep_rate", "coinche_rate", "taker_sweep_rate"):
        assert 0 < stats[key] < 1
    assert stats["taker_sweep_rate"] <= stats["sweep_rate"]
    p = stats["points_per_deal"]
    assert abs(p["NS"] + p["EW"] - p["both"]) < 1e-3 and abs(p["takers"] + p["defenders"] - p["both"]) < 1e-3
    # the same seed gives the same figures
    assert _deal_cli(capsys, "--variant", "federation", "--batch", "3000", "--seed", "3", "--json")[1] == out


def test_deal_batch_text(capsys):
    code, out, _ = _deal_cli(capsys, "--variant", "cafe-701", "--batch", "500", "--seed", "1")
    assert code == 0 and out.startswith("cafe-701: 500 random deals (seed 1)") and "made" in out


@pytest.mark.parametrize("argv,message", [
    (("--variant", "contree-701", "--batch", "0"), "--batch: expected a number of deals of 1 or more"),
    (("--variant", "contree-701", "--json"), "--json goes with --batch"),
    (("--variant", "no-such-rule-set", "--batch", "10"), "no-such-rule-set"),
])
def test_deal_batch_bad_input(capsys, argv, message):
    code, out, err = _deal_cli(capsys, *argv)
    assert code == 2 and out == "" and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
