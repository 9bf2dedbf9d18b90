"""`menhir screen`: which of a game's numbers move its balance at all, which most, which together.

A screen config is an ordinary experiment config (one setup: no sweep) plus a ``[screen]``
table::

    [screen]
    levers = ["roles.*.rp_as_vp", "roles.*.movement", "romans_in_play"]  # default: see below
    exclude = ["map"]             # patterns left out of the levers (safety caps always are)
    band = 0.5                    # default range: the printed value +-50%
    outputs = ["wins", "seats", "spread", "rounds", "shared_defeat"]  # default: all that apply
    games = 1000                  # games per point (common random numbers: the same deals)
    trajectories = 10             # Morris trajectories (r)
    levels = 4                    # Morris grid levels (p)
    sobol_top = 6                 # levers kept for stage 2 (the most important, not inert)
    sobol_n = 64                  # Saltelli base sample N (a power of 2)
    [screen.ranges]               # [low, high] of a lever (or of a pattern's levers)
    "roles.trusted.rp_as_vp" = [0, 4]
    "roles.*.movement" = [0.5, 1.5]   # a list value: the factor its numbers are scaled by

Levers. A name is a declared parameter, a data path, or a pattern where ``*`` stands for one
path segment; a pattern also takes everything under what it names (``"roles.*"`` is every
number of every role card). Only numbers are levers: integers, reals, and lists of numbers
(scaled as a whole, so their shape and order stay, integers rounded half up); a list of zeros is
left out (scaling cannot move it). The default is every numeric data value of the game except
the engine's safety caps (keys containing ``safety_cap``).

Ranges. The default band is the printed value v times [1 - band, 1 + band]; an integer moves
at least 1 either way (v = 1 gives [0, 2]); a value at 0 gets [0, 1]; a value that is not
negative stays so; a declared parameter stays in its declared bounds. Each end is then tried
alone (the other levers printed) through the normal config path and one game: an end the game
refuses is pulled toward the printed value (bisection) to the farthest value it accepts, and
the screen says so in one line per lever; a lever the game lets move nowhere is dropped. Every
point of the design is checked the same way before any game is played.

Stage 1 (Morris, SALib): ``trajectories`` x (levers + 1) points on a ``levels`` grid of each
range, every point played with the experiment's seed and games 0 .. games - 1 (common random
numbers: an inert lever changes no game at all). Per lever and output: mu* (the mean absolute
elementary effect: the change of the output over a whole range), sigma and SALib's bootstrap
95% interval of mu*. The noise of an output at ``games`` per point is its standard error s
(a win rate: sqrt(p(1-p)/n) with n the games the role or seat was in; the spread: sqrt(2) times
the largest of its rates'; game length: the rounds' standard deviation / sqrt(games)); the
elementary effects of independent noise alone average f = 2 s / (sqrt(pi) delta), delta the
grid step (2/3 at 4 levels). Rule: a lever is inert for an output when mu* minus its interval
is at most f, and inert when it is inert for every output.

Stage 2 (Sobol, SALib's Saltelli scheme) on the ``sobol_top`` most important levers that are not
inert (importance: the largest over outputs of (mu* - its interval) / the noise floor, i.e. how
clearly its effect stands out of the noise), the others held at their printed values: N (2k + 2)
points; first-order S1, total ST and second-order S2 with bootstrap 95% intervals. A lever
interacts when its gap ST - S1 is at least 0.1 and its bootstrap 95% interval (from the same
resamples as S1 and ST) excludes 0; a pair interacts when S2 minus its interval is above 0 and
S2 >= 0.05.

Outputs in OUT: ``screen.parquet`` (every point: stage, point, ``lever:NAME`` values, a list
lever as its factor, and the outputs), ``morris.csv``, ``sobol.csv``, ``screen.json`` (state and
summary) and ``report/`` (screen.md, screen.html). ``--resume`` replays the same designs and plays
only the points missing from screen.parquet; the results do not depend on jobs or backend.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import polars as pl

from experiments.config import UserError
from experiments.screen_analysis import (
    SOBOL_SCHEMA,
    analyse_morris,
    analyse_sobol,
    inert_levers,
    morris_design,
    moved_outputs,
    sobol_design,
    top_levers,
)
from experiments.screen_config import (
    ScreenConfig,
    load_screen,
    pattern_regex,  # noqa: F401 (tests/experiments/test_screen.py)
    point_setup,
)
from experiments.screen_points import Player, numbers_of
from experiments.workdir import open_folder, write_json

POINTS = "screen.parquet"
STATE = "screen.json"
MORRIS = "morris.csv"
SOBOL = "sobol.csv"


def default_chunk(games: int) -> int:
    return min(games, 5000)


def screen(
    config,
    out=None,
    *,
    jobs: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    resume: bool = False,
    progress: bool | None = None,
) -> Path:
    """Morris on every lever, Sobol on the top ones, report; return the screen directory."""
    from experiments.backends import make_backend
    from experiments.progress import Progress

    sc = load_screen(config, progress=progress)
    out = Path(out) if out is not None else Path("runs") / f"{sc.base.get('name') or 'screen'}"
    lock = _prepare(sc, out, resume)
    try:
        return _screen(sc, out, jobs, backend, scheduler, progress, Progress, make_backend)
    finally:
        os.close(lock)


def _screen(sc, out, jobs, backend, scheduler, progress, progress_cls, make_backend) -> Path:
    start = time.perf_counter()
    morris_x = morris_design(sc)
    frame = _read_points(out, sc)
    bar = progress_cls(len(morris_x) * sc.games, 0, enabled=progress)
    for note in sc.notes:
        bar.line(f"menhir screen: {note}")
    rows: dict[tuple[str, int], dict] = {}
    if frame is not None:
        for row in frame.iter_rows(named=True):
            rows[(row["stage"], row["point"])] = row
    chunk = sc.base.get("chunk_games") or default_chunk(sc.games)
    try:
        with make_backend(backend, jobs, scheduler) as executor:
            player = Player(sc, executor, chunk, bar.advance)
            morris_frame = _stage(sc, out, player, "morris", list(sc.levers), morris_x, rows, bar)
            morris_table = analyse_morris(sc, morris_x, morris_frame)
            top = top_levers(sc, morris_table) if sc.sobol_top else []
            sobol_table = pl.DataFrame(schema=SOBOL_SCHEMA)
            if top:
                sobol_x = sobol_design(sc, top)
                bar.shrink(-len(sobol_x) * sc.games)
                sobol_frame = _stage(sc, out, player, "sobol", top, sobol_x, rows, bar)
                sobol_table = analyse_sobol(sc, top, sobol_frame, moved_outputs(morris_table))
    finally:
        bar.close()
    _write_csv(morris_table, out / MORRIS)
    _write_csv(sobol_table, out / SOBOL)
    all_rows = _frame(sc, rows)
    summary = {
        "game": sc.game,
        "players": sc.players,
        "bots": sc.bots,
        "levers": len(sc.levers),
        "candidates": sc.candidates,
        "notes": list(sc.notes),
        "games_per_point": sc.games,
        "points": {
            "morris": len(morris_x),
            "sobol": all_rows.filter(pl.col("stage") == "sobol").height,
        },
        "games": int(all_rows["games"].sum()),
        "top": [lv.name for lv in top],
        "inert": inert_levers(morris_table),
        "seconds": round(time.perf_counter() - start, 1),
    }
    state = json.loads((out / STATE).read_text())
    write_json(out / STATE, state | {"status": "complete", "summary": summary})
    from reports.screen_report import write_screen_report

    write_screen_report(sc, out, morris_table, sobol_table, summary)
    return out


def _stage(sc, out, player, stage, levers, design, rows, bar) -> pl.DataFrame:
    """Play the stage's missing points (saving as they complete); its frame, in point order."""
    numbers = [numbers_of(sc, levers, x) for x in design]
    for i, nums in enumerate(numbers):  # a resumed screen must be the same design
        row = rows.get((stage, i))
        if row is not None and any(row[f"lever:{lv.name}"] != nums[lv] for lv in sc.levers):
            raise UserError(
                f"{out / POINTS}: the screen no longer replays (code or config changed)"
            )
    missing = [(i, numbers[i]) for i in range(len(design)) if (stage, i) not in rows]
    bar.advance((len(design) - len(missing)) * sc.games)
    for i, nums in missing:  # every point is checked before a game is played
        try:
            point_setup(sc.base, sc.source, nums)
        except ValueError as exc:
            shown = ", ".join(
                f"{lv.name} = {json.dumps(lv.value(v))}" for lv, v in nums.items() if v != lv.centre
            )
            raise UserError(
                f"{sc.source}: the game refuses {stage} point {i} ({shown}): "
                f"{str(exc).splitlines()[0]}; narrow [screen.ranges]"
            ) from None
    last = [time.perf_counter()]

    def done(index, row):
        nums = numbers[index]
        rows[(stage, index)] = (
            {"stage": stage, "point": index}
            | {f"lever:{lv.name}": nums[lv] for lv in sc.levers}
            | row
        )
        if time.perf_counter() - last[0] > 5:
            _write_points(out, _frame(sc, rows))
            last[0] = time.perf_counter()

    try:
        player.play(missing, done)
    finally:  # a killed screen keeps every point it finished
        if rows:
            _write_points(out, _frame(sc, rows))
    frame = _frame(sc, rows).filter(pl.col("stage") == stage).sort("point")
    return frame


