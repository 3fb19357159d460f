"""The conformance suite: fixture loading (fixtures), comparison (compare), the runner, reports and the command."""
