"""Adapters: other engines behind the conformance protocol, one module per engine.

Each is named on the command line by a short name (``--impl colver``, see
``coinche_spec.protocol.impls.ADAPTERS``) and needs its engine's package,
installed as an extra (``pip install 'coinche-spec[colver]'``).
"""
