"""Pairwise role comparisons: coverage by simulation, the naive interval's failure where roles
meet, the polars moments against numpy, and the power-based games_needed."""

import itertools
import re

import numpy as np
import polars as pl
import pytest
from scipy.stats import norm
from statsmodels.stats.power import NormalIndPower

from reports.pairwise import (
    games_needed,
    groups,
    moments_from_games,
    moments_from_row,
    moments_lazy,
    naive_interval,
    pair_tests,
    rate_covariance,
    simultaneous,
    spread_interval,
)
from tests.reports.mdtable import section, table

REPLICATIONS = 1000


def _simulate(rng, strength, players, games, tie=0.1, reps=REPLICATIONS):
    """Per-game wins and counts, shape (reps, games, roles): each game deals `players` of the
    roles at random; with probability `tie` every dealt role shares the win (1/players each),
    else one winner drawn with probability proportional to its strength (Gumbel-max)."""
    k = len(strength)
    dealt_order = np.argsort(rng.random((reps, games, k)), axis=-1)
    m = np.zeros((reps, games, k))
    np.put_along_axis(m, dealt_order[..., :players], 1.0, axis=-1)
    key = np.log(strength) + rng.gumbel(size=(reps, games, k))
    key = np.where(m > 0, key, -np.inf)
    w = np.zeros((reps, games, k))
    np.put_along_axis(w, key.argmax(axis=-1)[..., None], 1.0, axis=-1)
    shared = rng.random((reps, games, 1)) < tie
    w = np.where(shared, m / players, w)
    return w, m


def _true_rates(strength, players, tie=0.1):
    """Exact win rate of each role (wins per game played), by enumerating the deals."""
    k = len(strength)
    wins, dealt = np.zeros(k), np.zeros(k)
    for deal in itertools.combinations(range(k), players):
        s = np.array([strength[i] for i in deal])
        for i, share in zip(deal, s / s.sum(), strict=True):
            wins[i] += (1 - tie) * share + tie / players
            dealt[i] += 1
    return wins / dealt


@pytest.mark.parametrize(
    "strength, players, games",
    [
        ([1.0, 1.3, 1.7, 2.2], 3, 800),  # four leaders, three dealt: pairs meet in half the games
        ([1.0, 1.5], 2, 400),  # two sides that meet in every game
        ([1.0, 1.2, 1.5, 1.8, 2.0, 2.6], 2, 1500),  # six roles, two dealt: pairs rarely meet
    ],
)
def test_pairwise_intervals_cover_the_true_difference_95_percent(strength, players, games):
    rng = np.random.default_rng(24)
    w, m = _simulate(rng, np.array(strength), players, games)
    r, cov = rate_covariance(*moments_from_games(w, m))
    ii, jj, diff, se, lo, hi, p = pair_tests(r, cov)
    true = _true_rates(strength, players)
    truth = true[ii] - true[jj]
    coverage = ((lo <= truth) & (truth <= hi)).mean(axis=0)
    assert np.all((coverage >= 0.93) & (coverage <= 0.97)), coverage
    # the estimator is unbiased for the rates it reports
    assert np.allclose(r.mean(axis=0), true, atol=0.01)


@pytest.mark.parametrize(
    "strength, players, games",
    [
        ([1.0, 1.3, 1.7, 2.2], 3, 800),  # six pairs that meet in half the games
        ([1.0, 1.2, 1.5, 1.8, 2.0, 2.6], 2, 1500),  # fifteen pairs that rarely meet
    ],
)
def test_simultaneous_band_covers_every_true_difference_at_once_95_percent(
    strength, players, games
):
    rng = np.random.default_rng(11)
    w, m = _simulate(rng, np.array(strength), players, games, reps=600)
    r, cov = rate_covariance(*moments_from_games(w, m))
    ii, jj, diff, se, lo, hi, p = pair_tests(r, cov)
    true = _true_rates(strength, players)
    truth = true[ii] - true[jj]
    bands = [simultaneous(r[i], cov[i], seed=i, draws=4000) for i in range(600)]
    crit = np.array([b[0] for b in bands])[:, None]
    adjusted = np.array([b[1] for b in bands])
    inside = np.abs(diff - truth) <= crit * se
    joint = inside.all(axis=1).mean()
    pointwise_joint = ((lo <= truth) & (truth <= hi)).all(axis=1).mean()
    assert 0.93 <= joint <= 0.97, joint
    assert pointwise_joint < 0.9  # the unadjusted intervals miss some pair far more often
    assert np.all(crit > 1.96) and np.all(adjusted >= p)
    # told apart (adjusted p < 0.05) exactly when the band excludes 0, in every replication
    assert np.array_equal(adjusted < 0.05, np.abs(diff) > crit * se)


