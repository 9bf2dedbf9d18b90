"""experiments/interrupts.py: after SIGTERM, a background thread's failure prints nothing (a
worker pool's manager thread failed while torn down, and its traceback buried the command's one
line: seen in CI, issue 42)."""

import signal
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

_SCRIPT = """
import os, signal, sys, threading
from experiments.interrupts import sigterm_raises

def failing_thread():
    def fail():
        raise KeyError(4)
    thread = threading.Thread(target=fail)
    thread.start()
    thread.join()

if sys.argv[2] == "before":
    failing_thread()  # no signal yet: printed as Python prints it
try:
    with sigterm_raises():
        os.kill(os.getpid(), int(sys.argv[1]))
        signal.pthread_kill(threading.main_thread().ident, 0)
except KeyboardInterrupt as exc:
    print(type(exc).__name__)
failing_thread()
"""


def _run(signum: int, before: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(int(signum)), before],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_after_sigterm_a_failing_thread_prints_nothing():
    done = _run(signal.SIGTERM, "after only")
    assert done.stdout.strip() == "Terminated"
    assert done.stderr == ""
    shown = _run(signal.SIGTERM, "before")  # the same failure before the signal is printed
    assert "KeyError" in shown.stderr and shown.stderr.count("Traceback") == 1


def test_the_handler_is_restored():
    from experiments.interrupts import sigterm_raises

    term = signal.getsignal(signal.SIGTERM)
    with sigterm_raises():
        assert signal.getsignal(signal.SIGTERM) is not term
    assert signal.getsignal(signal.SIGTERM) is term
