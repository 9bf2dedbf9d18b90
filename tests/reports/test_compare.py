"""Variant comparisons, balance, stalemates and side-by-side runs, on synthetic runs with known
answers (reports.synthetic writes the runner's exact layout; a rigged role wins every game)."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from statsmodels.stats.proportion import confint_proportions_2indep
from statsmodels.stats.weightstats import DescrStatsW

from experiments.cli import cli
from reports import make_report
from reports.report import compare_label
from reports.stats import stalemates_lazy
from reports.synthetic import write_run
from tests.reports.mdtable import section, table

GAMES = 1500
ROOT = Path(__file__).resolve().parents[2]


def _players(run: Path) -> pl.DataFrame:
    return pl.read_parquet(run / "players" / "*" / "*.parquet", hive_partitioning=False)


@pytest.fixture(scope="module")
def rigged(tmp_path_factory):
    """v0 baseline, v1 identical to it (common random numbers), v2: trusted always wins, and
    v1's first 7 games are stalemates (turn cap, nobody scored)."""
    root = tmp_path_factory.mktemp("rigged")
    run = write_run(
        root / "run", games=GAMES, values=(11, 13, 14), rig={2: "trusted"}, caps={1: 7}, seed=5
    )
    return run, make_report([run], root / "report")


def test_rigged_role_is_significant_and_identical_variant_is_not(rigged):
    _, out = rigged
    diff = pl.read_csv(out / "variant_differences.csv")
    assert set(diff["method"]) == {"paired"}
    assert set(diff["unit"]) == {"role", "seat"}
    trusted = diff.filter((pl.col("variant") == "v2") & (pl.col("group") == "trusted")).row(
        0, named=True
    )
    assert trusted["significant"] and trusted["rate"] == 1.0
    assert trusted["ci_low"] > 0.3 and trusted["diff"] > 0.5
    # v1 differs from v0 only in its 7 stalemate games, far too few to be significant
    same = diff.filter(pl.col("variant") == "v1")
    assert not same["significant"].any()
    assert same["diff"].abs().max() < 0.02


def test_paired_interval_matches_statsmodels_on_per_game_differences(rigged):
    run, out = rigged
    p = _players(run).filter(pl.col("role") == "trusted")
    pairs = p.filter(pl.col("variant") == "v2").join(
        p.filter(pl.col("variant") == "v0"), on=["game", "role"], suffix="_base"
    )
    d = (pairs["win"] - pairs["win_base"]).to_numpy()
    lo, hi = DescrStatsW(d).zconfint_mean(alpha=0.05)
    row = pl.read_csv(out / "variant_differences.csv").filter(
        (pl.col("variant") == "v2") & (pl.col("group") == "trusted")
    )
    assert row["n"][0] == len(d)
    assert row["diff"][0] == pytest.approx(d.mean())
    assert row["ci_low"][0] == pytest.approx(lo) and row["ci_high"][0] == pytest.approx(hi)


def test_summary_states_significant_differences_in_words(rigged):
    _, out = rigged
    summary = (out / "summary.md").read_text()
    # one table: a row per role and seat 0, a column per variant with a significant change
    text = section(summary, "Significant differences from the baseline")
    assert "in points, 95% interval (paired); * significant after Holm" in text
    row = next(r for r in table(text) if r["role or seat"] == "trusted")
    cell = row["romans_in_play 14 vs 11"]
    assert re.fullmatch(r"\+\d+\.\d \[\+\d+\.\d, \+\d+\.\d\] \*", cell)
    assert "romans_in_play 13 vs 11" not in summary
    html = (out / "report.html").read_text()
    assert "Variant vs baseline" in html and "Balance per variant" in html


def test_chi_square_detects_the_rig(rigged):
    _, out = rigged
    chi = pl.read_csv(out / "chi_square.csv")
    overall = chi.filter(pl.col("test") == "role x variant wins").row(0, named=True)
    assert overall["significant"] and overall["dof"] == 10
    assert chi.filter(pl.col("test") == "trusted win rate across variants")["significant"][0]


def test_balance_measures_match_the_raw_tables(rigged):
    run, out = rigged
    bal = pl.read_csv(out / "balance.csv")
    p = _players(run)
    for variant in ("v0", "v2"):
        rates = p.filter(pl.col("variant") == variant).group_by("role").agg(pl.col("win").mean())
        rates = rates.sort("win")
        row = bal.filter(pl.col("variant") == variant).row(0, named=True)
        assert row["spread"] == pytest.approx(rates["win"][-1] - rates["win"][0])
        assert (row["best_role"], row["worst_role"]) == (rates["role"][-1], rates["role"][0])
        seat0 = p.filter((pl.col("variant") == variant) & (pl.col("seat") == 0))["win"].mean()
        assert row["seat0_advantage"] == pytest.approx(seat0 - 0.25)
        assert row["seat0_adv_low"] < row["seat0_advantage"] < row["seat0_adv_high"]
    v2 = bal.filter(pl.col("variant") == "v2")
    assert v2["best_role"][0] == "trusted" and v2["best_rate"][0] == 1.0
    assert bal.filter(pl.col("variant") == "v1")["turn_cap_share"][0] == pytest.approx(7 / GAMES)


