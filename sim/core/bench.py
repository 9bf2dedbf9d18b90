"""Throughput measurement behind `menhir bench` and `make bench` (never run by the tests).

For each game: the cold compile time (empty numba cache) and the cached start time, measured in
fresh subprocesses; then games/s for every bot level on one process and on ``jobs`` processes;
then this process's peak memory.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sim.core.batch import play_batch
from sim.core.registry import get_game, make_setup

_START_SCRIPT = (
    "import time; t = time.perf_counter(); "
    "from sim.core.registry import get_game; g = get_game({game!r}); g.warmup(); "
    "print(time.perf_counter() - t)"
)


def start_time(game_id: str, cache_dir: str) -> float:
    """Seconds for a fresh process to import the game and play its warm-up game."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run(
        [sys.executable, "-c", _START_SCRIPT.format(game=game_id)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def games_per_second(setup, seconds: float, first_game: int = 0) -> tuple[int, float]:
    """Play chunks of doubling size until ``seconds`` have passed; return (games, elapsed)."""
    play_batch(setup, range(first_game, first_game + 4), root_seed=1)  # compile / load cache
    done, chunk, start = 0, 16, time.perf_counter()
    while True:
        play_batch(setup, range(first_game + done, first_game + done + chunk), root_seed=1)
        done += chunk
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done, elapsed
        chunk = min(chunk * 2, max(16, int(done / elapsed * (seconds - elapsed)) + 1))


def _worker(setup, seconds: float, first_game: int) -> tuple[int, float]:
    return games_per_second(setup, seconds, first_game)


def parallel_rate(setup, seconds: float, jobs: int) -> float:
    """Aggregate games/s of ``jobs`` processes each playing its own games for ``seconds``."""
    from joblib import Parallel, delayed

    results = Parallel(n_jobs=jobs)(
        delayed(_worker)(setup, seconds, 10_000_000 * (k + 1)) for k in range(jobs)
    )
    return sum(n for n, _ in results) / max(e for _, e in results)


def bench_players(decl) -> int:
    return 4 if decl.min_players <= 4 <= decl.max_players else decl.max_players


def run_bench(games, jobs=None, seconds=3.0, out=None, bots=None) -> list[str]:
    """Print (and optionally append to ``out``) one line per game, bot level and job count."""
    jobs = jobs or os.cpu_count() or 1
    lines: list[str] = []

    def emit(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    for game_id in games:
        decl = get_game(game_id)
        players = bench_players(decl)
        with tempfile.TemporaryDirectory() as cache:
            cold = start_time(game_id, cache)
            cached = start_time(game_id, cache)
        emit(f"{game_id} start: cold compile {cold:.1f} s, cached {cached:.2f} s")
        for bot in [b.name for b in decl.bots if bots is None or b.name in bots]:
            setup = make_setup(game_id, players, {}, bot)
            n, elapsed = games_per_second(setup, seconds)
            emit(f"{game_id} {players}p {bot} jobs=1: {n / elapsed:.0f} games/s")
            if jobs > 1:
                rate = parallel_rate(setup, seconds, jobs)
                emit(f"{game_id} {players}p {bot} jobs={jobs}: {rate:.0f} games/s")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        emit(f"{game_id} peak memory (this process): {peak:.0f} MiB")
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        with open(out, "a") as fh:
            fh.write(f"# {time.strftime('%Y-%m-%d %H:%M')} menhir bench\n")
            fh.write("\n".join(lines) + "\n")
    return lines
