"""The game-agnostic batch entry point: play many games of one setup, get contract tables.

Python validates, allocates and converts; each game's compiled loop plays the whole chunk.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.core.registry import Setup
from sim.core.results import ChunkResult, to_frames
from sim.core.rng import derive_game_seeds


def play_chunk(setup: Setup, seeds: np.ndarray) -> ChunkResult:
    """Play one game per seed (uint64) and check the shapes the game returned."""
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    result = setup.decl.play(setup, seeds)
    n, p = seeds.shape[0], setup.players
    if result.score.shape != (n, p):
        raise RuntimeError(f"{setup.game}: score shape {result.score.shape}, expected {(n, p)}")
    return result


def play_batch(
    setup: Setup, game_indices, root_seed: int = 0, variant_key: int = 0
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Play the given game indices of one setup; return the (games, players) tables.

    Game *i* draws its streams from ``derive_game_seeds(root_seed, variant_key, i)`` only, so the
    same indices give the same rows however they are chunked or distributed.
    """
    game_indices = np.asarray(game_indices, dtype=np.int64)
    seeds = derive_game_seeds(root_seed, variant_key, game_indices)
    return to_frames(setup, game_indices, seeds, play_chunk(setup, seeds))


def trace_game(setup: Setup, seed: int) -> tuple[list[str], pl.DataFrame]:
    """Play one game with a readable log; return the log lines and its players table."""
    seeds = np.array([seed % 2**64], dtype=np.uint64)
    lines, result = setup.decl.trace(setup, int(seeds[0]))
    _, players = to_frames(setup, np.zeros(1, np.int64), seeds, result)
    return lines, players
