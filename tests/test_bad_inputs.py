"""The bad-input catalogue (issue 11): every entry point, one table row per hostile input.

Each row gives an input, the exit status (or, for a protocol line, the kind of
reply) it must get, and a pattern the message must match: the file, the line
and column, and the field, as ``FILE:LINE:COL: path: ...``. Whatever the
input, no exception may escape the command (which is what a traceback is),
nothing may hang, and nothing the user gave may change.

Entry points: rule-set files (`variants check`), fixture files (`conformance
--corpus`), command-line options, output options, protocol lines (`serve`).
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

from coinche_spec.cli import main
from coinche_spec.outputs import MARK_COMMENT
from coinche_spec.protocol.server import Session

# --- rule-set files: `coinche-spec variants check bad.yaml` --------------------------------

# The house file every row starts from, line by line: a row replaces or adds lines.
HOUSE = [
    "id: bad-house",                 # 1
    "extends: federation",           # 2
    'name: "A bad house"',           # 3
    'description: "Catalogue."',     # 4
    "status: house",                 # 5
    "sources: []",                   # 6
    "interpretations: []",           # 7
    "rules:",                        # 8
    "  match:",                      # 9
    "    target: 1500",              # 10
]


def edited(template: list[str], **lines) -> str:
    """The template with line N replaced by lines['l<N>'] (None removes it) and lines['tail'] appended."""
    out = []
    for i, text in enumerate(template, start=1):
        new = lines.get(f"l{i}", text)
        if new is not None:
            out.append(new)
    out.extend(lines.get("tail", []))
    return "\n".join(out) + "\n"


def house(**lines) -> str:
    return edited(HOUSE, **lines)


def deep_yaml(levels: int) -> str:
    return "rules:\n  x: " + "[" * levels + "]" * levels + "\n"


VARIANT_FILES = [
    # (row id, text, pattern the output must match)
    ("target-text", house(l10="    target: lots"),
     r"bad\.yaml:10:13: rules\.match\.target: expected a whole number or null, got 'lots'"),
    ("target-negative", house(l10="    target: -5"), r"bad\.yaml:10:13: rules\.match\.target: .*below"),
    ("target-float", house(l10="    target: 1500.5"), r"bad\.yaml:10:13: rules\.match\.target: expected a whole number"),
    # (target: null is a rule now, no match: single deals; it is no longer a bad input)
    ("target-list", house(l10="    target: [1500]"), r"bad\.yaml:10:13: rules\.match\.target: expected a whole number"),
    ("target-yes", house(l10="    target: yes"), r"bad\.yaml:10:13: rules\.match\.target: 'yes' is read as true"),
    ("target-octal", house(l10="    target: 0700"), r"bad\.yaml:10:13: rules\.match\.target: '0700' is read as an octal"),
    ("target-base60", house(l10="    target: 15:00"), r"bad\.yaml:10:13: rules\.match\.target: '15:00' is read as a base-60"),
    ("target-inf", house(l10="    target: .inf"), r"bad\.yaml:10:13: rules\.match\.target: '\.inf' is not a plain number"),
    ("target-nan", house(l10="    target: .nan"), r"bad\.yaml:10:13: rules\.match\.target: '\.nan' is not a plain number"),
    ("target-date", house(l10="    target: 2024-01-01"), r"bad\.yaml:10:13: rules\.match\.target: '2024-01-01' is read as a date"),
    ("target-tag", house(l10="    target: !!int 1500"), r"bad\.yaml:10:13: rules\.match\.target: tag '!!int' is not allowed"),
    ("target-anchor", house(l10="    target: &t 1500"), r"bad\.yaml:10:13: rules\.match\.target: anchor '&t' is not allowed"),
    ("target-alias", house(l10="    target: *t"), r"bad\.yaml:10:13: rules\.match\.target: alias '\*t' is not allowed"),
    # YAML 1.1 spellings of numbers, read as text by YAML 1.2 readers (issue 19), like 0700 above
    ("target-underscore", house(l10="    target: 1_500"),
     r"bad\.yaml:10:13: rules\.match\.target: '1_500' is read as a number by YAML 1\.1 readers only"),
    ("target-binary", house(l10="    target: 0b101"),
     r"bad\.yaml:10:13: rules\.match\.target: '0b101' is read as a number by YAML 1\.1 readers only"),
    # past Python's 4,300 digits, int() raises: a number has at most 100 characters, as in a protocol line
    ("target-huge", house(l10="    target: " + "9" * 5000),
     r"bad\.yaml:10:13: rules\.match\.target: the number 999999999999\.\.\. has 5,000 characters; a number has "
     r"at most 100 here"),
    # characters that make an editor and a YAML reader see different lines
    ("line-separator", house(l4='description: "One line\u2028status: published"'),
     r"bad\.yaml:4:23: \(top\): U\+2028 \(LINE SEPARATOR\) inside the text: an editor shows one line where YAML "
     r"readers see two"),
    ("two-boms", "\ufeff\ufeff" + house(), r"bad\.yaml:1:1: \(top\): U\+FEFF \(a byte-order mark\) inside the text"),
    ("extends-trailing-space", house(l2='extends: "federation "'),
     r"bad\.yaml:2:10: extends: 'federation ' has blank space before or after it: write 'federation'"),
    ("extends-a-device", house(l2="extends: /dev/zero"),
     r"bad\.yaml:2:10: extends: '/dev/zero' is not a regular file \(a device, a FIFO or a socket\)"),
    ("target-twice", house(tail=["    target: 1000"]),
     r"bad\.yaml:11:5: rules\.match: duplicate key 'target' \(first written on line 10\)"),
    ("unknown-rule", house(l10="    targte: 1500"), r"bad\.yaml:10:5: rules\.match\.targte: unknown rule 'match\.targte' \(did you mean 'target'\?\)"),
    ("unknown-group", house(l9="  matchh:"), r"bad\.yaml:9:3: rules\.matchh: unknown rule 'matchh' \(did you mean 'match'\?\)"),
    ("unknown-top", house(tail=["colour: red"]), r"bad\.yaml:11:1: colour: unknown field 'colour'"),
    ("merge-key", house(tail=["  <<: {a: 1}"]), r"bad\.yaml:11:3: rules: merge key '<<' is not allowed"),
    ("key-is-number", house(tail=["  1: x"]), r"bad\.yaml:11:3: rules: key 1 is read as a whole number; keys must be text"),
    ("key-is-null", house(tail=["  ~: x"]), r"bad\.yaml:11:3: rules: key ~ is read as null"),
    ("key-is-bool", house(tail=["  on: x"]), r"bad\.yaml:11:3: rules: 'on' is read as true"),
    ("key-is-list", house(tail=["  [a, b]: x"]), r"bad\.yaml:11:3: rules: a key must be plain text"),
    ("direction-bad", house(l9="  table:", l10="    direction: sideways"),
     r"bad\.yaml:10:16: rules\.table\.direction: 'sideways' is not one of: 'anticlockwise', 'clockwise'"),
    ("direction-number", house(l9="  table:", l10="    direction: 3"),
     r"bad\.yaml:10:16: rules\.table\.direction: 3 is not one of"),
    ("status-bad", house(l5="status: homemade"), r"bad\.yaml:5:9: status: 'homemade' is not one of"),
    ("id-empty", house(l1='id: ""'), r"bad\.yaml:1:5: id: "),
    ("id-number", house(l1="id: 42"), r"bad\.yaml:1:5: id: expected text"),
    ("id-missing", house(l1=None), r"bad\.yaml:1:1: extends: a variant that extends another needs its own `id`"),
    ("sources-mapping", house(l6="sources: {a: 1}"), r"bad\.yaml:6:10: sources: expected a list"),
    ("interpretations-text", house(l7="interpretations: none"), r"bad\.yaml:7:18: interpretations: expected a list"),
    ("interpretation-unknown-field",
     house(l7="interpretations:", tail=[]).replace("interpretations:\n", "interpretations:\n  - {id: a, colour: red}\n"),
     r"bad\.yaml:8:\d+: interpretations\[0\]\.colour: unknown field 'colour'"),
    ("rules-list", house(l8="rules: []", l9=None, l10=None), r"bad\.yaml:8:8: rules: expected a mapping"),
    ("rules-text", house(l8="rules: all", l9=None, l10=None), r"bad\.yaml:8:8: rules: expected a mapping"),
    ("extends-missing-file", house(l2="extends: no-such-parent.yaml"),
     r"bad\.yaml:2:10: extends: no such file 'no-such-parent\.yaml'"),
    ("extends-unknown-id", house(l2="extends: federatoin"),
     r"bad\.yaml:2:10: extends: unknown variant id 'federatoin' \(did you mean 'federation'\?\)"),
    ("extends-number", house(l2="extends: 7"), r"bad\.yaml:2:10: extends: expected a variant id or a relative file path, got 7"),
    ("extends-self", house(l2="extends: bad.yaml"), r"bad\.yaml:2:10: extends: extends cycle: bad\.yaml -> bad\.yaml"),
    ("second-document", house(tail=["---", "id: other"]), r"bad\.yaml:11:1: \(top\): a second YAML document"),
    ("syntax-unclosed-brace", house(l10="    {target: 1500"), r"bad\.yaml:\d+:\d+: rules\.match.*: YAML syntax: "),
    ("syntax-bad-indent", house(l10="  target: 1500", tail=["     x: 1"]), r"bad\.yaml:11:\d+: .*YAML syntax: "),
    ("tab-indent", house(l10="\ttarget: 1500"), r"bad\.yaml:10:1: .*YAML syntax: found character '\\t'"),
    ("control-character", house(l3='name: "A \x07 house"'), r"bad\.yaml:3:\d+: \(top\): YAML syntax: .*special characters"),
    ("top-is-list", "- id: x\n", r"bad\.yaml:1:1: \(top\): a variant file is a mapping .* not a list"),
    ("top-is-text", "just words\n", r"bad\.yaml:1:1: \(top\): a variant file is a mapping .* not text"),
    ("empty-file", "", r"bad\.yaml: \(top\): a variant file is a mapping .* not an empty file"),
    ("deep-flow", deep_yaml(500), r"bad\.yaml:2:\d+: rules\.x(\[0\])+: nested more than 64 levels deep"),
    # both YAML parsers are quadratic in this: refused before parsing; "  x: " is 5 columns, bracket 1001 is at 1006
    ("deep-flow-100000", deep_yaml(100000),
     r"bad\.yaml:2:1006: \(top\): brackets nested more than 1000 levels deep"),
    ("deep-block", "rules:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 80)) + "  " * 80 + "v: 1\n",
     r"bad\.yaml:\d+:\d+: rules\.k1\.k2.*: nested more than 64 levels deep"),
    ("deep-list-in-sources", "sources:\n  - " + "[" * 100 + "]" * 100 + "\n",
     r"bad\.yaml:2:\d+: sources\[0\](\[0\])+: nested more than 64 levels deep"),
    # a source is one kind: a document, a program or a house decision, each with its fields
    ("source-two-kinds", house(l6="sources: [{seed: house, section: s, quote: q, repository: x, path: p, version: '1',"
                                  " rules: [match.target]}]"),
     r"^bad\.yaml:6:11: sources\[0\]: a source is a document, a program or a house decision, not several "
     r"\(document: seed, section; program: repository, path, version\)$"),
    ("source-document-ran", house(l6="sources: [{seed: house, section: s, quote: q, ran: it printed 3,"
                                     " rules: [match.target]}]"),
     r"^bad\.yaml:6:11: sources\[0\]: a source is a document, a program or a house decision, not several "
     r"\(document: seed, section; program: ran\)$"),
    ("source-program-no-version", house(l6="sources: [{repository: github.com/x/y, path: a.py, rules: [match.target]}]"),
     r"^bad\.yaml:6:11: sources\[0\]: a program source needs `commit` or `version`$"),
    ("source-program-bad-commit", house(l6="sources: [{repository: x, path: a.py, commit: zzz, rules: [match.target]}]"),
     r"^bad\.yaml:6:47: sources\[0\]\.commit: 'zzz' does not have the expected form"),
    ("source-house-no-date", house(l6="sources: [{decided_by: the club, rules: [match.target]}]"),
     r"^bad\.yaml:6:11: sources\[0\]: a house source needs `decided_on`$"),
    ("source-document-no-quote", house(l6="sources: [{document: Our sheet, section: p. 2, rules: [match.target]}]"),
     r"^bad\.yaml:6:11: sources\[0\]: a document source needs `quote`$"),
    ("source-house-date-unquoted", house(l6="sources: [{decided_by: us, decided_on: 2026-03-01, rules: [match.target]}]"),
     r"^bad\.yaml:6:40: sources\[0\]\.decided_on: '2026-03-01' is read as a date: quote it"),
]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_cli(capsys, *argv):
    """The command as a user runs it; an exception escaping it would be a traceback."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def assert_clean(text: str):
    """No traceback, and no bare exception line (``ValueError: ...``) either."""
    assert "Traceback" not in text, text
    assert not re.search(r"^\w*(Error|Exception): ", text, re.M), text


