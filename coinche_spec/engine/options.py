"""What each option of an enumerated rule does in the engine: one table per rule.

As a JSON Schema validator maps each keyword to the function that checks it,
the engine maps each option of a rule to a small function or value, in a
table defined beside the code that plays it::

    ROUNDING = option_table("scoring.rounding", {
        "none": lambda award: award,
        "nearest_10_half_up": lambda award: (award + 5) // 10 * 10, ...})

A phase reads its behaviour with ``choose(ROUNDING, c.scoring.rounding)``.
An option that has no entry is never silently passed over: ``choose`` raises
Unsupported naming the rule and the option, and :func:`check_rules` (run once
per rule set when the engine first reads it) does so for every table, even a
rule that no deal of that rule set would reach. ``TABLES`` lists every table,
so a test can walk the schema and find an option the engine does not play.

An option the engine has no behaviour for because nothing in a deal depends on
it (who cuts, whether the pack is shuffled) still gets an entry:
``Outside("why")`` says why the engine never reads it.

The batch engine (``batch/rules.py``) reads the same tables. Each table says,
beside the per-deal form, how the batch plays the rule: ``batch=SHARED`` (the
default) when the batch plays every option through the per-deal entry itself
or a function both engines share (or the rule does not arise in a batch of
single random deals); otherwise ``batch={option: batch form}``, and an option
missing there is refused by the batch with BatchUnsupported, never played as
another.
"""

from __future__ import annotations

from ..variants.compiled import RuleGroup, compiled_rules
from .errors import Unsupported

__all__ = ["Outside", "OptionTable", "option_table", "choose", "check_rules", "engine_phase", "TABLES", "SHARED"]


class Outside:
    """The entry of an option that changes nothing the engine computes; ``why`` says so."""

    __slots__ = ("why",)

    def __init__(self, why: str):
        self.why = why

    def __repr__(self) -> str:
        return f"Outside({self.why!r})"


SHARED = "shared"   # the batch plays every option through the per-deal entry or a function both share


class OptionTable(dict):
    """Option -> behaviour for one enumerated rule; ``path`` is the rule's schema path.

    A path ending in ``[]`` is a list of options (``auction.strain_order[]``);
    an ``award.`` path is a field of every award. ``batch`` is the batch engine's
    form of each option it plays (a dict), or SHARED.
    """

    def __init__(self, path: str, entries: dict, batch=SHARED):
        super().__init__(entries)
        self.path = path
        self.batch = batch

    def __missing__(self, option):
        raise Unsupported(f"rules.{self.path}: the engine has no behaviour for option {option!r} "
                          f"(add it to the engine's table for {self.path}, see docs/rules-model.md)")


TABLES: dict[str, OptionTable] = {}


def option_table(path: str, entries: dict, batch=SHARED) -> OptionTable:
    """Register the table of the rule at ``path`` (one table per rule), with its batch forms."""
    if path in TABLES:
        raise ValueError(f"two engine tables for {path}")
    if batch is not SHARED and set(batch) - set(entries):
        raise ValueError(f"{path}: batch forms for options the engine does not play: {set(batch) - set(entries)}")
    table = TABLES[path] = OptionTable(path, entries, batch)
    return table


def choose(table: OptionTable, option):
    """The behaviour of ``option``; Unsupported if the table has none."""
    return table[option]


def _values(node, parts: list):
    """Every value found at a dotted path (lists walked by ``[]``) under a compiled rules node."""
    if not parts:
        return [node]
    head, rest = parts[0], parts[1:]
    many = head.endswith("[]")
    name = head[:-2] if many else head
    value = getattr(node, name) if isinstance(node, RuleGroup) else None
    if value is None:
        return []
    if many:
        out = []
        for item in value:
            out += _values(item, rest)
        return out
    return _values(value, rest)


def _awards(c) -> list:
    out = []
    for outcome in ("made", "failed", "coinched_made", "coinched_failed", "capot_made", "capot_failed"):
        block = c.scoring[outcome]
        if block is not None:
            out += [block.takers, block.defenders]
    return out


def rule_options(c):
    """Every (table path, table, option) that the compiled rules ``c`` choose, one per rule read."""
    for path, table in TABLES.items():
        parts = path.split(".")
        nodes = _awards(c) if parts[0] == "award" else [c]
        if parts[0] == "award":
            parts = parts[1:]
        for node in nodes:
            for option in _values(node, parts):
                yield path, table, option


def check_rules(c) -> bool:
    """Raise Unsupported for the first option of ``c`` (compiled rules) that no engine table knows."""
    for _, table, option in rule_options(c):
        table[option]
    return True


def engine_phase(rules, key, build):
    """What an engine phase derives from ``rules`` (Rules, Variant or compiled), built once per rule set.

    The first time the engine reads a rule set, every option is checked
    against the tables (:func:`check_rules`)."""
    try:
        c = rules._compiled            # a Rules keeps its compiled rules; compiled rules are their own
    except AttributeError:
        c = compiled_rules(rules)
    hit = c._phases.get(key)
    if hit is None:
        c.phase("engine-options", check_rules)
        hit = c.phase(key, build)
    return hit
