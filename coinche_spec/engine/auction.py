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
  surcoinche by the takers, until enough passes in a row end it; with
  ``effect: overbid_cancels`` (décoinchage) a higher bid may still come,
  and cancels the coinche: the bidding phase starts again, undoubled;
* **window** — with ``coinche.when: after_auction`` the contract is settled
  (``state == "contract"``) but either defender may still coinche and then
  either taker surcoinche, until the first card (:meth:`Auction.close`); a
  coinche with ``effect: ends_bidding_window`` (BGA) settles the contract and
  opens the same window, already coinched.
"""

from __future__ import annotations

from bisect import bisect_right

from ..notation import SEATS, Call, Contract, parse_seat, partner
from .errors import IllegalCall
from .options import choose, engine_phase, option_table
from .table import seat_step

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


def _never_over_own(seat, strain, high, text):
    """raise_own_bid: never_without_intervening_bid (``strain`` None: may he make any bid at all?)."""
    return (f"{seat} cannot bid {text}: the {_bid_text(high[2], high[3])} bid is {seat}'s own, "
            f"and no one may raise his own bid without an intervening bid")


def _over_own_in_another_strain(seat, strain, high, text):
    """raise_own_bid: when_changing_strain."""
    if strain is None or strain != high[3]:
        return None
    return (f"{seat} cannot bid {text}: {seat} may raise his own {_bid_text(high[2], high[3])} bid "
            f"only in another strain")


class _When:
    """When a coinche may come: during the bidding (else only after it), out of turn (any seat
    ``coinche.by`` names), or by the seat to act's partner as well (the side to act, Alounv)."""

    __slots__ = ("during_bidding", "out_of_turn", "partner_too")

    def __init__(self, during_bidding: bool, out_of_turn: bool, partner_too: bool = False):
        self.during_bidding = during_bidding
        self.out_of_turn = out_of_turn
        self.partner_too = partner_too

    def may_speak(self, seat, to_act) -> bool:
        """May ``seat`` coinche now, as far as the turn goes?"""
        return self.out_of_turn or seat == to_act or (self.partner_too and seat == partner(to_act))


# auction.first_speaker: who speaks first, from (the dealer, seat -> the next seat)
FIRST_SPEAKER = option_table("auction.first_speaker", {"next_to_dealer": lambda dealer, nxt: nxt[dealer]})
# auction.overcall: may the same value in a higher strain beat a bid?
OVERCALL = option_table("auction.overcall", {"higher_value": False, "higher_value_or_strain": True})
# auction.capot.overcall_by_capot (optional; left out: never): may a capot in a strain higher in
# strain_order beat a capot bid? (ContrAI; a générale beats any capot either way)
CAPOT_OVER_CAPOT = option_table("auction.capot.overcall_by_capot", {"never": False, "higher_strain": True})
# auction.all_pass: (what four passes without a bid lead to (the auction's state), must the dealer
# bid when the three players before him have passed without a bid? -- «à la vache»: then four
# passes never happen)
ALL_PASS = option_table("auction.all_pass", {"throw_in": ("redeal", False), "dealer_must_bid": ("redeal", True)})
def _free_over_own(seat, strain, high, text):
    return None


# auction.raise_own_bid: (why a player may not bid over his own highest bid (None: he may), from
# (seat, the bid's strain or None for "any bid at all", the highest bid, the bid in words); may
# nobody bid again in a strain he has named in this auction? -- see Auction._strain_named)
RAISE_OWN_BID = option_table("auction.raise_own_bid", {
    "never_without_intervening_bid": (_never_over_own, False),
    "when_changing_strain": (_over_own_in_another_strain, False),
    "always": (_free_over_own, False),
    # Alounv's other reading of «BIDDING ITS OWN COLOR»: no second bid in a strain one has named
    # (over his own standing bid too, which the named strain covers)
    "never_in_a_named_strain": (_free_over_own, True),
})
def _opponents(seat, nxt) -> tuple:
    return (nxt[seat], partner(nxt[seat]))


def _everyone(seat, nxt) -> tuple:
    return (nxt[seat], partner(nxt[seat]), partner(seat), seat)


