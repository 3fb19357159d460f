"""Whole deals that realise a score fixture's summary, so that a deal-only engine is judged on it
(and melds and match fixtures too: see ``_realise_melds`` and ``_realise_match``).

A ``score`` case gives a summary of a deal (contract, trick points, tricks,
last trick, melds after comparison, belote). A program that scores only
inside its game loop cannot answer it, but it can play a whole ``deal``. This
module builds, for a score fixture and a rule set, one legal whole deal
(dealer, hands, calls, the 32 cards; melds declared and belote said where the
rule set asks) whose summary under that rule set is exactly the fixture's.
The runner then poses the deal and judges the reply's ``made``,
``card_points`` and ``score`` on the fixture's own hand-derived (or carried)
expectation.

How a deal is found: hands are dealt at random from a seed, with the meld
and belote cards planted in a seat of the side the summary names and the
other kings and queens of trump kept apart, and the strong cards leaning
towards the side that must take the most tricks; the auction is the
shortest that ends in the contract; the play is a randomised depth-first
search over legal cards that prunes a trick as soon as a side has more
tricks or points than the summary gives it. The reference engine is used
for what is legal and, at the end, to check that the deal realises the
summary (``realises``); it never says what the score should be.
"""

from __future__ import annotations

import json
import random
from itertools import combinations

from ..errors import CoincheSpecError
from ..notation import SEATS, SUITS, card_name, parse_call, parse_card, parse_contract, partner, team_of
from ..engine.game import Deal, calls_for_contract
from ..engine import belote as belote_mod
from ..engine import melds as melds_mod
from ..engine.masks import RK, RQ, cards_of
from ..engine.match import as_read
from ..engine.errors import EngineError
from ..engine.scoring import belote_dict

SUMMARY_FIELDS = ("contract", "trick_points", "tricks_won", "last_trick", "melds", "belote")
SIDE_SEATS = {"NS": ("N", "S"), "EW": ("E", "W")}
ATTEMPTS = 60          # hands dealt per (fixture, rule set) before giving up
NODES = 4000           # cards tried in the play search of one hand
VALUE_LEAN = 12.0      # how strongly every other hand leans the points (see realise)
MATCH_ATTEMPTS = 12    # hands dealt for one deal of a match, for each of its first summaries
MATCH_TRIES = 12       # searches for one deal of a match, over its first summaries in turn


class Unrealisable(CoincheSpecError):
    """No legal whole deal realises this summary under this rule set (the reason says why)."""


KINDS = ("score", "melds", "match")   # the case kinds realised deals can pose
# match-deal fields no summary search here gives (melds and exact_score only where the match reads them:
# engine.match.as_read leaves them out elsewhere, and the deal counts the same without them)
MATCH_EXTENSIONS = ("belotes", "melds", "exact_score")


def summary_of_case(case: dict) -> dict:
    """The fields of a score case (or a melds case) a deal must reproduce."""
    if case["kind"] == "melds":
        return {k: case[k] for k in ("strain", "declared", "leader") if k in case}
    if case["kind"] == "match":
        return {"deals": case["deals"]}
    out = {k: case[k] for k in SUMMARY_FIELDS}
    if "tricks_won_by_seat" in case:
        out["tricks_won_by_seat"] = case["tricks_won_by_seat"]
    return out


def _belote_counts(rules, strain: str) -> bool:
    """Whether this rule set has a belote in this contract (where it has none the summary's belote
    scores nothing, and no deal can show one)."""
    return bool(belote_dict(rules, strain, "NS")["NS"])


def replay(rules, deal_case: dict) -> Deal:
    """The finished Deal of a stored deal case; EngineError (or ValueError) when it is not whole and legal."""
    hands = {seat: [parse_card(c) for c in cards] for seat, cards in deal_case["hands"].items()}
    deal = Deal.start(rules, deal_case["dealer"], hands)
    for call in deal_case["calls"]:
        deal = deal.apply_call(call["seat"], parse_call(call["call"]))
    for p in deal_case["play"]:
        melds = [[parse_card(c) for c in m] for m in p["melds"]] if "melds" in p else None
        deal = deal.apply_card(p["seat"], parse_card(p["card"]), melds, p.get("say"))
    if deal.phase != "done":
        raise Unrealisable(f"the deal stops before its end ({deal.phase}, {deal.cards_played} cards)")
    return deal


def summary_of_deal(rules, deal_case: dict, deal: Deal | None = None) -> dict:
    """The score-case summary of a whole deal under ``rules``, as the reference engine reads it."""
    deal = replay(rules, deal_case) if deal is None else deal
    o = deal.outcome()
    out = {"contract": deal.contract.to_json(), "trick_points": dict(o.trick_points),
           "tricks_won": dict(o.tricks_won), "last_trick": o.last_trick, "melds": dict(o.melds),
           "belote": o.belote}
    if deal.contract.value == "generale":
        out["tricks_won_by_seat"] = deal.tricks_by_seat()
    if o.belote_points["NS"] and o.belote_points["EW"]:
        out["belote"] = "both"
    return out


