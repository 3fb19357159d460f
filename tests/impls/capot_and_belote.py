"""Two planted bugs, for the reports' grouping by what differed: the reference engine, except that

- a capot made scores the takers 10 points too many (``score`` and ``deal`` answers alike);
- belote held by the defenders is left out of their score (20 points too few).

The two bugs break two different fields (the takers' score, the defenders' score), so the report
must show two groups, each naming its own rule.

    python3 tests/impls/capot_and_belote.py
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from coinche_spec.notation import other_team, team_of  # noqa: E402
from coinche_spec.protocol import server  # noqa: E402


class CapotAndBelote(server.Session):
    def _start(self, request):
        reply = super()._start(request)
        if "implementation" in reply:
            reply["implementation"] = {"name": "capot-and-belote", "version": "0", "language": "Python",
                                       "homepage": None}
        return reply

    def _run(self, request):
        reply = super()._run(request)
        result = reply.get("result")
        case = request.get("case") if isinstance(request.get("case"), dict) else {}
        if not result or case.get("kind") not in ("score", "deal") or not isinstance(result.get("score"), dict):
            return reply
        contract = case.get("contract") if case.get("kind") == "score" else result.get("contract")
        if not isinstance(contract, dict):
            return reply
        takers = team_of(contract["declarer"])
        defenders = other_team(takers)
        if contract.get("value") == "capot" and result.get("made"):
            result["score"][takers] += 10
        belote = case.get("belote") if case.get("kind") == "score" else result.get("belote")
        if belote == defenders and result["score"][defenders] >= 20:
            result["score"][defenders] -= 20
        return reply


if __name__ == "__main__":
    sys.exit(server.serve(session=CapotAndBelote()))
