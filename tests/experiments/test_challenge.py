"""`menhir challenge` (issue 38) on the numpy fake game, whose answers are known.

Each seat rolls its dice; a greedy bot adds round(edge x U(0, 1)) points (edge in [0, 3]); the
red colour scores ``bonus`` more. So a seat whose bot has edge 0 is weak because of its bot
(a tuned edge mends it), while a ``bonus`` of 5 for red is a weakness of the rules for its
opponent (an edge of at most 3, 1.5 on average, cannot make it up).
"""

import io
import json

import polars as pl
import pytest
from click.testing import CliRunner

import experiments
from experiments.challenge_search import load_challenge, parse_target
from experiments.cli import cli
from experiments.config import ConfigError, UserError

SEARCH = {"min_games": 400, "max_games": 1600, "max_trials": 8, "confirm_games": 2000}


def _config(**top):
    base = {"name": "ch", "game": "fake_runner", "games": 2000, "seed": 5, "players": 2}
    return base | {"challenge": dict(SEARCH)} | top


def _result(out, target):
    return json.loads((out / "challenge.json").read_text())["targets"][target]


@pytest.fixture(scope="module")
def bots_fault(tmp_path_factory):
    """Random colours, 3 greedy seats with edge 0, red +2: green is below its fair share; a
    tuned edge on the seat that holds green (whichever it is) lifts it past fair."""
    cfg = _config(players=3, bots="greedy:edge=0", roles="random", params={"bonus": 2})
    out = tmp_path_factory.mktemp("ch") / "bots"
    return experiments.challenge(cfg, out, target="green", jobs=1, progress=False)


def test_a_weakness_of_the_bot_is_found_to_be_the_bots(bots_fault):
    res = _result(bots_fault, "green")
    assert res["direction"] == "weak"
    assert res["default"]["rate"] < 1 / 3
    assert res["holds"] is False and "the finding is the bot's" in res["verdict"]
    # the tuned player sits where green is dealt: green's rate rises clearly above fair
    assert res["tuned"]["low"] > 1 / 3 > res["default"]["low"]
    assert res["moved"]["greedy.edge"]["tuned"] > 1.5  # toward the strongest edge
    assert "greedy.edge 0 ->" in res["verdict"]
    tuned = res["verdict"].split("greedy.edge 0 -> ")[1].split(";")[0].split(",")[0]
    assert tuned == f"{res['moved']['greedy.edge']['tuned']:.3g}"  # not 6 digits: 1.93, 1.92837
    assert res["confirm_unplaced_games"] == 0


def test_outputs_trials_and_confirmation(bots_fault):
    trials = pl.read_parquet(bots_fault / "trials.parquet")
    assert trials["trial"].to_list() == list(range(trials.height))
    assert trials["values"][0] == "default"
    assert trials["games_spent"].to_list() == trials["games_total"].cum_sum().to_list()
    manifest = json.loads((bots_fault / "confirm" / "manifest.json").read_text())
    assert manifest["seed"] != 5 and manifest["games_per_variant"] == SEARCH["confirm_games"]
    # one variant with the config's bots, one per seat that may hold green
    assert len(manifest["variants"]) == 4
    record = json.loads((bots_fault / "challenge.json").read_text())
    assert record["games_search"] == trials["games_total"].sum()


@pytest.fixture(scope="module")
def rules_fault(tmp_path_factory):
    """Fixed colours red (bonus 5) and green: green loses by the rules, red wins by them."""
    cfg = _config(bots="greedy", roles=["red", "green"], params={"bonus": 5})
    out = tmp_path_factory.mktemp("ch") / "rules"
    return experiments.challenge(cfg, out, all_targets=True, jobs=1, progress=False)


def test_a_weakness_of_the_rules_holds(rules_fault):
    weak, strong = _result(rules_fault, "green"), _result(rules_fault, "red")
    assert weak["direction"] == "weak" and weak["holds"] is True
    assert weak["verdict"].startswith("holds against a tuned player")
    assert weak["tuned"]["high"] < 0.5 - 0.02
    assert weak["tuned"]["rate"] >= weak["default"]["rate"]  # a better player, still losing
    clear = weak["tuned"]["low"] > weak["default"]["high"]
    assert ("the bot explains" in weak["verdict"]) == clear
    # the converse: red is strong; tuned opponents do not bring it down to fair
    assert strong["direction"] == "strong" and strong["holds"] is True
    assert strong["verdict"].startswith("holds against tuned opponents")
    assert strong["tuned"]["low"] > 0.5 + 0.02
    assert strong["tuned"]["rate"] <= strong["default"]["rate"]
    assert (rules_fault / "confirm" / "red" / "manifest.json").is_file()


