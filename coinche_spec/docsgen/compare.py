"""The seed rule sets side by side: ``coinche-spec docs --compare`` writes docs/variants.md.

A club choosing between the café rules and the federation profile wants to
see, on one page, where they part: who leads, what a surcoinche multiplies
by, whether a belote is played. The page is generated from the variant files
so that it cannot go stale: a row for every rule on which the seed rule sets
differ, plus a few key rules they share, each cell a short value linked to
the rule on that rule set's own page, and marked "(reading)" when the value
is the rule set's reading of a silence or an ambiguity of its seed.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass

from ..sources import source_title
from ..variants import house_ids, load_variant, registry, shipped_ids
from ..variants.compiled import RuleGroup
from ..variants.loader import Variant
from .templates import PLAIN_ORDER, SECTIONS, TEMPLATES, TRUMP_ORDER, Ctx, Template, covers

# Rules every seed rule set shares but a reader comparing them still looks for first.
KEY_SHARED = ("first-speaker", "bid-minimum", "bid-step", "passes-to-end", "coinche-multiplier",
              "surcoinche", "first-leader", "opponent-winning", "values-trump", "values-plain", "last-trick",
              "belote-points", "target", "reach")

RULES_FOLDER = "rules"      # the rules pages, relative to docs/variants.md


# --- short values, in words ---------------------------------------------------------------

def _side(c: Ctx, side_of_next: bool) -> str:
    """The dealer's neighbour as the table sees him: the next player sits to the right anticlockwise."""
    return f"dealer's {c.next_side if side_of_next else c.prev_side}"


