"""Openings and seat spread of the Catan-family games on their boards (issue 35).

    .venv/bin/python benchmarks/openings.py catan_great_wall catan_troy --players 4 6
        [--games 2000] [--seed 0] [--bots greedy] [--set start_seat=2]

plays ``--games`` games per game and player count (the batch runner's seeds: game *i* is game
*i* of ``menhir run`` with the same seed) and prints, per setup: the distinct openings (every
seat's setup placements, sim/games/catan/openings.py), the distinct openings of each seat, the
most common opening's share, every seat's win share and the share of games nobody won (the
Great Wall's collective defeat).
"""

from __future__ import annotations

import argparse

import numpy as np
import polars as pl

from sim.core.batch import play_batch
from sim.core.params import parse_assignments
from sim.core.registry import make_setup
from sim.games.catan.openings import opening_counts, openings


def measure(game: str, players: int, games: int, seed: int, bots: str, params=None) -> dict:
    """The figures of one setup, as a dict (see the module docstring)."""
    setup = make_setup(game, players, params or {}, bots)
    idx = np.arange(games)
    counts = opening_counts(openings(setup, idx, seed))
    _, table = play_batch(setup, idx, seed)
    wins = table.group_by("seat").agg(pl.col("win").mean()).sort("seat")["win"].to_list()
    return {**counts, "win": wins, "no_winner": 1.0 - float(table["win"].sum()) / games}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games_", nargs="+", metavar="GAME")
    ap.add_argument("--players", type=int, nargs="+", default=[4, 6])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--set", nargs="*", default=[], help="game parameters, key=value")
    a = ap.parse_args()
    params = parse_assignments(a.set)
    for game in a.games_:
        for players in a.players:
            m = measure(game, players, a.games, a.seed, a.bots, params)
            seats = " ".join(f"{w:.3f}" for w in m["win"])
            per_seat = " ".join(str(m["per_seat"][s]) for s in sorted(m["per_seat"]))
            print(
                f"{game} {players}p {a.bots} {' '.join(a.set)} games={m['games']} seed={a.seed}: "
                f"openings {m['distinct']} (per seat {per_seat}; most common "
                f"{m['top_share']:.1%}); win by seat {seats}; nobody {m['no_winner']:.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
