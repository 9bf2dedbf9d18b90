"""The game-agnostic batch entry point: play many games of one setup, get contract tables.

Python validates, allocates and converts; each game's compiled loop plays the whole chunk.
"""

from __future__ import annotations

import time
from dataclasses import fields

import numpy as np
import polars as pl

from sim.core.registry import Setup
from sim.core.results import ChunkResult, to_frames
from sim.core.rng import derive_game_seeds

SLICE_SECONDS = 0.25  # longest stretch spent inside one compiled call, roughly


def play_chunk(setup: Setup, seeds: np.ndarray) -> ChunkResult:
    """Play one game per seed (uint64) and check the shapes the game returned.

    The games are played in slices sized to take about ``SLICE_SECONDS`` each: Python handles
    a signal (Ctrl-C, SIGTERM) only between two compiled calls, so a chunk of slow games (the
    search bot's) would otherwise hold a ``--jobs 1`` run deaf for minutes. Every game draws
    from its own seed, so the slicing never changes a row.
    """
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    parts, first, size = [], 0, 1
    while first < len(seeds):
        start = time.perf_counter()
        parts.append(setup.decl.play(setup, seeds[first : first + size]))
        first += size
        elapsed = time.perf_counter() - start
        if elapsed < SLICE_SECONDS / 2:
            size *= 2
        elif elapsed > SLICE_SECONDS * 2 and size > 1:
            size //= 2
    if not parts:  # no games: the game's own empty result
        parts.append(setup.decl.play(setup, seeds))
    result = parts[0] if len(parts) == 1 else concat_results(parts)
    n, p = seeds.shape[0], setup.players
    if result.score.shape != (n, p):
        raise RuntimeError(f"{setup.game}: score shape {result.score.shape}, expected {(n, p)}")
    return result


def concat_results(parts: list[ChunkResult]) -> ChunkResult:
    """One ChunkResult of consecutive slices (the games in order)."""
    joined = {}
    for f in fields(ChunkResult):
        arrays = [getattr(part, f.name) for part in parts]
        joined[f.name] = None if arrays[0] is None else np.concatenate(arrays)
    return ChunkResult(**joined)


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