@pytest.mark.parametrize("text, pattern", [row[1:] for row in VARIANT_FILES], ids=[row[0] for row in VARIANT_FILES])
def test_bad_rule_set_file(workdir, capsys, text, pattern):
    (workdir / "bad.yaml").write_text(text, encoding="utf-8")
    before = (workdir / "bad.yaml").read_bytes()
    code, out = run_cli(capsys, "variants", "check", "bad.yaml")
    assert code == 1, out
    assert_clean(out)
    assert re.search(pattern, out, re.M), out
    for line in out.strip().splitlines():  # every problem is one located line
        assert line.startswith("bad.yaml:") or line.startswith("bad.yaml: "), line
    assert (workdir / "bad.yaml").read_bytes() == before  # nothing the user gave is changed


# three mistakes the schema finds and two only the cross-rule checks find, in one file
MANY_MISTAKES = house(l7="interpretations: []", l10="    target: lots", tail=[
    "    tie: coin",                                  # 11
    "  deal: {packets: [3, 3, 3]}",                   # 12
    "  auction:",                                     # 13
    "    bids: {minimum: 80, step: 10, maximum: 165}",  # 14
    "    coinche: {when: sometimes}",                 # 15
])


@pytest.mark.parametrize("argv", [("variants", "check", "bad.yaml"), ("docs", "bad.yaml"),
                                  ("deal", "--variant", "bad.yaml", "--seed", "1")],
                         ids=["check", "docs", "deal"])
