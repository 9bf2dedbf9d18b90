"""Config validation through `menhir run`: every kind of mistake is one line, exit 2, no run dir."""

import pytest
from click.testing import CliRunner

from experiments.cli import cli
from experiments.config import ConfigError, load_config
from tests.experiments.conftest import config_text

# (config text or keyword overrides, key named in the message, words the message must hold)
BAD_CONFIGS = {
    "unknown top-level key": (dict(gamez=3), "gamez", "unknown key"),
    "unknown parameter": (dict(params={"dize": 3}), "params.dize", "known: dice"),
    "games not an integer": (dict(games="many"), "games", "an integer"),
    "games zero": (dict(games=0), "games", "an integer in [1,"),
    "negative seed": (dict(seed=-1), "seed", "an integer in [0,"),
    "paired not bool": (dict(paired="yes"), "paired", "true or false"),
    "target_ci out of range": (dict(target_ci=0.9), "target_ci", "(0, 0.5]"),
    "unknown game": (dict(game="chess"), "game", "one of"),
    "player count": (dict(players=7), "players", "2 to 4"),
    "player count in a sweep": (dict(players=[2, 9]), "players", "2 to 4"),
    "players wrong type": (dict(players="four"), "players", "2 to 4"),
    "unknown bot": (dict(bots="clever"), "bots", "known: random, greedy"),
    "bot count for seats": (dict(bots="greedy,random,random", players=2), "bots", "3 given"),
    "bot parameter range": (dict(bots="greedy:edge=9"), "bots", "[0, 3]"),
    "unknown role": (dict(roles=["red", "purple"]), "roles", "known: red, green"),
    "role count for seats": (dict(roles=["red", "green", "blue"]), "roles", "3 given"),
    "role mode": (dict(roles="auction"), "roles", "one of random, draft"),
    "parameter out of range": (dict(params={"dice": 99}), "params.dice", "[1, 10]"),
    "parameter out of range in a sweep": (dict(params={"dice": [2, 99]}), "params.dice", "[1, 10]"),
    "parameter wrong type": (dict(params={"dice": "two"}), "params.dice", "an integer"),
    "parameter choice": (dict(params={"style": "odd"}), "params.style", "'plain', 'loaded'"),
    "value listed twice": (dict(params={"dice": [2, 2]}), "params.dice", "listed twice"),
    "int listed twice as 2.0": (dict(params={"dice": [2, 2.0]}), "params.dice", "listed twice"),
    "empty sweep list": (dict(players=[]), "players", "empty list"),
    "sweep mode": (dict(sweep={"mode": "cross"}), "sweep.mode", "grid, zip"),
    "unknown sweep key": (dict(sweep={"order": "x"}), "sweep.order", "allowed: mode"),
    "zip lengths": (
        dict(players=[2, 3], params={"dice": [1, 2, 3]}, sweep={"mode": "zip"}),
        "sweep.mode",
        "players has 2, params.dice has 3",
    ),
    "bad name": (dict(name="my run/1"), "name", "letters, digits"),
}


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


@pytest.mark.parametrize("case", sorted(BAD_CONFIGS))
def test_bad_config_is_one_line_exit_2_and_no_directory(case, runner, write_config, tmp_path):
    overrides, key, words = BAD_CONFIGS[case]
    path = write_config(**overrides)
    out = tmp_path / "run"
    result = runner.invoke(cli, ["run", str(path), "--out", str(out)])
    assert result.exit_code == 2, result.output
    message = result.output.strip()
    assert message.count("\n") == 0, message
    assert message.startswith(f"menhir: error: {path}: key '{key}': "), message
    assert words in message, message
    assert not out.exists()
    assert not any(p.name.startswith(".run") for p in tmp_path.iterdir())


@pytest.mark.parametrize(
    "text, words",
    [
        ('game = "fake_runner"\ngames = [1, 2\n', "not valid TOML"),
        ('game = "fake_runner"\ngame = "fake_runner"\n', "not valid TOML"),
        (None, "no such config file"),
    ],
)
def test_unreadable_config_names_the_file(text, words, runner, write_config, tmp_path):
    path = write_config(text=text) if text is not None else tmp_path / "missing.toml"
    out = tmp_path / "run"
    result = runner.invoke(cli, ["run", str(path), "--out", str(out)])
    assert result.exit_code == 2
    assert result.output.strip().startswith(f"menhir: error: {path}: {words}")
    assert result.output.strip().count("\n") == 0
    assert not out.exists()


def test_a_setup_the_game_rejects_is_caught_before_any_output(runner, write_config, tmp_path):
    path = write_config(params={"style": "loaded", "dice": [8, 9]})
    out = tmp_path / "run"
    result = runner.invoke(cli, ["run", str(path), "--out", str(out)])
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"menhir: error: {path}: variant v1 (dice=9): style 'loaded' allows at most 8 dice"
    )
    assert not out.exists()


def test_option_errors_exit_2(runner, write_config, tmp_path):
    path = write_config()
    result = runner.invoke(
        cli, ["run", str(path), "--out", str(tmp_path / "r"), "--scheduler", "tcp://127.0.0.1:1"]
    )
    assert result.exit_code == 2 and "--scheduler: only with --backend dask" in result.output
    result = runner.invoke(cli, ["run", str(path), "--jobs", "0"])
    assert result.exit_code == 2
    assert not (tmp_path / "r").exists()


def test_unreachable_scheduler_exit_2_and_no_directory(runner, write_config, tmp_path, monkeypatch):
    monkeypatch.setattr("experiments.backends.CONNECT_TIMEOUT", "1s")
    out = tmp_path / "run"
    args = ["run", str(write_config()), "--out", str(out), "--backend", "dask"]
    result = runner.invoke(cli, [*args, "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2, result.output
    assert "--scheduler tcp://127.0.0.1:9: cannot connect" in result.output
    assert not out.exists()


def test_existing_directory_needs_resume(runner, write_config, tmp_path):
    path = write_config()
    out = tmp_path / "run"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    result = runner.invoke(cli, ["run", str(path), "--out", str(out)])
    assert result.exit_code == 2
    assert f"{out}: run directory already exists; use --resume" in result.output
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    result = runner.invoke(cli, ["run", str(path), "--out", str(out), "--resume"])
    assert result.exit_code == 2 and "not a menhir run directory" in result.output


def test_nothing_in_a_config_is_executed(write_config, tmp_path):
    marker = tmp_path / "pwned"
    text = config_text(name="x") + f"[params]\ndice = \"__import__('os').mkdir('{marker}')\"\n"
    with pytest.raises(ConfigError, match="params.dice"):
        load_config(write_config(text=text))
    assert not marker.exists()


def test_valid_config_parses_every_form(write_config):
    cfg = load_config(
        write_config(
            players=[2, 3],
            bots=["greedy", "random"],
            roles=["random", "draft"],
            target_ci=0.05,
            paired=False,
            params={"dice": [1, 2], "bonus": 1},
        )
    )
    assert cfg.axes == ["players", "bots", "roles", "dice"]
    assert cfg.players == (2, 3) and cfg.params["bonus"] == 1 and not cfg.paired
    fixed = load_config(write_config(filename="f.toml", players=2, roles=["blue", "red"]))
    assert fixed.roles == ("blue", "red") and fixed.axes == []
    assert load_config(write_config(filename="g.toml"), games=5).games == 5
    with pytest.raises(ConfigError, match="--games"):
        load_config(write_config(filename="h.toml"), games=0)
