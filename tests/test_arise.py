"""Match cases that cannot arise: the award proofs (engine/awards.py, batch/awards.py), their table
(conformance/arise.py) and what the runner makes of them.

The proofs decide which cases an implementation is not asked, so they are tested for soundness
first: an award a real deal gives is never proved impossible, and the batch scorer the meld proof
relies on scores each enumerated row as the per-deal engine does.
"""

import copy
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from coinche_spec.batch.awards import scored_rows
from coinche_spec.conformance import arise, realised_build
from coinche_spec.conformance.carry import find, written
from coinche_spec.conformance.fixtures import load_corpus
from coinche_spec.conformance.realised import RealisedError, load_store
from coinche_spec.engine.awards import contract_values, multipliers, why_impossible
from coinche_spec.engine.scoring import score_deal
from coinche_spec.notation import Contract
from coinche_spec.variants import load_variant
from coinche_spec.variants.compiled import compiled_rules
from coinche_spec.variants.loader import paged_ids


def award(ns, ew, takers, made, belote=None, tricks=(5, 3)):
    return {"score": {"NS": ns, "EW": ew}, "takers": takers, "made": made, "belote": belote,
            "tricks_won": {"NS": tricks[0], "EW": tricks[1]}}


def test_a_rounded_rule_set_gives_no_award_that_is_not_a_multiple_of_ten():
    # federation rounds each side's final award to tens: 262 cannot be one, 260 (160 + 100) can
    why = why_impossible(load_variant("federation").rules, award(262, 0, "EW", False))
    assert why is not None and "multiple of 10" in why and "262" in why
    assert arise.why_award_impossible(load_variant("federation").rules, award(260, 0, "EW", False)) is None


def test_without_melds_every_deal_is_scored_before_an_award_is_called_impossible():
    rules = load_variant("contree-701").rules
    # a made 80 with 100 in cards: 100 + 80 = 180 to the takers, 162 - 100 = 62 to the defenders
    assert why_impossible(rules, award(180, 62, "NS", True)) is None
    # 181 to 62: plain, the defenders' 62 leaves the takers 100 in cards, so the bid would be 81 (bids go
    # by tens); coinched or surcoinched, the takers' award is doubled or quadrupled, so even: no deal
    why = why_impossible(rules, award(181, 62, "NS", True))
    assert why is not None and "no deal of this rule set gives it" in why


def test_with_melds_the_batch_scorer_proves_what_no_deal_gives():
    rules = load_variant("cafe-sans-tout-atout").rules
    # the café sans atout / tout atout rules: the defenders of a made contract score only their own melds
    # (tens), times 1, 2 or 4: 2 is none of them, whatever the takers get
    why = arise.why_award_impossible(rules, award(20, 2, "NS", True))
    assert why is not None and "meld total" in why
    # a made 80 scores the bid alone, 80; the defenders' 50 is their quarte
    assert arise.why_award_impossible(rules, award(80, 50, "NS", True)) is None


def test_where_a_card_may_sit_in_a_square_and_a_run_the_bound_still_proves():
    # belote-cli lets a card serve in a square and a run, never in two runs: the meld bound holds
    rules = load_variant("belote-cli").rules
    # made 1 to 0: the deal's 162 card points are shared between the sides, so the scores sum to 162 or more
    assert arise.why_award_impossible(rules, award(1, 0, "NS", True)) is not None
    # made 92 to 70: 92 + 70 = 162, the card points alone, and 92 > 70
    assert arise.why_award_impossible(rules, award(92, 70, "NS", True)) is None


def test_no_strain_gives_a_belote_it_does_not_score():
    # belote-cli's belote is a king and queen of trumps: sans atout has no trumps and tout atout none
    # (belote.tout_atout none), so a deal there never records a side's belote
    rules = load_variant("belote-cli").rules
    c = compiled_rules(rules)
    with_belote = award(0, 0, "NS", True, "NS", (5, 3))
    for strain in ("SA", "TA"):
        assert list(scored_rows(rules, with_belote, strain, [60], multipliers(c))) == []
    assert list(scored_rows(rules, with_belote, "H", [60], multipliers(c)))
    assert list(scored_rows(rules, award(0, 0, "NS", True, None, (5, 3)), "SA", [60], multipliers(c)))


MELD_RULE_SETS = [vid for vid in paged_ids() if compiled_rules(load_variant(vid).rules).melds.enabled]


