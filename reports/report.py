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

import polars as pl
import seaborn as sns

from reports import axes, decisions, levels, memo, pairwise, plots, render, stats, wording
from reports.load import KEY, ReportError, Run, load_run, load_runs, variant_keys
from reports.outdir import check_out_dir, write_atomically
from reports.plots import PALETTE
from reports.stats import wilson, win_table
from reports.wording import compare_label

__all__ = ["PALETTE", "ReportError", "load_run", "make_report", "wilson", "win_table"]


def _collect(frames: list[pl.LazyFrame], runs: list[Run]) -> list[pl.DataFrame]:
    """Collect small aggregated queries together; a read failure becomes a ReportError."""
    try:
        return pl.collect_all(frames, engine="streaming")
    except Exception as exc:
        where = ", ".join(str(r.path) for r in runs)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ReportError(f"{where}: unreadable parquet ({first})") from None


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


def _with_keys(table: pl.DataFrame, keys: pl.DataFrame) -> pl.DataFrame:
    return keys.select("order", *KEY, "label").join(table, on=KEY, how="inner").sort("order")


def analyse(runs: list[Run]) -> dict[str, pl.DataFrame]:
    """Every table of the report, computed from lazy scans (only aggregates are collected)."""
    games = pl.concat([r.games for r in runs], how="diagonal_relaxed")
    players = pl.concat([r.players for r in runs], how="diagonal_relaxed")
    pts = [c for c in players.collect_schema().names() if c.startswith("pts_")]
    agg, info, stall, lengths, ends = _collect(
        [
            stats.players_lazy(players, pts),
            stats.games_lazy(games),
            stats.stalemates_lazy(games, players),
            stats.length_counts_lazy(games),
            stats.end_counts_lazy(games),
        ],
        runs,
    )
    keys = stats.player_groups(variant_keys(runs, info.select(KEY)), info)
    compared = stats.comparisons(keys)
    swept_values = axes.variant_values(runs)
    # several swept axes: each effect along one axis, the others held fixed (reports/axes.py)
    axis_cmp = None
    within = {a for r in runs for a in (r.manifest.get("swept") or []) if isinstance(a, str)}
    between = set(axes.swept_axes(swept_values)) - within  # runs that differ in a setting
    if axes.several_axes(swept_values) or (len(runs) > 1 and between):
        axis_cmp = axes.axis_comparisons(keys, swept_values)
    seed_cols = [*KEY, "base_order", "base_run", "base_variant"]
    seed_cmp = compared.select(seed_cols)
    if axis_cmp is not None:
        seed_cmp = pl.concat([seed_cmp, axis_cmp.select(seed_cols)]).unique(maintain_order=True)
    has_roles = agg["role"].null_count() < agg.height
    group = "role" if has_roles else "seat"
    param = _swept_param(runs, games)
    units = ["role", "seat"] if has_roles else ["seat"]
    levels = {"seat": sorted(agg["seat"].drop_nulls().unique().to_list())}
    if has_roles:
        levels["role"] = sorted(agg["role"].drop_nulls().unique().to_list())
    mix_lazy = decisions.decisions_lazy(players, group, pts)
    lost_cmp = axis_cmp if axis_cmp is not None else compared
    lazy2 = [stats.seed_match_lazy(games, seed_cmp), stats.score_quantiles_lazy(players, group)]
    lazy2.append(stats.lost_pairs_lazy(games, lost_cmp.select(seed_cols)))
    lazy2.append(
        players.group_by([*KEY, "strategy"]).agg(
            pl.len().alias("n"), pl.col("win").sum().alias("wins")
        )
    )
    if mix_lazy is not None:
        lazy2.append(mix_lazy)
    lazy2 += [pairwise.moments_lazy(players, u, levels[u]) for u in units]
    if param:
        lazy2.append(games.select(*KEY, param).unique())
    seeds, quantiles, lost_pairs, by_bot, *rest = _collect(lazy2, runs)
    mix = rest.pop(0) if mix_lazy is not None else None
    moments, values = dict(zip(units, rest[: len(units)], strict=True)), rest[len(units) :]
    paired_keys = _paired_keys(seeds, compared)
    diff_keys = paired_keys if axis_cmp is None else _paired_keys(seeds, axis_cmp)
    paired = {}
    if diff_keys.height:
        units = ["role", "seat"] if has_roles else ["seat"]
        roles = sorted(agg["role"].drop_nulls().unique().to_list())
        lazies = [stats.paired_lazy(players, u, diff_keys, roles) for u in units]
        paired = dict(zip(units, _collect(lazies, runs), strict=True))
    same_lazy = decisions.same_decisions_lazy(players, paired_keys)
    same = pl.DataFrame()
    if same_lazy is not None:
        same = decisions.same_decisions_table(_collect([same_lazy], runs)[0], paired_keys)

    by_seat = win_table(agg, ["seat"], info, keys)
    by_role = win_table(agg.filter(pl.col("role").is_not_null()), ["role"], info, keys)
    by_side = win_table(agg.filter(pl.col("side").is_not_null()), ["role", "side"], info, keys)
    unit_tables = {"seat": by_seat.filter(pl.col("seat") == 0)}
    if has_roles:
        unit_tables = {"role": by_role, **unit_tables}
    diff = stats.differences(unit_tables, paired, keys, axis_cmp)
    chi = stats.chi_square(by_role, by_seat, keys)
    pairs, spreads = pairwise.pairwise(moments, levels, keys)
    bal = _with_spread(stats.balance(by_role, by_seat, info, stall, keys), spreads)
    comp_keys = [*KEY, group]
    components = (
        agg.filter(pl.col(group).is_not_null())
        .group_by(comp_keys)
        .agg([(pl.col(c).sum() / pl.col("n").sum()).alias(c) for c in pts])
    )
    cells = (
        agg.filter(pl.col("role").is_not_null())
        .join(keys.select(*KEY, "players"), on=KEY, how="left")
        .group_by(["players", "role", "seat"])
        .agg((pl.col("wins").sum() / pl.col("n").sum()).alias("win"))
    )
    sweep = seat_sweep = None
    if param and has_roles:
        sweep = by_role.join(values[0].drop_nulls(param), on=KEY, how="inner")
    if param:
        seat_sweep = by_seat.join(values[0].drop_nulls(param), on=KEY, how="inner")
    if axis_cmp is not None and param:
        # one panel per stratum: the other axes' values held fixed
        strata = pl.DataFrame(
            [
                {
                    "run": run,
                    "variant": vid,
                    "stratum": axes.swept_words({k: v for k, v in sw.items() if k != param}),
                }
                for (run, vid), sw in swept_values.items()
            ],
            schema={"run": pl.String, "variant": pl.String, "stratum": pl.String},
        )
        sweep = sweep.join(strata, on=KEY, how="left") if sweep is not None else None
        seat_sweep = seat_sweep.join(strata, on=KEY, how="left")
    lost_diff = stats.lost_differences(info, lost_cmp, _paired_keys(seeds, lost_cmp), lost_pairs)
    lost_sweep = None
    if param and info["no_winner"].sum() > 0:
        lo, hi = wilson(info["no_winner"].to_numpy(), info["games"].to_numpy())
        lost_sweep = (
            info.select(*KEY, "games", "no_winner")
            .with_columns(
                pl.lit("nobody wins").alias("role"),
                (pl.col("no_winner") / pl.col("games")).alias("win_rate"),
                pl.Series("ci_low", lo),
                pl.Series("ci_high", hi),
            )
            .join(keys.select("order", *KEY), on=KEY)
            .join(values[0].drop_nulls(param), on=KEY, how="inner")
        )
        if axis_cmp is not None:
            lost_sweep = lost_sweep.join(strata, on=KEY, how="left")
    lost = info.filter(pl.col("no_winner") > 0).select(*KEY, "games", "no_winner")
    if lost.height:
        lo, hi = wilson(lost["no_winner"].to_numpy(), lost["games"].to_numpy())
        lost = lost.with_columns(
            (pl.col("no_winner") / pl.col("games")).alias("share"),
            pl.Series("ci_low", lo),
            pl.Series("ci_high", hi),
        )
    return {
        "keys": keys,
        "info": info,
        "everybody_lost": _with_keys(lost, keys),
        "everybody_lost_differences": lost_diff,
        "_lost_sweep": lost_sweep,
        "win_by_seat": by_seat,
        "win_by_role": by_role,
        "win_by_role_side": by_side,
        "game_length": _with_keys(info.select(*KEY, "games", "mean_rounds", "mean_turns"), keys),
        "end_reasons": _with_keys(ends, keys).sort(["order", "end_reason"]),
        "score_components": _with_keys(components, keys).sort(["order", group]),
        "variant_differences": diff,
        "chi_square": chi,
        "balance": bal,
        "pairwise": pairs,
        "stalemates": _with_keys(stall, keys),
        "decision_mix": _mix_or_empty(mix, keys),
        "same_decisions": same,
        "_mix": mix if mix is not None else pl.DataFrame(),
        **_level_tables(runs, by_role, by_seat, by_bot, info, role_word(runs)),
        "_lengths": _with_keys(lengths, keys),
        "_quantiles": quantiles,
        "_cells": cells,
        "_sweep": sweep,
        "_seat_sweep": seat_sweep,
        "_meta": pl.DataFrame(
            {
                "group": [group],
                "param": [param],
                "bots": [", ".join(_bots(agg))],
                "word": [role_word(runs)],
            },
            schema={"group": pl.String, "param": pl.String, "bots": pl.String, "word": pl.String},
        ),
    }


