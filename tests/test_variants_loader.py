"""The strict loader: shipped variants, `extends`, located errors and the broken-file catalogue."""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path

import jsonschema
import pytest

from coinche_spec import yamlstrict
from coinche_spec.resources import variant_schema_path, variants_dir
from coinche_spec.variants import loader, semantics
from coinche_spec.variants.loader import VariantError, load_variant, load_variant_file

BROKEN = Path(__file__).parent / "broken"
SCHEMA = json.loads(variant_schema_path().read_text(encoding="utf-8"))


def write(folder: Path, name: str, text: str) -> Path:
    p = folder / name
    p.write_text(text, encoding="utf-8")
    return p


def leaves(node, prefix=()):
    """Every rule path that holds a value (not a group), as tuples."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, prefix + (k,))
    else:
        yield prefix


def get(node, path):
    for part in path:
        node = node[part]
    return node


# --- the shipped rule sets ------------------------------------------------

def test_the_five_seed_variants_are_shipped():
    assert loader.shipped_ids() == ["cafe-1000", "cafe-701", "cafe-sans-tout-atout", "contree-701", "federation"]


@pytest.mark.parametrize("ident", loader.shipped_ids())
def test_shipped_variant_loads_and_its_resolution_passes_the_plain_schema(ident):
    v = load_variant(ident)
    assert v.id == ident
    assert "extends" not in v.document
    # checked again with the plain validator, independently of the loader's own translation
    jsonschema.Draft202012Validator(SCHEMA).validate(v.document)
    assert v.rules.variant_id == ident
    assert v.rules.deal.packets == tuple(v.document["rules"]["deal"]["packets"])


@pytest.mark.parametrize("ident", loader.shipped_ids())
def test_every_rule_of_a_seed_variant_has_a_source_or_an_interpretation(ident):
    """Each rule value is either quoted from the seed or a reading the file owns up to."""
    doc = load_variant(ident).document
    claimed = [tuple(p.split(".")) for entry in doc["sources"] + doc["interpretations"] for p in entry["rules"]]
    uncovered = [".".join(leaf) for leaf in leaves(doc["rules"])
                 if not any(leaf[:len(c)] == c for c in claimed)]
    assert uncovered == [], f"{ident}: rules with neither a source nor an interpretation: {uncovered}"


def test_every_house_variant_loads_and_is_its_parent_plus_its_changes():
    """Every house variant resolves by the documented merge rules (checked generically)."""
    assert loader.house_ids(), "variants/house/ should hold the example house variants"
    for ident in loader.house_ids():
        v = load_variant(ident)
        assert v.id == ident and v.document["status"] == "house"
        written = v.written
        assert isinstance(written.get("extends"), str), f"{ident} should be written with extends"
        ext = written["extends"]
        parent = (load_variant_file(loader.house_dir() / ext) if ext.endswith((".yaml", ".yml")) or "/" in ext
                  else load_variant(ext))
        assert_merged(v.document, parent.document, written)
    assert not set(loader.house_ids()) & set(loader.shipped_ids()), "a house id shadows a seed id"


def still_speaking(entries: list, child_entries: list, changed: list[str]) -> list:
    """The documented rule: a parent's entry that speaks for any rule the child sets anew (the
    same path, one inside it, or a group holding it) is dropped whole, since its words state the
    parent's value; an interpretation the child restates by id replaces it."""
    redefined = {e.get("id") for e in child_entries}
    out = []
    for e in entries:
        if e.get("id") in redefined and e.get("id") is not None:
            continue
        if any(p == c or p.startswith(c + ".") or c.startswith(p + ".") for p in e["rules"] for c in changed):
            continue
        out.append(e)
    return out


def assert_merged(resolved: dict, parent: dict, child: dict) -> None:
    """Every child leaf wins, every other parent leaf survives, provenance is appended."""
    child_rules = child.get("rules", {})
    for leaf in leaves(child_rules):
        assert get(resolved["rules"], leaf) == get(child_rules, leaf), leaf
    child_leaves = list(leaves(child_rules))
    for leaf in leaves(parent["rules"]):
        # written by the child: the same path, one inside it, or one it sits inside
        written = any(c[:len(leaf)] == leaf or leaf[:len(c)] == c for c in child_leaves)
        if not written:
            assert get(resolved["rules"], leaf) == get(parent["rules"], leaf), leaf
    changed = [".".join(leaf) for leaf in child_leaves]
    for key in ("sources", "interpretations"):
        assert resolved[key] == still_speaking(parent[key], child.get(key, []), changed) + child.get(key, [])
    for key in ("id", "name", "status"):
        assert resolved[key] == child.get(key, parent[key])


# --- extends ---------------------------------------------------------------

CHILD = """\
extends: federation
id: table-x3
name: "Our table"
status: house
sources:
  - seed: house
    section: "our rules"
    quote: "A surcoinche triples."
    rules: [auction.surcoinche.multiplier]
rules:
  auction:
    surcoinche: {multiplier: 3}
    strain_order: [S, H, D, C]
  scoring:
    capot_made:
      takers: {terms: [base], base: 500, multiplied: all}
      defenders: {terms: [], multiplied: none}
  match: {target: 1500}
"""


