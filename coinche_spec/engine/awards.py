"""Which awards a deal can give under a rule set: the proof that a recorded award cannot arise.

A match case records each deal's award (who took, made or not, each side's
score). Under a rule set whose deals never give one of those awards, no game
played under it reaches that history: the case cannot arise there, as a bid of
85 cannot where bids go up in tens. ``why_impossible`` answers only with a
proof, never a guess:

- rounding: where each side's final award is rounded to tens (or fives), an
  award that is not a multiple of the unit is none of its awards, whatever the
  melds, belote or multiplier;
- exhaustion, for a rule set without melds: every numeric bid (up to a ceiling
  above which a counted bid alone passes the award, and a bid not counted
  changes nothing), capot and générale, every strain, multiplier, split of the
  card points and winner of the last trick is scored with the reference
  engine's scoring; none gives the award.

A rule set with melds is exhausted on arrays (batch/awards.py, called by
conformance/arise.py); a deal recording melds or belotes of its own gets no
proof: None, and the case stays a case.
"""

from __future__ import annotations

import json

from ..notation import STRAINS, Contract
from .errors import EngineError
from .scoring import ROUNDING, belote_dict, score_deal

SIDES = ("NS", "EW")
_FIRST_SEAT = {"NS": "N", "EW": "E"}
_DEFENDING = {"NS": ("E", "W"), "EW": ("N", "S")}
_PROVED: dict = {}      # (the scoring rules, the award) -> the proof or None: rule sets share scorings


def rounding_unit(compiled) -> int:
    """The unit every award of the rule set is a multiple of, from its rounding alone (1: none)."""
    s = compiled.scoring
    if s.rounding_stage != "award":
        return 1
    return ROUNDING.batch[s.rounding][0]     # the scoring's own (unit, add) for the option


def why_impossible(rules, award: dict) -> str | None:
    """Why no deal played under ``rules`` gives ``award`` (a match case's deal: score, takers, made,
    belote, tricks_won), or None when that cannot be proved here."""
    if award.get("takers") is None or any(award.get(k) is not None for k in ("melds", "belotes", "exact_score")):
        return None
    from ..variants.compiled import compiled_rules
    c = compiled_rules(rules)
    unit = rounding_unit(c)
    odd = [side for side in SIDES if award["score"][side] % unit]
    if odd:
        return (f"every award of this rule set is a multiple of {unit} (scoring.rounding {c.scoring.rounding}, "
                f"applied to each side's final award), and {odd[0]}'s {award['score'][odd[0]]} is not")
    if c.melds.enabled:
        return None
    key = (json.dumps(rules.to_dict(), sort_keys=True, default=str), json.dumps(award, sort_keys=True))
    if key not in _PROVED:
        _PROVED[key] = None if _some_deal_gives(rules, c, award) else (
            "no deal of this rule set gives it: every bid, capot and générale, strain, multiplier, split "
            "of the card points and last trick was scored (it has no melds)")
    return _PROVED[key]


def gives_award(result, award: dict) -> bool:
    """Whether a deal scored as ``result`` (scoring.score_deal) records ``award``: made or not, the
    score, and the points held over by a litige (none: no ``held``)."""
    held = result.held if result.held is not None and any(result.held.values()) else None
    return result.made == award["made"] and result.score == award["score"] and held == award.get("held")


def multipliers(c) -> list:
    """(multiplier, doubling) of every contract: plain, coinched, surcoinched where allowed."""
    out = [(1, "none")]
    if c.auction.coinche.allowed:
        out.append((c.auction.coinche.multiplier, "coinche"))
        if c.auction.surcoinche.allowed:
            out.append((c.auction.surcoinche.multiplier, "surcoinche"))
    return out


def contract_values(c, award: dict) -> list:
    """Every contract value: the numeric bids up to the rule set's highest, or, with no highest, to a
    ceiling past which a bid counted in an award (every term is positive) makes it larger than either
    side's score, while a bid not counted scores as a lower one does (past 300 no deal makes a bid
    without melds)."""
    ceiling = max(award["score"].values()) + 300
    values = [v for v in c.numeric_bids(ceiling) if v <= max(ceiling, c.auction.bids.minimum)]
    if c.auction.capot.allowed:
        values.append("capot")
    if c.auction.generale.allowed:
        values.append("generale")
    return values


def _some_deal_gives(rules, c, award: dict) -> bool:
    takers = award["takers"]
    defenders = "EW" if takers == "NS" else "NS"
    won = award["tricks_won"]
    if won is None or won.get(takers, 0) + won.get(defenders, 0) != 8:
        return True     # not a played deal's record: nothing to prove against
    lasts = [side for side in SIDES if won[side]]
    belote = award.get("belote")
    declarer = _FIRST_SEAT[takers]
    partner = "S" if declarer == "N" else "W"
    for strain in STRAINS:
        if not c.strain_allowed(strain):
            continue
        if belote in SIDES and not belote_dict(rules, strain, belote)[belote]:
            continue        # a deal records a side's belote only where it scores: none in this strain
        total = c.card_total(strain)
        if won["NS"] == 0:
            splits = [0]
        elif won["EW"] == 0:
            splits = [total]
        else:
            splits = range(0, total + 1)
        for value in contract_values(c, award):
            by_seat = [None]
            if value == "generale":     # who of the takers took their tricks: the declarer alone, or not
                mine = won[takers]
                splits_by_seat = [(mine, 0)] + ([(mine - 1, 1)] if mine else [])
                by_seat = [{declarer: d, partner: p, _DEFENDING[takers][0]: won[defenders], _DEFENDING[takers][1]: 0}
                           for d, p in splits_by_seat]
            for multiplier, doubling in multipliers(c):
                contract = Contract(value, strain, declarer, multiplier, doubling)
                for ns in splits:
                    points = {"NS": ns, "EW": total - ns}
                    for last in lasts:
                        for seats in by_seat:
                            try:
                                r = score_deal(rules, contract, points, won, last, None, belote, explain=False,
                                               tricks_by_seat=seats)
                            except EngineError:
                                continue
                            if gives_award(r, award):
                                return True
    return False


