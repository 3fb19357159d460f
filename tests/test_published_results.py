"""docs/implementations/ (colver's published results) is not stale: the inputs it was computed from hash as
they do now, both pages render from its results file exactly as committed, and the cheap part (the
conformance run, seconds) played again gives the same counts. The fuzzing (minutes) is not replayed: its
inputs' hashes stand for it (docs/reports.md, "Published results")."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from coinche_spec.outputs import marked
from coinche_spec.published.build import dump
from coinche_spec.published.inputs import inputs, stale
from coinche_spec.published.page import REGENERATE, render_html, render_markdown
from coinche_spec.published.results import PUBLISHED

from support import require_colver

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "implementations"
STALE = f"docs/implementations is stale: run {REGENERATE}"


def saved(name: str) -> dict:
    return json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))


def test_every_published_implementation_has_its_pages():
    for name in PUBLISHED:
        for suffix in (".json", ".md", ".html"):
            assert (FOLDER / f"{name}{suffix}").is_file(), f"{name}{suffix} is missing: {STALE}"


def test_the_inputs_have_not_changed():
    for name, entry in PUBLISHED.items():
        results = saved(name)
        recorded = results["inputs"]
        now = inputs(replace(entry, fuzz_deals=recorded["fuzz"]["deals"]))
        # the implementation's own version is checked where it is installed (below)
        changed = [line for line in stale(recorded, now) if not line.startswith("implementation.version")]
        assert changed == [], f"{STALE}; changed: " + "; ".join(changed)


def test_the_implementation_is_the_version_the_page_names():
    require_colver()
    from coinche_spec.published.inputs import package_version
    for name, entry in PUBLISHED.items():
        assert saved(name)["inputs"]["implementation"]["version"] == package_version(entry.package), STALE


def test_the_pages_are_rendered_from_the_results_file():
    for name in PUBLISHED:
        results = saved(name)
        assert (FOLDER / f"{name}.json").read_text(encoding="utf-8") == marked(dump(results)), STALE
        assert (FOLDER / f"{name}.md").read_text(encoding="utf-8") == marked(render_markdown(results)), \
            f"{name}.md is stale: run {REGENERATE} --rerender"
        assert (FOLDER / f"{name}.html").read_text(encoding="utf-8") == marked(render_html(results)), \
            f"{name}.html is stale: run {REGENERATE} --rerender"


def test_the_page_holds_what_the_issue_asks():
    results = saved("colver")
    entry = PUBLISHED["colver"]
    page = (FOLDER / "colver.md").read_text(encoding="utf-8")
    ran = {r["id"] for r in results["conformance"]["records"][0]["rule_sets"]}
    assert ran == {"colver", "contree-701", "federation", "cafe-701", "cafe-1000", "cafe-sans-tout-atout"}
    assert entry.seeds and set(entry.seeds) | {entry.own} == ran
    assert results["fuzz"]["deals"] == results["inputs"]["fuzz"]["deals"]
    assert "coinche-spec fingerprint --impl colver --base contree-701" in page
    assert f"coinche-spec fuzz --impl colver --variant colver --deals {results['fuzz']['deals']}" in page
    for d in results["fingerprint"]["differences"]:
        assert f"| `{d['rule']}` |" in page
    html = (FOLDER / "colver.html").read_text(encoding="utf-8")
    for outside in ("<link", "src=", "url(", "@import"):
        assert outside not in html


def test_the_conformance_run_gives_the_same_counts_again():
    """The cheap part replayed: colver through the corpus under its own rule set and the seeds."""
    require_colver()
    from coinche_spec.conformance.fixtures import load_corpus
    from coinche_spec.conformance.records import footer
    from coinche_spec.conformance.runner import run
    from coinche_spec.protocol.impls import open_implementation
    from coinche_spec.variants import load_variant

    results = saved("colver")
    entry = PUBLISHED["colver"]
    impl = open_implementation(entry.name)
    impl.start()
    try:
        report = run(impl, load_corpus(), [load_variant(v) for v in (entry.own, *entry.seeds)])
    finally:
        impl.stop()
    recorded = results["conformance"]["records"][-1]
    now = footer(report)
    assert (now["counts"], now["by_variant"], now["by_expected_by"]) == (
        recorded["counts"], recorded["by_variant"], recorded["by_expected_by"]), STALE
    went_wrong = sorted((r["fixture"], r["variant"], r["outcome"]) for r in results["conformance"]["records"]
                        if r.get("record") == "case" and r["outcome"] in ("fail", "error", "timeout", "defect"))
    assert sorted((o.fixture.id, o.variant, o.outcome) for o in report.problems()) == went_wrong, STALE
