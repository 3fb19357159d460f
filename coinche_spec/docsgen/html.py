"""A rules sheet as one self-contained HTML file, laid out to be printed on A4.

The Markdown page is a reference; this is what a club pins on the wall or
hands round the table. So the order is the table's: what the house plays
differently (and why), the game at a glance, worked examples, and only then,
from a new page, the full rules with their sources as an appendix. Everything
is in the file (inline CSS, no fonts, scripts or images to fetch), suits are
printed in their colours, and rules that cannot matter here are folded away.
"""

from __future__ import annotations

import html
import re

from .page import STATUS_WORDS, display_path, words_label
from .sheet import Basis, Rule, Sheet, build_sheet

RED_SUITS, BLACK_SUITS = "♥♦", "♠♣"
_SUIT = re.compile(f"[{RED_SUITS}{BLACK_SUITS}]")

CSS = """
:root { --ink: #1d1d1f; --muted: #5b5b60; --rule: #d6d3cc; --accent: #7a2e1f; --paper: #fffdf8;
        --red: #c0122c; --house: #fff3d6; }
* { box-sizing: border-box; }
html { background: #eceae4; }
body { margin: 0; color: var(--ink); font: 10.5pt/1.45 Georgia, "DejaVu Serif", "Times New Roman", serif; }
.sheet, .appendix { background: var(--paper); max-width: 58rem; margin: 1.5rem auto; padding: 2rem 2.6rem;
                    box-shadow: 0 1px 4px rgba(0,0,0,.15); }
h1 { font-size: 1.7em; line-height: 1.15; margin: 0 0 .3em; color: var(--accent); }
h2 { font-size: 1.15em; margin: 1.1em 0 .45em; padding-bottom: .15em; border-bottom: 1.5px solid var(--accent);
     color: var(--accent); font-variant: small-caps; letter-spacing: .03em; }
h3 { font-size: 1em; margin: .9em 0 .3em; }
p { margin: .35em 0; }
.lede { font-style: italic; margin-bottom: .3em; }
.meta { color: var(--muted); font-size: .88em; }
.suit-red { color: var(--red); }
.suit-black { color: #000; }
code { font: .92em "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.changes { background: var(--house); border-left: 4px solid #d39b22; padding: .4em .9em .5em; margin: .8em 0; }
.changes h2 { border: 0; margin-top: .3em; }
.changes ul { margin: .2em 0; padding-left: 1.1em; }
.changes li { margin: .25em 0; }
.changes .was, .changes .why { display: block; font-size: .9em; color: var(--muted); }
.glance ul { columns: 2; column-gap: 1.6em; list-style: none; padding: 0; margin: .2em 0; }
.glance li { break-inside: avoid; margin: 0 0 .3em; }
.glance li.changed { background: var(--house); outline: 2px solid var(--house); }
.mark { color: #b07400; font-weight: bold; }
.examples-intro { font-size: .92em; color: var(--muted); }
.examples { columns: 2; column-gap: 1.6em; }
.example { margin: 0 0 .7em; break-inside: avoid; }
.example h3 { margin: 0 0 .15em; font-size: .95em; break-after: avoid; }
.example pre, .example table { break-inside: avoid; }
.example .result { break-before: avoid; }
.example p { font-size: .9em; margin: .1em 0; }
.example pre { font: 7.6pt/1.3 "DejaVu Sans Mono", Menlo, Consolas, monospace; white-space: pre-wrap;
               background: #f4f1ea; padding: .3em .45em; margin: .2em 0; border-radius: 2px; }
.example .result { font-weight: bold; }
.example table { border-collapse: collapse; font-size: .78em; margin: .2em 0; width: 100%; }
.example th, .example td { border-bottom: 1px solid var(--rule); padding: .05em .3em; text-align: right; }
.example th:nth-child(2), .example td:nth-child(2) { text-align: left; }
.appendix h2:first-child { margin-top: 0; }
.appendix .rules { columns: 2; column-gap: 1.6em; font-size: .9em; }
.appendix h3 { break-after: avoid; }
.rule { break-inside: avoid; margin: 0 0 .45em; }
.rule .path { color: var(--muted); font-size: .8em; }
.rule.changed { background: var(--house); }
.basis { margin: .1em 0 0 .9em; font-size: .88em; color: var(--muted); }
.basis q { color: var(--ink); font-style: italic; }
details { margin: .3em 0 .6em; font-size: .9em; color: var(--muted); }
summary { cursor: pointer; }
.reading { break-inside: avoid; margin: 0 0 .6em; font-size: .9em; }
.readings { columns: 2; column-gap: 1.6em; }
footer { margin-top: 1em; font-size: .8em; color: var(--muted); }
@page { size: A4; margin: 9mm 10mm 10mm; }
@media print {
  html, body { background: #fff; }
  body { font-size: 8.6pt; line-height: 1.28; }
  h1 { font-size: 1.5em; }
  h2 { margin: .7em 0 .35em; }
  .example pre { font-size: 6.9pt; line-height: 1.22; padding: .2em .35em; }
  .example p { font-size: .88em; }
  .example { margin-bottom: .5em; break-inside: auto; }   /* fill the page; a title stays with its text */
  .changes { padding: .25em .7em .35em; margin: .5em 0; }
  .sheet, .appendix { box-shadow: none; margin: 0; padding: 0; max-width: none; background: #fff; }
  .appendix { break-before: page; }
  details > :not(summary) { display: none; }
  details { display: none; }
  a { color: inherit; text-decoration: none; }
  .changes, .glance .changed, .rule.changed, .example pre { -webkit-print-color-adjust: exact;
                                                              print-color-adjust: exact; }
}
"""


