"""Throughput of the reference engine: random legal full deals (auction, play, score) on one core.

    python benchmarks/engine.py --variant federation --deals 5000 --json
    python benchmarks/engine.py --variant contree-701 --deals 5000 --json --compare-colver

Each deal is shuffled, cut and dealt, bid at random until a contract (a
thrown-in deal is dealt again and counted in the same deal), played card by
card from the legal sets, and scored (meld comparison, belote, contract and
award). A "legal-move generation" is one call of Deal.legal_calls() or
Deal.legal_mask() by the random player: one per decision.

``--compare-colver`` also drives colver (PyPI ``colver``, a Rust Belote
Contrée engine) from Python in the same run: ``Env.reset()`` then
``Env.step()`` with a uniformly random action from the legal actions each
step returns, until the deal is done. The two are measured in alternating
rounds so that load on the machine hits both alike; each side's deals per
second is the median of its rounds, and the report gives our ratio. Figures are recorded in
docs/performance.md; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time

try:
    import coinche_spec  # noqa: F401
except ImportError:  # run from a clone without installing: use the package beside this script
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _rounds(total: int, rounds: int) -> list[int]:
    """Split ``total`` deals into ``rounds`` nearly equal chunks (none empty)."""
    rounds = max(1, min(rounds, total))
    base, extra = divmod(total, rounds)
    return [base + (1 if i < extra else 0) for i in range(rounds)]


class Ours:
    """Random legal deals through coinche_spec.engine."""

    def __init__(self, variant_id: str, seed: int, score: bool = True):
        from coinche_spec.engine.random_play import random_deal
        from coinche_spec.variants import load_variant

        self.rules = load_variant(variant_id).rules
        self.random_deal = random_deal
        self.rng = random.Random(seed)
        self.score = score
        self.stats: dict = {}
        self.deals = 0
        self.seconds = 0.0
        self.rates: list = []
        self.redealt = 0
        random_deal(self.rules, random.Random(seed ^ 0x5EED))  # warm the per-rule caches

    def run(self, n: int) -> None:
        random_deal, rules, rng, stats, score = self.random_deal, self.rules, self.rng, self.stats, self.score
        redealt = 0
        start = time.perf_counter()
        for _ in range(n):
            deal = random_deal(rules, rng, stats=stats)
            if deal.phase != "done":
                redealt += 1
            elif score:
                deal.outcome()   # the score: meld comparison, belote, contract, award
        elapsed = time.perf_counter() - start
        self.seconds += elapsed
        self.rates.append(n / elapsed)
        self.deals += n
        self.redealt += redealt

    def report(self) -> dict:
        gens = self.stats.get("calls", 0) + self.stats.get("cards", 0)
        rate = statistics.median(self.rates)
        return {"deals": self.deals, "seconds": round(self.seconds, 4),
                "deals_per_second": round(rate, 1),
                "legal_move_generations_per_second": round(rate * gens / self.deals, 1),
                "calls_per_deal": round(self.stats.get("calls", 0) / self.deals, 2),
                "thrown_in": self.redealt}


class Colver:
    """Random legal games through colver.Env, driven from Python."""

    def __init__(self, seed: int):
        import colver

        self.version = getattr(colver, "__version__", "?")
        self.env = colver.Env()
        self.rng = random.Random(seed)
        self.deals = 0
        self.steps = 0
        self.seconds = 0.0
        self.rates: list = []

    def run(self, n: int) -> None:
        env, choice = self.env, self.rng.choice
        steps = 0
        start = time.perf_counter()
        for _ in range(n):
            _, legal = env.reset()
            done = False
            while not done:
                _, _, done, legal = env.step(choice(legal))
                steps += 1
        elapsed = time.perf_counter() - start
        self.seconds += elapsed
        self.rates.append(n / elapsed)
        self.deals += n
        self.steps += steps

    def report(self) -> dict:
        rate = statistics.median(self.rates)
        return {"version": self.version, "deals": self.deals, "seconds": round(self.seconds, 4),
                "deals_per_second": round(rate, 1),
                "legal_move_generations_per_second": round(rate * self.steps / self.deals, 1),
                "actions_per_deal": round(self.steps / self.deals, 2)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="federation", help="a shipped or house variant id, or a variant file (default federation)")
    p.add_argument("--deals", type=int, default=5000, help="number of deals for each engine (default 5000)")
    p.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    p.add_argument("--seed", type=int, default=1, help="random seed for the deals (default 1): the same seed plays the same deals")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.add_argument("--compare-colver", action="store_true", help="also measure colver in the same run")
    p.add_argument("--no-score", action="store_true",
                   help="stop our deals after the last card (to see what the score costs)")
    args = p.parse_args(argv)
    if args.deals < 1:
        print("benchmarks/engine.py: --deals must be at least 1", file=sys.stderr)
        return 2
    from coinche_spec.engine.errors import EngineError
    from coinche_spec.variants import VariantError

    try:
        ours = Ours(args.variant, args.seed, score=not args.no_score)
    except (VariantError, EngineError) as exc:
        first = exc.lines[0] if isinstance(exc, VariantError) and exc.lines else str(exc)
        print(f"benchmarks/engine.py: {first}", file=sys.stderr)
        return 2
    theirs = None
    note = None
    if args.compare_colver:
        try:
            theirs = Colver(args.seed)
        except ImportError:
            note = "colver is not installed (pip install colver)"
    for chunk in _rounds(args.deals, args.rounds):
        ours.run(chunk)
        if theirs is not None:
            theirs.run(chunk)
    report = {"variant": args.variant, "python": platform.python_version(),
              "implementation": platform.python_implementation(), "machine": platform.machine(),
              "cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d"), "scored": not args.no_score,
              **ours.report()}
    if args.compare_colver:
        report["colver"] = theirs.report() if theirs is not None else None
        if theirs is not None:
            report["ratio_vs_colver"] = round(report["deals_per_second"] / report["colver"]["deals_per_second"], 3)
        else:
            report["colver_note"] = note
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{args.variant}: {report['deals_per_second']} deals/s, "
              f"{report['legal_move_generations_per_second']} legal-move generations/s "
              f"({report['deals']} deals in {report['seconds']} s)")
        if report.get("colver"):
            c = report["colver"]
            print(f"colver {c['version']}: {c['deals_per_second']} deals/s; "
                  f"ours/colver = {report['ratio_vs_colver']}")
        elif note:
            print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