def test_every_problem_of_a_rule_set_is_reported_in_one_pass(workdir, capsys, argv):
    """Not only the first: every command that loads a rule set prints every problem, schema ones by line
    first, then cross-rule ones by line."""
    (workdir / "bad.yaml").write_text(MANY_MISTAKES, encoding="utf-8")
    code, out = run_cli(capsys, *argv)
    assert code == (1 if argv[0] == "variants" else 2), out
    assert_clean(out)
    lines = [line.removeprefix("coinche-spec: ") for line in out.strip().splitlines()]
    found = [line.split(": ")[:2] for line in lines if line.startswith("bad.yaml:")]
    assert len(found) == len(lines), out     # nothing but the located lines
    assert found == [["bad.yaml:10:13", "rules.match.target"], ["bad.yaml:11:10", "rules.match.tie"],
                     ["bad.yaml:15:21", "rules.auction.coinche.when"],
                     ["bad.yaml:12:19", "rules.deal.packets"], ["bad.yaml:14:44", "rules.auction.bids.maximum"]], out


def test_a_warning_is_located_and_leaves_the_exit_0_unless_strict(workdir, capsys):
    """The FFB text's sans atout table (jack 0: 4 x 36 = 144, not 152) is allowed: `variants check`
    prints the warning with file, line and field, and exits 0; --strict makes it a problem (exit 1)."""
    (workdir / "bad.yaml").write_text(house(l2="extends: cafe-sans-tout-atout", tail=[
        "  card_values:",                                                         # 11
        '    sans_atout: {A: 19, T: 10, K: 4, Q: 3, J: 0, "9": 0, "8": 0, "7": 0}',  # 12
    ]), encoding="utf-8")
    code, out = run_cli(capsys, "variants", "check", "bad.yaml")
    assert code == 0, out
    assert_clean(out)
    assert out.splitlines()[0].startswith("bad.yaml:12:17: rules.card_values.sans_atout: warning: at sans atout "
                                          "the cards add up to 144"), out
    assert out.splitlines()[-1] == "1 file valid, 1 warning"
    code, out = run_cli(capsys, "variants", "check", "--strict", "bad.yaml")
    assert code == 1, out
    assert_clean(out)
    assert out.splitlines() == [out.splitlines()[0]] and "warning:" in out


def test_a_rule_left_out_where_it_can_matter_is_refused_located(workdir, capsys):
    """A rule set that bids sans atout must give its table (and the other rules it then uses)."""
    import shutil
    shutil.copy(Path(__file__).parent / "broken" / "sa-without-table.yaml", workdir / "bad.yaml")
    for argv in (("variants", "check", "bad.yaml"), ("deal", "--variant", "bad.yaml", "--seed", "3")):
        code, out = run_cli(capsys, *argv)
        assert code in (1, 2), out
        assert_clean(out)
        lines = [line.removeprefix("coinche-spec: ") for line in out.strip().splitlines()]
        assert [line.split(": ")[:2] for line in lines] == [
            ["bad.yaml:18:3", "rules.auction"], ["bad.yaml:31:3", "rules.play"], ["bad.yaml:39:3", "rules.card_values"]]
        assert "missing rule 'sans_atout': it is needed because sans atout may be bid" in lines[2]


def special_file(workdir, kind: str) -> str:
    """A file system entry that is not a readable regular file, named bad.yaml."""
    target = workdir / "bad.yaml"
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink-loop":
        target.symlink_to("bad.yaml")
    elif kind == "dangling-link":
        target.symlink_to("nowhere.yaml")
    elif kind == "latin-1":
        target.write_bytes("name: \"caf\xe9\"\n".encode("latin-1"))
    elif kind == "too-large":
        with open(target, "wb") as fh:  # sparse: costs no disk, and is refused before it is read
            fh.truncate(9 * 1024 * 1024)
    elif kind == "unreadable":
        target.write_text("id: x\n")
        target.chmod(0)
    return "bad.yaml"


SPECIAL = [
    # a folder named on the command line stands for its files: this one has none
    ("folder", 2, r"no variant file to check: bad\.yaml holds no \.yaml file"),
    ("fifo", 1, r"^bad\.yaml: \(top\): is not a regular file"),
    ("dangling-link", 1, r"^bad\.yaml: \(top\): no such file$"),
    ("latin-1", 1, r"^bad\.yaml: \(top\): not UTF-8 text \(invalid continuation byte at byte 10\)$"),  # name: "caf = 10 bytes
    ("too-large", 1, r"^bad\.yaml: \(top\): is 9,437,184 bytes; the limit is 8,388,608 bytes \(8 MiB\)$"),
]


@pytest.mark.parametrize("kind, status, pattern", SPECIAL, ids=[row[0] for row in SPECIAL])
def test_special_rule_set_file(workdir, capsys, kind, status, pattern):
    name = special_file(workdir, kind)
    code, out = run_cli(capsys, "variants", "check", name)
    assert code == status, out
    assert_clean(out)
    assert re.search(pattern, out, re.M), out


def test_a_device_is_refused_not_read(capsys):
    code, out = run_cli(capsys, "variants", "check", "/dev/zero")
    assert code == 1 and re.search(r"^/dev/zero: \(top\): is not a regular file", out, re.M), out


# --- fixture files: `coinche-spec conformance --corpus DIR` ---------------------------------

FIXTURE = [
    "area: perft",                                   # 1
    'description: "Bad-input catalogue."',           # 2
    "fixtures:",                                     # 3
    "  - id: catalogue-one-card-each",               # 4
    '    title: "One card each: one way to play"',   # 5
    "    tags: [catalogue]",                         # 6
    "    exercises: [play.cannot_overtrump]",        # 7
    "    case:",                                     # 8
    "      kind: perft",                             # 9
    "      strain: H",                               # 10
    "      leader: N",                               # 11
    "      hands:",                                  # 12
    "        N: [7S]",                               # 13
    "        E: [8S]",                               # 14
    "        S: [9S]",                               # 15
    "        W: [TS]",                               # 16
    "      depth: 4",                                # 17
    "    expect:",                                   # 18
    "      federation, cafe-sans-tout-atout, contree-701, cafe-1000, cafe-701:",  # 19
    "        count: 1                                # one card each: 1 x 1 x 1 x 1 = 1",  # 20
]


def fixture(**lines) -> str:
    return edited(FIXTURE, **lines)


