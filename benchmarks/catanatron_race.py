"""Catan side by side with catanatron (issue 14), run by `make bench`, never by the tests.

catanatron 3.2.1 (the pure-Python Catan engine users pick today) is installed into a throwaway
virtual environment, never a project dependency; if it cannot be installed the line says so and
the bench goes on. Both engines play 4 random bots on one core for the same time, in the same
run, and the line reads::

    catan 4p random jobs=1: N games/s, T turns/game (catanatron 3.2.1: M games/s, U turns/game,
    ratio R x)

followed by menhir's greedy line. Usage: ``python benchmarks/catanatron_race.py [--seconds S]
[--out FILE]`` (FILE is appended to).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

VERSION = "3.2.1"
_CATANATRON = """
import time
from catanatron import Color, Game, RandomPlayer
colors = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]
start, games, turns = time.perf_counter(), 0, 0
while time.perf_counter() - start < {seconds}:
    game = Game([RandomPlayer(c) for c in colors])
    game.play()
    games += 1
    turns += game.state.num_turns
print(games / (time.perf_counter() - start), turns / games)
"""


def catanatron_rate(seconds: float) -> tuple[float, float] | str:
    """(games/s, turns/game) of catanatron, or why it could not be measured."""
    with tempfile.TemporaryDirectory(prefix="catanatron-") as tmp:
        env_dir = Path(tmp) / "venv"
        venv.create(env_dir, with_pip=True)
        python = env_dir / "bin" / "python"
        install = subprocess.run(
            [python, "-m", "pip", "install", "--quiet", f"catanatron=={VERSION}"],
            capture_output=True,
            text=True,
            check=False,
        )
        if install.returncode != 0:
            last = (install.stderr.strip().splitlines() or ["pip failed"])[-1]
            return f"catanatron {VERSION} could not be installed ({last})"
        run = subprocess.run(
            [python, "-c", _CATANATRON.format(seconds=seconds)],
            capture_output=True,
            text=True,
            check=False,
        )
        if run.returncode != 0:
            return f"catanatron {VERSION} did not run ({run.stderr.strip().splitlines()[-1]})"
        rate, turns = (float(x) for x in run.stdout.split())
        return rate, turns


def menhir_rate(bot: str, seconds: float) -> tuple[float, float]:
    """(games/s, turns/game) of menhir's catan with 4 ``bot`` players on this core."""
    from sim.core.batch import play_batch
    from sim.core.bench import games_per_second
    from sim.core.registry import make_setup

    setup = make_setup("catan", 4, {}, bot)
    games, elapsed = games_per_second(setup, seconds, 10_000)
    sample, _ = play_batch(setup, range(500), root_seed=1)
    return games / elapsed, float(sample["turns"].mean())


def race(seconds: float) -> list[str]:
    rate, turns = menhir_rate("random", seconds)
    other = catanatron_rate(seconds)
    if isinstance(other, str):
        versus = other
    else:
        versus = (
            f"catanatron {VERSION}: {other[0]:,.1f} games/s, {other[1]:.0f} turns/game, "
            f"ratio {rate / other[0]:,.0f} x"
        )
    greedy, greedy_turns = menhir_rate("greedy", seconds)
    return [
        f"catan 4p random jobs=1: {rate:,.0f} games/s, {turns:.0f} turns/game ({versus})",
        f"catan 4p greedy jobs=1: {greedy:,.0f} games/s, {greedy_turns:.0f} turns/game",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    lines = race(args.seconds)
    for line in lines:
        print(line, flush=True)
    if args.out is not None:
        with args.out.open("a") as fh:
            fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
