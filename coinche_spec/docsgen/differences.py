"""What two rule sets play differently, in a player's words, leaving out what cannot matter.

``variants diff`` lists every parameter whose value differs; a table wants to
know what changes at the table. So each difference here is one rule's
sentence under each rule set (the rules pages' sentences), and a difference
in a rule that one of the two rule sets never uses (tout atout values where
tout atout cannot be bid, a surcoinche multiplier where nobody may
surcoinche) is left out: it is only a consequence of another difference,
which is listed. ``compare`` and the house pages' "What we play differently"
both read this.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..variants.diff import differences
from .templates import TEMPLATES, Ctx, Template, covers, template_for


@dataclass(frozen=True)
class RuleChange:
    """One rule two rule sets play differently: its sentence under each, and why (when known)."""

    template: Template
    values: tuple          # (path, value in a, value in b) for every differing leaf
    before: str            # the sentence under the first rule set
    after: str             # the sentence under the second
    reasons: tuple[str, ...] = ()   # readings of the second rule set that speak for this rule

    @property
    def title(self) -> str:
        return self.template.title


def rule_changes(a_rules: dict, b_rules: dict, reasons=()) -> list[RuleChange]:
    """The rules ``b`` plays differently from ``a``, in the rules pages' order, with the readings
    among ``reasons`` (interpretation entries) that explain them; rules one side never uses are
    left out."""
    a_ctx, b_ctx = Ctx(a_rules), Ctx(b_rules)
    grouped: dict[str, list] = {}
    for d in differences({"rules": a_rules}, {"rules": b_rules}):
        t = template_for(d.path)
        if t is not None:
            grouped.setdefault(t.key, []).append((d.path, d.left, d.right))
    out = []
    for t in TEMPLATES:
        if t.key not in grouped or t.unused(a_ctx) or t.unused(b_ctx):
            continue
        why = tuple(" ".join(item["reading"].split()) for item in reasons if covers(item.get("rules", []), t))
        out.append(RuleChange(t, tuple(grouped[t.key]), t.say(a_ctx), t.say(b_ctx), why))
    return out


def house_changes(variant, parent) -> list[RuleChange]:
    """What a house rule set plays differently from the rule set it extends, with the house's reasons."""
    own = (variant.written or {}).get("interpretations", [])
    return rule_changes(parent.document["rules"], variant.document["rules"], own)


__all__ = ["RuleChange", "rule_changes", "house_changes"]
