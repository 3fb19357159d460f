"""Worked examples for a rules page, computed by the reference engine under the page's rules.

A player reading "the defenders score 160 + the bid" wants to see it happen:
bid 90 hearts, take 89, and the defenders write down 250. Each example here
is one deal (or one meld comparison, or one match) described in words, then
scored by ``engine.scoring.score_deal`` / ``engine.melds.compare`` /
``engine.match.run_match``, whose own lines give the arithmetic. These are
documentation, not tests: the expected values of the test suite are worked
out by hand elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.errors import EngineError
from ..engine.match import exact_rules, run_match
from ..engine.melds import compare
from ..engine.scoring import score_deal
from ..notation import Contract, parse_card, team_of
from .templates import STRAIN_WORDS, Ctx

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
TEAM_NAMES = {"NS": "North–South", "EW": "East–West"}


@dataclass
class Example:
    """One worked example: a title, the situation in words, the engine's arithmetic, the outcome."""

    title: str
    setup: str
    lines: list[str] = field(default_factory=list)
    outcome: str = ""
    table: list[str] = field(default_factory=list)   # Markdown table rows, shown before the lines
    # what a deal example feeds into a match example
    result: object = None            # the engine's ScoreResult
    takers: str | None = None
    tricks: dict | None = None
    belote: str | None = None
    meld_points: dict | None = None  # a meld comparison's points per side
    exact_score: dict | None = None  # the deal scored unrounded (match.last_deal_exact), else None
    melds: dict | None = None        # the meld points inside the deal's score, when known
    contracts: list = field(default_factory=list)   # every contract the example plays, in order


def _other(team: str) -> str:
    return "EW" if team == "NS" else "NS"


def _contract_words(contract: Contract) -> str:
    value = "capot" if contract.is_capot else str(contract.value)
    text = f"{value} {STRAIN_WORDS[contract.strain]}"
    if contract.multiplier > 1:
        text += f", coinched (× {contract.multiplier})" if contract.multiplier == 2 else \
            f", surcoinched (× {contract.multiplier})"
    return text


def _tricks(n: int) -> str:
    return "1 trick" if n == 1 else f"{n} tricks"


def _auction_words(contract: Contract, ctx: Ctx) -> str:
    """How the contract came about, in words: the bid, then any coinche and surcoinche."""
    who = SEAT_NAMES[contract.declarer]
    value = "capot" if contract.is_capot else str(contract.value)
    text = f"{who} bids {value} {STRAIN_WORDS[contract.strain]}"
    if contract.multiplier > 1:
        opponent = {"N": "East", "S": "West", "E": "South", "W": "North"}[contract.declarer]
        partner = {"N": "South", "S": "North", "E": "West", "W": "East"}[contract.declarer]
        text += (", the auction ends, and " if ctx.after_auction else " and ") + f"{opponent} coinches"
        if contract.multiplier != ctx.m_coinche:
            text += f"; {partner} surcoinches"
        text += f" (× {contract.multiplier})"
    return text + f"; {TEAM_NAMES[contract.takers]} are the takers."


