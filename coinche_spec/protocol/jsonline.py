"""One JSON line of the protocol, decoded and encoded strictly, in one place.

Both ends use it: the server reading requests, the runner reading another
implementation's replies. Whatever a line holds, decoding either returns
plain data or raises :class:`LineError` with a one-line message — never a
RecursionError, never an out-of-range number. Limits (docs/limits.md): a
line of at most :data:`MAX_LINE_BYTES`, at most :data:`MAX_DEPTH` levels of
arrays and objects, numbers of at most :data:`MAX_NUMBER_CHARS` characters;
``NaN``, ``Infinity`` and numbers too large for a float are refused, since
they are not JSON and could not be echoed as JSON; so is an object that
writes one key twice (JSON leaves it to the reader, and "last wins" would
judge ``{"errored": true, "errored": false}`` as a result). :func:`encode`
never writes them either.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..errors import CoincheSpecError

MAX_LINE_BYTES = 8 * 1024 * 1024   # a whole rule set as a configure document is ~100 KB
MAX_DEPTH = 64                      # the deepest request the protocol needs is ~7 levels
MAX_NUMBER_CHARS = 100              # no count or score in Coinche comes near 100 digits


class LineError(CoincheSpecError, ValueError):
    """A line that is not a JSON value within the limits; ``column`` is 1-based when known."""

    def __init__(self, message: str, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.locate(None, 1 if column else None, column)


def _number(text: str) -> None:
    if len(text) > MAX_NUMBER_CHARS:
        raise LineError(f"the number {text[:12]}... has {len(text):,} characters; "
                        f"a number has at most {MAX_NUMBER_CHARS} here")


def _int(text: str) -> int:
    _number(text)
    return int(text)


def _float(text: str) -> float:
    _number(text)
    value = float(text)
    if not math.isfinite(value):
        raise LineError(f"the number {text} is too large for a JSON number (it reads as infinity)")
    return value


def _object(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):   # JSON leaves a repeated key to the reader: last wins, silently
        seen: set = set()
        for key, _ in pairs:
            if key in seen:
                raise LineError(f"the line writes the key {json.dumps(key)[:80]} twice in one object")
            seen.add(key)
    return out


def _constant(name: str):
    raise LineError(f"{name} is not JSON: write a number, or null")


def _too_deep(value: Any) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item if isinstance(v, (dict, list)))
    return False


def decode(line: str) -> Any:
    """The JSON value on one line, or LineError."""
    try:
        value = json.loads(line, parse_int=_int, parse_float=_float, parse_constant=_constant,
                           object_pairs_hook=_object)
    except LineError:
        raise
    except RecursionError:
        raise LineError(f"the line nests arrays or objects more than {MAX_DEPTH} levels deep") from None
    except json.JSONDecodeError as exc:
        raise LineError(f"the line is not JSON: {exc.msg} (column {exc.colno})", exc.colno) from None
    except ValueError as exc:  # pragma: no cover - any other refusal of the decoder
        raise LineError(f"the line is not JSON: {exc}") from None
    # a cheap count first: most lines hold far fewer brackets than the limit
    if line.count("[") + line.count("{") > MAX_DEPTH and _too_deep(value):
        raise LineError(f"the line nests arrays or objects more than {MAX_DEPTH} levels deep")
    return value


def encode(value: Any) -> str:
    """Strict JSON on one line (ASCII, no NaN or Infinity); ValueError/TypeError if it cannot be."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def read_line(stream, limit: int = MAX_LINE_BYTES) -> tuple[bytes | None, bool]:
    """The next line of a binary stream, without reading more than ``limit`` bytes of it into memory.

    Returns ``(line, too_long)``: ``(None, False)`` at the end of the input; a line longer than
    the limit is read to its end and dropped, and comes back as ``(b"", True)``."""
    raw = stream.readline(limit + 1)
    if not raw:
        return None, False
    if len(raw) <= limit or raw.endswith(b"\n"):
        return raw, False
    while raw and not raw.endswith(b"\n"):  # skip the rest of the over-long line
        raw = stream.readline(1 << 20)
    return b"", True
