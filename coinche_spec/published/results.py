"""Running a real implementation through the suite, for its published page.

Each entry of ``PUBLISHED`` names an implementation (an ``--impl`` adapter),
the rule set it claims to play (its own), the seed rule sets it is also run
against, the base its fingerprint is taken from and the fuzzing to do. The
results are what the commands the page quotes print: they are run here as
those very commands (``python -m coinche_spec conformance ...``,
``fingerprint --json``, ``fuzz --json``), and what they print is kept,
trimmed to what the page shows, in ``<name>.json`` beside the pages.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import CoincheSpecError


@dataclass(frozen=True)
class Entry:
    name: str              # the page's name, and the --impl adapter
    package: str           # the PyPI package the adapter drives
    adapter_module: str
    own: str               # the rule set the implementation claims (variants/implementations/)
    base: str              # the fingerprint's base
    seeds: tuple = ()
    fuzz_deals: int = 10000
    fuzz_seed: int = 1
    homepage: str | None = None
    notes: tuple = field(default=())


PUBLISHED = {
    "colver": Entry("colver", "colver", "coinche_spec.adapters.colver", own="colver", base="contree-701",
                    seeds=("contree-701", "federation", "cafe-701", "cafe-1000", "cafe-sans-tout-atout"),
                    homepage="https://pypi.org/project/colver/"),
}


class PublishError(CoincheSpecError):
    """A command the page needs did not run as it must; the message says which and why."""


def _run(argv: list[str], allowed=(0, 1)) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "coinche_spec", *argv], capture_output=True, text=True)
    if done.returncode not in allowed:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        raise PublishError(f"`coinche-spec {' '.join(argv)}` exited with status {done.returncode}: {tail}")
    return done


def commands(entry: Entry, fuzz_deals: int) -> dict:
    """The command lines the page quotes, as a user would type them."""
    variants = " ".join(f"--variant {v}" for v in (entry.own, *entry.seeds))
    return {"conformance": f"coinche-spec conformance --impl {entry.name} {variants}",
            "fingerprint": f"coinche-spec fingerprint --impl {entry.name} --base {entry.base}",
            "fuzz": f"coinche-spec fuzz --impl {entry.name} --variant {entry.own} --deals {fuzz_deals}"
                    + (f" --seed {entry.fuzz_seed}" if entry.fuzz_seed != 1 else "")}


COMPACT = ("record", "fixture", "variant", "area", "outcome", "expected_by", "carried_from")


def _compact(record: dict) -> dict:
    """A case record as the page keeps it: everything for a case that went wrong, what the counts need
    for the others (about two thousand of them, most skipped)."""
    if record.get("record") != "case" or record["outcome"] in ("fail", "error", "timeout", "defect"):
        return record
    return {k: record[k] for k in COMPACT if record.get(k) is not None}


def conformance(entry: Entry) -> dict:
    from ..conformance.runfile import parse_run
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.jsonl"
        argv = ["conformance", "--impl", entry.name]
        for v in (entry.own, *entry.seeds):
            argv += ["--variant", v]
        done = _run(argv + ["--report-jsonl", str(out)])
        text = out.read_text(encoding="utf-8")
    run = parse_run(text, "conformance run")   # a whole run, or an error here
    records = [_compact(json.loads(line)) for line in text.splitlines() if line.strip()]
    closing = done.stdout.rstrip().splitlines()[-1] if done.stdout.strip() else ""
    return {"exit": done.returncode, "closing": closing, "records": records, "cases": len(run.cases)}


def refusals(entry: Entry) -> dict:
    """For each seed the implementation does not play: the rules its own rule set plays differently (those
    its answers depend on), as its adapter works them out."""
    import importlib

    from ..variants import load_variant
    module = importlib.import_module(entry.adapter_module)
    mine = load_variant(entry.own).document
    differ = getattr(module, "rules_that_differ", None)
    if differ is None:
        return {}
    return {seed: differ(load_variant(seed).document, mine) for seed in entry.seeds}


def start_reply(entry: Entry) -> dict:
    from ..protocol.impls import open_implementation
    impl = open_implementation(entry.name)
    try:
        impl.start()
        return dict(impl.info or {})
    finally:
        impl.stop()


def fingerprint(entry: Entry) -> dict:
    argv = ["fingerprint", "--impl", entry.name, "--base", entry.base]
    printed = _run(argv, allowed=(0,)).stdout
    whole = json.loads(_run(argv + ["--json"], allowed=(0,)).stdout)
    rules = [{k: r.get(k) for k in ("rule", "status", "base", "found", "kinds")} for r in whole["rules"]]
    head = {k: whole.get(k) for k in ("implementation", "base", "configured", "kinds", "rounds", "cases_asked")}
    return {**head, "differences": whole["differences"], "rules": rules, "printed": printed}


def fuzz(entry: Entry, deals: int) -> dict:
    argv = ["fuzz", "--impl", entry.name, "--variant", entry.own, "--deals", str(deals),
            "--seed", str(entry.fuzz_seed), "--json"]
    done = _run(argv)
    info = json.loads(done.stdout.strip().splitlines()[-1])
    info["exit"] = done.returncode
    return info


def collect(entry: Entry, fuzz_deals: int | None = None, say=lambda text: None) -> dict:
    """Everything the page shows, computed now."""
    import datetime

    from .inputs import inputs
    deals = entry.fuzz_deals if fuzz_deals is None else fuzz_deals
    entry = replace(entry, fuzz_deals=deals)
    say(f"{entry.name}: inputs and start reply")
    out = {"name": entry.name, "own": entry.own, "base": entry.base, "inputs": inputs(entry),
           "commands": commands(entry, deals),
           "homepage": entry.homepage, "start": start_reply(entry), "refusals": refusals(entry)}
    say(f"{entry.name}: {out['commands']['conformance']}")
    out["conformance"] = conformance(entry)
    say(f"{entry.name}: {out['commands']['fingerprint']}")
    out["fingerprint"] = fingerprint(entry)
    say(f"{entry.name}: {out['commands']['fuzz']}")
    out["fuzz"] = fuzz(entry, deals)
    out["load"] = " ".join(f"{x:.2f}" for x in os.getloadavg())   # 1, 5, 15 minutes: the machine is shared
    out["generated"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return out
