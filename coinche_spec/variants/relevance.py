"""Can this rule matter? One table: rule path -> why the other rules make it moot (or None).

A rule set records every rule, but some cannot change any deal under the
others: the tout atout card values where tout atout cannot be bid, a
surcoinche multiplier where nobody may surcoinche. Every reader that must
know says so from this one table: the rules pages fold such a rule (and say
why), ``variants check`` warns of a house file that sets one, ``variants
diff``, ``compare`` and the house pages leave a difference in one out, and
``conformance --uncovered`` lists it apart (no fixture can pin it down).

Why it lives in ``variants``: whether a rule can matter is a fact about the
rule set, decided from the compiled rules alone; the sentences that say the
rule (``docsgen.templates``) are one of its readers, not its owner. A rule
with no entry can always matter.

Each predicate reads the compiled rules, where every rule is present and an
optional rule left out reads as the value it plays (its schema default).
"""

from __future__ import annotations

import json
from typing import Callable

from .compiled import CompiledRules, compiled_rules, with_defaults, with_unused_filled

__all__ = ["CANNOT_MATTER", "OUTCOMES", "cannot_matter", "leaf_unused", "rule_of", "term_uses", "set_but_moot",
           "moot_difference", "that_can_matter", "full_rules"]

# The outcomes whose awards the scoring lists, in the schema's order of reading.
OUTCOMES = ("made", "coinched_made", "capot_made", "failed", "coinched_failed", "capot_failed")
_NUMERIC_OUTCOMES = ("made", "coinched_made", "failed", "coinched_failed")

# An uncoinched award is multiplied by 1 (a coinched deal is scored under coinched_made or
# coinched_failed, engine.scoring._outcome): what its `multiplied` says can never change a score.
_MULTIPLIER_ONE = ("scoring.made.", "scoring.failed.")

# scoring.rounding: the unit a rounded total is a whole number of
_ROUNDING_UNIT = {"none": 1, "nearest_10_half_up": 10, "nearest_10_half_down": 10, "nearest_5": 5}


def full_rules(rules) -> CompiledRules:
    """The compiled rules: every rule present, an optional one left out at its schema default (or
    None where it has none, such as match.deals)."""
    return compiled_rules(rules)


# --- facts several predicates share ------------------------------------------------------

def _after_auction(r: CompiledRules) -> bool:
    return r.auction.coinche.when == "after_auction"


def _window_after_coinche(r: CompiledRules) -> bool:
    """BGA: the coinche ends the bidding, and the takers may surcoinche before the first card."""
    return r.auction.coinche.effect == "ends_bidding_window" and not _after_auction(r)


def term_uses(rules, term: str, outcomes: tuple = OUTCOMES) -> dict[str, list[str]]:
    """For the takers and the defenders, the outcomes whose award lists ``term``."""
    s = full_rules(rules).scoring
    when: dict[str, list[str]] = {"takers": [], "defenders": []}
    for outcome in outcomes:
        award = getattr(s, outcome)     # an optional award left out: None
        if award is None:
            continue
        for role in when:
            if term in award[role].terms:
                when[role].append(outcome)
    return when


# --- the predicates: None (it can matter) or why it cannot ---------------------------------

def _never_thrown_in(r):
    """Why no deal is ever thrown in: «à la vache», the dealer must bid after three passes."""
    if r.auction.all_pass == "dealer_must_bid":
        return "the dealer must bid when the three others have passed, so no deal is thrown in"
    return None


def _uncut(r):
    """Why the cut and the packets cannot matter: deal.method uniform deals the pack as it lies."""
    return "the pack is dealt as it lies, with no cut and no packets" if r.deal.method == "uniform" else None


def _on_the_ladder(r):
    """Why the step is unused: a ladder lists every value."""
    return "the ladder of bids lists every value that may be bid" if r.auction.bids.ladder else None


def _strain_order_unused(r):
    if r.auction.overcall == "higher_value_or_strain" or r.capot_over_capot:
        return None
    return "bids are compared by value only"


def _not_ta(r):
    return None if r.strain_allowed("TA") else "tout atout cannot be bid"


def _not_sa(r):
    return None if r.strain_allowed("SA") else "sans atout cannot be bid"


def _no_capot(r):
    return None if r.auction.capot.allowed else "capot cannot be bid"


