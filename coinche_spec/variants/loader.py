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
:func:`resolve`, :func:`check_files`, :func:`shipped_ids`, :func:`house_ids`.
"""

from __future__ import annotations

import copy
import difflib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import jsonschema

from .. import yamlstrict
from ..resources import variant_schema_path, variants_dir
from ..yamlstrict import Positions, Problem, format_path
from . import semantics
from .rules import Rules

SUFFIXES = (".yaml", ".yml")
DOCUMENT_NAME = "<variant>"  # how a document given as data (not a file) is named in messages
APPENDED = ("sources", "interpretations")  # top-level lists a child adds to its parent's


class VariantError(Exception):
    """A variant that cannot be used; ``lines`` holds one located line per problem."""

    def __init__(self, lines: Iterable[str]):
        self.lines = [str(x) for x in lines]
        super().__init__("\n".join(self.lines))


@dataclass(frozen=True)
class Variant:
    """A resolved, validated rule set: ``document`` has no `extends`; ``rules`` is read-only."""

    id: str
    document: dict
    rules: Rules
    path: Path | None = None
    written: dict | None = field(default=None, compare=False, repr=False)  # the file as written
    chain: tuple = field(default=(), compare=False, repr=False)  # the files read, the child first


# --- where variants live ------------------------------------------------

def house_dir() -> Path:
    return variants_dir() / "house"


def _ids_in(folder: Path) -> list[str]:
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file())


def shipped_ids() -> list[str]:
    """The seed variants, in variants/: the ids every conformance fixture answers for."""
    return _ids_in(variants_dir())


def house_ids() -> list[str]:
    """House variants, in variants/house/: local rule sets built with `extends`."""
    return _ids_in(house_dir())


def _file_for_id(ident: str) -> Path | None:
    found = [folder / f"{ident}{suffix}" for folder in (variants_dir(), house_dir()) for suffix in SUFFIXES]
    found = [p for p in found if p.is_file()]
    if len(found) > 1:
        raise VariantError([f"{DOCUMENT_NAME}: id: variant id '{ident}' is given by more than one file: "
                            + ", ".join(_display(p) for p in found)])
    return found[0] if found else None


def _unknown_id_message(ident: str) -> str:
    known = shipped_ids() + house_ids()
    match = difflib.get_close_matches(ident, known, n=1, cutoff=0.6)
    hint = f" (did you mean '{match[0]}'?)" if match else ""
    return f"unknown variant id '{ident}'{hint}; known ids: {', '.join(known) or 'none'}"


def _looks_like_path(text: str) -> bool:
    return text.endswith(SUFFIXES) or "/" in text or os.sep in text


def _display(path: Path) -> str:
    """A file name as people read it: relative to the working folder when it is below it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)
    return str(path) if rel.startswith("..") else rel


# --- one file of an `extends` chain ------------------------------------

@dataclass
class _Layer:
    data: Any
    positions: Positions
    display: str
    path: Path | None  # None for a document given as data


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


def _parent_path(layer: _Layer, base_dir: Path) -> Path:
    """Where the layer's `extends` points: a relative file path, or a shipped or house id."""
    ext = layer.data["extends"]
    if not isinstance(ext, str) or not ext.strip():
        raise VariantError([_problem(layer, ("extends",), "expected a variant id or a relative file path, "
                                                          f"got {yamlstrict._show(ext)}")])
    ext = ext.strip()
    if _looks_like_path(ext):
        target = Path(ext) if Path(ext).is_absolute() else base_dir / ext
        if not target.is_file():
            raise VariantError([_problem(layer, ("extends",),
                                         f"no such file '{ext}' (looked in {_display(base_dir) or '.'})")])
        return target
    try:
        found = _file_for_id(ext)
    except VariantError as exc:
        raise VariantError([_problem(layer, ("extends",), exc.lines[0].split(": ", 2)[-1])]) from None
    if found is None:
        raise VariantError([_problem(layer, ("extends",), _unknown_id_message(ext))])
    return found


def _chain(root: _Layer, base_dir: Path) -> list[_Layer]:
    """The root and its ancestors, child first; a cycle or a missing parent is an error."""
    layers = [root]
    seen = [root.path.resolve()] if root.path else []
    current, folder = root, base_dir
    while "extends" in current.data:
        parent = _parent_path(current, folder)
        resolved = parent.resolve()
        if resolved in seen:
            names = [layer.path.name if layer.path else DOCUMENT_NAME for layer in layers] + [parent.name]
            raise VariantError([_problem(root, ("extends",), "extends cycle: " + " -> ".join(names))])
        seen.append(resolved)
        current = _read_layer(parent, _display(parent))
        layers.append(current)
        folder = parent.parent
    return layers


# --- merging ------------------------------------------------------------

