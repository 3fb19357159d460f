"""coinche-spec site: the pages, their links, the folder rule, and the pages in headless Chromium.

Chromium checks are not optional: when CI=true and no Chromium is installed the test
fails (CI installs it); elsewhere it is skipped with the reason.
"""

from __future__ import annotations

import html
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from coinche_spec.site import build

from support import CLUB


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)


def links_of(path: Path) -> list[str]:
    p = _Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p.links


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site") / "out"
    written = build.write_site(root, deals=20, seed=3)
    return root, written


def test_the_site_has_every_rule_set_the_comparison_and_an_index(site):
    root, written = site
    from coinche_spec.variants import house_ids, shipped_ids
    for ident in shipped_ids() + house_ids():
        assert f"rules/{ident}.html" in written
    assert "index.html" in written and "compare/seeds.html" in written
    seeds = (root / "compare" / "seeds.html").read_text(encoding="utf-8")
    assert "2. Simulation: 20 deals" in seeds and "<svg" in seeds
    assert seeds.index(">federation<") < seeds.index(">contree-701<")     # in the order of the seed documents
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) == sorted(written)


def test_every_internal_link_resolves(site):
    root, _ = site
    checked = 0
    for page in root.rglob("*.html"):
        for link in links_of(page):
            url = urlparse(link)
            if url.scheme or link.startswith("#"):
                continue
            target = (page.parent / unquote(url.path)).resolve()
            assert target.is_file(), f"{page.relative_to(root)}: {link} does not resolve"
            assert root.resolve() in target.parents
            checked += 1
    assert checked > 10


def test_a_folder_that_is_not_empty_is_refused_unless_forced(tmp_path):
    (tmp_path / "mine.txt").write_text("keep")
    with pytest.raises(build.SiteError, match="not empty"):
        build.write_site(tmp_path, deals=0)
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]
    build.write_site(tmp_path, force=True, deals=0)
    assert (tmp_path / "mine.txt").read_text() == "keep" and (tmp_path / "index.html").is_file()


def test_no_file_is_written_outside_the_folder(tmp_path):
    for bad in ("../escape.html", "rules/../../x.html", "/etc/x.html"):
        with pytest.raises(build.SiteError):
            build._write(tmp_path, bad, "x", [])
    assert not (tmp_path.parent / "escape.html").exists()


def test_site_command_errors_are_one_line(tmp_path):
    from tests.test_compare import run_cli
    (tmp_path / "f").write_text("x")
    code, _, err = run_cli("site", str(tmp_path / "f"))
    assert code == 2 and "is not a folder" in err and len(err.strip().splitlines()) == 1
    code, _, err = run_cli("site", str(tmp_path / "no" / "such"))
    assert code == 2 and "does not exist" in err


# --- headless Chromium -----------------------------------------------------------------------------

def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI") == "true":
        pytest.fail("headless Chromium is needed for the site's browser checks (apt-get install -y chromium)")
    pytest.skip("no Chromium installed (CI installs it and runs this check)")


def _run_chromium(*args, timeout=180) -> subprocess.CompletedProcess:
    return subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                           "--allow-file-access-from-files", *args],
                          capture_output=True, text=True, timeout=timeout)


HARNESS = """<!DOCTYPE html><html><body>{frames}<pre id="result"></pre><script>
window.addEventListener("load", function () {{
  var out = [];
  for (const f of document.querySelectorAll("iframe")) {{
    var d = f.contentDocument, h1 = d && d.querySelector("h1");
    var links = d ? Array.from(d.querySelectorAll("a[href]")).map(a => a.href).join(" ") : "";
    out.push([f.dataset.page, d ? d.title : "", h1 ? h1.textContent : "", d && d.body ? d.body.innerText.length : -1,
              links].join("\\t"));
  }}
  document.getElementById("result").textContent = out.join("\\n");
}});
</script></body></html>"""


def test_every_page_loads_in_chromium_and_its_links_point_at_pages(site, tmp_path):
    root, written = site
    pages = [p for p in written if p.endswith(".html")]
    frames = "".join(f'<iframe data-page="{p}" src="{(root / p).resolve().as_uri()}"></iframe>' for p in pages)
    harness = tmp_path / "harness.html"       # beside the site, never in it
    harness.write_text(HARNESS.format(frames=frames), encoding="utf-8")
    done = _run_chromium("--virtual-time-budget=20000", "--dump-dom", harness.as_uri())
    assert done.returncode == 0, done.stderr[-500:]
    from html import unescape
    result = unescape(done.stdout.split('<pre id="result">', 1)[1].split("</pre>", 1)[0])
    rows = [line.split("\t") for line in result.splitlines()]
    assert sorted(r[0] for r in rows) == sorted(pages)
    for page, title, h1, length, links in rows:
        assert title and h1 and int(length) > 100, f"{page} did not render"
        for link in links.split():
            url = urlparse(link)
            if url.scheme == "file":
                assert Path(unquote(url.path)).is_file(), f"{page}: Chromium resolves {link} to nothing"