def realises(rules, case: dict, deal_case: dict) -> str | None:
    """None when the whole deal's summary under ``rules`` is the score case's (for a melds case: the
    same declarations, in that strain, with that first leader); else what differs."""
    if case["kind"] == "melds":
        return _realises_melds(rules, case, deal_case)
    if case["kind"] == "match":
        return _realises_match(rules, case, deal_case)
    try:
        deal = replay(rules, deal_case)
        got = summary_of_deal(rules, deal_case, deal)
    except (EngineError, ValueError, KeyError, TypeError, Unrealisable) as exc:
        return f"the deal does not replay: {exc}"
    want = summary_of_case(case)
    strain = want["contract"]["strain"]
    if not _belote_counts(rules, strain):
        want["belote"] = None          # the summary's belote scores nothing here: the deal shows none
    if "tricks_won_by_seat" in want:
        got["tricks_won_by_seat"] = deal.tricks_by_seat()
    contract = parse_contract(want["contract"])
    want["contract"] = {"value": contract.value, "strain": contract.strain, "declarer": contract.declarer,
                        "multiplier": contract.multiplier}
    gc = got["contract"]
    got["contract"] = {k: gc[k] for k in ("value", "strain", "declarer", "multiplier")}
    diffs = [f"{k}: the deal gives {got.get(k)!r}, the summary {want[k]!r}" for k in want if got.get(k) != want[k]]
    return "; ".join(diffs) or None


# --- building a deal ------------------------------------------------------------

