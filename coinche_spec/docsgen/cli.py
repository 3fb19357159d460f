"""``coinche-spec docs ID|FILE``, ``docs --compare``, ``docs --reference`` and ``docs --all DIR``.

A club that writes down its house rules as a variant file gets back a page
it can print and play with: every rule in plain words with the sentence it
rests on, worked examples scored by the engine, and the readings taken where
the sources are silent. ``--all`` writes the page of every shipped and house
rule set (the project keeps them in docs/rules/); ``--compare`` the seed rule
sets side by side (docs/variants.md); ``--reference`` every rule a file may
set (docs/rules-reference.md). All are generated, so none can go stale.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "docs", help="write rules pages, the comparison of the seed rule sets, or the rules reference (Markdown)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Write Markdown pages generated from the rule files, so that none can go\n"
                    "stale. Give one of:\n"
                    "  ID|FILE      a rule set's rules page: every rule in plain words with its source\n"
                    "               sentence or the reading taken, worked examples scored by the engine,\n"
                    "               and the interpretations\n"
                    "  --compare    the seed rule sets side by side (docs/variants.md)\n"
                    "  --reference  every rule a variant file may set (docs/rules-reference.md)\n"
                    "  --options-tally FILE\n"
                    "               the counts of the catalogue of rule options in the wild: how many\n"
                    "               the schema says exactly, and why not the others\n"
                    "               (docs/options-in-the-wild.yaml -> docs/options-in-the-wild.md)\n"
                    "  --all DIR    the rules page of every seed, published, program's and house rule set (docs/rules/)\n"
                    "  --implementations DIR\n"
                    "               run each published implementation (colver) through the suite and write\n"
                    "               its results page, DIR/<name>.md and .html, and DIR/<name>.json\n"
                    "               (docs/implementations/; takes minutes: it fuzzes 10,000 deals)",
        epilog="examples:\n"
               "  coinche-spec docs federation\n"
               "  coinche-spec docs our-table.yaml --output our-table.md\n"
               "  coinche-spec docs our-table.yaml --format html --output our-table.html\n"
               "  coinche-spec docs our-table.yaml --summary --format pdf --output our-table.pdf\n"
               "  coinche-spec docs --compare --output docs/variants.md\n"
               "  coinche-spec docs --reference --output docs/rules-reference.md\n"
               "  coinche-spec docs --options-tally docs/options-in-the-wild.yaml --output docs/options-in-the-wild.md\n"
               "  coinche-spec docs --all docs/rules\n"
               "  coinche-spec docs --implementations docs/implementations")
    p.add_argument("ref", nargs="?", metavar="ID|FILE",
                   help="a shipped or house variant id (see `variants list`) or a variant file")
    p.add_argument("--compare", action="store_true",
                   help="the seed rule sets compared rule by rule: a row for every rule on which they differ and "
                        "a few key shared ones, each value linked to its rules page and marked (reading) when it "
                        "is an interpretation")
    p.add_argument("--reference", action="store_true",
                   help="every rule of the variant schema, grouped as the schema groups them, with its allowed "
                        "values and meaning, and how to change it in a house file with `extends`")
    p.add_argument("--options-tally", dest="tally", metavar="FILE",
                   help="the summary page of a catalogue of rule options in the wild (docs/options-in-the-wild.yaml): "
                        "exact, approximate, not said and outside counts, and every option not said exactly, "
                        "by rule set")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write the page (of ID|FILE, --compare or --reference) to FILE, whose folder must exist "
                        "(default: standard output)")
    p.add_argument("--format", choices=("md", "html", "pdf"), default=None,
                   help="md (default): the Markdown page; html: a self-contained sheet to print on A4 (what the "
                        "house changes, the game at a glance, worked examples, then the full rules as an appendix); "
                        "pdf: that sheet as an A4 PDF, printed by headless Chromium (needs --output)")
    p.add_argument("--summary", action="store_true",
                   help="with ID|FILE: the short sheet a table prints, at most two A4 pages (what the house changes, "
                        "the game at a glance, the cards, the scoring table, one deal worked out); html unless "
                        "--format pdf")
    p.add_argument("--all", dest="all_dir", metavar="DIR",
                   help="write one rules page per shipped and house variant into DIR, as DIR/<id>.md; DIR is "
                        "created if it does not exist but its parent folder does")
    p.add_argument("--implementations", dest="impl_dir", metavar="DIR",
                   help="run each published implementation (conformance under its own rule set and the seeds, "
                        "fingerprint, fuzzing) and write DIR/<name>.json, .md and .html; DIR must exist")
    p.add_argument("--fuzz-deals", metavar="N", type=int, default=None,
                   help="with --implementations: deals to fuzz (default: each entry's own, 10000 for colver)")
    p.add_argument("--rerender", action="store_true",
                   help="with --implementations: render the pages again from DIR/<name>.json, running nothing")
    p.set_defaults(func=run)


def _user_error(message: str):
    from ..errors import UserError   # the top-level command prints it as one line, exit 2
    return UserError(message)


def _variant_error(where: str, lines: list[str]):
    """Every located problem of the rule set (each names the file and line), one line each."""
    return _user_error("\n".join(lines) if lines else where + ": invalid variant")


def load(ref: str):
    """The variant named on the command line: a file path, or a shipped or house id."""
    from ..variants.cli import variant_for
    from ..variants.loader import VariantError

    try:
        return variant_for(ref)
    except VariantError as exc:
        raise _variant_error(ref, exc.lines) from None


def _shipped_files() -> list[Path]:
    from ..resources import variants_dir
    return [p for p in variants_dir().rglob("*") if p.suffix in (".yaml", ".yml")]


def _target(option: str, path, inputs=()):
    """The checked output path: never one of the rule files read, its folder must exist."""
    from .. import outputs
    from ..errors import OutputError

    try:
        return outputs.plan([(option, str(path))], list(inputs) + _shipped_files())[0]
    except OutputError as exc:
        raise _user_error(str(exc)) from None


def _write(target, text: str) -> None:
    # Only ever create what was asked for: a missing folder is the user's typo more often than a wish.
    from .. import outputs
    from ..errors import OutputError

    try:
        outputs.write_text(target, text)
    except OutputError as exc:
        raise _user_error(str(exc)) from None


def write_all(folder: Path) -> list[Path]:
    """Every seed, published, program's and house rule set's page, as folder/<id>.md; returns the files written."""
    from ..variants import loader
    from .page import render_page

    written = []
    for ident in loader.paged_ids():
        try:
            variant = loader.load_variant(ident)
        except loader.VariantError as exc:
            raise _variant_error(ident, exc.lines) from None
        target = folder / f"{ident}.md"
        _write(_target("--all", target), render_page(variant))
        written.append(target)
    return written


def _chosen(args) -> list[str]:
    """The kinds of page asked for, as the command line names them."""
    chosen = []
    if args.ref is not None:
        chosen.append("a variant (ID|FILE)")
    if getattr(args, "compare", False):
        chosen.append("--compare")
    if getattr(args, "reference", False):
        chosen.append("--reference")
    if getattr(args, "tally", None) is not None:
        chosen.append("--options-tally FILE")
    if args.all_dir is not None:
        chosen.append("--all DIR")
    if getattr(args, "impl_dir", None) is not None:
        chosen.append("--implementations DIR")
    return chosen


def implementations(args) -> int:
    """``--implementations DIR``: the published results pages (coinche_spec/published/)."""
    from ..errors import CoincheSpecError
    from ..published.build import write

    folder = Path(args.impl_dir)
    if not folder.is_dir():
        raise _user_error(f"--implementations: '{folder}' is not a folder")
    if args.output is not None:
        raise _user_error("docs: --implementations DIR writes several files: give either --output FILE or "
                          "--implementations DIR, not both")
    if args.fuzz_deals is not None and (args.fuzz_deals < 1 or args.rerender):
        raise _user_error("--fuzz-deals N: give a whole number of at least 1, and not with --rerender")
    try:
        written = write(folder, args.fuzz_deals, args.rerender,
                        say=lambda text: print(f"[implementations] {text}", file=sys.stderr, flush=True))
    except FileNotFoundError as exc:
        raise _user_error(f"--rerender: {exc.filename}: no results file; run without --rerender first") from None
    except (CoincheSpecError, ValueError) as exc:
        raise _user_error(f"--implementations: {exc}") from None
    print(f"wrote {len(written)} files to {folder}")
    return 0


def options_tally(path: str) -> str:
    """``--options-tally FILE``: the catalogue's summary page; a malformed catalogue is refused, one line a problem."""
    from ..yamlstrict import YamlStrictError
    from .tally import catalogue_problems, load_catalogue, render_tally

    try:
        catalogue, positions = load_catalogue(path)
    except YamlStrictError as exc:
        raise _user_error("\n".join(exc.lines)) from None
    problems = catalogue_problems(catalogue, positions, path)
    if problems:
        raise _user_error("\n".join(problems))
    return render_tally(catalogue, path)


