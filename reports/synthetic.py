"""Synthetic run directories in the runner's exact layout, for report tests and benchmarks.

`write_run` writes `manifest.json`, `games/variant=<id>/part-*.parquet` and
`players/variant=<id>/part-*.parquet` with the column names and dtypes `menhir run` writes
(copied from a real Celtic Trader run), without playing any game: scores are random integers
plus a per-role strength, so the statistics in a report have known answers. With `paired=True`
every variant draws game *i* from the same stream (common random numbers), so two variants
without a rig are identical row for row; `rig` makes a role win every game it is dealt in.
`players` is one player count for every variant or one per variant; a solo game (players = 1)
is won when the score reaches `SOLO_TARGET`, as in a solo game against a target score.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import polars as pl

ROLES = ("fastest", "haggler", "strongest", "trusted", "versatile", "wanderer")
SOLO_TARGET = 45
GAMES_SCHEMA = {
    "variant": pl.String,
    "game": pl.Int64,
    "seed": pl.UInt64,
    "players": pl.Int8,
    "rounds": pl.Int32,
    "turns": pl.Int32,
    "end_reason": pl.String,
    "winners": pl.Int8,
}
PLAYERS_SCHEMA = {
    "variant": pl.String,
    "game": pl.Int64,
    "seat": pl.Int8,
    "strategy": pl.String,
    "role": pl.String,
    "side": pl.String,
    "score": pl.Int32,
    "rank": pl.Int8,
    "win": pl.Float64,
    "pts_vp": pl.Int32,
    "pts_role": pl.Int32,
}


def _deal(rng: np.random.Generator, games: int, players: int, roles: int) -> np.ndarray:
    """Distinct role indices per game and seat, shape (games, players)."""
    return np.argsort(rng.random((games, roles)), axis=1)[:, :players]


def _outcome(score: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rank (1 = best, ties share the better rank), win share 1/k, winners per game.

    Alone (one column), the player wins when reaching SOLO_TARGET.
    """
    if score.shape[1] == 1:
        top = score >= SOLO_TARGET
        return np.ones_like(score), top.astype(float), top.sum(axis=1)
    top = score == score.max(axis=1, keepdims=True)
    winners = top.sum(axis=1)
    rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
    return rank, top / winners[:, None], winners