@pytest.mark.parametrize("vid", MELD_RULE_SETS)
def test_the_batch_rows_score_as_the_per_deal_engine_does(vid):
    """Every row the meld proof reads is the per-deal engine's score for the same deal summary."""
    rules = load_variant(vid).rules
    c = compiled_rules(rules)
    rng = random.Random(vid)
    checked = 0
    for case in (award(0, 0, "NS", True, None, (5, 3)), award(0, 0, "EW", False, "NS", (3, 5)),
                 award(0, 0, "NS", True, "EW", (8, 0))):
        for strain in [s for s in ("H", "SA", "TA") if c.strain_allowed(s)]:
            every = contract_values(c, case)
            values = rng.sample(every, min(3, len(every)))
            for rows, s in scored_rows(rules, case, strain, values, multipliers(c)):
                doubling = {m: d for m, d in multipliers(c)}
                for i in rng.sample(range(len(s.made)), 25):
                    mult = int(rows["multiplier"][i])
                    contract = Contract(rows["value"], strain, "N" if case["takers"] == "NS" else "E", mult,
                                        doubling[mult])
                    ns = int(rows["points_ns"][i])
                    seats = None
                    if rows["value"] == "generale":
                        seats = dict(rows["by_seat"], **{s: 0 for s in "NESW" if s not in rows["by_seat"]})
                        seats["E" if case["takers"] == "NS" else "N"] = case["tricks_won"][
                            "EW" if case["takers"] == "NS" else "NS"]
                    r = score_deal(rules, contract, {"NS": ns, "EW": c.card_total(strain) - ns},
                                   case["tricks_won"], ("NS", "EW")[int(rows["last"][i])],
                                   {"NS": int(rows["melds"][0, i]), "EW": int(rows["melds"][1, i])},
                                   case["belote"], explain=False, tricks_by_seat=seats)
                    held = r.held if r.held is not None else {"NS": 0, "EW": 0}
                    assert (r.made, r.score["NS"], r.score["EW"], held.get("NS", 0), held.get("EW", 0)) == (
                        bool(s.made[i]), int(s.score[0, i]), int(s.score[1, i]), int(s.held[0, i]),
                        int(s.held[1, i])), (vid, contract, ns, rows["melds"][:, i])
                    checked += 1
    assert checked >= 100


def test_no_award_a_stored_real_deal_gives_is_proved_impossible():
    """Soundness on real deals: the realised match deals record awards that deals gave; none of them
    may be proved impossible under a rule set the deal realises them under (a sample, seeded)."""
    store = load_store()
    pairs = sorted({(vid, repr(d))
                    for deals in store.deals.values() for x in deals if "deals" in x.deal
                    for vid in x.rule_sets for d in x.summary["deals"] if d["takers"] is not None})
    rng = random.Random(7)
    sample = rng.sample(pairs, 60)
    meldy = [p for p in pairs if p[0] in MELD_RULE_SETS]
    sample += rng.sample(meldy, min(20, len(meldy)))
    for vid, text in sample:
        deal = eval(text)   # noqa: S307 - our own repr of a JSON-like dict
        assert arise.why_award_impossible(load_variant(vid).rules, deal) is None, (vid, deal)


def test_the_runner_does_not_pose_a_case_that_cannot_arise_and_says_why():
    fixture = next(f for f in load_corpus() if f.id == "match-reach-2000-exactly")
    variant = load_variant("peer-kffr")
    source = find(fixture, variant)
    assert source is not None and not source.expectation.applicable
    assert "cannot arise under peer-kffr" in source.expectation.not_applicable
    assert "1000 to 0" in source.expectation.not_applicable
    assert written(fixture, variant) is not None and written(fixture, variant).expectation.applicable


def test_a_proof_made_on_other_rules_does_not_hold():
    fixture = next(f for f in load_corpus() if f.id == "match-reach-2000-exactly")
    shipped = load_variant("peer-kffr")
    assert arise.why_not(fixture, shipped) is not None
    variant = SimpleNamespace(id=shipped.id, document=copy.deepcopy(shipped.document))
    variant.document["rules"]["match"]["target"] += 100     # the same id, other rules: a case again
    assert arise.why_not(fixture, variant) is None


def test_a_broken_table_is_named_with_its_line(tmp_path):
    path = tmp_path / arise.FILE
    path.write_text("cases:\n  - fixture: x\n    reason: y\n", encoding="utf-8")
    with pytest.raises(RealisedError) as exc:
        arise.load(path)
    assert f"{path}:2" in str(exc.value) or "cannot-arise.yaml:2" in str(exc.value)
    assert "exactly the fields" in str(exc.value)


def test_the_table_reloads_as_written():
    path = Path(realised_build.store_dir()) / arise.FILE
    table = arise.load(path)
    entries = [e for es in table.values() for e in es]
    assert entries and arise.render(entries) == path.read_text(encoding="utf-8")


def test_melds_no_two_hands_declare_prove_an_award_impossible():
    # belote-cli: a capot scores 252 and every declaration, so 762 to 0 with all eight tricks asks for
    # 762 - 252 = 510 in melds (in sans atout 220 + 542, in tout atout 348 + 414: not in tens); no two
    # hands of 8 declare 510 (engine.melds.side_totals, tests/test_engine_melds.py)
    bcli = load_variant("belote-cli").rules
    capot = {"score": {"NS": 762, "EW": 0}, "takers": "NS", "made": True, "belote": None,
             "tricks_won": {"NS": 8, "EW": 0}}
    assert "meld total" in arise.why_award_impossible(bcli, capot)
    # 802 = 252 + 550, the most a side declares: that capot is not proved impossible
    assert arise.why_award_impossible(bcli, dict(capot, score={"NS": 802, "EW": 0})) is None


def test_a_match_deal_s_unread_melds_do_not_keep_its_award_from_being_proved():
    # rules-match-capot-meld-no-win records each deal's melds (read only under counting_order). The
    # federation rounds every award to tens, so its second deal, 900 to 62, cannot arise there
    fixture = next(f for f in load_corpus() if f.id == "rules-match-capot-meld-no-win")
    assert fixture.case["deals"][1]["melds"] == {"NS": 0, "EW": 0}
    why = arise.prove(fixture, load_variant("federation"))
    assert why is not None and why.startswith("deal 2's award (900 to 62, made by NS) cannot arise")
