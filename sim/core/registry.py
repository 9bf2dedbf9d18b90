"""The game registry and the declarations every game and bot makes.

A game package ``sim/games/<id>/`` exposes ``GAME``, a :class:`GameDecl`. The registry imports it
lazily by id, so ``import sim`` compiles nothing (STYLE.md 7).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sim.core.datafile import DataFileError
from sim.core.gamedata import DataError, GameData
from sim.core.params import Param, ParamError, ParamSet, parse_value

# Game ids in display order, and the module that declares each. A game appears here once its
# folder plays complete games.
GAME_MODULES: dict[str, str] = {
    "celtic_trader": "sim.games.celtic_trader",
    "celtic_quest": "sim.games.celtic_quest",
    "celtica": "sim.games.celtica",
    "celtae": "sim.games.celtae",
    "catan": "sim.games.catan",
    "catan_great_wall": "sim.games.catan_great_wall",
    "catan_troy": "sim.games.catan_troy",
}


class SetupError(ParamError):
    """A game, player count, bot or role choice that the game does not allow."""


@dataclass(frozen=True)
class BotDecl:
    """A bot level of one game: ``code`` is the integer the compiled loop dispatches on."""

    name: str
    code: int
    description: str
    params: ParamSet = field(default_factory=ParamSet)


@dataclass(frozen=True)
class BotSpec:
    """One seat's bot as written by the user: ``greedy`` or ``search:rollouts=64:depth=2``."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        name, *rest = text.strip().split(":")
        params = []
        for item in rest:
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise SetupError(f"bot '{text}': parameters are written name:key=value[:key=value]")
            if any(key == k for k, _ in params):
                raise SetupError(f"bot '{text}': parameter '{key}' given twice; give it once")
            params.append((key, parse_value(value)))
        return cls(name, tuple(params))

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.params)])


@dataclass(frozen=True)
class GameDecl:
    """Everything the game-agnostic layers need to know about one game.

    ``play(setup, seeds)`` plays one game per seed and returns a :class:`ChunkResult`;
    ``trace(setup, seed)`` plays one game and returns (readable lines, ChunkResult).
    ``tiebreak`` names ``player_extras`` columns compared, in order and higher first, after the
    score to rank tied players; players still equal share the win.
    """

    id: str
    title: str
    version: str
    min_players: int
    max_players: int
    params: ParamSet
    bots: tuple[BotDecl, ...]
    end_reasons: tuple[str, ...]
    score_components: tuple[str, ...]
    play: Callable[..., Any]
    trace: Callable[..., Any]
    roles: tuple[str, ...] = ()
    role_label: str = "role"
    role_modes: tuple[str, ...] = ("random",)
    has_sides: bool = False
    side_names: tuple[str, ...] = ("A", "B")  # the players table's ``side`` values, by index
    player_extras: tuple[str, ...] = ()
    tiebreak: tuple[str, ...] = ()
    default_bot: str = "greedy"
    warmup: Callable[[], None] | None = None
    # builds what a setup's games read before any is played (Celtic Quest's map pool, else
    # built as games need it): ``menhir bench`` calls it so its timing holds only the games
    prepare: Callable[[Any], None] | None = None
    data: GameData | None = None
    decision_kinds: tuple[str, ...] = ()  # counted per seat as act_<kind> players columns
    # end reasons after which nobody wins (every win 0: a collective defeat), not a tie
    no_winner_reasons: tuple[str, ...] = ()
    # `menhir ladder`'s default games per pair: enough to separate the game's adjacent levels
    ladder_games: int = 200

    def bot(self, name: str) -> BotDecl:
        for b in self.bots:
            if b.name == name:
                return b
        raise SetupError(
            f"unknown bot '{name}' for {self.id}; known: {', '.join(b.name for b in self.bots)}"
        )

    def check_players(self, players: int) -> None:
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not (self.min_players <= players <= self.max_players)
        ):
            raise SetupError(
                f"players = {players!r} is not allowed for {self.id}: "
                f"{self.min_players} to {self.max_players}"
            )


