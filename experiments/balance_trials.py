"""Playing one balance trial: its variants, exact win counts in worker chunks, and its score.

Counts are exact integers (a win shared by k players counts WIN_DENOM / k), so a trial's score
is the same for any job count, backend or chunking.
"""

from __future__ import annotations

import copy
import math
import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from experiments.balance_config import BalanceConfig, Goal
from experiments.config import parse_config
from experiments.sweep import Variant, expand
from sim.core.registry import GAME_MODULES

# a k-way tie gives each winner 1/k: WIN_DENOM / k is an integer for every k <= 16
WIN_DENOM = 720720


def trial_variants(bc: BalanceConfig, values: dict[str, Any], seed: int | None = None):
    """The config's variants with the lever values set (a bad value is a DataError/ConfigError)."""
    raw = copy.deepcopy(bc.base)
    for lever in bc.levers:
        raw.setdefault(lever.section, {})[lever.name] = values[lever.name]
    if seed is not None:
        raw["seed"] = seed
    return raw, expand(parse_config(raw, bc.source, default_name="balance"))


def play_counts(
    game_entry, setup, first: int, n: int, seed: int, key: int, column: str, parent=None
):
    """Exact win counts and seat counts per targeted group over games first..first+n-1 (a
    worker): a k-way tie's 1/k share counts WIN_DENOM / k, an integer."""
    from experiments.backends import guard_worker
    from sim.core.batch import play_batch

    guard_worker(parent)  # a local worker ignores Ctrl-C (the parent answers it), dies with it
    game_id, module = game_entry
    GAME_MODULES[game_id] = module  # the parent's registration wins
    _, players = play_batch(setup, np.arange(first, first + n), seed, key)
    agg = (
        players.filter(pl.col(column).is_not_null())
        .group_by(column)
        .agg(
            (pl.col("win") * WIN_DENOM).round().cast(pl.Int64).sum().alias("wins"),
            pl.len().alias("n"),
        )
    )
    return {str(g): (int(w), int(c)) for g, w, c in agg.iter_rows()}


def scalar_column(scalar: str, games: pl.DataFrame, players: pl.DataFrame) -> pl.Series:
    """One integer per game of the scalar target."""
    if scalar == "everybody_lost":
        return (games["winners"] == 0).cast(pl.Int64)
    if scalar == "rounds":
        return games["rounds"].cast(pl.Int64)
    top = players.group_by("game").agg(
        (
            pl.col("score").sort(descending=True).first()
            - pl.col("score").sort(descending=True).get(1)
        )
        .cast(pl.Int64)
        .alias("margin")
    )
    return top["margin"]


def play_scalar(
    game_entry, setup, first: int, n: int, seed: int, key: int, scalar: str, parent=None
):
    """(sum, sum of squares, games) of a scalar target over games first..first+n-1: integers."""
    from experiments.backends import guard_worker
    from sim.core.batch import play_batch

    guard_worker(parent)  # a local worker ignores Ctrl-C (the parent answers it), dies with it
    game_id, module = game_entry
    GAME_MODULES[game_id] = module  # the parent's registration wins
    games, players = play_batch(setup, np.arange(first, first + n), seed, key)
    values = scalar_column(scalar, games, players)
    return {scalar: (int(values.sum()), int((values * values).sum()), int(values.len()))}


@dataclass
class TrialScore:
    """A trial's measured objective with its interval, from per-group counts of each variant.

    ``worst``, ``worst_low`` and ``worst_high``: the largest deviation of a targeted value from
    its wanted one, and its interval (what the tolerance is judged on); ``objective``, ``low``
    and ``high``: what the search minimises (the worst deviation, or the sum of squares).
    """

    games: int  # per variant
    objective: float
    low: float
    high: float
    sumsq: float
    rates: dict  # "variant/who" -> (value, low, high)
    worst: float = 0.0
    worst_low: float = 0.0
    worst_high: float = 0.0
    wanted: dict | None = None  # "variant/who" -> the wanted value (fair share or target value)


