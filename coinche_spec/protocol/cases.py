"""The eight case kinds of the conformance protocol: check, canonicalise, compute.

A case arrives as JSON typed by a person (a fixture) or by another program.
``canonicalise`` checks every field and returns the case in the canonical
notation, so that the runner always sends the same bytes whatever spelling
the fixture used; ``run_case`` then answers it with the reference engine.

Bad input (an unknown field, a card that does not exist, a hand of seven
cards, a card dealt twice) raises ``CaseError`` with the path of the field:
``case.hands.N[3]: bad card 'ZH': ...``. Breaking the rules of the game (a
bid too low, a revoke) is *not* bad input: the engine reports it in the
result, as the protocol says.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import CoincheSpecError
from ..variants.compiled import compiled_rules
from ..yamlstrict import type_name
from ..notation import team_of
from ..notation import (SEATS, NotationError, card_name, doubling_for, next_seat, parse_call, parse_card,
                        parse_contract, parse_seat, parse_strain, parse_team)

KINDS = ("legal_cards", "auction", "deal", "score", "melds", "match", "dealing", "perft",
         "played_match")   # the last an extension: a match of whole deals (docs/protocol.md)

TEAMS = ("NS", "EW")


class CaseError(CoincheSpecError, ValueError):
    """A case that is not well formed; ``path`` locates the field, e.g. ('case', 'hands', 'N', 3)."""

    def __init__(self, path: tuple, message: str):
        super().__init__(f"{format_path(path)}: {message}")
        self.path = tuple(path)
        self.message = message


class PlayOrderError(CaseError):
    """A trick whose seats do not follow the rule set's direction of play: no game reaches it."""


