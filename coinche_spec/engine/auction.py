"""The auction: bids, passes, coinche and surcoinche, as docs/rules-model.md §2 says.

Every behaviour is read from ``rules.auction`` and ``rules.table.direction``;
nothing here knows which variant it is playing. An :class:`Auction` is an
immutable snapshot: :meth:`Auction.apply` returns the next snapshot, so a
deal can keep every step of its history and a search can branch cheaply.

Three phases:

* **bidding** — the seat to act passes, bids above the highest bid, or (as
  the variant allows) coinches the opponents' bid; above every number come
  the capot (the side promises every trick) and, where the variant allows
  it, the générale (the bidder alone promises every trick), which follows
  the capot's settings for ending the auction and for being coinched;
* **doubled** — after a coinche that freezes the bids: passes, and a
  surcoinche by the takers, until enough passes in a row end it;
* **window** — with ``coinche.when: after_auction`` the contract is settled
  (``state == "contract"``) but either defender may still coinche and then
  either taker surcoinche, until the first card (:meth:`Auction.close`).
"""

from __future__ import annotations

from bisect import bisect_right

from ..notation import SEATS, Call, Contract, next_seat, parse_seat, partner, team_of
from .errors import IllegalCall

__all__ = ["Auction", "replay", "LISTING_CEILING"]

# With no maximum bid every higher number is legal, so legal_calls() cannot
# list them all: it lists numeric bids up to this many points (check() and
# apply() still accept any higher bid). No deal lets a side count this much
# toward a contract in any shipped variant (162 card points, 258 at tout
# atout, plus melds and belote).
LISTING_CEILING = 500

_CAPOT_KEY = 1 << 40  # a capot outranks every number
_GENERALE_KEY = 1 << 41  # a générale outranks every capot
_KEYS = {"capot": _CAPOT_KEY, "generale": _GENERALE_KEY}
_PASS = Call("pass")
_COINCHE = Call("coinche")
_SURCOINCHE = Call("surcoinche")

_BIDDING, _DOUBLED, _OVER = 0, 1, 2


class _Table:
    """The auction rules of one variant, read once and laid out for speed."""

    __slots__ = (
        "rules", "nxt", "minimum", "step", "maximum", "sans_atout", "tout_atout", "by_strain",
        "strain_rank", "strain_order", "capot_allowed", "capot_value_ends", "capot_coinchable",
        "generale_allowed",
        "passes_to_end", "speak_after_pass", "raise_own", "coinche_when", "coinche_ends",
        "passes_after", "coinche_mult", "sur_allowed", "sur_ends", "sur_mult",
        "keys", "listing", "pairs", "pass_pair", "coinche_pair", "sur_pair",
    )

    def __init__(self, rules):
        a = rules.auction
        self.rules = rules
        direction = rules.table.direction
        self.nxt = {s: next_seat(s, direction) for s in SEATS}
        self.minimum = a.bids.minimum
        self.step = a.bids.step
        self.maximum = a.bids.maximum
        self.sans_atout = a.strains.sans_atout
        self.tout_atout = a.strains.tout_atout
        self.by_strain = a.overcall == "higher_value_or_strain"
        self.strain_order = tuple(a.strain_order)
        self.strain_rank = {s: i for i, s in enumerate(self.strain_order)}
        self.capot_allowed = a.capot.allowed
        self.capot_value_ends = a.capot.ends_auction
        self.capot_coinchable = a.capot.may_be_coinched   # the générale follows both capot settings
        self.generale_allowed = a.generale.allowed
        self.passes_to_end = a.passes_to_end
        self.speak_after_pass = a.speak_after_pass
        self.raise_own = a.raise_own_bid
        self.coinche_when = a.coinche.when
        self.coinche_ends = a.coinche.effect == "ends_auction"
        self.passes_after = a.coinche.passes_after
        self.coinche_mult = a.coinche.multiplier
        self.sur_allowed = a.surcoinche.allowed
        self.sur_ends = a.surcoinche.ends_auction
        self.sur_mult = a.surcoinche.multiplier

        strains = [s for s in ("S", "H", "D", "C", "TA", "SA") if self.strain_allowed(s)]
        top = self.maximum if self.maximum is not None else max(LISTING_CEILING, self.minimum)
        bids = [(v, self.rank_of(s), Call("bid", v, s))
                for v in range(self.minimum, top + 1, self.step) for s in strains]
        if self.capot_allowed:
            bids += [(_CAPOT_KEY, self.rank_of(s), Call("bid", "capot", s)) for s in strains]
        if self.generale_allowed:
            bids += [(_GENERALE_KEY, self.rank_of(s), Call("bid", "generale", s)) for s in strains]
        bids.sort(key=lambda b: (b[0], b[1]))
        self.keys = [b[0] for b in bids]
        self.listing = tuple(bids)
        self.pairs = {seat: tuple((seat, b[2]) for b in bids) for seat in SEATS}
        self.pass_pair = {seat: (seat, _PASS) for seat in SEATS}
        self.coinche_pair = {seat: (seat, _COINCHE) for seat in SEATS}
        self.sur_pair = {seat: (seat, _SURCOINCHE) for seat in SEATS}

    def strain_allowed(self, strain) -> bool:
        if strain == "SA":
            return self.sans_atout
        if strain == "TA":
            return self.tout_atout
        return strain in ("S", "H", "D", "C")

    def rank_of(self, strain) -> int:
        """Place in strain_order; -1 for a strain the order leaves out (never overcalls by strain)."""
        return self.strain_rank.get(strain, -1)

    def beats(self, key, rank, high_key, high_rank) -> bool:
        """Does a bid (key, strain rank) beat the highest bid? (A4, A5, A6: a générale beats a capot,
        a capot every number; no strain lifts one capot over another, nor one générale over another.)"""
        if key != high_key:
            return key > high_key
        return key < _CAPOT_KEY and self.by_strain and rank > high_rank >= 0


