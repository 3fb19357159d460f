"""Build (or bring up to date) the stored realised deals: ``python -m coinche_spec.conformance.realised_build``.

For every score, melds and match fixture of the shipped corpus and every
rule set it has a hand or carried expectation under (the rule sets its ``expect`` names, and
every seed, published, program and house rule set it carries to), the store
must hold a deal that realises the fixture's summary under that rule set, or
say why none can. The build keeps every stored deal that still realises
(a deal serves every rule set under which it does), searches only for the
pairs no deal serves, and rewrites a file only when its text changes: a
second run changes nothing and takes seconds.

Options: ``--corpus DIR`` (default: the shipped corpus; its ``realised/``
folder is written), ``--retry`` (search again for the pairs recorded as
unrealisable), ``--check`` (write nothing, search nothing: list what is out
of date, naming each fixture, and exit 1 if anything is; the staleness test
runs the same check).
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from pathlib import Path

from . import arise
from .carry import written
from .fixtures import load_corpus
from .realise import KINDS, Unrealisable, realise, realises, summary_of_case
from .realised import RealisedDeal, Unrealised, load_file, render, store_dir


def scope_variants(fixture, extra_variants: list) -> list:
    """The rule sets a fixture must be realised under: those its ``expect`` names and every shipped rule
    set it carries to, where the expectation is hand-derived or carried and applicable. A match under a
    program's rule set is realised too: an engine that answers only whole deals is judged on it there."""
    out = {}
    for variant in list(fixture.rule_sets.values()) + list(extra_variants):
        if variant.id in out:
            continue
        source = written(fixture, variant)
        if source is not None and source.expected_by in ("hand", "carried") and source.expectation.applicable:
            out[variant.id] = variant
    return [out[k] for k in sorted(out)]


def shipped_variants() -> list:
    from ..variants import load_variant
    from ..variants.loader import paged_ids
    return [load_variant(vid) for vid in paged_ids()]


def seed_for(fixture_id: str, variant_id: str) -> int:
    return zlib.crc32(f"{fixture_id}@{variant_id}".encode())


def plan_fixture(fixture, variants: list, stored: list, unrealised: list, retry: bool = False,
                 search: bool = True) -> tuple[list, list, list]:
    """The deals and unrealisable entries for one fixture, reusing what is stored; and the pairs that
    had to be searched (fixture id, rule set id, found?)."""
    summary = summary_of_case(fixture.case)
    deals = [RealisedDeal(d.fixture, d.seed, [], d.summary, d.deal) for d in stored if d.summary == summary]
    listed = {d.seed: set(old.rule_sets) for d, old in zip(deals, [s for s in stored if s.summary == summary])}
    known_bad = {vid: u.reason for u in unrealised if u.summary == summary for vid in u.rule_sets}
    bad: dict = {}
    searched = []
    for variant in variants:
        # the deal that listed this rule set before, else any deal that realises it
        order = sorted(deals, key=lambda d: variant.id not in listed.get(d.seed, ()))
        home = next((d for d in order if realises(variant.rules, fixture.case, d.deal) is None), None)
        if home is None and variant.id in known_bad and not retry:
            bad.setdefault(known_bad[variant.id], []).append(variant.id)
            continue
        if home is None and search:
            seed = seed_for(fixture.id, variant.id)
            try:
                deal = realise(variant.rules, fixture.case, seed)
            except Unrealisable as exc:
                bad.setdefault(str(exc), []).append(variant.id)
                searched.append((fixture.id, variant.id, False))
                continue
            home = RealisedDeal(fixture.id, seed, [], summary, deal)
            deals.append(home)
            searched.append((fixture.id, variant.id, True))
        if home is not None:
            home.rule_sets.append(variant.id)
    for reason, ids in list(bad.items()):      # a deal found later may serve a rule set that failed earlier
        for vid in list(ids):
            variant = next(v for v in variants if v.id == vid)
            home = next((d for d in deals if realises(variant.rules, fixture.case, d.deal) is None), None)
            if home is not None:
                home.rule_sets.append(vid)
                ids.remove(vid)
        if not ids:
            del bad[reason]
    order = [v.id for v in variants]
    for d in deals:
        d.rule_sets.sort(key=order.index)
    deals = [d for d in deals if d.rule_sets]
    return deals, [Unrealised(fixture.id, ids, reason, summary) for reason, ids in bad.items()], searched


