"""Card play: which cards a player may play to a trick, who wins it, what it is worth.

Everything follows docs/rules-model.md §3. The compiled rules are laid out
once per (rule set, strain) into a small ``StrainRules`` object of plain
ints, booleans and option behaviours (kept with the compiled rules), so the per-card work is a handful of mask operations:
a benchmark plays thousands of whole deals per second through ``PlayState``.

Seats are handled inside as indices N=0 E=1 S=2 W=3: the partner is ``i ^ 2``
and the side is ``i & 1`` (0 = NS, 1 = EW).
"""

from __future__ import annotations

from ..notation import SEATS, NotationError, card_name, parse_card, parse_seat, parse_strain
from .errors import BadInput, EngineError, IllegalPlay
from .masks import BEAT, SUIT_MASKS, TRUMP_SUIT, any_suit_beats, led_suit_beats, mask_of
from .options import choose, engine_phase, option_table
from .table import seat_step

_SEAT_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}
_TEAMS = ("NS", "EW")
_SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
_RANK_KEYS = ("7", "8", "9", "T", "J", "Q", "K", "A")

_FULL = 0xFFFFFFFF          # one hand's 32 bits inside PlayState's four-hand int
_new_state = object.__new__  # PlayState.apply sets every slot itself


def _strain(strain: object) -> str:
    if strain in TRUMP_SUIT:
        return strain  # canonical already
    try:
        return parse_strain(strain)
    except NotationError as exc:
        raise BadInput(str(exc)) from None


def _seat(seat: object, what: str = "seat") -> str:
    if seat in _SEAT_INDEX:
        return seat
    try:
        return parse_seat(seat)
    except NotationError as exc:
        raise BadInput(f"{what}: {exc}") from None


def _card(card: object, what: str = "card") -> int:
    if isinstance(card, int) and not isinstance(card, bool):
        if 0 <= card < 32:
            return card
        raise BadInput(f"{what}: card index {card} is outside 0..31")
    try:
        return parse_card(card)
    except NotationError as exc:
        raise BadInput(f"{what}: {exc}") from None


def _mask(hand: object, what: str = "hand") -> int:
    """A hand given as a mask or as a list of cards, checked."""
    if isinstance(hand, int) and not isinstance(hand, bool):
        if hand < 0 or hand >> 32:
            raise BadInput(f"{what}: mask {hand:#x} is not a 32-bit card mask")
        return hand
    if isinstance(hand, (str, bytes)) or not hasattr(hand, "__iter__"):
        raise BadInput(f"{what}: expected a card mask or a list of cards, got {type(hand).__name__}")
    m = 0
    for item in hand:
        c = _card(item, what)
        if m >> c & 1:
            raise BadInput(f"{what}: card {card_name(c)} appears twice")
        m |= 1 << c
    return m


# --- compiled rules --------------------------------------------------------

# play.cannot_overtrump: what a player void in the led suit may play when he cannot beat an
# opponent's trump, given his hand and his trumps
CANNOT_OVERTRUMP = option_table("play.cannot_overtrump", {
    "must_undertrump": lambda hand, trumps: trumps,
    "may_discard": lambda hand, trumps: hand,
    "must_discard": lambda hand, trumps: (hand ^ trumps) or trumps,
})
# play.partner_cut_only_trumps: must a player holding only trumps beat his partner's winning trump?
PARTNER_CUT_ONLY_TRUMPS = option_table("play.partner_cut_only_trumps", {"free": False, "must_overtrump": True})
# play.first_leader: who leads the first trick, from (the seat after the dealer, first bidder, declarer),
# with the name of the argument it came from (None: the dealer's neighbour is always known)
FIRST_LEADER = option_table("play.first_leader", {
    "next_to_dealer": lambda after_dealer, first_bidder, declarer: (after_dealer, None),
    "first_bidder": lambda after_dealer, first_bidder, declarer: (first_bidder, "first_bidder"),
    "taker": lambda after_dealer, first_bidder, declarer: (declarer, "declarer"),
})
# play.first_leader_generale (optional, left out: first_leader): does the générale's taker lead?
FIRST_LEADER_GENERALE = option_table("play.first_leader_generale", {"first_leader": False, "taker": True})
# play.generale_partner (optional, left out: plays): does the générale bidder's partner sit out, his hand
# laid aside and every trick of three cards? The batch plays four-card tricks only.
GENERALE_PARTNER = option_table("play.generale_partner", {"plays": False, "sits_out": True},
                                batch={"plays": False})
