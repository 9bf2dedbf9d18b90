"""`menhir balance`: search the levers a designer allows to move for values that make the game fair.

A balance config is an ordinary experiment config plus a ``[balance]`` table::

    [balance]
    target = "roles"          # roles | leaders | seats | sides: whose win rates must be fair
    tolerance = 0.02          # each within +-0.02 of its fair share (1 / players), every variant
    budget_games = 3000000    # games the search may play (the confirmation run apart)
    [balance.levers]          # [low, high] (integers stay integers) or a list of choices
    "roles.trusted.rp_as_vp" = [1, 6]
    "roles.strongest.carrying" = [[0, 14, 24, 37, 53], [0, 10, 20, 30, 45]]

How it searches. optuna's TPE sampler proposes lever values through its ask-and-tell interface
(seeded: the same config gives the same trials); a setting it proposes again is not replayed
(the trial records its earlier result with no games), and the search ends once every setting
of integer and choice levers has been tried. The values the data file prints are the first
trial, so "before" is measured on the same footing. Each trial plays every variant of the config
(its player counts and other sweeps) on the experiment's seed and game indices 0, 1, 2, ...:
common random numbers, so candidates are compared on the same deals. A trial is raced: it
plays ``min_games`` per variant, then doubles while it can still matter, up to ``max_games``;
it stops early once its objective's interval shows it is clearly worse than the best trial so
far (its lower bound above the best's upper bound) or clearly meets the target. The objective is
the worst absolute deviation of a targeted win rate from its fair share (the sum of squares is
recorded too); its interval comes from each rate's Wilson 95% interval.

The recommendation is the trial that meets the tolerance with the fewest and smallest changes
from the printed values or, when none does, the smallest objective. It is then confirmed by an
ordinary run on fresh seeds the search never used (no winner's curse), and the verdict is one
of "target met" (every interval inside the tolerance), "target met within noise" (every rate
inside, some interval not) or "target not reachable with these levers; best found ...".
"""

from __future__ import annotations

import copy
import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from experiments.config import ConfigError, UserError, fail, parse_config, read_toml
from experiments.sweep import Variant, expand
from sim.core.gamedata import DataError, get_value
from sim.core.registry import GAME_MODULES

TARGETS = ("roles", "leaders", "seats", "sides")
BALANCE_KEYS = (
    "target",
    "tolerance",
    "budget_games",
    "levers",
    "min_games",
    "max_games",
    "max_trials",
    "confirm_games",
)
TRIALS = "trials.parquet"
STATE = "balance.json"
CONFIRM = "confirm"


@dataclass(frozen=True)
class Lever:
    """One lever: a declared parameter or a data path, a range or a list of choices."""

    name: str
    section: str  # "params" | "data"
    printed: Any  # the value the rules give
    low: float | None = None
    high: float | None = None
    integer: bool = False
    choices: tuple = ()

    def distribution(self):
        import optuna.distributions as d

        if self.choices:
            return d.CategoricalDistribution(list(range(len(self.choices))))
        if self.integer:
            return d.IntDistribution(int(self.low), int(self.high))
        return d.FloatDistribution(float(self.low), float(self.high))

    def value(self, suggested) -> Any:
        return self.choices[suggested] if self.choices else suggested

    def suggestion(self, value) -> Any | None:
        """The optuna value of a lever value, or None when it is outside the lever."""
        if self.choices:
            return self.choices.index(value) if value in self.choices else None
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return value if self.low <= value <= self.high else None

    def change(self, value) -> float:
        """How far a value is from the printed one: 0 unchanged, up to 1 (a whole range)."""
        if value == self.printed:
            return 0.0
        if self.choices or not isinstance(self.printed, int | float):
            return 1.0
        return min(1.0, abs(value - self.printed) / max(self.high - self.low, 1e-12))


@dataclass(frozen=True)
class BalanceConfig:
    source: str
    raw: dict  # the whole config file as parsed
    base: dict  # the config without its [balance] table
    target: str
    tolerance: float
    budget_games: int
    levers: tuple[Lever, ...]
    min_games: int
    max_games: int
    max_trials: int
    confirm_games: int
    seed: int
    game: str


