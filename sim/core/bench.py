"""Throughput measurement behind `menhir bench` and `make bench` (never run by the tests).

For each game: the cold compile time (empty numba cache) of each bot level's chunk loop (random
and greedy share the plain one; the search's is compiled on its own) and the cached start time,
measured in fresh subprocesses; then games/s for every bot level on one process and on ``jobs``
processes; then this process's peak memory. With a history file (``make bench`` passes
``benchmarks/history.csv``) every games/s figure is also appended there as a row, and each line
says how it compares with the best earlier row of the same kind (game, bot, players, jobs), so a
regression is visible at a glance; the start figures (cold compile, cached start) go to
``compile_<name>`` beside it (``benchmarks/compile_history.csv``: history.csv keeps its games/s
columns), compared with the lowest earlier figure. With a floors file (``make bench`` passes
``benchmarks/floors.toml``) or a history, the lines end with a checklist: per figure measured,
its floor (or "-"), pass or below, and the best earlier figure of the same game, bot, players,
jobs and metric with the ratio.
"""

from __future__ import annotations

import csv
import os
import resource
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from sim.core.batch import play_batch
from sim.core.params import ParamError
from sim.core.registry import GAME_MODULES, get_game, make_setup

_START_SCRIPT = (
    "import time; t = time.perf_counter(); "
    "import numpy as np; from sim.core.registry import get_game, make_setup; "
    "g = get_game({game!r}); bot = {bot!r}; "
    "g.warmup() if bot is None else g.play(make_setup(g.id, {players}, {{}}, bot), np.arange(1)); "
    "print(time.perf_counter() - t)"
)