_NO_LEADER = {"first_bidder": "the variant has the first bidder lead, but no bid was made",
              "declarer": "the variant has the taker lead, but there is no contract"}
# play.trick_winner (optional, left out: led_suit): the cards that beat the card winning a trick, per
# strain, under the rule set's rank orders (card_values.order). led_suit: the highest trump, else the
# highest of the led suit; any_suit_by_rank: the highest rank of any suit, a trump above every plain
# card. The trick's winner and the "partner wins" of the legal cards both read it, in the per-deal
# engine and the batch.
TRICK_WINNER = option_table("play.trick_winner", {"led_suit": led_suit_beats, "any_suit_by_rank": any_suit_beats},
                            batch={"led_suit": False, "any_suit_by_rank": True})   # the batch: may any suit take a trick?


# card_values.order (optional): the ranks of the trump and of the plain suits, strongest first; each
# rank named is a rank index (7 8 9 T J Q K A = 0..7)
ORDER_TRUMP = option_table("card_values.order.trump[]", {r: i for i, r in enumerate(_RANK_KEYS)})
ORDER_PLAIN = option_table("card_values.order.plain[]", {r: i for i, r in enumerate(_RANK_KEYS)})


def rank_orders(c) -> tuple:
    """(trump, plain): each rank's strength by rank index, 7 the strongest (card_values.order; left
    out: J 9 A T K Q 8 7 and A T K Q J 9 8 7)."""
    order = c.card_values.order              # left out: the schema's default, the usual orders
    out = []
    for table, ranks in ((ORDER_TRUMP, order.trump), (ORDER_PLAIN, order.plain)):
        strength = [0] * 8
        for place, rank in enumerate(ranks):
            strength[choose(table, rank)] = 7 - place
        out.append(tuple(strength))
    return tuple(out)


def beat_table(c, strain: str) -> tuple:
    """For each card w winning a trick under ``strain``, the mask of the cards that take it from w."""
    beats = choose(TRICK_WINNER, c.play.trick_winner)
    return beats(*rank_orders(c))[strain]


# A strain named in the auction (auction.strain_order lists them): its trump suit, -1 for none
STRAIN_TRUMP = option_table("auction.strain_order[]", TRUMP_SUIT)


class StrainRules:
    """The play rules of one rule set for one strain, as plain values for the hot path.

    Rules keep their schema names; a rule inside a group is flattened for speed
    under its path (``void_opponent_winning_must_trump``); an option is kept
    as its table's behaviour."""

    __slots__ = ("rules", "strain", "trump", "trump_mask", "beat", "value", "step", "direction",
                 "trump_lead_must_overtrump", "trump_lead_overtrump_partner", "void_partner_winning_may_discard",
                 "void_partner_winning_trump_must_overtrump", "void_opponent_winning_must_trump",
                 "void_opponent_winning_must_overtrump", "cannot_overtrump", "partner_cut_only_trumps",
                 "must_go_up", "last_trick")

    def __init__(self, c, strain: str):
        play = c.play
        self.rules = c
        self.strain = strain
        self.trump = choose(STRAIN_TRUMP, strain)
        self.trump_mask = SUIT_MASKS[self.trump] if self.trump >= 0 else 0
        self.beat = beat_table(c, strain)
        self.direction = c.table.direction
        self.step = seat_step(c)  # (i + step) & 3 is the next seat
        self.trump_lead_must_overtrump = bool(play.trump_lead_must_overtrump)
        self.trump_lead_overtrump_partner = bool(play.trump_lead_overtrump_partner)
        self.void_partner_winning_may_discard = bool(play.void_partner_winning.may_discard)
        self.void_partner_winning_trump_must_overtrump = bool(play.void_partner_winning.trump_must_overtrump)
        self.void_opponent_winning_must_trump = bool(play.void_opponent_winning.must_trump)
        self.void_opponent_winning_must_overtrump = bool(play.void_opponent_winning.must_overtrump)
        self.cannot_overtrump = choose(CANNOT_OVERTRUMP, play.cannot_overtrump)
        self.partner_cut_only_trumps = choose(PARTNER_CUT_ONLY_TRUMPS, play.partner_cut_only_trumps)
        # play.tout_atout_must_go_up / play.sans_atout_must_go_up, for the strain being played
        self.must_go_up = bool({"TA": play.tout_atout_must_go_up, "SA": play.sans_atout_must_go_up}.get(strain))
        self.last_trick = int(c.card_values.last_trick)
        self.value = c.card_table(strain)

    def legal(self, hand: int, led: int, win: int, partner_wins: bool) -> int:
        """Legal cards of ``hand`` when suit ``led`` was led and card ``win`` is winning.

        Not for the lead (any card is legal then); ``partner_wins`` says whether
        ``win`` is the player's partner's card.
        """
        follow = hand & SUIT_MASKS[led]
        trump = self.trump
        if trump < 0:  # tout atout, sans atout: follow suit, perhaps going up
            if not follow:
                return hand
            if self.must_go_up:
                return (follow & self.beat[win]) or follow
            return follow
        trumps = hand & self.trump_mask
        if led == trump:
            if not trumps:
                return hand
            if self.trump_lead_must_overtrump and (self.trump_lead_overtrump_partner or not partner_wins):
                return (trumps & self.beat[win]) or trumps
            return trumps
        if follow:
            return follow
        if not trumps:
            return hand
        # void in the led suit, holding a trump; a trump beats win if win is plain
        beating = trumps & self.beat[win]
        if partner_wins and self.void_partner_winning_may_discard:
            if trumps == hand:
                if self.partner_cut_only_trumps:
                    return beating or trumps
                return trumps
            if self.void_partner_winning_trump_must_overtrump:
                return (hand ^ trumps) | (beating or trumps)
            return hand
        if not self.void_opponent_winning_must_trump:
            if self.void_opponent_winning_must_overtrump:
                return (hand ^ trumps) | (beating or trumps)
            return hand
        if (win >> 3) != trump or not self.void_opponent_winning_must_overtrump:
            return trumps  # no trump in the trick yet, or overtrumping not required
        if beating:
            return beating
        return self.cannot_overtrump(hand, trumps)


