"""Reports over several player counts: solo variants have no fair share, and variants are only
compared (differences, chi-square) with variants of their own player count."""

import re
import warnings

import matplotlib.axes
import numpy as np
import polars as pl
import pytest
from statsmodels.stats.multitest import multipletests

from reports import make_report
from reports.synthetic import write_run
from tests.reports.mdtable import section, table


def _players(run) -> pl.DataFrame:
    return pl.read_parquet(run / "players" / "*" / "*.parquet", hive_partitioning=False)


def _report(run, out, monkeypatch):
    """make_report with RuntimeWarnings as errors, recording the level of every dashed
    horizontal line (the fair-share lines of the win-rate plots)."""
    levels = []
    hlines = matplotlib.axes.Axes.hlines

    def spy(self, y, *args, **kwargs):
        if kwargs.get("linestyles") == "dashed":
            levels.extend(np.atleast_1d(y).tolist())
        return hlines(self, y, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "hlines", spy)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        return make_report([run], out), levels


@pytest.fixture(scope="module")
def solo(tmp_path_factory):
    """v0: solo (trusted always reaches the target), v1: 2 players."""
    root = tmp_path_factory.mktemp("solo")
    run = write_run(
        root / "run", games=900, values=(1, 2), players=(1, 2), param="players", rig={0: "trusted"}
    )
    with pytest.MonkeyPatch.context() as mp:
        out, levels = _report(run, root / "report", mp)
    return run, out, levels


def test_solo_variant_has_no_fair_share_test(solo):
    _, out, _ = solo
    for name in ("win_by_role.csv", "win_by_seat.csv"):
        table = pl.read_csv(out / name)
        v0, v1 = (table.filter(pl.col("variant") == v) for v in ("v0", "v1"))
        assert v0["fair"].is_null().all() and v0["p_value"].is_null().all()
        assert not v0["p_holm_significant"].any()
        assert (v1["fair"] == 0.5).all() and v1["p_value"].is_not_null().all()
        # the Holm family holds only the tested (non-solo) rows
        reject = multipletests(v1["p_value"].to_numpy(), alpha=0.05, method="holm")[0]
        assert v1["p_holm_significant"].to_list() == reject.tolist()


def test_solo_balance_has_a_role_spread_but_no_first_seat_advantage(solo):
    run, out, _ = solo
    bal = pl.read_csv(out / "balance.csv")
    v0 = bal.filter(pl.col("variant") == "v0").row(0, named=True)
    assert v0["seat0_advantage"] is None and v0["seat0_adv_low"] is None
    rates = (
        _players(run).filter(pl.col("variant") == "v0").group_by("role").agg(pl.col("win").mean())
    )
    assert v0["spread"] == pytest.approx(rates["win"].max() - rates["win"].min())
    assert v0["best_role"] == "trusted" and v0["best_rate"] == 1.0
    v1 = bal.filter(pl.col("variant") == "v1").row(0, named=True)
    seat0 = _players(run).filter((pl.col("variant") == "v1") & (pl.col("seat") == 0))["win"]
    assert v1["seat0_advantage"] == pytest.approx(seat0.mean() - 0.5)


def test_solo_summary_makes_no_fair_share_claim(solo):
    run, out, _ = solo
    summary = (out / "summary.md").read_text()
    assert "fair 100%" not in summary
    trusted = _players(run).filter((pl.col("variant") == "v0") & (pl.col("role") == "trusted"))
    assert (
        "- the Trusted always reaches the solo target (at least 99% of its games) in variant "
        f"1 player ({trusted.height} of {trusted.height} solo games, 100.0%)." in summary
    )
    rate = _players(run).filter((pl.col("variant") == "v0") & (pl.col("role") == "fastest"))
    roles = table(section(summary, "Roles"))
    fastest = next(r for r in roles if r["role"] == "fastest")
    # a solo cell: the share reaching the target with its interval, no significance mark
    assert re.fullmatch(
        rf"{100 * rate['win'].mean():.1f}% \[\d+\.\d, \d+\.\d\]", fastest["1 player"]
    )
    seats = {r["seat"]: r for r in table(section(summary, "Seats"))}
    assert "reaching the solo target" in section(summary, "Seats").lower()
    assert seats["fair share"]["1 player"] == "solo"
    assert seats["fair share"]["2 players"] == "50%"
    assert re.fullmatch(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]( \*!?)?", seats["seat 0"]["2 players"])
    balance = {r["variant"]: r for r in table(section(summary, "Balance per variant"))}
    assert balance["1 player"]["first-seat advantage (points)"] == "n/a (solo)"
    assert balance["1 player"]["role spread (points)"] != ""
    # alone at their player count: nothing is compared
    assert not (out / "variant_differences.csv").exists() and not (out / "chi_square.csv").exists()
    assert "players 1, 2: one variant each, not compared" in summary


def test_no_fair_line_is_drawn_for_solo(solo):
    _, _, levels = solo
    assert levels and set(levels) == {0.5}