class _Origins:
    """Where each value of the merged document was written: path -> (file, value pos, key pos)."""

    def __init__(self, fallback: str):
        self.where: dict[tuple, tuple[str, tuple | None, tuple | None]] = {}
        self.written: dict[tuple, tuple] = {}  # merged path -> the path in the file that wrote it
        self.fallback = fallback

    def take(self, layer: _Layer, prefix: tuple = (), shift: tuple = ()) -> None:
        """Record every position of ``layer`` under ``prefix``; ``shift`` renames the prefix.

        The path as the file writes it is kept too (an appended interpretation is
        ``interpretations[0]`` in its own file, whatever its index once merged)."""
        target = shift or prefix
        n = len(prefix)
        for path, pos in layer.positions.items():
            if path[:n] == prefix:
                self.where[target + path[n:]] = (layer.display, pos, layer.positions.keys_at.get(path))
                self.written[target + path[n:]] = path

    def drop(self, prefix: tuple) -> None:
        n = len(prefix)
        for path in [p for p in self.where if p[:n] == prefix]:
            del self.where[path]
            self.written.pop(path, None)

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
            origins.where[path] = (child.display, pos, child.positions.keys_at.get(path))
            origins.written[path] = path
        return merged
    origins.drop(path)
    origins.take(child, path)
    return copy.deepcopy(new)


_MISSING = object()


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


def _overlaps(path: str, other: str) -> bool:
    """Whether two rule paths name the same rule, or one holds the other."""
    return path == other or path.startswith(other + ".") or other.startswith(path + ".")


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
            if any(isinstance(p, str) and _overlaps(p, c) for p in paths for c in changed):
                continue
        kept.append(entry)
        indexes.append(i)
    return kept, indexes


def _move_entries(origins: _Origins, key: str, indexes: list[int]) -> None:
    """Re-point the recorded positions of ``key``'s entries after some were dropped."""
    moved_where, moved_written = {}, {}
    for new, old in enumerate(indexes):
        prefix = (key, old)
        for path in [p for p in origins.where if p[:2] == prefix]:
            moved_where[(key, new) + path[2:]] = origins.where[path]
            if path in origins.written:
                moved_written[(key, new) + path[2:]] = origins.written[path]
    for path in [p for p in origins.where if len(p) >= 2 and p[0] == key and isinstance(p[1], int)]:
        del origins.where[path]
        origins.written.pop(path, None)
    origins.where.update(moved_where)
    origins.written.update(moved_written)


def _merge(layers: list[_Layer]) -> tuple[dict, _Origins]:
    """Fold the chain from the first ancestor down to the child."""
    base = layers[-1]
    origins = _Origins(layers[0].display)
    document = {k: copy.deepcopy(v) for k, v in base.data.items() if k != "extends"}
    origins.take(base)
    origins.drop(("extends",))
    for child in reversed(layers[:-1]):
        # A description speaks for one rule set: a child that writes none has none, rather
        # than its parent's words describing rules it has changed.
        if "description" not in child.data and "description" in document:
            del document["description"]
            origins.drop(("description",))
        changed = _written_rule_paths(child.data.get("rules"))
        for key, value in child.data.items():
            if key == "extends":
                continue
            old = document.get(key, _MISSING)
            if key in APPENDED and isinstance(old, list) and isinstance(value, list):
                old, indexes = _inherited_entries(old, value, changed)
                _move_entries(origins, key, indexes)
                offset = len(old)
                document[key] = old + copy.deepcopy(value)
                for i in range(len(value)):
                    origins.take(child, (key, i), (key, i + offset))
                continue
            document[key] = _merge_value(old, value, (key,), child, origins)
        for key in APPENDED:  # a child that writes no list of its own still overrides rules
            if key not in child.data and isinstance(document.get(key), list):
                document[key], indexes = _inherited_entries(document[key], [], changed)
                _move_entries(origins, key, indexes)
        origins.where[()] = (child.display, child.positions.get(()), None)
        origins.written[()] = ()
    return document, origins


# --- validation ---------------------------------------------------------

_VALIDATOR = None


