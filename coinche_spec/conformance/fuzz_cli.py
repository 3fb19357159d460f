"""``coinche-spec fuzz``: random legal deals through an implementation and the reference engine.

Options are checked before anything runs; a bad one is one line and exit
status 2, as is an implementation that cannot start or refuses the rule
set. Then the deals of the chosen shard are played (in ``--jobs`` local
processes), each distinct divergence is shrunk and, with ``--out``, written
as a fixture file. Exit status 1 when anything diverged, 0 when nothing did,
3 when the batch engine proposed a deal the per-deal engine refuses (a bug
of the batch engine, never skipped).
"""

from __future__ import annotations

import datetime
import json
import os
import re
import sys
import time
from pathlib import Path

from ..errors import CoincheSpecError

MAX_JOBS = 64
MAX_DIGITS = 18   # of --deals and --seed: a billion billion deals is past any run


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "fuzz", help="play random legal deals through an implementation and the engine, and compare",
        description="Differential fuzzing: random legal deals (dealing, auction, play, score, melds) are cut "
                    "into protocol cases and answered by the implementation and by the reference engine; "
                    "each distinct divergence is shrunk to a small case and, with --out, written as a fixture "
                    "whose expectation is the engine's (expected_by: engine). Exit status 1 on any divergence, "
                    "3 when the batch engine proposes a deal the per-deal engine refuses.")
    p.add_argument("--impl", metavar="SPEC", help="the implementation: a command line speaking the protocol over "
                   "stdin/stdout, python:MODULE:FACTORY, or an adapter (colver)")
    p.add_argument("--variant", metavar="ID|FILE", help="the rule set: a shipped or house id, or a rule-set file")
    p.add_argument("--deals", metavar="N", help="how many deals the seed range holds (all shards together)")
    p.add_argument("--seed", metavar="S", default="1", help="names the deals: the same seed plays the same deals "
                                                            "(a whole number, default 1)")
    p.add_argument("--jobs", metavar="J", default="1", help="local processes, each with its own implementation "
                                                            "process (default 1)")
    p.add_argument("--shard", metavar="I/N", default="1/1", help="play only the I-th of N equal slices of the "
                                                                 "deals (default 1/1: all)")
    p.add_argument("--out", metavar="DIR", help="write each divergence as a fixture file in DIR (never "
                                                "overwriting a file)")
    p.add_argument("--timeout", metavar="S", default="10", help="seconds the implementation may take to answer "
                                                                "one case (default 10)")
    p.add_argument("--generator", metavar="batch|deal|auto", default="auto",
                   help="where the deals come from: batch (the numpy batch engine proposes them in batches, "
                        "the per-deal engine replays and judges each), deal (the per-deal engine's random "
                        "players), or auto (default): batch when numpy is installed and the batch engine plays "
                        "the rule set, else deal, saying why on standard error. The same seed gives the same "
                        "deals with the same generator, other deals with the other")
    p.add_argument("--time-budget", metavar="SECONDS", default=None,
                   help="stop starting new deals once SECONDS have passed, then shrink and write everything as "
                        "at the end of the deals")
    p.add_argument("--report-jsonl", metavar="FILE", default=None,
                   help="write the run as JSON Lines as it goes: a header, each divergence as soon as it is "
                        "found, each shrunk divergence, the summary (replaces only a file coinche-spec wrote)")
    p.add_argument("--json", action="store_true", help="print one JSON summary line instead of the report")
    p.set_defaults(func=main)


class OptionError(CoincheSpecError):
    """A bad option: one line (a rule set's problems: one line each)."""


def _whole(name: str, text, minimum: int) -> int:
    if text is None:
        raise OptionError(f"{name} is required")
    if not re.fullmatch(r"\s*\d+\s*", str(text)):
        raise OptionError(f"{name} {text}: expected a whole number of at least {minimum}")
    if len(str(text).strip()) > MAX_DIGITS:   # int() itself refuses past 4,300 digits, with a traceback
        raise OptionError(f"{name} {str(text).strip()[:12]}...: {len(str(text).strip()):,} digits; at most "
                          f"{MAX_DIGITS} here")
    value = int(text)
    if value < minimum:
        raise OptionError(f"{name} {text}: expected a whole number of at least {minimum}")
    return value


