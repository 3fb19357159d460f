"""``coinche-spec deal --batch N``: statistics of N random deals from the batch engine.

Called from the ``deal`` command (showdeal.py) when ``--batch`` is given;
prints one JSON object with ``--json``, else a few lines for a person.
"""

from __future__ import annotations

import json
import random


MAX_BATCH_DEALS = 100_000_000   # deals one `deal --batch` plays: minutes at the batch engine's pace


def run_batch(args, variant) -> int:
    from ..errors import UserError

    if args.batch is None:
        raise UserError("--json goes with --batch N (the statistics of N deals); one deal prints as text")
    if args.batch < 1:
        raise UserError(f"--batch: expected a number of deals of 1 or more, got {args.batch}")
    if args.batch > MAX_BATCH_DEALS:
        raise UserError(f"--batch {args.batch:,}: at most {MAX_BATCH_DEALS:,} deals (docs/limits.md)")
    try:
        import numpy
        major = int(numpy.__version__.split(".")[0])
    except ImportError:
        major = 0
    if major < 2:
        raise UserError("--batch needs numpy 2 or later: pip install 'coinche-spec[batch]'")
    from .rules import BatchUnsupported
    from .stats import batch_statistics

    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    try:
        stats = batch_statistics(variant.rules, args.batch, seed)
    except BatchUnsupported as exc:
        raise UserError(f"variant {variant.id}: {exc}") from None
    stats = {"variant": variant.id, **stats}
    if args.json:
        print(json.dumps(stats))
        return 0
    p = stats["points_per_deal"]
    print(f"{variant.id}: {stats['deals']} random deals (seed {seed}), {stats['thrown_in']} thrown in")
    if stats["played"]:
        print(f"  made {stats['made_rate']:.1%}, coinched {stats['coinche_rate']:.1%}, "
              f"one side took every trick {stats['sweep_rate']:.1%}")
        print(f"  points per deal: takers {p['takers']:.1f}, defenders {p['defenders']:.1f}")
    return 0
