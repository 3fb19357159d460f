"""Every option of every enumerated rule has an engine behaviour and a rules-page sentence.

The schema is walked for every rule whose value is one of a list (``enum``),
including lists of such values (``auction.strain_order[]``, an award's
``terms[]``) and the fields of the award definition (``award.multiplied``).
Each option must have an entry in the engine's table for that rule
(engine/options.py TABLES) and a sentence in the rules pages' table for it
(docsgen/templates.py option_sentences). That every option also has a
hand-derived fixture is the whole-schema coverage test's job (branch coverage).
"""

from __future__ import annotations

import copy
import json
import random

import pytest

import coinche_spec.engine  # noqa: F401  (imports every phase, so every table is registered)
from coinche_spec.docsgen import templates
from coinche_spec.engine import Unsupported
from coinche_spec.engine.options import TABLES
from coinche_spec.engine.random_play import random_deal
from coinche_spec.engine.scoring import score_deal
from coinche_spec.notation import Contract
from coinche_spec.resources import variant_schema_path
from coinche_spec.variants import Rules, load_variant


def schema() -> dict:
    return json.loads(variant_schema_path().read_text(encoding="utf-8"))


def enumerated_rules(doc: dict) -> dict[str, list]:
    """Rule path -> its options, for every enumerated rule of the schema (``award.`` for the award's fields)."""
    out: dict[str, list] = {}

    def walk(node: dict, path: str) -> None:
        if "enum" in node:
            out[path] = list(node["enum"])
        items = node.get("items")
        if isinstance(items, dict) and "enum" in items:
            out[path + "[]"] = list(items["enum"])
        for alt in node.get("oneOf", []) + node.get("anyOf", []):
            walk(alt, path)
        for key, child in node.get("properties", {}).items():
            walk(child, f"{path}.{key}" if path else key)

    walk(doc["$defs"]["rules"], "")
    walk(doc["$defs"]["award"], "award")
    return out


def missing_engine_entries(doc: dict) -> list[str]:
    """``path: option`` for every option of the schema that no engine table maps to a behaviour."""
    out = []
    for path, options in enumerated_rules(doc).items():
        table = TABLES.get(path)
        for option in options:
            if table is None or option not in table:
                out.append(f"{path}: {option}")
    return out


def missing_sentences(doc: dict) -> list[str]:
    """``path: option`` for every option of the schema that the rules pages have no sentence for."""
    sentences = templates.option_sentences()
    out = []
    for path, options in enumerated_rules(doc).items():
        table = sentences.get(path)
        for option in options:
            if table is None or templates._value_key(option) not in table:
                out.append(f"{path}: {option}")
    return out


def test_the_walk_finds_the_enumerated_rules():
    found = enumerated_rules(schema())
    assert found["scoring.rounding"] == ["none", "nearest_10_half_up", "nearest_10_half_down", "nearest_5"]
    assert found["auction.coinche.when"] == ["in_turn", "after_auction", "any_moment", "side_in_turn"]
    assert "auction.strain_order[]" in found and "award.terms[]" in found and "award.multiplied" in found
    assert len(found) >= 35


def test_every_option_has_an_engine_entry():
    assert missing_engine_entries(schema()) == []


def test_every_engine_table_is_a_rule_of_the_schema_with_only_its_options():
    found = enumerated_rules(schema())
    for path, table in TABLES.items():
        assert path in found, f"engine table for {path}, which the schema does not have"
        assert set(table) == set(found[path]), f"{path}: the engine table lists {sorted(table)}"


def test_every_option_has_a_rules_page_sentence():
    assert missing_sentences(schema()) == []


def test_an_option_added_to_the_schema_without_an_engine_entry_is_found():
    patched = schema()
    rounding = patched["$defs"]["rules"]["properties"]["scoring"]["properties"]["rounding"]
    rounding["enum"].append("nearest_25")
    coinche = patched["$defs"]["rules"]["properties"]["auction"]["properties"]["coinche"]["properties"]
    coinche["by"]["enum"].append("dealer_only")
    assert missing_engine_entries(patched) == ["auction.coinche.by: dealer_only", "scoring.rounding: nearest_25"]
    assert missing_sentences(patched) == ["auction.coinche.by: dealer_only", "scoring.rounding: nearest_25"]
    assert missing_engine_entries(schema()) == []      # the shipped schema was not touched