# Each enum value of every rule in a few words (a test checks that the schema has no value without them).
ENUM_WORDS: dict[str, dict] = {
    "table.direction": {"anticlockwise": "anticlockwise", "clockwise": "clockwise"},
    "table.first_dealer": {"random": "drawn at random", "given": "agreed"},
    "table.next_dealer": {"next_seat": "next seat"},
    "table.dealer_after_throw_in": {"next_seat": "next seat", "same_dealer": "same dealer"},
    "deal.shuffle": {"every_deal": "every deal", "never": "never (cut only)", "dealer_choice": "dealer's choice",
                     "recommended": "recommended", "never_except_listed": "never, listed cases excepted"},
    "deal.cut.by": {"dealer_left": "dealer's left", "dealer_right": "dealer's right"},
    "deal.method": {"packets": "cut, then packets", "uniform": "uniformly random, no cut or packets"},
    "auction.first_speaker": {"next_to_dealer": lambda c: f"next to the dealer ({_side(c, True)})"},
    "auction.overcall": {"higher_value": "a higher value only",
                         "higher_value_or_strain": "a higher value, or the same value in a higher strain"},
    "auction.all_pass": {"throw_in": "thrown in, dealt again", "dealer_must_bid": "the dealer must bid («à la vache»)"},
    "auction.capot.overcall_by_capot": {"never": "never", "higher_strain": "by a capot in a higher strain"},
    "auction.raise_own_bid": {"never_without_intervening_bid": "not without a bid in between",
                              "when_changing_strain": "only in another strain", "always": "always",
                              "never_in_a_named_strain": "never twice in a strain"},
    "auction.coinche.by": {"opponents_of_bidder": "an opponent of the bidder", "any_player": "any player",
                           "opponents_of_last_caller": "the side opposite the last call"},
    "auction.surcoinche.by": {"coinched_side": "the takers", "next_caller": "whoever calls next"},
    "auction.coinche.when": {"in_turn": "in turn", "after_auction": "after the auction, before the first card",
                             "any_moment": "at any moment (à la volée)",
                             "side_in_turn": "the side to act (the player or his partner)"},
    "auction.coinche.effect": {"freeze_then_passes": "bids freeze, then passes end it",
                               "ends_auction": "ends the auction",
                               "overbid_cancels": "a higher bid cancels it (décoinchage)",
                               "ends_bidding_window": "ends the bidding, then a surcoinche window"},
    "auction.coinche.ended_by": {"passes": "passes in a row", "taker_pass": "the taker's pass"},
    "play.first_leader_generale": {"first_leader": "as any contract", "taker": "the générale's taker"},
    "play.generale_partner": {"plays": "plays, may not win a trick", "sits_out": "sits out: 3-card tricks"},
    "play.trick_winner": {"led_suit": "highest trump, else of the led suit",
                          "any_suit_by_rank": "highest rank of any suit (trumps above)"},
    "play.first_leader": {"next_to_dealer": lambda c: f"next to the dealer ({_side(c, True)})",
                          "first_bidder": "the first bidder", "taker": "the taker"},
    "play.cannot_overtrump": {"must_undertrump": "must undertrump", "may_discard": "may discard",
                              "must_discard": "must discard"},
    "play.partner_cut_only_trumps": {"free": "any trump", "must_overtrump": "must go over"},
    "melds.long_runs": {"highest_five": "its highest five count", "count_as_five": "counts as five"},
    "melds.run_order": {"AKQJT987": "A K Q J 10 9 8 7"},
    "melds.card_reuse": {"forbidden": "one meld per card", "allowed": "a card in a square and a run"},
    "melds.compare.equal": {"cancel": "both cancel", "first_declared": "first declared wins"},
    "melds.winner_scores": {"all": "all its melds", "best": "its best meld only"},
    "melds.sides_scoring": {"best_side": "the best side only", "both_sides": "both sides, each its own"},
    "melds.timing": {"declared_with_first_card": "with the first card"},
    "belote.claim": {"said": "must be said", "automatic": "counted automatically",
                     "said_once": "one word with the first card", "king_first": "said, king first",
                     "said_rebelote_forgiven_once": "said, rebelote forgiven once a match"},
    "belote.in_run": {"allowed": "may also sit in a run", "forbidden": "void if in a run"},
    "card_values.scale.applies_to": {"trick_points": "trick values", "card_points": "card points"},
    "card_values.scale.rounding": {"nearest_half_up": "nearest, half up", "down": "down"},
    "card_values.scale.defenders": {"scaled": "scaled", "complement": "total less the takers'"},
    "belote.on_failure": {"holder": "kept by the takers", "defenders": "goes to the defenders", "lost": "lost"},
    **{f"belote.placement.{o}.{r}": {"takers": "to the takers", "defenders": "to the defenders", "lost": "lost"}
       for o, r in (("made", "takers"), ("made", "defenders"), ("coinched_made", "takers"),
                    ("coinched_made", "defenders"), ("failed", "defenders"), ("coinched_failed", "defenders"),
                    ("capot_made", "takers"), ("capot_made", "defenders"), ("capot_failed", "takers"),
                    ("capot_failed", "defenders"))},
    "belote.multiplied": {"never": "never multiplied", "with_award": "multiplied with its award"},
    "belote.counts_as": {"points": "added to its side's total", "lowered_target": "lowers the takers' target"},
    "belote.tout_atout": {"none": "none", "each_suit": "one per suit"},
    "contract.versus_defenders": {"ignore": "reach the bid",
                                  "not_level": "reach the bid, not level with the defenders",
                                  "strictly_more": "reach the bid and beat the defenders",
                                  "at_least_level": "reach the bid, at least level with the defenders"},
    "contract.capot_by": {"tricks": "all eight tricks", "card_points": "the last trick, the other side's tricks worth 0"},
    "contract.judged_on": {"card_points": "the totals as they are", "rounded_points": "the rounded totals"},
    "scoring.sweep_takes_melds": {"never": "never", "taker_sweep": "to the takers if they sweep",
                                  "any_sweep": "to any side that sweeps"},
    "scoring.rounding": {"none": "none", "nearest_10_half_up": "nearest 10, 5 up",
                         "nearest_10_half_down": "nearest 10, 5 down", "nearest_5": "nearest 5"},
    "scoring.litige": {"none": "none", "takers_points_held": "the takers' points held for the next deal",
                       "replay": "the deal dealt again"},
    "scoring.rounding_stage": {"award": "the final award", "before_multiplier": "the award before the multiplier",
                               "card_points": "the card points", "card_points_complement":
                               "the takers' card points; the defenders take the rest"},
    "match.belote_validation_deals": {"failed_or_no_trick": "failed or without a trick",
                                      "no_trick": "without a trick", "any_deal": "any deal"},
    "match.reach": {"reach": "reaching it wins", "exceed": "only going over it wins"},
    "match.both_cross": {"higher_total": "the higher total", "deal_winner": "the deal's winners",
                         "last_deal": "more points in the last deal", "last_taker": "the last deal's takers",
                         "counting_order": "belote, then melds, then tricks"},
    "match.tie": {"play_on": "play on", "deal_winner": "the deal's winners", "north_south": "North-South",
                  "draw": "a draw"},
}