@dataclass(frozen=True)
class Setup:
    """A fully resolved and validated game setup: what one variant plays."""

    game: str
    players: int
    params: Mapping[str, Any]
    bots: tuple[BotSpec, ...]
    roles: str | tuple[str, ...] = "random"
    data: tuple[tuple[str, Any], ...] = ()  # data-file overrides (path, value), sorted by path
    data_file: str | None = None  # name of a whole variant data file replacing the shipped one
    data_text: str | None = field(default=None, repr=False)  # that file's text (travels along)

    @property
    def decl(self) -> GameDecl:
        """The game's declaration: the one ``make_setup`` resolved, else looked up once. It is
        kept out of the pickled state: a Setup crosses to a worker by its game id."""
        decl = self.__dict__.get("_decl")
        if decl is None:
            decl = get_game(self.game)
            object.__setattr__(self, "_decl", decl)
        return decl

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_decl", None)
        return state

    def raw_data(self) -> dict:
        """The parsed data file this setup plays (variant file and overrides applied)."""
        return self.decl.data.resolve(dict(self.data), self.data_text, self.data_file)

    def data_key(self) -> str:
        """A string that tells apart setups whose compiled data differ (for caches)."""
        return json.dumps([sorted(self.params.items()), self.data, self.data_text], default=str)

    def bot_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-seat bot codes (int64) and parameters (float64, declared order, zero-padded)."""
        decl = self.decl
        width = max([len(b.params) for b in decl.bots] + [1])
        codes = np.zeros(self.players, dtype=np.int64)
        values = np.zeros((self.players, width), dtype=np.float64)
        for seat, spec in enumerate(self.bots):
            bot = decl.bot(spec.name)
            codes[seat] = bot.code
            resolved = bot.params.resolve(self.players, dict(spec.params))
            for j, name in enumerate(bot.params.names()):
                values[seat, j] = float(resolved[name])
        return codes, values

    def role_ids(self) -> np.ndarray:
        """Fixed roles as indices into ``decl.roles`` (one per seat), or an empty array."""
        if isinstance(self.roles, str):
            return np.zeros(0, dtype=np.int64)
        return np.array([self.decl.roles.index(r) for r in self.roles], dtype=np.int64)


def get_game(game_id: str) -> GameDecl:
    if game_id not in GAME_MODULES:
        raise SetupError(f"unknown game '{game_id}'; known: {', '.join(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[game_id]).GAME


def all_games() -> list[GameDecl]:
    return [get_game(g) for g in GAME_MODULES]


def make_setup(
    game_id: str | GameDecl,
    players: int | None = None,
    params: Mapping[str, Any] | None = None,
    bots: str | Sequence[str] | None = None,
    roles: str | Sequence[str] = "random",
    data: Mapping[str, Any] | None = None,
    data_file: str | Path | None = None,
) -> Setup:
    """Validate a game setup completely; any problem is a one-line ``SetupError``/``ParamError``.

    ``data`` overrides values of the game's data file by path and ``data_file`` replaces the
    file; the parameters' defaults then come from that data (sim/core/gamedata.py). A caller
    that has resolved the game already passes its declaration as ``game_id``: the setup keeps it.
    """
    if isinstance(game_id, GameDecl):
        decl, game_id = game_id, game_id.id
    else:
        decl = get_game(game_id)
    players = decl.min_players if players is None else players
    decl.check_players(players)
    name, text = read_variant_file(data_file)
    param_set = data_params(decl, players, data, text, name)
    resolved = param_set.resolve(players, params)
    if bots is None:
        bots = decl.default_bot
    names = [s for s in bots.split(",")] if isinstance(bots, str) else list(bots)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise SetupError(f"bots: {len(names)} given for {players} players (give 1 or {players})")
    specs = tuple(BotSpec.parse(n) if isinstance(n, str) else n for n in names)
    for spec in specs:
        bot = decl.bot(spec.name)
        try:
            bot.params.resolve(players, dict(spec.params))
        except ParamError as exc:
            raise SetupError(f"bot '{spec}': {exc}") from None
    roles = _check_roles(decl, players, roles)
    overrides = tuple(sorted((data or {}).items()))
    setup = Setup(game_id, players, resolved, specs, roles, overrides, name, text)
    object.__setattr__(setup, "_decl", decl)
    return setup


def read_variant_file(path: str | Path | None) -> tuple[str | None, str | None]:
    """(name, text) of a variant data file; a one-line SetupError if it cannot be read."""
    if path is None:
        return None, None
    path = Path(path)
    try:
        return path.name, path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SetupError(f"{path}: no such data file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SetupError(f"{path}: cannot be read as a data file ({type(exc).__name__})") from None


def data_params(decl: GameDecl, players: int, data=None, text=None, name=None) -> ParamSet:
    """The game's parameter declarations under a variant's data (the shipped data: decl.params).

    Parameters whose default is read from the data follow it; a default the data pushes out of
    its declared range is a DataError naming the overrides.
    """
    if not data and text is None:
        return decl.params
    if decl.data is None:
        raise SetupError(f"{decl.id} has no data file to override")
    try:
        raw = decl.data.resolve(data, text, name)
    except DataFileError as exc:
        raise SetupError(str(exc)) from None
    param_set = decl.data.param_set(raw)
    for p in param_set:
        try:
            p.validate(p.default_for(players))
        except ParamError as exc:
            what = ", ".join(f"'{k}'" for k in sorted(data or {})) or f"file {name}"
            raise DataError(f"data {what}: {exc}") from None
    return param_set


def split_overrides(decl: GameDecl, assignments: Mapping[str, Any]) -> tuple[dict, dict]:
    """``--set`` assignments split into declared parameters and data paths (checked)."""
    params, data = {}, {}
    for key, value in assignments.items():
        if key in decl.params.names():
            params[key] = value
        elif decl.data is not None and "." in key:
            from sim.core.gamedata import locate

            locate(decl.data.read(), key)
            data[key] = value
        else:
            known = ", ".join(decl.params.names()) or "(none)"
            raise ParamError(
                f"unknown parameter '{key}'; known: {known}; or a data path such as "
                f"'table.key' (menhir games {decl.id} --data lists them)"
            )
    return params, data


def _check_roles(decl: GameDecl, players: int, roles: str | Sequence[str]) -> str | tuple:
    if isinstance(roles, str):
        if roles not in decl.role_modes:
            raise SetupError(
                f"roles = '{roles}' is not allowed for {decl.id}: "
                f"one of {', '.join(decl.role_modes)}"
                + (f", or a list of {decl.role_label}s by seat" if decl.roles else "")
            )
        return roles
    roles = tuple(roles)
    if not decl.roles:
        raise SetupError(f"{decl.id} has no {decl.role_label}s to assign")
    if len(roles) != players:
        raise SetupError(f"roles: {len(roles)} given for {players} players")
    for r in roles:
        if r not in decl.roles:
            raise SetupError(
                f"unknown {decl.role_label} '{r}' for {decl.id}; known: {', '.join(decl.roles)}"
            )
    for r in roles:
        if roles.count(r) > 1:
            raise SetupError(
                f"roles: {decl.role_label} '{r}' is given to {roles.count(r)} seats; "
                f"each {decl.role_label} to one seat only"
            )
    return roles


def describe_param(p: Param) -> str:
    d = p.describe()
    default = d["default"]
    if isinstance(default, dict):
        default = "/".join(f"{v}" for _, v in sorted(default.items())) + " by players"
    prov = " (provisional)" if p.provisional else ""
    return f"{p.name} = {default}  [{d['allowed']}]{prov}  {d['doc']}".rstrip()