def format_path(path) -> str:
    """('case', 'hands', 'N', 3) -> 'case.hands.N[3]'."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "case"


# --- small checkers: each takes the value and its path ------------------------

def _type_name(value: Any) -> str:
    return type_name(value, "json")


def _object(value: Any, path: tuple, required: tuple, optional: tuple = ()) -> dict:
    if not isinstance(value, dict):
        raise CaseError(path, f"expected an object, got {_type_name(value)}")
    for key in value:
        if key not in required and key not in optional:
            allowed = ", ".join(required + optional)
            raise CaseError(path + (key,), f"unknown field {key!r} (expected: {allowed})")
    for key in required:
        if key not in value:
            raise CaseError(path, f"missing field {key!r}")
    return value


def _list(value: Any, path: tuple, minimum: int = 0, maximum: int | None = None, what: str = "items") -> list:
    if not isinstance(value, list):
        raise CaseError(path, f"expected a list, got {_type_name(value)}")
    if len(value) < minimum or (maximum is not None and len(value) > maximum):
        if maximum == minimum:
            want = f"exactly {minimum}"
        elif maximum is None:
            want = f"at least {minimum}"
        else:
            want = f"{minimum} to {maximum}"
        raise CaseError(path, f"expected {want} {what}, got {len(value)}")
    return value


def _int(value: Any, path: tuple, minimum: int | None = None, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CaseError(path, f"expected a whole number, got {_type_name(value)} {value!r}")
    if minimum is not None and value < minimum:
        raise CaseError(path, f"{value} is below the smallest allowed value {minimum}")
    if maximum is not None and value > maximum:
        raise CaseError(path, f"{value} is above the largest allowed value {maximum}")
    return value


def _bool(value: Any, path: tuple) -> bool:
    if not isinstance(value, bool):
        raise CaseError(path, f"expected true or false, got {_type_name(value)} {value!r}")
    return value


def _parsed(parser: Callable, value: Any, path: tuple):
    try:
        return parser(value)
    except NotationError as exc:
        raise CaseError(path, str(exc)) from None


def _card(value: Any, path: tuple) -> str:
    return card_name(_parsed(parse_card, value, path))


def _seat(value: Any, path: tuple) -> str:
    return _parsed(parse_seat, value, path)


def _team(value: Any, path: tuple) -> str:
    return _parsed(parse_team, value, path)


def _team_or_null(value: Any, path: tuple) -> str | None:
    return None if value is None else _team(value, path)


def _strain(value: Any, path: tuple) -> str:
    return _parsed(parse_strain, value, path)


def _cards(value: Any, path: tuple, minimum: int = 0, maximum: int | None = None) -> list[str]:
    """A list of distinct cards, canonical."""
    items = _list(value, path, minimum, maximum, "cards")
    out: list[str] = []
    for i, item in enumerate(items):
        card = _card(item, path + (i,))
        if card in out:
            raise CaseError(path + (i,), f"card {card} appears twice")
        out.append(card)
    return out


def _seat_keyed(value: Any, path: tuple) -> dict:
    """An object keyed by the four seats (lenient keys), returned as seat -> raw value in N E S W order."""
    if not isinstance(value, dict):
        raise CaseError(path, f"expected an object keyed by seat (N, E, S, W), got {_type_name(value)}")
    found: dict = {}
    for key, item in value.items():
        seat = _seat(key, path + (key,))
        if seat in found:
            raise CaseError(path + (key,), f"seat {seat} is given twice")
        found[seat] = (key, item)
    for seat in SEATS:
        if seat not in found:
            raise CaseError(path, f"missing seat {seat!r}")
    return {seat: found[seat] for seat in SEATS}


def _team_ints(value: Any, path: tuple, minimum: int | None = 0, maximum: int | None = None) -> dict:
    """{"NS": n, "EW": n}, both present."""
    if not isinstance(value, dict):
        raise CaseError(path, f"expected an object {{NS: number, EW: number}}, got {_type_name(value)}")
    out: dict = {}
    for key, item in value.items():
        team = _team(key, path + (key,))
        if team in out:
            raise CaseError(path + (key,), f"team {team} is given twice")
        out[team] = _int(item, path + (key,), minimum, maximum)
    for team in TEAMS:
        if team not in out:
            raise CaseError(path, f"missing team {team!r}")
    return {team: out[team] for team in TEAMS}


def _tricks_won(value: Any, path: tuple) -> dict:
    won = _team_ints(value, path, 0, 8)
    if won["NS"] + won["EW"] != 8:
        raise CaseError(path, f"the two sides took {won['NS']} + {won['EW']} tricks; a deal has 8")
    return won


def _hands(value: Any, path: tuple, exactly: int | None = 8) -> dict:
    """Four hands of distinct cards; with ``exactly`` None, any equal size from 1 to 8."""
    keyed = _seat_keyed(value, path)
    hands: dict = {}
    owner: dict = {}
    for seat, (key, raw) in keyed.items():
        if exactly is None:
            cards = _cards(raw, path + (key,), 1, 8)
        else:
            cards = _cards(raw, path + (key,), exactly, exactly)
        for i, card in enumerate(cards):
            if card in owner:
                raise CaseError(path + (key, i), f"card {card} is also in {owner[card]}'s hand")
            owner[card] = seat
        hands[seat] = cards
    if exactly is None:
        sizes = {len(h) for h in hands.values()}
        if len(sizes) != 1:
            raise CaseError(path, "at the start of a trick every hand holds the same number of cards, got "
                            + ", ".join(f"{s} {len(hands[s])}" for s in SEATS))
    return hands


def _call_entries(value: Any, path: tuple) -> list[dict]:
    items = _list(value, path, 0, 200, "calls")
    out = []
    for i, item in enumerate(items):
        p = path + (i,)
        _object(item, p, ("seat", "call"))
        seat = _seat(item["seat"], p + ("seat",))
        call = str(_parsed(parse_call, item["call"], p + ("call",)))
        out.append({"seat": seat, "call": call})
    return out


def _contract(value: Any, path: tuple) -> dict:
    contract = _parsed(parse_contract, value, path)
    if not contract.is_capot and not contract.is_generale:
        _int(contract.value, path + ("value",), 1)
    if contract.multiplier > 4:
        raise CaseError(path + ("multiplier",), f"multiplier {contract.multiplier}: expected 1, 2, 3 or 4")
    return contract.to_json()


# The same checkers, for the fixture loader's expectations: same messages, same paths.
check_object, check_int, check_cards, check_seat, check_team = _object, _int, _cards, _seat, _team
check_seat_keyed, check_team_ints, check_contract = _seat_keyed, _team_ints, _contract


# --- the kinds: each returns the canonical case --------------------------------

def _legal_cards(case: dict, path: tuple) -> dict:
    _object(case, path, ("kind", "strain", "seat", "hand", "trick"))
    strain = _strain(case["strain"], path + ("strain",))
    seat = _seat(case["seat"], path + ("seat",))
    hand = _cards(case["hand"], path + ("hand",), 1, 8)
    trick_path = path + ("trick",)
    entries = _list(case["trick"], trick_path, 0, 3, "cards already in the trick")
    trick = []
    seen_seats = {seat}
    for i, entry in enumerate(entries):
        p = trick_path + (i,)
        _object(entry, p, ("seat", "card"))
        s = _seat(entry["seat"], p + ("seat",))
        if s in seen_seats:
            why = "is the player to act" if s == seat else "has already played to this trick"
            raise CaseError(p + ("seat",), f"seat {s} {why}")
        seen_seats.add(s)
        card = _card(entry["card"], p + ("card",))
        if card in hand:
            raise CaseError(p + ("card",), f"card {card} is also in the hand of {seat}")
        if any(card == t["card"] for t in trick):
            raise CaseError(p + ("card",), f"card {card} is already in the trick")
        trick.append({"seat": s, "card": card})
    return {"kind": "legal_cards", "strain": strain, "seat": seat, "hand": hand, "trick": trick}


def _auction(case: dict, path: tuple) -> dict:
    _object(case, path, ("kind", "dealer", "calls"))
    return {"kind": "auction", "dealer": _seat(case["dealer"], path + ("dealer",)),
            "calls": _call_entries(case["calls"], path + ("calls",))}


def _say(value: Any, path: tuple) -> str | None:
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() in ("belote", "rebelote"):
        return value.strip().lower()
    raise CaseError(path, f"bad say {value!r}: expected \"belote\" or \"rebelote\"")


def _deal(case: dict, path: tuple) -> dict:
    # extension: a given `contract` skips the auction (engines without a Coinche auction); then
    # `calls` may be left out, and must be empty if given
    given = case.get("contract") if isinstance(case, dict) else None
    _object(case, path, ("kind", "dealer", "hands", "play") + (() if given is not None else ("calls",)),
            ("contract", "calls", "rebelote_forgiven"))
    dealer = _seat(case["dealer"], path + ("dealer",))
    hands = _hands(case["hands"], path + ("hands",), 8)
    calls = _call_entries(case.get("calls", []), path + ("calls",))
    if given is not None and calls:
        raise CaseError(path + ("calls",), "a deal case with a given contract has no calls (the auction is skipped)")
    play_path = path + ("play",)
    entries = _list(case["play"], play_path, 0, 32, "cards played")
    play = []
    for i, entry in enumerate(entries):
        p = play_path + (i,)
        _object(entry, p, ("seat", "card"), ("melds", "say"))
        out: dict = {"seat": _seat(entry["seat"], p + ("seat",)), "card": _card(entry["card"], p + ("card",))}
        if entry.get("melds") is not None:
            melds_raw = _list(entry["melds"], p + ("melds",), 0, 8, "declarations")
            out["melds"] = [_cards(m, p + ("melds", j), 1, 8) for j, m in enumerate(melds_raw)]
        say = _say(entry.get("say"), p + ("say",))
        if say is not None:
            out["say"] = say
        play.append(out)
    out = {"kind": "deal", "dealer": dealer, "hands": hands, "calls": calls, "play": play}
    if given is not None:
        out["contract"] = _contract(given, path + ("contract",))
    if case.get("rebelote_forgiven") is not None:   # extension: the match's forgiveness spent so far
        out["rebelote_forgiven"] = _rebelote_forgiven(case["rebelote_forgiven"], path + ("rebelote_forgiven",))
    return out


def _rebelote_forgiven(value: Any, path: tuple) -> list[str]:
    """The extension ``rebelote_forgiven``: the sides already forgiven a forgotten «rebelote» in the
    match (belote.claim said_rebelote_forgiven_once), each once, in the order N-S, E-W."""
    sides = [_team(v, path + (i,)) for i, v in enumerate(_list(value, path, 0, 2, "sides"))]
    if len(set(sides)) != len(sides):
        raise CaseError(path, f"{sides[0]} is named twice: a side is forgiven once per match")
    return [t for t in ("NS", "EW") if t in sides]


def _tricks_by_seat(value: Any, path: tuple, tricks_won: dict) -> dict:
    """The extension ``tricks_won_by_seat``: each player's tricks, adding up to his side's ``tricks_won``."""
    keyed = _seat_keyed(value, path)
    out = {seat: _int(raw, path + (key,), 0, 8) for seat, (key, raw) in keyed.items()}
    for team, (a, b) in (("NS", ("N", "S")), ("EW", ("E", "W"))):
        if out[a] + out[b] != tricks_won[team]:
            raise CaseError(path, f"{a} {out[a]} + {b} {out[b]} = {out[a] + out[b]} tricks, but tricks_won "
                                  f"gives {team} {tricks_won[team]}")
    return out


def _belotes(value: Any, belote: str | None, path: tuple) -> dict:
    """The extension ``belotes``: how many belotes each side scores (tout atout may give one per suit).

    ``belote`` stays for implementations that read only it, and must say the same: the side with
    belotes when only one side has any, else null."""
    counts = _team_ints(value, path + ("belotes",), 0, 4)
    sides = [team for team in TEAMS if counts[team]]
    said = sides[0] if len(sides) == 1 else None
    if belote != said:
        raise CaseError(path + ("belote",), f"belote {json_text(belote)} disagrees with belotes "
                                            f"(NS {counts['NS']}, EW {counts['EW']}): it should be {json_text(said)}")
    return counts


def json_text(value: Any) -> str:
    return "null" if value is None else str(value)


def _score(case: dict, path: tuple) -> dict:
    _object(case, path, ("kind", "contract", "trick_points", "tricks_won", "last_trick", "melds", "belote"),
            ("tricks_won_by_seat", "belotes"))
    tricks_won = _tricks_won(case["tricks_won"], path + ("tricks_won",))
    last = _team(case["last_trick"], path + ("last_trick",))
    if tricks_won[last] == 0:
        raise CaseError(path + ("last_trick",), f"{last} took the last trick but is given no trick in tricks_won")
    out = {
        "kind": "score",
        "contract": _contract(case["contract"], path + ("contract",)),
        "trick_points": _team_ints(case["trick_points"], path + ("trick_points",), 0, 1000),
        "tricks_won": tricks_won,
        "last_trick": last,
        "melds": _team_ints(case["melds"], path + ("melds",), 0, 10000),
        "belote": _team_or_null(case["belote"], path + ("belote",)),
    }
    if case.get("belotes") is not None:
        out["belotes"] = _belotes(case["belotes"], out["belote"], path)
    # extension: who took the tricks, which a générale needs (made only if the declarer took all eight alone)
    by_seat = case.get("tricks_won_by_seat")
    if by_seat is not None:
        out["tricks_won_by_seat"] = _tricks_by_seat(by_seat, path + ("tricks_won_by_seat",), tricks_won)
    elif out["contract"]["value"] == "generale":
        raise CaseError(path, "missing field 'tricks_won_by_seat': a générale is made only when the declarer "
                              "alone takes every trick, so the case must say how many tricks each player won")
    return out


def _melds(case: dict, path: tuple) -> dict:
    _object(case, path, ("kind", "strain", "declared"), ("leader",))
    strain = _strain(case["strain"], path + ("strain",))
    dpath = path + ("declared",)
    keyed = _seat_keyed(case["declared"], dpath)
    declared: dict = {}
    owner: dict = {}
    for seat, (key, raw) in keyed.items():
        items = _list(raw, dpath + (key,), 0, 8, "declarations")
        melds = []
        for j, m in enumerate(items):
            cards = _cards(m, dpath + (key, j), 1, 8)
            for k, card in enumerate(cards):
                if owner.get(card, seat) != seat:
                    raise CaseError(dpath + (key, j, k), f"card {card} is also declared by {owner[card]}")
                owner[card] = seat
            melds.append(cards)
        declared[seat] = melds
    out = {"kind": "melds", "strain": strain, "declared": declared}
    if case.get("leader") is not None:
        out["leader"] = _seat(case["leader"], path + ("leader",))
    return out


def _match(case: dict, path: tuple) -> dict:
    _object(case, path, ("kind", "deals"))
    dpath = path + ("deals",)
    deals = []
    for i, d in enumerate(_list(case["deals"], dpath, 1, 1000, "deals")):
        p = dpath + (i,)
        _object(d, p, ("score", "takers", "made", "belote", "tricks_won"), ("belotes", "held", "melds", "exact_score"))
        deal = {
            "score": _team_ints(d["score"], p + ("score",), 0, 100000),
            # takers null, made null: a thrown-in deal (four passes), for match.throw_ins_count
            "takers": _team_or_null(d["takers"], p + ("takers",)),
            "made": None if d["takers"] is None and d["made"] is None else _bool(d["made"], p + ("made",)),
            "belote": _team_or_null(d["belote"], p + ("belote",)),
            "tricks_won": (None if d["takers"] is None and d["tricks_won"] is None
                           else _tricks_won(d["tricks_won"], p + ("tricks_won",))),
        }
        if d.get("belotes") is not None:
            deal["belotes"] = _belotes(d["belotes"], deal["belote"], p)
        if deal["takers"] is None and deal["tricks_won"] is None:
            _thrown_in(deal, p)
        if d.get("held") is not None and deal["takers"] is None:
            raise CaseError(p + ("held",), "a thrown-in deal (takers null) holds no litige points")
        if d.get("held") is not None:   # extension: a litige's points held back (scoring.litige)
            deal["held"] = _held(d["held"], deal, p + ("held",))
        if d.get("melds") is not None:   # extension: the meld points inside the score (match.both_cross: counting_order)
            deal["melds"] = _team_ints(d["melds"], p + ("melds",), 0, 100000)
            for team in TEAMS:
                if deal["melds"][team] > deal["score"][team]:
                    raise CaseError(p + ("melds", team), f"{deal['melds'][team]}: more meld points than the "
                                                         f"{deal['score'][team]} {team} scored in this deal")
        if d.get("exact_score") is not None:   # extension: the score unrounded (match.last_deal_exact)
            deal["exact_score"] = _team_ints(d["exact_score"], p + ("exact_score",), 0, 100000)
        deals.append(deal)
    return {"kind": "match", "deals": deals}


def _played_match(case: dict, path: tuple) -> dict:
    """Extension: a match given as the whole deals played, each as a deal case (a thrown-in deal: four
    passes and no card)."""
    _object(case, path, ("kind", "deals"))
    dpath = path + ("deals",)
    deals = []
    for i, d in enumerate(_list(case["deals"], dpath, 1, 1000, "deals")):
        p = dpath + (i,)
        if not isinstance(d, dict) or "contract" in d:
            raise CaseError(p, "expected a whole deal: dealer, hands, calls, play (no given contract)")
        deal = _deal(dict(d, kind="deal"), p)
        del deal["kind"]
        deals.append(deal)
    return {"kind": "played_match", "deals": deals}


def _thrown_in(deal: dict, path: tuple) -> None:
    """A thrown-in deal (four passes: takers and tricks_won null) plays no card and scores nothing."""
    for team in TEAMS:
        if deal["score"][team]:
            raise CaseError(path + ("score", team), f"{deal['score'][team]}: a thrown-in deal (takers and "
                                                    "tricks_won null) scores nothing, 0 to 0")
    if deal["belote"] is not None:
        raise CaseError(path + ("belote",), f"{deal['belote']}: no card is played in a thrown-in deal "
                                            "(takers and tricks_won null), so no belote")


def _held(value: Any, deal: dict, path: tuple) -> dict:
    """The points a litige held back in this deal: the takers' only, in a deal not made."""
    held = _team_ints(value, path, 0, 100000)
    other = "EW" if deal["takers"] == "NS" else "NS"
    if held[other]:
        raise CaseError(path + (other,), f"{held[other]}: only the takers' points are held back in a litige, "
                                         f"and {other} defended")
    if held[deal["takers"]] and deal["made"]:
        raise CaseError(path, "a deal whose points are held back (a litige) is not made: made must be false")
    return held


