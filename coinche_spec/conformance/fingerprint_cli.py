"""``coinche-spec fingerprint``: which rules an implementation plays, told apart case by case.

Options are checked first (an unknown base, an output file that exists: one
line, exit status 2, nothing started). Then the implementation is started,
asked the cases ``fingerprint`` builds, and the result printed (``--json``
for scripts); ``--output`` writes the rules found as a rule-set file that
extends the base. Exit status 0 when the fingerprint was taken, whatever it
found.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..protocol.impls import IMPL_HELP


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "fingerprint", help="work out, rule by rule, which options an implementation plays",
        description="For every rule of the base rule set and every other option it may take, the reference "
                    "engine finds cases (the corpus's, then random deals) whose answers differ between the two; "
                    "the implementation answers them, and its answers show which option it plays. Prints "
                    "'plays like BASE except: ...' with the evidence, and the rules no case it answers can show.")
    p.add_argument("--impl", metavar="SPEC", default=None, help=IMPL_HELP)
    p.add_argument("--base", metavar="ID|FILE", default="contree-701",
                   help="the rule set to compare with (default contree-701)")
    p.add_argument("--output", metavar="FILE", default=None,
                   help="write the rules found as a rule-set file that extends the base (never overwritten)")
    p.add_argument("--deals", metavar="N", type=int, default=None,
                   help="random deals tried per option when the corpus has no case telling it apart (default 6)")
    p.add_argument("--corpus", metavar="DIR", default=None, help="fixture directory (default: the shipped corpus)")
    p.add_argument("--timeout", metavar="S", type=float, default=10.0,
                   help="seconds the implementation may take to answer one case (default 10)")
    p.add_argument("--json", action="store_true", help="print the whole fingerprint as one JSON object")
    p.set_defaults(func=main)


def _usage(text: str) -> int:
    for line in text.splitlines():
        print(f"coinche-spec: {line}", file=sys.stderr, flush=True)
    return 2


def main(args) -> int:
    import yaml

    from ..protocol.client import ImplementationError
    from ..protocol.impls import open_implementation
    from ..variants import VariantError
    from ..variants.cli import variant_for
    from . import fingerprint as fp_mod

    from ..protocol.impls import timeout_problem
    problem = timeout_problem("--timeout", f"{args.timeout:g}")
    if problem:
        return _usage(problem)
    if args.deals is not None and args.deals < 0:
        return _usage(f"--deals {args.deals}: give a whole number of at least 0")
    from ..errors import UserError
    try:
        base = variant_for(args.base)
    except VariantError as exc:
        return _usage("\n".join(f"--base {args.base}: {line}" for line in exc.lines) or f"--base {args.base}: {exc}")
    except UserError as exc:
        return _usage(f"--base {args.base}: {exc}")
    output = Path(args.output) if args.output else None
    if output is not None:
        if output.exists():
            return _usage(f"--output {args.output}: the file exists; it is never overwritten")
        if output.suffix not in (".yaml", ".yml"):
            return _usage(f"--output {args.output}: a rule-set file ends in .yaml or .yml")
        if not output.parent.is_dir():
            return _usage(f"--output {args.output}: no folder {output.parent}")
        ident = fp_mod.file_id(output)
        if ident is None:
            return _usage(f"--output {args.output}: the file's name gives the rule set's id: use lower-case "
                          "letters, digits and '-' (my-engine.yaml)")
    if args.corpus is not None and not Path(args.corpus).is_dir():
        return _usage(f"--corpus {args.corpus}: no such folder")
    try:
        impl = open_implementation(args.impl, args.timeout)
    except ValueError as exc:
        return _usage(f"--impl: {exc}")
    try:
        impl.start()
    except ImplementationError as exc:
        impl.stop()
        return _usage(f"--impl \"{args.impl}\" did not start: {exc.message.removeprefix('the implementation ')}")
    try:
        result = fp_mod.fingerprint(impl, base, args.corpus,
                                    fp_mod.DEALS if args.deals is None else args.deals)
    except fp_mod.FingerprintError as exc:
        return _usage(f"fingerprint: {exc}")
    finally:
        impl.stop()
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False), flush=True)
    else:
        print(fp_mod.render_text(result), flush=True)
    if output is not None:
        document = fp_mod.rule_set_document(result, ident)
        text = ("# Written by coinche-spec fingerprint; the evidence of each rule is in its interpretation.\n"
                + yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100))
        try:
            with open(output, "x", encoding="utf-8") as handle:   # "x": never overwrite
                handle.write(text)
        except FileExistsError:
            return _usage(f"--output {args.output}: the file exists; it is never overwritten")
        except OSError as exc:
            return _usage(f"--output {args.output}: cannot write: {exc.strerror}")
        print(f"wrote {output}", file=sys.stderr, flush=True)
    return 0
