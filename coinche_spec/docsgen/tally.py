"""The catalogue of rule options in the wild (docs/options-in-the-wild.yaml) and its summary page.

Issue 8 asks that the options real tables and programs play be said exactly by the schema. The
catalogue lists each option once, who plays it, and the settings that say it (``said_by``) or
why none do. This module reads and checks the catalogue, applies a fragment of settings over a
shipped rule set (so a test can prove each ``said_by`` is a rule set the engine plays), and
renders the counts page, ``coinche-spec docs --options-tally FILE``
(docs/options-in-the-wild.md).
"""

from __future__ import annotations

import re
from collections import Counter

from ..conformance.rulepaths import known_paths
from ..yamlstrict import Problem, load_file

__all__ = ["STATUSES", "status_of", "is_played_by", "load_catalogue", "catalogue_problems", "expand", "fragment_paths",
           "fragment_problems", "variant_with", "counts", "render_tally"]

STATUSES = ("exact", "approximate", "not_said", "outside")
_WORDS = {"exact": "exact", "approximate": "approximate", "not_said": "not said", "outside": "outside"}
_DIMENSION = re.compile(r"-|[TAPVMBSG]\d*(?:[-/][TAPVMBSG]?\d+)*")
_TOP = {"default_base", "rule_sets", "entries", "notes"}
_FIELDS = {"id", "dimension", "rule", "played_by", "said_by", "frame", "status", "nearest", "reason",
           "planned", "counted", "defect", "base", "note", "reading", "examples"}


def status_of(entry: dict) -> str:
    """An entry with ``said_by`` is exact; the others say their status."""
    return "exact" if "said_by" in entry else entry.get("status", "")


def load_catalogue(path, display: str | None = None) -> tuple[dict, object]:
    """The catalogue as data and the positions of its values (strict YAML: a slip is refused)."""
    return load_file(path, display)


def expand(fragment: dict) -> dict:
    """A fragment with dotted keys (``auction.coinche.effect``) as the nested mapping a rule set writes."""
    out: dict = {}
    for key, value in fragment.items():
        parts = str(key).split(".")
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ValueError(f"'{key}' goes inside a rule that is not a group")
        leaf = parts[-1]
        value = expand(value) if isinstance(value, dict) else value
        if isinstance(node.get(leaf), dict) and isinstance(value, dict):
            node[leaf] = _merge(node[leaf], value)
        else:
            node[leaf] = value
    return out


def _merge(old: dict, new: dict) -> dict:
    out = dict(old)
    for key, value in new.items():
        out[key] = _merge(out[key], value) if isinstance(out.get(key), dict) and isinstance(value, dict) else value
    return out


def fragment_paths(fragment: dict, prefix: str = "") -> list[str]:
    """Every rule path a fragment sets (a list, a number or null is one value)."""
    out = []
    for key, value in expand(fragment).items() if not prefix else fragment.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out += fragment_paths(value, path + ".")
        else:
            out.append(path)
    return out


def fragment_problems(fragment) -> list[str]:
    """Why a fragment cannot be a rule set's settings: not a mapping, or a path the schema lacks."""
    if not isinstance(fragment, dict):
        return ["is not a mapping of rule paths to values"]
    try:
        paths = fragment_paths(fragment)
    except ValueError as exc:
        return [str(exc)]
    known = known_paths()
    return [f"names '{p}', which is no rule of the schema" for p in paths if p not in known]


def variant_with(fragment: dict, base: str, ident: str = "tally"):
    """The rule set ``base`` with the fragment's settings over it, loaded as every command loads one
    (schema, cross-rule checks); raises VariantError with one located line per problem."""
    from ..variants.loader import load_variant

    document = {"extends": base, "id": ident, "name": f"{base} with the settings of {ident}",
                "status": "house", "sources": [], "interpretations": [], "rules": expand(fragment)}
    return load_variant(document, name=f"<{ident}>")


def _is_fragment_or_none(value) -> bool:
    return value == "none" or isinstance(value, dict)


