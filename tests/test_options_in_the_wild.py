"""The catalogue of rule options in the wild (docs/options-in-the-wild.yaml) and its summary page.

Each exact entry's ``said_by`` is a claim that the schema says a real table's rule: here it is
applied over a shipped rule set and must name only rules of the schema, load (schema and
cross-rule checks), keep the values it sets, pass the engine's option tables and play random
deals to the end. ``nearest`` settings of the other entries are checked the same way. The
summary page is generated and must be up to date.
"""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path

import pytest

from coinche_spec.outputs import marked
from coinche_spec import cli
from coinche_spec.conformance.rulepaths import value_at
from coinche_spec.docsgen import tally
from coinche_spec.engine import options
from coinche_spec.engine.errors import Unsupported
from coinche_spec.engine.options import check_rules
from coinche_spec.engine.random_play import random_deal
from coinche_spec.protocol.cases import run_case
from coinche_spec.variants.compiled import compiled_rules
from coinche_spec.variants.loader import VariantError, known_ids

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "docs" / "options-in-the-wild.yaml"
SUMMARY = ROOT / "docs" / "options-in-the-wild.md"
SOURCE = "docs/options-in-the-wild.yaml"  # as the page names it (never a machine path)
BRANCHES = {"rules-scoring", "rules-auction"}  # where the planned options are being added


def _load():
    return tally.load_catalogue(CATALOGUE, SOURCE)


CAT, POSITIONS = _load()
ENTRIES = CAT["entries"]


def _fragments(field: str):
    """(entry id, base, fragment) for every entry whose ``field`` is a non-empty mapping."""
    return [pytest.param(e.get("base", CAT["default_base"]), e[field], e.get("note", ""), id=e["id"])
            for e in ENTRIES if isinstance(e.get(field), dict) and e[field]]


def plays(fragment: dict, base: str, note: str = "", ident: str = "tally") -> None:
    """Fail unless the fragment, over ``base``, is a rule set the engine plays with those very values."""
    problems = tally.fragment_problems(fragment)
    assert not problems, problems
    variant = tally.variant_with(fragment, base, ident)  # VariantError: not a valid rule set
    assert not variant.warnings or "warns" in note, variant.warnings
    resolved = variant.document["rules"]
    expanded = tally.expand(fragment)
    for path in tally.fragment_paths(fragment):
        assert value_at(resolved, path) == value_at(expanded, path), f"{path}: the base's value won"
    check_rules(compiled_rules(variant.rules))  # Unsupported: an option the engine has no entry for
    rng = random.Random(20)
    for _ in range(2):
        assert random_deal(variant.rules, rng).phase in ("done", "redeal")


# --- the catalogue is well formed -------------------------------------------------------------

def test_the_catalogue_is_well_formed():
    assert tally.catalogue_problems(CAT, POSITIONS, SOURCE) == []


def test_it_lists_options_at_the_fact_sheets_scale():
    # the fact sheet counts 238; the catalogue keeps apart what it may have merged (docs notes)
    assert 230 <= len(ENTRIES) <= 300


def test_every_rule_set_of_the_fact_sheet_plays_an_option_and_its_file_is_shipped():
    known = set(known_ids())
    for key, info in CAT["rule_sets"].items():
        assert any(tally.is_played_by(e, key) for e in ENTRIES), f"{key}: no entry names it"
        if info.get("file"):
            assert info["file"] in known, f"{key}: {info['file']} is not a shipped rule set"


def test_planned_options_are_those_being_added_and_only_for_gaps():
    for e in ENTRIES:
        if "planned" in e:
            assert e["planned"]["branch"] in BRANCHES, e["id"]
            assert tally.status_of(e) in ("approximate", "not_said"), e["id"]


def _broken(change) -> list[str]:
    cat = copy.deepcopy(CAT)
    change(cat)
    return tally.catalogue_problems(cat, None, "x.yaml")


