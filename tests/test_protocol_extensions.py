"""The protocol's compatible extensions: a contract's doubling, a deal under a given contract,
two belotes in one deal, and the JSON Schema every message is checked against.

Expectations are worked out by hand from the rule sets named (arithmetic beside them); where a
test compares the engine with itself (a deal with its auction, and the same deal with its
contract given), it says so.
"""

import copy
import json

import pytest
from support import changed_rules

from coinche_spec.conformance.fuzz import deal_rng
from coinche_spec.conformance.fuzz_cases import deal_cases
from coinche_spec.conformance.runner import run as run_corpus
from coinche_spec.variants import load_variant
from coinche_spec.protocol.cases import CaseError, run_case
from coinche_spec.protocol.client import Implementation, ImplementationError, InProcess
from coinche_spec.protocol.wire import Checked, outgoing, problems, reply_problems, schema
from coinche_spec.variants import load_variant


def rules(ref):
    return load_variant(ref).rules


def score_case(multiplier=1, doubling=None, **extra):
    contract = {"value": 90, "strain": "H", "declarer": "N", "multiplier": multiplier}
    if doubling is not None:
        contract["doubling"] = doubling
    case = {"kind": "score", "contract": contract, "trick_points": {"NS": 100, "EW": 52},
            "tricks_won": {"NS": 5, "EW": 3}, "last_trick": "NS", "melds": {"NS": 0, "EW": 0}, "belote": None}
    case.update(extra)
    return case


# --- doubling --------------------------------------------------------------------

def test_doubling_is_accepted_when_it_agrees_with_the_multiplier():
    # contree-701: coinche x2, surcoinche x4; made 90 with 100 + 10 = 110: takers 110 + 90 x 4 = 470,
    # the defenders keep their card points, 52
    assert run_case(rules("contree-701"), score_case(4, "surcoinche"))["score"] == {"NS": 470, "EW": 52}
    # cafe-1000 surcoinches x3: a multiplier of 3 is a surcoinche there
    assert run_case(rules("cafe-1000"), score_case(3, "surcoinche"))["made"] is True


@pytest.mark.parametrize("multiplier, doubling", [(4, "coinche"), (2, "surcoinche"), (1, "coinche"), (2, "none")])
def test_doubling_that_disagrees_with_the_multiplier_is_bad_input(multiplier, doubling):
    with pytest.raises(CaseError) as err:
        run_case(rules("contree-701"), score_case(multiplier, doubling))
    assert err.value.path == ("case", "contract", "doubling")
    assert "coinche x2, surcoinche x4" in str(err.value)


def test_unknown_doubling_word_is_bad_input():
    with pytest.raises(CaseError) as err:
        run_case(rules("contree-701"), score_case(2, "redouble"))
    assert "expected none, coinche or surcoinche" in str(err.value)


def test_the_runner_sends_the_doubling_the_rule_set_gives_a_multiplier():
    assert outgoing(score_case(4), rules("contree-701"))["contract"]["doubling"] == "surcoinche"
    assert outgoing(score_case(2), rules("contree-701"))["contract"]["doubling"] == "coinche"
    assert outgoing(score_case(1), rules("contree-701"))["contract"]["doubling"] == "none"
    assert outgoing(score_case(3), rules("cafe-1000"))["contract"]["doubling"] == "surcoinche"
    given = score_case(4, "surcoinche")
    assert outgoing(given, rules("contree-701")) is given          # never changes what was written
    auction = {"kind": "auction", "dealer": "N", "calls": []}
    assert outgoing(auction, rules("contree-701")) is auction


class Recorder(InProcess):
    def __init__(self):
        super().__init__()
        self.sent = []

    def run(self, seq, case):
        self.sent.append(copy.deepcopy(case))
        return super().run(seq, case)


@pytest.fixture(scope="module")
def corpus():
    from coinche_spec.resources import corpus_dir
    return {kind: load_corpus_file(corpus_dir() / f"{name}.yaml")
            for kind, name in (("score", "scoring"), ("legal_cards", "play"))}


def load_corpus_file(path):
    import shutil
    import tempfile
    from pathlib import Path

    from coinche_spec.conformance.fixtures import load_corpus
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(path, Path(folder) / path.name)
        return load_corpus(folder)


def test_the_runner_puts_doubling_in_every_score_case_it_sends(corpus):
    fixtures = [f for f in corpus["score"] if "contree-701" in f.expect][:10]
    impl = Recorder()
    impl.start()
    report = run_corpus(impl, fixtures, [load_variant("contree-701")])
    assert report.ok and impl.sent
    assert all(c["contract"]["doubling"] in ("none", "coinche", "surcoinche") for c in impl.sent)


# --- a deal under a given contract -------------------------------------------------

def played_deals(ref, want):
    r = rules(ref)
    for i in range(200):
        for case in deal_cases(r, deal_rng(11, i), ("deal",)):
            if len(case["play"]) == 32:
                full = run_case(r, case)
                if want(full):
                    yield case, full
                break


