"""The one root of every error coinche-spec raises about what a user or a client gave.

Each subclass keeps its own message form (``FILE:LINE:COL: path: message``
for files, ``case.hands.N[3]: ...`` for protocol cases); this root adds the
structured location, so a caller that wants the file, line, column or path
of a problem reads attributes instead of parsing text. A caller that must
never show a traceback catches ``CoincheSpecError`` once.
"""

from __future__ import annotations


class CoincheSpecError(Exception):
    """A problem with an input, located as far as it is known (``None`` where it is not)."""

    file: str | None = None
    line: int | None = None
    column: int | None = None
    path: tuple = ()

    def locate(self, file: str | None = None, line: int | None = None, column: int | None = None,
               path: tuple = ()) -> "CoincheSpecError":
        self.file, self.line, self.column, self.path = file, line, column, tuple(path)
        return self


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