def compiled(rules, strain: str) -> StrainRules:
    """The StrainRules of ``rules`` (Rules, Variant or compiled rules) for ``strain``, built once."""
    if strain not in TRUMP_SUIT:
        strain = _strain(strain)
    return engine_phase(rules, ("play", strain), lambda c: StrainRules(c, strain))


# --- public functions ------------------------------------------------------

def _trick_pairs(trick, what: str = "trick") -> list[tuple[int, int]]:
    """The trick as (seat index, card) pairs, checked: at most 3 cards, no seat or card twice."""
    if trick is None:
        return []
    pairs = []
    seen_seats = 0
    seen_cards = 0
    for pos, item in enumerate(trick):
        if isinstance(item, dict):
            seat, card = item.get("seat"), item.get("card")
        else:
            try:
                seat, card = item
            except (TypeError, ValueError):
                raise BadInput(f"{what}[{pos}]: expected (seat, card), got {item!r}") from None
        s = _SEAT_INDEX[_seat(seat, f"{what}[{pos}].seat")]
        c = _card(card, f"{what}[{pos}].card")
        if seen_seats >> s & 1:
            raise BadInput(f"{what}[{pos}]: seat {SEATS[s]} plays twice to the same trick")
        if seen_cards >> c & 1:
            raise BadInput(f"{what}[{pos}]: card {card_name(c)} is played twice")
        seen_seats |= 1 << s
        seen_cards |= 1 << c
        pairs.append((s, c))
    if len(pairs) > 3:
        raise BadInput(f"{what}: holds {len(pairs)} cards; a trick in progress holds at most 3")
    return pairs


def _winner_pos(beat: tuple, cards) -> int:
    win_pos = 0
    win = cards[0]
    for pos in range(1, len(cards)):
        c = cards[pos]
        if beat[win] >> c & 1:
            win, win_pos = c, pos
    return win_pos


def legal_cards(rules, strain: str, seat: str, hand_mask, trick) -> int:
    """The mask of cards ``seat`` may play from ``hand_mask`` to ``trick`` (list of (seat, card)).

    The trick's seats only tell who is the partner; their order is checked by the case reader
    (protocol/cases.py ``check_play_order``), which knows the rule set's direction.
    """
    sr = compiled(rules, _strain(strain))
    s = _SEAT_INDEX[_seat(seat)]
    hand = _mask(hand_mask)
    pairs = _trick_pairs(trick)
    if not pairs:
        return hand
    for pos, (ps, pc) in enumerate(pairs):
        if ps == s:
            raise BadInput(f"trick[{pos}]: {SEATS[s]} is the player to act and has already played to this trick")
        if hand >> pc & 1:
            raise BadInput(f"trick[{pos}]: {card_name(pc)} is both in the trick and in {SEATS[s]}'s hand")
    cards = [c for _, c in pairs]
    wp = _winner_pos(sr.beat, cards)
    return sr.legal(hand, cards[0] >> 3, cards[wp], pairs[wp][0] == s ^ 2)


