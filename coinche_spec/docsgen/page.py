"""A whole rules page in Markdown: where the rules come from, every rule in words with its basis,
worked examples, and the readings taken where the sources are silent or ambiguous.

The page is meant to be printed and played with, so the rules come in the
order of a deal (table, auction, coinche, play, values, melds, belote,
contract, score, match), each as a sentence written from the rule's value,
followed by the source sentence it rests on or the reading the rule set
takes. A house rule set names the rule set it extends and what it changes.
"""

from __future__ import annotations

from .sheet import Basis, Sheet, all_documents, build_sheet, parent_of
from .templates import Ctx, Template
from ..variants.registry import kind_of

STATUS_WORDS = {
    "described": "described: every rule is stated by the sources",
    "interpreted": ("interpreted: the sources leave some rules open or say them two ways; the readings this "
                    "rule set takes are listed in section 4"),
    "house": "house rules: a table's own rule set, built on another one",
}


def _short(quote: str, words: int = 8) -> str:
    parts = quote.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")


def basis_lines(b: Basis) -> list[str]:
    """One thing a rule rests on, as list items under the rule."""
    if b.kind == "source":
        if not b.text:   # a program or a house decision cited without words
            return [f"  - Source: {b.where}" + (" (cited above)" if b.repeat else "")]
        if b.repeat:
            return [f"  - Source: “{_short(b.text)}” ({b.where}, quoted above)"]
        if "\n" in b.text:
            return [f"  - Source ({b.where}):", ""] + [f"    > {line}" for line in b.text.splitlines()] + [""]
        return [f"  - Source: “{b.text}” ({b.where})"]
    if b.kind == "reading":
        return [f"  - Our reading ({b.ident}): " + ("see above." if b.repeat else b.text)]
    if b.kind == "none":
        return ["  - Source: none recorded."]
    if b.kind == "as-parent" and b.repeat:
        return [f"  - {b.text.split(';')[0]}, as said above."]
    return [f"  - {b.text}"]


# --- the page ---------------------------------------------------------------------------

def display_path(template: Template) -> str:
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
    head = f"- **{template.title}** (`{display_path(template)}`)."
    if reason:
        return f"{head} *Unused here: {reason}.* The rule set records: {sentence}"
    return f"{head} {sentence}"


def _changes_section(sheet: Sheet) -> list[str]:
    """A house page opens with what it plays differently from its parent, and why."""
    parent = sheet.parent
    out = [f"## {sheet.changes_heading}", "",
           f"{sheet.these_rules} change {len(sheet.changes) or 'none'} of the rules of `{parent.id}` ({parent.document['name']}); "
           "everything else is played as there.", ""]
    for c in sheet.changes:
        values = "; ".join(f"`{path}`: {a} → {b}" for path, a, b in c.shown())
        out.append(f"- **{c.title}** ({values}). {c.after} In `{parent.id}`: {c.before}")
        for why in c.reasons:
            out.append(f"  - Why: {why}")
    if sheet.moot:
        out.append("- Set but cannot matter here: " + "; ".join(f"**{title}** (`{path}`): {why}"
                                                               for title, path, why in sheet.moot) + ".")
    out.append("")
    return out


def _origin_section(sheet: Sheet) -> list[str]:
    out = ["## 1. Where these rules come from", ""]
    parent = sheet.parent
    if parent is not None:
        house = sheet.is_house
        heading = sheet.changes_heading
        out.append(f"{'These are house rules. They' if house else 'These rules'} extend `{parent.id}` "
                   f"({parent.document['name']}) and change "
                   f"{len(sheet.changes) or 'none'} of its rules (see “{heading}” above); everything else is "
                   f"played as in `{parent.id}`, whose sources are quoted below each rule.")
        out.append("")
    if sheet.sources and all_documents(sheet.doc):
        out.append("The rules quote, word for word, these source documents:")
        out.append("")
        for title, n, sections in sheet.sources:
            out.append(f"- {title}: {n} sentence{'s' if n != 1 else ''}, from " + "; ".join(sections) + ".")
        out.append("")
    elif sheet.sources:
        out.append("The rules rest on these sources (documents quoted word for word, programs read at a "
                   "given commit or version, decisions taken at the table):")
        out.append("")
        for title, n, parts in sheet.sources:
            out.append(f"- {title[0].upper() + title[1:]}: {n} entr{'ies' if n != 1 else 'y'}"
                       + (", " + "; ".join(parts) if parts else "") + ".")
        out.append("")
    if sheet.variant.path is not None and kind_of(sheet.variant.path) == "implementation":
        out.extend(_run_or_read(sheet.doc))
    n = len(sheet.readings)
    if n:
        out.append(f"Where a source is silent or can be read two ways, the rule set says which reading it "
                   f"takes: {n} reading{'s' if n != 1 else ''}, listed in section 4.")
        out.append("")
    return out