def _frame(sc, rows: dict) -> pl.DataFrame:
    ordered = [rows[k] for k in sorted(rows, key=lambda k: (k[0] != "morris", k[1]))]
    return pl.DataFrame(ordered, infer_schema_length=None)


def _write_points(out: Path, frame: pl.DataFrame) -> None:
    tmp = out / f".{POINTS}.tmp"
    frame.write_parquet(tmp)
    os.replace(tmp, out / POINTS)


def _read_points(out: Path, sc) -> pl.DataFrame | None:
    path = out / POINTS
    if not path.exists():
        return None
    try:
        return pl.read_parquet(path)
    except Exception:
        raise UserError(f"{path}: corrupt points table; start a new --out") from None


def _write_csv(frame: pl.DataFrame, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    frame.write_csv(tmp, float_precision=6)
    os.replace(tmp, path)


def _prepare(sc: ScreenConfig, out: Path, resume: bool) -> int:
    """Create (or reopen, with ``resume``) the screen folder and lock it; return the lock."""
    state = {"config": sc.raw, "source": sc.source, "status": "running"}
    return open_folder(
        out, STATE, state, resume, "screen",
        same=lambda old: old.get("config") == json.loads(json.dumps(sc.raw)),
        differs=f"{sc.source}: differs from the config of the screen in {out}",
    )  # fmt: skip
