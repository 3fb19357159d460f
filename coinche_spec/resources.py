"""Where the shipped rule sets, schemas and corpus are found.

In a wheel they are installed inside the package (``coinche_spec.shipped_*``,
mapped from the repository's top-level ``variants/`` and ``conformance/``);
from a source checkout they are read where people edit them.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _package_dir(package: str, fallback: Path) -> Path:
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            p = Path(location)
            if p.is_dir():
                return p
    return fallback


def variants_dir() -> Path:
    return _package_dir("coinche_spec.shipped_variants", _HERE.parent / "variants")


def corpus_dir() -> Path:
    return _package_dir("coinche_spec.shipped_corpus", _HERE.parent / "conformance")


def test_rulesets_dir() -> Path:
    """Test-only rule sets (ids ``test-...``): they cover schema options no shipped rule set plays."""
    return corpus_dir() / "rulesets"


def variant_schema_path() -> Path:
    return _HERE / "variants" / "schema.json"


def fixture_schema_path() -> Path:
    return _HERE / "conformance" / "fixture.schema.json"
