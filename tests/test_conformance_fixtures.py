"""The fixture loader: a good file loads canonically; every kind of mistake is one located line."""

import re
import textwrap

import pytest

from coinche_spec.conformance.fixtures import CorpusError, load_corpus, normalised, select

# Seed 000 §05, and the same summary under the other rule sets. Card points: NS 79 + 10 (last trick) = 89.
GOOD_SCORING = textwrap.dedent("""\
    area: scoring
    fixtures:
      - id: score-089-on-090
        title: "Bid 90 hearts, take 89: the contract fails"
        tags: [seed-000, worked-example]
        exercises: [scoring.failed.defenders]
        sources:
          - seed: 000_5962d0f7a9ecef0f.txt
            section: "05 / Check the promise before rounding"
            quote: "A partnership bids 90 hearts and finishes with 89 points"
        case:
          kind: score
          contract: {value: 90, strain: h, declarer: n, multiplier: 1}
          trick_points: {NS: 79, EW: 73}
          tricks_won: {NS: 4, EW: 4}
          last_trick: NS
          melds: {NS: 0, EW: 0}
          belote: null
        expect:
          federation:
            made: false                     # 89 < 90
            card_points: {NS: 89, EW: 73}
            score: {NS: 0, EW: 250}         # 160 + 90 = 250
          contree-701, cafe-1000, cafe-701:
            made: false                     # 89 < 90
            score: {NS: 0, EW: 252}         # 162 + 90 = 252
          cafe-sans-tout-atout:
            made: false                     # 89 < 90
            score: {NS: 0, EW: 162}         # 162 + both sides' melds 0 = 162, no bid term
    """)

# Cut 1: the pack becomes 8S 9S TS JS QS KS AS 7H ... AC 7S; dealer S; packets 3, 2, 3.
# Clockwise the first packet goes to W, anticlockwise to E.
GOOD_DEALING = textwrap.dedent("""\
    area: dealing
    fixtures:
      - id: dealing-cut-one-card
        title: "A cut of a single card"
        exercises: [deal.cut.minimum_packet, table.direction]
        case: {kind: dealing, dealer: S, cut: 1,
               deck: [7S, 8S, 9S, 10S, JS, QS, KS, AS, 7H, 8H, 9H, TH, JH, QH, KH, AH,
                      7D, 8D, 9D, TD, JD, QD, KD, AD, 7C, 8C, 9C, TC, JC, QC, KC, AC]}
        expect:
          federation: {rejected: true}      # a packet of 1 < minimum_packet 3
          contree-701, cafe-1000, cafe-701:
            hands:
              W: [8S, 9S, TS, QH, KH, QD, KD, AD]
              N: [JS, QS, KS, AH, 7D, 7C, 8C, 9C]
              E: [AS, 7H, 8H, 8D, 9D, TC, JC, QC]
              S: [9H, TH, JH, TD, JD, KC, AC, 7S]
          cafe-sans-tout-atout:
            hands:
              E: [8S, 9S, TS, QH, KH, QD, KD, AD]
              N: [JS, QS, KS, AH, 7D, 7C, 8C, 9C]
              W: [AS, 7H, 8H, 8D, 9D, TC, JC, QC]
              S: [9H, TH, JH, TD, JD, KC, AC, 7S]
    """)


@pytest.fixture(autouse=True)
def _inside(tmp_path, monkeypatch):
    """Problems name files relative to the working directory: work where the fixtures are."""
    monkeypatch.chdir(tmp_path)


def write(directory, name, text):
    path = directory / name
    path.write_text(text)
    return path


def problems_of(directory):
    with pytest.raises(CorpusError) as info:
        load_corpus(directory)
    lines = [str(p) for p in info.value.problems]
    for line in lines:
        assert re.match(r"^[^:]+\.yaml:\d+:\d+: \S+: .+", line), line
    return lines


def test_a_good_corpus_loads_canonically(tmp_path):
    write(tmp_path, "scoring.yaml", GOOD_SCORING)
    write(tmp_path, "dealing.yaml", GOOD_DEALING)
    fixtures = {f.id: f for f in load_corpus(tmp_path)}
    assert sorted(fixtures) == ["dealing-cut-one-card", "score-089-on-090"]
    score = fixtures["score-089-on-090"]
    assert score.area == "scoring" and score.kind == "score" and score.line == 3
    assert score.case["contract"] == {"value": 90, "strain": "H", "declarer": "N", "multiplier": 1}
    assert sorted(score.expect) == ["cafe-1000", "cafe-701", "cafe-sans-tout-atout", "contree-701", "federation"]
    assert score.expect["cafe-701"].fields == {"made": False, "score": {"NS": 0, "EW": 252}}
    dealing = fixtures["dealing-cut-one-card"]
    assert dealing.case["deck"][3] == "TS"   # 10S canonicalised
    assert dealing.expect["federation"].fields == {"rejected": True}


