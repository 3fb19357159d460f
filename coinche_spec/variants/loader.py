"""The strict variant loader: read a rule file, resolve `extends`, validate, locate every problem.

A variant file is read with the strict YAML reader (no duplicate keys, no
``no`` for false, no anchors), its ``extends`` chain is merged (see
docs/variants-format.md for the merge rules), the resolved document is
checked against ``schema.json`` and then by ``semantics.check`` for rules
that must agree with each other. Every problem becomes one line
``FILE:LINE:COL: rules.path: message``, pointing into the file that wrote the
offending value: the child when it came from the child, the parent otherwise.

Public API: :class:`Variant`, :class:`VariantError`, :func:`load_variant`
(an id, a path or a whole document), :func:`load_variant_file`,
:func:`resolve`, :func:`check_files`, :func:`shipped_ids`, :func:`house_ids`,
:func:`known_ids`. Which folders hold rule sets, and which file an id names: registry.py.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import jsonschema

from .. import schemacheck, yamlstrict
from ..resources import variant_schema_path
from ..yamlstrict import Positions, Problem, format_path
from . import registry, semantics
from ..errors import CoincheSpecError
from .compiled import with_unused_filled
from .rules import Rules

SUFFIXES = registry.SUFFIXES
DOCUMENT_NAME = "<variant>"  # how a document given as data (not a file) is named in messages
APPENDED = ("sources", "interpretations")  # top-level lists a child adds to its parent's


class VariantError(CoincheSpecError):
    """A variant that cannot be used; ``lines`` holds one located line per problem."""

    def __init__(self, lines: Iterable[str]):
        items = list(lines)
        self.lines = [str(x) for x in items]
        super().__init__("\n".join(self.lines))
        first = next((x for x in items if isinstance(x, Problem)), None)
        if first is not None:           # the first problem's place, for a caller that reads attributes
            self.locate(first.filename, first.line, first.col, first.path)


class VariantNotFound(VariantError):
    """A reference that names no rule set (an unknown id, a missing file); ``reason`` says why, unlocated."""

    def __init__(self, reason: str, name: str = DOCUMENT_NAME, field_name: str = "id", said: str | None = None):
        self.reason = reason  # as the command line says it; ``said``: as the located line does
        super().__init__([f"{name}: {field_name}: {said or reason}"])


@dataclass(frozen=True)
class Variant:
    """A resolved, validated rule set: ``document`` has no `extends`; ``rules`` is read-only."""

    id: str
    document: dict
    rules: Rules
    path: Path | None = None
    written: dict | None = field(default=None, compare=False, repr=False)  # the file as written
    chain: tuple = field(default=(), compare=False, repr=False)  # the files read, the child first
    warnings: tuple = field(default=(), compare=False, repr=False)  # located lines: allowed, but likely slips
    moot: tuple = field(default=(), compare=False, repr=False)  # (rule path, why): set by the file, cannot matter


# --- where variants live (see registry.py) ---------------------------

def house_dir() -> Path:
    return registry.folder("house")


def shipped_ids() -> list[str]:
    """The seed variants, in variants/: the ids every conformance fixture answers for."""
    return registry.ids("seed")


def house_ids() -> list[str]:
    """House variants, in variants/house/: local rule sets built with `extends`."""
    return registry.ids("house")


def written_ids() -> list[str]:
    """Published rule books and programs' rule sets (variants/published/, variants/implementations/)."""
    return registry.ids("published") + registry.ids("implementation")


def paged_ids() -> list[str]:
    """The rule sets with a rules page in docs/rules/: seed, published, implementation and house."""
    return shipped_ids() + written_ids() + house_ids()


def known_ids() -> list[str]:
    """Every id a reference may name: seed, published, implementation, house and test rule sets."""
    return registry.ids()


def test_ids() -> list[str]:
    """Test rule sets, in conformance/rulesets/: fixtures name them to cover options no seed plays."""
    return registry.ids("test")


def _looks_like_path(text: str) -> bool:
    return text.endswith(SUFFIXES) or "/" in text or os.sep in text


_display = registry.shown


# --- one file of an `extends` chain ------------------------------------

