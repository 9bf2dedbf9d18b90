"""The Great Wall's and Troy's checked loops keep the base game's board recount (road lengths,
distance rule, road enumeration) until a step changes the board, as the base loop does
(sim/games/catan/invariants.py). A road field corrupted after any step, one that builds nothing
or one that builds, is still caught at that step, as the full validator catches it."""

import pytest

from sim.core.check import check_games
from sim.core.registry import make_setup
from sim.games.catan import state as S

SEED = 4242
STEPS = range(41, 71)  # about one step in 20 changes the board in random games


@pytest.mark.parametrize("game", ["catan_great_wall", "catan_troy"])
@pytest.mark.parametrize(
    "cell, delta", [(S.ROAD_LEN + 1, 1), (S.ROAD_LEN + 2, -1), (S.ROAD_LEN, 2)]
)
def test_a_corrupted_road_length_is_caught_at_its_step(game, cell, delta):
    setup = make_setup(game, 4, {}, "random")
    for at in STEPS:
        report = check_games(setup, 1, seed=SEED, corrupt=(0, at, cell, delta))
        assert report.first() == (SEED, at, "road length counter right"), at
