"""A worked example names only contracts its rule set can bid.

BGA's bids follow a ladder that starts at 82 and belote-cli's only bid is 60: a page showing
"80 clubs by West" or "Bid 90 hearts" under them shows a deal that cannot happen. Legality is
the compiled rules' own (``bid_fault``, ``strain_allowed``, ``auction.capot.allowed``), which the
engine's auction also asks.
"""

from __future__ import annotations

import re

import pytest

from coinche_spec.docsgen.examples import all_examples
from coinche_spec.docsgen.page import render_page
from coinche_spec.docsgen.templates import STRAIN_WORDS, Ctx
from coinche_spec.variants import load_variant
from coinche_spec.variants.loader import paged_ids

ALL_IDS = paged_ids()
STRAINS = {words: strain for strain, words in STRAIN_WORDS.items()}
WORDS = "|".join(STRAINS)
# every place section 3 of a page names a numeric contract, in words or in the engine's lines
NAMED = (
    re.compile(rf"\b[Bb]ids? (\d+) ({WORDS})\b"),               # "North bids 90 hearts", "Bid 90 hearts"
    re.compile(rf"^\| \d+ \| (\d+) ({WORDS}) by ", re.M),       # the match table: "| 4 | 82 clubs by West"
    re.compile(rf"\bdeal of (\d+) ({WORDS})\b"),                 # "in a deal of 90 hearts"
    re.compile(r"\bcontract (\d+)(TA|SA|H|S|D|C) by "),          # the engine's line: "contract 90H by N"
)


def why_not(ctx: Ctx, value, strain: str) -> str | None:
    """None if the rule set can bid ``value`` in ``strain``, else why not."""
    c = ctx.rules
    if not c.strain_allowed(strain):
        return f"{STRAIN_WORDS[strain]} cannot be bid"
    if value == "capot":
        return None if ctx.capot else "no capot bid"
    return c.bid_fault(int(value))


def test_the_rule_sets_that_need_it_are_among_those_checked():
    # peer-bga's ladder has no 80; belote-cli's only bid is 60 (both were shown otherwise before)
    assert {"peer-bga", "belote-cli", "federation"} <= set(ALL_IDS)
    bga = Ctx(load_variant("peer-bga").document["rules"]).rules
    assert bga.auction.bids.ladder is not None and bga.bid_fault(80) is not None, "peer-bga can bid 80 now"


@pytest.mark.parametrize("ident", ALL_IDS)
def test_every_contract_an_example_plays_is_a_bid_of_its_rule_set(ident):
    variant = load_variant(ident)
    ctx = Ctx(variant.document["rules"])
    examples = all_examples(variant.rules, ctx)
    played = [(ex.title, c) for ex in examples for c in ex.contracts]
    assert len(played) >= 5, f"{ident}: too few contracts found to check ({len(played)})"
    bad = [(title, c.value, c.strain, why_not(ctx, c.value, c.strain)) for title, c in played
           if why_not(ctx, c.value, c.strain) is not None]
    assert not bad, f"{ident}: worked examples play contracts it cannot bid: {bad}"


@pytest.mark.parametrize("ident", ALL_IDS)
def test_every_contract_a_page_names_in_its_examples_is_a_bid_of_its_rule_set(ident):
    page = render_page(load_variant(ident))
    start = page.index("## 3. Worked examples")
    end = page.find("\n## ", start + 1)
    section = page[start:end if end != -1 else len(page)]
    ctx = Ctx(load_variant(ident).document["rules"])
    named = [(m.group(1), STRAINS.get(m.group(2), m.group(2))) for pattern in NAMED
             for m in pattern.finditer(section)]
    # every page shows at least the four 90-hearts deals and the engine's line for each
    assert len(named) >= 8, f"{ident}: too few contracts named in section 3 ({len(named)})"
    bad = sorted({(v, s, why_not(ctx, v, s)) for v, s in named if why_not(ctx, v, s) is not None})
    assert not bad, f"{ident}: section 3 names contracts it cannot bid: {bad}"
