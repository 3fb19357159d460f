"""``coinche-spec new FILE --extends ID``: start a house rule set by answering questions.

A table that sits down to play must settle a few things: the rules most
often house-ruled (the match target, what a coinche and a surcoinche
multiply by, melds, belote, rounding, when one may coinche, ...) and the
questions its chosen rule set leaves open (the parent's interpretations).
This module asks them one by one, the parent's answer as the default, and
writes a commented house file that ``extends`` the parent, with every answer
recorded as an interpretation and only the changed rules under ``rules:``.
``--defaults`` takes every default without asking (for scripts and tests).

Each changed answer is checked at once by loading the rule set it makes, so
a value the rules cannot take together (a surcoinche below the coinche) is
refused while the question is still open; the file is written only at the
end, and never over an existing file.
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys
from pathlib import Path

# The rules tables most often change, asked first: (rule path, question, asked only when).
HOUSE_QUESTIONS = (
    ("match.target", "How many points win the match?", None),
    ("auction.coinche.when", "When may a defender coinche?", None),
    ("auction.coinche.multiplier", "What does a coinche multiply the award by?", None),
    ("auction.surcoinche.allowed", "May the takers surcoinche a coinche?", None),
    ("auction.surcoinche.multiplier", "What does a surcoinche multiply the award by?",
     "auction.surcoinche.allowed"),
    ("auction.strains.tout_atout", "May tout atout (every suit trump) be bid?", None),
    ("auction.strains.sans_atout", "May sans atout (no trump) be bid?", None),
    ("melds.enabled", "Are melds (squares and runs) played?", None),
    ("belote.enabled", "Is the belote (king and queen of trump) played?", None),
    ("belote.points", "What is a belote worth?", "belote.enabled"),
    ("contract.versus_defenders", "Besides reaching the bid, must the takers beat the defenders?", None),
    ("scoring.rounding", "How is each side's award rounded?", None),
)


class _Stop(Exception):
    """The answers ran out (end of input) before the last question.

    Private control flow (caught in this module, never shown): not under errors.CoincheSpecError."""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "new", help="start a house rule set by answering the questions a table must settle",
        description="Ask, one by one, the questions a table must settle (the rules most often house-ruled "
                    "and the parent rule set's open questions), the parent's answer as the default, and "
                    "write a commented house file that extends the parent.")
    p.add_argument("file", metavar="FILE", help="the house file to write (must not exist yet)")
    p.add_argument("--extends", required=True, metavar="ID|FILE", help="the rule set it starts from")
    p.add_argument("--defaults", action="store_true", help="take every default without asking")
    p.add_argument("--id", dest="ident", metavar="ID", help="the new rule set's id (default: from FILE's name)")
    p.add_argument("--name", metavar="TEXT", help="the new rule set's name")
    p.set_defaults(func=run)


# --- the schema: what a rule may be ------------------------------------------------

_SCHEMA: dict = {}


def _schema() -> dict:
    if not _SCHEMA:
        from .resources import variant_schema_path
        _SCHEMA.update(json.loads(variant_schema_path().read_text(encoding="utf-8")))
    return _SCHEMA


def _node(schema: dict, path: str) -> dict | None:
    """The schema of one rule path (None if the schema has no such rule)."""
    defs = schema["$defs"]
    node = defs["rules"]
    for part in path.split("."):
        while "$ref" in node:
            node = defs[node["$ref"].split("/")[-1]]
        props = node.get("properties")
        if not props or part not in props:
            return None
        node = props[part]
    while "$ref" in node:
        node = defs[node["$ref"].split("/")[-1]]
    return node


def _kind(node: dict | None):
    """("enum", choices) | ("bool",) | ("int", minimum, maximum, nullable) | None for what is not asked."""
    if node is None:
        return None
    if "enum" in node:
        return ("enum", list(node["enum"]))
    t = node.get("type")
    types = t if isinstance(t, list) else [t]
    if types == ["boolean"]:
        return ("bool",)
    if "integer" in types and set(types) <= {"integer", "null"}:
        return ("int", node.get("minimum"), node.get("maximum"), "null" in types)
    return None


def _get(rules: dict, path: str):
    node = rules
    for part in path.split("."):
        node = node[part]
    return node


def _leaves(rules: dict, path: str, schema: dict) -> list[str]:
    """The rule paths under ``path`` that can be asked as one value (numbers, yes/no, choices)."""
    try:
        value = _get(rules, path)
    except (KeyError, TypeError):
        return []
    if isinstance(value, dict):
        out = []
        for key in value:
            out.extend(_leaves(rules, f"{path}.{key}", schema))
        return out
    return [path] if _kind(_node(schema, path)) is not None else []


def _show(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _parse(kind, text: str):
    """The answer as a rule value; ValueError says what was expected."""
    t = text.strip()
    if kind[0] == "bool":
        if t.lower() in ("y", "yes", "true", "1", "oui"):
            return True
        if t.lower() in ("n", "no", "false", "0", "non"):
            return False
        raise ValueError("expected yes or no")
    if kind[0] == "enum":
        choices = kind[1]
        if t in choices:
            return t
        if t.isdigit() and 1 <= int(t) <= len(choices):
            return choices[int(t) - 1]
        raise ValueError("expected one of " + ", ".join(f"{i} {c}" for i, c in enumerate(choices, 1)))
    _, low, high, nullable = kind
    if nullable and t.lower() in ("none", "null", "no"):
        return None
    try:
        n = int(t)
    except ValueError:
        raise ValueError("expected a whole number" + (" or none" if nullable else "")) from None
    if low is not None and n < low:
        raise ValueError(f"expected a whole number of at least {low}")
    if high is not None and n > high:
        raise ValueError(f"expected a whole number of at most {high}")
    return n


# --- asking ----------------------------------------------------------------------

class _Asker:
    """Reads the answers (from a terminal or a script) and checks each changed one at once."""

    def __init__(self, parent, ask: bool, stdin, stdout):
        self.parent = parent
        self.ask = ask
        self.stdin = stdin
        self.stdout = stdout
        self.rules = copy.deepcopy(parent.document["rules"])
        self.changed: dict = {}       # path -> new value
        self.schema = _schema()

    def say(self, text: str = "") -> None:
        if self.ask:
            print(text, file=self.stdout)

    def line(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        got = self.stdin.readline()
        if not got:
            raise _Stop()
        return got.strip()

    def value(self, path: str, prompt: str):
        """Ask one rule's value, the current one as default, until the answer is a valid rule set."""
        kind = _kind(_node(self.schema, path))
        current = _get(self.rules, path)
        if not self.ask:
            return current
        if kind[0] == "enum":
            self.say("    choices: " + ", ".join(f"{i} {c}" for i, c in enumerate(kind[1], 1)))
        while True:
            text = self.line(f"{prompt} [{_show(current)}]: ")
            if not text:
                return current
            try:
                new = _parse(kind, text)
            except ValueError as exc:
                self.say(f"    {exc}")
                continue
            problem = self._try(path, new)
            if problem:
                self.say(f"    not with the other rules: {problem}")
                continue
            return new

    def _try(self, path: str, value) -> str | None:
        """None if the rule set with ``path`` set to ``value`` loads, else its first problem."""
        from .variants import VariantError, load_variant
        rules = copy.deepcopy(self.rules)
        for p, v in _with_companions(rules, path, value).items():
            _put(rules, p, v)
        doc = copy.deepcopy(self.parent.document)
        doc["id"] = "new-house-check"
        doc["rules"] = rules
        try:
            load_variant(doc)
        except VariantError as exc:
            first = exc.lines[0] if exc.lines else str(exc)
            return first.split(": ", 1)[-1]
        return None

    def set(self, path: str, value) -> list:
        """Record the answer (and what it brings with it); returns the companion changes as (path, value)."""
        if value == _get(self.rules, path):
            return []
        changes = _with_companions(self.rules, path, value)
        for p, v in changes.items():
            _put(self.rules, p, v)
            if v == _get(self.parent.document["rules"], p):
                self.changed.pop(p, None)
            else:
                self.changed[p] = v
        return [(p, v) for p, v in changes.items() if p != path]