def _no_capot_nor_generale(r):
    """Rules of the capot that the générale follows too: unused only when neither may be bid."""
    return None if r.auction.capot.allowed or r.auction.generale.allowed else "neither capot nor générale can be bid"


def _capot_over_capot_unused(r):
    """capot.overcall_by_capot: moot where no capot may be bid, or where the capot ends the auction."""
    if not r.auction.capot.allowed:
        return "capot cannot be bid"
    if r.auction.capot.ends_auction:
        return "a capot bid ends the auction at once, so no bid can follow it"
    return None


def _no_generale_value(r):
    return None if r.auction.generale.allowed else "the générale is not played"


def _raise_unused(r):
    a = r.auction
    if a.passes_to_end < 4 and a.raise_own_bid != "never_in_a_named_strain":
        return ("with fewer than four passes ending the auction, a bidder's turn never comes back to him "
                "before someone else has bid")
    return None


def _no_coinche(r):
    return None if r.coinche_possible else "nobody may coinche"


def _no_coinche_in_auction(r):
    """auction.coinche.effect: moot where the coinche comes only once the auction has ended."""
    return _no_coinche(r) or ("a coinche comes only after the auction has ended" if _after_auction(r) else None)


def _no_turns_after_coinche(r):
    """The passes after a coinche and whether the coincher's partner speaks: moot where no turn follows it."""
    return _no_coinche(r) or ("a coinche comes only after the auction has ended" if _after_auction(r) else
                              "a coinche ends the auction at once" if r.coinche_ends_auction
                              or _window_after_coinche(r) else None)


def _passes_after_unused(r):
    """auction.coinche.passes_after: moot where no turn follows the coinche, or the taker's pass ends it."""
    return _no_turns_after_coinche(r) or ("the taker's pass ends the auction after a coinche, whatever the count"
                                          if r.auction.coinche.ended_by == "taker_pass" else None)


def _surcoinche_unused(r):
    return _no_coinche(r) or ("a coinche ends the auction at once, so the takers never get to surcoinche"
                              if r.coinche_ends_auction else None)


def _no_surcoinche(r):
    reason = _no_coinche(r)
    if reason:
        return reason
    if r.coinche_ends_auction:
        return "a coinche ends the auction at once, so the takers never get to surcoinche"
    return None if r.auction.surcoinche.allowed else "there is no surcoinche"


def _surcoinche_ends_unused(r):
    reason = _no_surcoinche(r)
    if reason:
        return reason
    if _after_auction(r) or _window_after_coinche(r):
        return "a surcoinche comes after the bidding and closes the coinche window before the first card"
    return None


def _no_generale_lead(r):
    return None if r.auction.generale.allowed else "a générale cannot be bid"


def _no_trump_lead_duty(r):
    return None if r.play.trump_lead_must_overtrump else "nobody need go up on a trump lead"


def _partner_rules_unused(r):
    if r.play.void_partner_winning.may_discard:
        return None
    return "a player void in the led suit must trump even when his partner wins, as against an opponent"


def _cannot_overtrump_unused(r):
    v = r.play.void_opponent_winning
    if not v.must_trump:
        return "a player who cannot follow suit is never obliged to trump"
    if not v.must_overtrump:
        return "a player never has to beat a trump already played, so any trump will do"
    return None


def _no_scale(r):
    return None if r.strain_allowed("SA") or r.strain_allowed("TA") else "neither sans atout nor tout atout can be bid"


def _no_melds(r):
    return None if r.melds.enabled else "melds are not played"


def _no_belote(r):
    return None if r.belote.enabled else "belote is not played"


def _counts_as_unused(r):
    """belote.counts_as changes an outcome only where a total is compared with the other side's
    (contract.versus_defenders, a litige), or where a rounded total is judged and the belote is not a
    whole number of the rounding's unit."""
    if not r.belote.enabled:
        return "belote is not played"
    if not r.belote.counts_towards_contract:
        return "the belote does not count towards the contract"
    if r.contract.versus_defenders != "ignore" or (r.scoring.litige or "none") != "none":
        return None
    unit = _ROUNDING_UNIT.get(r.scoring.rounding, 1)
    if r.contract.judged_on == "rounded_points" and r.belote.points % unit:
        return None
    return ("the takers' total is never compared with the defenders' (versus_defenders ignore, no litige): "
            "a belote added to it or taken off the target makes and fails the same contracts")


