"""The ``[balance]`` table of a balance config: its targets, its levers and their checks.

``load_balance`` reads a balance config (see experiments/balance_search.py for the table's keys)
into a ``BalanceConfig``; every problem is a one-line ConfigError, raised before any trial is
played.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from experiments.config import ConfigError, fail, parse_config
from experiments.sweep import expand
from experiments.workdir import config_source
from sim.core.gamedata import DataError, get_value

TARGETS = ("roles", "leaders", "seats", "sides")
# scalars of a game with a wanted value: their unit, and what they measure
SCALARS = {
    "everybody_lost": ("share", "share of games that nobody won"),
    "rounds": ("number", "mean game length in rounds"),
    "score_margin": ("number", "mean margin between the first and second scores"),
}
OBJECTIVES = ("minmax", "sumsq")
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


def group_column(target: str) -> str:
    return {"roles": "role", "leaders": "role", "seats": "seat", "sides": "side"}[target]
