"""colver (PyPI ``colver``, a Belote contrée engine in Rust) behind the conformance protocol.

``--impl colver`` (``pip install 'coinche-spec[colver]'``). Every answer is
colver's own: the adapter only translates. A position is built with
``Env.deal_with_hands`` (and ``set_contract`` / ``set_phase_playing`` where a
case starts in the play), every call and card is checked against colver's
``legal_actions()`` before it is ``step``-ped, and the first one colver does
not list stops the case and is reported as refused, exactly as the protocol
reports an illegal call or card (``accepted``, ``legal_next``). Who won a
trick is the seat colver gives the lead to; scores are ``rewards()``, card
points ``get_points()``, tricks ``get_tricks_won()``.

What colver's Python API cannot answer is skipped, and ``start`` says so
(``kinds`` lists the four it answers; ``unanswered`` gives the reason for
the others): there is no scoring from a summary, no melds, no match and no
dealing of a known pack in it. A position colver's game cannot be brought to
is skipped too, with the reason; a legal_cards trick whose seats do not go
round in the rule set's direction of play is bad input, refused (``errored``)
with the reference engine's own message, since no game reaches it.

colver plays one fixed rule set, ``colver``
(variants/implementations/colver.yaml). ``configure`` accepts it by id, and
accepts a whole rule-set document when it equals colver's rule set on every
rule the four answered kinds can depend on (so a copy under another id, or
one with another match target, is played); any other rule set gets
``unsupported`` with the rules that differ: answering it with colver's rules
would blame colver for a rule it never claimed.

Seats: colver numbers them 0..3 and the next player is always seat + 1.
Which of our letters each number gets follows the direction of play in
colver's rule set: N E S W for clockwise, N W S E for anticlockwise (only
the drawing of the table changes, never who plays after whom).
"""

from __future__ import annotations

from typing import Any

KINDS = ("legal_cards", "auction", "deal", "perft")
UNANSWERED = {
    "score": "colver's Python API scores only a deal it has played, never a summary of one",
    "melds": "colver has no melds",
    "match": "colver's Python API has no match (the running score lives in its Rust game loop)",
    "dealing": "colver deals at random (Env.deal); it cannot deal a known pack with a cut",
}
RULES_ID = "colver"
HOMEPAGE = "https://github.com/Avo-k/colver"

SUITS = "SHDC"        # colver's suit numbers 0..3: spades, hearts, diamonds, clubs
RANKS = "789JQKTA"    # colver's rank numbers 0..7 within a suit
PASS, COINCHE, SURCOINCHE, FIRST_CAPOT = 0, 41, 42, 37
MULTIPLIER = {0: 1, 1: 2, 2: 3}   # colver's coinche level: none, coinché (x2), surcoinché (x3)
PLAYING, OVER = 1, 2              # colver's phases after the auction

# Rules that no answered kind can observe: the dealing, the match, who deals.
IRRELEVANT = ("deal.", "match.", "table.first_dealer", "table.next_dealer", "table.dealer_after_throw_in")


def check_available() -> str | None:
    """Why the adapter cannot run here (colver missing or unusable), or None."""
    try:
        import colver  # noqa: F401
        from colver import Env  # noqa: F401
    except ImportError as exc:
        return f"needs the colver package ({exc}): pip install 'coinche-spec[colver]'"
    return None


def card_index(card: str) -> int:
    return SUITS.index(card[1]) * 8 + RANKS.index(card[0])