def _put(rules: dict, path: str, value) -> None:
    node = rules
    parts = path.split(".")
    for part in parts[:-1]:
        node = node[part]
    node[parts[-1]] = value


def _with_companions(rules: dict, path: str, value) -> dict:
    """The answer and the rule it cannot go without: a strain that may be bid joins the strain order."""
    out = {path: value}
    strain = {"auction.strains.tout_atout": "TA", "auction.strains.sans_atout": "SA"}.get(path)
    if strain and value is True:
        order = list(_get(rules, "auction.strain_order"))
        if strain not in order:
            out["auction.strain_order"] = order + [strain]
    return out


def _source_quote(document: dict, path: str) -> str:
    for entry in document.get("sources", []) or []:
        if path in (entry.get("rules") or []):
            return entry.get("quote", "")
    return ""


def questions(parent) -> list:
    """("house", path, question) and ("reading", interpretation, leaves), in the order they are asked."""
    schema = _schema()
    rules = parent.document["rules"]
    readings = []
    covered = set()
    for entry in parent.document.get("interpretations", []) or []:
        leaves = []
        for path in entry.get("rules", []):
            leaves.extend(p for p in _leaves(rules, path, schema) if p not in leaves)
        if leaves:
            readings.append(("reading", entry, leaves))
            covered.update(leaves)
    house = [("house", path, q, when) for path, q, when in HOUSE_QUESTIONS
             if path not in covered and _kind(_node(schema, path)) is not None]
    return house + readings


