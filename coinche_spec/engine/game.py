"""A whole deal: the auction, then the eight tricks, then the score.

``Deal`` is the public state object: ask it what is legal (``legal_calls``,
``legal_cards``), give it a call or a card (``apply_call``, ``apply_card``)
and get a new state back; the old one is untouched, so a search or a test can
branch freely. ``run_deal_case`` replays a protocol ``deal`` case with it.
"""

from __future__ import annotations

from ..notation import (SEATS, Call, card_name, next_seat, team_of)
from . import belote as belote_mod
from . import melds as melds_mod
from . import scoring
from .auction import Auction
from .errors import IllegalCall, IllegalPlay
from .masks import cards_of
from .play import PlayState


class Deal:
    """One deal under one rule set; immutable: every ``apply_*`` returns a new Deal."""

    __slots__ = ("rules", "dealer", "hands", "auction", "calls", "play", "declared", "log", "late_melds")

    def __init__(self, rules, dealer, hands, auction, calls, play, declared, log, late_melds):
        self.rules = rules
        self.dealer = dealer
        self.hands = hands            # the original hands: seat -> mask
        self.auction = auction
        self.calls = calls            # tuple of (seat, Call) accepted so far
        self.play = play              # PlayState once the first card may be played, else None
        self.declared = declared      # seat -> tuple of melds (each a tuple of cards), first card only
        self.log = log                # tuple of (seat, card, say) in play order
        self.late_melds = late_melds  # melds declared after a player's first card: they never score

    @classmethod
    def start(cls, rules, dealer: str, hands: dict) -> "Deal":
        return cls(rules, dealer, dict(hands), Auction.start(rules, dealer), (), None,
                   {s: () for s in SEATS}, (), ())

    # -- where we are ------------------------------------------------------
    @property
    def phase(self) -> str:
        """``auction``, ``play``, ``done`` or ``redeal``."""
        if self.play is not None:
            return "done" if self.play.done else "play"
        state = self.auction.state
        if state == "redeal":
            return "redeal"
        if state == "contract":
            return "play"
        return "auction"

    @property
    def contract(self):
        return self.auction.contract

    @property
    def to_act(self):
        phase = self.phase
        if phase == "auction":
            return self.auction.to_act
        if phase == "play":
            return self._play_state().to_act
        return None

    def _play_state(self) -> PlayState:
        if self.play is not None:
            return self.play
        contract = self.auction.contract
        return PlayState.start(self.rules, contract.strain, self._first_leader(), self.hands)

    def _first_leader(self) -> str:
        how = self.rules.play.first_leader
        if how == "first_bidder" and self.auction.first_bidder:
            return self.auction.first_bidder
        if how == "taker":
            return self.auction.contract.declarer
        return next_seat(self.dealer, self.rules.table.direction)

    # -- what is legal -----------------------------------------------------
    def legal_calls(self) -> list:
        """Every (seat, call) some player may make now (the after-auction window included)."""
        if self.play is not None:
            return []
        return self.auction.legal_calls()

    def legal_cards(self) -> list[int]:
        if self.phase != "play":
            return []
        return cards_of(self._play_state().legal())

    # -- moves ---------------------------------------------------------------
    def apply_call(self, seat: str, call: Call) -> "Deal":
        if self.play is not None:
            raise IllegalCall(f"{seat} cannot call {call}: the play has started")
        auction = self.auction.apply(seat, call)
        return Deal(self.rules, self.dealer, self.hands, auction, self.calls + ((seat, call),), None,
                    self.declared, self.log, self.late_melds)

    def apply_card(self, seat: str, card: int, melds=None, say=None) -> "Deal":
        if self.phase != "play":
            raise IllegalPlay(f"{seat} cannot play {card_name(card)}: "
                              + ("the auction is not over" if self.phase == "auction" else f"the deal is {self.phase}"))
        state = self._play_state()
        if seat != state.to_act:
            raise IllegalPlay(f"{seat} cannot play {card_name(card)}: it is {state.to_act}'s turn")
        new_state = state.apply(card)
        auction = self.auction.close() if self.play is None else self.auction
        declared, late = self.declared, self.late_melds
        if melds:
            melds = tuple(tuple(m) for m in melds)
            if not self.declared[seat] and self._is_first_card(seat):
                declared = dict(self.declared)
                declared[seat] = melds
            else:
                late = late + melds
        return Deal(self.rules, self.dealer, self.hands, auction, self.calls, new_state, declared,
                    self.log + ((seat, card, say),), late)

    def _is_first_card(self, seat: str) -> bool:
        return all(s != seat for s, _, _ in self.log)

    # -- the outcome ---------------------------------------------------------
    def result(self) -> dict:
        """The protocol's view of the deal so far (scores only once all 32 cards are played)."""
        contract = self.auction.contract if self.auction.state == "contract" else None
        out = {
            "contract": contract.to_json() if contract else None,
            "tricks": [], "tricks_won": {"NS": 0, "EW": 0},
            "card_points": None, "melds": None, "belote": None, "made": None, "score": None,
        }
        play = self.play
        if play is None:
            return out
        out["tricks"] = [{"leader": leader, "winner": winner, "cards": [card_name(c) for c in cards]}
                         for leader, winner, cards in play.tricks]
        won = {"NS": 0, "EW": 0}
        for _, winner, _ in play.tricks:
            won[team_of(winner)] += 1
        out["tricks_won"] = won
        if not play.done:
            return out
        details = self.outcome()
        out.update({k: details[k] for k in ("card_points", "melds", "belote", "made", "score")})
        if details["invalid_melds"]:
            out["invalid_melds"] = details["invalid_melds"]
        return out

    def outcome(self) -> dict:
        """Everything scoring knows about a finished deal, including the arithmetic in words."""
        rules, play, contract = self.rules, self.play, self.auction.contract
        strain = contract.strain
        points = play.trick_points()
        won = {"NS": 0, "EW": 0}
        for _, winner, _ in play.tricks:
            won[team_of(winner)] += 1
        last = team_of(play.tricks[-1][1])
        declared = {s: [list(m) for m in self.declared[s]] for s in SEATS}
        leader = play.tricks[0][0]
        meld_result = melds_mod.compare(rules, strain, declared, hands=self.hands,
                                        leader=leader, direction=rules.table.direction)
        belote = belote_mod.belote_points(rules, strain, self.hands, list(self.log), meld_result.valid)
        score = scoring.score_deal(rules, contract, points, won, last, meld_result.points, belote)
        holders = [t for t in ("NS", "EW") if belote.get(t)]
        invalid = [[card_name(c) for c in m] for m in meld_result.invalid]
        invalid += [[card_name(c) for c in m] for m in self.late_melds]
        return {
            "trick_points": points, "tricks_won": won, "last_trick": last,
            "card_points": score.card_points, "melds": meld_result.points,
            "meld_winner": meld_result.winner, "valid_melds": meld_result.valid,
            "belote": holders[0] if len(holders) == 1 else None,
            "belote_points": belote,
            "made": score.made, "score": score.score, "lines": score.lines,
            "invalid_melds": invalid,
        }


def run_deal_case(rules, dealer: str, hands: dict, calls: list, plays: list) -> dict:
    """Replay a protocol ``deal`` case; an illegal call or card stops the replay and is reported."""
    deal = Deal.start(rules, dealer, hands)
    accepted_calls = 0
    stop_reason = None
    for seat, call in calls:
        try:
            deal = deal.apply_call(seat, call)
        except IllegalCall as exc:
            stop_reason = str(exc)
            break
        accepted_calls += 1
    accepted_plays = 0
    if stop_reason is None and deal.phase == "play":
        for entry in plays:
            try:
                deal = deal.apply_card(entry["seat"], entry["card"], entry.get("melds"), entry.get("say"))
            except IllegalPlay as exc:
                stop_reason = str(exc)
                break
            accepted_plays += 1
    elif stop_reason is None and plays:
        stop_reason = f"no card may be played: the deal is {deal.phase}"
    result = {"accepted": {"calls": accepted_calls, "plays": accepted_plays}}
    result.update(deal.result())
    if deal.phase == "play":
        result["legal_next"] = [card_name(c) for c in deal.legal_cards()]
    if stop_reason:
        result["stopped"] = stop_reason
    return result
