"""Where a report is written, and the rule that a report never deletes what it did not write.

A report is written into a fresh temporary folder beside its destination and renamed into place
only when every file is written. An existing destination is replaced only when it is a menhir
report: it holds the marker file `MARKER`, which lists every file that report wrote with its size
and digest, and nothing else, every file unchanged. Anything else (an unrelated folder, a file, a
run directory or a folder inside one, a folder holding a run given as input, a report a user
added files to or edited, a folder without the marker) is refused with one line, and left as it
was.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from reports.load import ReportError

MARKER = ".menhir-report"
# Written first into a report's temporary folder (and into the folder an earlier report is moved
# aside to): what the folder may hold, so a later report can remove it once its writer is gone.
WRITING = ".menhir-report-writing"
TMP_PREFIX = ".report-"
OLD_PREFIX = ".report-old-"
REPORT_SUFFIXES = (".html", ".md", ".png", ".csv", ".json", ".parquet", ".txt")


class OutDirError(ReportError):
    """The report destination may not be written: one line naming the folder and why."""


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def file_digest(path: Path) -> str:
    """A short digest of one file's bytes (what a marker records besides its size)."""
    h = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def listing(folder: Path) -> dict[str, dict]:
    """Every file of `folder` (no sub-folders) with its size and digest, as a marker holds it."""
    return {
        p.name: {"size": p.stat().st_size, "digest": file_digest(p)}
        for p in sorted(folder.iterdir())
        if p.name not in (MARKER, WRITING)
    }


def _written_files(out: Path) -> dict[str, dict] | None:
    """The files an earlier report wrote into `out` (name -> size and digest), or None when
    `out` holds no marker a report wrote (folders written before markers listed sizes are
    refused too: nothing proves their files are the report's)."""
    marker = out / MARKER
    if not marker.is_file() or marker.is_symlink():
        return None
    try:
        listed = json.loads(marker.read_text())["files"]
    except (ValueError, KeyError, TypeError, OSError):
        return None
    if not isinstance(listed, dict) or not all(
        isinstance(v, dict) and isinstance(v.get("size"), int) and isinstance(v.get("digest"), str)
        for v in listed.values()
    ):
        return None
    return listed


def run_holding(path: Path) -> Path | None:
    """The run directory `path` is inside of (a folder with a manifest above it), or None."""
    for folder in [path, *path.parents]:
        if (folder / "manifest.json").is_file():
            return folder
    return None


def check_out_dir(out: Path, run_dirs: Iterable[Path]) -> None:
    """Refuse a destination whose replacement could lose anything the report did not write."""
    resolved = out.resolve()
    for run in run_dirs:
        run = Path(run).resolve()
        if _inside(run, resolved):
            what = "is" if run == resolved else "holds"
            raise OutDirError(f"{out}: refusing to write a report here: it {what} the run {run}")
    inside = run_holding(resolved.parent)
    if inside is not None and resolved.parent != inside:
        raise OutDirError(
            f"{out}: refusing to write a report inside the run directory {inside}'s data "
            "folders; choose a folder beside them (the default is RUN_DIR/report)"
        )
    if not out.exists() and not out.is_symlink():
        for above in out.parents:  # the first folder that exists must be a folder
            if above.exists():
                if not above.is_dir():
                    raise OutDirError(
                        f"{out}: {above} is a file, not a folder; choose another --out"
                    )
                break
        return
    if out.is_symlink() or not out.is_dir():
        raise OutDirError(f"{out}: exists and is not a folder; choose another --out")
    if not any(out.iterdir()):
        return
    written = _written_files(out)
    if written is None:
        raise OutDirError(
            f"{out}: exists and is not a menhir report (no {MARKER} listing its files); "
            "choose another --out (a report only replaces an earlier report)"
        )
    for path in sorted(out.iterdir()):
        if path.name == MARKER:
            continue
        if path.name not in written or path.is_symlink() or not path.is_file():
            raise OutDirError(
                f"{out}: holds {path.name!r}, which no report wrote; "
                "move it or choose another --out"
            )
        want = written[path.name]
        if path.stat().st_size != want["size"] or file_digest(path) != want["digest"]:
            raise OutDirError(
                f"{out}: {path.name!r} was changed since the report wrote it; "
                "move it or choose another --out"
            )


