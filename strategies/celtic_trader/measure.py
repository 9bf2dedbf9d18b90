"""Quick Celtic Trader measurements (a script, never a test): games/s on one process, and greedy
against random in 2-player games with seats swapped.

    .venv/bin/python -m strategies.celtic_trader.measure [--games 20000] [--duel 400]
"""

from __future__ import annotations

import argparse
import time

from sim.core.batch import play_batch
from sim.core.registry import make_setup


def rate(bots: str, players: int, games: int) -> float:
    setup = make_setup("celtic_trader", players, {}, bots)
    play_batch(setup, range(8), root_seed=99)  # compile or load the cache
    start = time.perf_counter()
    play_batch(setup, range(games), root_seed=1)
    return games / (time.perf_counter() - start)


def duel(games: int, players: int = 2) -> float:
    """Greedy's win share against random, half the games with greedy in seat 0."""
    share = 0.0
    for bots, seat in (("greedy,random", 0), ("random,greedy", 1)):
        setup = make_setup("celtic_trader", players, {}, bots)
        _, table = play_batch(setup, range(games // 2), root_seed=5)
        share += float(table.filter(table["seat"] == seat)["win"].sum())
    return share / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--duel", type=int, default=400)
    args = parser.parse_args()
    for bots in ("random", "greedy"):
        print(f"4p {bots}: {rate(bots, 4, args.games):,.0f} games/s (one process)")
    print(f"2p greedy vs random, seats swapped: greedy win share {duel(args.duel):.3f}")


if __name__ == "__main__":
    main()