class _Deals:
    """Builds score examples for one rule set: the contract, who took what, and the engine's score."""

    def __init__(self, rules, ctx: Ctx):
        self.rules = rules
        self.c = ctx
        self.last = ctx.rules.card_values.last_trick

    def total(self, strain: str) -> int:
        return self.c.rules.card_total(strain)

    def bid(self, wanted: int) -> int:
        """The numeric bid an example names where it would like ``wanted``: ``wanted`` itself if the
        rule set can bid it, else its next bid up (BGA's ladder starts at 82, not 80), else its
        highest (belote-cli's only bid is 60). A worked example never shows a bid nobody can make."""
        c = self.c.rules
        if c.bid_fault(wanted) is None:
            return wanted
        bids = c.numeric_bids(2 * wanted)      # up to a ceiling above wanted when there is no maximum
        return next((v for v in bids if v > wanted), bids[-1])

    def score(self, title: str, contract: Contract, takers_points: int, takers_tricks: int,
              belote: str | None = None, melds: dict | None = None, note: str = "") -> Example:
        """A deal in which the takers' tricks hold ``takers_points`` card points and they take the last trick."""
        takers, defenders = contract.takers, contract.defenders
        total = self.total(contract.strain)
        trick_points = {takers: takers_points, defenders: total - takers_points}
        tricks = {takers: takers_tricks, defenders: 8 - takers_tricks}
        last = takers if takers_tricks else defenders
        melds = melds or {"NS": 0, "EW": 0}
        use_belote = belote if self.c.belote else None
        parts = [_auction_words(contract, self.c)]
        took = (f"They take {_tricks(takers_tricks)} holding {takers_points} points of cards"
                + (", the last trick among them" if last == takers and takers_tricks < 8 else "")
                + f"; {TEAM_NAMES[defenders]} take {_tricks(8 - takers_tricks)} and the other "
                f"{trick_points[defenders]} points.")
        if takers_tricks == 8:
            took = f"They take all eight tricks ({takers_points} points of cards); {TEAM_NAMES[defenders]} take none."
        parts.append(took)
        extras = []
        if melds["NS"] or melds["EW"]:
            extras.append(" and ".join(f"{TEAM_NAMES[t]}'s melds score {melds[t]}" for t in ("NS", "EW") if melds[t]))
        if use_belote:
            extras.append(f"{TEAM_NAMES[use_belote]} hold the belote"
                          + (" and say it" if self.c.rules.belote.claim != "automatic" else ""))
        if not extras:
            things = [w for ok, w in ((self.c.melds, "a meld"), (self.c.belote, "a belote")) if ok]
            if things:
                extras.append("nobody has " + " or ".join(things))
        if extras:
            parts.append(extras[0][0].upper() + extras[0][1:] + "".join(f"; {e}" for e in extras[1:]) + ".")
        if note:
            parts.append(note)
        ex = Example(title, " ".join(parts), contracts=[contract])
        try:
            result = score_deal(self.rules, contract, trick_points, tricks, last, melds,
                                {"NS": 0, "EW": 0} if not use_belote else use_belote)
        except EngineError as exc:
            ex.outcome = f"The reference engine cannot score this deal: {exc}"
            return ex
        ex.lines = list(result.lines)
        verdict = "is made" if result.made else "fails"
        ex.outcome = (f"The contract {verdict}: {TEAM_NAMES[takers]} score {result.score[takers]}, "
                      f"{TEAM_NAMES[defenders]} score {result.score[defenders]}.")
        ex.result, ex.takers, ex.tricks, ex.belote = result, takers, tricks, use_belote
        # what a match needs besides the score: no melds declared means none in the score
        # (match.both_cross: counting_order), and the score unrounded (match.last_deal_exact)
        ex.melds = None if melds["NS"] or melds["EW"] else dict(melds)
        unrounded = exact_rules(self.rules)
        if unrounded is not None:
            ex.exact_score = dict(score_deal(unrounded, contract, trick_points, tricks, last, melds,
                                             {"NS": 0, "EW": 0} if not use_belote else use_belote).score)
        return ex


