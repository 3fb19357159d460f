"""Replaying a recorded batch through the per-deal engine, deal for deal.

``replay_batch(batch)`` plays every deal of a batch made with
``play_batch(..., record=True)`` through ``coinche_spec.engine.Deal``: each
call and each card the batch chose is applied by the per-deal engine (which
checks it), and at every step the seat to act and the whole legal set are
compared (and, for a batch of simple players, the call and card the per-deal simple
players choose, engine/players.py); at the end every field of the per-deal result (contract, tricks,
tricks won, card points, melds, belote, made, score, and held after a litige),
and the score's outcome and the totals the contract was judged on. It returns the first
disagreement of each deal that has one, as text. The test and the benchmark
run share it.
"""

from __future__ import annotations

import weakref

from ..engine import players
from ..engine.game import Deal
from ..engine.random_play import _belote_suits, declarable_melds
from ..notation import SEATS, Call, card_name
from .scoring import OUTCOMES

__all__ = ["replay_batch", "recorded_calls"]

_TEAMS = ("NS", "EW")


def _calls_by_deal(batch) -> dict:
    out: dict = {}
    for idx, ta, ph, lo, excl, cmask, smask, code in batch.auction.steps:
        for j in range(idx.size):
            out.setdefault(int(idx[j]), []).append(
                (int(ta[j]), int(lo[j]), int(excl[j]), int(cmask[j]), int(smask[j]), int(code[j])))
    return out


# the batch's bid listings, per batch rules object (weakly held: an id() key could be reused by
# another rule set's object once the first is collected, and hand back its listing)
_BIDS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _legal_set(br, step) -> tuple:
    """The batch's legal calls: (the calls other than bids as a set of (seat, kind), the bids as
    (seat, call) pairs in ladder order)."""
    ta, lo, excl, cmask, smask, _ = step
    other = {(SEATS[s], "coinche") for s in range(4) if cmask >> s & 1}
    other |= {(SEATS[s], "surcoinche") for s in range(4) if smask >> s & 1}
    bids = []
    if ta >= 0:
        if not excl >> 6 & 1:            # bit 6: no pass (all_pass dealer_must_bid)
            other.add((SEATS[ta], "pass"))
        key = (ta, lo, excl)
        listings = _BIDS.setdefault(br, {})
        bids = listings.get(key)
        if bids is None:
            if len(listings) > 20000:
                listings.clear()
            strains = br.bid_strain
            bids = listings[key] = [(SEATS[ta], br.ladder[j]) for j in range(lo, br.n_bids)
                                 if not (excl >> int(strains[j])) & 1]
    return other, bids


def _engine_set(pairs) -> tuple:
    """The engine's legal calls in the same form: the bids as a list in the order the engine lists
    them (ladder order: another order shows as a difference, never hides one), the rest as a set.
    The engine lists the pass first, then the bids, then coinches; after a coinche the pass, the
    surcoinche, then (décoinchage) the bids."""
    bids = [pair for pair in pairs if pair[1].kind == "bid"]
    return {(seat, call.kind) for seat, call in pairs if call.kind != "bid"}, bids


def _call_of(br, step):
    ta, code = step[0], step[5]
    L = br.n_bids
    if code == 0:
        return SEATS[ta], Call("pass")
    if code <= L:
        return SEATS[ta], br.ladder[code - 1]
    if code <= L + 4:
        return SEATS[code - L - 1], Call("coinche")
    if code <= L + 8:
        return SEATS[code - L - 5], Call("surcoinche")
    return None                                      # the play starts


def recorded_calls(batch) -> dict:
    """Deal index -> the calls a recorded batch made in it, in order, as (seat, Call); None where
    the play starts with the after-auction window still open. For the fuzzer's batch deals."""
    br = batch.rules
    return {i: [_call_of(br, step) for step in steps] for i, steps in _calls_by_deal(batch).items()}


