"""A faulty implementation for the fuzzing tests: the reference engine, one point off.

It serves the protocol exactly as ``coinche-spec serve`` does, except that
when a contract fails, the defenders' score is one point too high, in
``score`` and ``deal`` answers alike. Random deals fail contracts often, so
the fuzzer must find it within a few dozen deals.

    python3 tests/impls/off_by_one.py
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from coinche_spec.notation import other_team, team_of  # noqa: E402
from coinche_spec.protocol import server  # noqa: E402


class OffByOne(server.Session):
    def _start(self, request):
        reply = super()._start(request)
        if "implementation" in reply:
            reply["implementation"] = {"name": "off-by-one", "version": "0", "language": "Python",
                                       "homepage": None}
        return reply

    def _run(self, request):
        reply = super()._run(request)
        result = reply.get("result")
        case = request.get("case") if isinstance(request.get("case"), dict) else {}
        if result and case.get("kind") in ("score", "deal") and result.get("made") is False and result.get("score"):
            contract = case["contract"] if case.get("kind") == "score" else result["contract"]
            defenders = other_team(team_of(contract["declarer"]))
            result["score"][defenders] += 1
        return reply


if __name__ == "__main__":
    sys.exit(server.serve(session=OffByOne()))
