"""A numba cache that cannot go stale.

numba's own cache (``cache=True``) is invalidated only when the file of a cached function
changes; a kernel that inlines a function from another file keeps the old code after that other
file is edited (a rule fixed in ``rules.py`` but still played by the bot's cached loop). So the
cache lives in a folder named after a digest of every source file under ``sim/`` and
``strategies/``: any edit to the compiled code starts a fresh cache, and older folders are
pruned. Game data is passed to the kernels as arrays at run time, so a data change never needs a
recompile. ``NUMBA_CACHE_DIR`` set by the user wins.

When the home cache cannot be written, the cache goes to a folder of the system's temporary
directory, named after the same digest, never beside the sources: numba's own fallback there is
keyed on each file's timestamp, so an edited rule inlined elsewhere would not be played, and a
read-only checkout would make every command fail.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

PACKAGES = ("sim", "strategies")
KEEP = 6  # cache folders kept at most (several checkouts may share one machine)
MAX_AGE_DAYS = 7  # and none unused for longer


def source_digest(roots: Iterable[Path]) -> str:
    """A short digest of every ``.py`` file under ``roots`` (paths and contents)."""
    h = hashlib.blake2b(digest_size=8)
    for root in roots:
        for path in sorted(Path(root).rglob("*.py")):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "menhir" / "numba"


def configure(roots: Iterable[Path] | None = None, root: Path | None = None) -> Path | None:
    """Point numba's cache at the folder of the current sources; return it (None if user-set)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    here = Path(__file__).resolve().parent.parent
    roots = list(roots) if roots is not None else [here / p for p in PACKAGES]
    digest = source_digest(roots)
    folder = None
    for base in (root or cache_root(), fallback_root()):
        try:
            (base / digest).mkdir(parents=True, exist_ok=True)
            probe = base / digest / f".probe-{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()
            _prune(base, base / digest)
        except OSError:
            continue  # a read-only home: try the temporary directory
        folder = base / digest
        break
    if folder is None:
        return None
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if "numba" in sys.modules:  # numba read its config before us
        from numba.core import config

        config.reload_config()
    return folder


def fallback_root() -> Path:
    """The cache root used when the home cache cannot be written (one per user)."""
    return Path(tempfile.gettempdir()) / f"menhir-{os.getuid()}" / "numba"


def is_compiled(game: str) -> bool:
    """Whether the cache holds compiled kernels of ``game`` (numba names folders after them)."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder or not Path(folder).is_dir():
        return True  # numba's own locations: nothing to tell
    return any(p.name.startswith(f"{game}_") for p in Path(folder).iterdir())


def _prune(root: Path, current: Path) -> None:
    """Remove folders of old sources: beyond the KEEP most recently used, or unused for a week."""
    import time

    os.utime(current)
    others = [p for p in root.iterdir() if p.is_dir() and p != current]
    others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    week_ago = time.time() - MAX_AGE_DAYS * 86400
    for rank, old in enumerate(others, start=2):
        if rank > KEEP or old.stat().st_mtime < week_ago:
            shutil.rmtree(old, ignore_errors=True)