def start_time(game_id: str, cache_dir: str, bot: str | None = None, players: int = 4) -> float:
    """Seconds for a fresh process to import the game and play its warm-up game (random and
    greedy seats: the plain chunk loop), or with ``bot`` one game of that bot (``search``:
    the chunk loop with the search, compiled on its own)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run(
        [sys.executable, "-c", _START_SCRIPT.format(game=game_id, bot=bot, players=players)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def games_per_second(setup, seconds: float, first_game: int = 0) -> tuple[int, float]:
    """Play chunks of doubling size until ``seconds`` have passed; return (games, elapsed)."""
    play_batch(setup, range(first_game, first_game + 4), root_seed=1)  # compile / load cache
    prepare = get_game(setup.game).prepare
    if prepare is not None:  # the data the games read, built before the timing
        prepare(setup)
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
# the start figures' history: a cold compile or a cached start of a bot level's chunk loop
# (``bot`` greedy: the plain loop that random and greedy share), in seconds, lower is better
START_FIELDS = ("date", "commit", "game", "bot", "metric", "seconds")


def start_history_path(path) -> Path:
    """Where the start figures of the history at ``path`` go: ``compile_<name>`` beside it."""
    path = Path(path)
    return path.with_name(f"compile_{path.name}")


def read_history(path, fields=HISTORY_FIELDS) -> list[dict[str, str]]:
    """The rows of a history CSV with ``fields`` (none when it does not exist yet)."""
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
    if rows and not set(fields) <= set(rows[0]):
        raise ParamError(f"{path}: not a bench history (its columns are not menhir's)")
    return rows


def append_history(path, row: dict, fields=HISTORY_FIELDS) -> None:
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
            writer = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
            if not text:
                writer.writeheader()
            writer.writerow({k: row[k] for k in fields})
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
        self.start_path = start_history_path(path) if path else None
        self.earlier = read_history(path) if path else []
        self.earlier_starts = read_history(self.start_path, START_FIELDS) if path else []
        self.commit = current_commit(path) if path else ""
        self.date = time.strftime("%Y-%m-%d %H:%M", time.gmtime())

    def record_start(self, game: str, bot: str, metric: str, seconds: float) -> None:
        """Append a start figure to the start history (nothing without a history)."""
        if self.start_path:
            row = dict(
                date=self.date, commit=self.commit, game=game, bot=bot, metric=metric,
                seconds=round(seconds, 2),
            )  # fmt: skip
            append_history(self.start_path, row, START_FIELDS)

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


# ---------------------------------------------------------------------------------------------
# Floors: each figure against its floor and its best (issue 42, item 5)

HISTORY_METRIC = "games_per_s"  # the one metric history.csv keeps (its games_per_s column)
DIRECTIONS = ("at least", "at most")
FLOOR_KEYS = ("game", "bot", "players", "jobs", "metric", "floor")
ANY = "*"


@dataclass(frozen=True)
class Figure:
    """One measured figure and its key; ``-`` where a key does not apply (a cold compile)."""

    game: str
    bot: str
    players: str
    jobs: str
    metric: str
    value: float


@dataclass(frozen=True)
class Floor:
    """A floor (or, for an "at most" metric, a ceiling) of the figures its key matches."""

    game: str
    bot: str
    players: str
    jobs: str
    metric: str
    floor: float
    direction: str  # "at least" | "at most"

    def matches(self, fig: Figure) -> bool:
        keys = ("game", "bot", "players", "jobs")
        same = all(getattr(self, k) in (ANY, getattr(fig, k)) for k in keys)
        return same and self.metric == fig.metric

    def named(self) -> int:
        """How many of game, bot, players and jobs it names (not ``*``): the most wins."""
        return sum(getattr(self, k) != ANY for k in ("game", "bot", "players", "jobs"))

    def passes(self, value: float) -> bool:
        return value >= self.floor if self.direction == "at least" else value <= self.floor

    def shown(self) -> str:
        return f"{'>=' if self.direction == 'at least' else '<='} {self.floor:g}"


def _number(x: float) -> str:
    return f"{x:.0f}" if abs(x) >= 100 else f"{x:.1f}"


def read_floors(path) -> list[Floor]:
    """The floors of a TOML file (see benchmarks/floors.toml); a bad one is a one-line error."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ParamError(f"{path}: cannot read the bench floors ({exc.strerror})") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ParamError(f"{path}: not a TOML file ({str(exc).splitlines()[0]})") from None
    unknown = sorted(set(raw) - {"metrics", "floor"})
    if unknown:
        raise ParamError(f"{path}: unknown table {unknown[0]!r}; allowed: metrics, floor")
    metrics = raw.get("metrics", {})
    if not isinstance(metrics, dict) or not metrics:
        raise ParamError(f"{path}: [metrics] must name each metric's direction (at least/most)")
    for name, way in metrics.items():
        if way not in DIRECTIONS:
            raise ParamError(f"{path}: metrics.{name} = {way!r}: one of 'at least', 'at most'")
    entries = raw.get("floor", [])
    if not isinstance(entries, list):
        raise ParamError(f"{path}: floor must be an array of tables ([[floor]])")
    floors, seen = [], set()
    for i, entry in enumerate(entries, 1):
        where = f"{path}: floor {i}"
        if not isinstance(entry, dict) or set(entry) != set(FLOOR_KEYS):
            got = sorted(entry) if isinstance(entry, dict) else entry
            raise ParamError(f"{where}: needs exactly the keys {', '.join(FLOOR_KEYS)} (got {got})")
        fields = {}
        for key in ("game", "bot", "metric"):
            if not isinstance(entry[key], str) or not entry[key]:
                raise ParamError(f"{where}: {key} = {entry[key]!r}: a name or '*'")
            fields[key] = entry[key]
        for key in ("players", "jobs"):
            v = entry[key]
            if v != ANY and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise ParamError(f"{where}: {key} = {v!r}: a positive integer or '*'")
            fields[key] = str(v)
        if fields["game"] != ANY and fields["game"] not in GAME_MODULES:
            raise ParamError(f"{where}: unknown game {fields['game']!r}")
        if fields["game"] != ANY and fields["bot"] != ANY:
            bots = [b.name for b in get_game(fields["game"]).bots]
            if fields["bot"] not in bots:
                raise ParamError(
                    f"{where}: {fields['game']} has no bot {fields['bot']!r} "
                    f"(its bots: {', '.join(bots)})"
                )
        if fields["metric"] not in metrics:
            raise ParamError(f"{where}: metric {fields['metric']!r} is not in [metrics]")
        value = entry["floor"]
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
            raise ParamError(f"{where}: floor = {value!r}: a positive number")
        key = tuple(fields[k] for k in ("game", "bot", "players", "jobs", "metric"))
        if key in seen:
            raise ParamError(f"{where}: a second floor for {', '.join(key)}")
        seen.add(key)
        floors.append(Floor(**fields, floor=float(value), direction=metrics[fields["metric"]]))
    return floors


def floor_for(floors: list[Floor], fig: Figure) -> Floor | None:
    """The floor of ``fig``: of those matching it, the one naming the most of its key."""
    matching = [f for f in floors if f.matches(fig)]
    return max(matching, key=Floor.named) if matching else None


def best_earlier(
    history: list[dict[str, str]], fig: Figure, starts: list[dict[str, str]] = ()
) -> tuple[float, dict[str, str]] | None:
    """``(value, row)`` of the best earlier figure of ``fig``'s kind: the highest games/s of
    its game, bot, players and jobs in ``history``, or the lowest start figure of its game, bot
    and metric in ``starts`` (None when there is none)."""
    if fig.metric == HISTORY_METRIC:
        same = [h for h in history if all(str(h[k]) == getattr(fig, k) for k in _KIND)]
        best = max(same, key=lambda h: float(h["games_per_s"]), default=None)
        return None if best is None else (float(best["games_per_s"]), best)
    kind = (fig.game, fig.bot, fig.metric)
    same = [h for h in starts if (h["game"], h["bot"], h["metric"]) == kind]
    best = min(same, key=lambda h: float(h["seconds"]), default=None)
    return None if best is None else (float(best["seconds"]), best)


