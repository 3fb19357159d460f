"""Headless Chromium for the tests: print a page to PDF, take a screenshot, count pages, read text.

CI installs chromium and poppler-utils (.ci/run); there a missing browser is a
failure, not a skip. Elsewhere the browser tests skip with the reason.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")


def chromium() -> str:
    """The browser's command; fails under CI (CI=true) when it is missing, else skips."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    message = "headless Chromium is not installed (apt-get install -y chromium)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message + ": CI must run the browser checks")
    pytest.skip(message)


def poppler(tool: str) -> str:
    found = shutil.which(tool)
    if found:
        return found
    message = f"{tool} is not installed (apt-get install -y poppler-utils)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message + ": CI must run the browser checks")
    pytest.skip(message)


def start(browser: str, page: Path, work: Path, *, pdf: Path | None = None, png: Path | None = None):
    """Start one headless run (each with its own profile, so several can run at once)."""
    profile = work / f"profile-{(pdf or png).name}"
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check"]
    if pdf is not None:
        args += ["--no-pdf-header-footer", f"--print-to-pdf={pdf}"]
    else:
        args += ["--window-size=1100,1500", f"--screenshot={png}"]
    args.append(page.resolve().as_uri())
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=work)


def finish(proc, out: Path) -> Path:
    try:
        _, err = proc.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"chromium did not finish writing {out.name} in 180 s")
    assert out.is_file() and out.stat().st_size > 0, f"chromium wrote no {out.name}: {err.decode()[-500:]}"
    return out


def pdf_pages(pdf: Path) -> int:
    """Pages of a PDF, as pdfinfo counts them."""
    out = subprocess.run([poppler("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", out, re.M).group(1))


def pdf_text(pdf: Path) -> str:
    """The text of a PDF, whitespace made single spaces (lines wrap wherever the layout puts them)."""
    out = subprocess.run([poppler("pdftotext"), "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                         check=True).stdout.decode("utf-8")
    return " ".join(out.replace("\u00ad", "").split())


def png_pixels(png: Path) -> tuple[int, int, bytes]:
    """Width, height and the decompressed (still filtered) image data of a PNG."""
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    return width, height, zlib.decompress(idat)


def dump_dom(browser: str, url: str, work: Path, budget_ms: int = 5000) -> str:
    """The DOM after the page's scripts ran (``--dump-dom``), for a file URL that may carry a #fragment."""
    profile = work / f"profile-dom-{abs(hash(url))}"
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
            f"--virtual-time-budget={budget_ms}", "--dump-dom", url]
    try:
        done = subprocess.run(args, capture_output=True, timeout=180, cwd=work)
    except subprocess.TimeoutExpired:
        pytest.fail(f"chromium did not dump the DOM of {url} in 180 s")
    assert done.returncode == 0 and done.stdout, f"chromium dumped nothing: {done.stderr.decode()[-500:]}"
    return done.stdout.decode("utf-8")
