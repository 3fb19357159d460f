"""A whole rules page in Markdown: where the rules come from, every rule in words with its basis,
worked examples, and the readings taken where the sources are silent or ambiguous.

The page is meant to be printed and played with, so the rules come in the
order of a deal (table, auction, coinche, play, values, melds, belote,
contract, score, match), each as a sentence written from the rule's value,
followed by the source sentence it rests on or the reading the rule set
takes. A house rule set names the rule set it extends and what it changes.
"""

from __future__ import annotations

from pathlib import Path

from ..variants import load_variant_file
from ..variants.diff import differences, show_value
from ..variants import registry
from ..variants.loader import Variant
from . import examples as ex_mod
from .templates import SECTIONS, TEMPLATES, Ctx, Template, covers, intro, template_for

STATUS_WORDS = {
    "described": "described: every rule is stated by the sources",
    "interpreted": ("interpreted: the sources leave some rules open or say them two ways; the readings this "
                    "rule set takes are listed in section 4"),
    "house": "house rules: a table's own rule set, built on another one",
}


# --- where the rule set lives ------------------------------------------------------

def parent_of(variant: Variant) -> Variant | None:
    """The rule set a house file extends (resolved), or None."""
    written = variant.written or {}
    if "extends" not in written or len(variant.chain) < 2:
        return None
    parent_path = Path(variant.chain[1])
    return load_variant_file(parent_path, _shown_path(parent_path))


def _shown_path(path: Path | None) -> str:
    """The file as the page names it: relative to the repository for shipped files, else its name."""
    if path is None:
        return "(a document given as data)"
    kind = registry.kind_of(Path(path))
    return registry.place(kind) + Path(path).name if kind else Path(path).name


# --- the basis of a rule -------------------------------------------------------------

def _short(quote: str, words: int = 8) -> str:
    parts = quote.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")


class _Basis:
    """Writes the sources and readings under each rule; a quote repeated within a section is shortened."""

    def __init__(self, document: dict, own: dict | None):
        self.doc = document
        self.own = own            # a house file's own sources and interpretations (None: not a house file)
        self.seen: set = set()

    def new_section(self) -> None:
        self.seen = set()

    def lines(self, template: Template, own_only: bool) -> list[str]:
        src = self.own if own_only and self.own is not None else self.doc
        out = []
        for item in src.get("sources", []):
            if covers(item.get("rules", []), template):
                out.extend(self._source(item))
        for item in src.get("interpretations", []):
            if covers(item.get("rules", []), template):
                out.append(self._reading(item))
        return out

    def _source(self, item: dict) -> list[str]:
        quote, where = item["quote"].strip(), f"{item['seed']}, {item['section']}"
        key = ("q", quote)
        if key in self.seen:
            return [f"  - Source: “{_short(quote)}” ({where}, quoted above)"]
        self.seen.add(key)
        if "\n" in quote:
            return [f"  - Source ({where}):", ""] + [f"    > {line}" for line in quote.splitlines()] + [""]
        return [f"  - Source: “{quote}” ({where})"]

    def _reading(self, item: dict) -> str:
        key = ("r", item["id"])
        if key in self.seen:
            return f"  - Our reading ({item['id']}): see above."
        self.seen.add(key)
        return f"  - Our reading ({item['id']}): {' '.join(item['reading'].split())}"


# --- the page ---------------------------------------------------------------------------

def _display_path(template: Template) -> str:
    """The rule path a reader looks up in the file: the leaf, or the group the leaves share."""
    if len(template.paths) == 1:
        return template.paths[0]
    parts = [p.split(".") for p in template.paths]
    common = []
    for items in zip(*parts):
        if len(set(items)) != 1:
            break
        common.append(items[0])
    return ".".join(common) or ", ".join(template.paths)


def rule_line(template: Template, ctx: Ctx) -> str:
    """A rule as the page prints it: title, the sentence, and "unused" when other rules make it moot."""
    sentence = template.say(ctx)
    reason = template.unused(ctx)
    head = f"- **{template.title}** (`{_display_path(template)}`)."
    if reason:
        return f"{head} *Unused here: {reason}.* The rule set records: {sentence}"
    return f"{head} {sentence}"


def changed_templates(parent: Variant, variant: Variant) -> list[tuple[Template, list]]:
    """The templates whose rules a house rule set changes, with the differences for each."""
    grouped: dict[str, list] = {}
    order: list[Template] = []
    for d in differences(parent.document, variant.document):
        t = template_for(d.path)
        if t is None:       # a path no template knows: uncovered() reports it in the tests
            continue
        if t.key not in grouped:
            grouped[t.key] = []
            order.append(t)
        grouped[t.key].append(d)
    return [(t, grouped[t.key]) for t in order]


def _origin_section(variant: Variant, parent: Variant | None, changes) -> list[str]:
    doc = variant.document
    out = ["## 1. Where these rules come from", ""]
    if parent is not None:
        pname = parent.document["name"]
        out.append(f"These are house rules. They extend `{parent.id}` ({pname}) and change "
                   f"{len(changes)} of its rules; everything else is played as in `{parent.id}`, "
                   f"whose sources are quoted below each rule.")
        out.append("")
        out.append(f"What changes from `{parent.id}`:")
        out.append("")
        pctx = Ctx(parent.document["rules"])
        ctx = Ctx(doc["rules"])
        for t, diffs in changes:
            values = "; ".join(f"`{d.path}`: {show_value(d.left)} → {show_value(d.right)}" for d in diffs)
            out.append(f"- **{t.title}** ({values}). Here: {t.say(ctx)} In `{parent.id}`: {t.say(pctx)}")
        out.append("")
    seeds: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    for s in doc.get("sources", []):
        seeds.setdefault(s["seed"], [])
        counts[s["seed"]] = counts.get(s["seed"], 0) + 1
        if s["section"] not in seeds[s["seed"]]:
            seeds[s["seed"]].append(s["section"])
    if seeds:
        out.append("The rules quote, word for word, these source documents:")
        out.append("")
        for seed, sections in seeds.items():
            n = counts[seed]
            out.append(f"- `{seed}`: {n} sentence{'s' if n != 1 else ''}, from " + "; ".join(sections) + ".")
        out.append("")
    n = len(doc.get("interpretations", []))
    if n:
        out.append(f"Where a source is silent or can be read two ways, the rule set says which reading it "
                   f"takes: {n} reading{'s' if n != 1 else ''}, listed in section 4.")
        out.append("")
    return out