def _run_or_read(doc: dict) -> list[str]:
    """A program's rule set: which rules a run of the program confirmed (sources with ``ran``), and
    that every other one is read from its code or the fact sheet's record of it only."""
    ran = [(entry, rule) for entry in doc.get("sources", []) if entry.get("ran") for rule in entry.get("rules", [])]
    if not ran:
        return ["No source here records a run of the program: every rule is read from its code (or the fact "
                "sheet's record of it). Where the program itself is run through the corpus (`conformance "
                "--impl`), its published results say which cases it passes.", ""]
    named = "; ".join(f"`{rule}` (at {entry.get('commit') or entry.get('version')})" for entry, rule in ran)
    return [f"Confirmed by running the program: {named}. Every other rule is read from its code (or the fact "
            "sheet's record of it) only.", ""]


def _rule_lines(rule, ctx: Ctx) -> list[str]:
    out = [rule_line(rule.template, ctx)]
    for b in rule.basis:
        out.extend(basis_lines(b))
    return out


def _rules_section(sheet: Sheet) -> list[str]:
    ctx = Ctx(sheet.doc["rules"])
    out = ["## 2. The rules", ""]
    for number, section in enumerate(sheet.sections, start=1):
        out.append(f"### 2.{number} {section.heading}")
        out.append("")
        if section.intro:
            out.extend([section.intro, ""])
        for rule in section.in_play:
            out.extend(_rule_lines(rule, ctx))
        folded = section.folded
        if folded:
            n = len(folded)
            out.extend(["", f"<details><summary>{n} rule{'s' if n != 1 else ''} that cannot matter here "
                            "(what the rule set records)</summary>", ""])
            for rule in folded:
                out.extend(_rule_lines(rule, ctx))
            out.extend(["", "</details>"])
        out.append("")
    return out


def _examples_section(sheet: Sheet) -> list[str]:
    out = ["## 3. Worked examples", "",
           "Computed by the reference engine under these rules. North–South (NS) play East–West (EW); the "
           "lines give the arithmetic: first the card points, then the judgement of the contract, then what "
           "each side records.", ""]
    for number, ex in enumerate(sheet.examples, start=1):
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


def words_label(reading) -> str:
    """What the quote of a reading is: the words it reads, or the parent's words a house rule replaces."""
    return "The words this house rule replaces" if reading.whose == "house" else "The words in question"


def _interpretations_section(sheet: Sheet) -> list[str]:
    out = ["## 4. Interpretations", ""]
    if not sheet.readings:
        return out + ["The sources state every rule: no reading was needed.", ""]
    out.append("Each question the sources leave open, the reading this rule set takes, and the reading "
               "another table might take instead.")
    out.append("")
    for number, reading in enumerate(sheet.readings, start=1):
        item = reading.item
        out.append(f"### 4.{number} {item['question']}")
        out.append("")
        whose = {"house": " House rule.", "parent": f" From `{sheet.parent.id}`." if sheet.parent else ""}.get(
            reading.whose, "")
        paths = ", ".join(f"`{p}`" for p in item["rules"])
        out.append(f"*Reading `{item['id']}`, for {paths}.*{whose}")
        out.append("")
        out.append(f"- **Reading taken:** {' '.join(item['reading'].split())}")
        if item.get("alternative"):
            out.append(f"- **Alternative:** {' '.join(item['alternative'].split())}")
        quote = (item.get("quote") or "").strip()
        label = words_label(reading)
        if not quote:
            out.append(f"- **{label}:** none; the source is silent.")
        elif "\n" in quote:
            out.append(f"- **{label}:**")
            out.append("")
            out.extend(f"  > {line}" for line in quote.splitlines())
        else:
            out.append(f"- **{label}:** “{quote}”")
        out.append("")
    return out


def render_page(variant) -> str:
    """The Markdown rules page of a resolved rule set (a house rule set is compared with its parent)."""
    return render_sheet(build_sheet(variant))


def render_sheet(sheet: Sheet) -> str:
    doc = sheet.doc
    parent = sheet.parent
    out = [f"# {doc['name']}", ""]
    if doc.get("description"):
        out.extend([" ".join(doc["description"].split()), ""])
    status = STATUS_WORDS.get(doc["status"], doc["status"])
    out.append(f"Rule set `{sheet.variant.id}`"
               + (f", extends `{parent.id}`" if parent is not None else "")
               + f". Status: {status}.")
    out.append("")
    changes = sheet.changes_heading if parent is not None else ""
    out.append("Contents: " + (f"{changes} · " if parent is not None else "")
               + "1. Where these rules come from · 2. The rules · 3. Worked examples · 4. Interpretations")
    out.append("")
    if parent is not None:
        out += _changes_section(sheet)
    out += _origin_section(sheet)
    out += _rules_section(sheet)
    out += _examples_section(sheet)
    out += _interpretations_section(sheet)
    out.append("---")
    out.append("")
    out.append(f"Generated by `coinche-spec docs` from `{sheet.shown_path}`. Regenerate the page "
               "after changing the rules.")
    return "\n".join(out).rstrip("\n") + "\n"


__all__ = ["render_page", "render_sheet", "rule_line", "parent_of", "basis_lines", "words_label"]