def test_solo_only_run(tmp_path, monkeypatch):
    run = write_run(tmp_path / "run", games=300, values=(1, 2), players=1, param="x", seed=2)
    out, levels = _report(run, tmp_path / "report", monkeypatch)
    assert not levels
    seats = pl.read_csv(out / "win_by_seat.csv")
    assert seats["fair"].is_null().all() and seats["p_value"].is_null().all()
    summary = (out / "summary.md").read_text()
    assert "Baseline variant: x 1." in summary and "fair" not in summary.split("## Roles")[1]
    # same player count: the two solo variants are compared with each other
    diff = pl.read_csv(out / "variant_differences.csv")
    assert set(diff["baseline"]) == {"x 1"} and (diff["diff"] == 0).all()
    assert "players" not in diff.columns


@pytest.fixture(scope="module")
def two_counts(tmp_path_factory):
    """v0, v1 at 2 players (identical), v2, v3 at 3 players; trusted always wins in v3."""
    root = tmp_path_factory.mktemp("counts")
    run = write_run(
        root / "run",
        games=1000,
        values=(11, 13, 11, 13),
        players=(2, 2, 3, 3),
        rig={3: "trusted"},
        seed=7,
    )
    return run, make_report([run], root / "report")


def test_differences_only_within_a_player_count(two_counts):
    run, out = two_counts
    diff = pl.read_csv(out / "variant_differences.csv")
    pairs = set(diff.select("variant", "baseline").unique().iter_rows())
    assert pairs == {("v1", "2 players, romans_in_play 11"), ("v3", "3 players, romans_in_play 11")}
    assert dict(diff.select("variant", "players").unique().iter_rows()) == {"v1": 2, "v3": 3}
    assert set(diff["method"]) == {"paired"}
    assert (diff.filter(pl.col("variant") == "v1")["diff"] == 0).all()
    seat = diff.filter(pl.col("unit") == "seat")
    assert seat["variant"].to_list() == ["v1", "v3"] and set(seat["group"]) == {"0"}
    # v3 is paired game by game with v2 (3 players), not with the first variant (2 players)
    p = _players(run).filter(pl.col("role") == "trusted")
    pairs = p.filter(pl.col("variant") == "v3").join(
        p.filter(pl.col("variant") == "v2"), on=["game", "role"], suffix="_base"
    )
    trusted = diff.filter((pl.col("variant") == "v3") & (pl.col("group") == "trusted"))
    assert trusted["n"][0] == pairs.height
    assert trusted["diff"][0] == pytest.approx((pairs["win"] - pairs["win_base"]).mean())
    assert trusted["rate_baseline"][0] == pytest.approx(pairs["win_base"].mean())
    assert trusted["significant"][0]


def test_chi_square_within_each_player_count(two_counts):
    _, out = two_counts
    chi = pl.read_csv(out / "chi_square.csv")
    assert chi.columns[0] == "players" and set(chi["players"]) == {2, 3}
    overall = chi.filter(pl.col("test") == "role x variant wins")
    assert overall["players"].to_list() == [2, 3] and overall["dof"].to_list() == [5, 5]
    seats = chi.filter(pl.col("test") == "seat x variant wins")
    assert dict(seats.select("players", "dof").iter_rows()) == {2: 1, 3: 2}
    assert not overall.filter(pl.col("players") == 2)["significant"][0]
    assert overall.filter(pl.col("players") == 3)["significant"][0]
    trusted = chi.filter(pl.col("test") == "trusted win rate across variants")
    assert trusted["dof"].to_list() == [1, 1]
    assert trusted["significant"].to_list() == [False, True]


def test_summary_names_the_baseline_of_each_player_count(two_counts):
    _, out = two_counts
    summary = (out / "summary.md").read_text()
    assert (
        "Variants are compared only with the baseline of their player count "
        "(players 2: 2 players, romans_in_play 11; players 3: 3 players, romans_in_play 11)."
        in summary
    )
    text = section(summary, "Significant differences from the baseline")
    trusted = next(r for r in table(text) if r["role or seat"] == "trusted")
    assert trusted["3 players, romans_in_play 13 vs 11"].endswith(" *")
    assert "- players 3: role x variant wins: chi2 = " in summary
    assert "- players 2: role x variant wins: chi2 = " in summary


def test_variant_mixing_player_counts_is_grouped_alone(tmp_path):
    """v0's second chunk of games is played at 3 players: v0 mixes 2 and 3 players."""
    run = write_run(
        tmp_path / "run", games=200, values=(11, 13, 14), players=(2, 3, 3), chunk_games=100
    )
    for kind in ("games", "players"):
        part = "part-000000000100-100.parquet"
        moved = pl.read_parquet(run / kind / "variant=v1" / part)
        moved.with_columns(pl.lit("v0").alias("variant")).write_parquet(
            run / kind / "variant=v0" / part
        )
    out = make_report([run], tmp_path / "report")
    diff = pl.read_csv(out / "variant_differences.csv")
    pairs = diff.select("variant", "baseline").unique().rows()
    assert pairs == [("v2", "3 players, romans_in_play 13")]
    summary = (out / "summary.md").read_text()
    assert "players 2-3 (mean 2.5): one variant each, not compared" in summary
    fair = pl.read_csv(out / "win_by_seat.csv").filter(pl.col("variant") == "v0")["fair"]
    assert np.allclose(fair.to_numpy(), (1 / 2 + 1 / 3) / 2)
