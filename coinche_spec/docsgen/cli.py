"""``coinche-spec docs`` (being written)."""


def register(subparsers) -> None:
    pass