@pytest.mark.parametrize("change, words", [
    (lambda c: c["entries"].append(copy.deepcopy(c["entries"][0])), "is also entry 0's"),
    (lambda c: c["entries"][0].update(played_by=[]), "name at least one rule set"),
    (lambda c: c["entries"][0].update(played_by=["Pagat"]), "'Pagat' does not begin with a rule set"),
    (lambda c: c["entries"][0].pop("said_by"), "give said_by, or a status"),
    (lambda c: c["entries"][0].update(said_by={"auction.coinche.shape": "bga"}),
     "names 'auction.coinche.shape', which is no rule of the schema"),
    (lambda c: c["entries"][0].update(said_by={}), "an empty said_by needs 'frame'"),
    (lambda c: c["entries"][0].update(status="approximate"), "an entry with said_by is exact"),
    (lambda c: [e.pop("reason") for e in c["entries"] if e.get("status") == "not_said"][:1],
     "a not said entry says why"),
    (lambda c: [e.pop("nearest") for e in c["entries"] if e.get("status") == "approximate"][:1],
     "give the nearest settings"),
    (lambda c: [e.pop("counted") for e in c["entries"] if e.get("status") == "outside"][:1],
     "write counted: false"),
    (lambda c: [e.update(planned={"branch": "rules-auction"}) for e in c["entries"]
                if e.get("status") == "not_said"][:1], "planned is {branch: ..., option: ...}"),
    (lambda c: c["entries"][0].update(dimension="auction"), "dimension"),
    (lambda c: [e.update(reading="Read as ...") for e in c["entries"] if e.get("status") == "not_said"][:1],
     "an exact entry only"),
    (lambda c: c["entries"][0].update(reading=" "), "a reading is a sentence"),
    (lambda c: c.update(extra=1), "unknown field 'extra'"),
])
def test_a_malformed_entry_is_found(change, words):
    problems = _broken(change)
    assert problems and any(words in p for p in problems), problems


# --- each said_by says a rule the engine plays --------------------------------------------------

@pytest.mark.parametrize("base, fragment, note", _fragments("said_by"))
def test_said_by_is_a_rule_set_the_engine_plays(base, fragment, note):
    plays(fragment, base, note)


@pytest.mark.parametrize("base, fragment, note", _fragments("nearest"))
def test_nearest_settings_are_a_rule_set_the_engine_plays(base, fragment, note):
    plays(fragment, base, note)


def _examples():
    return [pytest.param(e.get("base", CAT["default_base"]), e["said_by"], ex, id=f"{e['id']}-{i}")
            for e in ENTRIES for i, ex in enumerate(e.get("examples", ()))]


@pytest.mark.parametrize("base, fragment, example", _examples())
def test_said_by_plays_the_rule_on_a_worked_example(base, fragment, example):
    """The example's expectation is worked out by hand from the rule (the arithmetic is the comment
    beside it in the catalogue); the engine, playing the fragment, must agree field by field."""
    result = run_case(tally.variant_with(fragment, base).rules, example["case"])
    for field, expected in example["expect"].items():
        got = result.get(field)
        if isinstance(expected, dict) and isinstance(got, dict):
            got = {k: got.get(k) for k in expected}
        assert got == expected, (field, result)


def test_an_example_that_disagrees_with_the_rule_fails():
    # décoinchage worked out wrongly (as if the coinche froze the auction): the check must catch it
    entry = next(e for e in ENTRIES if e["id"] == "decoinchage")
    wrong = {"case": entry["examples"][0]["case"], "expect": {"accepted": 2}}
    with pytest.raises(AssertionError):
        test_said_by_plays_the_rule_on_a_worked_example(CAT["default_base"], entry["said_by"], wrong)


def test_enough_entries_have_worked_examples():
    assert len(_examples()) >= 40


def test_frame_entries_name_no_setting():
    frames = [e for e in ENTRIES if e.get("said_by") == {}]
    assert frames and all(e["frame"].strip() for e in frames)


def test_a_fragment_naming_a_missing_option_fails():
    """The check fails on a rule the schema lacks, a value it lacks, and an option the engine lacks."""
    missing_rule = {"auction.coinche.shape": "bga_window"}
    with pytest.raises(AssertionError, match="no rule of the schema"):
        plays(missing_rule, "contree-701")
    with pytest.raises(VariantError):
        tally.variant_with(missing_rule, "contree-701")
    missing_value = {"auction.coinche.effect": "ends_the_deal"}
    assert tally.fragment_problems(missing_value) == []  # the rule exists: the value is what is wrong
    with pytest.raises(VariantError, match="auction.coinche.effect"):
        plays(missing_value, "contree-701")
    # a value the schema has but the engine does not play: take the engine's entry away
    table = options.TABLES["auction.coinche.effect"]
    saved = table.pop("overbid_cancels")
    try:
        with pytest.raises(Unsupported, match="overbid_cancels"):
            plays({"auction.coinche.effect": "overbid_cancels"}, "contree-701", ident="tally-unsupported")
    finally:
        table["overbid_cancels"] = saved


