"""Card points, the judgement of the contract, and what each side records for the deal.

Follows docs/rules-model.md §6. The work is done from totals (the card values
in each side's tricks, who took the last trick, the scoring melds and the
belote), so the same code answers a ``score`` case and ends a ``deal`` case.

Order matters and follows the rules model: card points (with the last trick
or the sweep), then the made/failed judgement on unrounded totals, then the
sweep's transfer of melds, the awards from the variant's terms and
multiplier, the belote, and only then the rounding. ``ScoreResult.lines``
says the same arithmetic in words for a person reading a deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..notation import SUITS, Contract
from .errors import EngineError

TEAMS = ("NS", "EW")
STRAINS = SUITS + ("TA", "SA")


class ScoreInputError(EngineError, ValueError):
    """A score request that does not describe a deal (tricks that do not add up to eight, a bad team)."""


@dataclass
class ScoreResult:
    """The deal's outcome: made or not, card points, each side's award and the arithmetic."""

    made: bool
    card_points: dict
    score: dict
    lines: list = field(default_factory=list)
    outcome: str = ""                            # made, failed, coinched_made, coinched_failed, capot_made
    totals: dict = field(default_factory=dict)   # what each side counted when the contract was judged

    def to_json(self) -> dict:
        """The protocol's ``score`` result."""
        return {"made": self.made, "card_points": dict(self.card_points), "score": dict(self.score)}


# --- input checks -----------------------------------------------------------

def _team_numbers(obj, what: str, allow_none: bool = False) -> dict:
    if obj is None and allow_none:
        return {"NS": 0, "EW": 0}
    if not isinstance(obj, dict):
        raise ScoreInputError(f"bad {what}: expected {{\"NS\": number, \"EW\": number}}, got {obj!r}")
    for key in obj:
        if key not in TEAMS:
            raise ScoreInputError(f"bad {what}: unknown side {key!r} (expected NS and EW)")
    out = {}
    for team in TEAMS:
        if team not in obj:
            raise ScoreInputError(f"bad {what}: missing {team}")
        v = obj[team]
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ScoreInputError(f"bad {what}.{team}: expected a whole number 0 or more, got {v!r}")
        out[team] = v
    return out


def _check_team(value, what: str) -> str:
    if value not in TEAMS:
        raise ScoreInputError(f"bad {what}: expected NS or EW, got {value!r}")
    return value


def _check_tricks(tricks_won, last_trick) -> tuple[dict, str]:
    won = _team_numbers(tricks_won, "tricks_won")
    if won["NS"] + won["EW"] != 8:
        raise ScoreInputError(f"bad tricks_won: NS {won['NS']} + EW {won['EW']} must make the 8 tricks of a deal")
    last = _check_team(last_trick, "last_trick")
    if won[last] == 0:
        raise ScoreInputError(f"bad last_trick: {last} took the last trick but tricks_won gives them none")
    return won, last


def belote_dict(rules, strain: str, belote) -> dict:
    """Accept the belote as points per side, or as the protocol's team name (or null)."""
    if belote is None:
        return {"NS": 0, "EW": 0}
    if isinstance(belote, str):
        team = _check_team(belote, "belote")
        b = rules.belote
        allowed = b.enabled and strain != "SA" and (strain != "TA" or b.tout_atout == "each_suit")
        out = {"NS": 0, "EW": 0}
        out[team] = b.points if allowed else 0
        return out
    return _team_numbers(belote, "belote")


# --- card points ------------------------------------------------------------

def _card_points(rules, strain, trick_points, tricks_won, last_trick):
    if strain not in STRAINS:
        raise ScoreInputError(f"bad strain {strain!r}: expected S, H, D, C, TA or SA")
    tp = _team_numbers(trick_points, "trick_points")
    won, last = _check_tricks(tricks_won, last_trick)
    cv = rules.card_values
    points = dict(tp)
    words = {t: str(tp[t]) for t in TEAMS}
    sweeper = next((t for t in TEAMS if won[t] == 8), None)
    kind = cv.sweep.kind
    if sweeper is not None and kind == "last_trick_value":
        points[sweeper] += cv.sweep.value
        words[sweeper] += f" + last trick worth {cv.sweep.value} on a sweep"
    else:
        if cv.last_trick:
            points[last] += cv.last_trick
            words[last] += f" + last trick {cv.last_trick}"
        if sweeper is not None and kind == "bonus" and cv.sweep.value:
            points[sweeper] += cv.sweep.value
            words[sweeper] += f" + sweep {cv.sweep.value}"
    for t in TEAMS:
        if words[t] != str(points[t]):
            words[t] += f" = {points[t]}"
    return points, won, last, words


