"""Every number of a data file is a lever (issue 16): paths, overrides, their checks, listing."""

import numpy as np
import pytest
from click.testing import CliRunner

from experiments.cli import cli
from sim.core.gamedata import DataError, apply_overrides, get_value, locate, provisional_marks
from sim.core.params import ParamError
from sim.core.registry import get_game, make_setup, split_overrides

# The documented example paths (sim/games/README.md), exactly as written there.
DOCUMENTED = [
    ("celtic_trader", "roles.trusted.rp_as_vp", 1, 2),
    ("celtic_trader", "roles.fastest.movement", [0, 14, 24, 37, 53], [0, 10, 20, 30, 45]),
    ("celtic_trader", "roles.fastest.movement.4", 53, 60),
    ("celtae", "leaders.boadicee.B.discs_placed", 7, 6),
    ("celtae", "solo.target", 30, 25),
]


@pytest.mark.parametrize(("game", "path", "shipped", "new"), DOCUMENTED)
def test_documented_paths_address_the_value_and_override_it(game, path, shipped, new):
    players = 1 if path.startswith("solo") else 3
    assert get_value(get_game(game).data.read(), path) == shipped
    setup = make_setup(game, players, {}, "random", "random", {path: new})
    assert get_value(setup.raw_data(), path) == new
    assert get_value(get_game(game).data.read(), path) == shipped  # the shipped data is intact


def test_ids_index_and_dotted_keys():
    raw = get_game("celtic_trader").data.read()
    assert locate(raw, "roles.trusted.rp_as_vp") == ["roles", 1, "rp_as_vp"]
    assert get_value(raw, "roles.1.rp_as_vp") == get_value(raw, "roles.trusted.rp_as_vp")
    assert get_value(raw, "map.sections.BEL.W") == ["BEL.W", "BEL", 1, []]  # a key with a dot
    assert get_value(raw, "bastions.Iceni.arms.1") == "ICE.NW"
    celtae = get_game("celtae").data.read()
    assert get_value(celtae, "progress_cards.cards.P10.4") == 5


@pytest.mark.parametrize(
    ("game", "override", "message"),
    [
        ("celtic_trader", {"roles.nobody.rp_as_vp": 2}, "unknown data path 'roles.nobody"),
        ("celtic_trader", {"roles.trusted.rp_as_vp": "two"}, "an integer >= 0"),
        ("celtic_trader", {"roles.trusted.rp_as_vp": 1.5}, "an integer >= 0"),
        ("celtic_trader", {"roles.trusted.rp_as_vp": -1}, "an integer >= 0"),
        ("celtic_trader", {"roles.fastest.movement": [0, 10, 20]}, "a list of 5 entries"),
        ("celtic_trader", {"roles.fastest.movement": [0, 30, 20, 30, 45]}, "does not decrease"),
        ("celtic_trader", {"capabilities.carrying_x.4": 9}, "at most 3 tokens"),
        ("celtic_trader", {"game.draws_per_turn": 9}, "draws_per_turn"),
        ("celtae", {"leaders.boadicee.B.discs_placed": 99}, "at most 30"),
        ("celtae", {"solo.target": float("nan")}, "an integer >= 0"),
        ("celtae", {"player_board.discs": 12}, "at most 9"),
        ("celtae", {"rondel.recruit_adjacent.0": 7}, "positions in [0, 3]"),
        ("celtica", {"track.locations.3": "lake:2"}, "track"),
        ("celtica", {"druids.hand_size": 0}, "hand_size"),
        ("celtica", {"experience.requires_druid_in_hand": 1}, "true or false"),
    ],
)
def test_bad_overrides_are_one_line_naming_the_path(game, override, message):
    with pytest.raises(ParamError) as err:
        make_setup(game, 3, {}, "random", "random", override)
    text = str(err.value)
    assert message in text and "\n" not in text
    assert next(iter(override)).split(".")[0] in text


def test_overrides_keep_type_and_never_write_the_input():
    raw = get_game("celtic_trader").data.read()
    out = apply_overrides(raw, {"roles.trusted.rp_as_vp": 2.0, "game.demand_columns.4": 9})
    assert out["roles"][1]["rp_as_vp"] == 2 and isinstance(out["roles"][1]["rp_as_vp"], int)
    assert out["game"]["demand_columns"] == [1, 2, 4, 6, 9]
    assert raw["roles"][1]["rp_as_vp"] == 1 and raw["game"]["demand_columns"][4] == 8
    with pytest.raises(DataError, match="a table with keys A, B"):
        apply_overrides(get_game("celtae").data.read(), {"leaders.boadicee": {"A": {}}})


