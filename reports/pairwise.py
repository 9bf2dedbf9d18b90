"""Which roles (or seats) can be told apart: pairwise win-rate differences within each variant.

Method: the game-clustered delta method ("multinomial covariance"), not a bootstrap. Roles
share games — one game has one winner (a win shared by k players counts 1/k to each), so when
one role wins another loses — and the win rates of two roles are therefore correlated. For
role ``a`` let ``w_a(g)`` be its wins in game ``g`` and ``m_a(g)`` how many seats played it
(0 when it was not dealt). Its win rate is the ratio ``r_a = sum_g w_a / sum_g m_a`` (what
``win_by_role.csv`` reports), and the delta method gives, over the ``G`` games of a variant,

    Cov(r_a, r_b) = G / (G - 1) * sum_g e_a(g) e_b(g) / (M_a M_b),  e_a(g) = w_a(g) - r_a m_a(g)

with ``M_a = sum_g m_a``. The sum expands into per-variant sums of ``w_a w_b``, ``w_a m_b``
and ``m_a m_b``, which polars aggregates lazily (one group-by over games, one over variants),
so a 10-million-row run never leaves parquet as a whole table. The difference ``r_a - r_b``
has variance ``Var r_a + Var r_b - 2 Cov(r_a, r_b)`` and a two-sided z-test (``p_value``).
The interval is simultaneous over the variant's pairs (roles and seats are separate families):
a max-t band ``diff +- z_crit * se`` with ``z_crit`` the 95% quantile of the largest |z| over
the pairs under the joint normal of the differences (`simultaneous`), so that all the
variant's intervals cover their true differences together 95% of the time; ``p_maxt`` is the
matching adjusted p-value, and a pair is told apart (``p_maxt`` < 0.05) exactly when its
interval (``lo_simul95``, ``hi_simul95``) excludes 0. Two roles that meet in every game (two
players) have strongly negative covariance, so the correct interval is wider than the naive one
that treats the rates as independent; roles that rarely meet are nearly independent.
`tests/reports/test_pairwise.py` checks 95% coverage by simulation, pair by pair (the unadjusted
interval) and of the band as a whole.

``games_needed`` (pairs not told apart only): games per variant for 80% power at the band's
pointwise level (``2 * norm.sf(z_crit)``: 5% / pairs or a little more) at the observed gap,
from statsmodels' power functions (``normal_sample_size_one_tail`` at alpha / 2, equal to
``NormalIndPower`` one-sample to the game) with the per-game standard deviation of the
difference — the same test as the verdict; blank when the gap is so small that more than a
billion games would be needed.

The spread (strongest minus weakest role) is biased upward: the largest of several noisy rates
tends to be too high and the smallest too low, so even perfectly balanced roles show a spread.
Its interval is a parametric bootstrap from the same covariance (draws of the rate vector from
the normal with that covariance, vectorised): the "basic" interval ``2 s - q`` (which moves the
interval down by the estimated bias), clipped at 0, and ``spread_bias`` is the bootstrap
estimate of the bias.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
from scipy.stats import norm
from statsmodels.stats.power import normal_sample_size_one_tail

from reports.load import KEY
from reports.stats import ALPHA

POWER = 0.8
SPREAD_DRAWS = 4000
MAXT_DRAWS = 20000  # Monte Carlo draws of the max-t critical value (about 0.002 on p near 0.05)
MAX_GAMES = 10**9  # beyond this, "never" (a gap of practically nothing): games_needed is blank
MIN_GAP = 0.01  # gaps under one point are not worth playing games to settle
Z = float(norm.ppf(1 - ALPHA / 2))


# --------------------------------------------------------------------------- lazy moments


def moments_lazy(players: pl.LazyFrame, unit: str, levels: list) -> pl.LazyFrame:
    """Per variant: games, and the sums over games of w, m, w*w, w*m and m*m of each level pair.

    `unit` is "role" or "seat"; `levels` lists its values (role names or seat numbers). Column
    names: ``W_i``, ``M_i``, ``WW_i_j`` (i <= j), ``WM_i_j`` (all i, j), ``MM_i_j`` (i <= j),
    with i, j indices into `levels`. Only one row per variant is collected.
    """
    if unit == "role":
        code = pl.col("role").cast(pl.Enum(levels)).to_physical().cast(pl.Int64)
        rows = players.filter(pl.col("role").is_not_null())
    else:
        code = pl.col("seat").cast(pl.Int64).replace_strict(levels, list(range(len(levels))))
        rows = players
    k = len(levels)
    per_game = (
        rows.select(*KEY, "game", pl.col("win").cast(pl.Float64), code.alias("code"))
        .group_by([*KEY, "game"])
        .agg(
            *[
                pl.when(pl.col("code") == i).then(pl.col("win")).otherwise(0.0).sum().alias(f"w{i}")
                for i in range(k)
            ],
            *[(pl.col("code") == i).sum().cast(pl.Float64).alias(f"m{i}") for i in range(k)],
        )
    )
    w = [pl.col(f"w{i}") for i in range(k)]
    m = [pl.col(f"m{i}") for i in range(k)]
    aggs = [pl.len().alias("G")]
    aggs += [w[i].sum().alias(f"W_{i}") for i in range(k)]
    aggs += [m[i].sum().alias(f"M_{i}") for i in range(k)]
    for i in range(k):
        for j in range(k):
            aggs.append((w[i] * m[j]).sum().alias(f"WM_{i}_{j}"))
            if i <= j:
                aggs.append((w[i] * w[j]).sum().alias(f"WW_{i}_{j}"))
                aggs.append((m[i] * m[j]).sum().alias(f"MM_{i}_{j}"))
    return per_game.group_by(KEY).agg(aggs)


def moments_from_row(r: dict, k: int) -> tuple:
    """(G, W, M, WW, WM, MM) arrays from one row of `moments_lazy`."""
    W = np.array([r[f"W_{i}"] for i in range(k)], float)
    M = np.array([r[f"M_{i}"] for i in range(k)], float)
    WW, WM, MM = (np.zeros((k, k)) for _ in range(3))
    for i in range(k):
        for j in range(k):
            WM[i, j] = r[f"WM_{i}_{j}"]
            if i <= j:
                WW[i, j] = WW[j, i] = r[f"WW_{i}_{j}"]
                MM[i, j] = MM[j, i] = r[f"MM_{i}_{j}"]
    return float(r["G"]), W, M, WW, WM, MM


def moments_from_games(w: np.ndarray, m: np.ndarray) -> tuple:
    """The same sums from per-game arrays ``w``, ``m`` of shape (..., games, levels).

    Used by the tests (and by anyone holding per-game outcomes in memory); leading dimensions
    are replications and are kept.
    """
    G = np.full(w.shape[:-2], float(w.shape[-2]))
    WW = np.einsum("...gi,...gj->...ij", w, w)
    WM = np.einsum("...gi,...gj->...ij", w, m)
    MM = np.einsum("...gi,...gj->...ij", m, m)
    return G, w.sum(axis=-2), m.sum(axis=-2), WW, WM, MM


# --------------------------------------------------------------------------- estimates


def rate_covariance(G, W, M, WW, WM, MM) -> tuple[np.ndarray, np.ndarray]:
    """Win rates (..., k) and their game-clustered delta-method covariance (..., k, k).

    Arrays may carry leading replication dimensions. A level never played has rate NaN.
    """
    G = np.asarray(G, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = W / M
        ra, rb = r[..., :, None], r[..., None, :]
        resid = WW - rb * WM - ra * np.swapaxes(WM, -1, -2) + ra * rb * MM
        scale = (G / np.maximum(G - 1, 1))[..., None, None]
        cov = scale * resid / (M[..., :, None] * M[..., None, :])
    return r, cov


def pair_tests(r: np.ndarray, cov: np.ndarray):
    """Every pair i < j: indices, difference r_i - r_j, its standard error, 95% interval, p.

    Works on the last axis (leading dimensions are replications).
    """
    k = r.shape[-1]
    ii, jj = np.triu_indices(k, 1)
    diff = r[..., ii] - r[..., jj]
    var = cov[..., ii, ii] + cov[..., jj, jj] - 2 * cov[..., ii, jj]
    se = np.sqrt(np.clip(var, 0, None))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2 * norm.sf(np.abs(diff) / se)
    p = np.where(se > 0, p, np.where(diff == 0, 1.0, 0.0))
    p = np.where(np.isfinite(diff), p, np.nan)
    return ii, jj, diff, se, diff - Z * se, diff + Z * se, p


def naive_interval(r_a, n_a, r_b, n_b):
    """The naive interval that treats two win rates as independent binomial proportions.

    Shown in the tests to be wrong where roles often meet; not used by the report.
    """
    se = np.sqrt(r_a * (1 - r_a) / n_a + r_b * (1 - r_b) / n_b)
    diff = r_a - r_b
    return diff - Z * se, diff + Z * se


def games_needed(diff: float, se: float, games: float, alpha: float = ALPHA) -> float | None:
    """Games per variant for 80% power at level `alpha` (two-sided z-test) at the observed gap.

    statsmodels' ``normal_sample_size_one_tail`` at alpha / 2: the two-sided test's power
    without its far tail, which at 80% power is below 1e-5 and changes no count (the test
    checks it against ``NormalIndPower.solve_power``, which is a thousand times slower). The
    report passes the pointwise level of its simultaneous band (``2 * norm.sf(z_crit)``), so
    the count is what the pair needs to be told apart in the report's own sense.
    """
    if not (np.isfinite(diff) and np.isfinite(se)) or diff == 0 or se <= 0 or games <= 0:
        return None
    sd_game = se * math.sqrt(games)
    n = float(normal_sample_size_one_tail(abs(diff), POWER, alpha / 2, std_null=sd_game))
    if not np.isfinite(n) or n > MAX_GAMES:
        return None
    return float(max(2, math.ceil(n)))


def simultaneous(
    r: np.ndarray, cov: np.ndarray, seed: int = 0, draws: int = MAXT_DRAWS
) -> tuple[float, np.ndarray]:
    """The max-t band over every pair of one variant: critical value and adjusted p-values.

    The pair differences ``r_i - r_j`` (i < j, the order of `pair_tests`) are jointly normal
    with covariance ``A cov A'`` (A the contrast matrix); their z-statistics have the
    correlation of that covariance. ``z_crit`` is the 95% quantile of ``max |Z|`` over the
    pairs (`draws` Monte Carlo draws from that correlation, seeded: the same tables give the
    same numbers), and a pair's adjusted p-value is the share of draws whose ``max |Z|``
    reaches its ``|z|``. The band ``diff +- z_crit * se`` covers every true difference at once
    95% of the time, and a pair is told apart (adjusted p < 0.05) exactly when its band
    excludes 0. Pairs without a test (a level not played, or a zero standard error) are left
    out of the family (p NaN; a zero se with a nonzero gap: p 0). One pair: the plain z-test.
    """
    ii, jj, diff, se, _, _, p = pair_tests(r, cov)
    adjusted = np.array(p, float)
    family = np.isfinite(diff) & (se > 0)
    m = int(family.sum())
    if m <= 1:
        return Z, adjusted
    a = np.zeros((m, len(r)))
    rows = np.arange(m)
    a[rows, ii[family]], a[rows, jj[family]] = 1.0, -1.0
    ok = np.isfinite(r)
    c = a[:, ok] @ cov[np.ix_(ok, ok)] @ a[:, ok].T
    corr = c / np.outer(se[family], se[family])
    vals, vecs = np.linalg.eigh((corr + corr.T) / 2)
    root = vecs * np.sqrt(np.clip(vals, 0, None))
    rng = np.random.default_rng(seed)
    # einsum, not @: a small product that a busy machine's threaded BLAS makes 10x slower
    top = np.sort(np.abs(np.einsum("dm,km->dk", rng.standard_normal((draws, m)), root)).max(1))
    # the order statistic with fewer than ALPHA * draws draws above it: |z| > crit <=> p < ALPHA
    crit = max(float(top[draws - math.ceil(ALPHA * draws)]), Z)
    z = np.abs(diff[family]) / se[family]
    share = (draws - np.searchsorted(top, z, side="left")) / draws
    # z > crit implies share < ALPHA (the order statistic) and p < ALPHA (crit >= Z); z <= crit
    # implies one of them >= ALPHA: "adjusted p < ALPHA" and "the band excludes 0" agree
    adjusted[family] = np.maximum(p[family], share)
    return crit, adjusted


def spread_interval(r: np.ndarray, cov: np.ndarray, seed: int = 0) -> dict:
    """Strongest minus weakest rate: estimate, basic parametric-bootstrap interval, bias."""
    ok = np.isfinite(r)
    r, cov = r[ok], cov[np.ix_(ok, ok)]
    out = {"spread": None, "spread_low": None, "spread_high": None, "spread_bias": None}
    if len(r) < 2:
        return out
    spread = float(r.max() - r.min())
    rng = np.random.default_rng(seed)
    # eigen-decomposition: the covariance is only positive semi-definite (rates sum to ~1)
    vals, vecs = np.linalg.eigh((cov + cov.T) / 2)
    root = vecs * np.sqrt(np.clip(vals, 0, None))
    draws = r + rng.standard_normal((SPREAD_DRAWS, len(r))) @ root.T
    boot = draws.max(axis=1) - draws.min(axis=1)
    q_lo, q_hi = np.quantile(boot, [ALPHA / 2, 1 - ALPHA / 2])
    out.update(
        spread=spread,
        spread_low=float(max(0.0, 2 * spread - q_hi)),
        spread_high=float(max(0.0, 2 * spread - q_lo)),
        spread_bias=float(boot.mean() - spread),
    )
    return out


# --------------------------------------------------------------------------- tables

PAIRWISE_SCHEMA = {
    "run": pl.String,
    "variant": pl.String,
    "label": pl.String,
    "players": pl.String,
    "unit": pl.String,
    "a": pl.String,
    "b": pl.String,
    "games": pl.Int64,
    "win_a": pl.Float64,
    "win_b": pl.Float64,
    "diff": pl.Float64,
    "lo_simul95": pl.Float64,
    "hi_simul95": pl.Float64,
    "z_crit": pl.Float64,
    "p_value": pl.Float64,
    "p_maxt": pl.Float64,
    "told_apart": pl.Boolean,
    "games_needed": pl.Int64,
}

SPREAD_SCHEMA = {
    "run": pl.String,
    "variant": pl.String,
    "spread_low": pl.Float64,
    "spread_high": pl.Float64,
    "spread_bias": pl.Float64,
}


def pairwise(
    moments: dict[str, pl.DataFrame], levels: dict[str, list], keys: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The pairwise table and the role spread interval per variant.

    `moments` maps unit ("role", "seat") to the collected `moments_lazy` frame, `levels` unit
    to its level list, `keys` are the report's keys with `players` (from `player_groups`).
    Pairs are oriented so that ``a`` has the higher win rate (``diff`` >= 0); rows are sorted by
    variant order, unit (roles first), then ``diff`` descending. Levels never played in a
    variant give no rows there.
    """
    rows, spreads = [], []
    for unit in ("role", "seat"):
        if unit not in moments:
            continue
        k, names = len(levels[unit]), [str(x) for x in levels[unit]]
        found = {(r["run"], r["variant"]): r for r in moments[unit].iter_rows(named=True)}
        for key in keys.iter_rows(named=True):
            row = found.get((key["run"], key["variant"]))
            if row is None:
                continue
            G, *rest = moments_from_row(row, k)
            r, cov = rate_covariance(G, *rest)
            if unit == "role":
                spreads.append(
                    {"run": key["run"], "variant": key["variant"]}
                    | spread_interval(r, cov, seed=int(key["order"]))
                )
            ii, jj, diff, se, _, _, p = pair_tests(r, cov)
            crit, p_adj = simultaneous(r, cov, seed=int(key["order"]))
            level = float(2 * norm.sf(crit))  # the pointwise level of the simultaneous band
            lo, hi = diff - crit * se, diff + crit * se
            keep = np.isfinite(diff)
            reject = keep & (p_adj < ALPHA)
            family = []
            for x in np.flatnonzero(keep):
                a, b, sign = ii[x], jj[x], 1.0
                if diff[x] < 0:
                    a, b, sign = b, a, -1.0
                lo_x, hi_x = sorted((sign * lo[x], sign * hi[x]))
                need = None if reject[x] else games_needed(diff[x], se[x], G, level)
                family.append(
                    {
                        "run": key["run"],
                        "variant": key["variant"],
                        "label": key["label"],
                        "players": key["players"],
                        "unit": unit,
                        "a": names[a],
                        "b": names[b],
                        "games": int(G),
                        "win_a": float(r[a]),
                        "win_b": float(r[b]),
                        "diff": float(sign * diff[x]),
                        "lo_simul95": float(lo_x),
                        "hi_simul95": float(hi_x),
                        "z_crit": float(crit),
                        "p_value": float(p[x]),
                        "p_maxt": float(p_adj[x]),
                        "told_apart": bool(reject[x]),
                        "games_needed": None if need is None else int(need),
                    }
                )
            rows += sorted(family, key=lambda d: -d["diff"])
    table = pl.DataFrame(rows, schema=PAIRWISE_SCHEMA)
    return table, pl.DataFrame(spreads, schema=SPREAD_SCHEMA)


