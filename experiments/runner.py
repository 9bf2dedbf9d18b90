"""The experiment runner: plays every variant's games in chunks and streams them to the store.

Game *i* of a variant always draws from ``derive_game_seeds(seed, variant_key, i)``, so how the
games are chunked, how many processes play them, on which backend, and whether the run was
resumed never changes a row. The chunk plan (``chunk_games``) depends on the config alone.

Workers play a chunk and return its two tables as parquet bytes plus small win counters; only
this process writes files and the manifest (so a Dask worker needs no shared disk). A variant
with ``target_ci`` is processed strictly in game order and stops at the first chunk after which
every seat's and role's win-rate 95% Wilson half-width is at most the target; chunks played
beyond that point (speculatively, in parallel) are discarded unwritten.
"""

from __future__ import annotations

import importlib.metadata
import io
import json
import math
import os
import platform
import resource
import subprocess
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from experiments.backends import guard_worker, make_backend
from experiments.compile_notice import compile_notice
from experiments.config import MAX_VARIANTS, ExperimentConfig, UserError, load_config, read_toml
from experiments.interrupts import Terminated
from experiments.progress import Clock, Progress
from experiments.store import RunStore, read_manifest
from experiments.sweep import Variant, expand, setup_description
from sim.core.registry import GAME_MODULES, Setup

Z95 = 1.959963984540054


# ---------------------------------------------------------------------------------------------
# Worker side


@dataclass
class ChunkOutput:
    """What a worker sends back for one chunk: parquet bytes and win counters."""

    first: int
    n: int
    games: bytes
    players: bytes
    seat_win: np.ndarray  # (P,) sum of win shares by seat
    role_win: np.ndarray  # (R,) sum of win shares by role
    role_n: np.ndarray  # (R,) seats that held each role
    seconds: float
    pid: int
    peak_rss_mib: float


def _lit(name: str, value: Any) -> pl.Expr:
    dtype = {bool: pl.Boolean, int: pl.Int64, float: pl.Float64, str: pl.String}[type(value)]
    return pl.lit(value, dtype=dtype).alias(name)


def _parquet(frame: pl.DataFrame) -> bytes:
    buf = io.BytesIO()
    frame.write_parquet(buf, compression="zstd", statistics=True)
    return buf.getvalue()


def play_chunk(
    game_entry: tuple[str, str],
    setup: Setup,
    variant_id: str,
    columns: dict[str, Any],
    first: int,
    n: int,
    root_seed: int,
    variant_key: int,
    parent: int | None = None,
) -> ChunkOutput:
    """Play games ``first .. first + n - 1`` of one variant (runs in a worker process).

    ``parent`` is the runner's pid: a local worker dies with it (see ``guard_worker``).
    """
    from sim.core.batch import play_batch

    guard_worker(parent)
    game_id, module = game_entry
    GAME_MODULES[game_id] = module  # the parent's registration wins (a reused worker)
    start = time.perf_counter()
    games, players = play_batch(setup, np.arange(first, first + n), root_seed, variant_key)
    variant = _lit("variant", variant_id)
    games = games.select(variant, pl.all(), *(_lit(k, v) for k, v in columns.items()))
    players = players.select(variant, pl.all())
    roles = setup.decl.roles
    seat = players["seat"].to_numpy().astype(np.int64)
    win = players["win"].to_numpy()
    role_win = np.zeros(len(roles))
    role_n = np.zeros(len(roles), np.int64)
    if roles:
        index = players["role"].replace_strict(
            list(roles), list(range(len(roles))), default=-1, return_dtype=pl.Int64
        )
        held = index.to_numpy() >= 0
        role_win = np.bincount(index.to_numpy()[held], win[held], minlength=len(roles))
        role_n = np.bincount(index.to_numpy()[held], minlength=len(roles))
    return ChunkOutput(
        first=first,
        n=n,
        games=_parquet(games),
        players=_parquet(players),
        seat_win=np.bincount(seat, win, minlength=setup.players),
        role_win=role_win,
        role_n=role_n,
        seconds=time.perf_counter() - start,
        pid=os.getpid(),
        peak_rss_mib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    )


# ---------------------------------------------------------------------------------------------
# Precision target


