"""``python -m coinche_spec`` is the ``coinche-spec`` command."""

import sys

from coinche_spec.cli import main

sys.exit(main())