def measured(
    goal: Goal, variant: Variant, groups: dict
) -> list[tuple[str, float, float, float, float, bool]]:
    """(key, value, low, high, wanted, counted) per measured quantity of one variant; counted
    ones make the objective (one member of a group: only that member)."""
    out = []
    if goal.scalar:
        total, squares, n = groups.get(goal.scalar, (0, 0, 0))
        if n == 0:
            return out
        if goal.unit == "share":
            lo, hi = wilson(total, n)
        else:
            mean = total / n
            var = max(0.0, squares / n - mean * mean) * n / max(1, n - 1)
            half = 1.96 * math.sqrt(var / n)
            lo, hi = mean - half, mean + half
        out.append((f"{variant.id}/{goal.scalar}", total / n, lo, hi, goal.value, True))
        return out
    fair = 1.0 / variant.setup.players
    for group, (wins, n) in sorted(groups.items()):
        if n == 0:
            continue
        lo, hi = wilson(wins / WIN_DENOM, n)
        counted = goal.member is None or group == goal.member
        out.append((f"{variant.id}/{group}", wins / (WIN_DENOM * n), lo, hi, fair, counted))
    return out


def score_counts(
    counts: list[tuple[Variant, dict]], games: int, goal: Goal | None = None,
    objective: str = "minmax",
) -> TrialScore:  # fmt: skip
    goal = goal or Goal("roles", "roles")
    worst, worst_lo, worst_hi, sq, sq_lo, sq_hi = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    rates, wanted = {}, {}
    for variant, groups in counts:
        for key, value, lo, hi, want, counted in measured(goal, variant, groups):
            rates[key] = (value, lo, hi)
            wanted[key] = want
            if not counted:
                continue
            dev = abs(value - want)
            dev_hi = max(abs(lo - want), abs(hi - want))
            dev_lo = 0.0 if lo <= want <= hi else min(abs(lo - want), abs(hi - want))
            worst, worst_hi, worst_lo = (
                max(worst, dev),
                max(worst_hi, dev_hi),
                max(worst_lo, dev_lo),
            )
            sq, sq_lo, sq_hi = sq + dev * dev, sq_lo + dev_lo * dev_lo, sq_hi + dev_hi * dev_hi
    if objective == "sumsq":
        return TrialScore(games, sq, sq_lo, sq_hi, sq, rates, worst, worst_lo, worst_hi, wanted)
    return TrialScore(
        games, worst, worst_lo, worst_hi, sq, rates, worst, worst_lo, worst_hi, wanted
    )


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The Wilson 95% interval of the reports (reports.stats.wilson) for one rate."""
    from reports.stats import wilson as wilson_arrays

    lo, hi = wilson_arrays(wins, n)
    return float(lo[0]), float(hi[0])


class Evaluator:
    """Plays trials in chunks on a backend; keeps per-variant counts so a trial can grow."""

    def __init__(self, bc: BalanceConfig, executor, chunk: int):
        self.bc, self.executor, self.chunk = bc, executor, chunk
        self.column = bc.goal.column

    def grow(self, variants, counts, start: int, stop: int) -> None:
        """Add games start..stop-1 of every variant to ``counts`` (variant index -> groups)."""
        entry = (self.bc.game, GAME_MODULES[self.bc.game])
        goal = self.bc.goal
        worker, what = (play_scalar, goal.scalar) if goal.scalar else (play_counts, self.column)
        pending = []
        for i, v in enumerate(variants):
            for first in range(start, stop, self.chunk):
                n = min(self.chunk, stop - first)
                args = (entry, v.setup, first, n, self.bc.seed, v.variant_key, what, os.getpid())
                pending.append((i, self.executor.submit(worker, *args)))
        for i, future in pending:  # integer sums: the order of the futures cannot matter
            for group, parts in self.executor.result(future).items():
                old = counts[i].get(group, (0,) * len(parts))
                counts[i][group] = tuple(a + b for a, b in zip(old, parts, strict=True))
