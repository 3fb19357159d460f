"""Strict YAML for rule sets and fixtures: plain data, every value located.

A rule file is read by people who will copy its lines to their own table, so
it must mean exactly what it says. PyYAML's safe loader still accepts things
that silently change the meaning of a line: a repeated key (the last one
wins), ``no`` read as false, anchors and aliases that make one line depend
on another far away, merge keys, explicit tags, ``1:30`` read as 90, ``010``
read as 8, dates. Here every one of them is an error with its line and column.

``load(text, filename)`` returns the data (dicts, lists, str, int, float,
bool, None, in the order written) and a :class:`Positions` map from path
tuples (``("rules", "auction", "coinche", "when")``, list items by index) to
``(line, col)``, 1-based, so a later check (a schema, the engine's own) can
point at the exact line. Every problem is one line::

    FILE:LINE:COL: path: message

The same module also turns JSON Schema errors into such lines
(:func:`schema_problems`), for the variant loader and the fixture loader alike.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import yaml
from yaml.events import (AliasEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, SequenceEndEvent,
                         SequenceStartEvent, StreamEndEvent)
from yaml.nodes import ScalarNode

from . import inputs
from .errors import CoincheSpecError

MAX_NUMBER_CHARS = 100  # characters of a number, as in a protocol line (docs/limits.md)
MAX_DEPTH = 64  # levels of nesting; the deepest shipped rule set or fixture uses 7 (docs/limits.md)

_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_NULL = "tag:yaml.org,2002:null"
_STR = "tag:yaml.org,2002:str"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MERGE = "tag:yaml.org,2002:merge"
_VALUE = "tag:yaml.org,2002:value"

# libyaml's parser when PyYAML has it (PyPI wheels do) reads a file ~25 times faster than the
# pure-Python one, which takes seconds per megabyte (docs/performance.md). The pure one stays
# the reference: it reads any text with a tab (libyaml accepts tabs where it does not), and a
# text libyaml finds broken is read again by it, so that every message is worded the same --
# up to PURE_MAX_CHARS; a larger file is libyaml's alone (docs/limits.md).
_FAST_LOADER = getattr(yaml, "CSafeLoader", None)
PURE_MAX_CHARS = 512 * 1024  # above this, libyaml alone reads the file and words its syntax errors

_OCTAL = re.compile(r"^[-+]?0[0-7_]+$")
_DECIMAL = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")  # what int() reads exactly as YAML does


def format_path(path: Iterable) -> str:
    """``("rules", "auction", "coinche")`` -> ``rules.auction.coinche``; list items as ``[2]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top)"


@dataclass(frozen=True)
class Problem:
    """One located problem; ``str()`` gives the one-line form."""

    filename: str
    line: int | None
    col: int | None
    path: tuple
    message: str

    def __str__(self) -> str:
        where = self.filename if self.line is None else f"{self.filename}:{self.line}:{self.col}"
        return f"{where}: {format_path(self.path)}: {self.message}"


class YamlStrictError(CoincheSpecError, ValueError):
    """The file is not strict YAML; ``problems`` holds every problem found, in file order."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
        if self.problems:
            first = self.problems[0]
            self.locate(first.filename, first.line, first.col, first.path)

    @property
    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


class Positions(dict):
    """path tuple -> (line, col) of the value; ``key(path)`` gives where its key is written.

    The root value is at ``()``. Keys are recorded for mapping entries only, so
    a message about a key (unknown, duplicate, missing inside it) can point at
    the key itself rather than at its value.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.keys_at: dict[tuple, tuple[int, int]] = {}

    def key(self, path: tuple) -> tuple[int, int] | None:
        """Where the key of ``path`` is written, else where its value is."""
        return self.keys_at.get(tuple(path)) or self.get(tuple(path))

    def nearest(self, path: tuple, prefer_key: bool = False) -> tuple[int, int] | None:
        """The position of ``path``, or of its closest located ancestor."""
        path = tuple(path)
        while True:
            pos = self.key(path) if prefer_key else self.get(path)
            if pos is not None:
                return pos
            if not path:
                return None
            path = path[:-1]
            prefer_key = True


