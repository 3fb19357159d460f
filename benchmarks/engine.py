"""Throughput of the reference engine: random legal full deals (auction, play, score) on one core.

    python benchmarks/engine.py --variant federation --deals 2000 --json
    python benchmarks/engine.py --variant contree-701 --deals 2000 --compare-colver

Prints one JSON line (with --json) or a short report. ``--compare-colver``
also drives colver (PyPI ``colver``, a Rust Belote Contrée engine) from Python
with reset()/legal_actions()/step() and random legal actions in the same run,
and reports the ratio. Figures are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time


def bench_ours(variant_id: str, deals: int, seed: int) -> dict:
    from coinche_spec.engine.random_play import random_deal
    from coinche_spec.variants import load_variant

    rules = load_variant(variant_id).rules
    rng = random.Random(seed)
    random_deal(rules, rng)  # warm caches
    generations = 0
    played = 0
    start = time.perf_counter()
    for _ in range(deals):
        deal = random_deal(rules, rng)
        # one legal-move generation before each call and each card
        generations += len(deal.calls) + len(deal.log)
        played += 1
    elapsed = time.perf_counter() - start
    return {"deals": played, "seconds": round(elapsed, 4),
            "deals_per_second": round(played / elapsed, 1),
            "legal_move_generations_per_second": round(generations / elapsed, 1)}


def bench_colver(deals: int, seed: int) -> dict | None:
    try:
        import colver
    except ImportError:
        return None
    env = colver.Env()
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(deals):
        env.reset()
        while True:
            action = rng.choice(env.legal_actions())
            _, _, done, _ = env.step(action)
            steps += 1
            if done:
                break
    elapsed = time.perf_counter() - start
    return {"deals": deals, "seconds": round(elapsed, 4),
            "deals_per_second": round(deals / elapsed, 1),
            "legal_move_generations_per_second": round(steps / elapsed, 1)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="federation", help="shipped variant id (default federation)")
    p.add_argument("--deals", type=int, default=2000, help="number of deals (default 2000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.add_argument("--compare-colver", action="store_true", help="also measure colver in the same run")
    args = p.parse_args(argv)
    if args.deals < 1:
        print("benchmarks/engine.py: --deals must be at least 1", file=sys.stderr)
        return 2
    from coinche_spec.variants import VariantError
    try:
        ours = bench_ours(args.variant, args.deals, args.seed)
    except VariantError as exc:
        print(f"benchmarks/engine.py: {exc}", file=sys.stderr)
        return 2
    report = {"variant": args.variant, "python": platform.python_version(),
              "machine": platform.machine(), **ours}
    if args.compare_colver:
        theirs = bench_colver(args.deals, args.seed)
        if theirs is None:
            report["colver"] = None
            report["colver_note"] = "colver is not installed (pip install colver)"
        else:
            report["colver"] = theirs
            report["ratio_vs_colver"] = round(ours["deals_per_second"] / theirs["deals_per_second"], 3)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{args.variant}: {report['deals_per_second']} deals/s, "
              f"{report['legal_move_generations_per_second']} legal-move generations/s")
        if report.get("colver"):
            print(f"colver: {report['colver']['deals_per_second']} deals/s; ratio ours/colver = {report['ratio_vs_colver']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
