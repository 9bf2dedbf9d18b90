"""The report's labels (issue 37 item 5): the power line reads "More games:" after the findings,
no "-0.0" anywhere, p-values as "< 0.001" or two significant digits, never/always-wins flags
for seats as for roles, and tables with only the columns that apply to the game."""

import re
from pathlib import Path

import polars as pl
import pytest

from reports import make_report
from reports.decisions import disabled_kinds
from reports.memo import difference_table, num, pct_ci, pts, pts_ci
from reports.synthetic import write_run
from tests.reports.mdtable import section, table

NEG_ZERO = re.compile(r"-0\.0+(?![0-9]*[1-9])")  # -0.0, -0.00, not -0.05


def _rewrite_players(run: Path, change) -> None:
    """Apply `change` (a polars frame -> frame) to every players part of a synthetic run."""
    for part in (run / "players").rglob("*.parquet"):
        change(pl.read_parquet(part)).write_parquet(part)


@pytest.fixture(scope="module")
def seatless(tmp_path_factory):
    """A game without roles (like the Great Wall), two paired variants of 1,000 games: seat 3
    wins one game in the first variant and none in the second (its wins go to seat 0)."""
    root = tmp_path_factory.mktemp("labels")
    run = write_run(root / "run", games=1000, values=(11, 13))

    def change(df: pl.DataFrame) -> pl.DataFrame:
        first = (pl.col("variant") == "v0") & (pl.col("game") == 0)  # seat 3 wins this one
        win = (
            pl.when(first)
            .then((pl.col("seat") == 3).cast(pl.Float64))
            .when(pl.col("seat") == 3)
            .then(0.0)
            .otherwise(pl.col("win"))
        )
        df = df.with_columns(pl.lit(None, pl.String).alias("role"), win.alias("win"))
        # seat 0 takes every game's remaining win so each game still has one winner
        total = pl.col("win").sum().over("variant", "game")
        return df.with_columns(
            pl.when(pl.col("seat") == 0)
            .then(pl.col("win") + 1.0 - total)
            .otherwise(pl.col("win"))
            .alias("win")
        )

    _rewrite_players(run, change)
    return make_report([run], root / "report")


def test_the_power_line_reads_more_games_and_comes_after_the_findings(seatless):
    summary = (seatless / "summary.md").read_text()
    assert "Headline:" not in summary
    first, rest = summary.split("## Flags", 1)
    assert "More games:" not in first  # not among the headline and its context
    line = next(x for x in rest.splitlines() if x.startswith("More games: to separate"))
    assert "games per variant" in line
    told = section(summary, "Which seats can be told apart")  # no roles in this game
    assert line in told


def test_seats_that_win_at_most_1_percent_are_flagged_never_wins(seatless):
    flags = section((seatless / "summary.md").read_text(), "Flags")
    line = next(x for x in flags.splitlines() if x.startswith("- seat 3 never wins"))
    seats = pl.read_csv(seatless / "win_by_seat.csv").filter(pl.col("seat") == 3)
    assert seats["win_rate"].max() <= 0.01 and seats["wins"].to_list() == [1.0, 0.0]
    # one line for both variants, each with its count; "at most 1%" since v0 has a win
    assert "(at most 1% of its games) in 2 variants" in line
    assert "romans_in_play 11 (1 of 1,000 games, 0.1%)" in line
    assert "romans_in_play 13 (0 of 1,000 games, 0.0%)" in line
    assert not any(x.startswith(("- seat 1 ", "- seat 2 ")) for x in flags.splitlines())


def test_a_game_without_roles_has_no_role_columns_and_no_role_header(seatless):
    summary = (seatless / "summary.md").read_text()
    balance = table(section(summary, "Balance per variant"))
    assert set(balance[0]) == {
        "variant", "games", "first-seat advantage (points)", "rounds", "turns",
        "ended by the safety cap",
    }  # fmt: skip
    assert "spread" not in section(summary, "Balance per variant")  # nor its note
    assert "roles" not in summary.lower().replace("no role or seat", "")
    html = (seatless / "report.html").read_text()
    assert "spread (points)" not in html and "strongest" not in html.split("Full detail")[0]
    # the differences table's first header says what its rows are
    rows = [
        {"run": "r", "variant": "v1", "label": "x=2", "baseline": "x=1", "unit": "seat",
         "group": "0", "diff": 0.05, "ci_low": 0.01, "ci_high": 0.09, "significant": True},
        {"run": "r", "variant": "v1", "label": "x=2", "baseline": "x=1", "unit": "role",
         "group": "trusted", "diff": -0.0004, "ci_low": -0.03, "ci_high": 0.02,
         "significant": False},
    ]  # fmt: skip
    seats_only = difference_table(pl.DataFrame(rows[:1]), "role")
    assert list(seats_only.columns)[0] == "seat" and seats_only.iloc[0, 0] == "seat 0"
    both = difference_table(pl.DataFrame(rows), "leader")
    assert list(both.columns)[0] == "leader or seat"
    assert both.iloc[1, 1] == "+0.0 [-3.0, +2.0]"  # -0.04 points reads +0.0, never -0.0


def test_no_negative_zero_reaches_a_report(seatless):
    assert num(-0.0004) == "0.0" and num(-0.0) == "0.0" and num(-0.04, "+.1f") == "+0.0"
    assert num(-0.06) == "-0.1" and num(-0.05, ".2f") == "-0.05" and num(-0.0, ".0f") == "0"
    assert pts(-0.0004) == "+0.0" and pts(0.0) == "+0.0" and pts(-0.0006) == "-0.1"
    assert pts_ci(-0.0001, -0.00049, 0.014) == "+0.0 [+0.0, +1.4]"
    assert pct_ci(0.0, -0.0, 0.002) == "0.0% [0.0, 0.2]"
    for name in ("summary.md", "report.html"):
        text = (seatless / name).read_text()
        assert not NEG_ZERO.search(text), NEG_ZERO.search(text)


def test_a_role_choice_is_no_decision_when_roles_are_dealt():
    kinds = ["draft_leader", "discard", "move", "role", "progress_pawn"]
    assert disabled_kinds({"roles": "random"}, kinds, "leader") == {"draft_leader", "role"}
    assert disabled_kinds({"roles": ["a", "b"]}, kinds, "leader") == {"draft_leader", "role"}
    assert disabled_kinds({"roles": "draft"}, kinds, "leader") == set()
    assert disabled_kinds({}, ["move", "pick_up"]) == set()