def deal_examples(rules, ctx: Ctx) -> list[Example]:
    """The score examples every page shows, and those its rules make possible (capot, melds, TA, SA).

    The contracts are 90 hearts (130 tout atout, 90 sans atout) where the rule set can bid them,
    else its nearest bid (``_Deals.bid``); the takers' card points follow the bid: 11 below it
    is one point short with the last trick, and at least 90 (10 more in sans atout) is made."""
    d = _Deals(rules, ctx)
    last = d.last
    bid = d.bid(90)
    short_points = bid - 11                      # 79 under a bid of 90
    short = short_points + last                  # seed 000 §05: 89 points with the last trick
    made_points = max(bid, 90)
    made = made_points + last
    words = f"{bid} hearts"
    belote = " with a belote" if ctx.belote else ""
    out = []
    out.append(d.score(f"Bid {words}, take {short}: one point short",
                       Contract(bid, "H", "N", 1), short_points, 4))
    out.append(d.score(f"Bid {words}, take {made}{belote}",
                       Contract(bid, "H", "N", 1), made_points, 5, belote="NS"))
    out.append(d.score(f"The same deal, coinched: take {made}{belote}",
                       Contract(bid, "H", "N", ctx.m_coinche), made_points, 5, belote="NS"))
    out.append(d.score(f"Bid {words}, coinched, take {short}",
                       Contract(bid, "H", "N", ctx.m_coinche), short_points, 4))
    if ctx.surcoinche:
        out.append(d.score(f"Bid {words}, coinched and surcoinched, take {made}{belote}",
                           Contract(bid, "H", "N", ctx.m_surcoinche), made_points, 5, belote="NS"))
    full = d.total("H")
    if ctx.capot:
        out.append(d.score("A capot bid made", Contract("capot", "H", "N", 1), full, 8))
        out.append(d.score("A capot bid failed by one trick", Contract("capot", "H", "N", 1), full - 12, 7))
    out.append(d.score("All eight tricks without a capot bid", Contract(bid, "H", "N", 1), full, 8))
    if ctx.ta:
        ta_total = d.total("TA")
        ta_bid = d.bid(130)
        out.append(d.score("A tout atout contract failed", Contract(ta_bid, "TA", "N", 1), ta_bid - 20, 4,
                           note=f"In tout atout the cards are worth {ta_total}."))
    if ctx.sa:
        out.append(d.score("A sans atout contract made", Contract(bid, "SA", "N", 1), made_points + 10, 5))
    return out


# --- melds ----------------------------------------------------------------------------

MELD_CASES = (
    ("Runs against runs",
     {"N": [["AS", "KS", "QS"]], "S": [["KD", "QD", "JD", "TD"]], "E": [["JC", "TC", "9C", "8C"]], "W": []},
     "North declares a run of three to the ace of spades, South a run of four to the king of diamonds; "
     "East declares a run of four to the jack of clubs."),
    ("A square against a run",
     {"N": [["AS", "KS", "QS", "JS"]], "E": [["9S", "9H", "9D", "9C"]], "S": [], "W": []},
     "North declares a run of four to the ace of spades; East declares four nines."),
    ("Equal runs, one of them in trumps",
     {"N": [["KH", "QH", "JH"]], "E": [["KD", "QD", "JD"]], "S": [], "W": []},
     "Hearts are trumps. North declares a run of three to the king of hearts, East the same in diamonds."),
    ("Equal runs, neither in trumps",
     {"N": [["KS", "QS", "JS"]], "E": [["KD", "QD", "JD"]], "S": [], "W": []},
     "Hearts are trumps. North declares a run of three to the king of spades, East the same in diamonds; "
     "North led to the first trick."),
)


def meld_examples(rules, ctx: Ctx) -> list[Example]:
    """A few comparisons of the two sides' melds (hearts trumps, North leading)."""
    if not ctx.melds:
        return []
    out = []
    for title, declared, setup in MELD_CASES:
        cards = {seat: [[parse_card(x) for x in meld] for meld in melds] for seat, melds in declared.items()}
        ex = Example(title, setup)
        try:
            result = compare(rules, "H", cards, leader="N", direction=ctx.rules.table.direction)
        except EngineError as exc:
            ex.outcome = f"The reference engine cannot compare these melds: {exc}"
            out.append(ex)
            continue
        for team in ("NS", "EW"):
            valid = [m.describe() for seat in ("N", "E", "S", "W") if team_of(seat) == team
                     for m in result.valid.get(seat, [])]
            best = result.best.get(team)
            ex.lines.append(f"{team} melds: {', '.join(valid) or 'none'}; best: {best.describe() if best else 'none'}")
        ex.lines.append(result.reason)
        if result.winner:
            ex.outcome = (f"{TEAM_NAMES[result.winner]} score {result.points[result.winner]} for melds; "
                          f"{TEAM_NAMES[_other(result.winner)]} score none.")
        else:
            ex.outcome = "Neither side scores a meld."
        ex.meld_points = dict(result.points)
        out.append(ex)
    # the first comparison's melds, carried into a deal
    first = out[0]
    points = first.meld_points
    if points and (points["NS"] or points["EW"]):
        d = _Deals(rules, ctx)
        bid = d.bid(90)
        out.append(d.score(f"Melds in the score: the first comparison above, in a deal of {bid} hearts",
                           Contract(bid, "H", "N", 1), 65, 3, melds=points))
    return out


