"""`make bench` prints each figure against its floor and its best (issue 42, item 5): the floors
file is read and checked, each figure finds the floor naming the most of its key and the best
earlier history row of the same key, and the checklist says pass, below or over. The figures
are made up; nothing here is timed."""

import csv
from pathlib import Path

import pytest

from sim.core import bench
from sim.core.params import ParamError

ROOT = Path(__file__).resolve().parents[2]

FLOORS = """
[metrics]
games_per_s = "at least"
cold_compile_s = "at most"

[[floor]]
game = "*"
bot = "greedy"
players = "*"
jobs = 1
metric = "games_per_s"
floor = 100

[[floor]]
game = "fake_dice"
bot = "greedy"
players = 3
jobs = 1
metric = "games_per_s"
floor = 150

[[floor]]
game = "*"
bot = "*"
players = "*"
jobs = "*"
metric = "cold_compile_s"
floor = 15
"""

EARLIER = [
    # date, commit, game, bot, players, jobs, games_per_s, peak_mib
    ("2026-11-20 10:00", "aaa1111", "fake_dice", "greedy", 3, 1, 150.0, 300),
    ("2026-11-21 10:00", "bbb2222", "fake_dice", "greedy", 3, 1, 200.0, 300),
    ("2026-11-22 10:00", "ccc3333", "fake_dice", "greedy", 3, 2, 900.0, 300),  # other jobs
    ("2026-11-22 10:00", "ccc3333", "fake_dice", "greedy", 2, 1, 5000.0, 300),  # other players
]


def write_history(path: Path) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(bench.HISTORY_FIELDS)
        writer.writerows(EARLIER)
    return path


@pytest.fixture
def floors(fake_game, tmp_path):
    path = tmp_path / "floors.toml"
    path.write_text(FLOORS)
    return path


def row_of(lines: list[str], *key: str) -> list[str]:
    """The cells of the checklist row whose first cells are ``key``."""
    rows = [line.split() for line in lines]
    found = [r for r in rows if tuple(r[: len(key)]) == key]
    assert len(found) == 1, f"no single row {key} in:\n" + "\n".join(lines)
    return found[0]


def test_each_figure_meets_the_floor_naming_most_of_its_key_and_its_best(floors, tmp_path):
    limits = bench.read_floors(floors)
    history = bench.read_history(write_history(tmp_path / "history.csv"))
    figures = [
        bench.Figure("fake_dice", "greedy", "3", "1", "games_per_s", 120.0),  # the 3-player floor
        bench.Figure("fake_dice", "greedy", "2", "1", "games_per_s", 120.0),  # the "*" floor
        bench.Figure("fake_dice", "random", "3", "1", "games_per_s", 50.0),  # no floor, no best
        bench.Figure("fake_dice", "-", "-", "1", "cold_compile_s", 20.0),  # a ceiling, missed
        bench.Figure("fake_dice", "greedy", "3", "2", "games_per_s", 1800.0),  # jobs 2: no floor
    ]
    lines = bench.checklist(figures, limits, history)
    assert lines[0].split() == [
        "game", "bot", "players", "jobs", "metric", "figure", "floor", "check", "best", "ratio"
    ]  # fmt: skip
    three = row_of(lines, "fake_dice", "greedy", "3", "1")
    assert three[5:] == [
        "120", ">=", "150", "below", "200", "(2026-11-21", "bbb2222)", "x0.60"
    ]  # fmt: skip
    two = row_of(lines, "fake_dice", "greedy", "2", "1")
    assert two[5:] == ["120", ">=", "100", "pass", "5000", "(2026-11-22", "ccc3333)", "x0.02"]
    assert row_of(lines, "fake_dice", "random")[5:] == ["50.0", "-", "-", "-", "-"]
    assert row_of(lines, "fake_dice", "-")[4:] == [
        "cold_compile_s", "20.0", "<=", "15", "over", "-", "-"
    ]  # fmt: skip
    jobs2 = row_of(lines, "fake_dice", "greedy", "3", "2")
    assert jobs2[5:] == ["1800", "-", "-", "900", "(2026-11-22", "ccc3333)", "x2.00"]
    assert lines[-1] == "2 of 3 figures with a floor miss it"


