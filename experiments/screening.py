"""`menhir screen`: which of a game's numbers move its balance at all, which most, which together.

A screen config is an ordinary experiment config (one setup: no sweep) plus a ``[screen]``
table::

    [screen]
    levers = ["roles.*.rp_as_vp", "roles.*.movement", "romans_in_play"]  # default: see below
    exclude = ["map"]             # patterns left out of the levers (safety caps always are)
    band = 0.5                    # default range: the printed value +-50%
    outputs = ["wins", "seats", "spread", "rounds", "shared_defeat"]  # default: all that apply
    games = 1000                  # games per point (common random numbers: the same deals)
    trajectories = 10             # Morris trajectories (r)
    levels = 4                    # Morris grid levels (p)
    sobol_top = 6                 # levers kept for stage 2 (the most important, not inert)
    sobol_n = 64                  # Saltelli base sample N (a power of 2)
    [screen.ranges]               # [low, high] of a lever (or of a pattern's levers)
    "roles.trusted.rp_as_vp" = [0, 4]
    "roles.*.movement" = [0.5, 1.5]   # a list value: the factor its numbers are scaled by

Levers. A name is a declared parameter, a data path, or a pattern where ``*`` stands for one
path segment; a pattern also takes everything under what it names (``"roles.*"`` is every
number of every role card). Only numbers are levers: integers, reals, and lists of numbers
(scaled as a whole, so their shape and order stay, integers rounded half up); a list of zeros is
left out (scaling cannot move it). The default is every numeric data value of the game except
the engine's safety caps (keys containing ``safety_cap``).

Ranges. The default band is the printed value v times [1 - band, 1 + band]; an integer moves
at least 1 either way (v = 1 gives [0, 2]); a value at 0 gets [0, 1]; a value that is not
negative stays so; a declared parameter stays in its declared bounds. Each end is then tried
alone (the other levers printed) through the normal config path and one game: an end the game
refuses is pulled toward the printed value (bisection) to the farthest value it accepts, and
the screen says so in one line per lever; a lever the game lets move nowhere is dropped. Every
point of the design is checked the same way before any game is played.

Stage 1 (Morris, SALib): ``trajectories`` x (levers + 1) points on a ``levels`` grid of each
range, every point played with the experiment's seed and games 0 .. games - 1 (common random
numbers: an inert lever changes no game at all). Per lever and output: mu* (the mean absolute
elementary effect: the change of the output over a whole range), sigma and SALib's bootstrap
95% interval of mu*. The noise of an output at ``games`` per point is its standard error s
(a win rate: sqrt(p(1-p)/n) with n the games the role or seat was in; the spread: sqrt(2) times
the largest of its rates'; game length: the rounds' standard deviation / sqrt(games)); the
elementary effects of independent noise alone average f = 2 s / (sqrt(pi) delta), delta the
grid step (2/3 at 4 levels). Rule: a lever is inert for an output when mu* minus its interval
is at most f, and inert when it is inert for every output.

Stage 2 (Sobol, SALib's Saltelli scheme) on the ``sobol_top`` most important levers that are not
inert (importance: the largest over outputs of (mu* - its interval) / the noise floor, i.e. how
clearly its effect stands out of the noise), the others held at their printed values: N (2k + 2)
points; first-order S1, total ST and second-order S2 with bootstrap 95% intervals. A lever
interacts when its gap ST - S1 is at least 0.1 and its bootstrap 95% interval (from the same
resamples as S1 and ST) excludes 0; a pair interacts when S2 minus its interval is above 0 and
S2 >= 0.05.

Outputs in OUT: ``screen.parquet`` (every point: stage, point, ``lever:NAME`` values, a list
lever as its factor, and the outputs), ``morris.csv``, ``sobol.csv``, ``screen.json`` (state and
summary) and ``report/`` (screen.md, screen.html). ``--resume`` replays the same designs and plays
only the points missing from screen.parquet; the results do not depend on jobs or backend.
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from experiments.config import UserError, fail, parse_config
from experiments.sweep import expand
from experiments.workdir import config_source, open_folder, write_json
from sim.core.registry import GAME_MODULES, get_game

SCREEN_KEYS = (
    "levers",
    "exclude",
    "band",
    "ranges",
    "outputs",
    "games",
    "trajectories",
    "levels",
    "sobol_top",
    "sobol_n",
)
OUTPUT_GROUPS = ("wins", "seats", "spread", "rounds", "shared_defeat")
POINTS = "screen.parquet"
STATE = "screen.json"
MORRIS = "morris.csv"
SOBOL = "sobol.csv"
SAFETY = "safety_cap"
RESAMPLES = 1000
Z95 = 1.959963984540054
INTERACT_GAP = 0.1
PAIR_MIN = 0.05


# ---------------------------------------------------------------------------------------------
# Levers


@dataclass(frozen=True, eq=False)  # keyed by identity (a printed list is unhashable)
class ScreenLever:
    """A lever with its range; ``kind`` is int, float or scale (a list times a factor)."""

    name: str
    section: str  # "params" | "data"
    printed: Any
    kind: str
    low: float
    high: float
    integer_items: bool = False  # scale: the list holds integers
    note: str = ""  # how its range was clipped, if it was

    @property
    def centre(self) -> float:
        return 1.0 if self.kind == "scale" else float(self.printed)

    def number(self, u: float) -> float:
        """The lever's number at ``u`` in [0, 1] (an int lever: equal shares of the integers)."""
        if self.kind == "int":
            lo, hi = int(self.low), int(self.high)
            return float(lo + min(math.floor(u * (hi - lo + 1)), hi - lo))
        return self.low + u * (self.high - self.low)

    def value(self, number: float) -> Any:
        """The setting the game is given for the lever's number."""
        if self.kind == "int":
            return int(number)
        if self.kind == "float":
            return float(number)
        return _scaled(self.printed, number, self.integer_items)

    def shown(self) -> str:
        if self.kind == "scale":
            return f"x[{_fmt(self.low)}, {_fmt(self.high)}] of {json.dumps(self.printed)}"
        return f"[{_fmt(self.low)}, {_fmt(self.high)}] (printed {_fmt(self.printed)})"


