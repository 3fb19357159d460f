"""What every adapter of an engine with one fixed rule set does the same way: configure and take a case.

Such an engine plays its own rule set and nothing else. ``configure`` accepts
that rule set by id, and a whole document when it equals the engine's on
every rule the engine's answers can show (``differ`` names the others);
anything else is refused, with ``unsupported`` listing the rules that differ,
since answering it with the engine's rules would blame the engine for a rule
it never claimed. A case is answered only when its kind is one the engine
answers, and only after the reference engine's case reader has checked it.
"""

from __future__ import annotations

from typing import Any, Callable


def configure(variant: Any, own: Callable[[], Any], rules_id: str, engine: str,
              differ: Callable[[dict, dict], list], free: str = "") -> tuple[Any, dict]:
    """(the Variant to play or None, the configure reply). ``own()`` loads the engine's rule set;
    ``free`` says in the refusal what the engine does let vary (", any match target")."""
    from ..variants import VariantError, load_variant
    try:
        mine = own()
    except VariantError as exc:
        return None, {"ok": False, "message": f"{engine}'s own rule set ({rules_id}) cannot be read: "
                                              + "; ".join(exc.lines)}
    if variant == rules_id:
        return mine, {"ok": True}
    if not isinstance(variant, (str, dict)):
        return None, {"ok": False, "message": "configure needs \"variant\": an id or a whole rule-set document"}
    try:
        theirs = load_variant(variant)
    except VariantError as exc:
        return None, {"ok": False, "message": "variant rejected: " + "; ".join(exc.lines)}
    except Exception as exc:  # a schema error on a document
        return None, {"ok": False, "message": f"variant rejected: {' '.join(str(exc).split())[:500]}"}
    rules = differ(theirs.document, mine.document)
    if rules:
        return None, {"ok": False, "unsupported": rules,
                      "message": f"{engine} plays one rule set ({rules_id}{free}); this one differs on "
                                 f"{len(rules)} rules its answers depend on"}
    return theirs, {"ok": True}


def take(case: Any, kinds, unanswered: dict) -> tuple[dict | None, dict | None]:
    """(the case in canonical form, None), or (None, the reply: skipped or errored)."""
    from ..protocol.cases import CaseError, canonicalise
    kind = case.get("kind") if isinstance(case, dict) else None
    if kind in unanswered:
        return None, {"skipped": True, "reason": unanswered[kind]}
    if kind not in kinds:
        return None, {"skipped": True, "reason": f"unknown case kind {kind!r}"}
    try:
        return canonicalise(case), None
    except CaseError as exc:
        return None, {"errored": True, "message": str(exc)}
