"""Throughput of the batch engine (coinche_spec.batch) on one core, beside colver and the per-deal engine.

    python benchmarks/batch.py --json                       # every shipped rule set, B = 1k, 10k, 100k
    python benchmarks/batch.py --variant contree-701 --sizes 100000 --rounds 5
    python benchmarks/batch.py --check 100000 --no-speed    # the deal-for-deal check, 100,000 deals each
    python benchmarks/batch.py --short                      # a quick run: B = 1k, 10k, 100k, one round

``--players random,simple`` (the default) measures the random players and the
simple players (batch/simple.py, the calls and cards of engine/players.py).

A batch deal is a full random deal: a uniformly shuffled pack dealt to a
random dealer, a random legal auction (batch/auction.py says how the random
bidder chooses), melds and belote declared, 32 uniformly random legal cards,
the score. ``played deals/s`` counts the deals that reached a contract and
were played and scored (about 94%; the rest were thrown in by four passes,
cheap, and are not counted), so it is the figure to set against an engine
that deals again after four passes.

In the same run, in alternating rounds so that load on the machine hits all
alike: colver's Rust rollout (``colver.Env().rollout(n)``: n random
completions, auction and play, of a freshly dealt position, when colver is
installed) and the per-deal engine (``engine.random_play.random_deal``).
Each figure is the median of its rounds. ``--check N`` replays N recorded
batch deals per rule set through the per-deal engine (batch/replay.py) and
reports the disagreements (there should be none). Memory: the peak of
numpy's and Python's allocations (tracemalloc) while one batch of the
largest size is played, and the process's peak resident size at the end
(resource.getrusage). Figures go to docs/performance.md; nothing here is
a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import sys
import time
import tracemalloc

try:
    import coinche_spec  # noqa: F401
except ImportError:  # run from a clone without installing: use the package beside this script
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SHIPPED = None


def _shipped() -> list:
    from coinche_spec.variants import house_ids, shipped_ids
    return shipped_ids() + house_ids()


def _batch_rate(rules, size: int, seed: int, deals: int, players: str = "random") -> tuple:
    """(deals/s, played deals/s) playing at least ``deals`` deals in batches of ``size``."""
    from coinche_spec.batch import play_batch
    batches = max(1, deals // size)
    played = 0
    start = time.perf_counter()
    for i in range(batches):
        played += play_batch(rules, size, seed=seed + i, players=players).played.size
    elapsed = time.perf_counter() - start
    return batches * size / elapsed, played / elapsed


def _colver_rate(env, n: int) -> float:
    env.reset()
    start = time.perf_counter()
    env.rollout(n)
    return n / (time.perf_counter() - start)


def _engine_rate(rules, rng, n: int) -> float:
    from coinche_spec.engine.random_play import random_deal
    start = time.perf_counter()
    for _ in range(n):
        deal = random_deal(rules, rng)
        if deal.phase == "done":
            deal.outcome()
    return n / (time.perf_counter() - start)


def _peak_memory(rules, size: int, players: str = "random") -> int:
    from coinche_spec.batch import play_batch
    tracemalloc.start()
    play_batch(rules, size, seed=1, players=players)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def _check(rules, n: int, seed: int, players: str = "random") -> dict:
    from coinche_spec.batch import play_batch
    from coinche_spec.batch.replay import replay_batch
    diffs = []
    done = 0
    start = time.perf_counter()
    while done < n:
        size = min(10_000, n - done)
        diffs += replay_batch(play_batch(rules, size, seed=seed + done, record=True, players=players))
        done += size
    out = {"deals": done, "disagreements": len(diffs), "first": diffs[:3],
           "seconds": round(time.perf_counter() - start, 1)}
    print(f"check: {out}", file=sys.stderr, flush=True)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", action="append", help="a rule set id (repeatable; default: every shipped one)")
    p.add_argument("--sizes", default="1000,10000,100000", help="batch sizes B, comma-separated")
    p.add_argument("--deals", type=int, default=200_000, help="deals per measurement of each B (default 200000)")
    p.add_argument("--rounds", type=int, default=3, help="alternating rounds; each figure is their median")
    p.add_argument("--engine-deals", type=int, default=1000, help="per-deal engine deals per round")
    p.add_argument("--colver-deals", type=int, default=100_000, help="colver rollouts per round")
    p.add_argument("--check", type=int, default=0, metavar="N", help="replay N batch deals per rule set")
    p.add_argument("--no-speed", action="store_true", help="only the check")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", default="random,simple", help="random, simple or both (comma-separated)")
    p.add_argument("--short", action="store_true",
                   help="a quick run: 20,000 deals per figure, one round, 20,000 colver rollouts")
    p.add_argument("--json", action="store_true", help="one JSON object instead of a report")
    args = p.parse_args(argv)
    if args.short:
        args.deals, args.rounds, args.colver_deals, args.engine_deals = 20_000, 1, 20_000, 300
    kinds = [k for k in args.players.split(",") if k]
    if not kinds or set(kinds) - {"random", "simple"}:
        print("--players: expected random, simple or random,simple", file=sys.stderr)
        return 2
    from coinche_spec.variants import load_variant

    ids = args.variant or _shipped()
    if not ids:
        print("no rule set found (run from a clone, or install the package)", file=sys.stderr)
        return 2
    sizes = [int(s) for s in args.sizes.split(",")]
    rules = {i: load_variant(i).rules for i in ids}
    report = {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
              "load_average": os.getloadavg(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    try:
        import numpy
        report["numpy"] = numpy.__version__
    except ImportError:
        print("the batch engine needs numpy 2: pip install '.[batch]'", file=sys.stderr)
        return 2
    if not args.no_speed:
        try:
            import colver
            env = colver.Env()
            report["colver"] = colver.__version__
        except ImportError:
            env = None
            report["colver"] = None
        from coinche_spec.batch import play_batch
        for i in ids:
            play_batch(rules[i], 1000, seed=0)        # warm the per-rule-set tables
        batch = {(i, b, k): [] for i in ids for b in sizes for k in kinds}
        engine = {i: [] for i in ids}
        theirs = []
        rng = random.Random(args.seed)
        for r in range(args.rounds):
            if env is not None:
                theirs.append(_colver_rate(env, args.colver_deals))
            for i in ids:
                for k in kinds:
                    for b in sizes:
                        batch[(i, b, k)].append(_batch_rate(rules[i], b, args.seed + 1000 * r, max(args.deals, b), k))
                engine[i].append(_engine_rate(rules[i], rng, args.engine_deals))
                if env is not None:
                    theirs.append(_colver_rate(env, args.colver_deals))
        colver_rate = statistics.median(theirs) if theirs else None
        report["colver_rollout_deals_per_second"] = round(colver_rate) if colver_rate else None
        rows = {}
        for i in ids:
            row = {"engine_deals_per_second": round(statistics.median(engine[i]))}
            for k in kinds:
                for b in sizes:
                    deals = statistics.median(x[0] for x in batch[(i, b, k)])
                    played = statistics.median(x[1] for x in batch[(i, b, k)])
                    key = f"B={b}" if k == "random" else f"simple B={b}"
                    row[key] = {"deals_per_second": round(deals), "played_deals_per_second": round(played),
                                "vs_engine": round(played / row["engine_deals_per_second"], 1)}
                    if colver_rate:
                        row[key]["vs_colver"] = round(played / colver_rate, 3)
            row["peak_memory_mb"] = round(max(_peak_memory(rules[i], max(sizes), k) for k in kinds) / 2 ** 20, 1)
            rows[i] = row
        report["rule_sets"] = rows
    if args.check:
        report["check"] = {f"{i} {k}": _check(rules[i], args.check, args.seed, k) for i in ids for k in kinds}
    report["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    report["load_average_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"python {report['python']}, numpy {report['numpy']}, colver {report.get('colver')}, "
          f"load {report['load_average']}")
    if "rule_sets" in report:
        print(f"colver rollout: {report['colver_rollout_deals_per_second']} deals/s")
        for i, row in report["rule_sets"].items():
            cells = "; ".join(f"{k} {v['played_deals_per_second']}/s"
                              + (f" ({v['vs_colver']}x colver)" if "vs_colver" in v else "")
                              for k, v in row.items() if "B=" in k)
            print(f"{i}: {cells}; per-deal engine {row['engine_deals_per_second']}/s; "
                  f"peak {row['peak_memory_mb']} MB")
    for i, c in report.get("check", {}).items():
        print(f"check {i}: {c['deals']} deals, {c['disagreements']} disagreements ({c['seconds']} s)")
    print(f"peak resident size {report['max_rss_mb']} MB; load after {report['load_average_after']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
