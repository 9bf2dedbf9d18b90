"""The run directory: manifest and parquet datasets, written so that a kill at any moment is safe.

Layout (DESIGN.md contract)::

    RUN/manifest.json
    RUN/games/variant=<id>/part-<first game>-<n games>.parquet
    RUN/players/variant=<id>/part-<first game>-<n games>.parquet
    RUN/.tmp/          files being written (never read)
    RUN/.lock          held (flock) by the one process writing RUN; holds its pid

Every file is written under ``.tmp/`` and renamed into place; a chunk enters the manifest only
after both of its files exist, and the manifest itself is replaced atomically. The directory is
built as a hidden sibling and renamed to ``RUN`` once its first manifest exists, so ``RUN``
exists if and only if it has a manifest. On resume, chunk files the manifest does not list (a
chunk written just before a kill, named as menhir names chunks) are removed and their chunk is
played again, and so is a listed chunk whose files are missing or do not read back with the rows
the manifest says; any other file or folder in the run is left alone (a report reads only the
chunks the manifest lists).

menhir deletes only what it wrote: a hidden sibling left by a killed creation is removed by a
later run only when it holds the marker ``PARTIAL`` that the creation wrote first, listing
every folder and file it was going to write with their sizes, and holds nothing else.

A process that writes ``RUN`` holds an exclusive ``flock`` on ``RUN/.lock`` from before its
first change to its exit (the kernel releases it on any exit, ``kill -9`` included), so two
runs or resumes of one folder cannot interleave: the second stops with one line naming the
first one's pid.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

from experiments.config import UserError

MANIFEST = "manifest.json"
TABLES = ("games", "players")
LOCK = ".lock"
PARTIAL = ".menhir-partial"
# The manifest is rewritten at most this often while chunks arrive (a sweep of 20,000 variants
# has a 20 MB manifest); a chunk not yet listed when the run is killed is played again.
SAVE_EVERY_S = 1.0
CHUNK_NAME = re.compile(r"part-\d{12}-\d+\.parquet")


def chunk_file(root: Path, table: str, variant_id: str, first: int, n: int) -> Path:
    return root / table / f"variant={variant_id}" / f"part-{first:012d}-{n}.parquet"


def _write_atomic(path: Path, data: bytes, tmp_dir: Path, sync: bool = False) -> None:
    """Write ``data`` to a temporary file in ``tmp_dir`` then rename it to ``path``."""
    tmp = tmp_dir / f"{path.parent.name}.{path.name}.{os.getpid()}.tmp"
    with open(tmp, "wb") as fh:
        fh.write(data)
        if sync:
            fh.flush()
            os.fsync(fh.fileno())
    os.replace(tmp, path)


def run_holding(path: Path) -> Path | None:
    """The run directory that ``path`` is or is inside of (a folder with a manifest), or None."""
    for folder in [path, *path.parents]:
        if (folder / MANIFEST).is_file():
            return folder
    return None


def partial_prefix(root: Path) -> str:
    """Hidden siblings ``.<name>.partial-*`` hold run directories being created."""
    return f".{root.name}.partial-"


def take_lock(folder: Path) -> int | None:
    """Lock ``folder/.lock`` and write our pid in it; None when another process holds it."""
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def holder_pid(folder: Path) -> str:
    try:
        return (folder / LOCK).read_text().strip() or "unknown"
    except OSError:
        return "unknown"


def _creation_plan(manifest: dict, files: dict) -> dict:
    """What a creation writes into its hidden sibling: folders, and files with their sizes at
    most (the manifest and variant data files; ``.tmp/`` holds the manifest being written)."""
    folders = [".tmp", *TABLES]
    for rel in files:
        parent = Path(rel).parent
        while str(parent) not in (".", ""):
            folders.append(str(parent))
            parent = parent.parent
    size = len(_manifest_bytes(manifest))
    return {
        "folders": sorted(set(folders)),
        "files": {MANIFEST: size, **{rel: len(t.encode("utf-8")) for rel, t in files.items()}},
        "tmp_max": size,
    }


def _only_planned(folder: Path) -> bool:
    """Whether ``folder`` holds a creation's marker and nothing it did not plan to write."""
    try:
        plan = json.loads((folder / PARTIAL).read_text())
        folders, files, tmp_max = set(plan["folders"]), plan["files"], int(plan["tmp_max"])
        for path in folder.rglob("*"):
            rel = str(path.relative_to(folder))
            if path.is_symlink():
                return False
            if path.is_dir():
                if rel not in folders:
                    return False
            elif rel in (PARTIAL, LOCK):
                continue
            elif rel.startswith(".tmp/"):
                if path.stat().st_size > tmp_max:
                    return False
            elif rel not in files or path.stat().st_size > int(files[rel]):
                return False
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return True