def _level_tables(runs, by_role, by_seat, by_bot, info, word) -> dict[str, pl.DataFrame]:
    """Findings across bot levels, and each bot's win share in mixed games (reports/levels.py)."""
    lv = levels.variant_levels(runs)
    across = levels.across_levels({"win_by_role": by_role, "win_by_seat": by_seat}, lv, word)
    mixed = lv.filter(pl.col("level").is_null()).select(
        pl.col("source_run").alias("run"), "variant"
    )
    skill = (
        by_bot.join(mixed, on=KEY, how="inner")
        .join(info.select(*KEY, "fair"), on=KEY, how="left")
        .filter(pl.col("fair").is_not_null())
        .group_by("strategy")
        .agg(pl.col("n").sum(), pl.col("wins").sum(), pl.col("fair").mean())
    )
    if skill.height:
        lo, hi = wilson(skill["wins"].to_numpy(), skill["n"].to_numpy())
        skill = skill.with_columns(
            (pl.col("wins") / pl.col("n")).alias("win_rate"),
            pl.Series("ci_low", lo),
            pl.Series("ci_high", hi),
        ).sort("win_rate", descending=True)
    return {"across_levels": across, "skill_in_mixed_games": skill}


def _mix_or_empty(mix: pl.DataFrame | None, keys: pl.DataFrame) -> pl.DataFrame:
    return _with_keys(decisions.mix_table(mix), keys) if mix is not None else pl.DataFrame()


