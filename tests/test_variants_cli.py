"""`coinche-spec variants list|show|check`, through the real top-level main()."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from coinche_spec import cli, yamlstrict
from coinche_spec.resources import variants_dir
from coinche_spec.variants import loader

BROKEN = Path(__file__).parent / "broken"

HOUSE = """\
extends: federation
id: our-table
name: "Our table: federation to 1500"
status: house
rules:
  match: {target: 1500}
"""


@pytest.fixture(autouse=True)
def only_variants_command(monkeypatch):
    """main() builds every sub-command; these tests need only ours."""
    monkeypatch.setattr(cli, "COMMANDS", {"variants": "coinche_spec.variants.cli"})


@pytest.fixture
def shelf(tmp_path, monkeypatch):
    """A copy of the shipped variants plus one house variant, in place of variants/."""
    folder = tmp_path / "variants"
    (folder / "house").mkdir(parents=True)
    for ident in loader.shipped_ids():
        shutil.copy(variants_dir() / f"{ident}.yaml", folder / f"{ident}.yaml")
    (folder / "house" / "our-table.yaml").write_text(HOUSE, encoding="utf-8")
    monkeypatch.setenv("COINCHE_SPEC_HOME", str(tmp_path))
    return folder


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- list ----------------------------------------------------------------

def test_list_groups_the_rule_sets_by_kind(capsys, shelf, tmp_path):
    (shelf / "implementations").mkdir()
    (shelf / "implementations" / "some-engine.yaml").write_text(
        HOUSE.replace("our-table", "some-engine").replace("status: house", "status: interpreted"), encoding="utf-8")
    (tmp_path / "conformance" / "rulesets").mkdir(parents=True)
    (tmp_path / "conformance" / "rulesets" / "test-short.yaml").write_text(
        HOUSE.replace("our-table", "test-short"), encoding="utf-8")
    code, out, err = run(capsys, "variants", "list", "--tests")
    assert code == 0 and err == ""
    groups = [block.splitlines() for block in out.split("\n\n")]
    assert [g[0].split(" (")[0] for g in groups] == [
        "seed rule sets", "programs' rule sets", "house rule sets", "test rule sets"]  # no published one here
    assert [line.split()[0] for line in groups[0][1:]] == [
        "cafe-1000", "cafe-701", "cafe-sans-tout-atout", "contree-701", "federation"]
    fed_name = yaml.safe_load((variants_dir() / "federation.yaml").read_text(encoding="utf-8"))["name"]
    assert groups[0][5].split(None, 1)[1] == fed_name
    assert not any("[extends" in line for line in groups[0])
    rest = [[" ".join(line.split()) for line in g[1:]] for g in groups[1:]]
    assert rest == [["some-engine Our table: federation to 1500 [extends federation]"],
                    ["our-table Our table: federation to 1500 [extends federation]"],
                    ["test-short Our table: federation to 1500 [extends federation]"]]


def test_list_shows_the_shipped_kinds_and_counts_the_test_rule_sets(capsys):
    """Without --tests: seed, published, implementation and house groups, in that order; the
    test rule sets (for fixtures only) are a count in the last line."""
    from coinche_spec.variants import registry
    code, out, err = run(capsys, "variants", "list")
    assert code == 0 and err == ""
    blocks = out.rstrip("\n").split("\n\n")
    heads = [b.splitlines()[0] for b in blocks[:-1]]
    assert heads == ["seed rule sets (variants/):", "published rule books (variants/published/):",
                     "programs' rule sets (variants/implementations/):", "house rule sets (variants/house/):"]
    listed = {kind: [line.split()[0] for line in b.splitlines()[1:]]
              for kind, b in zip(("seed", "published", "implementation", "house"), blocks)}
    assert {"ffb-contree", "ffb-contree-sa-ta"} <= set(listed["published"])
    assert "colver" in listed["implementation"]
    assert len([i for i in listed["implementation"] if i.startswith("peer-")]) >= 8
    assert not any(i.startswith("test-") for ids in listed.values() for i in ids)
    tests = registry.ids("test")
    assert blocks[-1] == (f"{len(tests)} test rule sets (conformance/rulesets/) for the fixtures: "
                          "`variants list --tests` lists them")
    code, out, _ = run(capsys, "variants", "list", "--tests")
    assert code == 0 and all(f"  {i} " in out for i in tests)


def test_list_reports_an_invalid_variant_and_fails(capsys, shelf):
    (shelf / "house" / "our-table.yaml").write_text(HOUSE.replace("1500", "lots"), encoding="utf-8")
    code, out, _ = run(capsys, "variants", "list")
    assert code == 1
    bad = [line for line in out.splitlines() if line.strip().startswith("our-table")]
    assert len(bad) == 1 and "INVALID" in bad[0] and "rules.match.target: expected a whole number" in bad[0]


# --- show ----------------------------------------------------------------

def test_show_by_id_prints_the_file_as_written(capsys):
    code, out, _ = run(capsys, "variants", "show", "federation")
    assert code == 0
    assert out == (variants_dir() / "federation.yaml").read_text(encoding="utf-8")


def test_show_a_house_file_as_written_keeps_extends(capsys, shelf):
    code, out, _ = run(capsys, "variants", "show", "our-table")
    assert code == 0 and out == HOUSE
    code, out, _ = run(capsys, "variants", "show", "our-table", "--format", "json")
    assert code == 0 and json.loads(out) == yaml.safe_load(HOUSE)


def test_show_resolved_yaml_is_the_whole_rule_set_in_key_order(capsys, shelf):
    code, out, _ = run(capsys, "variants", "show", "our-table", "--resolved")
    assert code == 0
    data, _ = yamlstrict.load(out, "shown.yaml")  # what we print, we can read back strictly
    assert data == loader.load_variant("our-table").document
    assert data["rules"]["match"]["target"] == 1500  # the child's value
    fed = loader.load_variant("federation").document
    # the parent's key order, not sorted (less the description, which a child does not inherit)
    assert list(data) == [k for k in fed if k != "description"]
    assert list(data["rules"]) == list(fed["rules"]) == ["table", "deal", "auction", "play", "card_values",
                                                         "melds", "belote", "contract", "scoring", "match"]


def test_show_resolved_json_of_a_file(capsys, tmp_path):
    p = tmp_path / "mine.yaml"
    p.write_text(HOUSE, encoding="utf-8")
    code, out, _ = run(capsys, "variants", "show", str(p), "--resolved", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert "extends" not in doc and doc["id"] == "our-table" and doc["rules"]["match"]["target"] == 1500
    assert doc["rules"]["auction"] == loader.load_variant("federation").document["rules"]["auction"]


def test_show_unknown_id_is_a_user_error_naming_the_known_ids(capsys):
    code, out, err = run(capsys, "variants", "show", "federaton")
    assert code == 2 and out == ""
    assert err.startswith("coinche-spec: unknown variant id 'federaton' (did you mean 'federation'?); known ids: ")
    for ident in loader.shipped_ids():
        assert ident in err
    assert len(err.strip().splitlines()) == 1


def test_show_missing_file_is_a_user_error(capsys):
    code, _, err = run(capsys, "variants", "show", "no/such.yaml")
    assert code == 2 and err.strip() == "coinche-spec: no such variant file 'no/such.yaml'"


def test_show_an_invalid_file_prints_its_problems(capsys, monkeypatch):
    monkeypatch.chdir(BROKEN)
    code, out, err = run(capsys, "variants", "show", "unknown-rule.yaml")
    assert code == 2 and out == ""     # as docs, compare, deal: a rule set that does not load
    assert err.splitlines() == [
        "unknown-rule.yaml:8:5: rules.auction.coinch: unknown rule 'auction.coinch' (did you mean 'coinche'?)"]


def test_show_rejects_an_unknown_format(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["variants", "show", "federation", "--format", "toml"])
    assert exc.value.code == 2


# --- check ---------------------------------------------------------------

def test_check_valid_files(capsys, tmp_path):
    p = tmp_path / "mine.yaml"
    p.write_text(HOUSE, encoding="utf-8")
    files = [str(variants_dir() / f"{i}.yaml") for i in loader.shipped_ids()] + [str(p)]
    code, out, err = run(capsys, "variants", "check", *files)
    assert (code, out, err) == (0, f"{len(files)} file{'s' if len(files) != 1 else ''} valid\n", "")


def test_check_a_folder_stands_for_its_yaml_files(capsys):
    code, out, _ = run(capsys, "variants", "check", str(variants_dir()))
    assert (code, out) == (0, f"{len(loader.shipped_ids())} files valid\n")


def test_check_prints_one_line_per_problem_and_fails(capsys, monkeypatch):
    monkeypatch.chdir(BROKEN)
    code, out, _ = run(capsys, "variants", "check", "packets-sum.yaml", "anchors.yaml", "missing.yaml")
    assert code == 1
    assert out.splitlines() == [
        "packets-sum.yaml:8:14: rules.deal.packets: packets add up to 7 (3 + 2 + 2), not 8: "
        "each player receives eight cards",
        "anchors.yaml:9:12: rules.card_values.trump: anchor '&values' is not allowed: write the value out in full",
        "anchors.yaml:10:17: rules.card_values.tout_atout: alias '*values' is not allowed: "
        "write the value out in full",
        "missing.yaml: (top): no such file",
    ]


def test_check_the_whole_catalogue_fails_with_one_line_per_expectation(capsys, monkeypatch):
    monkeypatch.chdir(BROKEN)
    names = sorted(p.name for p in BROKEN.glob("*.yaml"))
    expected = sum(1 for n in names for line in (BROKEN / n).read_text().splitlines()
                   if line.startswith("# expect:"))
    code, out, _ = run(capsys, "variants", "check", ".")
    assert code == 1
    assert len(out.splitlines()) == expected
    assert "Traceback" not in out


def test_variants_without_an_action_shows_help(capsys):
    code, _, err = run(capsys, "variants")
    assert code == 2 and "list" in err and "check" in err


TABLE_TEMPLATE = """\
extends: federation
id: {id}
name: "A table"
status: house
rules:
  match: {{target: 1500}}