def test_a_figure_at_its_floor_passes_and_without_floors_there_is_no_tally(floors):
    (limit,) = [f for f in bench.read_floors(floors) if f.game == "fake_dice"]
    at = bench.Figure("fake_dice", "greedy", "3", "1", "games_per_s", limit.floor)
    assert limit.passes(at.value) and not limit.passes(at.value - 0.1)
    lines = bench.checklist([at], [], [])
    assert row_of(lines, "fake_dice", "greedy")[6] == "-"
    assert not any("miss it" in line for line in lines)


def test_run_bench_ends_with_the_checklist_and_keeps_the_history_format(
    floors, tmp_path, monkeypatch
):
    history = write_history(tmp_path / "history.csv")
    before = history.read_text()
    monkeypatch.setattr(bench, "start_time", lambda game, cache, *level: 3.0)
    monkeypatch.setattr(bench, "games_per_second", lambda setup, seconds: (300, 1.0))
    lines = bench.run_bench(["fake_dice"], jobs=1, history=history, floors=floors)

    line = "fake_dice 3p greedy jobs=1: 300 games/s (x1.50 of best 200, 2026-11-21 bbb2222)"
    assert line in lines  # the measuring lines keep their form
    assert row_of(lines, "fake_dice", "greedy", "3", "1")[5:9] == ["300", ">=", "150", "pass"]
    cold = row_of(lines, "fake_dice", "greedy", "-", "1", "cold_compile_s")
    assert cold[5:9] == ["3.0", "<=", "15", "pass"]
    assert lines[-1] == "0 of 2 figures with a floor miss it"
    text = history.read_text()
    assert text.startswith(before)  # append-only, the same columns
    new = list(csv.DictReader(text[len(before) :].splitlines(), fieldnames=bench.HISTORY_FIELDS))
    assert [(r["bot"], r["games_per_s"]) for r in new] == [("random", "300.0"), ("greedy", "300.0")]


def test_a_bad_floors_file_stops_the_bench_before_it_measures(fake_game, tmp_path, monkeypatch):
    def measured(*args):
        raise AssertionError("measured before the floors were read")

    monkeypatch.setattr(bench, "start_time", measured)
    path = tmp_path / "floors.toml"
    path.write_text(FLOORS.replace('bot = "greedy"\nplayers = 3', 'bot = "gredy"\nplayers = 3'))
    with pytest.raises(ParamError, match=r"floor 2: fake_dice has no bot 'gredy' \(its bots: "):
        bench.run_bench(["fake_dice"], jobs=1, floors=path)


@pytest.mark.parametrize(
    "change, message",
    [
        (
            (
                'jobs = 1\nmetric = "games_per_s"\nfloor = 150',
                'jobs = 1\nmetric = "games_per_s"\nfloor = 150\nfloor_x = 1',
            ),
            "floor 2: needs exactly the keys game, bot, players",
        ),
        (("floor = 150", "floor = 0"), "floor 2: floor = 0: a positive number"),
        (("floor = 150", 'floor = "fast"'), "floor 2: floor = 'fast': a positive number"),
        (("players = 3", "players = 0"), "floor 2: players = 0: a positive integer or '*'"),
        (('game = "fake_dice"', 'game = "chess"'), "floor 2: unknown game 'chess'"),
        (
            ('cold_compile_s = "at most"', 'cold_compile_s = "less"'),
            "metrics.cold_compile_s = 'less': one of 'at least', 'at most'",
        ),
        (('cold_compile_s = "at most"', ""), "floor 3: metric 'cold_compile_s' is not in"),
        (
            ("players = 3", 'players = "*"'),
            "floor 2: a second floor for *, greedy, *, 1, games_per_s",
        ),
        (("[metrics]", "[metric]"), "unknown table 'metric'; allowed: metrics, floor"),
        (("[[floor]]", "[[floor]"), "not a TOML file"),
    ],
)
def test_a_bad_floor_is_one_line(fake_game, tmp_path, change, message):
    old, new = change
    text = FLOORS.replace(old, new, 1)
    if "a second floor" in message:  # the 3-player floor made the same as the "*" one
        text = text.replace('game = "fake_dice"', 'game = "*"')
    assert text != FLOORS
    path = tmp_path / "floors.toml"
    path.write_text(text)
    with pytest.raises(ParamError) as err:
        bench.read_floors(path)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert str(err.value).startswith(str(path))


