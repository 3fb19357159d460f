"""Card points, the judgement of the contract, and what each side records for the deal.

Follows docs/rules-model.md §6. The work is done from totals (the card values
in each side's tricks, who took the last trick, the scoring melds and the
belote), so the same code answers a ``score`` case and ends a ``deal`` case.

Order matters and follows the rules model: card points (with the last trick
or the sweep), then the made/failed judgement on unrounded totals, then the
sweep's transfer of melds, the awards from the variant's terms and
multiplier, the belote, and only then the rounding. ``ScoreResult.lines``
says the same arithmetic in words for a person reading a deal.

A générale is judged on who took the tricks, not only which side: it is made
only when the declarer alone took all eight, so its score needs the tricks
won by each player (``tricks_by_seat``).

Every deal of a game ends here, so the rules are read once per rule set into
a small ``ScoreRules`` object (as ``play.compiled`` does for the play), and
the words are written only when somebody reads them: ``score_deal(...,
explain=False)`` works out the same numbers along the same path, skipping
the sentences, and its ``lines`` are written on first reading.
"""

from __future__ import annotations

from ..notation import SEATS, SUITS, Contract, partner
from .errors import EngineError

TEAMS = ("NS", "EW")
STRAINS = SUITS + ("TA", "SA")
_OUTCOMES = ("made", "failed", "coinched_made", "coinched_failed", "capot_made")


class ScoreInputError(EngineError, ValueError):
    """A score request that does not describe a deal (tricks that do not add up to eight, a bad team)."""


class ScoreResult:
    """The deal's outcome: made or not, card points, each side's award and the arithmetic.

    ``lines`` (the arithmetic in words) is written when first read if the
    deal was scored with ``explain=False``.
    """

    __slots__ = ("made", "card_points", "score", "outcome", "totals", "_lines", "_explain")

    def __init__(self, made: bool, card_points: dict, score: dict, lines: list | None = None,
                 outcome: str = "", totals: dict | None = None):
        self.made = made
        self.card_points = card_points
        self.score = score
        self.outcome = outcome                              # made, failed, coinched_made, ...
        self.totals = {} if totals is None else totals      # what each side counted when judged
        self._lines = lines
        self._explain = None                                # the inputs, to write the words later

    @property
    def lines(self) -> list:
        """How the contract was judged and what each side records, in words."""
        if self._lines is None:
            args = self._explain
            self._lines = _score(*args).lines if args is not None else []
            self._explain = None
        return self._lines

    @lines.setter
    def lines(self, value: list) -> None:
        self._lines = value
        self._explain = None

    def to_json(self) -> dict:
        """The protocol's ``score`` result."""
        return {"made": self.made, "card_points": dict(self.card_points), "score": dict(self.score)}

    def __eq__(self, other) -> bool:
        if not isinstance(other, ScoreResult):
            return NotImplemented
        return ((self.made, self.card_points, self.score, self.lines, self.outcome, self.totals)
                == (other.made, other.card_points, other.score, other.lines, other.outcome, other.totals))

    __hash__ = None

    def __repr__(self) -> str:
        return (f"ScoreResult(made={self.made!r}, card_points={self.card_points!r}, score={self.score!r}, "
                f"lines={self.lines!r}, outcome={self.outcome!r}, totals={self.totals!r})")


# --- the rules, read once -----------------------------------------------------

class ScoreRules:
    """The scoring rules of one rule set as plain values, so a deal's score reads no rule tree."""

    __slots__ = ("rules", "last_trick", "sweep_kind", "sweep_value", "count_melds", "count_belote",
                 "minimum_total", "versus", "capot_scored", "capot_value", "generale_value", "sweep_takes_melds",
                 "sweep_bonus", "rounding", "belote_enabled", "belote_points", "belote_tout_atout",
                 "belote_on_failure", "belote_multiplied", "awards")

    def __init__(self, rules):
        self.rules = rules
        cv = rules.card_values
        self.last_trick = cv.last_trick
        self.sweep_kind = cv.sweep.kind
        self.sweep_value = cv.sweep.value
        self.count_melds = rules.melds.count_towards_contract
        self.count_belote = rules.belote.counts_towards_contract
        c = rules.contract
        self.minimum_total = c.minimum_total
        self.versus = c.versus_defenders
        sc = rules.scoring
        self.capot_scored = sc.capot_made is not None
        self.capot_value = rules.auction.capot.value
        self.generale_value = rules.auction.generale.value
        self.sweep_takes_melds = sc.sweep_takes_melds
        self.sweep_bonus = sc.sweep_bonus
        self.rounding = sc.rounding
        b = rules.belote
        self.belote_enabled = b.enabled
        self.belote_points = b.points
        self.belote_tout_atout = b.tout_atout
        self.belote_on_failure = b.on_failure
        self.belote_multiplied = b.multiplied
        # outcome -> (takers' award, defenders' award), each (terms, multiplied, base, base_on_sweep)
        self.awards = {}
        for name in _OUTCOMES:
            block = sc[name]
            if block is not None:
                self.awards[name] = tuple(
                    (tuple(spec.terms), spec.multiplied, spec.get("base"), spec.get("base_on_sweep"))
                    for spec in (block.takers, block.defenders))