def esc(text: str) -> str:
    """Escaped text with every suit symbol in its colour."""
    def colour(m):
        cls = "suit-red" if m.group(0) in RED_SUITS else "suit-black"
        return f'<span class="{cls}">{m.group(0)}</span>'
    return _SUIT.sub(colour, html.escape(text, quote=False))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# --- the parts of the sheet ----------------------------------------------------------

def _changes(sheet: Sheet) -> list[str]:
    parent = sheet.parent
    out = ['<section class="changes" id="changes">', f"<h2>{esc(sheet.changes_heading.replace('`', ''))}</h2>",
           f"<p>{sheet.these_rules} change {_plural(len(sheet.changes), 'rule')} of "
           f"<strong>{esc(parent.document['name'])}</strong>; everything else is played as there.</p>", "<ul>"]
    for c in sheet.changes:
        # numbers say it at a glance (2000 → 1500); option names are for the file, not the table
        numbers = all(isinstance(v, int) and not isinstance(v, bool) for _, a, b in c.values for v in (a, b))
        values = " (" + "; ".join(f"{a} → {b}" for _, a, b in c.shown()) + ")" if numbers else ""
        out.append(f"<li><strong>{esc(c.title)}</strong>{esc(values)}: {esc(c.after)}"
                   f'<span class="was">In {esc(parent.id)}: {esc(c.before)}</span>'
                   + "".join(f'<span class="why">Why: {esc(w)}</span>' for w in c.reasons) + "</li>")
    if sheet.moot:
        out.append("<li>Set but cannot matter here: " + "; ".join(
            f"<strong>{esc(title)}</strong> ({esc(path)}): {esc(why)}" for title, path, why in sheet.moot) + ".</li>")
    out += ["</ul>", "</section>"]
    return out


