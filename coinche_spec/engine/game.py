"""A whole deal: the auction, then the eight tricks, then the score.

``Deal`` is the public state of one deal. Ask it what is legal
(``legal_calls``, ``legal_cards``), give it a call or a card (``apply_call``,
``apply_card``) and get a new ``Deal`` back: the old one is untouched, so a
search, a replay or a test can branch from any moment. It composes the other
engine modules and adds only what belongs to the deal as a whole: who may
call or play now, melds declared with a player's first card, belote said with
the cards, and the final judgement once the last trick is taken
(docs/rules-model.md §8).

``run_deal_case`` replays a protocol ``deal`` case: the calls, then the cards,
stopping at the first one the rules refuse, and answers with the protocol's
result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..notation import SEATS, Call, Contract, NotationError, card_name, doubling_for, parse_call, team_of
from ..variants.rules import Rules
from . import belote as belote_mod
from . import melds as melds_mod
from . import scoring
from .auction import Auction
from .errors import BadInput, IllegalCall, IllegalPlay
from .masks import cards_of
from ..variants.compiled import compiled_rules
from .play import _SEAT_INDEX, PlayState, compiled, first_leader, sitting_out
from .play import _card  # the same card check and message everywhere

__all__ = ["Deal", "DealOutcome", "run_deal_case"]

_FULL = (1 << 32) - 1
_new_deal = object.__new__
_SEAT_SET = frozenset(SEATS)


@dataclass
class DealOutcome:
    """Everything the score of a finished deal rests on, with the arithmetic in words.

    ``lines`` is ScoreResult.lines: how the contract was judged and what each
    side records, for a person reading the deal. The numbers are worked out
    when the deal ends; the sentences only when ``lines`` is first read.
    """

    trick_points: dict            # card values in each side's tricks, no bonus
    tricks_won: dict
    last_trick: str               # the side that took the last trick
    card_points: dict             # trick points plus the last trick (or the sweep)
    melds: dict                   # ordinary melds that score, after comparison
    meld_result: melds_mod.MeldResult
    belote_points: dict           # each side's valid belote, before the contract is judged
    belote: str | None            # the side holding the belote that counts (None: none, or one each)
    made: bool
    score: dict                   # what each side records for the deal
    invalid_melds: list = field(default_factory=list)  # declarations that score nothing, as card lists
    score_result: scoring.ScoreResult | None = None
    rebelote_forgiven: tuple = ()  # the sides forgiven a forgotten «rebelote» in this deal

    @property
    def lines(self) -> list:
        return self.score_result.lines if self.score_result is not None else []


def _hand_masks(hands) -> dict:
    """The four hands as seat -> mask, checked: every seat, 8 distinct cards each, no card twice."""
    if type(hands) is dict and hands.keys() == _SEAT_SET:
        n, e, s, w = hands["N"], hands["E"], hands["S"], hands["W"]
        # four int masks of 8 cards that together hold all 32 cannot overlap: a dealt pack
        if (type(n) is int and type(e) is int and type(s) is int and type(w) is int
                and n | e | s | w == _FULL
                and n.bit_count() == e.bit_count() == s.bit_count() == w.bit_count() == 8):
            return {"N": n, "E": e, "S": s, "W": w}
    return _checked_hand_masks(hands)


def _checked_hand_masks(hands) -> dict:
    """_hand_masks seat by seat and card by card, naming the first thing wrong."""
    if not isinstance(hands, dict):
        raise BadInput(f"hands: expected an object with N, E, S, W, got {type(hands).__name__}")
    extra = [k for k in hands if k not in SEATS]
    if extra:
        raise BadInput(f"hands: {extra[0]!r} is not a seat (expected N, E, S, W)")
    out = {}
    seen = 0
    for seat in SEATS:
        if seat not in hands:
            raise BadInput(f"hands: no hand for {seat}")
        given = hands[seat]
        if isinstance(given, int) and not isinstance(given, bool):
            if given < 0 or given & ~_FULL:
                raise BadInput(f"hands.{seat}: {given:#x} is not a 32-bit card mask")
            mask = given
        else:
            if isinstance(given, (str, bytes)) or not hasattr(given, "__iter__"):
                raise BadInput(f"hands.{seat}: expected a card mask or a list of cards, got {type(given).__name__}")
            mask = 0
            for pos, item in enumerate(given):
                card = _card(item, f"hands.{seat}[{pos}]")
                if mask >> card & 1:
                    raise BadInput(f"hands.{seat}[{pos}]: {card_name(card)} appears twice")
                mask |= 1 << card
        if mask.bit_count() != 8:
            raise BadInput(f"hands.{seat}: holds {mask.bit_count()} cards; a deal gives each player 8")
        twice = mask & seen
        if twice:
            c = (twice & -twice).bit_length() - 1
            raise BadInput(f"hands.{seat}: {card_name(c)} is also in another hand")
        seen |= mask
        out[seat] = mask
    return out


def _call(call) -> Call:
    if isinstance(call, Call):
        return call
    try:
        return parse_call(call)
    except NotationError as exc:
        raise BadInput(f"call: {exc}") from None


def _melds_given(melds, seat: str) -> tuple:
    """Declarations as a tuple of card tuples, checked for shape (whether they are melds is judged later)."""
    if isinstance(melds, (str, bytes)) or not isinstance(melds, (list, tuple)):
        raise BadInput(f"melds of {seat}: expected a list of melds, each a list of cards, got {melds!r}")
    out = []
    for i, meld in enumerate(melds):
        if isinstance(meld, (str, bytes)) or not isinstance(meld, (list, tuple)):
            raise BadInput(f"melds of {seat}[{i}]: expected a list of cards, got {meld!r}")
        # card indices pass as they are; anything else goes through _card (names, or the error)
        out.append(tuple(c if type(c) is int and 0 <= c < 32 else _card(c, f"melds of {seat}[{i}]")
                         for c in meld))
    return tuple(out)


class Deal:
    """One deal under one rule set, from the first call to the score; immutable.

    Every ``apply_*`` returns a new Deal. ``phase`` is ``auction`` (calls
    go on), ``play`` (the contract is settled: cards, and before the first
    card a coinche or surcoinche where the variant allows one after the
    auction), ``done`` (all 32 cards played, 24 when a générale's partner sits out) or ``redeal``
    (four passes).
    """

    __slots__ = ("rules", "dealer", "hands", "seen", "auction", "calls", "play", "log", "declared",
                 "late_melds", "phase", "_outcome")

    def __init__(self, rules, dealer, hands, auction, calls, play, log, declared, late_melds, phase, seen=None):
        self.rules = rules
        self.dealer = dealer
        self.hands = hands            # the hands as dealt: seat -> mask
        # the cards each seat holds while bidding (deal.packets_after_auction deals the rest after it)
        self.seen = hands if seen is None else seen
        self.auction = auction        # engine.auction.Auction after the accepted calls
        self.calls = calls            # ((seat, Call), ...) accepted so far
        self.play = play              # PlayState once the contract is settled, else None
        self.log = log                # ((seat, card, say), ...) in play order
        self.declared = declared      # seat -> melds declared with the first card, as card tuples
        self.late_melds = late_melds  # declarations made with a later card: they never score
        self.phase = phase
        self._outcome = None

    @classmethod
    def start(cls, rules, dealer: str, hands: dict, seen: dict | None = None) -> "Deal":
        """The deal before the first call: ``hands`` maps each seat to its 8 cards (mask or list).

        ``seen`` (seat -> mask): the cards each seat holds while bidding, where the rule set deals
        its last packets after the auction (random_play.random_hands fills it); left out, all 8.
        Only the players read it: no call is legal or not for the cards a player holds."""
        if type(rules) is not Rules and not hasattr(rules, "auction") and hasattr(rules, "rules"):
            rules = rules.rules  # a Variant was passed
        if dealer not in SEATS:
            raise BadInput(f"dealer: bad seat {dealer!r}: expected one of N, E, S, W")
        masks = _hand_masks(hands)
        auction = Auction.start(rules, dealer)
        return cls(rules, dealer, masks, auction, (), None, (), {s: () for s in SEATS}, (), "auction", seen)

    # -- where we are ------------------------------------------------------
    @property
    def contract(self) -> Contract | None:
        """The contract once the auction settled it (its multiplier may still grow before the first card)."""
        return self.auction.contract

    @property
    def to_act(self) -> str | None:
        """Who calls (auction) or plays (play) next; None once the deal is over or thrown in."""
        phase = self.phase
        if phase == "auction":
            return self.auction.to_act
        if phase == "play":
            return self.play.to_act
        return None

    @property
    def cards_played(self) -> int:
        return len(self.log)

    def auction_hand(self, seat: str) -> int:
        """The cards ``seat`` bids on: those dealt before the auction while it goes on, then all 8."""
        return self.seen[seat] if self.phase == "auction" else self.hands[seat]

    def hand(self, seat: str) -> int:
        """The cards ``seat`` still holds, as a mask."""
        if self.play is None:
            return self.hands[seat]
        return self.play.hand(seat)

    # -- what is legal -----------------------------------------------------
    def legal_calls(self) -> list:
        """Every (seat, call) some player may make now, the after-auction window included."""
        if self.log:
            return []
        return self.auction.legal_calls()

    def legal_mask(self) -> int:
        """The cards the player to act may play, as a mask (0 outside the play)."""
        if self.phase != "play":
            return 0
        return self.play.legal()

    def legal_cards(self) -> list[int]:
        """The cards the player to act may play, lowest index first."""
        return cards_of(self.legal_mask())

    def check_call(self, seat: str, call) -> str | None:
        """None if ``seat`` may make ``call`` now, else the reason."""
        if self.log:
            return f"{seat} cannot call {call}: the first card has been played"
        return self.auction.check(seat, _call(call))

    def check_card(self, seat: str, card) -> str | None:
        """None if ``seat`` may play ``card`` now, else the reason."""
        card = _card(card)
        if self.phase != "play":
            return self._no_card_reason(seat, card)
        if seat != self.play.to_act:
            return f"{seat} cannot play {card_name(card)}: it is {self.play.to_act}'s turn"
        return self.play.why_illegal(card)

    def _no_card_reason(self, seat, card) -> str:
        what = {"auction": "the auction is not over", "done": "all eight tricks have been played",
                "redeal": "all four passed and the cards are thrown in"}[self.phase]
        return f"{seat} cannot play {card_name(card)}: {what}"

    # -- moves ---------------------------------------------------------------
    def apply_call(self, seat: str, call) -> "Deal":
        """The deal after ``seat`` makes ``call``; IllegalCall says why when the rules refuse it."""
        call = _call(call)
        if self.log:
            raise IllegalCall(f"{seat} cannot call {call}: the first card has been played")
        auction = self.auction.apply(seat, call)
        play = self.play
        state = auction.state
        if state == "contract":
            phase = "play"
            if play is None:   # the hands were checked by Deal.start
                h, contract = self.hands, auction.contract
                play = PlayState._begin(compiled(self.rules, contract.strain),
                                        (h["N"], h["E"], h["S"], h["W"]), _SEAT_INDEX[self._leader(auction)],
                                        sitting_out(self.rules, contract.declarer, contract.value == "generale"))
        else:
            phase = "redeal" if state == "redeal" else "auction"
        new = _new_deal(Deal)                # every slot set below, as __init__ would
        new.rules = self.rules
        new.dealer = self.dealer
        new.hands = self.hands
        new.seen = self.seen
        new.auction = auction
        new.calls = self.calls + ((seat, call),)
        new.play = play
        new.log = ()
        new.declared = self.declared
        new.late_melds = ()
        new.phase = phase
        new._outcome = None
        return new

    def _leader(self, auction: Auction) -> str:
        """Who leads the first trick (P1): next to the dealer, the first bidder or the taker."""
        contract = auction.contract
        return first_leader(self.rules, self.dealer, auction.first_bidder, contract.declarer,
                            contract.value == "generale")

    def apply_card(self, seat: str, card, melds=None, say=None) -> "Deal":
        """The deal after ``seat`` plays ``card``, declaring ``melds`` and saying ``say`` with it.

        Melds count only with a player's first card; later ones are kept as
        declarations that score nothing. ``say`` is "belote" or "rebelote"
        (it matters only where the variant wants belote said).
        """
        if type(card) is not int:
            card = _card(card)
        if self.phase != "play":
            raise IllegalPlay(self._no_card_reason(seat, card))
        if say is not None and not isinstance(say, str):
            raise BadInput(f"say: expected \"belote\" or \"rebelote\", got {say!r}")
        play = self.play.apply(card, seat)   # IllegalPlay: wrong seat, card not held, not legal
        log = self.log
        new = _new_deal(Deal)                # every slot set below, as __init__ would
        new.rules = self.rules
        new.dealer = self.dealer
        new.hands = self.hands
        new.seen = self.seen
        new.auction = self.auction if log else self.auction.close()
        new.calls = self.calls
        new.play = play
        new.log = log + ((seat, card, say),)
        declared, late = self.declared, self.late_melds
        if melds:
            given = _melds_given(melds, seat)
            if len(log) < play.trick_size and not declared[seat]:   # the first trick: each player's first card
                declared = dict(declared)
                declared[seat] = given
            else:
                late = late + given
        new.declared = declared
        new.late_melds = late
        new.phase = "done" if play.done else "play"
        new._outcome = None
        return new

    # -- the outcome ---------------------------------------------------------
    def tricks(self) -> list:
        """Completed tricks as (leader, winner, [cards in play order])."""
        return self.play.tricks if self.play is not None else []

    def tricks_by_seat(self) -> dict:
        """The completed tricks each player won: a générale is made only if the declarer took all eight."""
        out = {"N": 0, "E": 0, "S": 0, "W": 0}
        for _, winner, _ in self.tricks():
            out[winner] += 1
        return out

    def result(self, rebelote_forgiven=()) -> dict:
        """The protocol's deal fields so far (without ``accepted``): scores only once all 32 cards are played.

        ``rebelote_forgiven``: the sides forgiven a forgotten «rebelote» earlier in the match (an input
        of the protocol's deal case; belote.claim said_rebelote_forgiven_once)."""
        contract = self.auction.contract
        out = {"contract": contract.to_json() if contract is not None else None,
               "tricks": None, "tricks_won": None, "card_points": None, "melds": None,
               "belote": None, "made": None, "score": None}
        play = self.play
        if play is None or self.phase == "auction":
            return out
        out["tricks"] = [{"leader": leader, "winner": winner, "cards": [card_name(c) for c in cards]}
                         for leader, winner, cards in play.tricks]
        out["tricks_won"] = play.tricks_won()
        if self.phase != "done":
            return out
        o = self.outcome(rebelote_forgiven)
        out.update(card_points=dict(o.card_points), melds=dict(o.melds), belote=o.belote,
                   made=o.made, score=dict(o.score))
        ns, ew = o.belote_points["NS"], o.belote_points["EW"]
        each = compiled_rules(self.rules).belote.points if (ns or ew) else 0
        if (ns and ew) or (each and max(ns, ew) > each):
            # protocol extension: `belote` (one side or null) cannot say both sides, or two belotes
            out["belotes"] = {"NS": ns // each, "EW": ew // each}
        if o.score_result is not None and o.score_result.held is not None:
            out["held"] = dict(o.score_result.held)      # a litige (scoring.litige)
        if o.rebelote_forgiven:
            out["rebelote_forgiven"] = list(o.rebelote_forgiven)   # protocol extension: carried to the next deal
        if o.invalid_melds:
            out["invalid_melds"] = [[card_name(c) for c in m] for m in o.invalid_melds]
        return out

    def outcome(self, rebelote_forgiven=()) -> DealOutcome:
        """Judge the finished deal: meld comparison, belote, card points, contract and award.

        ``rebelote_forgiven``: the sides already forgiven a forgotten «rebelote» in the match."""
        if self.phase != "done":
            raise IllegalPlay(f"the deal is not over: {len(self.log)} of {8 * play_size(self)} cards played")
        if self._outcome is not None and not rebelote_forgiven:
            return self._outcome
        rules, play, contract = self.rules, self.play, self.auction.contract
        strain = contract.strain
        points = play.trick_points()
        won = play.tricks_won()
        last = team_of(play.last_trick_winner)
        # declarations go as made (seat -> tuple of card tuples); compare reads lists or tuples
        meld_result = melds_mod.compare(rules, strain, self.declared, hands=self.hands,
                                        leader=self.log[0][0], direction=play.direction)
        # a hand laid aside (a générale's partner who sits out) holds no belote that counts
        hands = self.hands if play.sitting_out is None else {**self.hands, play.sitting_out: 0}
        belote = belote_mod.belote_points(rules, strain, hands, self.log, meld_result.valid, rebelote_forgiven)
        forgiven_now = belote_mod.rebelotes_forgiven(rules, strain, hands, self.log, meld_result.valid,
                                                     rebelote_forgiven)
        by_seat = self.tricks_by_seat() if contract.value == "generale" else None
        result = scoring.score_deal(rules, contract, points, won, last, meld_result.points, belote,
                                    explain=False, tricks_by_seat=by_seat)
        ns, ew = belote["NS"], belote["EW"]
        invalid = [list(m) for m in meld_result.invalid]
        if self.late_melds:
            invalid += [list(m) for m in self.late_melds]
        out = DealOutcome(
            trick_points=points, tricks_won=won, last_trick=last, card_points=result.card_points,
            melds=meld_result.points, meld_result=meld_result, belote_points=belote,
            belote=("NS" if ns else "EW" if ew else None) if not (ns and ew) else None,
            made=result.made, score=result.score, invalid_melds=invalid,
            score_result=result, rebelote_forgiven=tuple(forgiven_now))
        if not rebelote_forgiven:
            self._outcome = out
        return out

    def __repr__(self) -> str:
        return (f"Deal(phase={self.phase}, dealer={self.dealer}, contract={self.contract}, "
                f"calls={len(self.calls)}, cards={len(self.log)}, to_act={self.to_act})")


def play_size(deal: "Deal") -> int:
    """How many players play the deal's cards: four, three while one sits out."""
    return deal.play.trick_size if deal.play is not None else 4


def calls_for_contract(rules, dealer: str, hands: dict, contract: Contract) -> list | None:
    """An auction of ``rules`` that ends in ``contract``: passes up to the declarer, his bid, the
    coinche and surcoinche its multiplier needs, passes; None when the rule set allows no such auction.

    For the protocol's deal case with a given contract (engines without a Coinche auction): the
    declarer is also the first bidder, which matters only where the first lead follows him."""
    deal = Deal.start(rules, dealer, hands)
    bid = Call("bid", contract.value, contract.strain)
    coinche_multiplier = compiled_rules(rules).auction.coinche.multiplier
    want = contract.doubling or doubling_for(contract.multiplier, coinche_multiplier)
    calls: list = []
    for _ in range(64):
        legal = deal.legal_calls()
        current = deal.contract if deal.phase != "auction" else None
        doubling = ("none" if deal.auction.multiplier == 1
                    else doubling_for(deal.auction.multiplier, coinche_multiplier))
        choice = None
        if deal.auction.high_bid is None:
            choice = next(((s, c) for s, c in legal if s == contract.declarer and c == bid), None)
        elif doubling == "none" and want != "none":
            choice = next(((s, c) for s, c in legal if c.kind == "coinche"), None)
        elif doubling == "coinche" and want == "surcoinche":
            choice = next(((s, c) for s, c in legal if c.kind == "surcoinche"), None)
        if choice is None and deal.phase == "auction":
            choice = next(((s, c) for s, c in legal if c.kind == "pass"), None)
        if choice is None:
            break
        deal = deal.apply_call(*choice)
        calls.append(choice)
    current = deal.contract
    if deal.phase != "play" or current is None or (current.value, current.strain, current.declarer,
                                                   current.multiplier) != (contract.value, contract.strain,
                                                                           contract.declarer, contract.multiplier):
        return None
    return calls


def run_deal_case(rules, dealer: str, hands: dict, calls: list, plays: list, rebelote_forgiven=()) -> dict:
    """Replay a protocol ``deal`` case (already parsed) and answer with the protocol's result.

    ``rebelote_forgiven``: the sides forgiven a forgotten «rebelote» earlier in the match.

    The first call or card the rules refuse stops the replay: ``accepted``
    counts what came before it and ``reason`` says why. Cards are played
    only when every call was accepted and the auction reached a contract.
    """
    deal = Deal.start(rules, dealer, hands)
    accepted_calls = accepted_plays = 0
    reason = None
    for seat, call in calls:
        try:
            deal = deal.apply_call(seat, call)
        except IllegalCall as exc:
            reason = str(exc)
            break
        accepted_calls += 1
    playing = reason is None and deal.phase == "play"
    if playing:
        for entry in plays:
            try:
                deal = deal.apply_card(entry["seat"], entry["card"], entry.get("melds"), entry.get("say"))
            except IllegalPlay as exc:
                reason = str(exc)
                break
            accepted_plays += 1
    elif reason is None and plays:
        reason = ("no card may be played: all four passed and the cards are thrown in" if deal.phase == "redeal"
                  else "no card may be played: the auction has not reached a contract")
    result = {"accepted": {"calls": accepted_calls, "plays": accepted_plays}}
    result.update(deal.result(rebelote_forgiven))
    if not playing:
        # play never started: every card field stays null (rules-model §8)
        result["tricks"] = result["tricks_won"] = None
    elif deal.phase == "play":
        result["legal_next"] = [card_name(c) for c in deal.legal_cards()]
    if reason:
        result["reason"] = reason
    return result
