"""Experiment configs: the TOML schema of the contract and its complete validation.

A config is data: it is parsed with ``tomllib`` and checked key by key, nothing in it is executed.
Every problem is a :class:`ConfigError` whose message is one line, ``FILE: key 'x': what is
allowed``, raised before any game is played or any directory is created.

Schema (a list where a scalar is expected is a sweep axis)::

    name = "trader-romans"     # letters, digits, _ . - not starting with '.'; default: file name
    game = "celtic_trader"     # required
    games = 20000              # per variant (the cap when target_ci is set); default 10000
    seed = 7                   # 0 <= seed < 2**63; default 0
    players = 4                # or [3, 4, 5]; default: the game's minimum
    bots = "greedy"            # one bot for every seat, or "greedy,random,..." one per seat;
                               # a list of such strings sweeps bots
    roles = "random"           # random | draft | ["fastest", "trusted", ...] (fixed, by seat);
                               # a list holding mode words or lists sweeps roles
    paired = true              # common random numbers across variants (default true)
    target_ci = 0.01           # optional: play until every seat/role win-rate 95% half-width <= it
    chunk_games = 5000         # optional: games per chunk (fixes where target_ci may stop)
    description = "..."        # optional free text
    [params]                   # overrides of the game's declared parameters
    romans_in_play = [11, 12]
    [data]                     # overrides of any data-file value, by dotted path
    "roles.trusted.rp_as_vp" = [1, 2, 3]
    file = "my_trader.toml"    # a whole variant data file (relative to the config); a list
                               # sweeps files. Also written `data = "my_trader.toml"` on top.
    [sweep]
    mode = "grid"              # grid | zip
    [balance]                  # read by `menhir balance` only (experiments/balance_search.py)
    [screen]                   # read by `menhir screen` only (experiments/screening.py)
    [challenge]                # read by `menhir challenge` only (experiments/challenge_search.py)
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from experiments.config_types import (
    MAX_GAMES,
    MAX_VARIANTS,
    ConfigError,
    ExperimentConfig,
    check_int,
    fail,
)
from experiments.config_types import UserError as UserError  # the name users import from here
from experiments.sweep import expand
from sim.core.params import MAX_SEED, ParamError
from sim.core.registry import GAME_MODULES, SetupError, get_game

DEFAULT_GAMES = 10_000
MODES = ("grid", "zip")
TOP_KEYS = (
    "name",
    "game",
    "games",
    "seed",
    "players",
    "bots",
    "roles",
    "paired",
    "target_ci",
    "chunk_games",
    "description",
    "params",
    "data",
    "sweep",
    "balance",
    "screen",
    "challenge",
)
DATA_FILE_KEYS = ("file", "data")  # keys of [data] naming variant files, not data paths
SWEEP_KEYS = ("mode",)
# A run name becomes a folder name (runs/<name>): no separator, not '.' or '..', not hidden.
_NAME_RE = re.compile(r"[\w-][\w.-]*")  # \w: letters of any script, digits, _
NAME_ALLOWED = "letters, digits, '_', '.', '-', not starting with '.'"


# A config (or variant data file) is a few kilobytes; a larger file is a mistake or hostile.
MAX_CONFIG_BYTES = 1_000_000


def read_toml(path: str | Path) -> dict:
    """Parse a config file; a missing or malformed file is a one-line ConfigError."""
    path = Path(path)
    try:
        # a FIFO would block forever and /dev/zero reads without end: regular files only, capped
        if path.exists() and not path.is_dir() and not path.is_file():
            raise ConfigError(f"{path}: not a regular file, expected a .toml config file")
        if path.is_file() and path.stat().st_size > MAX_CONFIG_BYTES:
            raise ConfigError(
                f"{path}: {path.stat().st_size:,} bytes; a config file is at most "
                f"{MAX_CONFIG_BYTES:,} bytes"
            )
        # utf-8-sig: a byte-order mark (some Windows editors write one) is not part of the TOML
        text = path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a directory, expected a .toml config file") from None
    except OSError as exc:  # a path through a file, a symlink loop, no permission
        reason = exc.strerror or type(exc).__name__
        raise ConfigError(f"{path}: cannot read the config file ({reason})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text, expected a .toml config file") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to be a menhir config") from None


def load_config(
    config: str | Path | Mapping,
    games: int | None = None,
    data_dir: Path | None = None,
    max_variants: int = MAX_VARIANTS,
) -> ExperimentConfig:
    """Read (if a path) and validate a config completely; ``games`` overrides its count.

    Variant data files are found relative to the config file (the working directory for a
    mapping), or by name in ``data_dir`` (a run's own copies, when a run is resumed).
    """
    if isinstance(config, Mapping):
        source, raw, stem = "<config>", dict(config), None
    else:
        source, raw, stem = str(config), read_toml(config), Path(config).stem
    cfg = parse_config(raw, source, default_name=stem, data_dir=data_dir)
    cfg = cfg.with_games(games)
    expand(cfg, max_variants)  # validates every variant's setup
    return cfg


def parse_config(
    raw: dict, source: str, default_name: str | None = None, data_dir: Path | None = None
) -> ExperimentConfig:
    """Check keys and types; values the game declares are checked against its declarations."""
    for key in raw:
        if key not in TOP_KEYS:
            raise fail(source, key, f"unknown key; allowed: {', '.join(TOP_KEYS)}")
    game = _game(source, raw)
    decl = get_game(game)
    name = raw.get("name", default_name or game)
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        if "name" not in raw:  # the default comes from the file name: say so, not "key 'name'"
            raise ConfigError(
                f"{source}: the file name gives the run name {name!r}, which is not a safe "
                f'folder name ({NAME_ALLOWED}); rename the file or set name = "..."'
            )
        raise fail(source, "name", f"{name!r} is not allowed: a folder name of {NAME_ALLOWED}")
    games = check_int(source, "games", raw.get("games", DEFAULT_GAMES), 1, MAX_GAMES)
    seed = check_int(source, "seed", raw.get("seed", 0), 0, MAX_SEED)
    paired = raw.get("paired", True)
    if not isinstance(paired, bool):
        raise fail(source, "paired", "true or false")
    target_ci = _target_ci(source, raw.get("target_ci"))
    chunk = raw.get("chunk_games")
    if chunk is not None:
        chunk = check_int(source, "chunk_games", chunk, 1, MAX_GAMES)
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise fail(source, "description", "a string")
    players = _players(source, decl, raw.get("players", decl.min_players))
    bots = _bots(source, raw.get("bots", decl.default_bot))
    roles, swept_roles = _roles(source, decl, raw.get("roles", decl.role_modes[0]))
    params = _params(source, decl, raw.get("params", {}))
    base_dir = Path(source).parent if source != "<config>" else Path.cwd()
    data, data_files = _data(source, decl, raw.get("data", {}), base_dir, data_dir)
    mode = _mode(source, raw.get("sweep", {}))
    return ExperimentConfig(
        source=source,
        raw=raw,
        name=name,
        game=game,
        decl=decl,
        games=games,
        seed=seed,
        players=players,
        bots=bots,
        roles=roles,
        params=params,
        data=data,
        data_files=data_files,
        mode=mode,
        paired=paired,
        target_ci=target_ci,
        chunk_games=chunk,
        swept_roles=swept_roles,
        description=description,
    )


def _game(source: str, raw: dict) -> str:
    if "game" not in raw:
        raise fail(source, "game", f"missing; one of {', '.join(GAME_MODULES)}")
    game = raw["game"]
    if not isinstance(game, str) or game not in GAME_MODULES:
        raise fail(source, "game", f"{game!r} is not a game; one of {', '.join(GAME_MODULES)}")
    return game


def _target_ci(source: str, value) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 0.5:
        raise fail(source, "target_ci", f"{value!r} is not allowed: a number in (0, 0.5]")
    return float(value)


def _is_list(value) -> bool:
    return isinstance(value, list)


def _players(source: str, decl, value):
    values = value if _is_list(value) else [value]
    if _is_list(value):
        _check_axis(source, "players", value)
    for v in values:
        try:
            decl.check_players(v)
        except SetupError as exc:
            raise fail(source, "players", str(exc)) from None
    return tuple(value) if _is_list(value) else value


def _bots(source: str, value):
    """A string (one bot, or one per seat comma-joined), or a list of them (a sweep)."""
    values = value if _is_list(value) else [value]
    if _is_list(value):
        _check_axis(source, "bots", value)
    for v in values:
        if not isinstance(v, str) or not v.strip():
            raise fail(
                source,
                "bots",
                f"{v!r} is not allowed: a bot name, 'a,b,...' one per seat, or a list of these",
            )
    return tuple(value) if _is_list(value) else value


def _roles(source: str, decl, value):
    """``random``/``draft``, a fixed list by seat, or a sweep (a list with modes or lists)."""
    allowed = (
        f"one of {', '.join(decl.role_modes)}"
        + (f", a list of {decl.role_label}s by seat" if decl.roles else "")
        + ", or a list of these to sweep"
    )
    if isinstance(value, str):
        return value, False
    if not _is_list(value) or not value:
        raise fail(source, "roles", f"{value!r} is not allowed: {allowed}")
    sweep = any(_is_list(v) or v in ("random", "draft") for v in value)
    if not sweep:
        _check_role_list(source, value, allowed)
        return tuple(value), False
    _check_axis(source, "roles", value)
    for v in value:
        if _is_list(v):
            _check_role_list(source, v, allowed)
        elif not isinstance(v, str):
            raise fail(source, "roles", f"{v!r} is not allowed: {allowed}")
    return tuple(tuple(v) if _is_list(v) else v for v in value), True


def _check_role_list(source, value, allowed):
    if not value or not all(isinstance(v, str) for v in value):
        raise fail(source, "roles", f"{value!r} is not allowed: {allowed}")


def _params(source: str, decl, table) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise fail(source, "params", "a table of parameter overrides ([params])")
    out: dict[str, Any] = {}
    for key, value in table.items():
        where = f"params.{key}"
        try:
            param = decl.params.get(key)
        except ParamError:
            known = ", ".join(decl.params.names()) or "(none)"
            raise fail(source, where, f"unknown parameter of {decl.id}; known: {known}") from None
        if _is_list(value):
            _check_axis(source, where, value)
        for v in value if _is_list(value) else [value]:
            if isinstance(v, list | dict):
                raise fail(source, where, f"{v!r} is not allowed: {param.allowed()}")
            try:
                param.validate(v)
            except ParamError as exc:
                raise fail(source, where, str(exc)) from None
        if _is_list(value):
            out[key] = tuple(param.validate(v) for v in value)
            _check_axis(source, where, list(out[key]))  # 1 and 1.0 are one int value
        else:
            out[key] = value
    return out


def _depth(value) -> int:
    """How deeply lists nest in ``value`` (0 for a scalar)."""
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _data(source: str, decl, value, base_dir: Path, data_dir: Path | None):
    """``[data]``: overrides by path (a list one level deeper than the value sweeps) and files.

    Paths are checked to exist here; values are checked (type, shape, the game's own rules)
    when each variant's setup is made.
    """
    from sim.core.gamedata import DataError, get_value

    if isinstance(value, str | list):
        value = {"file": value}
    if not isinstance(value, dict):
        raise fail(source, "data", "a table of data-path overrides ([data]) or a data file path")
    if not value:
        return {}, None
    if decl.data is None:
        raise fail(source, "data", f"{decl.id} has no data file to override")
    files = [k for k in value if k in DATA_FILE_KEYS]
    if len(files) > 1:
        raise fail(source, "data.file", "give the variant data file once")
    data_files = _data_files(source, value[files[0]], base_dir, data_dir) if files else None
    shipped = decl.data.read()
    out: dict[str, Any] = {}
    for path, v in value.items():
        if path in DATA_FILE_KEYS:
            continue
        where = f"data.{path}"
        try:
            original = get_value(shipped, path)
        except DataError as exc:
            raise fail(source, where, str(exc)) from None
        if _depth(v) == _depth(original) + 1 and isinstance(v, list):
            _check_axis(source, where, v)
            out[path] = tuple(v)
        else:
            out[path] = v
    return out, data_files


def _data_files(source: str, value, base_dir: Path, data_dir: Path | None):
    where = "data.file"
    values = value if _is_list(value) else [value]
    if _is_list(value):
        _check_axis(source, where, value)
    paths = []
    for v in values:
        if not isinstance(v, str) or not v.strip():
            raise fail(source, where, f"{v!r} is not allowed: a .toml file path or a list of them")
        path = Path(v) if Path(v).is_absolute() else base_dir / v
        if data_dir is not None:
            path = data_dir / Path(v).name
        if not path.is_file():
            raise fail(source, where, f"{v!r}: no such data file ({path})")
        paths.append(str(path.resolve()))
    stems = [Path(p).stem for p in paths]
    if len(set(stems)) != len(stems):
        raise fail(source, where, "two data files share a name; variant columns use the name")
    return tuple(paths) if _is_list(value) else paths[0]


def _check_axis(source: str, key: str, values: list) -> None:
    if not values:
        raise fail(source, key, "an empty list sweeps nothing; give a value or a non-empty list")
    seen = set()
    for v in values:
        marker = (type(v).__name__, repr(v))  # 1 and 1.0 and true stay distinct values
        if marker in seen:
            raise fail(source, key, f"{v!r} is listed twice; each swept value once")
        seen.add(marker)


def _mode(source: str, table) -> str:
    if not isinstance(table, dict):
        raise fail(source, "sweep", "a table ([sweep]) with key mode = grid | zip")
    for key in table:
        if key not in SWEEP_KEYS:
            raise fail(source, f"sweep.{key}", f"unknown key; allowed: {', '.join(SWEEP_KEYS)}")
    mode = table.get("mode", "grid")
    if mode not in MODES:
        raise fail(source, "sweep.mode", f"{mode!r} is not allowed: one of {', '.join(MODES)}")
    return mode
