"""`menhir challenge`: would a better player of this role still lose (or still win)?

A finding such as "the Trusted wins 1%" is a statement about the game only if a stronger player
holding the Trusted would also lose. ``challenge`` tries to break the finding by machine: it
tunes the policy of the bot that plays the target (a role, leader or destiny; ``seat.N``; a
side) to maximise the target's win rate against the config's own bots (a *weak* target) or,
for a *strong* target, tunes the other seats' bots to beat it; then confirms the best policy
on fresh seeds and says whether the finding holds.

The config is an ordinary experiment config of one variant (no sweep) with an optional
``[challenge]`` table::

    [challenge]
    min_games = 1000        # a candidate's first rung of games (doubling up to max_games)
    max_games = 8000        # games of a candidate that is never outraced (and of the default)
    max_trials = 30         # candidates per target, the default included
    budget_games = 200000   # games the search of one target may play
    confirm_games = 20000   # games of the confirmation run (default: the config's games)
    margin = 0.02           # a finding falls when the tuned rate comes within this of fair
    tune = ["greedy.claim_weight", ...]       # knobs to tune (default: every one)
    [challenge.ranges]      # a knob's range (inside its declared one)
    "greedy.move_utility" = [0, 30]

What is tuned (the knobs). Every numeric parameter a bot declares, named ``BOT.PARAM``, of the
bots that may hold the target (weak) or sit at the other seats (strong). Its range is the
declared one, narrowed to the default +- 8 x max(|default|, 1) where the declared range is
wider than 100 x max(|default|, 1) (a budget: ``search:rollouts`` in [1, 10^6], default 12,
is tuned in [1, 108]; greedy's utilities in [0, 100] keep their range); a parameter whose
declared range passes 2^31 is a bit mask, not a quantity, and is left alone. One value per
knob for every seat it applies to; a seat keeps any other parameter its config spec gives. A
tuned value within 5% of a narrowed bound is named in the verdict (widen it and try again).

Where the tuned player sits. Bots are given by seat and roles are dealt by the game, so with
``roles = "random"`` the seat that holds the target changes from game to game. Game *i* draws
its deal from the experiment seed and *i* only (sim/core/batch.py), whatever the bots are, so
the default run (trial 0, the config as written) records which seats hold the target in each
game, and every later candidate plays game *i* with the tuned bot on exactly those seats (one
setup per seat pattern, the games of that pattern). Every game counts, the deal stays the
game's own, and each candidate replays the same games (common random numbers). A game whose
target seats differ from the recorded ones (a deal that depends on the bots: drafted roles)
stops the challenge with one line; ``roles = "draft"`` is refused up front.

The search. optuna's TPE sampler, seeded, ask and tell, as in ``menhir balance``; the default
policy is told to it first. A candidate is raced: it plays ``min_games``, then doubles up to
``max_games``, and stops early once its win-rate interval (Wilson 95%) lies clearly on the
losing side of the best's (weak: its upper bound below the best's lower bound) or clearly
reaches the fair share (the search then stops: the finding already falls). The best policy is
the full (not outraced) candidate with the highest (weak) or lowest (strong) rate.

The confirmation is an ordinary run (``OUT/confirm``, ``OUT/confirm/<target>`` with ``--all``)
on a seed the search never used: one variant with the config's bots and one per seat pattern
with the tuned bots placed, paired (the same deals in every variant); the tuned rate counts, in
the variant of each pattern, the games whose deal has that pattern.

The verdict (fair share 1/players). A weak target's finding is the bot's when the tuned rate's
interval reaches the fair share less ``margin`` (its upper bound >= fair - margin), and holds
otherwise; a strong target's is the bot's when tuned opponents bring its interval down to the
fair share plus ``margin`` (lower bound <= fair + margin). The knobs that moved are named with
their default and tuned values.

``--all`` takes every role in play (every seat in a game without roles); a target whose
default rate is within ``margin`` of the fair share is not flagged and not searched (its
default rate is reported).
"""

from __future__ import annotations

import copy
import json
import math
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from experiments.balance_trials import wilson
from experiments.balance_verdict import confirm_seed
from experiments.config import UserError, fail, parse_config
from experiments.sweep import expand
from experiments.workdir import (
    TRIALS,
    absolute_files,
    config_source,
    open_folder,
    read_trials,
    write_json,
)
from sim.core.registry import GAME_MODULES, BotSpec, Setup, get_game

CHALLENGE_KEYS = (
    "min_games",
    "max_games",
    "max_trials",
    "budget_games",
    "confirm_games",
    "margin",
    "tune",
    "ranges",
)

