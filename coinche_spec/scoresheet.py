"""``coinche-spec score``: score a deal played at a real table, under a chosen rule set.

The table tells what it counted (the contract and its doubling, the card
points in the takers' tricks, who took the last trick, the melds that scored,
who held the belote) and gets each side's score with the arithmetic, in the
words the rules pages use for their worked examples. The judging and the
arithmetic are the engine's (``engine.scoring.score_deal``); this module only
reads the options, checks them against the rule set, and prints.
"""

from __future__ import annotations

import json
import re

from .docsgen.examples import SEAT_NAMES, TEAM_NAMES, _tricks
from .docsgen.templates import STRAIN_WORDS
from .notation import SEATS, Contract, NotationError, other_team, parse_call, parse_seat, team_of
from .variants.compiled import compiled_rules

_STRAIN_ALIASES = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C", "pique": "S", "piques": "S",
                   "coeur": "H", "cœur": "H", "coeurs": "H", "carreau": "D", "carreaux": "D", "trefle": "C",
                   "trèfle": "C", "trefles": "C", "trèfles": "C", "toutatout": "TA", "sansatout": "SA",
                   "tout-atout": "TA", "sans-atout": "SA"}


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "score", help="score a real deal: contract, card points, melds, belote",
        description="Score one deal played at the table under a rule set: give the contract, the card points "
                    "in the takers' tricks and who took the last trick, the melds that scored and who held the "
                    "belote; each side's score is printed with its arithmetic.")
    p.add_argument("--variant", required=True, metavar="ID|FILE", help="the rule set: an id or a variant file")
    p.add_argument("--contract", required=True, metavar="BID",
                   help='the contract: "90H", "90 hearts", "capot S", optionally "... by N"')
    p.add_argument("--taker", metavar="SEAT", help="the declarer (N, E, S or W), unless the contract says 'by N'")
    p.add_argument("--coinche", action="store_true", help="the contract was coinched")
    p.add_argument("--surcoinche", action="store_true", help="the contract was coinched and surcoinched")
    p.add_argument("--doubling", metavar="M",
                   help="the doubling as a word (none, coinche, surcoinche) or the multiplier (1, 2, 3, 4)")
    p.add_argument("--points", required=True, metavar="N",
                   help="the card points in the takers' tricks, without the last-trick bonus")
    p.add_argument("--last-trick", metavar="SIDE",
                   help="who took the last trick: takers or defenders (or NS, EW); not needed with "
                        "--tricks 0 or 8")
    p.add_argument("--tricks", metavar="N",
                   help="the tricks the takers took, 0 to 8 (default: neither side took all eight; "
                        "required for a capot or générale contract)")
    p.add_argument("--partner-tricks", metavar="N", default="0",
                   help="for a générale: the tricks the declarer's partner took (default 0)")
    p.add_argument("--melds", action="append", default=[], metavar="SIDE=N",
                   help="the melds that scored for a side after the comparison, e.g. takers=50 or EW=20 "
                        "(repeat for both sides)")
    p.add_argument("--belote", action="append", default=[], metavar="SIDE",
                   help="the side that held (and, where the rules want it, said) the belote: takers, "
                        "defenders, NS or EW (repeat for a second belote in tout atout)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


def _fail(option: str, message: str):
    from .errors import UserError
    return UserError(f"{option}: {message}")


MAX_MELDS = 10_000   # points of one --melds: far above what a side's melds score in one deal


def _whole(option: str, text, low: int, high: int | None = None) -> int:
    try:
        value = int(str(text).strip())
    except ValueError:
        raise _fail(option, f"expected a whole number, got {text!r}") from None
    if value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise _fail(option, f"expected a whole number {span}, got {value}")
    return value


def parse_contract_text(text: str, taker: str | None) -> tuple:
    """The bid (a Call) and the declarer from ``--contract`` and ``--taker``."""
    t = text.strip()
    by = re.match(r"^(.*?)\s+by\s+(\S+)$", t, flags=re.I)
    seat = None
    if by:
        t = by.group(1)
        try:
            seat = parse_seat(by.group(2))
        except NotationError as exc:
            raise _fail("--contract", str(exc)) from None
    if taker is not None:
        try:
            given = parse_seat(taker)
        except NotationError as exc:
            raise _fail("--taker", str(exc)) from None
        if seat is not None and seat != given:
            raise _fail("--taker", f"{given} contradicts the contract's 'by {seat}'")
        seat = given
    if seat is None:
        raise _fail("--taker", "say who took the contract: --taker N (or --contract \"90H by N\")")
    words = t.split()
    if words and words[-1].lower() in _STRAIN_ALIASES:
        words[-1] = _STRAIN_ALIASES[words[-1].lower()]
    elif len(words) >= 2 and (words[-2] + words[-1]).lower() in _STRAIN_ALIASES:
        words[-2:] = [_STRAIN_ALIASES[(words[-2] + words[-1]).lower()]]
    try:
        call = parse_call(" ".join(words))
    except NotationError as exc:
        raise _fail("--contract", str(exc)) from None
    if call.kind != "bid":
        raise _fail("--contract", f"expected a bid such as 90H, got {text!r}")
    return call, seat


def _check_bid(rules, call, seat: str):
    """The rule set's own answer to whether the bid could open an auction (value, step, strain, capot)."""
    from .engine.auction import Auction
    for dealer in SEATS:
        auction = Auction.start(rules, dealer)
        if auction.to_act == seat:
            reason = auction.check(seat, call)
            if reason:
                raise _fail("--contract", f"{call} is not a bid of this rule set: {reason}")
            return


def _multiplier(rules, args, call) -> int:
    chosen = [name for name, on in (("--coinche", args.coinche), ("--surcoinche", args.surcoinche),
                                    ("--doubling", args.doubling is not None)) if on]
    if len(chosen) > 1:
        raise _fail(chosen[1], f"give the doubling once (also given: {chosen[0]})")
    c = compiled_rules(rules)
    words = {"not doubled": "none", "coinched": "coinche", "surcoinched": "surcoinche"}
    word = "none"
    if args.coinche:
        word = "coinche"
    elif args.surcoinche:
        word = "surcoinche"
    elif args.doubling is not None:
        d = str(args.doubling).strip().lower()
        if d in ("none", "coinche", "surcoinche"):
            word = d
        else:
            m = _whole("--doubling", d, 1)
            if m not in c.multipliers:
                raise _fail("--doubling", f"{m} is no multiplier of this rule set (expected one of "
                                          f"{', '.join(str(k) for k in sorted(c.multipliers))})")
            word = words[c.multipliers[m]]
    option = chosen[0] if chosen else "--doubling"
    a = c.auction
    if word != "none" and call.value == "capot" and not a.capot.may_be_coinched:
        raise _fail(option, "a capot bid cannot be coinched under this rule set")
    if word == "surcoinche":
        if not c.surcoinche_possible:
            raise _fail(option, "this rule set plays no surcoinche")
        return a.surcoinche.multiplier
    return a.coinche.multiplier if word == "coinche" else 1


def _side(option: str, text: str, takers: str) -> str:
    t = text.strip().lower()
    if t in ("takers", "taker", "attack"):
        return takers
    if t in ("defenders", "defender", "defence", "defense"):
        return other_team(takers)
    if t.upper() in ("NS", "SN"):
        return "NS"
    if t.upper() in ("EW", "WE"):
        return "EW"
    raise _fail(option, f"expected takers, defenders, NS or EW, got {text!r}")


def score_table(variant, args) -> dict:
    """Check the options against the rule set and score the deal with the engine; the result as a dict."""
    from .engine import scoring
    from .engine.errors import EngineError
    rules = variant.rules
    call, declarer = parse_contract_text(args.contract, args.taker)
    _check_bid(rules, call, declarer)
    mult = _multiplier(rules, args, call)
    contract = Contract(call.value, call.strain, declarer, mult)
    takers, defenders = contract.takers, contract.defenders
    total = compiled_rules(rules).card_total(call.strain)
    points = _whole("--points", args.points, 0, total)
    if args.tricks is None:
        if call.value in ("capot", "generale"):
            raise _fail("--tricks", f"a {'capot' if call.value == 'capot' else 'générale'} contract is judged "
                                    "on the tricks: say how many the takers took")
        tricks = None
    else:
        tricks = _whole("--tricks", args.tricks, 0, 8)
    if args.last_trick is not None:
        last = _side("--last-trick", args.last_trick, takers)
        if tricks == 0 and last == takers:
            raise _fail("--last-trick", "the takers took no trick, so not the last one")
        if tricks == 8 and last == defenders:
            raise _fail("--last-trick", "the takers took all eight tricks, the last one among them")
    elif tricks in (0, 8):
        last = takers if tricks == 8 else defenders
    else:
        raise _fail("--last-trick", "say who took the last trick: takers or defenders")
    if tricks is None:
        tricks = 4        # neither side took all eight: any other count scores the same
    if tricks == 0 and points:
        raise _fail("--points", f"the takers took no trick, so no card points (got {points})")
    if tricks == 8 and points != total:
        raise _fail("--points", f"the takers took all eight tricks, so all {total} card points (got {points})")
    melds = {"NS": 0, "EW": 0}
    for item in args.melds:
        side, sep, amount = item.partition("=")
        if not sep:
            raise _fail("--melds", f"expected SIDE=N such as takers=50, got {item!r}")
        if not rules.melds.enabled:
            raise _fail("--melds", "this rule set plays no melds")
        melds[_side("--melds", side, takers)] += _whole("--melds", amount, 0, MAX_MELDS)
    belote = {"NS": 0, "EW": 0}
    for item in args.belote:
        side = _side("--belote", item, takers)
        got = scoring.belote_dict(rules, call.strain, side)[side]
        if not got:
            raise _fail("--belote", "this rule set plays no belote" if not rules.belote.enabled else
                        f"no belote is scored in {STRAIN_WORDS[call.strain]} under this rule set")
        belote[side] += got
    if len(args.belote) > 1 and not (call.strain == "TA" and rules.belote.tout_atout == "each_suit"):
        raise _fail("--belote", "only one belote is held in a deal under this rule set")
    by_seat = None
    if call.value == "generale":
        mate_tricks = _whole("--partner-tricks", args.partner_tricks, 0, tricks)
        mate = {"N": "S", "S": "N", "E": "W", "W": "E"}[declarer]
        by_seat = {s: 0 for s in SEATS}
        by_seat[declarer] = tricks - mate_tricks
        by_seat[mate] = mate_tricks
        opp = [s for s in SEATS if team_of(s) == defenders]
        by_seat[opp[0]] = 8 - tricks
    trick_points = {takers: points, defenders: total - points}
    tricks_won = {takers: tricks, defenders: 8 - tricks}
    try:
        result = scoring.score_deal(rules, contract, trick_points, tricks_won, last, melds, belote,
                                    tricks_by_seat=by_seat)
    except EngineError as exc:
        from .errors import UserError
        raise UserError(f"variant {variant.id}: {exc}") from None
    return {"variant": variant.id, "contract": contract.to_json(), "takers": takers,
            "trick_points": trick_points,
            # not given: neither side took all eight (the score is the same for any other count)
            "tricks_won": tricks_won if args.tricks is not None else None, "last_trick": last,
            "melds": melds, "belote": belote, "made": result.made,
            "card_points": dict(result.card_points), "score": dict(result.score), "lines": list(result.lines)}


def describe(variant, out: dict) -> str:
    """The deal and its score in the words of the rules pages' worked examples."""
    c = out["contract"]
    takers = out["takers"]
    defenders = other_team(takers)
    value = "capot" if c["value"] == "capot" else "a générale" if c["value"] == "generale" else str(c["value"])
    doubled = ""
    if c["multiplier"] > 1:
        word = compiled_rules(variant.rules).multipliers.get(c["multiplier"], "surcoinched")
        doubled = f", {word} (× {c['multiplier']})"
    tp, tw = out["trick_points"], out["tricks_won"]
    lines = [f"{variant.document.get('name', variant.id)} [{variant.id}]",
             f"{SEAT_NAMES[c['declarer']]} bids {value} {STRAIN_WORDS[c['strain']]}{doubled}; "
             f"{TEAM_NAMES[takers]} are the takers.",
             (f"They take {_tricks(tw[takers])} holding {tp[takers]} points of cards; "
              f"{TEAM_NAMES[defenders]} take {_tricks(tw[defenders])} and the other {tp[defenders]}; "
              if tw is not None else
              f"They hold {tp[takers]} points of cards in their tricks, {TEAM_NAMES[defenders]} {tp[defenders]}; ")
             + f"{TEAM_NAMES[out['last_trick']]} took the last trick."]
    extras = [f"{TEAM_NAMES[t]}'s melds score {out['melds'][t]}" for t in ("NS", "EW") if out["melds"][t]]
    extras += [f"{TEAM_NAMES[t]} hold the belote" for t in ("NS", "EW") if out["belote"][t]]
    if extras:
        lines.append("; ".join(extras) + ".")
    lines.append("")
    lines.extend(f"  {line}" for line in out["lines"])
    lines.append("")
    verdict = "is made" if out["made"] else "fails"
    lines.append(f"The contract {verdict}: {TEAM_NAMES[takers]} score {out['score'][takers]}, "
                 f"{TEAM_NAMES[defenders]} score {out['score'][defenders]}.")
    return "\n".join(lines)


def run(args) -> int:
    from .errors import UserError
    from .variants import VariantError
    from .variants.cli import variant_for
    try:
        variant = variant_for(args.variant)
    except VariantError as exc:
        raise UserError("\n".join(exc.lines) or str(exc)) from None  # every problem, one line each
    out = score_table(variant, args)
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(describe(variant, out))
    return 0
