"""The examples the docs show a newcomer must keep working as they are written."""

import re
from pathlib import Path

from coinche_spec.cli import main

ROOT = Path(__file__).resolve().parents[1]


def yaml_blocks(doc: str) -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", (ROOT / doc).read_text(encoding="utf-8"), re.S)


def test_the_fixture_example_of_fixtures_md_loads_and_passes(tmp_path, capsys):
    (tmp_path / "example.yaml").write_text(yaml_blocks("docs/fixtures.md")[0], encoding="utf-8")
    assert main(["conformance", "--corpus-only", "--corpus", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "5 passed, 0 failed"


def test_the_house_table_of_fixtures_md_plays_its_three_fixtures(tmp_path, capsys, monkeypatch):
    blocks = yaml_blocks("docs/fixtures.md")
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "port.yaml").write_text(blocks[1], encoding="utf-8")
    (tmp_path / "port.yaml").write_text(blocks[2], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["conformance", "--corpus-only", "--corpus", ".", "--variant", "rulesets/port.yaml"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-3:] == ["by expectation: hand 3 passed, 0 failed; carried 0 passed, 0 failed; engine 0 passed, "
                          "0 failed", "0 errors, 0 timeouts, 0 n/a", "3 passed, 0 failed"]
    # with the shipped corpus, most verdicts are carried; the coinched 80 carries to plain contree-701
    assert main(["conformance", "--corpus", ".", "--variant", "rulesets/port.yaml"]) == 0
    assert "hand 3 passed, 0 failed; carried " in capsys.readouterr().out
    assert main(["conformance", "--corpus-only", "--corpus", ".", "--variant", "contree-701"]) == 0
    assert capsys.readouterr().out.splitlines()[-3].startswith("by expectation: hand 0 passed, 0 failed; "
                                                               "carried 1 passed, 0 failed")


def test_the_house_rules_example_of_the_readme_is_valid(tmp_path, capsys):
    (tmp_path / "our-club.yaml").write_text(yaml_blocks("README.md")[0], encoding="utf-8")
    assert main(["variants", "check", str(tmp_path / "our-club.yaml")]) == 0
    assert capsys.readouterr().out == "1 file valid\n"
    assert main(["variants", "diff", "federation", str(tmp_path / "our-club.yaml"), "--brief"]) == 0
    assert "match.target\n  federation: 2000\n  our-club: 1500" in capsys.readouterr().out
