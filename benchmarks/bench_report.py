"""Benchmark `menhir report` on a synthetic run of N player rows: wall time and peak memory.

Builds a run directory in the runner's exact layout (reports.synthetic: 4 players, 4 variants
on common random numbers) in a temporary directory, then runs make_report in a child process
and reads the child's peak RSS from resource.getrusage(RUSAGE_CHILDREN). Prints e.g.
"report 10000000 player rows: 12.3 s, peak 1.9 GiB" and exits 1 when over the limits.

    .venv/bin/python benchmarks/bench_report.py [--rows 10000000] [--max-seconds 30]
        [--max-gib 4] [--keep DIR]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from reports.synthetic import write_run

PLAYERS = 4
VALUES = (11, 12, 13, 14)

CHILD = """
import sys, time
from reports import make_report
t = time.perf_counter()
make_report([sys.argv[1]], sys.argv[2])
print(time.perf_counter() - t)
"""


def build(path: Path, rows: int) -> Path:
    """A synthetic run with `rows` player rows in total (rounded down to whole games)."""
    games = max(1, rows // (PLAYERS * len(VALUES)))
    return write_run(
        path,
        games=games,
        values=VALUES,
        players=PLAYERS,
        seed=1,
        rig={3: "trusted"},
        caps={2: 10},
        name="bench",
        chunk_games=100_000,
    )


def measure(run_dir: Path, out: Path) -> tuple[float, float]:
    """Seconds inside make_report and peak RSS (GiB) of a fresh child process running it."""
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(run_dir), str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode:
        sys.exit(f"report failed:\n{proc.stderr}")
    seconds = float(proc.stdout.strip().splitlines()[-1])
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, peak_kib / 2**20


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000, help="player rows in total")
    parser.add_argument("--max-seconds", type=float, default=30.0)
    parser.add_argument("--max-gib", type=float, default=4.0)
    parser.add_argument("--keep", type=Path, default=None, help="build the run here and keep it")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp:
        root = args.keep or Path(tmp)
        t = time.perf_counter()
        run_dir = build(root / "run", args.rows)
        built = time.perf_counter() - t
        seconds, gib = measure(run_dir, root / "report")
    rows = (args.rows // (PLAYERS * len(VALUES))) * PLAYERS * len(VALUES)
    print(
        f"report {rows} player rows: {seconds:.1f} s, peak {gib:.2f} GiB (built in {built:.1f} s)"
    )
    over = seconds > args.max_seconds or gib > args.max_gib
    if over:
        print(f"over the limits: {args.max_seconds:g} s, {args.max_gib:g} GiB", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
