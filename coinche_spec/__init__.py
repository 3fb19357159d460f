"""Coinche rule sets as data, a configurable reference engine and a conformance suite."""

__version__ = "0.1.0"
