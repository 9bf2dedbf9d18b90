"""Throughput measurement behind `menhir bench` and `make bench` (never run by the tests).

For each game: the cold compile time (empty numba cache) and the cached start time, measured in
fresh subprocesses; then games/s for every bot level on one process and on ``jobs`` processes;
then this process's peak memory. With a history file (``make bench`` passes
``benchmarks/history.csv``) every games/s figure is also appended there as a row, and each line
says how it compares with the best earlier row of the same kind (game, bot, players, jobs), so a
regression is visible at a glance.
"""

from __future__ import annotations

import csv
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sim.core.batch import play_batch
from sim.core.params import ParamError
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


HISTORY_FIELDS = ("date", "commit", "game", "bot", "players", "jobs", "games_per_s", "peak_mib")
_KIND = ("game", "bot", "players", "jobs")


def read_history(path) -> list[dict[str, str]]:
    """The rows of a history CSV (none when it does not exist yet)."""
    path = Path(path)
    if not path.exists():
        return []
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    except UnicodeDecodeError:
        raise ParamError(
            f"{path}: not a bench history (not UTF-8 text); choose another --history"
        ) from None
    except OSError as exc:
        raise ParamError(f"{path}: cannot read the bench history ({exc.strerror})") from None
    if rows and not set(HISTORY_FIELDS) <= set(rows[0]):
        raise ParamError(f"{path}: not a bench history (its columns are not menhir's)")
    return rows


def append_history(path, row: dict) -> None:
    """Append ``row`` to the history CSV, writing the header on first use. The file is rewritten
    through a temporary file and renamed, so an interrupted bench never leaves half a row."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = path.read_text() if path.exists() else ""
    if text and not text.endswith("\n"):
        text += "\n"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", newline="") as fh:
            fh.write(text)
            writer = csv.DictWriter(fh, fieldnames=HISTORY_FIELDS, lineterminator="\n")
            if not text:
                writer.writeheader()
            writer.writerow({k: row[k] for k in HISTORY_FIELDS})
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def versus_best(history: list[dict[str, str]], row: dict) -> str:
    """``x0.98 of best 12300, 2026-11-25 abc1234``: ``row``'s games/s against the best earlier
    row of the same game, bot, players and jobs; ``first record`` when there is none."""
    same = [h for h in history if all(str(h[k]) == str(row[k]) for k in _KIND)]
    if not same:
        return "first record"
    best = max(same, key=lambda h: float(h["games_per_s"]))
    rate = float(best["games_per_s"])
    day = str(best["date"]).split()[0].split("T")[0]
    return f"x{row['games_per_s'] / rate:.2f} of best {rate:.0f}, {day} {best['commit']}"


def current_commit(exclude=None) -> str:
    """The short hash of HEAD, with ``-dirty`` when tracked files (other than ``exclude``, the
    history file itself) differ from it; ``unknown`` outside a git checkout."""
    here = Path(__file__).resolve().parent

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=here, check=True, capture_output=True, text=True
        ).stdout.strip()

    try:
        commit = git("rev-parse", "--short", "HEAD")
        spec = ["--", "."]
        if exclude is not None:
            spec.append(f":(exclude){Path(exclude).resolve()}")
        dirty = git("status", "--porcelain", "--untracked-files=no", *spec)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{commit}-dirty" if dirty else commit


class History:
    """Where ``run_bench`` records its figures: reads the earlier rows once, appends each new
    one and phrases the comparison. ``path`` None records nothing and compares with nothing."""

    def __init__(self, path=None):
        self.path = path
        self.earlier = read_history(path) if path else []
        self.commit = current_commit(path) if path else ""
        self.date = time.strftime("%Y-%m-%d %H:%M", time.gmtime())

    def record(self, game: str, bot: str, players: int, jobs: int, rate: float) -> str:
        """Append the figure; return the suffix for its line (empty without a history)."""
        if not self.path:
            return ""
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        row = dict(
            date=self.date,
            commit=self.commit,
            game=game,
            bot=bot,
            players=players,
            jobs=jobs,
            games_per_s=round(rate, 1),
            peak_mib=round(peak),
        )
        append_history(self.path, row)
        return f" ({versus_best(self.earlier, row)})"


def bench_players(decl) -> int:
    return 4 if decl.min_players <= 4 <= decl.max_players else decl.max_players


def run_bench(games, jobs=None, seconds=3.0, out=None, bots=None, history=None) -> list[str]:
    """Print (and optionally append to ``out``) one line per game, bot level and job count;
    with ``history`` (a CSV path) also record each games/s figure there and compare it."""
    jobs = jobs or os.cpu_count() or 1
    lines: list[str] = []
    record = History(history)

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
            for j in sorted({1, jobs}):
                if j == 1:
                    n, elapsed = games_per_second(setup, seconds)
                    rate = n / elapsed
                else:
                    rate = parallel_rate(setup, seconds, j)
                versus = record.record(game_id, bot, players, j, rate)
                emit(f"{game_id} {players}p {bot} jobs={j}: {rate:.0f} games/s{versus}")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        emit(f"{game_id} peak memory (this process): {peak:.0f} MiB")
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        with open(out, "a") as fh:
            fh.write(f"# {time.strftime('%Y-%m-%d %H:%M')} menhir bench\n")
            fh.write("\n".join(lines) + "\n")
    return lines