def test_extends_merges_mappings_and_replaces_lists_and_scalars(tmp_path):
    v = load_variant_file(write(tmp_path, "table.yaml", CHILD))
    fed = load_variant("federation").document
    r = v.document["rules"]
    # the child's values
    assert r["auction"]["surcoinche"]["multiplier"] == 3
    assert r["match"]["target"] == 1500
    # siblings the child did not write come from the parent, key by key
    assert r["auction"]["surcoinche"]["allowed"] == fed["rules"]["auction"]["surcoinche"]["allowed"]
    assert r["auction"]["surcoinche"]["ends_auction"] == fed["rules"]["auction"]["surcoinche"]["ends_auction"]
    assert r["match"]["reach"] == fed["rules"]["match"]["reach"]
    assert r["play"] == fed["rules"]["play"]
    # a list replaces the parent's list whole (not appended, not merged by index)
    assert r["auction"]["strain_order"] == ["S", "H", "D", "C"]
    # a mapping over the parent's null replaces it
    assert r["scoring"]["capot_made"]["takers"] == {"terms": ["base"], "base": 500, "multiplied": "all"}
    # top-level: id/name/status replace, sources appended after the parent's
    assert (v.id, v.document["name"], v.document["status"]) == ("table-x3", "Our table", "house")
    # the parent's words no longer speak for the rules the child sets anew: "Agree a 2000-point
    # target." goes; so does the surcoinche sentence, whose "makes the multiplier 4" the child
    # changed, although it also spoke for rules the child keeps
    quotes = {src["quote"]: src["rules"] for src in v.document["sources"]}
    assert "Agree a 2000-point target." not in quotes
    assert not [q for q in quotes if "multiplier 4" in q or "2 or 4" in q]
    assert "A coinched contract cannot be raised." in quotes     # untouched rules keep their words
    assert v.document["sources"][-1] == {"seed": "house", "section": "our rules", "quote": "A surcoinche triples.",
                                         "rules": ["auction.surcoinche.multiplier"]}
    assert "description" not in v.document  # not written: the parent's would describe other rules
    assert "extends" not in v.document and v.written["extends"] == "federation"
    assert v.chain == (tmp_path / "table.yaml", variants_dir() / "federation.yaml")
    assert_merged(v.document, fed, v.written)


def test_null_replaces_a_mapping_and_a_number_replaces_a_per_contract_base(tmp_path):
    parent = write(tmp_path, "parent.yaml", CHILD.replace("id: table-x3", "id: parent-table"))
    child = write(tmp_path, "child.yaml", """\
extends: parent.yaml
id: child-table
name: "Child"
rules:
  scoring:
    capot_made: null
""")
    v = load_variant_file(child)
    assert v.document["rules"]["scoring"]["capot_made"] is None
    assert v.document["status"] == "house"  # from the parent: the child did not write it
    assert v.chain[:2] == (child, parent)
    # a three-file chain: the grandparent is federation
    assert v.chain[2] == variants_dir() / "federation.yaml"


def test_a_relative_extends_is_read_from_the_childs_folder_not_the_working_folder(tmp_path, monkeypatch):
    sub = tmp_path / "sub"
    sub.mkdir()
    write(sub, "parent.yaml", CHILD.replace("id: table-x3", "id: parent-table"))
    write(sub, "child.yaml", "extends: parent.yaml\nid: child-table\nname: Child\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert load_variant_file(sub / "child.yaml").rules.match.target == 1500


def test_an_error_in_the_child_points_into_the_child(tmp_path):
    p = write(tmp_path, "c.yaml", CHILD.replace("match: {target: 1500}", "match: {target: lots}"))
    with pytest.raises(VariantError) as exc:
        load_variant_file(p)
    # line 18 is `  match: {target: lots}`; 'lots' starts at column 19
    assert exc.value.lines == [f"{p}:18:19: rules.match.target: expected a whole number or null, got 'lots' (text)"]


def test_an_error_in_the_parent_points_into_the_parent(tmp_path):
    parent = write(tmp_path, "p.yaml", CHILD.replace("id: table-x3", "id: p").replace(
        "surcoinche: {multiplier: 3}", "surcoinche: {multiplier: 3, ends_aucton: true}"))
    child = write(tmp_path, "c.yaml", "extends: p.yaml\nid: c\nname: C\nrules:\n  match: {target: 1000}\n")
    with pytest.raises(VariantError) as exc:
        load_variant_file(child)
    # p.yaml line 12: `    surcoinche: {multiplier: 3, ends_aucton: true}`; the key at column 33
    assert exc.value.lines == [
        f"{parent}:12:33: rules.auction.surcoinche.ends_aucton: unknown rule 'auction.surcoinche.ends_aucton' "
        "(did you mean 'ends_auction'?)"]


def test_a_missing_rule_points_at_the_mapping_that_lacks_it(tmp_path):
    doc = copy.deepcopy(load_variant("federation").document)
    del doc["rules"]["belote"]["points"]
    with pytest.raises(VariantError) as exc:
        load_variant(doc)
    assert exc.value.lines == ["<variant>: rules.belote: missing required rule 'points'"]


def test_extends_cycle_of_one_file(tmp_path):
    p = write(tmp_path, "self.yaml", "id: self\nname: S\nextends: self.yaml\n")
    with pytest.raises(VariantError) as exc:
        load_variant_file(p)
    assert exc.value.lines == [f"{p}:3:10: extends: extends cycle: self.yaml -> self.yaml"]


def test_extends_must_be_text(tmp_path):
    p = write(tmp_path, "e.yaml", "id: e\nname: E\nextends: [federation]\n")
    with pytest.raises(VariantError) as exc:
        load_variant_file(p)
    assert exc.value.lines == [f"{p}:3:10: extends: expected a variant id or a relative file path, got a list"]


def test_a_document_given_as_data_may_extend_a_shipped_id():
    v = load_variant({"extends": "contree-701", "id": "data-table", "name": "Data",
                      "rules": {"match": {"target": 1001}}})
    assert v.rules.match.target == 1001
    assert v.rules.auction.capot.value == load_variant("contree-701").rules.auction.capot.value
    assert v.path is None


# --- load_variant's other faces ---------------------------------------------

def test_load_variant_accepts_a_whole_document():
    doc = load_variant("federation").document
    v = load_variant(doc)
    assert v.document == doc and v.id == "federation" and v.path is None


def test_unknown_id_names_the_known_ones():
    with pytest.raises(VariantError) as exc:
        load_variant("federaton")
    line = exc.value.lines[0]
    assert "unknown variant id 'federaton' (did you mean 'federation'?)" in line
    for ident in loader.shipped_ids():
        assert ident in line


def test_a_missing_file_is_one_line():
    with pytest.raises(VariantError) as exc:
        load_variant("no/such/file.yaml")
    assert exc.value.lines == ["no/such/file.yaml: (top): no such file"]


@pytest.mark.parametrize("text, message", [
    ("", "not an empty file"),
    ("- a\n- b\n", "not a list"),
])
def test_a_file_that_is_not_a_mapping(tmp_path, text, message):
    p = write(tmp_path, "x.yaml", text)
    with pytest.raises(VariantError) as exc:
        load_variant_file(p)
    assert len(exc.value.lines) == 1 and message in exc.value.lines[0]


def test_documents_handed_out_are_copies():
    a = load_variant("federation")
    a.document["rules"]["match"]["target"] = 1
    assert load_variant("federation").document["rules"]["match"]["target"] != 1


def test_a_changed_file_is_read_again(tmp_path):
    p = write(tmp_path, "t.yaml", CHILD)
    assert load_variant_file(p).rules.match.target == 1500
    p.write_text(CHILD.replace("target: 1500", "target: 1234"), encoding="utf-8")
    st = p.stat()
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))
    assert load_variant_file(p).rules.match.target == 1234