# --- the match ----------------------------------------------------------------------------

# A run of ordinary deals: (declarer, value, strain, coinched, takers' card points, takers' tricks, belote side);
# a value the rule set cannot bid is shown as its nearest bid (_Deals.bid)
MATCH_DEALS = (
    ("N", 90, "H", False, 90, 5, "takers"),
    ("E", 100, "S", False, 110, 6, None),
    ("S", 110, "D", False, 85, 4, None),
    ("W", 80, "C", True, 92, 5, None),
    ("N", 120, "H", False, 130, 7, None),
    ("E", 90, "S", False, 72, 4, "defenders"),
)


def _match_entry(ex: Example) -> dict:
    entry = {"score": dict(ex.result.score), "takers": ex.takers, "made": ex.result.made,
             "belote": ex.belote, "tricks_won": dict(ex.tricks)}
    if ex.melds is not None:
        entry["melds"] = ex.melds
    if ex.exact_score is not None:
        entry["exact_score"] = ex.exact_score
    return entry


def match_examples(rules, ctx: Ctx) -> list[Example]:
    """A whole match of ordinary deals to the target; then two sides crossing in one deal."""
    target = ctx.rules.match.target
    if target is None:
        return []           # single deals (match.target null): no match to show
    d = _Deals(rules, ctx)
    out = []
    rows = ["| deal | contract | made? | NS | EW | NS total | EW total |", "|---|---|---|---|---|---|---|"]
    entries = []
    contracts = []
    totals = {"NS": 0, "EW": 0}
    result = None
    for i in range(60):
        decl, value, strain, coinched, points, tricks, belote = MATCH_DEALS[i % len(MATCH_DEALS)]
        contract = Contract(d.bid(value), strain, decl, ctx.m_coinche if coinched else 1)
        holder = None if belote is None else (contract.takers if belote == "takers" else contract.defenders)
        ex = d.score("", contract, points, tricks, belote=holder)
        if ex.result is None:
            return [Example("A match", "The reference engine cannot score the deals of this match.",
                            outcome=ex.outcome)]
        entries.append(_match_entry(ex))
        contracts.append(contract)
        for t in totals:
            totals[t] += ex.result.score[t]
        value = f"{contract.value} {STRAIN_WORDS[contract.strain]} by {SEAT_NAMES[decl]}"
        if contract.multiplier > 1:
            value += f", coinched (× {contract.multiplier})"
        rows.append(f"| {i + 1} | {value}"
                    + (f"; {TEAM_NAMES[holder]} belote" if ex.belote else "")
                    + f" | {'yes' if ex.result.made else 'no'} | {ex.result.score['NS']} | "
                    f"{ex.result.score['EW']} | {totals['NS']} | {totals['EW']} |")
        try:
            result = run_match(rules, entries)
        except EngineError as exc:
            return [Example("A match", f"The reference engine cannot add up this match: {exc}")]
        if result.state == "over":
            break
    ex = Example(f"A match to {target}",
                 "The same six ordinary deals are played over and over, each scored as above, until the match "
                 "is decided.", table=rows, contracts=contracts)
    if result is not None:
        ex.lines = [line for line in result.lines if not line.startswith("deal ") or "counted exactly" in line]
        if result.state == "over" and result.winner is None:
            ex.outcome = (f"After deal {result.deals_counted} the match is drawn at {result.totals['NS']} "
                          f"to {result.totals['EW']}.")
        elif result.state == "over":
            ex.outcome = (f"After deal {result.deals_counted}, {TEAM_NAMES[result.winner]} win the match, "
                          f"{_score_line(result)}.")
        else:
            ex.outcome = f"After {result.deals_counted} deals nobody has won yet."
    out.append(ex)
    out.extend(_both_cross(d, ctx))
    return out


