"""Card points, the judgement of the contract, and what each side records for the deal.

Follows docs/rules-model.md §6. The work is done from totals (the card values
in each side's tricks, who took the last trick, the scoring melds and the
belote), so the same code answers a ``score`` case and ends a ``deal`` case.

Order matters and follows the rules model: card points (with the last trick
or the sweep), then the made/failed judgement on unrounded totals, then the
sweep's transfer of melds, the awards from the variant's terms and
multiplier, the belote, and only then the rounding (or earlier, where
``scoring.rounding_stage`` rounds the card points or each award before its
multiplier). ``ScoreResult.lines``
says the same arithmetic in words for a person reading a deal.

A générale is judged on who took the tricks, not only which side: it is made
only when the declarer alone took all eight, so its score needs the tricks
won by each player (``tricks_by_seat``).

Every deal of a game ends here, so the compiled rules are laid out once per
rule set into a small ``ScoreRules`` object (as ``play.compiled`` does for the
play), each option as its table's behaviour, and
the words are written only when somebody reads them: ``score_deal(...,
explain=False)`` works out the same numbers along the same path, skipping
the sentences, and its ``lines`` are written on first reading.
"""

from __future__ import annotations

import operator

from ..notation import SEATS, SUITS, Contract, partner
from . import belote as belote_mod
from .errors import EngineError
from .options import choose, engine_phase, option_table

TEAMS = ("NS", "EW")
STRAINS = SUITS + ("TA", "SA")
_OUTCOMES = ("made", "failed", "coinched_made", "coinched_failed", "capot_made", "capot_failed")


class ScoreInputError(EngineError, ValueError):
    """A score request that does not describe a deal (tricks that do not add up to eight, a bad team)."""


class ScoreResult:
    """The deal's outcome: made or not, card points, each side's award and the arithmetic.

    ``lines`` (the arithmetic in words) is written when first read if the
    deal was scored with ``explain=False``.
    """

    __slots__ = ("made", "card_points", "score", "outcome", "totals", "held", "_lines", "_explain")

    def __init__(self, made: bool, card_points: dict, score: dict, lines: list | None = None,
                 outcome: str = "", totals: dict | None = None, held: dict | None = None):
        self.made = made
        self.card_points = card_points
        self.score = score
        self.held = held                                    # a litige: the takers' points held back
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
        """The protocol's ``score`` result (``held`` only after a litige)."""
        out = {"made": self.made, "card_points": dict(self.card_points), "score": dict(self.score)}
        if self.held is not None:
            out["held"] = dict(self.held)
        return out

    def __eq__(self, other) -> bool:
        if not isinstance(other, ScoreResult):
            return NotImplemented
        return ((self.made, self.card_points, self.score, self.lines, self.outcome, self.totals, self.held)
                == (other.made, other.card_points, other.score, other.lines, other.outcome, other.totals,
                    other.held))

    __hash__ = None

    def __repr__(self) -> str:
        return (f"ScoreResult(made={self.made!r}, card_points={self.card_points!r}, score={self.score!r}, "
                f"lines={self.lines!r}, outcome={self.outcome!r}, totals={self.totals!r})")


# --- the rules, read once -----------------------------------------------------

# card_values.sweep.kind: what the side that took every trick (and so the last) adds to its trick
# values, from (last trick, sweep value): the amount, and the words of the sum
SWEEP_KIND = option_table("card_values.sweep.kind", {
    "none": lambda last, value: (last, f" + last trick {last}" if last else ""),
    "last_trick_value": lambda last, value: (value, f" + last trick worth {value} on a sweep"),
    "bonus": lambda last, value: (last + value, (f" + last trick {last}" if last else "")
                                  + (f" + sweep {value}" if value else "")),
})
# card_values.scale.applies_to: is the scale applied to the trick values (True) or to the card points (False)?
SCALE_APPLIES_TO = option_table("card_values.scale.applies_to", {"trick_points": True, "card_points": False})
# card_values.scale.rounding: a scaled value made whole, from (points x times, per)
SCALE_ROUNDING = option_table("card_values.scale.rounding", {
    "nearest_half_up": lambda n, per: (2 * n + per) // (2 * per),     # 88.5 -> 89, 88.4 -> 88
    "down": lambda n, per: n // per,                                  # 105.9 -> 105
})
# card_values.scale.defenders: are the defenders' points the complement of the takers' (True)?
SCALE_DEFENDERS = option_table("card_values.scale.defenders", {"scaled": False, "complement": True})
# contract.versus_defenders: how the takers' total must compare with the defenders', from (mine, theirs):
# why it fails (None: it passes), and the words of a pass
VERSUS_DEFENDERS = option_table("contract.versus_defenders", {
    "ignore": lambda mine, theirs: (None, ""),
    "not_level": lambda mine, theirs: (f"failed: {mine} is level with the defenders' {theirs}" if mine == theirs
                                       else None, f" and is not level with the defenders' {theirs}"),
    "strictly_more": lambda mine, theirs: (f"failed: {mine} does not exceed the defenders' {theirs}"
                                           if mine <= theirs else None, f" and exceeds the defenders' {theirs}"),
    "at_least_level": lambda mine, theirs: (f"failed: {mine} is below the defenders' {theirs}" if mine < theirs
                                            else None, f" and is at least the defenders' {theirs}"),
}, batch={   # the batch compares whole arrays: (mine, theirs) -> passes (None: it need not)
    "ignore": None, "not_level": operator.ne, "strictly_more": operator.gt, "at_least_level": operator.ge})
