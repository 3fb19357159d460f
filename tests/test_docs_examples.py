"""The examples the docs show a newcomer must keep working as they are written."""

import re
from pathlib import Path

from coinche_spec.cli import main

ROOT = Path(__file__).resolve().parents[1]


def yaml_blocks(doc: str) -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", (ROOT / doc).read_text(encoding="utf-8"), re.S)


def test_the_fixture_example_of_fixtures_md_loads_and_passes(tmp_path, capsys):
    (tmp_path / "example.yaml").write_text(yaml_blocks("docs/fixtures.md")[0], encoding="utf-8")
    assert main(["conformance", "--corpus", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "5 passed, 0 failed"


def test_the_house_rules_example_of_the_readme_is_valid(tmp_path, capsys):
    (tmp_path / "our-club.yaml").write_text(yaml_blocks("README.md")[0], encoding="utf-8")
    assert main(["variants", "check", str(tmp_path / "our-club.yaml")]) == 0
    assert capsys.readouterr().out == "1 file valid\n"
    assert main(["variants", "diff", "federation", str(tmp_path / "our-club.yaml"), "--brief"]) == 0
    assert "match.target\n  federation: 2000\n  our-club: 1500" in capsys.readouterr().out