def test_select_by_keyword(tmp_path):
    write(tmp_path, "scoring.yaml", GOOD_SCORING)
    write(tmp_path, "dealing.yaml", GOOD_DEALING)
    fixtures = load_corpus(tmp_path)
    assert [f.id for f in select(fixtures, "worked-example")] == ["score-089-on-090"]  # a tag
    assert [f.id for f in select(fixtures, "DEALING")] == ["dealing-cut-one-card"]      # the area
    assert len(select(fixtures, None)) == 2


def test_normalised_expectations_compare_sets_as_sets():
    assert normalised({"legal": ["TH", "JH"]}) == normalised({"legal": ["JH", "TH"]})
    assert normalised({"rejected": "a reason"}) == normalised({"rejected": True})


def test_yaml_mistakes_are_located(tmp_path):
    write(tmp_path, "scoring.yaml", GOOD_SCORING.replace("    title:", "    id: again\n    title:", 1))
    [line] = problems_of(tmp_path)
    assert line.startswith("scoring.yaml:4:5: fixtures[0]: duplicate key 'id'"), line


def test_anchors_are_refused(tmp_path):
    text = GOOD_SCORING.replace("trick_points: {NS: 79, EW: 73}", "trick_points: &tp {NS: 79, EW: 73}")
    text = text.replace("melds: {NS: 0, EW: 0}", "melds: *tp")
    write(tmp_path, "scoring.yaml", text)
    lines = problems_of(tmp_path)
    assert any(line.startswith("scoring.yaml:14:") and "anchor" in line for line in lines)
    assert any(line.startswith("scoring.yaml:17:") and "alias" in line for line in lines)


def test_unknown_fields_and_unknown_rule_sets(tmp_path):
    text = GOOD_SCORING.replace("    tags:", "    colour: red\n    tags:")
    write(tmp_path, "scoring.yaml", text)
    [line] = problems_of(tmp_path)
    assert line.startswith("scoring.yaml:5:5: fixtures[0].colour: unknown field 'colour'")

    text = GOOD_SCORING.replace("contree-701, cafe-1000, cafe-701:", "contree-701, cafe-1000, cafe-70l:")
    write(tmp_path, "scoring.yaml", text)
    lines = problems_of(tmp_path)
    assert any("unknown rule set 'cafe-70l'" in x and "scoring.yaml:24:" in x and "did you mean 'cafe-701'" in x
               for x in lines)

    text = GOOD_SCORING.replace("      federation:\n", "      federation, contree-701:\n")
    write(tmp_path, "scoring.yaml", text)
    [line] = problems_of(tmp_path)
    assert "'contree-701' has more than one expectation" in line


def test_bad_case_fields_point_into_the_case(tmp_path):
    write(tmp_path, "dealing.yaml", GOOD_DEALING.replace("KC, AC]}", "KC, AX]}"))
    [line] = problems_of(tmp_path)
    assert line.startswith("dealing.yaml:8:")
    assert "fixtures[0].case.deck[31]: bad card 'AX'" in line

    write(tmp_path, "dealing.yaml", GOOD_DEALING.replace("dealer: S,", "dealer: S, shuffle: true,"))
    [line] = problems_of(tmp_path)
    assert "fixtures[0].case.shuffle: unknown field 'shuffle'" in line


def test_expectation_fields_are_checked_per_kind(tmp_path):
    text = GOOD_SCORING.replace("card_points: {NS: 89, EW: 73}", "legal: [JH]\n        card_points: {NS: 89, EW: 73}")
    write(tmp_path, "scoring.yaml", text)
    [line] = problems_of(tmp_path)
    assert "fixtures[0].expect.federation.legal: a score result has no field 'legal'" in line

    write(tmp_path, "scoring.yaml", GOOD_SCORING.replace("score: {NS: 0, EW: 250}", "score: {NS: 0, EW: lots}"))
    [line] = problems_of(tmp_path)
    assert "fixtures[0].expect.federation.score.EW: expected a whole number" in line

    (tmp_path / "scoring.yaml").unlink()
    write(tmp_path, "dealing.yaml", GOOD_DEALING.replace("federation: {rejected: true}",
                                                         "federation: {not_applicable: x, rejected: true}"))
    [line] = problems_of(tmp_path)
    assert "not_applicable stands alone" in line

    write(tmp_path, "dealing.yaml", GOOD_DEALING.replace("federation: {rejected: true}",
                                                         "federation: {rejected: true, hands: {N: [], E: [], S: [], W: []}}"))
    [line] = problems_of(tmp_path)
    assert "fixtures[0].expect.federation: a dealing is either rejected or dealt" in line