@dataclass
class _Layer:
    data: Any
    positions: Positions
    display: str
    path: Path | None  # None for a document given as data
    _children: dict | None = None

    def subtree(self, prefix: tuple) -> list[tuple]:
        """The recorded paths at and below ``prefix``, in no particular order."""
        if self._children is None:
            children: dict = {}
            for path in self.positions:
                if path:
                    children.setdefault(path[:-1], []).append(path)
            self._children = children
        out, stack = [], [prefix] if prefix in self.positions else []
        while stack:
            path = stack.pop()
            out.append(path)
            stack.extend(self._children.get(path, ()))
        return out


def _problem(layer: _Layer, path: tuple, message: str, prefer_key: bool = False) -> Problem:
    """A problem located in one file of the chain (before merging)."""
    pos = layer.positions.nearest(path, prefer_key)
    line, col = pos if pos else (None, None)
    return Problem(layer.display, line, col, tuple(path), message)


def _read_layer(path: Path, display: str) -> _Layer:
    try:
        data, positions = yamlstrict.load_file(path, display)
    except yamlstrict.YamlStrictError as exc:
        raise VariantError(exc.lines) from None
    layer = _Layer(data, positions, display, path)
    if not isinstance(data, dict):
        what = "an empty file" if data is None else yamlstrict._type_name(data)
        raise VariantError([_problem(layer, (), f"a variant file is a mapping (id, name, status, sources, "
                                                f"interpretations, rules), not {what}")])
    return layer


def _real(path: Path, layer: _Layer | None = None, where: tuple = ()) -> Path:
    """``path`` with its links followed; a symlink loop is a located problem, not a crash."""
    try:
        return path.resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop, before Python 3.13
        why = f"cannot follow '{path}': {getattr(exc, 'strerror', None) or 'a symlink loop'}"
        if layer is not None:
            raise VariantError([_problem(layer, where, why)]) from None
        raise VariantNotFound(why, str(path), "(top)") from None


def _parent_path(layer: _Layer, base_dir: Path | None) -> Path:
    """Where the layer's `extends` points: a relative file path, or a rule set id.

    A document given as data (``base_dir`` None: a protocol client's, say) has no folder of
    its own and names no file: it may extend an id only."""
    ext = layer.data["extends"]
    if not isinstance(ext, str) or not ext.strip():
        raise VariantError([_problem(layer, ("extends",), "expected a variant id or a relative file path, "
                                                          f"got {yamlstrict._show(ext)}")])
    if ext != ext.strip():   # 'federation ' would be read as federation: say so rather than guess
        raise VariantError([_problem(layer, ("extends",), f"{ext!r} has blank space before or after it: write "
                                                          f"{ext.strip()!r}")])
    if _looks_like_path(ext):
        if base_dir is None:
            raise VariantError([_problem(layer, ("extends",), "a document sent as data may extend a rule set "
                                                              f"id only, not a file path; known ids: "
                                                              f"{', '.join(known_ids())}")])
        target = Path(ext) if Path(ext).is_absolute() else base_dir / ext
        _real(target, layer, ("extends",))
        if not registry._is_file(target):
            try:
                mode = os.stat(target).st_mode
            except (OSError, ValueError):
                mode = None
            why = (f"no such file '{ext}' (looked in {_display(base_dir) or '.'})" if mode is None else
                   f"'{ext}' is a folder, not a rule-set file" if stat.S_ISDIR(mode) else
                   f"'{ext}' is not a regular file (a device, a FIFO or a socket): name a rule-set file")
            raise VariantError([_problem(layer, ("extends",), why)])
        return target
    found, why = registry.file_for_id(ext)
    if found is None:
        raise VariantError([_problem(layer, ("extends",), why)])
    return found


_PARENTS: dict = {}  # resolved path -> (stamp, layer): a seed extended by many rule sets is parsed once


def _parent_layer(path: Path, display: str) -> _Layer:
    """A parent file of an `extends` chain, read once per version of the file."""
    key, stamp = path.resolve(), _stamp((path,))
    hit = _PARENTS.get(key)
    if hit is None or hit[0] != stamp or not stamp:
        hit = (stamp, _read_layer(path, display))
        _PARENTS[key] = hit
    layer = hit[1]
    return _Layer(copy.deepcopy(layer.data), layer.positions, display, layer.path)


