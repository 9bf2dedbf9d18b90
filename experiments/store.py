"""The run directory: manifest and parquet datasets, written so that a kill at any moment is safe.

Layout (DESIGN.md contract)::

    RUN/manifest.json
    RUN/games/variant=<id>/part-<first game>-<n games>.parquet
    RUN/players/variant=<id>/part-<first game>-<n games>.parquet
    RUN/.tmp/          files being written (never read)

Every file is written under ``.tmp/`` and renamed into place; a chunk enters the manifest only
after both of its files exist, and the manifest itself is replaced atomically. The directory is
built as a hidden sibling and renamed to ``RUN`` once its first manifest exists, so ``RUN``
exists if and only if it has a manifest. On resume, files the manifest does not list (a chunk
written just before a kill) are removed and their chunk is played again.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from experiments.config import UserError

MANIFEST = "manifest.json"
TABLES = ("games", "players")


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


def partial_dir(root: Path) -> Path:
    return root.parent / f".{root.name}.partial"


class RunStore:
    """One run directory: create or reopen it, add chunks, keep the manifest current."""

    def __init__(self, root: str | Path):
        self.root = Path(root)
        self.manifest: dict = {}

    @property
    def tmp(self) -> Path:
        return self.root / ".tmp"

    @staticmethod
    def check_absent(root: str | Path) -> None:
        """A new run never writes into an existing directory."""
        if Path(root).exists():
            raise UserError(
                f"{root}: run directory already exists; use --resume to complete it, "
                "or choose another --out"
            )

    @classmethod
    def create(cls, root: str | Path, manifest: dict, files: dict | None = None) -> RunStore:
        """Make a new run directory holding ``manifest``; an existing one is a UserError.

        ``files`` maps relative paths to texts written along (the variant data files), so a
        run is reproducible without the designer's working files.
        """
        root = Path(root)
        cls.check_absent(root)
        building = partial_dir(root)
        shutil.rmtree(building, ignore_errors=True)  # a previous attempt killed mid-creation
        try:
            for table in TABLES:
                for variant in manifest["variants"]:
                    (building / table / f"variant={variant['id']}").mkdir(parents=True)
            (building / ".tmp").mkdir()
            for rel, text in (files or {}).items():
                (building / rel).parent.mkdir(parents=True, exist_ok=True)
                (building / rel).write_text(text, encoding="utf-8")
            store = cls(building)
            store.save(manifest)
            os.rename(building, root)
        except OSError as exc:
            shutil.rmtree(building, ignore_errors=True)
            raise UserError(f"{root}: cannot create the run directory ({exc.strerror})") from None
        store.root = root
        return store

    @classmethod
    def open(cls, root: str | Path) -> RunStore:
        """Reopen a run directory for resuming: read its manifest (nothing is changed yet)."""
        store = cls(root)
        path = store.root / MANIFEST
        if not path.is_file():
            raise UserError(f"{store.root}: not a menhir run directory (no {MANIFEST})")
        try:
            store.manifest = json.loads(path.read_text())
            for variant in store.manifest["variants"]:
                variant["id"], variant["chunks"], variant["stop_reason"]
        except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError):
            raise UserError(f"{path}: corrupt manifest (not the JSON menhir writes)") from None
        return store

    def tidy(self) -> None:
        """Before resuming: drop temporary files and chunk files the manifest does not list."""
        self.tmp.mkdir(exist_ok=True)
        for stale in self.tmp.iterdir():
            stale.unlink()
        self._remove_unlisted(self.manifest["variants"])

    def _remove_unlisted(self, variants: list[dict]) -> None:
        for variant in variants:
            listed = {f"part-{first:012d}-{n}.parquet" for first, n in variant["chunks"]}
            for table in TABLES:
                folder = self.root / table / f"variant={variant['id']}"
                folder.mkdir(parents=True, exist_ok=True)
                for path in folder.iterdir():
                    if path.name not in listed:
                        path.unlink()
                for name in listed:
                    if not (folder / name).is_file():
                        raise UserError(
                            f"{folder / name}: listed in the manifest but missing; "
                            "the run directory was changed by hand"
                        )

    def save(self, manifest: dict | None = None) -> None:
        """Replace the manifest atomically (fsynced: it is the record of what is done)."""
        if manifest is not None:
            self.manifest = manifest
        data = json.dumps(self.manifest, indent=1, sort_keys=False).encode()
        _write_atomic(self.root / MANIFEST, data, self.tmp, sync=True)

    def write_chunk(
        self, variant_id: str, first: int, n: int, games: bytes, players: bytes
    ) -> None:
        """Put one chunk's two parquet files in place (the manifest is not touched)."""
        for table, data in (("games", games), ("players", players)):
            _write_atomic(chunk_file(self.root, table, variant_id, first, n), data, self.tmp)

    def chunk_paths(self, table: str, variant: dict) -> list[Path]:
        return [chunk_file(self.root, table, variant["id"], f, n) for f, n in variant["chunks"]]

    def finish(self) -> None:
        """Mark the run complete and remove the temporary folder."""
        self.manifest["status"] = "complete"
        self.save()
        shutil.rmtree(self.tmp, ignore_errors=True)