def test_a_deal_with_its_contract_given_plays_and_scores_as_with_its_auction():
    # the engine against itself: the same hands and cards, the auction skipped
    seen = 0
    for case, full in played_deals("contree-701", lambda f: f["contract"]["multiplier"] > 1):
        given = {k: v for k, v in case.items() if k != "calls"}
        given["contract"] = full["contract"]
        result = run_case(rules("contree-701"), given)
        assert result["accepted"] == {"calls": 0, "plays": 32}
        for field in ("contract", "tricks", "tricks_won", "card_points", "made", "score"):
            assert result[field] == full[field], field
        seen += 1
        if seen == 3:
            break
    assert seen == 3


def test_a_given_contract_with_calls_or_one_no_auction_reaches_is_bad_input():
    case, full = next(played_deals("contree-701", lambda f: True))
    with pytest.raises(CaseError) as err:
        run_case(rules("contree-701"), dict(case, contract=full["contract"]))
    assert err.value.path == ("case", "calls")
    no_calls = {k: v for k, v in case.items() if k != "calls"}
    with pytest.raises(CaseError) as err:    # contree-701 has no tout atout
        run_case(rules("contree-701"), dict(no_calls, contract={"value": 90, "strain": "TA", "declarer": "N",
                                                                "multiplier": 1}))
    assert err.value.path[:2] == ("case", "contract")


# --- two belotes --------------------------------------------------------------------

def tout_atout_with_belotes():
    return changed_rules("contree-701", {"auction.strains.tout_atout": True,
                                         "auction.strain_order": ["C", "D", "H", "S", "TA"],
                                         "belote.tout_atout": "each_suit"})


def ta_score(belote, belotes=None):
    # tout atout cards: (20 + 14 + 11 + 10 + 4 + 3) x 4 = 248; NS 150, EW 98
    case = {"kind": "score", "contract": {"value": 100, "strain": "TA", "declarer": "N", "multiplier": 1},
            "trick_points": {"NS": 150, "EW": 98}, "tricks_won": {"NS": 5, "EW": 3}, "last_trick": "NS",
            "melds": {"NS": 0, "EW": 0}, "belote": belote}
    if belotes is not None:
        case["belotes"] = belotes
    return case


def test_score_counts_a_belote_for_each_side():
    r = tout_atout_with_belotes()
    # card points NS 150 + 10 = 160, EW 98; made (160 + 20 >= 100, not level with 98 + 20)
    # takers 160 + 100 + belote 20 = 280; defenders 98 + belote 20 = 118
    assert run_case(r, ta_score(None, {"NS": 1, "EW": 1}))["score"] == {"NS": 280, "EW": 118}
    # the old field alone: null reads as no belote: 160 + 100 = 260 and 98
    assert run_case(r, ta_score(None))["score"] == {"NS": 260, "EW": 98}
    # two belotes for the takers: 160 + 100 + 40 = 300
    assert run_case(r, ta_score("NS", {"NS": 2, "EW": 0}))["score"] == {"NS": 300, "EW": 98}


@pytest.mark.parametrize("belote, belotes", [("NS", {"NS": 1, "EW": 1}), (None, {"NS": 1, "EW": 0}),
                                             ("EW", {"NS": 2, "EW": 0})])
def test_belote_must_say_what_belotes_says(belote, belotes):
    with pytest.raises(CaseError) as err:
        run_case(tout_atout_with_belotes(), ta_score(belote, belotes))
    assert err.value.path == ("case", "belote")


def test_a_deal_where_both_sides_score_a_belote_says_so_in_belotes():
    # engine-derived deals, checked for consistency: belotes appears exactly when `belote` cannot say it
    r = tout_atout_with_belotes()
    both = 0
    for i in range(400):
        for case in deal_cases(r, deal_rng(3, i), ("deal",)):
            if len(case["play"]) != 32:
                continue
            result = run_case(r, case)
            if "belotes" in result:
                counts = result["belotes"]
                assert result["belote"] is None or max(counts.values()) > 1
                assert counts["NS"] + counts["EW"] >= 2
                both += counts["NS"] > 0 and counts["EW"] > 0
            assert problems("result-deal", json.loads(json.dumps(result))) == []
        if both:
            break
    assert both, "no random tout atout deal gave a belote to each side"


def test_match_counts_belotes_where_belote_validation_asks():
    deals = [{"score": {"NS": 0, "EW": 0}, "takers": "NS", "made": True, "belote": None,
              "belotes": {"NS": 1, "EW": 2}, "tricks_won": {"NS": 4, "EW": 4}}]
    case = {"kind": "match", "deals": deals}
    assert run_case(rules("contree-701"), case)["state"] == "open"
    deals[0]["belote"] = "EW"
    with pytest.raises(CaseError) as err:
        run_case(rules("contree-701"), case)
    assert err.value.path == ("case", "deals", 0, "belote")


# --- the schema and --check-protocol --------------------------------------------

