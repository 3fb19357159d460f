"""Every rule a rule set can set: ``coinche-spec docs --reference`` writes docs/rules-reference.md.

A club writing its house rules needs the full list of what it may change,
with the values each rule accepts, without reading JSON Schema. The page is
generated from ``coinche_spec/variants/schema.json`` (the same file the
loader checks against), so a rule added to the schema appears here the next
time the page is rendered, and a test sees when the committed page lags.
"""

from __future__ import annotations

import json

import yaml

from ..resources import variant_schema_path
from .compare import seed_variants
from .templates import template_for

AWARD_REF = "#/$defs/award"


def load_schema() -> dict:
    return json.loads(variant_schema_path().read_text(encoding="utf-8"))


# --- allowed values in words ---------------------------------------------------------------

def _code(value) -> str:
    return f"`{json.dumps(value, ensure_ascii=False)}`" if not isinstance(value, str) else f"`{value}`"


def _number(node: dict) -> str:
    low, high = node.get("minimum"), node.get("maximum")
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    if low is not None:
        return f"a whole number, at least {low}"
    if high is not None:
        return f"a whole number, at most {high}"
    return "a whole number"


def values_words(node: dict) -> str:
    """What a rule accepts, as a reader says it: `a` · `b`, a whole number from 1 to 16, a list of ..."""
    if node.get("$ref") == AWARD_REF:
        return "an award (see [Awards](#awards))"
    if "$ref" in node:                  # a source or an interpretation: described at the end of the page
        name = node["$ref"].rsplit("/", 1)[-1]
        return f"{name}s (see [Each {name}](#each-{name}))"
    if "oneOf" in node:
        return ", or ".join(values_words(alt) for alt in node["oneOf"])
    if "enum" in node:
        return " · ".join(_code(v) for v in node["enum"])
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    words = []
    for k in kinds:
        if k == "boolean":
            words.append("`true` · `false`")
        elif k == "integer":
            words.append(_number(node))
        elif k == "null":
            words.append("`null`")
        elif k == "string":
            words.append("text" + (f" matching `{node['pattern']}`" if "pattern" in node else ""))
        elif k == "array":
            words.append(_array(node))
        elif k == "object":
            props = node.get("properties", {})
            words.append("a mapping: " + ", ".join(f"`{key}`: {values_words(v)}" for key, v in props.items()))
        else:
            words.append(str(k))
    return ", or ".join(words)


def _array(node: dict) -> str:
    item = node.get("items", {})
    text = "a list"
    if item.get("type") == "array":
        text += " of lists, each " + _array(item)[2:]      # "a list ..." -> "list ..."
    elif "enum" in item:
        text += " of " + " · ".join(_code(v) for v in item["enum"])
    elif "$ref" in item and item["$ref"] != AWARD_REF:
        text += " of " + values_words(item)
    elif item:
        text += " of " + values_words(item).replace("a whole number", "whole numbers", 1)
    notes = []
    if node.get("minItems"):
        notes.append(f"at least {node['minItems']} item" + ("s" if node["minItems"] > 1 else ""))
    if node.get("uniqueItems"):
        notes.append("each at most once")
    return text + (f" ({', '.join(notes)})" if notes else "")


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


# --- the rules, walked as the schema groups them ---------------------------------------------------

def _is_leaf(node: dict) -> bool:
    """A rule read as one value (as templates.schema_leaves reads the schema): no sub-rules of its own."""
    return "$ref" in node or "oneOf" in node or not node.get("properties")


def _is_table(node: dict) -> bool:
    """A group of same-typed numbers with no words of their own (a card table, run or square values)."""
    props = list(node.get("properties", {}).values())
    if not props or not all(_is_leaf(p) and "description" not in p for p in props):
        return False
    return len({json.dumps(p, sort_keys=True) for p in props}) == 1


def _title(path: str) -> str:
    t = template_for(path)
    return f"**{t.title}.** " if t is not None else ""


def _rows(node: dict, path: str) -> list[str]:
    out = []
    for key, child in node.get("properties", {}).items():
        sub = f"{path}.{key}"
        if _is_leaf(child):
            out.append(f"| `{sub}` | {_cell(values_words(child))} | "
                       f"{_cell(_title(sub) + child.get('description', ''))} |")
        elif _is_table(child):
            leaves = ", ".join(f"`{sub}.{k}`" for k in child["properties"])
            first = next(iter(child["properties"].values()))
            out.append(f"| {leaves} | {_cell(values_words(first))}, each | "
                       f"{_cell(_title(sub) + child.get('description', ''))} |")
        else:
            out.append(f"| `{sub}` | *a group: the rules below* | {_cell(child.get('description', ''))} |")
            out.extend(_rows(child, sub))
    return out


def _group_section(key: str, node: dict) -> list[str]:
    out = [f"## `{key}`", ""]
    if node.get("description"):
        out += [node["description"], ""]
    out += ["| rule | values | meaning |", "|---|---|---|"]
    out += _rows(node, key)
    return out + [""]


# Words for the few fields the schema leaves undescribed (and for `extends`, which it does not hold).
FIELD_WORDS = {
    "extends": ("a shipped or house id, or a file path (relative to this file)",
                "The rule set this file builds on: every rule this file does not write is the parent's."),
    "name": (None, "The rule set's name, the title of its rules page."),
    "description": (None, "A few sentences on what the rule set is (optional)."),
    "question": (None, "What the source leaves open, asked as a question."),
    "sources": (None, "The sentences of the sources, word for word, each with the rules it decides."),
    "interpretations": (None, "Where the sources are silent or ambiguous: the reading taken and the alternative."),
}


