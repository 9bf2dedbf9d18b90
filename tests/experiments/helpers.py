"""Reading a run directory back for comparisons."""

import json
from pathlib import Path

import polars as pl


def tables(run: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Both datasets (the chunks the manifest lists), sorted so that equal runs give equal
    frames."""
    from reports.load import listed_files

    m = manifest(run)
    games, players = (
        pl.read_parquet(listed_files(Path(run), m, t), hive_partitioning=False)
        for t in ("games", "players")
    )
    return games.sort("variant", "game"), players.sort("variant", "game", "seat")


def manifest(run: Path) -> dict:
    return json.loads((Path(run) / "manifest.json").read_text())


def assert_same_tables(a: Path, b: Path) -> None:
    games_a, players_a = tables(a)
    games_b, players_b = tables(b)
    assert games_a.columns == games_b.columns
    assert games_a.equals(games_b)
    assert players_a.equals(players_b)
