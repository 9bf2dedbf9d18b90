"""Celtae greedy bot: its weights (the tunable parameters, ``W_*`` their indices in the weight
array), ``NEG`` (below any value) and ``_pb`` (where a seat's player block starts in the state).
"""

from sim.core.kernel import leaf
from sim.core.params import Param, ParamSet
from sim.games.celtae.state import PLAYERS, PW

GREEDY_PARAMS = ParamSet(
    (
        Param("card_value", "float", 0.4, "points-equivalent of a card in hand", low=0, high=10),
        Param(
            "force_value", "float", 0.15, "points-equivalent of a point of force", low=0, high=10
        ),
        Param("token_value", "float", 0.5, "points-equivalent of a bonus token", low=0, high=10),
        Param("worker_value", "float", 0.35, "value of a tribe worker beyond its icon", 0, 10),
        Param("cube_value", "float", 1.0, "value of a garrison cube on the board", low=0, high=10),
        Param(
            "leader_weight",
            "float",
            1.5,
            "share of the leader's points (from the data) credited to each missing unit closed",
            0,
            10,
        ),
        Param(
            "flip_odds",
            "float",
            0.6,
            "estimated chance of doing each turn of work a leader side still misses before the end",
            low=0,
            high=1,
        ),
    )
)
W_CARD, W_FORCE, W_TOKEN, W_WORKER, W_CUBE, W_LEADER, W_ODDS = range(7)
NEG = -1e9


@leaf(inline="always")
def _pb(seat):
    return PLAYERS + seat * PW