FIXTURE_FILES = [
    ("bad-card", fixture(l16="        W: [ZS]"), r"corpus/bad\.yaml:16:13: fixtures\[0\]\.case\.hands\.W\[0\]: bad card 'ZS'"),
    ("card-twice", fixture(l16="        W: [7S]"), r"corpus/bad\.yaml:16:13: fixtures\[0\]\.case\.hands\.W\[0\]: .*7S"),
    ("bad-strain", fixture(l10="      strain: hearts"), r"corpus/bad\.yaml:10:15: fixtures\[0\]\.case\.strain: bad strain 'hearts'"),
    ("bad-seat", fixture(l11="      leader: Q"), r"corpus/bad\.yaml:11:15: fixtures\[0\]\.case\.leader: bad seat 'Q'"),
    ("depth-too-deep", fixture(l17="      depth: 5"), r"corpus/bad\.yaml:17:14: fixtures\[0\]\.case\.depth: 5 is above"),
    ("depth-text", fixture(l17="      depth: four"), r"corpus/bad\.yaml:17:14: fixtures\[0\]\.case\.depth: expected a whole number"),
    ("depth-yes", fixture(l17="      depth: yes"), r"corpus/bad\.yaml:17:14: fixtures\[0\]\.case\.depth: 'yes' is read as true"),
    ("unknown-case-field", fixture(tail=[]).replace("      depth: 4\n", "      depth: 4\n      colour: red\n"),
     r"corpus/bad\.yaml:18:15: fixtures\[0\]\.case\.colour: unknown field 'colour'"),
    ("unknown-kind", fixture(l9="      kind: peft"), r"corpus/bad\.yaml:9:\d+: fixtures\[0\]\.case.*peft"),
    ("unknown-rule-set", fixture(l19="      federation, cafe-sans-tout-atout, contree-701, cafe-1000, cafe-702:"),
     r"corpus/bad\.yaml:19:7: fixtures\[0\]\.expect\..*: unknown rule set 'cafe-702'"),
    ("depends-on-unknown", fixture(l7="    depends_on: [play.overtrump_always]"),
     r"corpus/bad\.yaml:7:\d+: fixtures\[0\]\.depends_on\[0\]: 'play\.overtrump_always' is not a rule path"),
    ("rule-set-twice", fixture(tail=["      federation:", "        count: 1"]),
     r"corpus/bad\.yaml:21:7: fixtures\[0\]\.expect\.federation: rule set 'federation' has more than one expectation"),
    ("unknown-result-field", fixture(l20="        cuont: 1"),
     r"corpus/bad\.yaml:20:16: fixtures\[0\]\.expect\..*\.cuont: a perft result has no field 'cuont'"),
    ("count-negative", fixture(l20="        count: -1"), r"corpus/bad\.yaml:20:16: fixtures\[0\]\.expect\..*\.count: -1 is below"),
    ("count-text", fixture(l20="        count: one"), r"corpus/bad\.yaml:20:16: fixtures\[0\]\.expect\..*\.count: expected a whole number"),
    ("exercises-unknown", fixture(l7="    exercises: [play.overtrump_always]"),
     r"corpus/bad\.yaml:7:\d+: fixtures\[0\]\.exercises\[0\]: 'play\.overtrump_always' is not a rule path"),
    ("unknown-fixture-field", fixture(tail=[]).replace("    tags:", "    colour: red\n    tags:"),
     r"corpus/bad\.yaml:6:5: fixtures\[0\]\.colour: unknown field 'colour'"),
    ("id-missing", fixture(l4="  - title2: x", l5=None), r"corpus/bad\.yaml:4:\d+: fixtures\[0\]"),
    ("area-unknown", fixture(l1="area: cards"), r"corpus/bad\.yaml:1:7: area: 'cards' is not one of"),
    ("fixtures-mapping", "area: perft\ndescription: x\nfixtures: {a: 1}\n", r"corpus/bad\.yaml:3:11: fixtures: expected a list"),
    ("duplicate-key", fixture(tail=[]).replace("      depth: 4\n", "      depth: 4\n      depth: 8\n"),
     r"corpus/bad\.yaml:18:7: fixtures\[0\]\.case: duplicate key 'depth' \(first written on line 17\)"),
    ("anchor", fixture(l13="        N: &n [7S]"), r"corpus/bad\.yaml:13:12: fixtures\[0\]\.case\.hands\.N: anchor '&n' is not allowed"),
    ("syntax", fixture(l13="        N: [7S"), r"corpus/bad\.yaml:\d+:\d+: .*YAML syntax: "),
    ("deep", "area: perft\nfixtures:\n  - " + "[" * 300 + "]" * 300 + "\n",
     r"corpus/bad\.yaml:3:\d+: fixtures\[0\](\[0\])+: nested more than 64 levels deep"),
    ("empty", "", r"corpus/bad\.yaml:"),
    ("count-huge", fixture(l20="        count: " + "1" * 4400),
     r"corpus/bad\.yaml:20:16: fixtures\[0\]\.expect\..*\.count: the number 111111111111\.\.\. has 4,400 characters"),
    # what a phone types for a heart: U+2665 then the emoji variation selector U+FE0F, shown escaped
    ("card-emoji-heart", fixture(l16="        W: [7\u2665\ufe0f]"),
     r"corpus/bad\.yaml:16:13: fixtures\[0\]\.case\.hands\.W\[0\]: bad card '7\u2665<U\+FE0F>': suit '<U\+FE0F>'"),
]


def write_corpus(workdir, text: str) -> None:
    corpus = workdir / "corpus"
    corpus.mkdir(exist_ok=True)
    (corpus / "bad.yaml").write_text(text, encoding="utf-8")


def test_the_fixture_template_is_good(workdir, capsys):
    """The rows below are one mistake away from a fixture that loads and passes."""
    write_corpus(workdir, fixture())
    code, out = run_cli(capsys, "conformance", "--corpus-only", "--corpus", "corpus")
    assert code == 0 and out.strip().endswith("5 passed, 0 failed"), out


@pytest.mark.parametrize("text, pattern", [row[1:] for row in FIXTURE_FILES], ids=[row[0] for row in FIXTURE_FILES])
def test_bad_fixture_file(workdir, capsys, text, pattern):
    write_corpus(workdir, text)
    code, out = run_cli(capsys, "conformance", "--corpus-only", "--corpus", "corpus")
    assert code == 2, out
    assert_clean(out)
    assert re.search(pattern, out, re.M), out
    assert "nothing was run" in out


CORPUS_ENTRIES = [
    ("folder", r"^corpus/bad\.yaml: \(top\): is a directory, not a file$"),
    ("fifo", r"^corpus/bad\.yaml: \(top\): is not a regular file"),
    ("symlink-loop", r"^corpus/bad\.yaml: \(top\): is a symlink loop"),
    ("dangling-link", r"^corpus/bad\.yaml: \(top\): no such file$"),
    ("latin-1", r"^corpus/bad\.yaml: \(top\): not UTF-8 text"),
    ("too-large", r"^corpus/bad\.yaml: \(top\): is 9,437,184 bytes; the limit is 8,388,608"),
]