def _parent_display(parent: Path, root: _Layer) -> str:
    """How messages name a parent file: its path, or ``<id>`` below a document sent as data
    (a parent that cannot be read), so that a reply to a protocol client never holds a path
    of the server's."""
    return _display(parent) if root.path is not None else f"<{parent.stem}>"


def _chain(root: _Layer, base_dir: Path | None) -> list[_Layer]:
    """The root and its ancestors, child first; a cycle or a missing parent is an error."""
    layers = [root]
    seen = [_real(root.path, root)] if root.path else []
    current, folder = root, base_dir
    while "extends" in current.data:
        parent = _parent_path(current, folder)
        resolved = _real(parent, current, ("extends",))
        if resolved in seen:
            names = [layer.path.name if layer.path else DOCUMENT_NAME for layer in layers] + [parent.name]
            raise VariantError([_problem(root, ("extends",), "extends cycle: " + " -> ".join(names))])
        seen.append(resolved)
        current = _parent_layer(parent, _parent_display(parent, root))
        if root.path is None:
            # below a document sent as data, every problem is the document's: located in it, by path
            current = _Layer(current.data, _data_positions(current.data), root.display, current.path)
        layers.append(current)
        folder = parent.parent
    return layers


# --- merging ------------------------------------------------------------

class _Origins:
    """Where each value of the merged document was written: path -> (file, value pos, key pos).

    Kept as a tree (``kids``: path -> its recorded children) so that taking a file's
    subtree or dropping a replaced one costs the size of that subtree, not of the whole
    document: merging is linear in the size of the files (benchmarks/loader.py)."""

    def __init__(self, fallback: str):
        self.where: dict[tuple, tuple[str, tuple | None, tuple | None]] = {}
        self.written: dict[tuple, tuple] = {}  # merged path -> the path in the file that wrote it
        self.kids: dict[tuple, dict[tuple, None]] = {}
        self.fallback = fallback

    def put(self, path: tuple, entry: tuple, written: tuple) -> None:
        self.where[path] = entry
        self.written[path] = written
        while path:  # link the path to its ancestors, up to the first one already linked
            parent = path[:-1]
            kids = self.kids.setdefault(parent, {})
            if path in kids:
                break
            kids[path] = None
            path = parent

    def subtree(self, prefix: tuple) -> list[tuple]:
        """``prefix`` and every recorded path below it."""
        out, stack = [], [prefix]
        while stack:
            path = stack.pop()
            out.append(path)
            stack.extend(self.kids.get(path, ()))
        return out

    def take(self, layer: _Layer, prefix: tuple = (), shift: tuple = ()) -> None:
        """Record every position of ``layer`` under ``prefix``; ``shift`` renames the prefix.

        The path as the file writes it is kept too (an appended interpretation is
        ``interpretations[0]`` in its own file, whatever its index once merged)."""
        target = shift or prefix
        n = len(prefix)
        keys_at = layer.positions.keys_at
        for path in layer.subtree(prefix):
            self.put(target + path[n:], (layer.display, layer.positions[path], keys_at.get(path)), path)

    def drop(self, prefix: tuple) -> None:
        for path in self.subtree(prefix):
            self.where.pop(path, None)
            self.written.pop(path, None)
            self.kids.pop(path, None)
        if prefix:
            self.kids.get(prefix[:-1], {}).pop(prefix, None)

    def locate(self, path: tuple, prefer_key: bool = False) -> tuple[str, int | None, int | None]:
        """(file, line, col) of ``path``, or of its closest ancestor written somewhere."""
        filename, line, col, _ = self.find(path, prefer_key)
        return filename, line, col

    def find(self, path: tuple, prefer_key: bool = False) -> tuple[str, int | None, int | None, tuple]:
        """As locate, plus the path as that file writes it."""
        path = tuple(path)
        tail: tuple = ()
        while True:
            hit = self.where.get(path)
            if hit is not None:
                filename, value_pos, key_pos = hit
                pos = (key_pos or value_pos) if prefer_key else (value_pos or key_pos)
                if pos:
                    return filename, pos[0], pos[1], self.written.get(path, path) + tail
            if not path:
                return self.fallback, None, None, tail
            tail = path[-1:] + tail
            path = path[:-1]
            prefer_key = True

    def problem(self, path: tuple, message: str, prefer_key: bool = False) -> Problem:
        filename, line, col, written = self.find(path, prefer_key)
        return Problem(filename, line, col, written, message)