def _swept_by_tricks(won: dict, tp: dict, last: str) -> str | None:
    return "NS" if won["NS"] == 8 else "EW" if won["EW"] == 8 else None


def _swept_by_points(won: dict, tp: dict, last: str) -> str | None:
    """The side that took the last trick while the other side's tricks are worth nothing (BGA, Alounv,
    coincoinche: a side "capot" with only 7s and 8s in its tricks)."""
    other = "EW" if last == "NS" else "NS"
    return last if tp[other] == 0 else None


# belote.counts_as (optional; left out: points): does the takers' belote lower their target (True) rather
# than join each side's total?
BELOTE_COUNTS_AS = option_table("belote.counts_as", {"points": False, "lowered_target": True})
# contract.capot_by (optional; left out: tricks): which side took "every trick" (the sweep's card points,
# a capot bid made, base_on_sweep, the sweep bonus, the melds a sweep takes), from (tricks won, trick
# values, last trick); None: nobody
CAPOT_BY = option_table("contract.capot_by", {"tricks": _swept_by_tricks, "card_points": _swept_by_points})
# contract.judged_on (optional; left out: card_points): are the totals rounded before they are judged (True)?
JUDGED_ON = option_table("contract.judged_on", {"card_points": False, "rounded_points": True})
# scoring.sweep_takes_melds: does a sweep by ``sweeper`` carry the other side's melds over to it?
SWEEP_TAKES_MELDS = option_table("scoring.sweep_takes_melds", {
    "never": lambda sweeper, takers: False,
    "taker_sweep": lambda sweeper, takers: sweeper == takers,
    "any_sweep": lambda sweeper, takers: True,
})


def _to_tens(up_from: int):
    """Rounding to the nearest 10, a last digit of ``up_from`` or more going up (5: 85 -> 90, 84 -> 80)."""
    def rounded(award: int) -> int:
        return (award + 10 - up_from) // 10 * 10
    rounded.tens = True          # scoring.rounding_up_from may change its threshold
    return rounded


def _exact(award: int) -> int:
    return award


# scoring.rounding: each side's final award, rounded
ROUNDING = option_table("scoring.rounding", {
    "none": _exact,
    "nearest_10_half_up": _to_tens(5),                               # 85 -> 90, 84 -> 80
    "nearest_10_half_down": _to_tens(6),                             # 85 -> 80, 86 -> 90
    "nearest_5": lambda award: (award + 2) // 5 * 5,                  # 97 -> 95, 98 -> 100
}, batch={   # the batch rounds whole arrays as (award + add) // unit * unit: (unit, add)
    "none": (1, 0), "nearest_10_half_up": (10, 5), "nearest_10_half_down": (10, 4), "nearest_5": (5, 2)})


def _each_side_rounded(rounding, cp: dict, takers: str) -> dict:
    return {t: rounding(cp[t]) for t in TEAMS}


def _complement_rounded(rounding, cp: dict, takers: str) -> dict:
    """The takers' card points rounded; the defenders' are the rounded total less them (162 -> 160 - 90 = 70)."""
    defenders = "EW" if takers == "NS" else "NS"
    mine = rounding(cp[takers])
    return {takers: mine, defenders: rounding(cp["NS"] + cp["EW"]) - mine}


