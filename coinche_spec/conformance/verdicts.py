"""Engine verdicts: for a case no written or carried expectation covers, the reference engine's answer.

The reference engine plays the case under the same rule set and its result,
cut down to the fields the fixture's own expectations check, becomes the
expectation. Such a verdict says only that the implementation agrees with
the reference engine, not that either is right, so it is counted apart
(``expected_by: engine``) and never for an implementation that is the
reference engine itself.
"""

from __future__ import annotations

from ..protocol.cases import CaseError, run_canonical
from .carry import Source
from .dependencies import fields_of
from .fixtures import Expectation, Fixture


def engine_source(fixture: Fixture, variant) -> Source:
    """The reference engine's expectation for the fixture under ``variant`` (a loaded Variant)."""
    from ..engine.errors import EngineError, Unsupported
    fields = fields_of(fixture)
    if not fields:
        return Source(Expectation(not_applicable="no expectation of this fixture checks a result field"), "engine")
    try:
        result = run_canonical(variant.rules, fixture.case)
    except (CaseError, EngineError, Unsupported) as exc:
        return Source(Expectation(not_applicable=f"the reference engine does not answer this case under "
                                                 f"{variant.id}: {exc}"), "engine")
    return Source(Expectation(fields={k: result[k] for k in fields if k in result}), "engine")
