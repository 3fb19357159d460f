"""``coinche-spec variants list|show|check``: the rule sets, as people browse and check them.

``list`` names every rule set the project carries, grouped by kind (seed,
published, implementation, house, test: registry.py); ``show`` prints one as written or with its `extends` chain
resolved; ``check`` validates files the way every other command reads them,
one located line per problem, so a table writing its house rules can fix
them before a conformance run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

from . import loader
from .loader import SUFFIXES, VariantError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "variants", help="list, show, compare and check rule sets (variants)",
        description="List, show, compare and check Coinche rule sets (variant files).")
    actions = parser.add_subparsers(dest="variants_action", metavar="ACTION")
    parser.set_defaults(func=lambda args: _no_action(parser))

    p = actions.add_parser("list", help="every rule set by kind (seed, published, implementation, house; test with --tests)",
                           description="One line per rule set (id, name, the rule set it extends), grouped by "
                                       "kind: seed, published, implementation, house, and with --tests the "
                                       "test rule sets fixtures use (otherwise only counted).")
    p.add_argument("--tests", action="store_true",
                   help="also list the test rule sets of conformance/rulesets/ (many, and for fixtures only)")
    p.set_defaults(func=cmd_list)

    p = actions.add_parser("show", help="print a variant, as written or resolved",
                           description="Print a rule set as its file is written, or with --resolved as the "
                                       "whole rule set after its `extends` chain is merged: the starting point "
                                       "for a house file, which then keeps only what it changes.")
    p.add_argument("ref", metavar="ID|FILE", help="a variant id (see `variants list`) or a variant file")
    p.add_argument("--resolved", action="store_true",
                   help="merge the `extends` chain and print the whole rule set")
    p.add_argument("--format", choices=("yaml", "json"), default="yaml", help="output format (default: yaml)")
    p.set_defaults(func=cmd_show)

    p = actions.add_parser("diff", help="the rules two variants disagree on, with the words behind each",
                           description="Compare two rule sets rule by rule. Each differing rule is shown with "
                                       "the value in each, and the source quote or interpretation behind it.")
    p.add_argument("left", metavar="ID|FILE")
    p.add_argument("right", metavar="ID|FILE")
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                   help="output format (default: text; markdown: a table with the words behind each value)")
    p.add_argument("--brief", action="store_true", help="values only, without the quotes and readings")
    p.add_argument("--all", action="store_true",
                   help="also the rules that cannot matter under the other rules (left out by default, as on "
                        "the rules pages: tout atout values where tout atout cannot be bid)")
    p.set_defaults(func=cmd_diff)

    p = actions.add_parser("check", help="validate variant files; one line per problem",
                           description="Validate variant files as every other command reads them: strict YAML, "
                                       "the schema, the checks beyond it. Exit 0 when all are valid; 1 with one "
                                       "line FILE:LINE:COL: path: message per problem; 2 when there is nothing "
                                       "to check.")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="variant files (a folder stands for its .yaml files)")
    p.add_argument("--strict", action="store_true",
                   help="treat warnings (a card table that does not add up, a rule a house file sets that "
                        "cannot matter under the others) as problems: exit 1")
    p.set_defaults(func=cmd_check)


def _no_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _user_error(message: str):
    from ..errors import UserError  # the top-level command prints it as one line
    return UserError(message)


KIND_WORDS = {"seed": "seed rule sets", "published": "published rule books", "implementation": "programs' rule sets",
              "house": "house rule sets", "test": "test rule sets"}


def cmd_list(args) -> int:
    """One group per kind of rule set (registry.KINDS order), each rule set with its name and parent.

    Test rule sets exist for fixtures only and are many: counted in a last line unless --tests."""
    from . import registry

    kinds = registry.by_kind()
    hidden = [] if getattr(args, "tests", False) else kinds.pop("test", [])
    groups = [(kind, names) for kind, names in kinds.items() if names]
    width = max((len(ident) for _, names in groups for ident in names), default=0)
    status = 0
    for n, (kind, names) in enumerate(groups):
        if n:
            print()
        print(f"{KIND_WORDS[kind]} ({registry.place(kind)}):")
        for ident in names:
            try:
                v = loader.load_variant(ident)
            except VariantError as exc:
                print(f"  {ident:<{width}}  INVALID: {exc.lines[0]}")
                status = 1
                continue
            line = f"  {ident:<{width}}  {v.document['name']}"
            parent = (v.written or {}).get("extends")
            if isinstance(parent, str):
                line += f"  [extends {parent}]"
            print(line)
    if hidden:
        print(f"\n{len(hidden)} {KIND_WORDS['test']} ({registry.place('test')}) for the fixtures: "
              "`variants list --tests` lists them")
    return status


def variant_for(ref: str) -> loader.Variant:
    """The variant a command line names, through the one resolution (loader.load_variant).

    A reference that names nothing is a mistake on the command line (UserError, exit 2);
    a rule set that is found but invalid raises VariantError, one located line per problem."""
    try:
        return loader.load_variant(ref)
    except loader.VariantNotFound as exc:
        raise _user_error(exc.reason) from None


def cmd_show(args) -> int:
    """Print a variant; an invalid one prints its problems instead (exit 2, as every command
    given a rule set it cannot load: only ``check``'s verdict on a file is exit 1)."""
    try:
        variant = variant_for(args.ref)
    except VariantError as exc:
        for line in exc.lines:
            print(line, file=sys.stderr)
        return 2
    if args.resolved:
        data = variant.document
    else:
        data = variant.written
        if args.format == "yaml" and variant.path is not None:
            # as written: the file itself, byte for byte (comments, key order, line endings)
            from ..inputs import InputError, read_bytes
            try:
                data = read_bytes(variant.path, args.ref)
            except InputError as exc:
                raise _user_error(str(exc)) from None
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
            return 0
    if args.format == "json":
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100,
                                        default_flow_style=False))
    return 0


