"""`menhir balance`: search the levers a designer allows to move for values that make the game fair.

A balance config is an ordinary experiment config plus a ``[balance]`` table::

    [balance]
    target = "roles"          # roles | leaders | seats | sides: whose win rates must be fair,
                              # one member ("roles.trusted", "seats.0"), or a scalar of the games
                              # table with a wanted value ("everybody_lost", "rounds",
                              # "score_margin"; value = 0.20)
    objective = "minmax"      # minmax (the worst deviation) | sumsq (the sum of squares)
    tolerance = 0.02          # each within +-0.02 of its fair share (1 / players), every variant
    confirm_bots = "search"   # optional: confirm the pick at another bot level too
    budget_games = 3000000    # games the search may play (the confirmation run apart)
    [balance.levers]          # [low, high] (integers stay integers) or a list of choices
    "roles.trusted.rp_as_vp" = [1, 6]
    "roles.strongest.carrying" = [[0, 14, 24, 37, 53], [0, 10, 20, 30, 45]]

How it searches. optuna's TPE sampler proposes lever values through its ask-and-tell interface
(seeded: the same config gives the same trials); a setting it proposes again is not replayed
(the trial records its earlier result with no games), and the search ends once every setting
of integer and choice levers has been tried. The values the data file prints are the first
trial, so "before" is measured on the same footing. Each trial plays every variant of the config
(its player counts and other sweeps) on the experiment's seed and game indices 0, 1, 2, ...:
common random numbers, so candidates are compared on the same deals. A trial is raced by
successive halving: its first rung is an eighth of ``min_games`` (at least 100 games per
variant), doubled while it can still matter, up to ``max_games``; it stops at any rung once its
intervals show it cannot meet the tolerance, or, while no trial meets it, that it is clearly
worse than the best trial so far (its objective's lower bound above the best's upper bound); it
stops as met once every targeted interval is inside the tolerance after ``min_games``. Repeats
of a setting play no games and never count against ``max_trials`` (distinct settings).

Counts are exact: a win shared by k players counts WIN_DENOM / k (an integer), scalars are
integer sums, and a rate is one division of integer totals, so the trials table is identical
for any job count, backend or resume. Ties between trials are broken by a total order:
objective, then the fewest and smallest lever changes, then the trial number.

The recommendation is the trial that meets the tolerance with the fewest and smallest changes
from the printed values or, when none does, the smallest objective. It is then confirmed by an
ordinary run on fresh seeds the search never used (no winner's curse), and the verdict is one
of "target met" (every interval inside the tolerance), "target met within noise" (every rate
inside, some interval not), "target not reachable: every setting tried" (a finite space
exhausted) or "target not found in N of M settings tried" (the trials or the budget ran out);
each names the target and its confirmed value. With one integer or choice lever, a verdict that
misses says when the target lies between two neighbouring values (the lever is too coarse).
"""

from __future__ import annotations

import copy
import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from experiments.config import ConfigError, UserError, fail, parse_config
from experiments.sweep import Variant, expand
from experiments.workdir import TRIALS, config_source, open_folder, read_trials, write_json
from sim.core.gamedata import DataError, get_value
from sim.core.registry import GAME_MODULES

TARGETS = ("roles", "leaders", "seats", "sides")
# scalars of a game with a wanted value: their unit, and what they measure
SCALARS = {
    "everybody_lost": ("share", "share of games that nobody won"),
    "rounds": ("number", "mean game length in rounds"),
    "score_margin": ("number", "mean margin between the first and second scores"),
}
OBJECTIVES = ("minmax", "sumsq")
# a k-way tie gives each winner 1/k: WIN_DENOM / k is an integer for every k <= 16
WIN_DENOM = 720720
BALANCE_KEYS = (
    "target",
    "value",
    "objective",
    "confirm_bots",
    "tolerance",
    "budget_games",
    "levers",
    "min_games",
    "max_games",
    "max_trials",
    "confirm_games",
)

STATE = "balance.json"
CONFIRM = "confirm"


