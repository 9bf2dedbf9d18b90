"""``menhir check`` ends its worker processes with it, as ``menhir run`` does (issue 36,
defect 12): on SIGTERM and Ctrl-C with one line and exit 143 / 130, on ``kill -9`` through the
workers' parent-death signal. The game is the fake one with a slow checked mode (no compile)."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

from experiments.cli import cli
from sim.core import registry
from tests.experiments.conftest import FAKE

REPO = Path(__file__).resolve().parents[1]
SLOW = "tests.core.slow_checked_game"
SCRIPT = (
    "import sys\n"
    "from sim.core import registry\n"
    f"registry.GAME_MODULES[{FAKE!r}] = {SLOW!r}\n"
    "from experiments.cli import main\n"
    "sys.argv[0] = 'menhir'\n"
    "main()\n"
)


def _check(started: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, "check", FAKE, "--no-progress", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "SLOW_CHECK_STARTED": str(started)},
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _workers(proc: subprocess.Popen, started: Path, count: int = 2) -> list[psutil.Process]:
    """The check's processes once ``count`` workers play chunks (past their start-up)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if len(list(started.iterdir())) >= count:
            return psutil.Process(proc.pid).children(recursive=True)
        assert proc.poll() is None, proc.stderr.read()
        time.sleep(0.1)
    raise AssertionError("no workers started within 90 s")


def _end(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_the_check_and_its_workers_with_one_line(signum, tmp_path):
    proc = _check(tmp_path, "--jobs", "2", "--games", "40000")
    try:
        workers = _workers(proc, tmp_path)
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signum)  # Ctrl-C: the terminal signals the whole group
        else:
            os.kill(proc.pid, signum)  # kill PID: the check process alone
        _, err = proc.communicate(timeout=60)
        _, alive = psutil.wait_procs(workers, timeout=15)
    finally:
        _end(proc)
    assert not alive, f"workers outlived the check: {alive}"
    assert proc.returncode == (143 if signum == signal.SIGTERM else 130), err
    how = "terminated" if signum == signal.SIGTERM else "interrupted"
    assert err.strip() == f"menhir: check {how}; no verdict (nothing is written)"


def test_sigkill_of_the_check_ends_its_workers(tmp_path):
    proc = _check(tmp_path, "--jobs", "2", "--games", "40000")
    try:
        workers = _workers(proc, tmp_path)
        os.kill(proc.pid, signal.SIGKILL)  # the check process alone, as the OOM killer would
        proc.wait(timeout=30)
        _, alive = psutil.wait_procs(workers, timeout=15)
    finally:
        _end(proc)
    assert not alive, f"workers outlived the check: {alive}"


def test_check_with_jobs_plays_every_chunk_once(monkeypatch):
    monkeypatch.setitem(registry.GAME_MODULES, FAKE, SLOW)
    args = ["check", FAKE, "--no-progress", "--games", "5000"]
    one = CliRunner().invoke(cli, args)
    two = CliRunner().invoke(cli, [*args, "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0, (one.output, two.output)
    assert one.output == two.output and "5,000" in one.output.replace("5000", "5,000")
