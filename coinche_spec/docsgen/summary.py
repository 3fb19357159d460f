"""The short rules sheet a table prints: at most two A4 pages.

The full sheet (html.py) is for settling a dispute; this one lies on the
table during play. It keeps what players look up: what the house changes,
the game at a glance (with the belote and whether it must be said, and the
coinche), the cards' ranks and values as a table, the scores of each outcome
as a table, and one deal worked out (bid 90, take 89). Its content comes
from the same sheet (sheet.py) as every other rules page; only the choice
and the layout are its own.
"""

from __future__ import annotations

from .html import CSS, EXAMPLES_INTRO, _examples, esc
from .page import STATUS_WORDS
from .sheet import Rule, Sheet, build_sheet
from .templates import RANK_WORDS, Ctx, award_words

# The lines of the glance a table needs beside the two tables (the awards are the scoring table's).
GLANCE = ("direction", "packets", "bid-minimum", "bid-step", "bid-maximum", "sans-atout-bid", "tout-atout-bid",
          "capot-bid", "coinche-when", "coinche-multiplier", "surcoinche", "surcoinche-multiplier",
          "opponent-winning", "partner-winning", "overtrump", "melds", "belote", "belote-points", "belote-claim",
          "versus-defenders", "rounding", "target")
SCORED = ("made", "failed", "coinched_made", "coinched_failed")
OUTCOME_WORDS = {"made": "Made", "failed": "Failed", "coinched_made": "Coinched, made",
                 "coinched_failed": "Coinched, failed"}

