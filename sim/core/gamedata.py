"""Every number of a game's data file is a lever: addressing, overriding and listing data paths.

A data path is the dotted address of one value of the parsed TOML data file:
``solo.target`` (a key of a table), ``roles.trusted.rp_as_vp`` (a record of a list of records,
found by its ``id`` or ``name``, or by the first item of a list-shaped record such as a map
section), ``roles.fastest.movement`` (a whole list) or ``roles.fastest.movement.4`` (one entry,
by index), ``leaders.boadicee.B.discs_placed`` (nested tables). Keys that hold a dot themselves
(``map.sections.BEL.W``) are matched whole.

An override keeps the type and shape of the value it replaces: an integer stays an integer, a
number that is not negative in the rulebook stays so, a list keeps its length, a table its keys,
and no number may be NaN or infinite. The overridden data then passes the game's own validator
(the same one the shipped file passes) and the game's parameter declarations, whose defaults come
from the data. Every problem is a one-line :class:`DataError` naming the path, the value and
what is allowed.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from sim.core.datafile import DataFileError, read_data_text
from sim.core.params import ParamError, ParamSet

PROVISIONAL = "PROVISIONAL"


class DataError(ParamError):
    """A bad data path or override value; ``str()`` is one line naming the path."""


@dataclass(frozen=True)
class DataPath:
    """One addressable value of a data file, as `menhir games GAME --data` lists it."""

    path: str
    value: Any
    provisional: bool


def _record_id(item: Any) -> str | None:
    """The id a record of a list is addressed by: its ``id``/``name``, or a list's first item."""
    if isinstance(item, dict):
        for key in ("id", "name"):
            if isinstance(item.get(key), str):
                return item[key]
        return None
    if isinstance(item, list) and item and isinstance(item[0], str):
        return item[0]
    return None


def _ids(items: list) -> list[str] | None:
    """Record ids of a list when every item has one and they are unique, else None."""
    if not items or not all(isinstance(i, dict | list) for i in items):
        return None
    ids = [_record_id(i) for i in items]
    if any(i is None for i in ids) or len(set(ids)) != len(ids):
        return None
    return ids


def _is_scalar(value: Any) -> bool:
    return isinstance(value, bool | int | float | str)


def _child(node: Any, key: str) -> tuple[Any, Any] | None:
    """(container key, child) for ``key`` under ``node``, or None when there is no such child."""
    if isinstance(node, dict):
        return (key, node[key]) if key in node else None
    if isinstance(node, list):
        ids = _ids(node)
        if ids is not None and key in ids:
            i = ids.index(key)
            return i, node[i]
        if key.isdigit() and int(key) < len(node):
            return int(key), node[int(key)]
    return None


def locate(raw: dict, path: str) -> list:
    """The container keys leading to ``path`` in ``raw``; a DataError if there is no such value.

    Keys are matched longest first, so a key holding a dot (a section ``BEL.W``) is found whole.
    """
    tokens = path.split(".")
    if not path or any(not t for t in tokens):
        raise DataError(f"data path {path!r} is not a dotted path such as 'solo.target'")
    node, keys, i = raw, [], 0
    while i < len(tokens):
        for j in range(len(tokens), i, -1):
            found = _child(node, ".".join(tokens[i:j]))
            if found is not None:
                keys.append(found[0])
                node = found[1]
                i = j
                break
        else:
            where = ".".join(tokens[:i]) or "the top level"
            raise DataError(
                f"unknown data path '{path}': no '{tokens[i]}' under {where} "
                "(menhir games GAME --data lists every path)"
            )
    return keys


def get_value(raw: dict, path: str) -> Any:
    node = raw
    for key in locate(raw, path):
        node = node[key]
    return node


