"""``coinche-spec docs ID|FILE [--output FILE]`` and ``coinche-spec docs --all DIR``.

A club that writes down its house rules as a variant file gets back a page
it can print and play with: every rule in plain words with the sentence it
rests on, worked examples scored by the engine, and the readings taken where
the sources are silent. ``--all`` writes the page of every shipped and house
rule set (the project keeps them in docs/rules/).
"""

from __future__ import annotations

import sys
from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "docs", help="write a rule set as a readable rules page (Markdown)",
        description="Render a rule set as a Markdown rules page: every rule in plain words with its source "
                    "sentence or the reading taken, worked examples computed by the engine, and the "
                    "interpretations.")
    p.add_argument("ref", nargs="?", metavar="ID|FILE",
                   help="a shipped or house variant id (see `variants list`) or a variant file")
    p.add_argument("--output", "-o", metavar="FILE", help="write the page to FILE (default: standard output)")
    p.add_argument("--all", dest="all_dir", metavar="DIR",
                   help="write one page per shipped and house variant into DIR, as DIR/<id>.md")
    p.set_defaults(func=run)


def _user_error(message: str):
    from ..cli import UserError   # the top-level command prints it as one line, exit 2
    return UserError(message)


def _variant_error(where: str, lines: list[str]):
    """The first located problem (it names the file and line), and how many more there are."""
    more = f" (and {len(lines) - 1} more problems; see `coinche-spec variants check`)" if len(lines) > 1 else ""
    return _user_error(f"{lines[0] if lines else where + ': invalid variant'}{more}")


def load(ref: str):
    """The variant named on the command line: a file path, or a shipped or house id."""
    from ..variants.cli import variant_for
    from ..variants.loader import VariantError

    try:
        return variant_for(ref)
    except VariantError as exc:
        raise _variant_error(ref, exc.lines) from None


def _write(path: Path, text: str) -> None:
    # Only ever create what was asked for: a missing folder is the user's typo more often than a wish.
    if not path.parent.is_dir():
        raise _user_error(f"cannot write '{path}': the folder '{path.parent}' does not exist")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise _user_error(f"cannot write '{path}': {exc.strerror or exc}") from None


def write_all(folder: Path) -> list[Path]:
    """Every shipped and house rule set's page, as folder/<id>.md; returns the files written."""
    from ..variants import loader
    from .page import render_page

    written = []
    for ident in loader.shipped_ids() + loader.house_ids():
        try:
            variant = loader.load_variant(ident)
        except loader.VariantError as exc:
            raise _variant_error(ident, exc.lines) from None
        target = folder / f"{ident}.md"
        _write(target, render_page(variant))
        written.append(target)
    return written


def run(args) -> int:
    from .page import render_page

    if args.all_dir is not None:
        if args.ref is not None or args.output is not None:
            raise _user_error("docs: give either a variant (ID|FILE, with --output) or --all DIR, not both")
        folder = Path(args.all_dir)
        if folder.exists() and not folder.is_dir():
            raise _user_error(f"--all: '{folder}' is not a folder")
        if not folder.exists():
            if not folder.parent.is_dir():
                raise _user_error(f"--all: cannot create '{folder}': the folder '{folder.parent}' does not exist")
            folder.mkdir()
        written = write_all(folder)
        print(f"wrote {len(written)} rules pages to {folder}")
        return 0
    if args.ref is None:
        raise _user_error("docs: name a variant (an id such as federation, or a variant file), or use --all DIR")
    page = render_page(load(args.ref))
    if args.output:
        _write(Path(args.output), page)
    else:
        sys.stdout.write(page)
    return 0
