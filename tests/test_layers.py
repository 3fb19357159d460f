"""Folders import one way: rules -> engine -> batch -> protocol -> conformance -> tools -> CLI.

Every module of the package is parsed (no import runs) and every import in it is checked, at the
top of the file and inside functions alike, relative or absolute: a module may import its own
folder, a folder of its own tier or a folder of a lower tier, never a higher one, and no two
folders may import each other, even through others. So the rules layer can be read without the
docs generator, the engine without the conformance runner, and a change in a tool never reaches
the engine. A failure names the importing file and line and the direction it breaks.
"""

from __future__ import annotations

import ast
from pathlib import Path

import coinche_spec

PACKAGE = Path(coinche_spec.__file__).parent

# The layer order, lowest first: the one place it is written. Each tier is a tuple of "units": a
# sub-package (variants, engine, ...) or a module at the top of the package (errors, cli, ...);
# "coinche_spec" is the package's own __init__ (its __version__). A unit may import units of its
# own tier or of a lower one, and no cycle is allowed even within a tier. A new folder or top-level
# module must be placed here: the test fails on a unit it does not know.
LAYERS: tuple[tuple[str, ...], ...] = (
    # what every layer shares: the one error root, where files are, reading and writing inputs
    ("coinche_spec", "errors", "resources", "inputs", "outputs", "yamlstrict", "schemacheck", "sources"),
    ("notation", "variants"),        # the rules: cards and calls, rule sets and their compiled form
    ("engine",),                     # the per-deal engine plays the rules
    ("batch",),                      # the batch engine, checked against the per-deal one
    ("protocol",),                   # an implementation spoken to, cases checked by the engine
    ("adapters",),                   # programs adapted to the protocol
    ("conformance",),                # the corpus and the runner
    ("published",),                  # published results of the runner
    ("docsgen",),                    # rules pages and their words (reads published results)
    ("compare",),                    # comparing rule sets (reads the pages' words)
    ("site", "scoresheet", "showdeal", "housefile", "housequestions"),   # what a user opens: the site, a sheet, a deal, `new`
    ("cli", "__main__"),             # the command dispatches to all of them
)

TIER = {unit: i for i, tier in enumerate(LAYERS) for unit in tier}


def _unit_of_module(dotted: str) -> str | None:
    """The unit a ``coinche_spec...`` module or name belongs to (None: outside the package)."""
    parts = dotted.split(".")
    if parts[0] != "coinche_spec":
        return None
    if len(parts) == 1:
        return "coinche_spec"
    head = parts[1]
    if (PACKAGE / head).is_dir() or (PACKAGE / f"{head}.py").is_file():
        return head
    return "coinche_spec"         # a name of the package itself: from coinche_spec import __version__


def _module_name(path: Path) -> tuple[str, str]:
    """(the module's dotted name, the package its relative imports start from)."""
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
        return ".".join(parts), ".".join(parts)
    return ".".join(parts), ".".join(parts[:-1])


def imports_of(path: Path):
    """(line, imported dotted name) for every import of the package in the file, at any depth."""
    _, package = _module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if node.module is None:        # from . import x: x may be a module or a name
                for alias in node.names:
                    yield node.lineno, f"{module}.{alias.name}"
            else:
                yield node.lineno, module


def unit_of_file(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    if len(rel.parts) == 1:
        return "coinche_spec" if rel.name == "__init__.py" else rel.stem
    return rel.parts[0]


def edges() -> list[tuple[str, str, str]]:
    """(importing unit, imported unit, file:line) for every import that crosses units."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = unit_of_file(path)
        for line, name in imports_of(path):
            target = _unit_of_module(name)
            if target is not None and target != source:
                out.append((source, target, f"{path.relative_to(PACKAGE.parent)}:{line}"))
    return out


def _tier_name(unit: str) -> str:
    return f"{unit} (tier {TIER[unit]}: {', '.join(LAYERS[TIER[unit]])})"


def test_every_unit_has_a_place_in_the_layers():
    units = {unit_of_file(p) for p in PACKAGE.rglob("*.py")}
    unknown = sorted(units - set(TIER))
    assert not unknown, f"tests/test_layers.py: LAYERS does not place {unknown}: add each to its tier"


def test_no_folder_imports_a_higher_layer():
    wrong = [f"{where}: {_tier_name(a)} imports {_tier_name(b)}, a higher layer"
             for a, b, where in edges() if a in TIER and b in TIER and TIER[b] > TIER[a]]
    assert not wrong, "imports against the layer order:\n" + "\n".join(wrong)


def test_no_two_folders_import_each_other():
    graph: dict[str, dict[str, str]] = {}
    for a, b, where in edges():
        graph.setdefault(a, {}).setdefault(b, where)
    cycles = []

    def walk(unit: str, trail: list[str]) -> None:
        for nxt in graph.get(unit, {}):
            if nxt == trail[0]:
                cycles.append(trail + [nxt])
            elif nxt not in trail and nxt > trail[0]:     # each cycle found once, from its least unit
                walk(nxt, trail + [nxt])

    for start in sorted(graph):
        walk(start, [start])
    shown = [" -> ".join(cycle) + "  (" + "; ".join(graph[a][b] for a, b in zip(cycle, cycle[1:])) + ")"
             for cycle in cycles]
    assert not shown, "folders that import each other:\n" + "\n".join(shown)


def test_the_checks_see_imports_inside_functions_and_relative_ones(tmp_path):
    """The parser finds what the rules above judge: a relative import inside a function too."""
    found = dict((name, line) for line, name in imports_of(PACKAGE / "variants" / "loader.py"))
    assert "coinche_spec.variants.relevance" in found      # from .relevance import set_but_moot, in a function
    assert _unit_of_module("coinche_spec.__version__") == "coinche_spec"
    assert ("cli", "errors") in {(a, b) for a, b, _ in edges()}
