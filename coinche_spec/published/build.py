"""``coinche-spec docs --implementations DIR``: run each published implementation and write its pages.

For every entry of results.PUBLISHED: DIR/<name>.json (what the commands
printed, trimmed), DIR/<name>.md and DIR/<name>.html (rendered from the
JSON). ``--rerender`` renders the pages again from the JSON already there,
without running anything (for a change to the page's layout only; the
staleness test says when the results themselves must be run again).
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import outputs
from .page import render_html, render_markdown
from .results import PUBLISHED, collect


def dump(results: dict) -> str:
    """The results file: indented, but one line per case record (a run holds about two thousand)."""
    records = results["conformance"]["records"]
    # the writer's mark first (outputs.marked leaves it there), so a fresh run and a re-render write the same
    shell = {"written_by": outputs.MARK, **results,
             "conformance": {**results["conformance"], "records": "@RECORDS@"}}
    text = json.dumps(shell, ensure_ascii=False, indent=1)
    lines = ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in records)
    return text.replace('"@RECORDS@"', "[\n" + lines + "\n ]") + "\n"


def pages(results: dict) -> dict:
    """file name -> text, for one implementation's results."""
    name = results["name"]
    return {f"{name}.json": dump(results), f"{name}.md": render_markdown(results),
            f"{name}.html": render_html(results)}


def write(folder: Path, fuzz_deals: int | None = None, rerender: bool = False, say=print) -> list[Path]:
    written = []
    for name, entry in PUBLISHED.items():
        if rerender:
            results = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
        else:
            results = collect(entry, fuzz_deals, say)
        for file, text in pages(results).items():
            outputs.write_text(folder / file, text, "--implementations")
            written.append(folder / file)
    return written