def _with_spread(bal: pl.DataFrame, spreads: pl.DataFrame) -> pl.DataFrame:
    """The balance table with the spread's interval and estimated bias next to the spread."""
    cols = bal.columns
    at = cols.index("spread") + 1
    extra = [c for c in spreads.columns if c not in KEY]
    joined = bal.join(spreads, on=KEY, how="left", maintain_order="left")
    return joined.select(*cols[:at], *extra, *cols[at:])


def role_word(runs: list[Run]) -> str:
    """The game's word for a role (Celtae: leader), from its declaration; "role" otherwise."""
    ids = {str(r.manifest.get("game")) for r in runs}
    if len(ids) != 1:
        return "role"
    try:
        from sim.core.registry import get_game

        return get_game(ids.pop()).role_label or "role"
    except Exception:
        return "role"


def _bots(agg: pl.DataFrame) -> list[str]:
    return sorted(agg["strategy"].drop_nulls().unique().to_list())


def _swept_param(runs: list[Run], games: pl.LazyFrame) -> str | None:
    columns = games.collect_schema().names()
    swept = runs[0].manifest.get("swept") or []
    if len(swept) > 1:
        # several axes: the player count is a stratum, never the x axis of a sweep plot
        swept = [s for s in swept if s != axes.PLAYERS]
    return next((s for s in swept if isinstance(s, str) and s in columns), None)


def _paired_keys(seeds: pl.DataFrame, compared: pl.DataFrame) -> pl.DataFrame:
    """The comparisons made on common random numbers.

    The variant's and its baseline's manifests must both say `paired` (`compared.paired_run`),
    and every shared game index must carry the same seed in both variants (so runs with another
    seed are never paired).
    """
    ok = seeds.filter((pl.col("matched") > 0) & (pl.col("same") == pl.col("matched")))
    on = [*KEY, "base_order"]
    return compared.filter(pl.col("paired_run")).join(ok.select(on), on=on, how="semi")


# --------------------------------------------------------------------------- output


def _write(runs: list[Run], t: dict, out: Path) -> None:
    sns.set_theme(style="whitegrid", palette=PALETTE)
    images: list[Path] = []
    meta = t["_meta"].row(0, named=True)
    group, param = meta["group"], meta["param"]
    for name, table in t.items():
        if not name.startswith("_") and name not in ("keys", "info") and table.height:
            table.drop("order", strict=False).write_csv(out / f"{name}.csv")

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
    if lost is not None and lost.height > 1 and _numeric(lost, param):
        plots.role_sweep(lost, param, out, images, "shared defeat", "role", "everybody_lost_sweep")
    seats = t.get("_seat_sweep")
    if seats is not None and seats.height > seats["seat"].n_unique() and _numeric(seats, param):
        plots.role_sweep(seats, param, out, images, "seat", "seat", "win_by_seat_sweep")

    page = build_page(runs, t, meta["bots"], out)
    (out / "summary.md").write_text(render.markdown(page))
    (out / "report.html").write_text(render.html(page, out))


def _pts(x: float) -> str:
    return wording.pts(x)


def _difference_line(r: dict) -> str:
    who = f"the {r['group']}'s" if r["unit"] == "role" else f"seat {r['group']}'s"
    sig = "significant after Holm" if r["significant"] else "not significant after Holm"
    where = f"players {r['players']}, " if "players" in r else ""
    what = compare_label(r["label"], r["baseline"])
    if r.get("axis"):
        where, what = "", axes.effect_label(r)
    return (
        f"- {where}{what}: {who} win rate changes by "
        f"{_pts(r['diff'])} points [{_pts(r['ci_low'])}, {_pts(r['ci_high'])}] "
        f"({r['method']}, p {wording.p_is(r['p_holm'])} Holm), {sig}"
    )


def _stalemate_lines(bal: pl.DataFrame) -> list[str]:
    lines = []
    for r in bal.filter(pl.col("stalemates") > 0).iter_rows(named=True):
        lines.append(
            f"- STALEMATE: variant {r['label']}: {_count(r['stalemates'])} of "
            f"{_count(r['games'])} games "
            f"({r['no_score']} with no one scoring, {r['capped']} ended by a cap)."
        )
    return lines


def _flags(t: dict) -> list[str]:
    flags = []
    for r in t["balance"].filter(pl.col("turn_cap_share") > 0).iter_rows(named=True):
        capped = round(r["turn_cap_share"] * r["games"])
        flags.append(
            f"- RULE HOLE? {capped} games of variant {r['label']} ended by the safety cap "
            "(`turn_cap`)."
        )
    # one line per role (or seat) and finding, however many variants it holds in
    found: dict[tuple, list[str]] = {}
    has_roles = t["win_by_role"].height > 0
    for unit, table in (("role", t["win_by_role"]), ("seat", t["win_by_seat"])):
        for r in table.sort("order").iter_rows(named=True):
            if unit == "seat" and has_roles and _solo(r):
                continue  # a solo seat is its role: flagged once, above
            what = _never_always(r)
            if what is None:
                continue
            who = r["role"] if unit == "role" else f"seat {r['seat']}"
            games = "solo games" if _solo(r) else "games"
            wins = f"{r['wins']:,.0f}" if float(r["wins"]).is_integer() else f"{r['wins']:,.1f}"
            share = 100 * r["win_rate"]
            share = wording.num(share, ".2g" if 0 < share < 1 else ".1f")
            where = f"{r['label']} ({wins} of {r['n']:,} {games}, {share}%)"
            found.setdefault((who, what), []).append(where)
    for (who, what), where in found.items():
        if len(where) == 1:
            flags.append(f"- {who} {what} in variant {where[0]}.")
        else:
            flags.append(f"- {who} {what} in {len(where)} variants: {'; '.join(where)}.")
    return flags