"""


def test_check_refuses_an_id_that_is_a_shipped_rule_sets(capsys, tmp_path):
    (tmp_path / "mine.yaml").write_text(TABLE_TEMPLATE.format(id="federation"))
    code, out, _ = run(capsys, "variants", "check", str(tmp_path / "mine.yaml"))
    assert code == 1
    assert out.startswith(f"{tmp_path / 'mine.yaml'}:2:5: id: 'federation' is already the id of the seed rule set")


def test_check_refuses_two_files_with_one_id_but_not_one_file_named_twice(capsys, tmp_path):
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(TABLE_TEMPLATE.format(id="our-table"))
    a, b = str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")
    assert run(capsys, "variants", "check", a, a)[:2] == (0, "2 files valid\n")  # the same file twice: no clash
    code, out, _ = run(capsys, "variants", "check", a, b)
    assert code == 1 and out == f"{b}:2:5: id: 'our-table' is also the id of {a}\n"


def test_check_an_empty_folder_is_an_error(capsys, tmp_path):
    code, out, err = run(capsys, "variants", "check", str(tmp_path))
    assert code == 2 and out == "" and "holds no .yaml file" in err


# --- check: what a house file sets that cannot matter ----------------------------------

MOOT = """\
extends: contree-701
id: our-moot-table
name: "Our table"
status: house
rules:
  melds: {runs: {'3': 30}}
  auction:
    surcoinche: {allowed: false, multiplier: 8}
  card_values:
    sans_atout: {J: 20, "9": 14, A: 11, T: 10, K: 4, Q: 3, "8": 0, "7": 0}
  match: {belote_validation_deals: any_deal}
