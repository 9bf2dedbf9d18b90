"""Sweep expansion: a config's list-valued settings become variants, each a validated Setup.

``grid`` takes the cartesian product of the swept settings, ``zip`` steps them together. Axes
come in a fixed order (players, bots, roles, then ``[params]`` in file order), so variant ids
(``v0``, ``v1``, ...) are a pure function of the config.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from experiments.config_types import MAX_VARIANTS, ConfigError, ExperimentConfig, fail
from sim.core.gamedata import DataError, get_value, show_value, text_digest
from sim.core.params import ParamError
from sim.core.registry import Setup, data_params, make_setup, read_variant_file

# Columns the games table already has: a swept parameter with one of these names gets a prefix.
GAMES_COLUMNS = ("variant", "game", "seed", "players", "rounds", "turns", "end_reason", "winners")


@dataclass(frozen=True)
class Variant:
    """One setup of the experiment: what it plays, how it is labelled, how it is seeded."""

    id: str
    label: str
    swept: dict[str, Any]  # setting name -> value as written (bots/roles as strings)
    setup: Setup
    variant_key: int  # 0 for every variant with common random numbers

    @property
    def columns(self) -> dict[str, Any]:
        """Extra columns of this variant's games table (a swept ``players`` is already one)."""
        return {column_name(k): v for k, v in self.swept.items() if k != "players"}


def column_name(setting: str) -> str:
    return f"param_{setting}" if setting in GAMES_COLUMNS and setting != "players" else setting


def axis_values(cfg: ExperimentConfig) -> list[tuple[str, tuple]]:
    """(setting name, values) of every swept setting, in expansion order."""
    axes = []
    for name in cfg.axes:
        if name in ("players", "bots", "roles"):
            axes.append((name, getattr(cfg, name)))
        elif name == "data":
            axes.append((name, cfg.data_files))
        elif name in cfg.params:
            axes.append((name, cfg.params[name]))
        else:
            axes.append((name, cfg.data[name]))
    return axes


def combinations(cfg: ExperimentConfig, limit: int | None = MAX_VARIANTS) -> list[dict[str, Any]]:
    """Each variant's swept values; zip requires every axis to have the same length.

    More than ``limit`` variants is a ConfigError raised before any is built.
    """
    axes = axis_values(cfg)
    if not axes:
        return [{}]
    names = [n for n, _ in axes]
    if cfg.mode == "zip":
        lengths = {n: len(v) for n, v in axes}
        if len(set(lengths.values())) > 1:
            got = ", ".join(f"{_key(n)} has {k}" for n, k in lengths.items())
            raise fail(cfg.source, "sweep.mode", f"zip needs swept lists of one length; {got}")
        count = len(axes[0][1])
    else:
        count = math.prod(len(v) for _, v in axes)
    if limit is not None and count > limit:
        sizes = " x ".join(f"{_key(n)} {len(v)}" for n, v in axes)
        raise ConfigError(
            f"{cfg.source}: the sweep makes {count:,} variants ({sizes}), more than the limit "
            f"of {limit:,}; allow it with --max-variants {count}"
        )
    if cfg.mode == "zip":
        rows = zip(*(v for _, v in axes), strict=True)
    else:
        rows = itertools.product(*(v for _, v in axes))
    return [dict(zip(names, row, strict=True)) for row in rows]


def _key(setting: str) -> str:
    if setting in ("players", "bots", "roles"):
        return setting
    if setting == "data":
        return "data.file"
    return f"data.{setting}" if "." in setting else f"params.{setting}"


def _roles_text(roles) -> str:
    return roles if isinstance(roles, str) else ",".join(roles)


def _bots_text(bots: str) -> str:
    names = [b.strip() for b in bots.split(",")]
    return names[0] if len(set(names)) == 1 else ",".join(names)