def _entry_problems(entry, sets: dict, where) -> list[tuple]:
    """(path, message) for each way one entry is malformed."""
    if not isinstance(entry, dict):
        return [((), "an entry is a mapping")]
    out = []
    for key in entry:
        if key not in _FIELDS:
            out.append(((key,), f"unknown field '{key}'"))
    for key in ("id", "dimension", "rule"):
        if not isinstance(entry.get(key), str) or not entry.get(key, "").strip():
            out.append(((key,), f"'{key}' is required (text)"))
    dimension = entry.get("dimension")
    if isinstance(dimension, str) and not _DIMENSION.fullmatch(dimension):
        out.append((("dimension",), f"dimension '{dimension}' is not a RULES-SPACE code (T1, A12, V2/V3, T4-T6) or '-'"))
    played = entry.get("played_by")
    if not isinstance(played, list) or not played:
        out.append((("played_by",), "name at least one rule set that plays it"))
    else:
        for i, who in enumerate(played):
            head = str(who).split()[0].rstrip(":,") if str(who).split() else ""
            if head not in sets:
                out.append((("played_by", i), f"'{who}' does not begin with a rule set of rule_sets "
                                               f"({', '.join(sets)})"))
    status = status_of(entry)
    if "said_by" in entry:
        if "status" in entry:
            out.append((("status",), "an entry with said_by is exact: give no status"))
        said = entry["said_by"]
        if said == {} and not str(entry.get("frame", "")).strip():
            out.append((("said_by",), "an empty said_by needs 'frame': why the engine plays it whatever the settings"))
        if said != {} and "frame" in entry:
            out.append((("frame",), "'frame' goes with an empty said_by only"))
        for message in fragment_problems(said):
            out.append((("said_by",), message))
    elif status not in STATUSES[1:]:
        out.append((("status",), f"give said_by, or a status ({', '.join(STATUSES[1:])})"))
    else:
        if not str(entry.get("reason", "")).strip():
            out.append((("reason",), f"a{'n' if status[0] in 'ao' else ''} {_WORDS[status]} entry says why"))
        if status == "outside":
            if entry.get("counted") is not False:
                out.append((("counted",), "an outside entry is not counted: write counted: false"))
        elif "nearest" not in entry or not _is_fragment_or_none(entry["nearest"]):
            out.append((("nearest",), "give the nearest settings (a mapping) or 'none'"))
        elif isinstance(entry["nearest"], dict):
            for message in fragment_problems(entry["nearest"]):
                out.append((("nearest",), message))
    if "planned" in entry:
        planned = entry["planned"]
        if not (isinstance(planned, dict) and set(planned) == {"branch", "option"}
                and all(isinstance(v, str) and v.strip() for v in planned.values())):
            out.append((("planned",), "planned is {branch: ..., option: ...}"))
        if status == "exact":
            out.append((("planned",), "an exact entry plans nothing"))
    if "examples" in entry:
        examples = entry["examples"]
        if status != "exact":
            out.append((("examples",), "examples show what said_by plays: an exact entry only"))
        if not isinstance(examples, list) or not examples:
            out.append((("examples",), "examples is a list of {case, expect}"))
        else:
            for i, example in enumerate(examples):
                if not (isinstance(example, dict) and set(example) == {"case", "expect"}
                        and isinstance(example["case"], dict) and "kind" in example["case"]
                        and isinstance(example["expect"], dict) and example["expect"]):
                    out.append((("examples", i), "an example is {case: a protocol case, expect: the result "
                                                 "fields worked out by hand}"))
    if "reading" in entry:
        if status != "exact":
            out.append((("reading",), "a reading says how an exact entry's said_by reads a loose source: "
                                      "an exact entry only"))
        elif not isinstance(entry["reading"], str) or not entry["reading"].strip():
            out.append((("reading",), "a reading is a sentence: how the source is read, and the other reading"))
    if "counted" in entry and status != "outside":
        out.append((("counted",), "only an outside entry is left out of the count"))
    if "defect" in entry and entry["defect"] is not True:
        out.append((("defect",), "write defect: true, or leave it out"))
    if "base" in entry and not isinstance(entry["base"], str):
        out.append((("base",), "base is a shipped rule set's id"))
    return out


def catalogue_problems(catalogue, positions=None, filename: str = "options-in-the-wild.yaml") -> list[str]:
    """One located line per malformed part of the catalogue (an empty list: well formed)."""
    problems: list[tuple] = []
    if not isinstance(catalogue, dict):
        return [f"{filename}: (top): the catalogue is a mapping with default_base, rule_sets and entries"]
    for key in catalogue:
        if key not in _TOP:
            problems.append(((key,), f"unknown field '{key}' (the catalogue has {', '.join(sorted(_TOP))})"))
    sets = catalogue.get("rule_sets")
    if not isinstance(sets, dict) or not sets:
        problems.append((("rule_sets",), "name the rule sets entries may cite"))
        sets = {}
    if not isinstance(catalogue.get("default_base"), str):
        problems.append((("default_base",), "give the rule set fragments apply over by default"))
    entries = catalogue.get("entries")
    if not isinstance(entries, list) or not entries:
        problems.append((("entries",), "list the options"))
        entries = []
    seen: dict = {}
    for i, entry in enumerate(entries):
        for path, message in _entry_problems(entry, sets, i):
            problems.append((("entries", i) + path, message))
        ident = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(ident, str):
            if ident in seen:
                problems.append((("entries", i, "id"), f"id '{ident}' is also entry {seen[ident]}'s"))
            seen.setdefault(ident, i)
    out = []
    for path, message in problems:
        line, col = (positions.nearest(path) if positions is not None else None) or (None, None)
        out.append(str(Problem(filename, line, col, path, message)))
    return out


