"""Writing a divergence found by the fuzzer as a ready fixture file (docs/fixtures.md).

The file holds one fixture: the shrunk case, and under the rule set it was
found with the reference engine's answer for the fields that differed, each
with the implementation's answer in a comment. The fixture says
``expected_by: engine``: the expectation is the engine's until a person
works it out from the rule text, writes the arithmetic in comments and
changes it to ``hand``. ``depends_on`` names the rules the compared fields
may depend on (a generous superset, see ``fuzz.FIELD_RULES``).

A file is never overwritten: an existing name gets ``-2``, ``-3`` ... and
the fixture id the same suffix, so two runs into one directory keep both.
The text is read back before it is written, so a file that would not read
back as the data meant is never left behind.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import yaml

from .. import yamlstrict
from ..errors import CoincheSpecError

AREA_OF_KIND = {"dealing": "dealing", "auction": "auction", "legal_cards": "play", "deal": "deal",
                "score": "scoring", "melds": "melds", "perft": "perft", "match": "match"}
WIDTH = 100
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class WriteError(CoincheSpecError):
    """The fixture could not be written; the message names the file."""


def scalar(value: Any) -> str:
    """A YAML scalar that reads back as ``value``: plain where that is safe, else JSON-quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and yaml.safe_load(text) == text:
        return text
    return json.dumps(text, ensure_ascii=False)


def flow(value: Any) -> str:
    """``value`` on one line, in YAML flow style."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def block(value: Any, indent: int) -> list[str]:
    """``value`` as block YAML lines at ``indent`` spaces, each part in flow style where it fits."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            lines.extend(entry(scalar(key), item, indent))
    elif isinstance(value, list):
        for item in value:
            one = flow(item)
            if len(pad) + 2 + len(one) <= WIDTH or not isinstance(item, (dict, list)):
                lines.append(f"{pad}- {one}")
            else:
                inner = block(item, indent + 2)
                lines.append(f"{pad}- {inner[0].lstrip()}")
                lines.extend(inner[1:])
    else:
        lines.append(pad + scalar(value))
    return lines


def entry(key: str, value: Any, indent: int) -> list[str]:
    """``key: value``, on one line if it fits, else the value as a block below the key."""
    pad = " " * indent
    one = flow(value)
    if not isinstance(value, (dict, list)) or not value or len(pad) + len(key) + 2 + len(one) <= WIDTH:
        return [f"{pad}{key}: {one}"]
    return [f"{pad}{key}:"] + block(value, indent + 2)