_TABLES: dict = {}


def _table(rules) -> _Table:
    entry = _TABLES.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    table = _Table(rules)
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[id(rules)] = (rules, table)  # the rules are kept alive, so the id is never reused
    return table


def _bid_text(value, strain) -> str:
    return f"{value}{strain}"


class Auction:
    """One moment of the auction; immutable, so ``apply`` returns a new one."""

    __slots__ = ("_t", "_dealer", "_to_act", "_phase", "_state", "_high", "_bidder", "_passes",
                 "_passed", "_mult", "_coincher", "_surcoinched", "_first_bidder", "_window")

    # _high is (key, strain_rank, value, strain) of the highest bid, or None.
    # _passed is the set of seats that have passed (speak_after_pass), a frozenset.

    @classmethod
    def start(cls, rules, dealer: str) -> "Auction":
        """The auction before any call: the seat next to the dealer speaks first (A1)."""
        rules = getattr(rules, "rules", rules)  # a Variant is accepted for its rules
        dealer = parse_seat(dealer)
        t = _table(rules)
        a = object.__new__(cls)
        a._t = t
        a._dealer = dealer
        a._to_act = t.nxt[dealer]
        a._phase = _BIDDING
        a._state = "open"
        a._high = None
        a._bidder = None
        a._passes = 0
        a._passed = frozenset()
        a._mult = 1
        a._coincher = None
        a._surcoinched = False
        a._first_bidder = None
        a._window = False
        return a

    def _copy(self) -> "Auction":
        a = object.__new__(Auction)
        a._t = self._t
        a._dealer = self._dealer
        a._to_act = self._to_act
        a._phase = self._phase
        a._state = self._state
        a._high = self._high
        a._bidder = self._bidder
        a._passes = self._passes
        a._passed = self._passed
        a._mult = self._mult
        a._coincher = self._coincher
        a._surcoinched = self._surcoinched
        a._first_bidder = self._first_bidder
        a._window = self._window
        return a

    # -- what the outside sees ------------------------------------------------
    @property
    def rules(self):
        return self._t.rules

    @property
    def dealer(self) -> str:
        return self._dealer

    @property
    def to_act(self):
        """The seat whose turn it is to call, or None once the auction is over."""
        return self._to_act

    @property
    def state(self) -> str:
        """``open`` while calls go on, ``contract`` once settled, ``redeal`` after four passes."""
        return self._state

    @property
    def contract(self):
        """The highest bid, its bidder as declarer, and the multiplier — once settled."""
        if self._state != "contract":
            return None
        _, _, value, strain = self._high
        return Contract(value, strain, self._bidder, self._mult)

    @property
    def high_bid(self):
        """The highest bid so far as a Call (None before any bid)."""
        if self._high is None:
            return None
        return Call("bid", self._high[2], self._high[3])

    @property
    def bidder(self):
        """The seat of the highest bid so far."""
        return self._bidder

    @property
    def multiplier(self) -> int:
        return self._mult

    @property
    def window_open(self) -> bool:
        """After an ``after_auction`` settlement: may a defender still coinche, or a taker surcoinche?"""
        return self._window

    @property
    def first_bidder(self):
        """The seat that made the first bid of the auction (for ``play.first_leader: first_bidder``)."""
        return self._first_bidder

    def __repr__(self) -> str:
        high = self.high_bid
        return (f"Auction(state={self._state}, to_act={self._to_act}, high={high} by {self._bidder}, "
                f"x{self._mult}, window={self._window})")

    # -- legality -------------------------------------------------------------
    def legal_calls(self) -> list:
        """Every (seat, call) some seat may make now.

        With no maximum bid, numeric bids are listed up to LISTING_CEILING."""
        t = self._t
        if self._phase == _OVER:
            if not self._window:
                return []
            bidder = self._bidder
            if self._coincher is None:  # either defender may coinche
                left = t.nxt[bidder]
                return [t.coinche_pair[left], t.coinche_pair[partner(left)]]
            # coinched: the window is open only while a surcoinche may follow
            return [t.sur_pair[bidder], t.sur_pair[partner(bidder)]]
        seat = self._to_act
        if self._phase == _DOUBLED:
            out = [t.pass_pair[seat]]
            if (t.sur_allowed and not self._surcoinched
                    and team_of(seat) == team_of(self._bidder)):
                out.append(t.sur_pair[seat])
            return out
        # bidding
        out = [t.pass_pair[seat]]
        high = self._high
        if t.speak_after_pass or seat not in self._passed:
            own = self._bidder == seat
            if not own or t.raise_own != "never_without_intervening_bid":
                if high is None:
                    out.extend(t.pairs[seat])
                else:
                    hk, hr = high[0], high[1]
                    listing = t.listing
                    i = bisect_right(t.keys, hk)
                    j = i
                    # the same value in a higher strain, when the variant allows it
                    while j > 0 and listing[j - 1][0] == hk:
                        j -= 1
                    pairs = t.pairs[seat]
                    if t.by_strain and hr >= 0 and hk < _CAPOT_KEY:
                        out.extend(pairs[k] for k in range(j, i) if listing[k][1] > hr)
                    out.extend(pairs[i:])
                if own and t.raise_own == "when_changing_strain":
                    strain = high[3]
                    out = [p for p in out if p[1].kind != "bid" or p[1].strain != strain]
        if high is not None and t.coinche_when != "after_auction" and self._coinche_possible():
            defenders = self._defenders()
            if t.coinche_when == "in_turn":
                if seat in defenders:
                    out.append(t.coinche_pair[seat])
            else:  # any_moment: either defender, in or out of turn
                out.extend(t.coinche_pair[d] for d in defenders)
        return out

    def _defenders(self) -> tuple:
        left = self._t.nxt[self._bidder]
        return (left, partner(left))

    def _coinche_possible(self) -> bool:
        return self._coincher is None and (self._high[0] < _CAPOT_KEY or self._t.capot_coinchable)

    def check(self, seat, call) -> str | None:
        """None if ``seat`` may make ``call`` now, else the reason, in a player's words."""
        if seat not in SEATS:
            return f"{seat!r} is not a seat: expected N, E, S or W"
        if not isinstance(call, Call):
            return f"{call!r} is not a call"
        kind = call.kind
        if self._phase == _OVER:
            return self._check_after(seat, call)
        if kind == "coinche":
            return self._check_coinche(seat)
        to_act = self._to_act
        if seat != to_act:
            return f"{seat} cannot call {call}: it is {to_act}'s turn"
        if kind == "pass":
            return None
        if kind == "surcoinche":
            return self._check_surcoinche(seat)
        if kind == "bid":
            return self._check_bid(seat, call)
        return f"{seat} cannot call {call}: not a call of this game (pass, a bid, coinche or surcoinche)"

    def _check_after(self, seat, call) -> str | None:
        t = self._t
        if self._state == "redeal":
            return f"{seat} cannot call {call}: the auction is over, all four passed and the cards are dealt again"
        contract = f"{_bid_text(self._high[2], self._high[3])} by {self._bidder}"
        if not self._window:
            if t.coinche_when == "after_auction" and self._surcoinched:
                return f"{seat} cannot call {call}: the auction is over ({contract}, surcoinched)"
            return f"{seat} cannot call {call}: the auction is over ({contract})"
        if call.kind == "coinche":
            if self._coincher is not None:
                return f"{seat} cannot coinche: the {contract} contract is already coinched"
            if team_of(seat) == team_of(self._bidder):
                return self._coinche_own_side(seat)
            return None
        if call.kind == "surcoinche":
            if self._coincher is None:
                return f"{seat} cannot surcoinche: the {contract} contract is not coinched"
            if team_of(seat) != team_of(self._bidder):
                return self._surcoinche_wrong_side(seat)
            return None
        if self._coincher is None:
            return (f"{seat} cannot call {call}: the auction is over ({contract}); "
                    f"before the first card a defender may only coinche")
        return (f"{seat} cannot call {call}: the auction is over ({contract}, coinched); "
                f"before the first card a taker may only surcoinche")

    def _coinche_own_side(self, seat) -> str:
        bid = _bid_text(self._high[2], self._high[3])
        if seat == self._bidder:
            return f"{seat} cannot coinche: the {bid} bid is {seat}'s own"
        return f"{seat} cannot coinche: the {bid} bid is {seat}'s partner's"

    def _surcoinche_wrong_side(self, seat) -> str:
        takers = f"{self._bidder} and {partner(self._bidder)}"
        return f"{seat} cannot surcoinche: only the takers ({takers}) may surcoinche"

    def _check_coinche(self, seat) -> str | None:
        t = self._t
        if self._phase == _DOUBLED:
            if seat != self._to_act and t.coinche_when != "any_moment":
                return f"{seat} cannot coinche: it is {self._to_act}'s turn"
            return f"{seat} cannot coinche: the contract is already coinched"
        if t.coinche_when == "after_auction":
            return f"{seat} cannot coinche yet: in this variant a coinche comes only after the auction ends"
        if t.coinche_when == "in_turn" and seat != self._to_act:
            return f"{seat} cannot coinche: it is {self._to_act}'s turn, and no one may coinche out of turn"
        if self._high is None:
            return f"{seat} cannot coinche: there is no bid yet"
        if team_of(seat) == team_of(self._bidder):
            return self._coinche_own_side(seat)
        if self._high[0] == _CAPOT_KEY and not t.capot_coinchable:
            return f"{seat} cannot coinche: a capot bid may not be coinched in this variant"
        if self._high[0] == _GENERALE_KEY and not t.capot_coinchable:
            return (f"{seat} cannot coinche: a générale may not be coinched in this variant "
                    f"(it follows the capot, and auction.capot.may_be_coinched is false)")
        return None

    def _check_surcoinche(self, seat) -> str | None:
        t = self._t
        if self._phase == _BIDDING:
            return f"{seat} cannot surcoinche: there is no coinche to answer"
        if not t.sur_allowed:
            return f"{seat} cannot surcoinche: this variant has no surcoinche"
        if team_of(seat) != team_of(self._bidder):
            return self._surcoinche_wrong_side(seat)
        if self._surcoinched:
            return f"{seat} cannot surcoinche: the contract is already surcoinched"
        return None

    def _check_bid(self, seat, call) -> str | None:
        t = self._t
        text = str(call)
        if self._phase == _DOUBLED:
            return f"{seat} cannot bid {text}: the bids are frozen after the coinche"
        if not t.speak_after_pass and seat in self._passed:
            return f"{seat} cannot bid {text}: {seat} has passed, and in this variant a player who passed may not bid again"
        strain = call.strain
        if not t.strain_allowed(strain):
            name = {"SA": "sans atout", "TA": "tout atout"}.get(strain, repr(strain))
            return f"bid {text}: {name} may not be bid in this variant"
        value = call.value
        if value == "capot":
            if not t.capot_allowed:
                return f"bid {text}: capot may not be bid in this variant"
            key = _CAPOT_KEY
        elif value == "generale":
            if not t.generale_allowed:
                return f"bid {text}: the générale may not be bid in this variant"
            key = _GENERALE_KEY
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                return f"bid {text}: a bid is a number of points, capot or générale"
            if value < t.minimum:
                return f"bid {text}: the lowest bid is {t.minimum}"
            if (value - t.minimum) % t.step:
                return f"bid {text}: bids go up in steps of {t.step} from {t.minimum}"
            if t.maximum is not None and value > t.maximum:
                above = [w for ok, w in ((t.capot_allowed, "capot"), (t.generale_allowed, "générale")) if ok]
                more = f" ({' and '.join(above)} outrank{'s' if len(above) == 1 else ''} it)" if above else ""
                return f"bid {text}: the highest bid is {t.maximum}{more}"
            key = value
        high = self._high
        if high is None:
            return None
        if self._bidder == seat:
            if t.raise_own == "never_without_intervening_bid":
                return (f"{seat} cannot bid {text}: the {_bid_text(high[2], high[3])} bid is {seat}'s own, "
                        f"and no one may raise his own bid without an intervening bid")
            if t.raise_own == "when_changing_strain" and strain == high[3]:
                return (f"{seat} cannot bid {text}: {seat} may raise his own {_bid_text(high[2], high[3])} bid "
                        f"only in another strain")
        if not t.beats(key, t.rank_of(strain), high[0], high[1]):
            return self._not_higher(text, key, strain, high)
        return None

    def _not_higher(self, text, key, strain, high) -> str:
        t = self._t
        old = _bid_text(high[2], high[3])
        if high[0] == _GENERALE_KEY:
            return f"bid {text} does not beat the {old} bid: nothing outranks a générale"
        if high[0] == _CAPOT_KEY:
            if t.generale_allowed:
                return f"bid {text} does not beat the {old} bid: only a générale outranks a capot bid"
            return f"bid {text} does not beat the {old} bid: nothing outranks a capot bid"
        if key == high[0] and t.by_strain:
            if high[1] < 0 or t.rank_of(strain) < 0:
                return (f"bid {text} does not beat the {old} bid: strain_order does not rank "
                        f"{strain if t.rank_of(strain) < 0 else high[3]}, so only a higher value beats it")
            order = " < ".join(t.strain_order)
            return f"bid {text} does not beat the {old} bid: at equal value the strain must rank higher ({order})"
        if key == high[0]:
            return f"bid {text} does not beat the {old} bid: only a higher value beats a bid in this variant"
        return f"bid {text} does not beat the {old} bid: bid a higher value"

    # -- moves ----------------------------------------------------------------
    def apply(self, seat, call) -> "Auction":
        """The auction after ``seat`` makes ``call``; IllegalCall (with the reason) if it may not."""
        reason = self.check(seat, call)
        if reason is not None:
            raise IllegalCall(reason)
        return self._apply(seat, call)

    def _apply(self, seat, call) -> "Auction":
        t = self._t
        a = self._copy()
        kind = call.kind
        if self._phase == _OVER:  # the after-auction window
            if kind == "coinche":
                a._coincher = seat
                a._mult = t.coinche_mult
                a._window = t.sur_allowed
            else:
                a._surcoinched = True
                a._mult = t.sur_mult
                a._window = False
            return a
        nxt = t.nxt[seat]
        if kind == "pass":
            a._passes = passes = self._passes + 1
            if self._phase == _DOUBLED:
                if passes >= t.passes_after:
                    a._end()
                else:
                    a._to_act = nxt
                return a
            if seat not in self._passed:
                a._passed = self._passed | {seat}
            if self._high is None:
                if passes >= 4:
                    a._state = "redeal"
                    a._phase = _OVER
                    a._to_act = None
                else:
                    a._to_act = nxt
            elif passes >= t.passes_to_end:
                a._settle()
            else:
                a._to_act = nxt
            return a
        if kind == "bid":
            value, strain = call.value, call.strain
            key = _KEYS.get(value, value) if type(value) is str else value
            a._high = (key, t.rank_of(strain), value, strain)
            a._bidder = seat
            a._passes = 0
            if self._first_bidder is None:
                a._first_bidder = seat
            if key >= _CAPOT_KEY and t.capot_value_ends:   # a générale ends it as a capot does
                a._settle()
            else:
                a._to_act = nxt
            return a
        if kind == "coinche":
            a._coincher = seat
            a._mult = t.coinche_mult
            a._passes = 0
            if t.coinche_ends:
                a._end()
            else:
                a._phase = _DOUBLED
                a._to_act = nxt
            return a
        # surcoinche, in the doubled phase
        a._surcoinched = True
        a._mult = t.sur_mult
        a._passes = 0
        if t.sur_ends:
            a._end()
        else:
            a._to_act = nxt
        return a

    def _end(self) -> None:
        """Settle with a contract, no window (a coinche or surcoinche was already possible)."""
        self._state = "contract"
        self._phase = _OVER
        self._to_act = None
        self._window = False

    def _settle(self) -> None:
        """The bidding ends: a contract, and with ``after_auction`` the doubling window opens."""
        self._end()
        t = self._t
        if t.coinche_when == "after_auction":
            self._window = self._coinche_possible()

    def close(self) -> "Auction":
        """The first card is played: no coinche or surcoinche may follow."""
        if self._state != "contract":
            raise IllegalCall("no card may be played before the auction ends with a contract")
        if not self._window:
            return self
        a = self._copy()
        a._window = False
        return a


def replay(rules, dealer: str, calls) -> tuple:
    """Apply calls in order; stop at the first illegal one.

    Returns (calls accepted, the auction after them, the reason the next call
    was refused or None)."""
    from ..notation import parse_call

    auction = Auction.start(rules, dealer)
    for n, (seat, call) in enumerate(calls):
        if isinstance(call, str):
            call = parse_call(call)
        if isinstance(seat, str) and seat not in SEATS:
            seat = parse_seat(seat)
        reason = auction.check(seat, call)
        if reason is not None:
            return n, auction, reason
        auction = auction._apply(seat, call)
    return len(calls), auction, None
