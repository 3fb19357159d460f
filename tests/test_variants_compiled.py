"""The compiled rules: one object per resolved rule set, with the schema's names and the shared facts."""

from __future__ import annotations

import pytest

from coinche_spec.variants import load_variant
from coinche_spec.variants.compiled import compiled_rules


def test_one_compiled_object_per_resolved_document():
    first, again = load_variant("federation"), load_variant("federation")
    c = compiled_rules(first.rules)
    assert compiled_rules(again.rules) is c             # a second load of the same rule set
    assert compiled_rules(first) is c                   # a Variant, for its rules
    assert compiled_rules(first.document["rules"]) is c  # the plain dict
    assert compiled_rules(c) is c
    assert compiled_rules(load_variant("cafe-701").rules) is not c


def test_the_schema_names_read_only():
    c = compiled_rules(load_variant("contree-701").rules)
    assert c.auction.coinche.when == load_variant("contree-701").document["rules"]["auction"]["coinche"]["when"]
    with pytest.raises(AttributeError, match="read-only"):
        c.auction.coinche.when = "any_moment"
    with pytest.raises(AttributeError, match="rules.auction has no rule 'jump'"):
        c.auction.jump


def test_the_shared_facts():
    fed = compiled_rules(load_variant("federation").rules)
    sa_ta = compiled_rules(load_variant("cafe-sans-tout-atout").rules)
    assert fed.strains == ("S", "H", "D", "C") and not fed.strain_allowed("SA")
    assert sa_ta.strains == ("S", "H", "D", "C", "TA", "SA")
    # trump J 20 + 9 14 + A 11 + 10 10 + K 4 + Q 3 = 62; each plain suit A 11 + 10 10 + K 4 + Q 3 + J 2 = 30
    assert fed.card_total("H") == 62 + 3 * 30 == 152
    low, step = fed.auction.bids.minimum, fed.auction.bids.step
    assert fed.bid_fault(low) is None and fed.bid_fault(low + step) is None
    assert fed.bid_fault(low - step) == f"the lowest bid is {low}"
    assert fed.bid_fault(low + 1) == f"bids go up in steps of {step} from {low}"
    assert fed.multipliers[1] == "not doubled"
    assert fed.multipliers[fed.auction.coinche.multiplier] == "coinched"


def test_what_a_reader_derives_is_built_once():
    c = compiled_rules(load_variant("federation").rules)
    built = []
    assert c.phase("test-phase", lambda c: built.append(1) or "x") == "x"
    assert c.phase("test-phase", lambda c: built.append(1) or "y") == "x"
    assert built == [1]
