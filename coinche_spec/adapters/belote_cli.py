"""belote-cli (PyPI ``belote-cli``, a terminal game of classic belote) behind the conformance protocol.

``--impl belote-cli`` (``pip install 'coinche-spec[belote-cli]'``). belote-cli
is not Coinche: it plays classic belote (take or pass on a turned card, then
a second round for any suit, sans atout or tout atout), with a coinche and a
surcoinche after the taking. Its legal cards, trick winners, card play,
round scoring and match end are pure functions of its ``belote`` package,
and every answer here comes from them; the adapter only translates cards
and seats and builds the positions:

- ``legal_cards``: ``game.legal_cards`` on a position in play;
- ``perft``: ``game.legal_cards`` and ``game.play_card``, depth first;
- ``deal`` with a given ``contract`` (the protocol's extension for engines
  without a Coinche auction): the hands are dealt into belote-cli's own
  taking (``game.place_bid`` by the declarer, which completes the hands,
  finds the belote holder and the declarations, and gives the first lead),
  the coinche level set as its coinche flow sets it, every card checked
  against ``legal_cards`` and played with ``play_card``, the round scored
  by ``scoring.score_round`` and ``scoring.coinche_adjusted_credits``;
- ``match``: each deal's recorded score through ``scoring.apply_round_score``,
  which ends the game (a match with a litige's held points is skipped: belote-cli
  adds them inside its next round's score, never to a recorded one).

Skipped, and said so in ``start``: the auction (belote-cli's taking has no
bids for our rule sets to describe), a deal with calls, the score of a
summary and the melds case (belote-cli scores and finds declarations only
from cards played and held), the dealing (its hands depend on who takes).

Seats: belote-cli's ``Seat`` has the same four names, and its next seat
(``Seat.next_seat``: South, East, North, West) is ours anticlockwise, so each
letter is the seat of the same name.
"""

from __future__ import annotations

from typing import Any

KINDS = ("legal_cards", "deal", "perft", "match")
UNANSWERED = {
    "auction": "belote-cli's auction is classic belote (take or pass on a turned card, then a second round); "
               "it has no bids our rule sets can describe",
    "score": "belote-cli scores only a round it has played (scoring.score_round reads the tricks), never a "
             "summary of one",
    "melds": "belote-cli finds the declarations itself in the hands at the start of play "
             "(scoring.get_declarations); it has no declared melds to judge",
    "dealing": "belote-cli deals 5 cards, turns one up and deals the rest after the taking (deck.deal, "
               "game._distribute_remaining_cards): the hands depend on who takes, which a dealing case does not say",
}
HELD_IN_MATCH = ("a litige's held points (the match case's `held`) enter belote-cli's next round inside its own "
                 "score (scoring.score_round adds state.litige_points), never a recorded score: it cannot be given them")
NEEDS_CONTRACT = ("a deal with calls needs belote-cli's auction, which our rule sets cannot describe; "
                  "only a deal with a given contract is answered")
RULES_ID = "belote-cli"
HOMEPAGE = "https://github.com/ElysiumDisc/belote"

SUITS = {"S": "SPADES", "H": "HEARTS", "D": "DIAMONDS", "C": "CLUBS"}
RANKS = {"7": "SEVEN", "8": "EIGHT", "9": "NINE", "T": "TEN", "J": "JACK", "Q": "QUEEN", "K": "KING", "A": "ACE"}
SEATS = {"N": "NORTH", "E": "EAST", "S": "SOUTH", "W": "WEST"}
COINCHE_LEVEL = {1: 0, 2: 1, 4: 2}   # belote-cli's coinche_level: none, coinché (x2), surcoinché (x4)

# Rules no answered kind can observe: the auction (never played here, apart from what a contract
# may hold), the dealing, who deals.
IRRELEVANT = ("deal.", "auction.", "table.first_dealer", "table.next_dealer", "table.dealer_after_throw_in")
OBSERVED_AUCTION = ("auction.strains.", "auction.coinche.multiplier", "auction.surcoinche.")


def check_available() -> str | None:
    """Why the adapter cannot run here (belote-cli missing or unusable), or None."""
    try:
        from belote import game, scoring  # noqa: F401
    except ImportError as exc:
        return f"needs the belote-cli package ({exc}): pip install 'coinche-spec[belote-cli]'"
    return None


# --- notation ----------------------------------------------------------------------------