def counts(catalogue: dict) -> dict:
    """How many entries of each status, how many are counted, and the share said exactly."""
    by = Counter(status_of(e) for e in catalogue["entries"])
    counted = by["exact"] + by["approximate"] + by["not_said"]
    planned = sum(1 for e in catalogue["entries"] if "planned" in e)
    examples = sum(1 for e in catalogue["entries"] if e.get("examples"))
    readings = sum(1 for e in catalogue["entries"] if e.get("reading"))
    return {"entries": len(catalogue["entries"]), "counted": counted, "planned": planned, "examples": examples,
            "readings": readings,
            **{s: by[s] for s in STATUSES},
            "percent_exact": round(100 * by["exact"] / counted, 1) if counted else 0.0,
            "percent_if_planned": round(100 * (by["exact"] + planned) / counted, 1) if counted else 0.0}


def _code(text: str) -> str:
    return f"`{text}`"


def _gap_line(entry: dict) -> str:
    marks = [entry["dimension"], _WORDS[status_of(entry)]]
    if entry.get("defect"):
        marks.append("defect?")
    line = f"- **{entry['id']}** ({', '.join(marks)}): {entry['rule']} {entry['reason']}"
    if "planned" in entry:
        line += f" Planned: {entry['planned']['option']} (branch {_code(entry['planned']['branch'])})."
    return line


def _heading(key: str, info: dict) -> str:
    bits = [f"fact sheet {info.get('section')}"]
    if info.get("id"):
        bits.insert(0, _code(info["id"]))
    if info.get("file"):
        bits.append(f"shipped as {_code(info['file'])}")
    return f"### {info.get('name', key)} ({'; '.join(bits)})"


def is_played_by(entry: dict, key: str) -> bool:
    """Whether the rule set `key` of `rule_sets` is among those the entry says play it."""
    return any(str(who).split()[0].rstrip(":,") == key for who in entry["played_by"])


def render_tally(catalogue: dict, source: str = "docs/options-in-the-wild.yaml") -> str:
    """The summary page: the counts, then every option not said exactly, by rule set of the fact sheet."""
    c = counts(catalogue)
    entries = catalogue["entries"]
    out = ["# Rule options in the wild: what the schema says exactly", "",
           f"Generated from [{source.rsplit('/', 1)[-1]}]({source.rsplit('/', 1)[-1]}) by "
           f"`coinche-spec docs --options-tally {source} --output {source[:-5]}.md`; do not edit by hand. "
           "Each option is one entry of the catalogue: a rule that a rule set of the fact sheet "
           "(`../shared/RULESETS-IN-THE-WILD.md`) plays, with the settings that say it exactly "
           "(checked by `tests/test_options_in_the_wild.py`: applied over a shipped rule set they "
           "validate, compile and play) or why none do.", "",
           "| | options |", "|---|---:|",
           f"| in the catalogue | {c['entries']} |",
           f"| outside (a procedure of the table, not counted) | {c['outside']} |",
           f"| **counted** | **{c['counted']}** |",
           f"| said exactly | {c['exact']} |",
           f"| … of which played on a worked example | {c['examples']} |",
           f"| … of which under a reading of a loose source | {c['readings']} |",
           f"| said approximately | {c['approximate']} |",
           f"| not said | {c['not_said']} |",
           f"| **said exactly, of those counted** | **{c['percent_exact']} %** |",
           f"| not said exactly, an option being added for it | {c['planned']} |",
           f"| said exactly once those are added | {c['percent_if_planned']} % |", ""]
    notes = catalogue.get("notes")
    if notes:
        out += ["## How this count differs from the fact sheet's", "", str(notes).strip(), ""]
    out += ["## Not said exactly, by rule set", "",
            "An option several rule sets play is listed under each. Marks: the dimension, the status, "
            "and `defect?` where the fact sheet suspects a program's behaviour is a bug rather than a rule.", ""]
    gaps = [e for e in entries if status_of(e) in ("approximate", "not_said")]
    for key, info in catalogue["rule_sets"].items():
        own = [e for e in gaps if is_played_by(e, key)]
        out += [_heading(key, info), ""]
        out += [_gap_line(e) for e in own] if own else ["Every option it plays is said exactly."]
        out.append("")
    read = [e for e in entries if e.get("reading")]
    out += ["## Said exactly under a reading", "",
            "Counted as said exactly, though the source states the rule loosely: each says how it is read "
            "(and the other reading, where there is one).", ""]
    out += [f"- **{e['id']}** ({e['dimension']}): {e['rule']} {e['reading']}" for e in read] or ["None."]
    out.append("")
    outside = [e for e in entries if status_of(e) == "outside"]
    out += ["## Outside the count", ""]
    out += [f"- **{e['id']}** ({e['dimension']}): {e['rule']} {e['reason']}" for e in outside] or ["None."]
    out.append("")
    return "\n".join(out)
