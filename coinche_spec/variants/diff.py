"""Compare two rule sets rule by rule, with the words each one rests on.

Clubs comparing regional rules want more than "these values differ": they
want to see *why* each side says what it says. So every differing rule is
shown with the source quote or the interpretation that justifies it in each
rule set.
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class RuleDifference:
    path: str
    left: object
    right: object
    left_basis: tuple[str, ...]
    right_basis: tuple[str, ...]
    left_given: bool = True     # False: the rule set leaves the rule out (``left`` is its default, or None)
    right_given: bool = True


def flatten(rules: dict, prefix: str = "") -> dict:
    """Rule path -> value; an award (a mapping with `terms`) is one value, as a reader sees it."""
    out = {}
    for key, value in rules.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict) and "terms" not in value:
            out.update(flatten(value, path))
        else:
            out[path] = value
    return out


def basis(document: dict, path: str) -> tuple[str, ...]:
    """The quotes and readings that a rule set attaches to ``path`` (or to a group containing it)."""
    def covers(paths) -> bool:
        return any(path == p or path.startswith(p + ".") for p in paths)

    # A house file's own entries are appended after its parent's: read newest first, so a
    # house rule is explained by the house's words before the parent's.
    found = []
    for item in reversed(document.get("interpretations", [])):
        if covers(item.get("rules", [])):
            found.append(f"reading [{item['id']}] {item['question']} {item['reading']}")
    for source in reversed(document.get("sources", [])):
        if covers(source.get("rules", [])):
            found.append(_source_words(source))
    return tuple(found)


def _source_words(source: dict) -> str:
    """A quote with where it comes from: a document's title (never a seed's file name) and section, a
    program's file, a decision's date."""
    from ..sources import source_where
    where = source_where(source)
    quote = source.get("quote")
    return f"\"{quote}\" ({where})" if quote else f"({where})"


def differences(left_doc: dict, right_doc: dict) -> list[RuleDifference]:
    """The rules whose values differ, an optional rule left out counting as its schema default:
    a file that writes `trick_winner: led_suit` plays what one that leaves it out plays."""
    from .compiled import with_defaults
    left, right = flatten(with_defaults(left_doc["rules"])), flatten(with_defaults(right_doc["rules"]))
    given_left, given_right = flatten(left_doc["rules"]), flatten(right_doc["rules"])
    out = []
    for path in list(left) + [p for p in right if p not in left]:
        a, b = left.get(path), right.get(path)
        if a != b:
            out.append(RuleDifference(path, a, b, basis(left_doc, path), basis(right_doc, path),
                                      path in given_left, path in given_right))
    return out


def show_given(value: object, given: bool) -> str:
    """A rule's value as ``show_value`` writes it, marked when the rule set leaves the rule out: its
    default then (``"never" (left out)``), or just "left out" for a rule with none (no cap)."""
    if given:
        return show_value(value)
    return "left out" if value is None else f"{show_value(value)} (left out)"


def show_value(value: object) -> str:
    if isinstance(value, dict) and "terms" in value:
        terms = " + ".join(value["terms"]) or "nothing"
        extra = []
        if "base" in value:
            extra.append(f"base {json.dumps(value['base'])}")
        if "base_on_sweep" in value:
            extra.append(f"base on a sweep {value['base_on_sweep']}")
        extra.append(f"multiplied: {value['multiplied']}")
        return f"{terms} ({', '.join(extra)})"
    return json.dumps(value, ensure_ascii=False)


def _left_out_line(left_out: list) -> list[str]:
    """The differences left out because they cannot matter (path, why), as one note."""
    if not left_out:
        return []
    what = "1 difference" if len(left_out) == 1 else f"{len(left_out)} differences"
    return ["", f"Left out, as they cannot matter under the other rules ({what}; --all shows them): "
            + "; ".join(f"{path} ({why})" for path, why in left_out) + "."]


def render_text(left_id: str, right_id: str, diffs: list[RuleDifference], with_basis: bool = True,
                left_out: list = ()) -> str:
    if not diffs:
        return f"{left_id} and {right_id} have the same rules" + (
            " that can matter." if left_out else ".") + "\n".join(_left_out_line(list(left_out)))
    verb = "rule differs" if len(diffs) == 1 else "rules differ"
    lines = [f"{len(diffs)} {verb} between {left_id} and {right_id}:", ""]
    for d in diffs:
        lines.append(f"{d.path}")
        lines.append(f"  {left_id}: {show_given(d.left, d.left_given)}")
        if with_basis:
            lines.extend(f"      {b}" for b in d.left_basis[:2])
        lines.append(f"  {right_id}: {show_given(d.right, d.right_given)}")
        if with_basis:
            lines.extend(f"      {b}" for b in d.right_basis[:2])
    return "\n".join(lines + _left_out_line(list(left_out)))


def render_markdown(left_id: str, right_id: str, diffs: list[RuleDifference], left_out: list = ()) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    def with_basis(value, given, basis) -> str:
        text = cell(show_given(value, given))
        if basis:
            text += "<br>" + "<br>".join(cell(b) for b in basis[:2])
        return text

    lines = [f"| rule | {left_id} | {right_id} |", "|---|---|---|"]
    for d in diffs:
        lines.append(f"| `{d.path}` | {with_basis(d.left, d.left_given, d.left_basis)} | {with_basis(d.right, d.right_given, d.right_basis)} |")
    return "\n".join(lines + _left_out_line(list(left_out)))


def render_json(left_id: str, right_id: str, diffs: list[RuleDifference], left_out: list = ()) -> str:
    return json.dumps({"left": left_id, "right": right_id, "differences": [
        {"rule": d.path, "left": d.left, "right": d.right, "left_given": d.left_given, "right_given": d.right_given,
         "left_basis": list(d.left_basis), "right_basis": list(d.right_basis)} for d in diffs],
        "left_out": [{"rule": path, "why": why} for path, why in left_out]},
        ensure_ascii=False, indent=2)
