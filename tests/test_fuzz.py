"""Differential fuzzing: deals named by a seed, divergences found, shrunk and written as fixtures.

Faulty implementations come in two sizes: small mutants of the reference
engine in this process (each breaks one rule, so the shrinker can be judged
on what it keeps), and ``tests/impls/off_by_one.py``, a separate program
that scores a failed contract one point wrong, for the command end to end.
"""

import json
import sys
from pathlib import Path

import pytest

from coinche_spec import yamlstrict
from coinche_spec.cli import main
from coinche_spec.conformance import fixture_writer, fuzz
from coinche_spec.conformance.compare import compare
from coinche_spec.conformance.fixtures import EXPECT_FIELDS, check_expectation, rule_paths
from coinche_spec.conformance.fuzz_cases import deal_cases
from coinche_spec.protocol.cases import canonicalise, run_case
from coinche_spec.protocol.client import InProcess, Subprocess
from coinche_spec.variants import load_variant, shipped_ids

ROOT = Path(__file__).resolve().parent.parent
OFF_BY_ONE = f"{sys.executable} {ROOT / 'tests' / 'impls' / 'off_by_one.py'}"
SERVE = f"{sys.executable} -m coinche_spec serve"
RULES = {vid: load_variant(vid).rules for vid in shipped_ids()}


def fuzz_cli(capsys, *args):
    code = main(["fuzz", *args])
    out, err = capsys.readouterr()
    return code, out, err


# --- seeds and shards -------------------------------------------------------------

def test_shards_cut_the_seed_range_into_consecutive_slices():
    assert fuzz.shard_range(800, (3, 8)) == range(200, 300)
    for deals, n in ((800, 8), (10, 3), (5, 5), (7, 1)):
        pieces = [fuzz.shard_range(deals, (i, n)) for i in range(1, n + 1)]
        assert [k for p in pieces for k in p] == list(range(deals))
    assert [len(s) for s in fuzz.split(range(10, 17), 3)] == [2, 2, 3]


def test_a_seed_and_an_index_name_the_same_cases_and_another_seed_other_cases():
    rules = RULES["federation"]
    first = deal_cases(rules, fuzz.deal_rng(7, 3))
    assert first == deal_cases(rules, fuzz.deal_rng(7, 3))
    assert first != deal_cases(rules, fuzz.deal_rng(8, 3))
    assert first != deal_cases(rules, fuzz.deal_rng(7, 4))


@pytest.mark.parametrize("variant_id", sorted(RULES))
def test_every_case_a_random_deal_gives_is_one_the_engine_answers(variant_id):
    rules = RULES[variant_id]
    kinds = set()
    for index in range(12):
        for case in deal_cases(rules, fuzz.deal_rng(1, index)):
            assert canonicalise(case) == case        # built in canonical notation
            assert fuzz.reference(rules, case) is not None, case
            kinds.add(case["kind"])
    assert {"dealing", "auction", "legal_cards", "deal", "score"} <= kinds
    assert ("melds" in kinds) == rules.melds.enabled


def test_the_kinds_asked_for_are_the_only_kinds_built_and_the_draws_do_not_change():
    rules = RULES["federation"]
    every = deal_cases(rules, fuzz.deal_rng(1, 5))
    scores = deal_cases(rules, fuzz.deal_rng(1, 5), ("score",))
    assert scores == [c for c in every if c["kind"] == "score"]


# --- in-process mutants: each breaks one rule -----------------------------------------

class Mutant(InProcess):
    """The reference engine with one answer changed by ``mutate(case, result)``."""

    def __init__(self, mutate):
        super().__init__()
        self.mutate = mutate

    def run(self, seq, case):
        reply = super().run(seq, case)
        if "result" in reply:
            self.mutate(case, reply["result"])
        return reply


def started(impl, variant_id):
    impl.start()
    assert impl.configure(variant_id)["ok"]
    return impl


def refuses_coinche(case, result):
    """An auction stops at the first coinche, as if coinche were never legal."""
    if case["kind"] != "auction":
        return
    for i, c in enumerate(case["calls"]):
        if c["call"] == "coinche" and i < result["accepted"]:
            result["accepted"] = i
            return


def whole_hand_after_a_lead(case, result):
    """With five cards or more in hand and a card led, every card may be played."""
    if case["kind"] == "legal_cards" and case["trick"] and len(case["hand"]) >= 5:
        result["legal"] = sorted(case["hand"])


