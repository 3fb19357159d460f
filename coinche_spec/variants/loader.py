"""PROVISIONAL minimal loader (to be replaced by the strict loader of issue 2).

API kept stable: load_variant(ref) -> Variant; shipped_ids(); VariantError.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import yaml

from ..resources import variant_schema_path, variants_dir
from .rules import Rules


class VariantError(Exception):
    pass


@dataclass(frozen=True)
class Variant:
    id: str
    document: dict
    rules: Rules
    path: Path | None = None


def shipped_ids() -> list[str]:
    return sorted(p.stem for p in variants_dir().glob("*.yaml"))


def load_variant(ref) -> Variant:
    if isinstance(ref, dict):
        doc, path = ref, None
    else:
        p = Path(ref)
        path = p if p.suffix in (".yaml", ".yml") and p.exists() else variants_dir() / f"{ref}.yaml"
        doc = yaml.safe_load(path.read_text())
    schema = json.loads(variant_schema_path().read_text())
    jsonschema.validate(doc, schema)
    return Variant(doc["id"], doc, Rules(doc["rules"], doc["id"]), path)
