"""Measure the bot levels of one game (a script, never run by the tests).

    .venv/bin/python -m strategies.search_measure celtic_trader --games 1000 \\
        --search search:rollouts=16:horizon=2

prints, for 2 players with seats swapped on the same deals: greedy's win share against random,
the search spec's win share against greedy (each with a Wilson 95% interval) and the games/s of
search-vs-greedy games on one core (after a warm-up game that loads or compiles the kernels), per
wall-clock second and per CPU second (the second is steadier on a busy machine).
"""

from __future__ import annotations

import argparse
import time

from sim.core.batch import play_batch
from sim.core.registry import make_setup
from strategies.ladder import run_ladder


def pair_share(game: str, weaker: str, stronger: str, games: int, seed: int) -> dict:
    """The stronger bot's row of a two-level ladder (2 players, seats swapped)."""
    table = run_ladder(game, 2, games, [weaker, stronger], seed=seed)
    return table.filter(table["bot"] == table["bot"][1]).row(0, named=True)


def search_rate(game: str, spec: str, games: int, seed: int) -> tuple[float, float]:
    """Games/s of ``spec`` against greedy on one core, both seat orders: per wall-clock second
    and per CPU second of this process (the latter is not slowed by other work on the machine).
    """
    setups = [make_setup(game, 2, {}, f"{spec},greedy"), make_setup(game, 2, {}, f"greedy,{spec}")]
    for setup in setups:
        play_batch(setup, [0], root_seed=seed)  # compile or load the cache outside the clock
    start, cpu = time.perf_counter(), time.process_time()
    for setup in setups:
        play_batch(setup, range(games // 2), root_seed=seed)
    played = (games // 2) * 2
    return played / (time.perf_counter() - start), played / (time.process_time() - cpu)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="celtic_trader")
    parser.add_argument("--games", type=int, default=1000, help="games per pair")
    parser.add_argument("--search", default="search", help="the search bot spec to measure")
    parser.add_argument("--rate-games", type=int, default=200, help="games timed for games/s")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    def show(label: str, row: dict) -> None:
        print(
            f"{label}: win share {row['win_share']:.3f} "
            f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}] over {row['games']} games"
        )

    print(f"{args.game}, 2 players, seats swapped, seed {args.seed}")
    start = time.perf_counter()
    show("greedy vs random", pair_share(args.game, "random", "greedy", args.games, args.seed))
    show(
        f"{args.search} vs greedy",
        pair_share(args.game, "greedy", args.search, args.games, args.seed),
    )
    wall, cpu = search_rate(args.game, args.search, args.rate_games, args.seed + 1)
    print(
        f"{args.search} vs greedy: {wall:.1f} games/s on one core ({cpu:.1f} games per CPU second)"
    )
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