def tierce_worth_21(case, result):
    """The winner of a melds comparison with a three-card run scores one point more."""
    if case["kind"] == "melds" and result["winner"] and any(len(m) == 3 for ms in case["declared"].values()
                                                             for m in ms):
        result["points"][result["winner"]] += 1


def test_the_reference_engine_against_itself_finds_nothing():
    impl = started(InProcess(), "federation")
    tally = fuzz.play_range(impl, RULES["federation"], 1, range(15), fuzz.KINDS)
    assert tally.deals == 15 and tally.cases > 15 * 30
    assert tally.divergent_cases == 0 and not tally.first


@pytest.mark.parametrize("mutate, variant_id, key", [
    (refuses_coinche, "contree-701", "auction/accepted"),
    (whole_hand_after_a_lead, "federation", "legal_cards/legal"),
    (tierce_worth_21, "federation", "melds/points"),
])
def test_a_mutant_is_found_and_shrunk_to_a_case_that_still_diverges(mutate, variant_id, key):
    rules = RULES[variant_id]
    impl = started(Mutant(mutate), variant_id)
    tally = fuzz.play_range(impl, rules, 1, range(12), fuzz.KINDS)
    assert key in tally.first, sorted(tally.first)
    found = tally.first[key]
    shrunk = fuzz.shrink_divergence(impl, rules, found)
    small = shrunk.divergence
    assert small.field in shrunk.fields
    # the shrunk case is still a case the engine answers, with the expectation recorded
    assert fuzz.compared_fields(small.kind, run_case(rules, small.case)) == small.expected
    # and the mutant still disagrees on that field
    reply = impl.run("again", small.case)
    assert any(fuzz.top_field(d.field) == small.field for d in compare(small.expected, reply["result"]))
    if small.kind == "auction":
        assert len(small.case["calls"]) <= min(3, len(found.case["calls"]))
        assert small.case["calls"][-1]["call"] == "coinche"
    if small.kind == "legal_cards":
        assert len(small.case["hand"]) == 5 and len(small.case["trick"]) == 1
    if small.kind == "melds":
        declared = [m for ms in small.case["declared"].values() for m in ms]
        assert declared and all(len(m) == 3 for m in declared) and len(declared) <= 2


def test_a_score_case_shrinks_to_plain_numbers():
    rules = RULES["federation"]
    case = {"kind": "score", "contract": {"value": 130, "strain": "S", "declarer": "E", "multiplier": 2},
            "trick_points": {"NS": 67, "EW": 85}, "tricks_won": {"NS": 3, "EW": 5}, "last_trick": "EW",
            "melds": {"NS": 0, "EW": 20}, "belote": "NS"}

    def diverges(c):   # "any failed contract" is what the implementation gets wrong
        return fuzz.reference(rules, c) is not None and run_case(rules, c)["made"] is False

    assert diverges(case)
    from coinche_spec.conformance.shrink import shrink
    small, tries = shrink(rules, case, diverges)
    assert diverges(small) and 0 < tries <= 400
    assert small["contract"]["multiplier"] == 1 and small["melds"] == {"NS": 0, "EW": 0}
    assert small["belote"] is None and small["tricks_won"] == {"NS": 4, "EW": 4}
    assert small["contract"]["value"] <= 130 and small["trick_points"]["NS"] % 10 == 0


def test_an_implementation_that_stops_answering_ends_the_run():
    class Dead(InProcess):
        def run(self, seq, case):
            from coinche_spec.protocol.client import ImplementationError
            raise ImplementationError("crashed", "the implementation exited with status 1")

    impl = started(Dead(), "federation")
    with pytest.raises(fuzz.FuzzAbort, match="no answer to 5 cases in a row"):
        fuzz.play_range(impl, RULES["federation"], 1, range(3), fuzz.KINDS)


def test_depends_on_names_rule_paths_of_the_schema_once_each():
    paths = rule_paths(load_variant("federation").document["rules"])
    for kind, fields in fuzz.FIELD_RULES.items():
        assert set(fields) <= set(EXPECT_FIELDS[kind])
        for name in fields:
            named = fuzz.depends_on(kind, [name])
            assert named and set(named) <= paths
            assert not any(a != b and a.startswith(b + ".") for a in named for b in named)
    assert fuzz.depends_on("auction", ["accepted"]) == ["auction", "table.direction"]


# --- the writer -------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["no", "yes", "null", "10", "7H", "80H", "a b", "on", "1e3", "x: y", "é", "",
                                   "TS", "capotH", 0, -3, True, None])