def wilson_halfwidth(wins: np.ndarray, n: np.ndarray, z: float = Z95) -> np.ndarray:
    """Half-width of the Wilson score interval of ``wins / n`` (inf where n = 0)."""
    wins = np.asarray(wins, float)
    n = np.asarray(n, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.clip(wins / n, 0.0, 1.0)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return np.where(n > 0, half, np.inf)


@dataclass
class WinCounters:
    """Running win-share sums by seat and role of one variant's games so far."""

    seat_win: np.ndarray
    role_win: np.ndarray
    role_n: np.ndarray
    games: int = 0

    @classmethod
    def empty(cls, players: int, roles: int) -> WinCounters:
        return cls(np.zeros(players), np.zeros(roles), np.zeros(roles, np.int64))

    def add(self, seat_win, role_win, role_n, games: int) -> None:
        self.seat_win += seat_win
        self.role_win += role_win
        self.role_n += role_n
        self.games += games

    def max_halfwidth(self) -> float:
        """Widest interval among seats and the roles that were dealt at all."""
        seats = wilson_halfwidth(self.seat_win, np.full(self.seat_win.shape, self.games))
        dealt = self.role_n > 0
        roles = wilson_halfwidth(self.role_win[dealt], self.role_n[dealt])
        return float(max(seats.max(initial=0.0), roles.max(initial=0.0)))


# ---------------------------------------------------------------------------------------------
# Parent side


def default_chunk_games(games: int, target_ci: float | None) -> int:
    """Games per chunk from the config alone: a few files per variant, bounded chunk memory."""
    if target_ci is None:
        return min(50_000, max(100, math.ceil(games / 8)))
    return min(20_000, max(500, math.ceil(games / 32)))


def chunk_plan(games: int, chunk: int, done=()) -> list[tuple[int, int]]:
    """Chunks of games ``0 .. games - 1``: cut at every multiple of ``chunk`` and around the
    chunks already ``done`` (a run grown from a count that is not a multiple of ``chunk`` has a
    short chunk there). A fresh run and a grown one so check a target_ci at the same counts.
    """
    cuts = set(range(0, games, chunk)) | {games}
    for first, n in done:
        cuts |= {first, first + n}
    cuts = sorted(c for c in cuts if c <= games)
    return [(a, b - a) for a, b in zip(cuts, cuts[1:], strict=False)]


def _commit() -> str | None:
    repo = Path(__file__).resolve().parent.parent
    try:
        out = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def provenance() -> dict[str, Any]:
    import numba

    return {
        "menhir_version": _version("menhir"),
        "commit": _commit(),
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "numba": numba.__version__,
            "polars": pl.__version__,
        },
    }


def new_manifest(
    cfg: ExperimentConfig, variants: list[Variant], chunk: int, config_path: str | None
) -> dict[str, Any]:
    decl = cfg.decl
    return {
        **provenance(),
        "name": cfg.name,
        "game": cfg.game,
        "game_version": decl.version,
        "config_path": config_path,
        "config": cfg.raw,
        "seed": cfg.seed,
        "paired": cfg.paired,
        "games_per_variant": cfg.games,
        "target_ci": cfg.target_ci,
        "chunk_games": chunk,
        "sweep_mode": cfg.mode,
        "swept": cfg.axes,
        "status": "running",
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "sessions": [],
        "variants": [
            {
                "id": v.id,
                "label": v.label,
                "setup": setup_description(v.setup),
                "swept": v.swept,
                "columns": sorted(v.columns),
                "variant_key": v.variant_key,
                "games_planned": cfg.games,
                "games_done": 0,
                "stop_reason": None,
                "max_halfwidth": None,
                "chunks": [],
            }
            for v in variants
        ],
    }


@dataclass
class VariantRun:
    """The parent's bookkeeping for one variant during a run."""

    variant: Variant
    entry: dict  # this variant's manifest entry (mutated, then saved)
    plan: list[tuple[int, int]]
    ordered: bool  # target_ci: chunks are taken in game order
    counters: WinCounters
    buffer: dict[int, ChunkOutput] = field(default_factory=dict)
    next_pos: int = 0
    clock: Clock = field(default_factory=Clock)

    @property
    def stopped(self) -> bool:
        return self.entry["stop_reason"] is not None

    def pending(self) -> list[tuple[int, int]]:
        done = {first for first, _ in self.entry["chunks"]}
        return [c for c in self.plan if c[0] not in done]