SUMMARY_CSS = """
.summary { max-width: 60rem; }
.summary h1 { margin-bottom: .1em; }
.summary .glance ul { columns: 2; }
.cards { border-collapse: collapse; margin: .3em 0 .2em; font-size: .92em; }
.cards th, .cards td { border-bottom: 1px solid var(--rule); padding: .08em .5em; text-align: center; }
.cards th:first-child, .cards td:first-child { text-align: left; }
.cards td.rank { font-weight: bold; }
.scores { border-collapse: collapse; width: 100%; margin: .3em 0; font-size: .95em; }
.scores th, .scores td { border-bottom: 1px solid var(--rule); padding: .2em .45em; text-align: left;
                         vertical-align: top; }
.scores th { background: #f4f1ea; }
.scores td:first-child { font-weight: bold; white-space: nowrap; }
.cardtables { display: grid; grid-template-columns: repeat(4, 1fr); gap: 0 1.2em; }
.scores, .cards { break-inside: avoid; }
.summary h2 { break-after: avoid; }
.summary .examples { columns: 1; }
.summary .changes .why { display: none; }
@media print {
  body { font-size: 8.8pt; line-height: 1.3; }
  .summary { padding: 0; }
  .summary .example pre { font-size: 7.4pt; }
  .cards, .scores, .changes, .scores th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


# Titles that lean on their section's heading in the full sheet, said whole on the short one.
TITLES = {"belote-points": "Belote value", "belote-claim": "Saying the belote", "melds": "Melds",
          "coinche-when": "When to coinche"}


def _title(template) -> str:
    return TITLES.get(template.key, template.title)


LISTED_CHANGES = 10      # more than this, and the short sheet counts them (the glance stars each one)


def _changes(sheet: Sheet) -> list[str]:
    """What the house changes, one line each and what the parent had: the full sheet says why."""
    parent = sheet.parent
    n = len(sheet.changes)
    out = ['<section class="changes" id="changes">', f"<h2>{esc(sheet.changes_heading.replace('`', ''))}</h2>",
           f"<p>{n} rule{'s' if n != 1 else ''} changed from <strong>{esc(parent.document['name'])}</strong>; "
           "everything else is played as there.</p>"]
    if n > LISTED_CHANGES:
        out += ["<p>Each is starred in the game at a glance; the full sheet lists them with what they replace.</p>",
                "</section>"]
        return out
    out.append("<ul>")
    for c in sheet.changes:
        out.append(f"<li><strong>{esc(_title(c.template))}</strong>: {esc(c.after)}"
                   f'<span class="was">In {esc(parent.id)}: {esc(c.before)}</span></li>')
    out += ["</ul>", "</section>"]
    return out


def _glance(sheet: Sheet) -> list[Rule]:
    """The glance's lines in GLANCE order, with the belote's announcement (the sheet's glance leaves it out)."""
    by_key = {r.template.key: r for s in sheet.sections for r in s.in_play}
    shown = {r.template.key: r for r in sheet.glance}      # a glance line may carry what else decides it
    keys = [k for k in GLANCE if k in by_key]
    keys += [r.template.key for r in sheet.glance if r.changed and r.template.key not in keys
             and r.template.key not in SCORED_KEYS]
    return [shown.get(k, by_key[k]) for k in keys]


SCORED_KEYS = ("made", "failed", "coinched-made", "coinched-failed")


def _glance_html(sheet: Sheet) -> list[str]:
    out = ['<section class="glance" id="glance">', "<h2>The game at a glance</h2>", "<ul>"]
    for rule in _glance(sheet):
        cls, mark = (' class="changed"', ' <span class="mark">*</span>') if rule.changed else ("", "")
        out.append(f"<li{cls}><strong>{esc(_title(rule.template))}.</strong>{mark} {esc(rule.sentence)}</li>")
    out.append("</ul>")
    if any(r.changed for r in _glance(sheet)):
        out.append('<p class="meta"><span class="mark">*</span> a house rule.</p>')
    out.append("</section>")
    return out


def _cards(ctx: Ctx) -> list[str]:
    """Ranks, strongest first, and values: the trump suit, the other suits, and sans atout and tout
    atout where they may be bid."""
    values = ctx.rules.card_values
    trump, plain = values.order.trump, values.order.plain
    kinds = [("trump", "Trumps", trump), ("plain", "Other suits", plain)]
    if ctx.sa:
        kinds.append(("sans_atout", "Sans atout", plain))
    if ctx.ta:
        kinds.append(("tout_atout", "Tout atout", trump))
    out = ["<section>", "<h2>The cards</h2>", '<div class="cardtables">']
    for group, heading, order in kinds:
        table = values[group]
        out += ['<table class="cards">', f"<thead><tr><th>{esc(heading)}</th><th>points</th></tr></thead>",
                "<tbody>"]
        out += [f'<tr><td class="rank">{esc(RANK_WORDS[rank])}</td><td>{table[rank]}</td></tr>'
                for rank in order]
        out += [f"<tr><td>in all</td><td>{sum(table[r] for r in order)}</td></tr>", "</tbody>", "</table>"]
    out.append("</div>")
    last = values.last_trick
    out.append(f"<p>Strongest first. The side that takes the last trick adds {last} (dix de der).</p>"
               if last else "<p>Strongest first.</p>")
    out.append("</section>")
    return out


def _scores(sheet: Sheet, ctx: Ctx) -> list[str]:
    """Each outcome's award to the takers and to the defenders, then the capot's and what M is."""
    scoring = ctx.rules.scoring
    out = ["<section>", "<h2>Scoring a deal</h2>",
           '<table class="scores"><thead><tr><th>The contract is</th><th>The takers score</th>'
           "<th>The defenders score</th></tr></thead><tbody>"]
    for outcome in SCORED:
        award = scoring[outcome]
        coinched = outcome.startswith("coinched")
        out.append(f"<tr><td>{OUTCOME_WORDS[outcome]}</td><td>{esc(award_words(ctx, award.takers, coinched))}"
                   f"</td><td>{esc(award_words(ctx, award.defenders, coinched))}</td></tr>")
    out.append("</tbody></table>")
    section = next(s for s in sheet.sections if s.key == "scoring")
    notes = [section.intro] if section.intro else []
    notes += [r.sentence for r in section.in_play
              if r.template.key in ("capot-made", "capot-failed", "sweep-bonus", "rounding")]
    out += [f"<p>{esc(n)}</p>" for n in notes]
    out.append("</section>")
    return out


def _short_example(sheet: Sheet) -> list:
    """The worked deal a table argues about most: bid 90, take 89."""
    found = [ex for ex in sheet.examples if "89" in ex.title and "coinched" not in ex.title]
    return found[:1] or sheet.examples[:1]


def render_summary(variant) -> str:
    """The short printable sheet (HTML) of a resolved rule set."""
    sheet = build_sheet(variant)
    doc = sheet.doc
    ctx = Ctx(variant.document["rules"])
    status = STATUS_WORDS.get(doc["status"], doc["status"]).split(":")[0]
    meta = f"Rule set <code>{esc(sheet.variant.id)}</code> · {esc(status)}"
    if sheet.parent is not None:
        meta += f" · built on <code>{esc(sheet.parent.id)}</code>"
    body = ['<main class="sheet summary">', f"<h1>{esc(doc['name'])}</h1>", f'<p class="meta">{meta}</p>']
    if sheet.parent is not None and sheet.changes:
        body += _changes(sheet)
    body += _glance_html(sheet) + _cards(ctx) + _scores(sheet, ctx)
    body += _examples(_short_example(sheet), "A deal worked out", EXAMPLES_INTRO)
    ref = doc["id"] if sheet.shown_path.startswith("variants/") else sheet.shown_path
    body.append(f"<footer>Generated by <code>coinche-spec docs --summary</code> from "
                f"<code>{esc(sheet.shown_path)}</code>. The full rules, with their sources and more examples: "
                f"<code>coinche-spec docs {esc(ref)} --format pdf -o FILE</code>.</footer>")
    body.append("</main>")
    return "\n".join(['<!DOCTYPE html>', '<html lang="en">', "<head>", '<meta charset="utf-8">',
                      '<meta name="viewport" content="width=device-width, initial-scale=1">',
                      f"<title>{esc(doc['name'])}</title>", f"<style>{CSS}{SUMMARY_CSS}</style>", "</head>",
                      "<body>", *body, "</body>", "</html>"]) + "\n"


__all__ = ["render_summary"]
