"""Where the rule sets, schemas and corpus are found.

The schemas are code: always the package's own. The rule sets (``variants/``)
and the corpus (``conformance/``) are data people edit, and a run must read
the copy they are editing. :func:`data_home` picks one copy, in this order:

1. ``$COINCHE_SPEC_HOME``, when set: a folder laid out like a checkout
   (``variants/``, and ``conformance/`` for the corpus);
2. the checkout the package itself runs from (a source run, an editable
   install): code and data from one tree;
3. a coinche-spec clone holding the working folder: the nearest folder, from
   the working folder up, with a ``pyproject.toml``, if that file names the
   project ``coinche-spec`` and the folder has ``variants/``;
4. the copies installed inside the package (``coinche_spec/shipped_variants``
   and ``coinche_spec/shipped_corpus``, mapped from the top-level folders by
   pyproject.toml so that a wheel carries them).

When a clone is preferred to another copy (3 over 4, or 2 while the working
folder is another clone), a note says so on stderr, once per process.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import CoincheSpecError

_HERE = Path(__file__).resolve().parent
HOME_VARIABLE = "COINCHE_SPEC_HOME"
PROJECT_NAME = "coinche-spec"


class HomeError(CoincheSpecError):
    """``$COINCHE_SPEC_HOME`` names no usable folder: one line, exit status 2."""


@dataclass(frozen=True)
class DataHome:
    """One copy of the data: the folder of rule sets, the corpus, and where they come from."""

    variants: Path
    corpus: Path
    origin: str  # "env", "package checkout", "clone", "installed"
    note: str | None = None  # what to tell the user about the choice, if anything


_NAME_LINE = re.compile(r"""^\s*name\s*=\s*["']([^"']*)["']""")


def project_name(pyproject: Path) -> str | None:
    """The ``[project]`` name a pyproject.toml gives (a small scan: tomllib is not in 3.10)."""
    try:
        text = pyproject.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    section = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            section = stripped.strip("[] \t")
            continue
        if section == "project":
            m = _NAME_LINE.match(line)
            if m:
                return m.group(1)
    return None


def _is_checkout(folder: Path) -> bool:
    return (folder / "variants").is_dir() and project_name(folder / "pyproject.toml") == PROJECT_NAME


def clone_above(start: Path) -> Path | None:
    """The coinche-spec clone holding ``start``: the nearest folder up with a pyproject.toml, if it is ours."""
    try:
        folder = start.resolve()
    except (OSError, RuntimeError):
        return None
    for candidate in (folder, *folder.parents):
        try:
            if (candidate / "pyproject.toml").is_file():
                return candidate if _is_checkout(candidate) else None
        except OSError:
            return None
    return None


def _installed_dir(package: str, fallback: Path) -> Path:
    import importlib.util
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            if Path(location).is_dir():
                return Path(location)
    return fallback


def _choose(env: str | None, cwd: Path | None) -> DataHome:
    if env:
        home = Path(env).expanduser()
        if not (home / "variants").is_dir():
            raise HomeError(f"{HOME_VARIABLE}={env}: no folder 'variants' there; point it at a "
                            "coinche-spec checkout (or a folder with variants/ and conformance/)")
        return DataHome(home / "variants", home / "conformance", "env")
    own = _HERE.parent
    clone = clone_above(cwd) if cwd is not None else None
    if _is_checkout(own):
        note = None
        if clone is not None and clone != own.resolve():
            note = (f"coinche-spec: note: rule sets and corpus from {own} (the checkout this coinche-spec "
                    f"runs from), not from the clone {clone} you are in; set {HOME_VARIABLE} to choose")
        return DataHome(own / "variants", own / "conformance", "package checkout", note)
    if clone is not None:
        note = (f"coinche-spec: note: rule sets and corpus from the clone {clone} (variants/, conformance/), "
                f"not the copies installed with the package in {_HERE}; set {HOME_VARIABLE} to choose")
        return DataHome(clone / "variants", clone / "conformance", "clone", note)
    return DataHome(_installed_dir("coinche_spec.shipped_variants", own / "variants"),
                    _installed_dir("coinche_spec.shipped_corpus", own / "conformance"), "installed")


_CHOSEN: dict[tuple, DataHome] = {}
_NOTED: set[str] = set()


def data_home() -> DataHome:
    """The copy of the rule sets and corpus this run reads (see the module docstring for the order)."""
    env = os.environ.get(HOME_VARIABLE) or None
    try:
        cwd = Path.cwd()
    except OSError:  # the working folder was removed
        cwd = None
    key = (env, cwd)
    home = _CHOSEN.get(key)
    if home is None:
        home = _CHOSEN[key] = _choose(env, cwd)
    if home.note and home.note not in _NOTED:
        _NOTED.add(home.note)
        print(home.note, file=sys.stderr, flush=True)
    return home


def variants_dir() -> Path:
    return data_home().variants


def corpus_dir() -> Path:
    return data_home().corpus


def test_rulesets_dir() -> Path:
    """Test-only rule sets (ids ``test-...``): they cover schema options no shipped rule set plays."""
    return corpus_dir() / "rulesets"


def shown_path(path) -> str:
    """A file as messages and reports name it: relative to the working folder when it lies inside
    it; else, for a shipped rule set or fixture file, as a checkout names it (``conformance/x.yaml``,
    ``variants/federation.yaml``), never an absolute path into the installed package; else as given."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive
        rel = ".."
    if not rel.startswith(".."):
        return rel
    real = Path(path).resolve()
    home = data_home()
    for top, name in ((home.corpus, "conformance"), (home.variants, "variants")):
        try:
            inner = real.relative_to(Path(top).resolve()).as_posix()
            return name if inner == "." else f"{name}/{inner}"
        except (ValueError, OSError):
            continue
    return str(path)


def reports_dir() -> Path:
    """The published implementation reports (docs/implementations/: NAME.html and NAME.json).

    From the copy the rule sets come from when it has them (a checkout, a clone,
    ``$COINCHE_SPEC_HOME``), else the copy installed with the package: a plain
    install finds them too, not only an editable one."""
    home = data_home()
    if home.origin != "installed":
        here = home.variants.parent / "docs" / "implementations"
        if here.is_dir():
            return here
    installed = _HERE / "shipped_reports"          # where a wheel puts them (pyproject's package-dir)
    if installed.is_dir():
        return installed
    return _installed_dir("coinche_spec.shipped_reports", _HERE.parent / "docs" / "implementations")


def variant_schema_path() -> Path:
    return _HERE / "variants" / "schema.json"


def fixture_schema_path() -> Path:
    return _HERE / "conformance" / "fixture.schema.json"
