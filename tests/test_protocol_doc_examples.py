"""docs/protocol.md shows real conversations with the reference engine; they must stay true.

Every fenced ```jsonl block of the page is a conversation: each request line
(an object with a "cmd") is sent to a fresh protocol session, and the line
after it, unless it is another request, is the reply the page promises. The
engine's reply must equal it exactly: same fields, same order, same JSON
types. A request the engine answers must have its reply written down, so a
block cannot silently show half a conversation. The page's Python skeleton
for another implementation is run too, so its advice does not rot.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from coinche_spec.protocol.cases import KINDS
from coinche_spec.protocol.server import Session

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "protocol.md"


def _blocks(lang: str) -> list[tuple[int, str]]:
    """(line number of the first line inside the fence, text) of each ```lang block."""
    text = DOC.read_text(encoding="utf-8")
    out = []
    for m in re.finditer(r"^[ \t]*```" + re.escape(lang) + r"[ \t]*\n(.*?)^[ \t]*```", text, re.M | re.S):
        out.append((text.count("\n", 0, m.start(1)) + 1, m.group(1)))
    return out


def conversations() -> list[tuple[int, list[tuple[int, str, object]]]]:
    """Each jsonl block as (line, [(line, raw text, decoded JSON)]), blank lines left out."""
    out = []
    for first, body in _blocks("jsonl"):
        lines = []
        for i, raw in enumerate(body.splitlines()):
            if not raw.strip():
                continue
            try:
                value = json.loads(raw)
            except ValueError as exc:
                raise AssertionError(f"docs/protocol.md:{first + i}: not one JSON value per line: {exc}")
            lines.append((first + i, raw, value))
        out.append((first, lines))
    return out


def is_request(value) -> bool:
    return isinstance(value, dict) and "cmd" in value


def exact(value) -> str:
    """JSON text that tells apart key order and types (true is not 1)."""
    return json.dumps(value, ensure_ascii=False)


CONVERSATIONS = conversations()


def test_the_page_has_examples_and_every_line_is_a_request_or_its_reply():
    assert len(CONVERSATIONS) >= 9, "docs/protocol.md lost its ```jsonl examples"
    for first, lines in CONVERSATIONS:
        assert lines and is_request(lines[0][2]), f"docs/protocol.md:{first}: a block starts with a request"
        for (n, _, value), (_, _, before) in zip(lines[1:], lines):
            if not is_request(value):
                assert is_request(before), f"docs/protocol.md:{n}: two replies in a row"
                assert isinstance(value, dict), f"docs/protocol.md:{n}: a reply is a JSON object"


@pytest.mark.parametrize("first,lines", CONVERSATIONS, ids=[f"line-{first}" for first, _ in CONVERSATIONS])
def test_each_example_gets_exactly_the_reply_the_page_shows(first, lines):
    session = Session()
    for k, (n, raw, request) in enumerate(lines):
        if not is_request(request):
            continue
        written = lines[k + 1][2] if k + 1 < len(lines) and not is_request(lines[k + 1][2]) else None
        reply_line, _ = session.handle_line(raw)
        if reply_line is None:
            assert written is None, f"docs/protocol.md:{n}: the page shows a reply to a request that gets none"
            continue
        assert written is not None, (f"docs/protocol.md:{n}: the engine answers this request, but the page "
                                     f"shows no reply; it answers {reply_line}")
        got = json.loads(reply_line)
        assert exact(got) == exact(written), (f"docs/protocol.md:{lines[k + 1][0]}: the page shows\n"
                                              f"  {exact(written)}\nbut the engine answers\n  {exact(got)}")


def _runs():
    for first, lines in CONVERSATIONS:
        for k, (n, _, value) in enumerate(lines):
            if is_request(value) and value.get("cmd") == "run":
                reply = lines[k + 1][2] if k + 1 < len(lines) else None
                yield value.get("case"), reply


def test_every_case_kind_has_a_worked_example_with_a_result():
    answered = {case.get("kind") for case, reply in _runs()
                if isinstance(case, dict) and isinstance(reply, dict) and "result" in reply}
    assert set(KINDS) <= answered, f"no example with a result for: {sorted(set(KINDS) - answered)}"


def test_the_extensions_and_the_special_results_are_shown():
    cases = [(case, reply.get("result", {})) for case, reply in _runs()
             if isinstance(case, dict) and isinstance(reply, dict)]
    shown = {
        "dealing packets": any(c["kind"] == "dealing" and "packets" in c for c, _ in cases),
        "dealing rejected": any(c["kind"] == "dealing" and "rejected" in r for c, r in cases),
        "melds leader": any(c["kind"] == "melds" and "leader" in c for c, _ in cases),
        "melds invalid": any(c["kind"] == "melds" and r.get("invalid") for c, r in cases),
        "score tricks_won_by_seat": any(c["kind"] == "score" and "tricks_won_by_seat" in c for c, _ in cases),
        "générale call": any(c["kind"] == "auction" and any(x["call"].startswith("generale") for x in c["calls"])
                             for c, _ in cases),
        "générale contract": any((r.get("contract") or {}).get("value") == "generale" for _, r in cases),
        "deal melds and say": any(c["kind"] == "deal" and any("melds" in p for p in c["play"])
                                  and any("say" in p for p in c["play"]) for c, _ in cases),
        "deal complete": any(c["kind"] == "deal" and r.get("score") is not None for c, r in cases),
        "deal legal_next": any(c["kind"] == "deal" and "legal_next" in r for c, r in cases),
        "deal reason": any(c["kind"] == "deal" and "reason" in r for c, r in cases),
        "deal invalid_melds": any(c["kind"] == "deal" and "invalid_melds" in r for c, r in cases),
        "auction reason": any(c["kind"] == "auction" and "reason" in r for c, r in cases),
    }
    missing = [name for name, ok in shown.items() if not ok]
    assert not missing, f"docs/protocol.md shows no example of: {missing}"