def test_ids_unique_across_files_and_never_retired(tmp_path):
    write(tmp_path, "scoring.yaml", GOOD_SCORING)
    write(tmp_path, "scoring-more.yaml", GOOD_SCORING)
    [line] = problems_of(tmp_path)
    assert "id 'score-089-on-090' is already used at scoring" in line

    (tmp_path / "scoring-more.yaml").unlink()
    write(tmp_path, "retired-ids.txt", "# gone for good\nscore-089-on-090\n")
    [line] = problems_of(tmp_path)
    assert "is retired" in line

    write(tmp_path, "retired-ids.txt", "")
    write(tmp_path, "scoring.yaml", GOOD_SCORING.replace("id: score-089-on-090", "id: Score_89"))
    [line] = problems_of(tmp_path)
    assert "fixtures[0].id" in line


def test_exercises_must_name_rule_paths(tmp_path):
    write(tmp_path, "scoring.yaml", GOOD_SCORING.replace("[scoring.failed.defenders]", "[scoring.failed.defender]"))
    [line] = problems_of(tmp_path)
    assert "fixtures[0].exercises[0]: 'scoring.failed.defender' is not a rule path" in line


def test_file_level_shape(tmp_path):
    write(tmp_path, "x.yaml", "area: bidding\nfixtures: []\n")
    lines = problems_of(tmp_path)
    assert any(x.startswith("x.yaml:1:7: area:") for x in lines)
    assert any("fixtures" in x for x in lines)


def test_the_shipped_retired_list_is_readable():
    from coinche_spec.conformance.fixtures import read_retired
    from coinche_spec.resources import corpus_dir
    retired = read_retired(corpus_dir())
    assert all(re.match(r"^[a-z0-9]+(-[a-z0-9]+)*$", x) for x in retired)


def test_select_with_several_keywords_takes_any_match(tmp_path):
    write(tmp_path, "scoring.yaml", GOOD_SCORING)
    write(tmp_path, "dealing.yaml", GOOD_DEALING)
    fixtures = load_corpus(tmp_path)
    assert sorted(f.id for f in select(fixtures, ["worked-example", "cut-one"])) == ["dealing-cut-one-card",
                                                                                     "score-089-on-090"]
    assert [f.id for f in select(fixtures, ["zzz", "CUT"])] == ["dealing-cut-one-card"]
    assert select(fixtures, ["zzz", "yyy"]) == []
    assert len(select(fixtures, [])) == 2


def test_an_expectation_the_rule_set_cannot_be_asked_is_refused(tmp_path):
    # A tout atout trick: only cafe-sans-tout-atout lets tout atout be bid; the others must say not_applicable.
    write(tmp_path, "play.yaml", textwrap.dedent("""\
        area: play
        fixtures:
          - id: play-ta-follow-up
            title: "Tout atout: must go up in the led suit"
            case: {kind: legal_cards, strain: TA, seat: S, hand: [JH, 7H], trick: [{seat: W, card: 9H}]}
            expect:
              cafe-sans-tout-atout: {legal: [JH]}      # J above 9 in trump order; 7 below
              federation, contree-701, cafe-1000: {not_applicable: "no tout atout bid"}
              cafe-701: {legal: [JH]}
        """))
    lines = problems_of(tmp_path)
    assert len(lines) == 1
    assert lines[0].startswith("play.yaml:9:7: fixtures[0].expect.cafe-701: cafe-701: case.strain: this rule set "
                               "has no tout atout contract")
    assert lines[0].endswith("; mark this rule set not_applicable")


# N leads KS, E trumps with 9H, S to act: a clockwise trick (anticlockwise, W follows N).
TRICK_CLOCKWISE = textwrap.dedent("""\
    area: play
    fixtures:
      - id: play-clockwise-trick
        title: "An opponent trumped; S, void, must overtrump"
        depends_on: [table.direction, play]
        case:
          kind: legal_cards
          strain: H
          seat: S
          hand: [JH, 7H, 8D]
          trick: [{seat: N, card: KS}, {seat: E, card: 9H}]
        expect:
          contree-701, federation:
            legal: [JH]                     # E's 9H wins; only JH beats it
    """)


def test_a_trick_out_of_a_rule_sets_direction_of_play_names_the_file_the_fixture_and_the_rule_set(tmp_path):
    write(tmp_path, "play.yaml", TRICK_CLOCKWISE)
    [line] = problems_of(tmp_path)
    assert line.startswith("play.yaml:13:"), line   # the expect key naming federation
    assert ("play-clockwise-trick under federation: case.trick[1].seat: under this rule set's direction of play "
            "(anticlockwise) W plays after N, not E") in line, line
    assert "swapping E and W" in line, line
    # the same position written for each direction loads
    write(tmp_path, "play.yaml", TRICK_CLOCKWISE.replace("contree-701, federation:", "contree-701:"))
    assert [f.id for f in load_corpus(tmp_path)] == ["play-clockwise-trick"]
