"""A report of a Great Wall run reads the collective defeat correctly: the games nobody won are
a share of games with its interval ("everybody lost"), not ties, and the seats' fair share
counts only the games someone won. The shipped config validates with its sweep."""

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from experiments.cli import cli
from experiments.config import load_config
from experiments.sweep import expand
from reports.report import make_report

CONFIG = (
    Path(__file__).resolve().parents[3] / "experiments" / "configs" / "great_wall_breaches.toml"
)


def test_shipped_config_sweeps_the_breach_limit_at_4_and_6_players():
    cfg = load_config(CONFIG)
    assert cfg.game == "catan_great_wall"
    assert len(expand(cfg)) == 8 and set(cfg.axes) == {"players", "breaches_to_lose"}


@pytest.mark.slow
def test_report_counts_everybody_lost_not_ties(tmp_path):
    cfg = tmp_path / "gw.toml"
    cfg.write_text(
        'name = "gw"\ngame = "catan_great_wall"\ngames = 300\nseed = 3\nplayers = 4\n'
        'bots = "random"\n[params]\nbreaches_to_lose = [2, 5]\n[sweep]\nmode = "grid"\n'
    )
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    report = make_report([str(out)], None)
    lost = pl.read_csv(report / "everybody_lost.csv")
    summary = (report / "summary.md").read_text()
    assert "Everybody lost" in summary and "not ties" in summary
    assert lost.height == 2 and ((lost["share"] > 0) & (lost["share"] < 1)).all()
    assert (lost["ci_low"] <= lost["share"]).all() and (lost["share"] <= lost["ci_high"]).all()
    # a lower breach limit: the wall falls more often
    by_limit = dict(zip(lost["label"].to_list(), lost["share"].to_list(), strict=True))
    two = next(v for k, v in by_limit.items() if "2" in k)
    five = next(v for k, v in by_limit.items() if "5" in k)
    assert two > five
    seats = pl.read_csv(report / "win_by_seat.csv")
    for row in lost.iter_rows(named=True):
        fair = seats.filter(pl.col("label") == row["label"])["fair"].unique().to_list()
        assert fair == pytest.approx([(1 - row["share"]) / 4])