# What a value is, in the words of the people who wrote it: YAML files for players and
# clubs, JSON requests for programmers.
TYPE_WORDS = {
    "yaml": {"null": "null", "bool": "true/false", "int": "a whole number",
             "float": "a number with a fraction", "str": "text", "list": "a list", "dict": "a mapping"},
    "json": {"null": "null", "bool": "a boolean", "int": "a number", "float": "a number",
             "str": "a string", "list": "a list", "dict": "an object"},
}


def type_name(value: Any, words: str = "yaml") -> str:
    table = TYPE_WORDS[words]
    if value is None:
        return table["null"]
    for kind in (bool, int, float, str, list, dict):  # bool before int: True is an int
        if isinstance(value, kind):
            return table[kind.__name__]
    return type(value).__name__


_type_name = type_name


class _Reader:
    """Walks PyYAML's event stream and builds plain data, checking every node."""

    def __init__(self, text: str, filename: str, loader_class=yaml.SafeLoader):
        self.filename = filename
        self.loader = loader_class(text)
        self.positions = Positions()
        self.problems: list[Problem] = []
        self.where: tuple = ()  # the path being read, for syntax errors
        self.resolved: dict[str, str] = {}  # plain scalar text -> its implicit tag

    # -- helpers ----------------------------------------------------------
    def problem(self, mark, path: tuple, message: str) -> None:
        self.problems.append(Problem(self.filename, mark.line + 1, mark.column + 1, tuple(path), message))

    def next(self):
        return self.loader.get_event()

    def peek(self):
        return self.loader.peek_event()

    def check_node_props(self, event, path: tuple) -> None:
        if event.anchor is not None:
            self.problem(event.start_mark, path,
                         f"anchor '&{event.anchor}' is not allowed: write the value out in full")
        if event.tag is not None and event.tag != "!":
            self.problem(event.start_mark, path,
                         f"tag '{_short_tag(event.tag)}' is not allowed: write plain values "
                         "(quote text that could be read as a number or true/false)")

    # -- the walk ---------------------------------------------------------
    def read(self) -> Any:
        self.next()  # StreamStart
        if isinstance(self.peek(), StreamEndEvent):
            return None
        self.next()  # DocumentStart
        data = self.node(())
        self.next()  # DocumentEnd
        if not isinstance(self.peek(), StreamEndEvent):
            ev = self.peek()
            self.problem(ev.start_mark, (), "a second YAML document ('---') is not allowed: one document per file")
        return data

    def node(self, path: tuple) -> Any:
        self.where = path
        event = self.next()
        self.positions[path] = (event.start_mark.line + 1, event.start_mark.column + 1)
        if len(path) >= MAX_DEPTH and isinstance(event, (SequenceStartEvent, MappingStartEvent)):
            # every later reader (the schema, the merge, the engine) walks the data recursively
            self.problem(event.start_mark, path, f"nested more than {MAX_DEPTH} levels deep: "
                                                 "no rule set or fixture needs that many")
            self.skip_rest_of(event)
            return None
        if isinstance(event, AliasEvent):
            self.problem(event.start_mark, path,
                         f"alias '*{event.anchor}' is not allowed: write the value out in full")
            return None
        self.check_node_props(event, path)
        if isinstance(event, ScalarEvent):
            return self.scalar(event, path)
        if isinstance(event, SequenceStartEvent):
            items = []
            while not isinstance(self.peek(), SequenceEndEvent):
                items.append(self.node(path + (len(items),)))
            self.next()
            return items
        if isinstance(event, MappingStartEvent):
            return self.mapping(path)
        raise AssertionError(f"unexpected YAML event {event!r}")  # pragma: no cover

    def mapping(self, path: tuple) -> dict:
        out: dict = {}
        first_seen: dict = {}
        while not isinstance(self.peek(), MappingEndEvent):
            key_event = self.peek()
            key = self.key(path)
            if key is _BAD_KEY:
                self.skip_node()
                continue
            if key in first_seen:
                line = first_seen[key]
                self.problem(key_event.start_mark, path,
                             f"duplicate key '{key}' (first written on line {line}): write each key once")
                self.skip_node()
                continue
            first_seen[key] = key_event.start_mark.line + 1
            child = path + (key,)
            self.positions.keys_at[child] = (key_event.start_mark.line + 1, key_event.start_mark.column + 1)
            out[key] = self.node(child)
        self.next()
        return out

    def key(self, path: tuple):
        event = self.next()
        if isinstance(event, AliasEvent):
            self.problem(event.start_mark, path,
                         f"alias '*{event.anchor}' is not allowed as a key: write the key out in full")
            return _BAD_KEY
        self.check_node_props(event, path)
        if not isinstance(event, ScalarEvent):
            self.problem(event.start_mark, path, "a key must be plain text, not a list or a mapping")
            self.skip_rest_of(event)
            return _BAD_KEY
        tag = self.resolve(event)
        if tag == _MERGE:
            self.problem(event.start_mark, path,
                         "merge key '<<' is not allowed: write every key out (variants share rules with `extends`)")
            return _BAD_KEY
        value = self.scalar(event, path, as_key=True, tag=tag)
        if value is _BAD_KEY:
            return _BAD_KEY
        if not isinstance(value, str):
            text = event.value
            self.problem(event.start_mark, path,
                         f"key {text} is read as {_type_name(value)}; keys must be text: quote it ('{text}')")
            return _BAD_KEY
        return value

    def skip_node(self) -> None:
        event = self.next()
        self.skip_rest_of(event)

    def skip_rest_of(self, event) -> None:
        if isinstance(event, (SequenceStartEvent, MappingStartEvent)):
            depth = 1
            while depth:
                ev = self.next()
                if isinstance(ev, (SequenceStartEvent, MappingStartEvent)):
                    depth += 1
                elif isinstance(ev, (SequenceEndEvent, MappingEndEvent)):
                    depth -= 1

    def resolve(self, event: ScalarEvent) -> str:
        if event.tag is not None and event.tag != "!":
            return _STR  # already reported; read it as the text written
        if event.style is not None or not event.implicit[0]:  # quoted or tagged '!': text
            return self.loader.resolve(ScalarNode, event.value, event.implicit)
        tag = self.resolved.get(event.value)  # plain scalars repeat (keys, small numbers)
        if tag is None:
            tag = self.resolved[event.value] = self.loader.resolve(ScalarNode, event.value, event.implicit)
        return tag

    def scalar(self, event: ScalarEvent, path: tuple, as_key: bool = False, tag: str | None = None) -> Any:
        tag = tag or self.resolve(event)
        text = event.value
        mark = event.start_mark
        if tag == _STR:
            return text
        if tag == _NULL:
            return None
        if tag == _BOOL:
            if text in ("true", "false"):
                return text == "true"
            self.problem(mark, path,
                         f"'{text}' is read as {str(text.lower() in ('yes', 'on', 'true', 'y')).lower()} "
                         f"by YAML 1.1 readers: write true or false, or quote it ('{text}') if you mean the text")
            return _BAD_KEY if as_key else text
        if tag == _INT:
            if ":" in text:
                self.problem(mark, path,
                             f"'{text}' is read as a base-60 number by YAML 1.1 readers: quote it ('{text}')")
                return _BAD_KEY if as_key else text
            if _OCTAL.match(text):
                self.problem(mark, path,
                             f"'{text}' is read as an octal number by YAML 1.1 readers: "
                             f"write it without the leading 0, or quote it ('{text}')")
                return _BAD_KEY if as_key else text
            why = _number_problem(text, plain=bool(_DECIMAL.match(text)))
            if why:
                self.problem(mark, path, why)
                return _BAD_KEY if as_key else text
            return int(text)
        if tag == _FLOAT:
            low = text.lower()
            if ":" in text or "inf" in low or "nan" in low:
                self.problem(mark, path, f"'{text}' is not a plain number: write a number, or quote it ('{text}')")
                return _BAD_KEY if as_key else text
            why = _number_problem(text, plain="_" not in text)
            if why:
                self.problem(mark, path, why)
                return _BAD_KEY if as_key else text
            value = self.construct(ScalarNode(tag, text, mark, event.end_mark))
            if isinstance(value, float) and not math.isfinite(value):
                self.problem(mark, path, f"'{text}' is too large for a number (it reads as infinity)")
                return _BAD_KEY if as_key else text
            return value
        if tag == _TIMESTAMP:
            self.problem(mark, path, f"'{text}' is read as a date: quote it ('{text}')")
            return _BAD_KEY if as_key else text
        if tag == _MERGE:
            self.problem(mark, path, "'<<' is a YAML merge key: quote it ('<<') if you mean the text")
            return _BAD_KEY if as_key else text
        # '=' (the YAML 1.1 value key) and anything else PyYAML would treat specially
        self.problem(mark, path, f"'{text}' has a special meaning in YAML 1.1: quote it ('{text}')")
        return _BAD_KEY if as_key else text

    def construct(self, node: ScalarNode) -> Any:
        return self.loader.construct_object(node, deep=True)


