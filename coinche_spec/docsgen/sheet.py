"""The content of a rules page, as data: read by the Markdown page (page.py) and the HTML sheet (html.py).

Deciding what a page says is one job, laying it out another: which rules a
house changes and why, which rules cannot matter here (folded away), what
each rule rests on, and which of a parent's quotes no longer speak for this
rule set. A parent's sentence that states a value the house changed ("the
first side reaching 2000 wins" under a 1500 target) is never quoted; the
rules it also spoke for are said to be played as in the parent.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..resources import variants_dir
from ..sources import source_kind, source_origin, source_part, source_where
from ..variants import load_variant_file
from ..variants.loader import Variant, house_dir
from . import examples as ex_mod
from .differences import RuleChange, house_changes
from .templates import SECTIONS, TEMPLATES, Ctx, Template, covers, intro, template_for

# The rules a table looks up during play, in the order of a deal: the "at a glance" summary; a rule
# the house changes is added in its section's place, starred (glance_rules).
GLANCE_KEYS = ("direction", "packets", "bid-minimum", "bid-step", "bid-maximum", "sans-atout-bid",
               "tout-atout-bid", "capot-bid", "coinche-when", "coinche-multiplier", "surcoinche-multiplier",
               "opponent-winning", "partner-winning", "overtrump", "melds", "belote", "belote-points",
               "versus-defenders", "made", "failed", "coinched-made", "coinched-failed", "rounding",
               "target")
# What else decides a line of the glance: "Made or failed" says the least total and the margin a
# contract also needs, when the rule set has one (a floor at or below the lowest bid is none).
GLANCE_ALSO = {"versus-defenders": (
    ("minimum-total", lambda c: c.rules.contract.minimum_total > c.rules.auction.bids.minimum),
    ("margin", lambda c: bool(c.rules.contract.margin)))}


@dataclass(frozen=True)
class Basis:
    """One thing a rule rests on: a source quote, a reading, or a note (kind says which)."""

    kind: str           # "source" | "reading" | "house" | "as-parent" | "none"
    text: str
    where: str = ""     # a source's document title and section
    repeat: bool = False    # already quoted in this section (a page shortens it)
    ident: str = ""     # a reading's id


@dataclass
class Rule:
    template: Template
    sentence: str
    unused: str | None
    basis: list[Basis]
    changed: bool = False


@dataclass
class Section:
    key: str
    heading: str
    intro: str | None
    rules: list[Rule]

    @property
    def in_play(self) -> list[Rule]:
        return [r for r in self.rules if not r.unused]

    @property
    def folded(self) -> list[Rule]:
        """Rules other rules make moot here: kept on the page, folded away."""
        return [r for r in self.rules if r.unused]


@dataclass
class Reading:
    item: dict
    whose: str          # "" | "house" | "parent"


@dataclass
class Sheet:
    variant: Variant
    parent: Variant | None
    changes: list[RuleChange]
    sources: list[tuple[str, int, list[str]]]     # document title, sentences quoted, sections
    sections: list[Section]
    glance: list[Rule]
    examples: list                  # every worked example, in the Markdown page's order
    meld_examples: list             # the meld comparisons among them (the printed sheet's appendix)
    readings: list[Reading]
    shown_path: str

    @property
    def doc(self) -> dict:
        return self.variant.document

    @property
    def is_house(self) -> bool:
        """House rules are a table's own; a published or program's rule set extending a seed is not,
        and its page must not speak as the table ("what we play")."""
        return self.doc.get("status") == "house"

    @property
    def changes_heading(self) -> str:
        """The heading of the section listing what this file changes from its parent."""
        if self.is_house or self.parent is None:
            return "What we play differently"
        return f"What differs from `{self.parent.id}`"

    @property
    def these_rules(self) -> str:
        return "These house rules" if self.is_house else "These rules"

    @property
    def moot(self) -> list[tuple[str, str, str]]:
        """(title, rule path, why) of each rule the file sets that cannot matter here: named apart
        from what it plays differently rather than dropped (``variants check`` warns of each)."""
        return [(template_for(path).title, path, why) for path, why in self.variant.moot]


# --- where the rule set lives -------------------------------------------------------

def parent_of(variant: Variant) -> Variant | None:
    """The rule set a house file extends (resolved), or None."""
    written = variant.written or {}
    if "extends" not in written or len(variant.chain) < 2:
        return None
    parent_path = Path(variant.chain[1])
    return load_variant_file(parent_path, shown_path(parent_path))


def shown_path(path: Path | None) -> str:
    """The file as the page names it: relative to the repository for shipped files, else its name."""
    if path is None:
        return "(a document given as data)"
    p = Path(path).resolve()
    for folder, prefix in ((house_dir(), "variants/house/"), (variants_dir(), "variants/")):
        try:
            if p.parent == folder.resolve():
                return prefix + p.name
        except OSError:
            pass
    return p.name


def where(item: dict) -> str:
    """A source's document and section, program and file, or house decision (sources.py says each)."""
    return source_where(item)


# --- the basis of each rule ------------------------------------------------------------

