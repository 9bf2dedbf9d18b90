"""Reports on a real small Celtic Trader run, and every error path of `menhir report`."""

import polars as pl
import pytest
from click.testing import CliRunner

import experiments
from experiments.cli import cli
from reports import make_report
from tests.reports.mdtable import section, table

CONFIG = {
    "name": "tiny",
    "game": "celtic_trader",
    "games": 400,
    "seed": 3,
    "players": 3,
    "bots": "greedy",
    "params": {"romans_in_play": [11, 13]},
}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "tiny"
    return experiments.run(CONFIG, out, jobs=1, progress=False)


@pytest.fixture(scope="module")
def report_dir(run_dir, tmp_path_factory):
    return make_report([run_dir], tmp_path_factory.mktemp("rep") / "rep")


def test_report_writes_every_artefact(report_dir):
    out = report_dir
    names = {p.name for p in out.iterdir()}
    for name in [
        "report.html",
        "summary.md",
        "win_by_seat.png",
        "win_by_role.png",
        "role_seat_heatmap.png",
        "score_components.png",
        "end_reasons.png",
        "win_by_role_sweep.png",
        "win_by_seat.csv",
        "win_by_role.csv",
        "variant_differences.csv",
        "variant_differences.png",
        "chi_square.csv",
        "balance.csv",
        "balance.png",
        "stalemates.csv",
    ]:
        assert name in names
    html = (out / "report.html").read_text()
    assert "data:image/png;base64," in html and "src='http" not in html
    summary = (out / "summary.md").read_text()
    assert "bots: greedy" in summary
    seats = table(section(summary, "Seats"))
    assert next(r for r in seats if r["seat"] == "fair share")["romans_in_play 11"] == "33%"


def test_win_rates_match_the_players_table(run_dir, report_dir):
    out = report_dir
    table = pl.read_csv(out / "win_by_seat.csv")
    players = pl.read_parquet(run_dir / "players" / "variant=v0")
    seat0 = players.filter(pl.col("seat") == 0)["win"].mean()
    row = table.filter((pl.col("variant") == "v0") & (pl.col("seat") == 0))
    assert row["win_rate"][0] == pytest.approx(seat0)
    assert row["ci_low"][0] < seat0 < row["ci_high"][0]


def test_paired_differences_on_a_real_run(run_dir, report_dir):
    """Common random numbers deal the same roles in game i of both variants, so the paired
    mean difference is exactly the difference of the two win rates, on the same games."""
    diff = pl.read_csv(report_dir / "variant_differences.csv")
    assert set(diff["method"]) == {"paired"} and diff.height == 6 + 1
    roles = pl.read_csv(report_dir / "win_by_role.csv")
    for r in diff.filter(pl.col("unit") == "role").iter_rows(named=True):
        rate = dict(roles.filter(pl.col("role") == r["group"]).select("variant", "win_rate").rows())
        assert r["diff"] == pytest.approx(rate["v1"] - rate["v0"])
        assert r["ci_low"] < r["diff"] < r["ci_high"]
    assert "Baseline variant: romans_in_play 11" in (report_dir / "summary.md").read_text()


def test_cli_default_out_is_inside_the_run(run_dir):
    result = CliRunner().invoke(cli, ["report", str(run_dir)])
    assert result.exit_code == 0, result.output
    assert (run_dir / "report" / "report.html").exists()


def _expect_error(args, fragment, leftover):
    result = CliRunner().invoke(cli, ["report", *args])
    assert result.exit_code == 2, result.output
    assert fragment in result.output and len(result.output.strip().splitlines()) == 1
    assert not leftover.exists()


def test_missing_directory(tmp_path):
    _expect_error(
        [str(tmp_path / "nope"), "--out", str(tmp_path / "r")], "no such run", tmp_path / "r"
    )


def test_run_without_finished_games(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "manifest.json").write_text('{"name": "e"}')
    _expect_error(
        [str(tmp_path / "empty"), "--out", str(tmp_path / "r")], "no finished games", tmp_path / "r"
    )


def test_corrupt_parquet(run_dir, tmp_path):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(run_dir, broken)
    victim = sorted((broken / "players").glob("variant=v1/*.parquet"))[0]
    victim.write_bytes(b"not a parquet file")
    _expect_error([str(broken), "--out", str(tmp_path / "r")], str(victim), tmp_path / "r")
