"""`menhir screen` (issue 40) on the numpy fake game, whose structure is known.

Two seats with fixed colours, red and green, random bots. Red scores round(twist x (dice - 3))
extra: ``twist`` in [-2, 2] and ``dice`` in [1, 5] matter only together (twist's sign decides
whom it helps, dice's side of 3 flips it): two levers that matter through one interaction.
``blue_penalty`` touches blue, whom nobody plays, and ``decoy`` is never read: inert.
"""

import fcntl
import json
import os
import re
import shutil

import polars as pl
import pytest
from click.testing import CliRunner

import experiments
from experiments.cli import cli
from experiments.config import ConfigError, UserError
from experiments.screening import inert_levers, load_screen, pattern_regex
from reports.screen_report import markdown_to_html

BASE = {
    "name": "toy",
    "game": "fake_runner",
    "seed": 0,
    "players": 2,
    "bots": "random",
    "roles": ["red", "green"],
}
LEVERS = ["twist", "dice", "blue_penalty", "decoy"]
RANGES = {"dice": [1, 5], "twist": [-2.0, 2.0]}


def _config(**screen):
    table = {"levers": LEVERS, "ranges": RANGES, "outputs": ["wins", "spread"]} | screen
    return BASE | {"screen": table}


@pytest.fixture(scope="module")
def known(tmp_path_factory):
    cfg = _config(games=60, trajectories=8, sobol_top=2, sobol_n=64)
    return experiments.screen(cfg, tmp_path_factory.mktemp("scr") / "toy", jobs=1, progress=False)


def test_morris_ranks_the_two_levers_first_and_calls_the_rest_inert(known):
    morris = pl.read_csv(known / "morris.csv")
    red = morris.filter(pl.col("output") == "win:red").sort("rank")
    assert set(red["lever"][:2]) == {"twist", "dice"}
    assert not red.filter(pl.col("lever").is_in(["twist", "dice"]))["inert"].any()
    assert inert_levers(morris) == ["blue_penalty", "decoy"]
    # the rule: inert when mu* minus its interval is at most the noise floor
    called = morris["mu_star"] - morris["mu_star_conf"] <= morris["noise_floor"]
    assert called.to_list() == morris["inert"].to_list()
    assert (morris["noise_floor"] > 0).all()


def test_sobol_finds_the_interaction(known):
    sobol = pl.read_csv(known / "sobol.csv")
    red = sobol.filter(pl.col("output") == "win:red")
    singles = red.filter(pl.col("other").is_null())
    assert set(singles["lever"]) == {"twist", "dice"}  # the top two went to stage 2
    assert singles["interacts"].all()
    assert (singles["ST"] - singles["S1"] >= 0.1).all()
    pair = red.filter(pl.col("other").is_not_null())
    assert pair.height == 1 and pair["interacts"][0] and pair["S2"][0] >= 0.05


def test_outputs_every_point_and_the_report(known):
    points = pl.read_parquet(known / "screen.parquet")
    state = json.loads((known / "screen.json").read_text())["summary"]
    assert points.filter(pl.col("stage") == "morris").height == 8 * (len(LEVERS) + 1)
    assert points.filter(pl.col("stage") == "sobol").height == 64 * (2 * 2 + 2)
    assert {f"lever:{n}" for n in LEVERS} | {"win:red", "win:green", "spread"} <= set(
        points.columns
    )
    assert (points["games"] == 60).all() and state["games"] == points.height * 60
    assert points["lever:dice"].is_in([1.0, 2.0, 3.0, 4.0, 5.0]).all()  # integers stay integers
    sobol = points.filter(pl.col("stage") == "sobol")
    assert (sobol["lever:decoy"] == 0).all()  # levers left out of stage 2 stay printed
    md = (known / "report" / "screen.md").read_text()
    assert "Bot level that played: **random**" in md
    assert "2 of 4 numbers explain at least" in md and "`blue_penalty`, `decoy`" in md
    html = (known / "report" / "screen.html").read_text()
    assert "data:image/png;base64," in html and "<table>" in html


def test_html_escapes_user_text():
    out = markdown_to_html(["# a <script>x</script>", "| `<b>` | 1 |", "- <i>"])
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert "<code>&lt;b&gt;</code>" in out and "<li>&lt;i&gt;</li>" in out


