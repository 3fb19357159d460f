"""Deals a second for `coinche-spec compare`'s simulation: the same deals under two rule sets.

Runs the simulation exactly as ``compare`` does (``simulate.simulate``: the
deals played by the simple players under each rule set, with ``--jobs``
local processes, then summarised) and prints the wall time, deals/s (deals,
each played under every rule set) and the parent's peak resident size
(resource.getrusage; the batch engine's workers are forked and smaller).
``--engine`` picks the batch engine (the default when it plays both rule
sets), or the per-deal engine. Issue 10's target: 100,000 deals under two rule
sets in under 60 s with ``--jobs 2`` on a 2-core machine; issue 12's:
1,000,000. The load average is printed beside the figure: on a shared machine
the wall time says little without it.

    python benchmarks/compare.py                              # 100,000 deals, --jobs 2
    python benchmarks/compare.py --deals 1000000 --json
    python benchmarks/compare.py --short                      # 10,000 deals, a quick look
    python benchmarks/compare.py --engine deal --deals 10000  # the per-deal engine, for the ratio
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # run from a clone


def main(argv=None) -> int:
    from coinche_spec.compare.simulate import simulate
    from coinche_spec.variants import load_variant
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("refs", nargs="*", default=["contree-701", "cafe-701"], help="rule sets (default contree-701 cafe-701)")
    p.add_argument("--deals", type=int, default=100_000, help="deals (default 100000)")
    p.add_argument("--short", action="store_true", help="10,000 deals")
    p.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    p.add_argument("--engine", choices=("auto", "batch", "deal"), default="auto",
                   help="batch engine, per-deal engine, or auto (batch when it plays every rule set)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON line")
    args = p.parse_args(argv)
    deals = 10_000 if args.short else args.deals
    variants = [load_variant(r) for r in args.refs]
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    sim = simulate(variants, deals, args.seed, args.jobs, engine=args.engine,
                   note=lambda m: print(m, file=sys.stderr))
    wall = time.perf_counter() - start
    out = {"rule_sets": args.refs, "deals": sim.deals, "engine": args.engine, "jobs": args.jobs,
           "seconds": round(wall, 1), "deals_per_s": round(sim.deals / wall),
           "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
           "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)], "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['deals']} deals under {' and '.join(args.refs)} ({args.engine} engine) with {args.jobs} jobs: "
              f"{out['seconds']} s ({out['deals_per_s']} deals/s), peak {out['max_rss_mb']} MB; load average "
              f"{out['load_average'][0]} before, {out['load_average'][1]} after, on {out['cpus']} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
