"""Reading a run directory back for comparisons."""

import json
from pathlib import Path

import polars as pl


def tables(run: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Both datasets, sorted so that equal runs give equal frames."""
    games = pl.read_parquet(Path(run) / "games").sort("variant", "game")
    players = pl.read_parquet(Path(run) / "players").sort("variant", "game", "seat")
    return games, players


def manifest(run: Path) -> dict:
    return json.loads((Path(run) / "manifest.json").read_text())


def assert_same_tables(a: Path, b: Path) -> None:
    games_a, players_a = tables(a)
    games_b, players_b = tables(b)
    assert games_a.columns == games_b.columns
    assert games_a.equals(games_b)
    assert players_a.equals(players_b)
