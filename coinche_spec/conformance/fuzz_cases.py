"""The protocol cases one random legal deal gives, for differential fuzzing.

A seeded random deal (the engine's random players: ``random_play``) is cut
into the protocol's case kinds, so that each step an implementation takes
can be compared with the reference engine on its own:

- ``dealing``: a shuffled pack and a cut (some cuts the rule set refuses);
- ``auction``: the whole auction, and a few of its prefixes followed by one
  more call, legal or not (the legal calls, probed one at a time);
- ``legal_cards``: before every card, the hand of the player to act and the
  trick so far;
- ``deal``: the whole deal (melds declared and belote said as the players
  did), and a prefix followed by one card of the hand, legal or not;
- ``score``: the finished deal's summary, without the cards;
- ``melds``: what the players declared, where anyone did.

The cases are built from the deal's own record (the calls, the play log,
the declarations): the engine judges them later, exactly as ``serve`` would.
Everything is drawn from the ``random.Random`` given, so a seed names the
same cases on every machine.
"""

from __future__ import annotations

import random

from ..engine.game import Deal
from ..engine.random_play import random_deal
from ..notation import SEATS, card_name

KINDS = ("dealing", "auction", "legal_cards", "deal", "score", "melds")

AUCTION_PROBES = 2       # prefixes of the auction followed by one more call, per deal
STRAINS = ("S", "H", "D", "C", "TA", "SA")


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in range(32) if mask >> c & 1]


def _calls_json(calls) -> list[dict]:
    return [{"seat": seat, "call": str(call)} for seat, call in calls]


def _play_json(deal: Deal) -> list[dict]:
    """The play log as protocol entries: melds with each player's first card, belote as said."""
    out = []
    for i, (seat, card, say) in enumerate(deal.log):
        entry = {"seat": seat, "card": card_name(card)}
        if i < 4 and deal.declared[seat]:
            entry["melds"] = [[card_name(c) for c in meld] for meld in deal.declared[seat]]
        if say:
            entry["say"] = say
        out.append(entry)
    return out


def _some_call(rules, rng: random.Random) -> str:
    """Any call at all, most of them illegal somewhere: off-step values, strains the rule set may lack."""
    r = rng.random()
    if r < 0.15:
        return "pass"
    if r < 0.3:
        return rng.choice(("coinche", "surcoinche"))
    strain = rng.choice(STRAINS)
    if r < 0.35:
        return f"capot{strain}"
    if r < 0.38 and rules.auction.generale.allowed:
        return f"generale{strain}"
    return f"{rng.randrange(60, 200, 5)}{strain}"


def _auction_probe(rules, deal: Deal, rng: random.Random) -> dict:
    """A prefix of the auction and one more call: a legal one half the time, any call otherwise."""
    calls = list(deal.calls)
    cut = rng.randrange(len(calls) + 1)
    state = Deal.start(rules, deal.dealer, deal.hands)
    for seat, call in calls[:cut]:
        state = state.apply_call(seat, call)
    legal = state.legal_calls()
    if legal and rng.random() < 0.5:
        seat, call = rng.choice(legal)
        call = str(call)
    else:
        to_act = state.auction.to_act
        seat = to_act if to_act is not None and rng.random() < 0.75 else rng.choice(SEATS)
        call = _some_call(rules, rng)
    return {"kind": "auction", "dealer": deal.dealer,
            "calls": _calls_json(calls[:cut]) + [{"seat": seat, "call": call}]}


def _legal_cards_cases(deal: Deal) -> list[dict]:
    """Before every card: the player to act, what he still holds, the trick so far."""
    strain = deal.contract.strain
    held = dict(deal.hands)
    out = []
    for i, (seat, card, _) in enumerate(deal.log):
        start = i - i % 4
        trick = [{"seat": s, "card": card_name(c)} for s, c, _ in deal.log[start:i]]
        out.append({"kind": "legal_cards", "strain": strain, "seat": seat, "hand": _names(held[seat]),
                    "trick": trick})
        held[seat] &= ~(1 << card)
    return out


def _deal_case(deal: Deal, play: list[dict]) -> dict:
    return {"kind": "deal", "dealer": deal.dealer,
            "hands": {seat: _names(deal.hands[seat]) for seat in SEATS},
            "calls": _calls_json(deal.calls), "play": play}


def _deal_probe(deal: Deal, play: list[dict], rng: random.Random) -> dict | None:
    """The deal cut after some card, then one card of the next player's hand, legal or not."""
    if not play:
        return None
    cut = rng.randrange(len(play))
    seat = play[cut]["seat"]
    held = deal.hands[seat]
    for entry_seat, card, _ in deal.log[:cut]:
        if entry_seat == seat:
            held &= ~(1 << card)
    card = rng.choice(_names(held))
    entry = dict(play[cut], card=card)
    if rng.random() < 0.1:  # now and then, the wrong player
        entry["seat"] = rng.choice([s for s in SEATS if s != seat])
        entry.pop("melds", None)
    entry.pop("say", None)
    return _deal_case(deal, play[:cut] + [entry])


def _score_case(deal: Deal) -> dict:
    outcome = deal.outcome()
    case = {"kind": "score", "contract": deal.contract.to_json(), "trick_points": dict(outcome.trick_points),
            "tricks_won": dict(outcome.tricks_won), "last_trick": outcome.last_trick,
            "melds": dict(outcome.melds), "belote": outcome.belote}
    if deal.contract.value == "generale":   # the extension a générale needs: who took each trick
        case["tricks_won_by_seat"] = deal.tricks_by_seat()
    return case


def _melds_case(rules, deal: Deal) -> dict | None:
    if not any(deal.declared[seat] for seat in SEATS):
        return None
    case = {"kind": "melds", "strain": deal.contract.strain,
            "declared": {seat: [[card_name(c) for c in meld] for meld in deal.declared[seat]] for seat in SEATS}}
    if rules.melds.compare.equal == "first_declared":   # the extension such a tie needs: who led
        case["leader"] = deal.log[0][0]
    return case


def _dealing_case(deal: Deal, rng: random.Random) -> dict:
    pack = list(range(32))
    rng.shuffle(pack)
    return {"kind": "dealing", "dealer": deal.dealer, "deck": [card_name(c) for c in pack],
            "cut": rng.randint(0, 32)}


def deal_cases(rules, rng: random.Random, kinds=KINDS) -> list[dict]:
    """Every case one random deal gives, in a fixed order; only the kinds named."""
    deal = random_deal(rules, rng, SEATS[rng.randrange(4)], max_redeals=1)
    return cases_of_deal(rules, deal, rng, kinds)


def cases_of_deal(rules, deal: Deal, rng: random.Random, kinds=KINDS) -> list[dict]:
    """Every case a finished (or thrown-in) deal gives, in a fixed order, the probes drawn from ``rng``;
    only the kinds named. The deal may come from the random player or from the batch engine."""
    cases: list = []
    cases.append(_dealing_case(deal, rng))
    cases.append({"kind": "auction", "dealer": deal.dealer, "calls": _calls_json(deal.calls)})
    cases.extend(_auction_probe(rules, deal, rng) for _ in range(AUCTION_PROBES))
    if deal.phase == "done":
        play = _play_json(deal)
        cases.extend(_legal_cards_cases(deal))
        cases.append(_deal_case(deal, play))
        cases.append(_deal_probe(deal, play, rng))
        cases.append(_score_case(deal))
        cases.append(_melds_case(rules, deal))
    else:   # thrown in: the deal case plays no card
        cases.append(_deal_case(deal, []))
    return [c for c in cases if c is not None and c["kind"] in kinds]
