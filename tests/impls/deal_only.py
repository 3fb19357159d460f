"""Implementations that score only inside whole deals, as most real engines do: the reference engine
answering ``legal_cards``, ``auction``, ``deal`` and ``perft`` (and the ``played_match`` extension: a
match as its whole deals, which an engine with a game loop can play), and skipping every other kind.

``DealOnly`` plays the reference engine's rules exactly; ``MadeOneShort`` has a
scoring bug planted inside its deals: takers one card point short of a numeric
bid (89 on a 90) are told they made it and score as if they had. The runner
judges both on the score fixtures through their realised deals
(tests/test_realised.py).

    coinche-spec conformance --impl python:tests/impls/deal_only.py:DealOnly --variant federation
    python3 tests/impls/deal_only.py            # the same, as a program on standard input and output
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from coinche_spec.notation import other_team, team_of  # noqa: E402
from coinche_spec.protocol import server  # noqa: E402

KINDS = ["legal_cards", "auction", "deal", "perft", "played_match"]


class DealOnlySession(server.Session):
    """The reference engine's session, claiming and answering only the kinds a game loop can."""

    name = "deal-only"

    def _start(self, request):
        reply = super()._start(request)
        if "implementation" in reply:
            reply["implementation"] = {"name": self.name, "version": "0", "language": "Python", "homepage": None}
            reply["kinds"] = list(KINDS)
        return reply

    def _run(self, request):
        case = request.get("case") if isinstance(request.get("case"), dict) else {}
        if case.get("kind") not in KINDS:
            return {"seq": request.get("seq"), "skipped": True, "reason": f"{case.get('kind')} is not answered"}
        reply = super()._run(request)
        result = reply.get("result")
        if result and case.get("kind") == "deal" and result.get("made") is not None:
            self.alter(result)
        return reply

    def alter(self, result: dict) -> None:
        """Where a planted bug changes a finished deal's result (none here)."""


class MadeOneShortSession(DealOnlySession):
    """Counts a numeric contract missed by exactly one card point as made (89 on a 90 bid)."""

    name = "deal-only-made-one-short"

    def alter(self, result: dict) -> None:
        contract = result["contract"]
        takers = team_of(contract["declarer"])
        if (not result["made"] and isinstance(contract["value"], int)
                and result["card_points"][takers] == contract["value"] - 1):
            result["made"] = True
            result["score"] = {takers: result["card_points"][takers] + contract["value"],
                               other_team(takers): result["card_points"][other_team(takers)]}


class _InProcess:
    """``--impl python:tests/impls/deal_only.py:DealOnly``: the session as an object."""

    session_class = DealOnlySession

    def __init__(self):
        self.session = self.session_class()

    def _ask(self, request):
        reply, _ = self.session.handle(request)
        return reply

    def start(self):
        return self._ask({"cmd": "start", "protocol": 1})

    def configure(self, variant):
        return self._ask({"cmd": "configure", "variant": variant})

    def run(self, case):
        reply = self._ask({"cmd": "run", "seq": 0, "case": case})
        reply.pop("seq", None)
        return reply


class DealOnly(_InProcess):
    session_class = DealOnlySession


class MadeOneShort(_InProcess):
    session_class = MadeOneShortSession


if __name__ == "__main__":
    bug = "--made-one-short" in sys.argv[1:]
    sys.exit(server.serve(session=MadeOneShortSession() if bug else DealOnlySession()))