@dataclass
class RunReport:
    """What a run did: for the CLI's last line and for ``make bench``."""

    path: Path
    games_played: int = 0
    seconds: float = 0.0
    worker_peak_rss_mib: dict[int, float] = field(default_factory=dict)
    variants: list[dict] = field(default_factory=list)
    grown: tuple[int, int] | None = None  # (from, to) games per variant, when this run grew


class Runner:
    """Dispatches chunks to a backend, writes what comes back, and keeps the manifest current."""

    def __init__(self, store: RunStore, cfg: ExperimentConfig, variants: list[Variant], progress):
        self.store = store
        self.cfg = cfg
        self.progress = progress
        self.report = RunReport(store.root)
        n_roles = len(cfg.decl.roles)
        chunk = store.manifest["chunk_games"]
        by_id = {e["id"]: e for e in store.manifest["variants"]}
        self.runs = [
            VariantRun(
                variant=v,
                entry=by_id[v.id],
                plan=chunk_plan(cfg.games, chunk, [tuple(c) for c in by_id[v.id]["chunks"]]),
                ordered=cfg.target_ci is not None,
                counters=WinCounters.empty(v.setup.players, n_roles),
            )
            for v in variants
        ]
        self.entry = (cfg.game, GAME_MODULES[cfg.game])

    # -- resume ---------------------------------------------------------------------------

    def restore(self) -> None:
        """Rebuild win counters from the chunks already on disk (target_ci runs only)."""
        for run in self.runs:
            if not run.ordered or not run.entry["chunks"]:
                continue
            done = [tuple(c) for c in run.entry["chunks"]]
            if done != run.plan[: len(done)]:
                raise UserError(
                    f"{self.store.root / 'manifest.json'}: variant {run.variant.id} has chunks "
                    "out of game order, which a target_ci run never writes"
                )
            paths = self.store.chunk_paths("players", run.entry)
            table = pl.read_parquet(paths, columns=["seat", "role", "win"])
            roles = self.cfg.decl.roles
            seat = table["seat"].to_numpy().astype(np.int64)
            win = table["win"].to_numpy()
            role_win = np.zeros(len(roles))
            role_n = np.zeros(len(roles), np.int64)
            for j, role in enumerate(roles):
                held = (table["role"] == role).fill_null(False).to_numpy()
                role_win[j] = win[held].sum()
                role_n[j] = held.sum()
            run.counters.add(
                np.bincount(seat, win, minlength=run.variant.setup.players),
                role_win,
                role_n,
                run.entry["games_done"],
            )
            run.next_pos = len(done)
            self._check_target(run)
        self.store.save()

    # -- dispatch ---------------------------------------------------------------------------

    def tasks(self):
        """(run, first, n) of every chunk still to play, in variant then game order."""
        for run in self.runs:
            for first, n in run.pending():
                if run.stopped:
                    break
                yield run, first, n

    def execute(self, backend) -> RunReport:
        try:
            return self._execute(backend)
        finally:  # on any exit, Ctrl-C included: the chunks on disk are listed
            self.store.flush()

    def _execute(self, backend) -> RunReport:
        start = time.perf_counter()
        tasks = self.tasks()
        in_flight: dict[Any, tuple[VariantRun, int, int]] = {}
        exhausted = False
        while True:
            while not exhausted and len(in_flight) < backend.capacity:
                task = next(tasks, None)
                if task is None:
                    exhausted = True
                    break
                run, first, n = task
                run.clock.tick()
                future = backend.submit(
                    play_chunk,
                    self.entry,
                    run.variant.setup,
                    run.variant.id,
                    run.variant.columns,
                    first,
                    n,
                    self.cfg.seed,
                    run.variant.variant_key,
                    os.getpid(),
                )
                in_flight[future] = task
            if not in_flight:
                break
            for future in backend.wait_any(list(in_flight)):
                run, first, n = in_flight.pop(future)
                output = backend.result(future)
                self._receive(run, output)
        self.report.seconds = time.perf_counter() - start
        return self.report

    # -- results ----------------------------------------------------------------------------

    def _receive(self, run: VariantRun, out: ChunkOutput) -> None:
        pid_peak = self.report.worker_peak_rss_mib
        pid_peak[out.pid] = max(pid_peak.get(out.pid, 0.0), out.peak_rss_mib)
        if run.stopped:
            return  # played speculatively past a reached target: discarded
        if not run.ordered:
            self._commit_chunk(run, out)
            return
        run.buffer[out.first] = out
        while not run.stopped and run.next_pos < len(run.plan):
            first, _ = run.plan[run.next_pos]
            if first not in run.buffer:
                break
            chunk = run.buffer.pop(first)
            run.counters.add(chunk.seat_win, chunk.role_win, chunk.role_n, chunk.n)
            run.next_pos += 1
            self._commit_chunk(run, chunk, check_target=True)
        if run.stopped:
            run.buffer.clear()

    def _commit_chunk(self, run: VariantRun, out: ChunkOutput, check_target=False) -> None:
        """Files first, then the manifest entry that makes the chunk count."""
        self.store.write_chunk(run.variant.id, out.first, out.n, out.games, out.players)
        entry = run.entry
        entry["chunks"] = sorted([*entry["chunks"], [out.first, out.n]])
        entry["games_done"] += out.n
        if check_target:
            self._check_target(run)
        if entry["stop_reason"] is None and entry["games_done"] >= entry["games_planned"]:
            entry["stop_reason"] = "games"
        self.store.save(throttle=True)
        self.report.games_played += out.n
        self.progress.advance(out.n)
        if run.stopped:
            self._variant_done(run)

    def _check_target(self, run: VariantRun) -> None:
        if not run.ordered or run.counters.games == 0:
            return
        half = run.counters.max_halfwidth()
        run.entry["max_halfwidth"] = half
        if half <= self.cfg.target_ci and run.entry["stop_reason"] is None:
            run.entry["stop_reason"] = "target_ci"
            self.progress.shrink(run.entry["games_planned"] - run.entry["games_done"])

    def _variant_done(self, run: VariantRun) -> None:
        entry = run.entry
        elapsed = run.clock.elapsed()
        rate = f"{entry['games_done'] / elapsed:.0f} games/s" if elapsed > 0 else "resumed"
        half = entry.get("max_halfwidth")
        precision = f", max half-width {half:.4f}" if half is not None else ""
        from reports.axes import swept_words  # the report's words: 'v1 4 players, rp_as_vp 2'

        named = swept_words(entry["swept"]) if entry.get("swept") else entry["label"]
        self.progress.line(
            f"{entry['id']} {named}: {entry['games_done']} games, "
            f"{elapsed:.1f} s, {rate}, stop: {entry['stop_reason']}{precision}"
        )
        self.report.variants.append(dict(entry))