def load_balance(config: str | Path | dict) -> BalanceConfig:
    """Read and check a balance config; every problem is a one-line ConfigError."""
    if isinstance(config, dict):
        source, raw, stem = "<config>", copy.deepcopy(config), None
    else:
        source, raw, stem = str(config), read_toml(config), Path(config).stem
    table = raw.get("balance")
    if not isinstance(table, dict):
        raise fail(source, "balance", "missing: a [balance] table with target, tolerance, levers")
    base = {k: v for k, v in raw.items() if k != "balance"}
    cfg = parse_config(base, source, default_name=stem)
    for key in table:
        if key not in BALANCE_KEYS:
            raise fail(source, f"balance.{key}", f"unknown key; allowed: {', '.join(BALANCE_KEYS)}")
    decl = cfg.decl
    target = table.get("target", "roles")
    if target not in TARGETS:
        raise fail(
            source, "balance.target", f"{target!r} is not allowed: one of {', '.join(TARGETS)}"
        )
    if target in ("roles", "leaders") and not decl.roles:
        raise fail(source, "balance.target", f"{cfg.game} has no {decl.role_label}s; use seats")
    if target == "sides" and not decl.has_sides:
        raise fail(source, "balance.target", f"{cfg.game} has no sides; use roles or seats")
    players = cfg.players if isinstance(cfg.players, tuple) else (cfg.players,)
    if min(players) < 2:
        raise fail(source, "players", "balance needs 2 or more players (a fair share)")
    tolerance = _number(source, "tolerance", table.get("tolerance", 0.02), 1e-4, 0.5)
    budget = _int(source, "budget_games", table.get("budget_games", 3_000_000), 1, 10**10)
    min_games = _int(source, "min_games", table.get("min_games", 1000), 10, 10**8)
    max_games = _int(source, "max_games", table.get("max_games", 16 * min_games), min_games, 10**9)
    max_trials = _int(source, "max_trials", table.get("max_trials", 40), 1, 10_000)
    confirm = _int(source, "confirm_games", table.get("confirm_games", cfg.games), 10, 10**9)
    levers = _levers(source, cfg, table.get("levers"))
    return BalanceConfig(
        source, raw, base, target, tolerance, budget, levers, min_games, max_games, max_trials,
        confirm, cfg.seed, cfg.game,
    )  # fmt: skip


def _number(source, key, value, low, high) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise fail(
            source, f"balance.{key}", f"{value!r} is not allowed: a number in [{low}, {high}]"
        )
    return float(value)


def _int(source, key, value, low, high) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise fail(
            source, f"balance.{key}", f"{value!r} is not allowed: an integer in [{low}, {high}]"
        )
    return value


def _levers(source: str, cfg, table) -> tuple[Lever, ...]:
    if not isinstance(table, dict) or not table:
        raise fail(source, "balance.levers", "a table of levers: name = [low, high] or choices")
    decl = cfg.decl
    players = cfg.players[0] if isinstance(cfg.players, tuple) else cfg.players
    out = []
    for name, spec in table.items():
        where = f"balance.levers.{name}"
        if name in cfg.params or name in cfg.data:
            raise fail(source, where, "also set in the config; a lever is set by the search only")
        if name in decl.params.names():
            section, printed = "params", decl.params.get(name).default_for(players)
        elif decl.data is not None and "." in name:
            try:
                printed = get_value(decl.data.read(), name)
            except DataError as exc:
                raise fail(source, where, str(exc)) from None
            section = "data"
        else:
            raise fail(source, where, f"not a parameter of {cfg.game} nor a data path")
        if not isinstance(spec, list) or not spec:
            raise fail(source, where, "[low, high] or a list of choices")
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in spec)
        if len(spec) == 2 and numbers and not isinstance(printed, list):
            low, high = spec
            if not low < high or not all(math.isfinite(v) for v in spec):
                raise fail(source, where, f"[low, high] with low < high, got {spec}")
            integer = isinstance(low, int) and isinstance(high, int)
            out.append(Lever(name, section, printed, low, high, integer))
        else:
            if len({json.dumps(v) for v in spec}) != len(spec):
                raise fail(source, where, "each choice once")
            out.append(Lever(name, section, printed, choices=tuple(spec)))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Playing a trial


