"""The questions ``coinche-spec new`` asks a table, in plain words.

A club secretary answers these, not a schema: so each question names the
rule as players say it, each choice is a sentence rather than a value code,
and a parent's reading is shown without the schema codes, rule paths and
program citations written for the rule set's maintainers (``plain``). Which
questions are moot is decided elsewhere (the rules pages' "cannot matter"
test), so that ``new`` never asks what the table has already made moot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Question:
    """One rule a table decides: the question, a hint, and each value in words."""

    path: str
    ask: str
    hint: str = ""
    labels: dict = field(default_factory=dict)


# The rules tables most often settle, in the order a game meets them.
HOUSE_QUESTIONS = (
    Question("match.target", "How many points win the match?",
             "A number; or none, to play single deals with no match."),
    Question("auction.strains.sans_atout", "May sans atout (no trumps) be bid?"),
    Question("auction.strains.tout_atout", "May tout atout (every suit is trumps) be bid?"),
    Question("auction.coinche.when", "When may a defender coinche (double the contract)?", labels={
        "in_turn": "in turn, during the auction",
        "after_auction": "only once the auction is over, before the first card",
        "any_moment": "at any moment while the bidding is open, even out of turn",
        "side_in_turn": "in turn, or by the partner of the player to speak"}),
    Question("auction.coinche.multiplier", "A coinche multiplies the score of the deal by how much?"),
    Question("auction.surcoinche.allowed", "May the takers answer a coinche with a surcoinche (redouble)?"),
    Question("auction.surcoinche.multiplier", "A surcoinche multiplies the score of the deal by how much?"),
    Question("contract.versus_defenders", "Besides reaching their bid, must the takers also beat the defenders?",
             labels={"ignore": "no: reaching the bid is enough",
                     "not_level": "they must not be level with the defenders",
                     "strictly_more": "yes: they must score more than the defenders",
                     "at_least_level": "they must score at least as much (level is enough)"}),
    Question("melds.enabled", "Do you play melds (runs of three or more cards of a suit, four of a kind)?"),
    Question("belote.enabled", "Do you play the belote (king and queen of trumps in one hand)?"),
    Question("belote.points", "How many points is the belote worth?"),
    Question("belote.claim", "Must the belote be announced, or does it count without a word?", labels={
        "said": "announced: “belote” with the first card, “rebelote” with the second, or it is lost",
        "automatic": "it counts without a word",
        "said_once": "“belote” said once, with the first of the two cards, or it is lost",
        "king_first": "announced, and the king played before the queen, or it is lost",
        "said_rebelote_forgiven_once": "announced, but a forgotten “rebelote” is forgiven once per match to each side"}),
    Question("scoring.rounding", "How are the scores rounded?", labels={
        "none": "not rounded",
        "nearest_10_half_up": "to the nearest 10, a 5 going up (85 → 90)",
        "nearest_10_half_down": "to the nearest 10, a 5 going down (85 → 80, 86 → 90)",
        "nearest_5": "to the nearest 5 (97 → 95, 98 → 100)"}),
)

BY_PATH = {q.path: q for q in HOUSE_QUESTIONS}


def label(path: str, value) -> str:
    """A value as a player says it: the question's words for it, else the value readably."""
    q = BY_PATH.get(path)
    if q is not None and isinstance(value, str) and value in q.labels:
        return q.labels[value]
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value).replace("_", " ")


# --- a parent's reading without its maintainers' notation ------------------------------

_CODE = re.compile(
    r"`|\b\w+::\w+\b|\b[a-z]+_[a-z_0-9]+\b"     # a value or rule name: trump_must_overtrump
    r"|\b[a-z_]+\.[a-z_]+\.[a-z_.]+\b"         # a rule path: auction.coinche.when
    r"|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b"   # a commit
    r"|\b[\w/-]+\.(?:py|ts|js|rs|go|java|kt|cs|cpp|c|h)\b"       # a program's file
    r"|\b[A-Z]\d{1,2}\b"                       # a schema code: G1, A11
    r"|\b\w+:\s*(?:null|true|false|-?\d+)\b")  # a setting: maximum: null


def plain(text: str) -> str:
    """A reading in players' words: the parentheses and sentences that carry code dropped
    (a sentence only if something is left without it)."""
    text = " ".join(str(text).split())
    text = re.sub(r"\s*\([^()]*\)", lambda m: "" if _CODE.search(m.group(0)) else m.group(0), text)
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z“\"(])", text)
    kept = [s for s in sentences if not _CODE.search(s)]
    out = " ".join(kept) if kept else " ".join(_CODE.sub("", text).split())
    return re.sub(r"\s+([.,;:])", r"\1", out).strip()
