"""What the design questions need (issue 37 item 6): the shared-defeat share with paired
differences from the baseline and its own sweep plot, and a per-side table whose note says the
side is the bot's choice (selection bias).

The synthetic run (3 variants, 2,000 games each, common random numbers) ends its first 100, 300
and 500 games in a shared defeat, and deals each player a side A or B.
"""

import polars as pl
import pytest

from reports import make_report
from reports.synthetic import write_run
from reports.wording import pct_ci, pts_ci
from tests.reports.mdtable import section, table

GAMES, LOST = 2000, {0: 100, 1: 300, 2: 500}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    base = tmp_path_factory.mktemp("questions")
    run = write_run(base / "run", games=GAMES, values=(1, 2, 3), lost=LOST, sides=True)
    return run, make_report([run], base / "report")


def test_shared_defeat_has_paired_differences_from_the_baseline(report):
    _, out = report
    d = pl.read_csv(out / "everybody_lost_differences.csv").sort("variant")
    assert d["variant"].to_list() == ["v1", "v2"]
    assert set(d["method"]) == {"paired"}
    for r in d.iter_rows(named=True):
        i = int(r["variant"][1:])
        assert r["diff"] == pytest.approx((LOST[i] - LOST[0]) / GAMES)
        assert r["ci_low"] < r["diff"] < r["ci_high"]
        assert r["significant"]
    text = (out / "summary.md").read_text()
    assert "Change in the share of games nobody won, from the baseline" in text
    assert "romans_in_play 2 vs 1: +10.0 [" in text and "romans_in_play 3 vs 1: +20.0 [" in text


def test_shared_defeat_has_its_own_sweep_plot(report):
    _, out = report
    assert (out / "everybody_lost_sweep.png").stat().st_size > 1000
    html = (out / "report.html").read_text()
    assert 'alt="everybody_lost_sweep"' in html


def test_side_table_with_the_selection_bias_note(report):
    run, out = report
    text = (out / "summary.md").read_text()
    part = section(text, "Roles by side")
    assert "chosen by the bot" in part and "selection bias" in part
    p = pl.read_parquet(run / "players" / "*" / "*.parquet", hive_partitioning=False)
    rows = {r["role, side"]: r for r in table(part)}
    for role, side in (("trusted", "A"), ("haggler", "B")):
        g = p.filter(
            (pl.col("variant") == "v0") & (pl.col("role") == role) & (pl.col("side") == side)
        )
        rate = g["win"].sum() / g.height
        cell = rows[f"{role}, side {side}"]["romans_in_play 1"]
        assert cell.startswith(pct_ci(rate, 0, 0).split(" [")[0] + " [")


def test_headline_names_the_largest_change_in_shared_defeats(report):
    _, out = report
    head = (out / "summary.md").read_text().split("\n## ")[0]
    d = pl.read_csv(out / "everybody_lost_differences.csv").filter(pl.col("variant") == "v2")
    r = d.row(0, named=True)
    effect = pts_ci(r["diff"], r["ci_low"], r["ci_high"])
    assert (
        f"The share of games nobody won (a shared defeat) moves {effect} points (paired) "
        "with romans_in_play 3 vs 1; 1 more change significant (after Holm)." in head
    )


def test_no_side_table_where_the_side_is_the_role_itself():
    from reports.page import sides_chosen

    # Troy: the decision card is the side (play.py: side = role); Celtae: a leader, side A or B
    troy = pl.DataFrame({"role": ["troy", "mycenae"] * 2, "side": ["troy", "mycenae"] * 2})
    celtae = pl.DataFrame({"role": ["boadicea", "boadicea", "vercingetorix"], "side": list("ABA")})
    assert not sides_chosen(troy)
    assert sides_chosen(celtae)
    assert not sides_chosen(celtae.head(0))
    assert not sides_chosen(pl.DataFrame({"role": ["a", "b"], "side": [None, None]}))