def _merge_value(old: Any, new: Any, path: tuple, child: _Layer, origins: _Origins) -> Any:
    """Mappings merge key by key; anything else (lists, numbers, text, null) replaces."""
    if isinstance(old, dict) and isinstance(new, dict):
        merged = dict(old)
        for key, value in new.items():
            merged[key] = _merge_value(old.get(key, _MISSING), value, path + (key,), child, origins)
        pos = child.positions.get(path)
        if pos is not None:
            origins.put(path, (child.display, pos, child.positions.keys_at.get(path)), path)
        return merged
    origins.drop(path)
    origins.take(child, path)
    return _copy(new)


_MISSING = object()


def _copy(value: Any) -> Any:
    """A deep copy of plain data (what the strict reader and JSON give): several times faster than
    copy.deepcopy, which matters on a multi-megabyte file."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    return copy.deepcopy(value)


def _written_rule_paths(rules: Any, prefix: str = "") -> set[str]:
    """The dotted rule paths whose value a child file sets (mappings merge, so recurse into them)."""
    out: set[str] = set()
    if not isinstance(rules, dict):
        return out
    for key, value in rules.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) and value:
            out |= _written_rule_paths(value, path)
        else:
            out.add(path)
    return out


def _inherited_entries(entries: list, child_entries: Any, changed: set[str]) -> tuple[list, list]:
    """The parent's sources or interpretations that still describe the child, and their old indexes.

    A quote or a reading speaks for the values its words state, all together: "the first side
    reaching 2000 wins; if both do, the higher total wins" states the target and the tie rule
    at once. So a parent's entry any of whose rules the child sets anew (the same path, a path
    inside it, or a group holding it) no longer speaks for the child at all and is dropped,
    even for the rules the child keeps; the rules page says those are played as in the parent.
    An interpretation the child gives again by ``id`` replaces the parent's.
    """
    redefined = {e.get("id") for e in child_entries or [] if isinstance(e, dict) and e.get("id")}
    # the groups holding a changed rule (a set, so that each entry's check stays one look-up a path)
    holders = {".".join(c.split(".")[:i]) for c in changed for i in range(1, c.count(".") + 1)}
    kept, indexes = [], []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            kept.append(entry)
            indexes.append(i)
            continue
        if entry.get("id") is not None and entry.get("id") in redefined:
            continue
        paths = entry.get("rules")
        if isinstance(paths, list) and changed:
            if any(isinstance(p, str) and (_rewritten(p, changed) or p in holders) for p in paths):
                continue
        kept.append(entry)
        indexes.append(i)
    return kept, indexes


def _rewritten(rule: str, changed: set[str]) -> bool:
    """Whether the child sets ``rule`` anew: the rule itself or a group holding it (one look-up a level)."""
    parts = rule.split(".")
    return any(".".join(parts[:i]) in changed for i in range(1, len(parts) + 1))


def _move_entries(origins: _Origins, key: str, indexes: list[int]) -> None:
    """Re-point the recorded positions of ``key``'s entries after some were dropped."""
    moved = []
    for new, old in enumerate(indexes):
        for path in origins.subtree((key, old)):
            if path in origins.where:
                moved.append(((key, new) + path[2:], origins.where[path], origins.written.get(path, path)))
    for child in [p for p in origins.kids.get((key,), ()) if isinstance(p[1], int)]:
        origins.drop(child)
    for path, entry, written in moved:
        origins.put(path, entry, written)


