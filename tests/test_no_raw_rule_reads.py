"""No layer reads a rule document by a rule's name: rules are read as compiled rules.

The compiled rules (coinche_spec/variants/compiled.py) hold every rule of the schema, each filled
once from the schema (its default, its neutral value where no deal can use it, or None); a reader
that asks a raw rule document instead (``rules["scoring"].get("rounding_stage", "award")``) writes
the default again and is not seen by tests/test_every_rule_is_read.py, so a renamed or new rule
slips past it. Here every module of the package is parsed (nothing runs) and every chain of
constant keys, subscripts (``x["auction"]["bids"]``), ``.get("name", ...)`` and dotted paths given
to a getter (``_get(rules, "auction.strain_order")``), is followed down the schema from the rules'
root: a chain that names a rule of a group (``auction.bids``; a non-constant key in between, as in
``rules["scoring"][outcome]["takers"]``, stands for any rule), or any rule below a document's
``["rules"]``, is a raw read. A name given to a local variable (``s = r["scoring"]``) carries its
chain on. The failure names the file, the line and the rule path read.

Only the modules of ALLOWED may read rule documents so, each for the reason given: the compiler
itself, the checks that judge a file as written, and the few that write or quote rule documents.
"""

from __future__ import annotations

import ast
import json
from functools import lru_cache
from pathlib import Path

import coinche_spec
from coinche_spec.resources import variant_schema_path

PACKAGE = Path(coinche_spec.__file__).parent

ALLOWED = {
    "variants/compiled.py": "the compiler: it fills every rule of a document once",
    "variants/semantics.py": "the cross-rule checks judge a file as written (a rule left out where it can matter)",
    "conformance/variations.py": "writes rule documents one rule away from a given one, from what that one wrote",
    "housefile.py": "writes a house file: what the parent wrote, and the rule an answer brings with it",
    "docsgen/reference.py": "quotes a shipped file as written (how a file writes an award)",
}

ANY = None      # a key that is not a constant: any rule of the group


@lru_cache(maxsize=None)
def _schema() -> dict:
    return json.loads(variant_schema_path().read_text(encoding="utf-8"))


def _children(node: dict) -> dict:
    """The rules one level below a schema node: its properties, those of its object branch, of its items."""
    defs = _schema()["$defs"]
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    out = dict(node.get("properties", {}))
    for branch in node.get("oneOf", []) + node.get("anyOf", []):
        out.update(_children(branch))
    if isinstance(node.get("items"), dict):
        out.update(_children(node["items"]))
    return out


def rule_path(keys: list, least: int = 2) -> str | None:
    """The rule path ``keys`` read, if they follow the schema from the rules' root (ANY: any rule
    there) for at least ``least`` keys; None if they do not. Keys after a document's "rules" are read
    from the rules' root, and one is enough there; elsewhere one name alone ("melds", "deal") is as
    often a protocol field, so it takes two."""
    if "rules" in keys:
        keys = keys[len(keys) - keys[::-1].index("rules"):]
        least = 1
    if sum(k is not ANY for k in keys) < least or keys[0] is ANY:
        return None
    nodes = [_schema()["$defs"]["rules"]]
    for key in keys:
        below = [child for node in nodes for name, child in _children(node).items() if key is ANY or name == key]
        if not below:
            return None
        nodes = below
    return ".".join("*" if k is ANY else k for k in keys)


def _constant_key(node: ast.AST):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ANY


def _getter(call: ast.Call) -> bool:
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    return name.endswith("get")


def chain(node: ast.AST, carried: dict) -> list | None:
    """The keys an expression reads, outermost last (``x["a"].get("b")`` -> ["a", "b"]), or None."""
    keys: list = []
    while True:
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            keys.append(_constant_key(node.slice))
            node = node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and "." not in node.args[0].value):
            keys.append(node.args[0].value)
            node = node.func.value
        elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):     # x.get("a") or {}
            node = node.values[0]
        else:
            break
    if not keys:
        return None
    if isinstance(node, ast.Name) and node.id in carried:
        keys.extend(reversed(carried[node.id]))
    return list(reversed(keys))