_CACHE: dict = {}


def compiled(rules) -> ScoreRules:
    """The ScoreRules of ``rules``, built once and cached (keyed by id, holding the rules alive)."""
    hit = _CACHE.get(id(rules))
    if hit is not None and hit.rules is rules:
        return hit
    if len(_CACHE) > 64:
        _CACHE.clear()
    sr = _CACHE[id(rules)] = ScoreRules(rules)
    return sr


# --- input checks -----------------------------------------------------------

def _team_numbers(obj, what: str, allow_none: bool = False) -> dict:
    if type(obj) is dict and len(obj) == 2:   # the usual {"NS": n, "EW": n}, checked in one go
        ns, ew = obj.get("NS"), obj.get("EW")
        if type(ns) is int and type(ew) is int and ns >= 0 and ew >= 0:
            return {"NS": ns, "EW": ew}
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


def _check_tricks_by_seat(by_seat, won: dict) -> dict:
    """Tricks won by each player, checked against each side's tricks; seat -> count."""
    if not isinstance(by_seat, dict):
        raise ScoreInputError(f"bad tricks_won_by_seat: expected {{\"N\": n, \"E\": n, \"S\": n, \"W\": n}}, "
                              f"got {by_seat!r}")
    for key in by_seat:
        if key not in SEATS:
            raise ScoreInputError(f"bad tricks_won_by_seat: unknown seat {key!r} (expected N, E, S, W)")
    out = {}
    for seat in SEATS:
        if seat not in by_seat:
            raise ScoreInputError(f"bad tricks_won_by_seat: missing {seat}")
        v = by_seat[seat]
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 8:
            raise ScoreInputError(f"bad tricks_won_by_seat.{seat}: expected a whole number from 0 to 8, got {v!r}")
        out[seat] = v
    for team, (a, b) in (("NS", ("N", "S")), ("EW", ("E", "W"))):
        if out[a] + out[b] != won[team]:
            raise ScoreInputError(f"bad tricks_won_by_seat: {a} {out[a]} + {b} {out[b]} = {out[a] + out[b]}, "
                                  f"but tricks_won gives {team} {won[team]}")
    return out


def _belote_dict(sr: ScoreRules, strain: str, belote) -> dict:
    if belote is None:
        return {"NS": 0, "EW": 0}
    if isinstance(belote, str):
        team = _check_team(belote, "belote")
        allowed = sr.belote_enabled and strain != "SA" and (strain != "TA" or sr.belote_tout_atout == "each_suit")
        out = {"NS": 0, "EW": 0}
        out[team] = sr.belote_points if allowed else 0
        return out
    return _team_numbers(belote, "belote")


def belote_dict(rules, strain: str, belote) -> dict:
    """Accept the belote as points per side, or as the protocol's team name (or null)."""
    return _belote_dict(compiled(rules), strain, belote)


# --- card points ------------------------------------------------------------

def _card_points(sr: ScoreRules, strain, trick_points, tricks_won, last_trick, explain: bool):
    """Card points per side, with the checked tricks; ``words`` (None unless ``explain``) say the sum."""
    if strain not in STRAINS:
        raise ScoreInputError(f"bad strain {strain!r}: expected S, H, D, C, TA or SA")
    tp = _team_numbers(trick_points, "trick_points")
    won, last = _check_tricks(tricks_won, last_trick)
    points = dict(tp)
    words = {t: str(tp[t]) for t in TEAMS} if explain else None
    sweeper = "NS" if won["NS"] == 8 else "EW" if won["EW"] == 8 else None
    kind = sr.sweep_kind
    if sweeper is not None and kind == "last_trick_value":
        points[sweeper] += sr.sweep_value
        if explain:
            words[sweeper] += f" + last trick worth {sr.sweep_value} on a sweep"
    else:
        if sr.last_trick:
            points[last] += sr.last_trick
            if explain:
                words[last] += f" + last trick {sr.last_trick}"
        if sweeper is not None and kind == "bonus" and sr.sweep_value:
            points[sweeper] += sr.sweep_value
            if explain:
                words[sweeper] += f" + sweep {sr.sweep_value}"
    if explain:
        for t in TEAMS:
            if words[t] != str(points[t]):
                words[t] += f" = {points[t]}"
    return tp, points, won, last, words


