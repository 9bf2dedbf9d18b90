"""The fake game of tests/experiments with a checked mode that takes its time (one
millisecond a game, no violation): ``menhir check`` tests signals on it without compiling."""

from tests.experiments.fake_game import GAME  # noqa: F401
