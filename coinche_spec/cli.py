"""The ``coinche-spec`` command: one sub-command per job, each in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys

from .errors import CoincheSpecError, UserError  # noqa: F401  (coinche_spec.cli.UserError still names it)

# sub-command -> module providing register(subparsers)
COMMANDS = {
    "variants": "coinche_spec.variants.cli",
    "serve": "coinche_spec.protocol.server",
    "conformance": "coinche_spec.conformance.cli",
    "fuzz": "coinche_spec.conformance.fuzz_cli",
    "fingerprint": "coinche_spec.conformance.fingerprint_cli",
    "report": "coinche_spec.conformance.report_cli",
    "deal": "coinche_spec.showdeal",
    "docs": "coinche_spec.docsgen.cli",
    "score": "coinche_spec.scoresheet",
    "new": "coinche_spec.housefile",
    "compare": "coinche_spec.compare.cli",
    "site": "coinche_spec.site.cli",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="coinche-spec",
        description="Coinche rule sets as data, a reference engine, and a conformance suite.")
    from . import __version__
    parser.add_argument("--version", action="version", version=f"coinche-spec {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in COMMANDS.items():
        importlib.import_module(module).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from .protocol.children import ending_children_on_signals
    try:
        with ending_children_on_signals():   # SIGTERM/SIGINT: the implementations started go first
            return int(args.func(args) or 0)
    except CoincheSpecError as exc:     # UserError, HomeError, and any input a sub-command did not word itself
        for line in exc.render().splitlines() or [""]:  # a rule set's problems: one line each, all of them
            print(f"coinche-spec: {line}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    # `python -m coinche_spec.cli` runs this file as __main__, a second copy of the module:
    # use the real one, so that the UserError the sub-commands raise is the one caught above.
    from coinche_spec.cli import main as _main
    sys.exit(_main())
