"""Shrinking a diverging case to a small one that still diverges the same way.

The shrinker knows nothing of the implementation: it proposes smaller
cases — fewer calls, fewer cards, fewer declarations, lower bids, plainer
numbers, a pack in order — and keeps the first one that the predicate says
still shows the disagreement, then starts again from it. It stops when no
proposal is kept or the budget of tries is spent. A proposal the rules make
illegal or the engine refuses is simply not kept (the predicate says no), so
the proposals need not be clever, only smaller: each is tried at most once.

Proposals come biggest cut first, so a long deal loses most of its cards in
a few tries.
"""

from __future__ import annotations

import copy
import json
import time
from typing import Callable, Iterator

from ..notation import parse_call
from ..variants.compiled import compiled_rules


def _without(items: list, i: int, n: int = 1) -> list:
    return items[:i] + items[i + n:]


def _prefixes(items: list) -> Iterator[list]:
    """Shorter prefixes, shortest first."""
    for n in range(len(items)):
        yield items[:n]


def _lower_values(rules, value: int) -> list[int]:
    """Bid values of the rule set below ``value``, lowest first."""
    return [v for v in compiled_rules(rules).numeric_bids(value) if v < value]


def _calls(rules, calls: list) -> Iterator[list]:
    """Shorter or simpler call lists: prefixes; a whole round dropped; one call dropped, with or
    without the later calls moving up one seat; one bid lowered."""
    yield from _prefixes(calls)
    for i in range(len(calls) - 3):
        yield _without(calls, i, 4)      # a whole round: the seats of what follows still fit
    for i in range(len(calls)):
        yield _without(calls, i)
        shifted = [dict(c) for c in calls]
        for j in range(len(calls) - 1, i, -1):
            shifted[j]["seat"] = shifted[j - 1]["seat"]
        yield _without(shifted, i)
    for i, c in enumerate(calls):
        call = parse_call(c["call"])
        if call.kind == "bid" and isinstance(call.value, int):
            for v in _lower_values(rules, call.value):
                yield calls[:i] + [dict(c, call=f"{v}{call.strain}")] + calls[i + 1:]


def _auction(rules, case: dict) -> Iterator[dict]:
    for calls in _calls(rules, case["calls"]):
        yield dict(case, calls=calls)


def _legal_cards(rules, case: dict) -> Iterator[dict]:
    trick, hand = case["trick"], case["hand"]
    # the first cards off, never one in the middle: what is left still goes round the table to the
    # player to act (a trick out of the direction of play is refused)
    for n in range(len(trick), 0, -1):
        yield dict(case, trick=trick[n:])
    for i in range(len(hand)):
        if len(hand) > 1:
            yield dict(case, hand=_without(hand, i))


def _deal(rules, case: dict) -> Iterator[dict]:
    play = case["play"]
    # whole tricks off first, then one card: a deal that needs its 32 cards costs few tries a round
    for n in list(range(0, len(play), 4)) + [len(play) - 1]:
        if 0 <= n < len(play):
            yield dict(case, play=play[:n])
    for i, entry in enumerate(play):
        for extra in ("melds", "say"):
            if extra in entry:
                plainer = {k: v for k, v in entry.items() if k != extra}
                yield dict(case, play=play[:i] + [plainer] + play[i + 1:])
    for calls in _calls(rules, case["calls"]):
        yield dict(case, calls=calls)


def _score(rules, case: dict) -> Iterator[dict]:
    contract = case["contract"]
    if contract["multiplier"] != 1:
        yield dict(case, contract=dict(contract, multiplier=1))
    if isinstance(contract["value"], int):
        for v in _lower_values(rules, contract["value"]):
            yield dict(case, contract=dict(contract, value=v))
    for team in ("NS", "EW"):
        if case["melds"][team]:
            yield dict(case, melds=dict(case["melds"], **{team: 0}))
    if case["belote"] is not None:
        yield dict(case, belote=None)
    points, won = case["trick_points"], case["tricks_won"]
    total = points["NS"] + points["EW"]
    if won["NS"] and won["EW"]:
        for ns in (points["NS"] - points["NS"] % 10, points["NS"] + 10 - points["NS"] % 10):
            if 0 < ns < total and ns != points["NS"]:
                yield dict(case, trick_points={"NS": ns, "EW": total - ns})
        if won != {"NS": 4, "EW": 4} and "tricks_won_by_seat" not in case:
            yield dict(case, tricks_won={"NS": 4, "EW": 4})


def _melds(rules, case: dict) -> Iterator[dict]:
    declared = case["declared"]
    for seat, melds in declared.items():
        for i, meld in enumerate(melds):
            yield dict(case, declared=dict(declared, **{seat: _without(melds, i)}))
    for seat, melds in declared.items():
        for i, meld in enumerate(melds):
            if len(meld) > 3:
                for cut in (meld[1:], meld[:-1]):
                    yield dict(case, declared=dict(declared, **{seat: melds[:i] + [cut] + melds[i + 1:]}))
    if "leader" in case:
        yield {k: v for k, v in case.items() if k != "leader"}


def _dealing(rules, case: dict) -> Iterator[dict]:
    from ..notation import card_name
    pack = [card_name(c) for c in range(32)]
    if case["deck"] != pack:
        yield dict(case, deck=pack)
    for cut in range(case["cut"]):
        yield dict(case, cut=cut)


PROPOSALS: dict[str, Callable] = {"auction": _auction, "legal_cards": _legal_cards, "deal": _deal,
                                  "score": _score, "melds": _melds, "dealing": _dealing}


def _key(case: dict) -> str:
    return json.dumps(case, sort_keys=True)


def shrink(rules, case: dict, diverges: Callable[[dict], bool], budget: int = 400,
           seconds: float = 60.0) -> tuple[dict, int]:
    """The smallest case found that still ``diverges``, and how many proposals were tried.

    At most ``budget`` tries and about ``seconds`` of time: an implementation that times out on
    every proposal must not hold the run for hours."""
    propose = PROPOSALS.get(case["kind"])
    if propose is None:
        return case, 0
    current = copy.deepcopy(case)
    seen = {_key(current)}
    tries = 0
    improved = True
    deadline = time.monotonic() + seconds
    while improved and tries < budget and time.monotonic() < deadline:
        improved = False
        for candidate in propose(rules, current):
            key = _key(candidate)
            if key in seen:
                continue
            seen.add(key)
            tries += 1
            if diverges(candidate):
                current, improved = candidate, True
                break
            if tries >= budget or time.monotonic() >= deadline:
                break
    return current, tries
