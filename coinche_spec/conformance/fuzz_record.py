"""What a fuzz run writes while it runs, so that a run stopped any way keeps what it found.

A long run may end on its time budget, on SIGINT or SIGTERM, or be killed
outright. So nothing waits for the end:

- ``--report-jsonl FILE``: a header record first (carrying coinche-spec's
  mark, ``outputs.MARK``, so a later run may replace the file and a user's
  file is never touched), then one ``divergence`` record for each new
  divergence as soon as a deal shows it, then, at the end, a ``shrunk``
  record for each divergence shrunk and a ``summary`` record (the
  ``--json`` line), or an ``aborted`` record saying why the run could not
  go on. Every record is flushed as it is written: a run
  killed with SIGKILL keeps every divergence found before it.
- ``--out DIR``: each divergence's fixture is written as soon as it is found
  (the case as the deal gave it), then replaced by the shrunk case once the
  run shrinks it. Only files this run wrote are ever replaced.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .. import outputs
from ..errors import OutputError
from .fixture_writer import WriteError, divergence_fixture, fixture_text, write_fixture


class Recorder:
    """The run's findings, written as they come (see the module's docstring)."""

    def __init__(self, jsonl: outputs.Target | None, out: Path | None, fixture_context: dict | None):
        self.jsonl_target = jsonl
        self.out = out
        self.context = fixture_context or {}   # expect_key, variant_id, seed, implementation, date
        self.handle = None
        self.recorded: dict = {}               # divergence key -> fixture path written (or None)

    # --- the results file ---

    def open(self, header: dict) -> None:
        if self.jsonl_target is None:
            return
        try:
            self.handle = open(self.jsonl_target.real, "w", encoding="utf-8")
        except OSError as exc:
            raise OutputError(self.jsonl_target.given, exc.strerror or str(exc)) from None
        self._write({"written_by": outputs.MARK, "record": "header", **header})

    def _write(self, record: dict) -> None:
        if self.handle is None:
            return
        self.handle.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        self.handle.flush()

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None

    # --- as the deals are played ---

    def saw(self, tally) -> None:
        """Record every divergence of ``tally`` not recorded yet (called after each deal)."""
        for key, d in tally.first.items():
            if key in self.recorded:
                continue
            path = self._fixture(_unshrunk(d), d) if self.out is not None else None
            self._write({"record": "divergence", **divergence_record(d), "file": str(path) if path else None})
            self.recorded[key] = path       # after the write: a signal in between loses nothing

    # --- at the end ---

    def shrunk(self, original, small) -> str | None:
        """Write the shrunk divergence: its fixture in place of the one written when it was found."""
        path = None
        if self.out is not None:
            earlier = self.recorded.get(original.key)
            path = self._fixture(small, original, earlier)
            self.recorded[original.key] = path
        d = small.divergence
        self._write({"record": "shrunk", "key": original.key, "deal": original.index, "fields": small.fields,
                     "shrink_tries": small.tries, "diff": [str(x) for x in d.diffs] or [str(d.answer)],
                     "case": d.case, "file": str(path) if path else None})
        return str(path) if path else None

    def summary(self, info: dict) -> None:
        self._write({"record": "summary", **info})

    def aborted(self, why: str) -> None:
        """The run could not go on (exit status 2 or 3): the last record says why, in place of a summary."""
        self._write({"record": "aborted", "message": why})

    # --- fixture files ---

    def _fixture(self, small, original, replacing: Path | None = None) -> Path:
        c = self.context
        base, fixture, area, header, answers = divergence_fixture(
            small, original, c["expect_key"], c["variant_id"], c["seed"], c["implementation"], c["date"])
        try:
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WriteError(f"--out {self.out}: cannot make the directory: {exc.strerror or exc}") from None
        if replacing is not None:
            fid = replacing.stem
            if fid == base or fid.startswith(base + "-"):   # the same divergence, the same name: in place
                data = {"id": fid, **{k: v for k, v in fixture.items() if k != "id"}}
                _replace(replacing, fixture_text(data, area, header, answers, c["expect_key"]))
                return replacing
            try:
                replacing.unlink()   # this run wrote it a moment ago; the shrunk case takes its own name
            except OSError:
                pass
        return write_fixture(self.out, base, fixture, area, header, answers, c["expect_key"])


def _unshrunk(d) -> Any:
    """A divergence as found, in the shape shrinking gives (no try made yet)."""
    from .fuzz import Shrunk, top_field
    fields = [d.field] + [f for f in dict.fromkeys(top_field(x.field) for x in d.diffs) if f != d.field]
    return Shrunk(d, 0, fields)


def divergence_record(d) -> dict:
    """One divergence as found, for the results file."""
    return {"key": d.key, "deal": d.index, "case_number": d.number, "case": d.case, "expected": d.expected,
            "answer": d.answer, "diff": [str(x) for x in d.diffs] or [str(d.answer)]}


def _replace(path: Path, text: str) -> None:
    """Write next to ``path`` and rename over it: a reader never sees half a fixture."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise WriteError(f"{path}: cannot write: {exc.strerror or exc}") from None


__all__ = ["Recorder", "divergence_record"]
