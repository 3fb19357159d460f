"""``coinche-spec serve``: the reference engine behind the conformance protocol.

One JSON request per line on standard input, one reply per line on standard
output, flushed at once (docs/protocol.md). Whatever a line holds — broken
JSON, an unknown command, a bad card, an engine failure — the server answers
with an error object and keeps serving: the runner must be able to tell a
wrong answer from a dead table. Only ``stop`` (or the end of input) ends it.
"""

from __future__ import annotations

import sys
import traceback
from typing import Any, TextIO

from .. import __version__
from . import jsonline
from .cases import KINDS, CaseError, run_case

PROTOCOL_VERSION = 1
CONFIGURE_DOCUMENT = "<configure>"  # how replies name the rule set document a client sent

IMPLEMENTATION = {
    "name": "coinche-spec reference engine",
    "version": __version__,
    "language": "Python",
    "homepage": None,
}


def _error(message: str, **extra: Any) -> dict:
    reply = {"errored": True, "message": message}
    reply.update(extra)
    return reply


class Session:
    """The state one connection keeps: the rule set chosen by ``configure``."""

    def __init__(self) -> None:
        self.rules = None
        self.variant_id: str | None = None

    # -- one request --------------------------------------------------------
    def handle(self, request: Any) -> tuple[dict | None, bool]:
        """Answer one decoded request; returns (reply or None, stop?)."""
        if not isinstance(request, dict):
            return _error(f"a request is a JSON object with a \"cmd\", got {type(request).__name__}"), False
        cmd = request.get("cmd")
        if cmd == "start":
            return self._start(request), False
        if cmd == "configure":
            return self._configure(request), False
        if cmd == "run":
            return self._run(request), False
        if cmd == "stop":
            extra = sorted(k for k in request if k != "cmd")
            if extra:   # a garbled request that happens to say stop is answered, not obeyed
                return _error(f"stop takes no field but \"cmd\": got {', '.join(map(repr, extra[:5]))}; "
                              "the session goes on"), False
            return None, True
        if cmd is None:
            return _error("the request has no \"cmd\" (expected start, configure, run or stop)"), False
        return _error(f"unknown command {cmd!r} (expected start, configure, run or stop)"), False

    def handle_line(self, line: str) -> tuple[str | None, bool]:
        """Answer one line of text. A blank line gets an error too: one line in, one line out,
        so a client waiting for a reply never hangs."""
        if not line.strip():
            return encode(_error("the line is empty: expected one JSON request per line")), False
        try:
            request = jsonline.decode(line)
        except jsonline.LineError as exc:
            reply, stop = _error(exc.message), False
        else:
            reply, stop = self.handle(request)
        return (None if reply is None else encode(reply)), stop

    # -- commands -----------------------------------------------------------
    def _start(self, request: dict) -> dict:
        version = request.get("protocol", PROTOCOL_VERSION)
        if version != PROTOCOL_VERSION:
            return _error(f"protocol {version!r} is not spoken here: this implementation speaks protocol 1")
        # null: any variant document is accepted (shipped ids by name as well).
        return {"protocol": PROTOCOL_VERSION, "implementation": dict(IMPLEMENTATION),
                "kinds": list(KINDS), "variants": None}

    def _configure(self, request: dict) -> dict:
        from ..variants import load_variant

        self.rules, self.variant_id = None, None
        ref = request.get("variant")
        if not isinstance(ref, (str, dict)):
            return {"ok": False, "message": "configure needs \"variant\": a rule set id (see `coinche-spec "
                                            "variants list`), or a whole variant document"}
        # files=False: a client names rule sets by id only, never a file on the server's side; the
        # problems of a document it sends are located in it, as <configure>: path: message
        from ..resources import HomeError
        from ..variants import shipped_ids
        if isinstance(ref, dict) and isinstance(ref.get("extends"), str) and ref.get("id") in shipped_ids() \
                and ref["extends"] != ref["id"]:
            return {"ok": False, "message": f"{CONFIGURE_DOCUMENT}: id: '{ref['id']}' is a shipped rule set's id, "
                                            f"and this document extends '{ref['extends']}': give it an id of its "
                                            "own"}
        try:
            variant = load_variant(ref, name=CONFIGURE_DOCUMENT, files=False)
        except HomeError:  # the server's own set-up, not the client's document: no path of it in the reply
            return {"ok": False, "message": "the server cannot find its rule sets (COINCHE_SPEC_HOME names no "
                                            "folder with variants/); its operator must fix it"}
        except Exception as exc:  # the loader's own error, or a schema error: a bad document
            return {"ok": False, "message": f"variant rejected: {_one_line(exc)}"}
        self.rules, self.variant_id = variant.rules, variant.id
        return {"ok": True}

    def _run(self, request: dict) -> dict:
        seq = request.get("seq")
        if self.rules is None:
            return {"seq": seq, "errored": True,
                    "message": "run before a successful configure: send {\"cmd\": \"configure\", ...} first"}
        if "case" not in request:
            return {"seq": seq, "errored": True, "message": "run needs a \"case\""}
        case = request["case"]
        if isinstance(case, dict) and case.get("kind") is not None and case.get("kind") not in KINDS:
            return {"seq": seq, "skipped": True, "reason": f"unknown case kind {case.get('kind')!r}"}
        try:
            result = run_case(self.rules, case)
            jsonline.encode(result)  # an answer that cannot be sent is the engine's failure, not the server's
        except CaseError as exc:
            return {"seq": seq, "errored": True, "message": str(exc)}
        except Exception as exc:  # an engine failure is reported, never a crash
            from ..engine.errors import EngineError, Unsupported
            if isinstance(exc, Unsupported):  # a rule this engine does not play: not a wrong answer
                return {"seq": seq, "skipped": True, "reason": _one_line(exc)}
            if isinstance(exc, EngineError):  # the engine refused the input, and said why: no traceback
                return {"seq": seq, "errored": True, "message": _one_line(exc)}
            return {"seq": seq, "errored": True, "message": f"{type(exc).__name__}: {_one_line(exc)}",
                    "traceback": traceback.format_exc()}
        return {"seq": seq, "result": result}