def _number_problem(text: str, plain: bool) -> str | None:
    """Why a number as written is refused (``plain``: written in decimal digits alone), or None."""
    if not plain:   # 1_500, 0b101 (numbers to YAML 1.1 readers alone), 0x1F
        how = ("is a number in base 16" if "x" in text.lower() else
               "is read as a number by YAML 1.1 readers only (as text by YAML 1.2 readers)")
        return f"'{text}' {how}: write it in plain decimal digits, or quote it ('{text}')"
    if len(text) > MAX_NUMBER_CHARS:   # past 4,300 digits int() itself raises
        return (f"the number {text[:12]}... has {len(text):,} characters; a number has at most "
                f"{MAX_NUMBER_CHARS} here")
    return None


class _BadKey:
    def __repr__(self) -> str:  # pragma: no cover
        return "<bad key>"


_BAD_KEY = _BadKey()


def _short_tag(tag: str) -> str:
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix):] if tag.startswith(prefix) else tag


class _Syntax(Exception):
    """The fast parser found the text broken: read it again with the reference parser.

    Private control flow (caught in this module, never shown): not under errors.CoincheSpecError."""


# Both YAML parsers take time quadratic in the depth of nested flow collections ("[[[[...");
# 100,000 levels took a minute. The reader refuses 64 levels anyway; beyond this many brackets
# deep the text is refused before any parser sees it.
FLOW_SCAN_DEPTH = 1000
_QUOTED_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\n]|\'\')*\'|(?:^|(?<=[ \t]))#[^\n]*', re.M)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET = re.compile(r"[\[\]{}]")
_DELTA = {"[": 1, "{": 1, "]": -1, "}": -1}


