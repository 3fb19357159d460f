"""B whole deals at once: deal, auction, melds and belote, the eight tricks, the score.

``play_batch(rules, n, seed)`` plays n random legal deals under one rule set
and returns their outcomes as arrays (a :class:`Batch`). It reads the same
compiled rules as the per-deal engine (``batch_rules``), and the deal-for-deal
test (tests/test_batch_engine.py) replays recorded batches through the
per-deal engine. A deal whose four players all pass is thrown in and kept
as such (``contract`` is False): the batch does not deal it again.
"""

from __future__ import annotations

import numpy as np

from . import auction as auction_mod
from .dealing import deal_hands
from .melds import belote_points, meld_points
from .play import play_tricks
from .rules import batch_rules
from .scoring import score_deals
from .simple import SimplePlayers

__all__ = ["Batch", "play_batch"]


class Batch:
    """The outcome of n deals as arrays over the deals (played deals only where noted).

    ``hands`` (4, n) and ``dealer`` (n,) as dealt; ``contract`` (n,) True where the auction
    reached one (else thrown in); ``played`` the indices of those deals, and for them: ``bid``
    (ladder index), ``strain`` (0..5 = S H D C TA SA), ``declarer``, ``multiplier``, ``tricks_won``
    (2, m), ``card_points`` (2, m), ``melds`` (2, m), ``belote`` (2, m), ``made`` (m,), ``score``
    (2, m), ``sweeper`` (m,: 0 NS, 1 EW, -1 none), ``outcome`` (m,: an index into scoring.OUTCOMES),
    ``totals`` (2, m: what each side counted when the contract was judged), ``held`` (2, m: a litige's
    takers' points held back, else 0). ``auction`` and ``play`` keep what was recorded.
    """

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __len__(self) -> int:
        return self.hands.shape[1]


def play_batch(rules, n: int, seed=None, record: bool = False, players: str = "random", deals=None) -> Batch:
    """Play n deals under ``rules`` (a Rules, Variant or compiled rules).

    ``seed`` seeds numpy's generator (the same seed plays the same batch); ``record`` keeps
    every call (with its legal set) and every card (with its legal set) for a replay.
    ``players`` is "random" (random legal calls and cards) or "simple" (engine/players.py's
    simple players, vectorised in batch/simple.py). ``deals`` = (hands (4, n) uint32, dealer (n,))
    plays those hands instead of dealing at random.
    Raises BatchUnsupported (naming the rule) for a rule the batch engine does not play.
    """
    br = batch_rules(rules)
    rng = np.random.default_rng(seed)
    hands, dealer = deal_hands(rng, n) if deals is None else deals
    if hands.shape != (4, n) or dealer.shape != (n,):
        raise ValueError(f"deals: expected hands of shape (4, {n}) and dealers of shape ({n},), "
                         f"got {hands.shape} and {dealer.shape}")
    if players not in ("random", "simple"):
        raise ValueError(f"players: expected 'random' or 'simple', not {players!r}")
    chooser = SimplePlayers(br, hands) if players == "simple" else None
    a = auction_mod.run_auction(br, rng, dealer, record, chooser)
    played = np.flatnonzero(a.state == auction_mod.CONTRACT)
    bid = a.high[played]
    strain = br.bid_strain[bid].astype(np.intp)
    declarer = a.bidder[played]
    mult = a.mult[played].astype(np.int64)
    ph = hands[:, played]
    if br.first_leader == "next_to_dealer":
        leader = (dealer[played].astype(np.int32) + br.step) & 3
    elif br.first_leader == "first_bidder":
        leader = a.first_bidder[played]
    else:
        leader = declarer
    if br.generale_taker_leads:             # play.first_leader_generale: taker
        leader = np.where(br.bid_kind[bid] == 2, declarer, leader)
    melds, run_cards = meld_points(br, ph, strain, leader)
    if chooser is not None:
        chooser.start_play(strain, declarer)
    # belote.claim king_first reads the order of the cards played: the play is recorded for it
    p = play_tricks(br, rng, ph, strain, leader, record or br.belote_king_first, chooser)
    belote = belote_points(br, ph, strain, run_cards, p.cards)
    s = score_deals(br, strain, bid, declarer, mult, p, melds, belote)
    won = np.stack([p.won_by_seat[0] + p.won_by_seat[2], p.won_by_seat[1] + p.won_by_seat[3]])
    return Batch(rules=br, hands=hands, dealer=dealer, contract=a.state == auction_mod.CONTRACT,
                 played=played, bid=bid, strain=strain, declarer=declarer, multiplier=mult,
                 tricks_won=won, card_points=s.card_points, melds=melds, belote=belote, made=s.made,
                 score=s.score, sweeper=s.sweeper, outcome=s.outcome, totals=s.totals, held=s.held,
                 auction=a, play=p, players=players)