def _dealing(case: dict, path: tuple) -> dict:
    _object(case, path, ("kind", "dealer", "deck", "cut"), ("packets",))
    out = {"kind": "dealing", "dealer": _seat(case["dealer"], path + ("dealer",)),
           "deck": _cards(case["deck"], path + ("deck",), 32, 32),
           "cut": _int(case["cut"], path + ("cut",), 0, 32)}
    if case.get("packets") is not None:
        ppath = path + ("packets",)
        out["packets"] = [_int(n, ppath + (i,), 1, 8)
                          for i, n in enumerate(_list(case["packets"], ppath, 1, 8, "packet sizes"))]
    return out


def _perft(case: dict, path: tuple) -> dict:
    _object(case, path, ("kind", "strain", "leader", "hands", "depth"))
    hands = _hands(case["hands"], path + ("hands",), None)
    from ..engine.play import PERFT_MAX_SEQUENCES, perft_bound
    total = sum(len(h) for h in hands.values())
    depth = _int(case["depth"], path + ("depth",), 0, total)
    if perft_bound(max(len(h) for h in hands.values()), depth) > PERFT_MAX_SEQUENCES:
        raise CaseError(path + ("depth",), f"{depth} cards from {max(len(h) for h in hands.values())} each may be "
                                           f"more than {PERFT_MAX_SEQUENCES:,} sequences, the most a perft may "
                                           "ask for (docs/limits.md)")
    return {"kind": "perft", "strain": _strain(case["strain"], path + ("strain",)),
            "leader": _seat(case["leader"], path + ("leader",)), "hands": hands, "depth": depth}