STATE = "state.json"
RESULT = "challenge.json"
DEALS = "deals"
CONFIRM = "confirm"
MASK_LIMIT = 2**31  # a declared range beyond this is a bit mask, not a quantity


@dataclass(frozen=True)
class Knob:
    """One tunable bot parameter ``bot.param`` with its search range."""

    name: str
    bot: str
    param: str
    low: float
    high: float
    integer: bool
    declared: tuple[float, float] = (-math.inf, math.inf)

    def at_narrowed_edge(self, value) -> bool:
        """Within 5% of a bound that is narrower than the declared one (the search may have
        stopped there because of the range, not of the game)."""
        width = self.high - self.low
        top = value >= self.high - 0.05 * width and self.high < self.declared[1]
        bottom = value <= self.low + 0.05 * width and self.low > self.declared[0]
        return top or bottom

    def distribution(self):
        import optuna.distributions as d

        if self.integer:
            return d.IntDistribution(int(self.low), int(self.high))
        return d.FloatDistribution(float(self.low), float(self.high))


@dataclass(frozen=True)
class Target:
    text: str  # as given: "trusted", "seat.2", "B"
    column: str  # players-table column: role | seat | side
    value: Any
    label: str  # for sentences: "the trusted", "seat 2", "side B"
    flagged_only: bool = False  # --all: searched only when its default rate is off fair


@dataclass(frozen=True)
class ChallengeConfig:
    source: str
    raw: dict
    base: dict  # the config without its [challenge] table
    game: str
    players: int
    seed: int
    setup: Setup  # the config's one variant
    variant_key: int
    min_games: int
    max_games: int
    max_trials: int
    budget_games: int
    confirm_games: int
    margin: float
    tune: tuple[str, ...] | None
    ranges: dict

    @property
    def fair(self) -> float:
        return 1.0 / self.players


def load_challenge(config: str | Path | dict) -> ChallengeConfig:
    """Read and check a challenge config; every problem is a one-line ConfigError."""
    source, raw, stem = config_source(config)
    table = raw.get("challenge", {})
    if not isinstance(table, dict):
        raise fail(source, "challenge", "a table ([challenge]) of search settings")
    for key in table:
        if key not in CHALLENGE_KEYS:
            raise fail(
                source, f"challenge.{key}", f"unknown key; allowed: {', '.join(CHALLENGE_KEYS)}"
            )
    base = {k: v for k, v in raw.items() if k not in ("challenge", "balance")}
    cfg = parse_config(base, source, default_name=stem)
    if cfg.axes:
        raise fail(
            source,
            cfg.axes[0],
            "a challenge plays one variant; give one value (challenge each value separately)",
        )
    if cfg.roles == "draft":
        raise fail(
            source,
            "roles",
            "'draft': a drafted role's seat depends on the bots; challenge needs random or fixed",
        )
    if cfg.players < 2:
        raise fail(source, "players", "a challenge needs 2 or more players (a fair share)")
    (variant,) = expand(cfg)
    min_games = _int(source, "min_games", table.get("min_games", 1000), 10, 10**8)
    max_games = _int(source, "max_games", table.get("max_games", 8 * min_games), min_games, 10**9)
    max_trials = _int(source, "max_trials", table.get("max_trials", 30), 1, 10_000)
    budget = _int(source, "budget_games", table.get("budget_games", 25 * max_games), 1, 10**10)
    confirm = _int(source, "confirm_games", table.get("confirm_games", cfg.games), 10, 10**9)
    margin = table.get("margin", 0.02)
    if isinstance(margin, bool) or not isinstance(margin, int | float) or not 0 <= margin <= 0.5:
        raise fail(source, "challenge.margin", f"{margin!r} is not allowed: a number in [0, 0.5]")
    tune = table.get("tune")
    if tune is not None and (
        not isinstance(tune, list) or not tune or not all(isinstance(t, str) for t in tune)
    ):
        raise fail(source, "challenge.tune", 'a list of knobs such as "greedy.claim_weight"')
    ranges = table.get("ranges", {})
    if not isinstance(ranges, dict):
        raise fail(source, "challenge.ranges", 'a table: "bot.param" = [low, high]')
    cc = ChallengeConfig(
        source, raw, base, cfg.game, cfg.players, cfg.seed, variant.setup, variant.variant_key,
        min_games, max_games, max_trials, budget, confirm, float(margin),
        tuple(tune) if tune else None, ranges,
    )  # fmt: skip
    all_names = {k.name for k in _declared_knobs(cc, range(cc.players))}
    for name in [*(cc.tune or ()), *ranges]:
        if name not in all_names:
            known = ", ".join(sorted(all_names)) or "(none)"
            raise fail(source, "challenge.tune/ranges", f"{name!r} is not a knob; known: {known}")
    _declared_knobs(cc, range(cc.players))  # checks the ranges
    return cc


