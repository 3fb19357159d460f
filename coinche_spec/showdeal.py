"""``coinche-spec deal``: play one legal deal and print it the way a player reads it.

The players are the random ones (every choice drawn among the legal ones) or
the simple, plausible ones of ``engine.players`` (``--players simple``).

The hands with suit symbols, the auction call by call, each trick with who
led and who won it, the melds and the belote, then the score with the
arithmetic that produced it. The same seed gives the same deal.
"""

from __future__ import annotations

import random

from .notation import SEATS, SUIT_SYMBOLS, SUITS, next_seat, pretty_card, team_of
from .variants.compiled import compiled_rules

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
STRAIN_NAMES = {"S": "spades ♠", "H": "hearts ♥", "D": "diamonds ♦", "C": "clubs ♣",
                "TA": "tout atout", "SA": "sans atout"}
# Strongest first, for showing a hand: A 10 K Q J 9 8 7 as rank indices.
_SHOW_ORDER = (7, 3, 6, 5, 4, 2, 1, 0)


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "deal", help="play a legal deal (random or simple players) and print it",
        description="Play one legal deal under a rule set and print the hands, the auction, "
                    "every trick, the melds and belote, and the score with its arithmetic.")
    p.add_argument("--variant", required=True, metavar="ID",
                   help="a shipped or house variant id (or a variant file)")
    p.add_argument("--seed", type=int, default=None, help="random seed: the same seed plays the same deal")
    p.add_argument("--dealer", choices=SEATS, default=None, help="the dealer (default: drawn with the seed)")
    p.add_argument("--players", choices=("random", "simple"), default="random",
                   help="random: any legal call and card; simple: plausible players who count their "
                        "hands and play sensible cards (default: random)")
    p.add_argument("--batch", type=int, default=None, metavar="N",
                   help="play N random deals with the batch engine (numpy) and print their statistics")
    p.add_argument("--json", action="store_true", help="with --batch: one JSON object, for scripts")
    p.set_defaults(func=run)


def run(args) -> int:
    from .errors import UserError
    from .engine.errors import EngineError
    from .engine.players import simple_deal
    from .engine.random_play import random_deal
    from .variants import VariantError
    from .variants.cli import variant_for

    try:
        variant = variant_for(args.variant)
    except VariantError as exc:
        raise UserError("\n".join(exc.lines) or str(exc)) from None  # every problem, one line each
    if args.batch is not None or args.json:
        if args.players != "random":
            raise UserError("--batch plays random players only: the simple players are not vectorised yet")
        from .batch.cli import run_batch
        return run_batch(args, variant)
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    try:
        play = simple_deal if args.players == "simple" else random_deal
        deal = play(variant.rules, random.Random(seed), dealer=args.dealer)
    except EngineError as exc:  # e.g. a rule the engine does not play (the générale)
        raise UserError(f"variant {variant.id}: {exc}") from None
    print(render(deal, variant, seed))
    return 0


def hand_text(mask: int) -> str:
    """A hand suit by suit, strongest card first: ``♠ A 10 7   ♥ J 9   ♦ —   ♣ K Q 8``."""
    parts = []
    for s, suit in enumerate(SUITS):
        ranks = [pretty_card(s * 8 + r)[:-1] for r in _SHOW_ORDER if mask >> (s * 8 + r) & 1]
        parts.append(f"{SUIT_SYMBOLS[suit]} " + (" ".join(ranks) if ranks else "—"))
    return "   ".join(parts)


def _contract_text(contract, rules) -> str:
    value = "capot" if contract.is_capot else str(contract.value)
    m = contract.multiplier
    word = compiled_rules(rules).multipliers.get(m, "surcoinched")
    doubled = "" if m == 1 else f", {word} (× {m})"
    return (f"{value} {STRAIN_NAMES[contract.strain]} by {SEAT_NAMES[contract.declarer]} "
            f"({contract.takers} are the takers){doubled}")


def render(deal, variant, seed) -> str:
    """The whole deal as text for a person."""
    rules = variant.rules
    name = variant.document.get("name", variant.id)
    out = [f"{name} [{variant.id}], seed {seed}; dealer {SEAT_NAMES[deal.dealer]}, "
           f"play {rules.table.direction}", ""]
    out.append("Hands")
    for seat in SEATS:
        out.append(f"  {SEAT_NAMES[seat]:<6} {team_of(seat)}   {hand_text(deal.hands[seat])}")
    out.append("")
    out.append("Auction")
    for seat, call in deal.calls:
        out.append(f"  {SEAT_NAMES[seat]:<6} {_call_text(call)}")
    if deal.phase == "redeal":
        out.append("  all four passed: the cards are thrown in")
        return "\n".join(out)
    if deal.phase == "auction":
        out.append("  (the auction did not finish)")
        return "\n".join(out)
    out.append(f"  contract: {_contract_text(deal.contract, rules)}")
    out.append("")
    out.append("Tricks")
    says = {(seat, card): say for seat, card, say in deal.log if say}
    direction = rules.table.direction
    for i, (leader, winner, cards) in enumerate(deal.tricks(), 1):
        seat = leader
        shown = []
        for card in cards:
            word = says.get((seat, card))
            shown.append(f"{seat} {pretty_card(card)}" + (f" “{word}”" if word else ""))
            seat = next_seat(seat, direction)
        out.append(f"  {i}. {SEAT_NAMES[leader]} leads: " + ", ".join(shown)
                   + f"  → {SEAT_NAMES[winner]} ({team_of(winner)})")
    if deal.phase != "done":
        return "\n".join(out)
    o = deal.outcome()
    out.append("")
    declared = [(s, ms) for s, ms in deal.declared.items() if ms]
    if declared:
        out.append("Melds declared with the first card")
        for seat, ms in declared:
            out.append(f"  {SEAT_NAMES[seat]:<6} " + "; ".join(" ".join(pretty_card(c) for c in m) for m in ms))
        mr = o.meld_result
        for seat in SEATS:
            for meld in mr.valid.get(seat, []):
                out.append(f"    {SEAT_NAMES[seat]}: {meld.describe()}")
        out.append(f"  {mr.reason}: NS {o.melds['NS']}, EW {o.melds['EW']}")
    elif rules.melds.enabled:
        out.append("Melds: none declared")
    if o.invalid_melds:
        out.append("  scoring nothing: " + "; ".join(" ".join(pretty_card(c) for c in m) for m in o.invalid_melds))
    holders = [t for t in ("NS", "EW") if o.belote_points[t]]
    if holders:
        out.append("Belote: " + ", ".join(f"{t} {o.belote_points[t]}" for t in holders))
    elif rules.belote.enabled:
        out.append("Belote: none")
    out.append(f"Tricks won: NS {o.tricks_won['NS']}, EW {o.tricks_won['EW']}; "
               f"last trick {o.last_trick}")
    out.append("")
    out.append("Score: the contract " + ("is made" if o.made else "fails"))
    for line in o.lines:
        out.append(f"  {line}")
    out.append(f"  recorded: NS {o.score['NS']}, EW {o.score['EW']}")
    return "\n".join(out)


def _call_text(call) -> str:
    if call.kind != "bid":
        return call.kind
    value = "capot" if call.value == "capot" else str(call.value)
    return f"{value} {STRAIN_NAMES[call.strain]}"