def _remove_stale_partials(root: Path) -> None:
    """Folders left by a creation that was killed (their lock is free, their marker lists all
    they hold); never a live one, never a folder a user named like one."""
    try:
        siblings = list(root.parent.glob(partial_prefix(root) + "*"))
    except OSError:
        return
    for folder in siblings:
        if folder.is_symlink() or not folder.is_dir() or not _only_planned(folder):
            continue
        try:
            fd = take_lock(folder)
        except OSError:
            continue
        if fd is not None:
            shutil.rmtree(folder, ignore_errors=True)
            os.close(fd)


def _manifest_bytes(manifest: dict) -> bytes:
    return json.dumps(manifest, indent=1, sort_keys=False).encode()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _bad_shape(manifest) -> str | None:
    """The first place where ``manifest`` is not what menhir writes, or None."""
    if not isinstance(manifest, dict):
        return "not a JSON object"
    for key, kind in (("variants", list), ("chunk_games", int), ("games_per_variant", int)):
        if not isinstance(manifest.get(key), kind) or isinstance(manifest.get(key), bool):
            return f"key '{key}'"
    if not isinstance(manifest.get("config"), dict):
        return "key 'config'"
    if not isinstance(manifest.get("sessions", []), list):
        return "key 'sessions'"
    for i, v in enumerate(manifest["variants"]):
        where = f"variants[{i}]"
        if not isinstance(v, dict) or not isinstance(v.get("id"), str):
            return where
        if not isinstance(v.get("stop_reason"), str | None):
            return f"{where}.stop_reason"
        for key in ("games_done", "games_planned"):
            if not isinstance(v.get(key), int):
                return f"{where}.{key}"
        chunks = v.get("chunks")
        if not isinstance(chunks, list) or not all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) for x in c)
            for c in chunks
        ):
            return f"{where}.chunks"
    return None


def read_manifest(root: Path) -> dict:
    """The manifest of run directory ``root``, checked for shape; one-line UserError if not."""
    path = Path(root) / MANIFEST
    if not path.is_file():
        raise UserError(f"{root}: not a menhir run directory (no {MANIFEST})")
    try:
        manifest = json.loads(path.read_text())
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise UserError(f"{path}: corrupt manifest (not the JSON menhir writes)") from None
    where = _bad_shape(manifest)
    if where is not None:
        raise UserError(f"{path}: corrupt manifest ({where} is not what menhir writes)")
    return manifest


def chunk_reads(path: Path, first: int, n: int, rows: int | None) -> bool:
    """Whether a chunk file reads back as games ``first .. first + n - 1`` with ``rows`` rows
    (only its ``game`` column is read)."""
    import polars as pl

    try:
        got = (
            pl.scan_parquet(path)
            .select(pl.len(), pl.col("game").min().alias("lo"), pl.col("game").max().alias("hi"))
            .collect()
            .row(0)
        )
    except Exception:  # polars raises several kinds for a truncated or foreign file
        return False
    return (rows is None or got[0] == rows) and got[1:] == (first, first + n - 1)


