"""Statistics of a report: lazy aggregations over the parquet scans, then tests on small tables.

The lazy half (`*_lazy` functions) turns the players and games scans into per-group counts and
sums; only those small results are collected. The eager half computes Wilson intervals, tests
against the fair share, variant-vs-baseline differences (paired on the game index when the
variants used common random numbers, else unpaired), chi-square tests and balance measures with
statsmodels and scipy. Every table carries `run`, `variant` and a readable `label`.

Win rates are only comparable at one player count (the fair share is 1/players), so a variant
is compared with the baseline of its player count — the first variant with that count — and
chi-square tests run within each player count. A solo variant (every game has players == 1)
has no fair share: its `fair` is null and it is not tested against one.
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
    """Per variant: games, player counts, fair share, mean length, turn-cap and cap ends, and the
    games nobody won (``no_winner``: a collective defeat such as The Great Wall's fallen wall).

    The fair share is the mean of 1/players over all games, a game nobody won counting 0 (no
    seat could have had its share of it); null for a solo variant (no opponent to share with).
    Only streaming aggregations (min, max, mean, sum) are used, so the query stays streaming.
    """
    players = pl.col("players")
    return (
        games.group_by(KEY)
        .agg(
            pl.len().alias("games"),
            players.min().alias("min_players"),
            players.max().alias("max_players"),
            players.cast(pl.Float64).mean().alias("mean_players"),
            # a game nobody won (a collective defeat) gives no seat a share of a win
            ((pl.col("winners") > 0).cast(pl.Float64) / players.cast(pl.Float64))
            .mean()
            .alias("fair"),
            (pl.col("winners") == 0).sum().alias("no_winner"),
            pl.col("rounds").mean().alias("mean_rounds"),
            pl.col("turns").mean().alias("mean_turns"),
            (pl.col("end_reason") == "turn_cap").sum().alias("turn_cap"),
        )
        .with_columns(
            pl.when(pl.col("max_players") == 1).then(None).otherwise(pl.col("fair")).alias("fair")
        )
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


def _base_side(frame: pl.LazyFrame, compared: pl.DataFrame) -> pl.LazyFrame:
    """The baselines' rows of `frame`, each tagged with its `base_order` (an integer join key)."""
    bases = compared.select(
        pl.col("base_run").alias("run"), pl.col("base_variant").alias("variant"), "base_order"
    ).unique()
    return frame.join(bases.lazy(), on=KEY)


def _compared_side(frame: pl.LazyFrame, compared: pl.DataFrame) -> pl.LazyFrame:
    """The compared variants' rows of `frame`, each tagged with its baseline's `base_order`."""
    return frame.join(compared.lazy().select(*KEY, "base_order"), on=KEY)


def seed_match_lazy(games: pl.LazyFrame, compared: pl.DataFrame) -> pl.LazyFrame:
    """Per compared variant: games sharing a game index with its baseline, and how many share
    its seed. `compared` is `comparisons(keys)`."""
    games = games.select(*KEY, "game", "seed")
    base_seeds = _base_side(games, compared).select(
        "base_order", "game", pl.col("seed").alias("seed_base")
    )
    return (
        _compared_side(games, compared)
        .join(base_seeds, on=["base_order", "game"])
        .group_by([*KEY, "base_order"])
        .agg(pl.len().alias("matched"), (pl.col("seed") == pl.col("seed_base")).sum().alias("same"))
    )


def paired_lazy(
    players: pl.LazyFrame, unit: str, compared: pl.DataFrame, roles: list[str]
) -> pl.LazyFrame:
    """Per-game paired differences of `win` against each variant's baseline, per group.

    `unit` is "role" (pairs: same game index and role) or "seat" (seat 0, same game index).
    Only the variants in `compared` (rows of `comparisons(keys)`) are compared, each with its
    own baseline. Wins of one role in one game are summed
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
    base_side = _base_side(per, compared).select(
        "base_order", "pair", pl.col("win").alias("win_base")
    )
    d = pl.col("win") - pl.col("win_base")
    summary = (
        _compared_side(per, compared)
        .join(base_side, on=["base_order", "pair"])
        .group_by([*KEY, "base_order", group])
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


def lost_pairs_lazy(games: pl.LazyFrame, compared: pl.DataFrame) -> pl.LazyFrame:
    """Per compared variant: paired per-game differences of "nobody won" (a collective
    defeat) against its baseline, on the same game index (rows of a comparisons frame)."""
    per = games.select(*KEY, "game", (pl.col("winners") == 0).cast(pl.Float64).alias("lost"))
    base = _base_side(per, compared).select("base_order", "game", pl.col("lost").alias("lost_base"))
    d = pl.col("lost") - pl.col("lost_base")
    return (
        _compared_side(per, compared)
        .join(base, on=["base_order", "game"])
        .group_by([*KEY, "base_order"])
        .agg(
            pl.len().alias("n"),
            pl.col("lost").mean().alias("rate"),
            pl.col("lost_base").mean().alias("rate_base"),
            d.mean().alias("diff"),
            d.std().alias("sd"),
        )
    )


def lost_differences(
    info: pl.DataFrame, compared: pl.DataFrame, paired: pl.DataFrame, pairs: pl.DataFrame
) -> pl.DataFrame:
    """The share of games nobody won, each variant minus its baseline (paired where the
    comparison is in `paired`), Holm over the comparisons; empty when nobody ever lost."""
    if not info.height or not (info["no_winner"] > 0).any():
        return pl.DataFrame()
    counts = {(r["run"], r["variant"]): r for r in info.iter_rows(named=True)}
    by_pair = {(r["run"], r["variant"], r["base_order"]): r for r in pairs.iter_rows(named=True)}
    ok = {(r["run"], r["variant"], r["base_order"]) for r in paired.iter_rows(named=True)}
    extra = [c for c in ("axis", "stratum", "from", "to") if c in compared.columns]
    rows = []
    for key in compared.iter_rows(named=True):
        k = (key["run"], key["variant"], key["base_order"])
        v, b = counts.get(k[:2]), counts.get((key["base_run"], key["base_variant"]))
        if v is None or b is None:
            continue
        common = {
            "run": key["run"],
            "variant": key["variant"],
            "label": key["label"],
            "baseline": key["base_label"],
        } | {c: key[c] for c in extra}
        pr = by_pair.get(k)
        if k in ok and pr is not None and pr["n"] > 0:
            rows.append(
                common
                | {"method": "paired", "n": pr["n"], "rate_baseline": pr["rate_base"]}
                | {"rate": pr["rate"], "diff": pr["diff"], **_paired_row(pr)}
            )
        else:
            rv, rb = v["no_winner"] / v["games"], b["no_winner"] / b["games"]
            rows.append(
                common
                | {"method": "unpaired", "n": v["games"], "rate_baseline": rb, "rate": rv}
                | {"diff": rv - rb}
                | _unpaired_row(v["no_winner"], v["games"], b["no_winner"], b["games"])
            )
    if not rows:
        return pl.DataFrame()
    table = pl.DataFrame(rows)
    adjusted, reject = holm(table["p_value"].to_numpy())
    return table.with_columns(
        pl.Series("p_holm", adjusted, pl.Float64), pl.Series("significant", reject, pl.Boolean)
    )


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


# --------------------------------------------------------------------------- player counts


def _players_text(r: dict) -> str:
    """'4', or for a variant mixing player counts '2-4 (mean 3.05)' (an `info` row)."""
    if r["min_players"] == r["max_players"]:
        return str(r["min_players"])
    return f"{r['min_players']}-{r['max_players']} (mean {r['mean_players']:.3g})"


def player_groups(keys: pl.DataFrame, info: pl.DataFrame) -> pl.DataFrame:
    """The variant keys plus each variant's player count and the baseline it is compared with.

    `players` is the player count as text (a variant mixing counts is a group of its own),
    `players_group` the order of the first variant of that group, and `base_order` the order of
    the baseline a variant is compared with: the first variant of its group, null for that
    baseline itself and for a variant alone at its player count.
    """
    found = {(r["run"], r["variant"]): r for r in info.iter_rows(named=True)}
    first: dict = {}
    players, group = [], []
    for r in keys.iter_rows(named=True):
        counts = found[(r["run"], r["variant"])]
        players.append(_players_text(counts))
        mixed = counts["min_players"] != counts["max_players"]
        gid = ("mixed", r["order"]) if mixed else players[-1]
        group.append(first.setdefault(gid, r["order"]))
    group_col = pl.Series("players_group", group, pl.UInt32)
    base = pl.when(group_col != pl.col("order")).then(group_col)
    return keys.with_columns(
        pl.Series("players", players, pl.String), group_col, base.alias("base_order")
    )


def comparisons(keys: pl.DataFrame) -> pl.DataFrame:
    """One row per compared variant (keys from `player_groups`): its key, its baseline's order,
    key and label, and whether both used common random numbers (`paired_run`)."""
    base = keys.select(
        pl.col("order").alias("base_order"),
        pl.col("run").alias("base_run"),
        pl.col("variant").alias("base_variant"),
        pl.col("label").alias("base_label"),
        pl.col("paired_run").alias("base_paired_run"),
    )
    return (
        keys.filter(pl.col("base_order").is_not_null())
        .join(base, on="base_order", how="left", maintain_order="left")
        .with_columns(pl.col("paired_run") & pl.col("base_paired_run"))
        .drop("base_paired_run")
    )


def several_player_counts(keys: pl.DataFrame) -> bool:
    return keys["players_group"].n_unique() > 1


# --------------------------------------------------------------------------- small tables


def wilson(wins, n) -> tuple[np.ndarray, np.ndarray]:
    """Wilson 95% interval of wins out of n (wins may be fractional: tie shares)."""
    lo, hi = proportion_confint(np.asarray(wins), np.asarray(n), alpha=ALPHA, method="wilson")
    return np.atleast_1d(np.asarray(lo, float)), np.atleast_1d(np.asarray(hi, float))


def _test_fair(wins: float, n: float, fair: float) -> float:
    """Two-sided p-value of a z-test against the fair share; NaN when there is none (solo)."""
    if not np.isfinite(fair):
        return np.nan
    if n <= 0:
        return 1.0
    p = proportions_ztest(wins, n, value=fair, prop_var=fair)[1]
    return float(p) if np.isfinite(p) else 1.0


def holm(pvals) -> tuple[np.ndarray, np.ndarray]:
    """Holm-adjusted p-values and rejections at 5% (empty in, empty out).

    NaN p-values (no test) stay NaN, are not rejected and are left out of the family.
    """
    pvals = np.asarray(pvals, float)
    tested = np.isfinite(pvals)
    adjusted, reject = np.full(len(pvals), np.nan), np.zeros(len(pvals), bool)
    if tested.any():
        rej, adj, _, _ = multipletests(pvals[tested], alpha=ALPHA, method="holm")
        adjusted[tested], reject[tested] = adj, rej
    return adjusted, reject


def win_table(agg: pl.DataFrame, by: list[str], info: pl.DataFrame, keys: pl.DataFrame):
    """Win rate, Wilson interval and a Holm-corrected test against the fair share, per group.

    Rows without a fair share (solo variants) get a null p-value and are not significant.
    """
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
        pl.Series("p_value", pvals, pl.Float64).fill_nan(None),
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
    "players": pl.String,
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


def _rows_by_order(table: pl.DataFrame, unit: str) -> dict:
    """{order: {group: row}} of a win table, in the table's order."""
    out: dict = {}
    for r in table.iter_rows(named=True):
        out.setdefault(r["order"], {})[r[unit]] = r
    return out


def _difference_row(common: dict, r: dict, b: dict, pr: dict | None) -> dict:
    """One variant-minus-baseline row: paired when per-game pairs exist, else unpaired."""
    if pr is not None and pr["n"] > 0:
        return {
            **common,
            "method": "paired",
            "n": pr["n"],
            "n_baseline": pr["n"],
            "rate_baseline": pr["rate_base"],
            "rate": pr["rate"],
            "diff": pr["diff"],
            **_paired_row(pr),
        }
    return {
        **common,
        "method": "unpaired",
        "n": r["n"],
        "n_baseline": b["n"],
        "rate_baseline": b["win_rate"],
        "rate": r["win_rate"],
        "diff": r["win_rate"] - b["win_rate"],
        **_unpaired_row(r["wins"], r["n"], b["wins"], b["n"]),
    }


def differences(
    tables: dict[str, pl.DataFrame],
    paired: dict[str, pl.DataFrame],
    keys: pl.DataFrame,
    compared: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Every variant against the baseline of its player count, per role and for seat 0, Holm
    together (keys from `player_groups`; a baseline or a variant alone at its count: no rows).

    `tables` maps unit ("role", "seat") to its win table (seat: the seat 0 rows); `paired` maps
    unit to the summarised paired differences of the variants that used common random numbers.
    With several player counts a `players` column names each row's player count. `compared`
    replaces `comparisons(keys)` (reports/axes.py: one axis at a time); its extra columns
    (axis, stratum, from, to) are kept on each row.
    """
    extra = []
    if compared is None:
        compared = comparisons(keys)
    else:
        extra = [c for c in ("axis", "stratum", "from", "to") if c in compared.columns]
    rows = []
    for unit, table in tables.items():
        by_order = _rows_by_order(table, unit)
        pairs = {
            (r["run"], r["variant"], r["base_order"], r[unit]): r
            for r in paired.get(unit, pl.DataFrame()).to_dicts()
        }
        for key in compared.iter_rows(named=True):
            base_rows = by_order.get(key["base_order"], {})
            for group, r in by_order.get(key["order"], {}).items():
                b = base_rows.get(group)
                if b is None:
                    continue
                common = {
                    "run": key["run"],
                    "variant": key["variant"],
                    "label": key["label"],
                    "baseline": key["base_label"],
                    "players": key["players"],
                    "unit": unit,
                    "group": str(group),
                } | {c: key[c] for c in extra}
                pr = pairs.get((key["run"], key["variant"], key["base_order"], group))
                rows.append(_difference_row(common, r, b, pr))
    schema = _DIFF_SCHEMA | {c: pl.String for c in extra}
    table = pl.DataFrame(rows, schema=schema)
    if extra:
        table = table.select(*[c for c in schema if c not in extra], *extra)
    return _holm_family(table, keys)


def _holm_family(tests: pl.DataFrame, keys: pl.DataFrame) -> pl.DataFrame:
    """Holm over every row's ``p_value``; the ``players`` column only when the report spans
    several player counts (single-count outputs keep their columns)."""
    if not several_player_counts(keys):
        tests = tests.drop("players")
    adjusted, reject = holm(tests["p_value"].to_numpy())
    return tests.with_columns(
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


def _chi_rows(by_role: pl.DataFrame, by_seat: pl.DataFrame) -> list[dict]:
    """Role x variant and seat x variant wins, then each role's win/loss across variants."""
    tests = []
    for unit, table in (("role", by_role), ("seat", by_seat)):
        if table.height:
            wide = table.pivot(on=unit, index="order", values="wins", sort_columns=True)
            wide = wide.sort("order").fill_null(0)
            tests.append((f"{unit} x variant wins", wide.drop("order").to_numpy().astype(float)))
    for (role,), t in by_role.sort("order").group_by(["role"], maintain_order=True):
        wins = t["wins"].to_numpy()
        tests.append(
            (f"{role} win rate across variants", np.vstack([wins, t["n"].to_numpy() - wins]).T)
        )
    rows = []
    for test, matrix in tests:
        res = _chi2(matrix)
        if res:
            rows.append(dict(zip(("test", "chi2", "dof", "p_value"), (test, *res), strict=True)))
    return rows


def chi_square(by_role: pl.DataFrame, by_seat: pl.DataFrame, keys: pl.DataFrame) -> pl.DataFrame:
    """Chi-square tests across the variants of each player count with two variants or more.

    The overall tests ask whether the share of wins going to each role (seat) depends on the
    variant; the per-role tests ask whether that role's win rate does. Holm across all rows.
    With several player counts a `players` column names the group each test ran in.
    """
    rows = []
    for _, members in keys.group_by("players_group", maintain_order=True):
        if members.height < 2:
            continue
        inside = pl.col("order").is_in(members["order"].implode())
        for row in _chi_rows(by_role.filter(inside), by_seat.filter(inside)):
            rows.append({"players": members["players"][0], **row})
    schema = {
        "players": pl.String,
        "test": pl.String,
        "chi2": pl.Float64,
        "dof": pl.Int64,
        "p_value": pl.Float64,
    }
    return _holm_family(pl.DataFrame(rows, schema=schema), keys)


def balance(
    by_role: pl.DataFrame,
    by_seat: pl.DataFrame,
    info: pl.DataFrame,
    stall: pl.DataFrame,
    keys: pl.DataFrame,
) -> pl.DataFrame:
    """Per variant: role spread (best - worst, named), seat-0 advantage with interval (null for
    a solo variant: no fair share), length, turn-cap share and stalemates."""
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
