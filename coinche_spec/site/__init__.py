"""A static HTML site of the project's rule sets: ``coinche-spec site DIR``."""