class RunStore:
    """One run directory: create or reopen it, add chunks, keep the manifest current."""

    def __init__(self, root: str | Path):
        self.root = Path(root)
        self.manifest: dict = {}
        self._lock: int | None = None
        self._saved_at = -math.inf
        self._dirty = False

    @property
    def tmp(self) -> Path:
        return self.root / ".tmp"

    @staticmethod
    def check_absent(root: str | Path) -> None:
        """A new run never writes into an existing directory (or file), nor inside a run."""
        root = Path(root)
        holder = run_holding(root.resolve().parent)
        if holder is not None:
            raise UserError(
                f"{root}: inside the run directory {holder}; choose an --out outside it"
            )
        if root.is_symlink() or root.exists():
            what = "run directory" if root.is_dir() else "file"
            raise UserError(
                f"{root}: {what} already exists; use --resume to complete a run, "
                "or choose another --out"
            )

    @classmethod
    def create(cls, root: str | Path, manifest: dict, files: dict | None = None) -> RunStore:
        """Make a new run directory holding ``manifest``, locked by this process.

        It is built in a fresh hidden sibling and renamed into place, so a second run racing
        for the same ``root`` finds it complete (and locked) or not at all. ``files`` maps
        relative paths to texts written along (the variant data files), so a run is
        reproducible without the designer's working files.
        """
        root = Path(root)
        cls.check_absent(root)
        building = None
        store = cls(root)
        try:
            root.parent.mkdir(parents=True, exist_ok=True)
            _remove_stale_partials(root)
            building = Path(tempfile.mkdtemp(prefix=partial_prefix(root), dir=root.parent))
            plan = _creation_plan(manifest, files or {})
            (building / PARTIAL).write_text(json.dumps(plan))
            building.chmod(0o777 & ~_umask())  # mkdtemp makes it private; a run dir is not
            store._lock = take_lock(building)
            for table in TABLES:  # partition folders are made with their first chunk
                (building / table).mkdir()
            (building / ".tmp").mkdir()
            for rel, text in (files or {}).items():
                (building / rel).parent.mkdir(parents=True, exist_ok=True)
                (building / rel).write_text(text, encoding="utf-8")
            store.root = building
            store.save(manifest)
            cls.check_absent(root)
            os.rename(building, root)  # fails if another run put a non-empty root in place
            (root / PARTIAL).unlink(missing_ok=True)
        except OSError as exc:
            store.close()
            if building is not None:
                shutil.rmtree(building, ignore_errors=True)
            if root.exists():
                cls.check_absent(root)
            raise UserError(f"{root}: cannot create the run directory ({exc.strerror})") from None
        except BaseException:
            store.close()
            if building is not None:
                shutil.rmtree(building, ignore_errors=True)
            raise
        store.root = root
        return store

    @classmethod
    def open(cls, root: str | Path) -> RunStore:
        """Reopen a run directory for resuming: lock it, then read its manifest."""
        store = cls(root)
        read_manifest(store.root)  # a folder that is not a run gets no lock file
        try:
            store._lock = take_lock(store.root)
        except OSError as exc:
            raise UserError(f"{store.root}: cannot lock the run folder ({exc.strerror})") from None
        if store._lock is None:
            raise UserError(
                f"{store.root}: in use by another menhir run (pid {holder_pid(store.root)}); "
                "wait for it to end, or stop it, then --resume"
            )
        try:
            store.manifest = read_manifest(store.root)  # as it is now that we hold the lock
        except BaseException:
            store.close()
            raise
        return store

    def close(self) -> None:
        """Release the lock (also released by the kernel on any exit of this process)."""
        if self._lock is not None:
            try:
                fcntl.flock(self._lock, fcntl.LOCK_UN)
            finally:
                os.close(self._lock)
                self._lock = None

    def tidy(self, ordered: bool = False) -> list[str]:
        """Before resuming: drop temporary files, chunk files the manifest does not list, and
        listed chunks whose files are missing or unreadable (they are played again).

        With ``ordered`` (target_ci runs, whose stops depend on game order) a bad chunk drops
        every later chunk of its variant too. Returns one note per dropped chunk.
        """
        self.tmp.mkdir(exist_ok=True)
        for stale in self.tmp.iterdir():
            stale.unlink()
        notes = self._drop_bad_chunks(ordered)
        self._remove_unlisted(self.manifest["variants"])
        if notes:
            self.save()
        return notes

    def _drop_bad_chunks(self, ordered: bool) -> list[str]:
        notes = []
        for variant in self.manifest["variants"]:
            players = variant.get("setup", {}).get("players")
            chunks = sorted(variant["chunks"])
            keep = []
            for first, n in chunks:
                expected = {"games": n, "players": None if players is None else n * players}
                bad = None
                for table in TABLES:
                    path = chunk_file(self.root, table, variant["id"], first, n)
                    if not path.is_file():
                        bad = f"{path}: listed in the manifest but missing"
                    elif not chunk_reads(path, first, n, expected[table]):
                        bad = f"{path}: listed in the manifest but unreadable or not its games"
                    if bad:
                        break
                if bad is None:
                    keep.append([first, n])
                    continue
                notes.append(f"{bad}; games {first}-{first + n - 1} are played again")
                if ordered:
                    break
            if len(keep) == len(chunks):
                continue
            variant["chunks"] = keep
            variant["games_done"] = sum(n for _, n in keep)
            if ordered or variant["games_done"] < variant["games_planned"]:
                variant["stop_reason"] = None
                if ordered:
                    variant["max_halfwidth"] = None
        return notes

    def _remove_unlisted(self, variants: list[dict]) -> None:
        for variant in variants:
            listed = {f"part-{first:012d}-{n}.parquet" for first, n in variant["chunks"]}
            for table in TABLES:
                folder = self.root / table / f"variant={variant['id']}"
                if not folder.is_dir():
                    continue
                for path in folder.iterdir():
                    if (
                        CHUNK_NAME.fullmatch(path.name)
                        and path.name not in listed
                        and path.is_file()
                        and not path.is_symlink()
                    ):
                        path.unlink()

    def grow(self, games: int, when: str) -> None:
        """Raise the games per variant to ``games`` (a resume with a larger ``--games``).

        Variants that stopped at the old count play on; those that reached their target_ci
        stay stopped. The growth is recorded in the manifest's ``growth`` list.
        """
        old = self.manifest["games_per_variant"]
        self.manifest.setdefault("growth", []).append(
            {
                "at": when,
                "from": old,
                "to": games,
                "games_done": [v["games_done"] for v in self.manifest["variants"]],
            }
        )
        self.manifest["games_per_variant"] = games
        for variant in self.manifest["variants"]:
            variant["games_planned"] = games
            if variant["stop_reason"] == "games":
                variant["stop_reason"] = None

    def save(self, manifest: dict | None = None, throttle: bool = False) -> None:
        """Replace the manifest atomically (fsynced: it is the record of what is done).

        With ``throttle``, at most once per SAVE_EVERY_S: a later save or ``flush`` writes it.
        """
        if manifest is not None:
            self.manifest = manifest
        now = time.monotonic()
        if throttle and now - self._saved_at < SAVE_EVERY_S:
            self._dirty = True
            return
        data = _manifest_bytes(self.manifest)
        _write_atomic(self.root / MANIFEST, data, self.tmp, sync=True)
        self._saved_at, self._dirty = now, False

    def flush(self) -> None:
        """Write a manifest a throttled save left pending."""
        if self._dirty:
            self.save()

    def write_chunk(
        self, variant_id: str, first: int, n: int, games: bytes, players: bytes
    ) -> None:
        """Put one chunk's two parquet files in place (the manifest is not touched)."""
        for table, data in (("games", games), ("players", players)):
            path = chunk_file(self.root, table, variant_id, first, n)
            path.parent.mkdir(exist_ok=True)
            _write_atomic(path, data, self.tmp)

    def chunk_paths(self, table: str, variant: dict) -> list[Path]:
        return [chunk_file(self.root, table, variant["id"], f, n) for f, n in variant["chunks"]]

    def finish(self) -> None:
        """Mark the run complete and remove the temporary folder."""
        self.manifest["status"] = "complete"
        self.save()
        shutil.rmtree(self.tmp, ignore_errors=True)