def _fmt(x) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _half_up(x: float) -> int:
    return int(math.floor(x + 0.5))


def _scaled(value, factor: float, integer: bool):
    if isinstance(value, list):
        return [_scaled(v, factor, integer) for v in value]
    return _half_up(value * factor) if integer else float(value * factor)


def _is_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _numbers(value) -> list | None:
    """The numbers of a (nested) list of numbers, or None when it is not one."""
    if isinstance(value, list):
        out = []
        for v in value:
            got = _numbers(v) if isinstance(v, list) else ([v] if _is_number(v) else None)
            if got is None:
                return None
            out += got
        return out
    return None


def pattern_regex(pattern: str) -> re.Pattern:
    """``*`` is one path segment; the pattern also matches everything under what it names."""
    body = "[^.]+".join(re.escape(part) for part in pattern.split("*"))
    return re.compile(rf"{body}(\..+)?")


@dataclass(frozen=True)
class ScreenConfig:
    source: str
    raw: dict
    base: dict  # the config without [screen]
    game: str
    players: int
    bots: str
    seed: int
    levers: tuple[ScreenLever, ...]
    outputs: tuple[str, ...]
    games: int
    trajectories: int
    levels: int
    sobol_top: int
    sobol_n: int
    notes: tuple[str, ...]  # clipped and dropped levers, one line each
    candidates: int  # numbers the lever names covered before any was dropped


