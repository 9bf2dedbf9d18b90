"""Runs that grow (issue 24) and a runner that a kill, a signal or a second run cannot break
(issue 19, defects 6, 7, 8, 9, 12, 15): the fake game, real processes where signals matter."""

import json
import os
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import psutil
import pytest
from click.testing import CliRunner

import experiments
from experiments.cli import cli
from experiments.config import UserError
from tests.experiments import fake_game
from tests.experiments.conftest import FAKE, FAKE_MODULE, REPO, config_text
from tests.experiments.helpers import assert_same_tables, manifest, tables

GROW = dict(players=[2, 3], params={"dice": [2, 4]}, chunk_games=40)


def _config(tmp_path, name="grow.toml", **overrides):
    path = tmp_path / name
    path.write_text(config_text(**{**GROW, "games": 300, **overrides}))
    return path


# ---------------------------------------------------------------------------------------------
# Runs that grow


@pytest.mark.parametrize("jobs", [1, 2])
def test_growing_300_to_600_gives_the_rows_of_a_fresh_600_run(jobs, tmp_path):
    config = _config(tmp_path)
    fresh = experiments.run(config, tmp_path / "fresh", games=600, jobs=jobs, progress=False)
    run = experiments.run(config, tmp_path / "run", jobs=jobs, progress=False)
    assert tables(run)[0].height == 4 * 300
    experiments.run(config, run, games=600, jobs=jobs, resume=True, progress=False)
    assert_same_tables(fresh, run)
    m = manifest(run)
    assert m["status"] == "complete" and m["games_per_variant"] == 600
    assert [(g["from"], g["to"]) for g in m["growth"]] == [(300, 600)]
    assert m["growth"][0]["games_done"] == [300] * 4
    assert all(v["games_done"] == 600 and v["stop_reason"] == "games" for v in m["variants"])
    # 300 is not a multiple of 40: the short chunk 280-299 stays, the next one fills to 320
    assert [280, 20] in m["variants"][0]["chunks"] and [300, 20] in m["variants"][0]["chunks"]
    # a later resume without --games keeps the grown count; a smaller one is refused
    experiments.run(None, run, resume=True, progress=False)
    with pytest.raises(UserError, match="a run can grow, not shrink"):
        experiments.run(config, run, games=500, resume=True, progress=False)
    assert_same_tables(fresh, run)