def _merge(layers: list[_Layer]) -> tuple[dict, _Origins]:
    """Fold the chain from the first ancestor down to the child."""
    base = layers[-1]
    origins = _Origins(layers[0].display)
    document = {k: _copy(v) for k, v in base.data.items() if k != "extends"}
    origins.take(base)
    origins.drop(("extends",))
    for child in reversed(layers[:-1]):
        # A description, a name and a status speak for one rule set: a child that writes no
        # description has none, one that writes no name is named by its own id, and one that
        # writes no status is a house rule set, rather than taking its parent's words for rules
        # it has changed (a sheet titled with the parent's name, "every rule stated by the sources").
        if "description" not in child.data and "description" in document:
            del document["description"]
            origins.drop(("description",))
        for key, own in (("name", child.data.get("id")), ("status", "house")):
            if key not in child.data and isinstance(own, str):
                document[key] = own
                origins.drop((key,))
        changed = _written_rule_paths(child.data.get("rules"))
        for key, value in child.data.items():
            if key == "extends":
                continue
            old = document.get(key, _MISSING)
            if key in APPENDED and isinstance(old, list) and isinstance(value, list):
                old, indexes = _inherited_entries(old, value, changed)
                _move_entries(origins, key, indexes)
                offset = len(old)
                document[key] = old + _copy(value)
                for i in range(len(value)):
                    origins.take(child, (key, i), (key, i + offset))
                continue
            document[key] = _merge_value(old, value, (key,), child, origins)
        for key in APPENDED:  # a child that writes no list of its own still overrides rules
            if key not in child.data and isinstance(document.get(key), list):
                document[key], indexes = _inherited_entries(document[key], [], changed)
                _move_entries(origins, key, indexes)
        origins.put((), (child.display, child.positions.get(()), None), ())
    return document, origins


# --- validation ---------------------------------------------------------

_VALIDATOR = None
_QUICK = None


def _schema_errors(document: Any) -> Iterable:
    """jsonschema's errors, skipped when the quick check already knows the document is valid."""
    global _QUICK
    validator = _validator()
    if _QUICK is None:
        _QUICK = schemacheck.compile_schema(validator.schema)
    return () if _QUICK(document) else validator.iter_errors(document)


def _validator():
    """Draft 2020-12, except that an integer is a whole number as written (10.0 is not 10)."""
    global _VALIDATOR
    if _VALIDATOR is None:
        schema = _inline_refs(json.loads(variant_schema_path().read_text(encoding="utf-8")))
        base = jsonschema.Draft202012Validator
        checker = base.TYPE_CHECKER.redefine(
            "integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool))
        strict = jsonschema.validators.extend(base, type_checker=checker)
        _VALIDATOR = strict(schema)
    return _VALIDATOR


def _inline_refs(schema: dict) -> dict:
    """The schema with each plain ``{"$ref": "#/$defs/x"}`` replaced by ``x`` itself: the same checks,
    twice as fast to run (resolving a reference per list item was half of checking a long file)."""
    defs = schema.get("$defs", {})

    def walk(node: Any, seen: tuple) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if len(node) == 1 and isinstance(ref, str) and ref.startswith("#/$defs/") and ref[8:] in defs \
                    and ref not in seen:  # a recursive definition stays a reference
                return walk(defs[ref[8:]], seen + (ref,))
            return {k: walk(v, seen) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, seen) for v in node]
        return node

    return walk(schema, ())


def _noun(path: tuple) -> str:
    return "rule" if len(path) >= 2 and path[0] == "rules" else "field"


def _problems(document: Any, origins: _Origins, layers: list[_Layer]) -> list[Problem]:
    if not isinstance(document, dict):
        return [Problem(origins.fallback, None, None, (), "a variant is a mapping (id, name, status, sources, "
                                                          "interpretations, rules)")]
    child = layers[0]
    if len(layers) > 1 and "id" not in child.data:
        return [_problem(child, ("extends",), "a variant that extends another needs its own `id`", prefer_key=True)]
    # one pass reports every problem: the schema's, then the cross-rule ones, each group in file order
    errors = yamlstrict.capped(_schema_errors(document))
    problems = [_misplaced_source_hint(p)
                for p in _in_file_order(yamlstrict.schema_problems(errors, origins.find, _noun))]
    if errors.more:   # too many to list: the cross-rule checks would only add to the pile
        return problems + errors.note(child.display)
    refused = _refused_paths(errors)
    found = [_cross_rule_problem(f, origins, layers) for f in semantics.check(document, guarded=bool(problems))
             if not _under_any(tuple(f.path), refused) and not _under_any(f.about, refused)]
    path = child.path
    if path is not None and registry.kind_of(path) is not None:
        if document.get("id") != path.stem and not _under_any(("id",), refused):
            found.append(origins.problem(("id",),
                                 f"id '{document.get('id')}' differs from the file name '{path.name}': "
                                 "a shipped variant is found by its id, so they must agree"))
    return problems + _in_file_order(found)


_SOURCE_ONLY = ("decided_by", "decided_on", "seed", "document", "section", "repository", "path", "commit",
                "version")


