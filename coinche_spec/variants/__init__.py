"""Rule sets as data: the schema, the strict loader, `extends`, typed rules."""

from .loader import (Variant, VariantError, VariantNotFound, check_files, house_ids,  # noqa: F401
                     known_ids, load_variant, load_variant_file, resolve, shipped_ids)
from .rules import Rules  # noqa: F401
