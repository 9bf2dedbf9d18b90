"""menhir deletes only what it wrote (issue 36, defects 2-4): a folder named like a partial
creation, files and folders a user put in a run's partition folders, a run or report inside a
run, and a second balance search on a folder in use."""

import contextlib
import json
import os

import pytest

import experiments
from experiments.config import UserError
from experiments.store import PARTIAL, take_lock
from tests.experiments.conftest import config_text
from tests.experiments.helpers import assert_same_tables


def _config(tmp_path, **overrides):
    path = tmp_path / "tiny.toml"
    path.write_text(config_text(**{"games": 60, "chunk_games": 20, **overrides}))
    return path


def test_a_users_folder_named_like_a_partial_creation_is_kept(tmp_path):
    """Defect 2: `mkdir runs/.tinyx.partial-mybackup; menhir run ... --out runs/tinyx`."""
    backup = tmp_path / ".tinyx.partial-mybackup"
    backup.mkdir()
    (backup / "notes.txt").write_text("mine")
    experiments.run(_config(tmp_path), tmp_path / "tinyx", jobs=1, progress=False)
    assert (backup / "notes.txt").read_text() == "mine"
    assert not (tmp_path / "tinyx" / PARTIAL).exists()


def test_a_killed_creation_is_cleaned_only_when_its_marker_lists_all_it_holds(tmp_path):
    config = _config(tmp_path)
    experiments.run(config, tmp_path / "ref", jobs=1, progress=False)
    # what a creation killed before its rename leaves: the marker, the lock, the folders
    stale = tmp_path / ".tinyx.partial-abc12345"
    stale.mkdir()
    plan = {"folders": [".tmp", "games", "players"], "files": {"manifest.json": 10}}
    (stale / PARTIAL).write_text(json.dumps(plan | {"tmp_max": 10}))
    (stale / ".tmp").mkdir()
    (stale / "games").mkdir()
    # the same, but a user's file was put inside: kept
    kept = tmp_path / ".tinyx.partial-def67890"
    kept.mkdir()
    (kept / PARTIAL).write_text(json.dumps(plan | {"tmp_max": 10}))
    (kept / "thesis.md").write_text("years of work")
    # a live creation (its lock held): kept
    live = tmp_path / ".tinyx.partial-live0000"
    live.mkdir()
    (live / PARTIAL).write_text(json.dumps(plan | {"tmp_max": 10}))
    fd = take_lock(live)
    try:
        experiments.run(config, tmp_path / "tinyx", jobs=1, progress=False)
    finally:
        os.close(fd)
    assert not stale.exists()
    assert (kept / "thesis.md").read_text() == "years of work"
    assert live.exists()
    assert_same_tables(tmp_path / "ref", tmp_path / "tinyx")


def test_resume_keeps_what_a_user_put_in_partition_folders(tmp_path):
    """Defect 3: notes.txt and a folder in games/variant=v0/ survive a resume (it used to
    delete the file and crash on the folder), and the tables stay those of a fresh run."""
    config = _config(tmp_path)
    ref = experiments.run(config, tmp_path / "ref", jobs=1, progress=False)
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    part = run / "games" / "variant=v0"
    (part / "notes.txt").write_text("mine")
    (part / "sub").mkdir()
    (part / "sub" / "x.txt").write_text("mine too")
    # a chunk written just before a kill (menhir's name, not in the manifest): removed
    stray = part / "part-000000000999-20.parquet"
    stray.write_bytes(next(part.glob("part-*.parquet")).read_bytes())
    experiments.run(config, run, jobs=1, resume=True, progress=False)
    assert (part / "notes.txt").read_text() == "mine"
    assert (part / "sub" / "x.txt").read_text() == "mine too"
    assert not stray.exists()
    assert_same_tables(ref, run)


def test_a_run_inside_a_run_is_refused(tmp_path):
    """Defect 3: `run --out` inside a partition folder was accepted."""
    config = _config(tmp_path)
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    inner = run / "games" / "variant=v0" / "inner"
    with pytest.raises(UserError, match="inside the run directory"):
        experiments.run(config, inner, jobs=1, progress=False)
    assert not inner.exists()


BALANCE = {
    "name": "toy",
    "game": "fake_runner",
    "games": 1000,
    "seed": 5,
    "players": 2,
    "bots": "random,greedy:edge=2",
    "roles": ["red", "green"],
    "balance": {
        "target": "roles",
        "tolerance": 0.03,
        "budget_games": 4000,
        "min_games": 1000,
        "max_games": 2000,
        "max_trials": 2,
        "levers": {"bonus": [0, 5]},
    },
}


