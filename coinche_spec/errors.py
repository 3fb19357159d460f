"""The one root of every error coinche-spec raises about what a user or a client gave.

Each subclass keeps its own message form (``FILE:LINE:COL: path: message``
for files, ``case.hands.N[3]: ...`` for protocol cases); this root adds the
structured location, so a caller that wants the file, line, column or path
of a problem reads attributes instead of parsing text. A caller that must
never show a traceback catches ``CoincheSpecError`` once: the command does
(``cli.main`` prints ``render()``, exit status 2). Every exception class of the
package derives from it, besides a few private control-flow ones that never
leave their module (tests/test_errors.py lists them and checks the rest).

This module imports nothing of the package: every layer may raise from it.
"""

from __future__ import annotations


class CoincheSpecError(Exception):
    """A problem with an input, located as far as it is known (``None`` where it is not).

    ``file``, ``line``, ``column``: where in a file; ``path``: the rule path or field
    (``("rules", "scoring", "rounding")``, ``("case", "hands", "N", 3)``); ``case``: the
    fixture or case id. ``render()`` is what every command prints, one problem a line."""

    file: str | None = None
    line: int | None = None
    column: int | None = None
    path: tuple = ()
    case: str | None = None

    def locate(self, file: str | None = None, line: int | None = None, column: int | None = None,
               path: tuple = (), case: str | None = None) -> "CoincheSpecError":
        self.file, self.line, self.column, self.path = file, line, column, tuple(path)
        if case is not None:
            self.case = case
        return self

    @property
    def location(self) -> dict:
        """The known parts of the location, by name (empty when nothing is known)."""
        found = {"file": self.file, "line": self.line, "column": self.column,
                 "path": tuple(self.path) or None, "case": self.case}
        return {k: v for k, v in found.items() if v is not None}

    def render(self) -> str:
        """The problem as a command prints it, one line per problem (each subclass's message already
        carries its location in its own words: ``FILE:LINE:COL: path: message``, ``case.hands.N[3]: ...``)."""
        return str(self)


class InputError(CoincheSpecError):
    """A file that cannot be read as an input: missing, a folder, a device, too large, not UTF-8."""

    def __init__(self, file: str, message: str):
        super().__init__(f"{file}: {message}")
        self.message = message
        self.locate(file)


class OutputError(CoincheSpecError):
    """An output path that would lose something: one of the run's inputs, named twice, not writable."""

    def __init__(self, file: str, message: str):
        super().__init__(f"cannot write '{file}': {message}")
        self.message = message
        self.locate(file)


class UserError(CoincheSpecError):
    """A problem with what the user gave on the command line: printed as one line (one per
    problem), exit status 2. Here, below every sub-package, so that any of them may raise it."""