# (true, false) in words; a rule not listed reads "yes" / "no".
BOOL_WORDS: dict[str, tuple[str, str]] = {
    "deal.cut.required": ("required", "may be declined"),
    "auction.strains.sans_atout": ("may be bid", "no"),
    "auction.strains.tout_atout": ("may be bid", "no"),
    "auction.capot.allowed": ("may be bid", "no"),
    "auction.capot.ends_auction": ("ends the auction", "the auction goes on"),
    "auction.capot.may_be_coinched": ("may be coinched", "cannot be coinched"),
    "auction.coinche.partner_may_speak": ("speaks in turn", "must not speak"),
    "auction.generale.allowed": ("may be bid", "not played"),
    "auction.speak_after_pass": ("may bid again", "may only pass"),
    "auction.coinche.allowed": ("allowed", "none"),
    "auction.surcoinche.allowed": ("allowed", "none"),
    "auction.surcoinche.ends_auction": ("ends the auction", "then passes end it"),
    "play.trump_lead_must_overtrump": ("must go over", "any trump"),
    "play.trump_lead_overtrump_partner": ("even over the partner", "over an opponent only"),
    "play.void_partner_winning.may_discard": ("may discard", "must trump"),
    "play.void_partner_winning.trump_must_overtrump": ("a trump must go over", "any trump"),
    "play.void_opponent_winning.must_trump": ("must trump", "may discard"),
    "play.void_opponent_winning.must_overtrump": ("must go over", "any trump"),
    "play.tout_atout_must_go_up": ("must go up", "any card of the suit"),
    "play.sans_atout_must_go_up": ("must go up", "any card of the suit"),
    "melds.enabled": ("played", "not played"),
    "melds.compare.trump_breaks_ties": ("a run in trumps wins", "no preference"),
    "belote.enabled": ("played", "not played"),
    "match.belote_validation": ("a trick in a later deal needed", "no condition"),
    "match.throw_ins_count": ("thrown-in deals count", "thrown-in deals not counted"),
    "match.last_deal_not_failed": ("no win on a failed contract", "may win on a failed contract"),
    "match.last_deal_not_capot_meld": ("no win on a capot + meld", "may win on a capot + meld"),
    "match.last_deal_exact": ("counted exactly", "rounded like any other"),
}


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _number(path: str, value, c: Ctx) -> str:
    """A number rule in words: most are just the number, a few read better with their unit."""
    if path == "auction.bids.maximum":
        return "no ceiling" if value is None else str(value)
    if path == "deal.cut.minimum_packet":
        return f"at least {_count(value, 'card')} each part"
    if path in ("auction.passes_to_end", "auction.coinche.passes_after"):
        return "1 pass" if value == 1 else f"{value} passes"
    if path == "match.target":
        return "none (single deals)" if value is None else str(value)
    if path == "match.deals":
        return "no limit" if value is None else f"{value} deals at most"
    if path == "deal.packets_after_auction":
        return "none" if value is None else f"the last {_count(value, 'packet')}"
    if path in ("auction.max_rounds", "auction.max_bids_per_player"):
        return "no cap" if value is None else f"{_count(value, 'round' if path.endswith('rounds') else 'bid')} at most"
    if path == "auction.coinche.minimum_bid":
        return "any bid" if value is None else f"{value} or more"
    if path in ("auction.coinche.multiplier", "auction.surcoinche.multiplier"):
        return f"×{value}"
    if path == "contract.minimum_total":
        return "no other minimum" if value <= c.rules.auction.bids.minimum else f"at least {value}"
    return str(value)


