"""``fuzz --impl`` takes every form of --impl spec: an adapter's short name, python:MODULE:FACTORY, and
a spec that names nothing is one line, exit status 2."""

from __future__ import annotations

import json

from coinche_spec.cli import main

from support import require_colver


MINE = '''from coinche_spec.protocol.server import Session


class Engine:
    """The reference engine's session behind the in-process protocol, under another name."""

    def __init__(self):
        self.session = Session()

    def start(self):
        reply, _ = self.session.handle({"cmd": "start", "protocol": 1})
        reply["implementation"] = {"name": "mine", "version": "1", "language": "Python", "homepage": None}
        return reply

    def configure(self, variant):
        return self.session.handle({"cmd": "configure", "variant": variant})[0]

    def run(self, case):
        return self.session.handle({"cmd": "run", "case": case})[0]
'''


def test_fuzz_drives_the_colver_adapter(capsys):
    require_colver()
    code = main(["fuzz", "--impl", "colver", "--variant", "colver", "--deals", "3", "--json"])
    out, err = capsys.readouterr()
    info = json.loads(out.strip().splitlines()[-1])
    assert code in (0, 1), err
    assert info["implementation"].startswith("colver ") and info["deals"] == 3 and info["cases"] > 0
    assert set(info["cases_by_kind"]) <= {"legal_cards", "auction", "deal", "perft"}   # the kinds colver answers


def test_fuzz_drives_a_python_object(capsys, tmp_path):
    engine = tmp_path / "mine.py"
    engine.write_text(MINE, encoding="utf-8")
    code = main(["fuzz", "--impl", f"python:{engine}:Engine", "--variant", "contree-701", "--deals", "2", "--json"])
    out, err = capsys.readouterr()
    info = json.loads(out.strip().splitlines()[-1])
    # the reference engine's own session, in-process: it agrees with the reference engine everywhere
    assert code == 0, err
    assert info["implementation"].startswith("mine 1") and info["deals"] == 2 and info["divergences"] == 0
    assert info["cases"] > 0


def test_a_spec_that_names_nothing_is_one_line(capsys, tmp_path):
    code = main(["fuzz", "--impl", f"python:{tmp_path / 'none.py'}:Engine", "--variant", "contree-701",
                 "--deals", "2"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith("coinche-spec: fuzz: --impl: python:") and "no file" in err