def test_a_balance_folder_in_use_is_refused(tmp_path):
    """Defect 4: `balance --resume` on a folder whose search is running wrote beside it."""
    out = tmp_path / "bal"
    experiments.balance(BALANCE, out, jobs=1, progress=False)
    before = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    fd = take_lock(out)  # as the running search holds it
    try:
        with pytest.raises(UserError, match="in use by another menhir balance"):
            experiments.balance(BALANCE, out, jobs=1, progress=False, resume=True)
    finally:
        os.close(fd)
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == before
    experiments.balance(BALANCE, out, jobs=1, progress=False, resume=True)  # free again


def test_a_users_partial_folder_beside_a_balance_is_kept(tmp_path):
    mine = tmp_path / ".bal.partial"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    experiments.balance(BALANCE, tmp_path / "bal", jobs=1, progress=False)
    assert (mine / "notes.txt").read_text() == "mine"


def _cli(*args):
    """menhir in a fresh process with the fake game registered (its own process group)."""
    import subprocess
    import sys

    from tests.experiments.conftest import FAKE, FAKE_MODULE, REPO

    script = (
        "import sys\n"
        "from sim.core import registry\n"
        f"registry.GAME_MODULES[{FAKE!r}] = {FAKE_MODULE!r}\n"
        "from experiments.cli import main\n"
        "sys.argv[0] = 'menhir'\n"
        "main()\n"
    )
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGINT"])
def test_a_signal_ends_a_balance_and_its_workers_with_one_line(signum, tmp_path):
    """Issue 36, defects 12 and 18: balance left its worker pool running after SIGTERM, gave
    no message and no exit 143, and Ctrl-C said "nothing was written" beside its trials."""
    import signal
    import time

    import psutil

    slow = BALANCE | {"params": {"delay_ms": 4.0}}  # a trial of 1,000 games: 2 s on 2 jobs
    slow["balance"] = BALANCE["balance"] | {"budget_games": 400_000, "max_trials": 40}
    config = tmp_path / "slow.toml"
    from tests.test_docs import dump_toml

    config.write_text(dump_toml(slow))
    out = tmp_path / "bal"
    proc = _cli("balance", str(config), "--out", str(out), "--jobs", "2")
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            children = psutil.Process(proc.pid).children(recursive=True)
            if (out / "trials.parquet").exists() and len(children) >= 2:
                break
            time.sleep(0.2)
        time.sleep(1.0)  # every worker past its start-up (a worker still importing is defect 15)
        workers = psutil.Process(proc.pid).children(recursive=True)
        assert len(workers) >= 2, "the balance never started its workers"
        sig = getattr(signal, signum)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
        _, err = proc.communicate(timeout=60)
        _, alive = psutil.wait_procs(workers, timeout=15)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert not alive, f"workers outlived the balance: {alive}"
    assert proc.returncode == (143 if signum == "SIGTERM" else 130)
    assert "Traceback" not in err, err
    lines = [line for line in err.strip().splitlines() if not line.startswith("trial ")]
    assert len(lines) == 1, err  # progress lines ("trial N: ...") aside, one line
    how = "terminated" if signum == "SIGTERM" else "interrupted"
    assert lines[0].startswith(f"menhir: {how}; the search so far is kept in {out}")
    assert lines[0].endswith(f"--out {out} --resume")


def test_a_large_sweep_makes_no_empty_folders_and_few_manifest_writes(tmp_path, monkeypatch):
    """Issue 36, defect 21: 20,000 variants made 40,000 empty folders up front and rewrote a
    20 MB manifest after every chunk. Folders now come with their first chunk, and the
    manifest is written at most once per SAVE_EVERY_S while chunks arrive (and at the end)."""
    import time

    from experiments import store

    writes = []
    real = store._write_atomic

    def counting(path, data, tmp_dir, sync=False):
        if path.name == store.MANIFEST:
            writes.append(time.monotonic())
        return real(path, data, tmp_dir, sync)

    monkeypatch.setattr(store, "_write_atomic", counting)
    config = _config(tmp_path, games=20, params={"dice": list(range(1, 11)), "bonus": [0, 1, 2]})
    start = time.monotonic()
    run = experiments.run(config, tmp_path / "wide", jobs=1, progress=False, max_variants=100)
    elapsed = time.monotonic() - start
    # creation, start, first chunk, flush and finish, plus one a second: 30 chunks, not 30 writes
    assert len(writes) <= 6 + elapsed / store.SAVE_EVERY_S
    folders = [p for t in ("games", "players") for p in (run / t).iterdir()]
    assert len(folders) == 60 and all(any(p.iterdir()) for p in folders)
    ref = experiments.run(config, tmp_path / "ref", jobs=2, progress=False, max_variants=100)
    assert_same_tables(ref, run)