def _validator():
    """Draft 2020-12, except that an integer is a whole number as written (10.0 is not 10)."""
    global _VALIDATOR
    if _VALIDATOR is None:
        schema = json.loads(variant_schema_path().read_text(encoding="utf-8"))
        base = jsonschema.Draft202012Validator
        checker = base.TYPE_CHECKER.redefine(
            "integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool))
        strict = jsonschema.validators.extend(base, type_checker=checker)
        _VALIDATOR = strict(schema)
    return _VALIDATOR


def _noun(path: tuple) -> str:
    return "rule" if len(path) >= 2 and path[0] == "rules" else "field"


def _problems(document: Any, origins: _Origins, layers: list[_Layer]) -> list[Problem]:
    if not isinstance(document, dict):
        return [Problem(origins.fallback, None, None, (), "a variant is a mapping (id, name, status, sources, "
                                                          "interpretations, rules)")]
    child = layers[0]
    if len(layers) > 1 and "id" not in child.data:
        return [_problem(child, ("extends",), "a variant that extends another needs its own `id`", prefer_key=True)]
    problems = yamlstrict.schema_problems(_validator().iter_errors(document), origins.find, _noun)
    if problems:
        return problems
    found = [origins.problem(f.path, f.message, f.at_key) for f in semantics.check(document)]
    path = child.path
    if path is not None and path.parent.resolve() in (variants_dir().resolve(), house_dir().resolve()):
        if document.get("id") != path.stem:
            found.append(origins.problem(("id",),
                                 f"id '{document.get('id')}' differs from the file name '{path.name}': "
                                 "a shipped variant is found by its id, so they must agree"))
    return found


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


def _resolve_layers(root: _Layer, base_dir: Path) -> tuple[list[_Layer], dict, _Origins]:
    layers = _chain(root, base_dir)
    document, origins = _merge(layers)
    return layers, document, origins


def _build(root: _Layer, base_dir: Path) -> Variant:
    layers, document, origins = _resolve_layers(root, base_dir)
    problems = _problems(document, origins, layers)
    if problems:
        raise VariantError(problems)
    chain = tuple(layer.path for layer in layers if layer.path is not None)
    return Variant(document["id"], document, Rules(document["rules"], document["id"]),
                   root.path, copy.deepcopy(root.data), chain)


def _fresh(v: Variant) -> Variant:
    """A copy the caller may change without changing the cached one."""
    doc = copy.deepcopy(v.document)
    return Variant(v.id, doc, Rules(doc["rules"], v.id), v.path, copy.deepcopy(v.written), v.chain)


def load_variant_file(path: str | os.PathLike, display: str | None = None) -> Variant:
    """Load, resolve and validate one variant file; problems raise VariantError.

    Messages name the file as ``display`` (default: the path as given)."""
    p = Path(path)
    key = p.resolve()
    hit = _CACHE.get(key)
    if hit is not None and hit[0] and _stamp(hit[1].chain) == hit[0]:
        return _fresh(hit[1])
    root = _read_layer(p, display if display is not None else str(path))
    variant = _build(root, p.parent)
    _CACHE[key] = (_stamp(variant.chain), variant)
    return _fresh(variant)


def _root_for_ref(ref) -> tuple[_Layer, Path]:
    if isinstance(ref, dict):
        return _Layer(copy.deepcopy(ref), Positions(), DOCUMENT_NAME, None), Path.cwd()
    if isinstance(ref, os.PathLike) or (isinstance(ref, str) and _looks_like_path(ref)):
        p = Path(ref)
        return _read_layer(p, str(ref)), p.parent
    if isinstance(ref, str):
        found = _file_for_id(ref.strip())
        if found is None:
            raise VariantError([f"{DOCUMENT_NAME}: id: {_unknown_id_message(ref.strip())}"])
        return _read_layer(found, _display(found)), found.parent
    raise VariantError([f"{DOCUMENT_NAME}: (top): expected a variant id, a file path or a document, "
                        f"got {type(ref).__name__}"])


def load_variant(ref) -> Variant:
    """A variant by shipped or house id, by file path, or from a whole document (a dict)."""
    if isinstance(ref, Variant):
        return ref
    if isinstance(ref, os.PathLike) or (isinstance(ref, str) and _looks_like_path(ref)):
        return load_variant_file(ref)
    if isinstance(ref, str):
        found = _file_for_id(ref.strip())
        if found is None:
            raise VariantError([f"{DOCUMENT_NAME}: id: {_unknown_id_message(ref.strip())}"])
        return load_variant_file(found, _display(found))
    root, base_dir = _root_for_ref(ref)
    return _fresh(_build(root, base_dir))


def resolve(ref) -> dict:
    """The document with its `extends` chain merged in (not yet validated against the schema).

    Problems reading the chain (syntax, a missing parent, a cycle) raise VariantError.
    """
    root, base_dir = _root_for_ref(ref)
    _, document, _ = _resolve_layers(root, base_dir)
    return document


def check_files(paths: Iterable[str | os.PathLike]) -> list[str]:
    """One line per problem in the given files (empty when every file is a valid variant)."""
    lines: list[str] = []
    seen: dict[str, tuple[str, Path]] = {}
    for path in paths:
        try:
            v = load_variant_file(path)
        except VariantError as exc:
            lines.extend(exc.lines)
            continue
        shown = str(path)
        # an id names one rule set: a file may not take a shipped one's id, nor another checked file's
        shipped = _file_for_id(v.id)
        if shipped is not None and Path(path).resolve() != shipped.resolve():
            lines.append(f"{shown}:{_id_line(v)}: id: '{v.id}' is already the id of the shipped rule set "
                         f"{_display(shipped)}; give this rule set its own id")
        elif v.id in seen and seen[v.id][1] != Path(path).resolve():
            lines.append(f"{shown}:{_id_line(v)}: id: '{v.id}' is also the id of {seen[v.id][0]}")
        seen.setdefault(v.id, (shown, Path(path).resolve()))
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


__all__ = ["Variant", "VariantError", "load_variant", "load_variant_file", "resolve", "check_files",
           "shipped_ids", "house_ids", "house_dir", "format_path"]