class RoundingStage:
    """Where scoring.rounding applies: to the card points an award counts (``card_points``: how, or
    None), to each award before its multiplier (``before_multiplier``), or to the final award (``award``)."""

    __slots__ = ("card_points", "before_multiplier", "award")

    def __init__(self, card_points=None, before_multiplier: bool = False, award: bool = False):
        self.card_points, self.before_multiplier, self.award = card_points, before_multiplier, award


# scoring.litige (optional; left out: none): what a level total that reaches the bid is (None: judged as any)
LITIGE = option_table("scoring.litige", {"none": None, "takers_points_held": "held", "replay": "replay"})
# scoring.rounding_stage (optional; left out: award): what scoring.rounding rounds
ROUNDING_STAGE = option_table("scoring.rounding_stage", {
    "award": RoundingStage(award=True),
    "before_multiplier": RoundingStage(before_multiplier=True),
    "card_points": RoundingStage(card_points=_each_side_rounded),
    "card_points_complement": RoundingStage(card_points=_complement_rounded),
}, batch={s: s for s in ("award", "before_multiplier", "card_points", "card_points_complement")})   # read by name
# belote.on_failure: where the failing takers' belote goes, from (takers, defenders); None: lost
BELOTE_ON_FAILURE = option_table("belote.on_failure", {
    "holder": lambda takers, defenders: takers,
    "defenders": lambda takers, defenders: defenders,
    "lost": lambda takers, defenders: None,
}, batch={"holder": 0, "defenders": 1, "lost": 2})   # the batch: 0 the takers, 1 the defenders, 2 lost
# belote.placement.<outcome>.<side>: where a belote held by that side goes, from (takers, defenders); None: lost
BELOTE_DESTINATION = {
    "takers": lambda takers, defenders: takers,
    "defenders": lambda takers, defenders: defenders,
    "lost": lambda takers, defenders: None,
}
BELOTE_PLACEMENT_RULES = (("made", "takers"), ("made", "defenders"), ("coinched_made", "takers"),
                          ("coinched_made", "defenders"), ("failed", "defenders"), ("coinched_failed", "defenders"),
                          ("capot_made", "takers"), ("capot_made", "defenders"), ("capot_failed", "takers"),
                          ("capot_failed", "defenders"))
BELOTE_PLACEMENT = {rule: option_table(f"belote.placement.{rule[0]}.{rule[1]}", BELOTE_DESTINATION,
                                      batch={"takers": 0, "defenders": 1, "lost": 2})
                    for rule in BELOTE_PLACEMENT_RULES}
# belote.multiplied: is the belote multiplied with an award that is multiplied whole?
BELOTE_MULTIPLIED = option_table("belote.multiplied", {"never": False, "with_award": True})


