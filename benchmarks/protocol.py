"""Protocol throughput: cases per second through ``--impl`` specs, the path the runner takes.

    python benchmarks/protocol.py --rounds 5 --json
    python benchmarks/protocol.py --impl "" --impl "coinche-spec serve" --impl colver --variant contree-701

Each implementation is started, configured and sent every case once (not
timed), then sent the same cases round after round: every corpus fixture of the kinds all of
them answer (by default legal_cards, auction, deal and perft, the kinds the
colver adapter answers) that applies under ``--variant``. The
implementations take turns round by round, so load on a shared machine
hits them alike; each figure is the median of its rounds. Answers are not
judged here: only replies are counted, and a reply that is an error is
counted apart.

``""`` is the reference engine in-process; ``python:benchmarks/protocol.py:Echo``
an object that answers at once (what the in-process path costs); ``coinche-spec serve`` is run as
``python -m coinche_spec serve`` with this interpreter, so a clone works
without installing; ``colver`` is the adapter (in-process). colver plays its
own rule set: it is configured with ``colver``, or, where that file is not
there yet, with ``--variant`` as a stand-in (the JSON says which), which
changes nothing in the work done per case.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

try:
    import coinche_spec  # noqa: F401
except ImportError:  # run from a clone without installing: use the package beside this script
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DEFAULT_KINDS = ("legal_cards", "auction", "deal", "perft")


class Echo:
    """An object that answers every case with an empty result: ``--impl python:benchmarks/protocol.py:Echo``
    measures what the in-process path itself costs (worker thread, JSON both ways)."""

    def start(self):
        return {"protocol": 1, "implementation": {"name": "echo", "version": "0", "language": "Python"},
                "kinds": list(DEFAULT_KINDS), "variants": None}

    def configure(self, variant):
        return {"ok": True}

    def run(self, case):
        return {"result": {}}


def _spec_for_run(spec: str) -> str:
    if spec.strip() == "coinche-spec serve":
        return f"{sys.executable} -m coinche_spec serve"
    return spec


def _open(spec: str, variant: str, timeout: float):
    from coinche_spec.protocol.impls import open_implementation
    impl = open_implementation(_spec_for_run(spec) or None, timeout=timeout)
    info = impl.start()
    rules_used = variant
    target = variant
    if spec.strip() == "colver":
        target = "colver"
        reply = impl.configure(target)
        if not reply.get("ok"):
            # colver.yaml not there yet: the adapter compares against --variant instead
            from coinche_spec.adapters.colver import ColverAdapter
            from coinche_spec.variants import load_variant
            ColverAdapter._colver_variant = lambda self: load_variant(variant)
            reply = impl.configure(target)
            rules_used = f"{variant} (stand-in for colver's rule set)"
        else:
            rules_used = "colver"
    else:
        playable = info.get("variants")
        from coinche_spec.variants import load_variant
        reply = impl.configure(variant if playable is not None else load_variant(variant).document)
    if not reply.get("ok"):
        raise SystemExit(f"{spec or 'reference engine'}: configure refused: {reply}")
    return impl, set(info.get("kinds") or ()), rules_used


def cases_for(variant: str, kinds: set) -> list[dict]:
    from coinche_spec.conformance.fixtures import load_corpus
    out = []
    for f in load_corpus():
        e = f.expect.get(variant)
        if f.kind in kinds and e is not None and e.applicable:
            out.append(f.case)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--impl", action="append", default=None, metavar="SPEC",
                   help='an --impl spec; repeat (default: "", "coinche-spec serve" and colver when installed)')
    p.add_argument("--variant", default="contree-701", help="the rule set whose fixtures are sent (default contree-701)")
    p.add_argument("--kinds", default=",".join(DEFAULT_KINDS), help="case kinds sent (default: %(default)s)")
    p.add_argument("--rounds", type=int, default=5, help="rounds per implementation (default 5)")
    p.add_argument("--repeat", type=int, default=10, help="times the case list is sent in one round (default 10)")
    p.add_argument("--json", action="store_true", help="one JSON line")
    args = p.parse_args(argv)

    specs = args.impl
    if specs is None:
        specs = ["", "coinche-spec serve"]
        try:
            import colver  # noqa: F401
            specs.append("colver")
        except ImportError:
            pass
    kinds = set(args.kinds.split(","))
    opened = []
    for spec in specs:
        impl, answered, rules_used = _open(spec, args.variant, timeout=60)
        opened.append((spec, impl, rules_used))
        kinds &= answered
    cases = cases_for(args.variant, kinds) * args.repeat
    per_kind: dict = {}
    for case in cases:
        per_kind[case["kind"]] = per_kind.get(case["kind"], 0) + 1
    load_before = os.getloadavg()   # the machine may be shared: say how busy it was
    rates: dict = {spec: [] for spec in specs}
    errors: dict = {spec: 0 for spec in specs}
    kind_seconds: dict = {spec: {} for spec in specs}
    try:
        for _, impl, _ in opened:  # one round untimed: first-call costs (imports, rule tables) left out
            for n, case in enumerate(cases_for(args.variant, kinds)):
                impl.run(n, case)
        for _ in range(args.rounds):
            for spec, impl, _ in opened:
                t0 = time.perf_counter()
                for n, case in enumerate(cases):
                    t1 = time.perf_counter()
                    reply = impl.run(n, case)
                    seconds = kind_seconds[spec]
                    seconds[case["kind"]] = seconds.get(case["kind"], 0.0) + time.perf_counter() - t1
                    errors[spec] += bool(reply.get("errored"))
                rates[spec].append(len(cases) / (time.perf_counter() - t0))
    finally:
        for _, impl, _ in opened:
            impl.stop()
    report = {
        "variant": args.variant, "kinds": sorted(kinds), "cases_per_round": len(cases), "rounds": args.rounds,
        "implementations": [{"spec": spec or "(reference engine, in-process)", "label": impl.describe(),
                             "rules": rules_used, "cases_per_second": round(statistics.median(rates[spec]), 1),
                             "by_kind": {k: round(per_kind[k] * args.rounds / t, 1)
                                         for k, t in sorted(kind_seconds[spec].items())},
                             "errored_replies": errors[spec]} for spec, impl, rules_used in opened],
        "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d"),
        "load_average": {"before": [round(x, 2) for x in load_before],
                         "after": [round(x, 2) for x in os.getloadavg()]},
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{len(cases)} cases a round ({', '.join(sorted(kinds))} under {args.variant}), "
              f"median of {args.rounds} rounds; load average (1, 5, 15 min) before "
              f"{report['load_average']['before']}, after {report['load_average']['after']}:")
        for item in report["implementations"]:
            kinds_text = ", ".join(f"{k} {v:,.0f}" for k, v in item["by_kind"].items())
            print(f"  {item['spec']:32} {item['cases_per_second']:>9,.1f} cases/s  ({kinds_text})"
                  + (f"  ({item['errored_replies']} errored replies)" if item["errored_replies"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
