"""The arithmetic a fixture's author wrote beside an expectation, read back from the fixture file.

A hand expectation carries its working in YAML comments (``score: {NS: 0,
EW: 250}   # 160 + 90 = 250``). YAML loaders drop comments, so a failure
report could only say "expected 250": this module reads the lines of the
expectation block again, so the report can show *why* 250. Comments are
found by line, from the positions the strict loader records: the block
starts at the rule-set key under ``expect`` and ends before the next thing
the file says outside it. A comment on a line of its own belongs to the
field written after it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .. import yamlstrict

_KEY = re.compile(r"^\s*-?\s*([A-Za-z_][\w.-]*)\s*:")


@dataclass(frozen=True)
class Comment:
    """One comment: the line it is on, the field it speaks for (None: the whole expectation), its text."""

    line: int
    field: str | None
    text: str

    def to_json(self) -> dict:
        return {"line": self.line, "field": self.field, "text": self.text}

    def __str__(self) -> str:
        return f"{self.field}: {self.text}" if self.field else self.text


def split_comment(line: str) -> tuple[str, str | None]:
    """(the code, the comment or None): a ``#`` outside quotes, at the start or after a space."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i], line[i + 1:].strip()
    return line, None


@lru_cache(maxsize=64)
def _read(path: str, stamp: tuple) -> tuple | None:
    """The file's lines and its parsed data with positions; None when it cannot be read as YAML."""
    try:
        data, positions = yamlstrict.load_file(path)
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except (OSError, UnicodeDecodeError, yamlstrict.YamlStrictError):
        return None
    return lines, data, positions


def _load(path: str) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return _read(path, (st.st_mtime_ns, st.st_size))


def _names(key: str, rule_set_id: str, folder: Path, rule_set_path) -> bool:
    """Whether an ``expect`` key (``a, b, rulesets/c.yaml``) names this rule set."""
    for name in (part.strip() for part in str(key).split(",")):
        if name == rule_set_id:
            return True
        if rule_set_path is not None and ("/" in name or name.endswith((".yaml", ".yml"))):
            try:
                if (folder / name).resolve() == Path(rule_set_path).resolve():
                    return True
            except OSError:
                continue
    return False


def _block(lines: list, positions, start: int, inside: tuple) -> list[Comment]:
    """The comments from line ``start`` up to the first line the file spends on anything else."""
    after = [pos[0] for path, pos in list(positions.items()) + list(positions.keys_at.items())
             if pos[0] > start and tuple(path[:len(inside)]) != inside]
    end = min(after) if after else len(lines) + 1
    last_code = start
    for number in range(start, end):
        code, _ = split_comment(lines[number - 1])
        if code.strip():
            last_code = number
    out: list[Comment] = []
    waiting: list[tuple[int, str]] = []   # comments on lines of their own, before the field they explain
    for number in range(start, min(end, len(lines) + 1)):
        code, comment = split_comment(lines[number - 1])
        if not code.strip():
            if comment and number < last_code:
                waiting.append((number, comment))
            continue
        key = _KEY.match(code)
        field = key.group(1) if key and number != start else None
        out.extend(Comment(n, field, text) for n, text in waiting)
        waiting = []
        if comment:
            out.append(Comment(number, field, comment))
    return out


def expectation_comments(fixture, rule_set_id: str) -> list[Comment]:
    """The comments of ``fixture``'s expectation for ``rule_set_id`` (an id as the runner names it), in
    file order; empty when there is none or the file cannot be read again."""
    loaded = _load(fixture.file)
    if loaded is None:
        return []
    lines, data, positions = loaded
    raw = data.get("fixtures") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        return []
    variant = (fixture.rule_sets or {}).get(rule_set_id)
    folder = Path(fixture.file).parent
    for index, item in enumerate(raw):
        if not (isinstance(item, dict) and item.get("id") == fixture.id and isinstance(item.get("expect"), dict)):
            continue
        for key in item["expect"]:
            if _names(key, rule_set_id, folder, getattr(variant, "path", None)):
                inside = ("fixtures", index, "expect", key)
                where = positions.key(inside)
                if where is None:
                    return []
                return _block(lines, positions, where[0], inside)
    return []


def arithmetic(outcome) -> tuple[str | None, list[Comment]]:
    """Whose expectation the case was judged by and its comments: the rule set it was written for
    (itself, or the one it was carried from); (None, []) for an engine verdict, which has no hand
    working."""
    if outcome.expected_by == "engine":
        return None, []
    written_for = outcome.carried_from or outcome.variant
    return written_for, expectation_comments(outcome.fixture, written_for)