def test_jobs_one_two_and_a_resumed_screen_are_identical(tmp_path):
    cfg = _config(games=30, trajectories=4, sobol_top=2, sobol_n=8)
    one = experiments.screen(cfg, tmp_path / "one", jobs=1, progress=False)
    two = experiments.screen(cfg, tmp_path / "two", jobs=2, progress=False)
    killed = tmp_path / "killed"
    shutil.copytree(one, killed)
    # what a kill leaves: some points saved, no tables, no report
    pl.read_parquet(one / "screen.parquet").head(13).write_parquet(killed / "screen.parquet")
    for name in ("morris.csv", "sobol.csv"):
        (killed / name).unlink()
    shutil.rmtree(killed / "report")
    experiments.screen(cfg, killed, jobs=1, progress=False, resume=True)
    for name in ("morris.csv", "sobol.csv"):
        text = (one / name).read_text()
        assert text == (two / name).read_text() == (killed / name).read_text(), name
    points = pl.read_parquet(one / "screen.parquet")
    assert points.equals(pl.read_parquet(two / "screen.parquet"))
    assert points.equals(pl.read_parquet(killed / "screen.parquet"))


def test_a_refused_end_is_clipped_and_said():
    # "loaded" dice allow at most 8 dice: the game refuses 9 and 10 when it plays
    cfg = BASE | {"params": {"style": "loaded"}, "screen": {"levers": ["dice"], "ranges": {}}}
    cfg["screen"]["ranges"] = {"dice": [1, 10]}
    sc = load_screen(cfg)
    (dice,) = sc.levers
    assert (dice.low, dice.high) == (1, 8)
    assert len(sc.notes) == 1 and sc.notes[0].startswith("dice: range clipped to [1, 8]")


def test_default_levers_and_bands_of_a_data_file():
    from sim.core.registry import get_game

    sc = load_screen(
        {"name": "t", "game": "celtic_trader", "players": 4, "screen": {}}, check=False
    )
    names = {lv.name for lv in sc.levers}
    assert not any("safety_cap" in n for n in names)
    paths = {p.path: p.value for p in get_game("celtic_trader").data.paths()}
    ints = [p for p, v in paths.items() if isinstance(v, int) and "safety_cap" not in p]
    assert set(ints) <= names
    by = {lv.name: lv for lv in sc.levers}
    one = next(p for p in ints if paths[p] == 1)
    zero = next(p for p in ints if paths[p] == 0)
    assert (by[one].low, by[one].high, by[one].kind) == (0, 2, "int")
    assert (by[zero].low, by[zero].high) == (0, 1)
    lists = [p for p, v in paths.items() if isinstance(v, list) and v and any(v)]
    numeric = [p for p in lists if all(isinstance(x, int) for x in paths[p])]
    lever = by[numeric[0]]
    assert (lever.kind, lever.low, lever.high) == ("scale", 0.5, 1.5)
    scaled = lever.value(1.5)
    assert len(scaled) == len(paths[numeric[0]]) and all(isinstance(x, int) for x in scaled)
    zeros = [p for p, v in paths.items() if isinstance(v, list) and v and not any(v)]
    zeros = [p for p in zeros if all(isinstance(x, int) for x in paths[p])]
    assert zeros and not set(zeros) & names
    assert any("lists of zeros left out" in n and zeros[0] in n for n in sc.notes)


def test_patterns_take_a_segment_or_a_subtree():
    rx = pattern_regex("roles.*.trading")
    assert rx.fullmatch("roles.haggler.trading") and not rx.fullmatch("roles.haggler.movement")
    assert pattern_regex("roles").fullmatch("roles.haggler.trading")
    assert not pattern_regex("roles.*.trading").fullmatch("roles.a.b.movement")


