"""The report's figures, drawn with seaborn/matplotlib from small aggregated tables only.

Each function takes already-aggregated polars frames (never a players table), draws one PNG
with labelled axes in the colour-blind palette, and appends its path to `images`. Variants are
shown by their readable label (run name + manifest label when several runs are compared).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
import matplotlib.text

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
import seaborn as sns  # noqa: E402

from reports.wording import num, plural  # noqa: E402

PALETTE = "colorblind"


DPI = 110
PAGE_PX = 1152  # the report's column at a 1280 px window (main: 72rem)
MIN_TEXT_PX = 10  # no plot text smaller than this at the page's width


def shown_scale(fig) -> float:
    """How much the page shrinks the figure's PNG to fit its column (1 when it fits)."""
    return min(1.0, PAGE_PX / (fig.get_figwidth() * DPI))


def text_px(fig, size_pt: float) -> float:
    """A font size in points as pixels on the page (at the page's width)."""
    return size_pt * DPI / 72 * shown_scale(fig)


def _floor_text(fig) -> None:
    """Raise every text smaller than MIN_TEXT_PX on the page to MIN_TEXT_PX."""
    floor_pt = MIN_TEXT_PX / (DPI / 72 * shown_scale(fig))
    for t in fig.findobj(matplotlib.text.Text):
        if t.get_text() and t.get_fontsize() < floor_pt:
            t.set_fontsize(floor_pt)


def save(fig, out: Path, name: str, images: list) -> None:
    path = out / f"{name}.png"
    _floor_text(fig)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    images.append(path)