def test_a_scalar_reads_back_as_itself(value):
    text = f"key: {fixture_writer.scalar(value)}\n"
    data, _ = yamlstrict.load(text, "t.yaml")
    assert data == {"key": value}


def test_a_written_fixture_never_replaces_a_file(tmp_path):
    existing = tmp_path / "fuzz-x.yaml"
    existing.write_text("keep me\n", encoding="utf-8")
    (tmp_path / "other.yaml").write_text("fixtures:\n  - id: fuzz-x-2\n", encoding="utf-8")
    fixture = {"id": "fuzz-x", "title": "t", "case": {"kind": "perft"}, "expect": {"federation": {"count": 1}}}
    path = fixture_writer.write_fixture(tmp_path, "fuzz-x", fixture, "perft", ["head"], {"count": "2"},
                                        "federation")
    assert path.name == "fuzz-x-3.yaml"            # fuzz-x.yaml is taken, and the id fuzz-x-2 too
    assert existing.read_text(encoding="utf-8") == "keep me\n"
    data, _ = yamlstrict.load_file(path)
    assert data["fixtures"][0]["id"] == "fuzz-x-3"


def test_a_rule_set_file_is_named_relative_to_the_fixture_directory(tmp_path):
    (tmp_path / "rules").mkdir()
    key = fixture_writer.expectation_key("ours", tmp_path / "rules" / "ours.yaml", tmp_path / "out")
    assert key == "../rules/ours.yaml"
    assert fixture_writer.expectation_key("federation", None, tmp_path) == "federation"


# --- the command, end to end -----------------------------------------------------------

def check_written(paths, expect_key: str, rules, variant_document=None) -> list:
    """Written fixtures: valid YAML of the corpus's shape, the engine's expectation, still diverging."""
    fixtures, cases = [], []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert "expected_by: engine" in text and "reference engine's answer" in text.split("area:")[0]
        data, _ = yamlstrict.load_file(path)
        assert set(data) == {"area", "fixtures"} and len(data["fixtures"]) == 1
        fixture = data["fixtures"][0]
        assert {"id", "title", "case", "expect", "expected_by", "depends_on"} <= set(fixture)
        assert fixture["expected_by"] == "engine" and fixture["id"] == path.stem
        assert set(fixture["depends_on"]) <= rule_paths(load_variant("federation").document["rules"])
        case = canonicalise(fixture["case"])
        assert list(fixture["expect"]) == [expect_key]
        expected = check_expectation(case["kind"], fixture["expect"][expect_key])
        assert compare(expected, run_case(rules, case)) == []      # the expectation is the engine's answer
        fixtures.append(fixture)
        cases.append((case, expected))
    # ... which the faulty implementation still contradicts, and `coinche-spec serve` gives
    for command, wrong in ((OFF_BY_ONE, True), (SERVE, False)) if variant_document is not None else ():
        with Subprocess(command) as impl:
            impl.start()
            assert impl.configure(variant_document)["ok"]
            for case, expected in cases:
                diffs = compare(expected, impl.run("check", case)["result"])
                assert bool(diffs) is wrong, (command, diffs)
    return fixtures


def test_fuzz_finds_the_point_off_and_writes_fixtures_without_overwriting(capsys, tmp_path):
    args = ("--impl", OFF_BY_ONE, "--variant", "federation", "--deals", "20", "--seed", "1", "--json")
    # a first run, elsewhere, tells the name the score divergence takes (which deal finds it depends
    # on the deals the generator draws)
    code, stdout, err = fuzz_cli(capsys, *args, "--out", str(tmp_path / "first"))
    assert code == 1, err
    first = [Path(f["file"]).stem for f in json.loads(stdout)["found"] if "-score-score-" in f["file"]]
    assert first
    name = first[0]
    out = tmp_path / "found"
    out.mkdir()
    mine = out / f"{name}.yaml"                                  # the name the run would take first
    mine.write_text("a person's notes\n", encoding="utf-8")
    code, stdout, err = fuzz_cli(capsys, *args, "--out", str(out))
    assert code == 1, err
    assert err == ""                                   # no progress bar: stderr is not a terminal
    summary = json.loads(stdout)
    assert summary["deals"] == 20 and summary["divergences"] >= 1 and summary["deals_per_second"] > 0
    assert "score/score" in summary["keys"] and "deal/score" in summary["keys"]
    assert mine.read_text(encoding="utf-8") == "a person's notes\n"
    files = sorted(Path(f["file"]) for f in summary["found"])
    assert files == sorted(set(out.glob("*.yaml")) - {mine})
    assert out / f"{name}-2.yaml" in files
    for fixture in check_written(files, "federation", RULES["federation"], "federation"):
        if fixture["case"]["kind"] == "score":
            assert fixture["id"] == f"{name}-2"
            assert "score" in fixture["expect"]["federation"]
            assert "made" not in fixture["expect"]["federation"]     # only what differed is expected
        if fixture["case"]["kind"] == "deal":
            assert len(fixture["case"]["play"]) == 32    # a score needs every card
            # the shortest auction to the contract: a pass from each seat before the declarer's, the
            # contract bid, three passes (federation plays anticlockwise: N W S E)
            calls, order = fixture["case"]["calls"], ["N", "W", "S", "E"]
            bids = [c for c in calls if c["call"] != "pass"]
            first = order[(order.index(fixture["case"]["dealer"]) + 1) % 4]
            before = (order.index(bids[-1]["seat"]) - order.index(first)) % 4
            assert len(calls) <= before + 4, calls


