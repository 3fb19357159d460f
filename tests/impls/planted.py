"""The reference engine's protocol session under another name: the base of the planted-bug programs.

A planted-bug program subclasses :class:`Planted`, names itself (``NAME``) and changes the results
it means to get wrong in ``plant(case, result)``; everything else is ``coinche-spec serve``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from coinche_spec.protocol import server  # noqa: E402


class Planted(server.Session):
    NAME = "planted"

    def _start(self, request):
        reply = super()._start(request)
        if "implementation" in reply:
            reply["implementation"] = {"name": self.NAME, "version": "0", "language": "Python", "homepage": None}
        return reply

    def _run(self, request):
        reply = super()._run(request)
        case = request.get("case")
        if reply.get("result") and isinstance(case, dict):
            self.plant(case, reply["result"])
        return reply

    def plant(self, case: dict, result: dict) -> None:
        """Change ``result`` (the engine's answer to ``case``) in place: the planted bug."""


def serve(session: Planted) -> int:
    return server.serve(session=session)