def trick_winner(strain: str, trick, rules=None) -> int:
    """Position in ``trick`` of the card that wins it (or is winning it so far).

    ``trick`` is a list of (seat, card) pairs or of bare cards. Suit contract:
    the highest trump, else the highest card of the led suit; tout atout and
    sans atout: the highest card of the led suit (trump or plain ranks). Given
    ``rules``, as that rule set plays: its rank orders (card_values.order) and,
    with ``play.trick_winner: any_suit_by_rank``, the highest rank of any suit
    (docs/rules-model.md §3).
    """
    strain = _strain(strain)
    cards = []
    for pos, item in enumerate(trick):
        card = item if isinstance(item, (int, str)) else item[1]
        cards.append(_card(card, f"trick[{pos}]"))
    if not cards:
        raise BadInput("trick: an empty trick has no winner")
    if len(set(cards)) != len(cards):
        raise BadInput("trick: a card is played twice")
    return _winner_pos(BEAT[strain] if rules is None else compiled(rules, strain).beat, cards)


def card_value(rules, strain: str, card) -> int:
    """What ``card`` counts in a trick: trump/plain tables, or the tout atout / sans atout table."""
    return compiled(rules, _strain(strain)).value[_card(card)]


def trick_points(rules, strain: str, cards) -> int:
    """The card points of ``cards`` (any iterable of cards, or a mask); no last-trick bonus."""
    value = compiled(rules, _strain(strain)).value
    if isinstance(cards, int) and not isinstance(cards, bool):
        m = _mask(cards, "cards")
        total = 0
        while m:
            low = m & -m
            total += value[low.bit_length() - 1]
            m ^= low
        return total
    return sum(value[_card(c, "cards")] for c in cards)


def _lead_rules(c) -> tuple:
    """(the seat step of table.direction, the play.first_leader behaviour, whether a générale's
    taker leads instead, whether a générale's partner sits out)."""
    return (seat_step(c), choose(FIRST_LEADER, c.play.first_leader),
            choose(FIRST_LEADER_GENERALE, c.play.first_leader_generale),
            choose(GENERALE_PARTNER, c.play.generale_partner))


def sitting_out(rules, declarer: str | None, generale: bool) -> int:
    """The seat index of the player who lays his hand aside for the deal (play.generale_partner:
    sits_out, the générale bidder's partner), or -1 when all four play."""
    if not generale or declarer is None or not engine_phase(rules, "lead", _lead_rules)[3]:
        return -1
    return _SEAT_INDEX[declarer] ^ 2


def first_leader(rules, dealer: str, first_bidder: str | None = None, declarer: str | None = None,
                 generale: bool = False) -> str:
    """Who leads the first trick (P1): next to the dealer, the first bidder, or the taker;
    ``generale``: the contract is a générale (play.first_leader_generale may name its taker)."""
    step, leader_of, generale_taker_leads, _ = engine_phase(rules, "lead", _lead_rules)
    dealer = _seat(dealer, "dealer")
    after_dealer = SEATS[(_SEAT_INDEX[dealer] + step) & 3]
    if generale and generale_taker_leads:
        leader_of = FIRST_LEADER["taker"]
    lead, given_as = leader_of(after_dealer, first_bidder, declarer)
    if given_as is None:
        return lead
    if lead is None:
        raise BadInput(f"first leader: {_NO_LEADER[given_as]}")
    return _seat(lead, given_as)


