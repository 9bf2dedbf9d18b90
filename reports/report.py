"""Reports: what a designer reads after a run (game-agnostic, from the contract's columns).

`make_report(run_dirs, out)` reads each run directory lazily with polars, computes win rates by
seat and by role with Wilson 95% intervals against the fair share, score components, game
length and end reasons, and writes report.html (images embedded), summary.md, PNGs and CSVs
into a temporary directory that is renamed into place only when everything succeeded.
"""

from __future__ import annotations

import base64
import json
import shutil
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
import seaborn as sns  # noqa: E402
from statsmodels.stats.multitest import multipletests  # noqa: E402
from statsmodels.stats.proportion import proportion_confint, proportions_ztest  # noqa: E402

PALETTE = "colorblind"


class ReportError(ValueError):
    """A missing, empty or corrupt run directory: one line naming the path."""


def load_run(run_dir: Path) -> tuple[dict, pl.DataFrame, pl.DataFrame]:
    """Manifest, games and players of one run (collected from lazy scans)."""
    if not run_dir.is_dir():
        raise ReportError(f"{run_dir}: no such run directory")
    manifest_path = run_dir / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text())
    except FileNotFoundError:
        raise ReportError(f"{manifest_path}: missing (not a menhir run directory)") from None
    except json.JSONDecodeError as exc:
        raise ReportError(f"{manifest_path}: corrupt JSON ({exc.msg})") from None
    frames = []
    for table in ("games", "players"):
        files = sorted((run_dir / table).glob("variant=*/*.parquet"))
        if not files:
            raise ReportError(f"{run_dir / table}: no finished games in this run")
        for f in files:
            try:
                pl.read_parquet_schema(f)
            except Exception:
                raise ReportError(f"{f}: corrupt parquet file") from None
        lazy = pl.scan_parquet(files, hive_partitioning=False)
        try:
            frames.append(lazy.collect())
        except Exception as exc:
            raise ReportError(f"{run_dir / table}: unreadable parquet ({exc})") from None
    label = manifest.get("name") or run_dir.name
    games, players = (f.with_columns(pl.lit(label).alias("run")) for f in frames)
    return manifest, games, players