def _not_rounded(r):
    return None if r.scoring.rounding != "none" else "scores are not rounded"


def _played_outcomes(r, outcomes: tuple) -> tuple:
    """The outcomes among ``outcomes`` that a deal can reach: a coinched award only where a coinche
    is possible, a capot award (when given) only where a capot or a générale may be bid."""
    capot = r.auction.capot.allowed or r.auction.generale.allowed
    return tuple(o for o in outcomes if (r.coinche_possible or not o.startswith("coinched"))
                 and (capot or not o.startswith("capot")))


def _bid_scored_as_unused(r):
    """scoring.bid_scored_as changes what the bid term counts for a numeric bid: it cannot matter where no
    award a numeric bid can get (made, failed; coinched ones where a coinche is possible) counts the bid (a
    capot's awards count the capot's value)."""
    if any(term_uses(r, "bid", _played_outcomes(r, _NUMERIC_OUTCOMES)).values()):
        return None
    return "no award of a numeric bid counts the bid"


def _bid_factor_unused(r):
    """scoring.bid_factor multiplies what the bid term counts (a capot's or a générale's value too): it
    cannot matter where no award a deal can get counts the bid."""
    if any(term_uses(r, "bid", _played_outcomes(r, OUTCOMES)).values()):
        return None
    return "no award counts the bid"


# Rules said per kind of contract in one sentence: one kind's value cannot matter where that kind
# cannot be bid, though the rule itself can (a sans atout bid factor in a suits-only rule set).
_PER_KIND_LEAVES = frozenset(f"scoring.{rule}.{kind}" for rule in ("bid_factor", "rounding_up_from")
                             for kind in ("sans_atout", "tout_atout"))


def leaf_unused(rules, path: str) -> str | None:
    """Why one kind's value of a rule said per kind of contract (scoring.bid_factor,
    scoring.rounding_up_from) cannot matter: that kind of contract cannot be bid. None otherwise."""
    if path not in _PER_KIND_LEAVES:
        return None
    r = full_rules(rules)
    return _not_sa(r) if path.endswith(".sans_atout") else _not_ta(r)


def _sweep_bonus_unused(r):
    return None if any(term_uses(r, "sweep_bonus").values()) else "no award counts it"


def _sweep_melds_unused(r):
    """scoring.sweep_takes_melds moves melds between the sides: it changes a score only where an
    award counts a side's own melds (all_melds counts both sides' whoever holds them)."""
    if not r.melds.enabled:
        return "melds are not played"
    if not any(term_uses(r, "own_melds").values()):
        return ("no award counts a side's own melds (all_melds counts both sides' whoever holds them), "
                "so whose melds they are changes no score")
    return None


def _not_rounded_to_tens(r):
    return None if r.scoring.rounding in ("nearest_10_half_up", "nearest_10_half_down") else \
        "scores are not rounded to tens"


def _no_target(r):
    """Why reaching the target cannot matter: match.target null, so no total ever reaches one (single
    deals, or a match of ``deals`` won by the higher total after the last)."""
    m = r.match
    if m.target is not None:
        return None
    deals = m.deals
    if deals is None:
        return "there is no target and no set number of deals (single deals)"
    return f"there is no target: the match ends after {deals} deal{'' if deals == 1 else 's'}, won by the higher total"


def _single_deals(r):
    """Why a rule of the match's end cannot matter: no target and no set number of deals."""
    return _no_target(r) if r.match.deals is None else None


def _tie_unused(r):
    m = r.match
    if _single_deals(r):
        return _single_deals(r)
    # the both-cross rules that may come to equal points: the totals, the deal's points, a counting stage
    if m.both_cross in ("higher_total", "last_deal", "counting_order") or m.deals is not None:
        return None
    return {"deal_winner": "when both sides cross, the deal's winners win whatever the totals",
            "last_taker": "when both sides cross, the last deal's takers win whatever the totals"}[m.both_cross]


def _no_belote_condition(r):
    return _no_target(r) or (None if r.match.belote_validation else "there is no condition on a belote")


def _last_deal_exact_unused(r):
    return "scores are not rounded" if r.scoring.rounding == "none" else _single_deals(r)


def _throw_ins_count_unused(r):
    return _never_thrown_in(r) or (None if r.match.deals is not None
                                   else "the match has no set number of deals")


