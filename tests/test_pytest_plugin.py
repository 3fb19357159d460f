"""The pytest plugin: the corpus as items inside somebody else's pytest suite.

Each test writes a small suite of its own in a temporary folder and runs pytest on it in a
separate process, with the plugin named by ``-p`` (its entry point is active only where the
package is installed). The counts it must print are worked out from the corpus itself: one item
per fixture that has an applicable hand or carried expectation under the rule set, plus the
suite's own test.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from coinche_spec.conformance.carry import find
from coinche_spec.conformance.fixtures import load_corpus
from coinche_spec.variants import load_variant

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = "coinche_spec.conformance.pytest_plugin"
SERVE = f'"{sys.executable}" -m coinche_spec serve'
OFF_BY_ONE = f'"{sys.executable}" "{ROOT / "tests" / "impls" / "off_by_one.py"}"'

OWN_TEST = """
import sys

def test_own():
    # the plugin imports nothing of coinche-spec unless --coinche-impl is given
    assert ("coinche_spec.conformance.runner" in sys.modules) == ("--coinche-impl" in " ".join(sys.argv))
"""


@pytest.fixture
def suite(tmp_path):
    (tmp_path / "test_own.py").write_text(OWN_TEST)
    return tmp_path


def pytest_run(folder: Path, *args: str, timeout: float = 600, plugin: bool = True,
               path: tuple = ()) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([*map(str, path), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    named = ["-p", PLUGIN] if plugin else []
    return subprocess.run([sys.executable, "-m", "pytest", *named, "-p", "no:cacheprovider", *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=timeout)


def counts(output: str) -> dict:
    last = output.strip().splitlines()[-1]
    return {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|deselected|errors?)", last)}


def applicable(variant_id: str, engine_verdicts: bool = False) -> int:
    """Pairs with an applicable hand or carried expectation, and (for an implementation that is not
    the reference engine) those with none, which get an engine verdict."""
    variant = load_variant(variant_id)
    sources = [find(f, variant) for f in load_corpus()]
    return sum(1 for s in sources if (s is None and engine_verdicts) or (s is not None and s.expectation.applicable))


def installed(tmp_path) -> Path:
    """A folder holding the package's metadata as pip would install it: pyproject's pytest11 entry point."""
    import tomllib
    points = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["pytest11"]
    info = tmp_path / "site" / "coinche_spec-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: coinche-spec\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[pytest11]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()))
    return tmp_path / "site"


def test_the_entry_point_loads_the_plugin_and_minds_an_explicit_p(suite, tmp_path):
    site = installed(tmp_path)
    args = ("--coinche-impl", SERVE, "--coinche-variant", "contree-701", "-k", "score-089-on-090")
    done = pytest_run(suite, *args, plugin=False, path=(site,))
    assert done.returncode == 0 and counts(done.stdout) == {"passed": 1, "deselected": applicable("contree-701")}, \
        done.stdout + done.stderr
    done = pytest_run(suite, *args, path=(site,))          # -p as well: registered once, not twice
    assert done.returncode == 0 and counts(done.stdout)["passed"] == 1, done.stdout + done.stderr
    done = pytest_run(suite, plugin=False, path=(site,))   # installed, without the option: nothing added
    assert done.returncode == 0 and counts(done.stdout) == {"passed": 1}, done.stdout + done.stderr


def test_without_the_option_the_plugin_adds_nothing(suite):
    done = pytest_run(suite)
    assert done.returncode == 0, done.stdout + done.stderr
    assert counts(done.stdout) == {"passed": 1}


def test_against_serve_every_item_passes_and_the_count_is_the_corpus(suite):
    done = pytest_run(suite, "--coinche-impl", SERVE, "--coinche-variant", "contree-701")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    # the reference engine gets no engine verdicts: only hand and carried expectations are items
    assert counts(done.stdout) == {"passed": applicable("contree-701") + 1}


def test_items_are_named_fixture_and_rule_set(suite):
    done = pytest_run(suite, "--coinche-impl", SERVE, "--coinche-variant", "contree-701",
                      "--coinche-variant", "federation", "--collect-only", "-q", "-k", "score-089-on-090")
    assert done.returncode == 0, done.stdout + done.stderr
    ids = [line for line in done.stdout.splitlines() if line.startswith("coinche-conformance::")]
    assert ids == ["coinche-conformance::score-089-on-090[contree-701]",
                   "coinche-conformance::score-089-on-090[federation]"]


def engine_judged_failed_contract() -> tuple[str, str]:
    """A rule set and a score or deal fixture no hand or carried expectation covers there, whose contract
    fails: off by one gets it wrong, and only an engine verdict can say so. Picked from the corpus as it
    is, since every new hand expectation shrinks the engine-judged cases."""
    from coinche_spec.protocol.client import InProcess
    from coinche_spec.variants.loader import known_ids
    corpus = load_corpus()
    for vid in known_ids():
        variant = load_variant(vid)
        impl = InProcess()
        impl.start()
        try:
            assert impl.configure(variant.document) == {"ok": True}
            for f in corpus:
                if f.kind not in ("score", "deal") or find(f, variant) is not None:
                    continue
                if impl.run(f.id, f.case).get("result", {}).get("made") is False:
                    return vid, f.id
        finally:
            impl.stop()
    raise AssertionError("no rule set has an engine-judged score or deal fixture whose contract fails")


def test_a_faulty_implementation_fails_with_the_fixture_and_its_rules(suite):
    other, engine_judged = engine_judged_failed_contract()
    done = pytest_run(suite, "--coinche-impl", OFF_BY_ONE, "--coinche-variant", "contree-701",
                      "--coinche-variant", other)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr
    got = counts(done.stdout)
    assert got["failed"] > 0 and got["passed"] > 1
    out = done.stdout
    # 90 hearts, NS take 79 + 10 = 89: failed, the defenders score 162 + 90 = 252; off by one gives 253
    assert "FAIL score-089-on-090 under contree-701: Bid 90 hearts" in out
    assert "scoring.yaml:" in out
    # the rules it depends on, on a line of their own
    rules = ", ".join(next(f for f in load_corpus() if f.id == "score-089-on-090").depends_on)
    assert "scoring.failed.defenders" in rules
    assert f"depends on: {rules}" in out or f"rules: {rules}" in out
    assert "score.EW: expected 252, got 253" in out
    # engine verdicts are labelled as the runner labels them
    labelled = rf"FAIL {re.escape(engine_judged)} under {re.escape(other)}: .*\[expected by engine\]"
    assert re.search(labelled, out), out[-3000:]
    # a case the implementation gets right still passes
    assert "FAIL score-089-on-090 under contree-701" in out and "FAILED coinche-conformance::auction-" not in out


def test_junit_xml_carries_where_each_expectation_came_from(suite):
    done = pytest_run(suite, "--coinche-impl", OFF_BY_ONE, "--coinche-variant", "contree-701",
                      "-k", "score-089-on-090", "--junitxml", str(suite / "out.xml"))
    assert done.returncode == 1, done.stdout + done.stderr
    xml = (suite / "out.xml").read_text()
    assert 'name="score-089-on-090[contree-701]"' in xml
    assert '<property name="expected_by" value="hand" />' in xml and '<property name="outcome" value="fail" />' in xml
    assert "carried_from" not in xml   # written for contree-701 itself, carried from nowhere


def test_pytest_selection_and_maxfail_apply_to_the_items(suite):
    done = pytest_run(suite, "--coinche-impl", OFF_BY_ONE, "--coinche-variant", "contree-701", "-k", "score-089")
    # the one item selected, out of the corpus items and the suite's own test
    assert counts(done.stdout) == {"failed": 1, "deselected": applicable("contree-701", engine_verdicts=True)}
    done = pytest_run(suite, "--coinche-impl", OFF_BY_ONE, "--coinche-variant", "contree-701", "-x")
    assert counts(done.stdout).get("failed") == 1


COUNTING_ENGINE = '''
import os
from coinche_spec.protocol.server import Session

def log(word):
    with open(os.environ["ENGINE_LOG"], "a") as out:
        out.write(word + "\\n")

class Engine:
    """The reference engine's session, writing down every start and stop."""
    def __init__(self):
        self.session = Session()
    def start(self):
        log("start")
        return self.session.handle({"cmd": "start", "protocol": 1})[0]
    def configure(self, variant):
        return self.session.handle({"cmd": "configure", "variant": variant})[0]
    def run(self, case):
        log("run")
        reply = self.session.handle({"cmd": "run", "seq": 0, "case": case})[0]
        reply.pop("seq")
        return reply
    def stop(self):
        log("stop")