def leaf_words(path: str, value, c: Ctx) -> str:
    """One rule's value in a few words."""
    if path in ENUM_WORDS:
        words = ENUM_WORDS[path].get(value, str(value).replace("_", " "))
        return words(c) if callable(words) else words
    if isinstance(value, bool):
        yes, no = BOOL_WORDS.get(path, ("yes", "no"))
        return yes if value else no
    if path == "auction.bids.ladder":
        return "the steps" if value is None else " ".join(map(str, value))
    if path == "deal.packets":
        return "-".join(map(str, value))
    if path == "deal.alternative_packets":
        return " or ".join("-".join(map(str, p)) for p in value) or "none"
    if path == "auction.strain_order":
        return " < ".join(value)
    if isinstance(value, str):
        return value.replace("_", " ")
    if value is None or isinstance(value, int):
        return _number(path, value, c)
    return str(value)


def _ranks(values: dict, order: tuple) -> str:
    """A card table without its zeros: J 20, 9 14, A 11, 10 10, K 4, Q 3 (62)."""
    shown = ", ".join(f"{'10' if k == 'T' else k} {values[k]}" for k in order if values[k])
    return f"{shown or 'all 0'} ({sum(values[k] for k in order)})"


def _squares(sq: dict) -> str:
    by_value: dict[int, list[str]] = {}
    for k in PLAIN_ORDER:
        if sq[k]:
            by_value.setdefault(sq[k], []).append("10" if k == "T" else k)
    return ", ".join(f"{' '.join(ks)} {v}" for v, ks in sorted(by_value.items(), reverse=True)) or "none score"


def _sweep(c: Ctx) -> str:
    s = c.rules.card_values.sweep
    total, last = c.rules.card_total("S"), c.rules.card_values.last_trick
    if s.kind == "last_trick_value":
        return f"last trick worth {s.value} ({total + s.value})"      # 152 + 100 = 252
    if s.kind == "bonus":
        return f"+{s.value} ({total + last + s.value})"
    if s.kind == "none":
        return f"no change ({total + last})"
    return f"{s.kind.replace('_', ' ')} {s.value}"


def _base(c: Ctx, award: RuleGroup) -> str:
    base = award.base
    if isinstance(base, RuleGroup):
        text = str(base.suit)
        extra = [f"{base[key]} in {name}" for ok, key, name in ((c.sa, "sans_atout", "SA"), (c.ta, "tout_atout", "TA"))
                 if ok and base[key] != base.suit]
    else:
        text, extra = str(base), []
    if award.base_on_sweep is not None:
        extra.append(f"{award.base_on_sweep} on a sweep")
    return text + (f" ({', '.join(extra)})" if extra else "")


def award_short(c: Ctx, award: RuleGroup, coinched: bool) -> str:
    """An award in a few words: "card points + bid, × bid only"; the multiplier only where it can apply."""
    words = []
    for term in award.terms:
        if term in ("own_melds", "all_melds") and not c.melds:
            continue        # melds are not played: the term adds nothing
        words.append({"card_points": "card points", "bid": "bid", "own_melds": "own melds",
                      "all_melds": "both sides' melds",
                      "sweep_bonus": f"{c.rules.scoring.sweep_bonus} on a sweep"}.get(term)
                     or (_base(c, award) if term == "base" else term.replace("_", " ")))
    if not words:
        return "nothing"
    text = " + ".join(words)
    if coinched:
        how = award.multiplied
        text += {"all": ", all × M", "bid": ", × bid only", "base": ", × base only", "none": ", not multiplied"}.get(how, f", {how}")
    return text


