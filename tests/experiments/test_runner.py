"""The runner end to end on the fake game: determinism across jobs, Dask and resume; target_ci;
common random numbers; the manifest and the files of a run directory."""

import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import polars as pl
import pytest

import experiments
from experiments.config import UserError
from experiments.runner import wilson_halfwidth
from sim.core.rng import derive_game_seeds
from tests.experiments.conftest import FAKE, FAKE_MODULE, REPO, config_text
from tests.experiments.helpers import assert_same_tables, manifest, tables

SWEEP = dict(
    players=[2, 3],
    bots="greedy",
    roles=["random", "draft"],
    params={"dice": [2, 4]},
    games=210,
    chunk_games=40,
)


@pytest.fixture(scope="module")
def sweep_config(tmp_path_factory):
    path = tmp_path_factory.mktemp("cfg") / "sweep.toml"
    path.write_text(config_text(**SWEEP))
    return path


@pytest.fixture(scope="module")
def reference(sweep_config, tmp_path_factory):
    """The sweep played in this process (one job): what every other way must reproduce."""
    return experiments.run(
        sweep_config, tmp_path_factory.mktemp("ref") / "run", jobs=1, progress=False
    )


def test_reference_run_has_every_game_once_and_the_contract_columns(reference):
    games, players = tables(reference)
    assert games.columns == [
        "variant",
        "game",
        "seed",
        "players",
        "rounds",
        "turns",
        "end_reason",
        "winners",
        "roles",
        "dice",
    ]
    assert games.height == 8 * 210
    assert games.select("variant", "game").is_duplicated().sum() == 0
    for _, part in games.group_by("variant"):
        assert part["game"].sort().to_list() == list(range(210))
    assert set(players.columns) >= {
        "variant",
        "game",
        "seat",
        "strategy",
        "role",
        "side",
        "score",
        "rank",
        "win",
        "pts_dice",
        "pts_bonus",
    }
    assert players.height == 4 * 210 * 2 + 4 * 210 * 3
    wins = players.group_by("variant", "game").agg(pl.col("win").sum())["win"]
    assert np.allclose(wins.to_numpy(), 1.0)
    m = manifest(reference)
    assert m["status"] == "complete" and m["swept"] == ["players", "roles", "dice"]
    assert m["variants"][0]["label"] == "players=2,roles=random,dice=2"
    assert all(v["stop_reason"] == "games" and v["games_done"] == 210 for v in m["variants"])
    assert (
        m["variants"][5]["setup"]["roles"] == "random" and m["variants"][5]["setup"]["players"] == 3
    )
    for key in (
        "menhir_version",
        "commit",
        "versions",
        "name",
        "game",
        "game_version",
        "config_path",
        "config",
        "seed",
        "paired",
        "games_per_variant",
        "target_ci",
    ):
        assert key in m
    files = list((reference / "games" / "variant=v0").iterdir())
    assert len(files) == 6  # a few files per variant, one per chunk of 40 games
    assert not (reference / ".tmp").exists()


def test_two_jobs_give_the_same_tables(reference, sweep_config, tmp_path):
    run = experiments.run(sweep_config, tmp_path / "run", jobs=2, progress=False)
    assert_same_tables(reference, run)


def test_joblib_parallel_still_works_after_a_run_with_two_jobs(sweep_config, tmp_path):
    """The runner's pool is joblib's process-wide one: a later joblib ``Parallel`` in the same
    process (the ladder, the bench) reuses it; a pool made by loky directly broke it."""
    from joblib import Parallel, delayed

    experiments.run(sweep_config, tmp_path / "run", jobs=2, progress=False)
    assert Parallel(n_jobs=2)(delayed(abs)(-k) for k in range(4)) == [0, 1, 2, 3]


def test_dask_local_cluster_gives_the_same_tables(reference, sweep_config, tmp_path):
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        run = experiments.run(
            sweep_config,
            tmp_path / "run",
            backend="dask",
            scheduler=cluster.scheduler_address,
            progress=False,
        )
    assert_same_tables(reference, run)
    assert manifest(run)["sessions"][0]["backend"] == "dask"


_CHILD = """
import os
import sys
from sim.core import registry
registry.GAME_MODULES[{game!r}] = {module!r}
import experiments
resume = os.path.isdir(sys.argv[2])  # --resume of a folder that does not exist is refused
experiments.run(sys.argv[1], sys.argv[2], jobs=2, resume=resume, progress=False)
"""


