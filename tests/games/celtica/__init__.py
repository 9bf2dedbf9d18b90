"""Celtica tests: rulebook scenarios, invariants over many games, parameters and the CLI."""
