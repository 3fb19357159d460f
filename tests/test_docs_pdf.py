"""``docs RULESET --format pdf`` and ``--summary``: a real A4 PDF, and the short sheet a table
prints on at most two A4 pages (pdfinfo counts them, pdftotext reads them)."""

from __future__ import annotations

import io
import re
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest

from coinche_spec.cli import main
from coinche_spec.docsgen.summary import render_summary
from coinche_spec.variants import load_variant

import browser
from support import CLUB



def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def club(tmp_path):
    path = tmp_path / "our-club.yaml"
    path.write_text(CLUB, encoding="utf-8")
    return path


def page_size(pdf) -> str:
    import subprocess
    out = subprocess.run([browser.poppler("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True).stdout
    return re.search(r"^Page size:\s+(.*)$", out, re.M).group(1)


# --- without a browser ----------------------------------------------------------------------

def test_the_summary_says_what_a_table_looks_up(club):
    page = render_summary(load_variant(club))
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    order = [page.index(f"<h2>{h}</h2>") for h in ("What we play differently", "The game at a glance", "The cards",
                                                   "Scoring a deal", "A deal worked out")]
    assert order == sorted(order)
    assert "The belote is counted automatically" in text         # whether belote must be said
    assert "jack 20" in text and "nine 14" in text                # trump ranks and values, strongest first
    assert "Coinched, made" in text and "(160 + the bid) × M" in text
    assert "Bid 90 hearts, take 89" in text and "East–West score 250" in text
    assert "Target (2000 → 1500)" not in text and "1500" in text
    assert "<script" not in page and "http" not in page


def test_summary_wants_a_rule_set_and_not_markdown(club):
    code, _, err = run_cli("docs", "--compare", "--summary")
    assert code == 2 and "--summary" in err
    code, _, err = run_cli("docs", str(club), "--summary", "--format", "md")
    assert code == 2 and "--summary" in err


def test_pdf_needs_an_output_file(club):
    code, out, err = run_cli("docs", str(club), "--format", "pdf")
    assert code == 2 and "--output" in err and out == ""


def test_without_chromium_pdf_is_a_clear_error(club, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("COINCHE_CHROMIUM", raising=False)
    target = tmp_path / "sheet.pdf"
    code, _, err = run_cli("docs", str(club), "--summary", "--format", "pdf", "-o", str(target))
    assert code == 2 and "headless Chromium" in err and "Traceback" not in err
    assert err.count("\n") == 1 and not target.exists()
    monkeypatch.setenv("COINCHE_CHROMIUM", "no-such-browser")
    code, _, err = run_cli("docs", str(club), "--format", "pdf", "-o", str(target))
    assert code == 2 and "COINCHE_CHROMIUM" in err and not target.exists()


# --- in headless Chromium -----------------------------------------------------------------------

def test_summary_pdf_is_two_a4_pages_with_the_text(club, tmp_path, monkeypatch):
    monkeypatch.setenv("COINCHE_CHROMIUM", browser.chromium())
    target = tmp_path / "our-club.pdf"
    code, _, err = run_cli("docs", str(club), "--summary", "--format", "pdf", "-o", str(target))
    assert code == 0, err
    assert target.read_bytes().startswith(b"%PDF-")
    assert "(A4)" in page_size(target)
    assert browser.pdf_pages(target) <= 2
    text = browser.pdf_text(target)
    for words in ("Le Club des As: house rules", "What we play differently", "The belote is counted automatically",
                  "Scoring a deal", "Bid 90 hearts, take 89", "The match is played to 1500 points"):
        assert words in text, words
    # written again over itself: the PDF names its writer, so it may be replaced
    code, _, err = run_cli("docs", str(club), "--summary", "--format", "pdf", "-o", str(target))
    assert code == 0, err


def test_full_sheet_pdf_is_a4_with_its_appendix(club, tmp_path, monkeypatch):
    monkeypatch.setenv("COINCHE_CHROMIUM", browser.chromium())
    target = tmp_path / "full.pdf"
    code, _, err = run_cli("docs", str(club), "--format", "pdf", "-o", str(target))
    assert code == 0, err
    assert "(A4)" in page_size(target)
    assert browser.pdf_pages(target) > 2
    assert "Appendix: the full rules" in browser.pdf_text(target)


@pytest.mark.parametrize("ident", ["cafe-sans-tout-atout", "peer-bga", "federation-1500-x3"])
def test_summary_of_shipped_rule_sets_fits_two_pages(ident, tmp_path, monkeypatch):
    """Four card tables (sans atout, tout atout), and a program's 25 changes from its parent."""
    monkeypatch.setenv("COINCHE_CHROMIUM", browser.chromium())
    target = tmp_path / f"{ident}.pdf"
    code, _, err = run_cli("docs", ident, "--summary", "--format", "pdf", "-o", str(target))
    assert code == 0, err
    assert browser.pdf_pages(target) <= 2 and "(A4)" in page_size(target)