_CANONICAL = {"legal_cards": _legal_cards, "auction": _auction, "deal": _deal, "score": _score,
              "melds": _melds, "match": _match, "dealing": _dealing, "perft": _perft,
              "played_match": _played_match}


def case_kind(case: Any, path: tuple = ("case",)) -> str:
    if not isinstance(case, dict):
        raise CaseError(path, f"expected an object with a kind, got {_type_name(case)}")
    if "kind" not in case:
        raise CaseError(path, "missing field 'kind'")
    kind = case["kind"]
    if kind not in _CANONICAL:
        raise CaseError(path + ("kind",), f"unknown kind {kind!r} (expected one of {', '.join(KINDS)})")
    return kind


def canonicalise(case: Any, path: tuple = ("case",)) -> dict:
    """The case checked field by field and written in canonical notation."""
    return _CANONICAL[case_kind(case, path)](case, path)


# --- computing a result with the reference engine -----------------------------

def _mask(cards: list[str]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << parse_card(c)
    return mask


def _names(cards) -> list[str]:
    return [card_name(c) for c in sorted(cards)]


def _mask_names(mask: int) -> list[str]:
    return [card_name(i) for i in range(32) if mask >> i & 1]


def _run_legal_cards(rules, case: dict) -> dict:
    from ..engine.play import legal_cards
    trick = [(t["seat"], parse_card(t["card"])) for t in case["trick"]]
    mask = legal_cards(rules, case["strain"], case["seat"], _mask(case["hand"]), trick)
    return {"legal": _mask_names(mask)}


def _run_auction(rules, case: dict) -> dict:
    from ..engine.auction import replay
    calls = [(c["seat"], parse_call(c["call"])) for c in case["calls"]]
    accepted, auction, reason = replay(rules, case["dealer"], calls)
    contract = auction.contract if auction.state == "contract" else None
    out = {"accepted": accepted, "state": auction.state,
           "to_act": auction.to_act if auction.state == "open" else None,
           "contract": contract.to_json() if contract is not None else None}
    if reason:
        out["reason"] = reason
    return out


def _run_deal(rules, case: dict) -> dict:
    from ..engine.game import run_deal_case
    hands = {seat: _mask(cards) for seat, cards in case["hands"].items()}
    calls = [(c["seat"], parse_call(c["call"])) for c in case["calls"]]
    plays = [{"seat": p["seat"], "card": parse_card(p["card"]),
              "melds": [[parse_card(c) for c in m] for m in p["melds"]] if "melds" in p else None,
              "say": p.get("say")} for p in case["play"]]
    forgiven = tuple(case.get("rebelote_forgiven", ()))
    if "contract" in case:
        from ..engine.game import calls_for_contract
        calls = calls_for_contract(rules, case["dealer"], hands, parse_contract(case["contract"]))
        if calls is None:
            raise CaseError(("case", "contract"), "no auction of this rule set ends in this contract")
        result = run_deal_case(rules, case["dealer"], hands, calls, plays, forgiven)
        result["accepted"]["calls"] = 0    # no call was given: the auction was skipped
        return result
    return run_deal_case(rules, case["dealer"], hands, calls, plays, forgiven)


def _run_score(rules, case: dict) -> dict:
    from ..engine.scoring import belote_dict, score_deal
    contract = parse_contract(case["contract"])
    by_seat = case.get("tricks_won_by_seat")
    belote = case["belote"]
    if "belotes" in case:   # points per side: each belote is worth what one is in this contract
        each = belote_dict(rules, contract.strain, "NS")["NS"]
        belote = {team: each * n for team, n in case["belotes"].items()}
    result = score_deal(rules, contract, dict(case["trick_points"]), dict(case["tricks_won"]),
                        case["last_trick"], dict(case["melds"]), belote,
                        tricks_by_seat=dict(by_seat) if by_seat is not None else None)
    # scoring.belote_dict turns the team into points, and gives none where the rule set has no
    # belote for this contract (belote not played, sans atout, tout atout without each_suit)
    return result.to_json()


def _run_melds(rules, case: dict) -> dict:
    from ..engine.melds import compare
    declared = {seat: [[parse_card(c) for c in m] for m in melds] for seat, melds in case["declared"].items()}
    leader = case.get("leader")
    result = compare(rules, case["strain"], declared, None, leader,
                     compiled_rules(rules).table.direction if leader else None)
    return {"winner": result.winner, "points": dict(result.points),
            "invalid": [[card_name(c) if isinstance(c, int) else c for c in m] for m in result.invalid]}


def _run_match(rules, case: dict) -> dict:
    from ..engine.match import run_match
    result = run_match(rules, [dict(d) for d in case["deals"]])
    return result.to_json()


def match_deal(result: dict) -> dict:
    """What a match records of one played deal (a ``match`` case's deal), from the deal's result."""
    if result["contract"] is None:        # all four passed: a thrown-in deal
        return {"score": {"NS": 0, "EW": 0}, "takers": None, "made": None, "belote": None, "tricks_won": None}
    out = {"score": result["score"], "takers": team_of(result["contract"]["declarer"]), "made": result["made"],
           "belote": result["belote"], "tricks_won": result["tricks_won"]}
    for extra in ("held", "belotes"):
        if result.get(extra) is not None:
            out[extra] = result[extra]
    return out


def _run_played_match(rules, case: dict) -> dict:
    deals = []
    for i, deal in enumerate(case["deals"]):
        result = _run_deal(rules, dict(deal, kind="deal"))
        if result["contract"] is not None and result["score"] is None:
            why = result.get("reason") or f"only {result['accepted']['plays']} of the 32 cards are played"
            raise CaseError(("case", "deals", i), f"not a whole deal: {why}")
        if result["contract"] is None and result["accepted"]["calls"] < len(deal["calls"]):
            raise CaseError(("case", "deals", i), f"not a whole deal: {result.get('reason')}")
        deals.append(match_deal(result))
    return _run_match(rules, {"kind": "match", "deals": deals})


def _run_dealing(rules, case: dict) -> dict:
    from ..engine.dealing import deal
    from ..engine.errors import DealingRejected
    deck = [parse_card(c) for c in case["deck"]]
    try:
        hands = deal(rules, case["dealer"], deck, case["cut"], case.get("packets"))
    except DealingRejected as exc:
        return {"rejected": str(exc) or "rejected"}
    out = {"hands": {seat: [card_name(c) for c in hands[seat]] for seat in SEATS}}
    c = compiled_rules(rules)
    if c.deal.packets_after_auction:      # extension: the cards each seat bids on
        n = c.cards_before_auction(case.get("packets"))
        out["before_auction"] = {seat: cards[:n] for seat, cards in out["hands"].items()}
    return out


def _run_perft(rules, case: dict) -> dict:
    from ..engine.play import perft
    hands = {seat: _mask(cards) for seat, cards in case["hands"].items()}
    return {"count": perft(rules, case["strain"], case["leader"], hands, case["depth"])}


_RUN = {"legal_cards": _run_legal_cards, "auction": _run_auction, "deal": _run_deal, "score": _run_score,
        "melds": _run_melds, "match": _run_match, "dealing": _run_dealing, "perft": _run_perft,
        "played_match": _run_played_match}


def run_case(rules, case: Any) -> dict:
    """Check the case, then answer it with the engine under ``rules``; results use canonical notation.

    Raises CaseError for a malformed case, or one that names something the
    rule set does not have (see ``check_for_rules``); an engine failure
    propagates (the server turns it into an ``errored`` reply)."""
    return run_canonical(rules, canonicalise(case))


def run_canonical(rules, canonical: dict) -> dict:
    """``run_case`` for a case ``canonicalise`` already returned (many rule sets, one case)."""
    check_for_rules(rules, canonical)
    return _RUN[canonical["kind"]](rules, canonical)


# --- what the case may ask of this rule set -------------------------------------
# ``canonicalise`` knows nothing of the rule set. These checks refuse a case the
# engine could only answer by guessing: a tout atout trick where nobody may bid
# tout atout, a score summary whose trick points do not add up to the pack, a
# trick whose seats do not go round in the rule set's direction of play.
# Breaking the rules during the auction or the play (a 100SA bid where sans atout
# may not be bid, a revoke) is still not bad input: it is the result's business.

STRAIN_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "TA": "tout atout",
                "SA": "sans atout"}