def checklist(
    figures: list[Figure],
    floors: list[Floor],
    history: list[dict[str, str]],
    starts: list[dict[str, str]] = (),
):
    """The lines that print each figure against its floor and its best earlier figure (games/s
    from ``history``, start figures from ``starts``)."""
    head = ("game", "bot", "players", "jobs", "metric", "figure", "floor", "check", "best", "ratio")
    rows, below = [], 0
    for fig in figures:
        floor = floor_for(floors, fig)
        check = "-"
        if floor is not None:
            ok = floor.passes(fig.value)
            check = "pass" if ok else ("below" if floor.direction == "at least" else "over")
            below += not ok
        best = best_earlier(history, fig, starts)
        if best is None:
            shown_best, ratio = "-", "-"
        else:
            value, row = best
            day = str(row["date"]).split()[0].split("T")[0]
            shown_best = f"{_number(value)} ({day} {row['commit']})"
            ratio = f"x{fig.value / value:.2f}" if value else "-"
        rows.append(
            (fig.game, fig.bot, fig.players, fig.jobs, fig.metric, _number(fig.value),
             floor.shown() if floor else "-", check, shown_best, ratio)
        )  # fmt: skip
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
             for r in [head, *rows]]  # fmt: skip
    if floors:
        checked = sum(floor_for(floors, fig) is not None for fig in figures)
        lines.append(f"{below} of {checked} figures with a floor miss it")
    return lines


def bench_players(decl) -> int:
    return 4 if decl.min_players <= 4 <= decl.max_players else decl.max_players


def run_bench(
    games, jobs=None, seconds=3.0, out=None, bots=None, history=None, floors=None
) -> list[str]:
    """Print (and optionally append to ``out``) one line per game, bot level and job count;
    with ``history`` (a CSV path) also record each games/s figure there and compare it; with
    ``history`` or ``floors`` (a TOML path, read before anything is measured) end with the
    checklist of every figure against its floor and its best earlier figure."""
    jobs = jobs or os.cpu_count() or 1
    lines: list[str] = []
    limits = read_floors(floors) if floors else []
    record = History(history)
    figures: list[Figure] = []

    def emit(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    for game_id in games:
        decl = get_game(game_id)
        players = bench_players(decl)
        with tempfile.TemporaryDirectory() as cache:
            cold = start_time(game_id, cache)
            cached = start_time(game_id, cache)
        emit(f"{game_id} start: cold compile {cold:.1f} s, cached {cached:.2f} s (random, greedy)")
        for metric, seconds in (("cold_compile_s", cold), ("cached_start_s", cached)):
            figures.append(Figure(game_id, "greedy", "-", "1", metric, seconds))
            record.record_start(game_id, "greedy", metric, seconds)
        if any(b.name == "search" for b in decl.bots) and (bots is None or "search" in bots):
            with tempfile.TemporaryDirectory() as cache:
                cold = start_time(game_id, cache, "search", players)
            emit(f"{game_id} start: cold compile {cold:.1f} s (search)")
            figures.append(Figure(game_id, "search", "-", "1", "cold_compile_s", cold))
            record.record_start(game_id, "search", "cold_compile_s", cold)
        for bot in [b.name for b in decl.bots if bots is None or b.name in bots]:
            setup = make_setup(game_id, players, {}, bot)
            for j in sorted({1, jobs}):
                if j == 1:
                    n, elapsed = games_per_second(setup, seconds)
                    rate = n / elapsed
                else:
                    rate = parallel_rate(setup, seconds, j)
                versus = record.record(game_id, bot, players, j, rate)
                figures.append(Figure(game_id, bot, str(players), str(j), HISTORY_METRIC, rate))
                emit(f"{game_id} {players}p {bot} jobs={j}: {rate:.0f} games/s{versus}")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        emit(f"{game_id} peak memory (this process): {peak:.0f} MiB")
    if history or floors:
        emit(f"each figure against its floor ({floors or '-'}) and its best ({history or '-'}):")
        for line in checklist(figures, limits, record.earlier, record.earlier_starts):
            emit(line)
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        with open(out, "a") as fh:
            fh.write(f"# {time.strftime('%Y-%m-%d %H:%M')} menhir bench\n")
            fh.write("\n".join(lines) + "\n")
    return lines