def test_a_boolean_is_not_a_number():
    doc = copy.deepcopy(load_variant("federation").document)
    doc["rules"]["match"]["target"] = True
    with pytest.raises(VariantError) as exc:
        load_variant(doc)
    assert exc.value.lines == ["<variant>: rules.match.target: expected a whole number or null, got true (true/false)"]


def test_schema_errors_come_in_file_order(tmp_path):
    """Every schema problem, by line: the reader walks the file top to bottom."""
    p = write(tmp_path, "two.yaml", CHILD.replace("match: {target: 1500}", "match: {target: -1}")
              + "colour: red\n")
    with pytest.raises(VariantError) as exc:
        load_variant_file(p)
    assert exc.value.lines == [
        f"{p}:18:19: rules.match.target: -1 is below the least allowed value, 1",
        f"{p}:19:1: colour: unknown field 'colour'",
    ]


ALL_AT_ONCE = """\
id: many
extends: federation
name: "Many mistakes"
status: house
sources:
  - {seed: house, section: s, quote: "q", rules: [match.targt]}
rules:
  deal: {packets: [3, 3, 3]}
  auction:
    bids: {minimum: 80, step: 10, maximum: 165}
    coinche: {when: sometimes}
  match: {target: lots, tie: coin}
"""


def test_every_problem_of_a_file_is_reported_in_one_pass(tmp_path):
    """Schema problems (all of them, by line), then cross-rule problems (all of them, by line)."""
    p = write(tmp_path, "many.yaml", ALL_AT_ONCE)
    with pytest.raises(VariantError) as exc:
        load_variant_file(p)
    assert [line.split(": ")[0:2] for line in exc.value.lines] == [
        [f"{p}:11:21", "rules.auction.coinche.when"],
        [f"{p}:12:19", "rules.match.target"],
        [f"{p}:12:30", "rules.match.tie"],
        [f"{p}:6:51", "sources[0].rules[0]"],                     # no rule match.targt
        [f"{p}:8:19", "rules.deal.packets"],                      # 3 + 3 + 3 = 9, not 8
        [f"{p}:10:44", "rules.auction.bids.maximum"],             # 165 - 80 = 85, not a multiple of 10
    ], exc.value.lines
    assert "add up to 9" in exc.value.lines[4]


def test_a_rule_the_schema_refused_is_not_judged_again(tmp_path):
    """A missing rule is one line (the schema's), not a second one from a quote naming it."""
    doc = copy.deepcopy(load_variant("federation").document)
    doc["rules"]["deal"]["packets"] = [3, "two", 3]     # the sum cannot be judged: only the schema speaks
    doc["rules"]["auction"]["bids"]["maximum"] = 165    # judged: the schema accepts it
    with pytest.raises(VariantError) as exc:
        load_variant(doc)
    assert exc.value.lines == [
        "<variant>: rules.deal.packets[1]: expected a whole number, got 'two' (text)",
        "<variant>: rules.auction.bids.maximum: the highest bid 165 cannot be bid: bids are 80 plus a multiple of 10"]


def test_check_files_collects_every_file(tmp_path):
    good = write(tmp_path, "good.yaml", CHILD)
    bad = write(tmp_path, "bad.yaml", CHILD.replace("target: 1500", "target: yes"))
    lines = loader.check_files([good, bad, tmp_path / "none.yaml"])
    assert lines == [
        f"{bad}:18:19: rules.match.target: 'yes' is read as true by YAML 1.1 readers: "
        "write true or false, or quote it ('yes') if you mean the text",
        f"{tmp_path / 'none.yaml'}: (top): no such file",
    ]
    assert loader.check_files([good]) == []


def test_resolve_gives_the_merged_document_before_validation(tmp_path):
    p = write(tmp_path, "r.yaml", CHILD.replace("target: 1500", "target: lots"))
    doc = loader.resolve(p)
    assert doc["rules"]["match"]["target"] == "lots" and "extends" not in doc
    assert doc["rules"]["auction"]["coinche"] == load_variant("federation").document["rules"]["auction"]["coinche"]


