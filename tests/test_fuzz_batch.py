"""Fuzzing on deals the batch engine proposes: the per-deal engine judges every call, card and case.

The batch engine only proposes the deals (conformance/fuzz_deals.py); every
expectation is still the per-deal engine's, so the checks here are: the
reference engine and ``serve`` agree with themselves on batch deals, a wrong
implementation is still caught, a seed names the same cases, the fallback to
the per-deal random players says why, and a batch that plays an illegal card
or call (or scores otherwise) stops the run loudly.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from coinche_spec import batch as batch_pkg  # noqa: E402
from coinche_spec.cli import main  # noqa: E402
from coinche_spec.conformance import fuzz  # noqa: E402
from coinche_spec.conformance.fuzz_deals import BATCH_CHUNK, BatchDeals, BatchDisagrees, PerDeal, \
    batch_refusal  # noqa: E402
from coinche_spec.protocol.cases import canonicalise  # noqa: E402
from coinche_spec.protocol.client import InProcess  # noqa: E402
from coinche_spec.variants import load_variant, shipped_ids  # noqa: E402
from tests.support import stage_batch_refusal  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OFF_BY_ONE = f"{sys.executable} {ROOT / 'tests' / 'impls' / 'off_by_one.py'}"
SERVE = f"{sys.executable} -m coinche_spec serve"
BATCHED = [vid for vid in shipped_ids() if batch_refusal(load_variant(vid).rules) is None]


def fuzz_cli(capsys, *args):
    code = main(["fuzz", *args])
    out, err = capsys.readouterr()
    return code, out, err


def started(impl, variant_id):
    impl.start()
    assert impl.configure(variant_id)["ok"]
    return impl


def refused_rule_set(monkeypatch) -> tuple[str, str]:
    """A rule set the batch engine refuses (staged: it plays every rule set today), and the refusal."""
    vid = stage_batch_refusal(monkeypatch)
    why = batch_refusal(load_variant(vid).rules)
    assert why is not None and why.startswith("rules.contract.versus_defenders")
    return vid, why


# --- no divergence on batch deals ---------------------------------------------------

def test_the_batch_plays_most_shipped_rule_sets():
    assert {"federation", "contree-701"} <= set(BATCHED)


@pytest.mark.parametrize("variant_id", BATCHED)
def test_the_reference_engine_in_process_agrees_with_itself_on_batch_deals(variant_id):
    rules = load_variant(variant_id).rules
    impl = started(InProcess(), variant_id)
    # a small chunk, so that the deals stream through several batches
    tally = fuzz.play_range(impl, rules, 3, range(14), fuzz.KINDS, source=BatchDeals(rules, 3, chunk=5))
    assert tally.deals == 14 and tally.cases > 14 * 20
    assert tally.divergent_cases == 0 and not tally.first
    assert {"dealing", "auction", "legal_cards", "deal", "score"} <= set(tally.by_kind)
    assert ("melds" in tally.by_kind) == rules.melds.enabled


@pytest.mark.parametrize("variant_id", ["federation", "contree-701"])
def test_serve_agrees_on_batch_deals_across_a_batch_boundary(capsys, variant_id):
    # the last slice of 2060 deals: deals 2040-2059, the end of batch 0 and the start of batch 1
    code, stdout, err = fuzz_cli(capsys, "--impl", SERVE, "--variant", variant_id, "--deals", "2060",
                                 "--shard", "103/103", "--generator", "batch", "--json")
    assert code == 0, err
    summary = json.loads(stdout)
    assert (summary["first_deal"], summary["last_deal"]) == (2040, 2059) and BATCH_CHUNK == 2048
    assert summary["generator"] == "batch" and summary["deals"] == 20
    assert summary["divergences"] == 0 and summary["cases"] > 20 * 20


def test_every_batch_case_is_one_the_engine_answers():
    rules = load_variant("federation").rules
    source = BatchDeals(rules, 1)
    for index in range(12):
        for case in source.cases(index):
            assert canonicalise(case) == case
            assert fuzz.reference(rules, case) is not None, case


# --- a wrong implementation is still caught -------------------------------------------

def test_the_point_off_is_caught_on_batch_deals(capsys, tmp_path):
    code, stdout, err = fuzz_cli(capsys, "--impl", OFF_BY_ONE, "--variant", "federation", "--deals", "20",
                                 "--generator", "batch", "--out", str(tmp_path), "--json")
    assert code == 1, err
    summary = json.loads(stdout)
    assert summary["generator"] == "batch"
    assert "score/score" in summary["keys"] and "deal/score" in summary["keys"]
    assert len(list(tmp_path.glob("*.yaml"))) == summary["divergences"]


def test_a_mutant_in_process_is_caught_on_batch_deals():
    class LegalEverything(InProcess):
        """With five cards or more in hand and a card led, every card may be played."""

        def run(self, seq, case):
            reply = super().run(seq, case)
            if case["kind"] == "legal_cards" and case["trick"] and len(case["hand"]) >= 5:
                reply["result"]["legal"] = sorted(case["hand"])
            return reply

    rules = load_variant("contree-701").rules
    tally = fuzz.play_range(started(LegalEverything(), "contree-701"), rules, 1, range(10), fuzz.KINDS,
                            generator="batch")
    assert "legal_cards/legal" in tally.first


# --- a seed names the same cases -------------------------------------------------------

def test_a_seed_names_the_same_batch_cases_whatever_the_run():
    rules = load_variant("federation").rules
    whole = BatchDeals(rules, 7, chunk=6)
    first = [whole.cases(k) for k in range(15)]
    # again, a fresh source, from the middle of a batch (a shard or a job starts anywhere)
    late = BatchDeals(rules, 7, chunk=6)
    assert [late.cases(k) for k in range(9, 15)] == first[9:]
    assert [BatchDeals(rules, 7, chunk=6).cases(k) for k in range(15)] == first
    # another seed, or the per-deal generator, other deals
    assert [BatchDeals(rules, 8, chunk=6).cases(k) for k in range(15)] != first
    assert [PerDeal(rules, 7).cases(k) for k in range(15)] != first
    # the deal behind the cases is the batch's own
    batch = batch_pkg.play_batch(rules, 6, seed=[7, 1], record=True)
    deal = whole.deal(8)
    assert {s: deal.hands[s] for s in "NESW"} == {s: int(batch.hands["NESW".index(s), 2]) for s in "NESW"}


def test_the_command_gives_the_same_cases_with_one_job_or_two(capsys):
    runs = []
    for jobs in ("1", "2", "1"):
        code, stdout, err = fuzz_cli(capsys, "--impl", SERVE, "--variant", "contree-701", "--deals", "12",
                                     "--seed", "5", "--jobs", jobs, "--json")
        assert code == 0, err
        summary = json.loads(stdout)
        assert summary["generator"] == "batch"     # auto: numpy is here and the batch plays contree-701
        runs.append((summary["cases"], summary["cases_by_kind"]))
    assert runs[0] == runs[1] == runs[2]


# --- the fallback ------------------------------------------------------------------------

def test_a_rule_set_the_batch_refuses_falls_back_to_the_per_deal_engine_saying_why(capsys, monkeypatch):
    vid, why = refused_rule_set(monkeypatch)
    code, stdout, err = fuzz_cli(capsys, "--impl", SERVE, "--variant", vid, "--deals", "3", "--json")
    assert code == 0, err
    assert json.loads(stdout)["generator"] == "deal"
    assert err.count("\n") == 1 and "per-deal engine" in err and why in err and "rules." in err
    # asked for, the batch is a bad option: one line, status 2, naming the rule
    code, stdout, err = fuzz_cli(capsys, "--impl", SERVE, "--variant", vid, "--deals", "3", "--generator", "batch")
    assert code == 2 and stdout == "" and err.count("\n") == 1 and "--generator batch" in err and why in err
    # and the text report says where the deals came from
    code, stdout, err = fuzz_cli(capsys, "--impl", SERVE, "--variant", vid, "--deals", "2", "--generator", "deal")
    assert code == 0 and err == "" and "deals from the per-deal engine" in stdout


def hidden_numpy(*args) -> subprocess.CompletedProcess:
    """The command in a Python where numpy cannot be imported."""
    program = ("import sys; sys.modules['numpy'] = None\n"
               "from coinche_spec.cli import main\n"
               f"sys.exit(main({['fuzz', *args]!r}))\n")
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT)


def test_without_numpy_auto_falls_back_and_batch_is_refused():
    done = hidden_numpy("--impl", SERVE, "--variant", "federation", "--deals", "2", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["generator"] == "deal"
    assert done.stderr.count("\n") == 1 and "numpy is not installed" in done.stderr
    done = hidden_numpy("--impl", SERVE, "--variant", "federation", "--deals", "2", "--generator", "batch")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "--generator batch" in done.stderr and "numpy" in done.stderr


def test_a_bad_generator_is_one_line(capsys):
    code, stdout, err = fuzz_cli(capsys, "--impl", SERVE, "--variant", "federation", "--deals", "2",
                                 "--generator", "fast")
    assert code == 2 and stdout == "" and err.count("\n") == 1
    assert "--generator fast: expected one of auto, batch, deal" in err


# --- a batch bug stops the run ------------------------------------------------------------

def broken_batch(monkeypatch, spoil):
    """play_batch, with ``spoil(batch)`` applied to every batch it plays."""
    real = batch_pkg.play_batch

    def play_batch(*args, **kwargs):
        batch = real(*args, **kwargs)
        spoil(batch)
        return batch

    monkeypatch.setattr(batch_pkg, "play_batch", play_batch)


def first_played(batch) -> int:
    return int(batch.played[0])


def card_not_held(batch):
    """The first card of the first deal played: one the leader does not hold."""
    p = 0
    leader = int(batch.play.leaders[0, p])
    deal = first_played(batch)
    held = int(batch.hands[leader, deal])
    batch.play.cards[0, p] = next(c for c in range(32) if not held >> c & 1)


def call_out_of_turn(batch):
    """The first recorded call: made by the seat after the one to act."""
    idx, ta = batch.auction.steps[0][0], batch.auction.steps[0][1]
    ta[:] = (ta + 1) % 4
    assert idx.size


def score_off(batch):
    batch.score[0, 0] += 10


@pytest.mark.parametrize("spoil, what", [(card_not_held, "card 0"), (call_out_of_turn, "call 0"),
                                         (score_off, "the engine scores the deal")])
def test_a_batch_the_per_deal_engine_refuses_stops_the_run(monkeypatch, spoil, what):
    broken_batch(monkeypatch, spoil)
    rules = load_variant("federation").rules
    source = BatchDeals(rules, 1)
    impl = started(InProcess(), "federation")
    with pytest.raises(BatchDisagrees, match=what) as caught:
        fuzz.play_range(impl, rules, 1, range(BATCH_CHUNK), fuzz.KINDS, source=source)
    assert "bug of the batch engine" in str(caught.value) and "seed 1" in str(caught.value)


def test_the_command_stops_loudly_on_a_batch_bug(monkeypatch, capsys):
    broken_batch(monkeypatch, card_not_held)
    code, stdout, err = fuzz_cli(capsys, "--impl", SERVE, "--variant", "federation", "--deals", "40", "--json")
    assert code == 3 and stdout == ""
    assert err.startswith("coinche-spec: fuzz: BATCH ENGINE BUG") and "card 0" in err
    assert "--generator deal" in err


def test_a_job_process_reports_a_batch_bug_as_one(monkeypatch):
    import queue
    broken_batch(monkeypatch, card_not_held)
    setup = fuzz.Setup(SERVE, 10.0, "federation", "federation", 1, fuzz.KINDS, "batch")
    tasks, out = queue.Queue(), queue.Queue()
    for task in ((0, 20), None):
        tasks.put(task)
    fuzz._job(setup, tasks, out)                 # what a job process runs, here in this process
    what, tally, message = out.get_nowait()
    assert what == "batch" and tally is None and "bug of the batch engine" in message and "card 0" in message
