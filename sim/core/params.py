"""Parameter declarations: one place that `menhir games`, configs, `--set`, the manifest and the
report all read (STYLE.md 4).

A game declares each tunable number or switch once, with its default (possibly by player count),
type and allowed values. Overrides are validated here, and a wrong key or value is a
``ParamError`` whose message is one line naming the key and what is allowed.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


class ParamError(ValueError):
    """A bad parameter key or value; ``str()`` is a one-line message naming the key."""


# Seeds of every command and config: 0 .. 2**63 - 1, one check everywhere (issue 19, defect 5).
MAX_SEED = 2**63 - 1


def check_seed(value: Any, where: str = "--seed") -> int:
    """Return ``value`` if it is an allowed seed, else raise a one-line ``ParamError``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise ParamError(f"{where}: {value!r} is not allowed: an integer in [0, {MAX_SEED}]")
    return value


_KINDS = {"int": int, "float": float, "bool": bool, "str": str}


@dataclass(frozen=True)
class Param:
    """One declared parameter.

    ``default`` is a value, or a mapping {player count: value} when the rulebook varies it by
    player count. ``choices`` restricts a value to a list; ``low``/``high`` bound a number.
    """

    name: str
    kind: str
    default: Any
    doc: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple = ()
    provisional: bool = False

    def default_for(self, players: int) -> Any:
        if isinstance(self.default, Mapping):
            return self.default[players]
        return self.default

    def allowed(self) -> str:
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.kind == "bool":
            return "true or false"
        lo = "-inf" if self.low is None else _fmt(self.low)
        hi = "inf" if self.high is None else _fmt(self.high)
        return f"{'an integer' if self.kind == 'int' else 'a number'} in [{lo}, {hi}]"

    def validate(self, value: Any) -> Any:
        """Return ``value`` coerced to the declared kind, or raise ``ParamError``."""
        bad = ParamError(f"parameter '{self.name}' = {value!r} is not allowed: {self.allowed()}")
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise bad
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise bad
            if isinstance(value, float) and not value.is_integer():
                raise bad
            value = int(value)
        elif self.kind == "float":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise bad
            value = float(value)
            if not math.isfinite(value):  # nan passes every comparison below
                raise ParamError(
                    f"parameter '{self.name}' = {value!r} is not allowed: a finite number "
                    f"({self.allowed()})"
                )
        elif self.kind == "str" and not isinstance(value, str):
            raise bad
        if self.choices and value not in self.choices:
            raise bad
        if self.low is not None and value < self.low:
            raise bad
        if self.high is not None and value > self.high:
            raise bad
        return value

    def describe(self) -> dict:
        return {
            "name": self.name,
            "kind": self.kind,
            "default": dict(self.default) if isinstance(self.default, Mapping) else self.default,
            "allowed": self.allowed(),
            "doc": self.doc,
            "provisional": self.provisional,
        }


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


@dataclass(frozen=True)
class ParamSet:
    """The ordered declarations of one game (or one bot)."""

    params: tuple[Param, ...] = field(default_factory=tuple)

    def __post_init__(self):
        names = [p.name for p in self.params]
        if len(names) != len(set(names)):
            raise ValueError(f"duplicate parameter names in {names}")
        for p in self.params:
            if p.kind not in _KINDS:
                raise ValueError(f"parameter {p.name}: unknown kind {p.kind!r}")

    def __iter__(self):
        return iter(self.params)

    def __len__(self):
        return len(self.params)

    def names(self) -> list[str]:
        return [p.name for p in self.params]

    def get(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise ParamError(
            f"unknown parameter '{name}'; known: {', '.join(self.names()) or '(none)'}"
        )

    def defaults(self, players: int) -> dict[str, Any]:
        return {p.name: p.default_for(players) for p in self.params}

    def resolve(self, players: int, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Defaults for ``players`` with ``overrides`` validated and applied, in declared order."""
        values = self.defaults(players)
        for key in sorted(overrides or {}):
            values[key] = self.get(key).validate(overrides[key])
        return values

    def non_default(self, players: int, values: Mapping[str, Any]) -> dict[str, Any]:
        base = self.defaults(players)
        return {k: v for k, v in values.items() if base.get(k) != v}


def parse_value(text: str) -> Any:
    """Parse a ``--set`` value as TOML (``12``, ``0.5``, ``true``); bare words are strings."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parse_assignments(items: Sequence[str]) -> dict[str, Any]:
    """``["k=v", ...]`` to a dict; a missing ``=``, a line break or a key given twice (which
    value would win is not what the user meant to leave to chance) is a ParamError."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ParamError(f"--set expects KEY=VALUE, got {item!r}")
        if "\n" in item or "\r" in item:
            raise ParamError(f"--set {key.strip()}: a line break in {item!r} is not allowed")
        if key.strip() in out:
            raise ParamError(f"--set {key.strip()}: given twice; give each key once")
        out[key.strip()] = parse_value(value.strip())
    return out


def canonical_id(game_id: str, values: Mapping[str, Any]) -> str:
    """OpenSpiel-style variant string: ``game(k=v,...)`` from the given (non-default) values."""
    inner = ",".join(f"{k}={values[k]}" for k in sorted(values))
    return f"{game_id}({inner})"
