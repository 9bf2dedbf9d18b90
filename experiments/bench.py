"""Runner figures for `make bench` (never run by the tests): overhead, scaling, a big run's memory.

Measured on 4-player greedy Celtic Trader with roles dealt at random:

1. the raw kernel rate: the game's compiled chunk loop alone, in this process, on ``games``;
2. the runner on the same games with one job (tables built, parquet written, manifest kept):
   its overhead against (1), target at most 10%;
3. the runner with ``jobs`` processes: the speed-up over (2), target at least 1.7x for 2 jobs;
4. a ``big_games`` run with ``jobs`` processes (target under 10 minutes for 1,000,000 games,
   goal under 3) and the peak memory of each worker process (target under 1 GiB).

``python -m experiments.bench --games 20000 --big-games 100000`` is a quick check.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

import numpy as np

from experiments.runner import run_experiment

GAME = "celtic_trader"
PLAYERS = 4
RAW_CHUNK = 25_000


def bench_config(games: int) -> dict:
    return {
        "name": "bench",
        "game": GAME,
        "games": games,
        "seed": 1,
        "players": PLAYERS,
        "bots": "greedy",
        "roles": "random",
    }


def _play_raw(first: int, games: int) -> None:
    """Games ``first .. first + games - 1`` through the game's chunk loop, nothing else."""
    from sim.core.batch import play_chunk
    from sim.core.registry import make_setup
    from sim.core.rng import derive_game_seeds

    setup = make_setup(GAME, PLAYERS, {}, "greedy", "random")
    for lo in range(first, first + games, RAW_CHUNK):
        n = min(RAW_CHUNK, first + games - lo)
        play_chunk(setup, derive_game_seeds(1, 0, np.arange(lo, lo + n)))


def raw_seconds(games: int) -> tuple[float, float]:
    """(wall, CPU) seconds for the game's own chunk loop to play ``games`` games here."""
    from sim.core.registry import get_game

    get_game(GAME).warmup()
    start, cpu = time.perf_counter(), time.process_time()
    _play_raw(0, games)
    return time.perf_counter() - start, time.process_time() - cpu


def _raw_part(first: int, games: int) -> float:
    """Wall seconds of ``_play_raw`` in a worker process, its compile or cache load excluded."""
    from sim.core.registry import get_game

    get_game(GAME).warmup()
    start = time.perf_counter()
    _play_raw(first, games)
    return time.perf_counter() - start


def raw_parallel_rate(games: int, jobs: int) -> float:
    """Games/s of ``jobs`` processes each playing ``games / jobs`` raw at the same time: what
    the machine can give right now (other programs on it included), start-up excluded."""
    from joblib import Parallel, delayed

    share = games // jobs
    seconds = Parallel(n_jobs=jobs)(delayed(_raw_part)(k * share, share) for k in range(jobs))
    return share * jobs / max(seconds)


def _fresh_pool() -> None:
    """End the reusable worker pool so the next run's workers report their own peak memory."""
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)


def runner_seconds(games: int, jobs: int, root: Path):
    """(wall s, this process's CPU s, RunReport) of a complete run of ``games`` games.

    With one job every game is played in this process, so its CPU time is the runner's whole
    cost, unaffected by other programs sharing the machine."""
    _fresh_pool()
    out = root / f"run-{games}-{jobs}-{len(list(root.iterdir()))}"
    start, cpu = time.perf_counter(), time.process_time()
    report = run_experiment(bench_config(games), out, jobs=jobs, progress=False)
    return time.perf_counter() - start, time.process_time() - cpu, report


def _size_mib(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def run_bench(
    games: int = 200_000,
    big_games: int = 1_000_000,
    jobs: int | None = None,
    out: str | None = None,
    repeats: int = 2,
) -> list[str]:
    """Measure and print the runner figures; append them to ``out`` when given."""
    jobs = jobs or os.cpu_count() or 1
    lines: list[str] = []

    def emit(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    with tempfile.TemporaryDirectory(prefix="menhir-bench-") as tmp:
        root = Path(tmp)
        emit(f"runner bench: {GAME} {PLAYERS}p greedy, random roles, best of {repeats}")
        raws, ones = [], []
        for _ in range(repeats):  # interleaved, so a busy spell on the machine hits both
            raws.append(raw_seconds(games))
            ones.append(runner_seconds(games, 1, root)[:2])
        raw, raw_cpu = min(r[0] for r in raws), min(r[1] for r in raws)
        one, one_cpu = min(r[0] for r in ones), min(r[1] for r in ones)
        emit(
            f"raw kernel, 1 process: {games} games in {raw:.1f} s = {games / raw:.0f} games/s "
            f"(CPU {raw_cpu:.1f} s)"
        )
        overhead = one_cpu / raw_cpu - 1
        verdict = "ok" if overhead <= 0.10 else "OVER the 10% target"
        emit(
            f"runner, 1 job: {games} games in {one:.1f} s = {games / one:.0f} games/s "
            f"(CPU {one_cpu:.1f} s); overhead {overhead:+.1%} CPU, {one / raw - 1:+.1%} wall, "
            f"vs raw ({verdict})"
        )
        if jobs > 1:
            capacity = raw_parallel_rate(games, jobs) / (games / raw)
            emit(
                f"raw kernel, {jobs} processes at once: {capacity:.2f}x one process "
                f"(what this machine gives now; load average {os.getloadavg()[0]:.1f})"
            )
            many, _, _ = runner_seconds(games, jobs, root)
            speedup = one / many
            target = (
                "" if jobs != 2 else (" (ok)" if speedup >= 1.7 else " (UNDER the 1.7x target)")
            )
            emit(
                f"runner, {jobs} jobs: {games} games in {many:.1f} s = {games / many:.0f} "
                f"games/s; speed-up {speedup:.2f}x over 1 job{target}"
            )
        big, _, report = runner_seconds(big_games, jobs, root)
        run_dir = report.path
        files = len(list((run_dir / "games").rglob("*.parquet")))
        emit(
            f"big run, {jobs} jobs: {big_games} games, parquet written, in {big:.1f} s "
            f"({big / 60:.1f} min) = {big_games / big:.0f} games/s; "
            f"{_size_mib(run_dir):.0f} MiB on disk in {files} games files"
        )
        peaks = sorted(report.worker_peak_rss_mib.values())
        emit(
            "big run peak memory per worker process: "
            + ", ".join(f"{p:.0f} MiB" for p in peaks)
            + ("" if max(peaks, default=0) < 1024 else " (OVER the 1 GiB target)")
        )
        parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        emit(f"bench process peak memory (raw kernel and the 1-job run included): {parent:.0f} MiB")
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        with open(out, "a") as fh:
            fh.write(f"# {time.strftime('%Y-%m-%d %H:%M')} menhir runner bench\n")
            fh.write("\n".join(lines) + "\n")
    return lines


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--big-games", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--out", default=None)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    run_bench(args.games, args.big_games, args.jobs, args.out, args.repeats)


if __name__ == "__main__":
    main()