def to_card(card: str):
    """belote-cli's Card for a canonical card ("TH" is the ten of hearts)."""
    from belote.deck import Card, Rank, Suit
    return Card(Suit[SUITS[card[1]]], Rank[RANKS[card[0]]])


def card_text(card) -> str:
    rank = next(r for r, name in RANKS.items() if name == card.rank.name)
    suit = next(s for s, name in SUITS.items() if name == card.suit.name)
    return rank + suit


def to_seat(seat: str):
    from belote.game import Seat
    return Seat[SEATS[seat]]


def seat_text(seat) -> str:
    # by number: belote-cli's Seat.name is overridden to give "South", "North" ...
    return "SENW"[seat.value]


def team_text(team: int) -> str:
    """belote-cli's team number (game.team_of: 0 North-South, 1 East-West)."""
    return "NS" if team == 0 else "EW"


def trump_and_contract(strain: str):
    """(state.trump, state.contract) as belote-cli's place_bid sets them for a strain."""
    from belote.deck import Contract, Suit
    if strain == "SA":
        return None, Contract.SANS_ATOUT
    if strain == "TA":
        return Suit.TOUT_ATOUT, Contract.TOUT_ATOUT
    return Suit[SUITS[strain]], Contract.NORMAL


def bid_for(strain: str):
    """The bid place_bid takes for a strain: a suit, Suit.TOUT_ATOUT, or game.SANS_ATOUT_BID."""
    from belote.game import SANS_ATOUT_BID
    trump, _ = trump_and_contract(strain)
    return SANS_ATOUT_BID if strain == "SA" else trump


def _card_list(cards) -> list[str]:
    return sorted(card_text(c) for c in cards)


def rules_that_differ(document: dict, mine: dict) -> list[str]:
    """The rule paths where ``document`` and belote-cli's rule set differ, among those its answers show.
    The match target is not among them: belote-cli plays any target (``game.new_game(target)``)."""
    from ..variants.diff import flatten
    a, b = flatten(document["rules"]), flatten(mine["rules"])

    def shown(path: str) -> bool:
        if path == "match.target":
            return False
        if path.startswith(OBSERVED_AUCTION):
            return True
        return not any(path == p or path.startswith(p) for p in IRRELEVANT)
    return [p for p in sorted(set(a) | set(b)) if a.get(p) != b.get(p) and shown(p)]


