"""The HTML reports in headless Chromium: a faulty implementation's run renders, its matrix shows the
counts the JSONL footer gives, a failure opens (by a click on its summary, and by a link's fragment)
onto its differences, rules and arithmetic; ``report`` sets two runs side by side."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from html import unescape
from pathlib import Path

import pytest

from coinche_spec.cli import main

import browser

ROOT = Path(__file__).resolve().parent.parent
OFF_BY_ONE = f"{sys.executable} {ROOT / 'tests' / 'impls' / 'off_by_one.py'}"
SELECTION = ["-k", "score-089-on-090", "-k", "rules-capot-failed-flat", "-k", "dealing-cut",
             "--variant", "federation", "--variant", "contree-701"]
FAILING = "score-089-on-090@federation"     # the defenders' 250 comes back as 251


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The off-by-one implementation's run (JSONL and HTML), the reference engine's, and both side by side."""
    work = tmp_path_factory.mktemp("reports")
    faulty, reference = work / "faulty.jsonl", work / "reference.jsonl"
    assert main(["conformance", "--impl", OFF_BY_ONE, *SELECTION, "--report-jsonl", str(faulty),
                 "--html", str(work / "faulty.html")]) == 1
    assert main(["conformance", *SELECTION, "--report-jsonl", str(reference)]) == 0
    assert main(["report", str(faulty), str(reference), "--html", str(work / "both.html")]) == 0
    return work


def records(path):
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]


def test_the_pages_need_nothing_outside_themselves(runs):
    for name in ("faulty.html", "both.html"):
        page = (runs / name).read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>") and "<style>" in page and "<details" in page
        for outside in ("<link", "src=", "url(", "@import", "http://", "https://"):
            assert outside not in page, (name, outside)


# --- in headless Chromium ------------------------------------------------------------------------

PROBE = """<script>
(function () {
  var out = {cells: [], overview: []};
  document.querySelectorAll("table.matrix td.cell").forEach(function (td) {
    out.cells.push({area: td.dataset.area, variant: td.dataset.variant, run: td.dataset.run, text: td.innerText,
                    pass: +td.dataset.pass, fail: +td.dataset.fail, other: +td.dataset.other, skip: +td.dataset.skip});
  });
  document.querySelectorAll("table.overview td.cell").forEach(function (td) {
    out.overview.push({run: td.dataset.run, variant: td.dataset.variant, text: td.innerText});
  });
  var d = document.getElementById(PROBED);
  out.before = {open: d.open, height: d.getBoundingClientRect().height, text: d.innerText};
  d.querySelector("summary").click();
  out.after = {open: d.open, height: d.getBoundingClientRect().height, text: d.innerText};
  out.closed = Array.from(document.querySelectorAll("details.problem")).filter(function (x) { return !x.open; }).length;
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script></body>"""


def probe(page: Path, work: Path, probed: str) -> dict:
    """Open ``page`` with a probe added at its end: what the browser rendered, before and after a click."""
    probed_page = work / f"probed-{page.name}"
    text = page.read_text(encoding="utf-8")
    probed_page.write_text(text.replace("</body>", PROBE.replace("PROBED", json.dumps(probed)), 1), encoding="utf-8")
    dom = browser.dump_dom(browser.chromium(), probed_page.as_uri(), work)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, "the probe did not run: " + dom[-500:]
    return json.loads(unescape(found.group(1)))


def numbers(text: str) -> dict:
    """The counts a cell shows: ✓ passed, ✗ failed, ! other, +N skip."""
    def one(pattern):
        m = re.search(pattern, text)
        return int(m.group(1)) if m else 0
    return {"pass": one(r"✓\s*(\d+)"), "fail": one(r"✗\s*(\d+)"), "other": one(r"!\s*(\d+)"),
            "skip": one(r"\+(\d+)\s*skip")}