# Rule path (a leaf, or the group of the leaves one sentence says together: a card table) -> why it
# cannot matter. In the rules pages' order: a path naming a group of several rules (rare: a null
# written for a group) reads as the first rule under it. A rule not listed can always matter.
CANNOT_MATTER: dict[str, Callable[[CompiledRules], str | None]] = {
    "table.dealer_after_throw_in": _never_thrown_in,
    "deal.cut.by": _uncut,
    "deal.cut.minimum_packet": _uncut,
    "deal.cut.required": _uncut,
    "deal.packets": _uncut,
    "deal.alternative_packets": _uncut,
    "auction.bids.step": _on_the_ladder,
    "auction.strain_order": _strain_order_unused,
    "auction.capot.value": _no_capot,
    "auction.capot.overcall_by_capot": _capot_over_capot_unused,
    "auction.capot.ends_auction": _no_capot_nor_generale,
    "auction.capot.may_be_coinched": _no_capot_nor_generale,
    "auction.generale.value": _no_generale_value,
    "auction.raise_own_bid": _raise_unused,
    "auction.coinche.by": _no_coinche,
    "auction.coinche.minimum_bid": _no_coinche,
    "auction.coinche.when": _no_coinche,
    "auction.coinche.effect": _no_coinche_in_auction,
    "auction.coinche.passes_after": _passes_after_unused,
    "auction.coinche.ended_by": _no_turns_after_coinche,
    "auction.coinche.partner_may_speak": _no_turns_after_coinche,
    "auction.coinche.multiplier": _no_coinche,
    "auction.surcoinche.allowed": _surcoinche_unused,
    "auction.surcoinche.by": _no_surcoinche,
    "auction.surcoinche.ends_auction": _surcoinche_ends_unused,
    "auction.surcoinche.multiplier": _no_surcoinche,
    "play.first_leader_generale": _no_generale_lead,
    "play.generale_partner": _no_generale_lead,
    "play.trump_lead_overtrump_partner": _no_trump_lead_duty,
    "play.void_partner_winning.trump_must_overtrump": _partner_rules_unused,
    "play.cannot_overtrump": _cannot_overtrump_unused,
    "play.partner_cut_only_trumps": _partner_rules_unused,
    "play.tout_atout_must_go_up": _not_ta,
    "play.sans_atout_must_go_up": _not_sa,
    "card_values.sans_atout": _not_sa,
    "card_values.tout_atout": _not_ta,
    "card_values.scale": _no_scale,
    "melds.runs": _no_melds,
    "melds.long_runs": _no_melds,
    "melds.run_order": _no_melds,
    "melds.squares": _no_melds,
    "melds.squares_sans_atout": lambda r: _no_melds(r) or _not_sa(r),
    "melds.squares_tout_atout": lambda r: _no_melds(r) or _not_ta(r),
    "melds.card_reuse": _no_melds,
    "melds.compare.trump_breaks_ties": _no_melds,
    "melds.compare.equal": _no_melds,
    "melds.winner_scores": _no_melds,
    "melds.sides_scoring": _no_melds,
    "melds.sevens_cancel": _no_melds,
    "melds.timing": _no_melds,
    "melds.count_towards_contract": _no_melds,
    "belote.points": _no_belote,
    "belote.claim": _no_belote,
    "belote.in_run": lambda r: _no_belote(r) or _no_melds(r),
    "belote.counts_towards_contract": _no_belote,
    "belote.counts_as": _counts_as_unused,
    "belote.on_failure": _no_belote,
    "belote.placement": _no_belote,
    "belote.multiplied": _no_belote,
    "belote.tout_atout": lambda r: _no_belote(r) or _not_ta(r),
    "contract.judged_on": _not_rounded,
    "scoring.capot_made": _no_capot_nor_generale,
    "scoring.capot_failed": _no_capot_nor_generale,
    "scoring.bid_factor": _bid_factor_unused,
    "scoring.bid_scored_as": _bid_scored_as_unused,
    "scoring.sweep_bonus": _sweep_bonus_unused,
    "scoring.sweep_takes_melds": _sweep_melds_unused,
    "scoring.rounding_up_from": _not_rounded_to_tens,
    "scoring.rounding_stage": lambda r: "scores are not rounded" if r.scoring.rounding == "none" else None,
    "match.reach": _no_target,
    "match.both_cross": _no_target,
    "match.tie": _tie_unused,
    "match.belote_validation_deals": _no_belote_condition,
    "match.last_deal_needs_a_trick": _no_target,
    "match.last_deal_not_failed": _no_target,
    "match.last_deal_not_capot_meld": lambda r: _no_target(r) or (None if r.melds.enabled else "there are no melds"),
    "match.last_deal_exact": _last_deal_exact_unused,
    "match.throw_ins_count": _throw_ins_count_unused,
    "match.belote_validation": _no_target,
}