def _misplaced_source_hint(problem: Problem) -> Problem:
    """A source's field written in an interpretation (``decided_by`` under ``interpretations:``) is
    named for what it is: a house decision, a document or a program is a source."""
    path = problem.path
    if len(path) == 3 and path[0] == "interpretations" and path[2] in _SOURCE_ONLY \
            and problem.message.startswith("unknown field"):
        kind = {"decided_by": "a house decision", "decided_on": "a house decision",
                "repository": "a program", "path": "a program", "commit": "a program",
                "version": "a program"}.get(path[2], "a document")
        return dataclasses.replace(problem, message=(
            f"{problem.message}: it belongs under `sources:`, which records {kind} (its fields and the "
            "`rules` it speaks for); an interpretation has id, question, reading, alternative, quote and rules"))
    return problem


def _cross_rule_problem(finding, origins: _Origins, layers: list[_Layer]) -> Problem:
    """A cross-rule finding, located at the value it is about. When that value lies in a file the
    checked one extends, the checked file's own settings among the rules the finding rests on are
    named too: the line to change may be the user's (a coinche x5 under an inherited surcoinche x4)."""
    problem = origins.problem(finding.path, finding.message, finding.at_key)
    child = layers[0]
    if len(layers) < 2 or problem.filename == child.display:
        return problem
    set_here = sorted((child.positions[p], p) for p in finding.involves
                      if (child.positions.get(p) or _NOWHERE)[0] is not None)
    if not set_here:
        return problem
    named = ", ".join(f"{child.display}:{line}:{col}: {format_path(p)}" for (line, col), p in set_here)
    return Problem(problem.filename, problem.line, problem.col, problem.path, f"{problem.message} (set by {named})")


def _in_file_order(problems: list[Problem]) -> list[Problem]:
    """Sorted by file, line and column (a problem with no line, in a document sent as data, keeps its place)."""
    return sorted(problems, key=lambda p: (p.filename, p.line or 0, p.col or 0))


def _refused_paths(errors: list) -> list[tuple]:
    """The paths of the values the schema refused: a missing or unknown key counts as its own path."""
    out = []
    for err in errors:
        path = tuple(err.absolute_path)
        if err.validator == "required" and isinstance(err.instance, dict):
            out += [path + (k,) for k in err.validator_value if k not in err.instance]
        elif err.validator == "additionalProperties" and isinstance(err.instance, dict):
            known = err.schema.get("properties", {})
            out += [path + (k,) for k in err.instance if k not in known]
        else:
            out.append(path)
    return out


def _under_any(path: tuple, refused: list[tuple]) -> bool:
    """Whether ``path`` is a value the schema already refused, or lies inside one: judged once is enough."""
    return any(path[:len(r)] == tuple(r) for r in refused if r)


# --- the public API -----------------------------------------------------

_CACHE: dict[Path, tuple[tuple, Variant]] = {}


def _stamp(paths: Iterable[Path]) -> tuple:
    out = []
    for p in paths:
        try:
            st = p.stat()
        except OSError:
            return ()
        out.append((str(p), st.st_mtime_ns, st.st_size))
    return tuple(out)


def _resolve_layers(root: _Layer, base_dir: Path | None) -> tuple[list[_Layer], dict, _Origins]:
    layers = _chain(root, base_dir)
    document, origins = _merge(layers)
    return layers, document, origins


def _build(root: _Layer, base_dir: Path | None) -> Variant:
    layers, document, origins = _resolve_layers(root, base_dir)
    problems = _problems(document, origins, layers)
    if problems:
        raise VariantError(problems)
    chain = tuple(layer.path for layer in layers if layer.path is not None)
    moot = _moot_settings(layers, document)
    warned = tuple(str(origins.problem(f.path, "warning: " + f.message, f.at_key))
                   for f in semantics.warnings(document)) + tuple(
        str(origins.problem(("rules",) + tuple(path.split(".")), f"warning: cannot matter: {why}"))
        for path, why in moot)
    return Variant(document["id"], document, Rules(with_unused_filled(document["rules"]), document["id"]),
                   root.path, _copy(root.data), chain, warned, moot)