def test_a_fragment_is_applied_not_overruled_by_its_base():
    # contree-701 scores a capot bid 260; the fragment's 250 must be what the rule set plays
    variant = tally.variant_with({"auction.capot.value": 250}, "contree-701")
    assert variant.document["rules"]["auction"]["capot"] == {
        "allowed": True, "value": 250, "ends_auction": False, "may_be_coinched": True}


def test_dotted_and_nested_keys_say_the_same():
    assert tally.expand({"auction.coinche.effect": "x", "auction": {"coinche": {"when": "y"}}}) == \
        {"auction": {"coinche": {"effect": "x", "when": "y"}}}
    assert tally.fragment_paths({"scoring.capot_made": None, "match": {"target": 1}}) == \
        ["scoring.capot_made", "match.target"]


# --- the counts and the summary page ------------------------------------------------------------

def test_the_counts_add_up():
    c = tally.counts(CAT)
    assert c["exact"] + c["approximate"] + c["not_said"] == c["counted"]
    assert c["counted"] + c["outside"] == c["entries"] == len(ENTRIES)
    assert c["percent_exact"] == round(100 * c["exact"] / c["counted"], 1)
    assert c["planned"] <= c["approximate"] + c["not_said"]


def test_the_summary_lists_every_gap_under_each_rule_set_that_plays_it():
    page = tally.render_tally(CAT, SOURCE)
    sections = re.split(r"^### ", page, flags=re.M)
    for e in ENTRIES:
        if tally.status_of(e) in ("approximate", "not_said"):
            for key, info in CAT["rule_sets"].items():
                section = next(s for s in sections[1:] if s.startswith(info["name"]))
                assert (f"**{e['id']}**" in section) == tally.is_played_by(e, key), (e["id"], key)
    readings = page.split("## Said exactly under a reading", 1)[1].split("\n## ", 1)[0]
    for e in ENTRIES:
        if tally.status_of(e) == "exact":
            # an exact entry is named once, in the readings' section, when it is said under a reading
            assert page.count(f"**{e['id']}**") == (1 if e.get("reading") else 0), e["id"]
            assert (f"**{e['id']}**" in readings) == bool(e.get("reading")), e["id"]


def test_the_rules_the_sources_state_loosely_say_their_reading_on_the_page():
    """Issue 22: «no more than twice», the 162/250 ceiling and «à la vache» are counted exact under a
    reading; the page says the reading where it counts them."""
    page = tally.render_tally(CAT, SOURCE)
    by_id = {e["id"]: e for e in ENTRIES}
    for ident in ("bidding-round-cap", "bids-ceiling-162", "dealer-must-take"):
        assert by_id[ident].get("reading", "").startswith("Read as"), ident
        assert f"- **{ident}** ({by_id[ident]['dimension']}): {by_id[ident]['rule']} {by_id[ident]['reading']}" in page
    assert tally.counts(CAT)["readings"] == sum(1 for e in ENTRIES if e.get("reading"))


def test_the_committed_summary_is_up_to_date():
    assert SUMMARY.read_text(encoding="utf-8") == marked(tally.render_tally(CAT, SOURCE)), (
        "docs/options-in-the-wild.md is stale: run coinche-spec docs --options-tally "
        "docs/options-in-the-wild.yaml --output docs/options-in-the-wild.md")


def test_the_command_writes_the_page(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "tally.md"
    assert cli.main(["docs", "--options-tally", SOURCE, "--output", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == SUMMARY.read_text(encoding="utf-8")


def test_a_malformed_catalogue_is_one_line_a_problem_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    text = CATALOGUE.read_text(encoding="utf-8")
    text = text.replace("said_by: {table.direction: anticlockwise}", "said_by: {table.directions: anticlockwise}", 1)
    text = text.replace("id: direction-clockwise", "id: direction-anticlockwise", 1)
    bad.write_text(text, encoding="utf-8")
    code = cli.main(["docs", "--options-tally", str(bad)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 2, lines
    assert re.search(r"bad\.yaml:\d+:\d+: entries\[0\]\.said_by: .*'table\.directions'", lines[0])
    assert re.search(r"bad\.yaml:\d+:\d+: entries\[1\]\.id: id 'direction-anticlockwise' is also", lines[1])
