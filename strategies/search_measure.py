"""Measure the bot levels of one game (a script, never run by the tests).

    .venv/bin/python -m strategies.search_measure celtic_trader --games 1000 \\
        --search search:rollouts=16:horizon=2

prints, for 2 players (``--players`` for games that need more) with seats rotated on the same
deals: greedy's win share against random,
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


def pair_share(
    game: str, weaker: str, stronger: str, games: int, seed: int, players: int = 2
) -> dict:
    """The stronger bot's row of a two-level ladder (seats rotated)."""
    table = run_ladder(game, players, games, [weaker, stronger], seed=seed)
    return table.filter(table["bot"] == table["bot"][1]).row(0, named=True)


def search_rate(
    game: str, spec: str, games: int, seed: int, players: int = 2
) -> tuple[float, float]:
    """Games/s of ``spec`` in seat 0, then in the last seat, against greedy on one core: per
    wall-clock second and per CPU second of this process (the latter is not slowed by other work
    on the machine).
    """
    others = ["greedy"] * (players - 1)
    setups = [
        make_setup(game, players, {}, [spec, *others]),
        make_setup(game, players, {}, [*others, spec]),
    ]
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
    parser.add_argument("--players", type=int, default=2, help="players (Catan: 3 to 6)")
    args = parser.parse_args(argv)

    def show(label: str, row: dict) -> None:
        print(
            f"{label}: win share {row['win_share']:.3f} "
            f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}] over {row['games']} games"
        )

    p = args.players
    print(f"{args.game}, {p} players, seats rotated, seed {args.seed}")
    start = time.perf_counter()
    show("greedy vs random", pair_share(args.game, "random", "greedy", args.games, args.seed, p))
    show(
        f"{args.search} vs greedy",
        pair_share(args.game, "greedy", args.search, args.games, args.seed, p),
    )
    wall, cpu = search_rate(args.game, args.search, args.rate_games, args.seed + 1, p)
    print(
        f"{args.search} vs greedy: {wall:.1f} games/s on one core ({cpu:.1f} games per CPU second)"
    )
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
