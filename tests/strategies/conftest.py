"""Fixtures for the search bot and ladder tests: the compiled toy game, registered once."""

import pytest

from sim.core import registry


@pytest.fixture(scope="session")
def toy():
    """The toy game module, registered as ``toy_pig`` for the whole session."""
    from tests.strategies import toy_game

    registry.GAME_MODULES["toy_pig"] = "tests.strategies.toy_game"
    yield toy_game
    registry.GAME_MODULES.pop("toy_pig", None)
