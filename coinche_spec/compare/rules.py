"""The rules two or more rule sets differ on, in words, without those that cannot matter.

One name, ``differences``, so that a fuller "differences in words" (the
rules sheet's) can replace this body without touching its callers. It is
built on the rules pages' sentences (``docsgen.templates``), their "unused
here" test (a rule other rules make moot, such as the tout atout values where
tout atout cannot be bid) and the quotes ``variants.diff.basis`` finds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..docsgen.compare import rows
from ..docsgen.templates import Ctx
from ..variants.diff import basis

# An uncoinched award is multiplied by 1 (a coinched deal is scored under coinched_made or
# coinched_failed, engine.scoring._outcome): what its `multiplied` says can never change a score.
_MULTIPLIER_ONE = ("scoring.made.", "scoring.failed.")


@dataclass(frozen=True)
class RuleChange:
    """One rule as each rule set has it: a few words, the full sentence, the words it rests on."""

    key: str
    title: str
    section: str
    values: tuple[str, ...]       # short value per rule set, in the order given
    sentences: tuple[str, ...]
    basis: tuple[tuple[str, ...], ...]

    def to_json(self, ids) -> dict:
        return {"rule": self.key, "title": self.title, "section": self.section,
                "rule_sets": {i: {"value": v, "sentence": s, "basis": list(b)}
                              for i, v, s, b in zip(ids, self.values, self.sentences, self.basis)}}


def _without_moot_leaves(ctx: Ctx, paths) -> str:
    """The template's leaves as comparable text, with the `multiplied` of uncoinched awards left out."""
    out = []
    for p in paths:
        value = ctx.get(p)
        if p.startswith(_MULTIPLIER_ONE) and isinstance(value, dict):
            value = {k: v for k, v in value.items() if k != "multiplied"}
        out.append(value)
    return json.dumps(out, sort_keys=True)


def differences(variants: list) -> tuple[list[RuleChange], list[str]]:
    """The rules that differ and can matter, and the titles of those left out (with why)."""
    kept, left_out = [], []
    ctxs = [Ctx(v.document["rules"]) for v in variants]
    for row in rows(variants, shared=()):
        if not row.differs:
            continue
        t = row.template
        unused = [(v.id, c.unused) for v, c in zip(variants, row.cells) if c.unused]
        if unused:
            left_out.append(f"{t.title}: unused under {unused[0][0]} ({unused[0][1]})")
            continue
        if len({_without_moot_leaves(c, t.paths) for c in ctxs}) == 1:
            left_out.append(f"{t.title}: differs only in what multiplies an uncoinched award (always x1)")
            continue
        kept.append(RuleChange(t.key, t.title, t.section, tuple(c.text for c in row.cells),
                               tuple(t.say(c) for c in ctxs),
                               tuple(basis(v.document, t.paths[0])[:2] for v in variants)))
    return kept, left_out