def _check_hands(hands, equal: bool = True) -> list[int]:
    """Four hands as masks indexed N E S W: every seat present, no card held twice."""
    if not isinstance(hands, dict):
        raise BadInput(f"hands: expected an object with N, E, S, W, got {type(hands).__name__}")
    out = [0, 0, 0, 0]
    given = set()
    for key, cards in hands.items():
        s = _SEAT_INDEX[_seat(key, "hands")]
        if s in given:
            raise BadInput(f"hands: seat {SEATS[s]} is given twice")
        given.add(s)
        out[s] = _mask(cards, f"hands.{SEATS[s]}")
    missing = [SEATS[i] for i in range(4) if i not in given]
    if missing:
        raise BadInput(f"hands: no hand for {', '.join(missing)}")
    seen = 0
    for i in range(4):
        dup = seen & out[i]
        if dup:
            c = (dup & -dup).bit_length() - 1
            raise BadInput(f"hands.{SEATS[i]}: {card_name(c)} is also in another hand")
        seen |= out[i]
    if equal:
        sizes = [m.bit_count() for m in out]
        if len(set(sizes)) != 1:
            raise BadInput("hands: at the start of a trick every hand holds as many cards "
                           f"(N {sizes[0]}, E {sizes[1]}, S {sizes[2]}, W {sizes[3]})")
        if sizes[0] > 8:
            raise BadInput(f"hands: {sizes[0]} cards each; a hand holds at most 8")
    return out


# --- the play of a deal ----------------------------------------------------

