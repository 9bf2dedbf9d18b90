"""The bot ladder: every pair of bot levels plays with seats rotated; win shares and Elo ratings.

For a pair (A, B) and ``P`` players, the seats are filled with every arrangement of A and B that
uses both (``AB`` and ``BA`` at 2 players; ``AAB, ABA, BAA, ABB, BAB, BBA`` at 3), and every
arrangement replays the same game indices, so each level sees the same deals from every seat
(common random numbers). A's win share is the win credited to A's seats (ties split, as in the
``win`` column) over the games played: 0.5 means "as strong as B" whatever the seat advantage.

Intervals are Wilson 95% intervals on that share (ties make a game's share fractional; the
interval treats the share as a binomial proportion, which is slightly conservative then).

Ratings are Bradley-Terry maximum-likelihood strengths fitted to all pairs at once with
Hunter's MM iteration, on an Elo scale (400 * log10 of the strength ratio; 200 points ~ 76% of
the wins) with the first level anchored at 0. Each pair gets one virtual drawn game (half a win
each) so that a level that wins every game still gets a finite rating.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Sequence

import numpy as np
import polars as pl

from sim.core.batch import play_batch
from sim.core.params import ParamError, check_seed
from sim.core.registry import BotSpec, SetupError, get_game, make_setup

Z95 = 1.959963984540054
CHUNK = 64  # games per task: progress granularity, never changes results


def default_levels(game: str) -> list[str]:
    """The game's declared bot levels, weakest first (by bot code)."""
    return [b.name for b in sorted(get_game(game).bots, key=lambda b: b.code)]


def arrangements(players: int) -> list[tuple[int, ...]]:
    """Seat patterns of a pair (0 = first level, 1 = second) that seat both levels."""
    return [a for a in itertools.product((0, 1), repeat=players) if 0 in a and 1 in a]


