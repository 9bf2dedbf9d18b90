"""What the search bot's budget buys: strength against greedy and games/s, spec by spec.

    .venv/bin/python benchmarks/search_frontier.py celtica --players 4 --games 1600 \\
        --seeds 10,11,12,13,14 search search:rollouts=24

prints one line per search spec: its win share against greedy (a two-level ladder, seats
rotated on the same deals) at each seed, their mean with a 95% interval over all the games,
and the games per CPU second with every seat searching (after a warm-up game that loads or
compiles the kernels), which is what ``make bench`` measures for the search level. The issue-42
table of ``docs/howto/bot-levels.md`` (the search at 200 games/s) was measured with it. A
developer's script, never run by ``make bench``; a run of a few specs takes minutes.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np

from sim.core.registry import get_game, make_setup
from strategies.ladder import wilson_interval
from strategies.search_measure import pair_share


def pooled_share(rows: Sequence[dict]) -> tuple[float, float, float, int]:
    """(mean, low, high, games): the win share over the games of every row (ladder rows with
    ``win_share`` and ``games``), with its Wilson 95% interval over their sum."""
    games = sum(int(r["games"]) for r in rows)
    share = sum(r["win_share"] * int(r["games"]) for r in rows) / games
    low, high = wilson_interval(share, games)
    return share, low, high, games


def every_seat_rate(game: str, spec: str, players: int, games: int) -> float:
    """Games per CPU second of this process with every seat playing ``spec``."""
    decl = get_game(game)
    setup = make_setup(game, players, {}, spec)
    decl.play(setup, np.arange(1, dtype=np.uint64))  # load or compile outside the clock
    start = time.process_time()
    decl.play(setup, np.arange(100, 100 + games, dtype=np.uint64))
    return games / (time.process_time() - start)


def frontier_line(game: str, spec: str, players: int, games: int, seeds, rate_games: int) -> str:
    rows = [pair_share(game, "greedy", spec, games, seed, players) for seed in seeds]
    mean, low, high, pooled = pooled_share(rows)
    shares = ", ".join(f"{r['win_share']:.3f}" for r in rows)
    rate = every_seat_rate(game, spec, players, rate_games)
    return (
        f"{spec}: against greedy {mean:.3f} [{low:.3f}, {high:.3f}] "
        f"(seeds: {shares}; {pooled} games); "
        f"{rate:.0f} games per CPU second, every seat searching"
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("specs", nargs="+", help="search bot specs, e.g. search:rollouts=24")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1600, help="games per seed")
    parser.add_argument("--seeds", default="10,11", help="comma-separated ladder seeds")
    parser.add_argument("--rate-games", type=int, default=300, help="games timed for games/s")
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    print(f"{args.game}, {args.players} players, seats rotated, seeds {args.seeds}", flush=True)
    for spec in args.specs:
        line = frontier_line(args.game, spec, args.players, args.games, seeds, args.rate_games)
        print(line, flush=True)


if __name__ == "__main__":
    main()
