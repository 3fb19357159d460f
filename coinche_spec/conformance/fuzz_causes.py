"""Divergences counted by cause: where in the game the implementation and the engine part ways.

One bug shows in many fields of many cases (an auction rule played
otherwise changes the calls accepted, the auction's state, the deal's
contract, its tricks and its score). Counting ``kind/field`` names would
report one bug as a dozen. So each divergent deal is filed once, under the
earliest point of the game where its cases disagree: the stage (dealing,
auction, play, melds and belote, scoring), then the call or the card within
it, then the case's first differing field. A deal whose auction goes wrong
is filed under the auction, whatever its score does afterwards.

At the end of a run, :func:`likely_rule` looks for the one rule option
under which the reference engine answers the cause's first case exactly as
the implementation did (the options ``fingerprint`` tries); causes that one
option explains are then counted as one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

STAGES = ("dealing", "auction", "play", "melds and belote", "scoring")

# (kind, field) -> stage, for the fields that do not follow their case kind's stage
_FIELD_STAGE = {("deal", "contract"): 1, ("deal", "accepted"): 2, ("deal", "tricks"): 2, ("deal", "tricks_won"): 2,
                ("deal", "card_points"): 2, ("deal", "legal_next"): 2, ("deal", "melds"): 3, ("deal", "belote"): 3,
                ("deal", "made"): 4, ("deal", "score"): 4}
_KIND_STAGE = {"dealing": 0, "auction": 1, "legal_cards": 2, "melds": 3, "score": 4, "deal": 2, "perft": 2,
               "match": 4}
MAX_RULES = 3     # options explaining one case, at most, for the evidence to point at them
_TRICK = re.compile(r"^tricks\[(\d+)\]")


def part_ways(case: dict, fields: list, diffs: list) -> tuple:
    """Where a divergent case shows its disagreement in the game's order: (stage, step), the step the
    call or card within the stage (an auction case: its length; a trick: its first card)."""
    kind = case["kind"]
    first = fields[0] if fields else ""
    stage = _FIELD_STAGE.get((kind, first), _KIND_STAGE.get(kind, 4))
    step = 0
    if kind == "auction" or (kind, first) == ("deal", "contract"):
        step = len(case.get("calls") or ())
    elif kind == "legal_cards":
        step = (8 - len(case.get("hand") or ())) * 4 + len(case.get("trick") or ())
    elif kind == "deal" and stage == 2:
        tricks = [int(m.group(1)) for d in diffs if (m := _TRICK.match(d.field))]
        step = min(tricks) * 4 if tricks else len(case.get("play") or ())
    return stage, step


def where(case: dict, fields: list, diffs: list) -> str:
    """The point as words: ``the auction, call 5``; ``the play, card 13``; ``the scoring``."""
    stage, step = part_ways(case, fields, diffs)
    if stage == 1:
        return f"the auction, call {step}"
    if stage == 2:
        return f"the play, card {step + 1}"
    return f"the {STAGES[stage]}"


@dataclass
class Cause:
    """The deals whose cases first disagree at the same point (stage and first field), counted once
    each; ``first`` is the earliest divergent case of the first such deal in seed order."""

    key: str              # "auction/accepted": the kind and field of the earliest divergent case
    deals: int
    first: Any            # fuzz.Divergence
    fields: set = field(default_factory=set)   # every kind/field those deals showed
    rule: str | None = None                    # "path = value" once likely_rule found one

    def merge(self, other: "Cause") -> None:
        self.deals += other.deals
        self.fields |= other.fields
        if other.first.order() < self.first.order():
            self.first = other.first


# At one point of the game, the plainest case kind names the cause (a score summary before a whole deal).
_PLAIN_FIRST = {kind: i for i, kind in enumerate(("score", "melds", "legal_cards", "auction", "dealing", "deal"))}


def deal_cause(divergent: list) -> tuple:
    """(cause key, Divergence) of a deal from its divergent cases [(point, Divergence)]: the earliest
    case's kind and first differing field (the plainest kind at one point), and that case."""
    _, d = min(divergent, key=lambda pd: (pd[0], _PLAIN_FIRST.get(pd[1].kind, 9), pd[1].number))
    return d.key, d


