"""A faulty implementation for the fuzzing tests: the reference engine, one point off.

It serves the protocol exactly as ``coinche-spec serve`` does, except that
when a contract fails, the defenders' score is one point too high, in
``score`` and ``deal`` answers alike. Random deals fail contracts often, so
the fuzzer must find it within a few dozen deals.

    python3 tests/impls/off_by_one.py
"""

import sys

from planted import Planted, serve  # first: it puts the checkout on sys.path
from coinche_spec.notation import other_team, team_of


class OffByOne(Planted):
    NAME = "off-by-one"

    def plant(self, case, result):
        if case.get("kind") in ("score", "deal") and result.get("made") is False and result.get("score"):
            contract = case["contract"] if case.get("kind") == "score" else result["contract"]
            defenders = other_team(team_of(contract["declarer"]))
            result["score"][defenders] += 1


if __name__ == "__main__":
    sys.exit(serve(OffByOne()))