@pytest.mark.parametrize("kind, pattern", CORPUS_ENTRIES, ids=[k for k, _ in CORPUS_ENTRIES])
def test_corpus_entries_that_are_not_files_are_reported_not_skipped(workdir, capsys, kind, pattern):
    (workdir / "corpus").mkdir()
    write_corpus(workdir, fixture())
    (workdir / "corpus" / "bad.yaml").unlink()
    special_file(workdir / "corpus", kind)
    code, out = run_cli(capsys, "conformance", "--corpus-only", "--corpus", "corpus")
    assert code == 2, out
    assert_clean(out)
    assert re.search(pattern, out, re.M), out


# --- command-line options ------------------------------------------------------------------

OPTIONS = [
    # (row id, argv, exit status, pattern naming the option or value)
    ("timeout-nan", ["conformance", "--timeout", "nan"], 2, r"--timeout nan: give a number of seconds above 0"),
    ("timeout-inf", ["conformance", "--timeout", "inf"], 2, r"--timeout inf: give a number of seconds above 0"),
    ("timeout-zero", ["conformance", "--timeout", "0"], 2, r"--timeout 0: give a number"),
    ("timeout-negative", ["conformance", "--timeout", "-3"], 2, r"--timeout -3: give a number"),
    ("timeout-text", ["conformance", "--timeout", "soon"], 2, r"argument --timeout: invalid float value: 'soon'"),
    ("variant-unknown", ["conformance", "--variant", "belote-classic"], 2, r"unknown variant id 'belote-classic'.*; known ids: seed: "),
    ("corpus-only-alone", ["conformance", "--corpus-only"], 2, r"--corpus-only needs at least one --corpus DIR"),
    ("uncovered-alone", ["conformance", "--uncovered"], 2, r"--uncovered needs --variant ID\|FILE"),
    ("keyword-nothing", ["conformance", "-k", "no-such-fixture-anywhere"], 2, r"no fixture matches -k no-such-fixture-anywhere"),
    ("corpus-missing", ["conformance", "--corpus-only", "--corpus", "no-such-dir"], 2, r"no-such-dir: the corpus directory does not exist"),
    ("corpus-is-a-file", ["conformance", "--corpus-only", "--corpus", "/dev/null"], 2, r"/dev/null: the corpus directory does not exist"),
    ("impl-missing", ["conformance", "--impl", "no-such-program-xyz", "-k", "perft-undertrump"], 2,
     r"--impl \"no-such-program-xyz\" did not start: .*command not found: no-such-program-xyz"),
    ("impl-unbalanced-quote", ["conformance", "--impl", "python3 'x", "-k", "perft-undertrump"], 2, r"--impl: "),
    ("deal-seed-text", ["deal", "--variant", "federation", "--seed", "abc"], 2, r"argument --seed: invalid int value: 'abc'"),
    ("deal-dealer-bad", ["deal", "--variant", "federation", "--dealer", "X"], 2, r"argument --dealer: invalid choice: 'X'"),
    ("deal-variant-unknown", ["deal", "--variant", "nope"], 2, r"unknown variant id 'nope'"),
    ("deal-variant-device", ["deal", "--variant", "/dev/zero"], 2, r"/dev/zero: \(top\): is not a regular file"),
    ("show-unknown", ["variants", "show", "nope"], 2, r"unknown variant id 'nope'"),
    ("show-device", ["variants", "show", "/dev/zero"], 2, r"^/dev/zero: \(top\): is not a regular file"),
    ("show-format", ["variants", "show", "federation", "--format", "xml"], 2, r"argument --format: invalid choice: 'xml'"),
    ("check-nothing", ["variants", "check", "empty"], 2, r"no variant file to check: empty holds no \.yaml file"),
    ("docs-two-kinds", ["docs", "federation", "--compare"], 2, r"docs: give either a variant \(ID\|FILE\) or --compare"),
    ("docs-nothing", ["docs"], 2, r"docs: name a variant"),
    ("docs-unknown", ["docs", "nope"], 2, r"unknown variant id 'nope'"),
    ("docs-all-is-file", ["docs", "--all", "mine.yaml"], 2, r"--all: 'mine\.yaml' is not a folder"),
    ("docs-implementations-is-file", ["docs", "--implementations", "mine.yaml"], 2,
     r"--implementations: 'mine\.yaml' is not a folder"),
    ("docs-rerender-nothing", ["docs", "--implementations", "empty", "--rerender"], 2,
     r"--rerender: empty/colver\.json: no results file; run without --rerender first"),
    ("docs-fuzz-deals-zero", ["docs", "--implementations", "empty", "--fuzz-deals", "0"], 2,
     r"--fuzz-deals N: give a whole number of at least 1"),
    ("docs-rerender-alone", ["docs", "--rerender"], 2, r"docs: --fuzz-deals and --rerender go with --implementations DIR"),
    ("report-nothing", ["report"], 2, r"the following arguments are required: RUN\.jsonl"),
    ("report-a-folder", ["report", "empty"], 2, r"^coinche-spec: empty: is a directory, not a file"),
    ("report-a-device", ["report", "/dev/zero"], 2, r"/dev/zero: is not a regular file"),
    ("report-not-a-run", ["report", "mine.yaml"], 2, r"mine\.yaml:1: not JSON"),
    ("report-deep-line", ["report", "deep.jsonl"], 2,
     r"deep\.jsonl:1: the record nests arrays or objects more than 64 levels deep"),
    ("report-key-twice", ["report", "twice.jsonl"], 2, r"twice\.jsonl:1: the record writes the key \"outcome\" twice"),
    ("fingerprint-timeout-nan", ["fingerprint", "--timeout", "nan"], 2,
     r"--timeout nan: give a number of seconds above 0 and at most 86400"),
    ("fingerprint-timeout-inf", ["fingerprint", "--timeout", "inf"], 2, r"--timeout inf: give a number of seconds"),
    ("fuzz-timeout-nan", ["fuzz", "--impl", "x", "--deals", "1", "--timeout", "nan"], 2,
     r"--timeout nan: give a number of seconds above 0"),
    ("fuzz-deals-huge", ["fuzz", "--impl", "x", "--deals", "9" * 5000], 2, r"--deals 999999999999\.\.\.: 5,000 digits"),
    ("fuzz-seed-huge", ["fuzz", "--impl", "x", "--deals", "1", "--seed", "9" * 5000], 2,
     r"--seed 999999999999\.\.\.: 5,000 digits; at most 18 here"),
    ("impl-empty", ["conformance", "--impl", "", "-k", "perft-undertrump"], 2,
     r"--impl '' is empty: give a command line, python:MODULE:FACTORY or an adapter"),
    ("fingerprint-impl-empty", ["fingerprint", "--impl", " "], 2, r"--impl ' ' is empty"),
    ("corpus-empty-folder", ["conformance", "--corpus", "empty"], 2,
     r"empty: no fixture file \(\*\.yaml\) in this corpus folder"),
    ("score-melds-unbounded", ["score", "--variant", "federation", "--contract", "80H", "--taker", "N",
                               "--points", "100", "--last-trick", "takers", "--melds", "takers=" + "9" * 30], 2,
     r"--melds: expected a whole number from 0 to 10000"),
]