class ScoreRules:
    """The scoring rules of one rule set as plain values, so a deal's score reads no rule tree.

    Names are the schema's (``minimum_total`` is ``contract.minimum_total``);
    an option is kept as its table's behaviour."""

    __slots__ = ("rules", "last_trick", "sweep_kind", "sweep_value", "melds_count_towards_contract",
                 "belote_counts_towards_contract", "belote_lowers_target", "minimum_total", "versus_defenders", "judged_rounded", "capot_made", "capot_failed",
                 "capot_value", "generale_value", "sweep_takes_melds", "sweep_bonus", "rounding", "rounding_stage",
                 "rounding_by_strain", "litige", "bid_factor", "scored_bid", "swept", "margin",
                 "belote_enabled", "belote_points", "belote_strains", "belote_on_failure",
                 "belote_multiplied", "belote_placement", "awards", "scale", "scale_on_tricks",
                 "scale_round", "scale_complement")

    def __init__(self, c):
        self.rules = c
        cv = c.card_values
        self.last_trick = cv.last_trick
        self.sweep_kind = choose(SWEEP_KIND, cv.sweep.kind)
        self.sweep_value = cv.sweep.value
        # strain -> (times, per) where card_values.scale rescales the card points (optional rule)
        scale = cv.scale
        self.scale = {}
        if scale is not None:
            for strain, kind in (("SA", "sans_atout"), ("TA", "tout_atout")):
                ratio = scale[kind]
                if ratio is not None:
                    self.scale[strain] = (ratio.times, ratio.per)
            self.scale_on_tricks = choose(SCALE_APPLIES_TO, scale.applies_to)
            self.scale_round = choose(SCALE_ROUNDING, scale.rounding)
            self.scale_complement = choose(SCALE_DEFENDERS, scale.defenders)
        self.melds_count_towards_contract = c.melds.count_towards_contract
        self.belote_counts_towards_contract = c.belote.counts_towards_contract
        # belote.counts_as (optional, read only where the belote counts towards the contract)
        self.belote_lowers_target = (bool(c.belote.counts_towards_contract)
                                     and choose(BELOTE_COUNTS_AS, c.belote.counts_as))
        self.minimum_total = c.contract.minimum_total
        self.margin = c.contract.margin          # optional: a numeric contract needs the bid + margin
        self.versus_defenders = choose(VERSUS_DEFENDERS, c.contract.versus_defenders)
        self.swept = choose(CAPOT_BY, c.contract.capot_by)               # optional rule
        self.judged_rounded = choose(JUDGED_ON, c.contract.judged_on)   # optional rule
        sc = c.scoring
        self.capot_made = sc.capot_made is not None      # a made capot (or générale) is scored apart
        self.capot_failed = sc.capot_failed is not None     # and a failed one (optional rule)
        self.capot_value = c.auction.capot.value
        self.generale_value = c.auction.generale.value
        self.sweep_takes_melds = choose(SWEEP_TAKES_MELDS, sc.sweep_takes_melds)
        self.sweep_bonus = sc.sweep_bonus
        self.rounding = choose(ROUNDING, sc.rounding)
        self.rounding_stage = choose(ROUNDING_STAGE, sc.rounding_stage)   # optional rule
        self.litige = choose(LITIGE, sc.litige)                            # optional rule
        # scoring.bid_factor (optional): strain -> how many times the bid term counts the contract's value
        factor = sc.bid_factor       # left out: every rule of it its default, 1
        self.bid_factor = {s: factor[_KIND.get(s, "suit")] for s in STRAINS}
        # scoring.bid_scored_as (optional): what the awards count for a numeric bid (the compiled rules')
        self.scored_bid = c.scored_bid
        # scoring.rounding_up_from (optional): rounding to tens goes up from another digit per kind of contract
        up_from = sc.rounding_up_from
        self.rounding_by_strain = None
        if up_from is not None and getattr(self.rounding, "tens", False):
            self.rounding_by_strain = {s: _to_tens(up_from[_KIND.get(s, "suit")]) for s in STRAINS}
        b = c.belote
        self.belote_enabled = b.enabled
        self.belote_points = b.points
        # the strains in which a belote may be held (belote.enabled, belote.tout_atout; none at sans atout)
        self.belote_strains = frozenset(s for s in STRAINS if belote_mod.belote_suits(c, s))
        self.belote_on_failure = choose(BELOTE_ON_FAILURE, b.on_failure)
        self.belote_multiplied = choose(BELOTE_MULTIPLIED, b.multiplied)
        # (outcome, holder's role) -> where its belote goes, for the places belote.placement gives
        placement = b.placement
        self.belote_placement = {}
        for outcome, role in BELOTE_PLACEMENT_RULES:
            block = placement[outcome] if placement is not None else None
            option = block[role] if block is not None else None
            if option is not None:
                self.belote_placement[(outcome, role)] = choose(BELOTE_PLACEMENT[(outcome, role)], option)
        # outcome -> (takers' award, defenders' award), each (terms, multiplied, base, base_on_sweep)
        self.awards = {}
        for name in _OUTCOMES:
            block = sc[name]
            if block is not None:
                self.awards[name] = tuple(
                    (tuple((t, choose(TERMS, t)) for t in spec.terms), choose(MULTIPLIED, spec.multiplied),
                     spec.base, spec.base_on_sweep)
                    for spec in (block.takers, block.defenders))


def compiled(rules) -> ScoreRules:
    """The ScoreRules of ``rules`` (Rules, Variant or compiled rules), built once per rule set."""
    return engine_phase(rules, "scoring", ScoreRules)


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
        out = {"NS": 0, "EW": 0}
        out[team] = sr.belote_points if strain in sr.belote_strains else 0
        return out
    return _team_numbers(belote, "belote")


def belote_dict(rules, strain: str, belote) -> dict:
    """Accept the belote as points per side, or as the protocol's team name (or null)."""
    return _belote_dict(compiled(rules), strain, belote)


# --- card points ------------------------------------------------------------

