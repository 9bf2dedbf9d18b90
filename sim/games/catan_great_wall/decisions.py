"""The kinds of decision a Great Wall seat takes, counted per game as ``act_<kind>`` columns: the
base game's kinds (sim/games/catan/decisions.py) followed by the scenario's. In this scenario
the base kinds ``move_robber`` and ``play_knight``'s robber never occur: the pirate and the
Knight's actions are the scenario's kinds.
"""

from sim.core.kernel import leaf
from sim.games.catan.decisions import DECISION_KINDS as BASE_KINDS
from sim.games.catan.decisions import decision_kind as base_kind
from sim.games.catan.state import A_STEAL, PHASE
from sim.games.catan_great_wall.state import (
    A_FORTRESS,
    A_K_DONE,
    A_K_MOVE,
    A_K_REMOVE,
    A_NO_STEAL,
    A_WALL,
    PH_KNIGHT,
)

DECISION_KINDS = (
    *BASE_KINDS,
    "place_fortress",
    "build_wall",
    "move_pirate",  # on a 7
    "knight_move_rider",
    "knight_remove_rider",
    "knight_pirate",
    "knight_done",
)
N_BASE = len(BASE_KINDS)


@leaf
def decision_kind(state, data, action) -> int:
    """Index into DECISION_KINDS of ``action`` taken in ``state``."""
    if action < A_FORTRESS:
        return base_kind(state, data, action)
    if action == A_NO_STEAL:
        return base_kind(state, data, A_STEAL)  # a steal decision: to take no card
    if action < A_WALL:
        return N_BASE
    if action == A_WALL:
        return N_BASE + 1
    if action < A_K_MOVE:
        return N_BASE + 5 if state[PHASE] == PH_KNIGHT else N_BASE + 2
    if action < A_K_REMOVE:
        return N_BASE + 3
    if action < A_K_DONE:
        return N_BASE + 4
    return N_BASE + 6
