"""Where the fuzzer's deals come from: the per-deal random player, or batches of the batch engine.

Either way a deal reaches the cases (``fuzz_cases.cases_of_deal``) as an
``engine.Deal`` that the per-deal engine played: the batch only proposes the
hands, the dealer and every call and card, and the per-deal engine applies
them one by one, checking each. A call or card the engine refuses, a contract
it does not reach, or a score it does not give is a bug of the batch engine:
:class:`BatchDisagrees` stops the run, never a skipped deal, so a batch bug
can neither hide a divergence nor make a wrong expectation pass.

Deal ``k`` of seed ``S`` is deal ``k % BATCH_CHUNK`` of batch ``k // BATCH_CHUNK``,
that batch played with numpy's generator seeded by ``(S, k // BATCH_CHUNK)``:
a slice of the seed range gives the same deals on any machine, in any number
of jobs, though not the deals the per-deal random player gives for ``S``.
The draws that cut a deal into cases (the dealing pack, the probes) come from
``deal_rng(S, k)`` with either generator.
"""

from __future__ import annotations

import random

from ..engine.errors import EngineError
from ..engine.game import Deal
from ..engine.match import exact_rules
from ..engine.random_play import _belote_suits, belote_word, declarable_melds
from ..errors import CoincheSpecError
from ..notation import SEATS
from .fuzz_cases import KINDS, cases_of_deal, deal_cases

__all__ = ["GENERATORS", "BATCH_CHUNK", "BatchDisagrees", "PerDeal", "BatchDeals", "deal_source",
           "batch_refusal", "deal_rng"]

GENERATORS = ("auto", "batch", "deal")
# Deals per batch: past the batch engine's per-call overhead, yet a short run starts in a few
# hundredths of a second. Part of what names a deal: changing it changes the batch generator's deals.
BATCH_CHUNK = 2048


class BatchDisagrees(CoincheSpecError):
    """The per-deal engine refused what the batch engine played: a bug of the batch engine."""


def deal_rng(seed: int, index: int) -> random.Random:
    """The random source of deal ``index`` of seed ``seed``: independent of every other deal."""
    return random.Random(f"coinche-spec-fuzz:{seed}:{index}")


def batch_refusal(*rule_sets) -> str | None:
    """None when the batch engine plays every one of these rule sets (and so can generate their
    deals), else why not (one line). numpy is imported only here, so a missing one is a reason."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return "numpy is not installed (pip install coinche-spec[batch])"
    from ..batch import BatchUnsupported, batch_rules
    for r in rule_sets:
        try:
            batch_rules(r)
        except BatchUnsupported as exc:
            return str(exc)
        if exact_rules(r) is not None:
            return ("rules.match.last_deal_exact: a match counts the deal that would win it unrounded, "
                    "and the batch records carry only the rounded score")
    return None


class PerDeal:
    """Each deal played by the per-deal engine's random players (``engine.random_play``)."""

    name = "deal"

    def __init__(self, rules, seed: int):
        self.rules, self.seed = rules, seed

    def cases(self, index: int, kinds=KINDS) -> list[dict]:
        return deal_cases(self.rules, deal_rng(self.seed, index), kinds)


class BatchDeals:
    """Deals proposed by the batch engine in batches of ``chunk``, each one replayed and judged by the
    per-deal engine. Keeps the last batch played: deals asked in order stream through the batches."""

    name = "batch"

    def __init__(self, rules, seed: int, chunk: int = BATCH_CHUNK):
        from ..batch import batch_rules
        batch_rules(rules)            # BatchUnsupported now, not at the first deal
        self.rules, self.seed, self.chunk = rules, seed, chunk
        self._number = None           # the batch held
        self._batch = self._calls = self._played = None
        self._direction = 1 if rules.table.direction == "clockwise" else 3

    def cases(self, index: int, kinds=KINDS) -> list[dict]:
        return cases_of_deal(self.rules, self.deal(index), deal_rng(self.seed, index), kinds)

    def _load(self, number: int) -> None:
        from ..batch import play_batch
        from ..batch.replay import recorded_calls
        self._batch = play_batch(self.rules, self.chunk, seed=[self.seed, number], record=True)
        self._calls = recorded_calls(self._batch)
        self._played = {int(d): p for p, d in enumerate(self._batch.played)}
        self._number = number

    def deal(self, index: int) -> Deal:
        """Deal ``index`` as the batch played it, every call and card applied by the per-deal engine."""
        number, i = divmod(index, self.chunk)
        if number != self._number:
            self._load(number)
        try:
            return self._replay(i)
        except _Refused as exc:
            raise BatchDisagrees(
                f"the per-deal engine refuses what the batch engine played in deal {index} of seed {self.seed} "
                f"(deal {i} of batch {number}): {exc}. This is a bug of the batch engine (coinche_spec/batch/); "
                f"fuzz with --generator deal meanwhile") from None

    def _replay(self, i: int) -> Deal:
        b, rules = self._batch, self.rules
        hands = {SEATS[s]: int(b.hands[s, i]) for s in range(4)}
        try:
            deal = Deal.start(rules, SEATS[int(b.dealer[i])], hands)
        except EngineError as exc:         # hands the engine refuses: the batch dealt them
            raise _Refused(f"the hands: {exc}") from None
        for n, call in enumerate(self._calls.get(i, ())):
            if call is None:       # the play starts: nobody coinches after the auction
                break
            try:
                deal = deal.apply_call(*call)
            except EngineError as exc:
                raise _Refused(f"call {n}, {call[0]} {call[1]}: {exc}") from None
        if (deal.phase == "play") != bool(b.contract[i]) or deal.phase not in ("play", "redeal"):
            raise _Refused(f"after the calls the engine's deal is at {deal.phase}, the batch's "
                           f"{'in play' if b.contract[i] else 'thrown in'}")
        if deal.phase == "redeal":
            return deal
        return self._play(deal, self._played[i], hands)

    def _play(self, deal: Deal, p: int, hands: dict) -> Deal:
        b, rules = self._batch, self.rules
        play = b.play
        suits = _belote_suits(deal)
        for j in range(32):
            t, pos = divmod(j, 4)
            seat = SEATS[(int(play.leaders[t, p]) + pos * self._direction) & 3]
            card = int(play.cards[j, p])
            # with what the per-deal random player declares and says with this card
            melds = (declarable_melds(rules, hands[seat], deal.contract.strain) or None) if j < 4 else None
            try:
                deal = deal.apply_card(seat, card, melds, belote_word(deal, seat, card, suits))
            except EngineError as exc:     # wrong seat, a card not held or not legal
                raise _Refused(f"card {j}: {exc}") from None
        outcome = deal.outcome()
        want = {"made": bool(b.made[p]), "NS": int(b.score[0, p]), "EW": int(b.score[1, p])}
        got = {"made": outcome.made, "NS": outcome.score["NS"], "EW": outcome.score["EW"]}
        if got != want:
            raise _Refused(f"the engine scores the deal {got}, the batch {want}")
        return deal


class _Refused(Exception):
    """What the per-deal engine refused, for BatchDisagrees to place.

    Private control flow (caught in this module, never shown): not under errors.CoincheSpecError."""


def deal_source(generator: str, rules, seed: int):
    """The deals of ``generator`` ("batch" or "deal") under ``rules`` for ``seed``."""
    if generator == "batch":
        return BatchDeals(rules, seed)
    if generator == "deal":
        return PerDeal(rules, seed)
    raise ValueError(f"generator: expected batch or deal, not {generator!r}")
