"""Two planted bugs, for the reports' grouping by what differed: the reference engine, except that

- a capot made scores the takers 10 points too many (``score`` and ``deal`` answers alike);
- belote held by the defenders is left out of their score (20 points too few).

The two bugs break two different fields (the takers' score, the defenders' score), so the report
must show two groups, each naming its own rule.

    python3 tests/impls/capot_and_belote.py
"""

import sys

from planted import Planted, serve  # first: it puts the checkout on sys.path
from coinche_spec.notation import other_team, team_of


class CapotAndBelote(Planted):
    NAME = "capot-and-belote"

    def plant(self, case, result):
        if case.get("kind") not in ("score", "deal") or not isinstance(result.get("score"), dict):
            return
        contract = case.get("contract") if case.get("kind") == "score" else result.get("contract")
        if not isinstance(contract, dict):
            return
        takers = team_of(contract["declarer"])
        defenders = other_team(takers)
        if contract.get("value") == "capot" and result.get("made"):
            result["score"][takers] += 10
        belote = case.get("belote") if case.get("kind") == "score" else result.get("belote")
        if belote == defenders and result["score"][defenders] >= 20:
            result["score"][defenders] -= 20


if __name__ == "__main__":
    sys.exit(serve(CapotAndBelote()))