def _scaled(sr: ScoreRules, strain: str, tp: dict, points: dict, takers, words):
    """card_values.scale: the card points rescaled by the strain's ratio, made whole as the rule says.

    Scaled trick values get the last trick (or sweep) added after, unscaled; with ``complement`` the
    defenders get the scaled total of both sides less the takers' rounded points."""
    times, per = sr.scale[strain]
    src = tp if sr.scale_on_tricks else points
    out = {t: sr.scale_round(src[t] * times, per) for t in TEAMS}
    said = {t: f"{src[t]} × {times}/{per} → {out[t]}" for t in TEAMS} if words is not None else None
    if sr.scale_complement:
        if takers is None:
            raise ScoreInputError("card_values.scale.defenders is complement: the card points need the takers")
        other = "EW" if takers == "NS" else "NS"
        total = sr.scale_round((src["NS"] + src["EW"]) * times, per)
        out[other] = total - out[takers]
        if said is not None:
            said[other] = f"{src['NS'] + src['EW']} × {times}/{per} → {total} − takers' {out[takers]}"
    if sr.scale_on_tricks:
        for t in TEAMS:
            bonus = points[t] - tp[t]          # the last trick or the sweep, unscaled
            out[t] += bonus
            if said is not None and bonus:
                said[t] += f" + {bonus}"
    if words is not None:
        words.update(said)
    return out


def _card_points(sr: ScoreRules, strain, trick_points, tricks_won, last_trick, explain: bool, takers=None):
    """Card points per side, with the checked tricks; ``words`` (None unless ``explain``) say the sum.

    ``takers`` is needed only where card_values.scale gives the defenders the complement."""
    if strain not in STRAINS:
        raise ScoreInputError(f"bad strain {strain!r}: expected S, H, D, C, TA or SA")
    tp = _team_numbers(trick_points, "trick_points")
    won, last = _check_tricks(tricks_won, last_trick)
    points = dict(tp)
    words = {t: str(tp[t]) for t in TEAMS} if explain else None
    sweeper = sr.swept(won, tp, last)
    if sweeper is not None:
        # the side that took every trick (contract.capot_by) also took the last: card_values.sweep.kind
        # says what it adds
        extra, said = sr.sweep_kind(sr.last_trick, sr.sweep_value)
        points[sweeper] += extra
        if explain:
            words[sweeper] += said
    elif sr.last_trick:
        points[last] += sr.last_trick
        if explain:
            words[last] += f" + last trick {sr.last_trick}"
    if sr.scale and strain in sr.scale:
        points = _scaled(sr, strain, tp, points, takers, words)
    if explain:
        for t in TEAMS:
            if words[t] != str(points[t]):
                words[t] += f" = {points[t]}"
    return tp, points, won, last, words


def card_points(rules, strain: str, trick_points: dict, tricks_won: dict, last_trick: str,
                takers: str | None = None) -> dict:
    """Each side's card points: its trick values, plus the last trick (or the sweep's value), rescaled
    where card_values.scale says (the takers are needed when the defenders get the complement)."""
    return _card_points(compiled(rules), strain, trick_points, tricks_won, last_trick, False, takers)[1]


# --- rounding ---------------------------------------------------------------

def round_award(mode: str, value: int) -> int:
    """Round one side's award as the variant says (scoring.rounding): half up (85 -> 90) or half down (85 -> 80, 86 -> 90)."""
    return choose(ROUNDING, mode)(value)


# --- the contract and the award ---------------------------------------------

_KIND = {"TA": "tout_atout", "SA": "sans_atout"}