def _outcome(c: Ctx, outcome: str) -> str:
    o = c.rules.scoring[outcome]
    coinched = outcome.startswith("coinched")
    return (f"takers: {award_short(c, o.takers, coinched)}; "
            f"defenders: {award_short(c, o.defenders, coinched)}")


def _capot_made(c: Ctx) -> str:
    o = c.rules.scoring.capot_made
    if o is None:
        return "as any made contract"
    mult = c.rules.auction.capot.may_be_coinched
    return f"takers: {award_short(c, o.takers, mult)}; defenders: {award_short(c, o.defenders, mult)}"


def _capot_failed(c: Ctx) -> str:
    o = c.rules.scoring.capot_failed
    if o is None:
        return "as any failed contract"
    mult = c.rules.auction.capot.may_be_coinched
    return f"takers: {award_short(c, o.takers, mult)}; defenders: {award_short(c, o.defenders, mult)}"


def _bid_factor(c: Ctx) -> str:
    factor = c.rules.scoring.bid_factor
    shown = [f"× {factor[k]} in {name}" for k, name, ok in (("suit", "suits", True), ("sans_atout", "SA", c.sa),
                                                            ("tout_atout", "TA", c.ta)) if ok and factor[k] != 1]
    return ", ".join(shown) or "once"


def _order(order) -> str:
    """card_values.order in a few words: the usual order, or each order, strongest first."""
    if tuple(order.trump) == TRUMP_ORDER and tuple(order.plain) == PLAIN_ORDER:
        return "the usual order"
    shown = [" ".join("10" if k == "T" else k for k in order[g]) for g in ("trump", "plain")]
    return f"trump {shown[0]}; plain {shown[1]}"


def _table_values(group: str, order: tuple):
    return lambda c: _ranks(c.rules.card_values[group], order)


# Rules read as one value from several leaves (a card table, an award pair).
COMPOSED = {
    ("card_values.trump",): _table_values("trump", TRUMP_ORDER),
    ("card_values.plain",): _table_values("plain", PLAIN_ORDER),
    ("card_values.sans_atout",): _table_values("sans_atout", PLAIN_ORDER),
    ("card_values.tout_atout",): _table_values("tout_atout", TRUMP_ORDER),
    ("card_values.sweep",): _sweep,
    ("card_values.order",): lambda c: _order(c.rules.card_values.order),
    ("melds.runs",): lambda c: " / ".join(str(c.rules.melds.runs[n]) for n in ("3", "4", "5")),
    ("melds.squares",): lambda c: _squares(c.rules.melds.squares),
    ("melds.squares_sans_atout",): lambda c: _squares(c.rules.melds.squares_sans_atout or c.rules.melds.squares),
    ("melds.squares_tout_atout",): lambda c: _squares(c.rules.melds.squares_tout_atout or c.rules.melds.squares),
    ("scoring.made",): lambda c: _outcome(c, "made"),
    ("scoring.failed",): lambda c: _outcome(c, "failed"),
    ("scoring.coinched_made",): lambda c: _outcome(c, "coinched_made"),
    ("scoring.coinched_failed",): lambda c: _outcome(c, "coinched_failed"),
    ("scoring.capot_made",): _capot_made,
    ("scoring.capot_failed",): _capot_failed,
    ("scoring.bid_factor",): lambda c: _bid_factor(c),
    ("scoring.bid_scored_as",): lambda c: ", ".join(f"{p.bid} scored {p.scores}" for p in
                                                    c.rules.scoring.bid_scored_as or ()) or "as bid",
}


def _group_of(template: Template) -> tuple[str, ...]:
    """The group its leaves share when a template speaks for several (card_values.trump), else the leaf."""
    if len(template.paths) == 1:
        return (template.paths[0],)
    heads = {p.rsplit(".", 1)[0] for p in template.paths}
    return tuple(sorted(heads)) if len(heads) == 1 else template.paths


