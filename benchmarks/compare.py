"""Deals a second for `coinche-spec compare`'s simulation: the same deals under two rule sets.

Plays ``--deals`` deals under each rule set (so 2 x deals played deals) with
``--jobs`` local processes, exactly as ``compare`` does (``simulate.play_deals``),
and prints the wall time. The target of issue 10 is 100,000 deals under two rule
sets in under 60 s with ``--jobs 2`` on a 2-core machine. The load average is
printed beside the figure: on a shared machine the wall time says little without it.

    python benchmarks/compare.py --deals 100000 --jobs 2 [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # run from a clone


def main(argv=None) -> int:
    from coinche_spec.compare.simulate import play_deals
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("refs", nargs="*", default=["contree-701", "cafe-701"], help="rule sets (default contree-701 cafe-701)")
    p.add_argument("--deals", type=int, default=100_000, help="deals (default 100000)")
    p.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON line")
    args = p.parse_args(argv)
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    per_deal = play_deals(args.refs, args.deals, args.seed, args.jobs)
    wall = time.perf_counter() - start
    out = {"rule_sets": args.refs, "deals": len(per_deal), "jobs": args.jobs, "seconds": round(wall, 1),
           "deals_per_s": round(len(per_deal) / wall), "load_average": [round(load_before, 1),
                                                                       round(os.getloadavg()[0], 1)],
           "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['deals']} deals under {' and '.join(args.refs)} with {args.jobs} jobs: {out['seconds']} s "
              f"({out['deals_per_s']} deals/s); load average {out['load_average'][0]} before, "
              f"{out['load_average'][1]} after, on {out['cpus']} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