def _shard(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise OptionError(f"--shard {text}: expected I/N with 1 <= I <= N, such as 3/8")
    return int(m.group(1)), int(m.group(2))


def _timeout(text: str) -> float:
    from ..protocol.impls import timeout_problem
    problem = timeout_problem("--timeout", text)
    if problem:
        raise OptionError(problem)
    return float(text)


def _out_dir(text: str | None) -> Path | None:
    """The output folder: an existing writable folder, or one that can be made."""
    if text is None:
        return None
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise OptionError(f"--out {text}: exists and is not a directory")
    probe = path
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
        raise OptionError(f"--out {text}: cannot write in {probe}")
    return path


def _generator(text: str, rules) -> str:
    """The generator the run uses: "batch" or "deal" (auto says once on stderr why not batch)."""
    from .fuzz_deals import GENERATORS, batch_refusal
    wanted = (text or "").strip()
    if wanted not in GENERATORS:
        raise OptionError(f"--generator {text}: expected one of {', '.join(GENERATORS)}")
    if wanted == "deal":
        return "deal"
    why = batch_refusal(rules)
    if why is None:
        return "batch"
    if wanted == "batch":
        raise OptionError(f"--generator batch: the batch engine cannot generate these deals: {why}")
    _say(f"coinche-spec: fuzz: deals from the per-deal engine (--generator deal), not the batch engine: {why}")
    return "deal"


def _variant(ref: str | None):
    """(variant, engine reference, file path or None)."""
    from ..errors import UserError
    from ..variants import VariantError
    from ..variants.cli import variant_for
    from ..variants.loader import SUFFIXES
    if ref is None:
        raise OptionError("--variant is required: a shipped or house id, or a rule-set file")
    try:
        variant = variant_for(ref)
    except (UserError, VariantError) as exc:
        lines = exc.lines if isinstance(exc, VariantError) and exc.lines else [str(exc)]
        raise OptionError("\n".join(f"--variant {ref}: {line}" for line in lines)) from None  # every problem
    if ref.endswith(SUFFIXES) or "/" in ref or Path(ref).is_file():
        path = Path(ref).resolve()
        return variant, str(path), path
    return variant, ref, None


class Progress:
    """A one-line progress bar on standard error, only when it is a terminal."""

    def __init__(self, total: int, stream=None):
        self.stream = stream or sys.stderr
        self.total = max(1, total)
        self.on = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.monotonic()
        self.last = 0.0

    def update(self, done: int, divergent: int, force: bool = False) -> None:
        now = time.monotonic()
        if not self.on or (not force and now - self.last < 0.1):
            return
        self.last = now
        width = 30
        filled = width * min(done, self.total) // self.total
        rate = done / (now - self.started) if now > self.started else 0.0
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} deals, "
                          f"{divergent} divergent cases, {rate:.1f} deals/s ")
        self.stream.flush()

    def close(self) -> None:
        if self.on:
            self.stream.write("\n")
            self.stream.flush()


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


BATCH_BUG_STATUS = 3   # the batch engine played what the per-deal engine refuses


def main(args) -> int:
    from .fuzz import BatchDisagrees, FuzzAbort
    from .fuzz_stop import Signalled
    try:
        return _main(args)
    except OptionError as exc:
        for line in str(exc).splitlines():
            _say(f"coinche-spec: {line}")
        return 2
    except FuzzAbort as exc:
        _say(f"coinche-spec: fuzz: {exc}")
        return 2
    except BatchDisagrees as exc:
        _say(f"coinche-spec: fuzz: BATCH ENGINE BUG, run stopped: {exc}")
        return BATCH_BUG_STATUS
    except Signalled as exc:   # before the run began: nothing to write
        return 128 + exc.signum