'''


def test_one_implementation_for_the_session_stopped_at_its_end(suite, monkeypatch):
    (suite / "counting_engine.py").write_text(COUNTING_ENGINE)
    log = suite / "engine.log"
    monkeypatch.setenv("ENGINE_LOG", str(log))
    done = pytest_run(suite, "--coinche-impl", f"python:{suite / 'counting_engine.py'}:Engine",
                      "--coinche-variant", "contree-701", "--coinche-variant", "federation", "-k", "score-")
    assert done.returncode == 0, done.stdout + done.stderr
    played = counts(done.stdout)["passed"]
    words = log.read_text().split()
    assert played > 2 and words == ["start"] + ["run"] * played + ["stop"]


@pytest.mark.parametrize("args, message", [
    (["--coinche-variant", "no-such-rules"], "--coinche-variant no-such-rules"),
    (["--coinche-timeout", "0"], "--coinche-timeout 0"),
])
def test_bad_options_are_one_line_and_no_traceback(suite, args, message):
    done = pytest_run(suite, "--coinche-impl", SERVE, *args)
    assert done.returncode == 4, done.stdout + done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr + done.stdout


def test_an_implementation_that_cannot_start_stops_the_session(suite):
    done = pytest_run(suite, "--coinche-impl", "/nonexistent/engine --stdio")
    assert done.returncode == 4, done.stdout + done.stderr
    assert 'coinche-spec: --coinche-impl "/nonexistent/engine --stdio" did not start' in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