def short_value(template: Template, c: Ctx) -> str:
    """The value of one rule (one template's leaves) in a few words, for a table cell."""
    composed = COMPOSED.get(_group_of(template))
    if composed is not None:
        return composed(c)
    return "; ".join(leaf_words(p, c.value(p), c) for p in template.paths)


# --- the rule sets and where their pages are ---------------------------------------------------

def seed_order(variants: list[Variant]) -> list[Variant]:
    """Rule sets in the order of the seed documents they quote (000 first); those quoting none last."""
    def key(v: Variant):
        seeds = sorted(s["seed"] for s in v.document.get("sources", []) if "seed" in s)
        return (0, seeds[0], v.id) if seeds else (1, "", v.id)
    return sorted(variants, key=key)


def seed_variants() -> list[Variant]:
    """The shipped rule sets, each the reading of one seed document."""
    return seed_order([load_variant(i) for i in shipped_ids()])


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's rule) gives a heading: lower case, punctuation dropped."""
    text = heading.strip().lower()
    text = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return text.replace(" ", "-")


def section_anchor(section: str) -> str:
    """The anchor of a section of part 2 ("The rules") on a rules page, numbered as page.py numbers it."""
    for number, (key, heading) in enumerate(SECTIONS, start=1):
        if key == section:
            return slug(f"2.{number} {heading}")
    raise KeyError(section)


def rule_link(ident: str, template: Template) -> str:
    return f"{RULES_FOLDER}/{ident}.md#{section_anchor(template.section)}"


def is_reading(variant: Variant, template: Template) -> bool:
    """Whether one of the rule set's interpretations decides this rule (rather than a seed sentence)."""
    return any(covers(item.get("rules", []), template) for item in variant.document.get("interpretations", []))


# --- the rows -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Cell:
    text: str
    reading: bool
    unused: str | None
    link: str

    def markdown(self) -> str:
        shown = f"— ({self.unused})" if self.unused else self.text
        return f"[{_escape(shown)}]({self.link})" + (" (reading)" if self.reading else "")


@dataclass(frozen=True)
class Row:
    template: Template
    cells: tuple[Cell, ...]
    differs: bool


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("[", "\\[").replace("]", "\\]")


def _leaf_values(ctx: Ctx, template: Template) -> str:
    """The template's leaves as one comparable text (mappings in key order, so order never counts)."""
    return json.dumps([ctx.value(p) for p in template.paths], sort_keys=True)


def _defaulted(ctx: Ctx, template: Template) -> bool:
    """Whether the rule set leaves out every leaf of the template, each an optional rule with a
    schema default (the value its cell then shows, marked "left out")."""
    return all(ctx.rules.left_out(p) == "default" for p in template.paths)


def rows(variants: list[Variant], shared: tuple[str, ...] = KEY_SHARED) -> list[Row]:
    """Every rule on which the rule sets differ, and the listed shared ones, in the order of a deal;
    an optional rule a rule set leaves out reads as its default (variants.compiled.with_defaults)."""
    ctxs = [Ctx(v.rules) for v in variants]
    out = []
    for t in TEMPLATES:
        differs = len({_leaf_values(c, t) for c in ctxs}) > 1
        if not differs and t.key not in shared:
            continue
        cells = tuple(Cell(short_value(t, c) + (" (left out)" if _defaulted(c, t) else ""),
                           is_reading(v, t), t.unused(c), rule_link(v.id, t))
                      for v, c in zip(variants, ctxs))
        out.append(Row(t, cells, differs))
    return out


# --- the page ----------------------------------------------------------------------------------------

