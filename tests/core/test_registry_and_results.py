import pickle

import numpy as np
import polars as pl
import pytest

from sim.core import registry
from sim.core.batch import play_batch, trace_game
from sim.core.params import ParamError
from sim.core.registry import BotSpec, SetupError, get_game, make_setup
from sim.core.results import rank_and_win


def test_bot_spec_round_trip():
    spec = BotSpec.parse("search:rollouts=64:depth=2")
    assert spec.name == "search" and dict(spec.params) == {"rollouts": 64, "depth": 2}
    assert str(spec) == "search:rollouts=64:depth=2"
    with pytest.raises(SetupError):
        BotSpec.parse("search:rollouts")


def test_unknown_game_is_one_line():
    with pytest.raises(SetupError, match="unknown game 'chess'"):
        get_game("chess")


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"players": 4}, "players = 4 is not allowed for fake_dice: 2 to 3"),
        ({"players": 2, "bots": "random,random,random"}, "3 given for 2 players"),
        ({"players": 2, "bots": "genius"}, "unknown bot 'genius'"),
        ({"players": 2, "roles": "draft"}, "roles = 'draft' is not allowed"),
        ({"players": 2, "roles": ["red", "pink"]}, "unknown role 'pink'"),
        ({"players": 2, "roles": ["red", "red"]}, "one seat only"),
        ({"players": 2, "params": {"dice": 1}}, "'dice' = 1"),
    ],
)
def test_make_setup_errors(fake_game, kwargs, fragment):
    with pytest.raises(ParamError) as info:
        make_setup("fake_dice", **kwargs)
    assert fragment in str(info.value)


def test_a_setup_keeps_the_declaration_it_was_made_with(fake_game, monkeypatch):
    """make_setup given a declaration looks nothing up, and its setup answers ``decl`` from it
    (issue 43: the game is resolved once per command); a pickled setup, as a worker receives
    it, travels by game id and looks its declaration up once."""
    decl = get_game("fake_dice")
    lookups = []
    real = registry.get_game
    monkeypatch.setattr(registry, "get_game", lambda game: lookups.append(game) or real(game))
    setup = make_setup(decl, 2, bots="random", roles=["red", "blue"])
    setup.bot_arrays(), setup.role_ids()
    assert setup.decl is decl and lookups == []
    assert setup == make_setup("fake_dice", 2, bots="random", roles=["red", "blue"])
    assert lookups == ["fake_dice"]
    moved = pickle.loads(pickle.dumps(setup))
    assert "_decl" not in moved.__dict__ and moved == setup
    moved.bot_arrays(), moved.role_ids()
    assert moved.decl is decl and lookups == ["fake_dice", "fake_dice"]


def test_setup_arrays(fake_game):
    setup = make_setup(
        "fake_dice", 3, {"dice": 4}, "random,greedy,random", ["blue", "red", "green"]
    )
    codes, params = setup.bot_arrays()
    assert codes.tolist() == [0, 1, 0] and params.shape == (3, 1)
    assert setup.role_ids().tolist() == [2, 0, 1]
    assert setup.params["dice"] == 4


def test_rank_and_win_ties_share():
    keys = np.array([[[5, 1], [5, 2], [5, 2]], [[1, 0], [2, 0], [3, 0]]])
    rank, win = rank_and_win(keys)
    assert rank.tolist() == [[3, 1, 1], [3, 2, 1]]
    assert win.tolist() == [[0.0, 0.5, 0.5], [0.0, 0.0, 1.0]]


def test_play_batch_tables_follow_the_contract(fake_game):
    setup = make_setup("fake_dice", 3, {}, "random")
    games, players = play_batch(setup, range(10, 20), root_seed=3)
    assert games.columns == ["game", "seed", "players", "rounds", "turns", "end_reason", "winners"]
    assert games["game"].to_list() == list(range(10, 20))
    for col in ["game", "seat", "strategy", "role", "side", "score", "rank", "win"]:
        assert col in players.columns
    assert (players["pts_first"] + players["pts_rest"] == players["score"]).all()
    wins = players.group_by("game").agg(pl.col("win").sum())["win"]
    assert np.allclose(wins.to_numpy(), 1.0)
    assert players["side"].null_count() == players.height
    # the same indices in other chunks give the same rows
    _, again = play_batch(setup, range(15, 20), root_seed=3)
    assert again.equals(players.filter(pl.col("game") >= 15))


def test_trace_game_returns_lines_and_one_row_per_seat(fake_game):
    setup = make_setup("fake_dice", 2)
    lines, table = trace_game(setup, 9)
    assert lines[-1] == "end: dice rolled" and table.height == 2