def load_screen(
    config: str | Path | dict, check: bool = True, progress: bool | None = False
) -> ScreenConfig:
    """Read and check a screen config; every problem is a one-line ConfigError.

    ``check`` tries each range's ends through the game (clipping them); without it the ranges
    are the bands as written (quick, for listing).
    """
    source, raw, stem = config_source(config)
    table = raw.get("screen", {})
    if not isinstance(table, dict):
        raise fail(source, "screen", "a [screen] table")
    base = {k: v for k, v in raw.items() if k != "screen"}
    cfg = parse_config(base, source, default_name=stem)
    for key in table:
        if key not in SCREEN_KEYS:
            raise fail(source, f"screen.{key}", f"unknown key; allowed: {', '.join(SCREEN_KEYS)}")
    variants = expand(cfg)
    if len(variants) != 1:
        raise fail(
            source, cfg.axes[0], "a screen plays one setup: give one value (no sweep), and "
            "screen each setting in its own config"
        )  # fmt: skip
    setup = variants[0].setup
    decl = get_game(cfg.game)
    games = _int(source, "games", table.get("games", 1000), 10, 10**8)
    trajectories = _int(source, "trajectories", table.get("trajectories", 10), 2, 10_000)
    levels = _int(source, "levels", table.get("levels", 4), 2, 100)
    if levels % 2:
        raise fail(source, "screen.levels", f"{levels} is not allowed: an even number (Morris)")
    sobol_top = _int(source, "sobol_top", table.get("sobol_top", 6), 0, 50)
    sobol_n = _int(source, "sobol_n", table.get("sobol_n", 64), 2, 2**20)
    if sobol_n & (sobol_n - 1):
        raise fail(source, "screen.sobol_n", f"{sobol_n} is not allowed: a power of 2")
    band = table.get("band", 0.5)
    if not _is_number(band) or not 0 < band <= 1:
        raise fail(source, "screen.band", f"{band!r} is not allowed: a number in (0, 1]")
    outputs = _outputs(source, decl, setup, table.get("outputs"))
    names, candidates, skipped = _lever_names(source, cfg, decl, table)
    ranges = table.get("ranges", {})
    if not isinstance(ranges, dict):
        raise fail(source, "screen.ranges", "a table: lever or pattern = [low, high]")
    used_ranges: set[str] = set()
    levers, notes, zeros = [], list(skipped), []
    probe = _Prober(base, source, cfg.seed) if check else None
    if check:  # the probes play: say so when the game's kernels compile first
        from experiments.compile_notice import announce

        announce(cfg.game, [setup], progress)
    for name, section, printed in names:
        spec, key = _range_for(name, ranges)
        if key is not None:
            used_ranges.add(key)
        lever = _lever(source, decl, setup, name, section, printed, band, spec, key)
        if lever is None:
            zeros.append(name)
            continue
        if probe is not None:
            lever = probe.clip(lever)
            if lever.note:
                notes.append(f"{name}: {lever.note}")
            if lever.low >= lever.high:
                continue
        levers.append(lever)
    if zeros:
        notes.append(
            f"{len(zeros)} lists of zeros left out (scaling cannot move them): {', '.join(zeros)}"
        )
    for key in ranges:
        if key not in used_ranges:
            raise fail(source, f"screen.ranges.{key}", "names no lever of the screen")
    if not levers:
        raise fail(source, "screen.levers", "no lever left to screen (each was refused or inert)")
    return ScreenConfig(
        source, raw, base, cfg.game, setup.players, str(cfg.bots), cfg.seed, tuple(levers),
        outputs, games, trajectories, levels, sobol_top, sobol_n, tuple(notes), candidates,
    )  # fmt: skip


def _int(source, key, value, low, high) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise fail(
            source, f"screen.{key}", f"{value!r} is not allowed: an integer in [{low}, {high}]"
        )
    return value


def role_outputs(decl, setup) -> list[str]:
    if not decl.roles:
        return []
    held = decl.roles if isinstance(setup.roles, str) else tuple(dict.fromkeys(setup.roles))
    return [f"win:{r}" for r in held]


def _outputs(source, decl, setup, value) -> tuple[str, ...]:
    wins = role_outputs(decl, setup)
    seats = [f"seat:{i}" for i in range(setup.players)]
    groups = {
        "wins": wins,
        "seats": seats,
        "spread": ["spread"],
        "rounds": ["rounds"],
        "shared_defeat": ["shared_defeat"] if decl.no_winner_reasons else [],
    }
    if value is None:
        return tuple(o for g in OUTPUT_GROUPS for o in groups[g])
    allowed = [*OUTPUT_GROUPS, *wins, *seats]
    if not isinstance(value, list) or not value:
        raise fail(source, "screen.outputs", f"a list of: {', '.join(allowed)}")
    out: list[str] = []
    for v in value:
        if v == "shared_defeat" and not decl.no_winner_reasons:
            raise fail(source, "screen.outputs", f"{decl.id} has no shared defeat to measure")
        if v == "wins" and not wins:
            raise fail(source, "screen.outputs", f"{decl.id} has no {decl.role_label}s; use seats")
        if v not in allowed:
            raise fail(
                source, "screen.outputs", f"{v!r} is not allowed: one of {', '.join(allowed)}"
            )
        out += [o for o in groups.get(v, [v]) if o not in out]
    return tuple(out)