def _moot_settings(layers: list[_Layer], document: dict) -> tuple[tuple[str, str], ...]:
    """(path, why) for each rule a file that extends another sets itself but that cannot matter under
    the resolved rules (meld values where melds are off): setting it changes no deal, so it is most
    likely a slip: ``variants check`` warns of it and the house page names it apart. The test is the
    rules pages' (variants.relevance.cannot_matter).

    Not a slip, so not warned of: a rule set written whole (no `extends`) spells out every rule; a
    value restated as the parent has it changes nothing; a value a quoted document or program of
    the file's own states is recorded as its source says it; and a value the file must write for
    the other rules to agree (a strain order naming the strains it makes biddable) is needed."""
    written = layers[0].data.get("rules")
    if len(layers) < 2 or not isinstance(written, dict):
        return ()
    from .relevance import set_but_moot
    from ..sources import source_kind
    found = set_but_moot(document["rules"], written)
    if not found:
        return ()
    parent_rules = _merge(layers[1:])[0].get("rules", {})
    quoted = [r for s in layers[0].data.get("sources") or [] if isinstance(s, dict)
              and source_kind(s) != "house" for r in s.get("rules") or [] if isinstance(r, str)]
    out = []
    for path, why in found:
        theirs = _value_at(parent_rules, path)
        if _value_at(document["rules"], path) == theirs or _needed_as_written(document, path, theirs) \
                or any(path == r or path.startswith(r + ".") or r.startswith(path + ".") for r in quoted):
            continue
        out.append((path, why))
    return tuple(out)


def _value_at(rules: Any, dotted: str) -> Any:
    """The value at a dotted rule path, or _MISSING."""
    for key in dotted.split("."):
        if not isinstance(rules, dict) or key not in rules:
            return _MISSING
        rules = rules[key]
    return rules


def _needed_as_written(document: dict, dotted: str, inherited: Any) -> bool:
    """Whether the rules would disagree (semantics.check) with the inherited value at ``dotted``."""
    trial = _copy(document)
    *groups, last = dotted.split(".")
    node = trial["rules"]
    for key in groups:
        node = node[key]
    if inherited is _MISSING:
        del node[last]
    else:
        node[last] = _copy(inherited)
    return bool(semantics.check(trial, guarded=True))


def _fresh(v: Variant) -> Variant:
    """A copy the caller may change without changing the cached one."""
    doc = _copy(v.document)
    return Variant(v.id, doc, Rules(with_unused_filled(doc["rules"]), v.id), v.path, _copy(v.written), v.chain,
                   v.warnings, v.moot)


def load_variant_file(path: str | os.PathLike, display: str | None = None) -> Variant:
    """Load, resolve and validate one variant file; problems raise VariantError.

    Messages name the file as ``display`` (default: the path as given)."""
    return _fresh(_load_cached(path, display))


def _load_cached(path, display: str | None = None) -> Variant:
    """The cached variant itself: for readers that change nothing (check_files)."""
    p = Path(path)
    name = display if display is not None else str(path)
    key = _real(p, _Layer(None, Positions(), name, p))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] and _stamp(hit[1].chain) == hit[0]:
        return hit[1]
    root = _read_layer(p, name)
    variant = _build(root, p.parent)
    _CACHE[key] = (_stamp(variant.chain), variant)
    return variant


_NOWHERE = (None, None)  # a position in a document sent as data: the path is known, no line


