"""Reports: plots, tables and plain-words findings from menhir run directories."""

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported on first use (below); named here for readers and the manual
    from reports.report import ReportError, make_report


def _matplotlib_config_dir() -> None:
    """Point matplotlib at a writable config folder before it is imported: with an unwritable
    HOME it warns on every command (issue 36, defect 22). A user's MPLCONFIGDIR wins."""
    if os.environ.get("MPLCONFIGDIR"):
        return
    home = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "matplotlib"
    try:
        home.mkdir(parents=True, exist_ok=True)
        if os.access(home, os.W_OK):
            return
    except OSError:
        pass
    folder = Path(tempfile.gettempdir()) / f"menhir-{os.getuid()}" / "matplotlib"
    folder.mkdir(parents=True, exist_ok=True)
    os.environ["MPLCONFIGDIR"] = str(folder)


_matplotlib_config_dir()

__all__ = ["ReportError", "make_report"]


def __getattr__(name: str):
    """``make_report`` and ``ReportError`` on first use: reports.report imports matplotlib,
    seaborn, scipy and pandas (1.3 s), which the ``menhir`` commands that write no report
    (``run``, ``check``, ``play``: every worker and every command a script starts) never need."""
    if name in __all__:
        from reports import report

        return getattr(report, name)
    raise AttributeError(f"module 'reports' has no attribute {name!r}")
