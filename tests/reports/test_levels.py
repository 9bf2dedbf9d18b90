"""Findings across bot levels (issue 18): the report says which depend on the bot.

In the fake game red scores a bonus whatever the bot (a property of the game), while blue loses
points only when a non-greedy bot plays it (a weakness of the bot). Swept over random and greedy
bots (greedy with no edge plays exactly like random otherwise), red's advantage must read as
robust and blue's weakness as bot-dependent.
"""

import polars as pl
import pytest

import experiments
from reports import make_report
from sim.core import registry
from tests.experiments.conftest import FAKE, FAKE_MODULE


@pytest.fixture(autouse=True)
def fake_game(monkeypatch):
    monkeypatch.setitem(registry.GAME_MODULES, FAKE, FAKE_MODULE)


CONFIG = {
    "name": "levels",
    "game": FAKE,
    "games": 3000,
    "seed": 8,
    "players": 2,
    "bots": ["random", "greedy:edge=0"],
}


def _across(tmp_path, params):
    run = experiments.run(CONFIG | {"params": params}, tmp_path / "run", jobs=1, progress=False)
    out = make_report([run], tmp_path / "rep")
    across = pl.read_csv(out / "across_levels.csv")
    return {r["who"]: r for r in across.iter_rows(named=True)}, (out / "summary.md").read_text()


def test_a_weakness_of_the_bot_is_flagged(tmp_path):
    found, summary = _across(tmp_path, {"blue_penalty": 3})
    assert found["blue"]["verdict"] == "vanishes at some level" and found["blue"]["bot_dependent"]
    assert summary.index("Across bot levels:") < summary.index("## Flags")
    assert "BOT-DEPENDENT: colour blue" in summary
    assert "0 of" in summary.split("Across bot levels:", 1)[1].splitlines()[0]


def test_a_property_of_the_game_is_robust(tmp_path):
    found, summary = _across(tmp_path, {"bonus": 2.0})
    assert found["red"]["verdict"] == "holds at every level" and not found["red"]["bot_dependent"]
    robust = summary.split("Robust (off its fair share, same side, at every bot level): ")[1]
    assert "colour red" in robust.splitlines()[0]
    # two levels are the two strongest: the headline says them once, no second count
    first = summary.split("Across bot levels:", 1)[1].splitlines()[0]
    n = len(found)
    assert first.startswith(f" {n} of {n} findings hold at every level (random vs greedy:edge=0);")
    assert "two strongest" not in first


def test_mixed_games_show_skill_expression(tmp_path):
    config = CONFIG | {"bots": "random,greedy:edge=3", "params": {}}
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    out = make_report([run], tmp_path / "rep")
    skill = pl.read_csv(out / "skill_in_mixed_games.csv")
    assert skill["strategy"].to_list() == ["greedy:edge=3", "random"]
    assert skill["ci_low"][0] > 0.5 > skill["ci_high"][1]
    assert "## Skill expression" in (out / "summary.md").read_text()
    assert not (out / "across_levels.csv").exists()  # one level only: nothing to compare
