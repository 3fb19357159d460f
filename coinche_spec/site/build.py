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


KIND_HEADINGS = (
    ("seed", "Seed rule sets", "Each from one published rule text, quoted sentence by sentence; every fixture "
                               "answers for them."),
    ("published", "Published rule books", "Rule books written as rule sets."),
    ("implementation", "Programs' rule sets", "The rules a program plays, each citing the program's files."),
    ("house", "House examples", "Small files that extend another rule set and list only what differs."),
)


def rule_set_groups(extra=()):
    """(heading, blurb, [Variant]) for the site's own rule sets (``extra``) first, then every kind
    the project carries: seeds (federation first, as the seed documents go), published rule books,
    programs' rule sets and house examples."""
    from ..docsgen.cli import load
    from ..docsgen.compare import seed_order
    from ..variants import registry

    yours = {v.id for v in extra}
    kinds = registry.by_kind()
    groups = [("Your rule sets", "Added to this site with --variant.", list(extra))] if extra else []
    for kind, heading, blurb in KIND_HEADINGS:
        variants = [load(i) for i in kinds.get(kind, []) if i not in yours]
        groups.append((heading, blurb, seed_order(variants) if kind == "seed" else variants))
    return groups


def added_variants(refs) -> list:
    """The rule sets ``--variant FILE|ID`` adds, each once; a file whose id is another rule set's is refused."""
    from ..docsgen.cli import load
    from ..variants import loader

    out, seen = [], {}
    for ref in refs:
        v = load(ref)
        if v.path is not None and Path(ref).suffix in (".yaml", ".yml") and v.id in loader.known_ids():
            shipped = loader.load_variant(v.id)
            if shipped.path is None or Path(shipped.path).resolve() != Path(v.path).resolve():
                raise SiteError(f"site: --variant {ref}: its id '{v.id}' is already a shipped rule set's; "
                                "give it an id of its own")
        if v.id in seen:
            if seen[v.id] != ref:
                raise SiteError(f"site: --variant {ref} and --variant {seen[v.id]} are both '{v.id}'")
            continue
        seen[v.id] = ref
        out.append(v)
    return out


def _description(v) -> str:
    words = " ".join(str(v.document.get("description") or "").split())
    return words if len(words) <= 160 else words[:157].rsplit(" ", 1)[0] + "…"


def write_site(folder: str | Path, force: bool = False, deals: int = 500, seed: int = 1, jobs: int = 1,
               progress=None, variants=()) -> list[str]:
    """Write the site into ``folder``; returns the files written, relative to it.

    ``variants``: rule sets (files or ids) to add, listed first, each also compared with its parent."""
    from ..compare.cli import build
    from ..compare.render import page, render_html_body
    from ..docsgen.sheet import parent_of
    from ..resources import reports_dir
    from ..variants import loader
    from .board import board, read_reports
    from .pages import index_html, nav, rules_page_html

    root = Path(folder)
    extra = added_variants(variants)     # every --variant checked before anything is written
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
    groups = rule_set_groups(extra)
    listing = []
    for heading, blurb, group in groups:
        items = []
        for v in group:
            rel = f"rules/{v.id}.html"
            _write(root, rel, rules_page_html(v, depth=1), written)
            items.append((v.id, v.document.get("name", v.id), _description(v), rel))
        listing.append((heading, blurb, items))

    by_heading = {heading: group for heading, _, group in groups}
    seeds = [v.id for v in by_heading["Seed rule sets"]] + [str(v.path) for v in by_heading["Published rule books"]]
    c = build(seeds, deals, seed, jobs, progress)
    body = render_html_body(c, rule_link=lambda i: f"../rules/{i}.html")
    _write(root, "compare/seeds.html", page("The seed rule sets compared", body, nav(1)), written)
    comparisons = [("The seed rule sets compared", "compare/seeds.html")]
    for v in extra:
        parent = parent_of(v)
        if parent is None:
            continue
        parent_ref = parent.id if parent.id in loader.known_ids() else str(parent.path)
        c = build([parent_ref, str(v.path) if v.path is not None else v.id], deals, seed, jobs, progress)
        rel = f"compare/{v.id}.html"
        body = render_html_body(c, rule_link=lambda i: f"../rules/{i}.html")
        _write(root, rel, page(f"{v.id} compared with {parent.id}", body, nav(1)), written)
        comparisons.append((f"{v.id} against {parent.id}", rel))

    reports = reports_dir()
    for p in sorted(reports.glob("*.html")) if reports.is_dir() else []:
        rel = f"implementations/{p.name}"
        target = _inside(root, rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, target)
        written.append(rel)
    _write(root, "index.html", index_html(listing, comparisons, board(read_reports(reports))), written)
    return written