def rule_of(path: str) -> str | None:
    """The table's entry for a rule path: the rule itself, the rule a part belongs to, or the first
    rule of a group; None when the rule can always matter."""
    for key in CANNOT_MATTER:
        if path == key or path.startswith(key + ".") or key.startswith(path + "."):
            return key
    return None


def cannot_matter(rules, path: str) -> str | None:
    """Why the rule at ``path`` cannot change any deal under ``rules`` (a rules dict, Rules, Variant
    or compiled rules), or None when it can."""
    key = rule_of(path)
    why = CANNOT_MATTER[key](full_rules(rules)) if key is not None else None
    return why or leaf_unused(rules, path)


def _flatten(rules: dict, prefix: str = "") -> list[str]:
    """The rule paths a rules block writes; an award (a mapping with `terms`) is one rule."""
    out = []
    for key, value in rules.items():
        path = f"{prefix}.{key}" if prefix else key
        out += _flatten(value, path) if isinstance(value, dict) and "terms" not in value else [path]
    return out


def set_but_moot(rules: dict, written: dict) -> list[tuple[str, str]]:
    """(path, why) for each rule a file sets itself (``written``: its own `rules` block) that cannot
    matter under the resolved ``rules``: a house file's slip, since setting it changes no deal.

    One entry per rule of the table, at what the file writes of it (the whole sans atout table, or
    the one value of it given): ``variants check`` warns of each and the house pages name them apart."""
    by_rule: dict[str, list[str]] = {}
    for path in _flatten(written):
        key = rule_of(path)
        if key is not None:
            by_rule.setdefault(key, []).append(path)
    out = []
    for key, paths in by_rule.items():
        why = CANNOT_MATTER[key](full_rules(rules))
        if not why:     # the rule matters, but one kind's value of it may not (a sans atout factor, suits only)
            out.extend((p, leaf_unused(rules, p)) for p in paths if leaf_unused(rules, p))
            continue
        if why:
            shared = []
            for parts in zip(*(p.split(".") for p in paths)):
                if len(set(parts)) > 1:
                    break
                shared.append(parts[0])
            out.append((".".join(shared) or paths[0], why))
    return out


def _value_at(rules: dict, path: str):
    node = rules
    for key in path.split("."):
        if node is None:
            return None
        node = node.get(key)
    return node


def _comparable(path: str, value):
    """The value with its moot leaves taken out: the `multiplied` of an uncoinched award."""
    if path.startswith(_MULTIPLIER_ONE) and isinstance(value, dict):
        return {k: v for k, v in value.items() if k != "multiplied"}
    return value


def moot_difference(paths, rule_sets: list, names: list) -> str | None:
    """Why a difference in the rules at ``paths`` between rule sets (``rule_sets``: one rules dict
    each, ``names`` for the message) cannot matter, or None: the rule cannot matter under one of
    them, or the values differ only in what multiplies an uncoinched award (always x1)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    for name, rules in zip(names, rule_sets):
        why = cannot_matter(rules, paths[0])
        if why:
            return f"unused under {name} ({why})"
    seen = {json.dumps([_comparable(p, _value_at(with_unused_filled(with_defaults(rules)), p)) for p in paths],
                       sort_keys=True) for rules in rule_sets}
    if len(seen) == 1:
        return "differs only in what multiplies an uncoinched award (always x1)"
    return None


def that_can_matter(left: dict, right: dict, diffs: list, names: list) -> tuple[list, list[tuple[str, str]]]:
    """``variants diff``'s differences (variants.diff.RuleDifference) split into those that can
    matter and (path, why) for those left out, by the same test as the pages and ``compare``."""
    rule_sets = [left["rules"], right["rules"]]
    kept, left_out = [], []
    for d in diffs:
        why = moot_difference(d.path, rule_sets, names)
        if why:
            left_out.append((d.path, why))
        else:
            kept.append(d)
    return kept, left_out