def test_growing_through_the_command_line_says_so(tmp_path):
    config = _config(tmp_path, games=100)
    out = tmp_path / "run"
    assert CliRunner().invoke(cli, ["run", str(config), "--out", str(out)]).exit_code == 0
    args = ["run", str(config), "--out", str(out), "--resume", "--games", "150", "--no-progress"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert f"{out}: complete; grown from 100 to 150 games per variant; 200 games played" in (
        result.output
    )


def test_growing_an_interrupted_run_plays_the_missing_and_the_new_games(tmp_path):
    config = _config(tmp_path)
    fresh = experiments.run(config, tmp_path / "fresh", games=500, jobs=1, progress=False)
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    path = run / "manifest.json"
    m = json.loads(path.read_text())
    m["status"] = "running"  # killed before the last two chunks of v1 were listed
    m["variants"][1]["chunks"] = m["variants"][1]["chunks"][:-2]
    m["variants"][1]["games_done"] = 240
    m["variants"][1]["stop_reason"] = None
    path.write_text(json.dumps(m))
    experiments.run(config, run, games=500, jobs=2, resume=True, progress=False)
    assert_same_tables(fresh, run)


def test_growing_a_target_ci_run_stops_where_a_fresh_run_stops(tmp_path):
    config = _config(
        tmp_path, players=2, params={"bonus": [0.0, 3.0]}, chunk_games=100, target_ci=0.05
    )
    fresh = experiments.run(config, tmp_path / "fresh", games=4000, jobs=1, progress=False)
    stops = [(v["games_done"], v["stop_reason"]) for v in manifest(fresh)["variants"]]
    assert all(reason == "target_ci" and done > 300 for done, reason in stops), stops
    run = experiments.run(config, tmp_path / "run", games=250, jobs=1, progress=False)
    assert all(v["stop_reason"] == "games" for v in manifest(run)["variants"])
    experiments.run(config, run, games=4000, jobs=2, resume=True, progress=False)
    assert [(v["games_done"], v["stop_reason"]) for v in manifest(run)["variants"]] == stops
    assert_same_tables(fresh, run)


def test_growing_with_the_dask_backend(tmp_path):
    config = _config(tmp_path, players=2, params={"dice": [2, 3]})
    fresh = experiments.run(config, tmp_path / "fresh", games=400, jobs=1, progress=False)
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    experiments.run(config, run, games=400, backend="dask", jobs=2, resume=True, progress=False)
    assert_same_tables(fresh, run)
    assert manifest(run)["sessions"][-1]["backend"] == "dask"


_CHILD = """
import os
import sys
from sim.core import registry
registry.GAME_MODULES[{game!r}] = {module!r}
import experiments
config, out, games, resume = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
experiments.run(config, out, jobs=2, games=games, resume=resume, progress=False)
"""


def _launch(config, out, games, resume=True, session=True, stderr=subprocess.DEVNULL):
    script = _CHILD.format(game=FAKE, module=FAKE_MODULE)
    return subprocess.Popen(
        [sys.executable, "-c", script, str(config), str(out), str(games), "1" if resume else "0"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=session,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
    )


def _games_done(out) -> int:
    try:
        return sum(v["games_done"] for v in manifest(out)["variants"])
    except (FileNotFoundError, json.JSONDecodeError):
        return 0


def _wait(predicate, timeout=60.0, what="condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def _kill_group(proc) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    _wait(lambda: not _group_alive(proc.pid), 10, "the killed group to end")


def _group_alive(pgid) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_run_killed_while_growing_resumes_to_the_rows_of_a_fresh_run(tmp_path):
    slow = dict(params={"dice": [2, 4], "delay_ms": 4}, chunk_games=20)
    config = _config(tmp_path, **slow)
    plain = _config(tmp_path, "plain.toml", params={"dice": [2, 4]}, chunk_games=20)
    fresh = experiments.run(plain, tmp_path / "fresh", games=600, jobs=1, progress=False)
    run = tmp_path / "run"
    experiments.run(config, run, jobs=2, progress=False)
    proc = _launch(config, run, 600)
    _wait(lambda: _games_done(run) > 4 * 300 + 40, what="the growth to start")
    _kill_group(proc)
    m = manifest(run)
    assert m["games_per_variant"] == 600 and m["status"] == "running"
    assert 4 * 300 < _games_done(run) < 4 * 600
    proc = _launch(config, run, 600)  # killed a second time, anywhere
    time.sleep(0.5)
    if proc.poll() is None:
        _kill_group(proc)
    experiments.run(config, run, jobs=2, resume=True, progress=False)  # the recorded 600
    games, players = tables(run)
    games_ref, players_ref = tables(fresh)
    assert games.equals(games_ref) and players.equals(players_ref)
    assert [(g["from"], g["to"]) for g in manifest(run)["growth"]] == [(300, 600)]


# ---------------------------------------------------------------------------------------------
# Locks, signals, workers


def test_a_second_run_on_a_folder_in_use_gets_one_line_naming_the_holder(tmp_path):
    config = _config(tmp_path, params={"dice": [2, 4], "delay_ms": 5}, chunk_games=20)
    run = tmp_path / "run"
    proc = _launch(config, run, 300, resume=False)
    try:
        _wait(lambda: _games_done(run) > 0, what="the first run to write a chunk")
        before = {p: p.stat().st_mtime_ns for p in run.rglob("*.parquet")}
        result = CliRunner().invoke(cli, ["run", str(config), "--out", str(run), "--resume"])
        assert result.exit_code == 2, result.output
        assert result.output.strip() == (
            f"menhir: error: {run}: in use by another menhir run (pid {proc.pid}); "
            "wait for it to end, or stop it, then --resume"
        )
        result = CliRunner().invoke(cli, ["run", str(config), "--out", str(run)])
        assert result.exit_code == 2 and "already exists; use --resume" in result.output
        assert all(p.exists() for p in before)
    finally:
        _kill_group(proc)
    experiments.run(config, run, jobs=1, resume=True, progress=False)  # the lock died with it
    assert manifest(run)["status"] == "complete"


def _workers(pid) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _cli_run(config, out, *extra, stderr=subprocess.PIPE):
    script = (
        "import sys\n"
        "from sim.core import registry\n"
        f"registry.GAME_MODULES[{FAKE!r}] = {FAKE_MODULE!r}\n"
        "from experiments.cli import main\n"
        "sys.argv[0] = 'menhir'\n"
        "main()\n"
    )
    return subprocess.Popen(
        [sys.executable, "-c", script, "run", str(config), "--out", str(out), *extra],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        text=True,
    )


def _busy_run(tmp_path):
    config = _config(tmp_path, params={"dice": [2, 4], "delay_ms": 20}, chunk_games=20)
    return config, tmp_path / "run"


def _wait_for_workers(proc, out, count=2):
    _wait(lambda: _games_done(out) > 0 and len(_workers(proc.pid)) >= count, 90, "workers")
    return _workers(proc.pid)


@pytest.mark.parametrize("backend", ["local", "dask"])
def test_sigkill_of_the_runner_ends_its_workers(backend, tmp_path):
    config, out = _busy_run(tmp_path)
    proc = _cli_run(config, out, "--jobs", "2", "--backend", backend, stderr=subprocess.DEVNULL)
    try:
        workers = _wait_for_workers(proc, out)
        os.kill(proc.pid, signal.SIGKILL)  # the runner alone, as the OOM killer would
        proc.wait(timeout=30)
        _, alive = psutil.wait_procs(workers, timeout=15)
        assert not alive, f"workers outlived their parent: {alive}"
    finally:
        if _group_alive(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_the_run_and_its_workers_with_one_line(signum, tmp_path, monkeypatch):
    config, out = _busy_run(tmp_path)
    proc = _cli_run(config, out, "--jobs", "2")
    try:
        workers = _wait_for_workers(proc, out)
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signum)  # Ctrl-C: the terminal signals the whole group
        else:
            os.kill(proc.pid, signum)  # kill PID: the runner alone
        _, err = proc.communicate(timeout=60)
        _, alive = psutil.wait_procs(workers, timeout=15)
    finally:
        if _group_alive(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
    assert not alive
    assert proc.returncode == (143 if signum == signal.SIGTERM else 130)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    how = "terminated" if signum == signal.SIGTERM else "interrupted"
    done = _games_done(out)
    assert lines[0].startswith(f"menhir: {how}; {done} of 1200 games are kept in {out}; ")
    assert lines[0].endswith(f"menhir run {config} --out {out} --resume")
    # the kept run resumes (here, its games without their 20 ms sleep: the same rows)
    monkeypatch.setattr(fake_game, "time", SimpleNamespace(sleep=lambda seconds: None))
    experiments.run(config, out, jobs=1, resume=True, progress=False)
    assert manifest(out)["status"] == "complete"


def test_an_interrupt_before_the_run_claims_nothing(tmp_path, monkeypatch):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr("experiments.runner.probe", interrupted)
    config = _config(tmp_path)
    result = CliRunner().invoke(cli, ["run", str(config), "--out", str(tmp_path / "run")])
    assert result.exit_code == 130
    assert result.output.strip() == (
        "menhir: interrupted before the run started; nothing was written"
    )
    assert not (tmp_path / "run").exists()


# ---------------------------------------------------------------------------------------------
# Resume checks what it trusts


@pytest.mark.parametrize("damage", ["missing", "truncated", "foreign"])
def test_resume_replays_a_listed_chunk_that_is_missing_or_corrupt(damage, tmp_path):
    config = _config(tmp_path)
    reference = experiments.run(config, tmp_path / "reference", jobs=1, progress=False)
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    victim = run / "players" / "variant=v2" / "part-000000000120-40.parquet"
    if damage == "missing":
        victim.unlink()
    elif damage == "truncated":
        victim.write_bytes(victim.read_bytes()[:-100])
    else:  # a valid parquet file with other rows
        (run / "games" / "variant=v2" / "part-000000000000-40.parquet").replace(
            run / "games" / "variant=v2" / "part-000000000120-40.parquet"
        )
        victim = run / "games" / "variant=v2" / "part-000000000120-40.parquet"
        (run / "players" / "variant=v2" / "part-000000000000-40.parquet").unlink()
    experiments.run(config, run, jobs=1, resume=True, progress=False)
    assert_same_tables(reference, run)
    notes = manifest(run)["sessions"][-1]["replayed"]
    assert any("games 120-159 are played again" in n for n in notes), notes


def test_resume_of_a_folder_that_does_not_exist_is_refused(tmp_path):
    with pytest.raises(UserError, match="no run to resume"):
        experiments.run(_config(tmp_path), tmp_path / "nothing", resume=True, progress=False)
    assert not (tmp_path / "nothing").exists()


def test_ctrl_c_while_the_commands_import_is_one_line():
    # a Ctrl-C before the command line's handler exists (while numpy, polars, ... import):
    # the console script's entry answers it with the same one line and exit code 130
    script = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'numpy':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "from sim.core.entry import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "games"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 130
    assert done.stderr == "menhir: interrupted; nothing was written\n" and done.stdout == ""
