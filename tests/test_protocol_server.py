"""`coinche-spec serve` as a real subprocess: it answers every line, keeps serving after
every kind of mistake, flushes each reply, and exits 0 on stop or end of input."""

import copy
import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from coinche_spec.variants import load_variant

ROOT = Path(__file__).resolve().parent.parent
SERVE = [sys.executable, "-c", "import sys; from coinche_spec.cli import main; sys.exit(main(['serve']))"]


class Conversation:
    """Talk to the server one line at a time; a reply that is not flushed makes read() time out."""

    def __init__(self):
        self.proc = subprocess.Popen(SERVE, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for raw in self.proc.stdout:
            self.lines.put(raw)
        self.lines.put(None)

    def send_raw(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, obj):
        self.send_raw((json.dumps(obj) + "\n").encode())

    def read(self, timeout=20):
        raw = self.lines.get(timeout=timeout)
        assert raw is not None, "the server closed its output: " + self.proc.stderr.read().decode()
        assert raw.endswith(b"\n")
        return json.loads(raw)

    def ask(self, obj):
        self.send(obj)
        return self.read()

    def finish(self, timeout=20):
        code = self.proc.wait(timeout=timeout)
        rest = self.lines.get(timeout=timeout)
        return code, rest

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def server():
    conv = Conversation()
    yield conv
    conv.kill()


SCORE_CASE = {"kind": "score", "contract": {"value": 90, "strain": "H", "declarer": "N", "multiplier": 1},
              "trick_points": {"NS": 79, "EW": 73}, "tricks_won": {"NS": 4, "EW": 4}, "last_trick": "NS",
              "melds": {"NS": 0, "EW": 0}, "belote": None}


def test_a_whole_conversation_with_mistakes(server):
    hello = server.ask({"cmd": "start", "protocol": 1})
    assert hello["protocol"] == 1
    assert sorted(hello["kinds"]) == sorted(["legal_cards", "auction", "deal", "score", "melds", "match",
                                             "dealing", "perft", "played_match"])   # the last an extension
    assert hello["variants"] is None
    assert hello["implementation"]["language"] == "Python"

    server.send_raw(b'{"cmd": "start"\n')                      # broken JSON
    reply = server.read()
    assert reply["errored"] is True and "not JSON" in reply["message"]

    assert server.ask([1, 2])["errored"] is True               # not an object
    reply = server.ask({"cmd": "dance"})
    assert reply["errored"] is True and "unknown command 'dance'" in reply["message"]

    reply = server.ask({"cmd": "run", "seq": 1, "case": SCORE_CASE})
    assert reply["seq"] == 1 and reply["errored"] is True and "configure" in reply["message"]

    reply = server.ask({"cmd": "configure", "variant": "no-such-rules"})
    assert reply["ok"] is False and "no-such-rules" in reply["message"]
    assert server.ask({"cmd": "configure", "variant": "federation"}) == {"ok": True}

    bad = dict(SCORE_CASE, last_trick="XX")
    reply = server.ask({"cmd": "run", "seq": "two", "case": bad})
    assert reply == {"seq": "two", "errored": True, "message": "case.last_trick: bad team 'XX': expected NS or EW"}

    bad_card = {"kind": "legal_cards", "strain": "H", "seat": "S", "hand": ["1H"], "trick": []}
    reply = server.ask({"cmd": "run", "seq": [3], "case": bad_card})
    assert reply["seq"] == [3] and reply["errored"] is True and reply["message"].startswith("case.hand[0]: bad card")

    # federation, seed 000 §05: 79 + 10 = 89 < 90, the contract fails; 160 + 90 = 250 to EW.
    reply = server.ask({"cmd": "run", "seq": {"n": 4}, "case": SCORE_CASE})
    assert reply == {"seq": {"n": 4}, "result": {"made": False, "card_points": {"NS": 89, "EW": 73},
                                                 "score": {"NS": 0, "EW": 250}}}

    reply = server.ask({"cmd": "run", "seq": 5, "case": {"kind": "bidding_war"}})
    assert reply["seq"] == 5 and reply["skipped"] is True

    server.send_raw(b"\n")                                     # a blank line: an error, not silence
    reply = server.read()
    assert reply == {"errored": True, "message": "the line is empty: expected one JSON request per line"}
    server.send_raw(b"\xff\xfe\n")                             # not UTF-8
    reply = server.read()
    assert reply["errored"] is True and "UTF-8" in reply["message"]

    server.send({"cmd": "stop"})
    code, rest = server.finish()
    assert code == 0
    assert rest is None  # no reply to stop, and nothing after it


def federation_document():
    return copy.deepcopy(load_variant("federation").document)


def test_configure_with_whole_documents(server):
    server.ask({"cmd": "start", "protocol": 1})

    # the générale is played: a rule set that allows it is configured like any other
    doc = federation_document()
    doc["id"] = "house-generale"
    doc["rules"]["auction"]["generale"]["allowed"] = True
    assert server.ask({"cmd": "configure", "variant": doc}) == {"ok": True}
    case = dict(SCORE_CASE, contract={"value": "generale", "strain": "H", "declarer": "N", "multiplier": 1},
                trick_points={"NS": 152, "EW": 0}, tricks_won={"NS": 8, "EW": 0},
                tricks_won_by_seat={"N": 8, "E": 0, "S": 0, "W": 0})
    result = server.ask({"cmd": "run", "seq": 0, "case": case})["result"]
    # N alone took every trick: 152 + 100 (the last trick on a sweep) = 252; 252 + 500 = 752 -> 750
    assert result == {"made": True, "card_points": {"NS": 252, "EW": 0}, "score": {"NS": 750, "EW": 0}}

    doc = federation_document()
    doc["rules"]["auction"]["bids"]["minimum"] = "eighty"
    reply = server.ask({"cmd": "configure", "variant": doc})
    assert reply["ok"] is False and "minimum" in reply["message"] and "\n" not in reply["message"]
    assert "unsupported" not in reply
    # a refused configure leaves nothing configured
    reply = server.ask({"cmd": "run", "seq": 0, "case": SCORE_CASE})
    assert reply["errored"] is True

    doc = federation_document()
    doc["id"] = "house-ninety"
    doc["rules"]["auction"]["bids"]["minimum"] = 90
    assert server.ask({"cmd": "configure", "variant": doc}) == {"ok": True}
    # dealer N, anticlockwise: W speaks first; 80 is below this house's minimum of 90.
    case = {"kind": "auction", "dealer": "N", "calls": [{"seat": "W", "call": "80H"}]}
    result = server.ask({"cmd": "run", "seq": 1, "case": case})["result"]
    assert (result["accepted"], result["state"], result["to_act"]) == (0, "open", "W")

    server.send({"cmd": "stop"})
    assert server.finish()[0] == 0


def test_an_engine_refusal_is_errored_with_its_reason_and_serving_goes_on(server):
    server.ask({"cmd": "start", "protocol": 1})
    doc = federation_document()
    doc["id"] = "house-first-declared"
    doc["rules"]["melds"]["compare"]["equal"] = "first_declared"
    assert server.ask({"cmd": "configure", "variant": doc}) == {"ok": True}
    # Two runs of three to the ace, neither in trump (diamonds): an unbroken tie. With
    # first_declared the engine needs to know who led, and this case does not say.
    case = {"kind": "melds", "strain": "D",
            "declared": {"N": [["AS", "KS", "QS"]], "E": [["AH", "KH", "QH"]], "S": [], "W": []}}
    reply = server.ask({"cmd": "run", "seq": 7, "case": case})
    assert reply["seq"] == 7 and reply["errored"] is True
    assert "first_declared" in reply["message"] and "\n" not in reply["message"]
    assert "traceback" not in reply  # a refusal with a reason, not a failure of the engine
    # Anticlockwise from leader E: E, N, W, S; E declared first, so EW score their 20.
    reply = server.ask({"cmd": "run", "seq": 8, "case": dict(case, leader="E")})
    assert reply["result"]["winner"] == "EW" and reply["result"]["points"] == {"NS": 0, "EW": 20}
    server.send({"cmd": "stop"})
    assert server.finish()[0] == 0


def test_end_of_input_ends_the_server_cleanly(server):
    server.ask({"cmd": "start", "protocol": 1})
    server.proc.stdin.close()
    code, rest = server.finish()
    assert code == 0 and rest is None


def test_another_protocol_version_is_refused(server):
    reply = server.ask({"cmd": "start", "protocol": 2})
    assert reply["errored"] is True and "protocol 1" in reply["message"]
    assert server.ask({"cmd": "start", "protocol": 1})["protocol"] == 1


def test_an_answer_that_is_not_json_is_errored_not_a_crash(monkeypatch):
    """In-process: an engine returning something JSON cannot carry is reported like any failure."""
    from coinche_spec.protocol import cases
    from coinche_spec.protocol.server import Session

    monkeypatch.setitem(cases._RUN, "perft", lambda rules, case: {"count": {1, 2}})
    session = Session()
    session.handle({"cmd": "configure", "variant": "federation"})
    case = {"kind": "perft", "strain": "H", "leader": "W", "depth": 4,
            "hands": {"N": ["7S"], "E": ["9S"], "S": ["JS"], "W": ["KS"]}}
    reply, stop = session.handle_line(json.dumps({"cmd": "run", "seq": 1, "case": case}))
    reply = json.loads(reply)
    assert reply["seq"] == 1 and reply["errored"] is True and "not JSON serializable" in reply["message"]
    assert "Traceback" in reply["traceback"]  # a failure of the engine: the traceback helps mend it
    assert not stop


def test_a_rule_the_engine_does_not_play_is_skipped(monkeypatch):
    from coinche_spec.engine.errors import Unsupported
    from coinche_spec.protocol import cases
    from coinche_spec.protocol.server import Session

    def refuse(rules, case):
        raise Unsupported("this case needs a rule the engine does not play")

    monkeypatch.setitem(cases._RUN, "match", refuse)
    session = Session()
    session.handle({"cmd": "configure", "variant": "federation"})
    case = {"kind": "match", "deals": [{"score": {"NS": 0, "EW": 0}, "takers": "NS", "made": True,
                                        "belote": None, "tricks_won": {"NS": 8, "EW": 0}}]}
    reply, _ = session.handle({"cmd": "run", "seq": 2, "case": case})
    assert reply == {"seq": 2, "skipped": True, "reason": "this case needs a rule the engine does not play"}


def test_configure_by_house_id_like_every_other_command():
    from coinche_spec.protocol.server import Session

    session = Session()
    assert session.handle({"cmd": "configure", "variant": "federation-1500-x3"})[0] == {"ok": True}
    # federation-1500-x3 surcoinches x3. N's 100 hearts surcoinched: NS 100 + 10 (last trick) = 110
    # >= 100 and > EW's 52: made; takers (160 + 0 melds + 100) x 3 = 780, defenders nothing.
    case = dict(SCORE_CASE, contract={"value": 100, "strain": "H", "declarer": "N", "multiplier": 3},
                trick_points={"NS": 100, "EW": 52}, tricks_won={"NS": 5, "EW": 3})
    reply, _ = session.handle({"cmd": "run", "seq": 1, "case": case})
    assert reply == {"seq": 1, "result": {"made": True, "card_points": {"NS": 110, "EW": 52},
                                          "score": {"NS": 780, "EW": 0}}}
    # the same case under federation, where a surcoinche is x4: refused, one line, no traceback
    assert session.handle({"cmd": "configure", "variant": "federation"})[0] == {"ok": True}
    reply, _ = session.handle({"cmd": "run", "seq": 2, "case": case})
    assert reply == {"seq": 2, "errored": True, "message": "case.contract.multiplier: 3 is not a multiplier of "
                                                         "this rule set (1 not doubled, 2 coinched, 4 surcoinched)"}
    reply, _ = session.handle({"cmd": "configure", "variant": "federation-1500"})
    assert reply["ok"] is False
    assert reply["message"].startswith("variant rejected: <configure>: id: unknown variant id 'federation-1500' "
                                       "(did you mean 'federation-1500-x3'?); known ids: seed: cafe-1000, cafe-701, "
                                       "cafe-sans-tout-atout, contree-701, federation; ")
    assert "house: contree-701-rounded, federation-1500-x3" in reply["message"]
