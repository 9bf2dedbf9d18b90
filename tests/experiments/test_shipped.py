"""The shipped experiment configs: they validate, and the demo plays on the real Celtic Trader
identically with one job and two."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from experiments.cli import cli
from experiments.config import load_config
from experiments.sweep import expand
from tests.experiments.helpers import assert_same_tables, manifest, tables

CONFIGS = Path(__file__).resolve().parents[2] / "experiments" / "configs"


@pytest.mark.parametrize(
    "name, variants, swept",
    [
        ("demo", 3, ["romans_in_play"]),
        ("celtic_trader_roles", 4, ["players"]),
        ("celtic_trader_romans", 7, ["romans_in_play"]),
    ],
)
def test_shipped_configs_validate(name, variants, swept):
    cfg = load_config(CONFIGS / f"{name}.toml")
    assert cfg.game == "celtic_trader" and cfg.name == name
    assert len(expand(cfg)) == variants and cfg.axes == swept


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_shipped_config_validates(path):
    cfg = load_config(path)
    assert expand(cfg) and cfg.games >= 1


def test_demo_on_celtic_trader_one_job_equals_two_jobs(tmp_path):
    runner = CliRunner()
    runs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        result = runner.invoke(
            cli,
            [
                "run",
                str(CONFIGS / "demo.toml"),
                "--out",
                str(out),
                "--games",
                "90",
                "--jobs",
                jobs,
                "--no-progress",
            ],
        )
        assert result.exit_code == 0, result.output
        assert f"{out}: complete; 270 games played" in result.output
        runs.append(out)
    assert_same_tables(*runs)
    games, players = tables(runs[0])
    assert sorted(games["romans_in_play"].unique().to_list()) == [10, 12, 14]
    assert games.height == 270 and players.height == 4 * 270
    assert set(players["role"].unique().to_list()) <= {
        "fastest",
        "trusted",
        "haggler",
        "strongest",
        "wanderer",
        "versatile",
    }
    m = manifest(runs[0])
    assert m["games_per_variant"] == 90 and m["config"]["games"] == 20000
    assert m["variants"][1]["setup"]["params"]["romans_in_play"] == 12
    again = runner.invoke(
        cli, ["run", str(CONFIGS / "demo.toml"), "--out", str(runs[0]), "--resume", "--no-progress"]
    )
    assert again.exit_code == 0 and "complete; 0 games played" in again.output
