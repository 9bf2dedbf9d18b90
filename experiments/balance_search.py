"""`menhir balance`: search the levers a designer allows to move for values that make the game fair.

A balance config is an ordinary experiment config plus a ``[balance]`` table::

    [balance]
    target = "roles"          # roles | leaders | seats | sides: whose win rates must be fair,
                              # one member ("roles.trusted", "seats.0"), or a scalar of the games
                              # table with a wanted value ("everybody_lost", "rounds",
                              # "score_margin"; value = 0.20)
    objective = "minmax"      # minmax (the worst deviation) | sumsq (the sum of squares)
    tolerance = 0.02          # each within +-0.02 of its fair share (1 / players), every variant
    confirm_bots = "search"   # optional: confirm the pick at another bot level too
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
common random numbers, so candidates are compared on the same deals. A trial is raced by
successive halving: its first rung is an eighth of ``min_games`` (at least 100 games per
variant), doubled while it can still matter, up to ``max_games``; it stops at any rung once its
intervals show it cannot meet the tolerance, or, while no trial meets it, that it is clearly
worse than the best trial so far (its objective's lower bound above the best's upper bound); it
stops as met once every targeted interval is inside the tolerance after ``min_games``. Repeats
of a setting play no games and never count against ``max_trials`` (distinct settings).

Counts are exact: a win shared by k players counts WIN_DENOM / k (an integer), scalars are
integer sums, and a rate is one division of integer totals, so the trials table is identical
for any job count, backend or resume. Ties between trials are broken by a total order:
objective, then the fewest and smallest lever changes, then the trial number.

The recommendation is the trial that meets the tolerance with the fewest and smallest changes
from the printed values or, when none does, the smallest objective. It is then confirmed by an
ordinary run on fresh seeds the search never used (no winner's curse), and the verdict is one
of "target met" (every interval inside the tolerance), "target met within noise" (every rate
inside, some interval not), "target not reachable: every setting tried" (a finite space
exhausted) or "target not found in N of M settings tried" (the trials or the budget ran out);
each names the target and its confirmed value. With one integer or choice lever, a verdict that
misses says when the target lies between two neighbouring values (the lever is too coarse).
"""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path
from typing import Any

import polars as pl

from experiments.balance_config import BalanceConfig, load_balance
from experiments.balance_trials import Evaluator, TrialScore, score_counts, trial_variants
from experiments.balance_verdict import (
    coarse_lever,
    confirm_seed,
    confirmation_rates,
    judge,
    recommend,
    show_rate,
    verdict,
    wanted_words,
)
from experiments.config import ConfigError, UserError
from experiments.workdir import TRIALS, absolute_files, open_folder, read_trials, write_json
from sim.core.gamedata import DataError

STATE = "balance.json"
CONFIRM = "confirm"