@pytest.mark.parametrize("argv, code, pattern", [row[1:] for row in OPTIONS], ids=[row[0] for row in OPTIONS])
def test_bad_option(workdir, capsys, argv, code, pattern):
    (workdir / "empty").mkdir()
    (workdir / "mine.yaml").write_text(house(), encoding="utf-8")
    (workdir / "deep.jsonl").write_text('{"record": ' + "[" * 100 + "]" * 100 + "}\n", encoding="utf-8")
    (workdir / "twice.jsonl").write_text('{"outcome": "pass", "outcome": "fail"}\n', encoding="utf-8")
    got, out = run_cli(capsys, *argv)
    assert got == code, out
    assert_clean(out)
    assert re.search(pattern, out, re.M), out


# --- output options: never an input, never twice, never half a file ---------------------------

OUTPUTS = [
    ("docs-over-its-rule-file", ["docs", "mine.yaml", "--output", "mine.yaml"],
     r"cannot write 'mine\.yaml': it is one of this run's inputs \(mine\.yaml\); --output would replace it"),
    ("docs-over-a-link-to-it", ["docs", "mine.yaml", "--output", "link.md"],
     r"cannot write 'link\.md': it is one of this run's inputs \(mine\.yaml\)"),
    ("docs-over-a-hard-link", ["docs", "mine.yaml", "--output", "hard.md"],
     r"cannot write 'hard\.md': it is one of this run's inputs"),
    ("docs-over-a-shipped-file", ["docs", "federation", "--output", "SHIPPED"],
     r"cannot write '.*federation\.yaml': it is one of this run's inputs"),
    ("docs-into-missing-folder", ["docs", "federation", "--output", "no/such/p.md"],
     r"cannot write 'no/such/p\.md': the folder 'no/such' does not exist"),
    ("docs-onto-a-folder", ["docs", "federation", "--output", "empty"], r"cannot write 'empty': it is a folder"),
    ("docs-onto-a-device", ["docs", "federation", "--output", "/dev/null"],
     r"cannot write '/dev/null': it is not a regular file"),
    ("junit-over-a-fixture", ["conformance", "--corpus-only", "--corpus", "corpus", "--junit", "corpus/one.yaml"],
     r"cannot write 'corpus/one\.yaml': it is one of this run's inputs \(corpus/one\.yaml\); --junit would replace it"),
    ("jsonl-over-a-fixture", ["conformance", "--corpus-only", "--corpus", "corpus", "--report-jsonl", "corpus/one.yaml"],
     r"cannot write 'corpus/one\.yaml': .*--report-jsonl would replace it"),
    ("html-over-a-fixture", ["conformance", "--corpus-only", "--corpus", "corpus", "--html", "corpus/one.yaml"],
     r"cannot write 'corpus/one\.yaml': .*--html would replace it"),
    ("jsonl-and-html-one-file", ["conformance", "--corpus-only", "--corpus", "corpus", "--report-jsonl", "r.out",
                                 "--html", "r.out"],
     r"cannot write 'r\.out': --report-jsonl and --html both name this file"),
    ("markdown-over-retired-ids", ["conformance", "--corpus-only", "--corpus", "corpus", "--markdown", "corpus/retired-ids.txt"],
     r"cannot write 'corpus/retired-ids\.txt': .*--markdown would replace it"),
    ("two-options-one-file", ["conformance", "--corpus-only", "--corpus", "corpus", "--junit", "r.out", "--markdown", "./r.out"],
     r"cannot write '\./r\.out': --junit and --markdown both name this file"),
    ("junit-into-missing-folder", ["conformance", "--corpus-only", "--corpus", "corpus", "--junit", "no/such/r.xml"],
     r"cannot write 'no/such/r\.xml': the folder 'no/such' does not exist"),
]


@pytest.mark.parametrize("argv, pattern", [row[1:] for row in OUTPUTS], ids=[row[0] for row in OUTPUTS])
def test_an_output_that_would_lose_something_is_refused(workdir, capsys, argv, pattern):
    from coinche_spec.resources import variants_dir

    (workdir / "empty").mkdir()
    (workdir / "mine.yaml").write_text(house(), encoding="utf-8")
    (workdir / "link.md").symlink_to("mine.yaml")
    os.link(workdir / "mine.yaml", workdir / "hard.md")
    write_corpus(workdir, fixture())
    (workdir / "corpus" / "bad.yaml").rename(workdir / "corpus" / "one.yaml")
    (workdir / "corpus" / "retired-ids.txt").write_text("# none\n", encoding="utf-8")
    shipped = variants_dir() / "federation.yaml"
    argv = [str(shipped) if a == "SHIPPED" else a for a in argv]
    files = {p: p.read_bytes() for p in [workdir / "mine.yaml", workdir / "corpus" / "one.yaml",
                                         workdir / "corpus" / "retired-ids.txt", shipped]}
    code, out = run_cli(capsys, *argv)
    assert code == 2, out
    assert_clean(out)
    assert re.search(pattern, out, re.M), out
    for path, data in files.items():
        assert path.read_bytes() == data, f"{path} was changed"
    assert not (workdir / "r.out").exists()


def test_an_existing_report_is_replaced_whole_and_keeps_its_mode(workdir, capsys):
    write_corpus(workdir, fixture())
    report = workdir / "report.md"
    from coinche_spec.outputs import MARK_COMMENT
    report.write_text(f"# Conformance report\n\nold\n{MARK_COMMENT}\n", encoding="utf-8")   # one of ours
    report.chmod(0o640)
    code, out = run_cli(capsys, "conformance", "--corpus-only", "--corpus", "corpus", "--markdown", "report.md")
    assert code == 0, out
    assert report.read_text(encoding="utf-8").startswith("# Conformance report")
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert sorted(p.name for p in workdir.iterdir()) == ["corpus", "report.md"]  # no temporary left behind


def test_a_failed_write_leaves_the_old_file_whole(workdir, monkeypatch):
    from coinche_spec import outputs
    from coinche_spec.errors import OutputError

    target = workdir / "page.md"
    target.write_text("the old page\n", encoding="utf-8")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs.os, "replace", broken_replace)
    with pytest.raises(OutputError) as exc:
        outputs.write_text(target, "the new page\n" * 1000)
    assert "No space left on device" in str(exc.value) and exc.value.file == str(target)
    assert target.read_text(encoding="utf-8") == "the old page\n"
    assert sorted(p.name for p in workdir.iterdir()) == ["page.md"]


def test_an_output_through_a_symlink_replaces_the_file_not_the_link(workdir):
    from coinche_spec import outputs

    (workdir / "real.md").write_text("old\n", encoding="utf-8")
    (workdir / "alias.md").symlink_to("real.md")
    outputs.write_text("alias.md", "new\n")
    assert (workdir / "alias.md").is_symlink() and (workdir / "real.md").read_text() == outputs.marked("new\n")


# --- protocol lines: `coinche-spec serve` --------------------------------------------------

CASE = {"kind": "perft", "strain": "H", "leader": "N", "depth": 4,
        "hands": {"N": ["7S"], "E": ["8S"], "S": ["9S"], "W": ["TS"]}}