def _numeric(value) -> bool:
    if _is_number(value):
        return True
    nums = _numbers(value)
    return bool(nums)


def _lever_names(source, cfg, decl, table) -> tuple[list[tuple[str, str, Any]], int, list[str]]:
    """(name, section, printed) of every lever the config names, in the data file's order."""
    names = table.get("levers")
    exclude = table.get("exclude", [])
    for key, v in (("levers", names), ("exclude", exclude)):
        if v is not None and (not isinstance(v, list) or not all(isinstance(x, str) for x in v)):
            raise fail(source, f"screen.{key}", "a list of names or patterns (strings)")
    params = set(decl.params.names())
    paths = [] if decl.data is None else decl.data.paths()
    numeric = [(p.path, p.value) for p in paths if _numeric(p.value) and SAFETY not in p.path]
    if names is None:
        if not numeric:
            raise fail(source, "screen.levers", f"{decl.id} has no data numbers: name the levers")
        chosen = [(p, "data", v) for p, v in numeric]
    else:
        chosen, seen = [], set()
        for name in names:
            where = f"screen.levers ({name!r})"
            if name in params:
                got = [(name, "params", decl.params.get(name).default_for(cfg.players))]
            else:
                rx = pattern_regex(name)
                got = [(p, "data", v) for p, v in numeric if rx.fullmatch(p)]
                if not got:
                    raise fail(
                        source, where, f"matches no numeric parameter or data path of "
                        f"{decl.id} (menhir games {decl.id} --data)",
                    )  # fmt: skip
            chosen += [g for g in got if g[0] not in seen]
            seen |= {g[0] for g in got}
    rxs = [pattern_regex(x) for x in exclude]
    chosen = [c for c in chosen if not any(rx.fullmatch(c[0]) for rx in rxs)]
    for name, _, _ in chosen:
        if name in cfg.params or name in cfg.data:
            raise fail(source, f"screen.levers ({name!r})", "also set in the config's tables")
    notes = []
    for name, section, printed in chosen:
        if section == "params" and (
            decl.params.get(name).kind not in ("int", "float") or not _is_number(printed)
        ):
            raise fail(source, f"screen.levers ({name!r})", "not a numeric parameter")
    return chosen, len(chosen), notes


def _range_for(name: str, ranges: dict) -> tuple[Any, str | None]:
    if name in ranges:
        return ranges[name], name
    for key, spec in ranges.items():
        if pattern_regex(key).fullmatch(name):
            return spec, key
    return None, None


def _lever(source, decl, setup, name, section, printed, band, spec, key) -> ScreenLever | None:
    if section == "params":
        param = decl.params.get(name)
        printed = setup.params.get(name, printed)
        kind, bounds = param.kind, (param.low, param.high)
    elif isinstance(printed, list):
        nums = _numbers(printed)
        if all(x == 0 for x in nums):
            return None
        integer = all(isinstance(x, int) for x in nums)
        kind, bounds = "scale", (0.0, None)
    else:
        kind, bounds = ("int" if isinstance(printed, int) else "float"), (None, None)
    if spec is not None:
        where = f"screen.ranges.{key}"
        if not (isinstance(spec, list) and len(spec) == 2 and all(map(_is_number, spec))):
            raise fail(source, where, "[low, high] (a list value: the factors it is scaled by)")
        low, high = spec
        if not low < high:
            raise fail(source, where, f"[low, high] with low < high, got {spec}")
        if kind == "int" and not all(isinstance(v, int) for v in spec):
            raise fail(source, where, f"{name} is an integer: integer ends, got {spec}")
        if kind == "scale" and low < 0:
            raise fail(source, where, "factors of a list are not negative")
    elif kind == "scale":
        low, high = 1 - band, 1 + band
    elif kind == "int":
        step = max(1, math.ceil(band * abs(printed)))
        low, high = printed - step, printed + step
        if printed >= 0:
            low = max(0, low)
    elif printed == 0:
        low, high = 0.0, 1.0
    else:
        low, high = sorted((printed * (1 - band), printed * (1 + band)))
    if bounds[0] is not None:
        low = max(low, bounds[0])
    if bounds[1] is not None:
        high = min(high, bounds[1])
    if kind == "int":
        low, high = int(math.ceil(low)), int(math.floor(high))
    else:
        low, high = float(low), float(high)
    integer_items = kind == "scale" and integer
    return ScreenLever(name, section, printed, kind, low, high, integer_items)