def _lock_folder(folder: Path) -> int | None:
    """An exclusive flock on the folder itself (it follows the folder through a rename and
    ends with the process, ``kill -9`` included); None when another process holds it."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _start(folder: Path, plan: dict) -> int:
    fd = _lock_folder(folder)
    assert fd is not None  # a fresh mkdtemp folder: nobody else knows it
    (folder / WRITING).write_text(json.dumps(plan) + "\n")
    return fd


def _plan_of(folder: Path) -> dict | None:
    try:
        plan = json.loads((folder / WRITING).read_text())
    except (OSError, ValueError):
        return None
    return plan if isinstance(plan, dict) else None


def _only_report_files(folder: Path, suffixes) -> bool:
    """Whether ``folder`` holds nothing but plain files a report writes (no folder, no link)."""
    for path in folder.iterdir():
        if path.is_symlink() or not path.is_file():
            return False
        if path.name not in (WRITING, MARKER) and not path.name.endswith(tuple(suffixes)):
            return False
    return True


def _is_report(folder: Path) -> bool:
    """Whether ``folder`` is a whole report: its marker lists exactly what it holds."""
    written = _written_files(folder)
    if written is None or folder.is_symlink() or not folder.is_dir():
        return False
    names = {p.name for p in folder.iterdir()} - {MARKER}
    return names == set(written) and all(
        not (folder / n).is_symlink()
        and (folder / n).is_file()
        and (folder / n).stat().st_size == w["size"]
        and file_digest(folder / n) == w["digest"]
        for n, w in written.items()
    )


def remove_stale(parent: Path) -> None:
    """Remove what a report killed while writing left beside its destination.

    A ``.report-*`` folder is removed only when no process holds its lock and its
    ``WRITING`` marker says what it may hold and it holds nothing else: a temporary report
    (plain report files) or an earlier report moved aside (a whole report, which is put back
    when its destination is gone). A folder a user named like one has no marker and is left.
    """
    try:
        siblings = sorted(parent.glob(TMP_PREFIX + "*"))
    except OSError:
        return
    for folder in siblings:
        try:
            if folder.is_symlink() or not folder.is_dir():
                continue
            plan = _plan_of(folder)
            if plan is None:
                continue
            fd = _lock_folder(folder)
            if fd is None:  # a report writing now
                continue
            try:
                _clean(folder, plan, parent)
            finally:
                os.close(fd)
        except OSError:
            continue


def _clean(folder: Path, plan: dict, parent: Path) -> None:
    kind, suffixes = plan.get("kind"), plan.get("suffixes")
    if kind == "report" and folder.name.startswith(TMP_PREFIX) and isinstance(suffixes, list):
        if _only_report_files(folder, [str(x) for x in suffixes]):
            shutil.rmtree(folder)
    elif kind == "earlier" and folder.name.startswith(OLD_PREFIX):
        names = {p.name for p in folder.iterdir()}
        dest = plan.get("out")
        if not isinstance(dest, str) or "/" in dest or dest in ("", ".", ".."):
            return
        if names == {WRITING}:  # moved aside nothing yet, or put back already
            os.remove(folder / WRITING)
            os.rmdir(folder)
        elif names == {WRITING, "report"} and _is_report(folder / "report"):
            target = parent / dest
            if not target.exists() and not target.is_symlink():
                os.rename(folder / "report", target)  # the new report never arrived
            else:
                shutil.rmtree(folder / "report")
            os.remove(folder / WRITING)
            os.rmdir(folder)


def write_atomically(out: Path, run_dirs: Iterable[Path], write: Callable[[Path], None]) -> Path:
    """Call `write(tmp)` on a fresh folder beside `out`, then put it in place of `out`.

    The destination is checked first (`check_out_dir`). An earlier report is moved aside, the new
    one renamed into place, and only then the earlier one removed; on any failure the folder is
    left as it was and the temporary folder removed. Each temporary folder is locked and marked
    (`WRITING`) from its creation, so that what a killed report left is removed by a later one
    (`remove_stale`), never a folder a report is writing.
    """
    out = Path(out)
    check_out_dir(out, run_dirs)
    out.parent.mkdir(parents=True, exist_ok=True)
    remove_stale(out.parent)
    tmp = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=out.parent))
    locks = []
    old = None
    try:
        locks.append(_start(tmp, {"kind": "report", "suffixes": list(REPORT_SUFFIXES)}))
        write(tmp)
        (tmp / MARKER).write_text(json.dumps({"files": listing(tmp)}, indent=0) + "\n")
        if out.exists():
            check_out_dir(out, run_dirs)  # nothing was added while the report was computed
            old = Path(tempfile.mkdtemp(prefix=OLD_PREFIX, dir=out.parent))
            locks.append(_start(old, {"kind": "earlier", "out": out.name}))
            os.rename(out, old / "report")
        os.remove(tmp / WRITING)
        os.rename(tmp, out)
    except BaseException:
        if old is not None and not out.exists() and (old / "report").exists():
            os.rename(old / "report", out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        for fd in locks:
            os.close(fd)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return out