class _Basis:
    """What each rule rests on; a quote repeated within a section is marked as a repeat."""

    def __init__(self, variant: Variant, parent: Variant | None, changes: list[RuleChange]):
        self.doc = variant.document
        self.parent = parent
        self.changed_keys = {c.template.key for c in changes}
        written = variant.written or {}
        self.own = {"sources": written.get("sources", []), "interpretations": written.get("interpretations", [])}
        self.titles = {c.template.key: c.title.lower() for c in changes}
        self.seen: set = set()

    def new_section(self) -> None:
        self.seen = set()

    def for_rule(self, t: Template) -> list[Basis]:
        if self.parent is not None and t.key in self.changed_keys:
            out = self._entries(self.own, t)
            if self.doc.get("status") == "house":
                out.append(Basis("house", f"House rule: changed from {self.parent.id} "
                                          "(see “What we play differently”)."))
            else:
                out.append(Basis("house", f"Changed from {self.parent.id} "
                                          f"(see “What differs from `{self.parent.id}`”)."))
            return out
        out = self._entries(self.doc, t)
        if not out and self.parent is not None:
            out = self._as_parent(t)
        return out or [Basis("none", "none recorded")]

    def _entries(self, src: dict, t: Template) -> list[Basis]:
        out = []
        for item in src.get("sources", []):
            if covers(item.get("rules", []), t):
                quote = (item.get("quote") or "").strip()
                key = ("q", quote or where(item))
                out.append(Basis("source", quote, where(item), key in self.seen))
                self.seen.add(key)
        for item in src.get("interpretations", []):
            if covers(item.get("rules", []), t):
                key = ("r", item["id"])
                out.append(Basis("reading", " ".join(item["reading"].split()), "", key in self.seen, item["id"]))
                self.seen.add(key)
        return out

    def _as_parent(self, t: Template) -> list[Basis]:
        """A parent's words that spoke for this rule and for one the house changed: not quoted."""
        out = []
        pdoc = self.parent.document
        for item in pdoc.get("sources", []) + pdoc.get("interpretations", []):
            if not covers(item.get("rules", []), t):
                continue
            also = sorted({title for key, title in self.titles.items()
                           if any(covers(item.get("rules", []), tt) for tt in TEMPLATES if tt.key == key)})
            if not also:
                continue
            origin = where(item) if "id" not in item else f"{self.parent.id}'s reading {item['id']}"
            text = (f"Played as in {self.parent.id} ({origin}); its words are not quoted here, as they also "
                    f"state the {' and the '.join(also)} that these house rules change.")
            out.append(Basis("as-parent", text, repeat=("p", text) in self.seen))
            self.seen.add(("p", text))
        return out


# --- the sheet ----------------------------------------------------------------------------

def _sources(doc: dict) -> list[tuple[str, int, list[str]]]:
    """(source, entries, their sections / files / dates) per document, program or house decision."""
    order: dict[str, list] = {}
    for s in doc.get("sources", []):
        entry = order.setdefault(source_origin(s), [0, []])
        entry[0] += 1
        if source_part(s) and source_part(s) not in entry[1]:
            entry[1].append(source_part(s))
    return [(title, n, sections) for title, (n, sections) in order.items()]


def all_documents(doc: dict) -> bool:
    """Whether every source is a document (the page then says "these source documents")."""
    return all(source_kind(s) == "document" for s in doc.get("sources", []))


def glance_rules(sections: list[Section], ctx: Ctx) -> list[Rule]:
    """The game at a glance: the GLANCE_KEYS rules, each line with what else decides it (GLANCE_ALSO),
    and every other rule the house changes, in the order of the page's sections; a line is starred
    (``changed``) when the house changed a rule it states. A rule that cannot matter has no line."""
    also = {key for parts in GLANCE_ALSO.values() for key, _ in parts}
    out = []
    for section in sections:
        by_key = {r.template.key: r for r in section.in_play}
        keys = [k for k in GLANCE_KEYS if k in by_key]
        keys += [r.template.key for r in section.in_play
                 if r.changed and r.template.key not in keys and r.template.key not in also]
        for key in keys:
            rule = by_key[key]
            others = [by_key[k] for k, says in GLANCE_ALSO.get(key, ()) if k in by_key and (says(ctx) or
                                                                                           by_key[k].changed)]
            if others:
                rule = Rule(rule.template, " ".join([rule.sentence] + [o.sentence for o in others]), None,
                            rule.basis, rule.changed or any(o.changed for o in others))
            out.append(rule)
    return out


def build_sheet(variant: Variant) -> Sheet:
    """Everything a rules page says about a resolved rule set (a house one compared with its parent)."""
    parent = parent_of(variant)
    changes = house_changes(variant, parent) if parent is not None else []
    ctx = Ctx(variant.document["rules"])
    basis = _Basis(variant, parent, changes)
    changed = {c.template.key for c in changes}
    sections = []
    for key, heading in SECTIONS:
        basis.new_section()
        rules = [Rule(t, t.say(ctx), t.unused(ctx), basis.for_rule(t), t.key in changed)
                 for t in TEMPLATES if t.section == key
                 and not (ctx.left_out(t.paths) and t.unused(ctx))]
        sections.append(Section(key, heading, intro(key, ctx), rules))
    glance = glance_rules(sections, ctx)
    own_ids = {i["id"] for i in (variant.written or {}).get("interpretations", [])} if parent else set()
    readings = [Reading(item, "" if parent is None else ("house" if item["id"] in own_ids else "parent"))
                for item in variant.document.get("interpretations", [])]
    melds = ex_mod.meld_examples(variant.rules, ctx)
    examples = ex_mod.deal_examples(variant.rules, ctx) + melds + ex_mod.match_examples(variant.rules, ctx)
    return Sheet(variant, parent, changes, _sources(variant.document), sections, glance,
                 examples, melds, readings, shown_path(variant.path))


__all__ = ["Sheet", "Section", "Rule", "Basis", "Reading", "build_sheet", "parent_of", "shown_path", "all_documents"]