def _launch(config, out):
    script = _CHILD.format(game=FAKE, module=FAKE_MODULE)
    return subprocess.Popen(
        [sys.executable, "-c", script, str(config), str(out)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,  # its own process group: the kill takes its workers too
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _kill_group(proc) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError("workers survived the kill")


def _listed_chunks_exist(out) -> int:
    m = manifest(out)
    done = 0
    for v in m["variants"]:
        for first, n in v["chunks"]:
            for table in ("games", "players"):
                assert (
                    out / table / f"variant={v['id']}" / f"part-{first:012d}-{n}.parquet"
                ).is_file()
            done += n
        assert v["games_done"] == sum(n for _, n in v["chunks"])
    return done


def _wait_for_more_games(out, before: int, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if sum(v["games_done"] for v in manifest(out)["variants"]) > before:
                return
        except FileNotFoundError:
            pass
        time.sleep(0.01)


def test_resume_after_sigkill_at_random_moments_gives_the_uninterrupted_tables(tmp_path):
    killed = dict(
        players=[2, 3], params={"dice": [2, 3, 4], "delay_ms": 3}, games=120, chunk_games=10
    )
    config = tmp_path / "killed.toml"
    config.write_text(config_text(**killed))
    plain = tmp_path / "plain.toml"
    plain.write_text(config_text(**{**killed, "params": {"dice": [2, 3, 4]}}))
    reference = experiments.run(plain, tmp_path / "reference", jobs=1, progress=False)

    out = tmp_path / "run"
    rng = random.Random(20240607)
    progress = []
    for attempt in range(4):
        proc = _launch(config, out)
        if attempt == 0:
            time.sleep(rng.uniform(0.0, 1.5))  # anywhere, start-up and creation included
        else:  # once this attempt has added a chunk: mid-run, between any two steps
            _wait_for_more_games(out, before=progress[-1] or 0)
            time.sleep(rng.uniform(0.0, 0.6))
        if proc.poll() is not None:
            break
        _kill_group(proc)
        progress.append(_listed_chunks_exist(out) if out.exists() else None)
    total = 6 * 120
    print("games listed at each kill:", progress)
    assert any(p is not None and 0 < p < total for p in progress), progress
    experiments.run(config, out, jobs=2, resume=True, progress=False)
    assert _listed_chunks_exist(out) == total
    m = manifest(out)
    assert m["status"] == "complete" and len(m["sessions"]) >= 2
    games_ref, players_ref = tables(reference)
    games, players = tables(out)
    assert games.equals(games_ref) and players.equals(players_ref)


def test_resume_drops_unlisted_files_and_replays_their_chunk(reference, sweep_config, tmp_path):
    import json
    import shutil

    run = tmp_path / "run"
    shutil.copytree(reference, run)
    m = manifest(run)
    lost = m["variants"][1]["chunks"].pop()  # as if killed after the files, before the manifest
    m["variants"][1]["games_done"] -= lost[1]
    m["variants"][1]["stop_reason"] = None
    m["status"] = "running"
    (run / "manifest.json").write_text(json.dumps(m))
    (run / ".tmp").mkdir()
    (run / ".tmp" / "half-written.parquet.tmp").write_bytes(b"PAR1 garbage")
    stray = run / "games" / "variant=v1" / "part-000000099999-5.parquet"
    stray.write_bytes(b"garbage")
    experiments.run(sweep_config, run, jobs=1, resume=True, progress=False)
    assert not stray.exists()
    assert_same_tables(reference, run)
    assert manifest(run)["sessions"][-1]["resumed"] is True


def test_resume_refuses_another_config_and_a_complete_run_is_left_alone(
    reference, tmp_path, write_config
):
    other = write_config(**{**SWEEP, "games": 211})
    with pytest.raises(UserError, match="key 'games' differs from the config recorded"):
        experiments.run(other, reference, resume=True, progress=False)
    with pytest.raises(UserError, match="--games 100: .* a run can grow, not shrink"):
        experiments.run(None, reference, games=100, resume=True, progress=False)
    before = {p: p.stat().st_mtime_ns for p in reference.rglob("*.parquet")}
    experiments.run(None, reference, resume=True, progress=False)  # the recorded config
    assert {p: p.stat().st_mtime_ns for p in reference.rglob("*.parquet")} == before


def _max_halfwidth(players: pl.DataFrame, games: int) -> float:
    part = players.filter(pl.col("game") < games)
    by = [part.group_by(key).agg(pl.col("win").sum(), pl.len()) for key in ("seat", "role")]
    return max(float(wilson_halfwidth(t["win"].to_numpy(), t["len"].to_numpy()).max()) for t in by)


def test_target_ci_stops_at_the_first_chunk_that_reaches_it(write_config, tmp_path):
    config = write_config(
        players=2, games=20_000, chunk_games=100, target_ci=0.05, params={"bonus": [0.0, 3.0]}
    )
    one = experiments.run(config, tmp_path / "one", jobs=1, progress=False)
    two = experiments.run(config, tmp_path / "two", jobs=2, progress=False)
    assert_same_tables(one, two)
    _, players = tables(one)
    for v in manifest(one)["variants"]:
        done = v["games_done"]
        assert v["stop_reason"] == "target_ci" and 100 < done < 20_000 and done % 100 == 0
        mine = players.filter(pl.col("variant") == v["id"])
        assert mine["game"].max() == done - 1
        assert _max_halfwidth(mine, done) <= 0.05 < _max_halfwidth(mine, done - 100)
        assert v["max_halfwidth"] == pytest.approx(_max_halfwidth(mine, done))
    # resumed after 3 chunks (later files left behind, unlisted): the same stop, the same rows
    import json
    import shutil

    partial = tmp_path / "partial"
    shutil.copytree(one, partial)
    m = manifest(partial)
    for v in m["variants"]:
        v["chunks"] = v["chunks"][:3]
        v.update(games_done=300, stop_reason=None, max_halfwidth=None)
    m["status"] = "running"
    (partial / "manifest.json").write_text(json.dumps(m))
    experiments.run(config, partial, jobs=1, resume=True, progress=False)
    assert_same_tables(one, partial)
    stops = [(v["games_done"], v["stop_reason"]) for v in manifest(partial)["variants"]]
    assert stops == [(v["games_done"], v["stop_reason"]) for v in manifest(one)["variants"]]


def test_target_ci_is_capped_by_games(write_config, tmp_path):
    config = write_config(players=2, games=300, chunk_games=100, target_ci=0.001)
    v = manifest(experiments.run(config, tmp_path / "run", jobs=1, progress=False))["variants"][0]
    assert v["stop_reason"] == "games" and v["games_done"] == 300 and v["max_halfwidth"] > 0.001


@pytest.mark.parametrize("paired", [True, False])
def test_common_random_numbers_replay_the_same_deals(paired, write_config, tmp_path):
    config = write_config(
        players=3,
        games=150,
        paired=paired,
        bots="greedy,random,greedy",
        params={"bonus": [0.0, 2.0]},
    )
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    m = manifest(run)
    games, players = tables(run)
    a, b = (games.filter(pl.col("variant") == v) for v in ("v0", "v1"))
    assert a["game"].equals(b["game"])  # the game index is aligned across variants
    for v, part in (("v0", a), ("v1", b)):
        key = [e["variant_key"] for e in m["variants"] if e["id"] == v][0]
        assert part["seed"].to_list() == derive_game_seeds(3, key, np.arange(150)).tolist()
    pa, pb = (players.filter(pl.col("variant") == v) for v in ("v0", "v1"))
    same_dice = (pa["pts_dice"] == pb["pts_dice"]).mean()
    assert m["paired"] is paired
    if paired:
        assert {e["variant_key"] for e in m["variants"]} == {0}
        assert a["seed"].equals(b["seed"])
        assert same_dice == 1.0 and pa["role"].equals(pb["role"])  # chance and bots replayed
        assert not pa["pts_bonus"].equals(pb["pts_bonus"])
    else:
        assert (a["seed"] != b["seed"]).all()
        assert same_dice < 0.5


def test_two_dask_runs_at_once_do_not_warn_of_a_busy_port():
    """Each local Dask cluster's HTTP server takes a free port (dask/distributed#8136: with
    dashboard_address=None it took 8787, and the second of two runs warned it was in use)."""
    import warnings

    from experiments.backends import DaskBackend

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = DaskBackend(None, 1)
        try:
            second = DaskBackend(None, 1)
            second.close()
        finally:
            first.close()
    assert not [w for w in caught if "already in use" in str(w.message)]