def _int(source, key, value, low, high) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise fail(
            source, f"challenge.{key}", f"{value!r} is not allowed: an integer in [{low}, {high}]"
        )
    return value


def _number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _declared_knobs(cc: ChallengeConfig, seats) -> list[Knob]:
    """The knobs of the bots sitting at ``seats`` (range narrowing as in the module doc)."""
    decl = get_game(cc.game)
    names = sorted({cc.setup.bots[s].name for s in seats})
    out = []
    for bot_name in names:
        for p in decl.bot(bot_name).params:
            if p.kind not in ("int", "float") or p.choices or p.low is None or p.high is None:
                continue
            if p.high - p.low > MASK_LIMIT:
                continue
            name = f"{bot_name}.{p.name}"
            default = float(p.default_for(cc.players))
            scale = max(abs(default), 1.0)
            low, high = float(p.low), float(p.high)
            if high - low > 100 * scale:  # a budget declared up to 10**6, not a weight
                low, high = max(low, default - 8 * scale), min(high, default + 8 * scale)
            if name in cc.ranges:
                given = cc.ranges[name]
                ok = isinstance(given, list) and len(given) == 2
                ok = ok and all(
                    isinstance(v, int | float) and not isinstance(v, bool) for v in given
                )
                if not ok or not p.low <= given[0] < given[1] <= p.high:
                    raise fail(
                        cc.source,
                        f"challenge.ranges.{name}",
                        f"[low, high] with low < high inside the declared {p.allowed()}",
                    )
                low, high = float(given[0]), float(given[1])
            integer = p.kind == "int"
            if integer:
                low, high = math.ceil(low), math.floor(high)
            if low >= high:
                continue
            if cc.tune is not None and name not in cc.tune:
                continue
            out.append(Knob(name, bot_name, p.name, low, high, integer, (p.low, p.high)))
    return out


def parse_target(cc: ChallengeConfig, text: str) -> Target:
    """A role/leader/destiny name, ``seat.N`` or a side name; a one-line UserError otherwise."""
    decl = get_game(cc.game)
    word = decl.role_label
    if text in decl.roles:
        if not isinstance(cc.setup.roles, str) and text not in cc.setup.roles:
            raise UserError(f"--target {text}: no seat holds the {word} {text} in {cc.source}")
        return Target(text, "role", text, f"the {text.replace('_', ' ').title()}")
    if text.startswith("seat."):
        n = text[5:]
        if n.isdigit() and int(n) < cc.players:
            return Target(text, "seat", int(n), f"seat {n}")
    if decl.has_sides and text in decl.side_names:
        return Target(text, "side", text, f"side {text}")
    known = [*decl.roles, f"seat.0 .. seat.{cc.players - 1}"]
    if decl.has_sides:
        known += list(decl.side_names)
    raise UserError(f"--target {text}: not a {word}, seat or side of {cc.game}; known: "
                    + ", ".join(known))  # fmt: skip


def every_target(cc: ChallengeConfig) -> list[Target]:
    """``--all``: every role in play (every seat in a game without roles)."""
    decl = get_game(cc.game)
    if decl.roles:
        names = decl.roles if isinstance(cc.setup.roles, str) else cc.setup.roles
        return [parse_target(cc, r) for r in names]
    return [parse_target(cc, f"seat.{s}") for s in range(cc.players)]


def target_seats(cc: ChallengeConfig, target: Target) -> list[int]:
    """Seats that may hold the target."""
    if target.column == "seat":
        return [target.value]
    if target.column == "role" and not isinstance(cc.setup.roles, str):
        return [cc.setup.roles.index(target.value)]
    return list(range(cc.players))


def tuned_seats(cc: ChallengeConfig, target: Target, weak: bool) -> list[int]:
    """Seats whose bot may be tuned: those that may hold the target (weak), or the others."""
    seats = target_seats(cc, target)
    if weak:
        return seats
    fixed = len(seats) == 1 and (target.column == "seat" or not isinstance(cc.setup.roles, str))
    return [s for s in range(cc.players) if not (fixed and s == seats[0])]


def knobs_for(cc: ChallengeConfig, target: Target, weak: bool) -> list[Knob]:
    return _declared_knobs(cc, tuned_seats(cc, target, weak))


# ---------------------------------------------------------------------------------------------
# Playing


