"""Reading a game's TOML rules-data file, with errors that name the file and the key."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any


class DataFileError(ValueError):
    """The TOML data file is malformed: the message names the file and the key."""


def data_error(path: Path, key: str, what: str) -> DataFileError:
    """``celtae.toml: 'leaders' is missing`` style error for ``key`` of the file at ``path``."""
    return DataFileError(f"{path.name}: '{key}' {what}")


def read_data_file(path: Path, required: Iterable[str]) -> dict[str, Any]:
    """The parsed file; a one-line error if it is not TOML or lacks a ``required`` table."""
    return read_data_text(path.read_text(), path.name, required)


def read_data_text(text: str, name: str, required: Iterable[str]) -> dict[str, Any]:
    """``read_data_file`` of a file's text; ``name`` is the file's name in messages."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{name}: not valid TOML ({exc})") from None
    for key in required:
        if key not in raw:
            raise DataFileError(f"{name}: '{key}' is missing")
    return raw
