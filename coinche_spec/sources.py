"""The documents rule sets quote, by a title a reader recognises.

A rule file cites its source by the document's file name (``seed:
000_5962d0f7a9ecef0f.txt``), which is exact but means nothing at a card
table; a page prints the title registered here instead. Published rule sets
(issue 8) cite the source ids of RULESETS-IN-THE-WILD.md, registered the same
way. An unregistered name (a house file citing its own club sheet) is shown
as written: it is the user's own words.
"""

from __future__ import annotations

TITLES = {
    "000_5962d0f7a9ecef0f.txt": "Federation rules profile (seed 000)",
    "001_f4f46332b31d2a8f.txt": "Contrée rules, plain version (seed 001)",
    "002_7737e2828fe6deb8.txt": "How to Play Belote Coinchée, café rules (seed 002)",
    "003_1fdf74ec5be1fd42.txt": "Card Play Belote Coinchée, café rules (seed 003)",
    "004_a379c405f2647638.txt": "Atout! How to play Coinche, café rules (seed 004)",
    "ffb-belote-contree": "FFB « Règles de la Belote Contrée »",
    "colver-0.11.1": "colver 0.11.1, its built-in rule set",
    "colver-rules-survey": "colver rules survey (594 sources)",
    "belote-cli-4.9.6": "belote-cli 4.9.6 (PyPI), its belote package's code",
    "peer-oliboy50-coinche": "Oliboy50/coinche @7eb1906 (TypeScript)",
    "peer-drasill-bga-coinche": "drasill/bga-coinche @0e1f3a3 (Board Game Arena)",
    "peer-coincoinche-coincoinche": "coincoinche/coincoinche @8b209a3 (Java)",
    "peer-gyscos-libcoinche": "gyscos/libcoinche @9524abe (Rust)",
    "peer-ten0-coinche-server-rs": "Ten0/coinche-server-rs @f99c998 (Rust)",
    "peer-sephizack-coinche-cli": "sephizack/coinche-cli @8a71a29 (Python)",
    "peer-slim0-contree": "slim0/contree @76a95f5 (Python)",
    "peer-alounv-coinche-back": "Alounv/coinche-back @85782b9 (Go)",
    "peer-antoninkffr-contree-kffr": "AntoninKFFR/Contree-KFFR @cb8e072 (TypeScript)",
    "peer-koubs934-coinche-game": "Koubs934/coinche-game @0568d67 (Node.js)",
}


def source_title(name: str) -> str:
    """The title of a cited document; an unregistered name as written."""
    return TITLES.get(name, name)


# --- the three kinds of source a rule file may cite ------------------------------------
#
# A document (a rule book, a seed): ``seed`` (a registered name) or ``document`` (a title),
# ``section``, ``quote``. A program: ``repository``, ``path``, ``commit`` or ``version`` (and ``ran``
# when the rule was confirmed by running the program, not only read from its code). A house
# decision: ``decided_by``, ``decided_on``. The loader checks each entry has one kind's fields
# (variants/semantics.py); these functions say each kind readably for the pages and diffs.

KIND_FIELDS = {
    "document": ("seed", "document", "section"),
    "program": ("repository", "path", "commit", "version", "ran"),
    "house": ("decided_by", "decided_on"),
}
KIND_NEEDS = {  # for each kind: groups of fields, one of each group required
    "document": (("seed", "document"), ("section",), ("quote",)),
    "program": (("repository",), ("path",), ("commit", "version")),
    "house": (("decided_by",), ("decided_on",)),
}


def source_kinds(entry: dict) -> list[str]:
    """The kinds whose fields the entry uses (a well-formed entry uses exactly one)."""
    return [kind for kind, names in KIND_FIELDS.items() if any(n in entry for n in names)]


def source_kind(entry: dict) -> str:
    kinds = source_kinds(entry)
    return kinds[0] if kinds else "document"


def source_origin(entry: dict) -> str:
    """Who or what a source is, to group the sources of a page: a document's title, a program, a house."""
    kind = source_kind(entry)
    if kind == "program":
        version = f" {entry['version']}" if entry.get("version") else ""
        return f"the program {entry.get('repository', '?')}{version}"
    if kind == "house":
        return f"a house decision of {entry.get('decided_by', '?')}"
    return source_title(str(entry.get("seed") or entry.get("document") or "?"))


def source_part(entry: dict) -> str:
    """Where in its source an entry is: a section, a file at a commit or version, a date."""
    kind = source_kind(entry)
    if kind == "program":
        at = f"commit {entry['commit'][:12]}" if entry.get("commit") else f"version {entry.get('version', '?')}"
        ran = f", confirmed by running it: {entry['ran']}" if entry.get("ran") else ""
        return f"`{entry.get('path', '?')}` at {at}{ran}"
    if kind == "house":
        return f"decided on {entry.get('decided_on', '?')}"
    return str(entry.get("section", ""))


def source_where(entry: dict) -> str:
    """The source of an entry in one phrase, as a page prints it."""
    part = source_part(entry)
    return f"{source_origin(entry)}, {part}" if part else source_origin(entry)


def is_registered(name: str) -> bool:
    return name in TITLES