def trial_variants(bc: BalanceConfig, values: dict[str, Any], seed: int | None = None):
    """The config's variants with the lever values set (a bad value is a DataError/ConfigError)."""
    raw = copy.deepcopy(bc.base)
    for lever in bc.levers:
        raw.setdefault(lever.section, {})[lever.name] = values[lever.name]
    if seed is not None:
        raw["seed"] = seed
    return raw, expand(parse_config(raw, bc.source, default_name="balance"))


def group_column(target: str) -> str:
    return {"roles": "role", "leaders": "role", "seats": "seat", "sides": "side"}[target]


def play_counts(game_entry, setup, first: int, n: int, seed: int, key: int, column: str):
    """Win shares and seat counts per targeted group over games first..first+n-1 (a worker)."""
    from sim.core.batch import play_batch

    game_id, module = game_entry
    GAME_MODULES.setdefault(game_id, module)
    _, players = play_batch(setup, np.arange(first, first + n), seed, key)
    agg = (
        players.filter(pl.col(column).is_not_null())
        .group_by(column)
        .agg(pl.col("win").sum().alias("wins"), pl.len().alias("n"))
    )
    return {str(g): (float(w), int(c)) for g, w, c in agg.iter_rows()}


@dataclass
class TrialScore:
    """A trial's measured objective with its interval, from per-group counts of each variant."""

    games: int  # per variant
    objective: float
    low: float
    high: float
    sumsq: float
    rates: dict  # "variant/group" -> (rate, low, high)


