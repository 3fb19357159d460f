"""Checks that the schema cannot express: rules that must agree with each other.

The schema checks each rule alone (a packet is 1 to 8 cards); here we check
that they make one playable game together: the packets deal eight cards, the
highest bid is a bid one can make, the strain order names every strain the
auction allows, a surcoinche multiplies more than the coinche it answers, an
award that adds `base` says how much, and every rule a quote or an
interpretation claims to justify exists. Each finding names the rule path it
is about, so the loader can point at the line.

``check(document)`` expects a document the schema has already accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .compiled import compiled_rules

OUTCOMES = ("made", "failed", "coinched_made", "coinched_failed", "capot_made", "capot_failed")
SIDES = ("takers", "defenders")


@dataclass(frozen=True)
class Finding:
    """One disagreement between rules: the path it is about and what is wrong."""

    path: tuple
    message: str
    at_key: bool = False  # point at the key (a missing part) rather than the value


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


def check(document: dict) -> list[Finding]:
    """Every disagreement found, in the order of the document."""
    out: list[Finding] = []
    rules = document.get("rules", {})
    R = ("rules",)

    # -- the deal: every player receives eight cards ---------------------
    deal = rules.get("deal", {})
    packets = deal.get("packets", [])
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
                               f"{list(alt)} is the usual order (deal.packets), not an alternative"))

    # -- the auction -----------------------------------------------------
    auction = rules.get("auction", {})
    bids = auction.get("bids", {})
    lo, step, hi = bids.get("minimum"), bids.get("step"), bids.get("maximum")
    if isinstance(lo, int) and isinstance(hi, int):
        if hi < lo:
            out.append(Finding(R + ("auction", "bids", "maximum"),
                               f"the highest bid {hi} is below the lowest bid {lo}"))
        elif isinstance(step, int) and step > 0 and (hi - lo) % step and bids.get("ladder") is None:
            out.append(Finding(R + ("auction", "bids", "maximum"),
                               f"the highest bid {hi} cannot be bid: bids are {lo} plus a multiple of {step}"))

    ladder = bids.get("ladder")
    if isinstance(ladder, list) and ladder and all(isinstance(v, int) for v in ladder):
        where = R + ("auction", "bids", "ladder")
        rising = all(a < b for a, b in zip(ladder, ladder[1:]))
        if not rising:
            out.append(Finding(where, "the ladder of bids must go up: each value above the one before it"))
        if isinstance(lo, int) and ladder[0] != lo:
            out.append(Finding(R + ("auction", "bids", "minimum"),
                               f"the lowest bid {lo} is not the first value of the ladder ({ladder[0]})"))
        if hi != ladder[-1]:
            out.append(Finding(R + ("auction", "bids", "maximum"),
                               f"the highest bid {hi} is not the last value of the ladder ({ladder[-1]})"))

    strains = auction.get("strains", {})
    order = list(auction.get("strain_order", []))
    c = compiled_rules(rules)       # the facts the engine, the protocol and the rules pages read too
    wanted = list(c.strains)
    missing = [s for s in wanted if s not in order]
    extra = [s for s in order if s not in wanted]
    if missing:
        out.append(Finding(R + ("auction", "strain_order"),
                           f"strain_order lacks {', '.join(missing)}: it must rank every strain "
                           "the auction allows (the four suits" + (", TA" if "TA" in wanted else "")
                           + (", SA" if "SA" in wanted else "") + ")"))
    for s in extra:
        flag = "tout_atout" if s == "TA" else "sans_atout"
        out.append(Finding(R + ("auction", "strain_order"),
                           f"strain_order lists {s} but auction.strains.{flag} is false"))

    coinche = auction.get("coinche", {})
    sur = auction.get("surcoinche", {})
    if sur.get("allowed") and isinstance(sur.get("multiplier"), int) and isinstance(coinche.get("multiplier"), int):
        if sur["multiplier"] <= coinche["multiplier"]:
            out.append(Finding(R + ("auction", "surcoinche", "multiplier"),
                               f"a surcoinche multiplies by {sur['multiplier']}, not more than the coinche "
                               f"it answers (x{coinche['multiplier']})"))

    scoring = rules.get("scoring", {})
    for name in ("capot_made", "capot_failed"):
        if not c.capot_or_generale and scoring.get(name) is not None:
            out.append(Finding(R + ("scoring", name),
                               f"{name} is given but neither a capot nor a générale may be bid: it can never apply"))

    # -- the awards ------------------------------------------------------
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
                                           at_key=True))
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

    # -- provenance: quotes and readings point at real rules --------------
    for group in ("sources", "interpretations"):
        for i, entry in enumerate(document.get(group, []) or []):
            if not isinstance(entry, dict):
                continue
            for j, dotted in enumerate(entry.get("rules", []) or []):
                if isinstance(dotted, str) and not rule_path_exists(rules, dotted):
                    out.append(Finding((group, i, "rules", j),
                                       f"no rule '{dotted}' ({_closest_existing(rules, dotted)})"))
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
    return out