def replay_deal(batch, i: int, steps: list, played_pos: dict) -> str | None:
    """The first disagreement between the batch and the per-deal engine on deal i, or None."""
    br = batch.rules
    rules = br.rules
    simple = getattr(batch, "players", "random") == "simple"
    hands = {SEATS[s]: int(batch.hands[s, i]) for s in range(4)}
    seen = getattr(batch, "seen", batch.hands)      # the cards bid on (deal.packets_after_auction)
    deal = Deal.start(rules, SEATS[int(batch.dealer[i])], hands,
                      {SEATS[s]: int(seen[s, i]) for s in range(4)})
    for n, step in enumerate(steps):
        want_to_act = SEATS[step[0]] if step[0] >= 0 else None
        if deal.auction.to_act != want_to_act:
            return f"call {n}: to act {deal.auction.to_act}, batch {want_to_act}"
        mine = _legal_set(br, step)
        engine = _engine_set(deal.legal_calls())
        if engine != mine:     # bids compared as lists in ladder order: the engine lists them so
            return (f"call {n}: legal calls differ: engine {sorted(engine[0])} and {len(engine[1])} bids "
                    f"from {engine[1][:1]}, batch {sorted(mine[0])} and {len(mine[1])} bids from {mine[1][:1]}")

        choice = _call_of(br, step)
        if simple and players.choose_call(deal) != choice:
            return f"call {n}: the simple players call {players.choose_call(deal)}, batch {choice}"
        if choice is None:
            break
        deal = deal.apply_call(*choice)
    in_play = bool(batch.contract[i])
    if (deal.phase == "redeal") == in_play or (in_play and deal.phase != "play"):
        return f"after the auction: engine phase {deal.phase}, batch contract {in_play}"
    if not in_play:
        return None
    p = played_pos[i]
    play = batch.play
    step = br.rules.table.direction == "clockwise" and 1 or 3
    suits = None
    for j in range(32):
        t, pos = divmod(j, 4)
        seat = SEATS[(int(play.leaders[t, p]) + pos * step) & 3]
        if deal.to_act != seat:
            return f"card {j}: to act {deal.to_act}, batch {seat}"
        if deal.legal_mask() != int(play.legal[j, p]):
            return (f"card {j}: legal {[card_name(c) for c in deal.legal_cards()]}, batch "
                    f"{[card_name(c) for c in range(32) if int(play.legal[j, p]) >> c & 1]}")
        card = int(play.cards[j, p])
        melds = (declarable_melds(rules, hands[seat], deal.contract.strain) or None) if j < 4 else None
        if suits is None:
            suits = _belote_suits(deal)
        say = None
        if (card & 7) in (5, 6) and (card >> 3) in suits:
            pair = 0x60 << (card & ~7)
            if hands[seat] & pair == pair:
                say = "belote" if deal.play.hand(seat) & pair == pair else "rebelote"
        if simple and players.choose_card(deal) != (card, melds, say):
            return f"card {j}: the simple player plays {players.choose_card(deal)}, batch {(card, melds, say)}"
        deal = deal.apply_card(seat, card, melds, say)
    r = deal.result()
    call = br.ladder[int(batch.bid[p])]
    want = {"contract": {"value": call.value, "strain": call.strain, "declarer": SEATS[int(batch.declarer[p])],
                         "multiplier": int(batch.multiplier[p])},
            "tricks": [{"leader": SEATS[int(play.leaders[t, p])], "winner": SEATS[int(play.winners[t, p])],
                        "cards": [card_name(int(c)) for c in play.cards[4 * t:4 * t + 4, p]]} for t in range(8)],
            "tricks_won": {_TEAMS[s]: int(batch.tricks_won[s, p]) for s in (0, 1)},
            "card_points": {_TEAMS[s]: int(batch.card_points[s, p]) for s in (0, 1)},
            "melds": {_TEAMS[s]: int(batch.melds[s, p]) for s in (0, 1)},
            "belote": _belote_side(batch.belote[:, p]),
            "made": bool(batch.made[p]),
            "score": {_TEAMS[s]: int(batch.score[s, p]) for s in (0, 1)}}
    ns, ew = int(batch.belote[0, p]), int(batch.belote[1, p])
    each = rules.belote.points
    if (ns and ew) or (ns or ew) and max(ns, ew) > each:
        want["belotes"] = {"NS": ns // each, "EW": ew // each}
    if OUTCOMES[int(batch.outcome[p])] == "litige" and rules.scoring.litige == "takers_points_held":
        want["held"] = {_TEAMS[s]: int(batch.held[s, p]) for s in (0, 1)}
    if set(r) != set(want):
        return f"result fields: engine {sorted(r)}, batch {sorted(want)}"
    for key, value in want.items():
        if r[key] != value:
            return f"result {key}: engine {r[key]}, batch {value}"
    o = deal.outcome()
    if o.belote_points != {"NS": ns, "EW": ew}:
        return f"belote points: engine {o.belote_points}, batch {batch.belote[:, p]}"
    sr = o.score_result
    judged = {"outcome": OUTCOMES[int(batch.outcome[p])],
              "totals": {_TEAMS[s]: int(batch.totals[s, p]) for s in (0, 1)}}
    for key, value in judged.items():
        if getattr(sr, key) != value:
            return f"score {key}: engine {getattr(sr, key)}, batch {value}"
    return None


def _belote_side(points) -> str | None:
    ns, ew = int(points[0]), int(points[1])
    if ns and ew:
        return None
    return "NS" if ns else "EW" if ew else None


def replay_batch(batch, limit: int | None = None, deals=None) -> list:
    """(deal index, what differs) for every deal (the first ``limit``, or those of ``deals``, indices
    into the batch) the per-deal engine disagrees on."""
    calls = _calls_by_deal(batch)
    played_pos = {int(d): p for p, d in enumerate(batch.played)}
    out = []
    n = len(batch) if limit is None else min(limit, len(batch))
    for i in (range(n) if deals is None else (int(i) for i in deals)):
        diff = replay_deal(batch, i, calls.get(i, []), played_pos)
        if diff is not None:
            out.append((i, diff))
    return out


# Where to look first when a replay disagrees, by the start of what differs: the batch file that
# plays that part of the deal (its per-deal counterpart in engine/ says what it should do).
_LOOK_AT = (
    ("call", "coinche_spec/batch/auction.py (engine/auction.py)"),
    ("after the auction", "coinche_spec/batch/auction.py (engine/auction.py)"),
    ("result contract", "coinche_spec/batch/auction.py (engine/auction.py)"),
    ("card", "coinche_spec/batch/play.py (engine/play.py)"),
    ("result tricks", "coinche_spec/batch/play.py (engine/play.py)"),
    ("result card_points", "coinche_spec/batch/play.py and batch/rules.py (engine/scoring.py)"),
    ("result melds", "coinche_spec/batch/melds.py (engine/melds.py)"),
    ("result belote", "coinche_spec/batch/rules.py _belote and batch/scoring.py (engine/scoring.py)"),
    ("belote points", "coinche_spec/batch/rules.py _belote and batch/scoring.py (engine/scoring.py)"),
)


def look_at(diff: str) -> str:
    """The file to look at for one disagreement of replay_deal."""
    return next((where for start, where in _LOOK_AT if diff.startswith(start)),
                "coinche_spec/batch/scoring.py and batch/rules.py _scoring (engine/scoring.py)")


def replay_failures(rule_set: str, diffs: list, seed=None) -> str:
    """The disagreements of replay_batch as lines a reader can act on: the rule set, the deal, the
    field with both values, and the file to look at."""
    dealt = f" (play_batch seed {seed})" if seed is not None else ""
    return "\n".join(f"{rule_set}, deal {i}{dealt}: {diff}; look at {look_at(diff)}" for i, diff in diffs)