def build(corpus: Path | None = None, retry: bool = False, log=None) -> dict:
    """Bring the store up to date; returns counts and the files that changed."""
    fixtures = [f for f in load_corpus(corpus) if f.kind in KINDS]
    extra = shipped_variants()
    folder = store_dir(corpus)
    by_file: dict = {}
    for f in fixtures:
        by_file.setdefault(Path(f.file).name, []).append(f)
    changed, searched, pairs, unrealisable = [], [], 0, 0
    proved = arise.load(folder / arise.FILE)
    impossible = []
    for name, group in sorted(by_file.items()):
        path = folder / name
        stored_deals, stored_bad = load_file(path) if path.exists() else ([], [])
        deals, bad = [], []
        for fixture in group:
            variants = scope_variants(fixture, extra)
            pairs += len(variants)
            d, u, s = plan_fixture(fixture, variants, [x for x in stored_deals if x.fixture == fixture.id],
                                   [x for x in stored_bad if x.fixture == fixture.id], retry)
            deals += d
            bad += u
            searched += s
            unrealisable += sum(len(x.rule_sets) for x in u)
            # a match with no expectation under a shipped rule set is proved too: one that cannot arise
            # there is not applicable, never an engine's answer to a history no deal gives
            unjudged = [v for v in extra if fixture.kind == "match" and written(fixture, v) is None]
            impossible += _proofs(fixture, {v.id: v for v in variants + unjudged},
                                  [vid for x in u for vid in x.rule_sets] + [v.id for v in unjudged],
                                  proved.get(fixture.id, []))
            if log is not None:
                for fid, vid, ok in s:
                    log(f"{fid}@{vid}: {'realised' if ok else 'no deal found'}")
        text = render(f"conformance/{name}", deals, bad)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if text != old:
            changed.append(path)
            folder.mkdir(parents=True, exist_ok=True)
            part = path.with_name(path.name + ".part")
            part.write_text(text, encoding="utf-8")
            part.replace(path)      # whole or not at all
    path = folder / arise.FILE
    text = arise.render(impossible) if impossible or path.exists() else None
    if text is not None and text != (path.read_text(encoding="utf-8") if path.exists() else None):
        changed.append(path)
        folder.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + ".part")
        part.write_text(text, encoding="utf-8")
        part.replace(path)
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        if path.name not in by_file and path.name != arise.FILE:
            changed.append(path)
            path.unlink()
    return {"fixtures": len(fixtures), "pairs": pairs, "unrealisable": unrealisable, "searched": searched,
            "changed": changed}


def _proofs(fixture, variants: dict, ids: list, stored: list) -> list:
    """The proofs that a match fixture cannot arise under the rule sets ``ids`` (those no deal realises
    it under, and the shipped ones it has no expectation under): those stored for the same deals and
    rules kept, the others proved now (arise.py)."""
    if fixture.kind != "match":
        return []
    summary = summary_of_case(fixture.case)
    by_reason: dict = {}
    for vid in ids:
        variant = variants[vid]
        mark = arise.digest(variant)
        why = next((e.reason for e in stored if e.summary == summary and e.rule_sets.get(vid) == mark), None)
        if why is None:
            why = arise.prove(fixture, variant)
        if why is not None:
            by_reason.setdefault(why, {})[vid] = mark
    return [arise.Impossible(fixture.id, summary, why, marks) for why, marks in by_reason.items()]