def _main(args) -> int:
    from .fixture_writer import WriteError, expectation_key
    from .fuzz import KINDS, FuzzAbort, Setup, Tally, configure_implementation, play_jobs, play_range, \
        shard_range, shrink_divergence, start_implementation, summary
    from .fuzz_causes import cause_json, causes_of, merge_by_rule
    from .fuzz_record import Recorder
    from .fuzz_stop import Signalled, Stopper

    if not args.impl or not args.impl.strip():
        raise OptionError("--impl is required: the command line of the implementation to fuzz")
    deals = _whole("--deals", args.deals, 1)
    seed = _whole("--seed", args.seed, 0)
    jobs = _whole("--jobs", args.jobs, 1)
    if jobs > MAX_JOBS:
        raise OptionError(f"--jobs {jobs}: at most {MAX_JOBS}")
    shard = _shard(args.shard)
    timeout = _timeout(args.timeout)
    budget = _budget(args.time_budget)
    out = _out_dir(args.out)
    variant, engine_ref, variant_path = _variant(args.variant)
    jsonl = _jsonl(args.report_jsonl, variant_path)
    generator = _generator(args.generator, variant.rules)
    indices = shard_range(deals, shard)
    if not len(indices):
        raise OptionError(f"--shard {args.shard} of {deals} deals holds no deal: give more --deals or fewer shards")

    # One implementation here first: it must start and take the rule set before any job is spent;
    # it shrinks the divergences at the end.
    impl = start_implementation(args.impl, timeout)
    stopper = Stopper(budget)
    tally = Tally()
    recorder = None
    shrunk: dict = {}
    run = {"variant": variant.id, "seed": seed, "shard": f"{shard[0]}/{shard[1]}", "first_deal": indices.start,
           "last_deal": indices.stop - 1, "jobs": jobs, "generator": generator, "time_budget": budget}
    try:
        with stopper.catching_signals():
            info = impl.info or {}
            playable = info.get("variants")
            if playable is not None and variant.id not in playable:
                raise FuzzAbort(f"--impl \"{args.impl}\" does not play {variant.id} (it plays: "
                                f"{', '.join(playable) or 'nothing'})")
            kinds = tuple(k for k in KINDS if k in (info.get("kinds") or []))
            if not kinds:
                raise FuzzAbort(f"--impl \"{args.impl}\" answers none of the kinds fuzzing asks ({', '.join(KINDS)})")
            setup = Setup(args.impl, timeout, engine_ref, variant.id if playable is not None else variant.document,
                          seed, kinds, generator)
            configure_implementation(impl, setup.configure, args.impl)
            label = impl.describe()
            run["implementation"] = label
            date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
            context = {"expect_key": expectation_key(variant.id, variant_path, out) if out is not None else None,
                       "variant_id": variant.id, "seed": seed, "implementation": label, "date": date}
            recorder = Recorder(jsonl, out, context)
            recorder.open(run)

            progress = Progress(len(indices))
            started = time.monotonic()
            seconds = shrink_seconds = 0.0
            stopper.start()

            def on_deal(t) -> None:
                recorder.saw(t)
                progress.update(t.deals, t.divergent_cases)

            try:
                if jobs == 1:
                    play_range(impl, variant.rules, seed, indices, kinds, on_deal, generator, tally=tally,
                               stop=stopper.stop)
                else:
                    play_jobs(setup, indices, jobs, None, impl, variant.rules, on_deal=on_deal, total=tally,
                              stop=stopper.stop)
                seconds = time.monotonic() - started
                progress.update(tally.deals, tally.divergent_cases, force=True)
                shrink_started = time.monotonic()
                for d in tally.divergences():
                    small = shrink_divergence(impl, variant.rules, d)
                    shrunk[d.key] = (small, recorder.shrunk(d, small))
                shrink_seconds = time.monotonic() - shrink_started
                causes = causes_of(tally, variant.document)
            except Signalled:   # the implementations are gone: what was found is written as it stands
                seconds = seconds or time.monotonic() - started
                recorder.saw(tally)     # a divergence counted as the signal came, before its deal was seen
                causes = merge_by_rule(list(tally.causes.values()))
            progress.close()
            found = tally.divergences()
    except WriteError as exc:
        raise OptionError(str(exc)) from None
    except BaseException as exc:
        if recorder is not None:
            if isinstance(exc, CoincheSpecError):   # the implementation stopped answering, a batch bug
                recorder.aborted(str(exc))
            recorder.close()    # what it holds stays: every record was flushed as it was written
        raise
    finally:
        impl.stop()

    details = []
    for original in found:
        small, path = shrunk.get(original.key, (None, None))
        d = small.divergence if small is not None else original
        details.append({"key": original.key, "deal": original.index,
                        "fields": small.fields if small is not None else [original.field],
                        "diff": [str(x) for x in d.diffs] or [str(d.answer)],
                        "shrunk": small is not None, "shrink_tries": small.tries if small is not None else 0,
                        "file": path if small is not None else _str(recorder.recorded.get(original.key)),
                        "case": d.case})
    info = summary(tally, seconds, **run, ended=stopper.ended(len(indices), tally.deals),
                   shrink_seconds=round(shrink_seconds, 3), causes=len(causes),
                   by_cause=[cause_json(c) for c in causes], found=details)
    recorder.summary(info)
    recorder.close()
    if args.json:
        print(json.dumps(info, ensure_ascii=False), flush=True)
    else:
        print(_report(info), flush=True)
    if stopper.signal:
        return 128 + stopper.signal
    return 1 if found else 0