def _judge(sr: ScoreRules, contract: Contract, takers: str, defenders: str, cp, won, melds, belote,
           explain: bool, by_seat: dict | None = None, sweeper: str | None = None):
    """Made or failed, on the unrounded totals (rounded ones under contract.judged_on rounded_points);
    returns (made, totals, totals in words, the reason).

    ``sweeper`` is the side that took every trick as contract.capot_by counts it. The words and the
    reason are None unless ``explain``.
    """
    count_melds = sr.melds_count_towards_contract
    # belote.counts_as lowered_target: no total counts a belote; the takers' lowers their target instead
    count_belote = sr.belote_counts_towards_contract and not sr.belote_lowers_target
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
    if sr.judged_rounded:
        rounding = _rounding(sr, contract.strain)
        for t in TEAMS:
            rounded = rounding(totals[t])
            if explain and rounded != totals[t]:
                words[t] += f", rounded to {rounded}"
            totals[t] = rounded
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
        made = sweeper == takers
        why = None
        if explain:
            if won[takers] == 8:
                why = f"the capot bid is made: {takers} took all eight tricks"
            elif made:
                why = (f"the capot bid is made: {takers} took {won[takers]} tricks and the last, and the "
                       f"defenders' tricks are worth nothing")
            else:
                why = f"the capot bid fails: {takers} took {won[takers]} of the eight tricks"
        return made, totals, words, why
    bid = contract.value
    need, least, lowered = _target(sr, bid, belote[takers])
    if mine < need:
        failed = (f"failed: {mine} is below the bid {bid}" if not (sr.margin or lowered) else
                  f"failed: {mine} is below the bid {bid}{_target_words(sr, lowered)} = {need}")
    elif mine < least:
        failed = (f"failed: {mine} is below the least total {sr.minimum_total} that makes a contract"
                  + (f", less the takers' belote {lowered} = {least}" if lowered else ""))
    else:
        failed, passed = sr.versus_defenders(mine, theirs)
    if not explain:
        return failed is None, totals, None, None
    if failed is not None:
        return False, totals, words, failed
    why = f"made: {mine} reaches the bid {bid}" + _target_words(sr, lowered) + (f" = {need}" if lowered else "")
    if sr.minimum_total > bid:
        why += f" and the least total {sr.minimum_total}" + (f" less the belote = {least}" if lowered else "")
    return True, totals, words, why + passed


def _target(sr: ScoreRules, bid: int, takers_belote: int) -> tuple[int, int, int]:
    """What a numeric contract's takers must reach: (the bid + contract.margin, contract.minimum_total),
    each lowered by the takers' belote under belote.counts_as lowered_target; and that belote (or 0)."""
    lowered = takers_belote if sr.belote_lowers_target else 0
    return bid + sr.margin - lowered, sr.minimum_total - lowered, lowered


def _target_words(sr: ScoreRules, lowered: int) -> str:
    return (f" + {sr.margin}" if sr.margin else "") + (f" less the takers' belote {lowered}" if lowered else "")


def _outcome(sr: ScoreRules, contract: Contract, made: bool) -> str:
    if made and sr.capot_made and (contract.value == "capot" or contract.value == "generale"):
        # a made générale is scored as a made capot bid where the variant scores that apart
        return "capot_made"
    if not made and sr.capot_failed and (contract.value == "capot" or contract.value == "generale"):
        return "capot_failed"
    name = "made" if made else "failed"
    return ("coinched_" + name) if contract.multiplier > 1 else name


def _award(sr: ScoreRules, spec: tuple, where: tuple, side: str, strain: str, bid: int, bid_label: str,
           cp, sweeper, melds, m: int, explain: bool) -> tuple[int, str | None]:
    """One side's award: its terms in the order the variant lists them, then the multiplier.

    ``where`` is (outcome, role), to name the award in a message about broken
    rules. Returns the award and, if ``explain``, its arithmetic in words.
    """
    terms, multiplied, base, base_on_sweep = spec
    ctx = (sr, side, strain, bid, bid_label, cp, side == sweeper, melds, base, base_on_sweep, where)
    parts = []      # (term, label, amount)
    for term, amount_of in terms:
        part = amount_of(ctx)
        if part is not None:
            parts.append((term,) + part)
    plain = sum(amount for _, _, amount in parts)
    words = [f"{label} {amount}" for _, label, amount in parts] if explain else None
    if sr.rounding_stage.before_multiplier and parts:
        return _rounded_then_multiplied(sr, strain, parts, plain, words, multiplied, m, explain)
    if m == 1 or not parts:
        return plain, (" + ".join(words) if explain else None)
    return multiplied(parts, plain, words, m, explain)


def _rounding(sr: ScoreRules, strain: str):
    """scoring.rounding, with scoring.rounding_up_from's threshold for this kind of contract."""
    return sr.rounding_by_strain[strain] if sr.rounding_by_strain is not None else sr.rounding


def _rounded_then_multiplied(sr, strain, parts, plain, words, multiplied, m, explain):
    """scoring.rounding_stage before_multiplier: the sum of the terms is rounded, then the multiplier
    applies; the rounding's difference is multiplied where the whole award is, else added once."""
    rounded = _rounding(sr, strain)(plain)
    delta = rounded - plain
    if m == 1:
        value, text = rounded, (" + ".join(words) if explain else None)
    else:
        value, text = multiplied(parts, plain, words, m, explain)
        value += delta * m if multiplied is _times_all else delta
    if explain and delta:
        text = f"{text} (the terms' {plain} rounded to {rounded} before the multiplier)"
    return value, text


