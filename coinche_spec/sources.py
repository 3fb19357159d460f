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


def is_registered(name: str) -> bool:
    return name in TITLES
