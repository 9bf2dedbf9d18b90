"""A tiny numpy-only game for testing the game-agnostic core without compiling a real game.

Each seat rolls ``dice`` six-sided dice; the score is the sum, split into two components.
"""

import numpy as np

from sim.core.params import Param, ParamSet
from sim.core.registry import BotDecl, GameDecl
from sim.core.results import ChunkResult


def _play(setup, seeds):
    n, p = len(seeds), setup.players
    result = ChunkResult.empty(n, p, 2, 1)
    for g, seed in enumerate(seeds):
        rng = np.random.default_rng(int(seed))
        rolls = rng.integers(1, 7, size=(p, setup.params["dice"]))
        result.components[g, :, 0] = rolls[:, 0]
        result.components[g, :, 1] = rolls[:, 1:].sum(axis=1)
        result.extras[g, :, 0] = rolls.max(axis=1)
        result.role[g] = rng.permutation(3)[:p]
        result.rounds[g] = 1
        result.turns[g] = p
    result.score[:] = result.components.sum(axis=2)
    return result


def _trace(setup, seed):
    result = _play(setup, np.array([seed], np.uint64))
    lines = [f"seat {s} scores {result.score[0, s]}" for s in range(setup.players)]
    return [*lines, "end: dice rolled"], result


GAME = GameDecl(
    id="fake_dice",
    title="Fake dice",
    version="1",
    min_players=2,
    max_players=3,
    params=ParamSet((Param("dice", "int", 3, "dice per seat", low=2, high=10),)),
    bots=(BotDecl("random", 0, "rolls"), BotDecl("greedy", 1, "rolls harder")),
    end_reasons=("rolled", "turn_cap"),
    score_components=("first", "rest"),
    play=_play,
    trace=_trace,
    roles=("red", "green", "blue"),
    role_modes=("random",),
    player_extras=("best_die",),
    tiebreak=("best_die",),
)
