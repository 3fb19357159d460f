"""Cards, seats, teams, strains, calls and contracts, as PROTOCOL.md writes them.

Parsing is lenient (lower case, ``10H``, suit symbols, ``contre``) so people
can type naturally; output is always canonical so that two implementations
can be compared byte for byte. Every bad token raises NotationError with a
message that says what was expected.

Cards are numbered 0..31 as ``suit * 8 + rank`` with suits S H D C and ranks
7 8 9 T J Q K A, so a hand is a 32-bit mask (see engine.masks).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from .errors import CoincheSpecError

SEATS = ("N", "E", "S", "W")  # clockwise order
TEAMS = ("NS", "EW")
SUITS = ("S", "H", "D", "C")
RANKS = ("7", "8", "9", "T", "J", "Q", "K", "A")
STRAINS = ("S", "H", "D", "C", "TA", "SA")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

_SUIT_ALIASES = {
    "S": "S", "H": "H", "D": "D", "C": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}
_RANK_ALIASES = {r: r for r in RANKS}
_RANK_ALIASES["10"] = "T"


class NotationError(CoincheSpecError, ValueError):
    """A token that is not valid notation; the message names the token."""


# --- seats and teams -------------------------------------------------------

def parse_seat(text: object) -> str:
    if isinstance(text, str) and text.strip().upper() in SEATS:
        return text.strip().upper()
    raise NotationError(f"bad seat {text!r}: expected one of N, E, S, W")


def parse_team(text: object) -> str:
    if isinstance(text, str):
        t = text.strip().upper()
        if t in ("NS", "SN"):
            return "NS"
        if t in ("EW", "WE"):
            return "EW"
    raise NotationError(f"bad team {text!r}: expected NS or EW")


def seat_index(seat: str) -> int:
    return SEATS.index(seat)


def team_of(seat: str) -> str:
    return "NS" if seat in ("N", "S") else "EW"


def other_team(team: str) -> str:
    return "EW" if team == "NS" else "NS"


def partner(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def next_seat(seat: str, direction: str) -> str:
    """The seat that acts after ``seat`` in the variant's direction of play."""
    step = 1 if direction == "clockwise" else -1
    return SEATS[(SEATS.index(seat) + step) % 4]


# --- cards -----------------------------------------------------------------

def card_index(suit: str, rank: str) -> int:
    return SUITS.index(suit) * 8 + RANKS.index(rank)