"""


def test_check_warns_of_each_rule_a_house_file_sets_that_cannot_matter(capsys, tmp_path):
    """contree-701 plays no melds, no sans atout and no belote condition; the file turns the
    surcoinche off: each value it sets there changes no deal, a located warning each (exit 0)."""
    p = tmp_path / "moot.yaml"
    p.write_text(MOOT, encoding="utf-8")
    code, out, _ = run(capsys, "variants", "check", str(p))
    assert code == 0
    assert out.splitlines() == [
        f"{p}:6:23: rules.melds.runs.3: warning: cannot matter: melds are not played",
        f"{p}:8:46: rules.auction.surcoinche.multiplier: warning: cannot matter: there is no surcoinche",
        f"{p}:10:17: rules.card_values.sans_atout: warning: cannot matter: sans atout cannot be bid",
        f"{p}:11:36: rules.match.belote_validation_deals: warning: cannot matter: there is no condition on a belote",
        "1 file valid, 4 warnings"]
    code, out, _ = run(capsys, "variants", "check", "--strict", str(p))
    assert code == 1 and len(out.splitlines()) == 4 and "file valid" not in out


def test_check_judges_only_what_the_file_itself_changes(capsys, tmp_path):
    """An inherited moot value (contree-701's own sans atout table), a value restated as the parent
    has it, and a rule that matters are not warned of."""
    p = tmp_path / "fine.yaml"
    p.write_text(MOOT.split("rules:")[0] + "rules:\n  melds: {enabled: false}\n  match: {target: 1000, "
                 "belote_validation_deals: any_deal, belote_validation: true}\n", encoding="utf-8")
    assert run(capsys, "variants", "check", "--strict", str(p))[:2] == (0, "1 file valid\n")


def test_every_shipped_rule_set_passes_check_strict(capsys):
    """A shipped file that extends another sets nothing that cannot matter, or sets it as its quoted
    source states it, or because the other rules need it written (a strain order naming TA and SA)."""
    from coinche_spec.variants import registry
    files = [str(registry.file_for_id(i)[0]) for i in loader.known_ids()]
    code, out, _ = run(capsys, "variants", "check", "--strict", *files)
    assert (code, out) == (0, f"{len(files)} files valid\n")


def test_a_source_field_under_interpretations_is_pointed_to_sources(tmp_path, capsys):
    """`decided_by` is a house decision's field: written in an interpretation it gets more than
    "unknown field"."""
    f = tmp_path / "club.yaml"
    f.write_text("extends: federation\nid: club\nname: Club\nstatus: house\ninterpretations:\n"
                 "  - id: shorter\n    question: How long is a match?\n    reading: 1500 points.\n"
                 "    decided_by: the Tuesday table\n    rules: [match.target]\n"
                 "rules:\n  match: {target: 1500}\n", encoding="utf-8")
    assert cli.main(["variants", "check", str(f)]) != 0
    out, err = capsys.readouterr()
    line = next(x for x in (out + err).splitlines() if "decided_by" in x)
    assert f"{f}:9:5: interpretations[0].decided_by: unknown field 'decided_by': it belongs under `sources:`" in line
    assert "a house decision" in line