def gather(parent, ask: bool, stdin=None, stdout=None) -> tuple[dict, list]:
    """Ask every question (or take every default); returns (changed rule values, interpretations)."""
    a = _Asker(parent, ask, stdin or sys.stdin, stdout or sys.stdout)
    pid = parent.id
    asked = questions(parent)
    entries = []
    for n, q in enumerate(asked, 1):
        if q[0] == "house":
            _, path, question, when = q
            if when and not _get(a.rules, when):
                continue
            node = _node(a.schema, path)
            old = _get(parent.document["rules"], path)
            a.say(f"[{n}/{len(asked)}] {question}")
            a.say(f"    {path}: {node.get('description', '')}".rstrip())
            new = a.value(path, f"    {pid} has {_show(old)}; this table")
            extra = a.set(path, new)
            kind = _kind(node)
            others = (", ".join(kind[1]) if kind[0] == "enum" else "yes or no" if kind[0] == "bool"
                      else "a number")
            entries.append({
                "id": "house-" + path.replace(".", "-").replace("_", "-"),
                "question": question,
                "reading": (f"{_show(new)}, as {pid} has it." if new == old
                            else f"{_show(new)} instead of {pid}'s {_show(old)}."
                            + "".join(f" With it, {p} is {_show(v)}." for p, v in extra)),
                "alternative": (f"{_show(old)}, as {pid} has it." if new != old
                                else f"Another value agreed at the table ({others})."),
                "quote": _source_quote(parent.document, path),
                "rules": [path] + [p for p, _ in extra],
            })
            continue
        _, entry, leaves = q
        a.say(f"[{n}/{len(asked)}] {entry['question']}")
        a.say(f"    {pid} reads: {' '.join(entry['reading'].split())}")
        if entry.get("alternative"):
            a.say(f"    or: {' '.join(entry['alternative'].split())}")
        keep = True
        if ask:
            while True:
                text = a.line(f"    keep {pid}'s reading? [Y/n]: ").lower()
                if text in ("", "y", "yes", "o", "oui"):
                    break
                if text in ("n", "no", "non"):
                    keep = False
                    break
                a.say("    expected yes or no")
        changes, more = [], []
        if not keep:
            for path in leaves:
                new = a.value(path, f"    {path}")
                old = _get(parent.document["rules"], path)
                extra = a.set(path, new)
                if new != old:
                    changes.append(f"{path} is {_show(new)} (not {_show(old)})")
                changes.extend(f"{p} is {_show(v)}" for p, v in extra)
                more.extend(p for p, _ in extra if p not in entry["rules"] and p not in more)
        if changes:
            reading = "At this table: " + "; ".join(changes) + "."
            alternative = f"{pid}'s reading: {' '.join(entry['reading'].split())}"
        else:
            reading = f"As {pid} reads it: {' '.join(entry['reading'].split())}"
            alternative = " ".join(entry.get("alternative", "").split())
        kept = {"id": entry["id"], "question": entry["question"], "reading": reading,
                "alternative": alternative, "quote": entry.get("quote", ""), "rules": list(entry["rules"]) + more}
        if not alternative:  # the parent's reading named none: an interpretation may leave it out
            del kept["alternative"]
        entries.append(kept)
    return a.changed, entries


# --- writing ---------------------------------------------------------------------

_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*$")


def _yaml_key(key: str) -> str:
    return key if _PLAIN.match(key) and key not in ("yes", "no", "true", "false", "null", "on", "off") \
        else json.dumps(key)


