"""What `coinche-spec fuzz` writes is a corpus the runner plays as it stands.

The fuzz command's promise to a programmer is: the divergences it finds come
back as fixture files, and `conformance --corpus-only --corpus DIR` replays
them — still failing against the implementation that diverged, passing
against the reference engine, and reported as the engine's verdicts (never as
hand-derived ones). This walks that whole path with real processes.
"""

import json
import sys
from pathlib import Path

from coinche_spec.cli import main

ROOT = Path(__file__).resolve().parent.parent
OFF_BY_ONE = f"{sys.executable} {ROOT / 'tests' / 'impls' / 'off_by_one.py'}"
SERVE = f"{sys.executable} -m coinche_spec serve"


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def records(path: Path) -> list:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def cases_of(path: Path) -> list:
    """The per-case records (a report may also hold a header and a footer record)."""
    return [r for r in records(path) if r.get("record", "case") == "case"]


def test_fuzz_output_is_a_corpus_that_fails_the_culprit_and_passes_the_reference(capsys, tmp_path):
    found = tmp_path / "found"
    code, out, err = cli(capsys, "fuzz", "--impl", OFF_BY_ONE, "--variant", "federation", "--deals", "12",
                         "--seed", "1", "--out", str(found), "--json")
    assert code == 1, err                          # off_by_one scores a failed contract one point wrong
    written = sorted(found.glob("*.yaml"))
    assert written and len(written) == len(json.loads(out)["found"])

    # the culprit, replayed from the written files only: every written case fails again
    culprit = tmp_path / "culprit.jsonl"
    code, out, err = cli(capsys, "conformance", "--corpus-only", "--corpus", str(found), "--variant",
                         "federation", "--impl", OFF_BY_ONE, "--report-jsonl", str(culprit))
    assert code == 1, out + err
    played = cases_of(culprit)
    assert len(played) == len(written)
    assert {r["outcome"] for r in played} == {"fail"}
    assert {r["expected_by"] for r in played} == {"engine"}         # labelled the engine's, never hand
    assert f"0 passed, {len(written)} failed" in out

    # the reference engine behind the protocol passes the same files
    reference = tmp_path / "reference.jsonl"
    code, out, err = cli(capsys, "conformance", "--corpus-only", "--corpus", str(found), "--variant",
                         "federation", "--impl", SERVE, "--report-jsonl", str(reference))
    assert code == 0, out + err
    assert {r["outcome"] for r in cases_of(reference)} == {"pass"}
    assert f"{len(written)} passed, 0 failed" in out
    # nothing the fuzz run wrote was touched by the replays
    assert sorted(found.glob("*.yaml")) == written
