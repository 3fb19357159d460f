"""A printable HTML page made into an A4 PDF by headless Chromium.

Why Chromium rather than a Python library (WeasyPrint, say): the sheets are
laid out for a browser's print engine (CSS columns, ``break-inside``, grid),
and the tests already check them in headless Chromium, so the PDF a club
prints is the page the tests looked at; it adds no Python dependency (and
none of a library's native ones, Pango and Cairo). The cost is a browser on
the machine: without one, ``docs --format pdf`` says so and exits non-zero,
and ``--format html`` printed from any browser gives the same pages.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..errors import CoincheSpecError
from ..outputs import PDF_MARK

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
# a PDF comment after the end: the file names its writer, as every output does (outputs.written_by_us)
MARK = f"\n{PDF_MARK}\n".encode()
TIMEOUT = 120


class NoBrowser(CoincheSpecError):
    """No headless Chromium to print with."""


def browser() -> str:
    """The Chromium command: $COINCHE_CHROMIUM if set, else the first of BROWSERS on the PATH."""
    given = os.environ.get("COINCHE_CHROMIUM")
    if given:
        found = shutil.which(given)
        if not found:
            raise NoBrowser(f"COINCHE_CHROMIUM names '{given}', which is not a program on this machine")
        return found
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    raise NoBrowser("--format pdf prints the page with headless Chromium, which is not installed "
                    "(apt-get install chromium, or set COINCHE_CHROMIUM to the browser); "
                    "or write --format html and print it to PDF from any browser")


def to_pdf(page: str) -> bytes:
    """The PDF of an HTML page (A4: the page's own @page rule says so)."""
    command = browser()
    with tempfile.TemporaryDirectory(prefix="coinche-pdf-") as tmp:
        work = Path(tmp)
        source, out = work / "page.html", work / "page.pdf"
        source.write_text(page, encoding="utf-8")
        args = [command, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--user-data-dir={work / 'profile'}", "--no-first-run", "--no-default-browser-check",
                "--no-pdf-header-footer", f"--print-to-pdf={out}", source.as_uri()]
        try:
            done = subprocess.run(args, capture_output=True, timeout=TIMEOUT, cwd=work)
        except subprocess.TimeoutExpired:
            raise NoBrowser(f"{command} did not print the page within {TIMEOUT} s") from None
        except OSError as exc:
            raise NoBrowser(f"{command} could not be started: {exc.strerror or exc}") from None
        if not out.is_file() or out.stat().st_size == 0:
            said = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            raise NoBrowser(f"{command} wrote no PDF (exit {done.returncode}: {said[0]})")
        return out.read_bytes() + MARK
