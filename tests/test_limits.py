"""Regression tests for the limits of issue 11 that the catalogue's one-line rows do not show:
time-outs for in-process cases, the loader's linear merge, bytes kept as written, and one
`serve` process outliving the worst lines."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from coinche_spec.cli import main

from test_bad_inputs import fixture, house, run_cli, write_corpus

ROOT = Path(__file__).resolve().parent.parent
SERVE = [sys.executable, "-c", "import sys; from coinche_spec.cli import main; sys.exit(main(['serve']))"]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_runaway_in_process_case_ends_as_a_time_out_and_the_run_goes_on(workdir, capsys, monkeypatch):
    """The default run plays our engine in-process: a case that never ends must not hang it."""
    from coinche_spec.protocol import cases

    release = threading.Event()
    real = cases._RUN["perft"]

    def perft_that_hangs_on_depth_3(rules, case):
        if case["depth"] == 3:
            release.wait(60)  # "never" ends, as far as the run is concerned
        return real(rules, case)

    monkeypatch.setitem(cases._RUN, "perft", perft_that_hangs_on_depth_3)
    hanging = fixture().split("fixtures:\n", 1)[1].replace("catalogue-one-card-each", "catalogue-hangs") \
        .replace("depth: 4", "depth: 3")
    write_corpus(workdir, fixture() + hanging)
    try:
        code, out = run_cli(capsys, "conformance", "--corpus-only", "--corpus", "corpus", "--timeout", "0.5")
    finally:
        release.set()
    assert code == 1, out
    lines = out.strip().splitlines()
    assert lines[-2:] == ["0 errors, 5 timeouts, 0 n/a", "5 passed, 0 failed"], out
    assert "TIMEOUT catalogue-hangs under federation" in out and "no reply within 0.5 s" in out


def test_a_fixture_asking_for_a_perft_that_would_never_end_is_refused(workdir, capsys):
    cards = [r + s for s in "SHDC" for r in "789TJQKA"]
    text = fixture()
    for i, seat in enumerate("NESW"):
        one = {"N": "7S", "E": "8S", "S": "9S", "W": "TS"}[seat]
        text = text.replace(f"        {seat}: [{one}]", f"        {seat}: [{', '.join(cards[i * 8:(i + 1) * 8])}]")
    write_corpus(workdir, text.replace("depth: 4", "depth: 32"))
    code, out = run_cli(capsys, "conformance", "--corpus-only", "--corpus", "corpus")
    assert code == 2, out
    assert ("corpus/bad.yaml:17:14: fixtures[0].case.depth: 32 cards from 8 each may be more than 10,000,000 "
            "sequences, the most a perft may ask for (docs/limits.md)") in out


def _merge_work(keys: int, monkeypatch) -> int:
    """Paths the merge visits for a child with ``keys`` unknown rules (counted, not timed)."""
    from coinche_spec.variants import loader

    visited = [0]
    real_put = loader._Origins.put

    def counting_put(self, path, entry, written):
        visited[0] += 1
        return real_put(self, path, entry, written)

    real_subtree = loader._Origins.subtree

    def counting_subtree(self, prefix):
        out = real_subtree(self, prefix)
        visited[0] += len(out)
        return out

    monkeypatch.setattr(loader._Origins, "put", counting_put)
    monkeypatch.setattr(loader._Origins, "subtree", counting_subtree)
    text = house(tail=[f"  unknown_{i}: {i}" for i in range(keys)])
    from coinche_spec import yamlstrict
    data, positions = yamlstrict.load(text, "big.yaml")
    root = loader._Layer(data, positions, "big.yaml", None)
    loader._resolve_layers(root, Path.cwd())
    return visited[0]


def test_the_merge_is_linear_in_the_size_of_the_file(monkeypatch):
    """Issue 11: 20,000 unknown keys took 57 s, every merged key scanning every recorded position.
    Twice the keys must now cost about twice the work, not four times."""
    small, large = _merge_work(1000, monkeypatch), _merge_work(2000, monkeypatch)
    assert large < 2.2 * small, (small, large)
    assert large - small < 10 * 1000, (small, large)  # a few visits per key, whatever the file's size


def test_variants_show_keeps_the_file_byte_for_byte(workdir, capsysbinary):
    data = house().replace("\n", "\r\n").encode("utf-8")
    (workdir / "crlf.yaml").write_bytes(data)
    assert main(["variants", "check", "crlf.yaml"]) == 0
    capsysbinary.readouterr()
    assert main(["variants", "show", "crlf.yaml"]) == 0
    assert capsysbinary.readouterr().out == data


def test_serve_survives_the_lines_that_used_to_kill_it():
    """Each of these killed `serve` or made its reply something other than JSON."""
    worst = [b"[" * 100000, b'{"cmd": "configure", "variant": ' + b'{"a":' * 5000 + b"1" + b"}" * 5000 + b"}",
             b'{"cmd": "start", "protocol": NaN}', b'{"cmd": "start", "protocol": 1e400}',
             b'{"cmd": "start", "protocol": ' + b"9" * 4301 + b"}", b"x" * (9 * 1024 * 1024)]
    check = b'{"cmd": "start", "protocol": 1}'
    proc = subprocess.run(SERVE, cwd=ROOT, input=b"\n".join(worst + [check]) + b"\n", capture_output=True,
                          timeout=120)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr[-2000:]
    replies = proc.stdout.decode().splitlines()
    assert len(replies) == len(worst) + 1
    for reply in replies[:-1]:
        decoded = json.loads(reply, parse_constant=lambda name: pytest.fail(f"{name} in a reply"))
        assert decoded["errored"] is True
    assert [json.loads(r)["message"].split(":")[0] for r in replies[:-1]] == [
        "the line nests arrays or objects more than 64 levels deep",
        "the line nests arrays or objects more than 64 levels deep",
        "NaN is not JSON", "the number 1e400 is too large for a JSON number (it reads as infinity)",
        "the number 999999999999... has 4,301 characters; a number has at most 100 here",
        "the line is longer than 8,388,608 bytes, the limit"]
    assert json.loads(replies[-1])["protocol"] == 1


def test_a_file_of_countless_schema_errors_is_refused_with_the_first_ones(workdir, capsys):
    """Issue 19: 200,000 bad entries kept 200,000 errors whole (3.3 GB). The first 100 are listed, the
    rest counted up to a bound, lazily."""
    from coinche_spec.yamlstrict import MAX_SCHEMA_ERRORS, MAX_SCHEMA_ERRORS_COUNTED
    entries = MAX_SCHEMA_ERRORS + MAX_SCHEMA_ERRORS_COUNTED + 50
    (workdir / "big.yaml").write_text(house(l7="interpretations:", tail=[]).replace(
        "rules:\n", "  - []\n" * entries + "rules:\n", 1))
    code, out = run_cli(capsys, "variants", "check", "big.yaml")
    lines = out.strip().splitlines()
    assert code == 1 and len(lines) == MAX_SCHEMA_ERRORS + 1, lines[-3:]
    assert lines[0].startswith("big.yaml:8:5: interpretations[0]: expected a mapping")
    assert lines[-1] == (f"big.yaml: (top): and more than {MAX_SCHEMA_ERRORS_COUNTED:,} more schema problems, "
                         f"not listed (the first {MAX_SCHEMA_ERRORS} are)")


@pytest.mark.parametrize("argv,message", [
    (["compare", "federation", "cafe-701", "--deals", "1000000000000"],
     "coinche-spec: compare: --deals 1,000,000,000,000: at most 1,000,000 deals (docs/limits.md)"),
    (["site", "out", "--deals", "1000000000000"],
     "coinche-spec: site: --deals 1,000,000,000,000: at most 1,000,000 deals (docs/limits.md)"),
    (["deal", "--variant", "federation", "--batch", "1000000000000"],
     "coinche-spec: --batch 1,000,000,000,000: at most 100,000,000 deals (docs/limits.md)"),
])
def test_an_absurd_count_of_deals_is_refused_before_anything_is_built(workdir, capsys, argv, message):
    code, out = run_cli(capsys, *argv)
    assert code == 2 and out.strip() == message