# --- the Python skeleton of "Plugging in your own implementation" -------------

def _skeleton() -> str:
    blocks = [body for _, body in _blocks("python") if "for line in sys.stdin" in body]
    assert len(blocks) == 1, "docs/protocol.md should hold one Python skeleton reading sys.stdin"
    lines = blocks[0].splitlines()
    indent = min(len(x) - len(x.lstrip()) for x in lines if x.strip())
    return "\n".join(x[indent:] for x in lines) + "\n"


def test_the_python_skeleton_answers_every_line_and_never_crashes(tmp_path):
    # my_score is the reader's engine; here a stand-in that only echoes what it was given
    program = "def my_score(case):\n    return {'made': case['contract']['value'] == 90}\n\n" + _skeleton()
    path = tmp_path / "my_engine.py"
    path.write_text(program, encoding="utf-8")
    score = {"kind": "score", "contract": {"value": 90, "strain": "H", "declarer": "N", "multiplier": 1},
             "trick_points": {"NS": 79, "EW": 73}, "tricks_won": {"NS": 4, "EW": 4}, "last_trick": "NS",
             "melds": {"NS": 0, "EW": 0}, "belote": None}
    requests = ["", "not json", json.dumps([1, 2]), json.dumps({"cmd": "start", "protocol": 1}),
                json.dumps({"cmd": "configure", "variant": "federation"}),
                json.dumps({"cmd": "configure", "variant": "cafe-701"}),
                json.dumps({"cmd": "run", "seq": 1}),
                json.dumps({"cmd": "run", "seq": 2, "case": {"kind": "perft"}}),
                json.dumps({"cmd": "run", "seq": 3, "case": score}),
                json.dumps({"cmd": "run", "seq": 4, "case": {"kind": "score"}}),
                json.dumps({"cmd": "dance"}), json.dumps({"cmd": "stop"}), json.dumps({"cmd": "start"})]
    done = subprocess.run([sys.executable, str(path)], input="\n".join(requests) + "\n", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    replies = [json.loads(x) for x in done.stdout.splitlines()]
    # one reply per request before stop, none for stop, nothing read after it
    assert len(replies) == 11, done.stdout
    assert [bool(r.get("errored")) for r in replies[:3]] == [True, True, True]  # empty, not JSON, not an object
    assert replies[3]["protocol"] == 1 and replies[3]["kinds"] == ["score"]
    assert replies[4] == {"ok": True}
    assert replies[5]["ok"] is False
    assert replies[6]["seq"] == 1 and replies[6]["errored"] is True           # a run without a case
    assert replies[7] == {"seq": 2, "skipped": True, "reason": "kind 'perft' not played"}
    assert replies[8] == {"seq": 3, "result": {"made": True}}
    assert replies[9]["seq"] == 4 and replies[9]["errored"] is True and "traceback" in replies[9]
    assert replies[10]["errored"] is True and "dance" in replies[10]["message"]


def test_the_pytest_selection_the_page_suggests_is_one_pytest_accepts():
    text = DOC.read_text(encoding="utf-8")
    selections = re.findall(r'-k "([^"]*)"', text)
    assert selections, "docs/protocol.md no longer shows how to select a corpus test"
    for expr in selections:
        assert "@" not in expr, f"pytest's -k cannot parse {expr!r}"
    assert "score-089-on-090 and federation" in selections
    # the pair the page names must exist, so the selection picks something
    corpus = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "conformance").glob("*.yaml"))
    assert "score-089-on-090" in corpus


# --- the in-process example of "Plugging in your own implementation" ----------

def test_the_in_process_example_runs_under_the_runner(tmp_path, monkeypatch, capsys):
    from coinche_spec.cli import main

    blocks = [body for _, body in _blocks("python") if "def run(self, case)" in body]
    assert len(blocks) == 1, "docs/protocol.md should hold one in-process Python example"
    lines = blocks[0].splitlines()
    indent = min(len(x) - len(x.lstrip()) for x in lines if x.strip())
    example = "\n".join(x[indent:] for x in lines) + "\n"
    assert len([x for x in lines if x.strip()]) <= 22, "the example should stay about twenty lines"
    # my_score is the reader's engine; here a stand-in that knows the one case it is sent
    stand_in = ("def my_score(case):\n"
                "    return {'made': False, 'card_points': {'NS': 89, 'EW': 73}, 'score': {'NS': 0, 'EW': 250}}\n\n")
    path = tmp_path / "my_engine.py"
    path.write_text(stand_in + example, encoding="utf-8")
    from test_conformance_fixtures import GOOD_SCORING  # score-089-on-090, as in the shipped corpus
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "scoring.yaml").write_text(GOOD_SCORING, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["conformance", "--corpus-only", "--corpus", "corpus", "--impl", "python:my_engine:Engine"])
    out, _ = capsys.readouterr()
    # the object lists federation only: it passes there, and the four other rule sets are skipped
    assert code == 0, out
    assert out.rstrip().splitlines()[-1] == "1 passed, 0 failed, 4 skipped"
