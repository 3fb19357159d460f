"""Throughput of ``coinche-spec fuzz`` against ``coinche-spec serve``: deals per second by generator and jobs.

    python benchmarks/fuzz.py --variant federation --deals 400 --jobs 1 2 --rounds 3 --json
    python benchmarks/fuzz.py --variant federation --deals 400 --jobs 1 --generator batch deal --rounds 5

Each round runs the real command, ``coinche-spec fuzz --impl "<python> -m
coinche_spec serve" --variant V --deals N --jobs J --generator G --json``,
once for every G and J in turn (so that a change in the machine's load
hits every setting alike), and reads the ``deals_per_second`` of its JSON
summary: the deals played divided by the time from the first deal to the
last (the batches the batch generator plays on the way included), which with more than one job
includes starting the job processes and their implementations. A figure is
the median of its rounds. The load average before and after is printed
with the figures: on a shared machine it says how far to trust them. The
figures go in docs/performance.md; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fuzz_once(variant: str, deals: int, jobs: int, seed: int, generator: str = "auto") -> dict:
    serve = f"{sys.executable} -m coinche_spec serve"
    argv = [sys.executable, "-m", "coinche_spec", "fuzz", "--impl", serve, "--variant", variant,
            "--deals", str(deals), "--jobs", str(jobs), "--seed", str(seed), "--generator", generator, "--json"]
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env)
    if done.returncode != 0:
        raise SystemExit(f"fuzz exited with status {done.returncode}: {done.stderr.strip()[:400]}")
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="federation")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generator", nargs="+", default=["batch", "deal"], choices=("batch", "deal", "auto"),
                        help="where the fuzzer's deals come from (fuzz --generator); each one named is "
                             "measured, taking turns with the others (default: batch deal)")
    parser.add_argument("--json", action="store_true", help="one JSON line instead of a short report")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()
    settings = [(g, j) for g in args.generator for j in args.jobs]
    rates: dict = {s: [] for s in settings}
    cases: dict = {}
    for _ in range(args.rounds):
        for generator, jobs in settings:
            summary = fuzz_once(args.variant, args.deals, jobs, args.seed, generator)
            rates[generator, jobs].append(summary["deals_per_second"])
            cases[generator] = summary["cases"]
    load_after = os.getloadavg()
    median = {s: statistics.median(r) for s, r in rates.items()}
    out = {"variant": args.variant, "deals": args.deals, "rounds": args.rounds, "cases": cases,
           "cases_per_deal": {g: round(n / args.deals, 1) for g, n in cases.items()},
           "deals_per_second": {g: {str(j): median[g, j] for j in args.jobs} for g in args.generator},
           "rounds_deals_per_second": {g: {str(j): rates[g, j] for j in args.jobs} for g in args.generator},
           "load_average_before": [round(x, 2) for x in load_before],
           "load_average_after": [round(x, 2) for x in load_after],
           "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
           "date": datetime.date.today().isoformat()}
    if {"batch", "deal"} <= set(args.generator):
        out["ratio_batch_to_deal"] = {str(j): round(median["batch", j] / median["deal", j], 2) for j in args.jobs}
    if args.json:
        print(json.dumps(out))
    else:
        for generator, jobs in settings:
            print(f"--generator {generator} --jobs {jobs}: {median[generator, jobs]} deals/s "
                  f"(rounds: {rates[generator, jobs]})")
        for j, ratio in out.get("ratio_batch_to_deal", {}).items():
            print(f"--jobs {j}: batch / deal = {ratio}")
        print(f"cases per run: {cases} ({out['cases_per_deal']} a deal); load average "
              f"{load_before[0]:.2f} before, {load_after[0]:.2f} after, on {os.cpu_count()} cpus")
    return 0


if __name__ == "__main__":
    sys.exit(main())
