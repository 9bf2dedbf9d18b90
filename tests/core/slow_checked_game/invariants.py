"""A checked mode that finds nothing, slowly (sim/core/check.py calls ``checked``)."""

import os
import time
from pathlib import Path

import numpy as np

from sim.core.check import GENERIC

INVARIANTS: tuple[str, ...] = ()


def checked(setup, seeds, max_steps, corrupt):
    started = os.environ.get("SLOW_CHECK_STARTED")  # a folder: one file per working process
    if started:
        (Path(started) / str(os.getpid())).touch()
    time.sleep(0.001 * len(seeds))
    n = len(seeds)
    counts = np.zeros((1 + len(GENERIC) + len(INVARIANTS), 2), np.int64)
    counts[0, 0] = n
    return np.zeros(n, np.int64), np.zeros(n, np.int64), counts
