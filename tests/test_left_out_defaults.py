"""An optional rule left out plays as its schema `default`, and writing that value changes nothing.

The schema is the one table of what a left-out rule means (its `default`, as the description's
"(optional; left out: X)" says); comparisons (variants diff, the house pages, compare) fill it in,
so a file that writes `trick_winner: led_suit` plays the rules of one that leaves it out.
"""

import json
import re

import pytest
import yaml

from coinche_spec.compare import simulate
from coinche_spec.resources import variant_schema_path
from coinche_spec.variants import load_variant, shipped_ids
from coinche_spec.variants.compiled import left_out_defaults, with_defaults
from coinche_spec.variants.diff import flatten

# Optional rules whose "left out" is no value of their own, so they have no `default`: the bids
# come from minimum/step/maximum, there is no cap or limit, the squares table is another rule's,
# the rounding point depends on the rounding, every card is dealt before the auction.
NO_VALUE_OF_THEIR_OWN = {
    "auction.bids.ladder", "auction.max_rounds", "auction.max_bids_per_player", "auction.coinche.minimum_bid",
    "deal.packets_after_auction", "melds.squares_sans_atout", "melds.squares_tout_atout",
    "scoring.rounding_up_from", "scoring.bid_scored_as", "match.deals",
}


def _schema_rules() -> list[tuple[str, dict]]:
    """(path, entry) for every rule property of the schema, walked through its $refs."""
    schema = json.loads(variant_schema_path().read_text(encoding="utf-8"))
    out = []

    def walk(node: dict, path: str) -> None:
        while "$ref" in node:
            node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        for key, sub in node.get("properties", {}).items():
            out.append((f"{path}.{key}" if path else key, sub))
            walk(sub, f"{path}.{key}" if path else key)
    walk(schema["$defs"]["rules"], "")
    return out


def test_every_optional_rule_that_names_its_left_out_value_has_it_as_default():
    said = {path for path, entry in _schema_rules()
            if re.search(r"\(optional; left out: ", entry.get("description", ""))}
    defaults = set(flatten(left_out_defaults()))
    # a group's default (card_values.order, scoring.bid_factor's kinds) covers the rule
    covered = {p for p in said if any(d == p or d.startswith(p + ".") for d in defaults)}
    assert said - covered == NO_VALUE_OF_THEIR_OWN
    assert "auction.capot.overcall_by_capot" in covered and "match.last_deal_exact" in covered


def test_each_default_is_what_its_description_says_and_passes_the_schema():
    import jsonschema
    for path, entry in _schema_rules():
        if "default" not in entry:
            continue
        jsonschema.validate(entry["default"], {k: v for k, v in entry.items() if k != "default"})
        left_out = re.search(r"left out: ([^;)]*)", entry.get("description", ""))
        value = entry["default"]
        if left_out and isinstance(value, (str, bool, int)):
            assert left_out.group(1).startswith(json.dumps(value).strip('"')), path


def test_with_defaults_fills_only_what_is_left_out():
    rules = load_variant("federation").document["rules"]
    filled = with_defaults(rules)
    assert filled["play"]["trick_winner"] == "led_suit" and "trick_winner" not in rules["play"]
    given = flatten(rules)
    assert all(flatten(filled)[p] == v for p, v in given.items())
    assert "max_rounds" not in filled["auction"]      # no value of its own: stays out


def _explicit(vid: str, tmp_path):
    """A house file extending ``vid`` that writes every default ``vid`` leaves out, and nothing else."""
    rules = load_variant(vid).document["rules"]
    given = flatten(rules)
    written: dict = {}
    for path, value in flatten(with_defaults(rules)).items():
        if path not in given:
            node = written
            *groups, last = path.split(".")
            for g in groups:
                node = node.setdefault(g, {})
            node[last] = value
    f = tmp_path / f"{vid}-explicit.yaml"
    f.write_text(yaml.safe_dump({"extends": vid, "id": f"{vid}-explicit", "name": f"{vid}, defaults written",
                                 "status": "house", "rules": written}, sort_keys=False), encoding="utf-8")
    return f, written


@pytest.mark.parametrize("vid", shipped_ids())
def test_the_engine_plays_a_left_out_rule_as_its_default(vid, tmp_path):
    """Deal for deal, the same records with the defaults left out and written out."""
    f, written = _explicit(vid, tmp_path)
    assert written    # every shipped rule set leaves some optional rule out
    per_deal = simulate.play_deals([vid, str(f)], 40, seed=3, engine="deal")
    assert all(a == b for a, b in per_deal), vid


@pytest.mark.parametrize("vid", shipped_ids())
def test_writing_the_defaults_is_no_difference(vid, tmp_path, capsys):
    from coinche_spec.cli import main
    f, _ = _explicit(vid, tmp_path)
    assert main(["variants", "diff", vid, str(f)]) == 0
    assert capsys.readouterr().out.startswith(f"{vid} and {vid}-explicit have the same rules")