def card_text(index: int) -> str:
    return RANKS[index % 8] + SUITS[index // 8]


def call_action(call: str) -> int | None:
    """colver's action number for a canonical call, or None when colver has no such call."""
    from ..notation import parse_call
    c = parse_call(call)
    if c.kind == "pass":
        return PASS
    if c.kind == "coinche":
        return COINCHE
    if c.kind == "surcoinche":
        return SURCOINCHE
    if c.strain not in SUITS:
        return None
    suit = SUITS.index(c.strain)
    if c.value == "capot":
        return FIRST_CAPOT + suit
    if isinstance(c.value, int) and 80 <= c.value <= 160 and c.value % 10 == 0:
        return 1 + 4 * ((c.value - 80) // 10) + suit
    return None


def _irrelevant(path: str, a, b) -> bool:
    """A rule the four answered kinds cannot observe, in either rule set (``a``, ``b``: compiled rules)."""
    if any(path == p or path.startswith(p) for p in IRRELEVANT):
        return True
    if path.startswith("melds.") and path != "melds.enabled":
        return not a.melds.enabled and not b.melds.enabled
    no_sa = not a.auction.strains.sans_atout and not b.auction.strains.sans_atout
    no_ta = not a.auction.strains.tout_atout and not b.auction.strains.tout_atout
    if path in ("card_values.sans_atout", "play.sans_atout_must_go_up"):
        return no_sa
    if path in ("card_values.tout_atout", "play.tout_atout_must_go_up", "belote.tout_atout"):
        return no_ta
    if path.startswith("auction.generale.") and path != "auction.generale.allowed":
        return not a.auction.generale.allowed and not b.auction.generale.allowed
    return False


def rules_that_differ(document: dict, colver_document: dict) -> list[str]:
    """The rule paths where ``document`` and colver's rule set differ, among those colver's answers show."""
    from ..variants.compiled import compiled_rules
    from ..variants.diff import flatten
    a, b = flatten(document["rules"]), flatten(colver_document["rules"])
    ca, cb = compiled_rules(document["rules"]), compiled_rules(colver_document["rules"])
    return [p for p in sorted(set(a) | set(b)) if a.get(p) != b.get(p) and not _irrelevant(p, ca, cb)]


class Refused(Exception):
    """A call or card colver does not list as legal: the case stops there."""


class Unposable(Exception):
    """A well-formed case colver's API cannot be put in: skipped, with the reason."""


class ColverAdapter:
    """The protocol's commands, answered by colver (see the module's docstring)."""

    def __init__(self) -> None:
        self._seats: tuple | None = None
        self._rules = None

    # -- the protocol ----------------------------------------------------------------
    def start(self) -> dict:
        import colver
        # the first state copy imports numpy (about half a second): pay it here, not in the first case
        colver.Env.deal(dealer=0, seed=0).get_state_bytes()
        return {"protocol": 1,
                "implementation": {"name": "colver", "version": getattr(colver, "__version__", "unknown"),
                                   "language": "Rust (through its Python API and the coinche-spec adapter)",
                                   "homepage": HOMEPAGE},
                "kinds": list(KINDS), "variants": [RULES_ID], "unanswered": dict(UNANSWERED)}

    def _colver_variant(self):
        """colver's rule set, the one file that says what colver plays."""
        from ..variants import load_variant
        return load_variant(RULES_ID)

    def configure(self, variant: Any) -> dict:
        from . import fixed_rules
        self._seats = self._rules = None
        chosen, reply = fixed_rules.configure(variant, self._colver_variant, RULES_ID, "colver", rules_that_differ)
        if chosen is not None:   # equal to colver's rule set on the direction of play, as on every rule it shows
            clockwise = chosen.rules.table.direction == "clockwise"
            self._seats = ("N", "E", "S", "W") if clockwise else ("N", "W", "S", "E")
            self._rules = chosen.rules
        return reply

    def run(self, case: Any) -> dict:
        from ..protocol.cases import CaseError
        from . import fixed_rules
        if self._seats is None:
            return {"errored": True, "message": "run before a successful configure"}
        case, reply = fixed_rules.take(case, KINDS, UNANSWERED)
        if reply is not None:
            return reply
        kind = case["kind"]
        if kind == "deal" and "contract" in case:   # the protocol extension a deal without auction is
            return {"skipped": True, "reason": "a deal with a given contract (no auction) is not answered "
                                               "by this adapter yet"}
        strain = case.get("strain")
        if strain in ("SA", "TA"):
            return {"skipped": True, "reason": "colver plays suit contracts only (no sans atout, no tout atout)"}
        answer = {"legal_cards": self._legal_cards, "auction": self._auction, "deal": self._deal,
                  "perft": self._perft}[kind]
        try:
            return {"result": answer(case)}
        except CaseError as exc:
            return {"errored": True, "message": str(exc)}
        except Unposable as exc:
            return {"skipped": True, "reason": str(exc)}

    def stop(self) -> None:
        self._seats = self._rules = None

    # -- seats and positions ------------------------------------------------------------
    def _index(self, seat: str) -> int:
        return self._seats.index(seat)

    def _seat(self, index: int) -> str:
        return self._seats[index]

    def _team(self, index: int) -> str:
        return "NS" if index % 2 == 0 else "EW"

    def _pair(self, values) -> dict:
        """colver's (team 0, team 1) pair as {"NS": ..., "EW": ...}: team 0 holds seats 0 and 2."""
        return {"NS": int(values[0]), "EW": int(values[1])}

    def _env(self, dealer: str, hands: dict):
        from colver import Env
        return Env.deal_with_hands(self._index(dealer), [[card_index(c) for c in hands.get(s, [])]
                                                         for s in self._seats])

    def _play_position(self, strain: str, leader: str, hands: dict):
        """A play position: the dealer sits before the leader, so colver gives the leader the lead."""
        env = self._env(self._seat((self._index(leader) - 1) % 4), hands)
        env.set_contract(SUITS.index(strain), 80, 0, 0)
        env.set_phase_playing()
        if env.current_player() != self._index(leader):  # pragma: no cover - colver changed
            raise RuntimeError("colver did not give the lead to the seat after the dealer")
        return env

    def _step_card(self, env, seat: str, card: str) -> None:
        """Play one card after checking it against colver's legal list; Refused when it is not there."""
        if env.current_player() != self._index(seat):
            raise Refused(f"it is {self._seat(env.current_player())}'s turn to play, not {seat}'s")
        legal = env.legal_actions()
        if card_index(card) not in legal:
            raise Refused(f"{card} is not among colver's legal cards for {seat}: "
                          + " ".join(card_text(c) for c in sorted(legal)))
        env.step(card_index(card))

    # -- the kinds -----------------------------------------------------------------------
    def _legal_cards(self, case: dict) -> dict:
        """colver is put in the position by playing the trick's cards from a game: a trick out of the
        direction of play is refused as the reference engine refuses it (bad input), and a position
        colver still does not reach is skipped, with the reason."""
        from ..protocol.cases import check_play_order
        check_play_order(self._rules, case)
        trick, seat = case["trick"], case["seat"]
        leader = trick[0]["seat"] if trick else seat
        hands = {t["seat"]: [t["card"]] for t in trick}   # each has played his only card: forced, so legal
        hands[seat] = case["hand"]
        env = self._play_position(case["strain"], leader, hands)
        for t in trick + [{"seat": seat}]:
            if env.current_player() != self._index(t["seat"]):
                raise Unposable(f"colver cannot be put in this position: it gives the turn to "
                                f"{self._seat(env.current_player())}, not {t['seat']}")
            if "card" in t:
                env.step(card_index(t["card"]))
        return {"legal": sorted(card_text(c) for c in env.legal_actions())}

    def _replay_calls(self, env, calls: list) -> tuple[int, str | None]:
        """Step the calls colver accepts; (how many, why the next one was refused)."""
        for n, entry in enumerate(calls):
            seat, call = entry["seat"], entry["call"]
            if env.is_terminal() or env.phase() != 0:
                return n, "the auction is over"
            if env.current_player() != self._index(seat):
                return n, f"it is {self._seat(env.current_player())}'s turn to call, not {seat}'s"
            action = call_action(call)
            legal = env.legal_actions()
            if action is None or action not in legal:
                return n, f"{call} is not among colver's legal calls for {seat}"
            env.step(action)
        return len(calls), None

    def _auction_state(self, env) -> tuple[str, str | None, dict | None]:
        """(state, to_act, contract) as colver has them."""
        if env.phase() == 0 and not env.is_terminal():
            return "open", self._seat(env.current_player()), None
        bids = [(seat, action) for seat, action in env.get_bid_history() if 1 <= action < COINCHE]
        if not bids:
            return "redeal", None, None
        seat, action = bids[-1]
        got = env.get_contract()
        if seat % 2 != int(got["team"]):  # pragma: no cover - colver changed
            raise RuntimeError(f"colver's contract team {got['team']} is not the last bidder's")
        value: int | str = "capot" if action >= FIRST_CAPOT else int(got["value"])
        contract = {"value": value, "strain": SUITS[int(got["trump"])], "declarer": self._seat(seat),
                    "multiplier": MULTIPLIER[int(got["coinche"])]}
        return "contract", None, contract

    def _auction(self, case: dict) -> dict:
        from colver import Env
        env = Env.deal(dealer=self._index(case["dealer"]), seed=0)   # the cards play no part in the calls
        accepted, reason = self._replay_calls(env, case["calls"])
        state, to_act, contract = self._auction_state(env)
        out = {"accepted": accepted, "state": state, "to_act": to_act, "contract": contract}
        if reason:
            out["reason"] = reason
        return out

    def _trick_winner(self, strain: str, leader: str, cards: list[str]) -> str:
        """Who won a last trick: colver only says so by giving the next lead, and after the eighth trick
        there is none; so the same four cards are played again with one more card each in hand."""
        spare = [c for c in range(32) if c not in {card_index(x) for x in cards}][:4]
        first = self._index(leader)
        hands: dict = {}
        for k, card in enumerate(cards):
            hands[self._seat((first + k) % 4)] = [card, card_text(spare[k])]
        env = self._play_position(strain, leader, hands)
        for card in cards:
            env.step(card_index(card))
        return self._seat(env.current_player())

    def _deal(self, case: dict) -> dict:
        env = self._env(case["dealer"], case["hands"])
        calls, reason = self._replay_calls(env, case["calls"])
        state, _, contract = self._auction_state(env)
        out: dict = {"accepted": {"calls": calls, "plays": 0}, "contract": contract, "tricks": None,
                     "tricks_won": None, "card_points": None, "melds": None, "belote": None, "made": None,
                     "score": None}
        playing = reason is None and state == "contract"
        if not playing:
            if reason is None and case["play"]:
                reason = ("no card may be played: all four passed" if state == "redeal"
                          else "no card may be played: the auction has not reached a contract")
            if reason:
                out["reason"] = reason
            return out
        tricks, current, leader = [], [], None
        for entry in case["play"]:
            if env.is_terminal():
                reason = "the deal is over"
                break
            if not current:
                leader = self._seat(env.current_player())
            try:
                self._step_card(env, entry["seat"], entry["card"])
            except Refused as exc:
                reason = str(exc)
                break
            out["accepted"]["plays"] += 1
            current.append(entry["card"])
            if len(current) == 4:
                winner = (self._trick_winner(contract["strain"], leader, current) if env.is_terminal()
                          else self._seat(env.current_player()))
                tricks.append({"leader": leader, "winner": winner, "cards": current})
                current = []
        out["tricks"] = tricks
        out["tricks_won"] = self._pair(env.get_tricks_won())
        if env.is_terminal():
            score = self._pair(env.rewards())
            takers = self._team(self._index(contract["declarer"]))
            belote = [team for team, n in self._pair(env.get_belote()).items() if n == 2]
            out.update(card_points=self._pair(env.get_points()), melds={"NS": 0, "EW": 0},
                       belote=belote[0] if len(belote) == 1 else None,
                       made=score[takers] > 0, score=score)
        else:
            out["legal_next"] = sorted(card_text(c) for c in env.legal_actions())
        if reason:
            out["reason"] = reason
        return out

    def _perft(self, case: dict) -> dict:
        env = self._play_position(case["strain"], case["leader"], case["hands"])

        def count(depth: int) -> int:
            if depth == 0:
                return 1
            legal = env.legal_actions()
            if depth == 1:
                return len(legal)
            saved = env.get_state_bytes()
            total = 0
            for card in legal:
                env.step(card)
                total += count(depth - 1)
                env.set_state_bytes(saved)
            return total

        return {"count": count(case["depth"])}
