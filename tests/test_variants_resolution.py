"""Which copy of the rule sets a run reads, and how every reference (id, file, document) resolves.

The order (coinche_spec/resources.py): $COINCHE_SPEC_HOME, the package's own
checkout, the clone holding the working folder, the installed copy. The end
to end test installs nothing: it lays the package out as a wheel would (the
package without its checkout, the data inside it) and runs it from a clone.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coinche_spec import cli, resources
from coinche_spec.protocol.server import Session
from coinche_spec.variants import VariantError, load_variant, registry

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = '[build-system]\nrequires = []\n\n[project]\nname = "{name}"\nversion = "0"\n'


def clone(where: Path, name: str = "coinche-spec") -> Path:
    """A folder that looks like a checkout: pyproject.toml naming the project, variants/."""
    (where / "variants" / "house").mkdir(parents=True)
    (where / "conformance").mkdir()
    (where / "pyproject.toml").write_text(PYPROJECT.format(name=name), encoding="utf-8")
    return where


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """The package as if installed: its folder has no checkout around it."""
    site = tmp_path / "site" / "coinche_spec"
    site.mkdir(parents=True)
    monkeypatch.setattr(resources, "_HERE", site)
    monkeypatch.delenv(resources.HOME_VARIABLE, raising=False)
    return site


# --- the order -----------------------------------------------------------------------------

def test_the_project_name_is_read_from_the_project_section(tmp_path):
    p = tmp_path / "pyproject.toml"
    p.write_text('[tool.x]\nname = "other"\n\n[project]\nversion = "1"\nname = \'coinche-spec\'\n', encoding="utf-8")
    assert resources.project_name(p) == "coinche-spec"
    p.write_text('[project]\nname = "my-engine"\n', encoding="utf-8")
    assert resources.project_name(p) == "my-engine"
    assert resources.project_name(tmp_path / "none.toml") is None


def test_an_installed_package_run_from_a_clone_reads_the_clone(tmp_path, installed, monkeypatch, capsys):
    home = clone(tmp_path / "work")
    (home / "docs").mkdir()
    monkeypatch.chdir(home / "docs")  # anywhere inside the clone
    chosen = resources.data_home()
    assert (chosen.origin, chosen.variants, chosen.corpus) == ("clone", home / "variants", home / "conformance")
    resources.data_home()
    err = capsys.readouterr().err
    assert err == (f"coinche-spec: note: rule sets and corpus from the clone {home} (variants/, conformance/), "
                   f"not the copies installed with the package in {installed}; set COINCHE_SPEC_HOME to choose\n")


def test_an_installed_package_elsewhere_reads_its_own_copy(tmp_path, installed, monkeypatch, capsys):
    other = clone(tmp_path / "engine", name="my-engine")  # another project: not ours, and it stops the search
    inner = clone(tmp_path / "engine" / "vendor" / "cs")
    shutil.rmtree(inner / "variants")
    monkeypatch.chdir(other)
    chosen = resources.data_home()
    assert chosen.origin == "installed" and chosen.note is None
    monkeypatch.chdir(tmp_path)
    assert resources.data_home().origin == "installed"
    monkeypatch.chdir(inner)  # pyproject says coinche-spec but there is no variants/: not a checkout
    assert resources.data_home().origin == "installed"
    assert capsys.readouterr().err == ""


def test_the_environment_variable_comes_first(tmp_path, installed, monkeypatch, capsys):
    home = clone(tmp_path / "work")
    chosen_home = tmp_path / "mine"
    (chosen_home / "variants").mkdir(parents=True)
    monkeypatch.chdir(home)
    monkeypatch.setenv(resources.HOME_VARIABLE, str(chosen_home))
    chosen = resources.data_home()
    assert (chosen.origin, chosen.variants, chosen.corpus) == ("env", chosen_home / "variants",
                                                               chosen_home / "conformance")
    assert capsys.readouterr().err == ""
    monkeypatch.setenv(resources.HOME_VARIABLE, str(tmp_path / "nowhere"))
    with pytest.raises(resources.HomeError, match="COINCHE_SPEC_HOME=.*nowhere: no folder 'variants' there"):
        resources.data_home()
    assert cli.main(["variants", "list"]) == 2
    assert capsys.readouterr().err.startswith("coinche-spec: COINCHE_SPEC_HOME=")


def test_the_checkout_the_package_runs_from_comes_before_the_clone_one_is_in(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(resources.HOME_VARIABLE, raising=False)
    monkeypatch.chdir(ROOT)
    chosen = resources.data_home()
    assert (chosen.origin, chosen.variants, chosen.note) == ("package checkout", ROOT / "variants", None)
    other = clone(tmp_path / "other")
    monkeypatch.chdir(other)
    assert resources.data_home().variants == ROOT / "variants"
    assert capsys.readouterr().err == (f"coinche-spec: note: rule sets and corpus from {ROOT} (the checkout this "
                                       f"coinche-spec runs from), not from the clone {other} you are in; set "
                                       "COINCHE_SPEC_HOME to choose\n")


def test_every_rule_set_folder_goes_into_the_wheel():
    """pyproject maps each folder of registry.py into the package (as in the wheel)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    mapped = dict(re.findall(r'^"(coinche_spec\.shipped_[\w.]+)" = "([\w/]+)"$', text, re.M))
    for kind, folder in registry.folders():
        rel = folder.relative_to(ROOT).as_posix()
        assert rel in mapped.values(), f"{kind} rule sets ({rel}) are not mapped into the package"
        package = next(p for p, f in mapped.items() if f == rel)
        assert f'"{package}" = ["*.yaml"' in text, f"{rel}: its *.yaml files are not package data"
        assert f'"{package}",' in text, f"{package} is not in the packages list"
        assert folder.is_dir(), f"{rel} is missing (an empty folder needs its README)"