def placed_setup(cc: ChallengeConfig, mask: int, values: dict, weak: bool) -> Setup:
    """The config's setup with the tuned knob values on the target's seats (weak) or the
    others (strong); ``mask`` has bit s set for a seat holding the target."""
    specs = []
    for seat, spec in enumerate(cc.setup.bots):
        tuned = bool(mask >> seat & 1) == weak
        own = {k: v for k, v in values.items() if k.split(".", 1)[0] == spec.name}
        if tuned and own:
            params = dict(spec.params) | {k.split(".", 1)[1]: v for k, v in own.items()}
            spec = BotSpec(spec.name, tuple(params.items()))
        specs.append(spec)
    return replace(cc.setup, bots=tuple(specs))


def play_target(game_entry, setup, indices, seed, key, column, value, expected):
    """Play ``indices``; return (wins, rows of the target, target seat mask per game, games
    whose mask differs from ``expected``; None: record only)."""
    from sim.core.batch import play_batch

    game_id, module = game_entry
    GAME_MODULES[game_id] = module  # the parent's registration wins
    _, players = play_batch(setup, np.asarray(indices, np.int64), seed, key)
    players = players.sort("game", "seat")
    hit = (pl.col(column) == value).fill_null(False)
    per_game = (
        players.with_columns(hit.alias("_hit"))
        .group_by("game", maintain_order=True)
        .agg(
            (pl.col("_hit").cast(pl.Int64) * (2 ** pl.col("seat").cast(pl.Int64))).sum().alias("m"),
            (pl.col("win") * pl.col("_hit")).sum().alias("w"),
            pl.col("_hit").sum().alias("n"),
        )
    )
    masks = per_game["m"].to_numpy().astype(np.int64)
    wins = float(np.sum(per_game["w"].to_numpy()))  # ordered: the same sum on any backend
    rows = int(per_game["n"].sum())
    bad = 0 if expected is None else int(np.sum(masks != np.asarray(expected, np.int64)))
    return wins, rows, masks, bad


class Evaluator:
    """Plays one target's candidates in chunks on a backend."""

    def __init__(self, cc: ChallengeConfig, target: Target, executor, weak: bool):
        self.cc, self.target, self.executor, self.weak = cc, target, executor, weak
        self.chunk = max(100, cc.min_games // 4)
        self.entry = (cc.game, GAME_MODULES[cc.game])
        self.deals: np.ndarray | None = None  # target seat mask of games 0 .. max_games - 1

    def _submit(self, setup, idx, expected):
        cc, t = self.cc, self.target
        args = (self.entry, setup, idx, cc.seed, cc.variant_key, t.column, t.value, expected)
        return self.executor.submit(play_target, *args)

    def default(self, start: int, stop: int) -> tuple[float, int, np.ndarray, int]:
        """The config as written on games start..stop-1: (wins, rows, masks, games)."""
        futures = [
            self._submit(self.cc.setup, np.arange(a, min(a + self.chunk, stop)), None)
            for a in range(start, stop, self.chunk)
        ]
        wins, rows, masks = 0.0, 0, []
        for f in futures:
            w, n, m, _ = self.executor.result(f)
            wins, rows = wins + w, rows + n
            masks.append(m)
        return wins, rows, np.concatenate(masks), stop - start

    def candidate(self, values: dict, start: int, stop: int) -> tuple[float, int, int]:
        """A candidate on games start..stop-1 with the tuned seats placed: (wins, rows, games)."""
        deals = self.deals[start:stop]
        futures = []
        for mask in sorted({int(m) for m in deals if m}):
            games = np.nonzero(deals == mask)[0] + start
            setup = placed_setup(self.cc, mask, values, self.weak)
            for a in range(0, len(games), self.chunk):
                idx = games[a : a + self.chunk]
                futures.append(self._submit(setup, idx, np.full(len(idx), mask)))
        wins, rows, played = 0.0, 0, 0
        for f in futures:
            w, n, m, bad = self.executor.result(f)
            if bad:
                raise UserError(
                    f"{self.cc.source}: the seat holding {self.target.label} changed with the "
                    "bots (roles chosen by the bots?); challenge needs roles dealt at random "
                    "or fixed"
                )
            wins, rows, played = wins + w, rows + n, played + len(m)
        return wins, rows, played


# ---------------------------------------------------------------------------------------------
# The search of one target


def _rungs(cc: ChallengeConfig) -> list[int]:
    rungs, n = [], cc.min_games
    while n < cc.max_games:
        rungs.append(n)
        n *= 2
    return [*rungs, cc.max_games]


def _study(cc: ChallengeConfig, weak: bool):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=cc.seed % 2**32, n_startup_trials=6)
    return optuna.create_study(direction="maximize" if weak else "minimize", sampler=sampler)