def _rungs(bc: BalanceConfig) -> list[int]:
    """Games per variant after each rung: from an eighth of min_games, doubling to max_games."""
    rungs, n = [], max(100, bc.min_games // 8)
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
    done = read_trials(out)
    rows = list(done.iter_rows(named=True)) if done is not None else []
    for row in rows:  # replay: the seeded sampler proposes the same values again
        trial = study.ask(dists)
        if json.dumps(trial.params, sort_keys=True) != row["suggested"]:
            raise UserError(
                f"{out / TRIALS}: the search no longer replays (code or config changed)"
            )
        study.tell(trial, row["objective"])
    spent = sum(r["games_total"] for r in rows)
    evaluator = Evaluator(bc, executor, chunk=max(100, bc.min_games // 8))
    seen = {r["values"]: r for r in rows if r.get("repeat_of") is None}
    size = space_size(bc)
    asks_left = 20 * bc.max_trials + 100 - len(rows)  # a sampler that only repeats must end
    while len(seen) < bc.max_trials and spent < bc.budget_games and len(seen) < size:
        if rows and _settled(bc, rows) or asks_left <= 0:
            break
        asks_left -= 1
        trial = study.ask(dists)
        values = {lv.name: lv.value(trial.params[lv.name]) for lv in bc.levers}
        key = json.dumps(values)
        if key in seen:  # the sampler came back to a tried value: its result, no new games
            row, games = dict(seen[key]) | {"repeat_of": seen[key]["trial"], "games_total": 0}, 0
        else:
            best = _best_high(bc, rows)
            row, games = _evaluate(bc, evaluator, values, bc.budget_games - spent, best)
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
    met = [r for r in rows if _clearly_met(bc, r)]
    distinct = sum(r.get("repeat_of") is None for r in rows)
    return bool(met) and distinct >= min(bc.max_trials, 12)


def _clearly_met(bc: BalanceConfig, row: dict) -> bool:
    worst_high = row.get("worst_high", row["objective_high"])
    return row["feasible"] and worst_high is not None and worst_high <= bc.tolerance


def _best_high(bc: BalanceConfig, rows: list[dict]) -> float | None:
    """The best trial's objective upper bound while no trial meets the tolerance, else None
    (then a trial is judged by the tolerance alone: one that meets it with fewer changes may
    still be the recommendation)."""
    fresh = [r for r in rows if r["feasible"] and r.get("repeat_of") is None and not r["pruned"]]
    if not fresh or any(_clearly_met(bc, r) for r in fresh):
        return None
    return min(r["objective_high"] for r in fresh)


def _evaluate(bc, evaluator, values, budget_left, best_high=None) -> tuple[dict, int]:
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
        score = score_counts(
            list(zip(variants, counts, strict=True)), played, bc.goal, bc.objective
        )
        if score.worst_low > bc.tolerance:  # clearly misses the target: more games won't help
            row["pruned"] = n < bc.max_games
            break
        if best_high is not None and score.low > best_high:  # clearly worse than the best
            row["pruned"] = n < bc.max_games
            break
        if score.worst_high <= bc.tolerance and played >= bc.min_games:  # clearly meets it
            break
    row |= {"games": played, "games_total": played * len(variants), "error": None}
    row["rates"] = json.dumps(score.rates)
    row["wanted"] = json.dumps(score.wanted)
    return row | _score_fields(score, bc), played * len(variants)


def _score_fields(score: TrialScore | None, bc: BalanceConfig) -> dict:
    if score is None:
        worst = 1e9 if bc.goal.unit == "number" else 1.0
        return {"objective": worst, "objective_low": worst, "objective_high": worst,
                "sumsq": None, "worst": worst, "worst_low": worst, "worst_high": worst,
                "rates": "{}", "wanted": "{}"}  # fmt: skip
    return {
        "objective": score.objective,
        "objective_low": score.low,
        "objective_high": score.high,
        "sumsq": score.sumsq,
        "worst": score.worst,
        "worst_low": score.worst_low,
        "worst_high": score.worst_high,
    }


def _frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows, infer_schema_length=None)


def _write_trials(out: Path, rows: list[dict]) -> None:
    tmp = out / f".{TRIALS}.tmp"
    _frame(rows).write_parquet(tmp)
    os.replace(tmp, out / TRIALS)


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
    bc = load_balance(config)
    out = Path(out) if out is not None else Path("runs") / f"{bc.base.get('name') or 'balance'}"
    lock = _prepare(bc, out, resume)
    try:
        return _balance(bc, out, jobs, backend, scheduler, progress)
    except KeyboardInterrupt as exc:
        exc.balance_out = out  # what the interrupted search keeps, for the one-line message
        raise
    finally:
        os.close(lock)  # releases the flock (the kernel does so too on any exit)


def _balance(bc, out, jobs, backend, scheduler, progress) -> Path:
    from experiments.backends import make_backend
    from experiments.progress import Progress
    from experiments.runner import run as run_experiment

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
        raw = absolute_files(raw, Path(bc.source).parent)
    run_experiment(
        raw, confirm_dir, jobs=jobs, backend=backend, scheduler=scheduler,
        resume=confirm_dir.exists(), progress=progress,
    )  # fmt: skip
    rates = confirmation_rates(bc, confirm_dir)
    spent = int(trials["games_total"].sum())
    info = search_info(bc, trials)
    said = verdict(bc, rates, values, info)
    coarse = coarse_lever(bc, trials, values) if not judge(bc, rates)[1] else None
    if coarse:
        said += f"; {coarse}"
    second = None
    if bc.confirm_bots is not None:
        level_dir = out / f"{CONFIRM}-bots"
        level = dict(raw, bots=bc.confirm_bots, name=f"{raw['name']}-bots")
        run_experiment(
            level, level_dir, jobs=jobs, backend=backend, scheduler=scheduler,
            resume=level_dir.exists(), progress=progress,
        )  # fmt: skip
        level_rates = confirmation_rates(bc, level_dir)
        sure, inside = judge(bc, level_rates)
        counted = {k: r for k, r in level_rates.items() if r.get("counted", True)}
        worst = max(counted.items(), key=lambda kv: abs(kv[1]["rate"] - kv[1]["fair"]))
        holds = "holds" if sure else "holds within noise" if inside else "does not hold"
        second = {
            "bots": bc.confirm_bots,
            "holds": holds,
            "win_rates": {
                k: {f: v[f] for f in ("rate", "low", "high")} for k, v in level_rates.items()
            },
        }
        said += (
            f"; with bots {json.dumps(bc.confirm_bots)} it {holds} ({worst[0]} "
            f"{show_rate(bc, worst[1])}, {wanted_words(bc, worst[1])})"
        )
    rec = {
        "verdict": said,
        "levers": values,
        "printed": {lv.name: lv.printed for lv in bc.levers},
        "win_rates": {k: {f: v[f] for f in ("rate", "low", "high")} for k, v in rates.items()},
        "fair": {k: v["fair"] for k, v in rates.items()},
        "tolerance": bc.tolerance,
        "target": bc.target,
        "target_words": bc.goal.words(),
        "unit": bc.goal.unit,
        "objective": bc.objective,
        "counted": [k for k, v in rates.items() if v.get("counted", True)],
        "settings_tried": info["tried"],
        "settings": info["size"] if math.isfinite(info["size"]) else None,
        "stopped": info["stopped"],
        "second_level": second,
        "games": spent,
        "confirmation_games": bc.confirm_games,
        "trials": trials.height,
        "seconds": round(time.perf_counter() - start, 1),
    }
    write_json(out / "recommendation.json", rec)
    state = json.loads((out / STATE).read_text())
    write_json(out / STATE, state | {"status": "complete"})
    from reports.balance_report import write_balance_report

    write_balance_report(bc, out, trials, rec)
    return out


def search_info(bc: BalanceConfig, trials: pl.DataFrame) -> dict:
    """Distinct settings tried, settings the levers allow, and why the search stopped."""
    fresh = (
        trials.filter(pl.col("repeat_of").is_null()) if "repeat_of" in trials.columns else trials
    )
    tried, size = fresh.height, space_size(bc)
    spent = int(trials["games_total"].sum())
    rows = list(trials.iter_rows(named=True))
    if tried >= size:
        stopped = "exhausted"
    elif rows and _settled(bc, rows):
        stopped = "settled"
    elif spent >= bc.budget_games:
        stopped = "budget"
    else:
        stopped = "trials"
    return {"tried": tried, "size": size, "stopped": stopped}


def _prepare(bc: BalanceConfig, out: Path, resume: bool) -> int:
    """Create (or reopen, with ``resume``) the balance folder and lock it; return the lock."""
    state = {"config": bc.raw, "source": bc.source, "status": "running"}
    return open_folder(
        out, STATE, state, resume, "balance",
        same=lambda old: old.get("config") == json.loads(json.dumps(bc.raw)),
        differs=f"{bc.source}: differs from the config of the search in {out}",
    )  # fmt: skip
