"""The rules pages (`coinche-spec docs`): a sentence for every rule, the right values, the examples.

Values checked on the pages are worked out by hand from the variant files and
the seed text, with the arithmetic in a comment; they are never copied from
the generated page or the engine.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from coinche_spec.outputs import marked
from coinche_spec import cli
from coinche_spec.docsgen import templates
from coinche_spec.docsgen.page import render_page, rule_line
from coinche_spec.resources import variant_schema_path
from coinche_spec.variants import house_ids, load_variant, shipped_ids
from coinche_spec.variants.loader import paged_ids

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "docs" / "rules"
ALL_IDS = paged_ids()
REGISTERED = dict(cli.COMMANDS)      # as the lead wrote it, before any test narrows it


@pytest.fixture(scope="module")
def pages() -> dict:
    return {ident: render_page(load_variant(ident)) for ident in ALL_IDS}


def changed(base: str, changes: dict):
    """A copy of a shipped rule set with some rules replaced, through the real loader."""
    doc = copy.deepcopy(load_variant(base).document)
    doc["id"] = "custom-" + base
    for path, value in changes.items():
        node = doc["rules"]
        keys = path.split(".")
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return load_variant(doc)


def rule_block(page: str, title: str) -> str:
    """The lines of one rule in section 2 of a page: its sentence and its sources, up to the next rule."""
    start = page.index(f"- **{title}**", page.index("## 2. The rules"))
    end = page.find("\n- **", start + 1)
    return page[start:end if end != -1 else len(page)]


def example_block(page: str, title_start: str) -> str:
    """One worked example of section 3, found by the start of its title."""
    found = re.search(r"^### 3\.\d+ " + re.escape(title_start), page, re.M)
    assert found, f"no worked example titled {title_start!r}"
    end = page.find("\n### ", found.end())
    return page[found.start():end]


# --- every rule has its sentence ------------------------------------------------------

def test_every_leaf_of_the_schema_has_exactly_one_template():
    leaves = templates.schema_leaves()
    assert "auction.coinche.when" in leaves and "card_values.trump.J" in leaves and "scoring.made.takers" in leaves
    assert templates.uncovered() == []
    covered = [p for t in templates.TEMPLATES for p in t.paths]
    assert sorted(covered) == sorted(leaves)      # nothing twice, nothing that is not a rule
    assert len({t.key for t in templates.TEMPLATES}) == len(templates.TEMPLATES)
    assert {t.section for t in templates.TEMPLATES} == {key for key, _ in templates.SECTIONS}


def test_a_new_parameter_without_a_sentence_is_reported():
    schema = json.loads(variant_schema_path().read_text(encoding="utf-8"))
    bids = schema["$defs"]["rules"]["properties"]["auction"]["properties"]["bids"]
    bids["properties"]["jump"] = {"type": "integer"}
    assert templates.uncovered(templates.schema_leaves(schema)) == ["auction.bids.jump"]


@pytest.mark.parametrize("ident", ALL_IDS)
def test_the_page_has_a_sentence_for_every_rule_path(pages, ident):
    page = pages[ident]
    ctx = templates.Ctx(load_variant(ident).document["rules"])
    for leaf in templates.schema_leaves():
        t = templates.template_for(leaf)
        line = rule_line(t, ctx)
        if ctx.left_out(t.paths) and t.unused(ctx):
            # a rule the file leaves out because it cannot matter (colver's cut under deal.method uniform)
            assert line not in page, f"{ident}: {leaf} is left out and cannot matter, yet the page says it"
            continue
        assert line in page, f"{ident}: no sentence for {leaf}"
        sentence = t.say(ctx)
        assert len(sentence) > 20 and sentence.endswith("."), f"{ident}: {leaf}: {sentence!r}"


@pytest.mark.parametrize("ident", ALL_IDS)
def test_every_quote_and_reading_of_the_variant_is_on_its_page(pages, ident):
    page = pages[ident]
    doc = load_variant(ident).document
    for source in doc["sources"]:
        if "\n" not in source["quote"]:
            assert source["quote"] in page, f"{ident}: quote missing: {source['quote']}"
    for item in doc["interpretations"]:
        assert item["question"] in page
        assert " ".join(item.get("alternative", "").split()) in page


# --- the right values, checked by hand against the variant files -----------------------

def test_federation_page(pages):
    page = pages["federation"]
    assert page.startswith("# Coinche, federation profile (to 2000, with melds)\n")
    block = rule_block(page, "Target")
    assert "The match is played to 2000 points." in block          # match.target: 2000
    assert "“Agree a 2000-point target.”" in block                # seed 000, 01 / Deal and auction
    assert "An opponent of the highest bidder may coinche when it is his turn to speak." in page   # in_turn
    assert "anticlockwise, to the right: North, West, South, East" in page
    assert "Each part of the cut must hold at least 3 cards." in page
    # a sweep: the last trick worth 100 instead of 10, 152 + 100 = 252 (seed: "162 normally or 252 for capot")
    assert "152 + 100 = 252" in rule_block(page, "All eight tricks")
    assert ("the takers score their card points + their melds + the bid; "
            "the defenders score their card points + their melds.") in page
    assert ("the defenders score (160 + both sides' melds + the bid) × M.") in page
    # tout atout cannot be bid: its rules are said to be unused, not hidden
    assert "*Unused here: tout atout cannot be bid.*" in rule_block(page, "Tout atout values")
    assert "*Unused here: sans atout cannot be bid.*" in rule_block(page, "Going up in sans atout")
    assert "Unused here" not in rule_block(page, "Trump values")


def test_federation_seed_05_example(pages):
    block = example_block(pages["federation"], "Bid 90 hearts, take 89")
    # 79 in tricks + 10 for the last trick = 89 < 90: failed; defenders 160 + 90 = 250, takers 0 (seed 000 §05)
    assert "card points: NS 79 + last trick 10 = 89; EW 73" in block      # 152 - 79 = 73
    assert "defenders EW: base 160 + bid 90 = 250" in block
    assert "takers NS: nothing = 0" in block
    assert "North–South score 0, East–West score 250." in block


def test_federation_made_and_coinched_examples(pages):
    page = pages["federation"]
    made = example_block(page, "Bid 90 hearts, take 100 with a belote")
    # 100 + 90 + belote 20 = 210; defenders 162 - 100 = 62, rounded half up to 60
    assert "takers NS: card points 100 + bid 90 + belote 20 = 210" in made
    assert "defenders EW: card points 62 = 62, rounded to 60" in made
    coinched = example_block(page, "The same deal, coinched")
    # (160 + 90) x 2 = 500, belote multiplied with the award: 20 x 2 = 40; 500 + 40 = 540
    assert "North–South score 540, East–West score 0." in coinched
    failed = example_block(page, "Bid 90 hearts, coinched, take 89")
    assert "North–South score 0, East–West score 500." in failed            # (160 + 90) x 2 = 500
    capot = example_block(page, "A capot bid made")
    assert "North–South score 500, East–West score 0." in capot             # 252 + 250 = 502, rounded to 500


def test_contree_page(pages):
    page = pages["contree-701"]
    assert "The match is played to 701 points." in page
    # "Contre multiplies only the value of the bid, by 2; surcontre by 4."
    assert "the takers score their card points + the bid × M" in page
    assert "the deal, the auction and the play go clockwise".lower() in page.lower()
    # the seed 001 example: 100 + 20 + 90 = 210, the opponents 62
    made = example_block(page, "Bid 90 hearts, take 100 with a belote")
    assert "takers NS: card points 100 + bid 90 + belote 20 = 210" in made
    assert "North–South score 210, East–West score 62." in made
    failed = example_block(page, "Bid 90 hearts, coinched, take 89")
    assert "North–South score 0, East–West score 342." in failed            # 162 + 90 x 2 = 342
    capot = example_block(page, "A capot bid made")
    assert "North–South score 512, East–West score 0." in capot             # 252 + 260 = 512
    assert "There are no melds (announcements) in this game" in page
    assert "*Unused here: melds are not played.*" in rule_block(page, "Squares")


def test_cafe_sans_tout_atout_page(pages):
    page = pages["cafe-sans-tout-atout"]
    assert "clubs, diamonds, hearts, spades, tout atout, sans atout" in page
    assert "Nobody may coinche during the auction." in page
    assert "*Unused here: a coinche comes only after the auction has ended.*" in rule_block(page, "After a coinche")
    # match.both_cross: deal_winner, so equal totals need no rule
    assert "*Unused here:" in rule_block(page, "Equal totals")
    ta = example_block(page, "A tout atout contract failed")
    assert "North–South score 0, East–West score 258." in ta                # 248 + 10 = 258
    sweep = example_block(page, "All eight tricks without a capot bid")
    assert "North–South score 180, East–West score 0." in sweep             # bid 90 + capot bonus 90 = 180


def test_cafe_1000_page(pages):
    page = pages["cafe-1000"]
    assert "so a bid of 80 needs 82." in page                              # contract.minimum_total: 82
    assert "A surcoinche raises the multiplier from 2 to 3." in page
    assert "The cards are never shuffled" in page
    assert "A capot contract cannot be coinched." in page


def test_cafe_701_page(pages):
    page = pages["cafe-701"]
    assert "“Capot: 500 points (× the multiplier).”" in page
    capot = example_block(page, "A capot bid made")
    assert "North–South score 500, East–West score 0." in capot             # 500 x 1 = 500
    assert "A coinche or surcoinche never multiplies the belote." in page


# --- house rule sets name their parent and what they change ------------------------------

def test_house_page_names_its_parent_and_changes(pages):
    page = pages["federation-1500-x3"]
    assert "Rule set `federation-1500-x3`, extends `federation`." in page
    assert "They extend `federation`" in page and "change 2 of its rules" in page
    assert "`match.target`: 2000 → 1500" in page
    assert "`auction.surcoinche.multiplier`: 4 → 3" in page
    target = rule_block(page, "Target")
    assert "The match is played to 1500 points." in target
    assert "house-target-1500" in target and "House rule: changed from federation" in target
    assert "Source: “Agree a 2000-point target.”" not in target    # the parent's words no longer justify it
    # an unchanged rule keeps the parent's quote
    assert "“Choose the first dealer randomly; the deal, auction and play run anticlockwise.”" in page
    sur = example_block(page, "Bid 90 hearts, coinched and surcoinched")
    # (160 + 90) x 3 = 750, belote 20 x 3 = 60: 810
    assert "North–South score 810, East–West score 0." in sur


def test_rounded_house_page(pages):
    page = pages["contree-701-rounded"]
    assert "extends `contree-701`" in page and "change 1 of its rules" in page
    made = example_block(page, "Bid 90 hearts, take 100 with a belote")
    # 100 + 90 + 20 = 210 stays 210; the opponents' 62 rounds to 60 (the house reading says so)
    assert "North–South score 210, East–West score 60." in made


# --- the sentence follows the value -----------------------------------------------------

def test_raise_own_bid_is_used_only_when_four_passes_end_the_auction():
    t = templates.BY_KEY["raise-own-bid"]
    three = templates.Ctx(load_variant("federation").document["rules"])
    assert "Unused here" in rule_line(t, three)
    four = templates.Ctx(changed("federation", {"auction.passes_to_end": 4}).document["rules"])
    assert "Unused here" not in rule_line(t, four)
    assert "(the bidder's own pass included)" in templates.BY_KEY["passes-to-end"].say(four)


def test_a_changed_rule_changes_the_page():
    variant = changed("federation", {"auction.coinche.when": "after_auction", "match.target": 1234})
    page = render_page(variant)
    assert "Nobody may coinche during the auction." in page
    assert "An opponent of the highest bidder may coinche when it is his turn" not in page
    assert "The match is played to 1234 points." in page
    assert "*Unused here: a coinche comes only after the auction has ended.*" in rule_block(page, "After a coinche")


# --- the command -------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def only_docs_command(monkeypatch):
    monkeypatch.setattr(cli, "COMMANDS", {"docs": "coinche_spec.docsgen.cli"})


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_docs_command_is_registered_by_the_lead():
    assert REGISTERED.get("docs") == "coinche_spec.docsgen.cli"


def test_all_writes_one_page_per_shipped_and_house_variant(capsys, tmp_path, pages):
    from coinche_spec.variants import registry
    code, out, err = run(capsys, "docs", "--all", str(tmp_path / "rules"))
    assert code == 0 and err == ""
    written = sorted(p.name for p in (tmp_path / "rules").iterdir())
    # five seeds, two house examples, and every published and program's rule set
    assert len(written) == 7 + len(registry.ids("published")) + len(registry.ids("implementation"))
    assert {"ffb-contree.md", "ffb-contree-sa-ta.md", "colver.md", "peer-kffr.md"} <= set(written)
    assert written == sorted(f"{i}.md" for i in ALL_IDS)
    assert (tmp_path / "rules" / "federation.md").read_text(encoding="utf-8") == marked(pages["federation"])


def test_one_page_to_stdout_and_to_a_file(capsys, tmp_path, pages):
    code, out, err = run(capsys, "docs", "cafe-701")
    assert code == 0 and out == pages["cafe-701"]
    code, out, err = run(capsys, "docs", "cafe-701", "--output", str(tmp_path / "p.md"))
    assert code == 0 and out == ""
    assert (tmp_path / "p.md").read_text(encoding="utf-8") == marked(pages["cafe-701"])


def test_a_house_file_of_ones_own(capsys, tmp_path):
    mine = tmp_path / "our-table.yaml"
    mine.write_text("extends: contree-701\nid: our-table\nname: \"Our table\"\nstatus: house\n"
                    "rules:\n  match: {target: 1001}\n", encoding="utf-8")
    code, out, err = run(capsys, "docs", str(mine))
    assert code == 0, err
    assert out.startswith("# Our table\n")
    assert "extends `contree-701`" in out and "`match.target`: 701 → 1001" in out
    assert "The match is played to 1001 points." in out
    assert "Generated by `coinche-spec docs` from `our-table.yaml`." in out


def test_a_house_page_names_what_it_sets_that_cannot_matter(capsys, tmp_path):
    """contree-701 plays no melds: a house meld value is not dropped silently from "What we play
    differently" but named apart, with why; the HTML sheet says the same."""
    mine = tmp_path / "our-table.yaml"
    mine.write_text("extends: contree-701\nid: our-table\nname: \"Our table\"\nstatus: house\n"
                    "rules:\n  melds: {runs: {'3': 30}}\n  match: {target: 1001}\n", encoding="utf-8")
    code, out, err = run(capsys, "docs", str(mine))
    assert code == 0, err
    changes = out[out.index("## What we play differently"):out.index("## 1.")]
    assert "change 1 of the rules" in changes
    assert "- Set but cannot matter here: **Runs** (`melds.runs.3`): melds are not played." in changes
    code, out, err = run(capsys, "docs", str(mine), "--format", "html")
    assert code == 0 and "<li>Set but cannot matter here: <strong>Runs</strong> (melds.runs.3): melds are " \
                         "not played.</li>" in out