def _not_against_own_bid(seat, bidder, last, bid) -> str:
    if seat == bidder:
        return f"{seat} cannot coinche: the {bid} bid is {seat}'s own"
    return f"{seat} cannot coinche: the {bid} bid is {seat}'s partner's"


def _not_after_own_side(seat, bidder, last, bid) -> str:
    whose = f"{seat}'s own" if last == seat else f"{seat}'s partner's"
    return (f"{seat} cannot coinche: the last call was {last}'s ({whose}), and only the side opposite "
            f"the last call may coinche")


# auction.coinche.by: (the seats that may coinche, from (the bidder, the seat of the last call, seat ->
# the next seat); why another seat may not, from (seat, bidder, last caller, the bid in words))
COINCHE_BY = option_table("auction.coinche.by", {
    "opponents_of_bidder": (lambda bidder, last, nxt: _opponents(bidder, nxt), _not_against_own_bid),
    "any_player": (lambda bidder, last, nxt: _everyone(bidder, nxt), _not_against_own_bid),
    # Ten0: the coinching side must be opposite the seat of the last auction entry (a bid or a pass)
    "opponents_of_last_caller": (lambda bidder, last, nxt: _opponents(last, nxt), _not_after_own_side),
})
# auction.surcoinche.by (optional; left out: coinched_side): the seats that may surcoinche, from (the
# bidder, seat -> the next seat); in the doubled phase only the one to act among them
SURCOINCHE_BY = option_table("auction.surcoinche.by", {
    "coinched_side": lambda bidder, nxt: (bidder, partner(bidder)),
    # libcoinche: the next call after a coinche may be a surcoinche, whatever the caller's side (the
    # takers listed first, as under coinched_side)
    "next_caller": lambda bidder, nxt: (bidder, partner(bidder)) + _opponents(bidder, nxt),
})
COINCHE_WHEN = option_table("auction.coinche.when", {
    "in_turn": _When(True, False),
    "any_moment": _When(True, True),
    "side_in_turn": _When(True, False, partner_too=True),
    "after_auction": _When(False, False),
})
# auction.coinche.effect: (does a coinche end the bidding at once?, may a higher bid still follow and
# cancel it? -- décoinchage, does the end of the bidding open the takers' surcoinche window? -- BGA)
COINCHE_EFFECT = option_table("auction.coinche.effect", {
    "freeze_then_passes": (False, False, False),
    "ends_auction": (True, False, False),
    "overbid_cancels": (False, True, False),
    "ends_bidding_window": (True, False, True),
})

# auction.coinche.ended_by -> does a pass after the coinche end the auction, given (the passes in a
# row, the seat that passed, the seat whose bid is coinched, passes_after). Operators only, so the
# batch engine plays the same entry on whole arrays of seats.
COINCHE_ENDED_BY = option_table("auction.coinche.ended_by", {
    "passes": lambda passes, seat, taker, needed: passes >= needed,
    "taker_pass": lambda passes, seat, taker, needed: seat == taker,
})