def test_a_rule_set_file_keys_the_expectation_by_its_path(capsys, tmp_path):
    club = tmp_path / "our-club.yaml"
    club.write_text('id: our-club\nextends: federation\nname: "Our club"\ndescription: "Shorter matches."\n'
                    'status: house\nsources: []\ninterpretations: []\nrules:\n  match: {target: 1500}\n',
                    encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, err = fuzz_cli(capsys, "--impl", OFF_BY_ONE, "--variant", str(club), "--deals", "4",
                                 "--out", str(out), "--json")
    assert code == 1, err
    files = sorted(out.glob("*.yaml"))
    assert files
    check_written(files, "../our-club.yaml", load_variant(club).rules)


def test_jobs_play_the_deals_of_one_and_a_shard_plays_its_slice(capsys):
    variant_id = "cafe-sans-tout-atout"
    rules = RULES[variant_id]
    alone = fuzz.play_range(started(InProcess(), variant_id), rules, 1, range(10), fuzz.KINDS)
    # two spawned jobs and none here: every deal is played by a job process, each with its own serve
    setup = fuzz.Setup(SERVE, 10.0, variant_id, variant_id, 1, fuzz.KINDS)
    progress = []
    jobs = fuzz.play_jobs(setup, range(10), 2, lambda done, divergent: progress.append(done))
    assert (jobs.deals, jobs.cases, jobs.by_kind, jobs.first) == (10, alone.cases, alone.by_kind, {})
    assert progress and progress[-1] == 10
    # the command: the second half of the range, in two jobs (this process one of them)
    code, stdout, err = fuzz_cli(capsys, "--impl", SERVE, "--variant", variant_id, "--deals", "20",
                                 "--shard", "2/2", "--jobs", "2", "--json")
    assert code == 0, err
    second = json.loads(stdout)
    assert (second["first_deal"], second["last_deal"], second["deals"]) == (10, 19, 10)
    assert second["divergences"] == 0 and second["jobs"] == 2 and second["generator"] == "batch"
    half = fuzz.play_range(started(InProcess(), variant_id), rules, 1, range(10, 20), fuzz.KINDS,
                           generator="batch")
    assert (second["cases"], second["cases_by_kind"]) == (half.cases, half.by_kind)


def test_a_job_that_cannot_start_its_implementation_says_why():
    import queue
    setup = fuzz.Setup("no-such-program-here", 10.0, "federation", "federation", 1, fuzz.KINDS)
    tasks, out = queue.Queue(), queue.Queue()
    tasks.put((0, 4))
    fuzz._job(setup, tasks, out)                 # what a job process runs, here in this process
    what, tally, message = out.get_nowait()
    assert what == "error" and tally is None and "did not start" in message and "no-such-program-here" in message


def test_the_first_divergence_in_seed_order_is_kept_whatever_the_slices():
    rules = RULES["federation"]
    impl = started(Mutant(tierce_worth_21), "federation")
    alone = fuzz.play_range(impl, rules, 1, range(12), fuzz.KINDS)
    merged = fuzz.Tally()
    for piece in reversed(fuzz.split(range(12), 4)):      # the jobs finish in any order
        merged.merge(fuzz.play_range(impl, rules, 1, piece, fuzz.KINDS))
    assert alone.first and {k: d.order() for k, d in merged.first.items()} \
        == {k: d.order() for k, d in alone.first.items()}
    assert (merged.deals, merged.cases, merged.divergent_cases) == (alone.deals, alone.cases, alone.divergent_cases)


def test_serve_over_a_few_dozen_deals_and_the_report_without_json(capsys):
    code, stdout, err = fuzz_cli(capsys, "--impl", SERVE, "--variant", "federation", "--deals", "30")
    assert code == 0, err
    assert "30 deals" in stdout and "0 distinct divergences" in stdout and "deals/s" in stdout


@pytest.mark.parametrize("args, message", [
    (["--variant", "federation", "--deals", "5"], "--impl is required"),
    (["--impl", SERVE, "--deals", "5"], "--variant is required"),
    (["--impl", SERVE, "--variant", "federation"], "--deals is required"),
    (["--impl", SERVE, "--variant", "federation", "--deals", "0"], "--deals 0: expected a whole number of at least 1"),
    (["--impl", SERVE, "--variant", "federation", "--deals", "many"], "--deals many: expected a whole number"),
    (["--impl", SERVE, "--variant", "federation", "--deals", "5", "--seed", "-2"], "--seed -2: expected"),
    (["--impl", SERVE, "--variant", "federation", "--deals", "5", "--jobs", "0"], "--jobs 0: expected"),
    (["--impl", SERVE, "--variant", "federation", "--deals", "5", "--jobs", "500"], "--jobs 500: at most 64"),
    (["--impl", SERVE, "--variant", "federation", "--deals", "5", "--shard", "0/3"], "--shard 0/3: expected I/N"),
    (["--impl", SERVE, "--variant", "federation", "--deals", "5", "--shard", "4/3"], "--shard 4/3: expected I/N"),
    (["--impl", SERVE, "--variant", "federation", "--deals", "5", "--shard", "half"], "--shard half: expected"),
    (["--impl", SERVE, "--variant", "federation", "--deals", "2", "--shard", "1/8"], "holds no deal"),
    (["--impl", SERVE, "--variant", "federation", "--deals", "5", "--timeout", "0"], "--timeout 0: give"),
    (["--impl", SERVE, "--variant", "no-such-rules", "--deals", "5"], "--variant no-such-rules: unknown variant"),
    (["--impl", SERVE, "--variant", "missing/file.yaml", "--deals", "5"], "no such variant file"),
    (["--impl", "no-such-program-here", "--variant", "federation", "--deals", "5"],
     'did not start: cannot start: command not found: no-such-program-here'),
])
def test_bad_options_get_one_line_and_status_2(capsys, args, message):
    code, stdout, err = fuzz_cli(capsys, *args)
    assert code == 2 and stdout == ""
    assert len(err.splitlines()) == 1 and message in err, err


def test_an_output_path_that_is_a_file_is_refused(capsys, tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("mine\n", encoding="utf-8")
    code, _, err = fuzz_cli(capsys, "--impl", SERVE, "--variant", "federation", "--deals", "1", "--out", str(taken))
    assert code == 2 and "exists and is not a directory" in err and taken.read_text(encoding="utf-8") == "mine\n"


def test_an_implementation_that_refuses_the_rule_set_is_status_2(capsys, tmp_path):
    program = tmp_path / "picky.py"
    program.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        "    if req['cmd'] == 'start':\n"
        "        print(json.dumps({'protocol': 1, 'implementation': {'name': 'picky'}, 'kinds': ['score'],"
        " 'variants': None}), flush=True)\n"
        "    elif req['cmd'] == 'configure':\n"
        "        print(json.dumps({'ok': False, 'unsupported': ['melds.enabled'], 'message': 'no'}), flush=True)\n"
        "    else:\n"
        "        break\n", encoding="utf-8")
    code, _, err = fuzz_cli(capsys, "--impl", f"{sys.executable} {program}", "--variant", "federation",
                            "--deals", "1")
    assert code == 2 and "refused the rule set: it does not play melds.enabled" in err


class Terminal:
    def __init__(self, tty):
        self.tty, self.text = tty, ""

    def isatty(self):
        return self.tty

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_the_progress_bar_is_drawn_on_a_terminal_only():
    from coinche_spec.conformance.fuzz_cli import Progress
    for tty in (True, False):
        stream = Terminal(tty)
        bar = Progress(10, stream)
        bar.update(5, 1, force=True)
        bar.close()
        assert ("5/10 deals" in stream.text) is tty and (stream.text == "") is not tty


def test_a_job_process_that_fails_stops_the_run_with_its_reason():
    setup = fuzz.Setup("no-such-program-here", 10.0, "federation", "federation", 1, fuzz.KINDS)
    with pytest.raises(fuzz.FuzzAbort, match="did not start: cannot start: command not found"):
        fuzz.play_jobs(setup, range(4), 1)
