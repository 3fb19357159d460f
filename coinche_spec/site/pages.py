"""The pages of the site, each a self-contained HTML file.

``rules_page_html`` is the one place a rule set's page is made: the printable
HTML rules sheet (``coinche-spec docs ID --format html``) with the site's
navigation above it.
"""

from __future__ import annotations

import html

from ..compare.render import page


def nav(depth: int) -> str:
    up = "../" * depth
    return f'<nav><a href="{up}index.html">Home</a><a href="{up}compare/seeds.html">The seeds compared</a></nav>'


def rules_page_html(variant, depth: int = 1) -> str:
    """A rule set's rules sheet (``docs --format html``), with the site's links on top (hidden in print)."""
    from ..docsgen.html import render_html

    sheet = render_html(variant)
    links = nav(depth).replace("<nav>", '<nav class="site-nav" style="margin:0 0 1em;font-size:90%">'
                                        '<style>@media print{.site-nav{display:none}}'
                                        '.site-nav a{margin-right:1em}</style>', 1)
    return sheet.replace("<body>", "<body>" + links, 1)


FRONT_CSS = """
:root { --ink: #1d1d1f; --muted: #5b5b60; --rule: #d6d3cc; --accent: #7a2e1f; --paper: #fffdf8;
        --pass: #d9f0dc; --fail: #f8d4d0; --none: #ecebe7; }
* { box-sizing: border-box; }
body { margin: 0; background: #eceae4; color: var(--ink); font: 15px/1.5 system-ui, "DejaVu Sans", sans-serif; }
header.top { background: var(--accent); color: #fff; padding: 1.6rem 2rem 1.3rem; }
header.top h1 { margin: 0; font: 600 1.9rem/1.2 Georgia, "DejaVu Serif", serif; }
header.top p { margin: .4rem 0 0; max-width: 52rem; opacity: .92; }
nav.site { background: #5e2317; padding: .4rem 2rem; }
nav.site a { color: #fff; margin-right: 1.4rem; text-decoration: none; font-size: .92rem; }
main { max-width: 76rem; margin: 0 auto; padding: 1.2rem 2rem 3rem; }
section.block { background: var(--paper); padding: 1rem 1.4rem 1.2rem; margin: 1.2rem 0;
                box-shadow: 0 1px 3px rgba(0,0,0,.12); border-radius: 3px; }
h2 { margin: .2rem 0 .6rem; font: 600 1.3rem Georgia, "DejaVu Serif", serif; color: var(--accent); }
h3 { margin: 1rem 0 .4rem; font-size: 1rem; }
p.blurb { color: var(--muted); margin: .2rem 0 .7rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); gap: .7rem; }
.card { display: block; border: 1px solid var(--rule); border-radius: 3px; padding: .55rem .75rem;
        color: inherit; text-decoration: none; background: #fff; }
.card:hover { border-color: var(--accent); }
.card .id { font: 600 .95rem ui-monospace, "DejaVu Sans Mono", monospace; color: var(--accent); }
.card .name { display: block; font-size: .9rem; }
.card .desc { display: block; font-size: .8rem; color: var(--muted); margin-top: .2rem; }
.yours .card { border-left: 4px solid #d39b22; }
table.board { border-collapse: collapse; font-size: .88rem; }
table.board th, table.board td { border: 1px solid var(--rule); padding: .35rem .6rem; text-align: center; }
table.board th { background: #f4f1ea; font-weight: 600; }
table.board th.impl, table.board td.impl { text-align: left; }
table.board td.pass { background: var(--pass); }
table.board td.fail { background: var(--fail); font-weight: 600; }
table.board td.refused, table.board td.skipped, table.board td.absent { background: var(--none); color: var(--muted); }
.legend span { display: inline-block; padding: 0 .5rem; margin-right: .4rem; border-radius: 2px; font-size: .82rem; }
footer { color: var(--muted); font-size: .82rem; margin-top: 2rem; }
"""