def _base(ctx):
    sr, side, strain, bid, bid_label, cp, swept, melds, base, base_on_sweep, where = ctx
    if swept and base_on_sweep is not None:
        return "base for a sweep", base_on_sweep
    if base is None:
        raise ScoreInputError(f"bad rules: rules.scoring.{where[0]}.{where[1]} lists the term 'base' "
                              "but gives no base amount")
    return "base", base if isinstance(base, int) else base[_KIND.get(strain, "suit")]


# award.terms: what one term adds to a side's award, as (label, amount), or None when it adds nothing;
# each reads ctx = (rules, side, strain, bid, bid label, card points, swept, melds, base, base on sweep, where)
TERMS = option_table("award.terms[]", {
    "card_points": lambda ctx: ("card points", ctx[5][ctx[1]]),
    "bid": lambda ctx: (ctx[4], ctx[3]),
    "base": _base,
    "own_melds": lambda ctx: ("melds", ctx[7][ctx[1]]) if ctx[7][ctx[1]] else None,
    "all_melds": lambda ctx: (("melds of both sides", ctx[7]["NS"] + ctx[7]["EW"])
                              if ctx[7]["NS"] or ctx[7]["EW"] else None),
    "sweep_bonus": lambda ctx: ("sweep bonus", ctx[0].sweep_bonus) if ctx[6] and ctx[0].sweep_bonus else None,
})


def _times_all(parts, plain, words, m, explain):
    if not explain:
        return plain * m, None
    text = " + ".join(words)
    return plain * m, (f"({text}) × {m}" if len(words) > 1 else f"{text} × {m}")


def _times_term(which: str):
    """The multiplier on one term only (``bid``, ``base``), the rest of the award unmultiplied."""
    def times(parts, plain, words, m, explain):
        value, out = 0, []
        for i, (term, label, amount) in enumerate(parts):
            value += amount * m if term == which else amount
            if explain:
                out.append(f"{words[i]} × {m}" if term == which else words[i])
        return value, (" + ".join(out) if explain else None)
    return times


_times_bid = _times_term("bid")