def default_values(cc: ChallengeConfig, knobs: list[Knob], seats) -> dict | None:
    """The knob values the config's bots play (None where seats disagree or out of range)."""
    decl = get_game(cc.game)
    values = {}
    for k in knobs:
        seen = set()
        for s in seats:
            spec = cc.setup.bots[s]
            if spec.name == k.bot:
                seen.add(decl.bot(k.bot).params.resolve(cc.players, dict(spec.params))[k.param])
        if len(seen) != 1:
            return None
        (v,) = seen
        if not k.low <= v <= k.high:
            return None
        values[k.name] = int(v) if k.integer else float(v)
    return values


def _clearly_worse(weak: bool, row: dict, best: dict | None) -> bool:
    if best is None:
        return False
    return row["high"] < best["low"] if weak else row["low"] > best["high"]


def _reaches_fair(cc: ChallengeConfig, weak: bool, row: dict) -> bool:
    return row["low"] >= cc.fair if weak else row["high"] <= cc.fair


def _best(rows: list[dict], weak: bool) -> dict | None:
    full = [r for r in rows if not r["pruned"] and r["repeat_of"] is None and r["rows"] > 0]
    if not full:
        return None
    return max(full, key=lambda r: (r["rate"] if weak else -r["rate"], -r["trial"]))


def _score(row: dict, wins: float, rows: int) -> dict:
    lo, hi = wilson(wins, rows) if rows else (0.0, 1.0)
    return row | {"wins": wins, "rows": rows, "rate": wins / rows if rows else 0.0,
                  "low": lo, "high": hi}  # fmt: skip


def search_target(cc, target: Target, out: Path, executor, done: list[dict], tick) -> list[dict]:
    """Run (or continue from ``done``) the search of one target; return its trial rows."""
    ev = Evaluator(cc, target, executor, weak=True)
    deals_path = out / DEALS / f"{target.text}.npy"
    rows = list(done)
    spent = sum(r["games_total"] for r in rows)
    if not rows:  # trial 0: the config as written; records each game's target seats
        wins, n, masks, games = ev.default(0, cc.max_games)
        rate = wins / n if n else 0.0
        weak = rate <= cc.fair
        row = _score({"target": target.text, "trial": 0, "direction": _dir(weak),
                      "values": "default", "suggested": None, "pruned": False,
                      "reached": False, "repeat_of": None, "games": cc.max_games,
                      "games_total": games}, wins, n)  # fmt: skip
        deals_path.parent.mkdir(exist_ok=True)
        np.save(deals_path, masks)
        spent += games
        row["games_spent"] = spent
        rows.append(row)
        tick(target, row, games)
        _flush(out, target, rows)
    if not deals_path.is_file():
        raise UserError(f"{deals_path}: missing; start a new --out")
    ev.deals = np.load(deals_path)
    default_row = rows[0]
    weak = default_row["direction"] == "weak"
    ev.weak = weak
    if default_row["rows"] == 0:
        raise UserError(f"{cc.source}: {target.label} is never in play in this config")
    if abs(default_row["rate"] - cc.fair) <= cc.margin and target.flagged_only:
        return rows
    knobs = knobs_for(cc, target, weak)
    if not knobs:
        return rows
    seats = tuned_seats(cc, target, weak)
    study = _study(cc, weak)
    dists = {k.name: k.distribution() for k in knobs}
    defaults = default_values(cc, knobs, seats)
    if defaults is not None:
        import optuna

        study.add_trial(
            optuna.trial.create_trial(params=defaults, distributions=dists,
                                      value=default_row["rate"])
        )  # fmt: skip
    for row in rows[1:]:  # replay: the seeded sampler proposes the same values again
        trial = study.ask(dists)
        if json.dumps(trial.params, sort_keys=True) != row["suggested"]:
            raise UserError(
                f"{out / TRIALS}: the search no longer replays (code or config changed)"
            )
        study.tell(trial, row["rate"])
    seen = {r["values"]: r for r in rows if r["repeat_of"] is None}
    while len(rows) < cc.max_trials and spent < cc.budget_games:
        if any(r["reached"] for r in rows):
            break
        trial = study.ask(dists)
        values = {k.name: trial.params[k.name] for k in knobs}
        key = json.dumps(values, sort_keys=True)
        base = {"target": target.text, "trial": len(rows), "direction": _dir(weak),
                "suggested": json.dumps(trial.params, sort_keys=True)}  # fmt: skip
        if key in seen:
            row = dict(seen[key]) | base | {"repeat_of": seen[key]["trial"], "games_total": 0}
            games = 0
        else:
            row, games = _race(cc, ev, weak, values, _best(rows, weak), cc.budget_games - spent)
            row |= base | {"values": key, "repeat_of": None}
            seen[key] = row
        spent += games
        row["games_spent"] = spent
        study.tell(trial, row["rate"])
        rows.append(row)
        _flush(out, target, rows)
        tick(target, row, games)
    return rows