def check_strain_for_rules(rules, strain: str, path: tuple) -> None:
    """A sans atout or tout atout contract only where the rule set lets it be bid."""
    if not compiled_rules(rules).strain_allowed(strain):
        flag = {"TA": "tout_atout", "SA": "sans_atout"}[strain]
        raise CaseError(path, f"this rule set has no {STRAIN_WORDS[strain]} contract "
                              f"(auction.strains.{flag} is false)")


def card_total(rules, strain: str) -> int:
    """What the 32 cards are worth in tricks, before the last-trick bonus: 152 with the usual tables."""
    return compiled_rules(rules).card_total(strain)


def _check_contract_for_rules(rules, contract: dict, path: tuple) -> None:
    c = compiled_rules(rules)
    auction = c.auction
    strain = contract["strain"]
    check_strain_for_rules(c, strain, path + ("strain",))
    value = contract["value"]
    if value == "capot":
        if not auction.capot.allowed:
            raise CaseError(path + ("value",), "this rule set has no capot bid (auction.capot.allowed is false)")
    elif value == "generale":
        if not auction.generale.allowed:
            raise CaseError(path + ("value",), "this rule set has no générale (auction.generale.allowed is false)")
    elif c.bid_fault(value) is not None:
        raise CaseError(path + ("value",), f"{value} is not a bid of this rule set (bids go "
                                           f"{c.bids_in_words()})")
    multiplier = contract["multiplier"]
    allowed = c.multipliers
    if multiplier not in allowed:
        said = ", ".join(f"{m} {why}" for m, why in sorted(allowed.items()))
        raise CaseError(path + ("multiplier",), f"{multiplier} is not a multiplier of this rule set ({said})")
    doubling = contract.get("doubling")
    if doubling is not None and doubling != doubling_for(multiplier, auction.coinche.multiplier):
        raise CaseError(path + ("doubling",), f"{doubling}: a multiplier of {multiplier} in this rule set means "
                                              f"{doubling_for(multiplier, auction.coinche.multiplier)} "
                                              f"(coinche x{auction.coinche.multiplier}"
                                              + (f", surcoinche x{auction.surcoinche.multiplier})"
                                                 if auction.surcoinche.allowed else ", no surcoinche)"))
    lowest = auction.coinche.minimum_bid
    if isinstance(value, int) and multiplier != 1 and lowest is not None and value < lowest:
        raise CaseError(path + ("multiplier",), f"{multiplier}: a bid below {lowest} may not be coinched in this "
                                                "rule set (auction.coinche.minimum_bid)")
    if value == "capot" and multiplier != 1 and not auction.capot.may_be_coinched:
        raise CaseError(path + ("multiplier",), f"{multiplier}: a capot bid may not be coinched in this rule set "
                                                "(auction.capot.may_be_coinched is false)")
    if value == "generale" and multiplier != 1 and not auction.capot.may_be_coinched:
        raise CaseError(path + ("multiplier",), f"{multiplier}: a générale may not be coinched in this rule set "
                                                "(it follows the capot, and auction.capot.may_be_coinched is false)")


