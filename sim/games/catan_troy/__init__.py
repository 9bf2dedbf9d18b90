"""Catan: Troy (Historical Scenarios II), 4 or 6 players, on the base Catan engine: the game
declaration; bots random, greedy and search.

Each player secretly supports Troy or Mycenae; donations to the support row earn commerce
tokens, battles fought from the row move the cities' markers on the event track (VP for every
supporter), ships bought with tokens give trading and card advantages, the Sea People replaces
the robber. The game ends at 15 VP on one's own turn or when a marker reaches the track's end.
Rules: rules/catan-troy.md; data: catan_troy.toml; kernels: rules.py over sim/games/catan;
bots: strategies/catan_troy.

Importing this package compiles nothing: numba compiles (or loads from its cache) on the first
game played.
"""

from sim.core.registry import GameDecl
from sim.games.catan_troy.decisions import DECISION_KINDS
from sim.games.catan_troy.params import GAME_DATA, PARAMS, load_raw
from sim.games.catan_troy.play import PLAYER_EXTRAS, SCORE_COMPONENTS, TIEBREAK, play
from sim.games.catan_troy.state import END_REASONS
from sim.games.catan_troy.trace import trace
from strategies.catan_troy import BOTS


def _warmup() -> None:
    """Play one short game so that the kernels are compiled (or loaded from cache)."""
    import numpy as np

    from sim.core.registry import make_setup

    setup = make_setup("catan_troy", 4, {}, "random,greedy,random,greedy")
    play(setup, np.arange(1, dtype=np.uint64))


_raw = load_raw()

GAME = GameDecl(
    id="catan_troy",
    title="Catan: Troy",
    version=_raw["game"]["version"],
    min_players=_raw["game"]["players_min"],
    max_players=_raw["game"]["players_max"],
    params=PARAMS,
    bots=BOTS,
    end_reasons=END_REASONS,
    score_components=SCORE_COMPONENTS,
    play=play,
    trace=trace,
    roles=tuple(_raw["game"]["sides"]),
    role_label="decision card",
    role_modes=("random",),
    side_names=tuple(_raw["game"]["sides"]),
    player_extras=PLAYER_EXTRAS,
    tiebreak=TIEBREAK,
    default_bot="greedy",
    warmup=_warmup,
    data=GAME_DATA,
    decision_kinds=DECISION_KINDS,
    # search against greedy wins about 0.6 at 4 players (0.605 [0.537, 0.668] over 210 games):
    # 400 games per pair keep its Holm-adjusted interval clear of 0.5
    ladder_games=400,
)
