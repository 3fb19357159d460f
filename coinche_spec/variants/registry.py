"""Where rule sets live, and which file an id names.

Every rule set the project carries sits in one of five folders, each of one
kind; its file is named after its id, and an id names one file in all five:

    seed            variants/                  the rule sets every fixture answers for
    published       variants/published/        published rule books, written as rule sets
    implementation  variants/implementations/  the rules a program plays (colver, ...)
    house           variants/house/            house examples built with `extends`
    test            conformance/rulesets/      test rule sets, for options no other one uses

The folders are those of the copy :func:`coinche_spec.resources.data_home`
chose (a clone, ``$COINCHE_SPEC_HOME`` or the installed package).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..resources import corpus_dir, variants_dir
from ..yamlstrict import suggest

SUFFIXES = (".yaml", ".yml")
KINDS = ("seed", "published", "implementation", "house", "test")
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # as the schema's `id`
LONGEST_ID = 200  # a file name is at most 255 bytes: a longer id names no file


# kind -> (the top folder, the sub-folder): where a checkout keeps it
PLACES = {"seed": ("variants", ""), "published": ("variants", "published"),
          "implementation": ("variants", "implementations"), "house": ("variants", "house"),
          "test": ("conformance", "rulesets")}


def folders() -> list[tuple[str, Path]]:
    """(kind, folder) for every kind, in KINDS order."""
    tops = {"variants": variants_dir(), "conformance": corpus_dir()}
    return [(kind, tops[PLACES[kind][0]] / PLACES[kind][1]) for kind in KINDS]


def place(kind: str) -> str:
    """The folder as a checkout names it: ``variants/house/``."""
    top, sub = PLACES[kind]
    return f"{top}/{sub}/" if sub else f"{top}/"


def folder(kind: str) -> Path:
    return dict(folders())[kind]


def _files_in(where: Path) -> list[Path]:
    try:
        if not where.is_dir():
            return []
        return sorted(p for p in where.iterdir() if p.suffix in SUFFIXES and p.is_file())
    except OSError:
        return []


def ids(kind: str | None = None) -> list[str]:
    """The ids of one kind (sorted), or of every kind in KINDS order."""
    chosen = [(k, f) for k, f in folders() if kind is None or k == kind]
    return [p.stem for _, where in chosen for p in _files_in(where)]


def by_kind() -> dict[str, list[str]]:
    return {kind: [p.stem for p in _files_in(where)] for kind, where in folders()}


def kind_of(path: Path) -> str | None:
    """The kind of a file that sits in one of the folders, else None."""
    try:
        parent = Path(path).resolve().parent
        for kind, where in folders():
            if where.is_dir() and parent == where.resolve():
                return kind
    except (OSError, RuntimeError):
        return None
    return None


def is_id(text: str) -> bool:
    return len(text) <= LONGEST_ID and bool(ID_PATTERN.match(text))


def file_for_id(ident: str) -> tuple[Path | None, str | None]:
    """(the file an id names, None) or (None, why it names none: unknown, not an id, two files)."""
    if not is_id(ident):
        return None, not_an_id(ident)
    found = [p for _, where in folders() for suffix in SUFFIXES
             for p in [where / f"{ident}{suffix}"] if _is_file(p)]
    if len(found) > 1:
        return None, (f"variant id '{ident}' is given by more than one file: "
                      + ", ".join(shown(p) for p in found))
    if not found:
        return None, unknown_id(ident)
    return found[0], None


def _is_file(p: Path) -> bool:
    try:
        return p.is_file()
    except OSError:
        return False


def clipped(text: str, width: int = 40) -> str:
    """A reference short enough to quote in a one-line message."""
    return text if len(text) <= width else text[:width] + f"… ({len(text)} characters)"


def not_an_id(text: str) -> str:
    if len(text) > LONGEST_ID:
        return f"'{clipped(text)}' is too long to be a variant id (at most {LONGEST_ID} characters)"
    return (f"'{clipped(text)}' is not a variant id (lower-case letters, digits and '-'), "
            "nor a file path (a path ends in .yaml or holds a '/')")


def unknown_id(ident: str) -> str:
    known = ids()
    hint = suggest(ident, known)
    # test rule sets are many and only fixtures name them: counted, not listed
    listed = "; ".join(f"{kind}: {', '.join(names)}" if kind != "test" else f"{len(names)} test rule sets"
                       for kind, names in by_kind().items() if names)
    return f"unknown variant id '{ident}'{hint}; known ids: {listed or 'none'}"


def shown(path: Path) -> str:
    """A file name as people read it: relative to the working folder when it is below it."""
    import os
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)
    return str(path) if rel.startswith("..") else rel