def test_the_schema_has_every_message():
    names = set(schema()["$defs"])
    from coinche_spec.protocol.cases import KINDS
    for kind in KINDS:
        assert {f"case-{kind}", f"result-{kind}"} <= names
    assert {"request-start", "request-configure", "request-run", "request-stop",
            "reply-start", "reply-configure", "reply-run"} <= names


def test_reference_replies_and_sent_cases_fit_the_schema():
    r = rules("contree-701")
    for i in range(5):
        for case in deal_cases(r, deal_rng(2, i)):
            assert problems("request-run", {"cmd": "run", "seq": 1, "case": outgoing(case, r)}) == []
            reply = {"seq": 1, "result": json.loads(json.dumps(run_case(r, case)))}
            assert reply_problems(case, reply) == []


def test_a_bad_reply_names_the_path_and_the_schema_message():
    case = {"kind": "legal_cards", "strain": "H", "seat": "S", "hand": ["JH"], "trick": []}
    found = reply_problems(case, {"seq": 1, "result": {"legal": ["JH", "1H"]}})
    assert found and found[0].startswith("reply.result.legal[1]: ") and "does not match" in found[0]
    assert reply_problems(case, {"seq": 1, "result": {}})[0] == "reply.result: 'legal' is a required property"


class Sloppy(Implementation):
    """Answers every legal_cards case with a card that does not exist."""

    info = {"protocol": 1, "kinds": ["legal_cards"], "variants": None,
            "implementation": {"name": "sloppy"}}

    def start(self):
        return self.info

    def configure(self, variant):
        return {"ok": True}

    def run(self, seq, case):
        return {"seq": seq, "result": {"legal": ["ZZ"]}}

    def stop(self):
        pass


def test_check_protocol_turns_a_reply_that_breaks_the_schema_into_a_failure(corpus):
    fixtures = [f for f in corpus["legal_cards"] if f.kind == "legal_cards" and "contree-701" in f.expect
                and f.expect["contree-701"].applicable][:3]
    impl = Checked(Sloppy())
    impl.start()
    report = run_corpus(impl, fixtures, [load_variant("contree-701")])
    assert [o.outcome for o in report.outcomes] == ["fail"] * len(fixtures)
    assert "reply.result.legal[0]" in report.outcomes[0].message
    with pytest.raises(ImplementationError) as err:
        impl.run(1, fixtures[0].case)
    assert err.value.kind == "protocol"


def test_check_protocol_on_the_command_line(capsys, tmp_path):
    import shutil

    from coinche_spec.cli import main
    from coinche_spec.resources import corpus_dir
    shutil.copy(corpus_dir() / "perft.yaml", tmp_path / "perft.yaml")
    assert main(["conformance", "--check-protocol", "--corpus-only", "--corpus", str(tmp_path), "--variant", "contree-701"]) == 0
    assert "0 failed" in capsys.readouterr().out


# --- the litige (scoring.litige) ------------------------------------------------------------

def _litige_match(held, made=False, takers="NS"):
    return {"kind": "match", "deals": [
        {"score": {"NS": 0, "EW": 80}, "takers": takers, "made": made, "belote": None,
         "tricks_won": {"NS": 4, "EW": 4}, "held": held}]}


def test_a_litige_score_says_what_is_held_and_its_match_waits_for_it():
    # test-litige (federation, rounded to 10): 80H, 71 + 10 = 81 against 81: the defence 81 -> 80,
    # the takers' 81 -> 80 held; the match case then reports the 80 still waiting
    result = run_case(rules("test-litige"), score_case(contract={"value": 80, "strain": "H", "declarer": "N",
                                                                  "multiplier": 1},
                                                        trick_points={"NS": 71, "EW": 81},
                                                        tricks_won={"NS": 4, "EW": 4}))
    assert result == {"made": False, "card_points": {"NS": 81, "EW": 81}, "score": {"NS": 0, "EW": 80},
                      "held": {"NS": 80, "EW": 0}}
    assert run_case(rules("test-litige"), _litige_match({"NS": 80, "EW": 0})) == {
        "state": "open", "winner": None, "totals": {"NS": 0, "EW": 80}, "held": 80}


def test_no_held_points_in_a_score_without_a_litige():
    result = run_case(rules("federation"), score_case())
    assert "held" not in result


@pytest.mark.parametrize("ruleset, held, made, where", [
    ("federation", {"NS": 80, "EW": 0}, False, ("case", "deals", 0, "held")),          # no litige in seed 000
    ("test-litige", {"NS": 0, "EW": 80}, False, ("case", "deals", 0, "held", "EW")),   # the defenders' points
    ("test-litige", {"NS": 80, "EW": 0}, True, ("case", "deals", 0, "held")),          # a litige is not made
])
def test_held_points_the_rule_set_cannot_have_are_bad_input(ruleset, held, made, where):
    with pytest.raises(CaseError) as err:
        run_case(rules(ruleset), _litige_match(held, made))
    assert err.value.path == where, str(err.value)