def _data_positions(data: Any) -> Positions:
    """Every path of a document sent as data, at no line, so that its problems are located in
    it (``<configure>: rules.match.target: ...``), never in the file of the rule set it extends."""
    positions = Positions()
    stack = [((), data)]
    while stack:
        path, value = stack.pop()
        positions[path] = _NOWHERE
        if isinstance(value, dict):
            stack.extend((path + (k,), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((path + (i,), v) for i, v in enumerate(value))
    return positions


def _find(ref, name: str, files: bool) -> tuple[Path, str]:
    """The file a reference names (a rule set id, or a path when ``files``) and how messages name it.

    The order: a path (it ends in .yaml/.yml or holds a '/'), else an id of one of the rule set
    folders (registry.py), else, when ``files``, a file of that name."""
    if isinstance(ref, os.PathLike) or (isinstance(ref, str) and _looks_like_path(ref)):
        text = str(ref)
        if not files:
            raise VariantNotFound(f"'{registry.clipped(text)}' is a file path; name a rule set by its id "
                                  f"(known ids: {', '.join(known_ids())}) or send a whole document", name)
        p = Path(ref)
        try:
            if not p.exists() and not p.is_symlink():
                raise VariantNotFound(f"no such variant file '{text}'", text, "(top)", "no such file")
        except OSError as exc:  # a name too long, say
            raise VariantNotFound(f"cannot read '{registry.clipped(text)}': {exc.strerror or exc}",
                                  registry.clipped(text), "(top)") from None
        return p, text
    if not isinstance(ref, str):
        raise VariantError([f"{name}: (top): expected a variant id, a file path or a document, "
                            f"got {type(ref).__name__}"])
    found, why = registry.file_for_id(ref.strip())
    if found is not None:
        return found, _display(found)
    if files and registry._is_file(Path(ref)):
        return Path(ref), ref
    raise VariantNotFound(why, name)


def _root_for_ref(ref, name: str | None = None, files: bool = True) -> tuple[_Layer, Path | None]:
    """The first layer of a reference's chain and the folder its relative `extends` start from
    (None for a document sent as data: it may extend ids only)."""
    if isinstance(ref, dict):
        return _Layer(_copy(ref), _data_positions(ref), name or DOCUMENT_NAME, None), None
    path, shown = _find(ref, name or DOCUMENT_NAME, files)
    return _read_layer(path, shown), path.parent


def load_variant(ref, *, name: str | None = None, files: bool = True) -> Variant:
    """The one way every command turns a reference into a rule set.

    ``ref`` is a rule set id (seed, published, implementation, house or test: registry.py),
    a file path, or a whole document (a dict, named ``name`` in messages, default
    ``<variant>``; its `extends` may name an id only). ``files=False`` refuses file paths:
    for a protocol client, whose references name nothing on the server's disk."""
    if isinstance(ref, Variant):
        return ref
    if isinstance(ref, dict):
        root, base_dir = _root_for_ref(ref, name, files)
        return _fresh(_build(root, base_dir))
    path, shown = _find(ref, name or DOCUMENT_NAME, files)
    return load_variant_file(path, shown)


def resolve(ref) -> dict:
    """The document with its `extends` chain merged in (not yet validated against the schema).

    Problems reading the chain (syntax, a missing parent, a cycle) raise VariantError.
    """
    root, base_dir = _root_for_ref(ref)
    _, document, _ = _resolve_layers(root, base_dir)
    return document


def check_files(paths: Iterable[str | os.PathLike], warnings: list | None = None) -> list[str]:
    """One line per problem in the given files (empty when every file is a valid variant).

    ``warnings``, when given, receives one located line per warning of the valid files
    (a card table that does not add up): allowed, so not a problem."""
    lines: list[str] = []
    seen: dict[str, tuple[str, Path]] = {}
    for path in paths:
        try:
            v = _load_cached(path)
        except VariantError as exc:
            lines.extend(exc.lines)
            continue
        if warnings is not None:
            warnings.extend(v.warnings)
        shown = str(path)
        here = _real(Path(path))
        # an id names one rule set: a file may not take a known one's id, nor another checked file's
        known, _ = registry.file_for_id(v.id)
        if known is not None and here != _real(known):
            lines.append(f"{shown}:{_id_line(v)}: id: '{v.id}' is already the id of the "
                         f"{registry.kind_of(known)} rule set {_display(known)}; give this rule set its own id")
        elif v.id in seen and seen[v.id][1] != here:
            lines.append(f"{shown}:{_id_line(v)}: id: '{v.id}' is also the id of {seen[v.id][0]}")
        seen.setdefault(v.id, (shown, here))
    return lines


def _id_line(v: Variant) -> str:
    """LINE:COL of the file's `id` (for a one-line message), or "1:1"."""
    try:
        _, positions = yamlstrict.load_file(v.path, str(v.path))
        pos = positions.get(("id",))
        if pos:
            return f"{pos[0]}:{pos[1]}"
    except Exception:  # noqa: BLE001 - the file loaded a moment ago; a position is a nicety
        pass
    return "1:1"


__all__ = ["Variant", "VariantError", "VariantNotFound", "load_variant", "load_variant_file", "resolve", "check_files",
           "shipped_ids", "house_ids", "written_ids", "paged_ids", "known_ids", "test_ids", "house_dir", "format_path"]