def _expand(files: list[str]) -> list[str]:
    out = []
    for name in files:
        p = Path(name)
        try:
            folder = p.is_dir()
        except OSError:  # a name too long to be a file: check_files says so, located
            folder = False
        if folder:
            # every entry so named: a folder or a link loop called x.yaml is reported, not skipped
            out.extend(str(x) for x in sorted(p.iterdir()) if x.suffix in SUFFIXES)
        else:
            out.append(name)
    return out


def cmd_check(args) -> int:
    """Exit 0 and say how many files are valid, or 1 with one line per problem.

    Warnings (allowed, but likely slips) are printed too and leave the exit 0, unless --strict."""
    files = _expand(args.files)
    if not files:
        raise _user_error("no variant file to check: " + ", ".join(args.files) + " holds no .yaml file")
    warned: list[str] = []
    lines = loader.check_files(files, warned)
    for line in lines + warned:
        print(line)
    if lines or (warned and args.strict):
        return 1
    note = f", {len(warned)} warning{'s' if len(warned) != 1 else ''}" if warned else ""
    print(f"{len(files)} file{'s' if len(files) != 1 else ''} valid{note}")
    return 0


def cmd_diff(args) -> int:
    """Exit 0 whether or not they differ: this is a reading aid, not a check (2: a rule set that
    does not load)."""
    from . import diff

    try:
        left, right = variant_for(args.left), variant_for(args.right)
    except VariantError as exc:
        for line in exc.lines:
            print(line, file=sys.stderr)
        return 2
    from .relevance import that_can_matter
    diffs = diff.differences(left.document, right.document)
    left_out: list = []
    if not args.all:
        diffs, left_out = that_can_matter(left.document, right.document, diffs, [left.id, right.id])
    if args.format == "json":
        print(diff.render_json(left.id, right.id, diffs, left_out))
    elif args.format == "markdown":
        print(diff.render_markdown(left.id, right.id, diffs, left_out))
    else:
        print(diff.render_text(left.id, right.id, diffs, with_basis=not args.brief, left_out=left_out))
    return 0