@dataclass(frozen=True)
class Lever:
    """One lever: a declared parameter or a data path, a range or a list of choices."""

    name: str
    section: str  # "params" | "data"
    printed: Any  # the value the rules give
    low: float | None = None
    high: float | None = None
    integer: bool = False
    choices: tuple = ()

    def distribution(self):
        import optuna.distributions as d

        if self.choices:
            return d.CategoricalDistribution(list(range(len(self.choices))))
        if self.integer:
            return d.IntDistribution(int(self.low), int(self.high))
        return d.FloatDistribution(float(self.low), float(self.high))

    def value(self, suggested) -> Any:
        """The lever value of an optuna value; an integer lever's values are ints (the
        printed 0.0 of a float parameter and a proposed 0 are one setting)."""
        if self.choices:
            return self.choices[suggested]
        return int(suggested) if self.integer else suggested

    def suggestion(self, value) -> Any | None:
        """The optuna value of a lever value, or None when it is outside the lever."""
        if self.choices:
            return self.choices.index(value) if value in self.choices else None
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return value if self.low <= value <= self.high else None

    def change(self, value) -> float:
        """How far a value is from the printed one: 0 unchanged, up to 1 (a whole range)."""
        if value == self.printed:
            return 0.0
        if self.choices or not isinstance(self.printed, int | float):
            return 1.0
        return min(1.0, abs(value - self.printed) / max(self.high - self.low, 1e-12))


@dataclass(frozen=True)
class Goal:
    """What must be fair: a group, one member of a group, or a scalar with a wanted value."""

    text: str  # as written: "roles", "roles.trusted", "everybody_lost"
    group: str | None = None  # roles | leaders | seats | sides
    member: str | None = None  # "trusted", "0"
    scalar: str | None = None  # a key of SCALARS
    value: float | None = None  # a scalar's wanted value
    unit: str = "share"  # "share" | "number"
    label: str = ""  # the game's word for a member: "role", "leader", "colour", "seat", "side"

    @property
    def column(self) -> str | None:
        return group_column(self.group) if self.group else None

    def words(self) -> str:
        """The target in the game's own words: "every role", "leader boadicee", "seat 0"."""
        if self.scalar:
            return SCALARS[self.scalar][1]
        label = self.label or self.group[:-1]
        if self.member is not None:
            return f"{label} {self.member}"
        return f"every {label}"


@dataclass(frozen=True)
class BalanceConfig:
    source: str
    raw: dict  # the whole config file as parsed
    base: dict  # the config without its [balance] table
    target: str
    tolerance: float
    budget_games: int
    levers: tuple[Lever, ...]
    min_games: int
    max_games: int
    max_trials: int
    confirm_games: int
    seed: int
    game: str
    goal: Goal = Goal("roles", "roles")
    objective: str = "minmax"
    confirm_bots: str | list | None = None


def load_balance(config: str | Path | dict) -> BalanceConfig:
    """Read and check a balance config; every problem is a one-line ConfigError."""
    source, raw, stem = config_source(config)
    table = raw.get("balance")
    if not isinstance(table, dict):
        raise fail(source, "balance", "missing: a [balance] table with target, tolerance, levers")
    base = {k: v for k, v in raw.items() if k != "balance"}
    cfg = parse_config(base, source, default_name=stem)
    for key in table:
        if key not in BALANCE_KEYS:
            raise fail(source, f"balance.{key}", f"unknown key; allowed: {', '.join(BALANCE_KEYS)}")
    decl = cfg.decl
    players = cfg.players if isinstance(cfg.players, tuple) else (cfg.players,)
    goal = _goal(source, decl, table, players)
    target = goal.text
    if goal.group and min(players) < 2:
        raise fail(source, "players", "balance needs 2 or more players (a fair share)")
    objective = table.get("objective", "minmax")
    if objective not in OBJECTIVES:
        raise fail(
            source, "balance.objective", f"{objective!r} is not allowed: one of minmax, sumsq"
        )
    confirm_bots = table.get("confirm_bots")
    if confirm_bots is not None:
        try:
            parse_config(base | {"bots": confirm_bots}, source, default_name=stem)
        except ConfigError as exc:
            raise fail(source, "balance.confirm_bots", str(exc).split(": ", 2)[-1]) from None
    top = 0.5 if goal.unit == "share" else 1e6
    tolerance = _number(source, "tolerance", table.get("tolerance", 0.02), 1e-4, top)
    budget = _int(source, "budget_games", table.get("budget_games", 3_000_000), 1, 10**10)
    min_games = _int(source, "min_games", table.get("min_games", 1000), 10, 10**8)
    max_games = _int(source, "max_games", table.get("max_games", 16 * min_games), min_games, 10**9)
    max_trials = _int(source, "max_trials", table.get("max_trials", 40), 1, 10_000)
    confirm = _int(source, "confirm_games", table.get("confirm_games", cfg.games), 10, 10**9)
    levers = _levers(source, cfg, table.get("levers"))
    return BalanceConfig(
        source, raw, base, target, tolerance, budget, levers, min_games, max_games, max_trials,
        confirm, cfg.seed, cfg.game, goal, objective, confirm_bots,
    )  # fmt: skip