def _flow_guard(text: str, filename: str) -> None:
    """Refuse, in linear time, flow collections nested more than FLOW_SCAN_DEPTH deep."""
    if text.count("[") + text.count("{") <= FLOW_SCAN_DEPTH:
        return
    plain = _QUOTED_OR_COMMENT.sub(lambda m: " " * len(m.group()), text)  # brackets in text or comments do not nest
    brackets = _NOT_BRACKET.sub("", plain)
    if max(itertools.accumulate(map(_DELTA.__getitem__, brackets)), default=0) <= FLOW_SCAN_DEPTH:
        return
    nth = next(i for i, d in enumerate(itertools.accumulate(map(_DELTA.__getitem__, brackets)))
               if d > FLOW_SCAN_DEPTH)
    where = next(itertools.islice(_BRACKET.finditer(plain), nth, None)).start()
    line = text.count("\n", 0, where) + 1
    col = where - (text.rfind("\n", 0, where) + 1) + 1
    raise YamlStrictError([Problem(filename, line, col, (), f"brackets nested more than {FLOW_SCAN_DEPTH} levels "
                                                           f"deep (the limit is {MAX_DEPTH} levels of nesting)")])


# characters an editor shows as nothing, or inside one line, where YAML readers see a line break (or a
# byte-order mark, which only the first character may be, and is dropped there by inputs.read_text)
_INVISIBLE = {"\u2028": "U+2028 (LINE SEPARATOR)", "\u2029": "U+2029 (PARAGRAPH SEPARATOR)",
              "\u0085": "U+0085 (NEXT LINE)", "\ufeff": "U+FEFF (a byte-order mark)"}
_INVISIBLE_RE = re.compile("[" + "".join(_INVISIBLE) + "]")