class _Prober:
    """Tries lever settings through the normal config path (and one game)."""

    def __init__(self, base: dict, source: str, seed: int):
        self.base, self.source, self.seed = base, source, seed

    def refusal(self, lever: ScreenLever, number: float) -> str | None:
        try:
            setup = point_setup(self.base, self.source, {lever: number})
            from sim.core.batch import play_batch

            play_batch(setup, [0], self.seed, 0)
        except ValueError as exc:
            return str(exc).splitlines()[0]
        return None

    def clip(self, lever: ScreenLever) -> ScreenLever:
        ends, why = {}, []
        for end in ("low", "high"):
            target = getattr(lever, end)
            reason = self.refusal(lever, target)
            if reason is None:
                ends[end] = target
                continue
            why.append(reason)
            ends[end] = self._farthest(lever, lever.centre, target)
        if not why:
            return lever
        low, high = ends["low"], ends["high"]
        if low >= high:  # (an end pulled back past the other when the printed value is outside)
            low = high = lever.centre
            note = f"left out: the game refuses its range's ends ({why[0]})"
        else:
            note = f"range clipped to [{_fmt(low)}, {_fmt(high)}] ({why[0]})"
        return ScreenLever(
            lever.name, lever.section, lever.printed, lever.kind, low, high,
            lever.integer_items, note,
        )  # fmt: skip

    def _farthest(self, lever: ScreenLever, good: float, bad: float) -> float:
        """The allowed number farthest from the printed one toward ``bad`` (bisection)."""
        for _ in range(40 if lever.kind == "int" else 10):
            if lever.kind == "int" and abs(bad - good) <= 1:
                break
            mid = (good + bad) / 2
            if lever.kind == "int":
                mid = math.floor(mid) if bad > good else math.ceil(mid)
            if self.refusal(lever, mid) is None:
                good = mid
            else:
                bad = mid
        return int(good) if lever.kind == "int" else float(good)


def point_setup(base: dict, source: str, numbers: dict[ScreenLever, float]):
    """The validated setup of one point (a refusal is a ValueError naming the setting)."""
    raw = copy.deepcopy(base)
    for lever, number in numbers.items():
        raw.setdefault(lever.section, {})[lever.name] = lever.value(number)
    return expand(parse_config(raw, source, default_name="screen"))[0].setup


# ---------------------------------------------------------------------------------------------
# Designs


def problem(levers) -> dict:
    return {
        "num_vars": len(levers),
        "names": [lv.name for lv in levers],
        "bounds": [[0, 1]] * len(levers),
    }


def morris_design(sc: ScreenConfig) -> np.ndarray:
    """The Morris trajectories in [0, 1] (seeded by the experiment's seed)."""
    from SALib.sample import morris

    return morris.sample(
        problem(sc.levers), sc.trajectories, num_levels=sc.levels, seed=sc.seed % 2**32
    )


def sobol_design(sc: ScreenConfig, top: list[ScreenLever]) -> np.ndarray:
    from SALib.sample import sobol

    return sobol.sample(
        problem(top), sc.sobol_n, calc_second_order=len(top) > 1, seed=sc.seed % 2**32
    )


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


# ---------------------------------------------------------------------------------------------
# Playing points


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


# ---------------------------------------------------------------------------------------------
# Analysis


def noise_floor(sc: ScreenConfig, frame: pl.DataFrame) -> dict[str, float]:
    """Each output's standard error s at the points' game count, and the Morris floor f."""
    ses = {}
    games = float(frame["games"].mean())
    for name in sc.outputs:
        if name.startswith("win:"):
            p = float(frame[name].mean())
            n = float(frame[f"n:{name[4:]}"].mean())
            ses[name] = math.sqrt(max(p * (1 - p), 0.0) / n) if n else float("nan")
        elif name.startswith("seat:") or name == "shared_defeat":
            p = float(frame[name].mean())
            ses[name] = math.sqrt(max(p * (1 - p), 0.0) / games)
        elif name == "rounds":
            ses[name] = float(frame["rounds_sd"].mean()) / math.sqrt(games)
    group = [o for o in sc.outputs if o.startswith("win:")]
    if "spread" in sc.outputs:
        rates = group or [f"seat:{i}" for i in range(sc.players)]
        worst = 0.0
        for r in rates:
            if r in ses:
                worst = max(worst, ses[r])
            else:
                p = float(frame[r].mean()) if r in frame.columns else 0.5
                worst = max(worst, math.sqrt(p * (1 - p) / games))
        ses["spread"] = math.sqrt(2) * worst
    return ses