def _goal(source: str, decl, table: dict, players: tuple) -> Goal:
    """The [balance] target: a group, a member ("roles.trusted", "seats.0") or a scalar."""
    target = table.get("target", "roles")
    where = "balance.target"
    allowed = (
        f"one of {', '.join(TARGETS)}, a member such as roles.NAME or seats.N, or one of "
        f"{', '.join(SCALARS)} with a value"
    )
    if not isinstance(target, str):
        raise fail(source, where, f"{target!r} is not allowed: {allowed}")
    if "value" in table and target not in SCALARS:
        raise fail(source, "balance.value", f"only a scalar target ({', '.join(SCALARS)}) has one")
    if target in SCALARS:
        if target == "everybody_lost" and not decl.no_winner_reasons:
            raise fail(
                source, where, f"{decl.id} has no collective defeat (every game has a winner)"
            )
        value = table.get("value")
        unit = SCALARS[target][0]
        high = 1.0 if unit == "share" else 1e9
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not (0 <= value <= high and math.isfinite(value))
        ):
            raise fail(
                source, "balance.value",
                f"{value!r} is not allowed: the wanted {SCALARS[target][1]}, in [0, {high:g}]",
            )  # fmt: skip
        return Goal(target, scalar=target, value=float(value), unit=unit)
    group, _, member = target.partition(".")
    if group not in TARGETS:
        raise fail(source, where, f"{target!r} is not allowed: {allowed}")
    if group in ("roles", "leaders") and not decl.roles:
        raise fail(source, where, f"{decl.id} has no {decl.role_label}s; use seats")
    if group == "sides" and not decl.has_sides:
        raise fail(source, where, f"{decl.id} has no sides; use roles or seats")
    label = decl.role_label if group in ("roles", "leaders") else group[:-1]
    if not member:
        return Goal(target, group, label=label)
    members = {
        "roles": decl.roles,
        "leaders": decl.roles,
        "seats": tuple(str(i) for i in range(min(players))),
        "sides": decl.side_names,
    }[group]
    if member not in members:
        raise fail(
            source,
            where,
            f"{target!r} is not allowed: {group}.NAME with NAME one of {', '.join(members)}",
        )
    return Goal(target, group, member, label=label)


def _number(source, key, value, low, high) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise fail(
            source, f"balance.{key}", f"{value!r} is not allowed: a number in [{low}, {high}]"
        )
    return float(value)


def _int(source, key, value, low, high) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise fail(
            source, f"balance.{key}", f"{value!r} is not allowed: an integer in [{low}, {high}]"
        )
    return value


def _levers(source: str, cfg, table) -> tuple[Lever, ...]:
    if not isinstance(table, dict) or not table:
        raise fail(source, "balance.levers", "a table of levers: name = [low, high] or choices")
    decl = cfg.decl
    players = cfg.players[0] if isinstance(cfg.players, tuple) else cfg.players
    out = []
    for name, spec in table.items():
        where = f"balance.levers.{name}"
        if name in cfg.params or name in cfg.data:
            raise fail(source, where, "also set in the config; a lever is set by the search only")
        if name in decl.params.names():
            section, printed = "params", decl.params.get(name).default_for(players)
        elif decl.data is not None and "." in name:
            try:
                printed = get_value(decl.data.read(), name)
            except DataError as exc:
                raise fail(source, where, str(exc)) from None
            section = "data"
        else:
            raise fail(source, where, f"not a parameter of {cfg.game} nor a data path")
        if not isinstance(spec, list) or not spec:
            raise fail(source, where, "[low, high] or a list of choices")
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in spec)
        if len(spec) == 2 and numbers and not isinstance(printed, list):
            low, high = spec
            if not low < high or not all(math.isfinite(v) for v in spec):
                raise fail(source, where, f"[low, high] with low < high, got {spec}")
            integer = isinstance(low, int) and isinstance(high, int)
            whole = (
                decl.params.get(name).kind == "int"
                if section == "params"
                else isinstance(printed, int) and not isinstance(printed, bool)
            )
            if whole and not integer:
                raise fail(
                    source, where,
                    f"{spec} is not allowed: {name} is a whole number; give integer bounds",
                )  # fmt: skip
            lever = Lever(name, section, printed, low, high, integer)
            _check_values(source, cfg, lever, [low, high])
        else:
            if len({json.dumps(v) for v in spec}) != len(spec):
                raise fail(source, where, "each choice once")
            lever = Lever(name, section, printed, choices=tuple(spec))
            _check_values(source, cfg, lever, spec)
        out.append(lever)
    return tuple(out)