class _Table:
    """The auction rules of one rule set laid out for speed: schema names, flattened by path
    (``capot_may_be_coinched`` is auction.capot.may_be_coinched), options as their table's behaviour."""

    __slots__ = (
        "rules", "nxt", "minimum", "step", "maximum", "overcall", "strain_rank", "strain_order",
        "capot_allowed", "capot_ends_auction", "capot_may_be_coinched", "capot_over_capot", "generale_allowed",
        "passes_to_end", "speak_after_pass", "raise_own_bid", "no_strain_twice", "first_speaker", "all_pass",
        "dealer_must_bid", "max_rounds", "max_bids",
        "coinche_allowed", "coinche_minimum", "coinche_by", "coinche_refused", "coinche_when", "coinche_effect", "overbid_cancels",
        "coinche_window", "coinche_passes_after", "coinche_ended_by", "coinche_multiplier", "partner_silent", "surcoinche_allowed", "surcoinche_by", "surcoinche_ends_auction", "surcoinche_multiplier",
        "keys", "listing", "pairs", "pass_pair", "coinche_pair", "sur_pair",
    )

    def __init__(self, c):
        a = c.auction
        self.rules = c
        step = seat_step(c)
        self.nxt = {s: SEATS[(SEATS.index(s) + step) & 3] for s in SEATS}
        self.minimum = a.bids.minimum
        self.step = a.bids.step
        self.maximum = a.bids.maximum
        self.overcall = choose(OVERCALL, a.overcall)
        self.strain_order = tuple(a.strain_order)
        self.strain_rank = {s: i for i, s in enumerate(self.strain_order)}
        self.capot_allowed = a.capot.allowed
        self.capot_ends_auction = a.capot.ends_auction
        self.capot_may_be_coinched = a.capot.may_be_coinched   # the générale follows both capot settings
        self.capot_over_capot = choose(CAPOT_OVER_CAPOT, a.capot.overcall_by_capot)
        self.generale_allowed = a.generale.allowed
        self.passes_to_end = a.passes_to_end
        self.speak_after_pass = a.speak_after_pass
        self.raise_own_bid, self.no_strain_twice = choose(RAISE_OWN_BID, a.raise_own_bid)
        speaker = choose(FIRST_SPEAKER, a.first_speaker)
        self.first_speaker = {d: speaker(d, self.nxt) for d in SEATS}      # dealer -> first to speak
        self.all_pass, self.dealer_must_bid = choose(ALL_PASS, a.all_pass)
        self.max_rounds = a.max_rounds              # optional: None, no cap on the rounds
        self.max_bids = a.max_bids_per_player       # optional: None, no cap on a player's bids
        self.coinche_allowed = a.coinche.allowed      # optional: left out, a coinche may be said
        self.coinche_minimum = a.coinche.minimum_bid         # optional: None, any numeric bid
        by, self.coinche_refused = choose(COINCHE_BY, a.coinche.by)
        # (bidder, the seat of the last call) -> who may coinche
        self.coinche_by = {(b, last): by(b, last, self.nxt) for b in SEATS for last in SEATS}
        self.coinche_when = choose(COINCHE_WHEN, a.coinche.when)
        self.coinche_effect, self.overbid_cancels, self.coinche_window = choose(COINCHE_EFFECT, a.coinche.effect)
        self.coinche_passes_after = a.coinche.passes_after
        self.coinche_ended_by = choose(COINCHE_ENDED_BY, a.coinche.ended_by)   # optional: passes
        # optional: left out, the coincher's partner speaks in his turn like anyone
        self.partner_silent = a.coinche.partner_may_speak is False
        self.coinche_multiplier = a.coinche.multiplier
        self.surcoinche_allowed = a.surcoinche.allowed
        sur_by = choose(SURCOINCHE_BY, a.surcoinche.by)   # optional
        self.surcoinche_by = {b: sur_by(b, self.nxt) for b in SEATS}       # bidder -> who may surcoinche
        self.surcoinche_ends_auction = a.surcoinche.ends_auction
        self.surcoinche_multiplier = a.surcoinche.multiplier

        strains = c.strains
        bids = [(v, self.rank_of(s), Call("bid", v, s))
                for v in c.numeric_bids(LISTING_CEILING) for s in strains]
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

    def rank_of(self, strain) -> int:
        """Place in strain_order; -1 for a strain the order leaves out (never overcalls by strain)."""
        return self.strain_rank.get(strain, -1)

    def beats(self, key, rank, high_key, high_rank) -> bool:
        """Does a bid (key, strain rank) beat the highest bid? (A4, A5, A6: a générale beats a capot,
        a capot every number; a strain lifts one capot over another only with capot.overcall_by_capot
        higher_strain, and never one générale over another.)
        The bid listing is sorted by (key, rank), so every bid after the highest bid's key beats it."""
        if key != high_key:
            return key > high_key
        if key < _CAPOT_KEY:
            return self.overcall and rank > high_rank >= 0
        return key == _CAPOT_KEY and self.capot_over_capot and rank > high_rank >= 0

    def overcall_by_strain(self, key) -> bool:
        """May a bid of this key (a number, a capot) be beaten by the same key in a higher strain?"""
        return self.overcall if key < _CAPOT_KEY else key == _CAPOT_KEY and self.capot_over_capot