def test_an_installed_copy_run_from_a_clone_end_to_end(tmp_path):
    """The README's `variants check` after a non-editable install: no false clash, the clone's
    edits and new files seen. The package is copied as a wheel lays it out, data inside it."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "coinche_spec", site / "coinche_spec", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "variants", site / "coinche_spec" / "shipped_variants")
    work = tmp_path / "clone"
    shutil.copytree(ROOT / "variants", work / "variants")
    (work / "conformance").mkdir()
    shutil.copy(ROOT / "pyproject.toml", work / "pyproject.toml")
    seed = work / "variants" / "contree-701.yaml"
    seed.write_text(seed.read_text(encoding="utf-8").replace('name: "Contrée, plain, to 701"',
                                                             'name: "Edited in the clone"'), encoding="utf-8")
    house = (work / "variants" / "house" / "federation-1500-x3.yaml").read_text(encoding="utf-8")
    (work / "variants" / "house" / "our-club.yaml").write_text(
        house.replace("id: federation-1500-x3", "id: our-club"), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop(resources.HOME_VARIABLE, None)

    def run(*argv):
        return subprocess.run([sys.executable, "-m", "coinche_spec", *argv], cwd=work, env=env,
                              capture_output=True, text=True, timeout=120)

    files = sorted(str(p.relative_to(work)) for p in (work / "variants").rglob("*.yaml"))
    done = run("variants", "check", *files)
    assert (done.returncode, done.stdout) == (0, f"{len(files)} files valid\n"), done.stdout
    assert done.stderr.count("\n") == 1 and f"rule sets and corpus from the clone {work}" in done.stderr
    done = run("variants", "list")
    assert done.returncode == 0
    assert "Edited in the clone" in done.stdout and re.search(r"^  our-club +Federation", done.stdout, re.M)


# --- every kind of rule set, by id ---------------------------------------------------------

def test_every_kind_resolves_by_id_and_an_id_names_one_file(tmp_path, monkeypatch):
    home = clone(tmp_path)
    monkeypatch.setenv(resources.HOME_VARIABLE, str(home))
    parent = (ROOT / "variants" / "federation.yaml").read_text(encoding="utf-8")
    (home / "variants" / "federation.yaml").write_text(parent, encoding="utf-8")
    child = 'extends: federation\nid: {id}\nname: "{id}"\nstatus: house\nrules:\n  match: {{target: 1500}}\n'
    places = {"published": "variants/published", "implementation": "variants/implementations",
              "house": "variants/house", "test": "conformance/rulesets"}
    for kind, rel in places.items():
        (home / rel).mkdir(parents=True, exist_ok=True)
        (home / rel / f"one-{kind}.yaml").write_text(child.format(id=f"one-{kind}"), encoding="utf-8")
    assert registry.by_kind() == {"seed": ["federation"], "published": ["one-published"],
                                  "implementation": ["one-implementation"], "house": ["one-house"],
                                  "test": ["one-test"]}
    for kind in places:
        v = load_variant(f"one-{kind}")
        assert v.id == f"one-{kind}" and v.rules.match.target == 1500
        assert registry.kind_of(v.path) == kind
    # a client may name any of them too
    assert Session().handle({"cmd": "configure", "variant": "one-test"})[0] == {"ok": True}
    (home / "variants" / "house" / "one-test.yaml").write_text(child.format(id="one-test"), encoding="utf-8")
    with pytest.raises(VariantError) as exc:
        load_variant("one-test")
    assert exc.value.lines[0].startswith("<variant>: id: variant id 'one-test' is given by more than one file: ")


# --- references that name nothing: one located line, never a traceback (issue 11, item 6) ----

LONG = "a" * 300


@pytest.mark.parametrize("argv", [
    ("deal", "--variant", LONG), ("docs", LONG), ("variants", "show", LONG),
    ("variants", "diff", "federation", LONG), ("conformance", "--variant", LONG),
])
def test_an_id_too_long_for_a_file_name_is_one_line(capsys, argv):
    assert cli.main(list(argv)) == 2
    out, err = capsys.readouterr()
    quoted = "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa… (300 characters)'"
    # conformance names the option too: `--variant <the reference, clipped>: `
    err = err.replace(f"--variant {quoted[1:-1]}: ", "")
    assert out == "" and err == (f"coinche-spec: {quoted} is too long to be a variant id (at most 200 characters)\n")


def test_a_path_too_long_for_a_file_name_is_one_line(capsys):
    assert cli.main(["deal", "--variant", LONG + ".yaml"]) == 2
    assert capsys.readouterr().err.endswith("(305 characters)': File name too long\n")
    assert cli.main(["variants", "check", LONG + ".yaml"]) == 1
    assert capsys.readouterr().out == f"{LONG}.yaml: (top): cannot read: File name too long\n"


@pytest.mark.parametrize("argv, code, stream", [
    (("variants", "check", "{loop}"), 1, "out"), (("variants", "show", "{loop}"), 2, "err"),
    (("variants", "diff", "federation", "{loop}"), 2, "err"), (("deal", "--variant", "{loop}"), 2, "err"),
    (("docs", "{loop}"), 2, "err"), (("conformance", "--variant", "{loop}"), 2, "err"),
])
def test_a_symlink_loop_is_one_line(tmp_path, capsys, argv, code, stream):
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    assert cli.main([a.format(loop=loop) for a in argv]) == code
    out, err = capsys.readouterr()
    text = out if stream == "out" else err
    assert text.count("\n") == 1 and "Traceback" not in out + err
    assert text.endswith(f"{loop}: (top): cannot follow '{loop}': a symlink loop\n")


def test_extending_a_symlink_loop_is_located_at_the_extends(tmp_path):
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    child = tmp_path / "child.yaml"
    child.write_text("id: child\nextends: loop.yaml\nname: C\nstatus: house\n", encoding="utf-8")
    with pytest.raises(VariantError) as exc:
        load_variant(child)
    assert exc.value.lines == [f"{child}:2:10: extends: cannot follow '{loop}': a symlink loop"]


def test_diff_with_an_invalid_file_says_where(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nextends: federation\nname: B\nstatus: house\nrules: {match: {target: lots}}\n",
                   encoding="utf-8")
    assert cli.main(["variants", "diff", "federation", str(bad)]) == 2    # a rule set that does not load
    out, err = capsys.readouterr()
    assert out == "" and err == f"{bad}:5:25: rules.match.target: expected a whole number or null, got 'lots' (text)\n"


# --- what a protocol client may name (issue 11, items 7 and 8) ------------------------------

DOC = {"id": "client-rules", "name": "Client rules", "status": "house"}


@pytest.mark.parametrize("extends", ["/etc/passwd", "../variants/federation.yaml", "variants/federation.yaml",
                                     "/no/such/file.yaml", str(ROOT / "variants" / "federation.yaml")])
def test_configure_extends_an_id_only_and_says_nothing_of_the_servers_files(extends):
    reply, _ = Session().handle({"cmd": "configure", "variant": dict(DOC, extends=extends)})
    assert reply["ok"] is False
    # the same reply whether the file exists or not: the server opened nothing
    assert reply["message"].startswith("variant rejected: <configure>: extends: a document sent as data may "
                                       "extend a rule set id only, not a file path; known ids: cafe-1000, ")


@pytest.mark.parametrize("ref", ["/etc/passwd", "variants/federation.yaml", "../x.yaml", LONG])
def test_configure_by_name_takes_an_id_only(ref):
    reply, _ = Session().handle({"cmd": "configure", "variant": ref})
    assert reply["ok"] is False and reply["message"].startswith("variant rejected: <configure>: id: ")
    assert str(ROOT) not in reply["message"]


@pytest.mark.parametrize("rules, message", [
    ({"match": {"target": "lots"}}, "rules.match.target: expected a whole number or null, got 'lots' (text)"),
    ({"match": {"targt": 1500}}, "rules.match.targt: unknown rule 'match.targt' (did you mean 'target'?)"),
    ({"auction": {"coinche": {"multiplier": 1}}},
     "rules.auction.coinche.multiplier: 1 is below the least allowed value, 2"),
])
def test_configure_problems_are_located_in_the_clients_document(rules, message):
    reply, _ = Session().handle({"cmd": "configure", "variant": dict(DOC, extends="federation", rules=rules)})
    assert reply == {"ok": False, "message": f"variant rejected: <configure>: {message}"}


def test_a_problem_with_an_inherited_value_is_the_clients_too(tmp_path):
    # a lowest bid above the parent's highest: the finding is at `maximum`, which the document
    # inherits; it is still located in the document, never at a line of the server's file
    doc = dict(DOC, extends="contree-701", rules={"auction": {"bids": {"minimum": 200}}})
    reply, _ = Session().handle({"cmd": "configure", "variant": doc})
    assert reply == {"ok": False, "message": "variant rejected: <configure>: rules.auction.bids.maximum: the highest "
                                             "bid 160 is below the lowest bid 200"}
    # the same document in a file: the inherited value is shown where it is written, and the
    # file's own value that took part is named
    mine = tmp_path / "mine.yaml"
    mine.write_text("id: client-rules\nname: C\nstatus: house\nextends: contree-701\n"
                    "rules: {auction: {bids: {minimum: 200}}}\n", encoding="utf-8")
    with pytest.raises(VariantError) as exc:
        load_variant(mine)
    assert re.fullmatch(r".*variants/contree-701\.yaml:\d+:\d+: rules\.auction\.bids\.maximum: the highest bid 160 "
                        r"is below the lowest bid 200 \(set by " + re.escape(str(mine)) + r":5:35: "
                        r"rules\.auction\.bids\.minimum\)", exc.value.lines[0]), exc.value.lines


def test_a_server_with_a_wrong_home_says_so_without_its_path(tmp_path, monkeypatch):
    monkeypatch.setenv(resources.HOME_VARIABLE, str(tmp_path / "secret-place"))
    reply, _ = Session().handle({"cmd": "configure", "variant": "federation"})
    assert reply["ok"] is False and "secret-place" not in reply["message"]
    assert reply["message"].startswith("the server cannot find its rule sets")