NEVER_WINS, ALWAYS_WINS = 0.01, 0.99  # "never wins" at or below 1% of its games, "always" from 99%


def _never_always(r: dict) -> str | None:
    """'never wins (at most 1% of its games)' / 'always wins (at least 99% ...)' (or '...
    reaches the solo target ...') for a win-table row at or below NEVER_WINS or at or above
    ALWAYS_WINS; None otherwise (each variant's count follows in the flag). A row whose fair
    share is itself that low (the game nearly always ends with nobody winning) is not flagged as
    never winning unless it wins less than half its fair share."""
    rate = r["win_rate"]
    low = rate <= NEVER_WINS and (_solo(r) or rate < r["fair"] / 2)
    if not (low or rate >= ALWAYS_WINS):
        return None
    what = "never" if low else "always"
    share = 100 * (NEVER_WINS if low else ALWAYS_WINS)
    bound = f" ({'at most' if low else 'at least'} {share:.0f}% of its games)"
    verb = "reaches the solo target" if _solo(r) else "wins"
    return f"{what} {verb}{bound}"


def _solo(r: dict) -> bool:
    """A win-table row of a solo variant: there is no fair share to compare with."""
    return r["fair"] is None


def _baseline_text(keys: pl.DataFrame, diff: pl.DataFrame | None = None) -> str:
    """The baseline, or with several player counts the baseline of each one."""
    if diff is not None and "axis" in diff.columns:
        return (
            "Several settings are swept: each is read one at a time, the others held fixed "
            "(each variant against the variant with the same player count and other values "
            "and that setting's first value); player counts are never pooled."
        )
    if not stats.several_player_counts(keys):
        return f"Baseline variant: {keys['label'][0]}."
    groups = keys.group_by("players_group", maintain_order=True).agg(
        pl.col("players").first(), pl.col("label").first(), pl.len()
    )
    compared = groups.filter(pl.col("len") > 1)
    alone = groups.filter(pl.col("len") == 1)["players"].to_list()
    parts = ["Variants are compared only with the baseline of their player count"]
    if compared.height:
        bases = "; ".join(f"players {r['players']}: {r['label']}" for r in compared.to_dicts())
        parts[0] += f" ({bases})"
    if alone:
        parts.append(f"players {', '.join(alone)}: one variant each, not compared")
    return "; ".join(parts) + "."


def _chi_line(r: dict) -> str:
    sig = "significant" if r["significant"] else "not significant"
    where = f"players {r['players']}: " if "players" in r else ""
    return (
        f"- {where}{r['test']}: chi2 = {wording.stat(r['chi2'])}, dof {r['dof']}, "
        f"p {wording.p_is(r['p_holm'])} (Holm), {sig}"
    )


def _spread_interval_text(r: dict) -> str:
    if r.get("spread_low") is None:
        return ""
    return (
        f" [{wording.num(100 * r['spread_low'])}, {wording.num(100 * r['spread_high'])}]"
        " (max minus "
        "min of noisy rates is biased upward, here by about "
        f"{wording.num(100 * r['spread_bias'])} points; the "
        "interval allows for it)"
    )


def _balance_line(r: dict, word: str = "role") -> str:
    spread = (
        f"{word} spread {100 * r['spread']:.1f} points{_spread_interval_text(r)} "
        f"({r['best_role']} {100 * r['best_rate']:.1f}% vs {r['worst_role']} "
        f"{100 * r['worst_rate']:.1f}%); "
        if r["spread"] is not None
        else ""
    )
    if r["seat0_advantage"] is None:
        seat0 = "first-seat advantage n/a (solo: no fair share)"
    else:
        seat0 = (
            f"first-seat advantage {_pts(r['seat0_advantage'])} points "
            f"[{_pts(r['seat0_adv_low'])}, {_pts(r['seat0_adv_high'])}]"
        )
    return (
        f"- {r['label']}: {spread}{seat0}; "
        f"{r['mean_rounds']:.1f} rounds, {r['mean_turns']:.1f} turns; "
        f"{100 * r['turn_cap_share']:.1f}% turn_cap"
    )


def _rate_line(r: dict, key: str, word: str | None = None) -> str:
    half = (r["ci_high"] - r["ci_low"]) / 2
    rate = f"{100 * r['win_rate']:.1f}% ± {100 * half:.1f}%"
    who = f"- variant {r['label']}: {word or key} {r[key]}"
    if _solo(r):
        return f"{who} reaches the solo target in {rate} of solo games"
    sig = "significant" if r["p_holm_significant"] else "not significant"
    return f"{who} wins {rate} of games against a fair {100 * r['fair']:.0f}% ({sig}, Holm)"


def _count(n: int) -> str:
    return f"{n:,}"


def _member_text(names: list[str], rates: dict) -> str:
    return ", ".join(f"{x} {100 * rates[x]:.1f}%" for x in names)