def _comment(text: str, indent: int) -> list[str]:
    """A comment, wrapped at the width."""
    pad = " " * indent + "# "
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(pad) + len(line) + 1 + len(word) > WIDTH:
            lines.append(pad + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(pad + line)
    return lines


def slug(text: str, limit: int = 30) -> str:
    out = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return out[:limit].strip("-") or "x"


def fixture_text(fixture: dict, area: str, header: list[str], answers: dict, expect_key: str) -> str:
    """The file: the header comments, the area and the one fixture, a comment above each expected field."""
    lines = [f"# {line}" if line else "#" for line in header]
    lines += [f"area: {area}", "fixtures:"]
    body = []
    for key, value in fixture.items():
        if key == "expect":
            continue
        body.extend(entry(key, value, 4))
    body[0] = "  - " + body[0][4:]
    lines += body
    lines += ["    expect:", f"      {scalar(expect_key)}:"]
    for name, value in fixture["expect"][expect_key].items():
        lines += _comment(f"the reference engine's answer; the implementation answered {answers[name]}", 8)
        lines += entry(scalar(name), value, 8)
    return "\n".join(lines) + "\n"


def _taken_ids(directory: Path) -> set:
    """Fixture ids already used by the YAML files of ``directory`` (read as text: any file, any state)."""
    ids = set()
    for path in directory.glob("*.y*ml"):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        ids.update(re.findall(r"^\s*-?\s*id:\s*['\"]?([a-z0-9-]+)", text, re.M))
    return ids


def write_fixture(directory: Path, base_id: str, fixture: dict, area: str, header: list[str],
                  answers: dict, expect_key: str) -> Path:
    """Write the fixture under a new name in ``directory``; returns the path. Never overwrites."""
    directory = Path(directory)
    taken = _taken_ids(directory)
    n = 1
    while True:
        fid = base_id if n == 1 else f"{base_id}-{n}"
        path = directory / f"{fid}.yaml"
        n += 1
        if fid in taken or path.exists():
            continue
        data = dict(fixture, id=fid)
        data = {"id": fid, **{k: v for k, v in data.items() if k != "id"}}
        text = fixture_text(data, area, header, answers, expect_key)
        read, _ = yamlstrict.load(text, str(path))
        if read != {"area": area, "fixtures": [data]}:   # pragma: no cover - the emitter's own check
            raise WriteError(f"{path}: the fixture would not read back as written; nothing was written")
        try:
            with open(path, "x", encoding="utf-8") as handle:   # "x": never over an existing file
                handle.write(text)
        except FileExistsError:   # another run took the name a moment ago
            continue
        except OSError as exc:
            raise WriteError(f"{path}: cannot write: {exc.strerror or exc}") from None
        return path


def expectation_key(variant_ref: str, variant_path: Path | None, directory: Path) -> str:
    """The rule set as the fixture names it: its id, or its file relative to the fixture's directory."""
    if variant_path is None:
        return variant_ref
    return Path(os.path.relpath(Path(variant_path).resolve(), Path(directory).resolve())).as_posix()


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def size(case: dict) -> str:
    """How big a case is, in the game's words: calls, cards, declarations."""
    kind = case["kind"]
    if kind == "auction":
        return _count(len(case["calls"]), "call")
    if kind == "deal":
        return f"{_count(len(case['calls']), 'call')} and {_count(len(case['play']), 'card')}"
    if kind == "legal_cards":
        return f"{_count(len(case['hand']), 'card')} in hand and {len(case['trick'])} in the trick"
    if kind == "melds":
        return _count(sum(len(m) for m in case["declared"].values()), "declaration")
    if kind == "dealing":
        return f"a cut of {case['cut']}"
    return "a summary"


def divergence_fixture(shrunk, original, expect_key: str, variant_id: str, seed: int, implementation: str,
                       date: str) -> tuple[str, dict, str, list, dict]:
    """(base id, fixture, area, header lines, answers) for one shrunk divergence."""
    from .fuzz import NO_REPLY, depends_on
    d = shrunk.divergence
    names = list(d.expected) if NO_REPLY in shrunk.fields else [f for f in d.expected if f in shrunk.fields]
    expect = {name: d.expected[name] for name in names}
    result = d.answer if isinstance(d.answer, dict) else None
    answers = {name: (flow(result[name]) if result is not None and name in result
                      else "nothing (no such field)" if result is not None else f"no result ({d.answer})")
               for name in names}
    before, after = size(original.case), size(d.case)
    smaller = f" from {before} to {after}" if before != after else ""
    base = "-".join(["fuzz", slug(variant_id), slug(d.kind), slug(d.field, 20), f"s{seed}", f"d{d.index}"])
    fixture = {
        "id": base[:74].strip("-"),   # room for a "-2" suffix within the 80 characters an id may have
        "title": f"{implementation} and the reference engine disagree on {', '.join(names)} "
                 f"({d.kind} case, {variant_id})",
        "tags": ["fuzz"],
        "expected_by": "engine",
        "depends_on": depends_on(d.kind, names),
        "notes": (f"Found by coinche-spec fuzz (seed {seed}, deal {d.index}, case {d.number} of that deal), "
                  + (f"shrunk{smaller} in {shrunk.tries} tries" if shrunk.tries else "not shrunk")
                  + ". The expectation is the reference engine's answer until a person checks it against the "
                  "rule text."),
        "case": d.case,
        "expect": {expect_key: expect},
    }
    header = [f"Written by coinche-spec fuzz on {date} against {implementation}, rule set {variant_id}.",
              "The expectation below is the reference engine's answer (expected_by: engine), not worked out",
              "by hand: it stays the engine's until a person checks it against the rule text, writes the",
              "arithmetic in comments and changes expected_by to hand.", ""]
    return fixture["id"], fixture, AREA_OF_KIND[d.kind], header, answers