def card_points(rules, strain: str, trick_points: dict, tricks_won: dict, last_trick: str) -> dict:
    """Each side's card points: its trick values, plus the last trick (or the sweep's value)."""
    return _card_points(rules, strain, trick_points, tricks_won, last_trick)[0]


# --- rounding ---------------------------------------------------------------

def round_award(mode: str, value: int) -> int:
    """Round one side's award as the variant says: half up (85 -> 90) or half down (85 -> 80, 86 -> 90)."""
    if mode == "nearest_10_half_up":
        return (value + 5) // 10 * 10
    if mode == "nearest_10_half_down":
        return (value + 4) // 10 * 10
    return value


# --- the contract and the award ---------------------------------------------

def _kind_of(strain: str) -> str:
    return {"TA": "tout_atout", "SA": "sans_atout"}.get(strain, "suit")


def _judge(rules, contract: Contract, cp, won, melds, belote):
    """Made or failed, on the unrounded totals; returns (made, totals, totals in words, the reason)."""
    takers, defenders = contract.takers, contract.defenders
    count_melds = rules.melds.count_towards_contract
    count_belote = rules.belote.counts_towards_contract
    totals, words = {}, {}
    for t in TEAMS:
        parts = [f"card points {cp[t]}"]
        total = cp[t]
        if count_melds and melds[t]:
            total += melds[t]
            parts.append(f"melds {melds[t]}")
        if count_belote and belote[t]:
            total += belote[t]
            parts.append(f"belote {belote[t]}")
        totals[t] = total
        words[t] = " + ".join(parts) + (f" = {total}" if len(parts) > 1 else "")
    mine, theirs = totals[takers], totals[defenders]
    if contract.is_capot:
        made = won[takers] == 8
        why = (f"the capot bid is made: {takers} took all eight tricks" if made else
               f"the capot bid fails: {takers} took {won[takers]} of the eight tricks")
        return made, totals, words, why
    bid = contract.value
    c = rules.contract
    if mine < bid:
        return False, totals, words, f"failed: {mine} is below the bid {bid}"
    if mine < c.minimum_total:
        return False, totals, words, f"failed: {mine} is below the least total {c.minimum_total} that makes a contract"
    if c.versus_defenders == "strictly_more" and mine <= theirs:
        return False, totals, words, f"failed: {mine} does not exceed the defenders' {theirs}"
    if c.versus_defenders == "not_level" and mine == theirs:
        return False, totals, words, f"failed: {mine} is level with the defenders' {theirs}"
    why = f"made: {mine} reaches the bid {bid}"
    if c.minimum_total > bid:
        why += f" and the least total {c.minimum_total}"
    if c.versus_defenders == "strictly_more":
        why += f" and exceeds the defenders' {theirs}"
    elif c.versus_defenders == "not_level":
        why += f" and is not level with the defenders' {theirs}"
    return True, totals, words, why


def _outcome(rules, contract: Contract, made: bool) -> str:
    if made and contract.is_capot and rules.scoring.capot_made is not None:
        return "capot_made"
    name = "made" if made else "failed"
    return ("coinched_" + name) if contract.multiplier > 1 else name


def _award_parts(rules, spec, where: str, side: str, strain: str, bid: int, bid_label: str,
                 cp, won, melds) -> list[tuple[str, str, int]]:
    """The award's terms for one side as (term, label, amount), in the order the variant lists them."""
    swept = won[side] == 8
    parts = []
    for term in spec.terms:
        if term == "card_points":
            parts.append((term, "card points", cp[side]))
        elif term == "bid":
            parts.append((term, bid_label, bid))
        elif term == "base":
            on_sweep = spec.get("base_on_sweep")
            if swept and on_sweep is not None:
                parts.append((term, "base for a sweep", on_sweep))
                continue
            base = spec.get("base")
            if base is None:
                raise ScoreInputError(f"bad rules: {where} lists the term 'base' but gives no base amount")
            amount = base if isinstance(base, int) else base[_kind_of(strain)]
            parts.append((term, "base", amount))
        elif term == "own_melds":
            if melds[side]:
                parts.append((term, "melds", melds[side]))
        elif term == "all_melds":
            if melds["NS"] or melds["EW"]:
                parts.append((term, "melds of both sides", melds["NS"] + melds["EW"]))
        elif term == "sweep_bonus":
            if swept and rules.scoring.sweep_bonus:
                parts.append((term, "sweep bonus", rules.scoring.sweep_bonus))
        else:   # the schema allows no other term
            raise ScoreInputError(f"bad rules: {where} has an unknown term {term!r}")
    return parts


