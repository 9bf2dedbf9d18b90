"""Lever response: does a data value change how the bots play, or only how games are scored?

`menhir levers GAME` plays paired games (common random numbers: the same seeds, deals and bot
streams) at each weighed value's printed setting and with it lowered and raised, and reports per
value the share of games in which some seat's decisions changed (its ``act_*`` counts differ
from the printed setting's, game by game) and the largest change of a role's (or seat's) win
rate. A value whose change moves win rates but no decision is a re-scoring of the same games:
the bots ignore it, and a finding about it is the bots', not the game's.

The values a player weighs are listed per game in ``sim/games/<game>/levers.toml``
(``[[weighed]]``, with the role whose rule it is where only that role uses it), beside what the
bots deliberately leave out (``[[left_out]]``, with the reason, also said on the game's manual
page).
"""

from __future__ import annotations

import math
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from experiments.config import UserError

LEVERS_FILE = "levers.toml"


@dataclass(frozen=True)
class Lever:
    """One data value a player weighs: its path, and the role whose rule it is (or None)."""

    path: str
    role: str | None = None
    why: str | None = None  # for a value the bots leave out: the reason


def levers_file(game: str) -> Path:
    from sim.core.registry import get_game

    decl = get_game(game)
    if decl.data is None:
        raise UserError(f"{game}: has no data file, so no data levers")
    return decl.data.file.parent / LEVERS_FILE


def read_levers(game: str) -> tuple[list[Lever], list[Lever]]:
    """(weighed, left_out) of a game, from its ``levers.toml``; one-line UserError if absent."""
    path = levers_file(game)
    if not path.is_file():
        raise UserError(f"{path}: missing (the list of the values {game}'s bots weigh)")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: not valid TOML ({exc})") from None

    def entries(key: str) -> list[Lever]:
        out = []
        for i, item in enumerate(raw.get(key, [])):
            if not isinstance(item, dict) or not isinstance(item.get("path"), str):
                raise UserError(f"{path}: {key}[{i}] needs a path")
            out.append(Lever(item["path"], item.get("role"), item.get("why")))
        return out

    return entries("weighed"), entries("left_out")


def _scaled(value: Any, factor: float) -> Any:
    """``value`` scaled by ``factor``: integers stay integers, and a value that rounding left
    unchanged moves by one step in the factor's direction; in a list of integers, zeros stay
    zeros and positive entries stay positive."""
    step = 1 if factor > 1 else -1
    if isinstance(value, bool | str):
        return None
    if isinstance(value, int):
        new = int(round(value * factor))
        return new if new != value else value + step
    if isinstance(value, float):
        new = value * factor
        return new if new != value else value + 0.5 * step
    if isinstance(value, list) and value and all(isinstance(v, int | float) for v in value):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            # a track or a cost table: positive entries stay positive (a level that costs or
            # gives 0 is another rule), zeros stay zeros
            new = [max(1, int(round(v * factor))) if v > 0 else v for v in value]
            if new == value:
                new = [v + step if v > (1 if step < 0 else 0) else v for v in value]
            return new
        return [v * factor for v in value]
    return None


def changes(value: Any) -> list[Any]:
    """The lowered and raised settings of a printed value (half and one and a half times)."""
    out = []
    for factor in (0.5, 1.5):
        new = _scaled(value, factor)
        if new is not None and new != value and new not in out:
            out.append(new)
    return out


def _play(base: dict, path: str | None, value: Any, out: Path, jobs: int) -> pl.DataFrame:
    import experiments

    raw = dict(base, name="levers")
    if path is not None:
        raw["data"] = {path: value}
    run = experiments.run(raw, out, jobs=jobs, progress=False)
    return pl.read_parquet(sorted((run / "players").glob("variant=*/*.parquet"))).sort(
        "game", "seat"
    )


def compare(printed: pl.DataFrame, changed: pl.DataFrame, role: str | None) -> dict:
    """Paired comparison of two runs on the same seeds: decisions and win rates."""
    acts = [c for c in printed.columns if c.startswith("act_")]
    joined = printed.join(changed, on=["game", "seat"], suffix="_new")
    differs = pl.any_horizontal([pl.col(a) != pl.col(f"{a}_new") for a in acts])
    per_game = joined.group_by("game").agg(
        differs.any().alias("changed"),
        (pl.col("role") == role).any().alias("applies") if role else pl.lit(True).alias("applies"),
    )
    games = per_game.height
    applies = per_game.filter(pl.col("applies"))
    by = "role" if printed["role"].null_count() < printed.height else "seat"
    effects = (
        joined.with_columns((pl.col("win_new") - pl.col("win")).alias("d"))
        .group_by(by)
        .agg(pl.col("d").mean().alias("delta"), pl.col("d").std().alias("sd"), pl.len().alias("n"))
        .with_columns((pl.col("delta").abs()).alias("size"))
        .sort("size", by, descending=[True, False])
    )
    top = effects.row(0, named=True)
    half = 1.96 * (top["sd"] or 0.0) / math.sqrt(top["n"]) if top["n"] > 1 else float("nan")
    return {
        "games": games,
        "changed": per_game["changed"].mean(),
        "applies": applies.height,
        "changed_where_applies": applies["changed"].mean() if applies.height else float("nan"),
        "top_group": f"{by} {top[by]}",
        "win_delta": top["delta"],
        "win_delta_half": half,
    }


def lever_response(
    game: str,
    paths: list[str] | None = None,
    *,
    players: int | None = None,
    games: int = 400,
    bots: str = "greedy",
    roles: str = "random",
    seed: int = 1,
    jobs: int = 1,
    progress=None,
) -> pl.DataFrame:
    """One row per (path, changed value): the share of paired games whose decisions changed,
    overall and where the value's rule applies, and the largest win-rate change."""
    from sim.core.gamedata import get_value
    from sim.core.registry import get_game

    decl = get_game(game)
    weighed, _ = read_levers(game)
    by_path = {lv.path: lv for lv in weighed}
    chosen = [by_path.get(p, Lever(p)) for p in paths] if paths else weighed
    raw_data = decl.data.read()
    base = {
        "game": game,
        "games": games,
        "seed": seed,
        "players": players or decl.min_players,
        "bots": bots,
        "roles": roles if decl.roles else None,
        "paired": True,
    }
    base = {k: v for k, v in base.items() if v is not None}
    rows = []
    with tempfile.TemporaryDirectory(prefix="menhir-levers-") as tmp:
        printed = _play(base, None, None, Path(tmp) / "printed", jobs)
        for i, lever in enumerate(chosen):
            try:
                value = get_value(raw_data, lever.path)
            except Exception as exc:  # DataError: one line naming the path
                raise UserError(f"{lever.path}: {exc}") from None
            for new in changes(value):
                row = {"path": lever.path, "printed": repr(value), "value": repr(new)}
                try:
                    changed = _play(base, lever.path, new, Path(tmp) / f"{i}-{len(rows)}", jobs)
                except UserError as exc:
                    rows.append(row | {"error": str(exc).splitlines()[0]})
                else:
                    rows.append(row | compare(printed, changed, lever.role) | {"error": None})
                if progress:
                    progress(rows[-1])
    return pl.DataFrame(rows, infer_schema_length=None)
