"""The report says when nothing was played differently (issue 35 item 5): paired variants whose
bots made the same decisions in every game (every act_* count equal, per game and seat), or in
nearly all of them, are named in the headline of summary.md and report.html."""

import polars as pl
import pytest

from reports import make_report
from reports.decisions import SAME_SHARE
from reports.synthetic import write_run

GAMES = 500
CHANGED = {"v0": 0, "v1": 0, "v2": 3, "v3": 250}  # games whose decisions differ from v0's


def _add_decisions(run) -> None:
    """act_move and act_trade per seat, the same in every variant except in the first
    CHANGED[variant] games, where seat 1 trades once more."""
    for part in (run / "players").rglob("*.parquet"):
        df = pl.read_parquet(part)
        variant = df["variant"][0]
        more = (pl.col("game") < CHANGED[variant]) & (pl.col("seat") == 1)
        df.with_columns(
            ((pl.col("game") * 7 + pl.col("seat").cast(pl.Int64) * 3) % 11).alias("act_move"),
            ((pl.col("game") % 5) + more.cast(pl.Int64)).alias("act_trade"),
        ).write_parquet(part)


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    root = tmp_path_factory.mktemp("same")
    out = {}
    for paired in (True, False):
        run = write_run(root / f"run{paired}", games=GAMES, values=(1, 2, 3, 4), paired=paired)
        _add_decisions(run)
        out[paired] = make_report([run], root / f"report{paired}")
    return out


def test_same_decisions_are_counted_game_by_game(reports):
    table = pl.read_csv(reports[True] / "same_decisions.csv")
    assert table["variant"].to_list() == ["v1", "v2", "v3"]
    assert table["games"].to_list() == [GAMES] * 3
    assert table["same_games"].to_list() == [GAMES - CHANGED[v] for v in ("v1", "v2", "v3")]
    assert table["nearly_all"].to_list() == [
        (GAMES - CHANGED[v]) / GAMES >= SAME_SHARE for v in ("v1", "v2", "v3")
    ]


def test_the_headline_says_which_variants_changed_only_the_scoring(reports):
    summary = (reports[True] / "summary.md").read_text()
    head = summary.split("\n\n")[1]  # the headline paragraph, under the title
    assert (
        "The variant romans_in_play 2 differs from romans_in_play 1 only in scoring: the bots "
        f"made the same decisions in every game ({GAMES} paired games)" in head
    )
    share = 100 * (GAMES - CHANGED["v2"]) / GAMES
    assert (
        "romans_in_play 3 differs from romans_in_play 1 almost only in scoring: the bots made "
        f"the same decisions in {share:.1f}% of the games ({GAMES - CHANGED['v2']} of {GAMES} "
        f"paired games; the threshold is {100 * SAME_SHARE:.0f}%)" in head
    )
    assert "romans_in_play 4 differs" not in summary  # half its games differ
    html = (reports[True] / "report.html").read_text()
    assert "differs from romans_in_play 1 only in scoring" in html


def test_unpaired_variants_are_not_compared_decision_by_decision(reports):
    assert not (reports[False] / "same_decisions.csv").exists()
    assert "only in scoring" not in (reports[False] / "summary.md").read_text()