def expand(cfg: ExperimentConfig, limit: int | None = MAX_VARIANTS) -> list[Variant]:
    """Every variant of the config, each setup validated; errors name the config key."""
    variants = []
    for index, combo in enumerate(combinations(cfg, limit)):
        players = combo.get("players", cfg.players)
        bots = combo.get("bots", cfg.bots)
        roles = combo.get("roles", cfg.roles)
        params = {k: combo.get(k, v) for k, v in cfg.params.items()}
        data = {k: combo.get(k, v) for k, v in cfg.data.items()}
        data_file = combo.get("data", cfg.data_files)
        setup = _make_setup(cfg, players, params, bots, roles, data, data_file)
        swept = {}
        for name, value in combo.items():
            if name == "bots":
                value = _bots_text(value)
            elif name == "roles":
                value = _roles_text(value)
            elif name == "data":
                value = Path(value).stem
            elif name in cfg.data:
                value = _column_value(get_value(setup.raw_data(), name))
            elif name != "players":
                value = setup.params[name]
            swept[name] = value
        label = ",".join(f"{k}={v}" for k, v in swept.items()) or "base"
        key = 0 if cfg.paired else variant_key(setup)
        variants.append(Variant(f"v{index}", label, swept, setup, key))
    return variants


def _column_value(value: Any) -> Any:
    """A swept data value as a games-table cell: lists and tables as their TOML text."""
    return show_value(value) if isinstance(value, list | dict) else value


def _make_setup(cfg: ExperimentConfig, players, params, bots, roles, data, data_file) -> Setup:
    """make_setup, checked one setting at a time so the error names the key at fault."""
    decl = cfg.decl
    try:
        param_set = data_params(decl, players, data, *_file_text(cfg, data_file))
    except DataError as exc:
        key = next((f"data.{k}" for k in sorted(data) if f"'{k}'" in str(exc)), "data")
        raise fail(cfg.source, key, str(exc)) from None
    except ParamError as exc:
        raise fail(cfg.source, "data.file", str(exc)) from None
    try:
        param_set.resolve(players, params)
    except ParamError as exc:
        raise fail(cfg.source, "params", str(exc)) from None
    try:
        make_setup(decl, players, params, bots, decl.role_modes[0], data, data_file)
    except ParamError as exc:
        raise fail(cfg.source, "bots", f"{exc} (with players = {players})") from None
    try:
        return make_setup(decl, players, params, bots, roles, data, data_file)
    except ParamError as exc:
        raise fail(cfg.source, "roles", f"{exc} (with players = {players})") from None


def _file_text(cfg: ExperimentConfig, data_file) -> tuple[str | None, str | None]:
    try:
        name, text = read_variant_file(data_file)
    except ParamError as exc:
        raise fail(cfg.source, "data.file", str(exc)) from None
    return text, name


def setup_description(setup: Setup) -> dict[str, Any]:
    """The resolved setup as plain data (for the manifest).

    Data overrides and a variant data file (its name and SHA-256) appear only when given, so
    the description, and the seeds of ``paired = false`` runs, of other setups do not change.
    """
    out = {
        "players": setup.players,
        "bots": [str(b) for b in setup.bots],
        "roles": setup.roles if isinstance(setup.roles, str) else list(setup.roles),
        "params": dict(setup.params),
    }
    if setup.data:
        out["data"] = dict(setup.data)
    if setup.data_text is not None:
        out["data_file"] = {"name": setup.data_file, "sha256": text_digest(setup.data_text)}
    return out


def variant_key(setup: Setup) -> int:
    """A stable 63-bit key of a setup's content: mixed into game seeds when ``paired = false``.

    Derived from what the variant plays, not its position, so adding a variant to a config
    does not reseed the others. Parameters at their default are left out, so a parameter a
    later version adds does not reseed the variants that do not set it. Never 0 (0 is the
    common-random-numbers key).
    """
    description = setup_description(setup)
    declared = setup.decl.params
    description["params"] = declared.non_default(setup.players, setup.params)
    text = json.dumps([setup.game, description], sort_keys=True)
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return (int.from_bytes(digest, "little") >> 1) or 1
