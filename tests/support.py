"""Helpers shared by the engine tests: shipped rules, and rule sets with a few rules changed."""

from __future__ import annotations

import copy

from coinche_spec.variants import load_variant


def changed_rules(base: str, changes: dict, separator: str = "."):
    """The rules of ``base`` with some rules replaced: {"play.cannot_overtrump": "must_discard"}.

    The changed document goes through the real loader, so it is a valid rule set."""
    doc = copy.deepcopy(load_variant(base).document)
    doc["id"] = "custom-" + base
    for path, value in changes.items():
        node = doc["rules"]
        keys = path.split(separator)
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return load_variant(doc).rules


def require_colver():
    """colver, imported; without it the calling test module is skipped, unless CI says it must be
    there (COINCHE_REQUIRE_COLVER=1), and then its absence fails loudly."""
    import os

    import pytest
    try:
        import colver
    except ImportError as exc:  # pragma: no cover - depends on the environment
        if os.environ.get("COINCHE_REQUIRE_COLVER") == "1":
            raise ImportError(f"COINCHE_REQUIRE_COLVER=1 but colver cannot be imported ({exc}): "
                              "pip install '.[test,colver]'") from exc
        pytest.skip("colver is not installed (pip install 'coinche-spec[colver]'); CI runs these tests",
                    allow_module_level=True)
    return colver


def require_belote_cli():
    """belote-cli's ``belote`` package, imported; without it the calling test module is skipped, unless
    CI says it must be there (COINCHE_REQUIRE_BELOTE_CLI=1), and then its absence fails loudly."""
    import os

    import pytest
    try:
        import belote
        from belote import game, scoring  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the environment
        if os.environ.get("COINCHE_REQUIRE_BELOTE_CLI") == "1":
            raise ImportError(f"COINCHE_REQUIRE_BELOTE_CLI=1 but belote-cli cannot be imported ({exc}): "
                              "pip install '.[test,belote-cli]'") from exc
        pytest.skip("belote-cli is not installed (pip install 'coinche-spec[belote-cli]'); CI runs these tests",
                    allow_module_level=True)
    return belote