def _both_cross(d: _Deals, ctx: Ctx) -> list[Example]:
    """Both sides cross the target in one deal: once with different totals, once with equal totals."""
    target = ctx.rules.match.target
    exceed = ctx.rules.match.reach == "exceed"
    # A final deal in which both sides score: a made contract where the defenders keep their points,
    # else a failed one where the takers keep a belote.
    candidates = (
        (Contract(d.bid(80), "S", "E", 1), 90, 5, None),
        (Contract(d.bid(100), "S", "E", 1), 60, 3, "takers"),
    )
    for contract, points, tricks, belote in candidates:
        holder = None if belote is None else contract.takers
        ex = d.score("", contract, points, tricks, belote=holder)
        if ex.result is None:
            continue
        # the score the match counts: unrounded under match.last_deal_exact
        s = ex.exact_score or ex.result.score
        if min(s.values()) >= 3:
            break
    else:
        return []
    r = ex.result
    winners = contract.takers if r.made else contract.defenders
    losers = _other(winners)
    out = []
    # 1. the deal's losers end higher; 2. equal totals.
    gap_losers = min(30, s[losers] - 1)
    gap_winners = max(1 if exceed else 0, gap_losers // 3)
    if gap_winners >= min(gap_losers, s[winners]):
        gap_winners = 1 if exceed else 0
    cases = [("Both sides cross the target in the same deal", gap_winners, gap_losers)]
    if ctx.rules.match.both_cross == "higher_total":     # only then do equal totals need a rule
        cases.append(("Both sides cross the target with equal totals", gap_losers, gap_losers))
    for title, gw, gl in cases:
        if gw >= s[winners] or gl >= s[losers] or (exceed and min(gw, gl) < 1):
            continue
        before = {winners: target - s[winners] + gw, losers: target - s[losers] + gl}
        earlier = {"score": dict(before), "takers": None, "made": None, "belote": None,
                   "tricks_won": {"NS": 4, "EW": 4}, "melds": {"NS": 0, "EW": 0}}
        final = _match_entry(ex)
        try:
            result = run_match(d.rules, [earlier, final])
        except EngineError as exc:
            out.append(Example(title, "", outcome=f"The reference engine cannot decide this match: {exc}"))
            continue
        setup = (f"Before the last deal North–South have {before['NS']} and East–West {before['EW']} "
                 f"(the earlier deals added up). Then {SEAT_NAMES[contract.declarer]} bids "
                 f"{_contract_words(contract)} and the contract {'is made' if r.made else 'fails'}: "
                 f"North–South score {r.score['NS']} and East–West {r.score['EW']}, so {TEAM_NAMES[winners]} won the deal.")
        m = Example(title, setup, contracts=[contract])
        m.lines = list(result.lines)
        if result.state == "over" and result.winner is None:
            m.outcome = f"The match is drawn at {result.totals['NS']} to {result.totals['EW']}: nobody wins."
        elif result.state == "over":
            m.outcome = f"{TEAM_NAMES[result.winner]} win the match, {_score_line(result)}."
        else:
            m.outcome = (f"Nobody has won yet at {result.totals['NS']} to {result.totals['EW']}: "
                         "the match goes on.")
        out.append(m)
    return out


def all_examples(rules, ctx: Ctx) -> list[Example]:
    return deal_examples(rules, ctx) + meld_examples(rules, ctx) + match_examples(rules, ctx)



def _score_line(result) -> str:
    """The winners' total first, as a scorer says it: "1600 to 1030"; the other way round when the
    winners have the lower total (a rule can make them win anyway), said plainly."""
    winner = result.winner
    loser = "EW" if winner == "NS" else "NS"
    mine, theirs = result.totals[winner], result.totals[loser]
    line = f"{mine} to {theirs}"
    if mine < theirs:
        line += f" (the other side has more, but the rules give the match to {TEAM_NAMES[winner]})"
    return line