def test_stalemates_flagged_at_the_top(rigged):
    _, out = rigged
    summary = (out / "summary.md").read_text()
    head = summary.split("## Flags")[0]
    assert (
        f"STALEMATE: variant romans_in_play 13: 7 of {GAMES:,} games "
        "(7 with no one scoring, 7 ended by a cap)" in head
    )
    assert "STALEMATE: variant romans_in_play 11" not in summary
    assert not any("STALEMATE" in x and "romans_in_play 14" in x for x in head.splitlines())


def test_stalemate_rules_on_a_hand_built_table():
    games = pl.LazyFrame(
        {
            "run": ["r"] * 4,
            "variant": ["v0"] * 4,
            "game": [0, 1, 2, 3],
            "players": [2] * 4,
            "end_reason": ["supply_exhausted", "round_cap", "stalemate_rule", "supply_exhausted"],
        }
    )
    players = pl.LazyFrame(
        {
            "run": ["r"] * 8,
            "variant": ["v0"] * 8,
            "game": [0, 0, 1, 1, 2, 2, 3, 3],
            "score": [0, 0, 5, 0, 3, 4, 0, 9],
        }
    )
    row = stalemates_lazy(games, players).collect().row(0, named=True)
    assert (row["no_score"], row["capped"], row["stalemates"]) == (1, 2, 3)


def test_identical_variants_give_nothing_significant(tmp_path):
    run = write_run(tmp_path / "run", games=800, values=(11, 12, 13), seed=9)
    out = make_report([run], tmp_path / "report")
    diff = pl.read_csv(out / "variant_differences.csv")
    assert diff.height == 2 * (6 + 1)
    assert (diff["diff"] == 0).all() and not diff["significant"].any()
    chi = pl.read_csv(out / "chi_square.csv")
    assert not chi["significant"].any()
    summary = (out / "summary.md").read_text()
    assert "- none of 14 comparisons is significant after Holm (paired)." in summary
    assert "STALEMATE" not in summary


def test_unpaired_run_uses_newcombe_and_says_so(tmp_path):
    run = write_run(tmp_path / "run", games=1000, paired=False, rig={1: "fastest"}, seed=4)
    out = make_report([run], tmp_path / "report")
    diff = pl.read_csv(out / "variant_differences.csv")
    assert set(diff["method"]) == {"unpaired"}
    p = _players(run).filter(pl.col("role") == "haggler")
    wins = p.group_by("variant").agg(pl.col("win").sum(), pl.len()).sort("variant")
    lo, hi = confint_proportions_2indep(
        wins["win"][1], wins["len"][1], wins["win"][0], wins["len"][0], method="newcomb"
    )
    row = diff.filter(pl.col("group") == "haggler")
    assert row["ci_low"][0] == pytest.approx(lo) and row["ci_high"][0] == pytest.approx(hi)
    assert diff.filter(pl.col("group") == "fastest")["significant"][0]
    text = section((out / "summary.md").read_text(), "Significant differences from the baseline")
    assert "95% interval (unpaired); * significant after Holm" in text


def test_two_runs_side_by_side(tmp_path):
    a = write_run(tmp_path / "a", games=600, name="alpha", seed=1)
    b = write_run(tmp_path / "b", games=600, name="beta", seed=2, rig={1: "wanderer"})
    c = write_run(tmp_path / "c", games=600, name="alpha", seed=1)
    result = CliRunner().invoke(
        cli, ["report", str(a), str(b), str(c), "--out", str(tmp_path / "x")]
    )
    assert result.exit_code == 0, result.output
    bal = pl.read_csv(tmp_path / "x" / "balance.csv")
    assert bal["label"].to_list() == [
        "alpha: romans_in_play 11",
        "alpha: romans_in_play 13",
        "beta: romans_in_play 11",
        "beta: romans_in_play 13",
        "alpha (c): romans_in_play 11",
        "alpha (c): romans_in_play 13",
    ]
    diff = pl.read_csv(tmp_path / "x" / "variant_differences.csv")
    methods = dict(diff.group_by("label").agg(pl.col("method").first()).iter_rows())
    # same seed, paired: compared game by game; another seed: not paired
    assert methods["alpha: romans_in_play 13"] == "paired"
    assert methods["alpha (c): romans_in_play 11"] == "paired"
    assert methods["beta: romans_in_play 11"] == "unpaired"
    twin = diff.filter(pl.col("label") == "alpha (c): romans_in_play 11")
    assert (twin["diff"] == 0).all()
    wanderer = diff.filter(
        (pl.col("label") == "beta: romans_in_play 13") & (pl.col("group") == "wanderer")
    )
    assert wanderer["significant"][0]
    summary = (tmp_path / "x" / "summary.md").read_text()
    assert "# menhir report: alpha, beta, alpha (c)" in summary
    text = section(summary, "Significant differences from the baseline")
    row = next(r for r in table(text) if r["role or seat"] == "wanderer")
    assert row["beta: romans_in_play 13 vs alpha: romans_in_play 11"].endswith(" *")
    seats = pl.read_csv(tmp_path / "x" / "win_by_seat.csv")
    assert seats.height == 6 * 4 and seats["label"].n_unique() == 6