def _describe(original: Any) -> str:
    if isinstance(original, bool):
        return "true or false"
    if isinstance(original, int):
        return "an integer" + (" >= 0" if original >= 0 else "")
    if isinstance(original, float):
        return "a finite number" + (" >= 0" if original >= 0 else "")
    if isinstance(original, str):
        return "a string"
    if isinstance(original, list):
        inner = {_describe(v) for v in original}
        kind = inner.pop() if len(inner) == 1 else "values"
        return f"a list of {len(original)} entries ({kind})"
    if isinstance(original, dict):
        return f"a table with keys {', '.join(original)}"
    return type(original).__name__


def conform(original: Any, value: Any) -> Any:
    """``value`` with the type and shape of ``original``, or raise ValueError."""
    if isinstance(original, bool):
        if not isinstance(value, bool):
            raise ValueError
        return value
    if isinstance(original, int | float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError
        if not math.isfinite(value) or (original >= 0 and value < 0):
            raise ValueError
        if isinstance(original, int):
            if isinstance(value, float) and not value.is_integer():
                raise ValueError
            return int(value)
        return float(value)
    if isinstance(original, str):
        if not isinstance(value, str):
            raise ValueError
        return value
    if isinstance(original, list):
        if not isinstance(value, list | tuple) or len(value) != len(original):
            raise ValueError
        return [conform(o, v) for o, v in zip(original, value, strict=True)]
    if isinstance(original, dict):
        if not isinstance(value, dict) or set(value) != set(original):
            raise ValueError
        return {k: conform(original[k], value[k]) for k in original}
    raise ValueError


def apply_overrides(raw: dict, overrides: Mapping[str, Any]) -> dict:
    """A deep copy of ``raw`` with each override type- and shape-checked and applied."""
    out = copy.deepcopy(raw)
    for path in sorted(overrides):
        value = overrides[path]
        keys = locate(out, path)
        parent = out
        for key in keys[:-1]:
            parent = parent[key]
        original = parent[keys[-1]]
        try:
            parent[keys[-1]] = conform(original, value)
        except ValueError:
            raise DataError(
                f"data '{path}' = {show_value(value)} is not allowed: {_describe(original)} "
                f"(the data file has {show_value(original)})"
            ) from None
    return out


def show_value(value: Any) -> str:
    """A value as written in TOML (lists and strings as JSON, which TOML reads the same)."""
    return json.dumps(value) if isinstance(value, list | dict | str | bool) else repr(value)


def _leaves(node: Any, prefix: str) -> list[tuple[str, Any]]:
    """Every addressable value listed once: scalars and lists of scalars (entries by index)."""
    if _is_scalar(node) or (isinstance(node, list) and all(_is_scalar(v) for v in node)):
        return [(prefix, node)]
    if isinstance(node, dict):
        items = list(node.items())
    else:
        ids = _ids(node)
        items = list(zip(ids or [str(i) for i in range(len(node))], node, strict=True))
    out = []
    for key, child in items:
        out += _leaves(child, f"{prefix}.{key}" if prefix else str(key))
    return out


_HEADER = re.compile(r"^\[\[?\s*([A-Za-z0-9_.\-\"]+)\s*\]\]?")
_KEY = re.compile(r"^([A-Za-z0-9_\-]+)\s*=")


def provisional_marks(text: str) -> tuple[set, set]:
    """Where a data file's comments say PROVISIONAL.

    Returns (tables, keys): ``(table, record)`` marked as a whole by a comment just above its
    header, and ``(table, record, key)`` marked on the key's line or just above it. ``record`` is
    the index of an array-of-tables entry (``[[roles]]``), else None.
    """
    tables: set = set()
    keys: set = set()
    current: tuple = ("", None)
    counts: dict[str, int] = {}
    comments: list[str] = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#"):
            comments.append(s)
            continue
        above = any(PROVISIONAL in c for c in comments)
        comments = []
        header = _HEADER.match(s)
        if header:
            name = header.group(1)
            record = None
            if s.startswith("[["):
                record = counts[name] = counts.get(name, -1) + 1
            current = (name, record)
            if above:
                tables.add(current)
            continue
        key = _KEY.match(s)
        if key:
            comment = line.partition("#")[2]
            if above or PROVISIONAL in comment:
                keys.add((*current, key.group(1)))
    return tables, keys


def _mark_of(raw: dict, path: str, tables: set, keys: set) -> bool:
    table, *rest = path.split(".")
    node = raw.get(table)
    record = None
    if isinstance(node, list) and node and all(isinstance(i, dict) for i in node) and rest:
        found = locate(raw, path)
        record = found[1]
        rest = [str(k) for k in found[2:]]
    if (table, record) in tables:
        return True
    return bool(rest) and (table, record, rest[0]) in keys


@dataclass(frozen=True)
class GameData:
    """A game's data file and what checks it: the levers of `--set` and `[data]`.

    ``validate(raw)`` raises DataFileError when the data breaks the game's own rules;
    ``param_set(raw)`` declares the game's parameters with their defaults taken from ``raw``.
    """

    file: Path
    required: tuple[str, ...]
    validate: Callable[[dict], None]
    param_set: Callable[[dict], ParamSet]

    def read(self, text: str | None = None, name: str | None = None) -> dict:
        """A data file's text (the shipped file by default) parsed and validated."""
        if text is None:
            text, name = self.file.read_text(), self.file.name
        return _read(self, text, name or "data file")

    def resolve(
        self,
        overrides: Mapping[str, Any] | None = None,
        text: str | None = None,
        name: str | None = None,
    ) -> dict:
        """The data of one variant: a variant file's text (or the shipped one) plus overrides."""
        key = json.dumps(sorted((overrides or {}).items()), sort_keys=True)
        return _resolve(self, key, text, name)

    def paths(self) -> list[DataPath]:
        """Every addressable value of the shipped file, with its PROVISIONAL mark."""
        raw = self.read()
        tables, keys = provisional_marks(self.file.read_text())
        return [DataPath(p, v, _mark_of(raw, p, tables, keys)) for p, v in _leaves(raw, "")]


# What a leaf of the shipped file allows in a variant file: "bool", "int", "number", "str";
# a list's schema is ("list", its entries' schema); a table's, a dict of its keys' schemas; None
# where the shipped file mixes kinds (the game's validator alone decides).
_KINDS = {bool: "bool", int: "int", float: "number", str: "str"}
_KIND_WORDS = {
    "bool": "true or false",
    "int": "an integer",
    "number": "a finite number",
    "str": "a string",
}


def _schema(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _schema(v) for k, v in node.items()}
    if isinstance(node, list):
        inner = _NOTHING
        for item in node:
            inner = _merge(inner, _schema(item))
        return ("list", None if inner is _NOTHING else inner)
    return _KINDS.get(type(node))


_NOTHING = object()


def _merge(a: Any, b: Any) -> Any:
    if a is _NOTHING:
        return b
    if a == b:
        return a
    if isinstance(a, str) and isinstance(b, str) and {a, b} == {"int", "number"}:
        return "number"
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = _merge(out[k], v) if k in out else v
        return out
    if isinstance(a, tuple) and isinstance(b, tuple):
        if a[1] is None or b[1] is None:
            return ("list", a[1] if b[1] is None else b[1])
        return ("list", _merge(a[1], b[1]))
    return None


@lru_cache(maxsize=16)
def _shipped_schema(file: Path) -> Any:
    return _schema(read_data_text(file.read_text(), file.name, ()))


def _conform_leaf(kind: str, value: Any) -> Any:
    """``value`` as the shipped file's ``kind`` of leaf, or raise ValueError."""
    if kind == "bool" or kind == "str":
        if not isinstance(value, bool if kind == "bool" else str):
            raise ValueError
        return value
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError
    if kind == "int":
        if isinstance(value, float) and not value.is_integer():
            raise ValueError
        return int(value)
    return value


def conform_file(schema: Any, node: Any, name: str, path: str = "") -> Any:
    """``node`` (a variant file's data) with every leaf of the kind the shipped file has there.

    An integer stays an integer (``14.0`` is read as 14; ``14.9``, NaN, infinity or a string
    are refused), a number stays a finite number, a string a string. Keys the shipped file does
    not have, and lists or tables whose shape differs, are left to the game's validator. A
    :class:`DataFileError` names the file ``name`` and the dotted key.
    """
    if schema is None:
        return node
    if isinstance(schema, dict):
        if not isinstance(node, dict):
            return node
        return {
            k: conform_file(schema.get(k), v, name, f"{path}.{k}" if path else k)
            for k, v in node.items()
        }
    if isinstance(schema, tuple):
        if not isinstance(node, list):
            return node
        ids = _ids(node)
        keys = ids if ids is not None else [str(i) for i in range(len(node))]
        return [
            conform_file(schema[1], v, name, f"{path}.{k}") for k, v in zip(keys, node, strict=True)
        ]
    try:
        if isinstance(node, dict | list):
            raise ValueError
        return _conform_leaf(schema, node)
    except ValueError:
        raise DataFileError(
            f"{name}: '{path}' = {show_value(node)} is not allowed: {_KIND_WORDS[schema]}"
        ) from None


def _own_name(message: str, shipped: str, name: str) -> str:
    """A validator's message about the shipped file's name retold about the file ``name``."""
    if name != shipped and message.startswith(f"{shipped}: "):
        return f"{name}: {message[len(shipped) + 2 :]}"
    return message


@lru_cache(maxsize=32)
def _read(data: GameData, text: str, name: str) -> dict:
    raw = read_data_text(text, name, data.required)
    shipped = data.file.name
    wrong_kind = None  # a leaf of another kind than the shipped file's
    if text != data.file.read_text():
        try:
            raw = conform_file(_shipped_schema(data.file), raw, name)
        except DataFileError as exc:
            wrong_kind = exc
    try:
        data.validate(raw)
    except DataFileError as exc:  # the game's own message (it may say more: a range)
        raise DataFileError(_own_name(str(exc).splitlines()[0], shipped, name)) from None
    except (KeyError, TypeError, IndexError, ValueError, OverflowError) as exc:
        if wrong_kind is not None:
            raise wrong_kind from None
        raise DataFileError(f"{name}: malformed data ({type(exc).__name__}: {exc})") from None
    if wrong_kind is not None:  # e.g. a fraction the game would have truncated
        raise wrong_kind
    return raw


@lru_cache(maxsize=256)
def _resolve(data: GameData, key: str, text: str | None, name: str | None) -> dict:
    base = data.read(text, name)
    overrides = dict(json.loads(key))
    if not overrides:
        return base
    raw = apply_overrides(base, overrides)
    try:
        data.validate(raw)
    except (DataFileError, KeyError, TypeError, IndexError, ValueError) as exc:
        what = ", ".join(f"'{p}' = {show_value(v)}" for p, v in sorted(overrides.items()))
        why = _own_name(str(exc).splitlines()[0], data.file.name, name or data.file.name)
        raise DataError(f"data {what} is not allowed: {why}") from None
    return raw


def text_digest(text: str) -> str:
    """The SHA-256 of a data file's text (recorded in a run's manifest)."""
    return hashlib.sha256(text.encode()).hexdigest()


_COMPILED: dict[tuple, Any] = {}


def compiled_for(setup, compile_setup: Callable[[Any], Any]) -> Any:
    """``compile_setup(setup)`` cached by what the setup plays (parameters and data).

    Each variant's data is compiled once per process, before any game, never per game.
    """
    key = (setup.game, setup.players, setup.data_key())
    if key not in _COMPILED:
        if len(_COMPILED) >= 256:
            _COMPILED.clear()
        _COMPILED[key] = compile_setup(setup)
    return _COMPILED[key]
