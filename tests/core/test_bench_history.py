"""`make bench` as a record (issue 20): each figure is appended to a history CSV and compared
with the best earlier row of the same kind. The rates are faked; nothing here is timed."""

import csv

import pytest

from sim.core import bench

EARLIER = [
    # date, commit, game, bot, players, jobs, games_per_s, peak_mib
    ("2026-11-20 10:00", "aaa1111", "fake_dice", "greedy", 3, 1, 150.0, 300),
    ("2026-11-21 10:00", "bbb2222", "fake_dice", "greedy", 3, 1, 200.0, 300),
    ("2026-11-22 10:00", "ccc3333", "fake_dice", "greedy", 3, 2, 900.0, 300),  # other jobs
    ("2026-11-22 10:00", "ccc3333", "fake_dice", "random", 3, 1, 999.0, 300),  # other bot
    ("2026-11-22 10:00", "ccc3333", "fake_dice", "greedy", 2, 1, 5000.0, 300),  # other players
]


@pytest.fixture
def history(tmp_path):
    path = tmp_path / "benchmarks" / "history.csv"
    path.parent.mkdir()
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(bench.HISTORY_FIELDS)
        writer.writerows(EARLIER)
    return path


def test_each_figure_is_appended_and_compared_with_the_best_of_its_kind(
    fake_game, history, monkeypatch
):
    monkeypatch.setattr(bench, "start_time", lambda game, cache, *level: 0.0)
    monkeypatch.setattr(bench, "games_per_second", lambda setup, seconds: (100, 1.0))
    lines = bench.run_bench(["fake_dice"], jobs=1, history=history)

    assert "fake_dice 3p random jobs=1: 100 games/s (x0.10 of best 999, 2026-11-22 ccc3333)" in (
        lines
    )
    assert "fake_dice 3p greedy jobs=1: 100 games/s (x0.50 of best 200, 2026-11-21 bbb2222)" in (
        lines
    )
    rows = bench.read_history(history)
    assert len(rows) == len(EARLIER) + 2
    new = rows[len(EARLIER) :]
    assert [(r["game"], r["bot"], r["players"], r["jobs"]) for r in new] == [
        ("fake_dice", "random", "3", "1"),
        ("fake_dice", "greedy", "3", "1"),
    ]
    assert all(float(r["games_per_s"]) == 100.0 and float(r["peak_mib"]) > 0 for r in new)
    assert all(r["commit"] and r["date"] for r in new)
    assert not list(history.parent.glob("*.tmp"))  # written through a renamed temporary file


def test_a_new_kind_is_a_first_record_and_the_file_gets_its_header(fake_game, tmp_path):
    path = tmp_path / "history.csv"
    row = dict(
        date="2026-11-25 05:00",
        commit="abc1234",
        game="fake_dice",
        bot="greedy",
        players=3,
        jobs=1,
        games_per_s=120.0,
        peak_mib=10,
    )
    assert bench.versus_best(bench.read_history(path), row) == "first record"
    bench.append_history(path, row)
    bench.append_history(path, {**row, "games_per_s": 60.0})
    assert path.read_text().splitlines()[0] == ",".join(bench.HISTORY_FIELDS)
    earlier = bench.read_history(path)
    assert len(earlier) == 2
    faster = {**row, "games_per_s": 132.0}
    assert bench.versus_best(earlier, faster) == "x1.10 of best 120, 2026-11-25 abc1234"


def test_without_a_history_the_lines_keep_their_form(fake_game, monkeypatch):
    monkeypatch.setattr(bench, "start_time", lambda game, cache, *level: 0.0)
    monkeypatch.setattr(bench, "games_per_second", lambda setup, seconds: (100, 1.0))
    lines = bench.run_bench(["fake_dice"], jobs=1, bots=["greedy"])
    assert "fake_dice 3p greedy jobs=1: 100 games/s" in lines
