"""The pages of the site, each a self-contained HTML file.

``rules_page_html`` is the one place a rule set's page is made: today the
Markdown rules page (``coinche-spec docs``) inside a minimal HTML page; the
HTML rules sheet (``docs --format html``) replaces its body when it lands.
"""

from __future__ import annotations

import html

from ..compare.render import page


def nav(depth: int) -> str:
    up = "../" * depth
    return f'<nav><a href="{up}index.html">Home</a><a href="{up}compare/seeds.html">The seeds compared</a></nav>'


def rules_page_html(variant, depth: int = 1) -> str:
    """A rule set's rules page as HTML (the Markdown page, shown as written)."""
    from ..docsgen.page import render_page

    body = (f"<h1>{html.escape(variant.document.get('name', variant.id))} (<code>{html.escape(variant.id)}</code>)</h1>"
            f"<pre style=\"white-space:pre-wrap\">{html.escape(render_page(variant))}</pre>")
    return page(f"{variant.id}: rules", body, nav(depth))


def index_html(groups: list[tuple[str, list[tuple[str, str]]]], comparisons: list[tuple[str, str]],
               reports: list[tuple[str, str]]) -> str:
    """The home page: every rule set by group, the comparisons, the implementation reports."""
    e = html.escape
    out = ["<h1>coinche-spec: rule sets, compared</h1>"]
    for title, items in groups:
        if items:
            out.append(f"<h2>{e(title)}</h2><ul>"
                       + "".join(f'<li><a href="{e(href)}">{e(label)}</a></li>' for label, href in items) + "</ul>")
    out.append("<h2>Comparisons</h2><ul>"
               + "".join(f'<li><a href="{e(h)}">{e(t)}</a></li>' for t, h in comparisons) + "</ul>")
    out.append("<h2>Implementation reports</h2>")
    if reports:
        out.append("<ul>" + "".join(f'<li><a href="{e(h)}">{e(t)}</a></li>' for t, h in reports) + "</ul>")
    else:
        out.append("<p>None yet (reports are read from docs/implementations/*.html).</p>")
    return page("coinche-spec rule sets", "\n".join(out), nav(0))
