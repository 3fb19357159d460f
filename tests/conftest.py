"""Suite-wide order: the longest test first.

With pytest-xdist (``-n auto`` in pyproject.toml) the tests are handed out in collection order, so
a long test collected late keeps one worker busy after the other has finished. The dependency guard
is by far the longest (it replays every fixture under every one-rule change of its rule sets), so it
goes first. Nothing else moves, and no test depends on another's order.
"""

FIRST = ("tests/test_fixture_dependencies.py::test_no_undeclared_rule_changes_an_outcome",)


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: item.nodeid not in FIRST)  # stable: the rest keep their order