def groups(pairs: pl.DataFrame) -> list[list[str]]:
    """Levels of one (variant, unit), strongest first, cut into groups that cannot be told apart.

    A level joins the current group unless it is told apart from the group's strongest member,
    so each group is a run of adjacent levels whose top and bottom are not separated.
    """
    rates: dict[str, float] = {}
    apart: set[tuple[str, str]] = set()
    for r in pairs.iter_rows(named=True):
        rates[r["a"]], rates[r["b"]] = r["win_a"], r["win_b"]
        if r["told_apart"]:
            apart |= {(r["a"], r["b"]), (r["b"], r["a"])}
    ordered = sorted(rates, key=lambda x: (-rates[x], x))
    out: list[list[str]] = []
    for level in ordered:
        if out and (out[-1][0], level) not in apart:
            out[-1].append(level)
        else:
            out.append([level])
    return out


def worth_playing(pairs: pl.DataFrame) -> dict | None:
    """The pair not told apart with the largest games_needed among gaps of at least MIN_GAP."""
    open_ = pairs.filter(pl.col("games_needed").is_not_null() & (pl.col("diff") >= MIN_GAP)).sort(
        "games_needed", descending=True
    )
    return open_.row(0, named=True) if open_.height else None


def about(n: int) -> str:
    """A games count rounded to two significant figures: 45,059 -> 'about 45,000'."""
    if n >= 100:
        digits = len(str(int(n))) - 2
        n = int(round(n / 10**digits) * 10**digits)
    return f"about {n:,}"