def wilson_interval(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion observed as ``share`` over ``n`` trials."""
    if n <= 0:
        return 0.0, 1.0
    denom = 1.0 + z * z / n
    centre = (share + z * z / (2 * n)) / denom
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def fit_elo(wins: np.ndarray, games: np.ndarray, iterations: int = 10_000) -> np.ndarray:
    """Bradley-Terry ratings on the Elo scale from pairwise results, first level at 0.

    ``wins[i, j]`` is the (possibly fractional) number of games level i won against level j,
    ``games[i, j] = games[j, i]`` the games they played. One virtual drawn game per pair that
    met keeps every rating finite.
    """
    k = wins.shape[0]
    met = (games > 0) & ~np.eye(k, dtype=bool)
    w = wins + 0.5 * met
    n = games + 1.0 * met
    total_wins = w.sum(axis=1)
    gamma = np.ones(k)
    for _ in range(iterations):
        denom = (n / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1.0), gamma)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(gamma))) < 1e-10:
            gamma = new
            break
        gamma = new
    return 400.0 * np.log10(gamma / gamma[0])


def _parse_levels(game: str, players: int, bots: Sequence[str] | None) -> list[str]:
    levels = default_levels(game) if bots is None else [b.strip() for b in bots]
    if len(levels) < 2:
        raise SetupError("ladder: give at least two bot levels")
    canonical = [str(BotSpec.parse(b)) for b in levels]
    if len(set(canonical)) != len(canonical):
        raise SetupError(f"ladder: bot levels must differ, got {', '.join(levels)}")
    for b in levels:
        make_setup(game, players, {}, b)  # validates the bot name and its parameters
    return canonical


def _play_task(game, players, bots, first, count, seed, parent=None):
    from experiments.backends import guard_worker

    guard_worker(parent)  # a pool worker ignores Ctrl-C (the parent answers it) and dies with it
    setup = make_setup(game, players, {}, list(bots))
    _, table = play_batch(setup, range(first, first + count), root_seed=seed)
    return table.select("seat", "win")


def run_ladder(
    game: str,
    players: int | None = None,
    games: int = 200,
    bots: Sequence[str] | None = None,
    seed: int = 0,
    jobs: int = 1,
    progress: bool = False,
) -> pl.DataFrame:
    """Play every pair of bot levels and return one row per (bot, opponent).

    ``games`` per pair is rounded up to a multiple of the number of seat arrangements so that
    every arrangement plays the same games. Columns: ``bot``, ``opponent``, ``players``,
    ``games``, ``win_share`` (the bot's), ``ci_low``, ``ci_high``, ``elo`` (the bot's rating),
    ``opponent_elo``. Levels keep the given order (default: by bot code, weakest first).
    """
    decl = get_game(game)
    if players is None:
        players = 2 if decl.min_players <= 2 <= decl.max_players else decl.min_players
    decl.check_players(players)
    if players < 2:
        raise SetupError(f"ladder: {game} needs at least 2 players to compare bots")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ParamError(f"ladder: games = {games!r} is not allowed: an integer >= 1")
    check_seed(seed, "ladder: seed")
    levels = _parse_levels(game, players, bots)
    arrs = arrangements(players)
    per_arrangement = -(-games // len(arrs))

    tasks = []
    for i, j in itertools.combinations(range(len(levels)), 2):
        for arr in arrs:
            seat_bots = tuple(levels[j] if x else levels[i] for x in arr)
            for first in range(0, per_arrangement, CHUNK):
                count = min(CHUNK, per_arrangement - first)
                tasks.append(((i, j), arr, (game, players, seat_bots, first, count, seed)))
    tables = _run_tasks([t[2] for t in tasks], jobs, progress)

    k = len(levels)
    wins = np.zeros((k, k))
    played = np.zeros((k, k))
    for ((i, j), arr, args), table in zip(tasks, tables, strict=True):
        seat_win = table.group_by("seat").agg(pl.col("win").sum()).sort("seat")["win"].to_numpy()
        mask = np.array(arr, dtype=bool)
        wins[j, i] += seat_win[mask].sum()
        wins[i, j] += seat_win[~mask].sum()
        played[i, j] += args[4]
        played[j, i] += args[4]

    elo = fit_elo(wins, played)
    rows = []
    for a in range(k):
        for b in range(k):
            if a == b:
                continue
            n = int(played[a, b])
            share = wins[a, b] / n
            low, high = wilson_interval(share, n)
            rows.append(
                {
                    "bot": levels[a],
                    "opponent": levels[b],
                    "players": players,
                    "games": n,
                    "win_share": share,
                    "ci_low": low,
                    "ci_high": high,
                    "elo": float(elo[a]),
                    "opponent_elo": float(elo[b]),
                }
            )
    return pl.DataFrame(rows)


def _run_tasks(task_args, jobs: int, progress: bool) -> list[pl.DataFrame]:
    from tqdm import tqdm

    total = sum(a[4] for a in task_args)
    bar = tqdm(total=total, unit="game", disable=not progress or None, leave=False)
    try:
        if jobs == 1:
            out = []
            for args in task_args:
                out.append(_play_task(*args))
                bar.update(args[4])
            return out
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=jobs, return_as="generator")(
            delayed(_play_task)(*args, os.getpid()) for args in task_args
        )
        out = []
        for args, table in zip(task_args, results, strict=True):
            out.append(table)
            bar.update(args[4])
        return out
    finally:
        bar.close()


def levels_ordered(table: pl.DataFrame) -> bool:
    """True when each level (in table order) is rated above the one before it."""
    elos = table.unique("bot", keep="first", maintain_order=True)["elo"].to_list()
    return all(b > a for a, b in itertools.pairwise(elos))


def format_ladder(table: pl.DataFrame) -> list[str]:
    """The ladder as text: a cross table of win shares with intervals and each level's Elo."""
    levels = table.unique("bot", keep="first", maintain_order=True)["bot"].to_list()
    share = {(r["bot"], r["opponent"]): r for r in table.iter_rows(named=True)}
    name_w = max(len(x) for x in [*levels, "bot"])
    cell_w = max(19, 3 + max(len(x) for x in levels))
    head = f"{'bot':<{name_w}}  {'elo':>6}  " + "  ".join(f"{'vs ' + x:<{cell_w}}" for x in levels)
    lines = [head]
    for a in levels:
        elo = share[(a, levels[0] if a != levels[0] else levels[1])]["elo"]
        cells = []
        for b in levels:
            if a == b:
                cells.append(f"{'-':<{cell_w}}")
            else:
                r = share[(a, b)]
                cells.append(
                    f"{r['win_share']:.3f} [{r['ci_low']:.3f},{r['ci_high']:.3f}]".ljust(cell_w)
                )
        lines.append(f"{a:<{name_w}}  {elo:>6.0f}  " + "  ".join(cells))
    return lines