class PlayState:
    """The tricks of a deal: who is to act, what is legal, what each side has won.

    Immutable in use: ``apply`` returns a new state, so a search or a replay
    can keep old positions. Hands are masks; ``hands`` gives them by seat.
    Inside, the four hands are one int, 32 bits per seat (N lowest), so
    playing a card is one ``^`` and "all eight tricks played" is ``== 0``.
    """

    __slots__ = ("_sr", "_hands", "_trick", "_tricks", "_leader", "_to_act",
                 "_win", "_win_seat", "_points", "_won", "_legal", "_absent")

    @classmethod
    def start(cls, rules, strain: str, leader: str, hands) -> "PlayState":
        """The position before the first card of a trick led by ``leader`` (hands of equal size)."""
        sr = compiled(rules, _strain(strain))
        masks = tuple(_check_hands(hands))
        return cls._begin(sr, masks, _SEAT_INDEX[_seat(leader, "leader")])

    @classmethod
    def _begin(cls, sr: StrainRules, hands: tuple, leader: int, absent: int = -1) -> "PlayState":
        """``start`` for hands already checked (N E S W masks): a Deal checked them when dealt.

        ``absent``: the seat that sits out (a générale's partner under play.generale_partner:
        sits_out): his hand is laid aside, every trick has three cards, and where he would lead,
        the next player in the direction of play leads instead."""
        st = cls.__new__(cls)
        st._sr = sr
        st._absent = absent
        if absent >= 0:
            hands = tuple(0 if i == absent else h for i, h in enumerate(hands))
            if leader == absent:
                leader = (leader + sr.step) & 3
        st._hands = hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96
        st._trick = ()          # the cards of the trick in progress, in play order
        st._tricks = ()
        st._leader = st._to_act = leader
        st._win = -1
        st._win_seat = -1
        st._points = (0, 0)
        st._won = (0, 0)
        st._legal = None
        return st

    # --- reading the position
    @property
    def strain(self) -> str:
        return self._sr.strain

    @property
    def direction(self) -> str:
        return self._sr.direction

    @property
    def rules(self) -> StrainRules:
        return self._sr

    @property
    def hands(self) -> dict:
        h = self._hands
        return {"N": h & _FULL, "E": h >> 32 & _FULL, "S": h >> 64 & _FULL, "W": h >> 96}

    def hand(self, seat: str) -> int:
        return self._hands >> (_SEAT_INDEX[seat] << 5) & _FULL

    @property
    def leader(self) -> str:
        """Who led (or will lead) the current trick."""
        return SEATS[self._leader]

    @property
    def to_act(self) -> str | None:
        return SEATS[self._to_act] if self._hands else None

    @property
    def trick(self) -> list[tuple[str, int]]:
        """The cards already played to the current trick, as (seat, card)."""
        lead, step = self._leader, self._sr.step
        order = [s for s in ((lead + step * i) & 3 for i in range(4)) if s != self._absent]
        return [(SEATS[order[i]], c) for i, c in enumerate(self._trick)]

    @property
    def trick_size(self) -> int:
        """Four cards to a trick, three while a player sits out."""
        return 4 if self._absent < 0 else 3

    @property
    def sitting_out(self) -> str | None:
        """The seat that lays his hand aside for this deal (a générale's partner), or None."""
        return SEATS[self._absent] if self._absent >= 0 else None

    @property
    def tricks(self) -> list[tuple[str, str, list[int]]]:
        """Completed tricks as (leader, winner, [cards in play order])."""
        return [(SEATS[l], SEATS[w], list(cs)) for l, w, cs in self._tricks]

    @property
    def done(self) -> bool:
        # hands start equal, so they are all empty exactly when the last trick is complete
        return not self._hands

    @property
    def cards_played(self) -> int:
        return self.trick_size * len(self._tricks) + len(self._trick)

    @property
    def winning(self) -> str | None:
        """The seat whose card is winning the current trick so far (None before its first card)."""
        return SEATS[self._win_seat] if self._trick else None

    @property
    def last_trick_winner(self) -> str | None:
        """The seat that won the latest completed trick (the last trick once ``done``)."""
        return SEATS[self._tricks[-1][1]] if self._tricks else None

    def tricks_won(self) -> dict:
        return {"NS": self._won[0], "EW": self._won[1]}

    def trick_points(self) -> dict:
        """Card values in each side's tricks, without the last-trick bonus."""
        return {"NS": self._points[0], "EW": self._points[1]}

    def legal(self) -> int:
        """The mask of cards the player to act may play."""
        lg = self._legal
        if lg is None:
            s = self._to_act
            hand = self._hands >> (s << 5) & _FULL
            trick = self._trick
            if not trick:
                lg = hand
            else:
                lg = self._sr.legal(hand, trick[0] >> 3, self._win, self._win_seat == s ^ 2)
            self._legal = lg
        return lg

    def why_illegal(self, card: int) -> str | None:
        """None if the player to act may play ``card``, else the reason in the game's words."""
        if not self._hands:
            return "the deal is over: all eight tricks have been played"
        s = self._to_act
        b = 1 << card
        if not self._hands >> (s << 5) & b:
            return f"{SEATS[s]} does not hold {card_name(card)}"
        legal = self.legal()
        if legal & b:
            return None
        return _reason(self._sr, SEATS[s], card, legal, self._trick[0] >> 3, self._win)

    def apply(self, card, seat: str | None = None) -> "PlayState":
        """The position after the player to act plays ``card``; IllegalPlay says why it cannot."""
        if type(card) is not int or not 0 <= card < 32:
            card = _card(card)
        s = self._to_act
        if seat is not None and seat != SEATS[s]:
            if not self._hands:
                raise IllegalPlay(f"{seat} cannot play {card_name(card)}: the deal is over")
            raise IllegalPlay(f"{seat} cannot play {card_name(card)}: it is {SEATS[s]}'s turn")
        b = 1 << card
        legal = self._legal
        if legal is None:
            legal = self.legal()
        if not legal & b:
            reason = self.why_illegal(card)
            raise IllegalPlay(f"{card_name(card)} is not a legal card: {reason}")
        sr = self._sr
        new = _new_state(PlayState)
        new._sr = sr
        new._absent = absent = self._absent
        new._hands = self._hands ^ (b << (s << 5))
        new._legal = None
        trick = self._trick
        if not trick:
            win, win_seat = card, s
        elif sr.beat[self._win] & b:
            win, win_seat = card, s
        else:
            win, win_seat = self._win, self._win_seat
        if len(trick) == (3 if absent < 0 else 2):
            cards = trick + (card,)
            v = sr.value
            pts = v[cards[0]] + v[cards[1]] + v[card] + (v[cards[2]] if absent < 0 else 0)
            p, w = self._points, self._won
            if win_seat & 1:
                new._points = (p[0], p[1] + pts)
                new._won = (w[0], w[1] + 1)
            else:
                new._points = (p[0] + pts, p[1])
                new._won = (w[0] + 1, w[1])
            new._tricks = self._tricks + ((self._leader, win_seat, cards),)
            new._trick = ()
            new._leader = new._to_act = win_seat
            new._win = -1
            new._win_seat = -1
        else:
            new._points = self._points
            new._won = self._won
            new._tricks = self._tricks
            new._trick = trick + (card,)
            new._leader = self._leader
            nxt = (s + sr.step) & 3
            new._to_act = (nxt + sr.step) & 3 if nxt == absent else nxt
            new._win = win
            new._win_seat = win_seat
        return new

    def __repr__(self) -> str:
        return (f"PlayState({self.strain}, tricks={len(self._tricks)}, "
                f"trick={[card_name(c) for c in self._trick]}, to_act={self.to_act})")