def _group_line(r0: dict, pairs: pl.DataFrame, unit_word: str) -> str:
    """One variant's levels in groups that cannot be told apart, and the gaps between groups."""
    rates: dict = {}
    for r in pairs.iter_rows(named=True):
        rates[r["a"]], rates[r["b"]] = r["win_a"], r["win_b"]
    cut = pairwise.groups(pairs)
    games = _count(r0["games"])
    name = (lambda x: f"seat {x}") if unit_word == "seat" else (lambda x: x)
    parts = []
    for i, group in enumerate(cut):
        text = ", ".join(f"{name(x)} {100 * rates[x]:.1f}%" for x in group)
        if len(group) == len(rates):
            text += f": no two can be told apart at {games} games"
        elif len(group) > 1:
            text += f" cannot be told apart at {games} games"
        if i + 1 < len(cut):
            below = cut[i + 1]
            cross = pairs.filter(pl.col("a").is_in(group) & pl.col("b").is_in(below))
            lo, hi = 100 * cross["diff"].min(), 100 * cross["diff"].max()
            gap = f"{lo:.0f}-{hi:.0f}" if round(lo) != round(hi) else f"{lo:.0f}"
            who = {1: "", 2: "both ", 3: "all three "}.get(len(group), "all ")
            apart = int(cross["told_apart"].sum())
            sure = (
                "every pair told apart"
                if apart == cross.height
                else f"only {apart} of {cross.height} pairs told apart"
            )
            close = cross.row(int(cross["diff"].arg_min()), named=True)
            sure += (
                "; closest "
                f"{wording.pts_ci(close['diff'], close['lo_simul95'], close['hi_simul95'])}"
                " simultaneous"
            )
            nxt = ", ".join(name(x) for x in below)
            text += f"; {who}ahead of {nxt} by {gap} points ({sure})"
        parts.append(text)
    return f"- {r0['label']}: " + "; then ".join(parts) + "."


PAIRWISE_VARIANTS = 6  # variants whose groups the summary spells out


def _pairwise_lines(t: dict, word: str) -> list[str]:
    pairs = t["pairwise"]
    if not pairs.height:
        return []
    lines = [
        f"## Which {wording.plural(word)} and seats can be told apart"
        if (pairs["unit"] == "role").any()
        else "## Which seats can be told apart",
        "",
        "Each pair's win-rate difference has an interval that accounts for the games the "
        "two share (delta method) and is simultaneous over the variant's pairs: all of them "
        "cover their true differences together 95% of the time (a max-t band). A pair is told "
        "apart when its interval excludes 0, which is when its adjusted p (max-t) is below "
        "0.05 (`pairwise.csv`: `lo_simul95`, `hi_simul95`, `p_maxt`).",
        "",
    ]
    for unit, unit_word in (("role", word), ("seat", "seat")):
        sub = pairs.filter(pl.col("unit") == unit)
        if not sub.height:
            continue
        lines.append(f"{wording.plural(unit_word).capitalize()}:")
        parts = [v for _, v in sub.group_by(KEY, maintain_order=True)]
        # the list must not grow with the sweep: the first variants, then pairwise.csv
        for v in parts[:PAIRWISE_VARIANTS]:
            lines.append(_group_line(v.row(0, named=True), v, unit_word))
        if len(parts) > PAIRWISE_VARIANTS:
            lines.append(
                f"- and {len(parts) - PAIRWISE_VARIANTS} more variants: every pair in "
                "`pairwise.csv`."
            )
        lines.append("")
    worst = pairwise.worth_playing(pairs)
    if worst is not None:
        unit_word = word if worst["unit"] == "role" else "seat"
        lines.append(
            f"More games: {pairwise.needed_text(worst, unit_word)} ({worst['label']}; 80% "
            "power at the observed gap to be told apart as above, by the simultaneous "
            "interval). That is the largest such number among "
            f"the gaps of {100 * pairwise.MIN_GAP:.0f} point or more not yet told apart; "
            "`games_needed` in `pairwise.csv` has every pair."
        )
        lines.append("")
    return lines


def _rule_hole_lines(t: dict, word: str, runs: list[Run] | None = None) -> list[str]:
    mix = t.get("_mix")
    if mix is None or not mix.height:
        return []
    group = t["_meta"]["group"][0]
    labels = {(r["run"], r["variant"]): r["label"] for r in t["keys"].iter_rows(named=True)}
    kinds = [c[4:] for c in mix.columns if c.startswith("act_")]
    disabled = {
        (run.name, str(v.get("id"))): decisions.disabled_kinds(v.get("setup") or {}, kinds, word)
        for run in runs or []
        for v in run.manifest.get("variants") or []
        if isinstance(v, dict)
    }
    holes = _merge_variants(
        decisions.rule_holes(
            mix,
            group,
            labels,
            word if group == "role" else "seat",
            disabled,
            _random_use(t, runs or [], labels),
        ),
        t["keys"]["label"].to_list(),
    )
    title = "## Rule holes: what the players never or only sometimes did"
    return [title, "", *holes, ""] if holes else []


