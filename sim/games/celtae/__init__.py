"""Celtae (Orlando Sá), solo to 4 players: the game declaration.

A shared action pawn on a four-space rondel; workers swapped, recruited and spent on Cultivate,
Build, Combat and Recruit in two regions; leaders with a side A and a heroic side B; a progress
track that ends the game. Solo against the automaton Solitairix.
Rules: rules/celtae.md; data: celtae.toml; kernels: rules.py (the API) and rules_*.py (one module
per part of the rulebook: setup, turn, options, actions, progress, solo, scoring); bots:
strategies/celtae.

Importing this package defines the kernels but compiles nothing: numba compiles (or loads from
its cache) on the first game played.
"""

from sim.core.registry import GameDecl
from sim.games.celtae.decisions import DECISION_KINDS
from sim.games.celtae.params import GAME_DATA, PARAMS, ROLE_IDS, load_raw
from sim.games.celtae.play import PLAYER_EXTRAS, SCORE_COMPONENTS, TIEBREAK, play
from sim.games.celtae.state import END_REASONS
from strategies.celtae import BOTS


def _trace(setup, seed):
    from sim.games.celtae.trace import trace

    return trace(setup, seed)


def _warmup() -> None:
    """Play one game of each bot so that the kernels are compiled (or loaded from cache)."""
    import numpy as np

    from sim.core.registry import make_setup

    for bot in BOTS:
        if bot.name != "search":
            play(make_setup("celtae", 2, {}, bot.name), np.arange(1, dtype=np.uint64))


_raw = load_raw()

GAME = GameDecl(
    id="celtae",
    title="Celtae",
    version=_raw["game"]["version"],
    min_players=_raw["game"]["players_min"],
    max_players=_raw["game"]["players_max"],
    params=PARAMS,
    bots=BOTS,
    end_reasons=END_REASONS,
    score_components=SCORE_COMPONENTS,
    play=play,
    trace=_trace,
    roles=ROLE_IDS,
    role_label="leader",
    role_modes=("random", "draft"),
    has_sides=True,
    player_extras=PLAYER_EXTRAS,
    tiebreak=TIEBREAK,
    default_bot="greedy",
    data=GAME_DATA,
    decision_kinds=DECISION_KINDS,
    warmup=_warmup,
)
