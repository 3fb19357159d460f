"""Rule sets as data: the schema, the strict loader, `extends`, typed rules."""

from .loader import (Variant, VariantError, check_files, house_ids, load_variant,  # noqa: F401
                     load_variant_file, resolve, shipped_ids, test_ids)
from .rules import Rules  # noqa: F401
