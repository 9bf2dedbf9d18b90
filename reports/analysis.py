"""The report's numbers: every aggregated table, computed from the runs' lazy scans.

`analyse(runs)` scans each run lazily with polars and collects only aggregated tables: win rates
by seat, role and side with Wilson 95% intervals against the fair share (none for solo
variants); differences from the baseline of the same player count per role and for seat 0
(paired on the game index when the variants used common random numbers), or along one swept
axis at a time with the others held fixed (reports/axes.py), with Holm-corrected tests;
chi-square tests within each player count; pairwise differences; balance measures per variant;
stalemates and shared defeats; score components, game length and end reasons; findings across
bot levels. The words and the page are in `findings.py` and `page.py`, the figures in
`figures.py`.
"""

from __future__ import annotations

import polars as pl

from reports import axes, decisions, levels, pairwise, stats
from reports.load import KEY, ReportError, Run, variant_keys
from reports.stats import wilson, win_table


def _collect(frames: list[pl.LazyFrame], runs: list[Run]) -> list[pl.DataFrame]:
    """Collect small aggregated queries together; a read failure becomes a ReportError."""
    try:
        return pl.collect_all(frames, engine="streaming")
    except Exception as exc:
        where = ", ".join(str(r.path) for r in runs)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ReportError(f"{where}: unreadable parquet ({first})") from None


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
