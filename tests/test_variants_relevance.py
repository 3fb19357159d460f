"""Can this rule matter: one table in the rules layer (variants.relevance), read by every layer.

The rules pages fold a rule, ``variants check`` warns of it, ``variants diff``, ``compare`` and the
house pages leave a difference in it out, ``--uncovered`` lists it apart: all by CANNOT_MATTER.
"""

from __future__ import annotations

import copy

from coinche_spec.conformance.rulepaths import known_paths
from coinche_spec.docsgen import compare as docs_compare
from coinche_spec.docsgen import templates
from coinche_spec.docsgen.differences import worded_differences
from coinche_spec.variants import load_variant
from coinche_spec.variants.relevance import CANNOT_MATTER, cannot_matter, rule_of, set_but_moot


def test_every_entry_names_a_rule_of_the_schema():
    unknown = [path for path in CANNOT_MATTER if path not in known_paths()]
    assert unknown == [], f"variants/relevance.py: CANNOT_MATTER names rules the schema lacks: {unknown}"


def test_one_sentence_reads_one_entry():
    """A sentence that says several leaves together (a card table) has one entry for all of them,
    so the page folds the sentence whole and a house warning names the table once."""
    for t in templates.TEMPLATES:
        entries = {rule_of(p) for p in t.paths}
        assert len(entries) == 1, f"template {t.key}: its leaves read different entries {sorted(map(str, entries))}"


def test_the_page_reads_the_table():
    rules = load_variant("contree-701").document["rules"]          # no melds, no tout atout
    ctx = templates.Ctx(rules)
    assert templates.template_for("melds.runs.3").unused(ctx) == cannot_matter(rules, "melds.runs") \
        == "melds are not played"
    assert templates.template_for("card_values.tout_atout.J").unused(ctx) == "tout atout cannot be bid"
    assert templates.template_for("table.direction").unused(ctx) is None and rule_of("table.direction") is None


def test_a_rule_left_out_reads_as_its_default():
    """contract.judged_on and scoring.litige are optional: left out, they play card_points and none."""
    rules = copy.deepcopy(load_variant("cafe-701").document["rules"])
    rules["belote"]["counts_as"] = "lowered_target"
    rules["contract"].pop("judged_on", None)
    rules["scoring"].pop("litige", None)
    assert cannot_matter(rules, "belote.counts_as").startswith("the takers' total is never compared")


def test_a_house_file_setting_a_moot_rule_is_named_once_per_rule():
    rules = load_variant("contree-701").document["rules"]
    written = {"melds": {"runs": {"3": 30, "4": 60}}, "card_values": {"tout_atout": {"J": 20}},
               "table": {"direction": "clockwise"}}
    assert set_but_moot(rules, written) == [("melds.runs", "melds are not played"),
                                            ("card_values.tout_atout.J", "tout atout cannot be bid")]


def test_compare_lists_a_differing_rule_that_has_no_sentence_yet(monkeypatch):
    """A rule just added to the schema has no sentence until someone writes one: ``compare`` must
    still list it when the rule sets differ on it (it once listed only the rules with a sentence)."""
    pair = [load_variant("contree-701"), load_variant("cafe-701")]
    changes, _ = worded_differences(pair)
    capot = next(c for c in changes if c.title == "Value of a capot bid")
    without = tuple(t for t in templates.TEMPLATES if t.key != "capot-value")
    monkeypatch.setattr(templates, "TEMPLATES", without)
    monkeypatch.setattr(docs_compare, "TEMPLATES", without)
    changes, left_out = worded_differences(pair)
    found = [c for c in changes if c.key == "auction.capot.value"]
    assert len(found) == 1, [c.key for c in changes]
    assert found[0].values == ("260", "500") and found[0].title == "auction.capot.value"
    assert found[0].sentences == ("auction.capot.value = 260 (no sentence yet)",
                                  "auction.capot.value = 500 (no sentence yet)")
    assert found[0].basis == capot.basis
    assert "Value of a capot bid" not in {c.title for c in changes}


def test_compare_leaves_out_a_rule_without_a_sentence_that_cannot_matter(monkeypatch):
    """The strain order is moot under federation (bids compared by value only): left out, with why,
    whether or not a sentence speaks for it."""
    pair = [load_variant("federation"), load_variant("cafe-sans-tout-atout")]
    without = tuple(t for t in templates.TEMPLATES if t.key != "strain-order")
    monkeypatch.setattr(templates, "TEMPLATES", without)
    monkeypatch.setattr(docs_compare, "TEMPLATES", without)
    changes, left_out = worded_differences(pair)
    assert "auction.strain_order" not in {c.key for c in changes}
    assert any(x.startswith("auction.strain_order: unused under federation") for x in left_out), left_out
