"""The reference engine: one configurable engine that plays any variant from its rules.

Nothing in it asks which variant it is playing; every behaviour is read from
the rules (docs/rules-model.md): each phase reads the rule set's compiled
rules (variants/compiled.py) once, and maps each option of a rule to its
behaviour through that rule's table (options.py). Cards are indices 0..31 (suit * 8 + rank)
and hands are 32-bit masks. The public API, with examples, is docs/engine.md:

    from coinche_spec.engine import Deal, run_deal_case, random_deal
"""

from .auction import Auction, replay
from .belote import belote_points
from .dealing import deal
from .errors import BadInput, DealingRejected, EngineError, IllegalCall, IllegalPlay, Unsupported
from .game import Deal, DealOutcome, run_deal_case
from .match import run_match
from .melds import Meld, MeldResult, compare, evaluate
from .play import PlayState, card_value, legal_cards, perft, trick_points, trick_winner
from .random_play import random_deal
from .scoring import ScoreResult, card_points, score_deal

__all__ = [
    "Auction", "replay",
    "PlayState", "legal_cards", "trick_winner", "card_value", "trick_points", "perft",
    "deal",
    "Meld", "MeldResult", "evaluate", "compare",
    "belote_points",
    "ScoreResult", "card_points", "score_deal",
    "run_match",
    "Deal", "DealOutcome", "run_deal_case", "random_deal",
    "EngineError", "IllegalCall", "IllegalPlay", "DealingRejected", "Unsupported", "BadInput",
]