def test_an_unadjusted_interval_that_excludes_0_is_not_a_verdict_the_band_does_not_give():
    """Six independent roles, 1 point of standard error each: a 3-point gap has an unadjusted
    interval clear of 0 (z = 2.1) but is one of 15 pairs, and the band includes 0."""
    r = np.array([0.30, 0.27, 0.25, 0.24, 0.23, 0.22])
    cov = np.diag(np.full(6, 0.01**2))
    ii, jj, diff, se, lo, hi, p = pair_tests(r, cov)
    crit, adjusted = simultaneous(r, cov)
    x = int(np.flatnonzero((ii == 0) & (jj == 1))[0])
    assert lo[x] > 0 and p[x] < 0.05  # unadjusted: "apart"
    assert diff[x] - crit * se[x] < 0 < diff[x] + crit * se[x] and adjusted[x] >= 0.05
    # the Bonferroni bound brackets the max-t critical value for 15 nearly independent pairs
    assert 2.5 < crit <= norm.ppf(1 - 0.05 / 30) + 0.02
    # same tables, same numbers (a seeded Monte Carlo)
    again = simultaneous(r, cov)
    assert again[0] == crit and np.array_equal(again[1], adjusted)
    # a single pair is the plain z-test
    crit1, adj1 = simultaneous(r[:2], cov[:2, :2])
    assert crit1 == pytest.approx(1.959964) and adj1[0] == pytest.approx(p[x])


def test_naive_interval_undercovers_where_roles_meet_and_not_where_they_rarely_do():
    rng = np.random.default_rng(7)
    # two sides in every game: one's win is the other's loss, so the covariance is -Var
    w, m = _simulate(rng, np.array([1.0, 1.5]), 2, 400)
    r, cov = rate_covariance(*moments_from_games(w, m))
    ii, jj, diff, se, lo, hi, _ = pair_tests(r, cov)
    n = m.sum(axis=1)
    nlo, nhi = naive_interval(r[:, 0], n[:, 0], r[:, 1], n[:, 1])
    true = _true_rates([1.0, 1.5], 2)
    truth = true[0] - true[1]
    ours = ((lo[:, 0] <= truth) & (truth <= hi[:, 0])).mean()
    naive = ((nlo <= truth) & (truth <= nhi)).mean()
    assert 0.93 <= ours <= 0.97
    assert naive < 0.88  # the naive interval is about 3/4 of the width it should have
    assert np.median((nhi - nlo) / (hi[:, 0] - lo[:, 0])) < 0.8
    # six roles, two per game: a pair meets in 1 game of 15, the naive width is close to ours
    w, m = _simulate(rng, np.linspace(1, 2, 6), 2, 1500, reps=200)
    r, cov = rate_covariance(*moments_from_games(w, m))
    _, _, _, _, lo, hi, _ = pair_tests(r, cov)
    n = m.sum(axis=1)
    nlo, nhi = naive_interval(r[:, 0], n[:, 0], r[:, 1], n[:, 1])
    assert np.median((nhi - nlo) / (hi[:, 0] - lo[:, 0])) == pytest.approx(1.0, abs=0.05)


def test_polars_moments_equal_the_numpy_moments():
    rng = np.random.default_rng(3)
    w, m = _simulate(rng, np.array([1.0, 1.3, 1.7, 2.2]), 3, 300, reps=1)
    w, m = w[0], m[0]
    roles = ["a", "b", "c", "d"]
    rows = []
    for g in range(w.shape[0]):
        for seat, i in enumerate(np.flatnonzero(m[g])):
            rows.append(
                {"variant": "v0", "game": g, "seat": seat, "role": roles[i], "win": w[g, i]}
            )
    players = pl.DataFrame(rows).lazy().with_columns(pl.lit("run").alias("run"))
    row = moments_lazy(players, "role", roles).collect().row(0, named=True)
    got = moments_from_row(row, 4)
    want = moments_from_games(w, m)
    for x, y in zip(got, want, strict=True):
        assert np.allclose(x, y)
    seats = moments_lazy(players, "seat", [0, 1, 2]).collect().row(0, named=True)
    assert seats["G"] == 300 and seats["M_0"] == 300 and seats["MM_0_1"] == 300