def _dir(weak: bool) -> str:
    return "weak" if weak else "strong"


def _race(cc, ev: Evaluator, weak: bool, values: dict, best, budget_left) -> tuple[dict, int]:
    wins, rows, played, games, row = 0.0, 0, 0, 0, {}
    pruned = reached = False
    for n in _rungs(cc):
        if row and n - played > budget_left:
            break
        w, r, g = ev.candidate(values, played, n)
        wins, rows, games, budget_left = wins + w, rows + r, games + g, budget_left - g
        played = n
        row = _score({}, wins, rows)
        if _reaches_fair(cc, weak, row):
            reached = True
            break
        if _clearly_worse(weak, row, best):
            pruned = n < cc.max_games
            break
    row |= {"pruned": pruned, "reached": reached, "games": played, "games_total": games}
    return row, games


# ---------------------------------------------------------------------------------------------
# Trials table


def _flush(out: Path, target: Target, rows: list[dict]) -> None:
    """Write every target's rows (those of other targets as last read)."""
    table = read_trials(out)
    others = [] if table is None else [r for r in table.iter_rows(named=True)
                                       if r["target"] != target.text]  # fmt: skip
    frame = pl.DataFrame([*others, *rows], schema=_SCHEMA)
    tmp = out / f".{TRIALS}.tmp"
    frame.write_parquet(tmp)
    os.replace(tmp, out / TRIALS)


_SCHEMA = {
    "target": pl.String,
    "trial": pl.Int64,
    "direction": pl.String,
    "values": pl.String,
    "suggested": pl.String,
    "wins": pl.Float64,
    "rows": pl.Int64,
    "rate": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "pruned": pl.Boolean,
    "reached": pl.Boolean,
    "repeat_of": pl.Int64,
    "games": pl.Int64,
    "games_total": pl.Int64,
    "games_spent": pl.Int64,
}


# ---------------------------------------------------------------------------------------------
# Confirmation and verdict


def _bots_text(setup: Setup) -> str:
    return ",".join(str(b) for b in setup.bots)


def confirm(cc, target: Target, best: dict, masks: list[int], weak: bool, out: Path, options):
    """The confirmation run: default and tuned placements, paired, on fresh seeds."""
    from experiments.runner import run as run_experiment

    values = json.loads(best["values"]) if best["values"] != "default" else None
    default_text = _bots_text(cc.setup)
    bots = [default_text]
    placements = []
    if values is not None:
        for mask in masks:
            text = _bots_text(placed_setup(cc, mask, values, weak))
            if text not in bots:
                bots.append(text)
            placements.append((mask, bots.index(text)))
    raw = copy.deepcopy(cc.base)
    raw |= {"seed": confirm_seed(cc.seed), "games": cc.confirm_games, "paired": True,
            "bots": bots if len(bots) > 1 else default_text}  # fmt: skip
    raw["name"] = f"{raw.get('name', 'challenge')}-confirm"
    raw.pop("target_ci", None)
    raw.pop("chunk_games", None)
    if cc.source != "<config>":
        raw = absolute_files(raw, Path(cc.source).parent)
    run_experiment(raw, out, resume=out.exists(), **options)
    players = pl.read_parquet(out / "players", columns=["variant", "game", "seat", target.column,
                                                        "win"])  # fmt: skip
    hit = (pl.col(target.column) == target.value).fill_null(False)
    per = (
        players.with_columns(hit.alias("_hit"))
        .group_by("variant", "game")
        .agg(
            (pl.col("_hit").cast(pl.Int64) * (2 ** pl.col("seat").cast(pl.Int64))).sum().alias("m"),
            (pl.col("win") * pl.col("_hit")).sum().alias("w"),
            pl.col("_hit").sum().alias("n"),
        )
        .sort("variant", "game")
    )
    by = {v: f for (v,), f in per.partition_by("variant", as_dict=True).items()}
    base = by["v0"]
    for vid, frame in by.items():
        if not np.array_equal(frame["m"].to_numpy(), base["m"].to_numpy()):
            raise UserError(f"{out}: variant {vid} dealt {target.label} to other seats than v0")
    default = _rate(float(base["w"].sum()), int(base["n"].sum()))
    if values is None:
        return default, default, 0
    wins, n, unplaced = 0.0, 0, 0
    known = dict(placements)
    for mask in sorted({int(m) for m in base["m"].to_list() if m}):
        games = base.filter(pl.col("m") == mask)["game"]
        if mask not in known:
            unplaced += len(games)
            continue
        frame = by[f"v{known[mask]}"].filter(pl.col("game").is_in(games.implode()))
        wins, n = wins + float(frame["w"].sum()), n + int(frame["n"].sum())
    return default, _rate(wins, n), unplaced