def _table(rules) -> _Table:
    return engine_phase(rules, "auction", _Table)


def _bid_text(value, strain) -> str:
    return f"{value}{strain}"


class Auction:
    """One moment of the auction; immutable, so ``apply`` returns a new one."""

    __slots__ = ("_t", "_dealer", "_to_act", "_phase", "_state", "_high", "_bidder", "_passes",
                 "_passed", "_mult", "_coincher", "_surcoinched", "_first_bidder", "_window", "_last", "_named",
                 "_turns", "_bids")

    # _high is (key, strain_rank, value, strain) of the highest bid, or None.
    # _passed is the set of seats that have passed (speak_after_pass), a frozenset.

    @classmethod
    def start(cls, rules, dealer: str) -> "Auction":
        """The auction before any call: the seat next to the dealer speaks first (A1)."""
        dealer = parse_seat(dealer)
        t = _table(rules)
        a = object.__new__(cls)
        a._t = t
        a._dealer = dealer
        a._to_act = t.first_speaker[dealer]
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
        a._last = None
        a._named = frozenset()      # (seat, strain) of every bid, kept where raise_own_bid reads it
        a._turns = 0                # calls made in turn (auction.max_rounds)
        a._bids = (0, 0, 0, 0)      # bids made by each seat, in SEATS order (auction.max_bids_per_player)
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
        a._last = self._last
        a._named = self._named
        a._turns = self._turns
        a._bids = self._bids
        return a

    # -- what the outside sees ------------------------------------------------
    @property
    def rules(self):
        """The compiled rules of the rule set (variants.compiled)."""
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
    # One set of rules answers both questions: legal_calls() lists the calls that
    # check() accepts. It lists the candidates (the seat to act's pass and bids, the
    # coinche of each seat auction.coinche.by names, the takers' surcoinche) and
    # keeps those the same checks let through; bids are listed from the sorted
    # ladder, from the first that beats the highest bid (Table.beats).
    def legal_calls(self) -> list:
        """Every (seat, call) some seat may make now.

        With no maximum bid, numeric bids are listed up to LISTING_CEILING."""
        t = self._t
        if self._phase == _OVER:
            if not self._window:
                return []
            # either defender may coinche; once coinched, either taker may surcoinche
            out = [t.coinche_pair[s] for s in self._coinchers() if self._check_after(s, _COINCHE) is None]
            out += [t.sur_pair[s] for s in t.surcoinche_by[self._bidder]
                    if self._check_after(s, _SURCOINCHE) is None]
            return out
        seat = self._to_act
        # the player to act may pass, except the dealer «à la vache» (all_pass: dealer_must_bid)
        out = [t.pass_pair[seat]] if self._pass_barred(seat) is None else []
        if self._phase == _DOUBLED:
            if self._check_surcoinche(seat) is None:
                out.append(t.sur_pair[seat])
            if t.overbid_cancels:          # décoinchage: a higher bid may still come, and cancels the coinche
                self._list_bids(seat, out)
            return out
        # bidding
        self._list_bids(seat, out)
        high = self._high
        if high is not None and t.coinche_allowed and t.coinche_when.during_bidding:
            when = t.coinche_when
            seats = (self._coinchers() if when.out_of_turn
                     else (seat, partner(seat)) if when.partner_too else (seat,))
            for d in seats:
                if self._check_coinche(d) is None:
                    out.append(t.coinche_pair[d])
        return out

    def _list_bids(self, seat, out: list) -> None:
        """Add to ``out`` every bid ``seat`` may make now (those that beat the highest bid)."""
        t = self._t
        high = self._high
        if self._may_bid(seat) is None:
            pairs = t.pairs[seat]
            if high is None:
                out.extend(pairs)
            else:
                hk, hr = high[0], high[1]
                listing = t.listing
                i = bisect_right(t.keys, hk)
                j = i
                if t.overcall_by_strain(hk):   # the same value (or capot) may beat it in a higher strain
                    while j > 0 and listing[j - 1][0] == hk:
                        j -= 1
                    out.extend([pairs[k] for k in range(j, i) if t.beats(hk, listing[k][1], hk, hr)])
                out.extend(pairs[i:])
                if self._bidder == seat:
                    out[:] = [p for p in out if p[1].kind != "bid"
                              or t.raise_own_bid(seat, p[1].strain, high, p[1]) is None]
            if t.no_strain_twice and self._named:
                out[:] = [p for p in out if p[1].kind != "bid" or self._strain_named(seat, p[1].strain, p[1]) is None]

    def _strain_named(self, seat, strain, text) -> str | None:
        """raise_own_bid never_in_a_named_strain: why ``seat`` may not bid in ``strain`` (None: he may)."""
        if (seat, strain) not in self._named:
            return None
        return (f"{seat} cannot bid {text}: {seat} has already bid in {strain} in this auction, and no one "
                f"may bid twice in a strain")

    def _coinchers(self) -> tuple:
        """The seats auction.coinche.by lets coinche the highest bid now."""
        return self._t.coinche_by[(self._bidder, self._last)]

    def _coinche_possible(self) -> bool:
        t = self._t
        if not t.coinche_allowed or self._coincher is not None:
            return False
        if self._high[0] >= _CAPOT_KEY:
            return bool(t.capot_may_be_coinched)
        return t.coinche_minimum is None or self._high[2] >= t.coinche_minimum

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
            return self._pass_barred(seat)
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
            if not t.coinche_when.during_bidding and self._surcoinched:
                return f"{seat} cannot call {call}: the auction is over ({contract}, surcoinched)"
            return f"{seat} cannot call {call}: the auction is over ({contract})"
        if call.kind == "coinche":
            if self._coincher is not None:
                return f"{seat} cannot coinche: the {contract} contract is already coinched"
            if seat not in self._coinchers():
                return self._coinche_wrong_side(seat)
            return None
        if call.kind == "surcoinche":
            if self._coincher is None:
                return f"{seat} cannot surcoinche: the {contract} contract is not coinched"
            if seat not in t.surcoinche_by[self._bidder]:
                return self._surcoinche_wrong_side(seat)
            return None
        if self._coincher is None:
            return (f"{seat} cannot call {call}: the auction is over ({contract}); "
                    f"before the first card a defender may only coinche")
        return (f"{seat} cannot call {call}: the auction is over ({contract}, coinched); "
                f"before the first card a taker may only surcoinche")

    def _coinche_wrong_side(self, seat) -> str:
        return self._t.coinche_refused(seat, self._bidder, self._last, _bid_text(self._high[2], self._high[3]))

    def _surcoinche_wrong_side(self, seat) -> str:
        takers = f"{self._bidder} and {partner(self._bidder)}"
        return f"{seat} cannot surcoinche: only the takers ({takers}) may surcoinche"

    def _check_coinche(self, seat) -> str | None:
        t = self._t
        when = t.coinche_when
        if not t.coinche_allowed:
            return f"{seat} cannot coinche: there is no coinche in this variant"
        if self._phase == _DOUBLED:
            if not when.may_speak(seat, self._to_act):
                return f"{seat} cannot coinche: it is {self._to_act}'s turn"
            return f"{seat} cannot coinche: the contract is already coinched"
        if not when.during_bidding:
            return f"{seat} cannot coinche yet: in this variant a coinche comes only after the auction ends"
        if not when.may_speak(seat, self._to_act):
            if when.partner_too:
                return (f"{seat} cannot coinche: it is {self._to_act}'s turn, and only he or his partner "
                        f"may coinche now")
            return f"{seat} cannot coinche: it is {self._to_act}'s turn, and no one may coinche out of turn"
        if self._high is None:
            return f"{seat} cannot coinche: there is no bid yet"
        if seat not in self._coinchers():
            return self._coinche_wrong_side(seat)
        if self._high[0] == _CAPOT_KEY and not t.capot_may_be_coinched:
            return f"{seat} cannot coinche: a capot bid may not be coinched in this variant"
        if self._high[0] == _GENERALE_KEY and not t.capot_may_be_coinched:
            return (f"{seat} cannot coinche: a générale may not be coinched in this variant "
                    f"(it follows the capot, and auction.capot.may_be_coinched is false)")
        if self._high[0] < _CAPOT_KEY and t.coinche_minimum is not None and self._high[2] < t.coinche_minimum:
            return (f"{seat} cannot coinche: the {_bid_text(self._high[2], self._high[3])} bid is below "
                    f"{t.coinche_minimum}, and in this variant no bid below {t.coinche_minimum} may be coinched")
        return None

    def _check_surcoinche(self, seat) -> str | None:
        t = self._t
        if self._phase == _BIDDING:
            return f"{seat} cannot surcoinche: there is no coinche to answer"
        if not t.surcoinche_allowed:
            return f"{seat} cannot surcoinche: this variant has no surcoinche"
        if seat not in t.surcoinche_by[self._bidder]:
            return self._surcoinche_wrong_side(seat)
        if self._surcoinched:
            return f"{seat} cannot surcoinche: the contract is already surcoinched"
        return None

    def _pass_barred(self, seat) -> str | None:
        """Why the seat to act may not pass (None: he may): with all_pass dealer_must_bid, the dealer
        after the three players before him have passed without a bid."""
        if self._t.dealer_must_bid and self._high is None and self._passes == 3 and self._phase == _BIDDING:
            return (f"{seat} cannot pass: the three other players have passed, and the dealer must then bid "
                    f"(«à la vache»)")
        return None

    def _bid_barred(self, seat, text=None) -> str | None:
        """Why ``seat`` may make no bid at all now, whatever the highest bid (None: he may bid)."""
        t = self._t
        if self._phase == _DOUBLED and not t.overbid_cancels:
            return f"{seat} cannot bid {text}: the bids are frozen after the coinche"
        if not t.speak_after_pass and seat in self._passed:
            return f"{seat} cannot bid {text}: {seat} has passed, and in this variant a player who passed may not bid again"
        if t.max_bids is not None and self._bids[SEATS.index(seat)] >= t.max_bids:
            times = "once" if t.max_bids == 1 else f"{t.max_bids} times"
            return (f"{seat} cannot bid {text}: {seat} has bid {times}, and in this variant no player bids more "
                    f"than {times} in an auction (he may still pass, coinche or surcoinche)")
        return None

    def _may_bid(self, seat, text=None) -> str | None:
        """Why ``seat`` may make no bid at all now (None: he may bid what beats the highest bid)."""
        reason = self._bid_barred(seat, text)
        if reason is None and self._bidder == seat:
            return self._t.raise_own_bid(seat, None, self._high, text)
        return reason

    def _check_bid(self, seat, call) -> str | None:
        t = self._t
        text = str(call)
        reason = self._bid_barred(seat, text)
        if reason is not None:
            return reason
        strain = call.strain
        if not t.rules.strain_allowed(strain):
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
            fault = t.rules.bid_fault(value)
            if fault is not None:
                if t.maximum is not None and value > t.maximum:
                    above = [w for ok, w in ((t.capot_allowed, "capot"), (t.generale_allowed, "générale")) if ok]
                    if above:
                        fault += f" ({' and '.join(above)} outrank{'s' if len(above) == 1 else ''} it)"
                return f"bid {text}: {fault}"
            key = value
        if t.no_strain_twice and self._strain_named(seat, strain, text) is not None:
            return self._strain_named(seat, strain, text)
        high = self._high
        if high is None:
            return None
        if self._bidder == seat:
            reason = self._may_bid(seat, text) or t.raise_own_bid(seat, strain, high, text)
            if reason is not None:
                return reason
        if not t.beats(key, t.rank_of(strain), high[0], high[1]):
            return self._not_higher(text, key, strain, high)
        return None

    def _not_higher(self, text, key, strain, high) -> str:
        t = self._t
        old = _bid_text(high[2], high[3])
        if high[0] == _GENERALE_KEY:
            return f"bid {text} does not beat the {old} bid: nothing outranks a générale"
        if high[0] == _CAPOT_KEY and t.capot_over_capot:
            order = " < ".join(t.strain_order)
            return (f"bid {text} does not beat the {old} bid: only a capot in a higher strain ({order})"
                    + (" or a générale" if t.generale_allowed else "") + " outranks a capot bid")
        if high[0] == _CAPOT_KEY:
            if t.generale_allowed:
                return f"bid {text} does not beat the {old} bid: only a générale outranks a capot bid"
            return f"bid {text} does not beat the {old} bid: nothing outranks a capot bid"
        if key == high[0] and t.overcall:
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
        a = self._apply_call(seat, call)
        t = self._t
        if t.max_rounds is not None and self._phase != _OVER:
            if seat == self._to_act:            # a call in turn (not a coinche out of turn)
                a._turns = self._turns + 1
            if a._phase != _OVER and a._turns >= 4 * t.max_rounds:
                a._round_cap()
        return a

    def _round_cap(self) -> None:
        """auction.max_rounds: the last round is over, the auction ends as it stands."""
        if self._high is None:           # never reached: four passes without a bid end the first round
            self._state = self._t.all_pass
            self._phase = _OVER
            self._to_act = None
        elif self._phase == _BIDDING:
            self._settle()               # as three passes would: with after_auction the window opens
        else:
            self._end()                  # coinched (or surcoinched): as the passes after a coinche would

    def _apply_call(self, seat, call) -> "Auction":
        t = self._t
        a = self._copy()
        kind = call.kind
        if self._phase == _OVER:  # the after-auction window
            if kind == "coinche":
                a._coincher = seat
                a._mult = t.coinche_multiplier
                a._window = t.surcoinche_allowed
            else:
                a._surcoinched = True
                a._mult = t.surcoinche_multiplier
                a._window = False
            return a
        nxt = t.nxt[seat]
        a._last = seat
        if kind == "pass":
            a._passes = passes = self._passes + 1
            if seat not in self._passed:
                a._passed = self._passed | {seat}
            if self._phase == _DOUBLED:
                if t.coinche_ended_by(passes, seat, self._bidder, t.coinche_passes_after):
                    a._end()
                else:
                    a._to_act = self._after_in_doubled(seat)
                return a
            if self._high is None:
                if passes >= 4:
                    a._state = t.all_pass
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
            if t.no_strain_twice:
                a._named = self._named | {(seat, strain)}
            if t.max_bids is not None:
                i = SEATS.index(seat)
                a._bids = self._bids[:i] + (self._bids[i] + 1,) + self._bids[i + 1:]
            a._passes = 0
            if self._phase == _DOUBLED:    # décoinchage: the higher bid cancels the coinche (and surcoinche)
                a._phase = _BIDDING
                a._mult = 1
                a._coincher = None
                a._surcoinched = False
            if self._first_bidder is None:
                a._first_bidder = seat
            if key >= _CAPOT_KEY and t.capot_ends_auction:   # a générale ends it as a capot does
                a._settle()
            else:
                a._to_act = nxt
            return a
        if kind == "coinche":
            a._coincher = seat
            a._mult = t.coinche_multiplier
            a._passes = 0
            if t.coinche_effect:
                a._end()
                a._window = t.coinche_window and t.surcoinche_allowed   # BGA: the takers may still surcoinche
            else:
                a._phase = _DOUBLED
                a._to_act = a._after_in_doubled(seat)
            return a
        # surcoinche, in the doubled phase
        a._surcoinched = True
        a._mult = t.surcoinche_multiplier
        a._passes = 0
        if t.surcoinche_ends_auction:
            a._end()
        else:
            a._to_act = a._after_in_doubled(seat)
        return a

    def _after_in_doubled(self, seat):
        """Who speaks after ``seat`` while the contract is coinched: the next seat, skipping the
        coincher's partner where he may not speak (coinche.partner_may_speak: false)."""
        t = self._t
        nxt = t.nxt[seat]
        if t.partner_silent and nxt == partner(self._coincher):
            nxt = t.nxt[nxt]
        return nxt

    def _end(self) -> None:
        """Settle with a contract, no window (a coinche or surcoinche was already possible)."""
        self._state = "contract"
        self._phase = _OVER
        self._to_act = None
        self._window = False

    def _settle(self) -> None:
        """The bidding ends: a contract, and with ``after_auction`` the doubling window opens."""
        self._end()
        if not self._t.coinche_when.during_bidding:
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