# ---------------------------------------------------------------------------------------------
# Entry points


def default_out(cfg: ExperimentConfig) -> Path:
    return Path("runs") / cfg.name


def _session(backend_name: str, jobs: int | None, scheduler: str | None, resumed: bool) -> dict:
    return {
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "backend": backend_name,
        "jobs": jobs,
        "scheduler": scheduler,
        "resumed": resumed,
        "commit": _commit(),
        "argv": sys.argv[1:],
    }


def _check_same_run(store: RunStore, cfg: ExperimentConfig, variants: list[Variant]) -> None:
    """A resumed run must continue exactly the experiment its manifest describes."""
    m = store.manifest
    where = f"{store.root / 'manifest.json'}"
    if m.get("config") != _jsonable(cfg.raw):
        key, was, now = _first_difference(m.get("config"), _jsonable(cfg.raw))
        raise UserError(
            f"{cfg.source}: key '{key}' differs from the config recorded in {where} "
            f"({_show(was)} there, {_show(now)} here); resume with the same config, "
            "or start a new --out"
        )
    if cfg.games < m["games_per_variant"]:
        raise UserError(
            f"--games {cfg.games}: the run in {store.root} already plans "
            f"{m['games_per_variant']} games per variant; a run can grow, not shrink "
            f"(give --games >= {m['games_per_variant']}, or start a new --out)"
        )
    version = cfg.decl.version
    if m.get("game_version") != version:
        raise UserError(
            f"{where}: made with {cfg.game} version {m.get('game_version')}, "
            f"this menhir has version {version}; results would mix, start a new --out"
        )
    stored = [(e["id"], e["setup"]) for e in m["variants"]]
    current = [(v.id, _jsonable(setup_description(v.setup))) for v in variants]
    for (vid, old), (_, new) in zip(stored, current, strict=False):
        if old.get("data_file") != new.get("data_file"):
            name = (new.get("data_file") or old.get("data_file") or {}).get("name")
            raise UserError(
                f"{where}: variant {vid}'s data file {name} changed since the run started "
                "(its SHA-256 differs); resume with the file it started with, or a new --out"
            )
    if stored != current:
        raise UserError(f"{where}: its variants no longer match what the config resolves to")