def card_name(index: int) -> str:
    return RANKS[index % 8] + SUITS[index // 8]


_CARD_NAMED = {card_name(i): i for i in range(32)}   # canonical name -> index: parse_card's quick way


def card_suit(index: int) -> str:
    return SUITS[index // 8]


def card_rank(index: int) -> str:
    return RANKS[index % 8]


def shown(text: str) -> str:
    """``text`` quoted, with every character an editor shows as nothing (a variation selector, a
    zero-width space, a control) written as ``<U+FE0F>``: a message must show what is wrong."""
    import unicodedata
    out = "".join(f"<U+{ord(c):04X}>" if unicodedata.category(c) in _UNSEEN and c != " " else c for c in text)
    return repr(out) if out == text else f"'{out}'"


_UNSEEN = ("Cc", "Cf", "Mn", "Me", "Zl", "Zp", "Zs", "Co", "Cn")


def parse_card(text: object) -> int:
    """Return the card's index; accept ``JH``, ``jh``, ``10H``, ``J♥``."""
    if type(text) is str:
        hit = _CARD_NAMED.get(text)     # the canonical name, as cases carry it: no need to read it
        if hit is not None:
            return hit
    if not isinstance(text, str):
        raise NotationError(f"bad card {text!r}: expected a string such as 'JH'")
    t = text.strip()
    if len(t) < 2:
        raise NotationError(f"bad card {shown(text)}: expected rank then suit, such as 'JH' or 'TS'")
    suit_part = t[-1].upper()
    rank_part = t[:-1].upper()
    if suit_part not in _SUIT_ALIASES:
        hint = (" (an emoji variation selector after the suit: write the suit alone)"
                if t[-1] in "\ufe0f\ufe0e" else "")
        raise NotationError(
            f"bad card {shown(text)}: suit {shown(t[-1])} is not one of S H D C (or ♠ ♥ ♦ ♣){hint}")
    if rank_part not in _RANK_ALIASES:
        raise NotationError(
            f"bad card {shown(text)}: rank {shown(t[:-1])} is not one of 7 8 9 T J Q K A (10 is accepted for T)")
    return card_index(_SUIT_ALIASES[suit_part], _RANK_ALIASES[rank_part])


def canonical_card(text: object) -> str:
    return card_name(parse_card(text))



def parse_cards(items: object, what: str = "cards", unique: bool = True) -> list[int]:
    if not isinstance(items, list):
        raise NotationError(f"bad {what}: expected a list of cards, got {type(items).__name__}")
    out = []
    seen = set()
    for item in items:
        c = parse_card(item)
        if unique and c in seen:
            raise NotationError(f"bad {what}: card {card_name(c)} appears twice")
        seen.add(c)
        out.append(c)
    return out


def pretty_card(index: int) -> str:
    """A card the way a player reads it: ``J♥``, ``10♠``."""
    rank = card_rank(index)
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card_suit(index)]


# --- strains, calls, contracts -------------------------------------------

def parse_strain(text: object) -> str:
    if isinstance(text, str):
        t = text.strip().upper()
        if t in ("TA", "SA"):
            return t
        if len(text.strip()) == 1 and text.strip().upper() in _SUIT_ALIASES:
            return _SUIT_ALIASES[text.strip().upper()]
    raise NotationError(f"bad strain {text!r}: expected S, H, D, C, TA or SA")


@dataclass(frozen=True)
class Call:
    """One auction call: ``kind`` is pass, bid, coinche or surcoinche.

    A bid has ``strain`` and ``value``: an int, or the string "capot" (the
    side promises every trick) or "generale" (the bidder alone promises every
    trick; an extension, for rule sets that allow the générale)."""

    kind: str
    value: int | str | None = None
    strain: str | None = None

    @property
    def is_capot(self) -> bool:
        return self.kind == "bid" and self.value == "capot"

    @property
    def is_generale(self) -> bool:
        return self.kind == "bid" and self.value == "generale"

    def __str__(self) -> str:
        if self.kind == "bid":
            return f"{self.value}{self.strain}"
        return self.kind


_CALL_WORDS = {
    "pass": "pass", "passe": "pass", "p": "pass",
    "coinche": "coinche", "contre": "coinche", "contré": "coinche", "coinché": "coinche",
    "surcoinche": "surcoinche", "surcontre": "surcoinche", "surcoinché": "surcoinche",
}


def _generale_strain(compact: str) -> str | None:
    """What follows ``generale`` (or ``générale``) in a compacted call, or None if it is no générale."""
    for word in ("generale", "générale"):
        if compact.startswith(word):
            return compact[len(word):]
    return None


def parse_call(text: object) -> Call:
    """Accept ``pass``, ``80H``, ``80 ♥``, ``capotS``, ``generaleS``/``Générale ♠``, ``coinche``/``contre``,
    ``surcoinche``."""
    if type(text) is str:
        hit = _CALLS_READ.get(text)     # a replayed case reads the same few calls again and again
        if hit is not None:
            return hit
    call = _read_call(text)
    if len(_CALLS_READ) > 4096:
        _CALLS_READ.clear()
    _CALLS_READ[text] = call            # a Call is frozen: one may be handed out twice
    return call


_CALLS_READ: dict = {}


def _read_call(text: object) -> Call:
    if not isinstance(text, str) or not text.strip():
        raise NotationError(f"bad call {text!r}: expected pass, a bid such as '80H', capot<strain>, coinche or surcoinche")
    t = unicodedata.normalize("NFC", text.strip())
    low = t.lower()
    if low in _CALL_WORDS:
        return Call(_CALL_WORDS[low])
    compact = low.replace(" ", "")
    rest = _generale_strain(compact)
    if rest is not None:
        if not rest:
            raise NotationError(f"bad call {text!r}: a générale bid names its strain, such as 'generaleH'")
        try:
            return Call("bid", "generale", parse_strain(rest))
        except NotationError:
            raise NotationError(f"bad call {text!r}: {rest.upper()!r} is not a strain (S, H, D, C, TA, SA)") from None
    if compact.startswith("capot"):
        rest = t.strip()[5:].strip()
        if not rest:
            raise NotationError(f"bad call {text!r}: a capot bid names its strain, such as 'capotH'")
        try:
            return Call("bid", "capot", parse_strain(rest))
        except NotationError:
            raise NotationError(f"bad call {text!r}: {rest!r} is not a strain (S, H, D, C, TA, SA)") from None
    digits = ""
    for ch in compact:
        if ch.isdigit():
            digits += ch
        else:
            break
    if not digits:
        raise NotationError(f"bad call {text!r}: expected pass, a bid such as '80H', capot<strain>, coinche or surcoinche")
    rest = t.replace(" ", "")[len(digits):]
    if not rest:
        raise NotationError(f"bad call {text!r}: the bid {digits} names no strain (add S, H, D, C, TA or SA)")
    try:
        strain = parse_strain(rest)
    except NotationError:
        raise NotationError(f"bad call {text!r}: {rest!r} is not a strain (S, H, D, C, TA, SA)") from None
    return Call("bid", int(digits), strain)


def canonical_call(text: object) -> str:
    return str(parse_call(text))


@dataclass(frozen=True)
class Contract:
    value: int | str  # an int, "capot", or "generale" (an extension: rule sets that allow the générale)
    strain: str
    declarer: str
    multiplier: int = 1
    # protocol extension: "none", "coinche" or "surcoinche", beside the multiplier (which alone cannot
    # tell a x3 surcoinche from a x3 coinche); None where unknown. Not part of equality.
    doubling: str | None = field(default=None, compare=False)

    @property
    def takers(self) -> str:
        return team_of(self.declarer)

    @property
    def defenders(self) -> str:
        return other_team(self.takers)

    @property
    def is_capot(self) -> bool:
        return self.value == "capot"

    @property
    def is_generale(self) -> bool:
        return self.value == "generale"

    def to_json(self) -> dict:
        out = {"value": self.value, "strain": self.strain, "declarer": self.declarer, "multiplier": self.multiplier}
        if self.doubling is not None:
            out["doubling"] = self.doubling
        return out


def parse_contract(obj: object) -> Contract:
    if not isinstance(obj, dict):
        raise NotationError(f"bad contract {obj!r}: expected an object with value, strain, declarer, multiplier")
    unknown = set(obj) - {"value", "strain", "declarer", "multiplier", "doubling"}
    if unknown:
        raise NotationError(f"bad contract: unknown field {sorted(unknown)[0]!r}")
    for key in ("value", "strain", "declarer"):
        if key not in obj:
            raise NotationError(f"bad contract: missing field {key!r}")
    value = obj["value"]
    if isinstance(value, str) and value.strip().lower() == "capot":
        value = "capot"
    elif isinstance(value, str) and unicodedata.normalize("NFC", value.strip().lower()) in ("generale", "générale"):
        value = "generale"
    elif isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(f"bad contract value {value!r}: expected a number or \"capot\"")
    mult = obj.get("multiplier", 1)
    if isinstance(mult, bool) or not isinstance(mult, int) or mult < 1:
        raise NotationError(f"bad contract multiplier {mult!r}: expected 1, 2, 3 or 4")
    doubling = obj.get("doubling")
    if doubling is not None and doubling not in DOUBLINGS:
        raise NotationError(f"bad contract doubling {doubling!r}: expected none, coinche or surcoinche")
    return Contract(value, parse_strain(obj["strain"]), parse_seat(obj["declarer"]), mult, doubling)


DOUBLINGS = ("none", "coinche", "surcoinche")


def doubling_for(multiplier: int, coinche_multiplier: int) -> str:
    """The doubling a multiplier means in a rule set whose coinche multiplies by ``coinche_multiplier``."""
    return "none" if multiplier == 1 else "coinche" if multiplier == coinche_multiplier else "surcoinche"