def _power(rules, strain: str, card: int) -> float:
    """How likely a card is to take a trick: trumps first, then by value (for leaning the deal)."""
    from ..engine.play import compiled as play_rules
    value = play_rules(rules, strain).value[card]
    trump = strain == "TA" or (strain in SUITS and card // 8 == SUITS.index(strain))
    return (1.0 if trump else 0.0) + value / 20.0


def _meld_plans(rules, strain: str, side: str, points: int, rng: random.Random, taken: dict,
                strong: int = 0) -> list:
    """Declarations of ``side`` whose points after comparison are ``points``, at random: each plan maps
    a seat to its melds. One seat's first; where no one seat's melds give the points (one hand holds
    8 cards), both partners' (a square for one, runs for the other). With ``strong`` 1 the plans of
    the strongest cards come first (a side that must take most tricks with its melds in hand: sixteen
    cards of jacks and queens in a spade contract leave the opponents six trumps), with -1 the
    weakest, fewer cards first either way (the rest of the deal has room); with 0 in a random order."""
    candidates = [c for c in melds_mod.candidates(rules, strain)
                  if not any(x in taken and team_of(taken[x]) != side for x in c[0])]
    plans = []
    for n in (1, 2, 3):
        combos = [combo for combo in combinations(candidates, n)
                  if sum(p for _, p in combo) >= points and len({x for c, _ in combo for x in c}) <= 8]
        rng.shuffle(combos)
        for combo in combos[:200]:
            cards = [c for c, _ in combo]
            for seat in rng.sample(SIDE_SEATS[side], 2):
                if any(taken.get(x) not in (None, seat) for c in cards for x in c):
                    continue
                if _declares(rules, strain, side, points, {seat: cards}):
                    plans.append({seat: cards})
        if plans:
            break
    if not plans:
        plans = _two_seat_plans(rules, strain, side, points, rng, taken)
    rng.shuffle(plans)
    if strong:
        def weight(plan):
            cards = {x for melds in plan.values() for m in melds for x in m}
            power = sum(_power(rules, strain, x) for x in cards) / len(cards)
            return -strong * power + len(cards) / 8 + rng.gauss(0, 0.3)
        plans.sort(key=weight)
    return plans


def _leaves_room(values: tuple, summary: dict, fixed: dict) -> bool:
    """Whether the planted cards let each side's tricks hold the summary's points: every player puts one
    card in each trick, so a side's tricks hold at least each player's cheapest cards, one a trick,
    and at most his dearest (a player's unplanted cards counted as the cheapest, or the dearest, of
    those nobody holds). A hand of eight planted kings and queens cannot play to a trick worth nothing."""
    free = sorted(values[x] for x in range(32) if x not in fixed)
    if not free:
        free = [0]
    hands = {s: [values[x] for x, seat in fixed.items() if seat == s] for s in SEATS}
    for side in ("NS", "EW"):
        tricks, points = summary["tricks_won"][side], summary["trick_points"][side]
        low = high = 0
        for seat in SEATS:
            room = 8 - len(hands[seat])
            cheap = sorted(hands[seat] + [free[0]] * room)
            dear = sorted(hands[seat] + [free[-1]] * room)
            low += sum(cheap[:tricks])
            high += sum(dear[8 - tricks:]) if tricks else 0
        if not low <= points <= high:
            return False
    return True


def _declares(rules, strain: str, side: str, points: int, plan: dict) -> bool:
    """Whether the seats' melds in ``plan`` are all valid and score ``points`` for ``side``."""
    declared = {s: [list(c) for c in plan.get(s, ())] for s in SEATS}
    try:
        result = melds_mod.compare(rules, strain, declared)
    except EngineError:
        return False
    return result.points[side] == points and not result.invalid


def _two_seat_plans(rules, strain: str, side: str, points: int, rng: random.Random, taken: dict) -> list:
    """Plans sharing the points between the side's two players, each declaring what one hand of 8
    holds (engine.melds.hand_declarations), no card in both hands."""
    a, b = SIDE_SEATS[side]
    # every declaration, the cards taken by the other side too (the same table for each hand dealt):
    # a plan holding one is refused below
    groups = melds_mod.hand_declarations(rules, strain)
    shares = [p for p in groups if points - p in groups]
    rng.shuffle(shares)
    plans = []
    for share in shares:
        firsts, seconds = groups[share], groups[points - share]
        found = 0
        for _ in range(200):
            one, two = rng.choice(firsts), rng.choice(seconds)
            held = {a: {x for m in one for x in m}, b: {x for m in two for x in m}}
            if held[a] & held[b] or any(taken.get(x) not in (None, seat) for seat in held for x in held[seat]):
                continue
            plan = {a: list(one), b: list(two)}
            if _declares(rules, strain, side, points, plan):
                plans.append(plan)
                found += 1
                if found >= 4:
                    break
        if len(plans) >= 60:
            break
    return plans


def _hands(rules, strain: str, fixed: dict, lean: float, rng: random.Random, value_lean: float = 0.0) -> dict:
    """Four hands of 8: ``fixed`` cards where they are planted, the others dealt at random with the
    strong cards leaning towards NS (``lean`` > 0) or EW (< 0), and the cards worth points more so
    by ``value_lean`` (a side that takes its tricks with few points holds the low cards)."""
    hands = {s: [c for c, seat in fixed.items() if seat == s] for s in SEATS}
    if any(len(h) > 8 for h in hands.values()):
        return None
    free = [c for c in range(32) if c not in fixed]
    from ..engine.play import compiled as play_rules
    value = play_rules(rules, strain).value
    weights = {c: 2.718 ** (lean * _power(rules, strain, c) + value_lean * value[c] / 10.0 + rng.gauss(0, 0.4))
               for c in free}
    room = {"NS": 16 - len(hands["N"]) - len(hands["S"]), "EW": 16 - len(hands["E"]) - len(hands["W"])}
    ns_cards = []
    pool = list(free)
    while len(ns_cards) < room["NS"]:
        total = sum(weights[c] for c in pool)
        r = rng.random() * total
        for c in pool:
            r -= weights[c]
            if r <= 0:
                break
        pool.remove(c)
        ns_cards.append(c)
    for side, cards in (("NS", ns_cards), ("EW", pool)):
        rng.shuffle(cards)
        a, b = SIDE_SEATS[side]
        need_a = 8 - len(hands[a])
        hands[a] += cards[:need_a]
        hands[b] += cards[need_a:]
    if any(len(h) != 8 for h in hands.values()):
        return None
    return {s: sorted(h) for s, h in hands.items()}


class _Search:
    """The randomised depth-first search for a play with the summary's tricks and points."""

    def __init__(self, summary: dict, total: int, rng: random.Random, order_rule=None, values=None):
        self.want_tricks = summary["tricks_won"]["NS"]
        self.want_points = summary["trick_points"]["NS"]
        self.total = total
        self.last = summary["last_trick"]
        self.by_seat = summary.get("tricks_won_by_seat")
        self.rng = rng
        self.order_rule = order_rule     # (seat, first card, second card): seat plays first before second
        self.values = values             # each card's points: to try first the cards the summary asks for
        self.nodes = 0

    def _ordered(self, st, legal: list) -> list:
        """The legal cards shuffled; most often (seven times in ten) the highest first where the player's
        side still wants more points a trick than the other side, the lowest first where it wants fewer
        (a side that must take its tricks with nothing plays its sevens and eights first)."""
        self.rng.shuffle(legal)
        if self.values is None or self.rng.random() >= 0.7:
            return legal
        side = 0 if team_of(st.to_act) == "NS" else 1
        points = (self.want_points, self.total - self.want_points)
        tricks = (self.want_tricks, 8 - self.want_tricks)
        need = [(points[i] - st._points[i]) / (tricks[i] - st._won[i]) if tricks[i] > st._won[i] else -1.0
                for i in (0, 1)]
        sign = -1 if need[side] >= need[1 - side] else 1
        return sorted(legal, key=lambda card: sign * self.values[card])

    def ok(self, st) -> bool:
        won, pts = st._won, st._points
        if won[0] > self.want_tricks or won[1] > 8 - self.want_tricks:
            return False
        if pts[0] > self.want_points or pts[1] > self.total - self.want_points:
            return False
        if self.by_seat is not None:
            counts = {s: 0 for s in SEATS}
            for _, w, _ in st._tricks:
                counts[SEATS[w]] += 1
            if any(counts[s] > self.by_seat[s] for s in SEATS):
                return False
        if st.done:
            return team_of(st.last_trick_winner) == self.last
        return True

    def run(self, st, cards: list) -> list | None:
        if st.done:
            return cards
        self.nodes += 1
        if self.nodes > NODES:
            return None
        legal = self._ordered(st, cards_of(st.legal()))
        seat = st.to_act
        for card in legal:
            if self.order_rule is not None:
                holder, first, second = self.order_rule
                if seat == holder and card == second and st.hand(seat) >> first & 1:
                    continue
            nxt = st.apply(card)
            if len(nxt._trick) == 0 and not self.ok(nxt):
                continue
            found = self.run(nxt, cards + [(seat, card)])
            if found is not None:
                return found
            if self.nodes > NODES:
                return None
        return None


def _card_values(rules, strain: str) -> tuple:
    from ..engine.play import compiled as play_rules
    return tuple(play_rules(rules, strain).value)


def _pack_total(rules, strain: str) -> int:
    from ..engine.play import compiled as play_rules
    return sum(play_rules(rules, strain).value)


def _realises_melds(rules, case: dict, deal_case: dict) -> str | None:
    try:
        deal = replay(rules, deal_case)
    except (EngineError, ValueError, KeyError, TypeError, Unrealisable) as exc:
        return f"the deal does not replay: {exc}"
    diffs = []
    if deal.contract.strain != case["strain"]:
        diffs.append(f"strain: the deal's contract is in {deal.contract.strain}, the case's {case['strain']}")
    declared = {s: [[card_name(c) for c in m] for m in deal.declared[s]] for s in SEATS}
    if declared != case["declared"]:
        diffs.append(f"declared: the deal declares {declared}, the case {case['declared']}")
    if deal.late_melds:
        diffs.append("a declaration is made after a player's first card")
    if "leader" in case and deal.log[0][0] != case["leader"]:
        diffs.append(f"leader: {deal.log[0][0]} leads the deal, the case says {case['leader']}")
    return "; ".join(diffs) or None


def _realise_melds(rules, case: dict, seed: int) -> dict:
    """A deal in the case's strain where each player holds and declares, with his first card, exactly
    what the melds case declares for him (the first lead from the case's leader, when it names one)."""
    fixed: dict = {}
    for seat, melds in case["declared"].items():
        for meld in melds:
            for name in meld:
                card = parse_card(name)
                if fixed.setdefault(card, seat) != seat:
                    raise Unrealisable(f"{name} is declared by {fixed[card]} and {seat}")
    for seat in SEATS:
        held = sum(1 for s in fixed.values() if s == seat)
        if held > 8:
            raise Unrealisable(f"{seat} declares {held} different cards; a hand holds 8")
    rng = random.Random(seed)
    strain = case["strain"]
    last = "no auction of this rule set gives a contract in this strain"
    for _attempt in range(ATTEMPTS):
        hands = _hands(rules, strain, fixed, 0.0, rng)
        if hands is None:
            raise Unrealisable("the declared cards do not fit in four hands of 8")
        masks = {s: sum(1 << c for c in h) for s, h in hands.items()}
        for dealer in rng.sample(SEATS, 4):
            start = Deal.start(rules, dealer, masks)
            bids = [(s, c) for s, c in start.legal_calls()
                    if c.kind == "bid" and c.strain == strain and isinstance(c.value, int)]
            if not bids:
                continue
            seat, call = min(bids, key=lambda b: b[1].value)
            from ..notation import Contract
            calls = calls_for_contract(rules, dealer, masks, Contract(call.value, strain, seat, 1))
            if calls is None:
                continue
            deal = start
            for s, c in calls:
                deal = deal.apply_call(s, c)
            if "leader" in case and deal.play.leader != case["leader"]:
                last = f"no dealer found whose deal {case['leader']} leads"
                continue
            play, st = [], deal.play
            while not st.done:
                card = rng.choice(cards_of(st.legal()))
                play.append((st.to_act, card))
                st = st.apply(card)
            out_play, first = [], set()
            for seat, card in play:
                entry = {"seat": seat, "card": card_name(card)}
                if seat not in first and case["declared"][seat]:
                    entry["melds"] = [list(m) for m in case["declared"][seat]]
                first.add(seat)
                out_play.append(entry)
            deal_case = {"dealer": dealer, "hands": {s: [card_name(c) for c in hands[s]] for s in SEATS},
                         "calls": [{"seat": s, "call": str(c)} for s, c in calls], "play": out_play}
            reason = _realises_melds(rules, case, deal_case)
            if reason is None:
                return deal_case
            last = reason
    raise Unrealisable(f"no deal found in {ATTEMPTS} hands: {last}")


def realise(rules, case: dict, seed: int = 0, attempts: int = ATTEMPTS) -> dict:
    """A whole deal case whose summary under ``rules`` is the score case's; Unrealisable if none is found
    in ``attempts`` hands.

    Deterministic for a given seed (and engine)."""
    if case["kind"] == "melds":
        return _realise_melds(rules, case, seed)
    if case["kind"] == "match":
        return _realise_match(rules, case, seed)
    if "belotes" in case:
        raise Unrealisable("a summary with two belotes (the 'belotes' extension) is not realised")
    summary = summary_of_case(case)
    contract = parse_contract(summary["contract"])
    strain = contract.strain
    total = _pack_total(rules, strain)
    won, tp = summary["tricks_won"], summary["trick_points"]
    bound = _trick_bound(rules, strain, won["NS"], tp["NS"], total)
    if bound:
        raise Unrealisable(bound)
    rng = random.Random(seed)
    belote_side = summary["belote"]
    suits = belote_mod.belote_suits(rules, strain) or ([SUITS.index(strain)] if strain in SUITS else [])
    meld_side = next((s for s in ("NS", "EW") if summary["melds"][s]), None)
    lean_base = (won["NS"] - 4) / 2.0
    last_reason = "no deal found"
    for attempt in range(attempts):
        fixed: dict = {}
        belote_seat = None
        if belote_side is not None and suits:
            suit = rng.choice(suits)
            belote_seat = rng.choice(SIDE_SEATS[belote_side])
            fixed[suit * 8 + RK] = fixed[suit * 8 + RQ] = belote_seat
        meld_plan: dict = {}
        if meld_side is not None:
            tricks = won[meld_side]
            plans = _meld_plans(rules, strain, meld_side, summary["melds"][meld_side], rng, fixed,
                                1 if tricks >= 5 else -1 if tricks <= 3 else 0)
            if not plans:
                raise Unrealisable(f"no declaration of the side's players scores {summary['melds'][meld_side]} "
                                   f"for {meld_side} after the comparison under this rule set")
            values = _card_values(rules, strain)
            fitting = (p for p in plans
                       if _leaves_room(values, summary, {**fixed, **{x: seat for seat, melds in p.items()
                                                                      for m in melds for x in m}}))
            meld_plan = next(fitting, None)
            if meld_plan is None:
                last_reason = "no declaration leaves each player cards the tricks' points allow"
                continue
            for meld_seat, meld_cards in meld_plan.items():
                for c in meld_cards:
                    for x in c:
                        fixed[x] = meld_seat
        for suit in range(4):          # other kings and queens apart: no belote the summary does not give
            k, q = suit * 8 + RK, suit * 8 + RQ
            if k in fixed and q in fixed:
                continue
            if k in fixed or q in fixed:
                held, other = (k, q) if k in fixed else (q, k)
                fixed[other] = rng.choice(SIDE_SEATS["EW" if team_of(fixed[held]) == "NS" else "NS"])
            else:
                a = rng.choice(SEATS)
                fixed[k] = a
                fixed[q] = rng.choice(SIDE_SEATS["EW" if team_of(a) == "NS" else "NS"])
        lean = lean_base * rng.uniform(0.5, 2.0) + (8.0 if won["NS"] == 8 else -8.0 if won["NS"] == 0 else 0)
        # every other hand also leans the points: towards the side whose share of the points is above
        # its share of the tricks (a side taking tricks worth nothing holds the sevens, eights, nines)
        value_lean = 0.0 if attempt % 2 == 0 else VALUE_LEAN * (tp["NS"] / total - won["NS"] / 8)
        order_rule = None
        if belote_seat is not None and belote_mod.compiled(rules).claim is belote_mod.CLAIM["king_first"]:
            b_suit = next(c // 8 for c, s in fixed.items() if s == belote_seat and c % 8 == RK
                          and fixed.get(c - RK + RQ) == belote_seat)
            order_rule = (belote_seat, b_suit * 8 + RK, b_suit * 8 + RQ)
        built_play = None       # a deal built while played, every other search
        if attempt % 2 == 1:
            built = _built_deal(rules, strain, summary, fixed, rng, total, order_rule)
            if built is None:
                last_reason = "no play with these tricks and points found"
                continue
            hands, leader, built_play = built
        else:
            hands = _hands(rules, strain, fixed, lean, rng, value_lean)
            if hands is None:
                continue
        for dealer in rng.sample(SEATS, 4):
            auctioned = _auctioned(rules, dealer, hands, contract)
            if auctioned is None:
                last_reason = "no auction of this rule set ends in this contract"
                continue
            calls, deal = auctioned
            if built_play is not None:
                if deal.play.leader != leader:      # the built play starts with this leader
                    continue
                play = built_play
            else:
                search = _Search(summary, total, rng, order_rule, _card_values(rules, strain))
                play = search.run(deal.play, [])
                if play is None:
                    last_reason = "no play with these tricks and points found"
                    continue
            deal_case = _deal_case(dealer, hands, calls, play, meld_plan, belote_seat, fixed)
            reason = realises(rules, case, deal_case)
            if reason is None:
                return deal_case
            last_reason = reason
            break
    raise Unrealisable(f"no deal found in {attempts} hands: {last_reason}")


def _auctioned(rules, dealer: str, hands: dict, contract):
    """(calls, deal after them): the shortest auction from ``dealer`` that ends in ``contract`` with
    these hands; None when no auction of the rule set does."""
    masks = {s: sum(1 << c for c in h) for s, h in hands.items()}
    calls = calls_for_contract(rules, dealer, masks, contract)
    if calls is None:
        return None
    deal = Deal.start(rules, dealer, masks)
    for seat, call in calls:
        deal = deal.apply_call(seat, call)
    return calls, deal


_SIDE = {"NS": 0, "EW": 1}
DIVES, DIVE_NODES = 60, 400     # the deal built while played: its dives, each one's cards tried


def _blockers(sr, card: int, led: int, win: int, partner_wins: bool, cards) -> set:
    """The cards of ``cards`` whose presence in the hand would make ``card`` illegal here (the suit led
    to follow, a trump to play, a higher one to go up with): the player may never be given them."""
    bit = 1 << card
    return {y for y in cards if not sr.legal(bit | 1 << y, led, win, partner_wins) & bit}


def _built_deal(rules, strain: str, summary: dict, fixed: dict, rng: random.Random, total: int,
                order_rule=None):
    """A deal built while it is played, to a plan of who takes each trick: (hands, first leader, play),
    or None.

    Hands dealt first rarely let a side take two tricks of sevens, eights and nines while the other
    takes every point. Here the side that takes fewer points a trick takes its tricks first (else in
    a random order; the last trick where the summary puts it); each card played is one the player
    holds (the planted melds and belote among them) or one nobody holds yet, given to him then. A
    card is played only where it is legal in the hand so far, and the cards whose holding would have
    made it illegal (the suit led, a trump, a higher one: ``_blockers``) are never given to that player
    later, so the play stays legal in the hands it ends with; no card is played that would give the
    trick's side more points than the summary leaves it. The reference engine replays the deal to
    make sure, as every other deal."""
    from ..engine.play import compiled as play_rules, trick_winner
    from ..notation import next_seat
    from ..variants.compiled import compiled_rules
    sr = play_rules(rules, strain)
    values = sr.value
    direction = compiled_rules(rules).table.direction
    want = [summary["trick_points"]["NS"], total - summary["trick_points"]["NS"]]
    want_won = [summary["tricks_won"]["NS"], 8 - summary["tricks_won"]["NS"]]
    by_seat = summary.get("tricks_won_by_seat")
    last = _SIDE[summary["last_trick"]]
    if not want_won[last]:
        return None
    rate = [want[i] / want_won[i] if want_won[i] else float("inf") for i in (0, 1)]
    low = 0 if rate[0] <= rate[1] else 1
    for _dive in range(DIVES):
        plan = [low] * want_won[low] + [1 - low] * want_won[1 - low]
        plan.remove(last)
        if rng.random() < 0.3:
            rng.shuffle(plan)
        plan.append(last)
        held = {s: {x for x, seat in fixed.items() if seat == s} for s in SEATS}
        pool = set(range(32)) - set(fixed)
        barred: dict = {s: set() for s in SEATS}      # cards a player may no longer be given
        used, played = set(), []
        state = {"nodes": 0, "won": [0, 0], "points": [0, 0], "by_seat": dict.fromkeys(SEATS, 0)}

        def facing(seat: str, trick: list) -> tuple:
            """What the player's card answers: the suit led, the card winning, whether his partner's."""
            win_pos = trick_winner(strain, trick, rules)
            return trick[0][1] >> 3, trick[win_pos][1], trick[win_pos][0] == partner(seat)

        def options(seat: str, trick: list, side: int) -> list:
            mine = [x for x in held[seat] if x not in used]
            free = [x for x in pool if x not in barred[seat]] if len(held[seat]) < 8 else []
            cards = mine + free
            if trick:
                hand = sum(1 << x for x in mine)
                cards = [x for x in cards if sr.legal(hand | 1 << x, *facing(seat, trick)) >> x & 1]
            if order_rule is not None and seat == order_rule[0] and order_rule[1] in mine:
                cards = [x for x in cards if x != order_rule[2]]   # the king before the queen
            left = want[side] - state["points"][side] - sum(values[x] for _, x in trick)
            cards = [x for x in cards if values[x] <= left]
            aim = (want[side] - state["points"][side]) / (4 * max(1, want_won[side] - state["won"][side]))
            taker = _SIDE[team_of(seat)] == side

            def key(x):     # points near the trick's share; the trick's side playing to win it, the others not
                wins = trick_winner(strain, trick + [(seat, x)], rules) == len(trick)
                return (abs(values[x] - aim) // 4 + rng.random() * 1.5, -wins if taker else wins)
            rng.shuffle(cards)
            return sorted(cards, key=key)

        def play(seat: str, trick: list, t: int) -> bool:
            if t == 8:
                return True
            state["nodes"] += 1
            if state["nodes"] > DIVE_NODES:
                return False
            for x in options(seat, trick, plan[t]):
                given = x in pool
                barring = _blockers(sr, x, *facing(seat, trick), pool - barred[seat] - {x}) if trick else set()
                if given:
                    pool.discard(x)
                    held[seat].add(x)
                barred[seat] |= barring
                used.add(x)
                played.append((seat, x))
                now = trick + [(seat, x)]
                taken = None
                if len(now) == 4:
                    winner = now[trick_winner(strain, now, rules)][0]
                    side = _SIDE[team_of(winner)]
                    points = sum(values[y] for _, y in now)
                    if side == plan[t] and (by_seat is None or state["by_seat"][winner] < by_seat[winner]):
                        state["won"][side] += 1
                        state["points"][side] += points
                        state["by_seat"][winner] += 1
                        taken = (side, points, winner)
                        if play(winner, [], t + 1):
                            return True
                elif play(next_seat(seat, direction), now, t):
                    return True
                if taken is not None:
                    state["won"][taken[0]] -= 1
                    state["points"][taken[0]] -= taken[1]
                    state["by_seat"][taken[2]] -= 1
                played.pop()
                used.discard(x)
                barred[seat] -= barring
                if given:
                    held[seat].discard(x)
                    pool.add(x)
                if state["nodes"] > DIVE_NODES:
                    return False
            return False

        leader = rng.choice(SEATS)
        if play(leader, [], 0):
            return {s: sorted(h) for s, h in held.items()}, leader, played
    return None


def _trick_bound(rules, strain: str, tricks: int, points: int, total: int) -> str | None:
    """Why no deal can give a side ``tricks`` tricks worth ``points`` (None when some may)."""
    from ..engine.play import compiled as play_rules
    values = sorted(play_rules(rules, strain).value)
    most = sum(values[-4 * tricks:]) if tricks else 0
    least = sum(values[:4 * tricks])
    n = f"{tricks} trick{'s' if tricks != 1 else ''}"
    if points > most:
        return f"NS's {n} hold at most {most} card points (the {4 * tricks} best cards), not {points}"
    if points < least:
        return f"NS's {n} hold at least {least} card points (the {4 * tricks} poorest cards), not {points}"
    other = 8 - tricks
    rest = total - points
    most = sum(values[-4 * other:]) if other else 0
    least = sum(values[:4 * other])
    if not least <= rest <= most:
        return f"EW's {other} tricks cannot hold {rest} card points (between {least} and {most})"
    return None


def _deal_case(dealer, hands, calls, play, meld_plan, belote_seat, fixed) -> dict:
    """The protocol's deal case: each seat's planned melds declared with its first card, belote said with
    its cards."""
    out_play = []
    first_seen = set()
    belote_cards = [c for c, s in fixed.items() if s == belote_seat and c % 8 in (RK, RQ)
                    and fixed.get(c - c % 8 + (RQ if c % 8 == RK else RK)) == belote_seat] if belote_seat else []
    said = 0
    for seat, card in play:
        entry = {"seat": seat, "card": card_name(card)}
        if seat not in first_seen and meld_plan.get(seat):
            entry["melds"] = [[card_name(x) for x in c] for c in meld_plan[seat]]
        first_seen.add(seat)
        if seat == belote_seat and card in belote_cards:
            entry["say"] = "belote" if said == 0 else "rebelote"
            said += 1
        out_play.append(entry)
    return {"dealer": dealer, "hands": {s: [card_name(c) for c in hands[s]] for s in SEATS},
            "calls": [{"seat": s, "call": str(c)} for s, c in calls], "play": out_play}


# --- a match as the whole deals played ---------------------------------------------

def _played(rules, deal_case: dict) -> dict:
    """What a match records of one whole deal (protocol.cases.match_deal), as the reference engine plays it."""
    from ..protocol.cases import match_deal, run_case
    result = run_case(rules, dict(deal_case, kind="deal"))
    if result["contract"] is not None and result["score"] is None:
        raise Unrealisable("not a whole deal: " + str(result.get("reason") or "cards are missing"))
    return match_deal(result)


def _realises_match(rules, case: dict, deal_case: dict) -> str | None:
    """None when each played deal records what the match case's deal at the same place gives."""
    played = deal_case.get("deals") if isinstance(deal_case, dict) else None
    if not isinstance(played, list) or len(played) != len(case["deals"]):
        return f"{len(case['deals'])} deals are wanted"
    for i, (want, deal) in enumerate(zip(case["deals"], played)):
        try:
            got = _played(rules, deal)
        except (EngineError, ValueError, KeyError, TypeError, Unrealisable) as exc:
            return f"deal {i + 1} does not replay: {exc}"
        if got != as_read(rules, want):
            return f"deal {i + 1} records {got}, the match case {want}"
    return None


_SUMMARIES: dict = {}   # (the deal wanted, the rules a score depends on) -> summaries: rule sets share scoring


def _summaries(rules, want: dict, rng: random.Random):
    """Score-case summaries whose award (made, score, held) is the match deal's, in a seeded order: the
    reference engine's scoring says which summaries give that award, never what the match does with it."""
    doc = rules.to_dict()
    scoring = {k: v for k, v in doc.items() if k not in ("table", "deal", "play", "match", "auction")}
    auction = doc.get("auction", {})        # what the search reads of the auction: the bids and multipliers
    scoring["auction"] = {k: auction.get(k) for k in ("bids", "capot", "generale", "strains")}
    for double in ("coinche", "surcoinche"):
        scoring["auction"][double] = {k: (auction.get(double) or {}).get(k) for k in ("allowed", "multiplier")}
    key = (json.dumps(want, sort_keys=True), json.dumps(scoring, sort_keys=True, default=str))
    if key not in _SUMMARIES:
        _SUMMARIES[key] = _search_summaries(rules, want)
    found = list(_SUMMARIES[key])
    rng.shuffle(found)
    # the easiest first: no melds, no coinche, and each side's points near 19 a trick
    found.sort(key=lambda c: (sum(c["melds"].values()) > 0, c["contract"]["multiplier"] > 1,
                              abs(c["trick_points"]["NS"] - 19 * c["tricks_won"]["NS"]) // 10))
    return found


def _search_summaries(rules, want: dict) -> list:
    from ..engine.awards import gives_award
    from ..engine.scoring import score_deal
    from ..notation import Contract
    from ..variants.compiled import compiled_rules
    c = compiled_rules(rules)
    takers = want["takers"]
    declarer = SIDE_SEATS[takers][0]
    defenders = "EW" if takers == "NS" else "NS"
    won = want["tricks_won"]
    values = list(c.numeric_bids(160))
    if c.auction.capot.allowed:
        values.append("capot")
    multipliers = [1]
    if c.auction.coinche.allowed:
        multipliers.append(c.auction.coinche.multiplier)
        if c.auction.surcoinche.allowed:
            multipliers.append(c.auction.surcoinche.multiplier)
    strain = next(s for s in ("H", "S", "D", "C") if c.strain_allowed(s))
    total = _pack_total(rules, strain)
    lasts = [side for side in ("NS", "EW") if won[side]]
    if won["NS"] == 0:
        points = [0]
    elif won["EW"] == 0:
        points = [total]
    else:
        points = list(range(0, total + 1))
    meld_options = [{"NS": 0, "EW": 0}]
    if c.melds.enabled:
        meld_options += [{takers: m, defenders: 0} for m in (20, 50, 100)]
        meld_options += [{takers: 0, defenders: m} for m in (20, 50, 100)]
    found = []
    for melds in meld_options:
        for value in values:
            for multiplier in multipliers:
                contract = Contract(value, strain, declarer, multiplier)
                for ns in points:
                    tp = {"NS": ns, "EW": total - ns}
                    for last in lasts:
                        try:
                            r = score_deal(rules, contract, tp, won, last, melds, want["belote"], explain=False)
                        except EngineError:
                            continue
                        if gives_award(r, want):
                            found.append({"kind": "score", "contract": contract.to_json(), "trick_points": tp,
                                          "tricks_won": dict(won), "last_trick": last, "melds": dict(melds),
                                          "belote": want["belote"]})
        if found:
            break
    if not found and c.melds.enabled:
        found = _summaries_with_melds(rules, want)
    return found


MELD_SUMMARIES = 40     # summaries with meld totals kept for one award, the plainest first


def _summaries_with_melds(rules, want: dict) -> list:
    """Summaries giving the award with any meld total a side's players can declare, in any strain: the
    batch scorer's rows (batch/awards.py, checked against the per-deal engine by tests/test_arise.py),
    each summary then scored again by the per-deal engine before it is offered."""
    import numpy as np
    from ..batch.awards import gives, scored_rows, strain_kinds
    from ..batch.rules import BatchUnsupported
    from ..engine.awards import contract_values, gives_award, multipliers
    from ..engine.scoring import score_deal
    from ..notation import Contract
    from ..variants.compiled import compiled_rules
    c = compiled_rules(rules)
    if want.get("tricks_won") is None:
        return []
    takers = want["takers"]
    found, seen = [], set()
    try:
        for strain in strain_kinds(c):
            for rows, sc in scored_rows(rules, want, strain, contract_values(c, want), multipliers(c)):
                if rows["value"] == "generale":
                    continue
                melds = rows["melds"]
                idx = np.flatnonzero(gives(sc, want))
                if not len(idx):
                    continue
                total = (melds[0] + melds[1])[idx]
                near = np.abs(rows["points_ns"][idx] - 19 * want["tricks_won"]["NS"]) // 10
                order = idx[np.lexsort((near, rows["multiplier"][idx] > 1, total))]
                for i in order[:MELD_SUMMARIES]:
                    ns = int(rows["points_ns"][i])
                    total_points = c.card_total(strain)
                    summary = {"kind": "score",
                               "contract": Contract(rows["value"], strain, SIDE_SEATS[takers][0],
                                                    int(rows["multiplier"][i])).to_json(),
                               "trick_points": {"NS": ns, "EW": total_points - ns},
                               "tricks_won": dict(want["tricks_won"]),
                               "last_trick": ("NS", "EW")[int(rows["last"][i])],
                               "melds": {"NS": int(melds[0][i]), "EW": int(melds[1][i])},
                               "belote": want["belote"]}
                    key = json.dumps(summary, sort_keys=True)
                    if key in seen:
                        continue
                    seen.add(key)
                    contract = parse_contract(summary["contract"])
                    try:
                        r = score_deal(rules, contract, summary["trick_points"], summary["tricks_won"],
                                       summary["last_trick"], summary["melds"], want["belote"], explain=False)
                    except EngineError:
                        continue
                    if gives_award(r, want):
                        found.append(summary)
    except BatchUnsupported:
        return []
    return found


def _thrown_in_deal(rules, rng: random.Random) -> dict:
    """Four passes: a deal thrown in, no card played."""
    cards = list(range(32))
    rng.shuffle(cards)
    hands = {s: sorted(cards[8 * i:8 * i + 8]) for i, s in enumerate(SEATS)}
    dealer = rng.choice(SEATS)
    deal = Deal.start(rules, dealer, {s: sum(1 << c for c in h) for s, h in hands.items()})
    calls = []
    while deal.phase == "auction":
        seat, call = next((s, c) for s, c in deal.legal_calls() if c.kind == "pass" and s == deal.to_act)
        deal = deal.apply_call(seat, call)
        calls.append({"seat": seat, "call": "pass"})
    if deal.phase != "redeal":
        raise Unrealisable("four passes do not throw the deal in under this rule set")
    return {"dealer": dealer, "hands": {s: [card_name(c) for c in hands[s]] for s in SEATS}, "calls": calls,
            "play": []}


def _realise_match(rules, case: dict, seed: int) -> dict:
    """The match's deals, each a whole deal that records exactly what the case's deal gives."""
    rng = random.Random(seed)
    played = []
    options = []
    wanted = [as_read(rules, want) for want in case["deals"]]
    for i, want in enumerate(wanted):      # every deal's summaries first: an impossible one fails fast
        extra = [k for k in MATCH_EXTENSIONS if want.get(k) is not None]
        if extra:
            raise Unrealisable(f"deal {i + 1} gives {', '.join(extra)}, which the summary search does not build")
        options.append(None if want["takers"] is None else _summaries(rules, want, rng)[:6])
        if options[-1] == []:
            raise Unrealisable(f"deal {i + 1} ({want['score']['NS']} to {want['score']['EW']}, "
                               f"{'made' if want['made'] else 'failed'} by {want['takers']}): no score summary "
                               "of this rule set gives this award")
    for i, want in enumerate(wanted):
        if want["takers"] is None:
            played.append(_thrown_in_deal(rules, rng))
            continue
        last = "no score summary gives this award"
        tries = options[i] * -(-MATCH_TRIES // len(options[i]))   # the same summaries again when few
        for summary in tries[:MATCH_TRIES]:
            try:
                deal = realise(rules, summary, rng.randrange(1 << 30), attempts=MATCH_ATTEMPTS)
            except Unrealisable as exc:
                last = str(exc)
                continue
            if _played(rules, deal) == want:
                played.append(deal)
                break
            last = "the deal found records another award"
        else:
            raise Unrealisable(f"deal {i + 1} ({want['score']['NS']} to {want['score']['EW']}, "
                               f"{'made' if want['made'] else 'failed'} by {want['takers']}): {last}")
    return {"deals": played}
