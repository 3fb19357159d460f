"""The printable HTML rules sheet: self-contained, house changes first, no parent's words against
a changed value, and (in headless Chromium) a real screenshot and at most 2 A4 pages before the
appendix for the federation-to-1500 house example."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from coinche_spec.outputs import marked
from coinche_spec import cli
from coinche_spec.docsgen.differences import rule_changes
from coinche_spec.docsgen.html import render_html
from coinche_spec.docsgen.page import render_page
from coinche_spec.sources import TITLES, source_title
from coinche_spec.variants import house_ids, load_variant, shipped_ids

import browser

HOUSE = "federation-1500-x3"
SUMMARY_PAGES = 2            # the target: summary + worked examples on at most 2 A4 pages
HIDE_APPENDIX = "<style>.appendix { display: none !important; }</style></head>"


@pytest.fixture(scope="module")
def house_html() -> str:
    return render_html(load_variant(HOUSE))


def sheet_part(page: str) -> str:
    """The page before its appendix: what prints on the first pages."""
    return page[:page.index('<section class="appendix"')]


def text_of(fragment: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())


# --- without a browser ------------------------------------------------------------------------

def test_the_sheet_is_self_contained(house_html):
    assert house_html.startswith("<!DOCTYPE html>") and "<style>" in house_html
    for outside in ("<link", "<script", "src=", "url(", "@import", "http://", "https://"):
        assert outside not in house_html, outside
    assert "@page { size: A4" in house_html and "@media print" in house_html
    assert "break-before: page" in house_html          # the appendix starts on a page of its own


def test_suits_are_in_colour(house_html):
    # the meld examples name cards: K♦ (red), A♠ (black)
    assert '<span class="suit-red">♦</span>' in house_html
    assert '<span class="suit-black">♠</span>' in house_html
    assert not re.search(r"(?<!>)[♥♦♠♣]", house_html), "a suit symbol left uncoloured"


def test_a_house_sheet_opens_with_what_it_plays_differently(house_html):
    sheet = sheet_part(house_html)
    order = [sheet.index(h) for h in ("What we play differently", "The game at a glance", "Worked examples")]
    assert order == sorted(order)
    changes = text_of(sheet[sheet.index('id="changes"'):sheet.index('id="glance"')])
    # one line per changed rule, the value, and the house's own reason
    assert "Surcoinche multiplier (4 → 3): A surcoinche raises the multiplier from 2 to 3." in changes
    assert "Target (2000 → 1500): The match is played to 1500 points." in changes
    assert "Why: 3 instead of 4, applied exactly where the federation applies its multiplier" in changes
    assert "Why: 1500 instead of the federation's 2000." in changes
    assert "full rules" in text_of(house_html[house_html.index('id="appendix"'):])[:80]


def test_a_programs_sheet_does_not_speak_as_the_house():
    """A program's rule set extends a seed too, but it is not a table's house rules: its sheet (and
    its short summary) says what differs from the seed, never "what we play" or "these house rules"."""
    from coinche_spec.docsgen.summary import render_summary
    variant = load_variant("peer-bga")
    assert variant.document["status"] != "house"
    for page in (render_html(variant), render_summary(variant)):
        changes = text_of(page[page.index('id="changes"'):page.index('id="glance"')])
        assert "> What differs from contree-701 " in changes, changes[:80]
        assert "house" not in changes.lower() and "we play" not in changes.lower(), changes[:200]


def test_no_parents_words_against_a_changed_value(house_html):
    """The 1500 house page once quoted "the first side reaching 2000" and "x2 or 4" under x3."""
    for page in (house_html, render_page(load_variant(HOUSE))):
        text = text_of(page).replace("**", "")
        assert "reaching 2000" not in text and "2 or 4" not in text
        # "makes the multiplier 4" appears once: as the words the house reading replaces
        assert text.count("makes the multiplier 4") == 1
        assert re.search(r"The words this house rule replaces:? “?[^”]*makes the multiplier 4", text)
    glance = text_of(sheet_part(house_html)[sheet_part(house_html).index('id="glance"'):])
    assert "Target. * The match is played to 1500 points." in glance
    assert "A surcoinche raises the multiplier from 2 to 3." in glance
    assert "2000" not in glance and "to 4" not in glance
    # an unchanged rule that the parent's target sentence also spoke for: played as there, not quoted
    appendix = text_of(house_html[house_html.index('id="appendix"'):])
    assert ("Reaching the target match.reach A side wins as soon as its total reaches 1500 or more at the end "
            "of a deal. Played as in federation (Federation rules profile (seed 000), 04 / Contract and score); "
            "its words are not quoted here, as they also state the target that these house rules change."
            ) in appendix


def test_rules_that_cannot_matter_are_folded(house_html):
    appendix = house_html[house_html.index('id="appendix"'):]
    folded = re.findall(r"<details>(.*?)</details>", appendix, re.S)
    assert folded and all("Cannot matter here" in f for f in folded)
    # tout atout cannot be bid here: its values are folded, not listed among the rules in play
    outside = re.sub(r"<details>.*?</details>", "", appendix, flags=re.S)
    assert "Tout atout values" not in outside and "Cannot matter here" not in outside
    assert "Tout atout values" in "".join(folded)


def test_sources_by_title_never_by_file_name(house_html):
    for ident in shipped_ids() + house_ids():
        v = load_variant(ident)
        for page in (render_html(v), render_page(v)):
            assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", page), ident
        for s in v.document["sources"]:
            assert s["seed"] in TITLES, f"{ident}: source {s['seed']} has no title in coinche_spec/sources.py"
    assert "Federation rules profile (seed 000)" in house_html
    assert source_title("our-club-sheet.pdf") == "our-club-sheet.pdf"    # a user's own source, as written


def test_differences_leave_out_what_cannot_matter():
    fed = load_variant("federation").document["rules"]
    # tout atout values differ, but tout atout cannot be bid in either: nothing at the table changes
    other = {**fed, "card_values": {**fed["card_values"],
                                    "tout_atout": {**fed["card_values"]["tout_atout"], "J": 19}}}
    assert rule_changes(fed, other) == []
    # the same change where tout atout may be bid is listed, beside the bid itself
    ta = {**other, "auction": {**fed["auction"], "strains": {**fed["auction"]["strains"], "tout_atout": True}}}
    base = {**fed, "auction": ta["auction"]}
    titles = [c.title for c in rule_changes(base, ta)]
    assert titles == ["Tout atout values"]
    assert [c.title for c in rule_changes(fed, ta)][:1] == ["Tout atout"]


def test_docs_format_html_on_the_command_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "COMMANDS", {"docs": "coinche_spec.docsgen.cli"})
    out = tmp_path / "sheet.html"
    assert cli.main(["docs", HOUSE, "--format", "html", "--output", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == marked(render_html(load_variant(HOUSE)))
    assert cli.main(["docs", HOUSE]) == 0
    assert capsys.readouterr().out == render_page(load_variant(HOUSE))        # md stays the default
    assert cli.main(["docs", "--compare", "--format", "html"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--format html is for one rule set" in err


# --- in headless Chromium -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """The house sheet printed to PDF (whole, and with the appendix hidden) and its screenshot,
    the three runs at once."""
    exe = browser.chromium()
    browser.poppler("pdfinfo")
    browser.poppler("pdftotext")
    work = tmp_path_factory.mktemp("sheet")
    pages = {}
    page = render_html(load_variant(HOUSE))
    (work / f"{HOUSE}.html").write_text(page, encoding="utf-8")
    (work / f"{HOUSE}-summary.html").write_text(page.replace("</head>", HIDE_APPENDIX, 1), encoding="utf-8")
    jobs = {
        "house": (work / f"{HOUSE}.html", work / "house.pdf", None),
        "house-summary": (work / f"{HOUSE}-summary.html", work / "house-summary.pdf", None),
        "screenshot": (work / f"{HOUSE}.html", None, work / "house.png"),
    }
    procs = {k: browser.start(exe, page, work, pdf=pdf, png=png) for k, (page, pdf, png) in jobs.items()}
    for key, (_, pdf, png) in jobs.items():
        pages[key] = browser.finish(procs[key], pdf or png)
    return pages


def test_the_screenshot_renders(printed):
    width, height, data = browser.png_pixels(printed["screenshot"])
    assert (width, height) == (1100, 1500)
    counts = Counter(data)
    assert len(counts) > 64, "the screenshot is blank"
    assert counts.most_common(1)[0][1] < 0.97 * len(data), "the screenshot is nearly one colour"


def test_summary_and_examples_print_on_two_a4_pages(printed):
    summary = browser.pdf_pages(printed["house-summary"])
    whole = browser.pdf_pages(printed["house"])
    assert 1 <= summary <= SUMMARY_PAGES, f"the sheet before the appendix prints on {summary} pages"
    # the appendix starts on a page of its own, after them, and holds the full rules
    assert whole > summary
    text = browser.pdf_text(printed["house"])
    assert text.index("Appendix: the full rules") > text.index("Both sides cross the target")


def test_the_changed_values_print_where_the_parents_did(printed):
    house = browser.pdf_text(printed["house-summary"])
    parent = text_of(sheet_part(render_html(load_variant("federation"))))     # where the parent says it
    for c in rule_changes(load_variant("federation").document["rules"], load_variant(HOUSE).document["rules"]):
        before, after = f"{c.title}. {c.before}", f"{c.title}. * {c.after}"
        assert before in parent, before             # the federation's sheet says it at a glance ...
        assert after in house, after                # ... and the house's says its own value there
        assert house.count(c.before) == 1 and f"In federation: {c.before}" in house   # only as "instead of"
    assert "The match is played to 1500 points." in house and "played to 2000 points" not in parent.replace(
        "The match is played to 2000 points.", "", 1)
    # the surcoinched example is scored × 3: (160 + 90) × 3 + 20 × 3 = 810
    assert "(base 160 + bid 90) × 3 + belote 20 × 3 = 810" in house
    assert "× 4" not in house and "× 4" in parent
    assert "1600 to 1030" in house                   # the match example ends past 1500, not 2000


GLANCE_HOUSE = """\
extends: contree-701
id: glance-house
name: "Our glance"
status: house
rules:
  contract: {minimum_total: 82}
  auction:
    coinche: {effect: overbid_cancels}
  scoring: {rounding: nearest_10_half_up}
  match: {target: 1500}
