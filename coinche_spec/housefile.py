"""``coinche-spec new FILE --extends ID``: start a house rule set by answering questions.

A table that sits down to play must settle a few things: the rules most
often house-ruled (the match target, what a coinche and a surcoinche
multiply by, melds, belote and whether it must be announced, rounding, when
one may coinche) and the questions its chosen rule set leaves open (the
parent's interpretations). This module asks them one by one in plain words
(housequestions.py), the parent's answer as the default, and skips a
question earlier answers made moot (no meld question once melds are not
played). It writes only what the table decided: each changed rule under
``rules:``, with the decision as a house source (who decided, when, the
question and the answer). A kept default is the parent's rule, not a
decision: it is written nowhere. ``--defaults`` takes every default without
asking (for scripts and tests).

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

from .housequestions import HOUSE_QUESTIONS, label, plain


class _Stop(Exception):
    """The answers ran out (end of input) before the last question.

    Private control flow (caught in this module, never shown): not under errors.CoincheSpecError."""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "new", help="start a house rule set by answering the questions a table must settle",
        description="Ask, one by one, the questions a table must settle (the rules most often house-ruled "
                    "and the parent rule set's open questions), the parent's answer as the default, and "
                    "write a commented house file that extends the parent with only what the table "
                    "changed.")
    p.add_argument("file", metavar="FILE", help="the house file to write (must not exist yet)")
    p.add_argument("--extends", required=True, metavar="ID|FILE", help="the rule set it starts from")
    p.add_argument("--defaults", action="store_true", help="take every default without asking")
    p.add_argument("--id", dest="ident", metavar="ID", help="the new rule set's id (default: from FILE's name)")
    p.add_argument("--name", metavar="TEXT", help="the new rule set's name (the title of its sheet)")
    p.add_argument("--club", metavar="NAME", help="who decides these rules, a club or a table (asked if not given)")
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


def _parse(kind, text: str, path: str = ""):
    """The answer as a rule value; ValueError says what was expected."""
    t = text.strip()
    if kind[0] == "bool":
        if t.lower() in ("y", "yes", "true", "1", "oui", "o"):
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
        for c in choices:
            if t.lower() == label(path, c).lower():
                return c
        raise ValueError(f"expected a number from 1 to {len(choices)}")
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


def _moot(rules: dict, path: str) -> str | None:
    """Why earlier answers make ``path`` moot (melds not played...), by the rules pages' own test."""
    from .variants.relevance import cannot_matter
    return cannot_matter(rules, path)


def _rule_name(path: str) -> str:
    """A rule without a plain question of its own, named as its rules page names it."""
    from .docsgen.templates import template_for
    t = template_for(path)
    title = t.title if t is not None else path.rsplit(".", 1)[-1].replace("_", " ")
    leaf = path.rsplit(".", 1)[-1]
    return f"{title} ({leaf})" if t is not None and len(leaf) <= 2 else title


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
        _echo(self.stdin, self.stdout, got)
        return got.strip()

    def value(self, path: str, prompt: str = "    your answer"):
        """Ask one rule's value, the current one as default, until the answer is a valid rule set."""
        kind = _kind(_node(self.schema, path))
        current = _get(self.rules, path)
        if not self.ask:
            return current
        pid = self.parent.id
        old = _get(self.parent.document["rules"], path)
        if kind[0] == "enum":
            for i, c in enumerate(kind[1], 1):
                self.say(f"      {i}  {label(path, c)}" + (f"   ({pid})" if c == old else ""))
            shown = str(kind[1].index(current) + 1)
        else:
            self.say(f"      {pid}: {label(path, old)}")
            shown = label(path, current)
        while True:
            text = self.line(f"{prompt} [{shown}]: ")
            if not text:
                return current
            try:
                new = _parse(kind, text, path)
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
        """Record the answer (and what it brings with it); returns the rules it changed from the parent's."""
        if value == _get(self.rules, path):
            return []
        changes = _with_companions(self.rules, path, value)
        for p, v in changes.items():
            _put(self.rules, p, v)
            if v == _get(self.parent.document["rules"], p):
                self.changed.pop(p, None)
            else:
                self.changed[p] = v
        return [p for p, v in changes.items() if v != _get(self.parent.document["rules"], p)]


def _echo(stdin, stdout, got: str) -> None:
    """Answers read from a script are echoed, so that the transcript reads as a terminal shows it."""
    isatty = getattr(stdin, "isatty", None)
    if not (isatty and isatty()):
        stdout.write(got.rstrip("\n") + "\n")


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


def questions(parent) -> list:
    """("house", Question) and ("reading", interpretation, leaves), in the order they may be asked:
    the plain questions first, then each of the parent's open questions on the rules no plain
    question asks (one whose rules are all asked already is not asked again)."""
    schema = _schema()
    rules = parent.document["rules"]
    house = [("house", q) for q in HOUSE_QUESTIONS if _kind(_node(schema, q.path)) is not None]
    asked = {q.path for _, q in house}
    readings = []
    for entry in parent.document.get("interpretations", []) or []:
        leaves = []
        for path in entry.get("rules", []):
            leaves.extend(p for p in _leaves(rules, path, schema) if p not in leaves and p not in asked)
        if leaves:
            readings.append(("reading", entry, leaves))
    return house + readings


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:] + ("" if words.endswith(".") else ".")


