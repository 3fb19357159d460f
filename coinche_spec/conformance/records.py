"""The records of a conformance run file (``--report-jsonl``): a header, one record per case, a footer.

A results file must say what was run before anyone can trust what it says
passed: the header names the implementation (the ``--impl`` spec and the
name and version its ``start`` reply gave), every rule set with a content
hash of its resolved rules, the corpus version (a hash of the fixture files),
the date and the coinche-spec version. The footer repeats the counts, by
outcome and by kind of expectation (``expected_by``), so a truncated file is
told from a short run. Each record has ``record``: ``header``, ``case`` or
``footer``. Case records keep every field they had before and add the
fixture's rules (``rules``: its ``depends_on``; ``exercises``) and, for a
case that went wrong, the case itself and the arithmetic written beside its
expectation.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from pathlib import Path

from .fixture_comments import arithmetic
from .runner import OUTCOMES, SOURCES, Outcome, Report

FORMAT = 1   # the version of this record layout; bumped when a field changes meaning
HASH = "sha256"


def _digest(data: bytes) -> str:
    return f"{HASH}:{hashlib.sha256(data).hexdigest()}"


def rule_set_hash(variant) -> str:
    """A hash of the rules the rule set plays, after ``extends`` is resolved: two files that play the
    same rules (whatever their words, sources or layout) hash alike."""
    return _digest(json.dumps(variant.document["rules"], sort_keys=True, ensure_ascii=False,
                              separators=(",", ":")).encode("utf-8"))


def _read_by_the_runner(path: Path) -> bool:
    """The files a run reads from a corpus folder: fixtures and test rule sets (YAML), the retired ids.
    A README or an installed package's ``__init__.py`` changes no result, and is not in every copy."""
    from .fixtures import RETIRED_FILE
    return path.is_file() and (path.suffix in (".yaml", ".yml") or path.name == RETIRED_FILE)


def corpus_files(folders) -> list[tuple[str, Path]]:
    """Every file of the corpus folders a run reads (fixtures, test rule sets, the retired ids), as
    (name, path), the name relative to its folder and prefixed by the folder's position when there are
    several."""
    out = []
    folders = [Path(f) for f in folders]
    for i, folder in enumerate(folders):
        if not folder.is_dir():
            continue
        for path in sorted(p for p in folder.rglob("*") if _read_by_the_runner(p)):
            name = path.relative_to(folder).as_posix()
            out.append((name if len(folders) == 1 else f"{i}/{name}", path))
    return out


def corpus_version(folders) -> dict:
    """A hash over the names and bytes of every corpus file, and how many files it covers."""
    h = hashlib.sha256()
    files = corpus_files(folders)
    for name, path in files:
        data = path.read_bytes()
        h.update(name.encode("utf-8") + b"\0" + str(len(data)).encode() + b"\0" + data)
    return {"hash": f"{HASH}:{h.hexdigest()}", "files": len(files)}


def shown(path) -> str:
    """A path as messages show it: relative to the working folder when it lies inside it, a shipped
    file as a checkout names it (resources.shown_path)."""
    from ..resources import shown_path
    return shown_path(path)


def header(impl_spec: str | None, info: dict | None, variants: list, corpus_folders, *,
           keywords=None, engine_verdicts: bool = True, now: datetime.datetime | None = None) -> dict:
    """The header record: what was run, on what, when."""
    from .. import __version__
    info = info or {}
    told = info.get("implementation") if isinstance(info.get("implementation"), dict) else {}
    when = now or datetime.datetime.now(datetime.timezone.utc)
    return {
        "record": "header", "format": FORMAT,
        "implementation": {"spec": impl_spec, "name": told.get("name"), "version": told.get("version"),
                           "language": told.get("language")},
        "rule_sets": [{"id": v.id, "hash": rule_set_hash(v),
                       "file": shown(v.path) if getattr(v, "path", None) is not None else None} for v in variants],
        "corpus": {**corpus_version(corpus_folders), "folders": [shown(f) for f in corpus_folders]},
        "selection": {"keywords": list(keywords or []), "engine_verdicts": engine_verdicts},
        "date": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "coinche_spec": __version__,
    }


def _blank_counts() -> dict:
    return {o: 0 for o in OUTCOMES}


def footer(report: Report) -> dict:
    """The footer record: counts by outcome, by expected_by and by rule set, and the run's notes."""
    by_source = {s: _blank_counts() for s in SOURCES}
    by_variant = {v: _blank_counts() for v in report.variants}
    for o in report.outcomes:
        by_source.setdefault(o.expected_by, _blank_counts())[o.outcome] += 1
        by_variant.setdefault(o.variant, _blank_counts())[o.outcome] += 1
    return {"record": "footer", "cases": len(report.outcomes), "counts": report.counts(),
            "by_expected_by": by_source, "by_variant": by_variant,
            "seconds": round(report.seconds, 3), "notes": list(report.notes), "refused": dict(report.refused),
            "ok": report.ok}


WENT_WRONG = ("fail", "error", "timeout", "defect")


def case(o: Outcome) -> dict:
    """One case record: the fields it always had, then the fixture's rules, and for a case that went
    wrong the case sent and the expectation's arithmetic."""
    out = {"record": "case", **o.to_json(), "title": o.fixture.title,
           "rules": list(o.fixture.depends_on) if o.fixture.depends_on is not None else None,
           "exercises": list(o.fixture.exercises)}
    if o.outcome in WENT_WRONG:
        written_for, comments = arithmetic(o)
        out["case"] = o.sent if o.sent is not None else o.fixture.case
        out["arithmetic"] = {"written_for": written_for, "comments": [c.to_json() for c in comments]}
    return out


def records(report: Report, head: dict | None = None) -> list[dict]:
    """Header, cases, footer. Without a header from the command line, a plain one from the report."""
    if head is None:
        head = {"record": "header", "format": FORMAT,
                "implementation": {"spec": None, "name": report.implementation, "version": None, "language": None},
                "rule_sets": [{"id": v, "hash": None, "file": None} for v in report.variants],
                "corpus": None, "selection": None, "date": None, "coinche_spec": None}
    return [head] + [case(o) for o in report.outcomes] + [footer(report)]


NO_RULE = "(no rule named in exercises)"


def primary_rule(exercises) -> str:
    """The rule a fixture is written to test, the one its failures are grouped under: the first of its
    ``exercises`` (its author names the rule under test first)."""
    return exercises[0] if exercises else NO_RULE


def implementation_label(head: dict) -> str:
    """How a run is named in reports: ``colver 0.11.1``, else its spec, else the reference engine."""
    impl = head.get("implementation") or {}
    if impl.get("name"):
        return " ".join(str(x) for x in (impl.get("name"), impl.get("version")) if x)
    return impl.get("spec") or "coinche-spec reference engine"
