"""The output folder of a long command (balance, challenge, screen): created whole, locked.

A new folder is built as a fresh hidden sibling (``tempfile.mkdtemp``, never a name a user may
have chosen) holding the command's state file, locked, then renamed into place; a resumed one is
locked and its state checked against the command's. The process holds an exclusive ``flock`` on
``OUT/.lock`` until it exits (the kernel releases it on any exit, ``kill -9`` included), so a
second command on the same folder stops with one line naming the first one's pid.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from experiments.config_types import UserError

TRIALS = "trials.parquet"


def write_json(path: Path, value: dict) -> None:
    """Replace ``path`` atomically with ``value`` as indented JSON."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(value, indent=2, default=str) + "\n")
    os.replace(tmp, path)


def open_folder(
    out: Path,
    state_name: str,
    state: dict,
    resume: bool,
    what: str,
    same: Callable[[dict], bool],
    differs: str,
) -> int:
    """Create (or with ``resume`` reopen) the folder of a ``what`` command; return its lock.

    ``state`` is written as ``state_name`` in a new folder; on resume, ``same(old_state)`` must
    hold, else ``differs`` is the one-line error.
    """
    from experiments.store import holder_pid, run_holding, take_lock

    out = Path(out)
    if resume:
        if not (out / state_name).is_file():
            raise UserError(
                f"{out}: no {what} to resume (no {state_name}); start it without --resume"
            )
        try:
            lock = take_lock(out)
        except OSError as exc:
            raise UserError(f"{out}: cannot lock the {what} folder ({exc.strerror})") from None
        if lock is None:
            raise UserError(
                f"{out}: in use by another menhir {what} (pid {holder_pid(out)}); "
                "wait for it to end, or stop it, then --resume"
            )
        if not same(json.loads((out / state_name).read_text())):
            os.close(lock)
            raise UserError(differs)
        return lock
    if out.exists() or out.is_symlink():
        raise UserError(f"{out}: exists; choose another --out, or --resume a killed {what}")
    holder = run_holding(out.resolve().parent)
    if holder is not None:
        raise UserError(f"{out}: inside the run directory {holder}; choose an --out outside it")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        lock = take_lock(tmp)
        write_json(tmp / state_name, state)
        os.rename(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return lock


def absolute_files(raw: dict, base: Path) -> dict:
    """``raw`` with its variant data files made absolute against ``base`` (the config's folder),
    so a run written in another folder still finds them (``raw`` is changed in place)."""
    table = raw.get("data")

    def absolute(v):
        return [absolute(x) for x in v] if isinstance(v, list) else str((base / v).resolve())

    if isinstance(table, str | list):
        raw["data"] = absolute(table)
    elif isinstance(table, dict):
        for key in ("file", "data"):
            if key in table:
                table[key] = absolute(table[key])
    return raw


def config_source(config) -> tuple[str, dict, str | None]:
    """(source, raw, stem) of a config given as a TOML path or a parsed mapping (copied)."""
    from experiments.config import read_toml

    if isinstance(config, dict):
        return "<config>", copy.deepcopy(config), None
    return str(config), read_toml(config), Path(config).stem


def read_trials(out: Path):
    """The trials table of a command's folder (None before the first trial); one line if corrupt."""
    import polars as pl

    path = Path(out) / TRIALS
    if not path.exists():
        return None
    try:
        return pl.read_parquet(path)
    except Exception:
        raise UserError(f"{path}: corrupt trials table; start a new --out") from None