def _random_use(t: dict, runs: list[Run], labels: dict):
    """random_use(run, variant) for decisions.rule_holes: random play's mean decisions of each
    kind per game in that variant's setup, from a random-bot variant of the report with the
    same setup when there is one, else from decisions.random_play_use (seeded random games);
    None for a variant whose own bots are all random."""
    mix = t["_mix"]
    strategies = mix.group_by(KEY).agg(pl.col("strategy").unique())
    all_random = {
        (r["run"], r["variant"]): set(r["strategy"]) == {"random"}
        for r in strategies.iter_rows(named=True)
    }
    entries = {
        (run.name, str(v.get("id"))): (str(run.manifest.get("game")), v.get("setup") or {})
        for run in runs
        for v in run.manifest.get("variants") or []
        if isinstance(v, dict)
    }
    games = {(r["run"], r["variant"]): r["games"] for r in t["info"].iter_rows(named=True)}
    acts = [c for c in mix.columns if c.startswith("act_")]

    def same_setup(a: tuple, b: tuple) -> bool:
        drop = lambda s: {k: v for k, v in s.items() if k != "bots"}  # noqa: E731
        return a[0] == b[0] and drop(a[1]) == drop(b[1])

    def use(run: str, variant: str):
        key = (run, variant)
        if all_random.get(key, True) or key not in entries:
            return None
        for other, entry in entries.items():
            if all_random.get(other) and other in games and same_setup(entry, entries[key]):
                part = mix.filter((pl.col("run") == other[0]) & (pl.col("variant") == other[1]))
                sums = part.select((pl.col(a) * pl.col("n")).sum() for a in acts).row(0)
                means = {a[4:]: x / games[other] for a, x in zip(acts, sums, strict=True)}
                return means, games[other], f"of the report's variant {labels[other]}"
        found = decisions.random_play_use(*entries[key])
        return None if found is None else (found, decisions.RANDOM_GAMES, "of this setup")

    return use


def _merge_variants(lines: list[str], labels: list[str]) -> list[str]:
    """One line per finding, not per variant: "- variant v0 (...): X" lines that say the same X
    in several variants become "- variants v0 (...), v1 (...): X" or "- every variant: X"."""
    found: dict[str, list[str]] = {}
    for line in lines:
        label = next((x for x in labels if line.startswith(f"- variant {x}: ")), None)
        if label is None:
            found.setdefault(line, [])
            continue
        found.setdefault(line.removeprefix(f"- variant {label}: "), []).append(label)
    out = []
    for text, where in found.items():
        if not where:
            out.append(text)
        elif len(where) == 1:
            out.append(f"- variant {where[0]}: {text}")
        elif len(where) == len(labels):
            out.append(f"- every variant: {text}")
        else:
            out.append(f"- variants {', '.join(where)}: {text}")
    return out


def _skill_lines(t: dict) -> list[str]:
    skill = t.get("skill_in_mixed_games", pl.DataFrame())
    if not skill.height:
        return []
    lines = ["## Skill expression (games where seats play different bots)", ""]
    for r in skill.iter_rows(named=True):
        lines.append(
            f"- {r['strategy']} wins {r['win_rate']:.1%} [{r['ci_low']:.1%}, {r['ci_high']:.1%}] "
            f"of its seats against a fair {r['fair']:.0%} ({_count(r['n'])} seats)"
        )
    return [*lines, ""]


def summary_text(runs: list[Run], t: dict, bots: str) -> str:
    """summary.md: the headline, then the sections of the report as Markdown."""
    return render.markdown(build_page(runs, t, bots, None))


_CSV_FILES = [
    ("win_by_role.csv", "win rate of each role per variant, Wilson interval, test against fair"),
    ("win_by_role_side.csv", "the same per role and side"),
    ("win_by_seat.csv", "win rate of each seat per variant"),
    ("variant_differences.csv", "every variant minus its baseline, per role and seat 0"),
    ("pairwise.csv", "every pair of roles and of seats, told apart or not, games needed"),
    ("balance.csv", "spread, first-seat advantage, length and caps per variant"),
    ("chi_square.csv", "chi-square tests across variants"),
    ("stalemates.csv", "stalemates and capped games per variant"),
    ("game_length.csv", "mean rounds and turns per variant"),
    ("end_reasons.csv", "how games end, per variant"),
    ("everybody_lost.csv", "games nobody won (a collective defeat) per variant, Wilson interval"),
    (
        "everybody_lost_differences.csv",
        "the share of games nobody won, each variant minus its baseline (paired where possible)",
    ),
    ("score_components.csv", "mean points of each scoring component"),
    ("decision_mix.csv", "mean decisions of each kind per game"),
    ("same_decisions.csv", "paired variants: games where the bots decided as in the baseline"),
    ("across_levels.csv", "findings checked across bot levels"),
    ("skill_in_mixed_games.csv", "each bot's win share in mixed games"),
]

