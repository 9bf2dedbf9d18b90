"""Catan bots: random (code 0). Greedy (code 1) and the shared search bot (code 2) come later.

Every policy has the signature ``policy(state, data, seat, params, rng, buf) -> action`` and
reads only what ``seat`` may know; the random bot reads only the legal actions (the same for
any deal of the cards the seat cannot see).
"""

from numba import njit

from sim.core.registry import BotDecl
from sim.core.rng import randint
from sim.games.catan.rules import legal_actions

RANDOM_CODE = 0

RANDOM_DECL = BotDecl("random", RANDOM_CODE, "uniform over the legal atomic actions")
BOTS = (RANDOM_DECL,)


@njit(cache=True)
def random_action(state, data, seat, params, rng, buf):
    """Uniform over the legal actions, drawn from the seat's own stream."""
    n = legal_actions(state, data, buf)
    return buf[randint(rng, n)]


@njit(cache=True)
def choose_action(state, data, seat, code, params, rng, buf):
    """Dispatch on the seat's bot code (only random so far)."""
    return random_action(state, data, seat, params, rng, buf)