def run_line(case_changes: dict | None = None, drop: str | None = None) -> str:
    case = json.loads(json.dumps(CASE))
    for key, value in (case_changes or {}).items():
        node, *path = key.split(".")
        if path:
            case[node][path[0]] = value
        else:
            case[node] = value
    if drop:
        del case[drop]
    return json.dumps({"cmd": "run", "seq": 7, "case": case})


PROTOCOL = [
    # (row id, line, reply kind: errored | refused, pattern naming the field or the column)
    ("empty-line", "", "errored", r"the line is empty"),
    ("blank-line", "   \t ", "errored", r"the line is empty"),
    ("not-json", "hello", "errored", r"the line is not JSON: Expecting value \(column 1\)"),
    ("truncated", '{"cmd": "run"', "errored", r"the line is not JSON: .*\(column 14\)"),
    ("trailing-comma", '{"cmd": "start",}', "errored", r"the line is not JSON: .*\(column 17\)"),
    ("single-quotes", "{'cmd': 'start'}", "errored", r"the line is not JSON: .*\(column 2\)"),
    ("two-values", '{"cmd": "start"} {"cmd": "start"}', "errored", r"the line is not JSON: Extra data \(column 18\)"),
    ("nan", '{"cmd": "start", "protocol": NaN}', "errored", r"NaN is not JSON"),
    ("infinity", '{"cmd": "start", "protocol": Infinity}', "errored", r"Infinity is not JSON"),
    ("minus-infinity", '{"cmd": "start", "protocol": -Infinity}', "errored", r"-Infinity is not JSON"),
    ("float-overflow", '{"cmd": "start", "protocol": 1e400}', "errored", r"the number 1e400 is too large"),
    ("huge-integer", '{"cmd": "start", "protocol": ' + "9" * 4300 + "}", "errored",
     r"the number 999999999999\.\.\. has 4,300 characters; a number has at most 100"),
    ("huger-integer", '{"cmd": "start", "protocol": ' + "9" * 5000 + "}", "errored", r"has 5,000 characters"),
    ("deep-array", "[" * 100000, "errored", r"nests arrays or objects more than 64 levels deep"),
    ("deep-object", '{"a":' * 5000 + "1" + "}" * 5000, "errored", r"more than 64 levels deep"),
    ("deep-but-closed", "[" * 65 + "]" * 65, "errored", r"more than 64 levels deep"),
    ("deep-configure", '{"cmd": "configure", "variant": ' + '{"a":' * 70 + "1" + "}" * 70 + "}", "errored",
     r"more than 64 levels deep"),
    ("deep-case", '{"cmd": "run", "seq": 1, "case": ' + "[" * 80 + "]" * 80 + "}", "errored", r"more than 64 levels"),
    ("not-an-object", "[1, 2, 3]", "errored", r"a request is a JSON object with a \"cmd\", got list"),
    ("a-number", "42", "errored", r"a request is a JSON object"),
    ("no-cmd", '{"command": "start"}', "errored", r"the request has no \"cmd\""),
    ("unknown-cmd", '{"cmd": "fly"}', "errored", r"unknown command 'fly'"),
    ("cmd-number", '{"cmd": 3}', "errored", r"unknown command 3"),
    ("protocol-2", '{"cmd": "start", "protocol": 2}', "errored", r"protocol 2 is not spoken here"),
    ("protocol-text", '{"cmd": "start", "protocol": "one"}', "errored", r"protocol 'one' is not spoken here"),
    ("configure-nothing", '{"cmd": "configure"}', "refused", r"configure needs \"variant\""),
    ("configure-number", '{"cmd": "configure", "variant": 5}', "refused", r"configure needs \"variant\""),
    ("configure-unknown-id", '{"cmd": "configure", "variant": "nope"}', "refused", r"unknown variant id 'nope'"),
    ("configure-bad-document", '{"cmd": "configure", "variant": {"id": "x"}}', "refused",
     r"variant rejected: <configure>: \(top\): missing required field 'name'"),
    ("run-no-case", '{"cmd": "run", "seq": 1}', "errored", r"run needs a \"case\""),
    ("run-case-list", '{"cmd": "run", "seq": 1, "case": []}', "errored", r"case: expected an object"),
    ("run-case-no-kind", '{"cmd": "run", "seq": 1, "case": {}}', "errored", r"case"),
    ("bad-card", run_line({"hands": {"N": ["7S"], "E": ["8S"], "S": ["9S"], "W": ["ZS"]}}), "errored",
     r"case\.hands\.W\[0\]: bad card 'ZS'"),
    ("card-as-number", run_line({"hands": {"N": [7], "E": ["8S"], "S": ["9S"], "W": ["TS"]}}), "errored",
     r"case\.hands\.N\[0\]: "),
    ("card-twice", run_line({"hands": {"N": ["7S"], "E": ["7S"], "S": ["9S"], "W": ["TS"]}}), "errored",
     r"case\.hands\.E\[0\]: .*7S"),
    ("seat-missing", run_line({"hands": {"N": ["7S"], "E": ["8S"], "S": ["9S"]}}), "errored",
     r"case\.hands: missing seat 'W'"),
    ("seat-unknown", run_line({"hands": {"N": ["7S"], "E": ["8S"], "S": ["9S"], "X": ["TS"]}}), "errored",
     r"case\.hands\.X: bad seat 'X'"),
    ("bad-strain", run_line({"strain": "X"}), "errored", r"case\.strain: bad strain 'X'"),
    ("strain-null", run_line({"strain": None}), "errored", r"case\.strain: "),
    ("bad-leader", run_line({"leader": "Q"}), "errored", r"case\.leader: bad seat 'Q'"),
    ("depth-above-cards", run_line({"depth": 5}), "errored", r"case\.depth: 5 is above the largest allowed value 4"),
    ("depth-negative", run_line({"depth": -1}), "errored", r"case\.depth: -1 is below"),
    ("depth-bool", run_line({"depth": True}), "errored", r"case\.depth: expected a whole number, got a boolean"),
    ("depth-float", run_line({"depth": 2.5}), "errored", r"case\.depth: expected a whole number, got a number"),
    ("depth-huge", run_line({"depth": 10 ** 90}), "errored", r"case\.depth: 1000+ is above"),
    ("depth-missing", run_line(drop="depth"), "errored", r"case: missing field 'depth'"),
    ("unknown-field", run_line({"colour": "red"}), "errored", r"case\.colour: unknown field 'colour'"),
    ("unknown-kind", run_line({"kind": "peft"}), "skipped", r"unknown case kind 'peft'"),
    ("auction-call-text", json.dumps({"cmd": "run", "seq": 1, "case": {"kind": "auction", "dealer": "N",
                                                                      "calls": ["90X"]}}),
     "errored", r"case\.calls\[0\]: "),
    ("score-missing-contract", json.dumps({"cmd": "run", "seq": 1, "case": {"kind": "score"}}), "errored",
     r"case: missing field 'contract'"),
    ("lone-surrogate", '{"cmd": "fly\\ud800"}', "errored", r"unknown command"),
    # JSON leaves a repeated key to the reader; last-wins would make this a stop
    ("key-twice", '{"cmd": "run", "cmd": "stop"}', "errored", r'the line writes the key "cmd" twice in one object'),
    ("stop-with-fields", '{"cmd": "stop", "seq": 3}', "errored", r"stop takes no field but \"cmd\": got 'seq'"),
    ("configure-shipped-id-other-parent",
     json.dumps({"cmd": "configure", "variant": {"id": "federation", "extends": "cafe-701", "rules": {}}}), "refused",
     r"<configure>: id: 'federation' is a shipped rule set's id, and this document extends 'cafe-701'"),
]