def _invisible_guard(text: str, filename: str) -> None:
    """Refuse, located, the characters that make YAML readers and editors see different lines."""
    problems = []
    for m in _INVISIBLE_RE.finditer(text):
        i = m.start()
        line, col = text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)
        what = _INVISIBLE[m.group()]
        why = ("a second byte-order mark: only the file's first character may be one" if m.group() == "\ufeff"
               else "an editor shows one line where YAML readers see two")
        problems.append(Problem(filename, line, col, (), f"{what} inside the text: {why}; remove it"))
        if len(problems) >= MAX_SCHEMA_ERRORS:
            break
    if problems:
        raise YamlStrictError(problems)


def load(text: str, filename: str = "<string>") -> tuple[Any, Positions]:
    """Read strict YAML; return ``(data, positions)`` or raise :class:`YamlStrictError`."""
    _flow_guard(text, filename)
    _invisible_guard(text, filename)
    if _FAST_LOADER is None:
        return _load(text, filename, yaml.SafeLoader)
    if len(text) > PURE_MAX_CHARS:  # the pure parser would take tens of seconds: libyaml says it all
        return _load(text, filename, _FAST_LOADER, fast_errors=True)
    if "\t" not in text:
        try:
            return _load(text, filename, _FAST_LOADER)
        except _Syntax:
            pass
    return _load(text, filename, yaml.SafeLoader)


def _load(text: str, filename: str, loader_class, fast_errors: bool = False) -> tuple[Any, Positions]:
    fast = loader_class is not yaml.SafeLoader and not fast_errors
    reader = None
    try:
        reader = _Reader(text, filename, loader_class)
        data = reader.read()
    except yaml.YAMLError as exc:
        if fast:
            raise _Syntax() from None
        _syntax_error(exc, text, filename, reader)
    if reader.problems:
        raise YamlStrictError(sorted(reader.problems, key=lambda p: (p.line, p.col)))
    return data, reader.positions