def _scopes(tree: ast.Module):
    """The module's own statements, then each function's (a function's names are its own)."""
    funcs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
    yield [n for n in tree.body if not isinstance(n, funcs)]
    for node in ast.walk(tree):
        if isinstance(node, funcs):
            yield node.body if isinstance(node.body, list) else [node.body]


def raw_reads(source: str) -> list[tuple[int, str]]:
    """(line, rule path) of every read of a rule document by a rule's name in ``source``."""
    tree = ast.parse(source)
    found = set()
    for body in _scopes(tree):
        nodes = [n for stmt in body for n in ast.walk(stmt)]
        carried: dict = {}
        for n in nodes:
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                keys = chain(n.value, carried)
                if keys and rule_path(keys, least=1):     # s = rules["scoring"]: s["sweep_bonus"] is read
                    carried[n.targets[0].id] = keys
        for n in nodes:
            if isinstance(n, (ast.Subscript, ast.Call)):
                keys = chain(n, carried)
                path = rule_path(keys) if keys else None
                if path:
                    found.add((n.lineno, path))
            if isinstance(n, ast.Call) and _getter(n):
                for arg in n.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and "." in arg.value:
                        path = rule_path(arg.value.split("."))
                        if path:
                            found.add((n.lineno, path))
    # a read inside a longer one on its line (rules["scoring"] in rules["scoring"]["made"]) is that read
    return sorted((line, path) for line, path in found
                  if not any(other != path and other.startswith(path + ".") for ln, other in found if ln == line))


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), path


def test_no_module_reads_a_rule_document_by_a_rules_name():
    wrong = []
    for name, path in _modules():
        if name in ALLOWED:
            continue
        for line, rule in raw_reads(path.read_text(encoding="utf-8")):
            wrong.append(f"coinche_spec/{name}:{line}: reads rule {rule} from a rule document; read the compiled "
                         "rules instead (variants/compiled.py: compiled_rules(rules).<group>.<rule>; whether a file "
                         "wrote a rule: .left_out(path))")
    assert not wrong, "\n".join(wrong)


def test_every_allowed_module_still_reads_rule_documents():
    """An entry of ALLOWED whose module no longer reads a rule document by name is stale: remove it."""
    stale = [name for name, path in _modules() if name in ALLOWED and not raw_reads(path.read_text(encoding="utf-8"))]
    assert not stale, f"ALLOWED names modules that read no rule document by a rule's name: {stale}"
    missing = [name for name in ALLOWED if not (PACKAGE / name).is_file()]
    assert not missing, f"ALLOWED names modules that do not exist: {missing}"


# --- the guard itself: what it must see, and what it must let pass -------------------------------

def test_the_guard_sees_each_form_of_raw_read():
    source = '''
def f(c, rules, document, outcome):
    a = rules["scoring"].get("rounding_stage", "award")
    b = rules.get("auction", {}).get("bids")
    s = rules["scoring"]
    d = s["sweep_bonus"]
    e = rules["scoring"][outcome]["takers"]
    g = document["rules"]["match"]
    h = c.get("contract.margin")
    i = _get(rules, "auction.strain_order")
'''
    assert [path for _, path in raw_reads(source)] == [
        "scoring.rounding_stage", "auction.bids", "scoring.sweep_bonus", "scoring.*.takers", "match",
        "contract.margin", "auction.strain_order"]


def test_the_guard_lets_compiled_reads_and_other_documents_pass():
    source = '''
def f(c, case, schema, result, document):
    a = c.rules.scoring.rounding_stage
    b = c.rules.melds.runs["5"]
    x = c.value("scoring.rounding")
    d = case["deal"]["dealer"]
    e = result["melds"]
    g = schema["$defs"]["rules"]
    h = document["sources"][0]["quote"]
    i = document["rules"]
'''
    assert raw_reads(source) == []