def stale(corpus: Path | None = None, store=None) -> list[str]:
    """What is out of date in the store, one line each naming the fixture: a stored deal that no longer
    realises its fixture's summary under a rule set it lists, or a (fixture, rule set) pair with a hand
    or carried expectation and neither a deal nor a recorded reason. Replays only; never searches."""
    from .realised import load_store
    store = load_store(store_dir(corpus)) if store is None else store
    fixtures = [f for f in load_corpus(corpus) if f.kind in KINDS]
    extra = {v.id: v for v in shipped_variants()}
    out = []
    for fixture in fixtures:
        variants = {v.id: v for v in scope_variants(fixture, extra.values())}
        summary = summary_of_case(fixture.case)
        served = set()
        for deal in store.deals.get(fixture.id, []):
            for vid in deal.rule_sets:
                variant = variants.get(vid) or fixture.rule_sets.get(vid) or extra.get(vid)
                if variant is None:
                    out.append(f"{fixture.where}: {fixture.id}: the deal at {deal.where} lists {vid}, "
                               "a rule set the fixture is not judged under")
                    continue
                why = ("it was built for another summary" if deal.summary != summary
                       else realises(variant.rules, fixture.case, deal.deal))
                if why is None:
                    served.add(vid)
                else:
                    out.append(f"{fixture.where}: {fixture.id} under {vid}: the stored deal at {deal.where} no "
                               f"longer realises the fixture's summary ({why})")
        for u in store.unrealised.get(fixture.id, []):
            if u.summary == summary:
                served |= set(u.rule_sets)
        for vid in sorted(set(variants) - served):
            out.append(f"{fixture.where}: {fixture.id} under {vid}: no stored deal realises the fixture's summary")
    known = {f.id for f in fixtures}
    by_id = {f.id: f for f in fixtures}
    for fid, entries in sorted(arise.load(store_dir(corpus) / arise.FILE).items()):
        fixture = by_id.get(fid)
        for e in entries:
            if fixture is None or e.summary != summary_of_case(fixture.case):
                out.append(f"{store_dir(corpus) / arise.FILE}: {fid}: a proof that the case cannot arise, made for "
                           + ("a fixture that no longer exists" if fixture is None else "other deals"))
                continue
            for vid, mark in e.rule_sets.items():
                variant = fixture.rule_sets.get(vid) or extra.get(vid)
                if variant is None or arise.digest(variant) != mark:
                    out.append(f"{fixture.where}: {fid} under {vid}: the proof that the case cannot arise was "
                               "made on other rules")
    for fid in sorted(set(store.deals) - known):
        out.append(f"{store.deals[fid][0].where}: {fid}: a stored deal for a fixture that no longer exists")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coinche_spec.conformance.realised_build",
                                     description="Build the whole deals that realise the score, melds and match fixtures "
                                                 "(conformance/realised/), reusing every stored deal that "
                                                 "still realises its fixture.")
    parser.add_argument("--corpus", metavar="DIR", default=None, help="the corpus folder (default: the shipped one)")
    parser.add_argument("--retry", action="store_true", help="search again for the pairs recorded as unrealisable")
    parser.add_argument("--check", action="store_true",
                        help="write nothing and search nothing: list what is out of date (a stored deal that no "
                             "longer realises its fixture, a fixture without a deal), exit 1 if anything is")
    parser.add_argument("-v", "--verbose", action="store_true", help="name every pair searched")
    args = parser.parse_args(argv)
    from ..errors import CoincheSpecError
    t0 = time.monotonic()
    if args.check:
        try:
            lines = stale(Path(args.corpus) if args.corpus else None)
        except CoincheSpecError as exc:
            for line in exc.render().splitlines() or [""]:
                print(f"realised_build: {line}", file=sys.stderr)
            return 2
        for line in lines:
            print(line)
        print(f"{len(lines)} out of date ({time.monotonic() - t0:.0f} s)"
              + ("; rebuild with python -m coinche_spec.conformance.realised_build" if lines else ""))
        return 1 if lines else 0
    try:
        stats = build(Path(args.corpus) if args.corpus else None, args.retry,
                      log=(lambda line: print(line, file=sys.stderr, flush=True)) if args.verbose else None)
    except CoincheSpecError as exc:
        for line in exc.render().splitlines() or [""]:
            print(f"realised_build: {line}", file=sys.stderr)
        return 2
    found = sum(ok for _, _, ok in stats["searched"])
    verb = "written"
    print(f"{stats['fixtures']} score, melds and match fixtures, {stats['pairs']} (fixture, rule set) pairs: "
          f"{stats['pairs'] - stats['unrealisable']} realised, {stats['unrealisable']} unrealisable; "
          f"{len(stats['searched'])} searched ({found} found); {len(stats['changed'])} files {verb} "
          f"({time.monotonic() - t0:.0f} s)")
    for path in stats["changed"]:
        print(f"  {verb}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
