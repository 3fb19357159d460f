"""The match: adding up the deals and saying when, and to whom, the match is won.

Follows docs/rules-model.md §7: a side wins by reaching (or exceeding) the
target, or by the higher total after the last deal of a match of a fixed
number of deals; when both sides cross in the same deal the variant says who
wins (or that the match is drawn);
and, where the variant asks for it, a side that crossed only thanks to its
belote in a deal it lost as takers or in which it took no trick must still
win a trick in a later deal before the victory counts, or a side that won no
trick in a deal (or failed its contract in it) cannot win on it; and a deal
that would take a side to the target may be counted with its exact,
unrounded score. A thrown-in deal (four passes) plays no card: nobody wins a
trick in it, and it has no winners to give held litige points to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..notation import NotationError, parse_team
from ..variants.compiled import compiled_rules
from ..variants.rules import Rules
from .errors import EngineError
from .options import choose, option_table
from .scoring import ROUNDING

TEAMS = ("NS", "EW")


# match.reach: has a total reached the target?
REACH = option_table("match.reach", {
    "reach": lambda total, target: total >= target,
    "exceed": lambda total, target: total > target,
})
DRAW = "draw"   # a winner that is nobody: the match is over, drawn (match.tie: draw)
NO_TRICK = {"NS": 0, "EW": 0}   # the tricks of a thrown-in deal: no card is played, nobody wins one


def _higher(scores: dict, i, deal, tie):
    """The side with more in ``scores``; equal: the tie rule (``tie(i, deal)``)."""
    if scores["NS"] != scores["EW"]:
        return "NS" if scores["NS"] > scores["EW"] else "EW"
    return tie(i, deal)


def _last_taker(i: int, deal) -> str:
    if deal.takers is None:
        raise MatchInputError(f"bad match deal {i}: takers is needed to name the last taker (match.both_cross)")
    return deal.takers


# match.both_cross: who wins when both sides reach the target in one deal, from
# (the match, deal number, deal); None: play goes on
BOTH_CROSS = option_table("match.both_cross", {
    "higher_total": lambda m, i, deal: _higher(m.totals, i, deal, m.tie_winner),
    "deal_winner": lambda m, i, deal: _deal_winner(i, deal, "match.both_cross"),
    "last_deal": lambda m, i, deal: _higher(deal.score, i, deal, m.tie_winner),
    "last_taker": lambda m, i, deal: _last_taker(i, deal),
    "counting_order": lambda m, i, deal: _counting_order(m, i, deal),
})
# match.tie: when it comes to equal points, who wins, from (deal number, deal); None: play goes on
TIE = option_table("match.tie", {
    "play_on": lambda i, deal: None,
    # a thrown-in deal has no winners: a level finish on it plays on, the next deal's winners take it
    "deal_winner": lambda i, deal: None if deal.takers is None else _deal_winner(i, deal, "match.tie"),
    "north_south": lambda i, deal: "NS",
    "draw": lambda i, deal: DRAW,
})


# match.belote_validation_deals: in which deals a crossing through belote alone must wait for a trick,
# from (the side failed as takers, the side won no trick)
BELOTE_VALIDATION_DEALS = option_table("match.belote_validation_deals", {
    "failed_or_no_trick": lambda failed_takers, no_trick: failed_takers or no_trick,
    "no_trick": lambda failed_takers, no_trick: no_trick,
    "any_deal": lambda failed_takers, no_trick: True,
})


class MatchInputError(EngineError, ValueError):
    """A match request whose deals cannot be read (a missing score, a bad team)."""


@dataclass
class MatchResult:
    """Where the match stands: open or over, the winner, the running totals."""

    state: str                  # "open" or "over"
    winner: str | None
    totals: dict
    deals_counted: int = 0      # deals added (later deals after the deciding one are ignored)
    waiting: dict = field(default_factory=dict)   # team -> True while it must still win a trick
    lines: list = field(default_factory=list)
    held: int = 0               # litige points still waiting for a deal's winners (scoring.litige)

    def to_json(self) -> dict:
        """The protocol's ``match`` result (``held`` only while a litige's points wait)."""
        out = {"state": self.state, "winner": self.winner, "totals": dict(self.totals)}
        if self.held:
            out["held"] = self.held
        return out


@dataclass(frozen=True)
class _Deal:
    score: dict
    takers: str | None
    made: bool | None
    belote: str | None
    tricks_won: dict | None
    belotes: dict | None = None     # protocol extension: belotes per side, when a side may have two
    held: dict | None = None        # protocol extension: the points a litige held back in this deal
    melds: dict | None = None       # protocol extension: the meld points inside ``score`` (counting_order)
    exact_score: dict | None = None  # protocol extension: ``score`` unrounded (match.last_deal_exact)


def _team_or_none(value, where: str) -> str | None:
    if value is None:
        return None
    try:
        return parse_team(value)
    except NotationError:
        raise MatchInputError(f"{where}: expected NS, EW or null, got {value!r}") from None


def _numbers(obj, where: str, minimum: int | None = None) -> dict:
    if not isinstance(obj, dict):
        raise MatchInputError(f"{where}: expected {{\"NS\": number, \"EW\": number}}, got {obj!r}")
    out = {}
    for team in TEAMS:
        v = obj.get(team)
        if isinstance(v, bool) or not isinstance(v, int) or (minimum is not None and v < minimum):
            low = "" if minimum is None else f" {minimum} or more"
            raise MatchInputError(f"{where}.{team}: expected a whole number{low}, got {v!r}")
        out[team] = v
    extra = set(obj) - set(TEAMS)
    if extra:
        raise MatchInputError(f"{where}: unknown side {sorted(extra)[0]!r} (expected NS and EW)")
    return out


def _parse_deal(i: int, raw) -> _Deal:
    where = f"bad match deal {i}"
    if not isinstance(raw, dict):
        raise MatchInputError(f"{where}: expected an object with score, takers, made, belote, tricks_won")
    if "score" not in raw:
        raise MatchInputError(f"{where}: missing field 'score'")
    score = _numbers(raw["score"], f"{where}: score")
    made = raw.get("made")
    if made is not None and not isinstance(made, bool):
        raise MatchInputError(f"{where}: made: expected true, false or null, got {made!r}")
    tricks = raw.get("tricks_won")
    if tricks is not None:
        tricks = _numbers(tricks, f"{where}: tricks_won", minimum=0)
    belotes = raw.get("belotes")
    if belotes is not None:
        belotes = _numbers(belotes, f"{where}: belotes", minimum=0)
    held = raw.get("held")
    if held is not None:
        held = _numbers(held, f"{where}: held", minimum=0)
    melds = raw.get("melds")
    if melds is not None:
        melds = _numbers(melds, f"{where}: melds", minimum=0)
    exact = raw.get("exact_score")
    if exact is not None:
        exact = _numbers(exact, f"{where}: exact_score")
    return _Deal(score, _team_or_none(raw.get("takers"), f"{where}: takers"), made,
                 _team_or_none(raw.get("belote"), f"{where}: belote"), tricks, belotes, held, melds, exact)


def _belotes_of(deal, team: str) -> int:
    """How many belotes ``team`` held in the deal (``belotes`` when given, else ``belote``)."""
    return deal.belotes[team] if deal.belotes is not None else int(deal.belote == team)


def _tricks_of(deal) -> dict | None:
    """The tricks each side won in the deal. A thrown-in deal (takers null, tricks_won null) is
    played with no card, so nobody won a trick in it: a side waiting for a trick keeps waiting,
    and nobody wins on it where a trick is needed (docs/rules-model.md §7, "A thrown-in deal")."""
    if deal.tricks_won is None and deal.takers is None:
        return NO_TRICK
    return deal.tricks_won


def _counting_order(m: "Match", i: int, deal) -> str | None:
    """match.both_cross: counting_order (Swiss chibre). The deal is counted in stages from the totals
    before it: each side's belote (belote.points each, to the side that held it), then its melds
    (the deal's ``melds``), then the rest of its score. The first stage at which a side reaches the
    target names the winner; both at one stage: the higher total at that stage (equal: ``tie``)."""
    if deal.melds is None:
        raise MatchInputError(f"bad match deal {i}: melds is needed to count the deal's melds before its "
                              "tricks (match.both_cross: counting_order)")
    points = m.c.belote.points
    stage = dict(m.before)
    for name, added in (("belote", {t: points * _belotes_of(deal, t) for t in TEAMS}), ("melds", deal.melds)):
        stage = {t: stage[t] + added[t] for t in TEAMS}
        at = [t for t in TEAMS if m.reached(stage[t])]
        if at:
            if m.lines is not None:
                m.lines.append(f"counted up to the {name}: NS {stage['NS']}, EW {stage['EW']}")
            return at[0] if len(at) == 1 else _higher(stage, i, deal, m.tie_winner)
    return _higher(m.totals, i, deal, m.tie_winner)


def _deal_winner(i: int, deal: _Deal, why: str) -> str:
    """The deal's winners: the takers when the contract was made, else the defenders."""
    if deal.takers is None or deal.made is None:
        raise MatchInputError(f"bad match deal {i}: takers and made are needed to name the deal's winners ({why})")
    return deal.takers if deal.made else ("EW" if deal.takers == "NS" else "NS")


class Match:
    """One match being played: ``add`` each deal in order until it names the winner.

    ``run_match`` checks the deals it is given and adds them; a caller that builds its own
    deals (``_Deal``, e.g. a simulation) adds them directly, with ``lines`` off to go faster."""

    def __init__(self, rules, lines: bool = True):
        c = self.c = compiled_rules(rules)
        g = self.g = c.match
        target = g.target
        reach = choose(REACH, g.reach)
        # match.target null: no match, single deals; no total ever reaches a target
        self.reached = (lambda total: False) if target is None else (lambda total: reach(total, target))
        self.both_cross = choose(BOTH_CROSS, g.both_cross)
        self.tie_winner = choose(TIE, g.tie)
        self.last_deal = g.deals     # optional: the match ends after this many deals at the latest
        # optional: a side that won no trick in a deal cannot win on it
        self.needs_trick = bool(g.last_deal_needs_a_trick)
        # optional: a side that failed its contract in a deal cannot win on it
        self.not_failed = bool(g.last_deal_not_failed)
        # optional: a side that won no trick in a deal but scored melds in it cannot win on it (capot + meld)
        self.not_capot_meld = bool(g.last_deal_not_capot_meld)
        # optional: a deal that would take a side to the target (or ends a match of ``deals``) counts unrounded
        self.exact = counts_exactly(c)
        self.validation_deal = choose(BELOTE_VALIDATION_DEALS, g.belote_validation_deals)
        # optional, left out true: does a thrown-in deal (takers null) count toward ``deals``?
        self.throw_ins_count = g.throw_ins_count
        self.counted = 0    # the deals that count toward ``deals``
        self.totals = {"NS": 0, "EW": 0}
        self.before = {"NS": 0, "EW": 0}      # the totals before the deal being added
        self.waiting = {"NS": False, "EW": False}
        self.lines = [] if lines else None
        self.count = 0
        self.held = 0       # points held back by litiges (scoring.litige), waiting for a deal's winners

    def add(self, deal: _Deal) -> str | None:
        """Add the next deal; the match's winner if this deal decides it (DRAW: over, drawn), else None."""
        self.count = i = self.count + 1
        if self.throw_ins_count or deal.takers is not None:
            self.counted += 1
        n = self.counted
        totals, waiting, lines, reached, g = self.totals, self.waiting, self.lines, self.reached, self.g
        if self.exact and (reached(totals["NS"] + deal.score["NS"]) or reached(totals["EW"] + deal.score["EW"])
                           or (self.last_deal is not None and n >= self.last_deal)):
            deal = _counted_exactly(i, deal, lines)
        score = deal.score
        self.before = before = {"NS": totals["NS"], "EW": totals["EW"]}
        totals["NS"] += score["NS"]
        totals["EW"] += score["EW"]
        if lines is not None:
            lines.append(f"deal {i}: NS {before['NS']} + {score['NS']} = {totals['NS']}, "
                         f"EW {before['EW']} + {score['EW']} = {totals['EW']}")
        if self.held or deal.held is not None:
            self.held = _carry_litige(i, deal, self.held, totals, lines)
        if not (g.belote_validation or self.needs_trick or self.not_failed or waiting["NS"] or waiting["EW"]):
            ns, ew = reached(totals["NS"]), reached(totals["EW"])
            if not (ns or ew) and (self.last_deal is None or n < self.last_deal):
                return None                  # the usual deal: nobody has reached the target yet
            if ns != ew:
                if lines is not None:
                    lines.append(f"{'NS' if ns else 'EW'} win the match")
                return "NS" if ns else "EW"

        tricks = _tricks_of(deal)
        # A side waiting for a trick is freed by a later deal in which it won one.
        for t in TEAMS:
            if waiting[t]:
                if tricks is None:
                    raise MatchInputError(f"bad match deal {i}: tricks_won is needed, {t} must win a trick "
                                          "to validate its total (match.belote_validation)")
                if tricks[t] >= 1:
                    waiting[t] = False
                    if lines is not None:
                        lines.append(f"{t} won a trick: its total now counts")

        # Crossing the target only through belote, in a failed contract or a deal without a trick.
        if g.belote_validation:
            for t in TEAMS:
                if reached(before[t]) or not reached(totals[t]):
                    continue
                if tricks is None:
                    raise MatchInputError(f"bad match deal {i}: tricks_won is needed to check "
                                          f"{t}'s crossing (match.belote_validation)")
                failed_takers = deal.takers == t and deal.made is False
                if not self.validation_deal(failed_takers, tricks[t] == 0):
                    continue
                b = self.c.belote.points * _belotes_of(deal, t)
                if b and not reached(totals[t] - b):
                    waiting[t] = True
                    if lines is not None:
                        lines.append(f"{t} reached the target only through its belote ({totals[t]} - {b} = "
                                     f"{totals[t] - b}): it must win a trick in a later deal")

        eligible = [t for t in TEAMS if reached(totals[t]) and not waiting[t]]
        if self.needs_trick and eligible:     # match.last_deal_needs_a_trick
            if tricks is None:
                raise MatchInputError(f"bad match deal {i}: tricks_won is needed to check that a side reaching "
                                      "the target won a trick in it (match.last_deal_needs_a_trick)")
            for t in [t for t in eligible if tricks[t] == 0]:
                eligible.remove(t)
                if lines is not None:
                    lines.append(f"{t} reach the target but won no trick in deal {i}: they cannot win on it")
        if self.not_capot_meld and eligible:  # match.last_deal_not_capot_meld
            if deal.tricks_won is None:
                raise MatchInputError(f"bad match deal {i}: tricks_won is needed to check that a side reaching "
                                      "the target was not capot with melds in it (match.last_deal_not_capot_meld)")
            capot = [t for t in eligible if deal.tricks_won[t] == 0]
            if capot and deal.melds is None:
                raise MatchInputError(f"bad match deal {i}: melds is needed: {capot[0]} reach the target having won "
                                      "no trick, and may not win on melds (match.last_deal_not_capot_meld)")
            for t in [t for t in capot if deal.melds[t] > 0]:
                eligible.remove(t)
                if lines is not None:
                    lines.append(f"{t} reach the target but were capot with {deal.melds[t]} of melds in deal {i}: "
                                 "they cannot win on it")
        if self.not_failed and eligible:      # match.last_deal_not_failed
            if (deal.takers is None) != (deal.made is None):
                raise MatchInputError(f"bad match deal {i}: takers and made are needed to check that a side "
                                      "reaching the target did not fail its contract in it (match.last_deal_not_failed)")
            if deal.made is False and deal.takers in eligible:
                eligible.remove(deal.takers)
                if lines is not None:
                    lines.append(f"{deal.takers} reach the target but failed their contract in deal {i}: "
                                 "they cannot win on it")
        winner = None
        if len(eligible) == 1:
            winner = eligible[0]
        elif len(eligible) == 2:
            winner = self.both_cross(self, i, deal)
            if winner is None and lines is not None:
                lines.append(f"both sides reach the target level at {totals['NS']}: play on")
        if winner is None and self.last_deal is not None and n >= self.last_deal:
            winner = _higher(totals, i, deal, self.tie_winner)     # the last deal of the match: the higher total
            if winner is None and lines is not None:
                lines.append(f"deal {n} of {self.last_deal}, totals level at {totals['NS']}: play on")
        if winner == DRAW:
            if lines is not None:
                lines.append("the match is drawn")
            return DRAW
        if winner is not None and lines is not None:
            lines.append(f"{winner} win the match")
        return winner


def _exact_rounding(c):
    """The rounding that takes a deal's exact score to its score, where a score is simply its exact
    score rounded (scoring.rounding on the final awards, the same for every contract, contracts judged
    on unrounded points); else None: rounding earlier (card points, before the multiplier), by kind of
    contract (rounding_up_from; a match deal names no strain) or in the judgement (judged_on:
    rounded_points, which can make a contract the exact points fail) leaves no simple link to check."""
    sc = c.scoring
    if (sc.rounding == "none" or sc.rounding_stage != "award"
            or sc.rounding_up_from is not None or c.contract.judged_on != "card_points"):
        return None
    return choose(ROUNDING, sc.rounding)


def _check_exact(i: int, deal: _Deal, rounding) -> None:
    """A deal's exact_score must round to its score (match.last_deal_exact counts one in place of the other)."""
    for t in TEAMS:
        if rounding(deal.exact_score[t]) != deal.score[t]:
            raise MatchInputError(f"bad match deal {i}: exact_score.{t} {deal.exact_score[t]} rounds to "
                                  f"{rounding(deal.exact_score[t])}, not to its score {deal.score[t]} (scoring.rounding)")


def run_match(rules, deals) -> MatchResult:
    """Add the deals in order and stop at the first one that decides the match."""
    if not isinstance(deals, (list, tuple)):
        raise MatchInputError(f"bad match: 'deals' must be a list, got {type(deals).__name__}")
    m = Match(rules)
    rounding = _exact_rounding(m.c) if m.exact else None
    for i, raw in enumerate(deals, start=1):
        deal = _parse_deal(i, raw)
        if rounding is not None and deal.exact_score is not None:
            _check_exact(i, deal, rounding)
        winner = m.add(deal)
        if winner is not None:
            return MatchResult("over", None if winner == DRAW else winner, dict(m.totals), i, dict(m.waiting),
                               m.lines, m.held)
    return MatchResult("open", None, dict(m.totals), len(deals), dict(m.waiting), m.lines, m.held)


def _counted_exactly(i: int, deal, lines) -> _Deal:
    """match.last_deal_exact: the deal with its exact (unrounded) score in place of the rounded one."""
    if deal.takers is None:
        return deal                 # a thrown-in deal scores nothing: there is nothing to round
    exact = deal.exact_score
    if exact is None:
        raise MatchInputError(f"bad match deal {i}: exact_score is needed, this deal would take a side to the "
                              "target or ends the match, and is counted unrounded (match.last_deal_exact)")
    if lines is not None and exact != deal.score:
        lines.append(f"deal {i} is counted exactly: " + ", ".join(
            f"{t} {exact[t]} (not {deal.score[t]})" for t in TEAMS if exact[t] != deal.score[t]))
    return _Deal(exact, deal.takers, deal.made, deal.belote, deal.tricks_won, deal.belotes, deal.held,
                 deal.melds, exact)


def _carry_litige(i: int, deal: _Deal, held: int, totals: dict, lines: list) -> int:
    """scoring.litige: a deal's held-back points wait; the next deal that is not a litige gives all
    that waits to its winners (the takers if made, else the defenders); a thrown-in deal has none,
    so they wait on past it. Returns what still waits."""
    now = sum(deal.held.values()) if deal.held is not None else 0
    if now:
        if lines is not None:
            lines.append(f"deal {i} is a litige: {now} held back" + (f", {held + now} in all" if held else ""))
        return held + now
    if held and deal.takers is None:     # a thrown-in deal has no winners: what waits goes on waiting
        if lines is not None:
            lines.append(f"deal {i} is thrown in: the {held} held back still wait")
        return held
    if held:
        winner = _deal_winner(i, deal, "scoring.litige")
        totals[winner] += held
        if lines is not None:
            lines.append(f"{winner} won deal {i}: the {held} held back go to them, {totals[winner]}")
    return 0


# --- the extensions a match reads ---------------------------------------------------------------

def counts_exactly(c) -> bool:
    """match.last_deal_exact, where it can matter: without scoring.rounding every score is exact already."""
    return bool(c.match.last_deal_exact) and c.scoring.rounding != "none"


def unread_extensions(rules) -> tuple:
    """The match-deal extensions this rule set's match never reads: ``melds`` counts only under
    match.both_cross: counting_order, ``exact_score`` only under match.last_deal_exact with a rounding.
    A deal counts the same with or without them, so what stands for the deal (a whole deal played, a
    proof that its award cannot arise) need not give them."""
    c = compiled_rules(rules)
    unread = []
    if c.match.both_cross != "counting_order":
        unread.append("melds")
    if not counts_exactly(c):
        unread.append("exact_score")
    return tuple(unread)


def as_read(rules, deal: dict) -> dict:
    """A match case's deal without the extensions this rule set's match never reads."""
    unread = unread_extensions(rules)
    return {k: v for k, v in deal.items() if k not in unread}


# --- a match that counts a deal exactly ------------------------------------------------------

_EXACT_RULES: dict = {}     # id(rules) -> (rules, the same rules without scoring.rounding, or None)


def exact_rules(rules):
    """The rule set with scores left unrounded, when its match counts a deal exactly
    (match.last_deal_exact with some scoring.rounding), else None."""
    kept = _EXACT_RULES.get(id(rules))
    if kept is None or kept[0] is not rules:
        c = compiled_rules(rules)
        exact = None
        if counts_exactly(c):
            doc = rules.to_dict()
            doc["scoring"] = dict(doc["scoring"], rounding="none")
            exact = Rules(doc, f"{rules.variant_id}-unrounded")
        kept = _EXACT_RULES[id(rules)] = (rules, exact)
    return kept[1]
