"""Catan through the game-agnostic layers (GameDecl, batch play, trace), with the game
registered for the test only: it is not in ``GAME_MODULES`` until it is complete.

The checks mirror tests/core/test_conformance.py, so the game passes that suite the day it is
registered.
"""

import numpy as np
import polars as pl
import pytest

from sim.core import registry
from sim.core.batch import play_batch, trace_game
from sim.core.registry import make_setup


@pytest.fixture(autouse=True)
def catan_registered(monkeypatch):
    monkeypatch.setitem(registry.GAME_MODULES, "catan", "sim.games.catan")
    return registry.get_game("catan")


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_end_and_score_consistently(players, catan_registered):
    decl = catan_registered
    setup = make_setup("catan", players, {}, "random")
    games, table = play_batch(setup, range(100), root_seed=11)
    assert games.height == 100 and table.height == 100 * players
    assert (games["end_reason"] == "vp_target").all()
    parts = sum(table[f"pts_{c}"] for c in decl.score_components)
    assert (parts == table["score"]).all()
    assert table["rank"].min() == 1 and table["rank"].max() <= players
    totals = table.group_by("game").agg(pl.col("win").sum())["win"].to_numpy()
    assert np.allclose(totals, 1.0)
    winners = table.filter(pl.col("win") == 1.0)
    assert winners.height == 100 and (winners["score"] >= 10).all()
    assert (games["rounds"] > 0).all() and (games["turns"] >= games["rounds"]).all()


def test_same_seed_same_game_other_seed_other_game():
    setup = make_setup("catan", 4, {}, "random")
    a = play_batch(setup, range(20), root_seed=5)
    b = play_batch(setup, range(20), root_seed=5)
    c = play_batch(setup, range(20), root_seed=6)
    assert a[0].equals(b[0]) and a[1].equals(b[1])
    assert not a[1]["score"].equals(c[1]["score"])
    lines_1, _ = trace_game(setup, 1234)
    lines_2, _ = trace_game(setup, 1234)
    assert lines_1 == lines_2 and len(lines_1) > 10
    assert lines_1 != trace_game(setup, 4321)[0]


@pytest.mark.parametrize("players", [4, 6])
def test_trace_matches_bulk_play(players):
    setup = make_setup("catan", players, {}, "random")
    for index in range(3):
        games, bulk = play_batch(setup, [index], root_seed=2)
        lines, traced = trace_game(setup, int(games["seed"][0]))
        assert traced["score"].to_list() == bulk["score"].to_list()
        assert traced["win"].to_list() == bulk["win"].to_list()
        assert lines[-1].startswith("game over: vp_target, seat ")
        assert any(line.startswith("seat 0 places a settlement") for line in lines)


def test_turn_cap_games_rank_by_vp_then_fewer_turns():
    setup = make_setup("catan", 4, {"safety_cap_rounds": 5}, "random")
    games, table = play_batch(setup, range(30), root_seed=1)
    assert (games["end_reason"] == "turn_cap").all() and (games["rounds"] == 5).all()
    totals = table.group_by("game").agg(pl.col("win").sum())["win"].to_numpy()
    assert np.allclose(totals, 1.0)
    for g in range(30):
        rows = table.filter(pl.col("game") == g).sort("seat")
        best = rows["score"].max()
        tied = rows.filter(pl.col("score") == best)
        fewest = tied["turns_taken"].min()
        expected = tied.filter(pl.col("turns_taken") == fewest)["seat"].to_list()
        winners = rows.filter(pl.col("win") > 0)["seat"].to_list()
        assert winners == expected


def test_cap_tiebreak_shared_splits_the_win_among_the_vp_leaders():
    setup = make_setup("catan", 4, {"safety_cap_rounds": 5, "cap_tiebreak": "shared"}, "random")
    _, table = play_batch(setup, range(30), root_seed=1)
    assert (table["fewer_turns"] == 0).all()
    for g in range(30):
        rows = table.filter(pl.col("game") == g)
        leaders = rows.filter(pl.col("score") == rows["score"].max())
        assert np.allclose(leaders["win"].to_numpy(), 1.0 / leaders.height)
        assert (leaders["rank"] == 1).all()