@pytest.mark.parametrize("argv, words", [
    (("docs", "federaton"), "unknown variant id 'federaton'"),
    (("docs", "nowhere/file.yaml"), "no such variant file"),
    (("docs",), "name a variant"),
    (("docs", "federation", "--all", "x"), "not both"),
    (("docs", "tests/broken/bad-enum.yaml"), "rules.auction.coinche.when"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, monkeypatch, argv, words):
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err and "Traceback" not in err


# --- the committed pages are up to date ----------------------------------------------------

def test_committed_pages_are_up_to_date(pages):
    on_disk = sorted(p.name for p in RULES_DIR.glob("*.md"))
    assert on_disk == sorted(f"{i}.md" for i in ALL_IDS), "run: coinche-spec docs --all docs/rules"
    for ident in ALL_IDS:
        text = (RULES_DIR / f"{ident}.md").read_text(encoding="utf-8")
        assert text == marked(pages[ident]), f"docs/rules/{ident}.md is stale: run coinche-spec docs --all docs/rules"


def test_pages_have_no_machine_paths(pages):
    for page in pages.values():
        assert not re.search(r"/(tmp|home|work)/", page)


def test_each_kind_of_source_is_shown_readably(tmp_path):
    """A document (title, section), a program (repository, file, commit or version) and a house
    decision (who, when): each on the page under its rule, and in `variants diff`'s basis."""
    from coinche_spec.docsgen.html import render_html
    from coinche_spec.variants import diff, load_variant_file

    p = tmp_path / "kinds.yaml"
    p.write_text(
        "extends: federation\nid: kinds\nname: Kinds\nstatus: house\n"
        "sources:\n"
        "  - {document: \"Our club sheet\", section: \"rule 4\", quote: \"We play to 1500.\", rules: [match.target]}\n"
        "  - {repository: github.com/someone/coinche, path: src/score.ts, commit: 0123456789abcdef,\n"
        "     rules: [auction.surcoinche.multiplier]}\n"
        "  - {repository: github.com/someone/coinche, path: src/match.ts, commit: 0123456789abcdef,\n"
        "     ran: \"a level 1500 all, run on 2026-03-02: the game goes on\", rules: [match.target]}\n"
        "  - {decided_by: \"the Tuesday table\", decided_on: \"2026-03-01\", quote: \"Belote is worth 30.\",\n"
        "     rules: [belote.points]}\n"
        "rules:\n  match: {target: 1500}\n  auction: {surcoinche: {multiplier: 3}}\n  belote: {points: 30}\n",
        encoding="utf-8")
    v = load_variant_file(p)
    page = render_page(v)
    assert "“We play to 1500.” (Our club sheet, rule 4)" in page
    assert "Source: the program github.com/someone/coinche, `src/score.ts` at commit 0123456789ab" in page
    assert "“Belote is worth 30.” (a house decision of the Tuesday table, decided on 2026-03-01)" in page
    html = render_html(v)
    assert "the program github.com/someone/coinche, `src/score.ts` at commit 0123456789ab" in html
    found = {d.path: d.right_basis for d in diff.differences(load_variant("federation").document, v.document)}
    assert "(the program github.com/someone/coinche, `src/score.ts` at commit 0123456789ab)" in \
        found["auction.surcoinche.multiplier"]
    assert "\"Belote is worth 30.\" (a house decision of the Tuesday table, decided on 2026-03-01)" in \
        found["belote.points"]
    assert "\"We play to 1500.\" (Our club sheet, rule 4)" in found["match.target"]
    # a rule confirmed by running the program says so, with what was run and seen
    ran = "`src/match.ts` at commit 0123456789ab, confirmed by running it: a level 1500 all, run on 2026-03-02"
    assert ran in page and any(ran in basis for basis in found["match.target"])


def test_melds_on_a_sweep_matter_only_where_an_award_counts_own_melds():
    """sweep_takes_melds moves melds from one side to the other: with every award counting
    all_melds or no melds (test-awards-a), it changes no score, and the page says so."""
    t = templates.template_for("scoring.sweep_takes_melds")
    assert t.unused(templates.Ctx(load_variant("test-awards-a").document["rules"])).startswith(
        "no award counts a side's own melds")
    assert t.unused(templates.Ctx(load_variant("test-any-sweep").document["rules"])) is None
    assert t.unused(templates.Ctx(load_variant("contree-701").document["rules"])) == "melds are not played"


def unused(path, ident, changes=None):
    """Why the rule at ``path`` cannot matter in a shipped rule set with some rules replaced (None: it can)."""
    doc = copy.deepcopy(load_variant(ident).document["rules"])
    for dotted, value in (changes or {}).items():
        *parents, leaf = dotted.split(".")
        node = doc
        for key in parents:
            node = node[key]
        node[leaf] = value
    return templates.template_for(path).unused(templates.Ctx(doc))


def test_capot_over_capot_and_throw_in_rules_say_when_they_cannot_matter():
    """capot.overcall_by_capot cannot matter where a capot ends the auction (cafe-1000) or cannot be
    bid; under «à la vache» no deal is thrown in, so who deals after a throw-in cannot matter; and
    the strain order matters once a capot may overcall a capot, though bids overcall by value."""
    assert unused("auction.capot.overcall_by_capot", "cafe-1000").startswith("a capot bid ends the auction")
    assert unused("auction.capot.overcall_by_capot", "peer-kffr") == "capot cannot be bid"
    assert unused("auction.capot.overcall_by_capot", "test-capot-over-capot") is None
    assert unused("auction.strain_order", "contree-701") == "bids are compared by value only"
    assert unused("auction.strain_order", "test-capot-over-capot") is None
    assert unused("table.dealer_after_throw_in", "test-dealer-must-bid").startswith("the dealer must bid")
    assert unused("table.dealer_after_throw_in", "contree-701") is None
    assert unused("match.throw_ins_count", "test-match-3-deals", {"auction.all_pass": "dealer_must_bid"}) \
        .startswith("the dealer must bid")


def test_the_tie_rule_matters_under_counting_order():
    """Counting order ends level when both reach the target at one stage with equal totals: then
    `match.tie` decides, so it must not be called moot (it once was, with last_taker's reason)."""
    doc = load_variant("test-match-counting-order").document
    assert doc["rules"]["match"]["both_cross"] == "counting_order"
    assert templates.template_for("match.tie").unused(templates.Ctx(doc["rules"])) is None
    last_taker = copy.deepcopy(doc["rules"])
    last_taker["match"]["both_cross"] = "last_taker"
    assert templates.template_for("match.tie").unused(templates.Ctx(last_taker)).startswith(
        "when both sides cross, the last deal's takers win")


# --- pages that follow play.trick_winner and card_values.order -------------------------------

REVERSED = {"trump": ["7", "8", "Q", "K", "T", "A", "9", "J"], "plain": ["7", "8", "9", "J", "Q", "K", "T", "A"]}


def test_any_suit_by_rank_is_said_in_the_play_opening_and_the_go_up_rules():
    """The §2.4 opening and the tout atout / sans atout going-up rules say what any_suit_by_rank changes:
    the strongest card wins whatever its suit, and going up beats the card winning the trick."""
    page = render_page(changed("cafe-sans-tout-atout", {"play.trick_winner": "any_suit_by_rank",
                                                        "play.sans_atout_must_go_up": True}))
    assert "The highest trump wins the trick" not in page
    assert "The strongest card played wins the trick, whatever its suit" in page
    for title in ("Going up in tout atout", "Going up in sans atout"):
        block = rule_block(page, title)
        assert "beat the card winning the trick if he can, even when it is of another suit" in block
        assert "highest card of the led suit" not in block
    usual = render_page(load_variant("cafe-sans-tout-atout"))
    assert "The highest trump wins the trick" in usual
    assert "must beat the highest card of the led suit if he can" in rule_block(usual, "Going up in tout atout")


def test_any_suit_by_rank_sentence_gives_both_orders_strongest_first_from_the_rule_set():
    default = rule_block(render_page(changed("federation", {"play.trick_winner": "any_suit_by_rank"})),
                         "Who wins a trick")
    assert "strongest first: the trump suit J 9 A 10 K Q 8 7, above every plain card; a plain suit " \
           "A 10 K Q J 9 8 7" in default
    assert "7 8 9 J Q K 10 A" not in default
    assert "an ace discarded on a ten led wins" in default
    reversed_ = rule_block(render_page(changed("federation", {"play.trick_winner": "any_suit_by_rank",
                                                              "card_values.order": REVERSED})),
                           "Who wins a trick")
    assert "the trump suit 7 8 Q K 10 A 9 J, above every plain card; a plain suit 7 8 9 J Q K 10 A" in reversed_
    assert "ace discarded" not in reversed_
    assert "a seven discarded on an eight led wins" in reversed_


def test_the_play_opening_lists_the_rule_sets_rank_order():
    usual = render_page(load_variant("federation"))
    assert "trumps rank J 9 A 10 K Q 8 7 and the other suits A 10 K Q J 9 8 7" in usual
    page = render_page(changed("federation", {"card_values.order": REVERSED}))
    assert "J 9 A 10 K Q 8 7" not in page and "A 10 K Q J 9 8 7" not in page
    assert "trumps rank 7 8 Q K 10 A 9 J and the other suits 7 8 9 J Q K 10 A, strongest first" in page


def test_lowered_target_contract_sentences_say_the_target_not_the_bid():
    """belote.counts_as lowered_target: the contract is judged against the bid less the takers' belote."""
    page = render_page(changed("federation", {"belote.counts_as": "lowered_target"}))
    made = rule_block(page, "Made or failed")
    assert "reaches the bid" not in made
    assert "reaches the target (the bid less the takers' belote, 20, when they hold it)" in made
    least = rule_block(page, "Least total")
    assert "reaches the bid" not in least and "the bid less the takers' belote" in least
    assert "reaches the bid" in rule_block(render_page(load_variant("federation")), "Made or failed")


def test_max_rounds_says_a_round_is_four_calls_in_turn():
    """auction.max_rounds counts rounds of four calls in turn, not times each player has spoken."""
    block = rule_block(render_page(changed("federation", {"auction.max_rounds": 2})), "Rounds of bidding")
    assert "has spoken" not in block
    assert "at most two rounds. A round is four calls made in turn" in block
    assert "a coinche out of turn and a skipped turn (the coincher's partner who may not speak) do not count" \
        in block


@pytest.mark.parametrize("base,changes", [
    ("federation", {"match.last_deal_exact": True}),
    ("ffb-contree", {"match.last_deal_exact": True}),
    ("cafe-701", {"match.both_cross": "counting_order"}),
])
def test_match_examples_under_match_end_rules(base, changes):
    """The match examples give the engine what these rules need (the deal unrounded, its melds):
    the page shows the match and the crossings, never the engine's refusal."""
    page = render_page(changed(base, changes))
    assert "cannot add up" not in page and "cannot decide" not in page and "engine cannot" not in page
    example_block(page, "A match to ")
    example_block(page, "Both sides cross the target in the same deal")


def test_match_example_counts_the_last_deal_exactly():
    page = render_page(changed("federation", {"match.last_deal_exact": True}))
    crossing = example_block(page, "Both sides cross the target in the same deal")
    found = re.search(r"counted exactly: NS (\d+) \(not (\d+)\)", crossing)
    assert found, crossing
    exact, rounded = int(found[1]), int(found[2])
    assert rounded % 10 == 0 and exact != rounded      # federation rounds to tens; the exact score does not
    # the equal-totals example is level on the totals the match counts (the exact ones)
    level = example_block(page, "Both sides cross the target with equal totals")
    assert "both sides reach the target level at" in level


def test_no_target_with_a_number_of_deals_names_the_match_not_single_deals():
    """match.target null with match.deals: no side ever reaches a target, so the rules of reaching it
    cannot matter, but the match is one of ``deals`` deals, not single deals; the last of them is
    still counted exactly (match.last_deal_exact) and a tie still needs a rule."""
    four = {"match.target": None, "match.deals": 4}
    for path in ("match.reach", "match.both_cross", "match.last_deal_not_failed", "match.last_deal_needs_a_trick",
                 "match.belote_validation"):
        assert unused(path, "federation", four) == \
            "there is no target: the match ends after 4 deals, won by the higher total", path
        assert unused(path, "federation", {"match.target": None}) == \
            "there is no target and no set number of deals (single deals)", path
    assert unused("match.last_deal_exact", "federation", dict(four, **{"match.last_deal_exact": True})) is None
    assert unused("match.last_deal_exact", "federation", {"match.target": None}).endswith("(single deals)")
    assert unused("match.tie", "federation", four) is None
    page = render_page(changed("federation", dict(four, **{"match.last_deal_exact": True})))
    assert "None" not in rule_block(page, "Reaching the target")
    assert "reaches the target or more" in rule_block(page, "Reaching the target")
    assert "The last deal of the match is counted with its exact score" in rule_block(page, "The last deal counted exactly")


def test_bid_scored_as_cannot_matter_where_no_award_of_a_numeric_bid_counts_the_bid():
    """scoring.bid_scored_as changes only the bid term of a numeric bid's awards: with the bid in no award
    of made, failed or coinched contracts (card points, a base, melds), it changes no score."""
    scored_as = {"scoring.bid_scored_as": [{"bid": 90, "scores": 80}]}
    no_bid = dict(scored_as, **{
        "scoring.made": {"takers": {"terms": ["card_points", "own_melds"]},
                         "defenders": {"terms": ["card_points", "own_melds"]}},
        "scoring.failed": {"takers": {"terms": []}, "defenders": {"terms": ["base", "all_melds"], "base": 160}},
        "scoring.coinched_made": {"takers": {"terms": ["base", "all_melds"], "base": 160},
                                  "defenders": {"terms": []}},
        "scoring.coinched_failed": {"takers": {"terms": []},
                                    "defenders": {"terms": ["base", "all_melds"], "base": 160}}})
    assert unused("scoring.bid_scored_as", "federation", no_bid) == "no award of a numeric bid counts the bid"
    assert unused("scoring.bid_scored_as", "federation", scored_as) is None
    # the bid in one award (the defenders' when a coinched contract fails) is enough for the rule to matter
    one_bid = dict(no_bid, **{"scoring.coinched_failed": {
        "takers": {"terms": []}, "defenders": {"terms": ["base", "bid"], "base": 160}}})
    assert unused("scoring.bid_scored_as", "federation", one_bid) is None


@pytest.mark.parametrize("parent", ["federation", "contree-701", "cafe-701", "cafe-sans-tout-atout"])
def test_a_child_letting_a_capot_overcall_a_capot_keeps_no_reading_that_says_it_cannot(tmp_path, parent):
    """The parents say no capot overcalls a capot in a reading of auction.capot.overcall_by_capot
    alone: a child that turns the rule on drops it (and only it); the strain order reading it keeps
    speaks of bids of the same value only, which stays true."""
    from coinche_spec.variants.loader import load_variant_file
    mine = tmp_path / "capots.yaml"
    mine.write_text(f"extends: {parent}\nid: capots\nname: Capots\nstatus: house\nrules:\n"
                    "  auction: {capot: {overcall_by_capot: higher_strain}}\n", encoding="utf-8")
    parent_ids = [i["id"] for i in load_variant(parent).document["interpretations"]]
    child_ids = [i["id"] for i in load_variant_file(mine).document["interpretations"]]
    assert "capot-over-capot" in parent_ids
    assert child_ids == [i for i in parent_ids if i != "capot-over-capot"]
    page = render_page(load_variant_file(mine))
    for words in ("never used", "not used between", "not even a capot", "not even between two capot"):
        assert words not in page, words


def test_bid_factor_and_bid_scored_as_cannot_matter_where_no_award_a_deal_can_get_counts_the_bid(tmp_path):
    from coinche_spec.variants.loader import load_variant_file
    no_bid = {"terms": ["card_points", "own_melds"], "multiplied": "none"}
    # federation's uncoinched awards without the bid: its coinched ones still count it
    plain = {"scoring.made": {"takers": no_bid, "defenders": no_bid},
             "scoring.failed": {"takers": {"terms": [], "multiplied": "none"},
                                "defenders": {"terms": ["base", "all_melds"], "base": 160, "multiplied": "none"}}}
    assert unused("scoring.bid_factor", "federation", plain) is None
    assert unused("scoring.bid_scored_as", "federation", plain) is None
    # ... and with no coinche at all, no award a deal can get counts the bid (capot_made is null: the made award)
    doc = copy.deepcopy(load_variant("federation").document["rules"])
    doc["scoring"].update(made=plain["scoring.made"], failed=plain["scoring.failed"])
    doc["auction"]["coinche"]["allowed"] = False
    ctx = templates.Ctx(doc)
    assert templates.template_for("scoring.bid_factor").unused(ctx) == "no award counts the bid"
    assert templates.template_for("scoring.bid_scored_as").unused(ctx) == "no award of a numeric bid counts the bid"
    # a sans atout factor where only suits may be bid: warned of by `variants check`, a suit factor not
    mine = tmp_path / "sa.yaml"
    mine.write_text("extends: federation\nid: sa\nname: SA\nstatus: house\nrules:\n"
                    "  scoring: {bid_factor: {suit: 2, sans_atout: 2}}\n", encoding="utf-8")
    warned = load_variant_file(mine).warnings
    assert [w.split(": ", 1)[1] for w in warned] == [
        "rules.scoring.bid_factor.sans_atout: warning: cannot matter: sans atout cannot be bid"]


def test_who_speaks_after_a_coinche_out_of_turn_is_said():
    words = "After a coinche out of turn, as after one in turn, the player after the coincher speaks next"
    assert words in render_page(load_variant("test-coinche-any-moment"))
    assert words in render_page(load_variant("test-coinche-side-in-turn"))
    assert words not in render_page(load_variant("federation"))          # in turn only
    ended = changed("test-coinche-any-moment", {"auction.coinche.effect": "ends_auction"})
    assert words not in render_page(ended)                                # nobody speaks after the coinche


def test_the_rounding_sentence_follows_what_the_contract_is_judged_on():
    exact = "only after the contract has been judged on the exact points"
    assert exact in render_page(load_variant("federation"))
    page = render_page(changed("federation", {"contract.judged_on": "rounded_points"}))
    assert exact not in page
    assert "and the contract itself is judged on each side's total rounded the same way" in page