def test_games_needed_is_statsmodels_one_sample_power_at_the_observed_gap():
    # gap 2 points, per-game sd of the difference 0.6 (se 0.6 / sqrt(1000) at 1000 games)
    need = games_needed(0.02, 0.6 / np.sqrt(1000), 1000)
    want = NormalIndPower().solve_power(effect_size=0.02 / 0.6, alpha=0.05, power=0.8, ratio=0)
    assert need == np.ceil(want) and 7000 < need < 7100  # (1.96 + 0.84)^2 * 900
    for gap, sd in [(0.005, 0.5), (0.03, 0.7), (0.1, 0.6), (0.25, 0.8)]:
        exact = NormalIndPower().solve_power(effect_size=gap / sd, alpha=0.05, power=0.8, ratio=0)
        assert games_needed(gap, sd / np.sqrt(500), 500) == max(2, np.ceil(exact))
    assert games_needed(0.0, 0.01, 1000) is None
    assert games_needed(1e-9, 0.01, 1000) is None  # over a billion games: never
    # a gap so large that a few games settle it: the root finder gives up, the formula does not
    assert 2 <= games_needed(0.9, 0.01, 1000) <= 3


def test_spread_interval_is_bias_corrected_and_covers_zero_for_equal_roles():
    rng = np.random.default_rng(5)
    w, m = _simulate(rng, np.ones(4), 3, 2000, reps=200)
    r, cov = rate_covariance(*moments_from_games(w, m))
    out = [spread_interval(r[i], cov[i], seed=i) for i in range(200)]
    assert all(o["spread_bias"] > 0 for o in out)
    # the raw spread is never 0, but the interval reaches down to 0 in most replications
    assert np.mean([o["spread_low"] == 0.0 for o in out]) > 0.85
    # clearly different roles: the interval covers the true spread
    strength = [1.0, 1.3, 1.7, 2.2]
    w, m = _simulate(rng, np.array(strength), 3, 2000, reps=200)
    r, cov = rate_covariance(*moments_from_games(w, m))
    true = _true_rates(strength, 3)
    spread = true.max() - true.min()
    covered = [
        (o := spread_interval(r[i], cov[i], seed=i))["spread_low"] <= spread <= o["spread_high"]
        for i in range(200)
    ]
    assert 0.9 <= np.mean(covered) <= 0.99


def test_groups_cut_where_the_top_of_a_group_is_told_apart():
    def row(a, b, wa, wb, apart):
        return {"a": a, "b": b, "win_a": wa, "win_b": wb, "told_apart": apart}

    pairs = pl.DataFrame(
        [
            row("cart", "verc", 0.407, 0.396, False),
            row("cart", "boad", 0.407, 0.371, False),
            row("verc", "boad", 0.396, 0.371, False),
            row("cart", "viri", 0.407, 0.261, True),
            row("verc", "viri", 0.396, 0.261, True),
            row("boad", "viri", 0.371, 0.261, True),
        ]
    )
    assert groups(pairs) == [["cart", "verc", "boad"], ["viri"]]


@pytest.fixture(scope="module")
def leader_report(tmp_path_factory):
    """A synthetic run (six roles of known strength, 3 of them dealt per game) declared as a
    Celtae run, so the report uses Celtae's word for a role."""
    import json

    from reports import make_report
    from reports.synthetic import write_run

    run = write_run(tmp_path_factory.mktemp("r") / "run", games=2000, values=(11,), players=3)
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps({**manifest, "game": "celtae"}))
    return run, make_report([run], tmp_path_factory.mktemp("rep") / "rep")