def _jsonable(value):
    return json.loads(json.dumps(value))


_MISSING = object()


def _first_difference(a, b, prefix: str = ""):
    """(dotted key, value in a, value in b) of the first difference of two configs."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            va, vb = a.get(key, _MISSING), b.get(key, _MISSING)
            if va != vb:
                return _first_difference(va, vb, f"{prefix}{key}.")
    return prefix.rstrip("."), a, b


def _show(value) -> str:
    return "missing" if value is _MISSING else json.dumps(value)


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C or SIGTERM, with what it leaves behind (for a one-line message).

    ``path`` is None when nothing was written; otherwise ``done`` of ``total`` games per the
    manifest are kept in ``path`` and ``--resume`` completes them.
    """

    def __init__(self, how: str, path: Path | None, done: int = 0, total: int = 0):
        super().__init__(how)
        self.how = how
        self.path = path
        self.done = done
        self.total = total


def run_experiment(
    config=None,
    out=None,
    *,
    jobs: int | None = None,
    games: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    resume: bool = False,
    progress: bool | None = None,
    max_variants: int = MAX_VARIANTS,
) -> RunReport:
    """Run (or with ``resume``, complete or grow) an experiment; return what it did.

    ``config`` is a path to a TOML file or an already parsed mapping (data, never executed);
    with ``resume`` it may be None to continue the run in ``out`` with its recorded config.
    ``resume`` with ``games`` larger than the run's count grows every variant to ``games``
    (the rows are those of a fresh run of ``games``); a smaller count is refused.
    A Ctrl-C or SIGTERM raises :class:`RunInterrupted` saying what was kept.
    """
    if backend not in ("local", "dask"):
        raise UserError(f"--backend {backend!r}: one of local, dask")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise UserError(f"--jobs {jobs!r}: a positive integer")
    if scheduler is not None and backend != "dask":
        raise UserError("--scheduler: only with --backend dask")
    if isinstance(max_variants, bool) or not isinstance(max_variants, int) or max_variants < 1:
        raise UserError(f"--max-variants {max_variants!r}: a positive integer")
    if resume and out is not None and not Path(out).is_dir():
        raise UserError(
            f"{out}: no run to resume (the folder does not exist); start it without --resume"
        )
    if config is None:
        if not (resume and out is not None):
            raise UserError("a config is needed (only --resume of an existing --out can omit it)")
        config = read_manifest(Path(out))["config"]
        data_dir = Path(out) / DATA_COPIES  # the run's own copies of its variant data files
    else:
        data_dir = None
    try:
        cfg = load_config(config, games=games, data_dir=data_dir, max_variants=max_variants)
        out = Path(out) if out is not None else default_out(cfg)
        if resume and not out.is_dir():
            raise UserError(
                f"{out}: no run to resume (the folder does not exist); start it without --resume"
            )
        if resume and games is None:  # continue with the count the run was started with
            cfg = cfg.with_games(read_manifest(out)["games_per_variant"])
        if not resume:
            RunStore.check_absent(out)
        variants = expand(cfg, max_variants)
        with compile_notice(cfg.game, [v.setup for v in variants], progress):
            probe(cfg, variants)
    except KeyboardInterrupt:
        raise RunInterrupted("interrupted", None) from None
    try:
        return _run(cfg, variants, out, config, jobs, backend, scheduler, resume, progress)
    except KeyboardInterrupt as exc:
        how = "terminated" if isinstance(exc, Terminated) else "interrupted"
        if isinstance(exc, RunInterrupted):
            raise
        raise _interrupted(how, out) from None