def test_the_comparison_page_renders_a_screenshot(site, tmp_path):
    root, _ = site
    shot = tmp_path / "seeds.png"
    done = _run_chromium(f"--screenshot={shot}", "--window-size=1200,1600",
                         (root / "compare" / "seeds.html").resolve().as_uri())
    assert done.returncode == 0, done.stderr[-500:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


# --- a club's own rule set, the front page, the reports from any install ---------------------------



@pytest.fixture(scope="module")
def club_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("club")
    club = folder / "our-club.yaml"
    club.write_text(CLUB, encoding="utf-8")
    root = folder / "out"
    written = build.write_site(root, deals=10, seed=3, variants=[str(club), "cafe-701", str(club)])
    return root, written


def test_a_club_rule_set_is_added_first_with_its_comparison(club_site):
    root, written = club_site
    assert "rules/our-club.html" in written and "compare/our-club.html" in written
    page = (root / "rules" / "our-club.html").read_text(encoding="utf-8")
    assert "Le Club des As: house rules" in page and "What we play differently" in page
    index = (root / "index.html").read_text(encoding="utf-8")
    yours = index.split("<h3>Your rule sets (2)</h3>", 1)[1].split("<h3>", 1)[0]
    assert 'href="rules/our-club.html"' in yours and 'href="rules/cafe-701.html"' in yours
    listing = index.split('id="rule-sets"', 1)[1]
    assert listing.count('href="rules/cafe-701.html"') == 1      # listed once, among the club's
    assert 'href="compare/our-club.html"' in index
    compare = (root / "compare" / "our-club.html").read_text(encoding="utf-8")
    assert "federation" in compare and "our-club" in compare


def test_the_front_page_lists_every_rule_set_by_kind_and_the_results_board(site):
    root, _ = site
    from coinche_spec.variants import registry
    index = (root / "index.html").read_text(encoding="utf-8")
    assert "<style>" in index and "<script" not in index
    for heading in ("Seed rule sets", "Published rule books", "Programs' rule sets", "House examples"):
        assert f"<h3>{html.escape(heading)} (" in index, heading
    for kind in ("seed", "published", "implementation", "house"):
        for ident in registry.ids(kind):
            assert f'href="rules/{ident}.html"' in index, ident
            assert (root / "rules" / f"{ident}.html").is_file()
    board = index.split('<table class="board">', 1)[1].split("</table>", 1)[0]
    assert 'href="implementations/colver.html"' in board and "colver 0.11.1" in board
    # colver's report (docs/implementations/colver.json, its footer's by_variant): 293 passed of 293
    # answered under its own rule set, the seeds refused
    assert '<td class="pass" title="293 pass, 54 skip, 410 n/a">293/293</td>' in board
    assert board.count('class="refused"') == 5


def test_a_variant_whose_id_is_a_shipped_one_is_refused(tmp_path):
    bad = tmp_path / "federation.yaml"
    bad.write_text(CLUB.replace("id: our-club", "id: federation"), encoding="utf-8")
    with pytest.raises(build.SiteError, match="already a shipped rule set"):
        build.write_site(tmp_path / "out", deals=0, variants=[str(bad)])
    assert not (tmp_path / "out").exists()


def test_reports_are_found_from_a_plain_install(monkeypatch, tmp_path):
    """A wheel installs docs/implementations/ as coinche_spec/shipped_reports (pyproject.toml), and an
    installed copy reads them there, not next to the package where only a clone has them."""
    import tomllib
    from coinche_spec import resources
    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    tool = project["tool"]["setuptools"]
    assert tool["package-dir"]["coinche_spec.shipped_reports"] == "docs/implementations"
    assert set(tool["package-data"]["coinche_spec.shipped_reports"]) >= {"*.html", "*.json"}
    assert "coinche_spec.shipped_reports" in tool["packages"]
    installed = tmp_path / "site-packages" / "coinche_spec"
    (installed / "shipped_reports").mkdir(parents=True)
    (installed / "shipped_reports" / "colver.json").write_text("{}")
    monkeypatch.setattr(resources, "_HERE", installed)
    monkeypatch.setattr(resources, "data_home", lambda: resources.DataHome(
        installed / "shipped_variants", installed / "shipped_corpus", "installed"))
    assert resources.reports_dir() == installed / "shipped_reports"


def test_site_variant_on_the_command_line(tmp_path):
    from tests.test_compare import run_cli
    club = tmp_path / "our-club.yaml"
    club.write_text(CLUB, encoding="utf-8")
    code, out, err = run_cli("site", str(tmp_path / "out"), "--variant", str(club), "--deals", "0")
    assert code == 0, err
    assert (tmp_path / "out" / "rules" / "our-club.html").is_file()
    code, _, err = run_cli("site", str(tmp_path / "out2"), "--variant", str(tmp_path / "missing.yaml"))
    assert code == 2 and "missing.yaml" in err and not (tmp_path / "out2").exists()


def test_the_front_page_renders_in_chromium(club_site, tmp_path):
    root, _ = club_site
    shot = tmp_path / "front.png"
    done = _run_chromium(f"--screenshot={shot}", "--window-size=1280,1600", (root / "index.html").resolve().as_uri())
    assert done.returncode == 0, done.stderr[-500:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