def _rate(wins: float, n: int) -> dict:
    lo, hi = wilson(wins, n) if n else (0.0, 1.0)
    return {"rate": wins / n if n else 0.0, "low": lo, "high": hi, "n": n}


def _pct(r: dict) -> str:
    return f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"


def verdict(cc: ChallengeConfig, target: Target, weak: bool, default: dict, tuned: dict) -> tuple:
    """(holds: bool, sentence) by the rule of the module doc."""
    who = target.label[0].upper() + target.label[1:]
    fair = f"a fair {cc.fair:.0%}"
    if weak:
        falls = tuned["high"] >= cc.fair - cc.margin
        if falls:
            return False, (
                f"a tuned player of {target.label} reaches {_pct(tuned)} (default "
                f"{default['rate']:.1%}, {fair}): the finding is the bot's, not the game's"
            )
        return True, (
            f"holds against a tuned player: {who} reaches {_pct(tuned)} at best (default "
            f"{default['rate']:.1%}, {fair})"
            + _share(cc, default, tuned, tuned["low"] > default["high"])
        )
    falls = tuned["low"] <= cc.fair + cc.margin
    if falls:
        return False, (
            f"tuned opponents bring {target.label} down to {_pct(tuned)} (default "
            f"{default['rate']:.1%}, {fair}): the finding is the bot's, not the game's"
        )
    return True, (
        f"holds against tuned opponents: {who} still wins {_pct(tuned)} at worst (default "
        f"{default['rate']:.1%}, {fair})"
        + _share(cc, default, tuned, tuned["high"] < default["low"])
    )


def _share(cc: ChallengeConfig, default: dict, tuned: dict, clear: bool) -> str:
    """A finding that holds but moved clearly: how much of the gap to fair the bot explains."""
    gap, closed = abs(cc.fair - default["rate"]), abs(tuned["rate"] - default["rate"])
    if not clear or gap == 0:
        return ""
    return (
        f"; the bot explains {100 * closed:.1f} of the {100 * gap:.1f} points to fair "
        f"({closed / gap:.0%})"
    )


def moved(cc: ChallengeConfig, knobs: list[Knob], values: dict | None, seats) -> dict:
    """Knobs whose tuned value differs from the config's: name -> {default, tuned, change}."""
    if not values:
        return {}
    defaults = default_values(cc, knobs, seats) or {}
    decl = get_game(cc.game)
    out = {}
    for k in knobs:
        d = defaults.get(k.name)
        if d is None:
            d = decl.bot(k.bot).params.get(k.param).default_for(cc.players)
        v = values[k.name]
        if v != d:
            out[k.name] = {"default": d, "tuned": v, "change": v - d,
                           "of_range": abs(v - d) / (k.high - k.low)}  # fmt: skip
    return out


# ---------------------------------------------------------------------------------------------
# The command