# --- the likely rule ---------------------------------------------------------------

class Options:
    """The other options of each rule of a rule set (those ``fingerprint`` tries: the schema's choices,
    the known rule sets' values), each built into the engine's rules once, when first needed."""

    def __init__(self, variant_document: dict):
        self.document = variant_document
        self.paths = rule_options_of(variant_document)
        self._built: dict = {}

    def built(self, path: str, value: Any):
        key = (path, json.dumps(value, sort_keys=True))
        if key not in self._built:
            from .fingerprint import playable, with_rule
            self._built[key] = playable(self.document, with_rule(self.document["rules"], path, value))
        return self._built[key]


def likely_rule(divergence, options: Options) -> str | None:
    """``path = value``: the one rule option (of those ``fingerprint`` tries) under which the engine
    answers the divergent case exactly as the implementation did, on the fields compared (``a = 1 or
    b = 2`` when a few do); None when no option does, or when too many do to point anywhere."""
    from .compare import compare
    from .fuzz import FIELD_RULES, compared_fields, reference
    answer = divergence.answer
    if not isinstance(answer, dict):
        return None
    kind = divergence.kind
    prefixes = sorted({p for paths in FIELD_RULES.get(kind, {}).values() for p in paths})
    found = []
    for path, values in options.paths.items():
        if not any(path == p or path.startswith(p + ".") for p in prefixes):
            continue
        for value in values:
            built = options.built(path, value)
            if built is None:
                continue
            result = reference(built, divergence.case)
            if result is None:
                continue
            if not compare(compared_fields(kind, result), answer):
                found.append(f"{path} = {json.dumps(value, ensure_ascii=False)}")
                break
        if len(found) > MAX_RULES:
            return None
    return " or ".join(found) or None


def rule_options_of(variant_document: dict) -> dict:
    """Rule path -> the other options tried for it (the schema's choices, the known rule sets' values)."""
    from ..resources import variant_schema_path
    from .fingerprint import known_rule_sets, rule_options
    schema = json.loads(variant_schema_path().read_text(encoding="utf-8"))
    return rule_options(variant_document["rules"], known_rule_sets(), schema)


def merge_by_rule(causes: list) -> list:
    """Causes that one rule option explains counted as one cause (the earliest key kept), the most
    deals first."""
    out: list = []
    by_rule: dict = {}
    for c in sorted(causes, key=lambda c: c.first.order()):
        if c.rule is not None and c.rule in by_rule:
            by_rule[c.rule].merge(c)
            by_rule[c.rule].fields.add(c.key)
            continue
        c.fields.add(c.key)
        out.append(c)
        if c.rule is not None:
            by_rule[c.rule] = c
    return sorted(out, key=lambda c: (-c.deals, c.first.order()))


def causes_of(tally, variant_document: dict) -> list:
    """A run's causes (fuzz.Tally), each with its likely rule, those one rule option explains counted
    as one, the most deals first."""
    causes = list(tally.causes.values())
    if causes:
        options = Options(variant_document)
        for c in causes:
            c.rule = likely_rule(c.first, options)
    return merge_by_rule(causes)


def cause_json(c) -> dict:
    """One cause as the summary gives it."""
    d = c.first
    return {"cause": c.key, "where": where(d.case, [d.field], d.diffs), "deals": c.deals, "first_deal": d.index,
            "likely_rule": c.rule, "shows_as": sorted(c.fields)}


__all__ = ["STAGES", "Cause", "Options", "part_ways", "where", "deal_cause", "likely_rule", "rule_options_of",
           "merge_by_rule", "causes_of", "cause_json"]
