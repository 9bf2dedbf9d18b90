"""Reports: what a designer reads after a run (game-agnostic, from the contract's columns).

`make_report(run_dirs, out)` scans each run directory lazily with polars and collects only
aggregated tables: win rates by seat, role and side with Wilson 95% intervals against the fair
share (none for solo variants); differences from the baseline of the same player count per role
and for seat 0 (paired on the game index when the variants used common random numbers) with
Holm-corrected tests, and chi-square tests within each player count; balance
measures per variant; stalemates; score components, game length and end reasons. It writes
report.html (tables and images embedded), summary.md, PNGs and CSVs into a temporary directory
that is renamed into place only when everything succeeded.
"""

from __future__ import annotations

from pathlib import Path

from reports import render
from reports.analysis import analyse
from reports.figures import write_figures
from reports.load import ReportError, Run, load_run, load_runs
from reports.outdir import check_out_dir, write_atomically
from reports.page import build_page
from reports.plots import PALETTE
from reports.stats import wilson, win_table
from reports.wording import compare_label  # noqa: F401 (reports.report.compare_label)

__all__ = ["PALETTE", "ReportError", "load_run", "make_report", "wilson", "win_table"]


def make_report(run_dirs, out=None, partial: bool = False, challenges=()) -> Path:
    """Write the report of one or more run directories; return the report directory.

    Only the chunks each manifest lists are read; ``partial`` reports the listed chunks that
    exist instead of refusing a run whose files disagree with its manifest. ``challenges``:
    folders of `menhir challenge` whose verdicts the report adds ("Would a better player
    change it?", challenges.csv).
    """
    run_dirs = [Path(d) for d in run_dirs]
    out = Path(out) if out else run_dirs[0] / "report"
    check_out_dir(out, run_dirs)
    runs = load_runs(run_dirs, partial)
    tables = analyse(runs)
    if challenges:
        from reports.challenges import read_challenges

        game = str(runs[0].manifest.get("game"))
        tables["challenges"] = read_challenges(challenges, game)
    return write_atomically(out, run_dirs, lambda tmp: _write(runs, tables, tmp))


def _write(runs: list[Run], t: dict, out: Path) -> None:
    """Write the report's CSVs, figures, summary.md and report.html into ``out``."""
    for name, table in t.items():
        if not name.startswith("_") and name not in ("keys", "info") and table.height:
            table.drop("order", strict=False).write_csv(out / f"{name}.csv")
    write_figures(t, out)
    page = build_page(runs, t, t["_meta"]["bots"][0], out)
    (out / "summary.md").write_text(render.markdown(page))
    (out / "report.html").write_text(render.html(page, out))