def test_a_data_value_read_by_a_parameter_moves_its_default():
    setup = make_setup("celtica", 3, {}, "random", "random", {"game.safety_cap_rounds": 150})
    assert setup.params["safety_cap_rounds"] == 150
    explicit = make_setup(
        "celtica", 3, {"safety_cap_rounds": 90}, "random", "random", {"game.safety_cap_rounds": 150}
    )
    assert explicit.params["safety_cap_rounds"] == 90  # a parameter given by name wins


def test_overrides_reach_the_compiled_data_of_every_game():
    from sim.games.celtae.params import setup_data as celtae_data
    from sim.games.celtae.params import table
    from sim.games.celtic_trader.params import O_ROLE_RP_VP
    from sim.games.celtic_trader.play import setup_data as trader_data

    base = make_setup("celtic_trader", 4, {}, "random")
    more = make_setup("celtic_trader", 4, {}, "random", data={"roles.trusted.rp_as_vp": 3})
    assert trader_data(base)[O_ROLE_RP_VP + 1] == 1
    assert trader_data(more)[O_ROLE_RP_VP + 1] == 3
    leaders = get_game("celtae").roles
    b = leaders.index("boadicee")
    six = make_setup("celtae", 3, {}, "random", data={"leaders.boadicee.B.discs_placed": 6})
    assert not np.array_equal(
        table(celtae_data(six), "leader_min")[b], table(celtae_data(base_celtae()), "leader_min")[b]
    )
    track = make_setup("celtica", 3, {}, "random", data={"track.locations.3": "ruin:3"})
    assert track.params["track"].split(",")[3] == "ruin:3"


def base_celtae():
    return make_setup("celtae", 3, {}, "random")


def test_set_splits_parameters_from_data_paths():
    decl = get_game("celtic_trader")
    params, data = split_overrides(decl, {"romans_in_play": 11, "roles.trusted.rp_as_vp": 2})
    assert params == {"romans_in_play": 11} and data == {"roles.trusted.rp_as_vp": 2}
    with pytest.raises(ParamError, match="unknown parameter 'romans'"):
        split_overrides(decl, {"romans": 3})
    with pytest.raises(ParamError, match="unknown data path"):
        split_overrides(decl, {"roles.trusted.nothing": 3})


def test_provisional_marks_follow_the_comments():
    text = (
        "# PROVISIONAL as a whole\n[map]\nsections = []\n[game]\na = 1  # PROVISIONAL\nb = 2\n"
        "[[roles]]\nid = 'x'\nc = 3  # PROVISIONAL\n[[roles]]\nid = 'y'\nc = 4\n"
    )
    tables, keys = provisional_marks(text)
    assert ("map", None) in tables
    assert ("game", None, "a") in keys and ("game", None, "b") not in keys
    assert ("roles", 0, "c") in keys and ("roles", 1, "c") not in keys


def test_games_data_lists_every_path_with_its_mark():
    result = CliRunner().invoke(cli, ["games", "celtic_trader", "--data"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "roles.trusted.rp_as_vp = 1  # PROVISIONAL" in lines
    assert "roles.fastest.movement = [0, 14, 24, 37, 53]" in lines
    assert "capabilities.movement = [2, 3, 4, 5, 6]" in lines
    for game in ("celtae", "celtica"):
        out = CliRunner().invoke(cli, ["games", game, "--data"]).output
        assert out.count("\n") > 20 and "PROVISIONAL" in out


def test_games_data_file_prints_the_shipped_file():
    result = CliRunner().invoke(cli, ["games", "celtae", "--data-file"])
    assert result.exit_code == 0
    assert result.output == get_game("celtae").data.file.read_text()
    result = CliRunner().invoke(cli, ["games", "--data"])
    assert result.exit_code == 2 and "need a GAME" in result.output


def test_play_set_of_a_data_path_changes_the_game():
    args = ["play", "celtic_trader", "--players", "4", "--seed", "3", "--roles"]
    roles = "trusted,fastest,haggler,strongest"
    base = CliRunner().invoke(cli, [*args, roles])
    more = CliRunner().invoke(cli, [*args, roles, "--set", "roles.trusted.rp_as_vp=4"])
    assert base.exit_code == 0 and more.exit_code == 0
    assert base.output != more.output
    bad = CliRunner().invoke(cli, [*args, roles, "--set", "roles.trusted.rp_as_vp=-2"])
    assert bad.exit_code == 2 and "roles.trusted.rp_as_vp" in bad.output
