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