def card_points(rules, strain: str, trick_points: dict, tricks_won: dict, last_trick: str) -> dict:
    """Each side's card points: its trick values, plus the last trick (or the sweep's value)."""
    return _card_points(compiled(rules), strain, trick_points, tricks_won, last_trick, False)[1]


# --- rounding ---------------------------------------------------------------

def round_award(mode: str, value: int) -> int:
    """Round one side's award as the variant says: half up (85 -> 90) or half down (85 -> 80, 86 -> 90)."""
    if mode == "nearest_10_half_up":
        return (value + 5) // 10 * 10
    if mode == "nearest_10_half_down":
        return (value + 4) // 10 * 10
    return value


# --- the contract and the award ---------------------------------------------

_KIND = {"TA": "tout_atout", "SA": "sans_atout"}


def _judge(sr: ScoreRules, contract: Contract, takers: str, defenders: str, cp, won, melds, belote,
           explain: bool, by_seat: dict | None = None):
    """Made or failed, on the unrounded totals; returns (made, totals, totals in words, the reason).

    The words and the reason are None unless ``explain``.
    """
    count_melds, count_belote = sr.count_melds, sr.count_belote
    totals = {}
    words = {} if explain else None
    for t in TEAMS:
        total = cp[t]
        if count_melds and melds[t]:
            total += melds[t]
        if count_belote and belote[t]:
            total += belote[t]
        totals[t] = total
        if explain:
            parts = [f"card points {cp[t]}"]
            if count_melds and melds[t]:
                parts.append(f"melds {melds[t]}")
            if count_belote and belote[t]:
                parts.append(f"belote {belote[t]}")
            words[t] = " + ".join(parts) + (f" = {total}" if len(parts) > 1 else "")
    mine, theirs = totals[takers], totals[defenders]
    if contract.value == "generale":
        declarer = contract.declarer
        alone = by_seat[declarer]
        made = alone == 8
        why = None
        if explain:
            mate = partner(declarer)
            if made:
                why = f"the générale is made: {declarer} alone took all eight tricks"
            elif won[takers] == 8:
                why = (f"the générale fails: {takers} took every trick, but {mate}, the partner, took "
                       f"{by_seat[mate]} of them; {declarer} had to take all eight alone")
            else:
                why = f"the générale fails: {declarer} took {alone} of the eight tricks"
        return made, totals, words, why
    if contract.value == "capot":
        made = won[takers] == 8
        why = None
        if explain:
            why = (f"the capot bid is made: {takers} took all eight tricks" if made else
                   f"the capot bid fails: {takers} took {won[takers]} of the eight tricks")
        return made, totals, words, why
    bid = contract.value
    least, versus = sr.minimum_total, sr.versus
    if mine < bid:
        failed = "bid"
    elif mine < least:
        failed = "least"
    elif versus == "strictly_more" and mine <= theirs:
        failed = "not_more"
    elif versus == "not_level" and mine == theirs:
        failed = "level"
    else:
        failed = None
    if not explain:
        return failed is None, totals, None, None
    if failed == "bid":
        why = f"failed: {mine} is below the bid {bid}"
    elif failed == "least":
        why = f"failed: {mine} is below the least total {least} that makes a contract"
    elif failed == "not_more":
        why = f"failed: {mine} does not exceed the defenders' {theirs}"
    elif failed == "level":
        why = f"failed: {mine} is level with the defenders' {theirs}"
    else:
        why = f"made: {mine} reaches the bid {bid}"
        if least > bid:
            why += f" and the least total {least}"
        if versus == "strictly_more":
            why += f" and exceeds the defenders' {theirs}"
        elif versus == "not_level":
            why += f" and is not level with the defenders' {theirs}"
    return failed is None, totals, words, why


