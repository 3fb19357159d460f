"""Deals per second with the simple players against the random players, on one core.

Both play whole deals (shuffle, cut and deal, auction, 32 cards, score) on the
same seeds, in alternating rounds so that the machine's load hits both alike;
each figure is the median of its rounds. The ratio is the number to quote:
the simple players think about every call and card, the random ones draw.

    python benchmarks/players.py --variant contree-701 --deals 1000 --rounds 3 [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # run from a clone


def _rate(play, rules, seed: int, n: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(n):
        deal = play(rules, rng)
        if deal.phase == "done":
            deal.outcome()
    return n / (time.perf_counter() - start)


def main(argv=None) -> int:
    from coinche_spec.engine.players import simple_deal
    from coinche_spec.engine.random_play import random_deal
    from coinche_spec.variants import load_variant
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="contree-701", help="a rule set id or file (default contree-701)")
    p.add_argument("--deals", type=int, default=1000, help="deals per round for each kind of player (default 1000)")
    p.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first round (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    args = p.parse_args(argv)
    rules = load_variant(args.variant).rules
    simple_deal(rules, random.Random(0))          # warm the per-rule caches
    random_deal(rules, random.Random(0))
    simple, chance = [], []
    for r in range(args.rounds):
        simple.append(_rate(simple_deal, rules, args.seed + r, args.deals))
        chance.append(_rate(random_deal, rules, args.seed + r, args.deals))
    out = {"variant": args.variant, "deals": args.deals, "rounds": args.rounds,
           "simple_deals_per_s": round(statistics.median(simple)),
           "random_deals_per_s": round(statistics.median(chance))}
    out["simple_over_random"] = round(out["simple_deals_per_s"] / out["random_deals_per_s"], 3)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{args.variant}: simple {out['simple_deals_per_s']} deals/s, random {out['random_deals_per_s']} "
              f"deals/s, simple / random {out['simple_over_random']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
