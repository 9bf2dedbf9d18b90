"""Golden Celtica traces: regenerate with ``.venv/bin/python -m tests.games.celtica.golden`` and
review the diff (a rule or bot change shows up as a readable change in a whole game).
"""

from pathlib import Path

from sim.core.batch import trace_game
from sim.core.registry import make_setup

GOLDEN_DIR = Path(__file__).with_name("golden")
CASES = {
    "greedy_3p_seed7.txt": (3, "greedy", 7),
    "mixed_4p_seed11.txt": (4, "greedy,random,greedy,random", 11),
}


def render(players: int, bots: str, seed: int) -> str:
    lines, _ = trace_game(make_setup("celtica", players, {}, bots), seed)
    return "\n".join(lines) + "\n"


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, case in CASES.items():
        (GOLDEN_DIR / name).write_text(render(*case))
        print(f"wrote {GOLDEN_DIR / name}")


if __name__ == "__main__":
    main()