def morris_delta(levels: int) -> float:
    return levels / (2 * (levels - 1))


def analyse_morris(sc: ScreenConfig, design: np.ndarray, frame: pl.DataFrame) -> pl.DataFrame:
    """mu*, sigma, the interval of mu*, the noise floor and the inert call, per lever x output."""
    from SALib.analyze import morris

    ses = noise_floor(sc, frame)
    delta = morris_delta(sc.levels)
    rows = []
    for name in sc.outputs:
        y = frame[name].to_numpy().astype(float)
        if not np.all(np.isfinite(y)):
            continue  # a role no game dealt at some point: no effect to measure
        floor = 2 * ses[name] / (math.sqrt(math.pi) * delta)
        res = morris.analyze(
            problem(sc.levers), design, y, num_resamples=RESAMPLES, num_levels=sc.levels,
            seed=sc.seed % 2**32,
        )  # fmt: skip
        mu_star = np.asarray(res["mu_star"], float)
        order = np.argsort(-mu_star, kind="stable")
        rank = np.empty(len(order), int)
        rank[order] = np.arange(1, len(order) + 1)
        for i, lever in enumerate(sc.levers):
            conf = float(np.asarray(res["mu_star_conf"], float)[i])
            rows.append(
                {
                    "output": name,
                    "lever": lever.name,
                    "rank": int(rank[i]),
                    "mu": float(np.asarray(res["mu"], float)[i]),
                    "mu_star": float(mu_star[i]),
                    "mu_star_conf": conf,
                    "sigma": float(res["sigma"][i]),
                    "noise_se": ses[name],
                    "noise_floor": floor,
                    "inert": bool(mu_star[i] - conf <= floor),
                }
            )
    return pl.DataFrame(rows, schema=MORRIS_SCHEMA)


MORRIS_SCHEMA = {
    "output": pl.String, "lever": pl.String, "rank": pl.Int64, "mu": pl.Float64,
    "mu_star": pl.Float64, "mu_star_conf": pl.Float64, "sigma": pl.Float64,
    "noise_se": pl.Float64, "noise_floor": pl.Float64, "inert": pl.Boolean,
}  # fmt: skip


def importance(morris: pl.DataFrame) -> dict[str, float]:
    """Per lever not inert everywhere: the most noise floors its mu* stands clear of, over outputs.

    (mu* - its interval) / the output's noise floor is unit-free, so outputs in different units
    (win rates, rounds) compare; a lever is only as important as its clearest effect.
    """
    clear = morris.filter(~pl.col("inert") & (pl.col("noise_floor") > 0))
    score = clear.group_by("lever").agg(
        ((pl.col("mu_star") - pl.col("mu_star_conf")) / pl.col("noise_floor")).max().alias("s")
    )
    return dict(score.iter_rows())


def top_levers(sc: ScreenConfig, morris: pl.DataFrame) -> list[ScreenLever]:
    score = importance(morris)
    ranked = sorted(
        (lv for lv in sc.levers if lv.name in score), key=lambda lv: (-score[lv.name], lv.name)
    )
    return ranked[: sc.sobol_top]


def moved_outputs(morris: pl.DataFrame) -> list[str]:
    """Outputs some lever moves beyond noise (the others are noise: no Sobol stage for them)."""
    return morris.filter(~pl.col("inert"))["output"].unique(maintain_order=True).to_list()