def _check_values(source: str, cfg, lever: Lever, values: list) -> None:
    """Every choice, and both bounds of a range, must be a value the game allows: checked
    before any trial is played, so a bad lever costs nothing and leaves no folder behind."""
    players = list(cfg.players) if isinstance(cfg.players, tuple) else cfg.players
    base = {"game": cfg.game, "players": players, "games": 10}
    for value in values:
        raw = base | {lever.section: {lever.name: value}}
        try:
            expand(parse_config(raw, source, default_name="balance"))
        except (ConfigError, DataError) as exc:
            reason = str(exc).split("is not allowed: ", 1)[-1].splitlines()[0]
            raise fail(
                source, f"balance.levers.{lever.name}",
                f"{json.dumps(value)} is not allowed: {reason}",
            ) from None  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Playing a trial


def trial_variants(bc: BalanceConfig, values: dict[str, Any], seed: int | None = None):
    """The config's variants with the lever values set (a bad value is a DataError/ConfigError)."""
    raw = copy.deepcopy(bc.base)
    for lever in bc.levers:
        raw.setdefault(lever.section, {})[lever.name] = values[lever.name]
    if seed is not None:
        raw["seed"] = seed
    return raw, expand(parse_config(raw, bc.source, default_name="balance"))


def group_column(target: str) -> str:
    return {"roles": "role", "leaders": "role", "seats": "seat", "sides": "side"}[target]


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


# ---------------------------------------------------------------------------------------------
# The search


def _rungs(bc: BalanceConfig) -> list[int]:
    """Games per variant after each rung: from an eighth of min_games, doubling to max_games."""
    rungs, n = [], max(100, bc.min_games // 8)
    while n < bc.max_games:
        rungs.append(n)
        n *= 2
    return [*rungs, bc.max_games]


def _study(bc: BalanceConfig):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=bc.seed % 2**32, n_startup_trials=6)
    return optuna.create_study(direction="minimize", sampler=sampler)


def _printed(bc: BalanceConfig) -> dict[str, Any] | None:
    values = {}
    for lever in bc.levers:
        suggestion = lever.suggestion(lever.printed)
        if suggestion is None:
            return None
        values[lever.name] = suggestion
    return values