def challenge(
    config,
    out=None,
    *,
    target: str | None = None,
    all_targets: bool = False,
    jobs: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    resume: bool = False,
    progress: bool | None = None,
) -> Path:
    """Challenge one target (``target``) or every one (``all_targets``); return the folder.

    The folder holds ``challenge.json``, ``trials.parquet`` and ``confirm/`` (runs)."""
    from experiments.backends import make_backend
    from experiments.progress import Progress

    if (target is None) == (not all_targets):
        raise UserError("give --target ROLE or --all (one of them)")
    cc = load_challenge(config)
    targets = every_target(cc) if all_targets else [parse_target(cc, target)]
    targets = [replace(t, flagged_only=all_targets) for t in targets]
    name = cc.base.get("name") or Path(str(config)).stem or "challenge"
    out = Path(out) if out is not None else Path("runs") / f"{name}-challenge"
    lock = _prepare(cc, out, resume, [t.text for t in targets])
    start = time.perf_counter()
    options = {"jobs": jobs, "backend": backend, "scheduler": scheduler, "progress": progress}
    bar = Progress(cc.budget_games * len(targets), 0, enabled=progress)
    try:
        table = read_trials(out)
        results = {}

        def tick(t, row, games):
            bar.advance(games)
            bar.note(f"{t.text}: trial {row['trial']}, rate {row['rate']:.1%}")
            if bar.bar is None:
                shown = f"{row['rate']:.1%} [{row['low']:.1%}, {row['high']:.1%}]"
                bar.line(f"{t.text}: trial {row['trial']}, {shown}, {row['games_spent']:,} games")

        with make_backend(backend, jobs, scheduler) as executor:
            per_target = {}
            for t in targets:
                done = [] if table is None else [
                    r for r in table.sort("trial").iter_rows(named=True) if r["target"] == t.text
                ]  # fmt: skip
                per_target[t.text] = search_target(cc, t, out, executor, done, tick)
        bar.close()
        for t in targets:
            results[t.text] = _conclude(cc, t, per_target[t.text], out, all_targets, options)
        spent = sum(r["games_total"] for rows in per_target.values() for r in rows)
        record = {
            "config": cc.source,
            "game": cc.game,
            "players": cc.players,
            "fair": cc.fair,
            "margin": cc.margin,
            "targets": results,
            "games_search": spent,
            "games_confirm": sum(r.get("confirm_games_played", 0) for r in results.values()),
            "seconds": round(time.perf_counter() - start, 1),
        }
        write_json(out / RESULT, record)
        state = json.loads((out / STATE).read_text())
        write_json(out / STATE, state | {"status": "complete"})
    finally:
        bar.close()
        os.close(lock)
    return out


def _conclude(cc, t, rows, out: Path, many: bool, options) -> dict:
    default_row = rows[0]
    weak = default_row["direction"] == "weak"
    base = {"target": t.text, "direction": default_row["direction"],
            "search_default": _rate(default_row["wins"], default_row["rows"]),
            "trials": len(rows), "games": sum(r["games_total"] for r in rows)}  # fmt: skip
    if t.flagged_only and abs(default_row["rate"] - cc.fair) <= cc.margin:
        return base | {
            "verdict": f"not flagged: {t.label} wins {_pct(base['search_default'])} by default, "
            f"within {cc.margin:.0%} of a fair {cc.fair:.0%}; not challenged",
            "holds": None,
        }
    knobs = knobs_for(cc, t, weak)
    best = _best(rows, weak) or default_row
    if best["trial"] == 0 and len(rows) > 1:
        best = default_row
    masks = sorted({int(m) for m in np.load(out / DEALS / f"{t.text}.npy") if m})
    where = out / CONFIRM / t.text if many else out / CONFIRM
    default, tuned, unplaced = confirm(cc, t, best, masks, weak, where, options)
    holds, sentence = verdict(cc, t, weak, default, tuned)
    values = json.loads(best["values"]) if best["values"] != "default" else None
    changes = moved(cc, knobs, values, tuned_seats(cc, t, weak))
    if changes:
        sentence += "; moved: " + ", ".join(  # 3 significant digits, as the report's table
            f"{k} {v['default']:g} -> {v['tuned']:.3g}" for k, v in changes.items()
        )
    elif not knobs:
        sentence += "; no bot parameter to tune"
    edges = [k for k in knobs if values and k.at_narrowed_edge(values[k.name])]
    if edges:
        sentence += "; at the edge of its tuned range (widen it in [challenge.ranges]): " + (
            ", ".join(f"{k.name} [{k.low:g}, {k.high:g}]" for k in edges)
        )
    manifest = json.loads((where / "manifest.json").read_text())
    played = sum(v["games_done"] for v in manifest["variants"])
    return base | {
        "verdict": sentence,
        "holds": holds,
        "default": default,
        "tuned": tuned,
        "best_trial": best["trial"],
        "tuned_parameters": values or {},
        "moved": changes,
        "knobs": {k.name: [k.low, k.high] for k in knobs},
        "at_range_edge": [k.name for k in edges],
        "confirm": str(where),
        "confirm_games": cc.confirm_games,
        "confirm_games_played": played,
        "confirm_unplaced_games": unplaced,
    }


def _prepare(cc: ChallengeConfig, out: Path, resume: bool, targets: list[str]) -> int:
    """Create (or reopen, with ``resume``) the challenge folder and lock it; return the lock."""
    state = {"config": cc.raw, "source": cc.source, "targets": targets, "status": "running"}
    return open_folder(
        out, STATE, state, resume, "challenge",
        same=lambda old: old.get("config") == json.loads(json.dumps(cc.raw))
        and old.get("targets") == targets,
        differs=f"{cc.source}: differs from the challenge in {out} (config or targets)",
    )  # fmt: skip
