"""The result arrays every game fills, and their conversion to the contract's tables.

A game's compiled loop writes one row per game and one per (game, seat) into preallocated
arrays; this module ranks the players (ties share the win) and builds the polars frames whose
columns DESIGN.md's contract fixes. The runner adds ``variant`` and the swept parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from sim.core.registry import Setup


@dataclass
class ChunkResult:
    """Per-game and per-seat outcome arrays of a chunk of ``n`` games with ``P`` seats.

    rounds, turns: (n,) int32.  end_reason: (n,) int8, an index into the game's end_reasons.
    score: (n, P) int32.  components: (n, P, C) int32 in the order of ``score_components``.
    role: (n, P) int16, an index into the game's roles, -1 for none.
    side: (n, P) int8, 0 = A, 1 = B, -1 for none.  extras: (n, P, E) int32 (``player_extras``).
    win: optional (n, P) float64 that replaces the rank-based win (e.g. a solo target).
    actions: (n, P, K) int32 decisions each seat took, by the game's ``decision_kinds``.
    """

    rounds: np.ndarray
    turns: np.ndarray
    end_reason: np.ndarray
    score: np.ndarray
    components: np.ndarray
    role: np.ndarray
    side: np.ndarray
    extras: np.ndarray
    win: np.ndarray | None = None
    actions: np.ndarray | None = None

    @classmethod
    def empty(
        cls, n: int, players: int, n_components: int, n_extras: int = 0, n_kinds: int = 0
    ) -> ChunkResult:
        return cls(
            rounds=np.zeros(n, np.int32),
            turns=np.zeros(n, np.int32),
            end_reason=np.zeros(n, np.int8),
            score=np.zeros((n, players), np.int32),
            components=np.zeros((n, players, n_components), np.int32),
            role=np.full((n, players), -1, np.int16),
            side=np.full((n, players), -1, np.int8),
            extras=np.zeros((n, players, n_extras), np.int32),
            actions=np.zeros((n, players, n_kinds), np.int32),
        )

    @property
    def n_games(self) -> int:
        return int(self.rounds.shape[0])


def rank_and_win(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank (1 = best, tied players share the better rank) and win share from sort keys.

    ``keys`` is (n, P, K): the score first, then the tie-break values, all higher-is-better.
    A player's rank is one plus the number of players strictly ahead lexicographically; the
    players at rank 1 split one win equally (1/k for a k-way tie).
    """
    n, p, k = keys.shape
    a = keys[:, :, None, :]  # (n, P, 1, K): the player
    b = keys[:, None, :, :]  # (n, 1, P, K): an opponent
    ahead = np.zeros((n, p, p), dtype=bool)  # ahead[g, i, j]: j strictly ahead of i
    undecided = np.ones((n, p, p), dtype=bool)
    for level in range(k):
        ahead |= undecided & (b[..., level] > a[..., level])
        undecided &= b[..., level] == a[..., level]
    rank = (1 + ahead.sum(axis=2)).astype(np.int8)
    first = rank == 1
    win = first / first.sum(axis=1, keepdims=True)
    return rank, win.astype(np.float64)


def to_frames(
    setup: Setup, game_indices: np.ndarray, seeds: np.ndarray, result: ChunkResult
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The games and players tables (contract columns, without ``variant``) of one chunk."""
    decl = setup.decl
    n, p = result.score.shape
    keys = [result.score[:, :, None]]
    for name in decl.tiebreak:
        keys.append(result.extras[:, :, decl.player_extras.index(name)][:, :, None])
    rank, win = rank_and_win(np.concatenate(keys, axis=2).astype(np.int64))
    if result.win is not None:
        win = result.win
    winners = (win > 0).sum(axis=1)

    end_names = np.array(decl.end_reasons, dtype=object)
    games = pl.DataFrame(
        {
            "game": np.asarray(game_indices, np.int64),
            "seed": np.asarray(seeds, np.uint64),
            "players": np.full(n, p, np.int8),
            "rounds": result.rounds.astype(np.int32),
            "turns": result.turns.astype(np.int32),
            "end_reason": end_names[result.end_reason.astype(np.int64)].tolist(),
            "winners": winners.astype(np.int8),
        }
    )

    role_names = np.array([*decl.roles, None], dtype=object)  # index -1 -> None
    side_names = np.array([*decl.side_names, None], dtype=object)
    strategies = np.array([str(b) for b in setup.bots], dtype=object)
    cols = {
        "game": np.repeat(np.asarray(game_indices, np.int64), p),
        "seat": np.tile(np.arange(p, dtype=np.int8), n),
        "strategy": np.tile(strategies, n).tolist(),
        "role": role_names[result.role.reshape(-1).astype(np.int64)].tolist(),
        "side": side_names[result.side.reshape(-1).astype(np.int64)].tolist(),
        "score": result.score.reshape(-1).astype(np.int32),
        "rank": rank.reshape(-1),
        "win": win.reshape(-1),
    }
    for j, name in enumerate(decl.score_components):
        cols[f"pts_{name}"] = result.components[:, :, j].reshape(-1).astype(np.int32)
    for j, name in enumerate(decl.player_extras):
        cols[name] = result.extras[:, :, j].reshape(-1).astype(np.int32)
    if decl.decision_kinds and result.actions is not None and result.actions.shape[2]:
        for j, name in enumerate(decl.decision_kinds):
            cols[f"act_{name}"] = result.actions[:, :, j].reshape(-1).astype(np.int32)
    players = pl.DataFrame(
        cols,
        schema_overrides={"role": pl.String, "side": pl.String},
    )
    return games, players