# award.multiplied: what the multiplier M > 1 applies to, from (parts, their sum, their words, M, explain)
MULTIPLIED = option_table("award.multiplied", {
    "all": _times_all,
    "bid": _times_bid,
    "base": _times_term("base"),        # 160 x M + the bid (Essarts, table-coinche)
    "none": lambda parts, plain, words, m, explain: (plain, " + ".join(words) if explain else None),
})


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
    tp, cp, won, last, cp_words = _card_points(sr, strain, trick_points, tricks_won, last_trick, explain,
                                               contract.takers)
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
        _, cp, won, last, cp_words = _card_points(sr, strain, tp, won, last, explain, contract.takers)
    takers = contract.takers
    defenders = "EW" if takers == "NS" else "NS"
    m = contract.multiplier
    lines = [f"card points: NS {cp_words['NS']}; EW {cp_words['EW']}"] if explain else None

    sweeper = sr.swept(won, tp, last)        # who took every trick, as contract.capot_by counts it
    made, totals, total_words, why = _judge(sr, contract, takers, defenders, cp, won, melds, belote, explain,
                                            by_seat, sweeper)
    if explain:
        lines.append(f"contract {contract.value}{strain} by {contract.declarer}"
                     + (f" × {m}" if m > 1 else "")
                     + f": takers {takers} count {total_words[takers]}, "
                       f"defenders {defenders} count {total_words[defenders]}")
    litige = (sr.litige and contract.value not in ("capot", "generale")
              and totals[takers] == totals[defenders]
              and totals[takers] >= max(_target(sr, contract.value, belote[takers])[:2]))
    replay = litige and sr.litige == "replay"
    if replay:
        # scoring.litige replay: the deal is thrown in, nobody scores
        made = False
        why = (f"litige: the takers' {totals[takers]} reaches the bid and is level with the defenders': "
               "the deal is thrown in and dealt again, nobody scores")
    elif litige:
        # scoring.litige: neither made nor failed; the defenders score as on a made contract
        made = False
        why = (f"litige: the takers' {totals[takers]} reaches the bid and is level with the defenders': "
               "their points are held back for the next deal's winners")
    if explain:
        lines.append(why)
    outcome = _outcome(sr, contract, True) if litige else _outcome(sr, contract, made)

    # A sweep may carry the swept side's melds over to the side that took every trick.
    eff = melds
    if sweeper is not None and sr.sweep_takes_melds(sweeper, takers):
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
        bid, bid_label = sr.scored_bid(contract.value), "bid"
        if bid != contract.value:       # scoring.bid_scored_as: judged on the bid, scored as another value
            bid_label = f"bid ({contract.value} scored as {bid})"
    factor = sr.bid_factor[strain]
    if factor != 1:                     # scoring.bid_factor: the bid term counts the value N times
        bid, bid_label = bid * factor, f"{bid_label} ({bid} × {factor})"
    # scoring.rounding_stage may round the card points the awards count (not those reported)
    counted = cp
    how = sr.rounding_stage.card_points
    if how is not None:
        counted = how(_rounding(sr, strain), cp, takers)
        if explain and counted != cp:
            said = {t: f"{t} {cp[t]} → {counted[t]}" for t in TEAMS}
            if how is _complement_rounded:
                said[defenders] += (f" (both sides' {cp['NS'] + cp['EW']} rounded to "
                                    f"{counted['NS'] + counted['EW']}, less the takers' {counted[takers]})")
            lines.append("card points rounded for the awards: " + "; ".join(said[t] for t in TEAMS))
    taker_spec, defender_spec = sr.awards[outcome]
    if litige:
        taker_spec = ((), taker_spec[1], None, None)       # the takers' award is held, not scored
    if replay:
        defender_spec = ((), defender_spec[1], None, None)  # nor the defenders': the deal is dealt again
    specs = {takers: taker_spec, defenders: defender_spec}
    roles = {takers: "takers", defenders: "defenders"}
    awards, words = {}, {}
    for side in TEAMS:
        awards[side], words[side] = _award(sr, specs[side], (outcome, roles[side]), side,
                                           strain, bid, bid_label, counted, sweeper, eff, m, explain)

    # The belote joins its holder's award, unless belote.placement moves it for this outcome (or
    # belote.on_failure a failing takers' belote).
    placed = ("coinched_" if m > 1 else "") + ("made" if made or litige else "failed")
    # a capot bid or a générale: belote.placement.capot_made / capot_failed first, coinched or not
    capot = ("capot_made" if made else "capot_failed") if contract.value in ("capot", "generale") else None
    for holder in TEAMS:
        amount = belote[holder]
        if not amount or replay:
            continue
        dest = holder
        where = (capot, roles[holder]) if (capot, roles[holder]) in sr.belote_placement else (placed, roles[holder])
        move = sr.belote_placement.get(where) if sr.belote_placement else None
        if move is not None:
            dest = move(takers, defenders)
            if dest is None:
                if explain:
                    lines.append(f"{roles[holder]} {holder}'s belote {amount} is lost ({where[0]})")
                continue
        elif holder == takers and not made and not litige:
            dest = sr.belote_on_failure(takers, defenders)
            if dest is None:
                if explain:
                    lines.append(f"the takers' belote {amount} is lost with the contract")
                continue
        times = m if sr.belote_multiplied and specs[dest][1] is _times_all and m > 1 else 1
        awards[dest] += amount * times
        if explain:
            label = "belote" if dest == holder else f"{holder}'s belote"
            text = f"{label} {amount} × {m}" if times > 1 else f"{label} {amount}"
            words[dest] = f"{words[dest]} + {text}" if words[dest] else text

    rounding = _rounding(sr, strain) if sr.rounding_stage.award else _exact
    score = {"NS": rounding(awards["NS"]), "EW": rounding(awards["EW"])}
    if explain:
        for side in TEAMS:
            line = f"{roles[side]} {side}: {words[side] or 'nothing'} = {awards[side]}"
            if score[side] != awards[side]:
                line += f", rounded to {score[side]}"
            lines.append(line)
        # takers first, as a person tells it
        if takers == "EW":
            lines[-2], lines[-1] = lines[-1], lines[-2]
    held = None
    if litige and not replay:
        held = {takers: _rounding(sr, strain)(cp[takers]), defenders: 0}
        if explain:
            lines.append(f"held back for the next deal's winners: the takers' card points {cp[takers]}"
                         + (f", rounded to {held[takers]}" if held[takers] != cp[takers] else ""))
    result = ScoreResult(made, cp, score, lines, "litige" if litige else outcome, totals, held)
    if not explain:
        result._explain = (sr, contract, tp, won, last, melds, belote, True, None, None, by_seat)
    return result
