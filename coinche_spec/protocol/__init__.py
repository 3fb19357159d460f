"""The conformance protocol: case kinds (cases), our engine behind it (server), driving any implementation (client)."""
