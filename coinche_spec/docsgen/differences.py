"""What rule sets play differently, in a player's words, leaving out what cannot matter.

``variants diff`` lists every parameter whose value differs; a table wants to
know what changes at the table. So each difference here is one rule's
sentence under each rule set (the rules pages' sentences), and a difference
in a rule that one of the rule sets never uses (tout atout values where
tout atout cannot be bid, a surcoinche multiplier where nobody may
surcoinche) is left out: it is only a consequence of another difference,
which is listed. The one place differences are worded: the house pages'
"What we play differently" (``rule_changes``, two rule sets), ``compare``
(``worded_differences``, two or more) and ``variants diff`` (``that_can_matter``)
all read it, and all leave out by one test (``cannot_matter``), the one the
rules pages fold rules by.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..variants.compiled import with_defaults
from ..variants.diff import basis, differences, flatten, show_given
from .templates import TEMPLATES, Ctx, Template, covers, leaf_unused, template_for

# An uncoinched award is multiplied by 1 (a coinched deal is scored under coinched_made or
# coinched_failed, engine.scoring._outcome): what its `multiplied` says can never change a score.
_MULTIPLIER_ONE = ("scoring.made.", "scoring.failed.")


def cannot_matter(ctx: Ctx, path: str) -> str | None:
    """Why the rule at ``path`` cannot change any deal under these rules (the other rules make it
    moot: tout atout values where tout atout cannot be bid), or None when it can.

    The one test of "cannot matter": rules pages fold such a rule, house pages, ``compare`` and
    ``variants diff`` leave a difference in it out. It is the rule's template's ``unused``, or, for one
    kind's value of a rule said per kind of contract, that kind's (``leaf_unused``)."""
    t = template_for(path)
    return (t.unused(ctx) or leaf_unused(ctx, path)) if t is not None else None


def set_but_moot(rules: dict, written: dict) -> list[tuple[str, str]]:
    """(path, why) for each rule a file sets itself (``written``: its own `rules` block) that cannot
    matter under the resolved ``rules``: a house file's slip, since setting it changes no deal.

    One entry per rule sentence, at what the file writes of it (the whole sans atout table, or
    the one value of it given), by the test of ``cannot_matter``: ``variants check`` warns of each
    and the house pages name them apart."""
    ctx = Ctx(rules)
    by_rule: dict[str, list[str]] = {}
    for path in flatten(written):
        t = template_for(path)
        if t is not None:
            by_rule.setdefault(t.key, []).append(path)
    out = []
    for paths in by_rule.values():
        why = cannot_matter(ctx, paths[0])
        if not why:     # the rule matters, but one kind's value of it may not (a sans atout factor, suits only)
            out.extend((p, leaf_unused(ctx, p)) for p in paths if leaf_unused(ctx, p))
            continue
        if why:
            shared = []
            for parts in zip(*(p.split(".") for p in paths)):
                if len(set(parts)) > 1:
                    break
                shared.append(parts[0])
            out.append((".".join(shared) or paths[0], why))
    return out


def _comparable(path: str, value):
    """The value with its moot leaves taken out: the `multiplied` of an uncoinched award."""
    if path.startswith(_MULTIPLIER_ONE) and isinstance(value, dict):
        return {k: v for k, v in value.items() if k != "multiplied"}
    return value


def moot_difference(paths, ctxs: list, names: list) -> str | None:
    """Why a difference in the rules at ``paths`` between rule sets (one Ctx each, ``names`` for
    the message) cannot matter, or None: the rule cannot matter under one of them, or the values
    differ only in what multiplies an uncoinched award (always x1)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    for name, ctx in zip(names, ctxs):
        why = cannot_matter(ctx, paths[0])
        if why:
            return f"unused under {name} ({why})"
    seen = {json.dumps([_comparable(p, ctx.get(p)) for p in paths], sort_keys=True) for ctx in ctxs}
    if len(seen) == 1:
        return "differs only in what multiplies an uncoinched award (always x1)"
    return None


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


def that_can_matter(left: dict, right: dict, diffs: list, names: list) -> tuple[list, list[tuple[str, str]]]:
    """``variants diff``'s differences (variants.diff.RuleDifference) split into those that can
    matter and (path, why) for those left out, by the same test as the pages and ``compare``."""
    ctxs = [Ctx(with_defaults(left["rules"])), Ctx(with_defaults(right["rules"]))]
    kept, left_out = [], []
    for d in diffs:
        why = moot_difference(d.path, ctxs, names)
        if why:
            left_out.append((d.path, why))
        else:
            kept.append(d)
    return kept, left_out


def rule_changes(a_rules: dict, b_rules: dict, reasons=()) -> list[RuleChange]:
    """The rules ``b`` plays differently from ``a``, in the rules pages' order, with the readings
    among ``reasons`` (interpretation entries) that explain them; rules one side never uses are
    left out."""
    a_ctx, b_ctx = Ctx(with_defaults(a_rules)), Ctx(with_defaults(b_rules))
    grouped: dict[str, list] = {}
    for d in differences({"rules": a_rules}, {"rules": b_rules}):
        t = template_for(d.path)
        if t is not None:
            grouped.setdefault(t.key, []).append(d)
    out = []
    for t in TEMPLATES:
        if t.key not in grouped or cannot_matter(a_ctx, t.paths[0]) or cannot_matter(b_ctx, t.paths[0]):
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
    words, and the titles of those left out (with why): what ``compare`` shows first."""
    from .compare import rows   # the comparison page's short words; it reads the templates too

    kept, left_out = [], []
    ctxs = [Ctx(with_defaults(v.document["rules"])) for v in variants]
    for row in rows(variants, shared=()):
        if not row.differs:
            continue
        t = row.template
        why = moot_difference(t.paths, ctxs, [v.id for v in variants])
        if why:
            left_out.append(f"{t.title}: {why}")
            continue
        kept.append(WordedChange(t.key, t.title, t.section, tuple(c.text for c in row.cells),
                                 tuple(t.say(c) for c in ctxs),
                                 tuple(basis(v.document, t.paths[0])[:2] for v in variants)))
    return kept, left_out


__all__ = ["RuleChange", "WordedChange", "rule_changes", "house_changes", "worded_differences", "cannot_matter",
           "moot_difference", "that_can_matter", "set_but_moot"]