def _intro(variants: list[Variant]) -> list[str]:
    out = ["# The seed rule sets compared", "",
           f"The project ships {len(variants)} rule sets, one for each seed document: the rule texts the project "
           "was given (kept in its shared `seeds/` folder, not in this repository). Each rule set, a file in "
           "`variants/`, quotes its seed word for word next to the rules each sentence decides, and where the "
           "seed is silent or can be read two ways it records the reading it takes and the alternative.", "",
           "| seed document | rule set | name |", "|---|---|---|"]
    for v in variants:
        seeds = sorted({s["seed"] for s in v.document.get("sources", []) if "seed" in s})
        where = ", ".join(f"{source_title(s)}, file `{s}`" for s in seeds) or "none"
        out.append(f"| {where} | [`{v.id}`]({RULES_FOLDER}/{v.id}.md) | {_escape(v.document['name'])} |")
    out += ["",
            "Sentences of the seeds that state the frame every rule set shares (four players in two "
            "partnerships, 32 cards, follow suit, the highest trump or else the highest card of the led suit "
            "wins, the winner leads) have no rule and are not recorded.", "",
            "What each rule means to the engine is in [rules-model.md](rules-model.md); every rule a file may "
            "set, with its values, is in [rules-reference.md](rules-reference.md); how a file is written, "
            "`extends` included, in [variants-format.md](variants-format.md).", ""]
    return out


def _table(variants: list[Variant], table_rows: list[Row]) -> list[str]:
    out = ["## Rule by rule", "",
           "A row for every rule on which the rule sets differ, and for a few key rules they share (marked "
           "*shared*). Each cell gives the rule set's value in a few words and links to that rule on its rules "
           "page, where the sentence of the seed or the reading is quoted; **(reading)** marks a value the rule "
           "set takes where its seed is silent or ambiguous. A dash marks a rule the other rules leave unused. "
           "In the award rows M is the multiplier (1, or the coinche or surcoinche multiplier); a belote is "
           "added to its holder's award as the belote rows say.", ""]
    out.append("| rule | " + " | ".join(f"`{v.id}`" for v in variants) + " |")
    out.append("|---|" + "---|" * len(variants))
    headings = dict(SECTIONS)
    section = None
    for row in table_rows:
        if row.template.section != section:
            section = row.template.section
            out.append(f"| **{headings[section]}** |" + " |" * len(variants))
        title = row.template.title + ("" if row.differs else " *(shared)*")
        out.append(f"| {title} | " + " | ".join(c.markdown() for c in row.cells) + " |")
    out.append("")
    return out


def _pages(variants: list[Variant]) -> list[str]:
    out = ["## The rules pages", "",
           "Each rule set has a page of its own: every rule in words with the seed sentence it rests on, worked "
           "examples scored by the reference engine, and the readings it takes.", ""]
    for v in variants:
        n = len(v.document.get("interpretations", []))
        out.append(f"- [`{v.id}`]({RULES_FOLDER}/{v.id}.md): {_escape(v.document['name'])}; "
                   f"{_count(n, 'reading')}.")
    written = [(kind, registry.ids(kind)) for kind in ("published", "implementation")]
    words = {"published": "Published rule books (in `variants/published/`)",
             "implementation": "The rules public programs play (in `variants/implementations/`)"}
    for kind, idents in written:
        if idents:
            out += ["", f"{words[kind]}, each citing its document or program and the readings it takes, have "
                    "pages too: " + ", ".join(f"[`{i}`]({RULES_FOLDER}/{i}.md)" for i in idents) + "."]
    houses = house_ids()
    if houses:
        out += ["", "House rule sets, built on these with `extends` (in `variants/house/`), have pages too: "
                + ", ".join(f"[`{h}`]({RULES_FOLDER}/{h}.md)" for h in houses) + "."]
    out.append("")
    return out


def render_compare(variants: list[Variant] | None = None) -> str:
    """The Markdown comparison page of the seed rule sets (or of the rule sets given, in that order)."""
    if variants is None:
        variants = seed_variants()
    out = _intro(variants) + _table(variants, rows(variants)) + _pages(variants)
    out += ["---", "",
            "Generated by `coinche-spec docs --compare` from the files in `variants/`. Regenerate the page "
            "after changing a rule set."]
    return "\n".join(out).rstrip("\n") + "\n"


__all__ = ["render_compare", "rows", "short_value", "seed_variants", "seed_order", "slug", "section_anchor",
           "ENUM_WORDS", "BOOL_WORDS", "KEY_SHARED"]
