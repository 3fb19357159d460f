"""The protocol's messages as JSON Schema, and what the runner adds to a case before sending it.

``protocol.schema.json`` (shipped beside this module) describes every
message: the requests (``request-start`` ...), the replies (``reply-start``,
``reply-configure``, ``reply-run``) and, for each case kind, its case
(``case-deal``) and its result (``result-deal``). Replies and results may
carry fields the schema does not name: the protocol lets an implementation
add its own.

``Checked`` wraps an implementation for ``--check-protocol``: every reply it
gives is validated, and one that breaks the schema raises an
``ImplementationError`` of kind ``protocol``, whose message gives the path in
the reply and the schema's words; the runner counts that case as failed.

``outgoing`` fills in the protocol's optional fields the runner sends beside
the required ones: the ``doubling`` of a contract, worked out from its
multiplier under the rule set being played (a multiplier alone cannot tell a
x3 engine whether a contract is surcoinched).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..notation import doubling_for
from .cases import KINDS, format_path
from .client import ImplementationError

SCHEMA_PATH = Path(__file__).with_name("protocol.schema.json")


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def validator(name: str):
    """A validator of the message ``name`` (a key of the schema's $defs, such as ``result-deal``)."""
    import jsonschema
    whole = schema()
    if name not in whole["$defs"]:
        raise KeyError(f"the protocol schema has no message {name!r}")
    return jsonschema.Draft202012Validator({"$defs": whole["$defs"], "$ref": f"#/$defs/{name}"})


def problems(name: str, message: Any, root: tuple = ()) -> list[str]:
    """Each way ``message`` breaks the schema of ``name``, as ``path: what the schema says``."""
    out = []
    for error in sorted(validator(name).iter_errors(message), key=lambda e: list(map(str, e.absolute_path))):
        where = format_path(root + tuple(error.absolute_path)) if root or error.absolute_path else "(the message)"
        out.append(f"{where}: {error.message}")
    return out


def reply_problems(case: dict, reply: Any) -> list[str]:
    """What is wrong with the reply to a run of ``case``: the reply's shape, then its result's."""
    found = problems("reply-run", reply, ("reply",))
    if not found and isinstance(reply, dict) and "result" in reply and case.get("kind") in KINDS:
        found = problems(f"result-{case['kind']}", reply["result"], ("reply", "result"))
    return found


class Checked:
    """An implementation whose every reply is validated against the protocol's schema.

    Everything else (attributes the runner reads and writes, ``halt``, ``describe``)
    is the wrapped implementation's own."""

    def __init__(self, impl):
        object.__setattr__(self, "_impl", impl)

    def __getattr__(self, name):
        return getattr(self._impl, name)

    def __setattr__(self, name, value):
        setattr(self._impl, name, value)

    def _refuse(self, what: str, found: list[str]) -> None:
        raise ImplementationError("protocol", f"{what} breaks the protocol schema: " + "; ".join(found[:3])
                                  + (f" (and {len(found) - 3} more)" if len(found) > 3 else ""))

    def start(self) -> dict:
        reply = self._impl.start()
        found = problems("reply-start", reply, ("reply",))
        if found:
            self._refuse("the start reply", found)
        return reply

    def configure(self, variant) -> dict:
        reply = self._impl.configure(variant)
        found = problems("reply-configure", reply, ("reply",))
        if found:
            self._refuse("the configure reply", found)
        return reply

    def run(self, seq: Any, case: dict) -> dict:
        reply = self._impl.run(seq, case)
        found = reply_problems(case, reply)
        if found:
            self._refuse("the reply", found)
        return reply

    def run_many(self, items: list, meanwhile=None) -> list:
        replies = self._impl.run_many(items, meanwhile)
        out = []
        for (_, case), reply in zip(items, replies):
            found = [] if isinstance(reply, ImplementationError) else reply_problems(case, reply)
            out.append(ImplementationError("protocol", "the reply breaks the protocol schema: " + "; ".join(found[:3]))
                       if found else reply)
        return out

    def stop(self) -> None:
        self._impl.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def outgoing(case: dict, rules) -> dict:
    """The case as the runner sends it under ``rules``: each contract's ``doubling`` filled in."""
    from ..variants.compiled import compiled_rules
    contract = case.get("contract") if case.get("kind") in ("score", "deal") else None
    if not isinstance(contract, dict) or "doubling" in contract or not isinstance(contract.get("multiplier"), int):
        return case
    c = compiled_rules(rules)
    doubling = doubling_for(contract["multiplier"], c.auction.coinche.multiplier)
    return dict(case, contract=dict(contract, doubling=doubling))