def _outcome(sr: ScoreRules, contract: Contract, made: bool) -> str:
    if made and sr.capot_scored and (contract.value == "capot" or contract.value == "generale"):
        # a made générale is scored as a made capot bid where the variant scores that apart
        return "capot_made"
    name = "made" if made else "failed"
    return ("coinched_" + name) if contract.multiplier > 1 else name


def _award(sr: ScoreRules, spec: tuple, where: tuple, side: str, strain: str, bid: int, bid_label: str,
           cp, won, melds, m: int, explain: bool) -> tuple[int, str | None]:
    """One side's award: its terms in the order the variant lists them, then the multiplier.

    ``where`` is (outcome, role), to name the award in a message about broken
    rules. Returns the award and, if ``explain``, its arithmetic in words.
    """
    terms, multiplied, base, base_on_sweep = spec
    swept = won[side] == 8
    parts = []      # (term, label, amount)
    for term in terms:
        if term == "card_points":
            parts.append((term, "card points", cp[side]))
        elif term == "bid":
            parts.append((term, bid_label, bid))
        elif term == "base":
            if swept and base_on_sweep is not None:
                parts.append((term, "base for a sweep", base_on_sweep))
                continue
            if base is None:
                raise ScoreInputError(f"bad rules: rules.scoring.{where[0]}.{where[1]} lists the term 'base' "
                                      "but gives no base amount")
            parts.append((term, "base", base if isinstance(base, int) else base[_KIND.get(strain, "suit")]))
        elif term == "own_melds":
            if melds[side]:
                parts.append((term, "melds", melds[side]))
        elif term == "all_melds":
            if melds["NS"] or melds["EW"]:
                parts.append((term, "melds of both sides", melds["NS"] + melds["EW"]))
        elif term == "sweep_bonus":
            if swept and sr.sweep_bonus:
                parts.append((term, "sweep bonus", sr.sweep_bonus))
        else:   # the schema allows no other term
            raise ScoreInputError(f"bad rules: rules.scoring.{where[0]}.{where[1]} has an unknown term {term!r}")
    plain = sum(amount for _, _, amount in parts)
    words = [f"{label} {amount}" for _, label, amount in parts] if explain else None
    if m == 1 or multiplied == "none" or not parts:
        return plain, (" + ".join(words) if explain else None)
    if multiplied == "all":
        if not explain:
            return plain * m, None
        text = " + ".join(words)
        return plain * m, (f"({text}) × {m}" if len(words) > 1 else f"{text} × {m}")
    # "bid": only the bid term is multiplied
    value, out = 0, []
    for i, (term, label, amount) in enumerate(parts):
        if term == "bid":
            value += amount * m
            if explain:
                out.append(f"{words[i]} × {m}")
        else:
            value += amount
            if explain:
                out.append(words[i])
    return value, (" + ".join(out) if explain else None)


def score_deal(rules, contract: Contract, trick_points: dict, tricks_won: dict, last_trick: str,
               melds: dict | None, belote, explain: bool = True,
               tricks_by_seat: dict | None = None) -> ScoreResult:
    """Judge the contract and give each side its award for the deal.

    ``trick_points`` are the card values in each side's tricks (no bonus);
    ``melds`` the ordinary melds that score after the comparison;
    ``belote`` each side's belote points (or the protocol's team name / null);
    ``tricks_by_seat`` the tricks each player took ({"N": n, ...}), needed
    only for a générale, which the declarer must make alone (ignored for any
    other contract, once checked against ``tricks_won``).
    With ``explain=False`` the same numbers come without writing the
    sentences; ``lines`` is then written when first read.
    """
    if not isinstance(contract, Contract):
        raise ScoreInputError(f"bad contract {contract!r}: expected a Contract")
    value, mult = contract.value, contract.multiplier
    if value not in ("capot", "generale") and (isinstance(value, bool) or not isinstance(value, int)):
        raise ScoreInputError(f"bad contract value {value!r}: expected a number, \"capot\" or \"generale\"")
    if isinstance(mult, bool) or not isinstance(mult, int) or mult < 1:
        raise ScoreInputError(f"bad contract multiplier {mult!r}: expected 1 or more")
    if contract.declarer not in SEATS:
        raise ScoreInputError(f"bad contract declarer {contract.declarer!r}: expected N, E, S or W")
    sr = compiled(rules)
    strain = contract.strain
    tp, cp, won, last, cp_words = _card_points(sr, strain, trick_points, tricks_won, last_trick, explain)
    if tricks_by_seat is not None:
        tricks_by_seat = _check_tricks_by_seat(tricks_by_seat, won)
    elif value == "generale":
        raise ScoreInputError("bad tricks_won_by_seat: a générale is made only when the declarer alone takes "
                              "every trick, so its score needs the tricks each player won")
    melds = _team_numbers(melds, "melds", allow_none=True)
    belote = _belote_dict(sr, strain, belote)
    return _score(sr, contract, tp, won, last, melds, belote, explain, cp, cp_words, tricks_by_seat)