def _check_score_for_rules(rules, case: dict, path: tuple) -> None:
    contract = case["contract"]
    _check_contract_for_rules(rules, contract, path + ("contract",))
    points, won = case["trick_points"], case["tricks_won"]
    for team in TEAMS:
        if won[team] == 0 and points[team] != 0:
            raise CaseError(path + ("trick_points", team), f"{team} took no trick, so it has no trick points, "
                                                           f"got {points[team]}")
    total = card_total(rules, contract["strain"])
    if points["NS"] + points["EW"] != total:
        raise CaseError(path + ("trick_points",),
                        f"{points['NS']} + {points['EW']} = {points['NS'] + points['EW']}, but the cards of a "
                        f"{STRAIN_WORDS[contract['strain']]} contract are worth {total} in this rule set")
    melds = case["melds"]
    c = compiled_rules(rules)
    if not c.melds.enabled:
        for team in TEAMS:
            if melds[team]:
                raise CaseError(path + ("melds", team),
                                f"{melds[team]}: this rule set has no melds (melds.enabled is false)")
    if melds["NS"] and melds["EW"] and c.melds.sides_scoring == "best_side":
        raise CaseError(path + ("melds",), f"both sides score melds (NS {melds['NS']}, EW {melds['EW']}); "
                                           "after the comparison only one side can (melds.sides_scoring is best_side)")


