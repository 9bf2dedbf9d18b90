"""A parsed config, its limits and its errors: the level below ``config.py`` and ``sweep.py``.

``config.py`` reads and validates a config into an :class:`ExperimentConfig`; ``sweep.py``
expands one into variants and names the key at fault with :func:`fail`. Both import these from
here (``config.py`` also calls ``sweep.expand``), so neither imports the other back. Every name
is also importable from ``experiments.config``, where users find them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sim.core.registry import GameDecl

MAX_GAMES = 1_000_000_000
# Variants a sweep may make unless --max-variants allows more: the count is checked before any
# variant is built (a 10**6 grid used to allocate gigabytes before its first game).
MAX_VARIANTS = 10_000


class UserError(ValueError):
    """A mistake a user can fix (config, run directory, options): one line, exit code 2."""


class ConfigError(UserError):
    """A config problem; ``str()`` is ``FILE: key 'x': what is allowed``."""


@dataclass(frozen=True)
class ExperimentConfig:
    """A parsed and type-checked config; ``raw`` is the TOML as parsed (stored in the manifest).

    Sweep axes (``players``, ``bots``, ``roles``, each of ``params``) hold a tuple of values
    when swept; ``axes`` lists the swept setting names in expansion order. ``decl`` is the
    game's declaration, resolved once by ``parse_config`` and passed down from here.
    """

    source: str
    raw: dict
    name: str
    game: str
    decl: GameDecl = field(compare=False, repr=False)
    games: int
    seed: int
    players: int | tuple[int, ...]
    bots: str | tuple[str, ...]
    roles: str | tuple[str, ...] | tuple[Any, ...]
    params: dict[str, Any]
    data: dict[str, Any]  # data path -> value, or a tuple of values when swept
    data_files: str | tuple[str, ...] | None  # variant data file path(s), absolute
    mode: str
    paired: bool
    target_ci: float | None
    chunk_games: int | None
    swept_roles: bool
    description: str = ""

    @property
    def axes(self) -> list[str]:
        names = []
        if isinstance(self.players, tuple):
            names.append("players")
        if isinstance(self.bots, tuple):
            names.append("bots")
        if self.swept_roles:
            names.append("roles")
        names += [k for k, v in self.params.items() if isinstance(v, tuple)]
        if isinstance(self.data_files, tuple):
            names.append("data")
        names += [k for k, v in self.data.items() if isinstance(v, tuple)]
        return names

    def with_games(self, games: int | None) -> ExperimentConfig:
        """The same config with ``games`` overridden (the CLI's ``--games``)."""
        if games is None:
            return self
        check_int(self.source, "games", games, 1, MAX_GAMES, option="--games")
        return replace(self, games=int(games))


def fail(source: str, key: str, what: str) -> ConfigError:
    return ConfigError(f"{source}: key '{key}': {what}")


def check_int(source, key, value, low, high, option=None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        where = option or f"key '{key}'"
        raise ConfigError(
            f"{source}: {where}: {value!r} is not allowed: an integer in [{low}, {high}]"
        )
    return value
