"""Checks that the schema cannot express: rules that must agree with each other.

The schema checks each rule alone (a packet is 1 to 8 cards); here we check
that they make one playable game together: a rule left out is one no deal can
use (a sans atout table where sans atout cannot be bid), the packets deal eight cards, the
highest bid is a bid one can make, the strain order names every strain the
auction allows, a surcoinche multiplies more than the coinche it answers, an
award that adds `base` says how much, and every rule a quote or an
interpretation claims to justify exists. Each finding names the rule path it
is about, so the loader can point at the line.

``check(document)`` expects a document the schema has already accepted (``guarded``:
one it refused, checked as far as it can be). ``warnings(document)`` finds what is
allowed but most likely a slip (card tables that do not add up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .compiled import compiled_rules, unused_left_out, with_defaults

OUTCOMES = ("made", "failed", "coinched_made", "coinched_failed", "capot_made", "capot_failed")
SIDES = ("takers", "defenders")


@dataclass(frozen=True)
class Finding:
    """One disagreement between rules: the path it is about and what is wrong."""

    path: tuple
    message: str
    at_key: bool = False  # point at the key (a missing part) rather than the value
    about: tuple = ()     # the rule a finding is about when it points elsewhere (a quote's rule path)
    involves: tuple = ()  # the other rules (full paths) it rests on: the loader names a house file's
    #                       setting of one of them when the finding points into the file it extends


def rule_path_exists(rules: Any, dotted: str) -> bool:
    """Whether ``auction.coinche.when`` names a rule (or a group of rules) in ``rules``."""
    node = rules
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def _closest_existing(rules: Any, dotted: str) -> str:
    """The longest prefix of a dotted path that exists, for the message."""
    node, good = rules, []
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            break
        good.append(part)
        node = node[part]
    if not good:
        return "rules has " + ", ".join(rules) if isinstance(rules, dict) else ""
    where = ".".join(good)
    if isinstance(node, dict):
        return f"{where} has " + ", ".join(str(k) for k in node)
    return f"{where} is a single rule"


def check(document: dict, guarded: bool = False) -> list[Finding]:
    """Every disagreement found, in the order of the document.

    ``guarded``: the schema has refused something in the document, so a check may meet a
    value of the wrong type or a missing rule; such a check says nothing (the schema's line
    already says what is wrong) and the others still run, so that one pass reports every
    problem of a file. Unguarded, a check that fails is a bug and raises."""
    out: list[Finding] = []
    for one in CHECKS:
        if not guarded:
            one(document, out)
            continue
        mark = len(out)
        try:
            one(document, out)
        except (TypeError, KeyError, AttributeError, ValueError, IndexError, ZeroDivisionError):
            del out[mark:]  # what it found before it stumbled may rest on the refused value too
    return out


def _deal(document: dict, out: list) -> None:
    """Every player receives eight cards."""
    rules = document.get("rules", {})
    R = ("rules",)
    deal = rules.get("deal", {})
    if "packets" not in deal:
        return  # left out: _needed_rules says whether it may be
    packets = deal["packets"]
    if sum(packets) != 8:
        out.append(Finding(R + ("deal", "packets"),
                           f"packets add up to {sum(packets)} ({' + '.join(map(str, packets))}), "
                           "not 8: each player receives eight cards"))
    for i, alt in enumerate(deal.get("alternative_packets", [])):
        if sum(alt) != 8:
            out.append(Finding(R + ("deal", "alternative_packets", i),
                               f"packets add up to {sum(alt)} ({' + '.join(map(str, alt))}), "
                               "not 8: each player receives eight cards"))
        elif list(alt) == list(packets):
            out.append(Finding(R + ("deal", "alternative_packets", i),
                               f"{list(alt)} is the usual order (deal.packets), not an alternative",
                               involves=(R + ("deal", "packets"),)))
    after = deal.get("packets_after_auction")
    if isinstance(after, int):
        for where, sizes in [(("packets",), packets)] + [(("alternative_packets", i), alt)
                                                          for i, alt in enumerate(deal.get("alternative_packets", []))]:
            if after >= len(sizes):
                out.append(Finding(R + ("deal", "packets_after_auction"),
                                   f"{after} packets after the auction leave none before it in "
                                   f"{'-'.join(map(str, sizes))} (deal.{'.'.join(map(str, where))}): the players "
                                   "must see a packet to bid", involves=(R + ("deal",) + where,)))


# rules a file may leave out where no deal can use them (compiled.unused_left_out), and what uses them
_SA = ("sans atout may be bid (auction.strains.sans_atout is true)", ("auction", "strains", "sans_atout"))
_TA = ("tout atout may be bid (auction.strains.tout_atout is true)", ("auction", "strains", "tout_atout"))
_PACKETS = ("the pack is cut and dealt in packets (deal.method is packets, or left out)", ("deal", "method"))
_WHEN_USED = {  # (why, the rule that makes it used)
    ("card_values", "sans_atout"): _SA, ("play", "sans_atout_must_go_up"): _SA,
    ("card_values", "tout_atout"): _TA, ("play", "tout_atout_must_go_up"): _TA, ("belote", "tout_atout"): _TA,
    ("auction", "strain_order"): ("a bid may overcall by strain (auction.overcall is higher_value_or_strain, or "
                                  "auction.capot.overcall_by_capot is higher_strain where a capot bid does not end "
                                  "the auction)", ("auction", "overcall")),
    ("deal", "cut"): _PACKETS, ("deal", "packets"): _PACKETS, ("deal", "alternative_packets"): _PACKETS,
}
_MELD_RULES = ("runs", "long_runs", "run_order", "squares", "card_reuse", "compare", "winner_scores", "timing",
               "count_towards_contract")


def _needed_rules(document: dict, out: list) -> None:
    """A rule left out must be one no deal can use: a sans atout table only where sans atout cannot be bid."""
    rules = document.get("rules", {})
    unused = unused_left_out(rules)
    needed = dict(_WHEN_USED)
    needed.update({("melds", k): ("melds are played (melds.enabled is true)", ("melds", "enabled"))
                   for k in _MELD_RULES})
    for (group, key), (why, because) in needed.items():
        have = rules.get(group)
        if not isinstance(have, dict) or key in have or key in unused.get(group, {}):
            continue
        out.append(Finding(("rules", group), f"missing rule '{key}': it is needed because {why}; only a rule "
                                             "set that cannot use it may leave it out", at_key=True,
                           involves=(("rules",) + because,)))


def _rounding_up_from(document: dict, out: list) -> None:
    """scoring.rounding_up_from gives a threshold for every kind of contract that may be bid."""
    rules = document.get("rules", {})
    up = rules.get("scoring", {}).get("rounding_up_from")
    if not isinstance(up, dict):
        return
    where = ("rules", "scoring", "rounding_up_from")
    unused = unused_left_out(rules).get("scoring", {}).get("rounding_up_from", {})
    for kind, words in (("sans_atout", "sans atout"), ("tout_atout", "tout atout")):
        if kind not in up and kind not in unused:
            out.append(Finding(where, f"missing rule '{kind}': it is needed because {words} may be bid "
                                      f"(auction.strains.{kind} is true); only a rule set that cannot bid it "
                                      "may leave it out", at_key=True, involves=(("rules", "auction", "strains", kind),)))


def _bids(document: dict, out: list) -> None:
    """The highest bid is a bid one can make."""
    rules = document.get("rules", {})
    R = ("rules",)
    auction = rules.get("auction", {})
    bids = auction.get("bids", {})
    lo, step, hi = bids.get("minimum"), bids.get("step"), bids.get("maximum")
    if isinstance(lo, int) and isinstance(hi, int):
        if hi < lo:
            out.append(Finding(R + ("auction", "bids", "maximum"),
                               f"the highest bid {hi} is below the lowest bid {lo}",
                               involves=(R + ("auction", "bids", "minimum"),)))
        elif isinstance(step, int) and step > 0 and (hi - lo) % step and bids.get("ladder") is None:
            out.append(Finding(R + ("auction", "bids", "maximum"),
                               f"the highest bid {hi} cannot be bid: bids are {lo} plus a multiple of {step}",
                               involves=(R + ("auction", "bids", "minimum"), R + ("auction", "bids", "step"))))



def _ladder(document: dict, out: list) -> None:
    """A ladder of bids goes up, from the lowest bid to the highest."""
    R = ("rules",)
    bids = document.get("rules", {}).get("auction", {}).get("bids", {})
    lo, hi, ladder = bids.get("minimum"), bids.get("maximum"), bids.get("ladder")
    if not (isinstance(ladder, list) and ladder and all(isinstance(v, int) for v in ladder)):
        return
    if not all(a < b for a, b in zip(ladder, ladder[1:])):
        out.append(Finding(R + ("auction", "bids", "ladder"),
                           "the ladder of bids must go up: each value above the one before it"))
    if isinstance(lo, int) and ladder[0] != lo:
        out.append(Finding(R + ("auction", "bids", "minimum"),
                           f"the lowest bid {lo} is not the first value of the ladder ({ladder[0]})",
                           involves=(R + ("auction", "bids", "ladder"),)))
    if hi != ladder[-1]:
        out.append(Finding(R + ("auction", "bids", "maximum"),
                           f"the highest bid {hi} is not the last value of the ladder ({ladder[-1]})",
                           involves=(R + ("auction", "bids", "ladder"),)))

def _bid_scores(document: dict, out: list) -> None:
    """A bid scored as another value (scoring.bid_scored_as) is a numeric bid of the rule set, listed once."""
    rules = document.get("rules", {})
    pairs = rules.get("scoring", {}).get("bid_scored_as")
    if not isinstance(pairs, list):
        return
    c = compiled_rules(rules)       # whether a number is a bid: the auction's own answer
    seen: dict = {}
    for i, pair in enumerate(pairs):
        bid = pair.get("bid") if isinstance(pair, dict) else None
        if not isinstance(bid, int):
            continue
        where = ("rules", "scoring", "bid_scored_as", i, "bid")
        fault = c.bid_fault(bid)
        if fault is not None:
            out.append(Finding(where, f"{bid} is not a numeric bid of this rule set ({fault}): it can never "
                                      "be scored as another value"))
        if bid in seen:
            out.append(Finding(where, f"bid {bid} is already listed at bid_scored_as[{seen[bid]}]"))
        else:
            seen[bid] = i


def _strain_order(document: dict, out: list) -> None:
    """The strain order ranks exactly the strains that may be bid."""
    rules = document.get("rules", {})
    R = ("rules",)
    auction = rules.get("auction", {})
    if "strain_order" not in auction:
        return  # left out: _needed_rules says whether it may be
    order = list(auction.get("strain_order", []))
    c = compiled_rules(rules)       # the facts the engine, the protocol and the rules pages read too
    wanted = list(c.strains)
    missing = [s for s in wanted if s not in order]
    extra = [s for s in order if s not in wanted]
    strains = (R + ("auction", "strains", "tout_atout"), R + ("auction", "strains", "sans_atout"))
    if missing:
        out.append(Finding(R + ("auction", "strain_order"),
                           f"strain_order lacks {', '.join(missing)}: it must rank every strain "
                           "the auction allows (the four suits" + (", TA" if "TA" in wanted else "")
                           + (", SA" if "SA" in wanted else "") + ")", involves=strains))
    for s in extra:
        flag = "tout_atout" if s == "TA" else "sans_atout"
        out.append(Finding(R + ("auction", "strain_order"),
                           f"strain_order lists {s} but auction.strains.{flag} is false",
                           involves=(R + ("auction", "strains", flag),)))


def _multipliers(document: dict, out: list) -> None:
    """A surcoinche multiplies more than the coinche it answers."""
    auction = document.get("rules", {}).get("auction", {})
    R = ("rules",)
    coinche = auction.get("coinche", {})
    sur = auction.get("surcoinche", {})
    if sur.get("allowed") and isinstance(sur.get("multiplier"), int) and isinstance(coinche.get("multiplier"), int):
        if sur["multiplier"] <= coinche["multiplier"]:
            out.append(Finding(R + ("auction", "surcoinche", "multiplier"),
                               f"a surcoinche multiplies by {sur['multiplier']}, not more than the coinche "
                               f"it answers (x{coinche['multiplier']})",
                               involves=(R + ("auction", "coinche", "multiplier"),
                                         R + ("auction", "surcoinche", "allowed"))))


def _capot_awards(document: dict, out: list) -> None:
    """A capot award needs a capot (or générale) bid to apply."""
    rules = document.get("rules", {})
    R = ("rules",)
    c = compiled_rules(rules)
    scoring = rules.get("scoring", {})
    for name in ("capot_made", "capot_failed"):
        if not c.capot_or_generale and scoring.get(name) is not None:
            out.append(Finding(R + ("scoring", name),
                               f"{name} is given but neither a capot nor a générale may be bid: it can never apply",
                               involves=(R + ("auction", "capot", "allowed"), R + ("auction", "generale", "allowed"))))


def _awards(document: dict, out: list) -> None:
    """Each award's terms agree with its amounts."""
    rules = document.get("rules", {})
    R = ("rules",)
    scoring = rules.get("scoring", {})
    strains = rules.get("auction", {}).get("strains", {})
    uses_sweep_bonus = False
    for outcome in OUTCOMES:
        block = scoring.get(outcome)
        if not isinstance(block, dict):
            continue
        for side in SIDES:
            award = block.get(side)
            if not isinstance(award, dict):
                continue
            where = R + ("scoring", outcome, side)
            terms = list(award.get("terms", []))
            if "sweep_bonus" in terms:
                uses_sweep_bonus = True
            if "base" in terms and "base" not in award:
                out.append(Finding(where, "the term 'base' needs a `base` amount in this award", at_key=True))
            base = award.get("base")
            if isinstance(base, dict):
                needed = ["suit"]
                if strains.get("sans_atout"):
                    needed.append("sans_atout")
                if strains.get("tout_atout"):
                    needed.append("tout_atout")
                for kind in needed:
                    if kind not in base:
                        out.append(Finding(where + ("base",),
                                           f"base gives no amount for {kind} contracts, which the auction allows",
                                           at_key=True, involves=(R + ("auction", "strains", kind),)))
            if "own_melds" in terms and "all_melds" in terms:
                out.append(Finding(where + ("terms",),
                                   "own_melds and all_melds together count this side's melds twice"))
            if award.get("multiplied") == "bid" and "bid" not in terms:
                out.append(Finding(where + ("multiplied",),
                                   "multiplied: bid, but this award has no 'bid' term to multiply"))
    bonus = scoring.get("sweep_bonus")
    if isinstance(bonus, int) and bonus > 0 and not uses_sweep_bonus:
        out.append(Finding(R + ("scoring", "sweep_bonus"),
                           f"sweep_bonus is {bonus} but no award has the 'sweep_bonus' term"))