def _fields_table(node: dict, extra: tuple[str, ...] = ()) -> list[str]:
    out = ["| field | values | meaning |", "|---|---|---|"]
    for key in extra:
        values, meaning = FIELD_WORDS[key]
        out.append(f"| `{key}` | {_cell(values)} | {_cell(meaning)} |")
    for key, child in node.get("properties", {}).items():
        out.append(f"| `{key}` | {_cell(values_words(child))} | {_cell(_field_meaning(key, child))} |")
    return out


def _field_meaning(key: str, node: dict) -> str:
    text = node.get("description", "") or (FIELD_WORDS[key][1] if key in FIELD_WORDS else "")
    item = node.get("items", {})
    if item.get("description") and len(item["description"]) > 20:
        text = (text + " " if text else "") + item["description"]
    return text


# --- the page -------------------------------------------------------------------------------------------

HOUSE_EXAMPLE = """\
extends: federation            # the rule set you start from: a shipped or house id, or a file path
id: our-table
name: "Our table: federation rules to 1500"
status: house
interpretations:               # optional, but say why: the rules page quotes it under the rule
  - id: shorter-match
    question: "How many points win the match at our table?"
    reading: "1500."
    alternative: "2000, as the federation profile says."
    rules: [match.target]
rules:                         # only the rules you change, nested as the paths below
  match:
    target: 1500               # match.target
  auction:
    coinche: {when: any_moment}   # auction.coinche.when"""


def _intro(schema: dict) -> list[str]:
    return [
        "# Every rule a rule set can set", "",
        "Each rule below is a dotted path under `rules:` in a variant file, the values it accepts, and what "
        "it means. The list is generated from the schema the loader checks every file against "
        "(`coinche_spec/variants/schema.json`), so it is complete: a rule that is not here does not exist, and "
        "a key the schema does not know is refused with a line naming it.", "",
        "## Using it with `extends`", "",
        "A shipped rule set (`federation`, `contree-701` …) gives every rule. A house file names one with "
        "`extends` and writes only what it changes; everything else comes from the parent:", "",
        "```yaml", HOUSE_EXAMPLE, "```", "",
        "A path is written as nested keys: `auction.coinche.when` is `when` inside `coinche` inside "
        "`auction`. Mappings merge key by key, so a house file may set one rule of a group; lists and awards' "
        "`terms` replace the parent's whole, so write them in full. Then:", "",
        "```",
        "coinche-spec variants check our-table.yaml                 # every problem, one line each, with its line",
        "coinche-spec variants diff federation our-table.yaml       # what you changed, rule by rule",
        "coinche-spec docs our-table.yaml --output our-table.md     # your rules page, to print",
        "```", "",
        "Some rules must agree with each other (the packets add up to 8, a surcoinche multiplies more than a "
        "coinche …): see [variants-format.md](variants-format.md) for those checks and the merge rules. What "
        "each value does in play and scoring is in [rules-model.md](rules-model.md); the values the seed "
        "rule sets take, side by side, in [variants.md](variants.md). A rule's name in bold is its title on a "
        "rules page.", "",
        "Contents: " + " · ".join(f"[`{k}`](#{k})" for k in schema["$defs"]["rules"]["properties"])
        + " · [Awards](#awards) · [The rest of the file](#the-rest-of-the-file)", "",
    ]


def _award_example() -> list[str]:
    """An award as a shipped rule set writes it, taken from the file (so it cannot drift from the format)."""
    variants = seed_variants()
    if not variants:
        return []
    v = variants[0]
    failed = {"scoring": {"failed": v.document["rules"]["scoring"]["failed"]}}
    text = yaml.safe_dump(failed, sort_keys=False, allow_unicode=True, default_flow_style=None).rstrip()
    return [f"For example, `{v.id}` writes `scoring.failed` as:", "", "```yaml", text, "```", ""]


def _awards(schema: dict) -> list[str]:
    award = schema["$defs"]["award"]
    out = ["## Awards", "",
           "`scoring.made`, `scoring.failed`, `scoring.coinched_made`, `scoring.coinched_failed` and "
           "`scoring.capot_made` each give an award to the `takers` and one to the `defenders`. "
           + award.get("description", ""), ""]
    out += _fields_table(award)
    out.append("")
    return out + _award_example()


def _rest(schema: dict) -> list[str]:
    out = ["## The rest of the file", "",
           "Besides `rules`, a variant file says what it is and what its rules rest on. `extends` is read "
           "when the file is loaded and is not part of the resolved rule set; a house file inherits its "
           "parent's `sources` and `interpretations` and adds its own.", ""]
    top = {k: v for k, v in schema["properties"].items() if k != "rules"}
    out += _fields_table({"properties": top}, extra=("extends",))
    for name in ("source", "interpretation"):
        out += ["", f"### Each {name}", ""]
        out += _fields_table(schema["$defs"][name])
    return out + [""]


def render_reference(schema: dict | None = None) -> str:
    """The Markdown reference of every rule of the schema (the shipped schema unless one is given)."""
    if schema is None:
        schema = load_schema()
    out = _intro(schema)
    for key, node in schema["$defs"]["rules"]["properties"].items():
        out += _group_section(key, node)
    out += _awards(schema)
    out += _rest(schema)
    out += ["---", "",
            "Generated by `coinche-spec docs --reference` from `coinche_spec/variants/schema.json`. Regenerate "
            "the page after changing the schema."]
    return "\n".join(out).rstrip("\n") + "\n"


__all__ = ["render_reference", "values_words", "load_schema"]