def test_report_writes_pairwise_csv_consistent_with_the_win_rates(leader_report):
    run, out = leader_report
    pairs = pl.read_csv(out / "pairwise.csv")
    for col in ["run", "variant", "label", "players", "unit", "a", "b", "win_a", "win_b"]:
        assert col in pairs.columns
    for col in ["diff", "lo_simul95", "hi_simul95", "z_crit", "p_maxt", "told_apart"]:
        assert col in pairs.columns
    assert "lo" not in pairs.columns and "p_holm" not in pairs.columns
    roles = pairs.filter(pl.col("unit") == "role")
    seats = pairs.filter(pl.col("unit") == "seat")
    assert roles.height == 15 and seats.height == 3  # 6 roles and 3 seats: every pair once
    rates = dict(pl.read_csv(out / "win_by_role.csv").select("role", "win_rate").rows())
    for r in roles.iter_rows(named=True):
        assert r["win_a"] == pytest.approx(rates[r["a"]]) and r["diff"] >= 0
        assert r["diff"] == pytest.approx(r["win_a"] - r["win_b"])
        assert r["lo_simul95"] < r["diff"] < r["hi_simul95"]
        # games_needed only where the pair is not told apart
        assert (r["games_needed"] is None) == (r["told_apart"] or r["diff"] < 1e-6)
    # the verdict is the interval's: told apart <=> the simultaneous interval excludes 0
    for r in pairs.iter_rows(named=True):
        assert r["told_apart"] == (r["lo_simul95"] > 0) == (r["p_maxt"] < 0.05)
        se = r["diff"] / norm.isf(r["p_value"] / 2)  # the z-test's standard error
        assert r["hi_simul95"] - r["diff"] == pytest.approx(r["z_crit"] * se, rel=1e-6)
    # the synthetic strengths step 2.4 points of score per role: the extremes are told apart
    top = roles.filter((pl.col("a") == "wanderer") & (pl.col("b") == "fastest")).row(0, named=True)
    assert top["told_apart"] and top["p_maxt"] < 0.05
    # this run holds a pair whose unadjusted 95% interval excludes 0 (p < 0.05) while the
    # simultaneous one does not: the report does not call it told apart
    loose = roles.filter((pl.col("p_value") < 0.05) & ~pl.col("told_apart"))
    assert loose.height >= 1
    assert (loose["lo_simul95"] < 0).all() and (loose["z_crit"] > 1.96).all()
    bal = pl.read_csv(out / "balance.csv")
    assert bal["spread_low"][0] <= bal["spread"][0] <= bal["spread_high"][0]
    assert bal["spread_bias"][0] >= 0


def test_summary_and_html_use_the_games_word_and_say_how_ties_count(leader_report):
    _, out = leader_report
    summary = (out / "summary.md").read_text()
    assert "a win shared by k players counts 1/k" in summary
    assert "## Which leaders and seats can be told apart" in summary
    leaders = table(section(summary, "Leaders"))
    wanderer = next(r for r in leaders if r["leader"] == "wanderer")
    rate = pl.read_csv(out / "win_by_role.csv").filter(pl.col("role") == "wanderer")
    (label,) = rate["label"].to_list()
    assert wanderer[label].startswith(f"{100 * rate['win_rate'][0]:.1f}% [")
    assert "wins per game played, 95% wilson interval" in section(summary, "Leaders").lower()
    assert "cannot be told apart at 2,000 games" in summary or "ahead of" in summary
    assert "leader spread" in summary and "biased upward" in summary
    head, rest = summary.split("## Flags")
    assert "to separate" not in head  # the power line comes after the findings
    assert "More games: to separate" in rest and "games per variant" in rest
    html = (out / "report.html").read_text()
    assert "pairwise_heatmap" in html and "Win rate by leader" in html
    assert re.search(r"<th [^>]*>leader</th>", html)
    assert (out / "pairwise_heatmap.png").stat().st_size > 1000


def test_run_headline_names_the_largest_games_needed_worth_playing(leader_report):
    from reports.pairwise import about, run_headline, worth_playing

    run, out = leader_report
    line = run_headline(run, "leader")
    worst = worth_playing(
        pl.read_csv(out / "pairwise.csv", infer_schema=False).cast(
            {"diff": pl.Float64, "games_needed": pl.Int64}
        )
    )
    who = (lambda x: f"seat {x}") if worst["unit"] == "seat" else str
    assert line.startswith(f"to separate {who(worst['a'])} from {who(worst['b'])} (")
    assert line.endswith(f"{about(worst['games_needed'])} games per variant")  # no label: 1 variant
    summary = (out / "summary.md").read_text()
    assert f"More games: {line} (" in summary


def test_the_gap_needing_more_games_reads_the_same_from_the_run_and_the_report():
    from reports.pairwise import needed_text

    # 0.34025 - 0.32875 (a 3-player Celtica run) as the two paths summed it: 1.1 both times
    row = {"a": 1, "b": 0, "games_needed": 49_032}
    texts = {needed_text(dict(row, diff=d), "seat") for d in (0.0115, 0.34025 - 0.32875)}
    assert len({0.0115, 0.34025 - 0.32875}) == 2  # the two sums do differ in their last bit
    assert texts == {
        "to separate seat 1 from seat 0 (1.1 points apart): about 49,000 games per variant"
    }