def _reason(sr: StrainRules, seat: str, card: int, legal: int, led: int, win: int) -> str:
    """Say which rule a card breaks, given the legal set it is not in."""
    led_word = _SUIT_WORDS[led]
    suit = card >> 3
    if not legal & ~SUIT_MASKS[led]:  # only cards of the led suit are legal
        if suit != led:
            return f"{seat} must follow suit ({led_word} led)"
        if led == sr.trump:
            return f"{seat} must overtrump the {card_name(win)}"
        return f"{seat} must play higher than the {card_name(win)}"
    trump = sr.trump
    if trump >= 0 and not legal & ~sr.trump_mask:  # only trumps
        if suit != trump:
            return f"{seat} must trump ({led_word} led, {seat} has none)"
        return f"{seat} must overtrump the {card_name(win)}"
    if trump >= 0 and suit == trump and legal & sr.trump_mask:
        return f"{seat} may trump only with a trump above the {card_name(win)}"
    if trump >= 0 and suit == trump:
        return f"{seat} must discard: he cannot overtrump the {card_name(win)} and holds another card"
    return f"{seat} may not play that card here"


# --- perft -------------------------------------------------------------------

# The most sequences a perft may have to walk, at worst: the product, card by card, of the
# cards the player to play holds. Two tricks from a full deal are (8*7)^4 = 9,834,496; the
# whole play with four cards each (4*3*2*1)^4 = 331,776; all 32 cards of a deal ~10^18, which
# would never end. Reckoned before counting, so a refusal is immediate (docs/limits.md).
PERFT_MAX_SEQUENCES = 10 ** 7


def perft_bound(cards_each: int, depth: int) -> int:
    """The most sequences ``depth`` cards can have when every seat starts a trick with ``cards_each``."""
    bound = 1
    for i in range(depth):
        bound *= max(cards_each - i // 4, 1)
        if bound > PERFT_MAX_SEQUENCES:
            return bound  # past the limit: the exact figure does not matter
    return bound


def perft(rules, strain: str, leader: str, hands, depth: int) -> int:
    """How many legal sequences of ``depth`` cards start at a trick led by ``leader``.

    Counted straight on masks, without building positions; each completed
    trick's winner leads the next.
    """
    sr = compiled(rules, _strain(strain))
    h = _check_hands(hands)
    lead = _SEAT_INDEX[_seat(leader, "leader")]
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise BadInput(f"depth: expected a whole number of cards >= 0, got {depth!r}")
    left = sum(m.bit_count() for m in h)
    if depth > left:
        raise BadInput(f"depth: {depth} cards asked, only {left} are left to play")
    if perft_bound(max(m.bit_count() for m in h), depth) > PERFT_MAX_SEQUENCES:
        raise BadInput(f"depth: {depth} cards from this position may be more than {PERFT_MAX_SEQUENCES:,} "
                       "sequences, the most a perft counts (docs/limits.md)")
    if depth == 0:
        return 1
    return _perft(sr, h, lead, depth)


def _perft(sr: StrainRules, hands: list[int], leader: int, depth: int) -> int:
    beat = sr.beat
    step = sr.step
    legal_of = sr.legal

    def walk(seat: int, pos: int, led: int, win: int, win_seat: int, depth: int) -> int:
        hand = hands[seat]
        if pos == 0:
            legal = hand
        else:
            legal = legal_of(hand, led, win, win_seat == seat ^ 2)
        if depth == 1:
            return legal.bit_count()
        total = 0
        nxt = (seat + step) & 3
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            hands[seat] = hand ^ low
            if pos == 0:
                total += walk(nxt, 1, c >> 3, c, seat, depth - 1)
            else:
                if beat[win] & low:
                    w, ws = c, seat
                else:
                    w, ws = win, win_seat
                if pos == 3:
                    total += walk(ws, 0, 0, -1, -1, depth - 1)
                else:
                    total += walk(nxt, pos + 1, led, w, ws, depth - 1)
        hands[seat] = hand
        return total

    return walk(leader, 0, 0, -1, -1, depth)


__all__ = ["StrainRules", "compiled", "legal_cards", "trick_winner", "card_value", "trick_points",
           "first_leader", "PlayState", "perft", "EngineError", "IllegalPlay", "BadInput", "mask_of"]