def _interrupted(how: str, out: Path) -> RunInterrupted:
    """What an interrupted run left in ``out``, read back from its manifest."""
    try:
        manifest = read_manifest(out)
    except UserError:
        return RunInterrupted(how, None)
    entries = manifest["variants"]
    done = sum(e["games_done"] for e in entries)
    total = sum(e["games_done"] if e["stop_reason"] else e["games_planned"] for e in entries)
    return RunInterrupted(how, out, done, total)


def _run(cfg, variants, out, config, jobs, backend, scheduler, resume, progress) -> RunReport:
    config_path = None if isinstance(config, dict) else str(config)
    if resume:  # refuse another experiment before touching anything, the lock file included
        unlocked = RunStore(out)
        unlocked.manifest = read_manifest(out)
        _check_same_run(unlocked, cfg, variants)
    store = RunStore.open(out) if resume else None
    try:
        notes = []
        if resume:
            _check_same_run(store, cfg, variants)
            # only what no manifest lists, or a listed chunk that does not read, is removed
            notes = store.tidy(ordered=cfg.target_ci is not None)
            grow = cfg.games > store.manifest["games_per_variant"]
            work_left = grow or any(e["stop_reason"] is None for e in store.manifest["variants"])
        else:
            work_left = True
        # the backend first: a scheduler that cannot be reached leaves nothing behind
        with make_backend(backend, jobs, scheduler) if work_left else nullcontext() as executor:
            grown = None
            if resume and grow:
                grown = (store.manifest["games_per_variant"], cfg.games)
                store.grow(cfg.games, time.strftime("%Y-%m-%dT%H:%M:%S%z"))
            if not resume:
                chunk = cfg.chunk_games or default_chunk_games(cfg.games, cfg.target_ci)
                manifest = new_manifest(cfg, variants, chunk, config_path)
                store = RunStore.create(out, manifest, files=data_file_copies(variants))
            store.manifest["sessions"].append(_session(backend, jobs, scheduler, resume))
            if notes:
                store.manifest["sessions"][-1]["replayed"] = notes
            store.manifest["status"] = "running"
            store.save()
            bar = Progress(*_progress_totals(store.manifest), enabled=progress)
            for note in notes:
                bar.line(f"menhir: {note}")
            runner = Runner(store, cfg, variants, bar)
            try:
                runner.restore()
                report = runner.execute(executor) if work_left else runner.report
                report.grown = grown
                store.finish()
            finally:
                bar.close()
        return report
    finally:
        if store is not None:
            store.close()


def _progress_totals(manifest: dict) -> tuple[int, int]:
    """(games planned, games already done or not needed) over all variants."""
    entries = manifest["variants"]
    total = sum(e["games_planned"] for e in entries)
    done = sum(e["games_planned"] if e["stop_reason"] else e["games_done"] for e in entries)
    return total, done


def probe(cfg: ExperimentConfig, variants: list[Variant]) -> None:
    """Play game 0 of each variant here, before anything is written.

    It catches a setup the game itself rejects (a ``ValueError`` from its data compiler) as a
    user error, and compiles the kernels once (or loads them from numba's cache) so that local
    workers load the cache instead of each compiling the same code at the same time.
    """
    from sim.core.batch import play_batch

    for v in variants:
        try:
            play_batch(v.setup, [0], cfg.seed, v.variant_key)
        except ValueError as exc:
            raise UserError(f"{cfg.source}: variant {v.id} ({v.label}): {exc}") from None


DATA_COPIES = "data"  # folder of a run directory holding copies of its variant data files


def data_file_copies(variants: list[Variant]) -> dict[str, str]:
    """{relative path: text} of every variant data file, copied into the run directory."""
    return {
        f"{DATA_COPIES}/{v.setup.data_file}": v.setup.data_text
        for v in variants
        if v.setup.data_text is not None
    }


def run(config=None, out=None, **options) -> Path:
    """Run an experiment and return its run directory (the notebook twin of ``menhir run``).

    Options: ``jobs``, ``games``, ``backend`` ("local" | "dask"), ``scheduler`` (a Dask
    address), ``resume``, ``progress``. Errors a user can fix raise :class:`UserError`.
    """
    return run_experiment(config, out, **options).path


__all__ = ["run", "run_experiment", "read_toml", "RunReport", "wilson_halfwidth"]