def _syntax_error(exc, text: str, filename: str, reader) -> None:
    """Raise the YamlStrictError for a syntax error of the reference parser."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        message = exc.problem or exc.context or "not valid YAML"
        if exc.context and exc.problem:
            message = f"{exc.problem} ({exc.context}"
            if exc.context_mark is not None and exc.context_mark is not mark:
                message += f" started on line {exc.context_mark.line + 1}"
            message += ")"
        line = mark.line + 1 if mark else 1
        col = mark.column + 1 if mark else 1
        problems = [p for p in reader.problems if (p.line, p.col) < (line, col)]
        problems.append(Problem(filename, line, col, reader.where, f"YAML syntax: {message}"))
        raise YamlStrictError(problems) from None
    # the reader: a character YAML does not allow
    position = getattr(exc, "position", 0) or 0
    before = text[:position]
    line = before.count("\n") + 1
    col = position - (before.rfind("\n") + 1) + 1
    reason = str(exc).splitlines()[0]
    raise YamlStrictError([Problem(filename, line, col, (), f"YAML syntax: {reason}")]) from None


def load_file(path, display: str | None = None) -> tuple[Any, Positions]:
    """Read a file as strict YAML; a missing or unreadable file is a one-line problem too."""
    name = display if display is not None else str(path)
    try:
        text = inputs.read_text(path, name)
    except inputs.InputError as exc:
        raise YamlStrictError([Problem(name, None, None, (), exc.message)]) from None
    return load(text, name)


# --- JSON Schema errors as located lines ----------------------------------

Locate = Callable[[tuple, bool], tuple]
"""locate(path, prefer_key) -> (filename, line, col) for a path in the data, or
(filename, line, col, shown_path) when the path is written differently there."""


MAX_SCHEMA_ERRORS = 100        # listed, of one file's schema errors (docs/limits.md)
MAX_SCHEMA_ERRORS_COUNTED = 1_000


class CappedErrors(list):
    """The first :data:`MAX_SCHEMA_ERRORS` of a lazy error iterator (jsonschema's ``iter_errors``),
    with how many more were counted (``more``, at most :data:`MAX_SCHEMA_ERRORS_COUNTED`) and whether
    counting stopped before the end (``more_than``): a file of 200,000 bad entries is refused in a
    second, without keeping 200,000 errors."""

    more = 0
    more_than = False

    def note(self, filename: str) -> list:
        """One Problem line naming what was left out, or nothing."""
        if not self.more:
            return []
        count = f"more than {self.more:,}" if self.more_than else f"{self.more:,}"
        return [Problem(filename, None, None, (), f"and {count} more schema "
                                                  f"{'problem' if self.more == 1 else 'problems'}, not listed "
                                                  f"(the first {MAX_SCHEMA_ERRORS} are)")]


def capped(errors: Iterable) -> CappedErrors:
    out = CappedErrors()
    it = iter(errors)
    for err in it:
        out.append(err)
        if len(out) == MAX_SCHEMA_ERRORS:
            break
    for err in it:
        out.more += 1
        if out.more >= MAX_SCHEMA_ERRORS_COUNTED:
            out.more_than = any(True for _ in itertools.islice(it, 1))
            break
    return out


def schema_problems(errors: Iterable, locate: Locate, noun: Callable[[tuple], str] | None = None) -> list[Problem]:
    """Turn jsonschema errors into :class:`Problem` lines, the best match first.

    ``noun(path)`` names what a key is ("rule", "field") so that messages read
    "unknown rule 'auction.coinch'"; ``locate`` finds where a path is written.
    """
    import jsonschema.exceptions as jexc

    errors = list(errors)
    if not errors:
        return []
    noun = noun or (lambda path: "field")
    best = max(errors, key=jexc.relevance)  # what best_match picks before it looks inside oneOf
    ordered = [best] + [e for e in errors if e is not best]
    out: list[Problem] = []
    seen: set = set()
    for err in ordered:
        for path, prefer_key, message in _explain(err, noun):
            if (path, message) in seen:
                continue
            seen.add((path, message))
            where = locate(path, prefer_key)
            shown = where[3] if len(where) > 3 else path
            out.append(Problem(where[0], where[1], where[2], tuple(shown), message))
    if len(out) > 1:
        head, rest = out[0], out[1:]
        rest.sort(key=lambda p: (p.filename, p.line or 0, p.col or 0))
        out = [head] + rest
    return out


SUGGESTIONS = 50  # unknown keys of one mapping that get a "did you mean" (each costs a fuzzy match)


_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                 "eight": "8", "nine": "9", "ten": "10", "twenty": "20", "hundred": "100", "thousand": "1000"}


def _word_parts(text: str) -> list[str]:
    """The words of a name (``nearest_10_half_up``: nearest, 10, half, up), a number word as digits."""
    return [_NUMBER_WORDS.get(p, p) for p in re.split(r"[^a-z0-9]+", text.lower()) if p]


def suggest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the choice ``word`` most likely means, or "" (the one spelling hint
    of every message: unknown keys and values, rule paths, rule set ids).

    The choice sharing most words with it is preferred, a word matching when it is spelled alike or
    is the number a number word says (``nearest_ten`` means ``nearest_10_half_up`` more likely than
    ``nearest_5``, closer letter by letter); the closest spelling breaks ties. A choice sharing a word
    must be half alike letter by letter, one sharing none 0.6 alike, as difflib's close matches."""
    word = str(word)
    mine = _word_parts(word)

    def alike(a: str, b: str) -> float:
        return difflib.SequenceMatcher(None, a, b).ratio()

    def ranked(choice: str) -> tuple[int, float]:
        theirs = _word_parts(choice)
        shared = sum(1 for p in mine if any(p == t or alike(p, t) >= 0.8 for t in theirs))
        # letter by letter, the words as words (ten as 10): the shorter of two equal matches is closer
        return shared, max(alike(choice, word), alike(" ".join(theirs), " ".join(mine)))

    scored = sorted(((ranked(c), c) for c in dict.fromkeys(str(c) for c in choices)), key=lambda x: x[0],
                    reverse=True)
    for (shared, likeness), choice in scored:
        if likeness >= (0.5 if shared else 0.6):
            return f" (did you mean '{choice}'?)"
    return ""


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (dict, list)):
        return _type_name(value)
    return str(value)


_SCHEMA_TYPE_NAMES = {"integer": "a whole number", "number": "a number", "string": "text",
                      "boolean": "true or false", "object": "a mapping", "array": "a list", "null": "null"}