def _chunk(
    vid: str,
    start: int,
    n: int,
    players: int,
    seed: int,
    stream: int,
    rig_role,
    caps: int,
    boost: tuple[str, int] | None = None,
    bot: str = "greedy",
    lost: int = 0,
    sides: bool = False,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """One chunk of games [start, start + n) of one variant, as (games, players) frames."""
    rng = np.random.default_rng([seed, stream, start])
    strength = np.linspace(0, 12, len(ROLES)).astype(np.int64)
    deal = _deal(rng, n, players, len(ROLES))
    score = rng.integers(0, 60, (n, players)) + strength[deal]
    rounds = rng.integers(8, 20, n)
    turns = rounds * players + rng.integers(0, players, n)
    if rig_role is not None:
        score = score + 1000 * (deal == ROLES.index(rig_role))
    if boost is not None:
        score = score + boost[1] * (deal == ROLES.index(boost[0]))
    reason = np.full(n, "supply_exhausted", dtype=object)
    index = np.arange(start, start + n)
    capped = index < caps
    score[capped] = 0
    reason[capped] = "turn_cap"
    rank, win, winners = _outcome(score)
    defeat = index < lost  # a shared defeat: nobody wins
    win[defeat], winners[defeat] = 0.0, 0
    reason[defeat] = "defeat"
    vp = rng.integers(0, score + 1)
    side = None
    if sides:  # drawn last: the other columns do not change
        side = np.where(rng.random(n * players) < 0.5, "A", "B").astype(object)
    game_seed = (np.uint64(seed) * np.uint64(1_000_003) + index.astype(np.uint64)) ^ np.uint64(
        stream
    )
    games = pl.DataFrame(
        {
            "variant": vid,
            "game": index,
            "seed": game_seed,
            "players": players,
            "rounds": rounds,
            "turns": turns,
            "end_reason": reason,
            "winners": winners,
        },
        schema_overrides=GAMES_SCHEMA,
    )
    table = pl.DataFrame(
        {
            "variant": vid,
            "game": np.repeat(index, players),
            "seat": np.tile(np.arange(players), n),
            "strategy": bot,
            "role": np.asarray(ROLES, dtype=object)[deal.ravel()],
            "side": side,
            "score": score.ravel(),
            "rank": rank.ravel(),
            "win": win.ravel(),
            "pts_vp": vp.ravel(),
            "pts_role": (score - vp).ravel(),
        },
        schema=PLAYERS_SCHEMA,
    )
    return games, table


def write_run(
    path,
    *,
    games: int,
    values=(11, 13),
    players: int | tuple[int, ...] = 4,
    seed: int = 0,
    paired: bool = True,
    rig: dict | None = None,
    caps: dict | None = None,
    name: str = "synthetic",
    param: str = "romans_in_play",
    chunk_games: int = 100_000,
    grid: dict | None = None,
    boost: dict | None = None,
    bot: str = "greedy",
    lost: dict | None = None,
    sides: bool = False,
) -> Path:
    """Write a synthetic run directory with one variant per value of `param`; return its path.

    `players` is one count for all variants or one per value; `rig` maps a variant index to a
    role that then wins every game it is in; `caps` maps a variant index to a number of games
    (its first ones) that end by `turn_cap` with all scores 0.

    `grid` sweeps several axes at once, as a config in grid mode does: {axis: values}, one
    variant per combination (in `itertools.product` order); the axis `players` sets each
    variant's player count, every other axis is a games-table column. `boost` maps a variant
    index to (role, points) added to that role's score in that variant: a known effect. `bot` is
    the bot every seat plays (its name only: the scores do not depend on it). `lost` maps a
    variant index to a number of games (its first ones) that end in a shared defeat (nobody
    wins, ``winners`` 0, end reason ``defeat``). `sides` deals each player a side A or B.
    """
    rig, caps, boost, lost = rig or {}, caps or {}, boost or {}, lost or {}
    if grid:
        combos = [dict(zip(grid, row, strict=True)) for row in itertools.product(*grid.values())]
        values = list(range(len(combos)))
        counts = [c.get("players", players) for c in combos]
    else:
        combos = [{param: v} for v in values]
        counts = [players] * len(values) if isinstance(players, int) else list(players)
    axes = list(grid) if grid else [param]
    path = Path(path)
    variants = []
    for i in range(len(combos)):
        vid = f"v{i}"
        for table in ("games", "players"):
            (path / table / f"variant={vid}").mkdir(parents=True, exist_ok=True)
        chunks = []
        for start in range(0, games, chunk_games):
            n = min(chunk_games, games - start)
            stream = 0 if paired else i + 1
            g, p = _chunk(
                vid,
                start,
                n,
                counts[i],
                seed,
                stream,
                rig.get(i),
                caps.get(i, 0),
                boost.get(i),
                bot,
                lost.get(i, 0),
                sides,
            )
            part = f"part-{start:012d}-{n}.parquet"
            cols = [pl.lit(v, pl.Int64).alias(k) for k, v in combos[i].items() if k != "players"]
            g.with_columns(cols).write_parquet(path / "games" / f"variant={vid}" / part)
            p.write_parquet(path / "players" / f"variant={vid}" / part)
            chunks.append([start, n])
        variants.append(
            {
                "id": vid,
                "label": ",".join(f"{k}={v}" for k, v in combos[i].items()),
                "setup": {
                    "players": counts[i],
                    "bots": [bot] * counts[i],
                    "roles": "random",
                },
                "swept": combos[i],
                "columns": [k for k in combos[i] if k != "players"],
                "variant_key": i,
                "games_planned": games,
                "games_done": games,
                "stop_reason": "games",
                "chunks": chunks,
            }
        )
    manifest = {
        "name": name,
        "game": "synthetic",
        "seed": seed,
        "paired": paired,
        "games_per_variant": games,
        "swept": axes,
        "status": "complete",
        "variants": variants,
    }
    (path / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return path