def check_play_order(rules, case: dict, path: tuple = ("case",)) -> None:
    """A legal_cards trick is played in the rule set's direction and the player to act comes next.

    The reference engine reads the seats only to tell the partner from the opponents, but an
    engine that plays from a game loop can only reach a position some deal reaches: a trick
    N, E then S to act exists clockwise, never anticlockwise (where W follows N)."""
    direction = compiled_rules(rules).table.direction
    trick = case["trick"]
    order = [t["seat"] for t in trick] + [case["seat"]]
    for i in range(1, len(order)):
        after = next_seat(order[i - 1], direction)
        if order[i] != after:
            where = path + ("trick", i, "seat") if i < len(trick) else path + ("seat",)
            last = "" if i < len(trick) else " (the last to play to the trick)"
            raise PlayOrderError(where, f"under this rule set's direction of play ({direction}) {after} plays "
                                        f"after {order[i - 1]}{last}, not {order[i]}")


def check_for_rules(rules, case: dict, path: tuple = ("case",)) -> None:
    """Refuse a canonical case that names what this rule set does not have, or a trick it cannot
    reach; raises CaseError."""
    kind = case["kind"]
    if kind in ("legal_cards", "perft", "melds"):
        check_strain_for_rules(rules, case["strain"], path + ("strain",))
    if kind == "legal_cards":
        check_play_order(rules, case, path)
    elif kind == "score":
        _check_score_for_rules(rules, case, path)
    elif kind == "deal" and "contract" in case:
        _check_contract_for_rules(rules, case["contract"], path + ("contract",))
    elif kind == "match":
        for i, deal in enumerate(case["deals"]):
            if any(deal.get("held", {}).values()) and compiled_rules(rules).scoring.litige != "takers_points_held":
                raise CaseError(path + ("deals", i, "held"), "this rule set holds no litige's points back "
                                                             "(scoring.litige is not takers_points_held)")