def wilson(wins: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = proportion_confint(wins, n, alpha=0.05, method="wilson")
    return np.asarray(lo), np.asarray(hi)


def win_table(players: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """Win rate, its Wilson interval and a test against the fair share, per group."""
    t = (
        players.group_by(["run", "variant", *by])
        .agg(
            pl.len().alias("n"),
            pl.col("win").sum().alias("wins"),
            pl.col("score").mean().alias("mean_score"),
            (1.0 / pl.col("players_n").first()).alias("fair"),
        )
        .sort(["run", "variant", *by])
    )
    n, w, fair = t["n"].to_numpy(), t["wins"].to_numpy(), t["fair"].to_numpy()
    lo, hi = wilson(w, n)
    pvals = np.array(
        [
            proportions_ztest(wi, ni, value=fi, prop_var=fi)[1] if ni > 0 else 1.0
            for wi, ni, fi in zip(w, n, fair, strict=True)
        ]
    )
    reject = multipletests(pvals, method="holm")[0] if len(pvals) else pvals
    return t.with_columns(
        (pl.col("wins") / pl.col("n")).alias("win_rate"),
        pl.Series("ci_low", lo),
        pl.Series("ci_high", hi),
        pl.Series("p_holm_significant", reject.astype(bool)),
    )


def _save(fig, out: Path, name: str, images: list) -> None:
    path = out / f"{name}.png"
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    images.append(path)


def _plot_win_bars(table, key, title, out, name, images):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    labels = [f"{r['variant']} {r[key]}" for r in table.iter_rows(named=True)]
    rate = table["win_rate"].to_numpy()
    err = np.vstack([rate - table["ci_low"].to_numpy(), table["ci_high"].to_numpy() - rate])
    colors = sns.color_palette(PALETTE, len(labels))
    ax.bar(range(len(labels)), rate, yerr=err, color=colors, capsize=3)
    for x, fair in enumerate(table["fair"].to_numpy()):
        ax.hlines(fair, x - 0.4, x + 0.4, colors="black", linestyles="dashed")
    ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right")
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_xlabel(f"variant and {key}")
    ax.set_title(title + " (dashed: fair share 1/players)")
    _save(fig, out, name, images)


def make_report(run_dirs, out=None) -> Path:
    """Write the report of one or more run directories; return the report directory."""
    run_dirs = [Path(d) for d in run_dirs]
    loaded = [load_run(d) for d in run_dirs]
    out = Path(out) if out else run_dirs[0] / "report"
    games = pl.concat([g for _, g, _ in loaded], how="diagonal_relaxed")
    players = pl.concat([p for _, _, p in loaded], how="diagonal_relaxed")
    players = players.join(
        games.select("run", "variant", "game", pl.col("players").alias("players_n")),
        on=["run", "variant", "game"],
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".report-", dir=out.parent))
    try:
        _write(loaded, games, players, tmp)
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def _write(loaded, games, players, out: Path) -> None:
    sns.set_theme(style="whitegrid", palette=PALETTE)
    images: list[Path] = []
    manifest = loaded[0][0]
    by_seat = win_table(players, ["seat"])
    has_roles = players["role"].null_count() < players.height
    by_role = win_table(players.filter(pl.col("role").is_not_null()), ["role"])
    by_side = win_table(players.filter(pl.col("side").is_not_null()), ["role", "side"])
    length = (
        games.group_by(["run", "variant"])
        .agg(
            pl.len().alias("games"),
            pl.col("rounds").mean().alias("mean_rounds"),
            pl.col("turns").mean().alias("mean_turns"),
        )
        .sort(["run", "variant"])
    )
    ends = (
        games.group_by(["run", "variant", "end_reason"])
        .agg(pl.len().alias("games"))
        .sort(["run", "variant", "end_reason"])
    )
    pts = [c for c in players.columns if c.startswith("pts_")]
    group = "role" if has_roles else "seat"
    components = players.group_by(["variant", group]).agg([pl.col(c).mean() for c in pts])
    components = components.sort(["variant", group])

    for name, table in [
        ("win_by_seat", by_seat),
        ("win_by_role", by_role),
        ("win_by_role_side", by_side),
        ("game_length", length),
        ("end_reasons", ends),
        ("score_components", components),
    ]:
        if table.height:
            table.write_csv(out / f"{name}.csv")

    _plot_win_bars(by_seat, "seat", "Win rate by seat", out, "win_by_seat", images)
    if has_roles:
        _plot_win_bars(by_role, "role", "Win rate by role", out, "win_by_role", images)
        heat = (
            players.filter(pl.col("role").is_not_null())
            .group_by(["role", "seat"])
            .agg(pl.col("win").mean())
            .sort(["role", "seat"])
            .to_pandas()
            .pivot(index="role", columns="seat", values="win")
        )
        fig, ax = plt.subplots(figsize=(7, 4.5))
        sns.heatmap(
            heat, annot=True, fmt=".2f", cmap="cividis", ax=ax, cbar_kws={"label": "win rate"}
        )
        ax.set_title("Win rate by role and seat (all variants)")
        ax.set_xlabel("seat (0 = first player)")
        ax.set_ylabel("role")
        _save(fig, out, "role_seat_heatmap", images)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    sns.boxplot(data=players.select(group, "score").to_pandas(), x=group, y="score", ax=ax)
    ax.set_title(f"Final score distribution by {group}")
    _save(fig, out, "score_distribution", images)
    if pts:
        comp = players.group_by(group).agg([pl.col(c).mean() for c in pts]).sort(group)
        fig, ax = plt.subplots(figsize=(8, 4.5))
        comp.to_pandas().set_index(group).plot.bar(
            stacked=True, ax=ax, color=sns.color_palette(PALETTE, len(pts))
        )
        ax.set_ylabel("mean points")
        ax.set_title(f"Where the points come from: mean score components by {group}")
        _save(fig, out, "score_components", images)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    sns.histplot(data=games.to_pandas(), x="rounds", hue="variant", element="step", ax=ax)
    ax.set_title("Game length in rounds, by variant")
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    _save(fig, out, "game_length", images)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ends_pd = ends.to_pandas().pivot(index="variant", columns="end_reason", values="games")
    ends_pd.div(ends_pd.sum(axis=1), axis=0).plot.bar(stacked=True, ax=ax)
    ax.set_ylabel("share of games")
    ax.set_title("How games end, by variant")
    _save(fig, out, "end_reasons", images)
    swept = manifest.get("swept") or []
    param = next((s for s in swept if s in games.columns), None)
    if param and has_roles:
        table = by_role.join(games.select("variant", param).unique(), on="variant")
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for (role,), rows in table.sort(param).group_by(["role"], maintain_order=True):
            x = rows[param].to_numpy()
            ax.plot(x, rows["win_rate"], marker="o", label=role)
            ax.fill_between(x, rows["ci_low"], rows["ci_high"], alpha=0.2)
        ax.set_xlabel(param)
        ax.set_ylabel("win rate (95% band)")
        ax.set_title(f"Role win rate against {param}")
        ax.legend()
        _save(fig, out, "win_by_role_sweep", images)

    summary = _summary(loaded, games, players, by_seat, by_role, length)
    (out / "summary.md").write_text(summary)
    html = [
        "<html><head><meta charset='utf-8'><title>menhir report</title></head><body>",
        "<pre>",
        summary.replace("&", "&amp;").replace("<", "&lt;"),
        "</pre>",
    ]
    for img in images:
        data = base64.b64encode(img.read_bytes()).decode()
        html.append(f"<h3>{img.stem}</h3><img src='data:image/png;base64,{data}'/>")
    html.append("</body></html>")
    (out / "report.html").write_text("\n".join(html))


def _summary(loaded, games, players, by_seat, by_role, length) -> str:
    manifest = loaded[0][0]
    bots = sorted(players["strategy"].unique().to_list())
    lines = [
        f"# menhir report: {', '.join(m.get('name', '?') for m, _, _ in loaded)}",
        "",
        f"Game `{manifest.get('game')}`; bots: {', '.join(bots)}; "
        f"{games.height} games; common random numbers: {manifest.get('paired')}.",
        "",
    ]
    flags = []
    capped = games.filter(pl.col("end_reason") == "turn_cap").height
    if capped:
        flags.append(f"- RULE HOLE? {capped} games ended by the safety cap (`turn_cap`).")
    for r in by_role.iter_rows(named=True):
        if r["wins"] == 0 or r["wins"] == r["n"]:
            what = "never" if r["wins"] == 0 else "always"
            flags.append(f"- {r['role']} {what} wins in variant {r['variant']} ({r['n']} games).")
    lines += [
        "## Flags",
        "",
        *(flags or ["- none: no safety-cap ends, no role always/never wins."]),
        "",
    ]
    for title, table, key in [("Roles", by_role, "role"), ("Seats", by_seat, "seat")]:
        if not table.height:
            continue
        lines += [f"## {title}", ""]
        for r in table.iter_rows(named=True):
            half = (r["ci_high"] - r["ci_low"]) / 2
            sig = "significant" if r["p_holm_significant"] else "not significant"
            lines.append(
                f"- variant {r['variant']}: {key} {r[key]} wins {100 * r['win_rate']:.1f}% ± "
                f"{100 * half:.1f}% of games against a fair {100 * r['fair']:.0f}% ({sig}, Holm)"
            )
        lines.append("")
    lines += ["## Game length", ""]
    for r in length.iter_rows(named=True):
        lines.append(
            f"- variant {r['variant']}: {r['mean_rounds']:.1f} rounds, "
            f"{r['mean_turns']:.1f} turns on average over {r['games']} games"
        )
    return "\n".join(lines) + "\n"