_CAPTIONS = {
    "win_by_role_sweep": "One line per {word} against {param}, with its 95% band: a line that "
    "climbs or falls is what the parameter changes; flat lines it does not.",
    "win_by_role": "Win rate by {word}, one bar per variant with its 95% interval: bars far "
    "from the dashed fair-share line are the imbalance.",
    "everybody_lost_sweep": "Share of games nobody won (a shared defeat) against {param}, with its "
    "95% band: a line that climbs is a game the parameter makes harder.",
    "role_seat_heatmap": "Win rate by {word} and seat, one panel per player count: a row or "
    "column much "
    "lighter or darker than the rest is a {word} or seat effect.",
    "win_by_seat": "Win rate by seat: a bar above the dashed fair-share line is a seat advantage.",
    "win_by_seat_sweep": "One line per seat against {param}, with its 95% band: lines apart are "
    "a seat effect, lines that move are what the parameter does to it.",
    "variant_differences": "Variant vs baseline: dots right of zero help that {word} or seat; "
    "stars are significant after Holm.",
    "pairwise_heatmap": "Row minus column win rate for every pair, strongest first: strong "
    "colours are big gaps, * marks pairs told apart.",
    "balance": "Left: strongest minus weakest {word}; right: the first seat's edge over its "
    "fair share, with its interval.",
    "game_length": "Game length in rounds: a long tail or a second peak points to a stalling rule.",
    "end_reasons": "How games end: any share ended by a cap or a stalemate is a rule hole to "
    "look at.",
    "score_distribution": "Final scores (box: middle half, whiskers: 5th to 95th percentile): "
    "boxes apart mean scores differ, not only wins.",
    "score_components": "Where the points come from: a colour missing for one {group} is a "
    "scoring rule it never uses.",
    "decision_mix": "Decision mix: a dark column is a decision nobody takes, a rule the bots "
    "never use.",
}


def _numeric(table: pl.DataFrame | None, param: str | None) -> bool:
    """A sweep over a numeric parameter (drawn as lines against it, not as grouped bars)."""
    return bool(param and table is not None and table.height and table[param].dtype.is_numeric())


def _figures(names: list[str], out: Path | None, word: str, param, group: str) -> list:
    shown = []
    for name in names:
        if out is None or (out / f"{name}.png").exists():
            caption = _CAPTIONS[name].format(word=word, param=param, group=group)
            shown.append((name, caption))
    return shown


def _incomplete_lines(runs: list[Run]) -> list[str]:
    """A warning per run that was killed or is still running (issue 19, defect 4)."""
    from reports.load import incomplete

    lines = []
    for r in runs:
        missing = incomplete(r.path)
        if missing is not None:
            lines.append(
                f"- INCOMPLETE RUN: {r.name} played {missing[0]:,} of {missing[1]:,} games; "
                "this report covers those games only (complete it with menhir run --resume)."
            )
    return lines


def _everybody_lost_lines(t: dict) -> list[str]:
    """Games nobody won (a collective defeat): a share of games with its interval, never ties."""
    lost = t.get("everybody_lost")
    if lost is None or not lost.height:
        return []
    lines = [
        "Everybody lost (the game ended by a collective defeat, no winner) in: "
        + "; ".join(
            f"{r['label']} {100 * r['share']:.1f}% [{100 * r['ci_low']:.1f}%, "
            f"{100 * r['ci_high']:.1f}%] of {r['games']:,} games"
            for r in lost.iter_rows(named=True)
        )
        + " (95% Wilson). Those games are no win for any seat, not ties; the fair share is "
        "1/players of the games someone won.",
        "",
    ]
    diff = t.get("everybody_lost_differences")
    if diff is not None and diff.height:
        parts = []
        for r in diff.iter_rows(named=True):
            what = compare_label(r["label"], r["baseline"])
            if r.get("axis"):
                what = axes.effect_label(r)
            parts.append(
                f"{what}: {wording.pts_ci(r['diff'], r['ci_low'], r['ci_high'])}"
                f" points ({r['method']}, p {wording.p_is(r['p_holm'])} Holm"
                + (f", {wording.SIG}" if r["significant"] else "")
                + ")"
            )
        lines[-1:-1] = [
            "Change in the share of games nobody won, from the baseline, 95% interval: "
            + "; ".join(parts)
            + " (`everybody_lost_differences.csv`).",
            "",
        ]
    return lines