@pytest.mark.parametrize(
    ("screen", "key"),
    [
        ({"levers": ["nothing"]}, "screen.levers ('nothing')"),
        ({"levers": ["style"]}, "screen.levers ('style')"),
        ({"levers": ["dice"], "ranges": {"dice": [3, 1]}}, "screen.ranges.dice"),
        ({"levers": ["dice"], "ranges": {"dice": [1.5, 3]}}, "screen.ranges.dice"),
        ({"levers": ["dice"], "ranges": {"bonus": [0, 1]}}, "screen.ranges.bonus"),
        ({"levers": ["dice"], "sobol_n": 12}, "screen.sobol_n"),
        ({"levers": ["dice"], "games": 0}, "screen.games"),
        ({"levers": ["dice"], "outputs": ["shared_defeat"]}, "screen.outputs"),
        ({"levers": ["dice"], "budget": 3}, "screen.budget"),
        ({}, "screen.levers"),  # the fake game has no data file: name the levers
    ],
)
def test_bad_screen_tables_name_the_key(screen, key):
    with pytest.raises(ConfigError, match=re.escape(f"key '{key}'")) as err:
        load_screen(BASE | {"screen": screen})
    assert "\n" not in str(err.value)


def test_a_sweep_is_refused():
    with pytest.raises(ConfigError, match="key 'players'.*one setup"):
        load_screen(BASE | {"players": [2, 3], "roles": "random", "screen": {"levers": ["dice"]}})


def _write(tmp_path, text, name="s.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_cli_screens_and_refuses_in_one_line(tmp_path):
    config = _write(
        tmp_path,
        'name = "c"\ngame = "fake_runner"\nplayers = 2\nroles = ["red", "green"]\n'
        '[screen]\nlevers = ["dice", "decoy"]\ngames = 20\ntrajectories = 2\nsobol_top = 0\n',
    )
    out = tmp_path / "out"
    runner = CliRunner()
    result = runner.invoke(cli, ["screen", str(config), "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "report:" in result.output and "Morris" in result.output
    again = runner.invoke(cli, ["screen", str(config), "--out", str(out)])
    assert again.exit_code == 2 and "exists" in again.output
    assert len(again.output.strip().splitlines()) == 1
    bad = _write(
        tmp_path, 'game = "fake_runner"\n[screen]\nlevers = ["dice"]\nrounds = 3\n', "bad.toml"
    )
    result = runner.invoke(cli, ["screen", str(bad), "--out", str(tmp_path / "b")])
    assert result.exit_code == 2 and "key 'screen.rounds'" in result.output
    assert len(result.output.strip().splitlines()) == 1
    missing = runner.invoke(cli, ["screen", str(config), "--out", str(tmp_path / "x"), "--resume"])
    assert missing.exit_code == 2 and "no screen to resume" in missing.output
    # a second process on the same folder stops with one line
    fd = os.open(out / ".lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        busy = runner.invoke(cli, ["screen", str(config), "--out", str(out), "--resume"])
    finally:
        os.close(fd)
    assert busy.exit_code == 2 and "in use by another menhir screen" in busy.output


def test_a_resume_of_another_config_is_refused(known):
    with pytest.raises(UserError, match="differs from the config"):
        experiments.screen(_config(games=61), known, jobs=1, progress=False, resume=True)


def test_the_screens_sentences_count_in_the_singular_and_the_plural():
    from types import SimpleNamespace

    import polars as pl

    from reports.screen_report import sentences
    from reports.wording import counted

    morris = pl.DataFrame(
        {
            "output": ["spread", "spread", "rounds", "rounds"],
            "lever": ["a", "b", "a", "b"],
            "inert": [False, True, True, True],
            "rank": [1, 2, 1, 2],
        }
    )
    cols = {"output": pl.String, "lever": pl.String, "other": pl.String, "ST": pl.Float64}
    sobol = pl.DataFrame(schema=cols)
    sc = SimpleNamespace(levers=["a", "b"], outputs=["spread", "rounds"])
    assert sentences(sc, morris, sobol) == [
        "- 1 of 2 numbers moves spread beyond noise: `a`; 1 changes nothing measurable.",
        "- none of 2 numbers moves rounds beyond noise.",
    ]
    one = SimpleNamespace(levers=["a"], outputs=["rounds"])
    assert sentences(one, morris.filter(pl.col("lever") == "a"), sobol) == [
        "- the one number does not move rounds beyond noise."
    ]
    assert [counted(n, "note") for n in (0, 1, 2, 1000)] == [
        "0 notes",
        "1 note",
        "2 notes",
        "1,000 notes",
    ]
