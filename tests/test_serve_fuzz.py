"""Thousands of mutated protocol lines to ONE `coinche-spec serve` process (issue 11).

Every line must get exactly one reply, each reply one line of strict JSON (no
NaN, no Infinity), and the server must still be alive and right at the end:
no line may kill it, hang it or knock it out of step. The mutations are
seeded, so a failure is reproducible: the message names the seed and the line.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from pathlib import Path

from coinche_spec.conformance.fixtures import load_corpus

ROOT = Path(__file__).resolve().parent.parent
SERVE = [sys.executable, "-c", "import sys; from coinche_spec.cli import main; sys.exit(main(['serve']))"]
SEED = 20261201
LINES = 3000

ODD_VALUES = [None, True, False, 0, -1, 1.5, 10 ** 30, "", "x" * 300, "\u00e9\u2603", [], {}, [[[]]],
              {"kind": "perft"}, "ZS", "10H", "TA", "N", "NS", 2 ** 63, -(2 ** 63)]
ODD_TEXT = ["NaN", "Infinity", "-Infinity", "1e400", "9" * 4400, "[" * 3000, "{" * 70, "]", "}", ",",
            '"', "\\", "\\ud800", "\x00", "\xff", "null", "true", ":", "{}", "[]", "'", "\t"]


def seeds() -> list[str]:
    """Well-formed requests: start, configure by id and a few real cases of every kind."""
    fixtures = load_corpus()
    by_kind: dict = {}
    for f in fixtures:
        by_kind.setdefault(f.kind, []).append(f)
    lines = [json.dumps({"cmd": "start", "protocol": 1}),
             json.dumps({"cmd": "configure", "variant": "federation"}),
             json.dumps({"cmd": "configure", "variant": "cafe-sans-tout-atout"})]
    for kind, items in sorted(by_kind.items()):
        for f in items[:6]:
            if kind == "perft" and f.case["depth"] > 8:
                continue  # mutations keep the hands: deep counts would only slow the run
            lines.append(json.dumps({"cmd": "run", "seq": f.id, "case": f.case}))
    return lines


def mutate_value(rng: random.Random, value):
    """Replace, drop or add one field somewhere in a decoded request."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(list(value))
        choice = rng.random()
        out = dict(value)
        if choice < 0.2:
            del out[key]
        elif choice < 0.3:
            out[rng.choice(["colour", "Kind", "", "seq"])] = rng.choice(ODD_VALUES)
        elif choice < 0.6:
            out[key] = mutate_value(rng, value[key])
        else:
            out[key] = rng.choice(ODD_VALUES)
        return out
    if isinstance(value, list) and value and rng.random() < 0.7:
        out = list(value)
        i = rng.randrange(len(out))
        choice = rng.random()
        if choice < 0.25:
            del out[i]
        elif choice < 0.5:
            out.append(rng.choice(out))
        elif choice < 0.75:
            out[i] = mutate_value(rng, out[i])
        else:
            out[i] = rng.choice(ODD_VALUES)
        return out
    return rng.choice(ODD_VALUES)


def mutate_text(rng: random.Random, line: str) -> str:
    """Break the text itself: cut it, splice in odd tokens, swap or drop characters."""
    chars = list(line)
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        i = rng.randrange(len(chars) + 1)
        if choice < 0.25:
            chars = chars[:i]
        elif choice < 0.6:
            chars[i:i] = list(rng.choice(ODD_TEXT))
        elif choice < 0.8 and chars:
            del chars[min(i, len(chars) - 1)]
        elif chars:
            j = rng.randrange(len(chars))
            chars[min(i, len(chars) - 1)], chars[j] = chars[j], chars[min(i, len(chars) - 1)]
    return "".join(chars)


def is_stop(line: str) -> bool:
    try:
        request = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(request, dict) and request.get("cmd") == "stop"


def mutated_lines(rng: random.Random, count: int) -> list[bytes]:
    base = seeds()
    out: list[bytes] = []
    while len(out) < count:
        if len(out) % 25 == 0:  # a refused configure leaves the session unconfigured: configure again now and then
            out.append(base[1 + (len(out) // 25) % 2].encode() + b"\n")
            continue
        line = rng.choice(base)
        roll = rng.random()
        if roll < 0.6:
            line = json.dumps(mutate_value(rng, json.loads(line)))
        elif roll < 0.9:
            line = mutate_text(rng, line)
        if is_stop(line):
            continue
        data = line.replace("\n", " ").encode("utf-8", "surrogatepass")
        if rng.random() < 0.03:
            data = data[: rng.randrange(len(data) + 1)] + bytes([rng.randrange(128, 256)])  # not UTF-8
        out.append(data.replace(b"\n", b" ") + b"\n")
    return out


def strict(text: bytes):
    def refuse(name):
        raise ValueError(f"{name} in a reply")
    return json.loads(text, parse_constant=refuse)


def test_one_server_answers_every_mutated_line_once():
    rng = random.Random(SEED)
    lines = mutated_lines(rng, LINES)
    check = json.dumps({"cmd": "run", "seq": "last", "case": {
        "kind": "perft", "strain": "H", "leader": "W", "depth": 2,
        "hands": {"N": ["QS", "9C"], "E": ["8H", "7D"], "S": ["KS", "TD"], "W": ["AS", "7C"]}}})
    tail = [b'{"cmd": "configure", "variant": "federation"}\n', check.encode() + b"\n"]
    proc = subprocess.Popen(SERVE, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)

    def feed():
        try:
            for data in lines + tail:
                proc.stdin.write(data)
            proc.stdin.flush()
            proc.stdin.write(b'{"cmd": "stop"}\n')
            proc.stdin.close()
        except BrokenPipeError:
            pass

    errors: list = []
    writer = threading.Thread(target=feed, daemon=True)
    reader = threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True)
    writer.start()
    reader.start()
    try:
        out = proc.stdout.read()
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    writer.join(timeout=10)
    reader.join(timeout=10)
    err = errors[0] if errors else b""
    replies = out.split(b"\n")
    assert replies[-1] == b"", "the last reply is not a whole line"
    replies = replies[:-1]
    assert code == 0, f"serve exited with {code}: {err.decode(errors='replace')[-2000:]}"
    assert b"Traceback" not in err, err.decode(errors="replace")[-2000:]
    assert len(replies) == len(lines) + len(tail), (
        f"seed {SEED}: {len(lines) + len(tail)} lines sent, {len(replies)} replies")
    for i, (sent, reply) in enumerate(zip(lines, replies)):
        try:
            decoded = strict(reply)
        except ValueError as exc:
            raise AssertionError(f"seed {SEED}, line {i}: {sent[:200]!r} got a reply that is not JSON: "
                                 f"{reply[:200]!r} ({exc})") from None
        assert isinstance(decoded, dict), (i, sent[:200], reply[:200])
        assert "traceback" not in decoded, (i, sent[:300], decoded)
    assert strict(replies[-1]) == {"seq": "last", "result": {"count": 3}}  # still right at the end
    kinds = [next((k for k in ("result", "errored", "skipped", "ok", "protocol") if k in strict(r)), "?")
             for r in replies[:len(lines)]]
    counts = {k: kinds.count(k) for k in set(kinds)}
    for kind, least in (("result", 300), ("errored", 1000), ("skipped", 1), ("ok", 100), ("protocol", 1)):
        assert counts.get(kind, 0) >= least, (kind, counts)  # the mutations reach every kind of reply
