"""Where a report is written, and the rule that a report never deletes what it did not write.

A report is written into a fresh temporary folder beside its destination and renamed into place
only when every file is written. An existing destination is replaced only when it is a menhir
report: it holds the marker file `MARKER`, which lists every file that report wrote, and nothing
else. Anything else (an unrelated folder, a file, a run directory, a folder holding a run given
as input, a report a user added files to) is refused with one line, and left as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from reports.load import ReportError

MARKER = ".menhir-report"

# Reports written before the marker existed: only these kinds of files, report.html and
# summary.md among them, and no sub-folder.
_LEGACY_SUFFIXES = {".png", ".csv", ".html", ".md"}


class OutDirError(ReportError):
    """The report destination may not be written: one line naming the folder and why."""


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _written_files(out: Path) -> set[str] | None:
    """The files an earlier report wrote into `out`, or None when `out` is not a report."""
    marker = out / MARKER
    if marker.is_file():
        try:
            listed = json.loads(marker.read_text())["files"]
        except (ValueError, KeyError, TypeError, OSError):
            return None
        return {str(f) for f in listed} | {MARKER}
    names = {p.name for p in out.iterdir()}
    if {"report.html", "summary.md"} <= names and all(
        p.is_file() and p.suffix in _LEGACY_SUFFIXES for p in out.iterdir()
    ):
        return names
    return None


def check_out_dir(out: Path, run_dirs: Iterable[Path]) -> None:
    """Refuse a destination whose replacement could lose anything the report did not write."""
    resolved = out.resolve()
    for run in run_dirs:
        run = Path(run).resolve()
        if _inside(run, resolved):
            what = "is" if run == resolved else "holds"
            raise OutDirError(f"{out}: refusing to write a report here: it {what} the run {run}")
    if not out.exists() and not out.is_symlink():
        return
    if out.is_symlink() or not out.is_dir():
        raise OutDirError(f"{out}: exists and is not a folder; choose another --out")
    if not any(out.iterdir()):
        return
    written = _written_files(out)
    if written is None:
        raise OutDirError(
            f"{out}: exists and is not a menhir report; choose another --out "
            "(a report only replaces an earlier report)"
        )
    extra = sorted(p.name for p in out.iterdir() if p.name not in written)
    if extra:
        raise OutDirError(
            f"{out}: holds {extra[0]!r}, which no report wrote; move it or choose another --out"
        )


def write_atomically(out: Path, run_dirs: Iterable[Path], write: Callable[[Path], None]) -> Path:
    """Call `write(tmp)` on a fresh folder beside `out`, then put it in place of `out`.

    The destination is checked first (`check_out_dir`). An earlier report is moved aside, the new
    one renamed into place, and only then the earlier one removed; on any failure the folder is
    left as it was and the temporary folder removed.
    """
    out = Path(out)
    check_out_dir(out, run_dirs)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".report-", dir=out.parent))
    old = None
    try:
        write(tmp)
        files = sorted(p.name for p in tmp.iterdir())
        (tmp / MARKER).write_text(json.dumps({"files": files}, indent=0) + "\n")
        if out.exists():
            check_out_dir(out, run_dirs)  # nothing was added while the report was computed
            old = Path(tempfile.mkdtemp(prefix=".report-old-", dir=out.parent))
            os.rename(out, old / "report")
        os.rename(tmp, out)
    except BaseException:
        if old is not None and not out.exists():
            os.rename(old / "report", out)
            os.rmdir(old)
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return out