def _yes(a: _Asker, prompt: str) -> bool:
    while True:
        text = a.line(prompt).lower()
        if text in ("", "y", "yes", "o", "oui"):
            return True
        if text in ("n", "no", "non"):
            return False
        a.say("    expected yes or no")


def gather(parent, ask: bool, stdin=None, stdout=None) -> tuple[dict, list]:
    """Ask every question earlier answers leave open (or take every default).

    Returns (changed rule values, decisions): a decision is (question, answer in words, the rules
    it changed), one per question the table answered differently from the parent."""
    a = _Asker(parent, ask, stdin or sys.stdin, stdout or sys.stdout)
    pid = parent.id
    decisions = []
    n = 0
    for q in questions(parent):
        if q[0] == "house":
            question = q[1]
            if _moot(a.rules, question.path):
                continue
            n += 1
            a.say(f"({n}) {question.ask}")
            if question.hint:
                a.say(f"    {question.hint}")
            new = a.value(question.path)
            changed = a.set(question.path, new)
            if changed:
                decisions.append((question.ask, _sentence(label(question.path, new)), changed))
            continue
        _, entry, leaves = q
        leaves = [p for p in leaves if not _moot(a.rules, p)]
        if not leaves:
            continue
        n += 1
        a.say(f"({n}) {plain(entry['question'])}")
        a.say(f"    {pid} plays: {plain(entry['reading'])}")
        if entry.get("alternative"):
            a.say(f"    another reading: {plain(entry['alternative'])}")
        if not ask or _yes(a, f"    play it as {pid} does? [Y/n]: "):
            continue
        words, changed = [], []
        for path in leaves:
            a.say(f"    {_rule_name(path)}")
            new = a.value(path)
            more = a.set(path, new)
            if path in more:
                words.append(f"{_rule_name(path)}: {label(path, new)}")
            changed.extend(p for p in more if p not in changed)
        if changed:
            decisions.append((plain(entry["question"]), _sentence("; ".join(words)), changed))
    return a.changed, decisions


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


def render(parent, extends: str, ident: str, name: str, changed: dict, decisions: list,
           club: str = "", day: str = "") -> str:
    """The house file's text: a header saying what it is, the table's decisions, the changed rules."""
    pname = parent.document.get("name", parent.id)
    if changed:
        n = len(decisions)
        description = (f"{pname}, as {club or name} plays it: {n} decision{'s' if n != 1 else ''} "
                       f"of the table change {len(changed)} rule{'s' if len(changed) != 1 else ''}.")
    else:
        description = f"{pname}, every rule as {parent.id} has it."
    lines = [
        f"# House rules written by `coinche-spec new --extends {extends}` from the table's answers.",
        f"# Every rule not written under `rules:` is {parent.id}'s: {pname}.",
        "# Each rule written is a decision of the table, recorded under `sources:`.",
        "# Edit freely, then check it with",
        "#   coinche-spec variants check THIS-FILE",
        f"extends: {extends if re.match(r'^[a-z0-9][a-z0-9-]*$', extends) else _yaml_value(extends)}",
        f"id: {ident}",
        f"name: {_yaml_value(name)}",
        f"description: {_yaml_value(description)}",
        "status: house",
    ]
    if decisions:
        lines.append("sources:")
        for question, answer, rules in decisions:
            lines += [f"  - decided_by: {_yaml_value(club or name)}",
                      f"    decided_on: {_yaml_value(day)}",
                      f"    quote: {_yaml_value(question + ' ' + answer)}",
                      f"    rules: [{', '.join(rules)}]"]
    lines.append("interpretations: []")
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


def _club(args, ident: str) -> str:
    """Who decides: --club, else asked (the file's name, readably, as default)."""
    default = " ".join(ident.replace("-", " ").split()).capitalize()
    if args.club is not None or args.defaults:
        return (args.club or default).strip() or default
    sys.stdout.write(f"Who decides these rules (your club or table)? [{default}]: ")
    sys.stdout.flush()
    got = sys.stdin.readline()
    if not got:
        raise _Stop()
    _echo(sys.stdin, sys.stdout, got)
    return " ".join(got.split()) or default


def run(args) -> int:
    import datetime
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
    try:
        club = _club(args, ident)
        name = args.name or (f"{club}: house rules" if not args.defaults or args.club
                             else f"{parent.document.get('name', parent.id)} (house rules: {ident})")
        changed, decisions = gather(parent, ask=not args.defaults)
    except _Stop:
        raise UserError("stdin: the answers ended before the last question; nothing written "
                        "(--defaults takes every default)") from None
    text = render(parent, extends, ident, name, changed, decisions, club, datetime.date.today().isoformat())
    try:
        with open(target, "x", encoding="utf-8") as fh:
            fh.write(text)
    except FileExistsError:
        raise UserError(f"FILE: '{args.file}' already exists; not overwritten (choose another name)") from None
    n = len(changed)
    print(f"wrote {args.file}: {n} rule{'s' if n != 1 else ''} changed from {parent.id}"
          f"{', every other rule as ' + parent.id + ' has it' if n else ''}; check it with: "
          f"coinche-spec variants check {args.file}")
    print(f"next: coinche-spec docs {args.file} --summary --format pdf -o {target.with_suffix('.pdf').name}"
          f"   (the two-page sheet to print)")
    print(f"      coinche-spec site {ident}-site --variant {args.file}   (a site with your rules page)")
    return 0