def _emit(render, output: str | None, inputs=()) -> None:
    """Render the page and write it to ``output`` (checked first) or standard output."""
    target = _target("--output", output, inputs) if output else None
    page = render()
    if target is not None:
        _write(target, page)
    else:
        sys.stdout.write(page)


def _emit_pdf(render, output: str | None, inputs=()) -> None:
    """Render the page, print it to PDF with headless Chromium, and write it to ``output``."""
    from .. import outputs
    from ..errors import OutputError
    from .pdf import NoBrowser, to_pdf

    if not output:
        raise _user_error("docs: --format pdf writes a file: name it with --output FILE")
    target = _target("--output", output, inputs)
    try:
        data = to_pdf(render())
    except NoBrowser as exc:
        raise _user_error(f"docs: {exc}") from None
    try:
        outputs.write_bytes(target, data)
    except OutputError as exc:
        raise _user_error(str(exc)) from None


def run(args) -> int:
    from .page import render_page

    chosen = _chosen(args)
    if len(chosen) > 1:
        raise _user_error(f"docs: give either {chosen[0]} or {chosen[1]}, not both")
    fmt = getattr(args, "format", None)
    summary = getattr(args, "summary", False)
    if fmt in ("html", "pdf") and args.ref is None:
        raise _user_error(f"docs: --format {fmt} is for one rule set's sheet (docs ID|FILE --format {fmt})")
    if summary and (args.ref is None or fmt == "md"):
        raise _user_error("docs: --summary is one rule set's short sheet, in html or pdf "
                          "(docs ID|FILE --summary [--format pdf])")
    if (getattr(args, "fuzz_deals", None) is not None or getattr(args, "rerender", False)) \
            and getattr(args, "impl_dir", None) is None:
        raise _user_error("docs: --fuzz-deals and --rerender go with --implementations DIR")
    if getattr(args, "impl_dir", None) is not None:
        return implementations(args)
    if getattr(args, "compare", False):
        from .compare import render_compare
        _emit(render_compare, args.output)
        return 0
    if getattr(args, "reference", False):
        from .reference import render_reference
        _emit(render_reference, args.output)
        return 0
    if getattr(args, "tally", None) is not None:
        _emit(lambda: options_tally(args.tally), args.output, [args.tally])
        return 0
    if args.all_dir is not None:
        if args.output is not None:
            raise _user_error("docs: --all DIR writes one file per variant: give either --output FILE or "
                              "--all DIR, not both")
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
        raise _user_error("docs: name a variant (an id such as federation, or a variant file), or use "
                          "--compare, --reference or --all DIR")
    variant = load(args.ref)
    if summary or fmt in ("html", "pdf"):
        from .html import render_html
        from .summary import render_summary
        render = render_summary if summary else render_html
        if fmt == "pdf":
            _emit_pdf(lambda: render(variant), args.output, variant.chain)
        else:
            _emit(lambda: render(variant), args.output, variant.chain)
        return 0
    _emit(lambda: render_page(variant), args.output, variant.chain)
    return 0