def _source_kinds(document: dict, out: list) -> None:
    """Each source is one kind: a document, a program or a house decision, with that kind's fields."""
    from ..sources import KIND_FIELDS, KIND_NEEDS, source_kinds

    for i, entry in enumerate(document.get("sources", []) or []):
        if not isinstance(entry, dict):
            continue
        kinds = source_kinds(entry)
        where = ("sources", i)
        if len(kinds) > 1:
            mixed = "; ".join(f"{k}: {', '.join(n for n in KIND_FIELDS[k] if n in entry)}" for k in kinds)
            out.append(Finding(where, f"a source is a document, a program or a house decision, not several ({mixed})"))
            continue
        kind = kinds[0] if kinds else "document"
        for group in KIND_NEEDS[kind]:
            if not any(n in entry for n in group):
                names = " or ".join(f"`{n}`" for n in group)
                out.append(Finding(where, f"a {kind} source needs {names}"
                                          + (" (a document: `seed` for a registered name, `document` for a title)"
                                             if group == ("seed", "document") else ""), at_key=True))
        if "seed" in entry and "document" in entry:
            out.append(Finding(where + ("document",), "give `seed` (a registered name) or `document` (a title), "
                                                      "not both"))


def _provenance(document: dict, out: list) -> None:
    """Quotes and readings point at real rules; interpretation ids are unique; the status agrees."""
    rules = document.get("rules", {})
    if not isinstance(rules, dict):
        raise TypeError("rules is not a mapping")  # the schema says so; no rule path can be judged
    # an optional rule left out is played at its left-out value, which a quote or a reading may state
    # (seed 001 names no capot over a capot: auction.capot.overcall_by_capot, left out: never)
    played = with_defaults(rules)
    for group in ("sources", "interpretations"):
        for i, entry in enumerate(document.get(group, []) or []):
            if not isinstance(entry, dict):
                continue
            for j, dotted in enumerate(entry.get("rules", []) or []):
                if isinstance(dotted, str) and not rule_path_exists(played, dotted):
                    out.append(Finding((group, i, "rules", j),
                                       f"no rule '{dotted}' ({_closest_existing(rules, dotted)})",
                                       about=("rules",) + tuple(dotted.split("."))))
    seen: dict[str, int] = {}
    for i, entry in enumerate(document.get("interpretations", []) or []):
        ident = entry.get("id") if isinstance(entry, dict) else None
        if ident is None:
            continue
        if ident in seen:
            out.append(Finding(("interpretations", i, "id"),
                               f"interpretation id '{ident}' is already used by interpretations[{seen[ident]}]"))
        else:
            seen[ident] = i

    status = document.get("status")
    interpretations = document.get("interpretations", []) or []
    if status == "described" and interpretations:
        out.append(Finding(("status",), "status is 'described' (every rule stated by the sources) "
                           f"but {len(interpretations)} interpretation(s) are listed: use 'interpreted'"))