def _cards(items) -> str:
    e = html.escape
    return '<div class="cards">' + "".join(
        f'<a class="card" href="{e(href)}"><span class="id">{e(ident)}</span>'
        f'<span class="name">{e(name)}</span>' + (f'<span class="desc">{e(desc)}</span>' if desc else "") + "</a>"
        for ident, name, desc, href in items) + "</div>"


def _board(columns, rows, shown_ids) -> str:
    """The results board: implementations × rule sets (site/board.py), each row linked to its report."""
    e = html.escape
    if not rows:
        return ("<p>No implementation report was found (they are written by <code>coinche-spec docs "
                "--implementations DIR</code> into docs/implementations/).</p>")

    def head(ident):
        return f'<a href="rules/{e(ident)}.html">{e(ident)}</a>' if ident in shown_ids else e(ident)

    out = ['<table class="board"><thead><tr><th class="impl">implementation</th>'
           + "".join(f"<th>{head(c)}</th>" for c in columns) + "<th>random deals</th></tr></thead><tbody>"]
    for row in rows:
        cells = []
        for c in columns:
            cell = row.cells.get(c)
            cells.append(f'<td class="{cell.state}" title="{e(cell.title)}">{e(cell.text)}</td>' if cell
                         else '<td class="absent">not run</td>')
        out.append(f'<tr><td class="impl"><a href="implementations/{e(row.report)}">{e(row.name)}</a></td>'
                   + "".join(cells) + f"<td>{e(row.fuzz)}</td></tr>")
    out.append("</tbody></table>")
    out.append('<p class="legend"><span style="background:var(--pass)">passed / answered</span>'
               '<span style="background:var(--fail)">something failed</span>'
               '<span style="background:var(--none)">does not play it, or skipped every case</span></p>')
    return "\n".join(out)


def index_html(groups, comparisons: list[tuple[str, str]], board) -> str:
    """The front page: the results board, every rule set by kind (the site's own first), the comparisons.

    ``groups``: (heading, blurb, [(id, name, description, href)]); ``board``: (columns, rows)."""
    e = html.escape
    columns, rows = board
    shown = {ident for _, _, items in groups for ident, *_ in items}
    total = sum(len(items) for _, _, items in groups)
    out = ['<header class="top"><h1>coinche-spec</h1>',
           "<p>Coinche (belote coinchée, contrée) as an executable specification: rule sets written as data, "
           f"each with its printable rules sheet; {total} rule sets here, and how implementations fare against "
           "them.</p></header>",
           '<nav class="site"><a href="#board">Results</a><a href="#rule-sets">Rule sets</a>'
           + "".join(f'<a href="{e(h)}">{e(t)}</a>' for t, h in comparisons) + "</nav>", "<main>"]
    out += ['<section class="block" id="board"><h2>Implementations × rule sets</h2>',
            '<p class="blurb">Each cell: the conformance cases an implementation passed out of those it answered '
            "under that rule set (hover for the counts). Open an implementation for its full report.</p>",
            _board(columns, rows, shown), "</section>"]
    out.append('<section class="block" id="rule-sets"><h2>Rule sets</h2>'
               '<p class="blurb">Each opens its rules sheet: what it changes, the game at a glance, worked examples, '
               "the full rules with their sources. Print it from the browser, on A4.</p>")
    for heading, blurb, items in groups:
        if items:
            cls = ' class="yours"' if heading.startswith("Your") else ""
            out.append(f"<div{cls}><h3>{e(heading)} ({len(items)})</h3>"
                       + (f'<p class="blurb">{e(blurb)}</p>' if blurb else "") + _cards(items) + "</div>")
    out.append("</section>")
    out.append("<footer>Written by <code>coinche-spec site</code>. Every page is self-contained: no script, "
               "font or image is fetched.</footer></main>")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>coinche-spec: rule sets and results</title><style>{FRONT_CSS}</style></head>"
            f"<body>{''.join(out)}</body></html>\n")
