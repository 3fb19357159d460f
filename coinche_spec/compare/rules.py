"""The rules two or more rule sets differ on, in words, without those that cannot matter.

One name, ``differences``, built on the rules pages' sentences
(``docsgen.templates``), the one "cannot matter" test that the rules pages,
the house pages and ``variants diff`` use too (``docsgen.differences.
moot_difference``: a rule other rules make moot, such as the tout atout values
where tout atout cannot be bid) and the quotes ``variants.diff.basis`` finds.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..docsgen.compare import rows
from ..docsgen.differences import moot_difference
from ..docsgen.templates import Ctx
from ..variants.diff import basis


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


def differences(variants: list) -> tuple[list[RuleChange], list[str]]:
    """The rules that differ and can matter, and the titles of those left out (with why)."""
    kept, left_out = [], []
    ctxs = [Ctx(v.document["rules"]) for v in variants]
    for row in rows(variants, shared=()):
        if not row.differs:
            continue
        t = row.template
        why = moot_difference(t.paths, ctxs, [v.id for v in variants])
        if why:
            left_out.append(f"{t.title}: {why}")
            continue
        kept.append(RuleChange(t.key, t.title, t.section, tuple(c.text for c in row.cells),
                               tuple(t.say(c) for c in ctxs),
                               tuple(basis(v.document, t.paths[0])[:2] for v in variants)))
    return kept, left_out