def test_the_report_renders(runs):
    exe = browser.chromium()
    shot = runs / "faulty.png"
    browser.finish(browser.start(exe, runs / "faulty.html", runs, png=shot), shot)
    width, height, data = browser.png_pixels(shot)
    assert (width, height) == (1100, 1500)
    counts = Counter(data)
    assert len(counts) > 64, "the screenshot is blank"
    assert counts.most_common(1)[0][1] < 0.97 * len(data), "the screenshot is nearly one colour"


def test_the_matrix_shows_the_counts_of_the_jsonl_footer(runs):
    rows = records(runs / "faulty.jsonl")
    footer = rows[-1]
    assert footer["record"] == "footer" and footer["counts"]["fail"] > 0 and footer["counts"]["pass"] > 0
    seen = probe(runs / "faulty.html", runs, f"run-1-case-{FAILING}")
    totals = {c["variant"]: c for c in seen["cells"] if c["area"] == "all"}
    assert sorted(totals) == ["contree-701", "federation"]
    for variant, cell in totals.items():
        want = footer["by_variant"][variant]
        other = sum(want[k] for k in ("error", "timeout", "defect", "not run"))
        # what the browser shows in the cell, and what the cell says it holds, are the footer's counts
        assert numbers(cell["text"]) == {"pass": want["pass"], "fail": want["fail"], "other": other,
                                         "skip": want["skip"]}, cell
        assert (cell["pass"], cell["fail"], cell["other"], cell["skip"]) == (want["pass"], want["fail"], other,
                                                                             want["skip"])
    # the area cells add up to the totals, and each agrees with the case records of its area
    cases = [r for r in rows if r["record"] == "case"]
    for cell in seen["cells"]:
        if cell["area"] == "all":
            continue
        mine = Counter(r["outcome"] for r in cases if r["area"] == cell["area"] and r["variant"] == cell["variant"])
        assert numbers(cell["text"]) == {"pass": mine["pass"], "fail": mine["fail"], "other": 0,
                                         "skip": mine["skip"]} or (cell["text"] == "-" and not mine - Counter(
                                             {"n/a": mine["n/a"]})), cell


def test_a_failure_opens_on_its_differences_rules_and_arithmetic(runs):
    seen = probe(runs / "faulty.html", runs, f"run-1-case-{FAILING}")
    before, after = seen["before"], seen["after"]
    # closed, only the summary line is rendered; a click on it shows the rest, and the box grows
    assert before["open"] is False
    assert "expected" not in before["text"] and "160 + 0 melds + 90 = 250" not in before["text"]
    assert after["open"] is True and after["height"] > before["height"] + 100
    shown = " ".join(after["text"].split())
    assert "score.EW 250 251" in shown                          # field, expected, received
    assert "Rules (depends_on): auction.bids.minimum" in shown and "scoring.failed.defenders" in shown
    assert "score: defenders 160 + 0 melds + 90 = 250" in shown   # the comment beside the expectation
    assert "conformance/scoring.yaml" in shown


def test_a_link_to_a_failure_opens_it(runs):
    page = (runs / "faulty.html").resolve().as_uri()
    dom = browser.dump_dom(browser.chromium(), f"{page}#run-1-case-{FAILING}", runs)
    opened = re.findall(r'<details class="problem[^"]*" id="([^"]+)"[^>]*\bopen\b', dom)
    assert opened == [f"run-1-case-{FAILING}"]
    assert len(re.findall(r"<details ", dom)) > 1               # the others stay closed


def test_two_runs_side_by_side(runs):
    seen = probe(runs / "both.html", runs, f"run-1-case-{FAILING}")
    by = {(c["run"], c["variant"]): numbers(c["text"]) for c in seen["overview"]}
    for index, name in (("1", "faulty.jsonl"), ("2", "reference.jsonl")):
        footer = records(runs / name)[-1]
        for variant in ("federation", "contree-701"):
            want = footer["by_variant"][variant]
            assert (by[(index, variant)]["pass"], by[(index, variant)]["fail"]) == (want["pass"], want["fail"])
    assert by[("2", "federation")]["fail"] == 0 and by[("1", "federation")]["fail"] > 0
    assert seen["after"]["open"] is True
