"""Rule sets as data: the schema, the strict loader, `extends`, typed rules."""

from .loader import Variant, VariantError, load_variant, shipped_ids  # noqa: F401
from .rules import Rules  # noqa: F401