def score_counts(counts: list[tuple[Variant, dict]], games: int) -> TrialScore:
    worst, worst_lo, worst_hi, sumsq, rates = 0.0, 0.0, 0.0, 0.0, {}
    for variant, groups in counts:
        fair = 1.0 / variant.setup.players
        for group, (wins, n) in sorted(groups.items()):
            if n == 0:
                continue
            rate = wins / n
            lo, hi = wilson(wins, n)
            dev = abs(rate - fair)
            dev_hi = max(abs(lo - fair), abs(hi - fair))
            dev_lo = 0.0 if lo <= fair <= hi else min(abs(lo - fair), abs(hi - fair))
            worst, worst_hi = max(worst, dev), max(worst_hi, dev_hi)
            worst_lo = max(worst_lo, dev_lo)
            sumsq += dev * dev
            rates[f"{variant.id}/{group}"] = (rate, lo, hi)
    return TrialScore(games, worst, worst_lo, worst_hi, sumsq, rates)


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The Wilson 95% interval of the reports (reports.stats.wilson) for one rate."""
    from reports.stats import wilson as wilson_arrays

    lo, hi = wilson_arrays(wins, n)
    return float(lo[0]), float(hi[0])


class Evaluator:
    """Plays trials in chunks on a backend; keeps per-variant counts so a trial can grow."""

    def __init__(self, bc: BalanceConfig, executor, chunk: int):
        self.bc, self.executor, self.chunk = bc, executor, chunk
        self.column = group_column(bc.target)

    def grow(self, variants, counts, start: int, stop: int) -> None:
        """Add games start..stop-1 of every variant to ``counts`` (variant index -> groups)."""
        entry = (self.bc.game, GAME_MODULES[self.bc.game])
        pending = []
        for i, v in enumerate(variants):
            for first in range(start, stop, self.chunk):
                n = min(self.chunk, stop - first)
                args = (entry, v.setup, first, n, self.bc.seed, v.variant_key, self.column)
                pending.append((i, self.executor.submit(play_counts, *args)))
        for i, future in pending:
            for group, (w, n) in self.executor.result(future).items():
                old = counts[i].get(group, (0.0, 0))
                counts[i][group] = (old[0] + w, old[1] + n)


# ---------------------------------------------------------------------------------------------
# The search


def _rungs(bc: BalanceConfig) -> list[int]:
    rungs, n = [], bc.min_games
    while n < bc.max_games:
        rungs.append(n)
        n *= 2
    return [*rungs, bc.max_games]


def _study(bc: BalanceConfig):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=bc.seed % 2**32, n_startup_trials=6)
    return optuna.create_study(direction="minimize", sampler=sampler)


def _printed(bc: BalanceConfig) -> dict[str, Any] | None:
    values = {}
    for lever in bc.levers:
        suggestion = lever.suggestion(lever.printed)
        if suggestion is None:
            return None
        values[lever.name] = suggestion
    return values


def search(bc: BalanceConfig, out: Path, executor, progress=None) -> pl.DataFrame:
    """Run (or continue) the search; return the trials table (one row per trial)."""
    study = _study(bc)
    dists = {lever.name: lever.distribution() for lever in bc.levers}
    printed = _printed(bc)
    if printed is not None:
        study.enqueue_trial(printed)
    done = _read_trials(out)
    rows = list(done.iter_rows(named=True)) if done is not None else []
    for row in rows:  # replay: the seeded sampler proposes the same values again
        trial = study.ask(dists)
        if json.dumps(trial.params, sort_keys=True) != row["suggested"]:
            raise UserError(
                f"{out / TRIALS}: the search no longer replays (code or config changed)"
            )
        study.tell(trial, row["objective"])
    spent = sum(r["games_total"] for r in rows)
    evaluator = Evaluator(bc, executor, chunk=max(100, bc.min_games // 4))
    seen = {r["values"]: r for r in rows if r.get("repeat_of") is None}
    size = space_size(bc)
    while len(rows) < bc.max_trials and spent < bc.budget_games and len(seen) < size:
        if rows and _settled(bc, rows):
            break
        trial = study.ask(dists)
        values = {lv.name: lv.value(trial.params[lv.name]) for lv in bc.levers}
        key = json.dumps(values)
        if key in seen:  # the sampler came back to a tried value: its result, no new games
            row, games = dict(seen[key]) | {"repeat_of": seen[key]["trial"], "games_total": 0}, 0
        else:
            row, games = _evaluate(bc, evaluator, values, bc.budget_games - spent)
            row["repeat_of"] = None
        row |= {"trial": len(rows), "suggested": json.dumps(trial.params, sort_keys=True)}
        seen.setdefault(key, row)
        spent += games
        row["games_spent"] = spent
        study.tell(trial, row["objective"])
        rows.append(row)
        _write_trials(out, rows)
        if progress is not None:
            progress(len(rows), spent, min(r["objective"] for r in rows))
    return _frame(rows)


def space_size(bc: BalanceConfig) -> float:
    """How many distinct lever settings exist (infinite with a float lever)."""
    size = 1.0
    for lever in bc.levers:
        if lever.choices:
            size *= len(lever.choices)
        elif lever.integer:
            size *= int(lever.high) - int(lever.low) + 1
        else:
            return math.inf
    return size


def _settled(bc: BalanceConfig, rows: list[dict]) -> bool:
    """Stop once a candidate clearly meets the target and the sampler has looked around."""
    met = [r for r in rows if r["objective_high"] <= bc.tolerance]
    return bool(met) and len(rows) >= min(bc.max_trials, 12)


def _evaluate(bc, evaluator, values, budget_left) -> tuple[dict, int]:
    row = {"values": json.dumps(values), "feasible": True, "pruned": False}
    row |= {f"lever:{k}": json.dumps(v) for k, v in values.items()}
    try:
        _, variants = trial_variants(bc, values)
    except (ConfigError, DataError) as exc:
        row |= {"feasible": False, "error": str(exc), "games": 0, "games_total": 0}
        return row | _score_fields(None, bc), 0
    counts: list[dict] = [{} for _ in variants]
    played, score = 0, None
    for n in _rungs(bc):
        if (n - played) * len(variants) > budget_left and score is not None:
            break
        evaluator.grow(variants, counts, played, n)
        budget_left -= (n - played) * len(variants)
        played = n
        score = score_counts(list(zip(variants, counts, strict=True)), played)
        if score.low > bc.tolerance:  # clearly misses the target: more games would not help
            row["pruned"] = n < bc.max_games
            break
        if score.high <= bc.tolerance:  # clearly meets it
            break
    row |= {"games": played, "games_total": played * len(variants), "error": None}
    row["rates"] = json.dumps(score.rates)
    return row | _score_fields(score, bc), played * len(variants)


def _score_fields(score: TrialScore | None, bc: BalanceConfig) -> dict:
    if score is None:
        return {"objective": 1.0, "objective_low": 1.0, "objective_high": 1.0, "sumsq": None,
                "rates": "{}"}  # fmt: skip
    return {
        "objective": score.objective,
        "objective_low": score.low,
        "objective_high": score.high,
        "sumsq": score.sumsq,
    }


def _frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows, infer_schema_length=None)


def _write_trials(out: Path, rows: list[dict]) -> None:
    tmp = out / f".{TRIALS}.tmp"
    _frame(rows).write_parquet(tmp)
    os.replace(tmp, out / TRIALS)


def _read_trials(out: Path) -> pl.DataFrame | None:
    path = out / TRIALS
    if not path.exists():
        return None
    try:
        return pl.read_parquet(path)
    except Exception:
        raise UserError(f"{path}: corrupt trials table; start a new --out") from None


def recommend(bc: BalanceConfig, trials: pl.DataFrame) -> dict:
    """The trial to confirm: meets the tolerance with the fewest and smallest changes, else best."""
    rows = [r for r in trials.iter_rows(named=True) if r["feasible"] and r.get("repeat_of") is None]
    if not rows:
        raise UserError(f"{bc.source}: no lever values the search tried were allowed by the game")

    def changes(row):
        values = json.loads(row["values"])
        moved = [lv.change(values[lv.name]) for lv in bc.levers]
        return (sum(m > 0 for m in moved), sum(moved))

    met = [r for r in rows if r["objective"] <= bc.tolerance and not r["pruned"]]
    if met:
        return min(met, key=lambda r: (*changes(r), r["objective"], r["trial"]))
    return min(rows, key=lambda r: (r["objective"], *changes(r), r["trial"]))


def confirm_seed(seed: int) -> int:
    """A root seed the search never used (SplitMix64 step of the experiment seed)."""
    z = (seed + 0x9E3779B97F4A7C15) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    return (z ^ (z >> 31)) % 2**63


def confirmation_rates(bc: BalanceConfig, run_dir: Path) -> dict:
    """Every targeted win rate of the confirmation run, with its Wilson interval."""
    column = group_column(bc.target)
    players = pl.scan_parquet(run_dir / "players" / "**" / "*.parquet")
    agg = (
        players.filter(pl.col(column).is_not_null())
        .group_by("variant", column)
        .agg(pl.col("win").sum().alias("wins"), pl.len().alias("n"), pl.first("game").alias("_"))
        .collect()
    )
    manifest = json.loads((run_dir / "manifest.json").read_text())
    seats = {v["id"]: v["setup"]["players"] for v in manifest["variants"]}
    labels = {v["id"]: v["label"] for v in manifest["variants"]}
    out = {}
    for variant, group, wins, n, _ in sorted(agg.iter_rows(), key=lambda r: (r[0], str(r[1]))):
        lo, hi = wilson(wins, n)
        who = str(group) if len(seats) == 1 else f"{group} ({labels[variant]})"
        out[who] = {"rate": wins / n, "low": lo, "high": hi, "fair": 1 / seats[variant], "n": n}
    return out


def verdict(bc: BalanceConfig, rates: dict, values: dict) -> str:
    tol = bc.tolerance
    inside = all(abs(r["rate"] - r["fair"]) <= tol for r in rates.values())
    sure = all(r["fair"] - tol <= r["low"] and r["high"] <= r["fair"] + tol for r in rates.values())
    if sure:
        return "target met"
    if inside:
        return "target met within noise"
    worst = max(rates.items(), key=lambda kv: abs(kv[1]["rate"] - kv[1]["fair"]))
    shown = ", ".join(f"{k} = {json.dumps(v)}" for k, v in values.items())
    return (
        "target not reachable with these levers; best found "
        f"{shown}: {worst[0]} wins {worst[1]['rate']:.1%} [{worst[1]['low']:.1%}, "
        f"{worst[1]['high']:.1%}] against a fair {worst[1]['fair']:.0%}"
    )


def balance(
    config,
    out=None,
    *,
    jobs: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    resume: bool = False,
    progress: bool | None = None,
) -> Path:
    """Search, confirm and report; return the balance directory (holds recommendation.json)."""
    from experiments.backends import make_backend
    from experiments.progress import Progress
    from experiments.runner import run as run_experiment

    bc = load_balance(config)
    out = Path(out) if out is not None else Path("runs") / f"{bc.base.get('name') or 'balance'}"
    _prepare(bc, out, resume)
    start = time.perf_counter()
    bar = Progress(bc.budget_games, 0, enabled=progress)
    last = [0]

    def tick(trials, spent, best):
        bar.advance(spent - last[0])
        last[0] = spent
        bar.note(f"trial {trials}, best imbalance {best:.3f}")
        if bar.bar is None:
            bar.line(f"trial {trials}: {spent:,} games, best imbalance {best:.3f}")

    try:
        with make_backend(backend, jobs, scheduler) as executor:
            trials = search(bc, out, executor, tick)
    finally:
        bar.close()
    best = recommend(bc, trials)
    values = json.loads(best["values"])
    raw, _ = trial_variants(bc, values, seed=confirm_seed(bc.seed))
    raw["games"] = bc.confirm_games
    raw["name"] = f"{raw.get('name', 'balance')}-confirm"
    raw.pop("target_ci", None)
    confirm_dir = out / CONFIRM
    if bc.source != "<config>":  # variant data files stay relative to the config
        raw = _absolute_files(raw, Path(bc.source).parent)
    run_experiment(
        raw, confirm_dir, jobs=jobs, backend=backend, scheduler=scheduler,
        resume=confirm_dir.exists(), progress=progress,
    )  # fmt: skip
    rates = confirmation_rates(bc, confirm_dir)
    spent = int(trials["games_total"].sum())
    rec = {
        "verdict": verdict(bc, rates, values),
        "levers": values,
        "printed": {lv.name: lv.printed for lv in bc.levers},
        "win_rates": {k: {f: v[f] for f in ("rate", "low", "high")} for k, v in rates.items()},
        "fair": {k: v["fair"] for k, v in rates.items()},
        "tolerance": bc.tolerance,
        "target": bc.target,
        "games": spent,
        "confirmation_games": bc.confirm_games,
        "trials": trials.height,
        "seconds": round(time.perf_counter() - start, 1),
    }
    _write_json(out / "recommendation.json", rec)
    state = json.loads((out / STATE).read_text())
    _write_json(out / STATE, state | {"status": "complete"})
    from reports.balance_report import write_balance_report

    write_balance_report(bc, out, trials, rec)
    return out


def _absolute_files(raw: dict, base: Path) -> dict:
    table = raw.get("data")

    def absolute(v):
        return [absolute(x) for x in v] if isinstance(v, list) else str((base / v).resolve())

    if isinstance(table, str | list):
        raw["data"] = absolute(table)
    elif isinstance(table, dict):
        for key in ("file", "data"):
            if key in table:
                table[key] = absolute(table[key])
    return raw


def _prepare(bc: BalanceConfig, out: Path, resume: bool) -> None:
    state_path = out / STATE
    if resume:
        if not state_path.is_file():
            raise UserError(f"{out}: no balance search to resume (no {STATE})")
        state = json.loads(state_path.read_text())
        if state.get("config") != json.loads(json.dumps(bc.raw)):
            raise UserError(f"{bc.source}: differs from the config of the search in {out}")
        return
    if out.exists():
        raise UserError(f"{out}: exists; choose another --out, or --resume a killed search")
    tmp = out.with_name(f".{out.name}.partial")
    tmp.mkdir(parents=True, exist_ok=True)
    _write_json(tmp / STATE, {"config": bc.raw, "source": bc.source, "status": "running"})
    os.replace(tmp, out)


def _write_json(path: Path, value: dict) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(value, indent=2, default=str) + "\n")
    os.replace(tmp, path)
