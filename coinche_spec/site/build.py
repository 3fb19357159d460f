"""Write the site: every rule set's page, the comparison of the seeds, the implementation reports.

The site goes into one folder and nowhere else: a folder that already holds
something is refused unless the caller says to write over it (``force``),
every file's path is checked to stay inside the folder, and nothing outside
it is touched.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from ..errors import CoincheSpecError
from ..resources import variants_dir

_HERE = Path(__file__).resolve().parent
REPORTS_DIR = _HERE.parent.parent / "docs" / "implementations"     # from a clone only
_SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class SiteError(CoincheSpecError):
    """Why the site cannot be written (one line)."""


def _inside(root: Path, rel: str) -> Path:
    if any(not _SAFE.match(part) for part in rel.split("/")):
        raise SiteError(f"site: refusing the file name {rel!r}")
    target = (root / rel).resolve()
    if root.resolve() not in target.parents:
        raise SiteError(f"site: {rel!r} would be written outside {root}")
    return target


def _write(root: Path, rel: str, text: str, written: list) -> None:
    target = _inside(root, rel)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    written.append(rel)


def rule_set_groups():
    """(heading, [Variant]) for the seeds (federation first, as the seed documents go), published
    rule sets and house examples."""
    from ..docsgen.cli import load
    from ..docsgen.compare import seed_order
    from ..variants import loader

    published_dir = variants_dir() / "published"
    published = sorted(p for p in published_dir.glob("*.yaml")) if published_dir.is_dir() else []
    return [("Seed rule sets", seed_order([load(i) for i in loader.shipped_ids()])),
            ("Published rule sets", [load(str(p)) for p in published]),
            ("House rule sets", [load(i) for i in loader.house_ids()])]


def write_site(folder: str | Path, force: bool = False, deals: int = 500, seed: int = 1, jobs: int = 1,
               progress=None) -> list[str]:
    """Write the site into ``folder``; returns the files written, relative to it."""
    from ..compare.cli import build
    from ..compare.render import page, render_html_body
    from .pages import index_html, nav, rules_page_html

    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise SiteError(f"site: '{root}' is not a folder")
    if root.is_dir() and any(root.iterdir()) and not force:
        raise SiteError(f"site: '{root}' is not empty: choose an empty or new folder, or pass --force "
                        "to write the site's files over what is there")
    if not root.exists():
        if not root.parent.is_dir():
            raise SiteError(f"site: cannot create '{root}': the folder '{root.parent}' does not exist")
        root.mkdir()
    written: list[str] = []
    groups = rule_set_groups()
    listing = []
    for heading, variants in groups:
        items = []
        for v in variants:
            rel = f"rules/{v.id}.html"
            _write(root, rel, rules_page_html(v, depth=1), written)
            items.append((f"{v.id}: {v.document.get('name', v.id)}", rel))
        listing.append((heading, items))

    seeds = [v.id for v in groups[0][1]] + [str(v.path) for v in groups[1][1]]
    c = build(seeds, deals, seed, jobs, progress)
    body = render_html_body(c, rule_link=lambda i: f"../rules/{i}.html")
    _write(root, "compare/seeds.html", page("The seed rule sets compared", body, nav(1)), written)

    reports = []
    if REPORTS_DIR.is_dir():
        for p in sorted(REPORTS_DIR.glob("*.html")):
            rel = f"implementations/{p.name}"
            target = _inside(root, rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, target)
            written.append(rel)
            reports.append((p.stem, rel))
    _write(root, "index.html", index_html(listing, [("The seed rule sets compared", "compare/seeds.html")],
                                          reports), written)
    return written
