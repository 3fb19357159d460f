"""Writing the files a user asks for (pages, reports) without losing anything the user gave.

Every output option (``docs --output``, ``docs --all``, ``--junit``,
``--report-jsonl``, ``--markdown``) goes through here:

- :func:`plan` checks all of a run's output paths before any work is done:
  a path that names one of the run's inputs (a rule set, a fixture file —
  through a symlink or a hard link as well) is refused, two options naming
  the same file are refused, and so is a path whose folder is missing or
  that names something other than a regular file;
- an existing file is replaced only when coinche-spec wrote it: every page
  and report it writes carries a mark only it writes (:func:`marked`: a
  last-line comment, or a first JSON field); a user's own file named by
  mistake (``-o README.md``), even one that mentions coinche-spec, is
  refused, never overwritten;
- :func:`write_text` / :func:`write_bytes` write next to the target and
  rename over it, so a reader never sees half a file and a failed run
  leaves the old file as it was.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .errors import OutputError


@dataclass(frozen=True)
class Target:
    option: str   # how the command line named it: "--junit", "--output"
    given: str    # the path as given, for messages
    real: Path    # where the bytes go (symlinks followed)


def _identity(path: Path) -> tuple | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def _real(given: str) -> Path:
    try:
        return Path(os.path.realpath(given))
    except (OSError, ValueError) as exc:
        raise OutputError(given, f"{getattr(exc, 'strerror', None) or exc}") from None


def check_target(option: str, given: str) -> Target:
    """One output path on its own: its folder exists, and it is a regular file or nothing yet."""
    if not str(given).strip():
        raise OutputError(given, f"{option} needs a file name")
    real = _real(str(given))
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OutputError(given, exc.strerror or str(exc)) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(given, f"it is a folder; {option} takes a file name")
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OutputError(given, "it is not a regular file (a device, a FIFO or a socket)")
    if not real.parent.is_dir():
        raise OutputError(given, f"the folder '{Path(given).parent}' does not exist")
    return Target(option, str(given), real)


MARK = "coinche-spec/output/v1"
# the last line of every Markdown, HTML and XML file coinche-spec writes (a comment in all three)
MARK_COMMENT = f"<!-- {MARK}: written by coinche-spec, which replaces this file whole when it writes it again -->"
# the last line of every PDF it writes (a PDF comment, after the end of the document)
PDF_MARK = f"% {MARK}: written by coinche-spec"
# the first field of every JSON and JSON Lines file it writes (the first record's, in JSON Lines)
_JSON_MARK = re.compile(r'\A\{\s*"written_by":\s*"' + re.escape(MARK) + '"')
_MARK_SPAN = 4096   # the mark is looked for in this many bytes at the start and at the end


def marked(text: str) -> str:
    """``text`` carrying coinche-spec's mark, so that a later run knows the file is its own: a JSON
    object (or JSON Lines) opens with ``"written_by": MARK``; anything else (Markdown, HTML, XML) ends
    with :data:`MARK_COMMENT`. Text already marked is returned as it is."""
    if _JSON_MARK.match(text[:_MARK_SPAN]) or text.rstrip().endswith(MARK_COMMENT):
        return text
    if text.startswith("{"):
        rest = text[1:]
        sep = "" if rest.lstrip().startswith("}") else "," if rest.startswith("\n") else ", "
        return '{"written_by": "' + MARK + '"' + sep + rest
    return text + ("\n" if text and not text.endswith("\n") else "") + MARK_COMMENT + "\n"


def written_by_us(path: Path) -> bool:
    """Whether an existing file carries coinche-spec's mark (:func:`marked`): its first field, for
    JSON, or its last line, for anything else (a PDF's: :data:`PDF_MARK`). Naming coinche-spec is not enough: a README that
    mentions it is the user's. An empty file holds nothing to lose, and counts as ours."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_MARK_SPAN)
            size = os.fstat(fh.fileno()).st_size
            if size == 0:
                return True
            tail = head
            if size > _MARK_SPAN:
                fh.seek(size - _MARK_SPAN)
                tail = fh.read(_MARK_SPAN)
    except OSError:
        return False
    text_head = head.decode("utf-8", "replace")
    last = tail.decode("utf-8", "replace").rstrip().rsplit("\n", 1)[-1].strip()
    return bool(_JSON_MARK.match(text_head)) or last in (MARK_COMMENT, PDF_MARK)


def plan(outputs: Iterable[tuple[str, str | None]], inputs: Iterable[str | os.PathLike] = ()) -> list[Target]:
    """The checked targets of ``(option, path)`` pairs (a ``None`` path is left out).

    Raises OutputError for a path naming an input, named by two options, or naming an existing
    file coinche-spec did not write."""
    by_real: dict[Path, Target] = {}
    input_real = {}
    input_ids = {}
    for item in inputs:
        real = _real(str(item))
        input_real[real] = str(item)
        ident = _identity(real)
        if ident is not None:
            input_ids[ident] = str(item)
    targets = []
    for option, given in outputs:
        if given is None:
            continue
        target = check_target(option, given)
        same = by_real.get(target.real)
        if same is not None:
            raise OutputError(given, f"{same.option} and {option} both name this file: give each its own file")
        ident = _identity(target.real)
        hit = input_real.get(target.real) or (input_ids.get(ident) if ident is not None else None)
        if hit is not None:
            raise OutputError(given, f"it is one of this run's inputs ({hit}); {option} would replace it")
        if ident is not None and target.real.is_file() and not written_by_us(target.real):
            raise OutputError(given, f"it exists and coinche-spec did not write it; {option} would replace it: "
                                     "name a new file, or remove this one first")
        by_real[target.real] = target
        targets.append(target)
    return targets


def write_bytes(target: Target | str | os.PathLike, data: bytes, option: str = "output") -> Path:
    """Write ``data``, with coinche-spec's mark (:func:`marked`), to a temporary file beside the
    target, then rename it over the target. A PDF already ends with its mark (:data:`PDF_MARK`) and is
    written as it is; anything else is text."""
    if data.rstrip().rsplit(b"\n", 1)[-1] != PDF_MARK.encode():
        data = marked(data.decode("utf-8")).encode("utf-8")
    if not isinstance(target, Target):
        target = check_target(option, str(target))
    real = target.real
    try:
        mode = stat.S_IMODE(os.stat(real).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".part")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, real)
        tmp = None
    except OSError as exc:
        raise OutputError(target.given, exc.strerror or str(exc)) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return real


def write_text(target: Target | str | os.PathLike, text: str, option: str = "output") -> Path:
    return write_bytes(target, text.encode("utf-8"), option)
