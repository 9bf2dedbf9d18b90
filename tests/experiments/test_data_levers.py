"""Data levers in experiments (issue 16): [data] sweeps, variant data files, their manifest."""

import polars as pl
import pytest

import experiments
from experiments.config import ConfigError, UserError, load_config
from experiments.sweep import expand
from sim.core.registry import get_game
from tests.experiments.helpers import manifest, tables

TRADER = {"name": "levers", "game": "celtic_trader", "games": 60, "seed": 11, "players": 4}


def _variant_file(tmp_path, name, replace):
    text = get_game("celtic_trader").data.file.read_text()
    for old, new in replace:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("game", "players", "path", "values"),
    [
        ("celtic_trader", 3, "roles.trusted.rp_as_vp", [1, 3]),  # an id-addressed record
        ("celtic_trader", 3, "capabilities.movement.0", [2, 3]),  # a list entry
        ("celtae", 3, "leaders.boadicee.B.discs_placed", [7, 6]),  # a nested value
        ("celtae", 3, "cards.starting_hand", [5, 4]),
        ("celtica", 3, "track.locations.3", ["ruin:1", "ruin:3"]),
        ("celtica", 3, "experience.take_price", [2, 3]),
    ],
)
def test_a_data_path_sweeps_like_a_parameter(tmp_path, game, players, path, values):
    cfg = {"name": "sweep", "game": game, "games": 24, "seed": 3, "players": players}
    cfg |= {"bots": "random", "data": {path: values}}
    run = experiments.run(cfg, tmp_path / "run", jobs=1, progress=False)
    games, players_table = tables(run)
    assert games[path].unique(maintain_order=True).to_list() == values
    assert manifest(run)["swept"] == [path]
    assert [v["setup"]["data"] for v in manifest(run)["variants"]] == [{path: v} for v in values]
    assert players_table.height == 2 * 24 * players


def test_a_whole_list_sweeps_when_given_a_list_of_lists():
    cfg = load_config(
        TRADER | {"data": {"roles.fastest.movement": [[0, 14, 24, 37, 53], [0, 10, 20, 30, 45]]}}
    )
    assert cfg.axes == ["roles.fastest.movement"]
    single = load_config(TRADER | {"data": {"roles.fastest.movement": [0, 10, 20, 30, 45]}})
    assert single.axes == [] and len(expand(single)) == 1


@pytest.mark.parametrize(
    ("data", "key", "fragment"),
    [
        ({"roles.nobody.rp_as_vp": 2}, "data.roles.nobody.rp_as_vp", "unknown data path"),
        ({"roles.trusted.rp_as_vp": [1, -1]}, "data.roles.trusted.rp_as_vp", ">= 0"),
        ({"roles.trusted.rp_as_vp": [1, 1]}, "data.roles.trusted.rp_as_vp", "listed twice"),
        ({"roles.fastest.movement": [0, 1]}, "data.roles.fastest.movement", "5 entries"),
        ({"file": "missing.toml"}, "data.file", "no such data file"),
        ({"file": 3}, "data.file", "a .toml file path"),
    ],
)
def test_bad_data_in_a_config_names_the_key(data, key, fragment):
    with pytest.raises(ConfigError) as err:
        load_config(TRADER | {"data": data})
    assert f"key '{key}'" in str(err.value) and fragment in str(err.value)


def test_a_variant_data_file_equals_the_same_overrides_row_for_row(tmp_path):
    path = _variant_file(tmp_path, "generous.toml", [("rp_as_vp = 1 ", "rp_as_vp = 3 ")])
    by_file = experiments.run(
        TRADER | {"data": str(path)}, tmp_path / "file", jobs=1, progress=False
    )
    by_path = experiments.run(
        TRADER | {"data": {"roles.trusted.rp_as_vp": 3}}, tmp_path / "path", jobs=1, progress=False
    )
    games_f, players_f = tables(by_file)
    games_p, players_p = tables(by_path)
    assert games_f.equals(games_p) and players_f.equals(players_p)
    copy = by_file / "data" / "generous.toml"
    assert copy.read_text() == path.read_text()  # reproducible without the designer's file
    entry = manifest(by_file)["variants"][0]["setup"]["data_file"]
    assert entry["name"] == "generous.toml" and len(entry["sha256"]) == 64


def test_a_list_of_files_is_a_sweep_axis_named_data(tmp_path):
    a = _variant_file(tmp_path, "rulebook.toml", [])
    slower = ("movement = [2, 3, 4, 5, 6]", "movement = [1, 2, 3, 4, 5]")
    b = _variant_file(tmp_path, "slow.toml", [slower])
    config = tmp_path / "files.toml"
    config.write_text(
        'name = "files"\ngame = "celtic_trader"\ngames = 30\nplayers = 3\n'
        f'data = ["{a.name}", "{b.name}"]\n'
    )
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    games, _ = tables(run)
    assert games["data"].unique(maintain_order=True).to_list() == ["rulebook", "slow"]
    assert manifest(run)["swept"] == ["data"]
    assert not games.filter(pl.col("data") == "rulebook")["rounds"].equals(
        games.filter(pl.col("data") == "slow")["rounds"]
    )


def test_resume_uses_the_runs_own_copy_and_refuses_a_changed_file(tmp_path):
    path = _variant_file(tmp_path, "variant.toml", [("rp_as_vp = 1 ", "rp_as_vp = 2 ")])
    config = tmp_path / "cfg.toml"
    config.write_text(
        'name = "v"\ngame = "celtic_trader"\ngames = 40\nplayers = 3\n'
        '[data]\nfile = "variant.toml"\n'
    )
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    path.unlink()  # the designer's working file is gone: the run's copy resumes it
    experiments.run(None, run, resume=True, progress=False)
    _variant_file(tmp_path, "variant.toml", [("rp_as_vp = 1 ", "rp_as_vp = 4 ")])
    with pytest.raises(UserError, match="data file variant.toml changed"):
        experiments.run(config, run, resume=True, progress=False)


def test_shipped_example_config_sweeps_the_trusted():
    cfg = load_config("experiments/configs/celtic_trader_role_cards.toml")
    assert cfg.axes == ["roles.trusted.rp_as_vp"]
    assert [v.swept["roles.trusted.rp_as_vp"] for v in expand(cfg)] == [1, 2, 3, 4]