def _glance(sheet: Sheet) -> list[str]:
    out = ['<section class="glance" id="glance">', "<h2>The game at a glance</h2>", "<ul>"]
    for rule in sheet.glance:
        cls, mark = (' class="changed"', ' <span class="mark">*</span>') if rule.changed else ("", "")
        out.append(f"<li{cls}><strong>{esc(rule.template.title)}.</strong>{mark} {esc(rule.sentence)}</li>")
    scoring = next(s for s in sheet.sections if s.key == "scoring")
    if scoring.intro:      # what "the bid" and M mean in the award sentences above
        out.append(f"<li><strong>Awards.</strong> {esc(scoring.intro)}</li>")
    out.append("</ul>")
    if any(r.changed for r in sheet.glance):
        out.append('<p class="meta"><span class="mark">*</span> a house rule.</p>')
    out.append("</section>")
    return out


def _md_table(rows: list[str]) -> list[str]:
    """The examples' Markdown table rows as an HTML table (the first row is the heading)."""
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows
             if not re.fullmatch(r"\|?[\s|:-]+\|?", row.strip())]
    if not cells:
        return []
    head = "".join(f"<th>{esc(c)}</th>" for c in cells[0])
    body = ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in cells[1:]]
    return ["<table>", f"<thead><tr>{head}</tr></thead>", "<tbody>", *body, "</tbody>", "</table>"]


def _examples(examples: list, heading: str, intro: str, first: int = 1) -> list[str]:
    out = ["<section>", f"<h2>{heading}</h2>", f'<p class="examples-intro">{intro}</p>', '<div class="examples">']
    for number, ex in enumerate(examples, start=first):
        out.append(f'<article class="example"><h3>{number}. {esc(ex.title)}</h3>')
        if ex.setup:
            out.append(f"<p>{esc(ex.setup)}</p>")
        out += _md_table(ex.table)
        if ex.lines:
            out.append("<pre>" + esc("\n".join(ex.lines)) + "</pre>")
        if ex.outcome:
            out.append(f'<p class="result">{esc(ex.outcome)}</p>')
        out.append("</article>")
    out += ["</div>", "</section>"]
    return out


EXAMPLES_INTRO = ("Scored by the reference engine under these rules. North–South (NS) play East–West (EW); the "
                  "lines give the arithmetic: the card points, the judgement of the contract, then what each "
                  "side records.")


def _basis(b: Basis) -> str:
    if b.kind == "source" and not b.text:   # a program or a house decision cited without words
        return f'<p class="basis">Source: {esc(b.where)}</p>'
    if b.kind == "source":
        words = " ".join(b.text.split()[:8]) + "…" if b.repeat and len(b.text.split()) > 8 else b.text
        return f'<p class="basis">Source: <q>{esc(words)}</q> ({esc(b.where)}{", quoted above" if b.repeat else ""})</p>'
    if b.kind == "reading":
        return f'<p class="basis">Our reading ({esc(b.ident)}): {"see above." if b.repeat else esc(b.text)}</p>'
    if b.kind == "none":
        return '<p class="basis">Source: none recorded.</p>'
    text = b.text.split(";")[0] + ", as said above." if b.repeat else b.text
    return f'<p class="basis">{esc(text)}</p>'


def _rule(rule: Rule) -> str:
    cls = "rule changed" if rule.changed else "rule"
    lead = f"<em>Cannot matter here: {esc(rule.unused)}.</em> The rule set records: " if rule.unused else ""
    return (f'<div class="{cls}"><p><strong>{esc(rule.template.title)}</strong> '
            f'<code class="path">{esc(display_path(rule.template))}</code> {lead}{esc(rule.sentence)}</p>'
            + "".join(_basis(b) for b in rule.basis) + "</div>")