def _expected_types(schema: Any) -> list[str]:
    if not isinstance(schema, dict):
        return []
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        names = [_SCHEMA_TYPE_NAMES.get(t, t) for t in types]
        if "object" in types and isinstance(schema.get("properties"), dict):
            keys = ", ".join(schema["properties"])
            names = [n + f" ({keys})" if n == "a mapping" else n for n in names]
        return names
    if "enum" in schema:
        return ["one of " + ", ".join(_show(v) for v in schema["enum"])]
    return []


def _explain(err, noun) -> list[tuple[tuple, bool, str]]:
    """(path, prefer_key, message) lines for one jsonschema error."""
    path = tuple(err.absolute_path)
    kind = err.validator
    inst = err.instance
    if kind == "additionalProperties" and isinstance(inst, dict):
        allowed = list(err.schema.get("properties", {}))
        out = []
        for key in inst:
            if key in allowed:
                continue
            what = noun(path + (key,))
            shown = _rule_name(path + (key,)) if what == "rule" else str(key)
            # a spelling hint for the first few only: past that the file is not a misspelling
            hint = suggest(key, allowed) if len(out) < SUGGESTIONS else ""
            out.append((path + (key,), True, f"unknown {what} '{shown}'{hint}"))
        return out or [(path, False, err.message)]
    if kind == "required" and isinstance(inst, dict):
        return [(path, True, f"missing required {noun(path + (k,))} '{k}'")
                for k in err.validator_value if k not in inst]
    if kind == "enum":
        choices = err.validator_value
        hint = suggest(inst, [c for c in choices if isinstance(c, str)]) if isinstance(inst, str) else ""
        return [(path, False, f"{_show(inst)} is not one of: {', '.join(_show(c) for c in choices)}{hint}")]
    if kind == "type":
        expected = " or ".join(_expected_types(err.schema)) or str(err.validator_value)
        return [(path, False, f"expected {expected}, got {_show(inst)}"
                 + ("" if isinstance(inst, (dict, list)) else f" ({_type_name(inst)})"))]
    if kind == "minimum":
        return [(path, False, f"{_show(inst)} is below the least allowed value, {err.validator_value}")]
    if kind == "maximum":
        return [(path, False, f"{_show(inst)} is above the greatest allowed value, {err.validator_value}")]
    if kind == "minItems":
        return [(path, False, f"needs at least {err.validator_value} item(s), has {len(inst)}")]
    if kind == "uniqueItems":
        dup = next((x for i, x in enumerate(inst) if x in inst[:i]), None)
        return [(path, False, f"{_show(dup)} is listed twice: each item once")]
    if kind == "minLength":
        return [(path, False, "must not be empty" if err.validator_value == 1
                 else f"needs at least {err.validator_value} characters")]
    if kind == "pattern":
        return [(path, False, f"{_show(inst)} does not have the expected form ({err.validator_value})")]
    if kind in ("oneOf", "anyOf"):
        return _explain_alternatives(err, noun)
    return [(path, False, err.message)]


def _explain_alternatives(err, noun) -> list[tuple[tuple, bool, str]]:
    path = tuple(err.absolute_path)
    alternatives = err.validator_value
    if not err.context:
        return [(path, False, "matches more than one of the allowed forms")]
    by_alt: dict[int, list] = {}
    for sub in err.context:
        by_alt.setdefault(sub.schema_path[0], []).append(sub)
    # an alternative whose type fits the value: its own errors say what is wrong
    fitting = [i for i, subs in by_alt.items()
               if not any(s.validator == "type" and tuple(s.absolute_path) == path for s in subs)]
    if len(fitting) == 1:
        out = []
        for sub in by_alt[fitting[0]]:
            out.extend(_explain(sub, noun))
        return out
    expected = []
    for alt in alternatives:
        expected.extend(_expected_types(alt))
    got = _show(err.instance)
    return [(path, False, f"expected {' or '.join(expected) or 'another form'}, got {got}")]


def _rule_name(path: tuple) -> str:
    """A rule path as people write it in `sources`: without the leading `rules`."""
    parts = list(path)
    if parts and parts[0] == "rules":
        parts = parts[1:]
    return format_path(tuple(parts))