"""


def test_the_glance_shows_every_rule_the_house_changes_starred(tmp_path):
    """Four house rules, four starred lines: the least total on the "Made or failed" line (a bid of
    80 needs 82), the coinche that a higher bid cancels in its own line, rounding and target."""
    from coinche_spec.variants import load_variant_file
    p = tmp_path / "glance-house.yaml"
    p.write_text(GLANCE_HOUSE, encoding="utf-8")
    page = sheet_part(render_html(load_variant_file(p)))
    glance = page[page.index('id="glance"'):]
    glance = glance[:glance.index("</section>")]
    lines = [text_of(li) for li in re.findall(r"<li.*?</li>", glance, re.S)]
    starred = [line for line in lines if ". * " in line]
    assert [line.split(".")[0] for line in starred] == ["After a coinche", "Made or failed", "Rounding", "Target"]
    made = next(line for line in starred if line.startswith("Made or failed"))
    assert "reaches the bid" in made and "at least 82, so a bid of 80 needs 82" in made
    assert starred[0].startswith("After a coinche. * A coinche does not freeze the bidding")
    assert len([li for li in re.findall(r"<li[^>]*>", glance) if "changed" in li]) == 4


def test_a_rule_written_at_its_left_out_value_is_no_change():
    fed = load_variant("federation").document["rules"]
    explicit = {**fed, "play": {**fed["play"], "trick_winner": "led_suit"},
                "belote": {**fed["belote"], "counts_as": "points"},
                "match": {**fed["match"], "last_deal_not_failed": False, "last_deal_exact": False},
                "auction": {**fed["auction"], "capot": {**fed["auction"]["capot"], "overcall_by_capot": "never"}},
                "card_values": {**fed["card_values"], "order": {"trump": list("J9ATKQ87"), "plain": list("ATKQJ987")}}}
    assert rule_changes(fed, explicit) == []
    # a real change shows the left-out side as its default, never as null
    capot = {**explicit["auction"]["capot"], "overcall_by_capot": "higher_strain"}
    (change,) = rule_changes(fed, {**fed, "auction": {**fed["auction"], "capot": capot}})
    assert change.shown() == [("auction.capot.overcall_by_capot", '"never" (left out)', '"higher_strain"')]
    assert change.before != change.after