def build_page(runs: list[Run], t: dict, bots: str, out: Path | None) -> render.Page:
    """The report as a page: headline, context, then sections (tables and their plots)."""
    info, bal, diff = t["info"], t["balance"], t["variant_differences"]
    meta = t["_meta"].row(0, named=True)
    word, group, param = meta.get("word") or "role", meta["group"], meta["param"]
    solo_only = t["win_by_seat"]["fair"].null_count() == t["win_by_seat"].height
    paired = ", ".join(f"{r.name}: {r.manifest.get('paired')}" for r in runs)
    game_ids = dict.fromkeys(str(r.manifest.get("game")) for r in runs)
    holes = _rule_hole_lines(t, word, runs)
    n_holes = sum(x.startswith("- ") and "not a rule hole" not in x for x in holes)
    stalemates = _stalemate_lines(bal)
    unfinished = _incomplete_lines(runs)
    context = [
        *([*unfinished, ""] if unfinished else []),
        *([*stalemates, ""] if stalemates else []),
        f"Game `{'`, `'.join(game_ids)}`; bots: {bots}; {_count(info['games'].sum())} games; "
        f"common random numbers: {paired}. {_baseline_text(t['keys'], diff)}",
        "",
        f"Win rates are wins per game played by that {word} or seat; a win shared by k players "
        "counts 1/k to each.",
        "",
        *_everybody_lost_lines(t),
        *levels.headline(t.get("across_levels", pl.DataFrame())),
    ]
    fig = lambda names: _figures(names, out, word, param, group)  # noqa: E731
    far = memo.far_flags(t, word)
    sections = [
        render.Section(
            "flags",
            "Flags",
            far + _flags(t)
            or [f"- none: no safety-cap ends, no {word} or seat always/never wins."],
        )
    ]
    marks = (
        f"{wording.SIG} significant after Holm against the fair share, "
        f"{wording.SIG}{wording.FAR} also outside {wording.FAR_BAND[0]}x to "
        f"{wording.FAR_BAND[1]}x of it (a flag)."
    )
    rates_text = (
        "Reaching the solo target: share of games, 95% Wilson interval."
        if solo_only
        else f"Wins per game played, 95% Wilson interval; {marks}"
    )
    if not solo_only and t["win_by_seat"]["fair"].null_count():
        rates_text += " In solo variants: the share of games reaching the solo target."
    if t["win_by_role"].height:
        sweep = "win_by_role_sweep" if _numeric(t["_sweep"], param) else None
        sections.append(
            render.Section(
                "roles",
                wording.plural(word).capitalize(),
                [f"Win rate by {word}. {rates_text}"],
                memo.rate_table(t["win_by_role"], "role", wording.pretty).rename(
                    columns={"": word}
                ),
                images=fig([sweep or "win_by_role", "role_seat_heatmap"]),
            )
        )
    sides = t["win_by_role_side"]
    if sides.height and sides["side"].n_unique() > 1:
        both = sides.with_columns(
            (pl.col("role") + pl.lit(", side ") + pl.col("side")).alias("role_side")
        )
        sections.append(
            render.Section(
                "sides",
                f"{wording.plural(word).capitalize()} by side",
                [
                    f"Win rate by {word} and side. {rates_text} The side is chosen by the bot, "
                    "not dealt: a side's rate mixes what the side is worth with when the bot "
                    "picks it (selection bias), so a gap between sides is not a rule effect by "
                    "itself."
                ],
                memo.rate_table(both, "role_side", str).rename(columns={"": f"{word}, side"}),
            )
        )
    sections.append(
        render.Section(
            "seats",
            "Seats",
            [f"Win rate by seat (seat 0 plays first). {rates_text}"],
            memo.rate_table(t["win_by_seat"], "seat", lambda s: f"seat {s}").rename(
                columns={"": "seat"}
            ),
            images=fig(
                ["win_by_seat_sweep" if _numeric(t["_seat_sweep"], param) else "win_by_seat"]
                + ["everybody_lost_sweep"]
            ),
        )
    )
    if diff.height:
        # a forest plot of many variants is unreadable: the table and the sweep plot say it
        forest = ["variant_differences"] if diff["label"].n_unique() <= 6 else []
        sig = diff.filter(pl.col("significant"))
        methods = ", ".join(sorted(set(diff["method"])))
        if sig.height:
            bases = ", ".join(diff["baseline"].unique(maintain_order=True).to_list())
            if "axis" in diff.columns:
                bases = "one setting at a time, the others held fixed"
            text = [
                f"Win-rate change from the baseline ({bases}) in points, 95% interval "
                f"({methods}); {wording.SIG} significant after Holm over all {diff.height} "
                f"comparisons (smallest p {wording.p_is(sig['p_holm'].min())}). Only variants "
                "with a significant change are shown; `variant_differences.csv` has them all."
            ]
            table = memo.difference_table(diff, word)
        else:
            text = [f"- none of {diff.height} comparisons is significant after Holm ({methods})."]
            table = None
        sections.append(
            render.Section(
                "differences",
                "Significant differences from the baseline",
                text,
                table,
                images=fig(forest),
            )
        )
    pair_lines = _pairwise_lines(t, word)
    if pair_lines:
        sections.append(
            render.Section(
                "pairwise", pair_lines[0][3:], pair_lines[2:], images=fig(["pairwise_heatmap"])
            )
        )
    spread_note = (
        f"The {word} spread is the strongest minus the weakest {word}; max minus min of noisy "
        "rates is biased upward, and its interval allows for it. "
        if group == "role"
        else ""  # a game without roles has no spread column: no note for it
    )
    seat_note = "" if solo_only else "First-seat advantage: seat 0's win rate minus its fair share."
    sections.append(
        render.Section(
            "balance",
            "Balance per variant",
            [(spread_note + seat_note).strip()],
            memo.balance_table(bal, word),
            images=fig(["balance", "game_length", "end_reasons"]),
        )
    )
    chi = t["chi_square"]
    if chi.height:
        sections.append(
            render.Section(
                "chi-square",
                "Chi-square tests across variants",
                [_chi_line(r) for r in chi.iter_rows(named=True)],
            )
        )
    if holes:
        sections.append(
            render.Section("rule-holes", holes[0][3:], holes[2:], images=fig(["decision_mix"]))
        )
    elif out is not None and (out / "decision_mix.png").exists():
        sections.append(
            render.Section("decisions", "What the players did", images=fig(["decision_mix"]))
        )
    lv = levels.summary_lines(t.get("across_levels", pl.DataFrame()))
    if lv:
        sections.append(render.Section("across-levels", lv[0][3:], lv[2:]))
    skill = _skill_lines(t)
    if skill:
        sections.append(render.Section("skill", skill[0][3:], skill[2:]))
    if "challenges" in t:
        from reports.challenges import section_lines

        tried = section_lines(t["challenges"])
        if tried:
            sections.append(render.Section("challenges", tried[0][3:], tried[2:]))
    sections.append(
        render.Section("scores", "Scores", images=fig(["score_distribution", "score_components"]))
    )
    files = [(n, w) for n, w in _CSV_FILES if out is None or (out / n).exists()]
    return render.Page(
        title=f"menhir report: {', '.join(r.name for r in runs)}",
        headline=memo.headline(t, word, group, param, n_holes),
        context=context,
        sections=sections,
        files=files,
    )
