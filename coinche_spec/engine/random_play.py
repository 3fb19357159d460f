"""Random legal deals: for the ``deal`` command, the benchmark and property tests.

The players are not clever, only legal: the auction usually reaches a
contract (a player bids a little above the last bid now and then), each card
is drawn from the legal set, melds in hand are declared with the first card,
and a player holding the king and queen of trump says belote and rebelote.
"""

from __future__ import annotations

import random

from ..notation import SEATS, Call, card_index
from .game import Deal
from .masks import bit

_SUITS = ("S", "H", "D", "C")


def shuffled_hands(rng: random.Random) -> dict:
    deck = list(range(32))
    rng.shuffle(deck)
    return {seat: _mask(deck[i * 8:(i + 1) * 8]) for i, seat in enumerate(SEATS)}


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= bit(c)
    return m


def choose_call(deal: Deal, rng: random.Random):
    """A plausible random call: bids are rarer as the auction climbs."""
    options = deal.legal_calls()
    seat = deal.auction.to_act
    mine = [(s, c) for s, c in options if s == seat] if seat else list(options)
    if not mine:
        return None
    bids = [(s, c) for s, c in mine if c.kind == "bid"]
    passes = [(s, c) for s, c in mine if c.kind == "pass"]
    doubles = [(s, c) for s, c in mine if c.kind in ("coinche", "surcoinche")]
    r = rng.random()
    if doubles and r < 0.06:
        return rng.choice(doubles)
    if bids and r < (0.55 if deal.auction.contract is None and not deal.auction.first_bidder else 0.25):
        numeric = sorted((b for b in bids if b[1].value != "capot"), key=lambda b: b[1].value)
        if numeric and rng.random() < 0.97:
            low = numeric[0][1].value
            cheap = [b for b in numeric if b[1].value <= low + 20]
            return rng.choice(cheap)
        return rng.choice(bids)
    if passes:
        return passes[0]
    return rng.choice(mine)


def declarable_melds(rules, strain, hand: int) -> list[list[int]]:
    """The squares and longest runs a player holds (not checked here: the engine judges them)."""
    if not rules.melds.enabled:
        return []
    found = []
    squares = rules.melds.squares
    for rank in ("J", "9", "A", "T", "K", "Q", "8", "7"):
        cards = [card_index(s, rank) for s in _SUITS]
        if squares[rank] > 0 and all(hand & bit(c) for c in cards):
            found.append(cards)
    order = ("A", "K", "Q", "J", "T", "9", "8", "7")
    for s in _SUITS:
        run: list[int] = []
        for rank in order + (None,):
            c = card_index(s, rank) if rank else None
            if c is not None and hand & bit(c):
                run.append(c)
                continue
            if len(run) >= 3:
                found.append(run)
            run = []
    used: set = set()
    result = []
    for m in found:  # keep each card in one meld: the safe choice under every rule set
        if used.isdisjoint(m):
            result.append(m)
            used.update(m)
    return result


def random_deal(rules, rng: random.Random, dealer: str | None = None, max_redeals: int = 20) -> Deal:
    """Play one random legal deal to the end (or to a throw-in after ``max_redeals`` tries)."""
    dealer = dealer or rng.choice(SEATS)
    for _ in range(max_redeals):
        deal = Deal.start(rules, dealer, shuffled_hands(rng))
        deal = play_out(deal, rng)
        if deal.phase != "redeal":
            return deal
    return deal


def play_out(deal: Deal, rng: random.Random) -> Deal:
    while deal.phase == "auction":
        choice = choose_call(deal, rng)
        if choice is None:
            break
        deal = deal.apply_call(*choice)
    if deal.phase != "play":
        return deal
    if deal.auction.window_open and rng.random() < 0.05:
        doubles = [c for c in deal.legal_calls() if c[1].kind == "coinche"]
        if doubles:
            deal = deal.apply_call(*rng.choice(doubles))
    strain = deal.contract.strain
    trump_kq = ()
    if strain in _SUITS:
        trump_kq = (card_index(strain, "K"), card_index(strain, "Q"))
    said: set = set()
    while deal.phase == "play":
        seat = deal.to_act
        legal = deal.legal_cards()
        card = rng.choice(legal)
        melds = None
        if not any(s == seat for s, _, _ in deal.log):
            melds = declarable_melds(deal.rules, strain, deal.hands[seat]) or None
        say = None
        if card in trump_kq and all(deal.hands[seat] & bit(c) for c in trump_kq):
            say = "rebelote" if seat in said else "belote"
            said.add(seat)
        deal = deal.apply_card(seat, card, melds, say)
    return deal
