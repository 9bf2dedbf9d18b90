"""The ``[screen]`` table of a screen config: its levers, their ranges and the outputs.

``load_screen`` reads a screen config (see experiments/screening.py for the table's keys) into a
``ScreenConfig``: every lever a name or pattern covers, with its range tried through the game
(an end the game refuses is pulled back); every problem is a one-line ConfigError.
"""

from __future__ import annotations

import copy
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from experiments.config import fail, parse_config
from experiments.sweep import expand
from experiments.workdir import config_source
from sim.core.registry import get_game

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
SAFETY = "safety_cap"


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
