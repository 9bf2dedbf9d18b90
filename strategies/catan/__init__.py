"""Catan bots: random (code 0) and greedy (code 1, strategies/catan/greedy.py). The shared
search bot (code 2) is not wired in yet.

Every policy has the signature ``policy(state, data, seat, params, rng, buf) -> action`` and
reads only what ``seat`` may know; the random bot reads only the legal actions (the same for
any deal of the cards the seat cannot see).
"""

from numba import njit

from sim.core.registry import BotDecl
from sim.core.rng import randint
from sim.games.catan.rules import legal_actions
from strategies.catan.greedy import GREEDY_PARAMS, greedy_action

RANDOM_CODE, GREEDY_CODE = 0, 1

RANDOM_DECL = BotDecl("random", RANDOM_CODE, "uniform over the legal atomic actions")
GREEDY_DECL = BotDecl(
    "greedy",
    GREEDY_CODE,
    "one-step values: production by number probability, resource diversity, harbours, "
    "pieces and VP",
    GREEDY_PARAMS,
)
BOTS = (RANDOM_DECL, GREEDY_DECL)


@njit(cache=True)
def random_action(state, data, seat, params, rng, buf):
    """Uniform over the legal actions, drawn from the seat's own stream."""
    n = legal_actions(state, data, buf)
    return buf[randint(rng, n)]


@njit(cache=True)
def choose_action(state, data, seat, code, params, rng, buf):
    """Dispatch on the seat's bot code."""
    if code == GREEDY_CODE:
        return greedy_action(state, data, seat, params, rng, buf)
    return random_action(state, data, seat, params, rng, buf)