def search(bc: BalanceConfig, out: Path, executor, progress=None) -> pl.DataFrame:
    """Run (or continue) the search; return the trials table (one row per trial)."""
    study = _study(bc)
    dists = {lever.name: lever.distribution() for lever in bc.levers}
    printed = _printed(bc)
    if printed is not None:
        study.enqueue_trial(printed)
    done = read_trials(out)
    rows = list(done.iter_rows(named=True)) if done is not None else []
    for row in rows:  # replay: the seeded sampler proposes the same values again
        trial = study.ask(dists)
        if json.dumps(trial.params, sort_keys=True) != row["suggested"]:
            raise UserError(
                f"{out / TRIALS}: the search no longer replays (code or config changed)"
            )
        study.tell(trial, row["objective"])
    spent = sum(r["games_total"] for r in rows)
    evaluator = Evaluator(bc, executor, chunk=max(100, bc.min_games // 8))
    seen = {r["values"]: r for r in rows if r.get("repeat_of") is None}
    size = space_size(bc)
    asks_left = 20 * bc.max_trials + 100 - len(rows)  # a sampler that only repeats must end
    while len(seen) < bc.max_trials and spent < bc.budget_games and len(seen) < size:
        if rows and _settled(bc, rows) or asks_left <= 0:
            break
        asks_left -= 1
        trial = study.ask(dists)
        values = {lv.name: lv.value(trial.params[lv.name]) for lv in bc.levers}
        key = json.dumps(values)
        if key in seen:  # the sampler came back to a tried value: its result, no new games
            row, games = dict(seen[key]) | {"repeat_of": seen[key]["trial"], "games_total": 0}, 0
        else:
            best = _best_high(bc, rows)
            row, games = _evaluate(bc, evaluator, values, bc.budget_games - spent, best)
            row["repeat_of"] = None
        row |= {"trial": len(rows), "suggested": json.dumps(trial.params, sort_keys=True)}
        seen.setdefault(key, row)
        spent += games
        row["games_spent"] = spent
        study.tell(trial, row["objective"])
        rows.append(row)
        _write_trials(out, rows)
        if progress is not None:
            progress(len(rows), spent, min(r["objective"] for r in rows))
    return _frame(rows)


def space_size(bc: BalanceConfig) -> float:
    """How many distinct lever settings exist (infinite with a float lever)."""
    size = 1.0
    for lever in bc.levers:
        if lever.choices:
            size *= len(lever.choices)
        elif lever.integer:
            size *= int(lever.high) - int(lever.low) + 1
        else:
            return math.inf
    return size


def _settled(bc: BalanceConfig, rows: list[dict]) -> bool:
    """Stop once a candidate clearly meets the target and the sampler has looked around."""
    met = [r for r in rows if _clearly_met(bc, r)]
    distinct = sum(r.get("repeat_of") is None for r in rows)
    return bool(met) and distinct >= min(bc.max_trials, 12)


def _clearly_met(bc: BalanceConfig, row: dict) -> bool:
    worst_high = row.get("worst_high", row["objective_high"])
    return row["feasible"] and worst_high is not None and worst_high <= bc.tolerance


def _best_high(bc: BalanceConfig, rows: list[dict]) -> float | None:
    """The best trial's objective upper bound while no trial meets the tolerance, else None
    (then a trial is judged by the tolerance alone: one that meets it with fewer changes may
    still be the recommendation)."""
    fresh = [r for r in rows if r["feasible"] and r.get("repeat_of") is None and not r["pruned"]]
    if not fresh or any(_clearly_met(bc, r) for r in fresh):
        return None
    return min(r["objective_high"] for r in fresh)


def _evaluate(bc, evaluator, values, budget_left, best_high=None) -> tuple[dict, int]:
    row = {"values": json.dumps(values), "feasible": True, "pruned": False}
    row |= {f"lever:{k}": json.dumps(v) for k, v in values.items()}
    try:
        _, variants = trial_variants(bc, values)
    except (ConfigError, DataError) as exc:
        row |= {"feasible": False, "error": str(exc), "games": 0, "games_total": 0}
        return row | _score_fields(None, bc), 0
    counts: list[dict] = [{} for _ in variants]
    played, score = 0, None
    for n in _rungs(bc):
        if (n - played) * len(variants) > budget_left and score is not None:
            break
        evaluator.grow(variants, counts, played, n)
        budget_left -= (n - played) * len(variants)
        played = n
        score = score_counts(
            list(zip(variants, counts, strict=True)), played, bc.goal, bc.objective
        )
        if score.worst_low > bc.tolerance:  # clearly misses the target: more games won't help
            row["pruned"] = n < bc.max_games
            break
        if best_high is not None and score.low > best_high:  # clearly worse than the best
            row["pruned"] = n < bc.max_games
            break
        if score.worst_high <= bc.tolerance and played >= bc.min_games:  # clearly meets it
            break
    row |= {"games": played, "games_total": played * len(variants), "error": None}
    row["rates"] = json.dumps(score.rates)
    row["wanted"] = json.dumps(score.wanted)
    return row | _score_fields(score, bc), played * len(variants)


def _score_fields(score: TrialScore | None, bc: BalanceConfig) -> dict:
    if score is None:
        worst = 1e9 if bc.goal.unit == "number" else 1.0
        return {"objective": worst, "objective_low": worst, "objective_high": worst,
                "sumsq": None, "worst": worst, "worst_low": worst, "worst_high": worst,
                "rates": "{}", "wanted": "{}"}  # fmt: skip
    return {
        "objective": score.objective,
        "objective_low": score.low,
        "objective_high": score.high,
        "sumsq": score.sumsq,
        "worst": score.worst,
        "worst_low": score.worst_low,
        "worst_high": score.worst_high,
    }


def _frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows, infer_schema_length=None)


def _write_trials(out: Path, rows: list[dict]) -> None:
    tmp = out / f".{TRIALS}.tmp"
    _frame(rows).write_parquet(tmp)
    os.replace(tmp, out / TRIALS)


def recommend(bc: BalanceConfig, trials: pl.DataFrame) -> dict:
    """The trial to confirm: meets the tolerance with the fewest and smallest changes, else best."""
    rows = [r for r in trials.iter_rows(named=True) if r["feasible"] and r.get("repeat_of") is None]
    if not rows:
        raise UserError(f"{bc.source}: no lever values the search tried were allowed by the game")

    def changes(row):
        values = json.loads(row["values"])
        moved = [lv.change(values[lv.name]) for lv in bc.levers]
        return (sum(m > 0 for m in moved), sum(moved))

    met = [r for r in rows if r.get("worst", r["objective"]) <= bc.tolerance and not r["pruned"]]
    if met:
        return min(met, key=lambda r: (*changes(r), r["objective"], r["trial"]))
    return min(rows, key=lambda r: (r["objective"], *changes(r), r["trial"]))


def confirm_seed(seed: int) -> int:
    """A root seed the search never used (SplitMix64 step of the experiment seed)."""
    z = (seed + 0x9E3779B97F4A7C15) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    return (z ^ (z >> 31)) % 2**63


def confirmation_rates(bc: BalanceConfig, run_dir: Path) -> dict:
    """Every measured value of the confirmation run with its interval and wanted value; only
    ``counted`` ones are judged (one member of a group: only that member)."""
    from reports.load import listed_files

    manifest = json.loads((run_dir / "manifest.json").read_text())
    games = pl.read_parquet(listed_files(run_dir, manifest, "games"))
    players = pl.read_parquet(listed_files(run_dir, manifest, "players"))
    labels = {v["id"]: v["label"] for v in manifest["variants"]}
    out = {}
    for entry in manifest["variants"]:
        vid = entry["id"]
        variant = _ConfirmVariant(vid, entry["setup"]["players"])
        g = games.filter(pl.col("variant") == vid).sort("game")
        pl_ = players.filter(pl.col("variant") == vid).sort("game", "seat")
        if bc.goal.scalar:
            values = scalar_column(bc.goal.scalar, g, pl_)
            counts = {
                bc.goal.scalar: (int(values.sum()), int((values * values).sum()), values.len())
            }
        else:
            column = bc.goal.column
            agg = (
                pl_.filter(pl.col(column).is_not_null())
                .group_by(column)
                .agg(
                    (pl.col("win") * WIN_DENOM).round().cast(pl.Int64).sum().alias("wins"),
                    pl.len().alias("n"),
                )
            )
            counts = {str(k): (int(w), int(n)) for k, w, n in agg.iter_rows()}
        for key, value, lo, hi, want, counted in measured(bc.goal, variant, counts):
            who = key.split("/", 1)[1]
            who = who if len(labels) == 1 else f"{who} ({labels[vid]})"
            n = counts[bc.goal.scalar][2] if bc.goal.scalar else counts[key.split("/", 1)[1]][1]
            out[who] = {"rate": value, "low": lo, "high": hi, "fair": want, "n": n,
                        "counted": counted}  # fmt: skip
    return out


@dataclass(frozen=True)
class _ConfirmVariant:
    """The two fields of a Variant that ``measured`` reads, from a run's manifest."""

    id: str
    players: int

    @property
    def setup(self):
        return self


def _show(bc: BalanceConfig, r: dict) -> str:
    if bc.goal.unit == "share":
        return f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"
    return f"{r['rate']:.2f} [{r['low']:.2f}, {r['high']:.2f}]"


def _wanted(bc: BalanceConfig, r: dict) -> str:
    want = f"{r['fair']:.1%}" if bc.goal.unit == "share" else f"{r['fair']:.2f}"
    tol = f"{bc.tolerance:.1%}" if bc.goal.unit == "share" else f"{bc.tolerance:g}"
    return f"{'fair' if bc.goal.group else 'wanted'} {want} +- {tol}"


def judge(bc: BalanceConfig, rates: dict) -> tuple[bool, bool]:
    """(sure, inside): every counted interval, or every counted value, inside the tolerance."""
    tol = bc.tolerance
    counted = [r for r in rates.values() if r.get("counted", True)]
    inside = all(abs(r["rate"] - r["fair"]) <= tol for r in counted)
    sure = all(r["fair"] - tol <= r["low"] and r["high"] <= r["fair"] + tol for r in counted)
    return sure, inside


def verdict(bc: BalanceConfig, rates: dict, values: dict, search: dict | None = None) -> str:
    """The verdict in words: met, met within noise, or not met and why the search stopped.

    ``search``: ``tried`` (distinct settings), ``size`` (settings the levers allow, inf with a
    float lever), ``stopped`` ("trials" | "budget" | "settled" | "exhausted").
    """
    sure, inside = judge(bc, rates)
    counted = {k: r for k, r in rates.items() if r.get("counted", True)}
    worst = max(counted.items(), key=lambda kv: abs(kv[1]["rate"] - kv[1]["fair"]))
    about = f"{bc.goal.words()}: {worst[0]} {_show(bc, worst[1])}, {_wanted(bc, worst[1])}"
    if sure:
        return f"target met ({about})"
    if inside:
        return f"target met within noise ({about})"
    shown = ", ".join(f"{k} = {json.dumps(v)}" for k, v in values.items())
    best = f"best found {shown}: {about}"
    search = search or {}
    tried, size = search.get("tried"), search.get("size")
    if tried is not None and size is not None and math.isfinite(size) and tried >= size:
        return f"target not reachable: every setting tried ({int(size)} settings); {best}"
    if tried is None:
        return f"target not reachable with these levers; {best}"
    why = {"trials": "max_trials spent", "budget": "budget_games spent"}.get(
        search.get("stopped"), "the search stopped"
    )
    of = f"{tried} of {int(size)} settings" if math.isfinite(size) else (
        f"{tried} distinct settings (continuous levers)"
    )  # fmt: skip
    return f"target not found in {of} tried ({why}); {best}"


def coarse_lever(bc: BalanceConfig, trials: pl.DataFrame, values: dict) -> str | None:
    """With one integer or choice lever: the two neighbouring settings between which the target
    lies, when neither meets it ("this lever is too coarse"), else None."""
    if len(bc.levers) != 1:
        return None
    lever = bc.levers[0]
    if not (lever.integer or lever.choices):
        return None
    order = list(lever.choices) if lever.choices else None
    rows = {}
    for r in trials.iter_rows(named=True):
        if r.get("repeat_of") is None and r["feasible"] and r["rates"] not in (None, "{}"):
            rows[r["values"]] = r

    def signed(value, key=None):
        """(key, value, wanted) of the worst counted quantity at a setting (or of ``key``)."""
        row = rows.get(json.dumps({lever.name: value}))
        if row is None:
            return None
        rates, wanted = json.loads(row["rates"]), json.loads(row.get("wanted") or "{}")
        keys = [k for k in rates if bc.goal.member is None or k.endswith(f"/{bc.goal.member}")]
        if bc.goal.scalar:
            keys = [k for k in rates if k.endswith(f"/{bc.goal.scalar}")]
        if key is not None:
            keys = [k for k in keys if k == key]
        if not keys or not wanted:
            return None
        key = max(keys, key=lambda k: abs(rates[k][0] - wanted[k]))
        return key, rates[key][0], wanted[key]

    best = values[lever.name]
    if order is not None:
        i = order.index(best)
        neighbours = [order[j] for j in (i - 1, i + 1) if 0 <= j < len(order)]
    else:
        neighbours = [v for v in (best - 1, best + 1) if lever.low <= v <= lever.high]
    here = signed(best)
    if here is None:
        return None
    for other in neighbours:
        there = signed(other, here[0])
        if there is None:
            continue
        (_, a, want), (_, b, _) = here, there
        if (a - want) * (b - want) < 0 and abs(b - want) > bc.tolerance:
            fmt = "{:.1%}" if bc.goal.unit == "share" else "{:.2f}"
            who = here[0].split("/", 1)[1]
            lo, hi = sorted([(best, a), (other, b)], key=lambda t: json.dumps(t[0]))
            return (
                f"this lever is too coarse: {lever.name} = {json.dumps(lo[0])} gives {who} "
                f"{fmt.format(lo[1])} and {json.dumps(hi[0])} gives {fmt.format(hi[1])} "
                f"(wanted {fmt.format(want)}): the target lies between two settings"
            )
    return None


def balance(
    config,
    out=None,
    *,
    jobs: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    resume: bool = False,
    progress: bool | None = None,
) -> Path:
    """Search, confirm and report; return the balance directory (holds recommendation.json)."""
    bc = load_balance(config)
    out = Path(out) if out is not None else Path("runs") / f"{bc.base.get('name') or 'balance'}"
    lock = _prepare(bc, out, resume)
    try:
        return _balance(bc, out, jobs, backend, scheduler, progress)
    except KeyboardInterrupt as exc:
        exc.balance_out = out  # what the interrupted search keeps, for the one-line message
        raise
    finally:
        os.close(lock)  # releases the flock (the kernel does so too on any exit)


def _balance(bc, out, jobs, backend, scheduler, progress) -> Path:
    from experiments.backends import make_backend
    from experiments.progress import Progress
    from experiments.runner import run as run_experiment

    start = time.perf_counter()
    bar = Progress(bc.budget_games, 0, enabled=progress)
    last = [0]

    def tick(trials, spent, best):
        bar.advance(spent - last[0])
        last[0] = spent
        bar.note(f"trial {trials}, best imbalance {best:.3f}")
        if bar.bar is None:
            bar.line(f"trial {trials}: {spent:,} games, best imbalance {best:.3f}")

    try:
        with make_backend(backend, jobs, scheduler) as executor:
            trials = search(bc, out, executor, tick)
    finally:
        bar.close()
    best = recommend(bc, trials)
    values = json.loads(best["values"])
    raw, _ = trial_variants(bc, values, seed=confirm_seed(bc.seed))
    raw["games"] = bc.confirm_games
    raw["name"] = f"{raw.get('name', 'balance')}-confirm"
    raw.pop("target_ci", None)
    confirm_dir = out / CONFIRM
    if bc.source != "<config>":  # variant data files stay relative to the config
        raw = _absolute_files(raw, Path(bc.source).parent)
    run_experiment(
        raw, confirm_dir, jobs=jobs, backend=backend, scheduler=scheduler,
        resume=confirm_dir.exists(), progress=progress,
    )  # fmt: skip
    rates = confirmation_rates(bc, confirm_dir)
    spent = int(trials["games_total"].sum())
    info = search_info(bc, trials)
    said = verdict(bc, rates, values, info)
    coarse = coarse_lever(bc, trials, values) if not judge(bc, rates)[1] else None
    if coarse:
        said += f"; {coarse}"
    second = None
    if bc.confirm_bots is not None:
        level_dir = out / f"{CONFIRM}-bots"
        level = dict(raw, bots=bc.confirm_bots, name=f"{raw['name']}-bots")
        run_experiment(
            level, level_dir, jobs=jobs, backend=backend, scheduler=scheduler,
            resume=level_dir.exists(), progress=progress,
        )  # fmt: skip
        level_rates = confirmation_rates(bc, level_dir)
        sure, inside = judge(bc, level_rates)
        counted = {k: r for k, r in level_rates.items() if r.get("counted", True)}
        worst = max(counted.items(), key=lambda kv: abs(kv[1]["rate"] - kv[1]["fair"]))
        holds = "holds" if sure else "holds within noise" if inside else "does not hold"
        second = {
            "bots": bc.confirm_bots,
            "holds": holds,
            "win_rates": {
                k: {f: v[f] for f in ("rate", "low", "high")} for k, v in level_rates.items()
            },
        }
        said += (
            f"; with bots {json.dumps(bc.confirm_bots)} it {holds} ({worst[0]} "
            f"{_show(bc, worst[1])}, {_wanted(bc, worst[1])})"
        )
    rec = {
        "verdict": said,
        "levers": values,
        "printed": {lv.name: lv.printed for lv in bc.levers},
        "win_rates": {k: {f: v[f] for f in ("rate", "low", "high")} for k, v in rates.items()},
        "fair": {k: v["fair"] for k, v in rates.items()},
        "tolerance": bc.tolerance,
        "target": bc.target,
        "target_words": bc.goal.words(),
        "unit": bc.goal.unit,
        "objective": bc.objective,
        "counted": [k for k, v in rates.items() if v.get("counted", True)],
        "settings_tried": info["tried"],
        "settings": info["size"] if math.isfinite(info["size"]) else None,
        "stopped": info["stopped"],
        "second_level": second,
        "games": spent,
        "confirmation_games": bc.confirm_games,
        "trials": trials.height,
        "seconds": round(time.perf_counter() - start, 1),
    }
    write_json(out / "recommendation.json", rec)
    state = json.loads((out / STATE).read_text())
    write_json(out / STATE, state | {"status": "complete"})
    from reports.balance_report import write_balance_report

    write_balance_report(bc, out, trials, rec)
    return out


def search_info(bc: BalanceConfig, trials: pl.DataFrame) -> dict:
    """Distinct settings tried, settings the levers allow, and why the search stopped."""
    fresh = (
        trials.filter(pl.col("repeat_of").is_null()) if "repeat_of" in trials.columns else trials
    )
    tried, size = fresh.height, space_size(bc)
    spent = int(trials["games_total"].sum())
    rows = list(trials.iter_rows(named=True))
    if tried >= size:
        stopped = "exhausted"
    elif rows and _settled(bc, rows):
        stopped = "settled"
    elif spent >= bc.budget_games:
        stopped = "budget"
    else:
        stopped = "trials"
    return {"tried": tried, "size": size, "stopped": stopped}


def _absolute_files(raw: dict, base: Path) -> dict:
    table = raw.get("data")

    def absolute(v):
        return [absolute(x) for x in v] if isinstance(v, list) else str((base / v).resolve())

    if isinstance(table, str | list):
        raw["data"] = absolute(table)
    elif isinstance(table, dict):
        for key in ("file", "data"):
            if key in table:
                table[key] = absolute(table[key])
    return raw


def _prepare(bc: BalanceConfig, out: Path, resume: bool) -> int:
    """Create (or reopen, with ``resume``) the balance folder and lock it; return the lock."""
    state = {"config": bc.raw, "source": bc.source, "status": "running"}
    return open_folder(
        out, STATE, state, resume, "balance",
        same=lambda old: old.get("config") == json.loads(json.dumps(bc.raw)),
        differs=f"{bc.source}: differs from the config of the search in {out}",
    )  # fmt: skip
