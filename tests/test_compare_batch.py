"""compare's simulation on the batch engine: the same hands, the same records, the same figures.

The deals come from a counter-based hash that plain Python (per-deal
engine) and numpy (batch engine) work out alike; the batch's simple players
make the per-deal simple players' calls and cards (tests/test_batch_simple.py),
so a simulation gives identical records and statistics on either engine.
A rule set the batch engine refuses is played one by one, and stderr says so.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from coinche_spec.compare import deals, simulate
from coinche_spec.notation import SEATS
from coinche_spec.variants import load_variant
from tests.support import stage_batch_refusal


def test_python_and_numpy_deal_the_same_hands():
    hands, dealer = deals.deal_block(11, 500, 900)
    for i in range(500, 900):
        d, h = deals.deal_hands(11, i)
        assert d == SEATS[int(dealer[i - 500])]
        assert [h[s] for s in SEATS] == [int(x) for x in hands[:, i - 500]]
    # whole packs, and a block does not depend on where it starts
    assert ((hands[0] | hands[1] | hands[2] | hands[3]) == 0xFFFFFFFF).all()
    later, _ = deals.deal_block(11, 700, 710)
    assert (later == hands[:, 200:210]).all()


def test_dealers_are_spread_over_the_four_seats():
    _, dealer = deals.deal_block(2, 0, 8000)
    counts = [int((dealer == s).sum()) for s in range(4)]
    assert all(1850 < c < 2150 for c in counts), counts


@pytest.mark.parametrize("refs", [["contree-701", "cafe-701"], ["federation", "federation-1500-x3", "cafe-1000"]])
def test_batch_and_per_deal_simulations_give_the_same_records(refs):
    one = simulate.play_deals(refs, 300, seed=4, engine="deal")
    batch = simulate.play_deals(refs, 300, seed=4, engine="batch")
    assert batch == one
    assert all(sum(d[k][0] is not None for d in one) > 250 for k in range(len(refs)))   # mostly played
    assert len({d[0][4] - d[0][5] for d in one}) > 20       # real, varied deals


def test_batch_and_per_deal_statistics_are_identical():
    variants = [load_variant("contree-701"), load_variant("cafe-sans-tout-atout")]
    a = simulate.simulate(variants, 400, seed=9, engine="deal")
    b = simulate.simulate(variants, 400, seed=9, jobs=2, engine="batch")
    assert a == b
    assert a.pairs[0].score_differs.value > 0


def test_the_batch_simulation_does_not_depend_on_the_chunks(monkeypatch):
    refs = ["contree-701", "federation"]
    whole = simulate.play_deals(refs, 500, seed=3, engine="batch")
    monkeypatch.setattr(simulate, "BATCH_CHUNK", 70)
    assert simulate.play_deals(refs, 500, seed=3, engine="batch", jobs=2) == whole


@pytest.fixture
def batch_refuses_level_makes(monkeypatch):
    """The batch engine refuses test-level-makes (staged: it plays every rule set today)."""
    stage_batch_refusal(monkeypatch)


def test_a_litige_is_held_alike_on_both_engines():
    """scoring.litige: the points held back are part of the records, on either engine."""
    refs = ["federation", "conformance/rulesets/test-litige.yaml"]
    one = simulate.play_deals(refs, 1500, seed=2, engine="deal")
    assert simulate.play_deals(refs, 1500, seed=2, engine="batch") == one
    assert any(d[1][9] is not None for d in one) and all(d[0][9] is None for d in one)


def test_a_replayed_level_deal_is_thrown_in_alike_on_both_engines():
    """scoring.litige replay: a level deal that reaches the bid is a thrown-in record on either engine,
    where federation plays it (a failed contract)."""
    refs = ["federation", "conformance/rulesets/test-litige-replay.yaml"]
    one = simulate.play_deals(refs, 1500, seed=2, engine="deal")
    assert simulate.play_deals(refs, 1500, seed=2, engine="batch") == one
    replayed = [d for d in one if d[1][0] is None and d[0][0] is not None]
    assert replayed and all(d[0][1] is False for d in replayed)
    assert all(d[1] == d[0] for d in one if d[1][0] is not None)


@pytest.mark.usefixtures("batch_refuses_level_makes")
def test_a_rule_set_the_batch_refuses_is_played_one_by_one_and_stderr_says_so():
    notes = []
    refs = ["contree-701", "conformance/rulesets/test-level-makes.yaml"]
    records = simulate.play_deals(refs, 30, seed=1, note=notes.append)
    assert len(records) == 30
    assert len(notes) == 1 and "one by one" in notes[0] and "rules.contract.versus_defenders" in notes[0]
    with pytest.raises(ValueError, match="batch engine cannot play"):
        simulate.play_deals(refs, 30, seed=1, engine="batch")


@pytest.mark.usefixtures("batch_refuses_level_makes")
def test_compare_command_notes_the_fallback_on_stderr():
    from coinche_spec.cli import main
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["compare", "contree-701", "conformance/rulesets/test-level-makes.yaml", "--deals", "20",
                     "--jobs", "1"])
    assert code == 0 and "2. Simulation: 20 deals" in out.getvalue()
    assert "playing the deals one by one" in err.getvalue()
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["compare", "contree-701", "cafe-701", "--deals", "20", "--jobs", "1"])
    assert code == 0 and err.getvalue() == ""


@pytest.mark.parametrize("ident", ["contree-701", "federation-1500-x3", "cafe-1000",
                                   "conformance/rulesets/test-colver-match.yaml"])
def test_match_lengths_shortcut_agrees_with_the_match_rules(ident):
    """match_lengths decides the usual deals by the totals alone: the same lengths as Match on every deal."""
    rules_ = load_variant(ident).rules
    records = [d[0] for d in simulate.play_deals([ident], 3000, seed=8)]
    # scores shifted so that both sides often reach the target in the same deal, and ties occur
    records += [(r[0], r[1], r[2], r[3], r[4] * 3 // 10 * 10, r[5] * 3 // 10 * 10, *r[6:]) for r in records]
    assert simulate.match_lengths(rules_, records) == simulate._match_lengths_slow(
        rules_, [r for r in records if r[0] is not None])
    assert len(simulate.match_lengths(rules_, records)) > 200


def test_thrown_in_deals_count_toward_a_fixed_number_of_deals():
    """Under match.deals with throw_ins_count, a thrown-in deal is one of the match's deals (was
    dropped before the match was counted); a match's length is still its played deals."""
    played = ("NS", True, 1, False, 100, 62, 5, 3, None, None)       # NS 100, EW 62
    thrown = simulate._THROWN
    records = [played, thrown, thrown, played, played, played]
    # three deals at most, thrown-in ones counted: deals 1-3 end the first match (NS 100 > 62, 1
    # played deal); deals 4-6 the second (3 played); nothing is left over
    counted = load_variant("conformance/rulesets/test-match-3-deals.yaml").rules
    assert simulate.match_lengths(counted, records) == [1, 3]
    # thrown-in deals not counted: the first match is deals 1, 4 and 5; deal 6 starts an unfinished one
    free = load_variant("conformance/rulesets/test-match-3-deals-throw-ins-free.yaml").rules
    assert simulate.match_lengths(free, records) == [3]


def test_a_litige_replay_is_never_a_deal_of_the_match():
    """scoring.litige replay deals a level deal again: even where thrown-in deals count toward
    match.deals, the replay is not one of them."""
    played = ("NS", True, 1, False, 100, 62, 5, 3, None, None)
    records = [played, simulate._REPLAYED, simulate._REPLAYED, played, played]
    counted = load_variant("conformance/rulesets/test-match-3-deals.yaml").rules
    assert simulate.match_lengths(counted, records) == [3]