def _err(mid: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Error-bar lengths below and above, never negative (rounding at rates of 0 or 1)."""
    return np.clip(np.vstack([mid - lo, hi - mid]), 0, None)


def _width(n_labels: int) -> float:
    return min(16.0, max(8.0, 0.9 * n_labels + 3))


def _fair_note(fair: pl.Series) -> str:
    """Title note on the dashed fair-share lines; solo variants have none."""
    solo = fair.null_count()
    if solo == len(fair):
        return " (solo: no fair share)"
    return " (dashed: fair share 1/players" + ("; none for solo)" if solo else ")")


def win_bars(
    table: pl.DataFrame, key: str, title: str, out: Path, name: str, images, word: str = ""
) -> None:
    """Grouped bars: one group per seat/role, one bar per variant, Wilson error bars, and a
    dashed fair-share line over each bar (none for solo variants: no fair share)."""
    groups = table[key].unique(maintain_order=True).sort().to_list()
    variants = table.sort("order")["label"].unique(maintain_order=True).to_list()
    colors = sns.color_palette(PALETTE, len(variants))
    width = 0.8 / max(1, len(variants))
    fig, ax = plt.subplots(figsize=(_width(len(groups) * len(variants) / 2), 4.8))
    for i, label in enumerate(variants):
        rows = table.filter(pl.col("label") == label)
        x = np.array([groups.index(g) for g in rows[key].to_list()]) - 0.4 + (i + 0.5) * width
        rate = rows["win_rate"].to_numpy()
        err = _err(rate, rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy())
        ax.bar(x, rate, width, yerr=err, color=colors[i], capsize=2, label=label)
        for xi, fair in zip(x, rows["fair"].to_numpy(), strict=True):
            if np.isfinite(fair):
                ax.hlines(fair, xi - width / 2, xi + width / 2, colors="black", linestyles="dashed")
    ax.set_xticks(range(len(groups)), [str(g) for g in groups])
    ax.set_xlabel(word or key)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(title + _fair_note(table["fair"]))
    ax.legend(title="variant", fontsize="small")
    save(fig, out, name, images)


def heatmap(cells: pl.DataFrame, out: Path, images, word: str = "role") -> None:
    """Role x seat win rate, one panel per player count (never pooled across counts; `word`:
    the game's word for a role)."""
    counts = cells["players"].unique(maintain_order=True).sort().to_list()
    fig, axs = plt.subplots(
        1, len(counts), figsize=(min(16.0, 3 + 4.5 * len(counts)), 4.5), squeeze=False
    )
    for ax, count in zip(axs[0], counts, strict=True):
        part = cells.filter(pl.col("players") == count).sort(["role", "seat"]).to_pandas()
        heat = part.pivot(index="role", columns="seat", values="win")
        sns.heatmap(
            heat, annot=True, fmt=".2f", cmap="cividis", ax=ax, cbar_kws={"label": "win rate"}
        )
        where = f"{count} players" if len(counts) > 1 else "all variants"
        ax.set_title(f"Win rate by {word} and seat ({where})")
        ax.set_xlabel("seat (0 = first player)")
        ax.set_ylabel(word)
    save(fig, out, "role_seat_heatmap", images)


def score_boxes(q: pl.DataFrame, group: str, out: Path, images) -> None:
    """Box plot from precomputed quantiles (whiskers: 5th and 95th percentile)."""
    stats = [
        {
            "label": str(r[group]),
            "whislo": r["q05"],
            "q1": r["q25"],
            "med": r["q50"],
            "q3": r["q75"],
            "whishi": r["q95"],
            "mean": r["mean"],
            "fliers": [],
        }
        for r in q.iter_rows(named=True)
    ]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    boxes = ax.bxp(stats, showmeans=True, patch_artist=True)
    for patch, color in zip(boxes["boxes"], sns.color_palette(PALETTE, len(stats)), strict=False):
        patch.set_facecolor(color)
    ax.set_xlabel(group)
    ax.set_ylabel("final score")
    ax.set_title(f"Final score distribution by {group} (whiskers: 5th-95th percentile)")
    save(fig, out, "score_distribution", images)


def components(comp: pl.DataFrame, group: str, pts: list[str], out: Path, images) -> None:
    fig, ax = plt.subplots(figsize=(8, 4.5))
    frame = comp.to_pandas().set_index(group)
    frame.columns = [c.removeprefix("pts_") for c in frame.columns]  # the component's own name
    frame.plot.bar(stacked=True, ax=ax, color=sns.color_palette(PALETTE, len(pts)), rot=0)
    ax.legend(title="component", fontsize="small", bbox_to_anchor=(1.01, 1), loc="upper left")
    ax.set_xlabel(group)
    ax.set_ylabel("mean points")
    ax.set_title(f"Where the points come from: mean score components by {group}")
    save(fig, out, "score_components", images)


def game_length(counts: pl.DataFrame, out: Path, images) -> None:
    """Histogram of rounds per variant, from (label, rounds, games) counts."""
    order = counts.sort("order")["label"].unique(maintain_order=True).to_list()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    sns.histplot(
        data=counts.to_pandas(),
        x="rounds",
        weights="games",
        hue="label",
        hue_order=order,
        element="step",
        discrete=True,
        palette=PALETTE,
        ax=ax,
    )
    legend = ax.get_legend()
    if legend is not None:
        legend.set_title("variant")
    ax.set_title("Game length in rounds, by variant")
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    save(fig, out, "game_length", images)


def end_reasons(ends: pl.DataFrame, out: Path, images) -> None:
    table = ends.to_pandas().pivot(index="label", columns="end_reason", values="games").fillna(0)
    table = table.loc[ends.sort("order")["label"].unique(maintain_order=True).to_list()]
    fig, ax = plt.subplots(figsize=(_width(len(table)) + 2, 5))
    table.div(table.sum(axis=1), axis=0).plot.bar(
        stacked=True, ax=ax, color=sns.color_palette(PALETTE, table.shape[1])
    )
    ax.set_xlabel("variant")
    ax.set_ylabel("share of games")
    ax.set_title("How games end, by variant")
    plt.setp(ax.get_xticklabels(), rotation=30, ha="right")
    ax.legend(title="end reason", fontsize="small", bbox_to_anchor=(1.01, 1), loc="upper left")
    save(fig, out, "end_reasons", images)


def role_sweep(
    table: pl.DataFrame,
    param: str,
    out: Path,
    images,
    word: str = "role",
    key: str = "role",
    name: str = "win_by_role_sweep",
) -> None:
    """Win rate of each role (or seat, `key`) against a swept parameter, with the Wilson band
    (one line style per run)."""
    if "stratum" in table.columns and table["stratum"].n_unique() > 1:
        strata = table.sort("order")["stratum"].unique(maintain_order=True).to_list()
    else:
        strata = [None]
    fig, axs = plt.subplots(
        1, len(strata), figsize=(min(16.0, 2 + 6 * len(strata)), 4.5), squeeze=False
    )
    if key != "role":
        table = table.with_columns((pl.lit(f"{key} ") + pl.col(key).cast(pl.String)).alias("role"))
    full = table
    for ax, stratum in zip(axs[0], strata, strict=True):
        part = full if stratum is None else full.filter(pl.col("stratum") == stratum)
        _sweep_panel(ax, part, full, param, word, key, legend=ax is axs[0][-1])
        if stratum is not None:
            ax.set_title(f"{word.capitalize()} win rate against {param} at {stratum}")
    save(fig, out, name, images)


def _sweep_panel(
    ax, table: pl.DataFrame, full: pl.DataFrame, param: str, word: str, key: str, legend: bool
):
    """One panel of `role_sweep` (colors from every panel's roles)."""
    roles = full["role"].unique().sort().to_list()
    runs = table.sort("order")["run"].unique(maintain_order=True).to_list()
    colors = dict(zip(roles, sns.color_palette(PALETTE, len(roles)), strict=True))
    styles = ["-", "--", ":", "-."]
    ordered = table.sort(["order", "role"]).sort(["run", "role", param], maintain_order=True)
    for (run, role), rows in ordered.group_by(["run", "role"], maintain_order=True):
        x = rows[param].to_numpy()
        label = role if len(runs) == 1 else f"{run}: {role}"
        style = styles[runs.index(run) % len(styles)]
        ax.plot(x, rows["win_rate"], style, marker="o", label=label, color=colors[role])
        ax.fill_between(x, rows["ci_low"], rows["ci_high"], alpha=0.2, color=colors[role])
    values = sorted(table[param].drop_nulls().unique().to_list())
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    if numeric and all(float(v).is_integer() for v in values) and len(values) <= 25:
        ax.set_xticks(values, [str(int(v)) for v in values])
    ax.set_xlabel(param)
    ax.set_ylabel("win rate (95% band)")
    ax.set_title(f"{word.capitalize()} win rate against {param}")
    if not legend:
        return
    ax.legend(
        title=word if len(runs) == 1 else f"run: {word}",
        fontsize="small",
        ncol=len(runs),
        bbox_to_anchor=(1.01, 1),
        loc="upper left",
    )


def differences(diff: pl.DataFrame, out: Path, images) -> None:
    """Forest plot: each variant minus its baseline, per role and seat 0, with 95% intervals."""
    d = diff.with_columns(
        pl.when(pl.col("unit") == "seat")
        .then(pl.lit("seat ") + pl.col("group"))
        .otherwise(pl.col("group"))
        .alias("what")
    )
    whats = d["what"].unique(maintain_order=True).to_list()
    labels = d["label"].unique(maintain_order=True).to_list()
    colors = sns.color_palette(PALETTE, len(labels))
    step = 0.8 / max(1, len(labels))
    fig, ax = plt.subplots(figsize=(8, max(3.5, 0.45 * len(whats) * max(1, len(labels)) + 1.5)))
    for i, label in enumerate(labels):
        rows = d.filter(pl.col("label") == label)
        y = np.array([whats.index(w) for w in rows["what"].to_list()]) - 0.4 + (i + 0.5) * step
        x = 100 * rows["diff"].to_numpy()
        err = _err(x, 100 * rows["ci_low"].to_numpy(), 100 * rows["ci_high"].to_numpy())
        ax.errorbar(x, y, xerr=err, fmt="o", color=colors[i], capsize=2, label=label)
        sig = rows["significant"].to_numpy()
        ax.scatter(x[sig], y[sig], marker="*", s=140, color=colors[i], edgecolor="black", zorder=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(whats)), whats)
    bases = d["baseline"].unique(maintain_order=True).to_list()
    base = bases[0] if len(bases) == 1 else "the first variant of its player count"
    ax.set_xlabel(f"win rate minus baseline ({base}), points (95% interval)")
    ax.set_ylabel("role / seat")
    ax.set_title("Variant vs baseline (star: significant after Holm)")
    variants = ax.legend(title="variant (colour)", fontsize="small")
    ax.add_artist(variants)
    # the marks' legend below the axes: it never covers a row
    ax.legend(
        handles=forest_marks(d.height),
        title="marks",
        fontsize="small",
        title_fontsize="small",
        loc="upper center",
        bbox_to_anchor=(0.5, -0.12),
        ncol=2,
    )
    fig.set_figheight(fig.get_figheight() + 1.2)
    save(fig, out, "variant_differences", images)


def forest_marks(comparisons: int) -> list:
    """The legend of the forest plot's marks: what the dot, the bar and the star mean, and at
    which level the bars are drawn (each its own 95% interval, not simultaneous: a bar may
    clear zero without a star, since the star is Holm over every comparison)."""
    from matplotlib.lines import Line2D

    grey = "0.35"
    return [
        Line2D([], [], color=grey, marker="o", linestyle="", label="dot: the change (points)"),
        Line2D(
            [],
            [],
            color=grey,
            marker="|",
            markersize=12,
            linestyle="-",
            label="bar: its own 95% interval (not simultaneous)",
        ),
        Line2D(
            [],
            [],
            color=grey,
            marker="*",
            markersize=12,
            markeredgecolor="black",
            linestyle="",
            label=f"star: significant (Holm, {comparisons} tests)",
        ),
        Line2D([], [], color="black", linewidth=0.8, label="line: no change"),
    ]


def balance(bal: pl.DataFrame, out: Path, images) -> None:
    """Two panels per variant: role spread and first-seat advantage (with interval; "n/a" for a
    solo variant, which has no fair share)."""
    labels = bal["label"].to_list()
    colors = sns.color_palette(PALETTE, len(labels))
    fig, (a, b) = plt.subplots(1, 2, figsize=(_width(2 * len(labels)), 4.5))
    x = np.arange(len(labels))
    a.bar(x, 100 * bal["spread"].fill_null(0).to_numpy(), color=colors)
    a.set_xticks(x, labels, rotation=30, ha="right")
    a.set_xlabel("variant")
    a.set_ylabel("best minus worst role win rate (points)")
    a.set_title("Role spread")
    adv = 100 * bal["seat0_advantage"].fill_null(np.nan).to_numpy()
    low, high = (
        100 * bal[c].fill_null(np.nan).to_numpy() for c in ("seat0_adv_low", "seat0_adv_high")
    )
    has = np.isfinite(adv)
    colors_with = [c for c, h in zip(colors, has, strict=True) if h]
    b.bar(x[has], adv[has], yerr=_err(adv[has], low[has], high[has]), color=colors_with, capsize=3)
    for xi in x[~has]:
        b.text(xi, 0, "n/a (solo)", ha="center", va="bottom", fontsize="small")
    b.set_xlim(-0.6, len(labels) - 0.4)
    b.axhline(0, color="black", linewidth=0.8)
    b.set_xticks(x, labels, rotation=30, ha="right")
    b.set_xlabel("variant")
    b.set_ylabel("seat 0 win rate minus fair share (points)")
    b.set_title("First-seat advantage (95% interval)")
    save(fig, out, "balance", images)


HEATMAP_VARIANTS = 9  # panels drawn; pairwise.csv holds every variant


def pairwise_heatmap(pairs: pl.DataFrame, unit: str, word: str, out: Path, images) -> None:
    """Per variant, the win-rate difference row minus column of every pair of roles (or seats
    when the game has none), in points; a star marks pairs told apart (Holm, 5%).

    Drawn with imshow and one shared colour bar (seaborn's heatmap is several times slower).
    """
    d = pairs.filter(pl.col("unit") == unit)
    labels = d["label"].unique(maintain_order=True).to_list()
    shown = labels[:HEATMAP_VARIANTS]
    cols = min(2, len(shown))  # two panels a row: text stays readable at the page's width
    rows = -(-len(shown) // cols)
    n_levels = len(set(d["a"].to_list()) | set(d["b"].to_list()))
    side = 0.55 * n_levels + 2.2
    fig, axes = plt.subplots(
        rows, cols, figsize=(side * cols + 1.5, side * rows + 0.6), layout="constrained"
    )
    axes = np.atleast_1d(axes).ravel()
    limit = max(1e-9, 100 * float(d["diff"].abs().max()))
    what = word if unit == "role" else "seat"
    image = None
    for n, (ax, label) in enumerate(zip(axes, shown, strict=False)):
        v = d.filter(pl.col("label") == label)
        rates = dict(zip(v["a"], v["win_a"], strict=True)) | dict(
            zip(v["b"], v["win_b"], strict=True)
        )
        order = sorted(rates, key=lambda x: (-rates[x], x))
        index = {x: i for i, x in enumerate(order)}
        value = np.full((len(order), len(order)), np.nan)
        for r in v.iter_rows(named=True):
            i, j = index[r["a"]], index[r["b"]]
            value[i, j], value[j, i] = 100 * r["diff"], -100 * r["diff"]
            star = "*" if r["told_apart"] else ""
            for y, x, val in ((i, j, value[i, j]), (j, i, value[j, i])):
                dark = abs(val) > 0.6 * limit
                ax.text(
                    x,
                    y,
                    f"{num(val, '+.1f')}{star}",
                    ha="center",
                    va="center",
                    fontsize="x-small",
                    color="white" if dark else "black",
                )
        image = ax.imshow(value, cmap="vlag", vmin=-limit, vmax=limit)
        names = [str(x) if unit == "role" else f"seat {x}" for x in order]
        ax.set_xticks(range(len(order)), names, rotation=45, ha="right", fontsize="small")
        ax.set_yticks(range(len(order)), names, fontsize="small")
        ax.grid(False)
        ax.set_title(label, fontsize="small")
        ax.set_xlabel(f"{what} (column)")
        if n % cols == 0:
            ax.set_ylabel(f"{what} (row)")
    for ax in axes[len(shown) :]:
        ax.set_visible(False)
    more = f" (first {len(shown)} of {len(labels)} variants)" if len(labels) > len(shown) else ""
    fig.suptitle(
        f"Win-rate difference between {plural(what)}, row minus column, strongest first{more}; "
        "* told apart (Holm, 5%)",
        fontsize="medium",
    )
    # constrained layout (not tight_layout, which the colour bar then undoes) keeps the
    # rotated tick labels off the axis labels
    fig.colorbar(image, ax=list(axes[: len(shown)]), label="points", shrink=0.8)
    _floor_text(fig)
    fig.savefig(out / "pairwise_heatmap.png", dpi=DPI)
    plt.close(fig)
    images.append(out / "pairwise_heatmap.png")


def decision_mix(mix: pl.DataFrame, group: str, word: str, out: Path, images) -> None:
    """Share of each decision kind per role (or seat) and bot, pooled over variants."""
    acts = [c for c in mix.columns if c.startswith("act_")]
    pooled = (
        mix.group_by([group, "strategy"])
        .agg([((pl.col(a) * pl.col("n")).sum() / pl.col("n").sum()).alias(a) for a in acts])
        .sort([group, "strategy"])
    )
    several_bots = pooled["strategy"].n_unique() > 1
    rows = [
        f"{r[group]} ({r['strategy']})" if several_bots else str(r[group])
        for r in pooled.iter_rows(named=True)
    ]
    values = pooled.select(acts).to_numpy()
    totals = values.sum(axis=1, keepdims=True)
    share = values / np.where(totals == 0, 1, totals)
    fig, ax = plt.subplots(figsize=(max(7, 0.45 * len(acts) + 3), 1.2 + 0.4 * len(rows)))
    image = ax.imshow(share, aspect="auto", cmap="cividis", vmin=0)
    ax.set_xticks(range(len(acts)), [a[4:] for a in acts], rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), rows, fontsize=8)
    fig.colorbar(image, ax=ax, label="share of its decisions")
    shown = word if group == "role" else "seat"
    ax.set_title(f"What the players did: decision mix by {shown}" + (" and bot" * several_bots))
    save(fig, out, "decision_mix", images)
