"""The comparator: only expected fields count, sets where the protocol says so, strict JSON types."""

from coinche_spec.conformance.compare import MISSING, compare, same


def fields(diffs):
    return [d.field for d in diffs]


def test_equal_expected_fields_pass_and_extra_result_fields_are_ignored():
    expected = {"made": False, "score": {"NS": 0, "EW": 250}}
    result = {"made": False, "score": {"NS": 0, "EW": 250}, "card_points": {"NS": 89, "EW": 73}, "lines": ["x"]}
    assert compare(expected, result) == []


def test_each_differing_leaf_is_named():
    diffs = compare({"made": False, "score": {"NS": 0, "EW": 250}}, {"made": True, "score": {"NS": 0, "EW": 252}})
    assert fields(diffs) == ["made", "score.EW"]
    assert str(diffs[1]) == "score.EW: expected 250, got 252"


def test_a_missing_field_is_a_difference():
    diffs = compare({"made": False, "score": {"NS": 0, "EW": 250}}, {"score": {"NS": 0}})
    assert fields(diffs) == ["made", "score.EW"]
    assert diffs[0].got is MISSING
    assert "missing" in str(diffs[0])
    assert diffs[0].to_json()["missing"] is True


def test_legal_cards_are_a_set():
    assert compare({"legal": ["JH", "TH"]}, {"legal": ["TH", "JH"]}) == []
    [diff] = compare({"legal": ["JH", "TH"]}, {"legal": ["TH", "9H"]})
    assert diff.field == "legal"
    assert "not received: JH" in diff.note and "not expected: 9H" in diff.note
    [diff] = compare({"legal_next": ["JH"]}, {"legal_next": ["JH", "JH"]})
    assert "distinct" in diff.note


def test_booleans_are_not_numbers_and_null_is_not_zero():
    assert not same(True, 1) and not same(0, False)
    assert same(250, 250.0)
    assert not same(None, 0)
    assert fields(compare({"made": True}, {"made": 1})) == ["made"]
    assert fields(compare({"score": None}, {"score": {"NS": 0, "EW": 0}})) == ["score"]
    assert fields(compare({"belote": None}, {"belote": "NS"})) == ["belote"]


def test_lists_in_order_with_their_positions():
    expected = {"tricks": [{"leader": "W", "winner": "N", "cards": ["JH", "7H", "9H", "8H"]}]}
    result = {"tricks": [{"leader": "W", "winner": "S", "cards": ["JH", "7H", "8H", "9H"]}]}
    assert fields(compare(expected, result)) == ["tricks[0].winner", "tricks[0].cards[2]", "tricks[0].cards[3]"]
    [diff] = compare(expected, {"tricks": []})
    assert diff.field == "tricks" and diff.note == "1 expected, 0 received"


def test_invalid_declarations_ignore_order_but_not_content():
    expected = {"invalid": [["7C", "9C", "TC"], ["AS", "KS"]]}
    assert compare(expected, {"invalid": [["KS", "AS"], ["TC", "9C", "7C"]]}) == []
    assert fields(compare(expected, {"invalid": [["KS", "AS"]]})) == ["invalid"]
    assert fields(compare(expected, {"invalid": "none"})) == ["invalid"]


def test_rejected_checks_the_refusal_not_its_wording():
    assert compare({"rejected": True}, {"rejected": "cut too small"}) == []
    assert compare({"rejected": "a cut of 1 is too small"}, {"rejected": "minimum 3"}) == []
    assert fields(compare({"rejected": True}, {"hands": {}})) == ["rejected"]
    assert fields(compare({"rejected": True}, {"rejected": ""})) == ["rejected"]
