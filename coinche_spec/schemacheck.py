"""A quick "yes" for a document that satisfies a JSON Schema, before the full validator runs.

jsonschema builds a validator object for every value it descends into: on a
multi-megabyte rule file (thousands of interpretations) that is most of the
time of `variants check`. Most files are valid, and for them this module
answers from closures compiled once per schema, about ten times faster. It
only ever says "valid" when the schema holds; on anything else — a problem,
or a keyword it does not know — it says "ask jsonschema", which then finds
and words the problems as before. So the messages stay jsonschema's, and the
rules stay in the schema file: nothing here decides what is allowed.
"""

from __future__ import annotations

import re
from typing import Any, Callable

Check = Callable[[Any], bool]

_ANNOTATIONS = {"description", "title", "$schema", "$id", "$defs", "$comment", "default", "examples"}

_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),  # 10.0 is not a whole number here
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return False
    return type(a) is type(b) and a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                             and a == b)


def _never(_value: Any) -> bool:
    return False


def compile_schema(schema: Any, root: dict | None = None) -> Check:
    """``check(value)``: True only when ``value`` satisfies ``schema`` (draft 2020-12 subset)."""
    root = schema if root is None else root
    if schema is True:
        return lambda v: True
    if not isinstance(schema, dict):
        return _never
    checks: list[Check] = []
    for key, arg in schema.items():
        if key in _ANNOTATIONS:
            continue
        maker = _KEYWORDS.get(key)
        if maker is None:
            return _never  # a keyword not known here: let jsonschema judge
        checks.append(maker(arg, schema, root))
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(c(v) for c in checks)


def _type(arg, schema, root) -> Check:
    names = arg if isinstance(arg, list) else [arg]
    if not all(n in _TYPES for n in names):
        return _never
    tests = [_TYPES[n] for n in names]
    return tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests))


def _properties(arg, schema, root) -> Check:
    subs = {name: compile_schema(sub, root) for name, sub in arg.items()}

    def check(v):
        if not isinstance(v, dict):
            return True
        for name, sub in subs.items():
            if name in v and not sub(v[name]):
                return False
        return True
    return check


def _additional(arg, schema, root) -> Check:
    known = set(schema.get("properties", {}))
    if schema.get("patternProperties"):
        return _never
    if arg is False:
        return lambda v: not isinstance(v, dict) or all(k in known for k in v)
    sub = compile_schema(arg, root)
    return lambda v: not isinstance(v, dict) or all(sub(x) for k, x in v.items() if k not in known)


def _required(arg, schema, root) -> Check:
    names = list(arg)
    return lambda v: not isinstance(v, dict) or all(n in v for n in names)


def _enum(arg, schema, root) -> Check:
    choices = list(arg)
    return lambda v: any(_equal(v, c) for c in choices)


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _minimum(arg, schema, root) -> Check:
    return lambda v: not _number(v) or v >= arg


def _maximum(arg, schema, root) -> Check:
    return lambda v: not _number(v) or v <= arg


def _min_length(arg, schema, root) -> Check:
    return lambda v: not isinstance(v, str) or len(v) >= arg


def _max_length(arg, schema, root) -> Check:
    return lambda v: not isinstance(v, str) or len(v) <= arg


def _pattern(arg, schema, root) -> Check:
    rx = re.compile(arg)
    return lambda v: not isinstance(v, str) or rx.search(v) is not None


def _items(arg, schema, root) -> Check:
    if not isinstance(arg, dict) and not isinstance(arg, bool):
        return _never
    sub = compile_schema(arg, root)
    return lambda v: not isinstance(v, list) or all(sub(x) for x in v)


def _min_items(arg, schema, root) -> Check:
    return lambda v: not isinstance(v, list) or len(v) >= arg


def _unique(arg, schema, root) -> Check:
    if not arg:
        return lambda v: True

    def check(v):
        if not isinstance(v, list):
            return True
        return len({_frozen(x) for x in v}) == len(v)
    return check


def _frozen(v: Any):
    """A hashable form in which two values are equal exactly when they are equal as JSON."""
    if isinstance(v, bool):
        return ("b", v)
    if isinstance(v, (int, float)):
        return ("n", v)  # 1 and 1.0 are one number in JSON, and one key in Python
    if isinstance(v, str):
        return ("s", v)
    if v is None:
        return ("z",)
    if isinstance(v, list):
        return ("l", tuple(_frozen(x) for x in v))
    if isinstance(v, dict):
        return ("d", frozenset((k, _frozen(x)) for k, x in v.items()))
    return ("o", id(v))


def _min_properties(arg, schema, root) -> Check:
    return lambda v: not isinstance(v, dict) or len(v) >= arg


def _property_names(arg, schema, root) -> Check:
    sub = compile_schema(arg, root)
    return lambda v: not isinstance(v, dict) or all(sub(k) for k in v)


def _one_of(arg, schema, root) -> Check:
    subs = [compile_schema(s, root) for s in arg]
    return lambda v: sum(1 for s in subs if s(v)) == 1 and _sure_of_others(arg, v)


def _sure_of_others(alternatives, v) -> bool:
    # a False from a sub-check may mean "not sure" (an unknown keyword): only trust oneOf
    # when every alternative is made of known keywords
    return all(_known(s) for s in alternatives)


def _known(schema) -> bool:
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict):
        return False
    for key, arg in schema.items():
        if key in _ANNOTATIONS:
            continue
        if key not in _KEYWORDS or key == "$ref":  # a reference may say no when unsure
            return False
        if key in ("properties",) and not all(_known(s) for s in arg.values()):
            return False
        if key in ("items", "additionalProperties", "propertyNames") and not _known(arg):
            return False
        if key == "oneOf" and not all(_known(s) for s in arg):
            return False
    return True


def _ref(arg, schema, root) -> Check:
    if not isinstance(arg, str) or not arg.startswith("#/$defs/"):
        return _never
    target = root.get("$defs", {}).get(arg[8:])
    if target is None:
        return _never
    cell: list = []

    def check(v):  # compiled on first use, so that a recursive definition terminates
        if not cell:
            cell.append(compile_schema(target, root))
        return cell[0](v)
    return check


_KEYWORDS = {"type": _type, "properties": _properties, "additionalProperties": _additional,
             "required": _required, "enum": _enum, "minimum": _minimum, "maximum": _maximum,
             "minLength": _min_length, "maxLength": _max_length, "pattern": _pattern, "items": _items,
             "minItems": _min_items, "uniqueItems": _unique, "minProperties": _min_properties,
             "propertyNames": _property_names, "oneOf": _one_of, "$ref": _ref}
