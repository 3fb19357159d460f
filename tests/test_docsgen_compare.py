"""The generated reference pages: docs/variants.md (`docs --compare`) and docs/rules-reference.md
(`docs --reference`).

Values checked in the comparison table are worked out by hand from the seed
text and the variant files (the sentence or the reading is named in a
comment); they are never copied from the generated page.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from coinche_spec.outputs import marked
from coinche_spec.sources import source_title
from coinche_spec import cli
from coinche_spec.docsgen import compare, templates
from coinche_spec.docsgen.compare import render_compare
from coinche_spec.docsgen.reference import render_reference
from coinche_spec.resources import variant_schema_path
from coinche_spec.variants import load_variant, shipped_ids
from coinche_spec.variants.diff import flatten

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# The seed documents are numbered 000 to 004; each rule set quotes one of them.
SEED_ORDER = ["federation", "contree-701", "cafe-sans-tout-atout", "cafe-1000", "cafe-701"]


@pytest.fixture(scope="module")
def page() -> str:
    return render_compare()


@pytest.fixture(scope="module")
def reference() -> str:
    return render_reference()


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")


def table(text: str) -> tuple[list[str], dict[str, list[tuple[str, bool, str]]]]:
    """The rule-by-rule table: its column ids, and title -> [(value, is a reading, link)] per column."""
    body = text[text.index("## Rule by rule"):]
    lines = [line for line in body.splitlines() if line.startswith("| ")]
    header = [c.strip().strip("`") for c in lines[0].strip("|").split(" | ")][1:]
    rows = {}
    for line in lines[1:]:
        if line.startswith("| **"):
            continue            # a section heading row
        cells = [c.strip() for c in re.split(r"(?<!\\) \| ", line.strip().strip("|").strip())]
        title = cells[0].replace(" *(shared)*", "")
        parsed = []
        for cell in cells[1:]:
            found = LINK.search(cell)
            assert found, f"a cell without a link: {cell!r}"
            parsed.append((found.group(1).replace("\\", ""), cell.endswith("(reading)"), found.group(2)))
        rows[title] = parsed
    return header, rows


def row(text: str, title: str) -> list[tuple[str, bool, str]]:
    return table(text)[1][title]


def values(text: str, title: str) -> list[str]:
    return [v for v, _, _ in row(text, title)]


def readings(text: str, title: str) -> list[bool]:
    return [r for _, r, _ in row(text, title)]


def modified(ident: str, changes: dict, drop_readings: tuple[str, ...] = ()):
    """A shipped rule set with some rules replaced (and some readings removed), through the real loader."""
    doc = copy.deepcopy(load_variant(ident).document)
    for path, value in changes.items():
        node = doc["rules"]
        keys = path.split(".")
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    doc["interpretations"] = [i for i in doc["interpretations"] if i["id"] not in drop_readings]
    return load_variant(doc)


# --- the comparison page ------------------------------------------------------------------------

def test_columns_follow_the_seed_documents(page):
    header, _ = table(page)
    assert header == SEED_ORDER
    assert sorted(header) == sorted(shipped_ids())


def test_intro_names_each_seed_document_and_its_rule_set(page):
    intro = page[:page.index("## Rule by rule")]
    for ident in SEED_ORDER:
        doc = load_variant(ident).document
        seed = doc["sources"][0]["seed"]
        assert f"| {source_title(seed)}, file `{seed}` | [`{ident}`](rules/{ident}.md) | {doc['name']} |" in intro
    assert "| Federation rules profile (seed 000), file `000_5962d0f7a9ecef0f.txt` | [`federation`]" in intro
    assert "`001_f4f46332b31d2a8f.txt` | [`contree-701`]" in intro      # seed 001 plain contrée


def test_target_cells(page):
    # 000 "Agree a 2000-point target."; 001 plays to 701; 002 leaves it open (reading match-target: 1500);
    # 003 to 1000; 004 to 701.
    assert values(page, "Target") == ["2000", "701", "1500", "1000", "701"]
    assert readings(page, "Target") == [False, False, True, False, False]


def test_surcoinche_multiplier_cells(page):
    # 000: the surcoinche "makes the multiplier 4"; cafe-1000 reads seed 003 as tripling (reading
    # surcoinche-triples-the-bid); the others quadruple.
    assert values(page, "Surcoinche multiplier") == ["×4", "×4", "×4", "×3", "×4"]
    assert readings(page, "Surcoinche multiplier")[3] is True
    # a coinche doubles everywhere: a shared key rule, marked as such
    assert values(page, "Coinche multiplier") == ["×2"] * 5
    assert "| Coinche multiplier *(shared)* |" in page


def test_belote_cells(page):
    # seed 003 never mentions belote and its scoring leaves no room for it (reading belote-not-mentioned)
    assert values(page, "Belote") == ["played", "played", "played", "not played", "played"]
    assert readings(page, "Belote") == [False, False, False, True, False]
    # its other belote rules are unused there, and say why
    assert values(page, "Saying it")[3] == "— (belote is not played)"
    # 000 "by saying “Belote”"; 001 counts it automatically; 002 and 004 must say it
    assert values(page, "Saying it")[:3] + values(page, "Saying it")[4:] == [
        "must be said", "counted automatically", "must be said", "must be said"]


def test_direction_and_first_speaker_cells(page):
    # 000 and 002 play anticlockwise, so the player after the dealer is on his right; 001, 003, 004 clockwise
    assert values(page, "Direction of play") == ["anticlockwise", "clockwise", "anticlockwise", "clockwise",
                                                 "clockwise"]
    right, left = "next to the dealer (dealer's right)", "next to the dealer (dealer's left)"
    assert values(page, "First to speak") == [right, left, right, left, left]


def test_award_cells(page):
    # 001: "A contre doubles and a surcontre quadruples only the value of the bid"
    contree = values(page, "Coinched, made")[1]
    assert contree == "takers: card points + bid, × bid only; defenders: card points, not multiplied"
    # 004: a coinched success doubles the bid plus the points made; the defenders score nothing
    assert values(page, "Coinched, made")[4] == "takers: card points + bid, all × M; defenders: nothing"
    # 000: a failure gives the defenders 160 + both sides' melds + the bid
    assert values(page, "Contract failed")[0] == "takers: nothing; defenders: 160 + both sides' melds + bid"
    # 002: tout atout cards make 4 x 62 = 248, + 10 = 258 for a failed tout atout contract
    assert "162 (258 in TA)" in values(page, "Contract failed")[2]
    # 000: all eight tricks make 152 + 100 = 252; 002 to 004 leave the count at 152 + 10 = 162
    assert values(page, "All eight tricks") == ["last trick worth 100 (252)", "last trick worth 100 (252)",
                                                "no change (162)", "no change (162)", "no change (162)"]


def test_a_row_for_every_rule_that_differs_and_only_the_key_shared_ones(page):
    docs = [flatten(load_variant(i).document["rules"]) for i in SEED_ORDER]
    differing = {p for p in docs[0] if len({json.dumps(d.get(p), sort_keys=True) for d in docs}) > 1}
    assert "deal.shuffle" in differing and "match.target" in differing     # 003 never shuffles; targets differ
    _, rows = table(page)
    for path in differing:
        assert templates.template_for(path).title in rows, f"no row for {path}"
    # shared by all five and not a key rule: no row
    assert "Dealer after a throw-in" not in rows and "Squares" not in rows
    assert "Shuffle" in rows
    for key in compare.KEY_SHARED:
        assert key in templates.BY_KEY, f"KEY_SHARED names no rule: {key}"
        assert templates.BY_KEY[key].title in rows


def test_every_cell_links_to_its_rule_on_its_own_rules_page(page):
    header, rows = table(page)
    for title, cells in rows.items():
        for ident, (_, _, link) in zip(header, cells):
            target, _, anchor = link.partition("#")
            assert target == f"rules/{ident}.md"
            text = (DOCS / target).read_text(encoding="utf-8")
            headings = [h for h in re.findall(r"^#+ (.*)$", text, re.M) if compare.slug(h) == anchor]
            assert len(headings) == 1, f"{title}: {link} names no heading of the page"
            # the heading is that of the section holding the rule's sentence
            start = text.index(headings[0])
            section = text[start:text.find("\n### ", start)]
            assert f"- **{title}**" in section, f"{title}: not under {headings[0]}"


def test_slugs_are_those_of_the_rules_page_headings():
    assert compare.slug("2.6 Melds (announcements)") == "26-melds-announcements"
    assert compare.slug("2.10 The match") == "210-the-match"
    assert compare.section_anchor("coinche") == "23-coinche-and-surcoinche"


def test_a_reading_mark_follows_the_interpretations():
    variants = compare.seed_variants()
    # drop cafe-1000's reading of the surcoinche: its x3 is no longer marked as a reading
    at = [v.id for v in variants].index("cafe-1000")
    variants[at] = modified("cafe-1000", {}, drop_readings=("surcoinche-triples-the-bid",))
    text = render_compare(variants)
    assert values(text, "Surcoinche multiplier")[3] == "×3"
    assert readings(text, "Surcoinche multiplier")[3] is False


def test_a_changed_rule_changes_the_page():
    variants = compare.seed_variants()
    variants[0] = modified("federation", {"table.dealer_after_throw_in": "same_dealer", "match.target": 1001})
    text = render_compare(variants)
    assert values(text, "Dealer after a throw-in") == ["same dealer"] + ["next seat"] * 4
    assert values(text, "Target")[0] == "1001"


def test_short_words_name_only_options_of_the_schema():
    """Short words are optional (compare shows an option without them as the file writes it,
    underscores as spaces: tests/test_compare.py), so a new option costs no entry here; but words
    for an option the schema lacks are stale and fail."""
    schema = json.loads(variant_schema_path().read_text(encoding="utf-8"))

    def walk(node, path):
        for key, child in node.get("properties", {}).items():
            sub = f"{path}.{key}" if path else key
            if "enum" in child:
                yield sub, child["enum"]
            elif "properties" in child and "$ref" not in child:
                yield from walk(child, sub)
    found = list(walk(schema["$defs"]["rules"], ""))
    assert ("auction.coinche.when", ["in_turn", "after_auction", "any_moment", "side_in_turn"]) in found
    for path, enum in found:
        if compare._group_of(templates.template_for(path)) in compare.COMPOSED:
            continue        # read with the other leaves of its rule (the sweep's kind and value)
        stale = set(compare.ENUM_WORDS.get(path, {})) - set(enum)
        assert not stale, f"{path}: short words for {sorted(stale)}, which the schema does not list"
    assert set(compare.ENUM_WORDS) <= {path for path, _ in found}, "short words for a rule the schema lacks"


def test_the_committed_comparison_page_is_up_to_date(page):
    on_disk = (DOCS / "variants.md").read_text(encoding="utf-8")
    assert on_disk == marked(page), "docs/variants.md is stale: run coinche-spec docs --compare --output docs/variants.md"


# --- the rules reference -----------------------------------------------------------------------------

def test_every_leaf_of_the_schema_is_on_the_reference(reference):
    leaves = templates.schema_leaves()
    assert len(leaves) > 100 and "card_values.trump.J" in leaves and "scoring.capot_made" in leaves
    for leaf in leaves:
        assert f"`{leaf}`" in reference, f"rules-reference.md: no {leaf}"


def test_reference_groups_values_and_awards(reference):
    schema = json.loads(variant_schema_path().read_text(encoding="utf-8"))
    groups = list(schema["$defs"]["rules"]["properties"])
    positions = [reference.index(f"\n## `{g}`\n") for g in groups]
    assert positions == sorted(positions)                       # in the schema's order
    assert "| `auction.coinche.when` | `in_turn` · `after_auction` · `any_moment` · `side_in_turn` |" in reference
    assert "| `deal.cut.minimum_packet` | a whole number from 1 to 16 |" in reference
    assert "| `auction.bids.maximum` | a whole number, at least 1, or `null` |" in reference
    assert "| `auction.coinche.multiplier` | a whole number, at least 2 |" in reference
    # the award structure is described once, and each award rule points to it
    assert reference.count("\n## Awards\n") == 1
    assert reference.count("`card_points` · `bid` · `base` · `own_melds` · `all_melds` · `sweep_bonus`") == 1
    assert "| `scoring.made.takers`, `scoring.made.defenders` | an award (see [Awards](#awards)), each |" in reference
    for field in ("terms", "base", "base_on_sweep", "multiplied"):
        assert f"| `{field}` |" in reference


def test_reference_follows_the_schema():
    schema = json.loads(variant_schema_path().read_text(encoding="utf-8"))
    bids = schema["$defs"]["rules"]["properties"]["auction"]["properties"]["bids"]
    bids["properties"]["jump"] = {"type": "integer", "minimum": 20, "description": "A2. The jump."}
    text = render_reference(schema)
    assert "| `auction.bids.jump` | a whole number, at least 20 | A2. The jump. |" in text


def test_the_house_example_of_the_reference_loads(reference, tmp_path):
    part = reference[reference.index("## Using it with `extends`"):]
    start = part.index("```yaml\n") + len("```yaml\n")
    example = part[start:part.index("\n```", start)]
    house = tmp_path / "our-table.yaml"
    house.write_text(example + "\n", encoding="utf-8")
    v = load_variant(str(house))
    assert v.document["rules"]["match"]["target"] == 1500
    assert v.document["rules"]["auction"]["coinche"]["when"] == "any_moment"
    # the rest is federation's: a surcoinche still multiplies by 4, seed 000
    assert v.document["rules"]["auction"]["surcoinche"]["multiplier"] == 4


def test_the_committed_reference_is_up_to_date(reference):
    on_disk = (DOCS / "rules-reference.md").read_text(encoding="utf-8")
    assert on_disk == marked(reference), ("docs/rules-reference.md is stale: run "
                                  "coinche-spec docs --reference --output docs/rules-reference.md")


def test_pages_have_no_machine_paths(page, reference):
    for text in (page, reference):
        assert not re.search(r"/(tmp|home|work)/", text)


# --- the command ---------------------------------------------------------------------------------------

def test_compare_and_reference_to_stdout_and_to_a_file(capsys, tmp_path, page, reference):
    code, out, err = run(capsys, "docs", "--compare")
    assert code == 0 and out == page and err == ""
    code, out, err = run(capsys, "docs", "--reference", "--output", str(tmp_path / "ref.md"))
    assert code == 0 and out == ""
    assert (tmp_path / "ref.md").read_text(encoding="utf-8") == marked(reference)


@pytest.mark.parametrize("argv, words", [
    (("docs", "--compare", "--reference"), "give either --compare or --reference, not both"),
    (("docs", "federation", "--compare"), "give either a variant (ID|FILE) or --compare, not both"),
    (("docs", "--reference", "--all", "x"), "not both"),
    (("docs", "--compare", "--output", "no/such/folder/v.md"), "the folder 'no/such/folder' does not exist"),
    (("docs", "--all", "no/such/folder/rules"), "cannot create"),
    (("docs",), "--compare, --reference or --all DIR"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, monkeypatch, tmp_path, argv, words):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err and "Traceback" not in err


def test_help_documents_the_pages(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["docs", "--help"])
    assert exit_.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for words in ("--compare", "--reference", "--all DIR", "docs/variants.md", "docs/rules-reference.md",
                  "created if it does not exist but its parent folder does"):
        assert words in out, words
