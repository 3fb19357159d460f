"""What ``--impl SPEC`` names, for every command that drives an implementation.

One reading of the spec string, shared by ``conformance``, ``fuzz`` and the
commands to come, so they all accept the same three forms:

- nothing: the reference engine, in-process;
- a short adapter name (``colver``): a shipped adapter for another engine
  (``coinche_spec/adapters/``), run in-process; it needs that engine's
  package, installed as an extra (``pip install 'coinche-spec[colver]'``);
- ``python:MODULE:FACTORY``: ``FACTORY()`` from ``MODULE`` (a module name,
  or a path to a ``.py`` file) makes an object with the protocol's commands
  as methods, run in-process (docs/protocol.md);
- anything else: the command line of a program speaking the protocol on
  its standard input and output. A program whose name is an adapter's short
  name is reached by a path (``./colver``).

A spec that cannot be opened raises ``SpecError`` (a ``ValueError``) with one
line that says why; nothing is started before it is known to be good.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..errors import CoincheSpecError
from .client import Implementation, InProcess, Subprocess

# short name -> (module, factory, the package it needs, the extra that installs it)
ADAPTERS = {
    "colver": ("coinche_spec.adapters.colver", "ColverAdapter", "colver", "colver"),
    "belote-cli": ("coinche_spec.adapters.belote_cli", "BeloteCliAdapter", "belote", "belote-cli"),
}


# the --impl help every command shows
IMPL_HELP = ("the implementation: a command line speaking the protocol over stdin/stdout, python:MODULE:FACTORY "
             "(an object in this process), or an adapter (" + ", ".join(ADAPTERS) + "); default: the reference "
             "engine in-process")


class SpecError(CoincheSpecError, ValueError):
    """An ``--impl`` spec that names nothing usable; the message is one line."""


@dataclass(frozen=True)
class Spec:
    """An ``--impl`` spec, read: ``kind`` is engine, adapter, python or command."""

    kind: str
    text: str | None
    module: str | None = None
    factory: str | None = None


MAX_TIMEOUT = 86400.0   # seconds: a day for one case is already no limit at all


def timeout_problem(option: str, value) -> str | None:
    """Why a ``--timeout`` is refused (nan, inf, 0, negative, past a day), or None: one check for every
    command that drives an implementation."""
    try:
        seconds = float(value)
    except (TypeError, ValueError, OverflowError):
        seconds = float("nan")
    if math.isfinite(seconds) and 0 < seconds <= MAX_TIMEOUT:   # nan compares false to everything
        return None
    return f"{option} {value}: give a number of seconds above 0 and at most {MAX_TIMEOUT:g}"


def parse_spec(text: str | None) -> Spec:
    """Read a spec without opening anything; raises ``SpecError`` for one that cannot be read."""
    if text is None:
        return Spec("engine", None)
    if not text.strip():   # --impl "": an empty variable in a script, not a wish for the reference engine
        raise SpecError(f"--impl {text!r} is empty: give a command line, python:MODULE:FACTORY or an adapter "
                        f"({', '.join(ADAPTERS)}); leave --impl out for the reference engine")
    text = text.strip()
    if text in ADAPTERS:
        module, factory, _, _ = ADAPTERS[text]
        return Spec("adapter", text, module, factory)
    if text.startswith("python:"):
        rest = text[len("python:"):]
        module, sep, factory = rest.rpartition(":")
        if not sep or not module or not factory:
            raise SpecError(f"{text}: expected python:MODULE:FACTORY, for instance "
                            "python:my_engine:Engine or python:path/to/my_engine.py:Engine")
        if not factory.replace(".", "_").isidentifier():
            raise SpecError(f"{text}: {factory!r} is not a Python name (the factory: a class or function)")
        return Spec("python", text, module, factory)
    return Spec("command", text)


def _import_file(path: Path, spec_text: str):
    if not path.is_file():
        raise SpecError(f"{spec_text}: no file {path}")
    name = f"coinche_spec_impl_{abs(hash(str(path.resolve())))}"
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise SpecError(f"{spec_text}: {path} cannot be imported as Python")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    module_spec.loader.exec_module(module)
    return module


def load_factory(spec: Spec) -> Callable[[], Any]:
    """The factory a python: or adapter spec names, imported; raises ``SpecError`` on one line."""
    where = spec.module or ""
    try:
        if where.endswith(".py") or "/" in where or os.sep in where:
            module = _import_file(Path(where), spec.text)
        else:
            # as `python -m` would: a module in the current folder is found
            cwd = os.getcwd()
            added = cwd not in sys.path
            if added:
                sys.path.insert(0, cwd)
            try:
                module = importlib.import_module(where)
            finally:
                if added and cwd in sys.path:
                    sys.path.remove(cwd)
    except SpecError:
        raise
    except ModuleNotFoundError as exc:
        if spec.kind == "adapter":
            _, _, package, extra = ADAPTERS[spec.text]
            if exc.name == package:
                raise SpecError(f"{spec.text} needs the {package} package: "
                                f"pip install 'coinche-spec[{extra}]'") from None
        raise SpecError(f"{spec.text}: cannot import {where}: {exc}") from None
    except Exception as exc:  # the user's module failed while it was imported
        raise SpecError(f"{spec.text}: importing {where} raised {type(exc).__name__}: "
                        f"{' '.join(str(exc).split())[:300]}") from None
    target: Any = module
    for part in spec.factory.split("."):
        if not hasattr(target, part):
            raise SpecError(f"{spec.text}: {where} has no {spec.factory}")
        target = getattr(target, part)
    if not callable(target):
        raise SpecError(f"{spec.text}: {where}.{spec.factory} is not callable "
                        "(give a class or a function that returns the implementation object)")
    if spec.kind == "adapter":
        check = getattr(module, "check_available", None)
        if callable(check):
            problem = check()
            if problem:
                raise SpecError(f"{spec.text}: {problem}")
    return target


def open_implementation(text: str | None, timeout: float = 10.0, max_restarts: int | None = 3) -> Implementation:
    """The implementation an ``--impl`` spec names, not yet started."""
    spec = parse_spec(text)
    if spec.kind == "engine":
        impl: Implementation = InProcess(timeout)
    elif spec.kind == "command":
        impl = Subprocess(spec.text, timeout=timeout)
    else:
        from .inprocess import PythonObject
        label = spec.text if spec.kind == "python" else f"{spec.text} (adapter, in-process)"
        impl = PythonObject(load_factory(spec), label, timeout=timeout)
    impl.max_restarts = max_restarts
    return impl
