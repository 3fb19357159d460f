"""Helpers shared by the engine tests: shipped rules, and rule sets with a few rules changed."""

from __future__ import annotations

import copy
import multiprocessing
import os

from coinche_spec.variants import load_variant


def changed_rules(base: str, changes: dict, separator: str = "."):
    """The rules of ``base`` with some rules replaced: {"play.cannot_overtrump": "must_discard"}.

    The changed document goes through the real loader, so it is a valid rule set."""
    doc = copy.deepcopy(load_variant(base).document)
    doc["id"] = "custom-" + base
    for path, value in changes.items():
        node = doc["rules"]
        keys = path.split(separator)
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return load_variant(doc).rules


def require_extra(module: str, variable: str, extra: str):
    """An optional engine's package (an extra), imported; without it the calling test module is
    skipped, unless CI says it must be there (``variable``=1), and then its absence fails loudly."""
    import importlib
    import os

    import pytest
    try:
        return importlib.import_module(module)
    except ImportError as exc:  # pragma: no cover - depends on the environment
        if os.environ.get(variable) == "1":
            raise ImportError(f"{variable}=1 but {module} cannot be imported ({exc}): "
                              f"pip install '.[test,{extra}]'") from exc
        pytest.skip(f"{extra} is not installed (pip install 'coinche-spec[{extra}]'); CI runs these tests",
                    allow_module_level=True)


def require_colver():
    """colver (COINCHE_REQUIRE_COLVER=1: must be there)."""
    return require_extra("colver", "COINCHE_REQUIRE_COLVER", "colver")


def require_belote_cli():
    """belote-cli's ``belote`` package, with the modules the adapter drives (COINCHE_REQUIRE_BELOTE_CLI=1:
    must be there)."""
    require_extra("belote.scoring", "COINCHE_REQUIRE_BELOTE_CLI", "belote-cli")
    return require_extra("belote", "COINCHE_REQUIRE_BELOTE_CLI", "belote-cli")


def case_records(path):
    """The case records of a ``--report-jsonl`` file, in order (its header and footer left out)."""
    import json
    from pathlib import Path
    return [r for r in map(json.loads, Path(path).read_text(encoding="utf-8").splitlines()) if r["record"] == "case"]


def stage_batch_refusal(monkeypatch) -> str:
    """Make the batch engine refuse contract.versus_defenders at_least_level (test-level-makes), as it
    would refuse a rule added to the per-deal engine before the batch: it plays every shipped and test
    rule set today, so the fallbacks of compare and fuzz are tried on a staged refusal. Returns the
    rule set that is now refused."""
    import coinche_spec.batch as batch
    from coinche_spec.variants.compiled import compiled_rules
    plays = batch.batch_rules

    def refusing(rules):
        if compiled_rules(rules).contract.versus_defenders == "at_least_level":
            raise batch.BatchUnsupported("rules.contract.versus_defenders: the batch engine does not play "
                                         "option 'at_least_level'")
        return plays(rules)
    monkeypatch.setattr(batch, "batch_rules", refusing)
    return "test-level-makes"


# A club's house file, as `coinche-spec new` writes one: to 1500, no melds, the belote counted
# without a word (the sheet, the PDF and the site read it).
CLUB = """\
extends: federation
id: our-club
name: "Le Club des As: house rules"
status: house
sources:
  - decided_by: "Le Club des As"
    decided_on: "2026-12-06"
    quote: "We play to 1500, without melds, and the belote counts without a word."
    rules: [match.target, melds.enabled, belote.claim]
interpretations: []
rules:
  match: {target: 1500}
  melds: {enabled: false}
  belote: {claim: automatic}
"""


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def two_cores() -> bool:
    """Whether a test may share pure work with one forked helper process: two cores or more to run on,
    and fork (the helper inherits what the test built, nothing is sent). Else the work runs here."""
    return _cores() > 1 and _can_fork()


def spare_core() -> bool:
    """Whether a core is free for a short forked helper: not when pytest-xdist already runs one worker
    per core (each worker keeps its core busy; a helper would only add the cost of forking)."""
    return two_cores() and int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) < _cores()


_BATCH = None   # the batch a forked helper replays (set only while it runs)


def _replay_part(deals: list) -> list:
    from coinche_spec.batch.replay import replay_batch
    return replay_batch(_BATCH, deals=deals)


def replayed_batch(batch, deals=None, share: bool | None = None) -> list:
    """``replay_batch(batch, deals=deals)``, the same list in the same order, with the second half of
    the deals replayed by a forked helper while this process replays the first: one deal's replay reads
    nothing of another's, and the replays are most of the batch tests' time. ``share`` forces the
    helper on or off (default: on where a core is spare, for 200 deals or more)."""
    from coinche_spec.batch.replay import replay_batch
    order = list(range(len(batch))) if deals is None else [int(i) for i in deals]
    if share is None:
        share = len(order) >= 200 and spare_core()
    if not share or not _can_fork():
        return replay_batch(batch, deals=order)
    global _BATCH
    half = len(order) // 2
    _BATCH = batch
    try:
        with multiprocessing.get_context("fork").Pool(1) as helper:
            second = helper.apply_async(_replay_part, (order[half:],))
            first = replay_batch(batch, deals=order[:half])
            return first + second.get()
    finally:
        _BATCH = None
