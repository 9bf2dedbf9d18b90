import pytest

from sim.core import registry


@pytest.fixture
def fake_game(monkeypatch):
    """Register the numpy-only fake game for one test."""
    monkeypatch.setitem(registry.GAME_MODULES, "fake_dice", "tests.core.fake_game")
    return registry.get_game("fake_dice")
