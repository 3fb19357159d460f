"""Reading the files a user names: bounded, regular files only, as UTF-8 text.

Every input path (rule sets, fixture files, corpus folders, the retired-ids
list) goes through :func:`read_text`, so one guard covers all of them: a
device (``/dev/zero``) or a FIFO is refused before a byte is read (it could
grow memory for ever or block), a file larger than :data:`MAX_FILE_BYTES`
is refused instead of read whole, a symlink loop or an over-long name is a
one-line message rather than an OSError. The text is returned exactly as
written: line endings are not translated (``\\r\\n`` stays ``\\r\\n``).
"""

from __future__ import annotations

import errno
import os
import stat

from .errors import InputError

MAX_FILE_BYTES = 8 * 1024 * 1024  # 8 MiB: the largest shipped file is ~60 KB; docs/limits.md

_WHY = {
    errno.ENOENT: "no such file",
    errno.EISDIR: "is a directory, not a file",
    errno.ELOOP: "is a symlink loop (or a chain of too many links)",
    errno.EACCES: "permission denied",
    errno.ENOTDIR: "a part of the path is not a folder",
}


def _why(exc: OSError) -> str:
    return _WHY.get(exc.errno, f"cannot read: {exc.strerror or exc}")


def read_bytes(path, display: str | None = None, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else raises InputError."""
    name = display if display is not None else str(path)
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not wait; it is refused just below
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputError(name, _why(exc)) from None
    except ValueError:  # a NUL byte in the name
        raise InputError(name, "the name holds a NUL character") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InputError(name, "is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise InputError(name, "is not a regular file (a device, a FIFO or a socket): give a file")
        if st.st_size > limit:
            raise InputError(name, f"is {st.st_size:,} bytes; the limit is {limit:,} bytes ({limit // 2**20} MiB)")
        chunks, total = [], 0
        while True:  # read to the end, but never past the limit (a file may grow while read)
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise InputError(name, f"is more than {limit:,} bytes ({limit // 2**20} MiB), the limit")
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(name, _why(exc)) from None
    finally:
        os.close(fd)


def read_text(path, display: str | None = None, limit: int = MAX_FILE_BYTES) -> str:
    """The file as UTF-8 text, line endings as written (a BOM is dropped)."""
    name = display if display is not None else str(path)
    data = read_bytes(path, name, limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(name, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return text[1:] if text.startswith("\ufeff") else text