def _trials(out):
    return pl.read_parquet(out / "trials.parquet")


def test_jobs_and_resume_give_identical_trials(tmp_path, bots_fault):
    cfg = _config(players=3, bots="greedy:edge=0", roles="random", params={"bonus": 2})
    two = experiments.challenge(cfg, tmp_path / "two", target="green", jobs=2, progress=False)
    assert _trials(two).equals(_trials(bots_fault))
    # a killed challenge: only its first two trials were written; --resume completes it
    cut = tmp_path / "cut"
    experiments.challenge(cfg, cut, target="green", jobs=1, progress=False)
    _trials(cut).head(2).write_parquet(cut / "trials.parquet")
    (cut / "challenge.json").unlink()
    experiments.challenge(cfg, cut, target="green", jobs=1, progress=False, resume=True)
    assert _trials(cut).equals(_trials(bots_fault))
    assert _result(cut, "green")["verdict"] == _result(bots_fault, "green")["verdict"]


def test_bad_targets_and_configs_are_one_line_errors(tmp_path):
    cc = load_challenge(_config(roles=["red", "green"]))
    with pytest.raises(UserError, match="--target purple: not a colour"):
        parse_target(cc, "purple")
    with pytest.raises(UserError, match="no seat holds the colour blue"):
        parse_target(cc, "blue")
    assert parse_target(cc, "seat.1").value == 1
    with pytest.raises(ConfigError, match="key 'players': a challenge plays one variant"):
        load_challenge(_config(players=[2, 3]))
    with pytest.raises(ConfigError, match="key 'roles': 'draft'"):
        load_challenge(_config(roles="draft"))
    with pytest.raises(ConfigError, match="challenge.ranges.greedy.edge"):
        load_challenge(_config(challenge={"ranges": {"greedy.edge": [0, 9]}}))
    with pytest.raises(ConfigError, match="is not a knob"):
        load_challenge(_config(challenge={"tune": ["greedy.nothing"]}))


def test_cli(tmp_path, write_config):
    path = write_config(text=_toml(_config(bots="greedy", roles=["red", "green"],
                                           params={"bonus": 5})))  # fmt: skip
    runner = CliRunner()
    res = runner.invoke(cli, ["challenge", str(path), "--target", "purple"])
    assert res.exit_code == 2 and "--target purple: not a colour" in res.output
    assert len(res.output.strip().splitlines()) == 1
    res = runner.invoke(cli, ["challenge", str(path)])
    assert res.exit_code == 2 and "--target ROLE or --all" in res.output
    bad = write_config("bad.toml", text='game = "fake_runner"\nplayers = 9\n')
    res = runner.invoke(cli, ["challenge", str(bad), "--all"])
    assert res.exit_code == 2 and "key 'players'" in res.output
    assert len(res.output.strip().splitlines()) == 1
    out = tmp_path / "out"
    args = ["challenge", str(path), "--target", "green", "--out", str(out), "--jobs", "1"]
    res = runner.invoke(cli, [*args, "--no-progress"])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("green: holds against a tuned player")
    res = runner.invoke(cli, [*args, "--no-progress"])
    assert res.exit_code == 2 and "exists" in res.output