def _str(path) -> str | None:
    return str(path) if path else None


def _budget(text) -> float | None:
    """--time-budget: seconds, a positive number, or None."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise OptionError(f"--time-budget {text}: give a number of seconds above 0, such as 600")
    return value


def _jsonl(text: str | None, variant_path):
    """--report-jsonl: a file this run may write (new, or written by coinche-spec before)."""
    if text is None:
        return None
    from .. import outputs
    from ..errors import OutputError
    try:
        return outputs.plan([("--report-jsonl", text)], [variant_path] if variant_path else [])[0]
    except OutputError as exc:
        raise OptionError(f"--report-jsonl {exc}") from None


def _report(info: dict) -> str:
    if info["ended"] == "all deals":
        ended = ""
    elif info["ended"] == "time budget":
        ended = f", stopped when the time budget of {info['time_budget']:g} s was spent"
    else:
        ended = f", stopped by {info['ended']}"
    lines = [f"fuzz: {info['implementation']} against the reference engine, rule set {info['variant']}, "
             f"seed {info['seed']}, deals {info['first_deal']}-{info['last_deal']} (shard {info['shard']}, "
             f"{info['jobs']} job{'s' if info['jobs'] != 1 else ''}, deals from the "
             f"{'batch engine' if info['generator'] == 'batch' else 'per-deal engine'}{ended})",
             f"{info['deals']} deals, {info['cases']} cases ({info['skipped']} skipped): "
             f"{info['causes']} cause{'s' if info['causes'] != 1 else ''} in {info['divergent_deals']} divergent "
             f"deal{'s' if info['divergent_deals'] != 1 else ''} "
             f"({info['divergences']} distinct divergence{'s' if info['divergences'] != 1 else ''} by kind and "
             f"field, in {info['divergent_cases']} cases)"]
    if info["by_cause"]:
        lines.append("by cause (each divergent deal once, under the earliest point where the implementation "
                     "and the engine part ways):")
    for c in info["by_cause"]:
        rule = (f"; likely rule: {c['likely_rule']}" if c["likely_rule"] else
                "; no single rule option explains it" if info["ended"] in ("all deals", "time budget") else "")
        lines.append(f"  {c['cause']} at {c['where']}: {c['deals']} deal{'s' if c['deals'] != 1 else ''} "
                     f"(first: deal {c['first_deal']}){rule}")
        others = [k for k in c["shows_as"] if k != c["cause"]]
        if others:
            lines.append(f"    also shows as: {', '.join(others)}")
    if info["found"]:
        lines.append("divergences by kind and field, the first of each:")
    for d in info["found"]:
        where = f"written to {d['file']}" if d["file"] else "not written (no --out)"
        lines.append(f"  {d['key']} (first in deal {d['deal']}): {'; '.join(d['diff'][:3])}")
        lines.append(f"    {'shrunk in ' + str(d['shrink_tries']) + ' tries' if d['shrunk'] else 'not shrunk'}, "
                     f"{where}")
        if not d["file"]:
            lines.append(f"    case: {json.dumps(d['case'], ensure_ascii=False)}")
    rate = info["deals_per_second"]
    lines.append(f"{info['seconds']:.1f} s, {rate} deals/s" + (f"; shrinking {info['shrink_seconds']:.1f} s"
                                                               if info["found"] else ""))
    return "\n".join(lines)
