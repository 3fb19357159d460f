"""``coinche-spec deal``: play one random legal deal and print it as a player reads it."""

from __future__ import annotations

import random

from .notation import SEATS, SUIT_SYMBOLS, SUITS, card_suit, pretty_card, team_of

_SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "deal", help="play a random legal deal and print it",
        description="Play one random legal deal under a rule set and print the hands, the auction, "
                    "every trick, melds and belote, and the score with its arithmetic.")
    p.add_argument("--variant", required=True, metavar="ID|FILE", help="a shipped variant id or a variant file")
    p.add_argument("--seed", type=int, default=None, help="random seed (same seed, same deal)")
    p.add_argument("--dealer", choices=SEATS, default=None, help="the dealer (default: random)")
    p.set_defaults(func=run)


def run(args) -> int:
    from .cli import UserError
    from .engine.random_play import random_deal
    from .variants import VariantError, load_variant

    try:
        variant = load_variant(args.variant)
    except VariantError as exc:
        raise UserError(str(exc)) from None
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    deal = random_deal(variant.rules, random.Random(seed), dealer=args.dealer)
    print(render(deal, variant, seed))
    return 0


def _hand_lines(mask_cards: list[int]) -> list[str]:
    lines = []
    for suit in SUITS:
        cards = [c for c in mask_cards if card_suit(c) == suit]
        cards.sort(key=lambda c: -(c % 8))
        lines.append(f"{SUIT_SYMBOLS[suit]} " + (" ".join(pretty_card(c)[:-1] for c in cards) or "—"))
    return lines


def render(deal, variant, seed) -> str:
    from .engine.masks import cards_of

    out = [f"{variant.document['name']} ({variant.id}) — seed {seed}, dealer {_SEAT_NAMES[deal.dealer]}", ""]
    out.append("Hands")
    for seat in SEATS:
        out.append(f"  {_SEAT_NAMES[seat]:<6} ({team_of(seat)})  " + "   ".join(_hand_lines(cards_of(deal.hands[seat]))))
    out.append("")
    out.append("Auction")
    for seat, call in deal.calls:
        out.append(f"  {_SEAT_NAMES[seat]:<6} {call}")
    if deal.phase == "redeal":
        out.append("  everybody passed: the cards are thrown in")
        return "\n".join(out)
    contract = deal.contract
    mult = {1: "", 2: " coinched", 3: " surcoinched", 4: " surcoinched"}.get(contract.multiplier, f" x{contract.multiplier}")
    out.append(f"  contract: {contract.value} {contract.strain} by {_SEAT_NAMES[contract.declarer]}"
               f" ({contract.takers}){mult}, multiplier {contract.multiplier}")
    out.append("")
    out.append("Tricks")
    says = {(s, c): say for s, c, say in deal.log if say}
    for i, (leader, winner, cards) in enumerate(deal.play.tricks, 1):
        seat = leader
        shown = []
        order = []
        for c in cards:
            order.append(seat)
            seat = _next(seat, variant.rules.table.direction)
        for s, c in zip(order, cards):
            word = says.get((s, c))
            shown.append(f"{s} {pretty_card(c)}" + (f" ({word})" if word else ""))
        out.append(f"  {i}. " + ", ".join(shown) + f"  -> {winner}")
    details = deal.outcome()
    out.append("")
    declared = {s: m for s, m in deal.declared.items() if m}
    if declared:
        out.append("Melds declared: " + "; ".join(
            f"{s}: " + ", ".join(" ".join(pretty_card(c) for c in m) for m in ms) for s, ms in declared.items()))
    out.append(f"Melds that score: NS {details['melds']['NS']}, EW {details['melds']['EW']}")
    out.append(f"Belote: {details['belote'] or 'none'}")
    out.append(f"Card points: NS {details['card_points']['NS']}, EW {details['card_points']['EW']}"
               f" (tricks NS {details['tricks_won']['NS']}, EW {details['tricks_won']['EW']})")
    out.append("")
    out.append("Score — contract " + ("made" if details["made"] else "failed"))
    for line in details["lines"]:
        out.append(f"  {line}")
    out.append(f"  recorded: NS {details['score']['NS']}, EW {details['score']['EW']}")
    return "\n".join(out)


def _next(seat, direction):
    from .notation import next_seat
    return next_seat(seat, direction)