def _toml(cfg: dict) -> str:
    lines, tables = [], []
    for key, value in cfg.items():
        if isinstance(value, dict):
            tables.append((key, value))
        else:
            lines.append(f"{key} = {json.dumps(value)}")
    for key, table in tables:
        lines.append(f"[{key}]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def test_a_challenge_folder_in_use_is_refused(tmp_path, bots_fault):
    import os
    import shutil

    from experiments.store import take_lock

    folder = tmp_path / "busy"
    shutil.copytree(bots_fault, folder)
    fd = take_lock(folder)
    try:
        cfg = _config(players=3, bots="greedy:edge=0", roles="random", params={"bonus": 2})
        with pytest.raises(
            UserError, match=f"in use by another menhir challenge \\(pid {os.getpid()}"
        ):
            experiments.challenge(cfg, folder, target="green", jobs=1, progress=False, resume=True)
    finally:
        os.close(fd)


def test_knob_ranges_and_their_edges():
    from experiments.challenge_search import knobs_for

    cc = load_challenge(_config(bots="greedy", roles=["red", "green"]))
    (knob,) = knobs_for(cc, parse_target(cc, "green"), weak=True)
    assert (knob.name, knob.low, knob.high) == ("greedy.edge", 0.0, 3.0)  # as declared
    assert not knob.at_narrowed_edge(3.0)  # the declared bound is no artefact of the search
    narrowed = _config(bots="greedy", roles=["red", "green"])
    narrowed["challenge"] |= {"ranges": {"greedy.edge": [0.5, 1.5]}}
    cc = load_challenge(narrowed)
    (knob,) = knobs_for(cc, parse_target(cc, "green"), weak=True)
    assert (knob.low, knob.high) == (0.5, 1.5)
    assert knob.at_narrowed_edge(1.49) and knob.at_narrowed_edge(0.5)
    assert not knob.at_narrowed_edge(1.0)
    # the random bot has no knob: a seat it plays has nothing to tune
    cc = load_challenge(_config(bots="random", roles=["red", "green"]))
    assert knobs_for(cc, parse_target(cc, "green"), weak=True) == []


KILLED = """
import sys
from sim.core import registry
registry.GAME_MODULES["fake_runner"] = "tests.experiments.fake_game"
import experiments
experiments.challenge({cfg!r}, sys.argv[1], target="green", jobs=1, progress=False)
"""


def _rows_now(path) -> int:
    """Rows of a parquet file that another process replaces as it runs (os.replace of a
    written temporary): read in one open, whole. Given the path, polars once read a footer and
    pages of two versions (a fresh clone's CI: "the page header reported the wrong page size");
    the writer itself is atomic (challenge_search._flush)."""
    return pl.read_parquet(io.BytesIO(path.read_bytes())).height


def test_a_killed_challenge_resumes_to_the_same_trials(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.experiments.conftest import REPO

    # the rules' case: no candidate reaches fair, so the search plays all its 8 trials
    cfg = _config(bots="greedy", roles=["red", "green"])
    cfg["params"] = {"bonus": 5}
    cfg["challenge"]["confirm_games"] = 100
    whole = experiments.challenge(cfg, tmp_path / "whole", target="green", jobs=1, progress=False)
    cfg["params"]["delay_ms"] = 0.5  # the same games, slow enough to be killed mid-search
    out = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED.format(cfg=cfg), str(out)], env=env, cwd=REPO
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            path = out / "trials.parquet"
            if path.is_file() and _rows_now(path) >= 2:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the challenge ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert not (out / "challenge.json").exists()
    assert 2 <= _trials(out).height < _trials(whole).height == SEARCH["max_trials"]
    experiments.challenge(cfg, out, target="green", jobs=1, progress=False, resume=True)
    assert _trials(out).equals(_trials(whole))
    assert _result(out, "green")["verdict"] == _result(whole, "green")["verdict"]


def test_the_report_adds_would_a_better_player_change_it(bots_fault, tmp_path):
    """`menhir report RUN --challenge DIR`: the verdicts beside the findings (issue 38, item 4);
    a challenge of another game is refused in one line."""
    cfg = _config(players=3, bots="greedy:edge=0", roles="random", params={"bonus": 2})
    cfg.pop("challenge")
    run = experiments.run(cfg | {"games": 300}, tmp_path / "run", jobs=1, progress=False)
    args = ["report", str(run), "--challenge", str(bots_fault), "--out", str(tmp_path / "rep")]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    summary = (tmp_path / "rep" / "summary.md").read_text()
    assert "## Would a better player change it?" in summary
    assert "- **green**: " in summary and "the finding is the bot's" in summary
    assert "Would a better player change it?" in (tmp_path / "rep" / "report.html").read_text()
    table = pl.read_csv(tmp_path / "rep" / "challenges.csv")
    assert table["target"].to_list() == ["green"] and table["holds"].to_list() == [False]
    other = tmp_path / "other"
    other.mkdir()
    (other / "challenge.json").write_text(json.dumps({"game": "celtica", "targets": {}}))
    args = ["report", str(run), "--challenge", str(other), "--out", str(tmp_path / "rep2")]
    bad = CliRunner().invoke(cli, args)
    assert bad.exit_code == 2 and "a challenge of celtica" in bad.output
    assert len(bad.output.strip().splitlines()) == 1 and not (tmp_path / "rep2").exists()
