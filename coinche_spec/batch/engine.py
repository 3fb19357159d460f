"""B whole deals at once: deal, auction, melds and belote, the eight tricks, the score.

``play_batch(rules, n, seed)`` plays n random legal deals under one rule set
and returns their outcomes as arrays (a :class:`Batch`). It reads the same
compiled rules as the per-deal engine (``batch_rules``), and the deal-for-deal
test (tests/test_batch_engine.py) replays recorded batches through the
per-deal engine. A deal whose four players all pass is thrown in and kept
as such (``contract`` is False): the batch does not deal it again.
"""

from __future__ import annotations

import ctypes
import os

import numpy as np

from . import auction as auction_mod
from .dealing import deal_hands
from .melds import belote_points, meld_points
from .play import play_tricks
from .rules import batch_rules
from .scoring import score_deals
from .simple import SimplePlayers

__all__ = ["Batch", "play_batch"]


# glibc's malloc, left to itself, gives the pages of a freed block of a few megabytes back to the
# system (it trims the heap's top, or unmaps the block) and faults them in again at the next
# allocation. A batch makes thousands of such temporaries (one per numpy operation over 100,000
# deals), and the page faults took a sixth to a quarter of its CPU time (the belote's (4, n) int64
# arrays three times their own arithmetic). The first batch raises both thresholds for the process,
# once, so that freed memory stays in the heap for the next temporary: the resident size stays near
# the peak in use. Not on another C library, nor where MALLOC_MMAP_THRESHOLD_ or
# MALLOC_TRIM_THRESHOLD_ is set (the user chose).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_heap_kept = False


def _keep_heap() -> None:
    """Raise glibc's mmap threshold to its largest (32 MB) and the trim threshold to 512 MB, once."""
    global _heap_kept
    if _heap_kept:
        return
    _heap_kept = True
    if any(k in os.environ for k in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")):
        return
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version                  # glibc only
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return
    mallopt(_M_MMAP_THRESHOLD, 32 << 20)
    mallopt(_M_TRIM_THRESHOLD, 512 << 20)


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
    _keep_heap()
    rng = np.random.default_rng(seed)
    before = br.cards_before_auction
    if deals is not None:
        (hands, dealer), seen = deals, deals[0]      # given hands: the players bid on all their cards
    elif before < 8:
        hands, dealer, seen = deal_hands(rng, n, before)
    else:
        hands, dealer = deal_hands(rng, n)
        seen = hands
    if hands.shape != (4, n) or dealer.shape != (n,):
        raise ValueError(f"deals: expected hands of shape (4, {n}) and dealers of shape ({n},), "
                         f"got {hands.shape} and {dealer.shape}")
    if players not in ("random", "simple"):
        raise ValueError(f"players: expected 'random' or 'simple', not {players!r}")
    chooser = SimplePlayers(br, hands, seen) if players == "simple" else None
    a = auction_mod.run_auction(br, rng, dealer, record, chooser)
    played = np.flatnonzero(a.state == auction_mod.CONTRACT)
    # gathers by np.take with intp indices: hands[:, played] and a table indexed by int16 are 3-5x slower
    bid = np.take(a.high, played)
    strain = np.take(br.bid_strain, bid.astype(np.intp))
    declarer = np.take(a.bidder, played)
    mult = np.take(a.mult, played).astype(np.int64)
    ph = np.take(hands, played, axis=1)
    if br.first_leader == "next_to_dealer":
        leader = (np.take(dealer, played).astype(np.int32) + br.step) & 3
    elif br.first_leader == "first_bidder":
        leader = np.take(a.first_bidder, played)
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
    return Batch(rules=br, hands=hands, seen=seen, dealer=dealer, contract=a.state == auction_mod.CONTRACT,
                 played=played, bid=bid, strain=strain, declarer=declarer, multiplier=mult,
                 tricks_won=won, card_points=s.card_points, melds=melds, belote=belote, made=s.made,
                 score=s.score, sweeper=s.sweeper, outcome=s.outcome, totals=s.totals, held=s.held,
                 auction=a, play=p, players=players)