def _rules_section(variant: Variant, parent: Variant | None, changes) -> list[str]:
    ctx = Ctx(variant.document["rules"])
    own = None
    if parent is not None:
        written = variant.written or {}
        own = {"sources": written.get("sources", []), "interpretations": written.get("interpretations", [])}
    changed = {t.key for t, _ in changes}
    basis = _Basis(variant.document, own)
    out = ["## 2. The rules", ""]
    for number, (section, heading) in enumerate(SECTIONS, start=1):
        basis.new_section()
        out.append(f"### 2.{number} {heading}")
        out.append("")
        words = intro(section, ctx)
        if words:
            out.extend([words, ""])
        for t in (t for t in TEMPLATES if t.section == section):
            out.append(rule_line(t, ctx))
            if t.key in changed and parent is not None:
                lines = basis.lines(t, own_only=True)
                before = t.say(Ctx(parent.document["rules"]))
                lines.append(f"  - House rule: changed from `{parent.id}`, where: {before}")
            else:
                lines = basis.lines(t, own_only=False)
            if not lines:
                lines = ["  - Source: none recorded."]
            out.extend(lines)
        out.append("")
    return out


def _examples_section(variant: Variant) -> list[str]:
    ctx = Ctx(variant.document["rules"])
    out = ["## 3. Worked examples", "",
           "Computed by the reference engine under these rules. North–South (NS) play East–West (EW); the "
           "lines give the arithmetic: first the card points, then the judgement of the contract, then what "
           "each side records.", ""]
    for number, ex in enumerate(ex_mod.all_examples(variant.rules, ctx), start=1):
        out.append(f"### 3.{number} {ex.title}")
        out.append("")
        if ex.setup:
            out.extend([ex.setup, ""])
        if ex.table:
            out.extend(ex.table + [""])
        if ex.lines:
            out.append("```")
            out.extend(ex.lines)
            out.append("```")
            out.append("")
        if ex.outcome:
            out.extend([f"**Result:** {ex.outcome}", ""])
    return out


def _interpretations_section(variant: Variant, parent: Variant | None) -> list[str]:
    doc = variant.document
    items = doc.get("interpretations", [])
    out = ["## 4. Interpretations", ""]
    if not items:
        return out + ["The sources state every rule: no reading was needed.", ""]
    own_ids = set()
    if parent is not None:
        own_ids = {i["id"] for i in (variant.written or {}).get("interpretations", [])}
    out.append("Each question the sources leave open, the reading this rule set takes, and the reading "
               "another table might take instead.")
    out.append("")
    for number, item in enumerate(items, start=1):
        out.append(f"### 4.{number} {item['question']}")
        out.append("")
        whose = ""
        if parent is not None:
            whose = " House rule." if item["id"] in own_ids else f" From `{parent.id}`."
        paths = ", ".join(f"`{p}`" for p in item["rules"])
        out.append(f"*Reading `{item['id']}`, for {paths}.*{whose}")
        out.append("")
        out.append(f"- **Reading taken:** {' '.join(item['reading'].split())}")
        out.append(f"- **Alternative:** {' '.join(item['alternative'].split())}")
        quote = (item.get("quote") or "").strip()
        if not quote:
            out.append("- **The words in question:** none; the source is silent.")
        elif "\n" in quote:
            out.append("- **The words in question:**")
            out.append("")
            out.extend(f"  > {line}" for line in quote.splitlines())
        else:
            out.append(f"- **The words in question:** “{quote}”")
        out.append("")
    return out


def render_page(variant: Variant) -> str:
    """The Markdown rules page of a resolved rule set (a house rule set is compared with its parent)."""
    doc = variant.document
    parent = parent_of(variant)
    changes = changed_templates(parent, variant) if parent is not None else []
    out = [f"# {doc['name']}", ""]
    if doc.get("description"):
        out.extend([" ".join(doc["description"].split()), ""])
    status = STATUS_WORDS.get(doc["status"], doc["status"])
    out.append(f"Rule set `{variant.id}`"
               + (f", extends `{parent.id}`" if parent is not None else "")
               + f". Status: {status}.")
    out.append("")
    out.append("Contents: 1. Where these rules come from · 2. The rules · 3. Worked examples · "
               "4. Interpretations")
    out.append("")
    out += _origin_section(variant, parent, changes)
    out += _rules_section(variant, parent, changes)
    out += _examples_section(variant)
    out += _interpretations_section(variant, parent)
    out.append("---")
    out.append("")
    out.append(f"Generated by `coinche-spec docs` from `{_shown_path(variant.path)}`. Regenerate the page "
               "after changing the rules.")
    return "\n".join(out).rstrip("\n") + "\n"


__all__ = ["render_page", "rule_line", "parent_of", "changed_templates"]