class BeloteCliAdapter:
    """The protocol's commands, answered by belote-cli's ``belote`` package (see the module's docstring)."""

    def __init__(self) -> None:
        self._target: int | None = None
        self._rules = None

    # -- the protocol ----------------------------------------------------------------------
    def start(self) -> dict:
        import belote
        return {"protocol": 1,
                "implementation": {"name": "belote-cli", "version": getattr(belote, "__version__", "unknown"),
                                   "language": "Python (its belote package, through the coinche-spec adapter)",
                                   "homepage": HOMEPAGE},
                "kinds": list(KINDS), "variants": [RULES_ID],
                "unanswered": dict(UNANSWERED, deal=NEEDS_CONTRACT + " (extension: contract in a deal case)")}

    def configure(self, variant: Any) -> dict:
        from ..variants import load_variant
        from . import fixed_rules
        chosen, reply = fixed_rules.configure(variant, lambda: load_variant(RULES_ID), RULES_ID, "belote-cli",
                                              rules_that_differ, ", any match target")
        self._target = None if chosen is None else chosen.rules.match.target
        self._rules = None if chosen is None else chosen.rules
        return reply

    def run(self, case: Any) -> dict:
        from ..protocol.cases import CaseError
        from . import fixed_rules
        if self._target is None:
            return {"errored": True, "message": "run before a successful configure"}
        case, reply = fixed_rules.take(case, KINDS, UNANSWERED)
        if reply is not None:
            return reply
        kind = case["kind"]
        if kind == "deal" and "contract" not in case:
            return {"skipped": True, "reason": NEEDS_CONTRACT}
        if kind == "match" and any(deal.get("held") for deal in case["deals"]):
            return {"skipped": True, "reason": HELD_IN_MATCH}
        answer = {"legal_cards": self._legal_cards, "deal": self._deal, "perft": self._perft,
                  "match": self._match}[kind]
        try:
            return answer(case)
        except CaseError as exc:
            return {"errored": True, "message": str(exc)}

    def stop(self) -> None:
        self._target = self._rules = None

    # -- the kinds -------------------------------------------------------------------------
    def _position(self, strain: str, turn: str, hands: dict, trick=()):
        """A position in play, as belote-cli's GameState holds one."""
        from belote.game import GameState, Phase, TrickCard
        trump, contract = trump_and_contract(strain)
        seats = ("S", "E", "N", "W")   # belote-cli's Seat values 0 1 2 3
        leader = trick[0][0] if trick else turn
        return GameState(hands=tuple(tuple(to_card(c) for c in hands.get(s, ())) for s in seats),
                         trump=trump, contract=contract, phase=Phase.PLAYING, leader=to_seat(leader),
                         turn=to_seat(turn), current_trick=tuple(TrickCard(to_seat(s), to_card(c)) for s, c in trick))

    def _legal_cards(self, case: dict) -> dict:
        """belote-cli's legal_cards reads the trick's seats only to tell the partner from the opponents;
        a trick whose seats do not go round in the rule set's direction (belote-cli's anticlockwise) is
        bad input, refused with the reference engine's own message, since no game reaches it."""
        from belote.game import legal_cards
        from ..protocol.cases import check_play_order
        check_play_order(self._rules, case)
        trick = [(t["seat"], t["card"]) for t in case["trick"]]
        seat = case["seat"]
        state = self._position(case["strain"], seat, {seat: case["hand"]}, trick)
        return {"result": {"legal": _card_list(legal_cards(state, to_seat(seat)))}}

    def _perft(self, case: dict) -> dict:
        from belote.game import legal_cards, play_card
        from ..protocol.cases import CaseError
        depth = case["depth"]
        left = sum(len(h) for h in case["hands"].values())
        if depth > left:
            raise CaseError(("case", "depth"), f"{depth} cards asked, only {left} are left to play")

        def count(state, depth: int) -> int:
            if depth == 0:
                return 1
            legal = legal_cards(state, state.turn)
            if depth == 1:
                return len(legal)
            return sum(count(play_card(state, card), depth - 1) for card in legal)

        return {"result": {"count": count(self._position(case["strain"], case["leader"], case["hands"]), depth)}}

    def _taken(self, case: dict):
        """The position after belote-cli's taking: place_bid by the declarer, with the hands dealt so
        that the completed hands are the case's (five cards, the turned card, the rest)."""
        from dataclasses import replace

        from belote.game import GameState, Phase, get_bidder, place_bid
        from ..protocol.cases import CaseError
        contract = case["contract"]
        if contract["value"] == "capot" or contract["value"] == "generale":
            raise CaseError(("case", "contract", "value"), f"belote-cli has no {contract['value']} contract")
        if contract["multiplier"] not in COINCHE_LEVEL:
            raise CaseError(("case", "contract", "multiplier"), f"{contract['multiplier']}: belote-cli's "
                                                                "multipliers are 1, 2 (coinche) and 4 (surcoinche)")
        dealer, taker = to_seat(case["dealer"]), to_seat(contract["declarer"])
        order = [get_bidder(dealer, i) for i in range(4)]   # from the dealer's next seat, as it deals
        hands = {seat: [to_card(c) for c in case["hands"][seat_text(seat)]] for seat in order}
        pool = []
        for seat in order:
            pool += hands[seat][6:] if seat == taker else hands[seat][5:]
        state = GameState(hands=tuple(tuple(hands[s][:5]) for s in sorted(hands, key=lambda s: s.value)),
                          dealer=dealer, phase=Phase.BIDDING, bidding_round=2, bidder_index=order.index(taker),
                          up_card=hands[taker][5], remaining_cards=tuple(pool))
        state = place_bid(state, bid_for(contract["strain"]))
        if state.taker != taker or any(set(state.hands[s.value]) != set(hands[s]) for s in order):  # pragma: no cover
            raise RuntimeError("belote-cli's taking did not give the hands of the case")
        return replace(state, coinche_level=COINCHE_LEVEL[contract["multiplier"]])

    def _deal(self, case: dict) -> dict:
        from belote.game import Phase, legal_cards, play_card
        from belote.scoring import coinche_adjusted_credits, score_round
        state = self._taken(case)
        contract = {k: case["contract"][k] for k in ("value", "strain", "declarer", "multiplier")}
        out: dict = {"accepted": {"calls": 0, "plays": 0}, "contract": contract, "tricks": [],
                     "tricks_won": {"NS": 0, "EW": 0}, "card_points": None, "melds": None, "belote": None,
                     "made": None, "score": None}
        reason = None
        for entry in case["play"]:
            if state.phase != Phase.PLAYING:
                reason = "the deal is over"
                break
            seat, card = to_seat(entry["seat"]), to_card(entry["card"])
            if seat != state.turn:
                reason = f"it is {seat_text(state.turn)}'s turn to play, not {entry['seat']}'s"
                break
            legal = legal_cards(state, seat)
            if card not in legal:
                reason = (f"{entry['card']} is not among belote-cli's legal cards for {entry['seat']}: "
                          + " ".join(_card_list(legal)))
                break
            trick = state.current_trick
            state = play_card(state, card)
            out["accepted"]["plays"] += 1
            if len(trick) == 3:   # that card closed the trick: play_card gave the lead to its winner
                cards = [tc.card for tc in trick] + [card]
                out["tricks"].append({"leader": seat_text(trick[0].seat), "winner": seat_text(state.last_trick_winner),
                                      "cards": [card_text(c) for c in cards]})
                team = "NS" if seat_text(state.last_trick_winner) in "NS" else "EW"
                out["tricks_won"][team] += 1
        if state.phase == Phase.SCORING:
            out.update(self._scored(state, score_round(state), coinche_adjusted_credits))
        else:
            out["legal_next"] = _card_list(legal_cards(state, state.turn))
        if reason:
            out["reason"] = reason
        return {"result": out}

    def _scored(self, state, breakdown, credits) -> dict:
        """The protocol's score fields from belote-cli's ScoringBreakdown."""
        from belote.config import GLOBAL_CONFIG
        from belote.deck import Contract
        takers, defenders = team_text(breakdown.taker_team), team_text(1 - breakdown.taker_team)
        points = {takers: breakdown.table_taker_pts, defenders: breakdown.table_defender_pts}
        if breakdown.is_capot:   # the sweep is worth belote-cli's capot base for the contract, the other side 0
            base = {Contract.SANS_ATOUT: GLOBAL_CONFIG.CAPOT_BASE_SANS_ATOUT,
                    Contract.TOUT_ATOUT: GLOBAL_CONFIG.CAPOT_BASE_TOUT_ATOUT}.get(state.contract,
                                                                               GLOBAL_CONFIG.CAPOT_BASE)
            sweepers = team_text(0 if breakdown.tricks_ns == 8 else 1)
            points = {sweepers: base, ("EW" if sweepers == "NS" else "NS"): 0}
        taker_credit, defender_credit = credits(breakdown, state.coinche_level)
        belote = takers if breakdown.taker_belote else defenders if breakdown.defender_belote else None
        return {"card_points": {"NS": points["NS"], "EW": points["EW"]},
                "melds": _pair(takers, breakdown.taker_declarations, breakdown.defender_declarations),
                "belote": belote, "made": not (breakdown.is_failed or breakdown.is_litige),
                "score": _pair(takers, taker_credit, defender_credit)}

    def _match(self, case: dict) -> dict:
        from belote.game import Phase, new_game
        from belote.scoring import ScoringBreakdown, apply_round_score
        state = new_game(target=self._target)
        for deal in case["deals"]:
            if deal["takers"] is None:
                continue        # a thrown-in deal (takers null, 0 to 0): belote-cli redeals and records no round
            takers = 0 if deal["takers"] == "NS" else 1
            score = deal["score"]
            defenders_side = "EW" if takers == 0 else "NS"
            breakdown = ScoringBreakdown(
                taker_team=takers, table_taker_pts=0, table_defender_pts=0, credit_taker_pts=0,
                credit_defender_pts=0, last_trick_team=None, taker_declarations=0, defender_declarations=0,
                taker_belote=0, defender_belote=0, taker_rebelote=False, defender_rebelote=False,
                taker_total=score[deal["takers"]], defender_total=score[defenders_side], is_capot=False,
                is_failed=not deal["made"], tricks_ns=deal["tricks_won"]["NS"], tricks_ew=deal["tricks_won"]["EW"])
            state = apply_round_score(state, breakdown)
            if state.phase == Phase.GAME_OVER:
                break
        ns, ew = state.team_scores
        over = state.phase == Phase.GAME_OVER
        # main.py's verdict at GAME_OVER: North-South won when ahead (the totals are never equal there)
        winner = ("NS" if ns > ew else "EW") if over else None
        return {"result": {"state": "over" if over else "open", "winner": winner, "totals": {"NS": ns, "EW": ew}}}


def _pair(takers: str, for_takers: int, for_defenders: int) -> dict:
    return {"NS": for_takers, "EW": for_defenders} if takers == "NS" else {"NS": for_defenders, "EW": for_takers}
