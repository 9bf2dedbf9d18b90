"""Session set-up: with ``pytest -n N`` (``make test``), compile every game's kernels first.

numba's compile cost is paid once per source tree, on disk (sim/numba_cache.py), but two test
workers that reach the same cold game at once would both compile it. So the controller warms
the cache before any worker starts: one process per game (its two bulk loops, the plain one
and the one with the search, and its checked loop), ``N`` at a time, so a fresh clone
compiles on every core (a game on one: none splits its compile over two processes, as
sim/core/split_compile.py does alone). A warm cache makes this a few seconds; a plain
``pytest`` run (no ``-n``) skips it and compiles on first use as before.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM = (
    "import numpy as np\n"
    "from sim.core.check import NO_CORRUPTION, invariants_module\n"
    "from sim.core.registry import get_game, make_setup\n"
    "g = get_game({game!r})\n"
    "g.warmup()\n"
    "players = 4 if g.min_players <= 4 <= g.max_players else g.max_players\n"
    "g.play(make_setup(g.id, players, {{}}, 'search'), np.arange(1, dtype=np.uint64))\n"
    "setup = make_setup(g.id, g.min_players, {{}}, 'random')\n"
    "invariants_module(g.id).checked(setup, np.arange(1, dtype=np.uint64), 10_000, NO_CORRUPTION)\n"
)


def _warm(game: str) -> tuple[str, int, str]:
    done = subprocess.run(
        [sys.executable, "-c", WARM.format(game=game)],
        cwd=ROOT,
        # one game per core already: no second process per compile (sim/core/split_compile.py)
        env={**os.environ, "PYTHONPATH": str(ROOT), "MENHIR_SPLIT_COMPILE": "0"},
        capture_output=True,
        text=True,
    )
    return game, done.returncode, done.stderr[-2000:]


def pytest_sessionstart(session):
    workers = getattr(session.config.option, "numprocesses", None)
    if not workers or hasattr(session.config, "workerinput"):
        return
    from sim.core.registry import GAME_MODULES

    with ThreadPoolExecutor(max_workers=int(workers)) as pool:
        for game, code, err in pool.map(_warm, list(GAME_MODULES)):
            if code != 0:  # the tests will show the failure; say where it came from
                print(f"\nwarming {game}'s kernels failed:\n{err}", file=sys.stderr)
