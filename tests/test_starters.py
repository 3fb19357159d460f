"""The starter drivers in docs/starters/ pass the corpus they claim, and the corpus catches a bug in them.

A starter is what a programmer copies first, so it must be right: each is run
through the real runner, as a separate program, under the rule set it plays.
The planted-bug run shows the check has teeth: the same driver with the last
trick worth nothing must fail score cases.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support import case_records

ROOT = Path(__file__).resolve().parent.parent
STARTER = ROOT / "docs" / "starters" / "contree-701.mjs"


def _node() -> str:
    node = shutil.which("node")
    if node is None:  # pragma: no cover - depends on the machine
        if os.environ.get("CI") == "true":
            pytest.fail("node is not installed: .ci/run installs it (Debian's nodejs)")
        pytest.skip("node is not installed (Debian's nodejs); CI runs these tests")
    return node


def _conformance(driver: Path, tmp_path: Path) -> tuple[int, list, dict]:
    """(exit status, case records, footer counts) of a run of ``driver`` under contree-701."""
    report = tmp_path / "run.jsonl"
    env = dict(os.environ, COINCHE_SPEC_HOME=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "coinche_spec", "conformance", "--variant", "contree-701",
                           "--impl", f'"{_node()}" "{driver}"', "--report-jsonl", str(report)],
                          capture_output=True, text=True, env=env, timeout=600)
    records = case_records(report)
    footer = json.loads(report.read_text(encoding="utf-8").splitlines()[-1])
    assert footer["record"] == "footer", proc.stderr
    return proc.returncode, records, footer["counts"]


def test_the_javascript_starter_passes_what_it_claims(tmp_path):
    status, records, counts = _conformance(STARTER, tmp_path)
    played = {r["kind"] for r in records if r["outcome"] not in ("skip", "n/a")}
    wrong = [(r["fixture"], r["outcome"], r["diff"], r["message"]) for r in records
             if r["outcome"] not in ("pass", "skip", "n/a")]
    assert wrong == [] and status == 0
    assert played == {"dealing", "legal_cards", "score"}
    # most of what it plays is judged by hand-derived (or carried) expectations, not the engine's
    by_hand = [r for r in records if r["outcome"] == "pass" and r["expected_by"] in ("hand", "carried")]
    assert len(by_hand) >= 100, counts


def test_a_bug_in_the_starter_fails_score_cases(tmp_path):
    text = STARTER.read_text(encoding="utf-8")
    planted = text.replace("cardPoints[c.last_trick] += 10;", "cardPoints[c.last_trick] += 0;")
    assert planted != text, "the line the planted bug changes is gone from the starter"
    driver = tmp_path / "buggy.mjs"
    driver.write_text(planted, encoding="utf-8")
    status, records, _ = _conformance(driver, tmp_path)
    failed = {r["fixture"] for r in records if r["outcome"] == "fail"}
    assert status == 1
    assert "score-089-on-090" in failed, failed   # the seed's own headline case
    assert {r["kind"] for r in records if r["outcome"] == "fail"} == {"score"}