def analyse_sobol(sc, top, frame: pl.DataFrame, outputs: list[str]) -> pl.DataFrame:
    """S1, ST and S2 with intervals per lever (pair) and output; interacting levers marked."""
    from SALib.analyze import sobol

    rows = []
    second = len(top) > 1
    for name in [o for o in sc.outputs if o in outputs]:
        y = frame[name].to_numpy().astype(float)
        if not np.all(np.isfinite(y)) or np.var(y) == 0:
            continue
        res = sobol.analyze(
            problem(top), y, calc_second_order=second, num_resamples=RESAMPLES,
            seed=sc.seed % 2**32, keep_resamples=True,
        )  # fmt: skip
        for i, lever in enumerate(top):
            s1, s1c = float(res["S1"][i]), float(res["S1_conf"][i])
            st, stc = float(res["ST"][i]), float(res["ST_conf"][i])
            gap = st - s1  # its interval from the same (paired) bootstrap resamples
            gaps = np.asarray(res["ST_conf_all"])[:, i] - np.asarray(res["S1_conf_all"])[:, i]
            gap_conf = float(Z95 * np.std(gaps, ddof=1))
            rows.append(
                {
                    "output": name, "lever": lever.name, "other": None,
                    "S1": s1, "S1_conf": s1c, "ST": st, "ST_conf": stc, "gap": gap,
                    "gap_conf": gap_conf, "S2": None, "S2_conf": None,
                    "interacts": bool(gap >= INTERACT_GAP and gap - gap_conf > 0),
                }
            )  # fmt: skip
        if second:
            for i in range(len(top)):
                for j in range(i + 1, len(top)):
                    s2, s2c = float(res["S2"][i, j]), float(res["S2_conf"][i, j])
                    rows.append(
                        {
                            "output": name, "lever": top[i].name, "other": top[j].name,
                            "S1": None, "S1_conf": None, "ST": None, "ST_conf": None,
                            "gap": None, "gap_conf": None, "S2": s2, "S2_conf": s2c,
                            "interacts": bool(s2 - s2c > 0 and s2 >= PAIR_MIN),
                        }
                    )  # fmt: skip
    return pl.DataFrame(rows, schema=SOBOL_SCHEMA)


SOBOL_SCHEMA = {
    "output": pl.String, "lever": pl.String, "other": pl.String, "S1": pl.Float64,
    "S1_conf": pl.Float64, "ST": pl.Float64, "ST_conf": pl.Float64, "gap": pl.Float64,
    "gap_conf": pl.Float64, "S2": pl.Float64,
    "S2_conf": pl.Float64, "interacts": pl.Boolean,
}  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The command


def default_chunk(games: int) -> int:
    return min(games, 5000)


def screen(
    config,
    out=None,
    *,
    jobs: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    resume: bool = False,
    progress: bool | None = None,
) -> Path:
    """Morris on every lever, Sobol on the top ones, report; return the screen directory."""
    from experiments.backends import make_backend
    from experiments.progress import Progress

    sc = load_screen(config, progress=progress)
    out = Path(out) if out is not None else Path("runs") / f"{sc.base.get('name') or 'screen'}"
    lock = _prepare(sc, out, resume)
    try:
        return _screen(sc, out, jobs, backend, scheduler, progress, Progress, make_backend)
    finally:
        os.close(lock)


def _screen(sc, out, jobs, backend, scheduler, progress, progress_cls, make_backend) -> Path:
    start = time.perf_counter()
    morris_x = morris_design(sc)
    frame = _read_points(out, sc)
    bar = progress_cls(len(morris_x) * sc.games, 0, enabled=progress)
    for note in sc.notes:
        bar.line(f"menhir screen: {note}")
    rows: dict[tuple[str, int], dict] = {}
    if frame is not None:
        for row in frame.iter_rows(named=True):
            rows[(row["stage"], row["point"])] = row
    chunk = sc.base.get("chunk_games") or default_chunk(sc.games)
    try:
        with make_backend(backend, jobs, scheduler) as executor:
            player = Player(sc, executor, chunk, bar.advance)
            morris_frame = _stage(sc, out, player, "morris", list(sc.levers), morris_x, rows, bar)
            morris_table = analyse_morris(sc, morris_x, morris_frame)
            top = top_levers(sc, morris_table) if sc.sobol_top else []
            sobol_table = pl.DataFrame(schema=SOBOL_SCHEMA)
            if top:
                sobol_x = sobol_design(sc, top)
                bar.shrink(-len(sobol_x) * sc.games)
                sobol_frame = _stage(sc, out, player, "sobol", top, sobol_x, rows, bar)
                sobol_table = analyse_sobol(sc, top, sobol_frame, moved_outputs(morris_table))
    finally:
        bar.close()
    _write_csv(morris_table, out / MORRIS)
    _write_csv(sobol_table, out / SOBOL)
    all_rows = _frame(sc, rows)
    summary = {
        "game": sc.game,
        "players": sc.players,
        "bots": sc.bots,
        "levers": len(sc.levers),
        "candidates": sc.candidates,
        "notes": list(sc.notes),
        "games_per_point": sc.games,
        "points": {
            "morris": len(morris_x),
            "sobol": all_rows.filter(pl.col("stage") == "sobol").height,
        },
        "games": int(all_rows["games"].sum()),
        "top": [lv.name for lv in top],
        "inert": inert_levers(morris_table),
        "seconds": round(time.perf_counter() - start, 1),
    }
    state = json.loads((out / STATE).read_text())
    write_json(out / STATE, state | {"status": "complete", "summary": summary})
    from reports.screen_report import write_screen_report

    write_screen_report(sc, out, morris_table, sobol_table, summary)
    return out


