"""One error root: every exception the package raises for a user is a CoincheSpecError.

Each carries its location as attributes (file, line, column, rule path or field, case id, where
known) besides its message, and the command prints ``render()``, one problem a line: a caller
catches one class and never shows a traceback.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import coinche_spec
from coinche_spec.cli import main
from coinche_spec.errors import CoincheSpecError
from coinche_spec.variants.loader import VariantError, load_variant_file

BROKEN = Path(__file__).parent / "broken"

# Exceptions that never reach a user: private control flow, each caught where it is raised (the
# private ones say so in their docstrings). Anything else the package defines must derive from
# CoincheSpecError.
INTERNAL = {
    "coinche_spec.yamlstrict._Syntax",               # the fast YAML parser hands over to the reference one
    "coinche_spec.housefile._Stop",                  # `new`: the answers ran out before the last question
    "coinche_spec.conformance.fuzz_deals._Refused",  # placed by BatchDisagrees, which the user sees
    "coinche_spec.conformance.fuzz_stop.Signalled",  # a signal: caught by the fuzz command, which writes its summary
    # colver's adapter answers the protocol with its reason (its file is hashed into the published
    # results, docs/implementations/, so its docstring says what it is without saying this)
    "coinche_spec.adapters.colver.Refused",
    "coinche_spec.adapters.colver.Unposable",        # the adapter answers a skip with its reason
}


def package_exceptions() -> dict[str, type]:
    """Qualified name -> class, for every exception class defined in the package (all modules imported)."""
    for info in pkgutil.walk_packages(coinche_spec.__path__, "coinche_spec."):
        if info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)
    found: dict[str, type] = {}
    todo = [BaseException]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("coinche_spec"):
                found[f"{sub.__module__}.{sub.__qualname__}"] = sub
    return found


def test_every_exception_of_the_package_is_under_the_one_root():
    found = package_exceptions()
    assert len(found) > 30          # the walk reached every module (38 classes when this was written)
    outside = sorted(name for name, cls in found.items()
                     if not issubclass(cls, CoincheSpecError) and name not in INTERNAL)
    assert not outside, ("these exception classes are neither under coinche_spec.errors.CoincheSpecError nor "
                         f"listed as internal control flow in tests/test_errors.py: {outside}")
    stale = sorted(INTERNAL - set(found))
    assert not stale, f"tests/test_errors.py: INTERNAL names classes that no longer exist: {stale}"


def test_callers_that_catch_value_error_still_catch_it():
    """Multiple inheritance keeps the old bases: `except ValueError` callers are unchanged."""
    from coinche_spec.engine.scoring import ScoreInputError
    from coinche_spec.notation import NotationError, parse_card
    from coinche_spec.protocol.cases import CaseError
    assert issubclass(NotationError, ValueError) and issubclass(CaseError, ValueError)
    assert issubclass(ScoreInputError, ValueError)
    with pytest.raises(CoincheSpecError) as info:
        parse_card("Z9")
    assert isinstance(info.value, ValueError) and info.value.render() == str(info.value)


def test_a_broken_rule_set_carries_its_location():
    with pytest.raises(VariantError) as info:
        load_variant_file(BROKEN / "unknown-rule.yaml")
    err = info.value
    assert (err.line, err.column, err.path) == (8, 5, ("rules", "auction", "coinch"))
    assert err.file.endswith("unknown-rule.yaml") and err.location["line"] == 8
    assert err.render().endswith("rules.auction.coinch: unknown rule 'auction.coinch' (did you mean 'coinche'?)")


def test_a_case_error_carries_the_field():
    from coinche_spec.protocol.cases import CaseError
    err = CaseError(("case", "hands", "N", 3), "not a card")
    assert err.path == ("case", "hands", "N", 3) and err.location == {"path": ("case", "hands", "N", 3)}
    assert err.render() == "case.hands.N[3]: not a card"


def test_the_command_prints_any_error_of_the_package_as_lines_and_exits_2(monkeypatch, capsys):
    """An error a sub-command did not word itself still reaches the user as its lines, never a traceback."""
    from coinche_spec.engine.errors import IllegalPlay
    from coinche_spec.variants import cli as variants_cli

    def refuse(args):
        raise IllegalPlay("N may not play 7S: he must follow hearts")
    monkeypatch.setattr(variants_cli, "cmd_diff", refuse)
    assert main(["variants", "diff", "contree-701", "cafe-701"]) == 2
    assert capsys.readouterr().err == "coinche-spec: N may not play 7S: he must follow hearts\n"
