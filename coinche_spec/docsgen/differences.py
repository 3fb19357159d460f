"""What rule sets play differently, in a player's words, leaving out what cannot matter.

``variants diff`` lists every parameter whose value differs; a table wants to
know what changes at the table. So each difference here is one rule's
sentence under each rule set (the rules pages' sentences), and a difference
in a rule that one of the rule sets never uses (tout atout values where
tout atout cannot be bid, a surcoinche multiplier where nobody may
surcoinche) is left out: it is only a consequence of another difference,
which is listed. The one place differences are worded: the house pages'
"What we play differently" (``rule_changes``, two rule sets) and ``compare``
(``worded_differences``, two or more) read it; they, ``variants diff`` and the
rules pages all leave out by the rules layer's one test
(``variants.relevance``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..variants.compiled import with_defaults
from ..variants.diff import basis, differences, flatten, show_given, show_value
from ..variants.relevance import moot_difference
from .templates import TEMPLATES, Ctx, Template, covers, template_for

@dataclass(frozen=True)
class RuleChange:
    """One rule two rule sets play differently: its sentence under each, and why (when known)."""

    template: Template
    values: tuple          # (path, value in a, value in b) for every differing leaf
    before: str            # the sentence under the first rule set
    after: str             # the sentence under the second
    reasons: tuple[str, ...] = ()   # readings of the second rule set that speak for this rule
    given: tuple = ()      # (given in a, given in b) per entry of ``values``; False: left out, the default

    @property
    def title(self) -> str:
        return self.template.title

    def shown(self) -> list[tuple[str, str, str]]:
        """(path, before, after) per differing leaf as a reader sees the values: a rule left out
        shows its default, marked (``"never" (left out)``)."""
        given = self.given or ((True, True),) * len(self.values)
        return [(path, show_given(a, ga), show_given(b, gb)) for (path, a, b), (ga, gb) in zip(self.values, given)]


def rule_changes(a_rules: dict, b_rules: dict, reasons=()) -> list[RuleChange]:
    """The rules ``b`` plays differently from ``a``, in the rules pages' order, with the readings
    among ``reasons`` (interpretation entries) that explain them; rules one side never uses are
    left out."""
    a_ctx, b_ctx = Ctx(a_rules), Ctx(b_rules)
    grouped: dict[str, list] = {}
    for d in differences({"rules": a_rules}, {"rules": b_rules}):
        t = template_for(d.path)
        if t is not None:
            grouped.setdefault(t.key, []).append(d)
    out = []
    for t in TEMPLATES:
        if t.key not in grouped or t.unused(a_ctx) or t.unused(b_ctx):
            continue
        why = tuple(" ".join(item["reading"].split()) for item in reasons if covers(item.get("rules", []), t))
        ds = grouped[t.key]
        out.append(RuleChange(t, tuple((d.path, d.left, d.right) for d in ds), t.say(a_ctx), t.say(b_ctx), why,
                              tuple((d.left_given, d.right_given) for d in ds)))
    return out


def house_changes(variant, parent) -> list[RuleChange]:
    """What a house rule set plays differently from the rule set it extends, with the house's reasons."""
    own = (variant.written or {}).get("interpretations", [])
    return rule_changes(parent.document["rules"], variant.document["rules"], own)


@dataclass(frozen=True)
class WordedChange:
    """One rule as each of several rule sets has it: a few words, the full sentence, the words it rests on."""

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


def worded_differences(variants: list) -> tuple[list[WordedChange], list[str]]:
    """The rules two or more rule sets play differently and that can matter, in the rules pages'
    words, and the titles of those left out (with why): what ``compare`` shows first. A rule no
    sentence speaks for yet is listed too, after the others, by its path and values."""
    from .compare import rows   # the comparison page's short words; it reads the templates too

    kept, left_out = [], []
    rule_sets = [v.document["rules"] for v in variants]
    ids = [v.id for v in variants]
    ctxs = [Ctx(v.rules) for v in variants]
    for row in rows(variants, shared=()):
        if not row.differs:
            continue
        t = row.template
        why = moot_difference(t.paths, rule_sets, ids)
        if why:
            left_out.append(f"{t.title}: {why}")
            continue
        kept.append(WordedChange(t.key, t.title, t.section, tuple(c.text for c in row.cells),
                                 tuple(t.say(c) for c in ctxs),
                                 tuple(basis(v.document, t.paths[0])[:2] for v in variants)))
    for path in _unworded_differences(rule_sets):
        why = moot_difference(path, rule_sets, ids)
        if why:
            left_out.append(f"{path}: {why}")
            continue
        values = tuple(show_value(flatten(with_defaults(rules)).get(path)) for rules in rule_sets)
        kept.append(WordedChange(path, path, "", values,
                                 tuple(f"{path} = {value} (no sentence yet)" for value in values),
                                 tuple(basis(v.document, path)[:2] for v in variants)))
    return kept, left_out


def _unworded_differences(rule_sets: list) -> list[str]:
    """The rule paths on which the rule sets differ that no sentence speaks for (a rule just added
    to the schema): ``compare`` still lists them, so a difference is never silently dropped."""
    flat = [flatten(with_defaults(rules)) for rules in rule_sets]
    paths = dict.fromkeys(p for f in flat for p in f)
    return [p for p in paths if template_for(p) is None and len({json.dumps(f.get(p), sort_keys=True) for f in flat}) > 1]

__all__ = ["RuleChange", "WordedChange", "rule_changes", "house_changes", "worded_differences"]
