"""Errors the engine raises when a call, a card or a deal breaks the variant's rules.

Each carries a one-line human message (``str(exc)``) that says what was wrong
and where, so a conformance reply or a CLI can show it without a traceback.
"""

from ..errors import CoincheSpecError


class EngineError(CoincheSpecError):
    """Base class: something the rules of the variant do not allow."""

    def __init__(self, message: str = ""):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class IllegalCall(EngineError):
    """A call the auction does not allow now (wrong seat, too low a bid, a coinche out of turn)."""


class IllegalPlay(EngineError):
    """A card the player to act may not play to this trick (not held, or not legal)."""


class DealingRejected(EngineError):
    """A dealing request the variant forbids (bad cut, unknown packets, bad deck)."""


class Unsupported(EngineError):
    """A rule the engine does not implement (none today: kept so that a new rule can be refused cleanly)."""


class BadInput(EngineError):
    """Input that describes no possible position (a card held twice, unequal hands, a full trick)."""