def _apply_multiplier(spec, parts, m: int) -> tuple[int, str]:
    """The award after the contract's multiplier, and its arithmetic in words."""
    words = [f"{label} {amount}" for _, label, amount in parts]
    plain = sum(amount for _, _, amount in parts)
    if m == 1 or spec.multiplied == "none" or not parts:
        return plain, " + ".join(words)
    if spec.multiplied == "all":
        text = " + ".join(words)
        return plain * m, (f"({text}) × {m}" if len(words) > 1 else f"{text} × {m}")
    # "bid": only the bid term is multiplied
    value, out = 0, []
    for (term, label, amount), word in zip(parts, words):
        if term == "bid":
            value += amount * m
            out.append(f"{word} × {m}")
        else:
            value += amount
            out.append(word)
    return value, " + ".join(out)


def score_deal(rules, contract: Contract, trick_points: dict, tricks_won: dict, last_trick: str,
               melds: dict | None, belote) -> ScoreResult:
    """Judge the contract and give each side its award for the deal.

    ``trick_points`` are the card values in each side's tricks (no bonus);
    ``melds`` the ordinary melds that score after the comparison;
    ``belote`` each side's belote points (or the protocol's team name / null).
    """
    if not isinstance(contract, Contract):
        raise ScoreInputError(f"bad contract {contract!r}: expected a Contract")
    if contract.value != "capot" and (isinstance(contract.value, bool) or not isinstance(contract.value, int)):
        raise ScoreInputError(f"bad contract value {contract.value!r}: expected a number or \"capot\"")
    if isinstance(contract.multiplier, bool) or not isinstance(contract.multiplier, int) or contract.multiplier < 1:
        raise ScoreInputError(f"bad contract multiplier {contract.multiplier!r}: expected 1 or more")
    strain = contract.strain
    cp, won, last, cp_words = _card_points(rules, strain, trick_points, tricks_won, last_trick)
    melds = _team_numbers(melds, "melds", allow_none=True)
    belote = belote_dict(rules, strain, belote)
    takers, defenders = contract.takers, contract.defenders
    m = contract.multiplier
    lines = [f"card points: NS {cp_words['NS']}; EW {cp_words['EW']}"]

    made, totals, total_words, why = _judge(rules, contract, cp, won, melds, belote)
    bid_text = f"{contract.value}{strain}"
    lines.append(f"contract {bid_text} by {contract.declarer}"
                 + (f" × {m}" if m > 1 else "")
                 + f": takers {takers} count {total_words[takers]}, defenders {defenders} count {total_words[defenders]}")
    lines.append(why)
    outcome = _outcome(rules, contract, made)

    # A sweep may carry the swept side's melds over to the side that took every trick.
    scoring = rules.scoring
    eff = dict(melds)
    sweeper = next((t for t in TEAMS if won[t] == 8), None)
    move = scoring.sweep_takes_melds
    if sweeper is not None and (move == "any_sweep" or (move == "taker_sweep" and sweeper == takers)):
        swept = defenders if sweeper == takers else takers
        if eff[swept]:
            lines.append(f"{sweeper} took every trick: {swept}'s melds {eff[swept]} go to {sweeper}")
            eff[sweeper] += eff[swept]
            eff[swept] = 0

    if contract.is_capot:
        bid, bid_label = rules.auction.capot.value, "capot bid"
    else:
        bid, bid_label = contract.value, "bid"
    specs = {takers: scoring[outcome].takers, defenders: scoring[outcome].defenders}
    roles = {takers: "takers", defenders: "defenders"}
    awards, words = {}, {}
    for side in TEAMS:
        where = f"rules.scoring.{outcome}.{roles[side]}"
        parts = _award_parts(rules, specs[side], where, side, strain, bid, bid_label, cp, won, eff)
        awards[side], words[side] = _apply_multiplier(specs[side], parts, m)

    # The belote joins its holder's award (a failing takers' belote goes where the variant says).
    b = rules.belote
    for holder in TEAMS:
        amount = belote[holder]
        if not amount:
            continue
        dest = holder
        if holder == takers and not made:
            if b.on_failure == "lost":
                lines.append(f"the takers' belote {amount} is lost with the contract")
                continue
            if b.on_failure == "defenders":
                dest = defenders
        label = "belote" if dest == holder else f"{holder}'s belote"
        if b.multiplied == "with_award" and specs[dest].multiplied == "all" and m > 1:
            awards[dest] += amount * m
            text = f"{label} {amount} × {m}"
        else:
            awards[dest] += amount
            text = f"{label} {amount}"
        words[dest] = f"{words[dest]} + {text}" if words[dest] else text

    score = {}
    for side in TEAMS:
        text = words[side] or "nothing"
        line = f"{roles[side]} {side}: {text} = {awards[side]}"
        score[side] = round_award(scoring.rounding, awards[side])
        if score[side] != awards[side]:
            line += f", rounded to {score[side]}"
        lines.append(line)
    # takers first, as a person tells it
    if takers == "EW":
        lines[-2], lines[-1] = lines[-1], lines[-2]
    return ScoreResult(made, cp, score, lines, outcome, totals)
