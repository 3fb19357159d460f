"""The batch engine: many random deals at once with numpy, under any rule set (issue 12).

Needs numpy 2 (``pip install coinche-spec[batch]``). It plays what the
per-deal engine (coinche_spec.engine) plays, read from the same compiled
rules, and is checked against it deal for deal (tests/test_batch_engine.py):

    from coinche_spec.batch import play_batch
    batch = play_batch(load_variant("contree-701"), 100_000, seed=1)
"""

from .engine import Batch, play_batch
from .rules import BatchUnsupported, batch_rules

__all__ = ["Batch", "play_batch", "BatchUnsupported", "batch_rules"]
