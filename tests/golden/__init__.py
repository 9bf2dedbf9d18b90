"""Golden traces: the readable trace of a few fixed games per engine, reviewed once and kept
byte for byte. Regenerate with ``.venv/bin/python -m tests.golden`` (or ``make golden``) and
review the diff: a rule or bot change shows up as a readable change in a whole game, and a
speed-up that must keep the games identical shows none.
"""

from pathlib import Path

from sim.core.batch import trace_game
from sim.core.registry import make_setup

GOLDEN_DIR = Path(__file__).parent
CASES = {  # (game, file): (players, bots, seed[, params])
    ("celtica", "greedy_3p_seed7.txt"): (3, "greedy", 7),
    ("celtica", "mixed_4p_seed11.txt"): (4, "greedy,random,greedy,random", 11),
    ("celtic_trader", "greedy_4p_seed3.txt"): (4, "greedy", 3),
    ("celtic_trader", "mixed_2p_seed8.txt"): (2, "random,greedy", 8),
    ("celtae", "greedy_3p_seed5.txt"): (3, "greedy", 5),
    ("celtae", "solo_greedy_seed2.txt"): (1, "greedy", 2),
    ("catan", "greedy_4p_seed4.txt"): (4, "greedy", 4),
    ("catan", "mixed_5p_seed6.txt"): (5, "greedy,random,greedy,random,greedy", 6),
    ("catan_troy", "greedy_4p_seed4.txt"): (4, "greedy", 4),
    ("catan_troy", "mixed_6p_seed6.txt"): (6, "greedy,random,greedy,random,greedy,random", 6),
    # domestic_trade = false: the lever off (issue 41), regenerated with each greedy change
    ("catan", "greedy_4p_seed4_no_trade.txt"): (4, "greedy", 4, {"domestic_trade": False}),
    ("catan_troy", "greedy_4p_seed4_no_trade.txt"): (4, "greedy", 4, {"domestic_trade": False}),
}


def path_of(game: str, name: str) -> Path:
    return GOLDEN_DIR / game / name


def render(game: str, players: int, bots: str, seed: int, params=None) -> str:
    lines, _ = trace_game(make_setup(game, players, params or {}, bots), seed)
    return "\n".join(lines) + "\n"


def main() -> None:
    for (game, name), case in CASES.items():
        path = path_of(game, name)
        path.parent.mkdir(exist_ok=True)
        path.write_text(render(game, *case))
        print(f"wrote {path}")