def _appendix(sheet: Sheet, first_example: int) -> list[str]:
    doc = sheet.doc
    out = ['<section class="appendix" id="appendix">', '<h1 class="appendix-title">Appendix: the full rules</h1>']
    if sheet.parent is not None:
        out.append(f"<p>Built on <strong>{esc(sheet.parent.document['name'])}</strong> "
                   f"(<code>{esc(sheet.parent.id)}</code>); the house rules are shaded.</p>")
    if sheet.sources:
        parts = "; ".join(f"{esc(title)} ({_plural(n, 'sentence')})" for title, n, _ in sheet.sources)
        out.append(f"<p>Quoted word for word from: {parts}. Where a source is silent or can be read two ways, "
                   f"the reading taken is given ({_plural(len(sheet.readings), 'reading')}, listed at the end).</p>")
    if sheet.meld_examples:
        out += _examples(sheet.meld_examples, "More worked examples: melds",
                         "Which side's melds score, compared by the reference engine (hearts trumps, North "
                         "leading).", first_example)
    out += ["<h2>The rules</h2>", '<div class="rules">']
    for number, section in enumerate(sheet.sections, start=1):
        out.append(f"<h3>{number}. {esc(section.heading)}</h3>")
        if section.intro:
            out.append(f"<p>{esc(section.intro)}</p>")
        out += [_rule(r) for r in section.in_play]
        if section.folded:
            out.append(f"<details><summary>{_plural(len(section.folded), 'rule')} that cannot matter here"
                       "</summary>" + "".join(_rule(r) for r in section.folded) + "</details>")
    out.append("</div>")
    out += ["<h2>Readings taken</h2>", '<div class="readings">']
    if not sheet.readings:
        out.append("<p>The sources state every rule: no reading was needed.</p>")
    for reading in sheet.readings:
        item = reading.item
        whose = {"house": " House rule.", "parent": f" From {esc(sheet.parent.id)}." if sheet.parent else ""}
        quote = (item.get("quote") or "").strip()
        words = f"<q>{esc(' '.join(quote.split()))}</q>" if quote else "none; the source is silent."
        out.append(f'<div class="reading"><p><strong>{esc(item["question"])}</strong>'
                   f'{whose.get(reading.whose, "")}</p>'
                   f"<p>Reading taken: {esc(' '.join(item['reading'].split()))}</p>"
                   + (f"<p>Alternative: {esc(' '.join(item['alternative'].split()))}</p>"
                      if item.get("alternative") else "")
                   + f"<p>{words_label(reading)}: {words}</p></div>")
    out.append("</div>")
    out.append(f"<footer>Generated by <code>coinche-spec docs --format html</code> from "
               f"<code>{esc(sheet.shown_path)}</code> (rule set <code>{esc(doc['id'])}</code>). "
               "Regenerate it after changing the rules.</footer>")
    out.append("</section>")
    return out


def render_html(variant) -> str:
    """The printable HTML rules sheet of a resolved rule set."""
    sheet = build_sheet(variant)
    doc = sheet.doc
    status = STATUS_WORDS.get(doc["status"], doc["status"]).split(":")[0]
    meta = f"Rule set <code>{esc(sheet.variant.id)}</code> · {esc(status)}"
    if sheet.parent is not None:
        meta += f" · built on <code>{esc(sheet.parent.id)}</code>"
    body = ['<main class="sheet">', f"<h1>{esc(doc['name'])}</h1>"]
    if doc.get("description"):
        body.append(f'<p class="lede">{esc(" ".join(doc["description"].split()))}</p>')
    body.append(f'<p class="meta">{meta} · the full rules and their sources are in the appendix.</p>')
    if sheet.parent is not None:
        body += _changes(sheet)
    on_sheet = [ex for ex in sheet.examples if ex not in sheet.meld_examples]
    body += _glance(sheet) + _examples(on_sheet, "Worked examples", EXAMPLES_INTRO) + ["</main>"]
    body += _appendix(sheet, len(on_sheet) + 1)
    return "\n".join(['<!DOCTYPE html>', '<html lang="en">', "<head>", '<meta charset="utf-8">',
                      '<meta name="viewport" content="width=device-width, initial-scale=1">',
                      f"<title>{esc(doc['name'])}</title>", f"<style>{CSS}</style>", "</head>", "<body>",
                      *body, "</body>", "</html>"]) + "\n"


__all__ = ["render_html", "esc"]