def _yaml_value(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def _rules_block(changed: dict, parent) -> list[str]:
    if not changed:
        return ["rules: {}   # every rule is the parent's"]
    tree: dict = {}
    for path, value in changed.items():
        node = tree
        parts = path.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = (path, value)
    out = ["rules:"]

    def walk(node, depth):
        for key, val in node.items():
            pad = "  " * depth
            if isinstance(val, dict):
                out.append(f"{pad}{_yaml_key(key)}:")
                walk(val, depth + 1)
            else:
                path, value = val
                old = _get(parent.document["rules"], path)
                out.append(f"{pad}{_yaml_key(key)}: {_yaml_value(value)}   # {parent.id}: {_yaml_value(old)}")
    walk(tree, 1)
    return out


def render(parent, extends: str, ident: str, name: str, changed: dict, entries: list) -> str:
    """The house file's text: a header saying what it is, the interpretations, the changed rules."""
    pname = parent.document.get("name", parent.id)
    if changed:
        what = "; ".join(f"{p} {_show(v)}" for p, v in changed.items())
        description = f"{pname}, with this table's answers: {what}."
    else:
        description = f"{pname}, with this table's answers: every rule as {parent.id} has it."
    lines = [
        f"# House rules written by `coinche-spec new --extends {extends}` from the table's answers.",
        f"# Every rule not written under `rules:` is {parent.id}'s ({pname}).",
        "# Each question asked is recorded under `interpretations:` with the answer given: the",
        f"# parent's reading kept, or the value this table chose. Edit freely, then check it with",
        "#   coinche-spec variants check THIS-FILE",
        f"extends: {extends if re.match(r'^[a-z0-9][a-z0-9-]*$', extends) else _yaml_value(extends)}",
        f"id: {ident}",
        f"name: {_yaml_value(name)}",
        f"description: {_yaml_value(description)}",
        "status: house",
        "interpretations:",
    ]
    for e in entries:
        lines.append(f"  - id: {e['id']}")
        for key in ("question", "reading", "alternative", "quote"):
            if key in e:    # an interpretation may leave its alternative out
                lines.append(f"    {key}: {_yaml_value(e[key])}")
        lines.append(f"    rules: [{', '.join(e['rules'])}]")
    if not entries:
        lines[-1] = "interpretations: []"
    lines.extend(_rules_block(changed, parent))
    return "\n".join(lines) + "\n"


def _ident(file: Path, given: str | None) -> str:
    from .errors import UserError
    if given is not None:
        if not re.match(r"^[a-z0-9][a-z0-9-]*$", given):
            raise UserError(f"--id: '{given}' is not an id (lower-case letters, digits and hyphens)")
        return given
    stem = re.sub(r"[^a-z0-9-]+", "-", file.stem.lower()).strip("-")
    if not stem:
        raise UserError(f"FILE: '{file}' gives no id; name one with --id")
    return stem


def run(args) -> int:
    from .errors import UserError
    from .variants import VariantError
    from .variants.cli import variant_for
    from .variants.loader import house_ids, shipped_ids
    target = Path(args.file)
    if target.suffix not in (".yaml", ".yml"):
        raise UserError(f"FILE: '{args.file}' should end in .yaml, as rule set files do")
    if target.exists():
        raise UserError(f"FILE: '{args.file}' already exists; not overwritten (choose another name)")
    if not target.parent.is_dir():
        raise UserError(f"FILE: no such folder '{target.parent}'")
    try:
        parent = variant_for(args.extends)
    except VariantError as exc:
        raise UserError("\n".join(exc.lines) or str(exc)) from None  # every problem, one line each
    ident = _ident(target, args.ident)
    if ident in shipped_ids() + house_ids() or ident == parent.id:
        raise UserError(f"--id: '{ident}' is already a rule set's id; name this one with --id")
    extends = args.extends
    if parent.path is not None and (extends.endswith((".yaml", ".yml")) or "/" in extends):
        extends = os.path.relpath(Path(extends).resolve(), target.resolve().parent)
    name = args.name or f"{parent.document.get('name', parent.id)} (house rules: {ident})"
    try:
        changed, entries = gather(parent, ask=not args.defaults)
    except _Stop:
        raise UserError("stdin: the answers ended before the last question; nothing written "
                        "(--defaults takes every default)") from None
    text = render(parent, extends, ident, name, changed, entries)
    try:
        with open(target, "x", encoding="utf-8") as fh:
            fh.write(text)
    except FileExistsError:
        raise UserError(f"FILE: '{args.file}' already exists; not overwritten (choose another name)") from None
    print(f"wrote {args.file}: {len(entries)} answers, {len(changed)} rule{'s' if len(changed) != 1 else ''} "
          f"changed from {parent.id}; check it with: coinche-spec variants check {args.file}")
    return 0
