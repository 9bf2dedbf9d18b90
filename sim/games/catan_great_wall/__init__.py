"""Catan historical scenario "The Great Wall" (4 or 6 players; 5 is a PROVISIONAL
extrapolation): the game declaration; bots random, greedy and search.

Each player owns a border fortress and the wall section beside it. Every settlement or city
draws a steppe rider onto a rallying territory; rolls matching a territory's attack numbers
march riders onto the battlefields; a battlefield holding more riders than its wall's level
breaks through: the riders occupy hexes behind the wall (which then produce nothing), the wall
drops a level and its owner takes a -1 VP penalty. 10 VP on one's own turn wins; 5 breaches
(4 players) or 7 (6 players) and everybody loses. Rules: rules/catan-great-wall.md on the base
game (sim/games/catan, whose kernels this scenario calls); data: catan_great_wall.toml;
kernels: rules.py; bots: strategies/catan_great_wall.
"""

from sim.core.registry import GameDecl
from sim.games.catan_great_wall.decisions import DECISION_KINDS
from sim.games.catan_great_wall.params import GAME_DATA, PARAMS, load_raw
from sim.games.catan_great_wall.play import PLAYER_EXTRAS, SCORE_COMPONENTS, TIEBREAK, play
from sim.games.catan_great_wall.state import END_REASONS
from sim.games.catan_great_wall.trace import trace
from strategies.catan_great_wall import BOTS


def _warmup() -> None:
    """Play one short game so that the kernels are compiled (or loaded from cache)."""
    import numpy as np

    from sim.core.registry import make_setup

    setup = make_setup("catan_great_wall", 4, {}, "random,greedy,random,greedy")
    play(setup, np.arange(1, dtype=np.uint64))


_raw = load_raw()

GAME = GameDecl(
    id="catan_great_wall",
    title="Catan: The Great Wall",
    version=_raw["game"]["version"],
    min_players=_raw["game"]["players_min"],
    max_players=_raw["game"]["players_max"],
    params=PARAMS,
    bots=BOTS,
    end_reasons=END_REASONS,
    score_components=SCORE_COMPONENTS,
    play=play,
    trace=trace,
    roles=(),
    role_modes=("random",),
    player_extras=PLAYER_EXTRAS,
    tiebreak=TIEBREAK,
    default_bot="greedy",
    warmup=_warmup,
    data=GAME_DATA,
    decision_kinds=DECISION_KINDS,
    no_winner_reasons=("wall_breached",),
    ladder_games=600,
)
