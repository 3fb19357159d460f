"""Programs' and published rule sets (variants/implementations/, variants/published/).

colver.yaml is colver 0.11.1's rules as data. The cases below are worked out by hand from
the fact sheet's rows on colver (../shared/RULESETS-IN-THE-WILD.md §3.1 and §3.2), never
from the engine, and played through `coinche-spec serve`'s session (the one the protocol
runs): the rule set must say what colver does, where the schema can say it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from coinche_spec.protocol.server import Session
from coinche_spec.variants import load_variant, registry

ROOT = Path(__file__).resolve().parent.parent
WRITTEN = registry.ids("implementation") + registry.ids("published")


def leaves(node, path=()):
    if isinstance(node, dict) and node:
        for key, value in node.items():
            yield from leaves(value, path + (key,))
    else:
        yield path


def test_colver_is_carried():
    assert "colver" in registry.ids("implementation")


@pytest.mark.parametrize("ident", WRITTEN)
def test_every_rule_has_a_source_or_a_reading(ident):
    doc = load_variant(ident).document
    claimed = [tuple(p.split(".")) for entry in doc["sources"] + doc["interpretations"] for p in entry["rules"]]
    uncovered = [".".join(leaf) for leaf in leaves(doc["rules"]) if not any(leaf[:len(c)] == c for c in claimed)]
    assert uncovered == [], f"{ident}: rules with neither a source nor an interpretation: {uncovered}"


def test_colver_cites_colver_only():
    v = load_variant("colver")
    assert "extends" not in v.written
    assert {s["seed"] for s in v.document["sources"]} == {"colver-0.11.1"}
    assert all(s["section"].startswith("§3.") for s in v.document["sources"])


@pytest.fixture
def colver():
    session = Session()
    assert session.handle({"cmd": "configure", "variant": "colver"})[0] == {"ok": True}
    seq = iter(range(1, 1000))

    def run(case):
        reply, _ = session.handle({"cmd": "run", "seq": next(seq), "case": case})
        assert "result" in reply, reply
        return reply["result"]
    return run


def score(value, multiplier, ns, ew, last, ns_tricks, belote, strain="H"):
    return {"kind": "score", "contract": {"value": value, "strain": strain, "declarer": "N", "multiplier": multiplier},
            "trick_points": {"NS": ns, "EW": ew}, "tricks_won": {"NS": ns_tricks, "EW": 8 - ns_tricks},
            "last_trick": last, "melds": {"NS": 0, "EW": 0}, "belote": belote}


@pytest.mark.parametrize("case, made, points, award", [
    # S4 made, doubled: 100 + 10 = 110 >= 100; takers 162 + 100 x 2 = 362, defence 0
    (score(100, 2, 100, 52, "NS", 5, None), True, {"NS": 110, "EW": 52}, {"NS": 362, "EW": 0}),
    # A14 surcoinche x3 on the bid only: 162 + 100 x 3 = 462
    (score(100, 3, 100, 52, "NS", 5, None), True, {"NS": 110, "EW": 52}, {"NS": 462, "EW": 0}),
    # S1 + B5: 70 + 20 (own belote) = 90 < 100, failed; defence 162 + 100 + 20 (all belote) = 282
    (score(100, 1, 70, 82, "EW", 3, "NS"), False, {"NS": 70, "EW": 92}, {"NS": 0, "EW": 282}),
    # S1 no need to outscore: 70 + 10 = 80 >= 80 although the defence has 82 + 20; takers 80 + 80 = 160,
    # defence 82 + 20 = 102 (S2: its card points + its own belote)
    (score(80, 1, 70, 82, "NS", 4, "EW", "S"), True, {"NS": 80, "EW": 82}, {"NS": 160, "EW": 102}),
    # S5 capot x2 made: 152 + 100 = 252 card points; 252 + 250 x 2 = 752
    (score("capot", 2, 152, 0, "NS", 8, None), True, {"NS": 252, "EW": 0}, {"NS": 752, "EW": 0}),
    # S5 capot failed: 162 + 250 = 412 to the defence
    (score("capot", 1, 140, 12, "NS", 7, None), False, {"NS": 150, "EW": 12}, {"NS": 0, "EW": 412}),
    # S3/S4 quirk: a defence sweep of a doubled 100 still gets 162, not 252: 162 + 100 x 2 = 362
    (score(100, 2, 0, 152, "EW", 0, None), False, {"NS": 0, "EW": 252}, {"NS": 0, "EW": 362}),
])
def test_colver_scores_as_the_fact_sheet_says(colver, case, made, points, award):
    assert colver(case) == {"made": made, "card_points": points, "score": award}


def test_colver_lets_a_player_who_cannot_overtrump_discard(colver):
    # §3.2: opponent cut with 9♥, all own trumps lower, plus side cards: the whole hand (N leads, E cuts)
    case = {"kind": "legal_cards", "strain": "H", "seat": "S", "hand": ["8H", "7H", "AD", "7C"],
            "trick": [{"seat": "N", "card": "KS"}, {"seat": "E", "card": "9H"}]}
    assert sorted(colver(case)["legal"]) == sorted(["8H", "7H", "AD", "7C"])


def auction(*calls):
    return {"kind": "auction", "dealer": "W", "calls": [{"seat": s, "call": c} for s, c in calls]}


def test_colver_auction_after_a_coinche(colver):
    # §3.2: dealer W, so N speaks first; a surcoinche ends the auction at once (100hNSxx)
    done = colver(auction(("N", "100H"), ("E", "coinche"), ("S", "surcoinche")))
    assert (done["accepted"], done["state"], done["contract"]) == (
        3, "contract", {"value": 100, "strain": "H", "declarer": "N", "multiplier": 3})
    # A12: the coincher's partner (W) may only pass
    done = colver(auction(("N", "100H"), ("E", "coinche"), ("S", "pass"), ("W", "110S")))
    assert (done["accepted"], done["state"], done["to_act"]) == (3, "open", "W")
    # A5: a capot may be coinched and surcoinched (250sNSxx, here in hearts)
    done = colver(auction(("N", "capotH"), ("E", "coinche"), ("S", "surcoinche")))
    assert done["contract"] == {"value": "capot", "strain": "H", "declarer": "N", "multiplier": 3}


def test_serve_takes_colver_by_id():
    """The real `coinche-spec serve` process: configured by id, one case played."""
    lines = [{"cmd": "start", "protocol": 1}, {"cmd": "configure", "variant": "colver"},
             {"cmd": "run", "seq": 1, "case": score(100, 3, 100, 52, "NS", 5, None)}, {"cmd": "stop"}]
    done = subprocess.run([sys.executable, "-m", "coinche_spec", "serve"], cwd=ROOT, capture_output=True, text=True,
                          input="".join(json.dumps(line) + "\n" for line in lines), timeout=60)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[1] == {"ok": True}
    assert replies[2] == {"seq": 1, "result": {"made": True, "card_points": {"NS": 110, "EW": 52},
                                               "score": {"NS": 462, "EW": 0}}}


@pytest.mark.parametrize("ident", WRITTEN)
def test_the_corpus_is_green_under_each_written_rule_set(ident, capsys):
    """`conformance --variant ID` against the reference engine: no case fails and no carried
    expectation disagrees with the engine (a corpus defect exits 1), and the rule set has cases
    of its own: hand fixtures (conformance/published-*.yaml, rules-*.yaml) besides carried ones."""
    import re
    from coinche_spec import cli
    code = cli.main(["conformance", "--variant", ident])
    out = capsys.readouterr().out
    assert code == 0, out[-2000:]
    counts = re.search(r"hand (\d+) passed, 0 failed; carried (\d+) passed, 0 failed", out)
    assert counts, out[-2000:]
    hand, carried = map(int, counts.groups())
    assert hand >= 1 and carried >= 50, (hand, carried)
