"""Match cases that cannot arise under a rule set: ``conformance/realised/cannot-arise.yaml``.

A match fixture records its deals' awards. Under a rule set none of whose
deals gives one of them (an award of 262 where every award is rounded to tens),
no game reaches that history: the case is not applicable there, as a bid of 85
is not where bids go up in tens, for an engine that answers ``match`` as for
one that plays whole deals. The proof is ``engine.awards``; proving takes up
to a second a case, so the realised-deal build writes the proofs once, for the
rule sets it realises the fixtures under, and the runner reads them.

An entry holds for a rule set only while its rules are those proved on (a
digest of the rules) and the fixture's deals are those recorded: an edited rule
set or fixture is a case again until the build runs.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from .. import yamlstrict
from ..engine.awards import contract_values, multipliers, why_impossible
from ..engine.match import as_read
from .realise import summary_of_case

FILE = "cannot-arise.yaml"
HEADER = ("# Match cases that cannot arise under a rule set: a recorded award that no deal of it gives, with\n"
          "# the proof (coinche_spec/engine/awards.py) and a digest of the rules it was proved on. Generated\n"
          "# with the realised deals (python -m coinche_spec.conformance.realised_build); never edit by hand.\n")


@dataclass
class Impossible:
    fixture: str
    summary: dict
    reason: str
    rule_sets: dict             # rule set id -> digest of the rules the proof was made on


def digest(variant) -> str:
    """A short digest of a rule set's rules: a proof holds only for the rules it was made on."""
    text = json.dumps(variant.document["rules"], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


_PROVED: dict = {}      # (the rules, the award) -> the proof or None: rule sets share scorings


def _award_text(award: dict) -> str:
    score = award["score"]
    return (f"{score['NS']} to {score['EW']}, {'made' if award['made'] else 'failed'} by {award['takers']}"
            + (f", belote {award['belote']}" if award.get("belote") else ""))


def why_award_impossible(rules, award: dict) -> str | None:
    """Why no deal under ``rules`` gives ``award`` (a match case's deal), or None: the per-deal engine's
    proofs (rounding; every deal without melds), else every deal with melds on arrays."""
    why = why_impossible(rules, award)
    if why is not None:
        return why
    from ..variants.compiled import compiled_rules
    c = compiled_rules(rules)
    if (not c.melds.enabled or award.get("takers") is None or award.get("tricks_won") is None
            or any(award.get(k) is not None for k in ("melds", "belotes", "exact_score"))):
        return None
    key = (json.dumps(rules.to_dict(), sort_keys=True, default=str), json.dumps(award, sort_keys=True))
    if key not in _PROVED:
        from ..batch.awards import some_deal_gives
        gives = some_deal_gives(rules, award, contract_values(c, award), multipliers(c))
        _PROVED[key] = None if gives in (True, None) else (
            "no deal of this rule set gives it: every bid, capot and générale, strain, multiplier, split of "
            "the card points, last trick and meld total one side may count was scored (by the batch engine)")
    return _PROVED[key]


def prove(fixture, variant) -> str | None:
    """Why ``fixture`` (a match) cannot arise under ``variant``: its first deal no deal of the rule set
    gives, with the proof; or None."""
    if fixture.kind != "match":
        return None
    for i, award in enumerate(fixture.case["deals"]):
        why = why_award_impossible(variant.rules, as_read(variant.rules, award))
        if why is not None:
            return f"deal {i + 1}'s award ({_award_text(award)}) cannot arise: {why}"
    return None


def load(path: Path) -> dict:
    """fixture id -> [Impossible]; a missing file: none."""
    from .realised import RealisedError, _display, _problem
    if not path.is_file():
        return {}
    display = _display(path)
    try:
        data, positions = yamlstrict.load_file(path, display)
    except yamlstrict.YamlStrictError as exc:
        raise RealisedError(list(exc.problems)) from None
    if not isinstance(data, dict) or set(data) != {"cases"}:
        raise RealisedError([_problem(display, positions, (), "expected a mapping with 'cases'")])
    out: dict = {}
    for i, raw in enumerate(data["cases"] or []):
        if (not isinstance(raw, dict) or set(raw) != {"fixture", "summary", "reason", "rule_sets"}
                or not isinstance(raw["rule_sets"], dict)):
            raise RealisedError([_problem(display, positions, ("cases", i),
                                          "an entry has exactly the fields fixture, summary, reason and "
                                          "rule_sets (rule set id: digest of its rules)")])
        out.setdefault(str(raw["fixture"]), []).append(
            Impossible(str(raw["fixture"]), raw["summary"], str(raw["reason"]), dict(raw["rule_sets"])))
    return out


def render(entries: list) -> str:
    lines = [HEADER.rstrip("\n"), "cases:" if entries else "cases: []"]
    from .realised import entry_lines
    for e in entries:
        lines += entry_lines(e.fixture, e.rule_sets, e.summary, e.reason)
    return "\n".join(lines) + "\n"


_TABLES: dict = {}
_DIGESTS: dict = {}


def _table() -> dict:
    from .realised import store_dir
    path = store_dir() / FILE
    if path not in _TABLES:
        _TABLES[path] = load(path)
    return _TABLES[path]


def _digest_of(variant) -> str:
    key = id(variant)
    if key not in _DIGESTS or _DIGESTS[key][0] is not variant:
        _DIGESTS[key] = (variant, digest(variant))
    return _DIGESTS[key][1]


def why_not(fixture, variant) -> str | None:
    """The recorded proof that ``fixture`` cannot arise under ``variant`` (its rules unchanged), or None."""
    if fixture.kind != "match":
        return None
    entries = _table().get(fixture.id)
    if not entries:
        return None
    for e in entries:
        if variant.id in e.rule_sets and e.summary == summary_of_case(fixture.case) \
                and e.rule_sets[variant.id] == _digest_of(variant):
            return e.reason
    return None
