"""Playing a screen's design points: each point's games in chunks, summed into its outputs.

Every point plays the experiment's seed and games 0 .. games - 1 (common random numbers); the
chunk sums of a point are added in game order, so jobs and backends agree.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from experiments.config import UserError
from experiments.screen_config import ScreenConfig, ScreenLever, point_setup, role_outputs
from sim.core.registry import GAME_MODULES, get_game


def numbers_of(sc: ScreenConfig, levers, unit_row) -> dict[ScreenLever, float]:
    """Every lever's number at one design point; the levers not in the design stay printed."""
    moved = dict(zip([lv.name for lv in levers], unit_row, strict=True))
    out = {}
    for lever in sc.levers:
        if lever.name in moved:
            out[lever] = lever.number(float(moved[lever.name]))
        else:
            out[lever] = float(lever.centre)
    return out


def play_stats(game_entry, setup, first: int, n: int, seed: int, roles: tuple, no_win: tuple):
    """Sums over games first..first+n-1 of one point (a worker): wins by role and seat, ..."""
    from sim.core.batch import play_batch

    game_id, module = game_entry
    GAME_MODULES[game_id] = module  # the parent's registration wins
    games, players = play_batch(setup, np.arange(first, first + n), seed, 0)
    win = players["win"].to_numpy().astype(float)
    seat = players["seat"].to_numpy().astype(np.int64)
    role_win = np.zeros(len(roles))
    role_n = np.zeros(len(roles))
    if roles:
        index = players["role"].replace_strict(
            list(roles), list(range(len(roles))), default=-1, return_dtype=pl.Int64
        )
        idx = index.to_numpy()
        held = idx >= 0
        role_win = np.bincount(idx[held], win[held], minlength=len(roles)).astype(float)
        role_n = np.bincount(idx[held], minlength=len(roles)).astype(float)
    rounds = games["rounds"].to_numpy().astype(float)
    shared = float(games["end_reason"].is_in(list(no_win)).sum()) if no_win else 0.0
    return {
        "games": float(n),
        "role_win": role_win,
        "role_n": role_n,
        "seat_win": np.bincount(seat, win, minlength=setup.players).astype(float),
        "rounds": float(rounds.sum()),
        "rounds2": float((rounds * rounds).sum()),
        "shared": shared,
    }


def _add(stats: list[dict]) -> dict:
    """Chunk sums of one point added in game order (so jobs and backends agree)."""
    total = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in stats[0].items()}
    for s in stats[1:]:
        for k, v in s.items():
            total[k] = total[k] + v
    return total


def point_row(sc: ScreenConfig, roles: tuple, stats: dict) -> dict:
    """One point's outputs (and the counts its noise estimate needs)."""
    g = stats["games"]
    row: dict[str, Any] = {"games": int(g)}
    rates = {}
    for i, role in enumerate(roles):
        n = stats["role_n"][i]
        rates[f"win:{role}"] = stats["role_win"][i] / n if n else float("nan")
        row[f"n:{role}"] = int(n)
    seats = {f"seat:{i}": w / g for i, w in enumerate(stats["seat_win"])}
    mean = stats["rounds"] / g
    var = max(0.0, stats["rounds2"] / g - mean * mean)
    group = [rates[o] for o in sc.outputs if o.startswith("win:")] or list(seats.values())
    values = {
        **rates,
        **seats,
        "spread": max(group) - min(group),
        "rounds": mean,
        "shared_defeat": stats["shared"] / g,
    }
    for name in sc.outputs:
        row[name] = float(values[name])
    row["rounds_sd"] = math.sqrt(var)
    return row


class Player:
    """Plays design points in chunks on a backend, at most ``capacity`` chunks in flight."""

    def __init__(self, sc: ScreenConfig, executor, chunk: int, progress):
        self.sc, self.executor, self.chunk, self.progress = sc, executor, chunk, progress
        decl = get_game(sc.game)
        self.roles = tuple(o[4:] for o in role_outputs(decl, point_setup(sc.base, sc.source, {})))
        self.no_win = tuple(decl.no_winner_reasons)
        self.entry = (sc.game, GAME_MODULES[sc.game])

    def play(self, points: list[tuple[int, dict]], done) -> None:
        """Play ``points`` ((index, numbers)); call ``done(index, row)`` as each completes."""
        capacity = getattr(self.executor, "capacity", 1)
        tasks = (
            (index, numbers, k, first, min(self.chunk, self.sc.games - first))
            for index, numbers in points
            for k, first in enumerate(range(0, self.sc.games, self.chunk))
        )
        chunks = math.ceil(self.sc.games / self.chunk)
        setups: dict[int, Any] = {}
        parts: dict[int, dict[int, dict]] = {}
        in_flight: dict[Any, tuple[int, int]] = {}
        exhausted = False
        while True:
            while not exhausted and len(in_flight) < capacity:
                task = next(tasks, None)
                if task is None:
                    exhausted = True
                    break
                index, numbers, k, first, n = task
                if index not in setups:
                    setups[index] = point_setup(self.sc.base, self.sc.source, numbers)
                args = (self.entry, setups[index], first, n, self.sc.seed, self.roles, self.no_win)
                in_flight[self.executor.submit(play_stats, *args)] = (index, k)
            if not in_flight:
                break
            wait = getattr(self.executor, "wait_any", None)
            ready = wait(list(in_flight)) if wait else list(in_flight)
            for future in ready:
                index, k = in_flight.pop(future)
                try:
                    stats = self.executor.result(future)
                except ValueError as exc:
                    raise UserError(
                        f"{self.sc.source}: the game refuses a point of the screen "
                        f"({str(exc).splitlines()[0]}); narrow [screen.ranges]"
                    ) from None
                got = parts.setdefault(index, {})
                got[k] = stats
                if self.progress is not None:
                    self.progress(int(stats["games"]))
                if len(got) == chunks:
                    total = _add([got[i] for i in range(chunks)])
                    del parts[index], setups[index]
                    done(index, point_row(self.sc, self.roles, total))
