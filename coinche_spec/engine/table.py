"""The table: which way play goes round, and who deals (rules.table).

Seats are indices N=0 E=1 S=2 W=3 inside the engine; ``(i + step) & 3`` is
the seat after ``i`` in the rule set's direction, for the deal, the auction
and the play alike.
"""

from __future__ import annotations

from .options import Outside, choose, option_table

# table.direction -> the step from one seat index to the next
DIRECTION = option_table("table.direction", {"clockwise": 1, "anticlockwise": 3})

# Every case names its dealer, and a match case gives each deal's score: the engine never picks a dealer.
FIRST_DEALER = option_table("table.first_dealer", {
    "random": Outside("a case names the dealer of each deal"),
    "given": Outside("a case names the dealer of each deal"),
})
NEXT_DEALER = option_table("table.next_dealer", {
    "next_seat": Outside("a case names the dealer of each deal; a match adds deals already scored"),
})


def seat_step(c) -> int:
    """The seat-index step of the compiled rules ``c``."""
    return choose(DIRECTION, c.table.direction)