def test_a_shipped_file_must_be_named_after_its_id(tmp_path, monkeypatch):
    folder = tmp_path / "variants"
    (folder / "house").mkdir(parents=True)
    text = (variants_dir() / "federation.yaml").read_text(encoding="utf-8")
    write(folder, "federation.yaml", text)
    write(folder / "house", "mine.yaml", "extends: federation\nid: not-mine\nname: M\nstatus: house\n")
    monkeypatch.setenv("COINCHE_SPEC_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert loader.house_ids() == ["mine"]
    with pytest.raises(VariantError) as exc:
        load_variant("mine")
    assert exc.value.lines == [
        "variants/house/mine.yaml:2:5: id: id 'not-mine' differs from the file name 'mine.yaml': "
        "a shipped variant is found by its id, so they must agree"]


# --- the broken-file catalogue -------------------------------------------------

EXPECT = re.compile(r"^# expect: (?:(?P<file>[^:\s]+\.ya?ml):)?(?P<line>\d+):(?P<col>\d+): (?P<path>\S+): (?P<msg>.+)$")
CATALOGUE = sorted(p.name for p in BROKEN.glob("*.yaml"))


def expectations(name: str) -> list[dict]:
    out = []
    for line in (BROKEN / name).read_text(encoding="utf-8").splitlines():
        if not line.startswith("# expect:"):
            break
        m = EXPECT.match(line)
        assert m, f"{name}: malformed expect line {line!r}"
        out.append(m.groupdict())
    return out


def test_the_catalogue_covers_every_kind_of_mistake():
    wanted = {"syntax-error.yaml", "duplicate-key.yaml", "unknown-rule.yaml", "wrong-type.yaml",
              "bad-enum.yaml", "yaml11-no.yaml", "anchors.yaml", "extends-missing.yaml",
              "cycle-a.yaml", "cycle-b.yaml", "packets-sum.yaml", "missing-rule.yaml"}
    assert wanted <= set(CATALOGUE)


@pytest.mark.parametrize("name", CATALOGUE)
def test_broken_file_gives_exactly_its_expected_lines(name, monkeypatch):
    expected = expectations(name)
    assert expected, f"{name} has no '# expect:' line"
    monkeypatch.chdir(BROKEN)
    lines = loader.check_files([name])
    assert len(lines) == len(expected), lines
    for want in expected:
        prefix = f"{want['file'] or name}:{want['line']}:{want['col']}: {want['path']}: "
        hits = [line for line in lines if line.startswith(prefix) and want["msg"] in line[len(prefix):]]
        assert hits, f"{name}: expected {prefix}...{want['msg']}... in {lines}"


# --- semantics, one rule at a time (each on a copy of federation) ----------------

def fed() -> dict:
    return copy.deepcopy(load_variant("federation").document)


def findings(doc) -> list[tuple[str, str]]:
    return [(yamlstrict.format_path(f.path), f.message) for f in semantics.check(doc)]


def test_federation_has_no_semantic_finding():
    assert findings(fed()) == []


def test_semantics_alternative_packets_equal_to_the_usual_order():
    doc = fed()
    doc["rules"]["deal"]["alternative_packets"] = [[3, 3, 2], list(doc["rules"]["deal"]["packets"])]
    assert findings(doc) == [("rules.deal.alternative_packets[1]",
                              f"{doc['rules']['deal']['packets']} is the usual order (deal.packets), not an alternative")]


def test_semantics_highest_bid_off_the_step():
    doc = fed()
    doc["rules"]["auction"]["bids"] = {"minimum": 80, "step": 10, "maximum": 165}
    # 165 - 80 = 85, not a multiple of 10
    assert findings(doc) == [("rules.auction.bids.maximum",
                              "the highest bid 165 cannot be bid: bids are 80 plus a multiple of 10")]


def test_semantics_strain_order_names_a_strain_not_allowed():
    doc = fed()
    doc["rules"]["auction"]["strains"] = {"sans_atout": False, "tout_atout": False}
    doc["rules"]["auction"]["strain_order"] = ["C", "D", "H", "S", "SA"]
    assert findings(doc) == [("rules.auction.strain_order",
                              "strain_order lists SA but auction.strains.sans_atout is false")]


def test_semantics_per_contract_base_lacks_an_allowed_kind():
    doc = fed()
    doc["rules"]["auction"]["strains"] = {"sans_atout": True, "tout_atout": False}
    doc["rules"]["auction"]["strain_order"] = ["C", "D", "H", "S", "SA"]
    doc["rules"]["scoring"]["failed"]["defenders"]["base"] = {"suit": 162}  # the schema would refuse it first
    assert findings(doc) == [("rules.scoring.failed.defenders.base",
                              "base gives no amount for sans_atout contracts, which the auction allows")]


def test_semantics_bid_scored_as_names_a_numeric_bid_once():
    doc = fed()          # federation: bids from 80 in steps of 10, no highest bid
    doc["rules"]["scoring"]["bid_scored_as"] = [{"bid": 80, "scores": 70}, {"bid": 85, "scores": 80},
                                                {"bid": 70, "scores": 60}, {"bid": 80, "scores": 75}]
    assert findings(doc) == [
        ("rules.scoring.bid_scored_as[1].bid", "85 is not a numeric bid of this rule set (bids go up in steps of "
                                               "10 from 80): it can never be scored as another value"),
        ("rules.scoring.bid_scored_as[2].bid", "70 is not a numeric bid of this rule set (the lowest bid is 80): "
                                               "it can never be scored as another value"),
        ("rules.scoring.bid_scored_as[3].bid", "bid 80 is already listed at bid_scored_as[0]")]
    doc["rules"]["scoring"]["bid_scored_as"] = [{"bid": 80, "scores": 70}]
    assert findings(doc) == []


def test_a_bid_scored_as_a_value_off_the_ladder_is_located_in_the_file(tmp_path):
    p = write(tmp_path, "bga.yaml", "extends: peer-bga\nid: my-bga\nname: x\ndescription: x\nstatus: house\n"
                                    "rules:\n  scoring:\n    bid_scored_as: [{bid: 80, scores: 80}]\n")
    with pytest.raises(VariantError) as exc:
        load_variant_file(p)
    assert exc.value.lines == [f"{p}:8:27: rules.scoring.bid_scored_as[0].bid: 80 is not a numeric bid of this "
                               "rule set (the bids are only 82, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180): "
                               "it can never be scored as another value"]


def test_the_schema_refuses_a_bid_scored_as_pair_without_its_value():
    doc = fed()
    doc["rules"]["scoring"]["bid_scored_as"] = [{"bid": 80}]
    with pytest.raises(VariantError) as exc:
        load_variant(doc)
    assert len(exc.value.lines) == 1 and "rules.scoring.bid_scored_as[0]" in exc.value.lines[0]


def test_semantics_own_and_all_melds_together():
    doc = fed()
    doc["rules"]["scoring"]["made"]["takers"]["terms"] = ["card_points", "own_melds", "all_melds", "bid"]
    assert findings(doc) == [("rules.scoring.made.takers.terms",
                              "own_melds and all_melds together count this side's melds twice")]


def test_semantics_sweep_bonus_nobody_scores():
    doc = fed()
    doc["rules"]["scoring"]["sweep_bonus"] = 90
    assert findings(doc) == [("rules.scoring.sweep_bonus",
                              "sweep_bonus is 90 but no award has the 'sweep_bonus' term")]
    doc["rules"]["scoring"]["made"]["takers"]["terms"].append("sweep_bonus")
    assert findings(doc) == []


def test_semantics_provenance_ids_and_status():
    doc = fed()
    doc["status"] = "described"
    doc["interpretations"] = [
        {"id": "same", "question": "q", "reading": "r", "alternative": "a", "rules": ["match.target"]},
        {"id": "same", "question": "q", "reading": "r", "alternative": "a", "rules": ["match"]},
    ]
    assert findings(doc) == [
        ("interpretations[1].id", "interpretation id 'same' is already used by interpretations[0]"),
        ("status", "status is 'described' (every rule stated by the sources) but 2 interpretation(s) "
                   "are listed: use 'interpreted'"),
    ]


def test_rule_path_exists_accepts_groups_and_leaves_only():
    rules = fed()["rules"]
    assert semantics.rule_path_exists(rules, "auction")
    assert semantics.rule_path_exists(rules, "auction.coinche.when")
    assert semantics.rule_path_exists(rules, "melds.runs.3")
    assert not semantics.rule_path_exists(rules, "auction.coinche.when.x")
    assert not semantics.rule_path_exists(rules, "auction.coinch")


# --- the strict YAML reader (shared with the fixture loader) ---------------------

def test_positions_of_values_and_keys():
    text = "a: 1\nb:\n  c: [x, {d: 2}]\n  'e': yes-text\n"
    data, pos = yamlstrict.load(text, "p.yaml")
    assert data == {"a": 1, "b": {"c": ["x", {"d": 2}], "e": "yes-text"}}
    assert pos[()] == (1, 1)
    assert pos[("a",)] == (1, 4)
    assert pos[("b", "c")] == (3, 6)
    assert pos[("b", "c", 0)] == (3, 7)
    assert pos[("b", "c", 1, "d")] == (3, 14)
    assert pos.key(("b", "c", 1, "d")) == (3, 11)
    assert pos.key(("b", "e")) == (4, 3)
    assert pos.nearest(("b", "c", 1, "zz")) == (3, 10)  # falls back to the mapping that lacks it
    assert list(data["b"]) == ["c", "e"]  # order as written


@pytest.mark.parametrize("word, reads_as", [
    ("yes", "true"), ("Yes", "true"), ("ON", "true"), ("on", "true"), ("True", "true"),
    ("no", "false"), ("No", "false"), ("off", "false"), ("OFF", "false"), ("FALSE", "false"),
])
def test_yaml11_booleans_are_refused_with_a_fix(word, reads_as):
    with pytest.raises(yamlstrict.YamlStrictError) as exc:
        yamlstrict.load(f"flag: {word}\n", "b.yaml")
    assert exc.value.lines == [f"b.yaml:1:7: flag: '{word}' is read as {reads_as} by YAML 1.1 readers: "
                               f"write true or false, or quote it ('{word}') if you mean the text"]


def test_plain_true_false_quoted_words_and_single_letters_are_fine():
    data, _ = yamlstrict.load("a: true\nb: false\nc: 'no'\nd: \"on\"\ne: N\nf: y\ng: ~\nh: 1.5\n", "ok.yaml")
    assert data == {"a": True, "b": False, "c": "no", "d": "on", "e": "N", "f": "y", "g": None, "h": 1.5}


@pytest.mark.parametrize("text, line", [
    ("t: 1:30\n", "s.yaml:1:4: t: '1:30' is read as a base-60 number by YAML 1.1 readers: quote it ('1:30')"),
    ("t: 010\n", "s.yaml:1:4: t: '010' is read as an octal number by YAML 1.1 readers: "
                 "write it without the leading 0, or quote it ('010')"),
    ("t: 2024-05-01\n", "s.yaml:1:4: t: '2024-05-01' is read as a date: quote it ('2024-05-01')"),
    ("t: .inf\n", "s.yaml:1:4: t: '.inf' is not a plain number: write a number, or quote it ('.inf')"),
    ("t: !!str 3\n", "s.yaml:1:4: t: tag '!!str' is not allowed: write plain values "
                     "(quote text that could be read as a number or true/false)"),
    ("a: 1\n---\nb: 2\n", "s.yaml:2:1: (top): a second YAML document ('---') is not allowed: one document per file"),
    ("[a, b]: 1\n", "s.yaml:1:1: (top): a key must be plain text, not a list or a mapping"),
    ("~: 1\n", "s.yaml:1:1: (top): key ~ is read as null; keys must be text: quote it ('~')"),
    ("a:\tb\n", "s.yaml:1:3: a: YAML syntax: found character '\\t' that cannot start any token "
                "(while scanning for the next token)"),
])
def test_other_yaml_traps(text, line):
    with pytest.raises(yamlstrict.YamlStrictError) as exc:
        yamlstrict.load(text, "s.yaml")
    assert exc.value.lines == [line]


def test_every_problem_of_a_file_is_reported_in_file_order():
    text = "a: &x 1\nb: *x\na: 2\nc: off\n"
    with pytest.raises(yamlstrict.YamlStrictError) as exc:
        yamlstrict.load(text, "m.yaml")
    assert [line.split(": ", 2)[0] for line in exc.value.lines] == ["m.yaml:1:4", "m.yaml:2:4", "m.yaml:3:1",
                                                                     "m.yaml:4:4"]


def test_an_empty_document_is_none():
    assert yamlstrict.load("", "e.yaml") == (None, {})
    assert yamlstrict.load("# only a comment\n", "e.yaml")[0] is None


def test_unreadable_files_are_one_line(tmp_path):
    raw = tmp_path / "latin1.yaml"
    raw.write_bytes(b"name: caf\xe9\n")
    with pytest.raises(yamlstrict.YamlStrictError) as exc:
        yamlstrict.load_file(raw, "latin1.yaml")
    assert exc.value.lines == ["latin1.yaml: (top): not UTF-8 text (invalid continuation byte at byte 9)"]
    with pytest.raises(yamlstrict.YamlStrictError) as exc:
        yamlstrict.load_file(tmp_path, "dir")
    assert exc.value.lines == ["dir: (top): is a directory, not a file"]


def test_format_path():
    assert yamlstrict.format_path(()) == "(top)"
    assert yamlstrict.format_path(("rules", "deal", "alternative_packets", 1)) == "rules.deal.alternative_packets[1]"
    assert yamlstrict.format_path(("sources", 0, "rules", 2)) == "sources[0].rules[2]"


# --- schema messages, one kind at a time --------------------------------------

@pytest.mark.parametrize("change, line", [
    (lambda d: d["rules"]["auction"]["coinche"].__setitem__("when", "in_tun"),
     "<variant>: rules.auction.coinche.when: 'in_tun' is not one of: 'in_turn', 'after_auction', "
     "'any_moment', 'side_in_turn' (did you mean 'in_turn'?)"),
    (lambda d: d["rules"]["deal"].__setitem__("packets", []),
     "<variant>: rules.deal.packets: needs at least 1 item(s), has 0"),
    (lambda d: d["rules"]["auction"].__setitem__("strain_order", ["C", "D", "H", "S", "S"]),
     "<variant>: rules.auction.strain_order: 'S' is listed twice: each item once"),
    (lambda d: d.__setitem__("id", "Federation_2"),
     "<variant>: id: 'Federation_2' does not have the expected form (^[a-z0-9][a-z0-9-]*$)"),
    (lambda d: d.__setitem__("name", ""), "<variant>: name: must not be empty"),
    (lambda d: d["rules"]["scoring"].__setitem__("capot_made", {"takers": {"terms": ["bid"], "multiplied": "al"},
                                                                 "defenders": {"terms": [], "multiplied": "none"}}),
     "<variant>: rules.scoring.capot_made.takers.multiplied: 'al' is not one of: 'all', 'bid', 'none', 'base' "
     "(did you mean 'all'?)"),
    (lambda d: d["rules"]["scoring"].__setitem__("capot_made", 500),
     "<variant>: rules.scoring.capot_made: expected null or a mapping (takers, defenders), got 500"),
    (lambda d: d["rules"]["deal"]["cut"].__setitem__("minimum_packet", 17),
     "<variant>: rules.deal.cut.minimum_packet: 17 is above the greatest allowed value, 16"),
])
def test_schema_messages(change, line):
    doc = fed()
    change(doc)
    with pytest.raises(VariantError) as exc:
        load_variant(doc)
    assert exc.value.lines == [line]


def test_a_child_restating_an_interpretation_by_id_replaces_it(tmp_path):
    # federation reads the takers' belote as multiplied with a doubled success; our table says not.
    path = write(tmp_path, "ours.yaml", """\
extends: federation
id: ours
name: "Ours"
status: house
interpretations:
  - id: belote-in-doubled-success
    question: "Is the takers' belote multiplied?"
    reading: "Never: it is protected."
    alternative: "Multiplied with the award, as the federation reads it."
    rules: [belote.multiplied]
rules:
  belote: {multiplied: never}
""")
    v = load_variant_file(path)
    same = [i for i in v.document["interpretations"] if i["id"] == "belote-in-doubled-success"]
    assert len(same) == 1 and same[0]["reading"] == "Never: it is protected."
    assert v.document["interpretations"][-1] is not None and v.document["interpretations"][-1]["id"] == same[0]["id"]
    assert v.rules.belote.multiplied == "never"


def test_an_interpretation_may_leave_out_its_alternative(tmp_path):
    """A reading with no known other reading (a house decision, say) needs no `alternative`."""
    from coinche_spec.docsgen.html import render_html
    from coinche_spec.docsgen.page import render_page

    p = write(tmp_path, "no-alt.yaml", "extends: federation\nid: no-alt\nname: N\nstatus: house\n"
              "interpretations:\n  - id: house-target\n    question: \"How far do we play?\"\n"
              "    reading: \"To 1500.\"\n    rules: [match.target]\n"
              "rules:\n  match: {target: 1500}\n")
    v = load_variant_file(p)
    assert "alternative" not in v.document["interpretations"][-1]
    page, html = render_page(v), render_html(v)
    assert "How far do we play?" in page and "To 1500." in page
    section = page[page.index("How far do we play?"):]
    assert "**Alternative:**" not in section.split("\n### ")[0]
    assert "How far do we play?" in html
    # an empty one is still refused: leave it out rather than write nothing
    bad = write(tmp_path, "empty-alt.yaml", p.read_text().replace("    rules: [match.target]",
                                                                   "    alternative: \"\"\n    rules: [match.target]"))
    with pytest.raises(VariantError) as exc:
        load_variant_file(bad)
    assert exc.value.lines == [f"{bad}:9:18: interpretations[0].alternative: must not be empty"]


# --- warnings: card tables that do not add up ---------------------------------------

FFB_SA = """\
extends: cafe-sans-tout-atout
id: ffb-like
name: "The FFB text's sans atout table"
status: house
rules:
  card_values:
    sans_atout: {A: 19, T: 10, K: 4, Q: 3, J: 0, "9": 0, "8": 0, "7": 0}
"""


def test_a_card_table_that_does_not_add_up_is_a_located_warning(tmp_path):
    """The FFB's sans atout jack at 0: 19 + 10 + 4 + 3 = 36 a suit, 4 x 36 = 144 (154 with the
    last 10), not the usual 152 (162). Allowed, so the rule set loads; the warning says where."""
    p = write(tmp_path, "ffb-like.yaml", FFB_SA)
    v = load_variant_file(p)
    assert v.warnings == (
        f"{p}:7:17: rules.card_values.sans_atout: warning: at sans atout the cards add up to 144 "
        "(4 x 36 a suit; 154 with the last trick), not 152 (162 with the last trick) as the usual total "
        "says: check the table, or declare the total in card_totals.sans_atout if it is meant",)
    warned: list = []
    assert loader.check_files([p], warned) == [] and warned == list(v.warnings)


def test_a_declared_total_is_what_the_table_is_checked_against(tmp_path):
    meant = write(tmp_path, "meant.yaml", FFB_SA.replace("rules:\n", "card_totals: {sans_atout: 144}\nrules:\n"))
    assert load_variant_file(meant).warnings == ()
    wrong = write(tmp_path, "wrong.yaml", FFB_SA.replace("rules:\n", "card_totals: {sans_atout: 140}\nrules:\n"))
    (line,) = load_variant_file(wrong).warnings
    assert line.startswith(f"{wrong}:8:17: rules.card_values.sans_atout: warning: at sans atout the cards add up "
                           "to 144") and "not 140 (150 with the last trick) as card_totals.sans_atout says" in line


def test_a_scaled_table_is_checked_against_its_denominator(tmp_path):
    # test-sa-ta-scaled: sans atout 4 x (11 + 10 + 4 + 3 + 2) = 120 = per; tout atout 4 x 62 = 248 = per
    assert load_variant("test-sa-ta-scaled").warnings == ()
    p = write(tmp_path, "per.yaml", "extends: test-sa-ta-scaled\nid: per\nname: P\nstatus: house\n"
              "rules:\n  card_values:\n    scale:\n      sans_atout: {times: 152, per: 130}\n")
    (line,) = load_variant_file(p).warnings
    assert ": rules.card_values.sans_atout: warning: at sans atout the cards add up to 120" in line
    assert "not 130 (140 with the last trick) as card_values.scale.sans_atout.per says" in line


def test_only_the_tables_of_contracts_the_auction_allows_are_added_up(tmp_path):
    # contree-701 bids suits only: its sans atout table cannot be played, so it is not added up
    # (setting it is only warned of as a rule that cannot matter)
    p = write(tmp_path, "suits.yaml", FFB_SA.replace("cafe-sans-tout-atout", "contree-701"))
    assert load_variant_file(p).warnings == (
        f"{p}:7:17: rules.card_values.sans_atout: warning: cannot matter: sans atout cannot be bid",)
    # the suit tables always are: trump 62 - 20 = 42, + 3 x 30 = 132
    q = write(tmp_path, "suit.yaml", FFB_SA.replace('sans_atout: {A: 19, T: 10, K: 4, Q: 3, J: 0, "9": 0, "8": 0, "7": 0}',
                                                  "trump: {J: 0}"))
    (line,) = load_variant_file(q).warnings
    assert f"{q}:7:12: rules.card_values.trump: warning: at a suit contract the cards add up to 132 " \
           "(trump 42 + 3 x plain 30; 142 with the last trick)" in line


def test_no_shipped_rule_set_has_a_warning():
    for ident in loader.known_ids():
        assert load_variant(ident).warnings == (), ident


# --- a suits-only rule set leaves out what it cannot use -------------------------------

LEFT_OUT = [("card_values", "sans_atout"), ("card_values", "tout_atout"), ("play", "sans_atout_must_go_up"),
            ("play", "tout_atout_must_go_up"), ("belote", "tout_atout"), ("auction", "strain_order")] + [
    ("melds", k) for k in ("runs", "long_runs", "run_order", "squares", "card_reuse", "compare", "winner_scores",
                           "timing", "count_towards_contract")]


def suits_only_text() -> str:
    """contree-701 (suits only, no melds, overcall by value) written out whole, without the sans atout and
    tout atout tables and play rules, the tout atout belote, the strain order and every meld setting."""
    import yaml
    doc = copy.deepcopy(load_variant("contree-701").document)
    doc.update(id="suits-only", name="Contrée, suits only", status="house", sources=[], interpretations=[])
    doc.pop("description", None)
    for group, key in LEFT_OUT:
        del doc["rules"][group][key]
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def test_a_suits_only_rule_set_need_not_give_what_it_cannot_use(tmp_path):
    from coinche_spec.docsgen.page import render_page
    from coinche_spec.engine.random_play import random_deal
    import random

    p = write(tmp_path, "suits-only.yaml", suits_only_text())
    assert loader.check_files([p]) == []
    v = load_variant_file(p)
    for group, key in LEFT_OUT:           # the document keeps what the file wrote
        assert key not in v.document["rules"][group]
    # the engine plays it, and exactly as contree-701, whose left-out rules could never matter
    base = load_variant("contree-701")
    for seed in range(40):
        a, b = random_deal(v.rules, random.Random(seed)), random_deal(base.rules, random.Random(seed))
        assert (a.calls, a.log, a.phase, a.result() if a.phase == "done" else None) == \
            (b.calls, b.log, b.phase, b.result() if b.phase == "done" else None), seed
    page = render_page(v)
    assert "sans atout" in page.lower()   # that it cannot be bid is still said
    assert "`card_values.sans_atout`" not in page and "`melds.runs`" not in page \
        and "`auction.strain_order`" not in page


@pytest.mark.parametrize("group, key, fix, why", [
    ("card_values", "sans_atout", "auction: {strains: {sans_atout: true}}", "sans atout may be bid"),
    ("belote", "tout_atout", "auction: {strains: {tout_atout: true}}", "tout atout may be bid"),
    ("auction", "strain_order", "auction: {overcall: higher_value_or_strain}", "a bid may overcall by strain"),
    ("melds", "runs", "melds: {enabled: true}", "melds are played"),
])
def test_a_rule_left_out_where_it_can_matter_is_a_located_error(tmp_path, group, key, fix, why):
    """Located at the group that lacks the rule, in the file that last wrote that group."""
    p = write(tmp_path, "suits-only.yaml", suits_only_text())
    child = write(tmp_path, "child.yaml", "extends: suits-only.yaml\nid: child\nname: C\nstatus: house\n"
                  f"rules:\n  {fix}\n")
    with pytest.raises(VariantError) as exc:
        load_variant_file(child)
    if fix.startswith(group):                          # the child writes the group: it is the child's
        where = f"{child}:6:3"
    else:                                              # else the parent's, where the group is written
        where = f"{p}:{p.read_text().splitlines().index(f'  {group}:') + 1}:3"
    hits = [x for x in exc.value.lines if x.startswith(f"{where}: rules.{group}: missing rule '{key}': "
                                                       f"it is needed because {why}")]
    assert hits, exc.value.lines


def test_a_per_contract_base_names_only_the_kinds_that_may_be_bid(tmp_path):
    child = ("extends: {parent}\nid: base-suit\nname: B\nstatus: house\nrules:\n  scoring:\n    failed:\n"
             "      defenders: {{terms: [base, bid], base: {{suit: 160}}, multiplied: all}}\n")
    assert load_variant_file(write(tmp_path, "a.yaml", child.format(parent="federation"))).id == "base-suit"
    doc = copy.deepcopy(load_variant("cafe-sans-tout-atout").document)
    doc["rules"]["scoring"]["failed"]["defenders"]["base"] = {"suit": 162}
    with pytest.raises(VariantError) as exc:
        load_variant(doc)
    assert exc.value.lines == [
        "<variant>: rules.scoring.failed.defenders.base: base gives no amount for sans_atout contracts, "
        "which the auction allows",
        "<variant>: rules.scoring.failed.defenders.base: base gives no amount for tout_atout contracts, "
        "which the auction allows"]


# --- a cross-rule check the house file's value fails ---------------------------------------------

def test_a_cross_rule_problem_in_the_parent_names_the_house_setting_that_took_part(tmp_path):
    """contree-701's surcoinche x4 is fine until a house file makes the coinche x5: the problem is
    located at the parent's surcoinche, and names the house line that changed the coinche."""
    sub = tmp_path / "sub"
    sub.mkdir()
    p = write(sub, "child3.yaml", "extends: contree-701\nid: child3\nname: C\nstatus: house\nrules:\n"
              "  auction:\n    coinche: {multiplier: 5}\n")
    with pytest.raises(VariantError) as exc:
        load_variant_file(p)
    (line,) = exc.value.lines
    assert line.split(": ")[0].endswith("contree-701.yaml:328:65")
    assert line.endswith("rules.auction.surcoinche.multiplier: a surcoinche multiplies by 4, not more than the "
                         f"coinche it answers (x5) (set by {p}:7:27: rules.auction.coinche.multiplier)")


def test_a_house_file_that_makes_a_strain_biddable_is_named_beside_the_parents_strain_order(tmp_path):
    """contree-701 ranks the four suits only: a house file allowing sans atout is named beside it."""
    p = write(tmp_path, "sa.yaml", "extends: contree-701\nid: sa\nname: S\nstatus: house\nrules:\n"
              "  auction:\n    strains: {sans_atout: true}\n")
    with pytest.raises(VariantError) as exc:
        load_variant_file(p)
    (line,) = [x for x in exc.value.lines if "strain_order" in x]
    assert line.endswith("rules.auction.strain_order: strain_order lacks SA: it must rank every strain the auction "
                         f"allows (the four suits, SA) (set by {p}:7:27: rules.auction.strains.sans_atout)"), line


def test_a_cross_rule_problem_the_house_file_holds_itself_is_located_there_alone(tmp_path):
    p = write(tmp_path, "sur.yaml", "extends: contree-701\nid: sur\nname: S\nstatus: house\nrules:\n"
              "  auction:\n    surcoinche: {multiplier: 2}\n")
    with pytest.raises(VariantError) as exc:
        load_variant_file(p)
    assert exc.value.lines == [f"{p}:7:30: rules.auction.surcoinche.multiplier: a surcoinche multiplies by 2, "
                               "not more than the coinche it answers (x2)"]


def test_a_child_without_name_or_status_takes_neither_from_its_parent(tmp_path):
    """A house file that plays differently is not titled with its parent's name nor said to be
    "described" by its parent's sources: it is named by its own id and is a house rule set."""
    p = write(tmp_path, "club-d.yaml", "extends: federation\nid: club-d\nrules:\n  match: {target: 1500}\n")
    v = load_variant_file(p)
    assert (v.document["name"], v.document["status"]) == ("club-d", "house")
    q = write(tmp_path, "named.yaml", "extends: club-d.yaml\nid: named\nname: Named\nstatus: interpreted\n"
              "rules: {}\n")
    assert (load_variant_file(q).document["name"], load_variant_file(q).document["status"]) == ("Named", "interpreted")
    # with readings of its own too: a house rule set, not contree-701's "interpreted"
    r = write(tmp_path, "reading.yaml", "extends: contree-701\nid: reading\ninterpretations:\n  - id: mine\n"
              "    question: Q?\n    reading: R.\n    rules: [match.target]\nrules:\n  match: {target: 1000}\n")
    assert load_variant_file(r).document["status"] == "house"


@pytest.mark.parametrize("word, choices, meant", [
    ("nearest_ten", ["none", "nearest_10_half_up", "nearest_10_half_down", "nearest_5"], "nearest_10_half_up"),
    ("nearest_five", ["none", "nearest_10_half_up", "nearest_10_half_down", "nearest_5"], "nearest_5"),
    ("coinch", ["bids", "coinche", "surcoinche", "strains"], "coinche"),
    ("federaton", ["cafe-701", "federation", "federation-1500-x3"], "federation"),
    ("xyz", ["cafe-701", "federation"], None),
])
def test_a_spelling_hint_prefers_the_choice_sharing_most_words(word, choices, meant):
    """nearest_ten shares "nearest" and "10" with nearest_10_half_up, "nearest" only with nearest_5,
    although nearest_5 is closer letter by letter."""
    assert yamlstrict.suggest(word, choices) == (f" (did you mean '{meant}'?)" if meant else "")


def test_a_misspelt_rounding_is_refused_with_the_rounding_meant(tmp_path):
    p = write(tmp_path, "round.yaml", "extends: contree-701\nid: round\nname: R\nstatus: house\nrules:\n"
              "  scoring: {rounding: nearest_ten}\n")
    with pytest.raises(VariantError) as exc:
        load_variant_file(p)
    assert exc.value.lines[0].endswith("(did you mean 'nearest_10_half_up'?)"), exc.value.lines


def test_rounding_up_from_needs_only_the_kinds_of_contract_that_may_be_bid(tmp_path):
    # federation bids suits only: a threshold for suits is enough, and it is played
    from coinche_spec.engine.scoring import score_deal
    from coinche_spec.notation import Contract
    p = write(tmp_path, "t.yaml", "extends: federation\nid: t\nname: T\n"
                                  "rules:\n  scoring: {rounding_up_from: {suit: 6}}\n")
    rules = load_variant_file(p).rules
    # 80 hearts made with 75 + 10 = 85 card points against 77: takers 85 + 80 = 165, up from 6 only: 160
    # (federation's 5 up would give 170); defenders 77 -> 80
    result = score_deal(rules, Contract(80, "H", "N"), {"NS": 75, "EW": 77}, {"NS": 4, "EW": 4}, "NS",
                        {"NS": 0, "EW": 0}, None)
    assert (result.made, result.score) == (True, {"NS": 160, "EW": 80})
    # where sans atout may be bid, its threshold is needed: located, and named
    q = write(tmp_path, "u.yaml", "extends: cafe-sans-tout-atout\nid: u\nname: U\n"
                                  "rules:\n  scoring: {rounding_up_from: {suit: 6, tout_atout: 4}}\n")
    with pytest.raises(VariantError) as exc:
        load_variant_file(q)
    assert len(exc.value.lines) == 1
    assert f"{q}:5:" in exc.value.lines[0]
    assert "rules.scoring.rounding_up_from: missing rule 'sans_atout': it is needed because sans atout may be bid" \
        in exc.value.lines[0]
