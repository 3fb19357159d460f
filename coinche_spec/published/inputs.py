"""What a published result was computed from, as hashes: if one changes, the page is stale.

Running colver through 10,000 fuzz deals takes minutes; checking that the
page still tells the truth must not. So the page records its inputs — the
corpus (a hash of every fixture file), each rule set it names (a hash of its
resolved rules), the implementation's version, the adapter's source, the
coinche-spec version and the results format — and the staleness test
recomputes them: any difference means the results may have changed and the
page must be regenerated.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
from pathlib import Path

FORMAT = 1   # the layout of the results file (colver.json); bumped when a field changes meaning


def _file_hash(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def inputs(entry) -> dict:
    """The hashes and versions a published entry's results depend on."""
    import importlib.util

    from .. import __version__
    from ..conformance.records import corpus_version, rule_set_hash
    from ..resources import corpus_dir
    from ..variants import load_variant

    spec = importlib.util.find_spec(entry.adapter_module)
    adapter = Path(spec.origin) if spec is not None and spec.origin else None
    rule_sets = dict.fromkeys([entry.own, *entry.seeds, entry.base])
    return {
        "format": FORMAT,
        "coinche_spec": __version__,
        "implementation": {"package": entry.package, "version": package_version(entry.package)},
        "adapter": {"module": entry.adapter_module, "hash": _file_hash(adapter) if adapter else None},
        "corpus": corpus_version([corpus_dir()])["hash"],
        "rule_sets": {ident: rule_set_hash(load_variant(ident)) for ident in rule_sets},
        "fuzz": {"deals": entry.fuzz_deals, "seed": entry.fuzz_seed},
    }


def stale(recorded: dict, now: dict) -> list[str]:
    """The inputs that changed since the results were computed, one line each (empty: still fresh)."""
    out = []

    def walk(a, b, path):
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                walk(a.get(key), b.get(key), path + (key,))
        elif a != b:
            out.append(f"{'.'.join(path)}: recorded {a!r}, now {b!r}")
    walk(recorded, now, ())
    return out
