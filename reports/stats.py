"""Statistics of a report: lazy aggregations over the parquet scans, then tests on small tables.

The lazy half (`*_lazy` functions) turns the players and games scans into per-group counts and
sums; only those small results are collected. The eager half computes Wilson intervals, tests
against the fair share, variant-vs-baseline differences (paired on the game index when the
variants used common random numbers, else unpaired), chi-square tests and balance measures with
statsmodels and scipy. Every table carries `run`, `variant` and a readable `label`.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy.stats import chi2_contingency, norm
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    proportions_ztest,
)

from reports.load import KEY

ALPHA = 0.05
CAP_PATTERN = "(?i)cap|stalemate"


# --------------------------------------------------------------------------- lazy aggregations


def players_lazy(players: pl.LazyFrame, pts: list[str]) -> pl.LazyFrame:
    """Counts, wins and score sums per (run, variant, seat, role, side, strategy)."""
    return players.group_by([*KEY, "seat", "role", "side", "strategy"]).agg(
        pl.len().alias("n"),
        pl.col("win").sum().alias("wins"),
        pl.col("score").cast(pl.Float64).sum().alias("score_sum"),
        *[pl.col(c).cast(pl.Float64).sum() for c in pts],
    )


def games_lazy(games: pl.LazyFrame) -> pl.LazyFrame:
    """Per variant: games, fair share (mean 1/players), mean length, turn-cap and cap ends."""
    return games.group_by(KEY).agg(
        pl.len().alias("games"),
        (1.0 / pl.col("players").cast(pl.Float64)).mean().alias("fair"),
        pl.col("rounds").mean().alias("mean_rounds"),
        pl.col("turns").mean().alias("mean_turns"),
        (pl.col("end_reason") == "turn_cap").sum().alias("turn_cap"),
    )


def stalemates_lazy(games: pl.LazyFrame, players: pl.LazyFrame) -> pl.LazyFrame:
    """Per variant: games where nobody scored, games ended by a cap, and their union.

    "Nobody scored" means every seat's score is <= 0; only those few rows are grouped, so the
    players table is never grouped by game.
    """
    zero = (
        players.filter(pl.col("score") <= 0)
        .group_by([*KEY, "game"])
        .agg(pl.len().alias("zero_seats"))
    )
    flagged = (
        games.select(*KEY, "game", "players", "end_reason")
        .join(zero, on=[*KEY, "game"], how="left")
        .with_columns(
            (pl.col("zero_seats").fill_null(0) >= pl.col("players")).alias("no_score"),
            pl.col("end_reason").fill_null("").str.contains(CAP_PATTERN).alias("capped"),
        )
    )
    return flagged.group_by(KEY).agg(
        pl.col("no_score").sum(),
        pl.col("capped").sum(),
        (pl.col("no_score") | pl.col("capped")).sum().alias("stalemates"),
    )


def seed_match_lazy(games: pl.LazyFrame, base: dict) -> pl.LazyFrame:
    """Per variant: games sharing a game index with the baseline, and how many share its seed."""
    is_base = (pl.col("run") == base["run"]) & (pl.col("variant") == base["variant"])
    base_seeds = games.filter(is_base).select("game", pl.col("seed").alias("seed_base"))
    return (
        games.filter(~is_base)
        .select(*KEY, "game", "seed")
        .join(base_seeds, on="game")
        .group_by(KEY)
        .agg(pl.len().alias("matched"), (pl.col("seed") == pl.col("seed_base")).sum().alias("same"))
    )


def paired_lazy(
    players: pl.LazyFrame, unit: str, base: dict, keys: pl.DataFrame, roles: list[str]
) -> pl.LazyFrame:
    """Per-game paired differences of `win` against the baseline, summarised per group.

    `unit` is "role" (pairs: same game index and role) or "seat" (seat 0, same game index).
    Only the (run, variant) pairs in `keys` are compared. Wins of one role in one game are summed
    first, so a role dealt twice in a game still gives one pair per game; the (game, role) pair
    is packed into one integer key (`roles` lists every role) because grouping and joining on
    it is several times faster than on a string column.
    """
    if unit == "role":
        code = pl.col("role").cast(pl.Enum(roles)).to_physical().cast(pl.Int64)
        per = (
            players.filter(pl.col("role").is_not_null())
            .select(*KEY, "win", (pl.col("game") * len(roles) + code).alias("pair"))
            .group_by([*KEY, "pair"])
            .agg(pl.col("win").sum())
        )
        group = (pl.col("pair") % len(roles)).alias("code")
    else:
        per = players.filter(pl.col("seat") == 0).select(*KEY, "win", pl.col("game").alias("pair"))
        group = pl.lit(0, pl.Int64).alias("code")
    is_base = (pl.col("run") == base["run"]) & (pl.col("variant") == base["variant"])
    base_side = per.filter(is_base).select("pair", pl.col("win").alias("win_base"))
    chosen = per.join(keys.lazy().select(KEY), on=KEY, how="semi")
    d = pl.col("win") - pl.col("win_base")
    summary = (
        chosen.join(base_side, on="pair")
        .group_by([*KEY, group])
        .agg(
            pl.len().alias("n"),
            pl.col("win").mean().alias("rate"),
            pl.col("win_base").mean().alias("rate_base"),
            d.mean().alias("diff"),
            d.std().alias("sd"),
        )
    )
    if unit == "role":
        role = pl.col("code").replace_strict(list(range(len(roles))), roles, return_dtype=pl.String)
        return summary.with_columns(role.alias("role")).drop("code")
    return summary.rename({"code": "seat"})


def score_quantiles_lazy(players: pl.LazyFrame, group: str) -> pl.LazyFrame:
    """Five-number summary (5th, 25th, 50th, 75th, 95th percentile) and mean of score."""
    s = pl.col("score").cast(pl.Float64)
    qs = [(0.05, "q05"), (0.25, "q25"), (0.5, "q50"), (0.75, "q75"), (0.95, "q95")]
    return (
        players.filter(pl.col(group).is_not_null())
        .group_by(group)
        .agg(*[s.quantile(q, "linear").alias(name) for q, name in qs], s.mean().alias("mean"))
        .sort(group)
    )


def length_counts_lazy(games: pl.LazyFrame) -> pl.LazyFrame:
    """Games per (run, variant, rounds): the game-length histogram without the games table."""
    return games.group_by([*KEY, "rounds"]).agg(pl.len().alias("games"))


def end_counts_lazy(games: pl.LazyFrame) -> pl.LazyFrame:
    return games.group_by([*KEY, "end_reason"]).agg(pl.len().alias("games"))


# --------------------------------------------------------------------------- small tables


def wilson(wins, n) -> tuple[np.ndarray, np.ndarray]:
    """Wilson 95% interval of wins out of n (wins may be fractional: tie shares)."""
    lo, hi = proportion_confint(np.asarray(wins), np.asarray(n), alpha=ALPHA, method="wilson")
    return np.atleast_1d(np.asarray(lo, float)), np.atleast_1d(np.asarray(hi, float))


def _test_fair(wins: float, n: float, fair: float) -> float:
    if n <= 0:
        return 1.0
    p = proportions_ztest(wins, n, value=fair, prop_var=fair)[1]
    return float(p) if np.isfinite(p) else 1.0


def holm(pvals) -> tuple[np.ndarray, np.ndarray]:
    """Holm-adjusted p-values and rejections at 5% (empty in, empty out)."""
    pvals = np.asarray(pvals, float)
    if not len(pvals):
        return pvals, pvals.astype(bool)
    reject, adjusted, _, _ = multipletests(pvals, alpha=ALPHA, method="holm")
    return adjusted, reject.astype(bool)


def win_table(agg: pl.DataFrame, by: list[str], info: pl.DataFrame, keys: pl.DataFrame):
    """Win rate, Wilson interval and a Holm-corrected test against the fair share, per group."""
    t = (
        agg.group_by([*KEY, *by])
        .agg(pl.col("n").sum(), pl.col("wins").sum(), pl.col("score_sum").sum())
        .join(info.select(*KEY, "fair"), on=KEY, how="left")
        .join(keys.select("order", *KEY, "label"), on=KEY, how="left")
        .sort(["order", *by])
    )
    n, w, fair = t["n"].to_numpy(), t["wins"].to_numpy(), t["fair"].to_numpy()
    lo, hi = wilson(w, n) if t.height else (np.array([]), np.array([]))
    pvals = [_test_fair(*x) for x in zip(w, n, fair, strict=True)]
    _, reject = holm(pvals)
    return t.select(
        "order",
        "run",
        "variant",
        "label",
        *by,
        "n",
        "wins",
        (pl.col("score_sum") / pl.col("n")).alias("mean_score"),
        "fair",
        (pl.col("wins") / pl.col("n")).alias("win_rate"),
        pl.Series("ci_low", lo, pl.Float64),
        pl.Series("ci_high", hi, pl.Float64),
        pl.Series("p_value", pvals, pl.Float64),
        pl.Series("p_holm_significant", reject, pl.Boolean),
    )


def _paired_row(r: dict) -> dict:
    """Normal interval and z-test on the mean of n per-game differences."""
    n, diff, sd = r["n"], r["diff"], r["sd"] or 0.0
    se = sd / np.sqrt(n) if n > 1 else np.inf
    z = norm.ppf(1 - ALPHA / 2)
    if se == 0:
        p = 1.0 if diff == 0 else 0.0
    else:
        p = float(2 * norm.sf(abs(diff) / se)) if np.isfinite(se) else 1.0
    return {"ci_low": diff - z * se, "ci_high": diff + z * se, "p_value": p}


def _unpaired_row(wv: float, nv: float, wb: float, nb: float) -> dict:
    """Newcombe interval and two-proportion z-test for rate(variant) - rate(baseline)."""
    lo, hi = confint_proportions_2indep(wv, nv, wb, nb, compare="diff", method="newcomb")
    with np.errstate(divide="ignore", invalid="ignore"):
        p = proportions_ztest(np.array([wv, wb]), np.array([nv, nb]))[1]
    if not np.isfinite(p):
        p = 1.0 if wv / nv == wb / nb else 0.0
    return {"ci_low": float(lo), "ci_high": float(hi), "p_value": float(p)}


_DIFF_SCHEMA = {
    "run": pl.String,
    "variant": pl.String,
    "label": pl.String,
    "baseline": pl.String,
    "unit": pl.String,
    "group": pl.String,
    "method": pl.String,
    "n": pl.Int64,
    "n_baseline": pl.Int64,
    "rate_baseline": pl.Float64,
    "rate": pl.Float64,
    "diff": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "p_value": pl.Float64,
}


def differences(
    tables: dict[str, pl.DataFrame], paired: dict[str, pl.DataFrame], keys: pl.DataFrame
) -> pl.DataFrame:
    """Every variant against the baseline, per role and for seat 0, Holm-corrected together.

    `tables` maps unit ("role", "seat") to its win table (seat: the seat 0 rows); `paired` maps
    unit to the summarised paired differences of the variants that used common random numbers.
    """
    base = keys.row(0, named=True)
    rows = []
    for unit, table in tables.items():
        col = unit
        base_rows = {
            r[col]: r
            for r in table.filter(
                (pl.col("run") == base["run"]) & (pl.col("variant") == base["variant"])
            ).iter_rows(named=True)
        }
        pairs = {
            (r["run"], r["variant"], r[col]): r for r in paired.get(unit, pl.DataFrame()).to_dicts()
        }
        for key in keys.slice(1).iter_rows(named=True):
            current = table.filter(
                (pl.col("run") == key["run"]) & (pl.col("variant") == key["variant"])
            )
            for r in current.iter_rows(named=True):
                b = base_rows.get(r[col])
                if b is None:
                    continue
                common = {
                    "run": key["run"],
                    "variant": key["variant"],
                    "label": key["label"],
                    "baseline": base["label"],
                    "unit": unit,
                    "group": str(r[col]),
                }
                pr = pairs.get((key["run"], key["variant"], r[col]))
                if pr is not None and pr["n"] > 0:
                    row = {
                        **common,
                        "method": "paired",
                        "n": pr["n"],
                        "n_baseline": pr["n"],
                        "rate_baseline": pr["rate_base"],
                        "rate": pr["rate"],
                        "diff": pr["diff"],
                        **_paired_row(pr),
                    }
                else:
                    row = {
                        **common,
                        "method": "unpaired",
                        "n": r["n"],
                        "n_baseline": b["n"],
                        "rate_baseline": b["win_rate"],
                        "rate": r["win_rate"],
                        "diff": r["win_rate"] - b["win_rate"],
                        **_unpaired_row(r["wins"], r["n"], b["wins"], b["n"]),
                    }
                rows.append(row)
    out = pl.DataFrame(rows, schema=_DIFF_SCHEMA)
    adjusted, reject = holm(out["p_value"].to_numpy())
    return out.with_columns(
        pl.Series("p_holm", adjusted, pl.Float64),
        pl.Series("significant", reject, pl.Boolean),
    )


def _chi2(matrix: np.ndarray) -> tuple[float, int, float] | None:
    """Chi-square test of independence, dropping all-zero rows and columns; None if degenerate."""
    m = matrix[matrix.sum(axis=1) > 0][:, matrix.sum(axis=0) > 0]
    if m.shape[0] < 2 or m.shape[1] < 2:
        return None
    res = chi2_contingency(m, correction=False)
    return float(res.statistic), int(res.dof), float(res.pvalue)


def chi_square(by_role: pl.DataFrame, by_seat: pl.DataFrame, keys: pl.DataFrame) -> pl.DataFrame:
    """Role x variant and seat x variant wins, and each role's win/loss across variants.

    The overall tests ask whether the share of wins going to each role (seat) depends on the
    variant; the per-role tests ask whether that role's win rate does. Holm across all rows.
    """
    rows = []
    for unit, table in (("role", by_role), ("seat", by_seat)):
        if not table.height or keys.height < 2:
            continue
        wide = table.pivot(on=unit, index="order", values="wins", sort_columns=True).sort("order")
        wide = wide.fill_null(0)
        res = _chi2(wide.drop("order").to_numpy().astype(float))
        if res:
            rows.append(
                dict(
                    zip(
                        ("test", "chi2", "dof", "p_value"),
                        (f"{unit} x variant wins", *res),
                        strict=True,
                    )
                )
            )
    for (role,), t in by_role.sort("order").group_by(["role"], maintain_order=True):
        wins = t["wins"].to_numpy()
        res = _chi2(np.vstack([wins, t["n"].to_numpy() - wins]).T)
        if res:
            rows.append(
                dict(
                    zip(
                        ("test", "chi2", "dof", "p_value"),
                        (f"{role} win rate across variants", *res),
                        strict=True,
                    )
                )
            )
    schema = {"test": pl.String, "chi2": pl.Float64, "dof": pl.Int64, "p_value": pl.Float64}
    out = pl.DataFrame(rows, schema=schema)
    adjusted, reject = holm(out["p_value"].to_numpy())
    return out.with_columns(
        pl.Series("p_holm", adjusted, pl.Float64),
        pl.Series("significant", reject, pl.Boolean),
    )


def balance(
    by_role: pl.DataFrame,
    by_seat: pl.DataFrame,
    info: pl.DataFrame,
    stall: pl.DataFrame,
    keys: pl.DataFrame,
) -> pl.DataFrame:
    """Per variant: role spread (best - worst, named), seat-0 advantage with interval, length,
    turn-cap share and stalemates."""
    ranked = by_role.sort(["order", "win_rate", "role"])
    spread = ranked.group_by(KEY, maintain_order=True).agg(
        pl.col("role").last().alias("best_role"),
        pl.col("win_rate").last().alias("best_rate"),
        pl.col("role").first().alias("worst_role"),
        pl.col("win_rate").first().alias("worst_rate"),
    )
    seat0 = by_seat.filter(pl.col("seat") == 0).select(
        *KEY,
        (pl.col("win_rate") - pl.col("fair")).alias("seat0_advantage"),
        (pl.col("ci_low") - pl.col("fair")).alias("seat0_adv_low"),
        (pl.col("ci_high") - pl.col("fair")).alias("seat0_adv_high"),
    )
    return (
        keys.select("order", *KEY, "label")
        .join(info, on=KEY, how="left")
        .join(spread, on=KEY, how="left")
        .join(seat0, on=KEY, how="left")
        .join(stall, on=KEY, how="left")
        .sort("order")
        .select(
            *KEY,
            "label",
            "games",
            "best_role",
            "best_rate",
            "worst_role",
            "worst_rate",
            (pl.col("best_rate") - pl.col("worst_rate")).alias("spread"),
            "seat0_advantage",
            "seat0_adv_low",
            "seat0_adv_high",
            "mean_rounds",
            "mean_turns",
            (pl.col("turn_cap") / pl.col("games")).alias("turn_cap_share"),
            pl.col("stalemates").fill_null(0),
            pl.col("no_score").fill_null(0),
            pl.col("capped").fill_null(0),
        )
    )