def needed_text(r: dict, unit_word: str) -> str:
    """'to separate a from b (1.3 points apart): about 45,000 games per variant'."""
    a, b = (f"seat {r['a']}", f"seat {r['b']}") if unit_word == "seat" else (r["a"], r["b"])
    # rounded first: a gap of 1.15 points reached by two sums (the run's line, the report's)
    # is 1.1499... in one and 1.1500... in the other, and read 1.1 and 1.2
    gap = round(100 * r["diff"], 9)
    return (
        f"to separate {a} from {b} ({gap:.1f} points apart): "
        f"{about(r['games_needed'])} games per variant"
    )


def run_headline(run_dir, word: str = "role") -> str | None:
    """The largest games_needed worth playing in one run directory, as a sentence (or None).

    What `menhir run` prints after its final line: the run is scanned lazily and only the
    per-variant moments are collected (one pass over the players table).
    """
    from reports.load import load_run, variant_keys

    run = load_run(run_dir)
    levels = {
        "seat": run.players.select("seat").unique().collect()["seat"].sort().to_list(),
        "role": run.players.select("role").unique().collect()["role"].drop_nulls().sort(),
    }
    levels["role"] = levels["role"].to_list()
    units = [u for u in ("role", "seat") if len(levels[u]) > 1]
    if not units:
        return None
    frames = pl.collect_all([moments_lazy(run.players, u, levels[u]) for u in units])
    moments = dict(zip(units, frames, strict=True))
    keys = variant_keys([run], frames[0].select(KEY)).with_columns(pl.lit("").alias("players"))
    pairs, _ = pairwise(moments, levels, keys)
    worst = worth_playing(pairs)
    if worst is None:
        return None
    unit_word = word if worst["unit"] == "role" else "seat"
    where = f" ({worst['label']})" if keys.height > 1 else ""
    return needed_text(worst, unit_word) + where