def _with(ident: str, path: str, value) -> dict:
    doc = copy.deepcopy(load_variant(ident).document["rules"])
    node = doc
    *head, last = path.split(".")
    for key in head:
        node = node.setdefault(key, {})     # an optional group the rule set leaves out (belote.placement)
    node[last] = value
    return doc


def test_a_rule_set_with_an_option_the_engine_lacks_is_refused_not_ignored():
    """Before the tables, a new rounding mode left scores unrounded and the rules page crashed."""
    rules = Rules(_with("federation", "scoring.rounding", "nearest_25"), "test-nearest-5")
    contract = Contract(80, "H", "N", 1)
    with pytest.raises(Unsupported, match=r"rules\.scoring\.rounding: .*'nearest_25'"):
        score_deal(rules, contract, {"NS": 85, "EW": 67}, {"NS": 5, "EW": 3}, "NS", None, None)
    # an option in a rule no deal of this rule set would reach is refused as well
    quiet = Rules(_with("federation", "deal.cut.by", "dealer_opposite"), "test-cut-opposite")
    with pytest.raises(Unsupported, match=r"rules\.deal\.cut\.by: .*'dealer_opposite'"):
        score_deal(quiet, contract, {"NS": 85, "EW": 67}, {"NS": 5, "EW": 3}, "NS", None, None)
    ctx = templates.Ctx(rules.to_dict())
    with pytest.raises(KeyError, match=r"no sentence for option 'nearest_25' of rule scoring\.rounding"):
        templates.BY_KEY["rounding"].say(ctx)


def _rules_with(path: str, option) -> dict:
    """A copy of a shipped rule set's rules with ``option`` set at the enumerated rule ``path``."""
    if path == "auction.strain_order[]":      # the option ranked highest, in a rule set that bids all six
        order = [s for s in ("S", "H", "D", "C", "TA", "SA") if s != option] + [option]
        return _with("cafe-sans-tout-atout", "auction.strain_order", order)
    if path.startswith("card_values.order."):  # the option ranked strongest, the others in the usual order
        usual = {"trump": ["J", "9", "A", "T", "K", "Q", "8", "7"], "plain": ["A", "T", "K", "Q", "J", "9", "8", "7"]}
        group = path.removesuffix("[]").rsplit(".", 1)[1]
        usual[group] = [option] + [r for r in usual[group] if r != option]
        return _with("contree-701", "card_values.order", usual)
    if path.startswith("card_values.scale."):  # a whole scale, in a rule set that bids sans and tout atout
        doc = copy.deepcopy(load_variant("cafe-sans-tout-atout").document["rules"])
        doc["card_values"]["scale"] = {"sans_atout": {"times": 152, "per": 120}, "tout_atout": {"times": 152, "per": 248},
                                       "applies_to": "trick_points", "rounding": "nearest_half_up",
                                       "defenders": "scaled", path.rsplit(".", 1)[1]: option}
        return doc
    if path.startswith("award."):             # the made takers' award of federation
        doc = copy.deepcopy(load_variant("federation").document["rules"])
        award = doc["scoring"]["made"]["takers"]
        if path == "award.terms[]":
            award["terms"] = ["bid", option] if option != "bid" else ["bid"]
            award["base"] = 100
        else:
            award["multiplied"] = option
        return doc
    return _with("federation", path, option)


@pytest.mark.parametrize("path", sorted(enumerated_rules(schema())))
def test_every_option_plays_and_reads(path):
    """Each option, set on a copy of a shipped rule set, plays random deals to the end and is said
    on the rules page (the sentence of the rule, or of the award it is part of)."""
    for option in enumerated_rules(schema())[path]:
        doc = _rules_with(path, option)
        rules = Rules(doc, f"test-{option}")
        rng = random.Random(8)
        for _ in range(4):
            deal = random_deal(rules, rng)
            assert deal.phase in ("done", "redeal")
        ctx = templates.Ctx(doc)
        leaf = "scoring.made.takers" if path.startswith("award.") else path.removesuffix("[]")
        sentence = templates.template_for(leaf).say(ctx)
        assert len(sentence) > 10 and sentence.endswith("."), f"{path}: {option}: {sentence!r}"