CHECKS = (_needed_rules, _deal, _rounding_up_from, _bids, _ladder, _strain_order, _multipliers, _bid_scores, _capot_awards, _awards, _source_kinds,
          _provenance)  # in the order of the document


# --- warnings: what is allowed but probably a slip ---------------------------

USUAL_TOTALS = {"suit": (152,), "sans_atout": (152,), "tout_atout": (152, 248)}  # a deal's cards, no last trick
_KIND_WORDS = {"suit": "a suit contract", "sans_atout": "sans atout", "tout_atout": "tout atout"}


def warnings(document: dict) -> list[Finding]:
    """What the rules allow but a writer most likely did not mean: card tables that do not add up.

    A deal's cards in tricks add up to the rule set's declared total (``card_totals``), else to
    what its scale divides by (``card_values.scale.*.per``), else to the usual 152 (tout atout:
    152 or 248). The FFB text's sans atout table, its jack at 0, adds up to 144 (154 with the last
    trick), not 152 (162): a typo most likely, which a warning shows and the writer confirms by
    declaring the total. Only the tables of contracts the auction allows are added up."""
    out: list[Finding] = []
    rules = document.get("rules", {})
    values = rules.get("card_values", {})
    strains = rules.get("auction", {}).get("strains", {})
    declared = document.get("card_totals") or {}
    scale = values.get("scale") or {}
    last = values.get("last_trick", 0)
    kinds = ["suit"] + [k for k in ("sans_atout", "tout_atout") if strains.get(k)]
    for kind in kinds:
        tables = [values.get("trump"), values.get("plain")] if kind == "suit" else [values.get(kind)]
        if not all(isinstance(t, dict) for t in tables):
            continue  # not given (a suits-only rule set needs no sans atout table): nothing to add up
        per_suit = [sum(v for v in t.values() if isinstance(v, int)) for t in tables]
        total = per_suit[0] + 3 * per_suit[1] if kind == "suit" else 4 * per_suit[0]
        if kind in declared:
            wanted, why = (declared[kind],), "card_totals." + kind
        elif isinstance(scale.get(kind), dict) and isinstance(scale[kind].get("per"), int):
            per = scale[kind]["per"]
            wanted = (per - last if scale.get("applies_to") == "card_points" else per,)
            why = f"card_values.scale.{kind}.per"
        else:
            wanted, why = USUAL_TOTALS[kind], "the usual total"
        if total in wanted:
            continue
        path = ("rules", "card_values", "trump" if kind == "suit" else kind)
        each = (f"trump {per_suit[0]} + 3 x plain {per_suit[1]}" if kind == "suit"
                else f"4 x {per_suit[0]} a suit")
        expected = " or ".join(f"{w} ({w + last} with the last trick)" for w in wanted)
        fix = (f"check the table or card_totals.{kind}" if kind in declared
               else f"check the table, or declare the total in card_totals.{kind} if it is meant")
        out.append(Finding(path, f"at {_KIND_WORDS[kind]} the cards add up to {total} ({each}; {total + last} "
                                 f"with the last trick), not {expected} as {why} says: {fix}"))
    return out