def _one_line(exc: BaseException) -> str:
    if isinstance(getattr(exc, "lines", None), list) and exc.lines:  # a VariantError: one line per problem
        text = "; ".join(str(line) for line in exc.lines)
    elif hasattr(exc, "absolute_path") and hasattr(exc, "message"):  # a jsonschema error: path and message only
        where = ".".join(str(p) for p in exc.absolute_path) or "document"
        text = f"{where}: {exc.message}"
    else:
        text = str(exc)
    text = " ".join(text.split())
    return text if len(text) <= 1000 else text[:997] + "..."


def encode(reply: dict) -> str:
    """The reply as one strict JSON line; a reply that cannot be one becomes an error that can."""
    try:
        return jsonline.encode(reply)
    except (ValueError, TypeError, RecursionError) as exc:
        fallback = {"errored": True, "message": f"the reply could not be written as JSON: {_one_line(exc)}"}
        if isinstance(reply, dict) and "seq" in reply:
            try:
                jsonline.encode(reply["seq"])
                fallback = {"seq": reply["seq"], **fallback}
            except (ValueError, TypeError, RecursionError):
                pass
        return jsonline.encode(fallback)


def serve(stdin=None, stdout: TextIO | None = None, session: Session | None = None) -> int:
    """Serve requests until ``stop`` or the end of input; always returns 0."""
    raw_in = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout
    session = session or Session()
    for raw in _lines(raw_in):
        if raw is _TOO_LONG:
            out.write(encode(_error(f"the line is longer than {jsonline.MAX_LINE_BYTES:,} bytes, the limit: "
                                    "it was read to its end and dropped")) + "\n")
            out.flush()
            continue
        if isinstance(raw, bytes):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                out.write(encode(_error(f"the line is not UTF-8: {exc}")) + "\n")
                out.flush()
                continue
        else:
            line = raw
        reply, stop = session.handle_line(line)
        if reply is not None:
            out.write(reply + "\n")
            out.flush()
        if stop:
            break
    return 0


_TOO_LONG = object()


def _lines(stream):
    """Lines of the input; a binary stream is read line by line without holding an over-long one."""
    if not hasattr(stream, "readline") or not hasattr(stream, "read1"):
        yield from stream
        return
    while True:
        raw, too_long = jsonline.read_line(stream)
        if raw is None:
            return
        yield _TOO_LONG if too_long else raw


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "serve", help="serve the reference engine over the conformance protocol (stdin/stdout)",
        description="Read JSON requests from standard input, one per line, and write one JSON reply per "
                    "line to standard output (docs/protocol.md). Ends on {\"cmd\": \"stop\"} or end of input.")
    p.set_defaults(func=lambda args: serve())