def inert_levers(morris: pl.DataFrame) -> list[str]:
    """Levers inert for every output."""
    alive = set(morris.filter(~pl.col("inert"))["lever"].to_list())
    return sorted(set(morris["lever"].to_list()) - alive)


def _stage(sc, out, player, stage, levers, design, rows, bar) -> pl.DataFrame:
    """Play the stage's missing points (saving as they complete); its frame, in point order."""
    numbers = [numbers_of(sc, levers, x) for x in design]
    for i, nums in enumerate(numbers):  # a resumed screen must be the same design
        row = rows.get((stage, i))
        if row is not None and any(row[f"lever:{lv.name}"] != nums[lv] for lv in sc.levers):
            raise UserError(
                f"{out / POINTS}: the screen no longer replays (code or config changed)"
            )
    missing = [(i, numbers[i]) for i in range(len(design)) if (stage, i) not in rows]
    bar.advance((len(design) - len(missing)) * sc.games)
    for i, nums in missing:  # every point is checked before a game is played
        try:
            point_setup(sc.base, sc.source, nums)
        except ValueError as exc:
            shown = ", ".join(
                f"{lv.name} = {json.dumps(lv.value(v))}" for lv, v in nums.items() if v != lv.centre
            )
            raise UserError(
                f"{sc.source}: the game refuses {stage} point {i} ({shown}): "
                f"{str(exc).splitlines()[0]}; narrow [screen.ranges]"
            ) from None
    last = [time.perf_counter()]

    def done(index, row):
        nums = numbers[index]
        rows[(stage, index)] = (
            {"stage": stage, "point": index}
            | {f"lever:{lv.name}": nums[lv] for lv in sc.levers}
            | row
        )
        if time.perf_counter() - last[0] > 5:
            _write_points(out, _frame(sc, rows))
            last[0] = time.perf_counter()

    try:
        player.play(missing, done)
    finally:  # a killed screen keeps every point it finished
        if rows:
            _write_points(out, _frame(sc, rows))
    frame = _frame(sc, rows).filter(pl.col("stage") == stage).sort("point")
    return frame


def _frame(sc, rows: dict) -> pl.DataFrame:
    ordered = [rows[k] for k in sorted(rows, key=lambda k: (k[0] != "morris", k[1]))]
    return pl.DataFrame(ordered, infer_schema_length=None)


def _write_points(out: Path, frame: pl.DataFrame) -> None:
    tmp = out / f".{POINTS}.tmp"
    frame.write_parquet(tmp)
    os.replace(tmp, out / POINTS)


def _read_points(out: Path, sc) -> pl.DataFrame | None:
    path = out / POINTS
    if not path.exists():
        return None
    try:
        return pl.read_parquet(path)
    except Exception:
        raise UserError(f"{path}: corrupt points table; start a new --out") from None


def _write_csv(frame: pl.DataFrame, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    frame.write_csv(tmp, float_precision=6)
    os.replace(tmp, path)


def _prepare(sc: ScreenConfig, out: Path, resume: bool) -> int:
    """Create (or reopen, with ``resume``) the screen folder and lock it; return the lock."""
    state = {"config": sc.raw, "source": sc.source, "status": "running"}
    return open_folder(
        out, STATE, state, resume, "screen",
        same=lambda old: old.get("config") == json.loads(json.dumps(sc.raw)),
        differs=f"{sc.source}: differs from the config of the screen in {out}",
    )  # fmt: skip
