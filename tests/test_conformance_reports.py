"""The matrix and the counts, from outcomes made by hand: skipped cases never look like failures."""

from coinche_spec.conformance.fixtures import Expectation, Fixture
from coinche_spec.conformance.reports import LEGEND, cell_text, closing_lines, console, markdown, matrix_rows
from coinche_spec.conformance.runner import Outcome, Report


def fixture(fid, area, kind="score"):
    return Fixture(id=fid, title=fid, area=area, kind=kind, case={"kind": kind},
                   expect={"federation": Expectation(fields={}), "contree-701": Expectation(fields={})},
                   file="corpus/x.yaml", line=1)


def report_of(rows, variants=("federation", "contree-701")):
    """rows: (fixture id, area, variant, outcome)."""
    fixtures: dict = {}
    report = Report(implementation="hand-made", variants=list(variants))
    for fid, area, variant, outcome in rows:
        f = fixtures.setdefault(fid, fixture(fid, area))
        report.outcomes.append(Outcome(f, variant, outcome, message="why" if outcome != "pass" else None))
    return report


def test_cell_text():
    assert cell_text(8, 8, 0) == "8/8"
    assert cell_text(8, 8, 2) == "8/8 (+2 skip)"
    assert cell_text(0, 0, 7) == "0/0 (+7 skip)"
    assert cell_text(0, 0, 0) == "-"
    assert cell_text(3, 5, 0) == "3/5"


def test_skipped_cases_are_not_applicable_and_shown_apart():
    rows = [("s1", "scoring", "federation", "pass"), ("s2", "scoring", "federation", "pass"),
            ("s3", "scoring", "federation", "skip"),
            ("d1", "dealing", "federation", "skip"), ("d2", "dealing", "federation", "skip"),
            ("s1", "scoring", "contree-701", "pass"), ("s2", "scoring", "contree-701", "fail"),
            ("s3", "scoring", "contree-701", "error"),
            ("d1", "dealing", "contree-701", "n/a"), ("d2", "dealing", "contree-701", "timeout")]
    report = report_of(rows)
    table = {r[0]: r[1:] for r in matrix_rows(report)}
    # federation scoring: 2 passed of 2 played, 1 skipped; dealing: nothing played, 2 skipped
    # contree-701 scoring: 1 passed of 3 (a fail and an error count as applicable); dealing: the
    # n/a case is left out, the timeout is applicable: 0/1
    assert table["area"] == ["federation", "contree-701"]
    assert table["scoring"] == ["2/2 (+1 skip)", "1/3"]
    assert table["dealing"] == ["0/0 (+2 skip)", "0/1"]
    # all: federation 2 + 0 = 2 passed of 2 + 0 = 2, skipped 1 + 2 = 3; contree-701 1 of 3 + 1 = 4
    assert table["all"] == ["2/2 (+3 skip)", "1/4"]


def test_every_n_a_cell_is_a_dash():
    report = report_of([("d1", "dealing", "federation", "n/a"), ("d1", "dealing", "contree-701", "pass")])
    table = {r[0]: r[1:] for r in matrix_rows(report)}
    assert table["dealing"] == ["-", "1/1"] and table["all"] == ["-", "1/1"]


def test_console_legend_and_singular_words():
    report = report_of([("s1", "scoring", "federation", "error"), ("s2", "scoring", "federation", "timeout"),
                        ("s3", "scoring", "federation", "skip")], variants=("federation",))
    text = console(report)
    lines = text.splitlines()
    assert lines[0].startswith("Conformance of hand-made: 3 fixtures, 1 rule set, ")
    assert LEGEND in lines and "+N skip" in LEGEND and "n/a" in LEGEND
    assert lines[-2:] == ["1 error, 1 timeout, 0 n/a", "0 passed, 0 failed, 1 skipped"]
    one = report_of([("s1", "scoring", "federation", "pass")], variants=("federation",))
    assert console(one).splitlines()[0].startswith("Conformance of hand-made: 1 fixture, 1 rule set, ")
    assert closing_lines(report_of([("s1", "scoring", "federation", "pass")] * 1))[1] == "0 errors, 0 timeouts, 0 n/a"


def test_markdown_cells_and_legend():
    report = report_of([("s1", "scoring", "federation", "pass"), ("s2", "scoring", "federation", "skip"),
                        ("s1", "scoring", "contree-701", "pass"), ("s2", "scoring", "contree-701", "pass")])
    text = markdown(report)
    assert "| scoring | 1/1 (+1 skip) | 2/2 |" in text
    assert "| **all** | 1/1 (+1 skip) | 2/2 |" in text
    assert LEGEND in text