def test_perft_deeper_than_the_limit_is_refused_at_once():
    """32 cards from a full deal would never end: the case is refused before any counting.
    Two tricks from a full deal are (8*7)^4 = 9,834,496 sequences at worst, within 10^7;
    a ninth card makes it 9,834,496 * 6 = 59,006,976, beyond."""
    from coinche_spec.engine.play import PERFT_MAX_SEQUENCES, perft_bound

    assert perft_bound(8, 8) == 8 ** 4 * 7 ** 4 == 9_834_496 <= PERFT_MAX_SEQUENCES
    assert perft_bound(8, 9) > PERFT_MAX_SEQUENCES
    assert perft_bound(4, 16) == (4 * 3 * 2 * 1) ** 4 == 331_776
    cards = [r + s for s in "SHDC" for r in "789TJQKA"]
    hands = {seat: cards[i * 8:(i + 1) * 8] for i, seat in enumerate("NESW")}
    session = Session()
    session.handle_line('{"cmd": "configure", "variant": "federation"}')
    for depth in (9, 16, 32):
        line = json.dumps({"cmd": "run", "seq": 1, "case": dict(CASE, hands=hands, depth=depth)})
        reply = json.loads(session.handle_line(line)[0])
        assert reply["errored"] is True
        assert reply["message"] == (f"case.depth: {depth} cards from 8 each may be more than 10,000,000 "
                                    "sequences, the most a perft may ask for (docs/limits.md)")


def test_the_engine_refuses_a_runaway_perft_itself():
    from coinche_spec.engine.errors import BadInput
    from coinche_spec.engine.play import perft
    from coinche_spec.variants import load_variant

    cards = [r + s for s in "SHDC" for r in "789TJQKA"]
    hands = {seat: cards[i * 8:(i + 1) * 8] for i, seat in enumerate("NESW")}
    with pytest.raises(BadInput, match="more than 10,000,000 sequences"):
        perft(load_variant("federation").rules, "H", "N", hands, 32)


def strict_json(text: str):
    def refuse(name):
        raise AssertionError(f"the reply holds {name}: not JSON")
    return json.loads(text, parse_constant=refuse)


@pytest.fixture(scope="module")
def configured_session():
    session = Session()
    assert strict_json(session.handle_line('{"cmd": "configure", "variant": "federation"}')[0]) == {"ok": True}
    return session


@pytest.mark.parametrize("line, kind, pattern", [row[1:] for row in PROTOCOL], ids=[row[0] for row in PROTOCOL])
def test_bad_protocol_line(configured_session, line, kind, pattern):
    configured_session.handle_line('{"cmd": "configure", "variant": "federation"}')
    reply_text, stop = configured_session.handle_line(line)
    assert not stop and reply_text is not None and "\n" not in reply_text
    reply = strict_json(reply_text)
    if kind == "errored":
        assert reply.get("errored") is True, reply
        message = reply["message"]
    elif kind == "refused":
        assert reply.get("ok") is False, reply
        message = reply["message"]
    else:
        assert reply.get("skipped") is True, reply
        message = reply["reason"]
    assert "traceback" not in reply and "Traceback" not in message
    assert re.search(pattern, message), message
    # and the session still serves (a refused configure leaves it unconfigured, as the protocol says)
    configured_session.handle_line('{"cmd": "configure", "variant": "federation"}')
    again = strict_json(configured_session.handle_line(run_line())[0])
    assert again == {"seq": 7, "result": {"count": 1}}


def test_the_catalogue_is_large():
    rows = (len(VARIANT_FILES) + len(SPECIAL) + len(FIXTURE_FILES) + len(CORPUS_ENTRIES) + len(OPTIONS)
            + len(OUTPUTS) + len(PROTOCOL))
    assert rows >= 100, rows


@pytest.mark.parametrize("argv", [
    ["docs", "federation", "--output", "notes.md"],
    ["conformance", "--corpus-only", "--corpus", "corpus", "--junit", "notes.md"],
    ["conformance", "--corpus-only", "--corpus", "corpus", "--markdown", "notes.md"],
])
def test_a_users_own_file_named_as_output_is_refused_not_replaced(workdir, capsys, argv):
    """Only a file coinche-spec wrote is replaced: `-o notes.md` naming the user's notes by mistake
    is refused, the notes untouched; an empty file holds nothing to lose and is written."""
    write_corpus(workdir, fixture())
    notes = workdir / "notes.md"
    # issue 19: naming coinche-spec, even at the start and the end, does not make a file ours
    mine = ("# Our club's tools\n\nWe check our house rules with coinche-spec.\n"
            "<!-- generated by coinche-spec? no: by hand -->\n")
    for text in ("my notes from last club night\n", mine):
        notes.write_text(text, encoding="utf-8")
        code, out = run_cli(capsys, *argv)
        assert code == 2, out
        assert out.strip().endswith("it exists and coinche-spec did not write it; "
                                    f"{argv[-2]} would replace it: name a new file, or remove this one first")
        assert notes.read_text(encoding="utf-8") == text
    notes.write_text("", encoding="utf-8")
    code, out = run_cli(capsys, *argv)
    assert code in (0, 1), out
    written = notes.read_text(encoding="utf-8")
    assert written.endswith(MARK_COMMENT + "\n")
    code, out = run_cli(capsys, *argv)   # and once marked, the next run replaces it
    assert code in (0, 1), out


def test_every_report_carries_the_mark_and_still_parses(workdir, capsys):
    """JSON Lines: a first field of the header record; JUnit XML and HTML: a last-line comment."""
    import html.parser
    import xml.etree.ElementTree as ET
    from coinche_spec.outputs import MARK, written_by_us
    write_corpus(workdir, fixture())
    code, out = run_cli(capsys, "conformance", "--corpus-only", "--corpus", "corpus", "--report-jsonl", "r.jsonl",
                        "--junit", "r.xml", "--markdown", "r.md")
    assert code == 0, out
    first = json.loads((workdir / "r.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["written_by"] == MARK and first["record"] == "header"
    assert ET.parse(workdir / "r.xml").getroot().tag == "testsuites"
    code, out = run_cli(capsys, "report", "r.jsonl", "--html", "r.html")
    assert code in (0, 1), out
    html.parser.HTMLParser().feed((workdir / "r.html").read_text(encoding="utf-8"))
    for name in ("r.jsonl", "r.xml", "r.md", "r.html"):
        assert written_by_us(workdir / name), name
