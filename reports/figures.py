"""The report's figures: which plots a report draws from its tables, into its folder.

`write_figures` draws every PNG the tables call for (reports/plots.py draws each one); `numeric`
says whether a sweep is drawn as lines against its parameter or as grouped bars.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import seaborn as sns

from reports import plots
from reports.load import KEY
from reports.plots import PALETTE


def numeric(table: pl.DataFrame | None, param: str | None) -> bool:
    """A sweep over a numeric parameter (drawn as lines against it, not as grouped bars)."""
    return bool(param and table is not None and table.height and table[param].dtype.is_numeric())


def write_figures(t: dict, out: Path) -> list[Path]:
    """Draw every figure of the report's tables ``t`` into ``out``; return their paths."""
    sns.set_theme(style="whitegrid", palette=PALETTE)
    images: list[Path] = []
    meta = t["_meta"].row(0, named=True)
    group, param = meta["group"], meta["param"]

    plots.win_bars(t["win_by_seat"], "seat", "Win rate by seat", out, "win_by_seat", images)
    if group == "role":
        word = meta["word"]
        title = f"Win rate by {word}"
        plots.win_bars(t["win_by_role"], "role", title, out, "win_by_role", images, word)
        plots.heatmap(t["_cells"], out, images, word)
    if t["variant_differences"].height:
        plots.differences(t["variant_differences"], out, images)
    if t["pairwise"].height:
        plots.pairwise_heatmap(t["pairwise"], group, meta["word"], out, images)
    plots.balance(t["balance"], out, images)
    plots.score_boxes(t["_quantiles"], group, out, images)
    pts = [c for c in t["score_components"].columns if c.startswith("pts_")]
    if pts:
        comp = t["score_components"]
        pooled = t["win_by_" + group].select(*KEY, group, "n")
        comp = (
            comp.join(pooled, on=[*KEY, group])
            .group_by(group)
            .agg([((pl.col(c) * pl.col("n")).sum() / pl.col("n").sum()).alias(c) for c in pts])
            .sort(group)
        )
        plots.components(comp, group, pts, out, images)
    if t["decision_mix"].height:
        plots.decision_mix(t["decision_mix"], group, meta["word"], out, images)
    plots.game_length(t["_lengths"], out, images)
    plots.end_reasons(t["end_reasons"], out, images)
    if t["_sweep"] is not None and t["_sweep"].height:
        plots.role_sweep(t["_sweep"], param, out, images, meta["word"])
    lost = t.get("_lost_sweep")
    if lost is not None and lost.height > 1 and numeric(lost, param):
        plots.role_sweep(lost, param, out, images, "shared defeat", "role", "everybody_lost_sweep")
    seats = t.get("_seat_sweep")
    if seats is not None and seats.height > seats["seat"].n_unique() and numeric(seats, param):
        plots.role_sweep(seats, param, out, images, "seat", "seat", "win_by_seat_sweep")
    return images