def test_compare_label():
    assert compare_label("v2 (romans_in_play=14)", "v0 (romans_in_play=11)") == (
        "romans_in_play 14 vs 11"
    )
    # labels in words (issue 37 item 3): the one value that differs, the rest said once
    assert compare_label("romans_in_play 14", "romans_in_play 11") == "romans_in_play 14 vs 11"
    assert compare_label("3 players, rp_as_vp 2", "3 players, rp_as_vp 1") == (
        "3 players, rp_as_vp 2 vs 1"
    )
    assert compare_label("4 players", "3 players") == "4 vs 3 players"
    assert compare_label("search bots, advanced true", "greedy bots, advanced true") == (
        "search vs greedy bots, advanced true"
    )
    assert compare_label("4 players, rp_as_vp 2", "3 players, rp_as_vp 1") == (
        "4 players, rp_as_vp 2 vs 3 players, rp_as_vp 1"
    )
    assert compare_label("v1 (players=3,bots=x)", "v0 (players=4,bots=y)") == (
        "v1 (players=3,bots=x) vs v0 (players=4,bots=y)"
    )
    assert compare_label("a: v1 (k=2)", "b: v0 (k=1)") == "a: v1 (k=2) vs b: v0 (k=1)"


def test_missing_column_is_one_line_naming_the_file(tmp_path):
    run = write_run(tmp_path / "run", games=50, values=(11,))
    victim = sorted((run / "players").glob("variant=v0/*.parquet"))[0]
    pl.read_parquet(victim).drop("win").write_parquet(victim)
    result = CliRunner().invoke(cli, ["report", str(run), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2, result.output
    assert str(victim) in result.output and "win" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "r").exists()


def test_single_variant_run_has_no_comparisons(tmp_path):
    run = write_run(tmp_path / "run", games=300, values=(11,))
    out = make_report([run], tmp_path / "report")
    assert not (out / "variant_differences.csv").exists()
    assert (out / "balance.csv").exists() and (out / "balance.png").exists()
    seat0 = _players(run).filter(pl.col("seat") == 0)["win"].mean()
    assert np.isclose(pl.read_csv(out / "balance.csv")["seat0_advantage"][0], seat0 - 0.25)
    assert "## Significant differences" not in (out / "summary.md").read_text()


def test_benchmark_script_small(tmp_path):
    """The benchmark script works; its time limit is checked by `make bench`, never by a test
    (a test on a loaded machine would fail for the machine, not the code)."""
    script = str(ROOT / "benchmarks" / "bench_report.py")
    proc = subprocess.run(
        [sys.executable, script, "--rows", "200000", "--max-seconds", "1e9"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    match = re.search(r"report 200000 player rows: ([\d.]+) s, peak ([\d.]+) GiB", proc.stdout)
    assert match, proc.stdout
    assert float(match[1]) > 0 and 0.05 < float(match[2]) < 4


def test_run_without_roles_collects_only_aggregates(tmp_path, monkeypatch):
    """A game without roles gets seat tables only; no collected frame is as long as the games
    table (so neither the players nor the games table is ever collected whole)."""
    run = write_run(tmp_path / "run", games=1200, values=(3, 4), param="x")
    for f in (run / "players").glob("*/*.parquet"):
        pl.read_parquet(f).with_columns(pl.lit(None, pl.String).alias("role")).write_parquet(f)
    heights = []
    collect_all, collect = pl.collect_all, pl.LazyFrame.collect

    def spy_all(frames, **kw):
        result = collect_all(frames, **kw)
        heights.extend(r.height for r in result)
        return result

    def spy(self, **kw):
        result = collect(self, **kw)
        heights.append(result.height)
        return result

    monkeypatch.setattr(pl, "collect_all", spy_all)
    monkeypatch.setattr(pl.LazyFrame, "collect", spy)
    out = make_report([run], tmp_path / "report")
    assert heights and max(heights) < 1200
    names = {p.name for p in out.iterdir()}
    assert "win_by_role.csv" not in names and "role_seat_heatmap.png" not in names
    diff = pl.read_csv(out / "variant_differences.csv")
    assert diff["unit"].to_list() == ["seat"] and diff["diff"][0] == 0
    assert "first-seat advantage" in (out / "summary.md").read_text()


def test_a_single_comparison_reads_in_the_singular():
    from reports.page import none_significant

    assert none_significant(1, "paired") == "- the one comparison is not significant (paired)."
    assert none_significant(14, "paired") == (
        "- none of 14 comparisons is significant after Holm (paired)."
    )
