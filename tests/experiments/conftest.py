"""Fixtures of the runner's tests: the fake game registered for the session, config writers."""

from pathlib import Path

import pytest

from sim.core import registry

FAKE = "fake_runner"
FAKE_MODULE = "tests.experiments.fake_game"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="package", autouse=True)
def fake_game():
    """Register the numpy-only fake game for these tests (workers learn it from each task)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.GAME_MODULES, FAKE, FAKE_MODULE)
        yield registry.get_game(FAKE)


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return repr(value)


def config_text(params=None, sweep=None, **top) -> str:
    """TOML text of a fake-game config; keyword values override the defaults below."""
    fields = {"name": "t", "game": FAKE, "games": 60, "seed": 3, **top}
    lines = [f"{k} = {toml_value(v)}" for k, v in fields.items() if v is not None]
    if params:
        lines += ["[params]", *(f"{k} = {toml_value(v)}" for k, v in params.items())]
    if sweep:
        lines += ["[sweep]", *(f"{k} = {toml_value(v)}" for k, v in sweep.items())]
    return "\n".join(lines) + "\n"


@pytest.fixture
def write_config(tmp_path):
    def write(filename="exp.toml", text=None, **kwargs) -> Path:
        path = tmp_path / filename
        path.write_text(text if text is not None else config_text(**kwargs))
        return path

    return write
