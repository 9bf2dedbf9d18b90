"""Celtica (Kiesling & Kramer, Ravensburger 2006), 2 to 5 players: the game declaration.

Five shared druids walk one track; cards of one colour move that druid; dig sites give amulet
fragments, ruins take fragments and give Experience cards, sacred places offer a Druid card. The
most complete 9-piece amulets wins, ties broken by the largest incomplete amulet, then the next.
Rules: rules/celtica.md; data: celtica.toml; kernels: rules.py; bots: strategies/celtica.

Importing this package defines the kernels but compiles nothing: numba compiles (or loads from
its cache) on the first game played.
"""

from sim.core.registry import GameDecl
from sim.games.celtica.decisions import DECISION_KINDS
from sim.games.celtica.params import GAME_DATA, PARAMS, load_raw
from sim.games.celtica.play import INCOMPLETE, PLAYER_EXTRAS, SCORE_COMPONENTS, play
from sim.games.celtica.state import END_REASONS
from sim.games.celtica.trace import trace
from strategies.celtica import BOTS


def _warmup() -> None:
    """Play one short game of each bot so that the kernels are compiled (or loaded from cache)."""
    import numpy as np

    from sim.core.registry import make_setup

    setup = make_setup("celtica", 2, {}, "random,greedy")
    play(setup, np.arange(2, dtype=np.uint64))


_raw = load_raw()

GAME = GameDecl(
    id="celtica",
    title="Celtica",
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
    tiebreak=INCOMPLETE,
    default_bot="greedy",
    warmup=_warmup,
    data=GAME_DATA,
    decision_kinds=DECISION_KINDS,
)
