"""Say so while a game's kernels compile, with an estimate (issue 42).

A command that plays compiles the game's chunk loop once per machine and code version (numba
keeps it on disk, sim/numba_cache.py). Each game has two loops: the plain one (random and
greedy seats) and the one with the search bot; a command compiles only the one its seats need.
Before the first game, :func:`compile_notice` checks numba's cache index of that loop; when it
is missing it prints one line on stderr with the bot level and an estimate, and on a terminal
keeps that line ticking with the seconds spent. The estimate is the time the same loop took the
last time it compiled on this machine (any earlier code version), kept in a small JSON file
beside numba's cache folders; before any, it says "5 to 30 s" (make bench lists each game's).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
import threading
import time
from pathlib import Path

from sim.core.registry import GAME_MODULES
from sim.core.split_compile import is_cached

FIRST_GUESS = "5 to 30 s"
TIMES_FILE = "compile-seconds.json"


def loop_kernels(game: str) -> tuple | None:
    """``(every_bot_loop, plain_loop)`` as the game plays them, or None for a game without
    numba loops. A play module that plays copies of its loops says which (``played_loops``:
    Celtic Trader's, compiled without Celtic Quest's hooks); one that plays another module's
    names it (``LOOPS_MODULE``: Celtic Quest plays Celtic Trader's shared loops)."""
    module_name = GAME_MODULES.get(game, "")
    if not module_name.startswith("sim.games."):
        return None
    try:
        play = importlib.import_module(f"{module_name}.play")
        if hasattr(play, "played_loops"):
            return play.played_loops()
        owner = importlib.import_module(getattr(play, "LOOPS_MODULE", play.__name__))
        return owner._play_kernel, owner._play_kernel_plain
    except (ImportError, AttributeError):
        return None


def needs_search(setups) -> bool:
    from strategies.search import SEARCH_CODE

    return any(SEARCH_CODE in setup.bot_arrays()[0] for setup in setups)


def times_path() -> Path | None:
    """The estimates file, beside menhir's numba cache folders (None when the user chose the
    cache folder: nothing is written outside menhir's own)."""
    from sim import numba_cache

    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder:
        return None
    root = Path(folder).parent
    ours = (numba_cache.cache_root(), numba_cache.fallback_root())
    return root / TIMES_FILE if any(root == Path(r) for r in ours) else None


def read_times() -> dict[str, float]:
    path = times_path()
    try:
        times = json.loads(path.read_text()) if path is not None else {}
    except (OSError, ValueError):
        return {}
    return {k: float(v) for k, v in times.items() if isinstance(v, int | float)}


def remember(key: str, seconds: float) -> None:
    """Keep the measured compile time for the next estimate (best effort: never fails)."""
    path = times_path()
    if path is None:
        return
    times = read_times()
    times[key] = round(seconds, 1)
    with contextlib.suppress(OSError):
        tmp = path.with_name(f".{TIMES_FILE}.{os.getpid()}")
        tmp.write_text(json.dumps(times, indent=1, sort_keys=True))
        tmp.replace(path)


def estimate_text(seconds: float | None) -> str:
    return FIRST_GUESS if seconds is None else f"about {max(1, round(seconds)):d} s last time"


def pending(game: str, setups, progress: bool | None) -> tuple[str, str] | None:
    """``(key, line)`` when the loop these setups need is not compiled yet, else None (also
    when ``progress`` is False or the game has no numba loops)."""
    kernels = loop_kernels(game) if progress is not False else None
    if kernels is None:
        return None
    search = needs_search(setups)
    if is_cached(kernels[0 if search else 1]):
        return None
    level = "with the search bot" if search else "random and greedy"
    key = f"{game}:{'search' if search else 'plain'}"
    guess = estimate_text(read_times().get(key))
    once = "once per machine and code version"
    return key, f"menhir: compiling the {game} kernels ({level}; {once}, {guess})"


def announce(game: str, setups, progress: bool | None, stream=None) -> None:
    """Print the compile line, untimed (for a command whose first game comes later)."""
    todo = pending(game, setups, progress)
    if todo is not None:
        print(f"{todo[1]}...", file=stream or sys.stderr, flush=True)


@contextlib.contextmanager
def compile_notice(game: str, setups, progress: bool | None, stream=None):
    """Around the first games of a command: announce and time a compile about to happen; on a
    terminal the line ticks with the seconds spent. The time is kept for the next estimate."""
    stream = stream or sys.stderr
    todo = pending(game, setups, progress)
    if todo is None:
        yield
        return
    key, line = todo
    ticking = stream.isatty()
    done = threading.Event()
    start = time.perf_counter()

    def tick() -> None:
        while not done.wait(1.0):
            stream.write(f"\r{line}: {time.perf_counter() - start:.0f} s")
            stream.flush()

    stream.write(f"{line}..." + ("" if ticking else "\n"))
    stream.flush()
    ticker = threading.Thread(target=tick, daemon=True) if ticking else None
    if ticker is not None:
        ticker.start()
    try:
        yield
    finally:
        done.set()
        if ticker is not None:
            ticker.join()
            stream.write(f"\r{line}: done in {time.perf_counter() - start:.0f} s\n")
            stream.flush()
    remember(key, time.perf_counter() - start)