def test_the_shipped_floors_cover_the_issue_targets():
    """benchmarks/floors.toml loads; search has a floor in every game at 4 players on one
    process, and a cold compile a ceiling in every game (the values are the file's)."""
    from sim.core.registry import GAME_MODULES

    limits = bench.read_floors(ROOT / "benchmarks" / "floors.toml")
    for game in GAME_MODULES:
        search = bench.Figure(game, "search", "4", "1", "games_per_s", 0.0)
        assert bench.floor_for(limits, search).direction == "at least"
        for level in ("greedy", "search"):  # each bot level's chunk loop compiles on its own
            cold = bench.Figure(game, level, "-", "1", "cold_compile_s", 0.0)
            assert bench.floor_for(limits, cold).direction == "at most"
    greedy = {f.game for f in limits if f.bot == "greedy" and f.jobs == "1"}
    assert greedy == {"celtic_trader", "celtica", "catan"}


def test_the_start_figures_go_beside_the_history_and_compare_with_the_lowest(
    floors, tmp_path, monkeypatch
):
    """Issue 42, item 5: every figure is kept. The cold compiles and cached starts go to
    ``compile_history.csv`` beside the history (whose columns stay), and the checklist gives
    each one the lowest earlier figure of its game, bot level and metric."""
    history = write_history(tmp_path / "history.csv")
    starts = tmp_path / "compile_history.csv"
    assert bench.start_history_path(history) == starts
    starts.write_text(
        "date,commit,game,bot,metric,seconds\n"
        "2026-11-20 10:00,aaa1111,fake_dice,greedy,cold_compile_s,6.0\n"
        "2026-11-21 10:00,bbb2222,fake_dice,greedy,cold_compile_s,4.0\n"
        "2026-11-22 10:00,ccc3333,fake_dice,greedy,cold_compile_s,5.0\n"
        "2026-11-22 10:00,ccc3333,fake_dice,greedy,cached_start_s,0.5\n"
        "2026-11-22 10:00,ccc3333,other_game,greedy,cold_compile_s,1.0\n"
    )
    monkeypatch.setattr(bench, "start_time", lambda game, cache, *level: 3.0)
    monkeypatch.setattr(bench, "games_per_second", lambda setup, seconds: (300, 1.0))
    lines = bench.run_bench(["fake_dice"], jobs=1, history=history, floors=floors)

    cold = row_of(lines, "fake_dice", "greedy", "-", "1", "cold_compile_s")
    assert cold[5:] == ["3.0", "<=", "15", "pass", "4.0", "(2026-11-21", "bbb2222)", "x0.75"]
    cached = row_of(lines, "fake_dice", "greedy", "-", "1", "cached_start_s")
    assert cached[5:] == ["3.0", "-", "-", "0.5", "(2026-11-22", "ccc3333)", "x6.00"]
    rows = bench.read_history(starts, bench.START_FIELDS)
    assert [(r["game"], r["bot"], r["metric"], r["seconds"]) for r in rows[5:]] == [
        ("fake_dice", "greedy", "cold_compile_s", "3.0"),
        ("fake_dice", "greedy", "cached_start_s", "3.0"),
    ]
    assert all(r["commit"] and r["date"] for r in rows[5:])
    assert history.read_text().splitlines()[0] == ",".join(bench.HISTORY_FIELDS)