def _score(sr: ScoreRules, contract: Contract, tp: dict, won: dict, last: str, melds: dict, belote: dict,
           explain: bool, cp: dict | None = None, cp_words: dict | None = None,
           by_seat: dict | None = None) -> ScoreResult:
    """score_deal on checked inputs (tp, won, melds, belote and by_seat are the checked copies, never changed)."""
    strain = contract.strain
    if cp is None or (explain and cp_words is None):
        _, cp, won, last, cp_words = _card_points(sr, strain, tp, won, last, explain)
    takers = contract.takers
    defenders = "EW" if takers == "NS" else "NS"
    m = contract.multiplier
    lines = [f"card points: NS {cp_words['NS']}; EW {cp_words['EW']}"] if explain else None

    made, totals, total_words, why = _judge(sr, contract, takers, defenders, cp, won, melds, belote, explain,
                                            by_seat)
    if explain:
        lines.append(f"contract {contract.value}{strain} by {contract.declarer}"
                     + (f" × {m}" if m > 1 else "")
                     + f": takers {takers} count {total_words[takers]}, "
                       f"defenders {defenders} count {total_words[defenders]}")
        lines.append(why)
    outcome = _outcome(sr, contract, made)

    # A sweep may carry the swept side's melds over to the side that took every trick.
    eff = melds
    sweeper = "NS" if won["NS"] == 8 else "EW" if won["EW"] == 8 else None
    move = sr.sweep_takes_melds
    if sweeper is not None and (move == "any_sweep" or (move == "taker_sweep" and sweeper == takers)):
        swept = defenders if sweeper == takers else takers
        if melds[swept]:
            if explain:
                lines.append(f"{sweeper} took every trick: {swept}'s melds {melds[swept]} go to {sweeper}")
            eff = dict(melds)
            eff[sweeper] += eff[swept]
            eff[swept] = 0

    if contract.value == "capot":
        bid, bid_label = sr.capot_value, "capot bid"
    elif contract.value == "generale":
        bid, bid_label = sr.generale_value, "générale bid"
    else:
        bid, bid_label = contract.value, "bid"
    taker_spec, defender_spec = sr.awards[outcome]
    specs = {takers: taker_spec, defenders: defender_spec}
    roles = {takers: "takers", defenders: "defenders"}
    awards, words = {}, {}
    for side in TEAMS:
        awards[side], words[side] = _award(sr, specs[side], (outcome, roles[side]), side,
                                           strain, bid, bid_label, cp, won, eff, m, explain)

    # The belote joins its holder's award (a failing takers' belote goes where the variant says).
    for holder in TEAMS:
        amount = belote[holder]
        if not amount:
            continue
        dest = holder
        if holder == takers and not made:
            if sr.belote_on_failure == "lost":
                if explain:
                    lines.append(f"the takers' belote {amount} is lost with the contract")
                continue
            if sr.belote_on_failure == "defenders":
                dest = defenders
        times = m if sr.belote_multiplied == "with_award" and specs[dest][1] == "all" and m > 1 else 1
        awards[dest] += amount * times
        if explain:
            label = "belote" if dest == holder else f"{holder}'s belote"
            text = f"{label} {amount} × {m}" if times > 1 else f"{label} {amount}"
            words[dest] = f"{words[dest]} + {text}" if words[dest] else text

    rounding = sr.rounding
    score = {"NS": round_award(rounding, awards["NS"]), "EW": round_award(rounding, awards["EW"])}
    if explain:
        for side in TEAMS:
            line = f"{roles[side]} {side}: {words[side] or 'nothing'} = {awards[side]}"
            if score[side] != awards[side]:
                line += f", rounded to {score[side]}"
            lines.append(line)
        # takers first, as a person tells it
        if takers == "EW":
            lines[-2], lines[-1] = lines[-1], lines[-2]
    result = ScoreResult(made, cp, score, lines, outcome, totals)
    if not explain:
        result._explain = (sr, contract, tp, won, last, melds, belote, True, None, None, by_seat)
    return result
