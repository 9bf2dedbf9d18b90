"""Catan: Troy greedy bot (code 1): the base greedy's one-step values for the base actions
(strategies/catan/greedy.py), plus values for the scenario's: it supports its own city and
builds ships.

It reads only what its seat may know: its own hand and decision card (never another seat's),
the support row's size (never its contents), the public board, ships, Sea People, markers,
commerce tokens and hand sizes.

Scenario values, per action (the highest is played; ties go to the first listed):

- a donation card: ``support`` for a card that scores for its own city, plus ``token`` for the
  card that opens the donation (a neutral card is given only to open one); never a card that
  scores for the other city, nor one its next settlement, city or ship needs (it keeps as many
  of each resource as the dearest of those costs);
- a ship: ``ship`` plus ``vp`` per VP of the token it turns over (a flag), plus a little for
  the free sea around it (room for the next ship); a trade that makes a ship affordable is
  worth ``ship`` less 1;
- take and swap: a free card (the swap puts back a card of its own city, else its most
  plentiful);
- the 2:1 card: the resource it produces most; the Sea People: where it hurts the opponents
  (their ships, then their buildings) and never on its own ship; the steal: the opponent with the
  most public VP.
"""

from sim.core.kernel import leaf
from sim.core.params import Param, ParamSet
from sim.core.scratch import stack_float64
from sim.games.catan.params import C_CITY, C_SETTLEMENT, D_COSTS, D_VERTEX_HEXES, G_N_VERT
from sim.games.catan.rules import public_victory_points, trade_ratio
from sim.games.catan.state import (
    A_CITY,
    A_OFFER,
    A_ROAD,
    A_ROBBER,
    A_ROLL,
    A_STEAL,
    A_TRADE,
    HAND,
    HEX_NUMBER,
    HEX_TERRAIN,
    V_OWNER,
)
from sim.games.catan.state import N_RES as R
from sim.games.catan_troy.params import (
    K_FLAG_VP,
    K_N_SEA,
    K_SHIP_TOKENS,
    K_SHIPS,
    T_ALIGN,
    T_SEA_NEIGHBOURS,
    T_SEA_VERTICES,
    T_SHIP_COST,
    T_STACK,
)
from sim.games.catan_troy.rules import key, legal_actions, ship_hex_ok, ship_vp
from sim.games.catan_troy.state import (
    A_CARD,
    A_DONATE,
    A_NO_STEAL,
    A_PUT,
    A_SEA,
    A_SHIP,
    A_SWAP,
    A_TAKE,
    DONATING,
    KIND_FLAG,
    MAX_ACTIONS,
    SEA_OWNER,
    SHIPS_BUILT,
    SIDE,
    TOKENS,
)
from strategies.catan.greedy import GREEDY_PARAMS as BASE_PARAMS
from strategies.catan.greedy import (
    P_VP,
    action_value,
    is_opening,
    pick_action,
    pips,
    places_mask,
)

GREEDY_PARAMS = ParamSet(
    (
        *BASE_PARAMS,
        Param(
            "support", "float", 3.0, "value of a card given to its own city", low=0.0, high=100.0
        ),
        Param(
            "token",
            "float",
            2.0,
            "value of the commerce token a donation earns",
            low=0.0,
            high=100.0,
        ),
        Param("ship", "float", 12.0, "value of a ship (its advantage)", low=0.0, high=1000.0),
    )  # fmt: skip
)
P_SUPPORT, P_TOKEN, P_SHIP = len(BASE_PARAMS), len(BASE_PARAMS) + 1, len(BASE_PARAMS) + 2


@leaf
def keep(data, r):
    """Cards of ``r`` kept back from donations: the most a settlement, city or ship needs."""
    k = data[T_SHIP_COST + r]
    for row in (C_SETTLEMENT, C_CITY):
        k = max(k, data[D_COSTS + R * row + r])
    return k


@leaf
def own_alignment(state, data, p, r):
    """+1 if ``r`` scores for ``p``'s own city, -1 for the other, 0 neutral."""
    a = data[T_ALIGN + r]
    return a if state[SIDE + p] == 0 else -a


@leaf
def ship_affordable_after(state, data, p, give, ratio, get):
    """Could ``p`` pay a ship after trading ``ratio`` of ``give`` for one ``get``?"""
    if state[TOKENS + p] < key(data, K_SHIP_TOKENS) or state[SHIPS_BUILT + p] >= key(data, K_SHIPS):
        return False
    short = False
    for r in range(R):
        have = state[HAND + p * R + r]
        if have < data[T_SHIP_COST + r]:
            short = True
        if r == give:
            have -= ratio
        if r == get:
            have += 1
        if have < data[T_SHIP_COST + r]:
            return False
    if not short:
        return False
    for w in range(key(data, K_N_SEA)):  # noqa: SIM110  (numba: plain loop)
        if ship_hex_ok(state, data, p, w):
            return True
    return False


@leaf
def produced_pips(state, data, p, res):
    n = 0
    for v in range(data[G_N_VERT]):
        if state[V_OWNER + v] != p:
            continue
        for k in range(3):
            h = data[D_VERTEX_HEXES + 3 * v + k]
            if h >= 0 and state[HEX_TERRAIN + h] == res:
                n += pips(state[HEX_NUMBER + h])
    return n


@leaf
def sea_value(state, data, p, w):
    """The Sea People on sea hex ``w``: opponents' ships and buildings hit, never own ships."""
    owner = state[SEA_OWNER + w]
    if owner == p:
        return -100.0
    value = 0.0
    if owner >= 0:
        value += 3.0
    for k in range(6):
        v = data[T_SEA_VERTICES + 6 * w + k]
        if v >= 0 and state[V_OWNER + v] >= 0 and state[V_OWNER + v] != p:
            value += 1.0
    return value


@leaf
def troy_value(state, data, p, a, params):
    """Greedy value of a scenario action ``a`` for seat ``p``."""
    if a < A_SHIP:  # a donation card
        r = a - A_DONATE
        side = own_alignment(state, data, p, r)
        if side < 0 or state[HAND + p * R + r] <= keep(data, r):
            return -1.0
        opening = params[P_TOKEN] if state[DONATING] == 0 else 0.0
        if side == 0:
            return opening - 0.5 if opening > 0 else -1.0
        return params[P_SUPPORT] + opening
    if a < A_SEA:  # a ship: its kind is the top of the stack
        w = a - A_SHIP
        value = params[P_SHIP]
        if data[T_STACK + state[SHIPS_BUILT + p]] == KIND_FLAG:
            value += params[P_VP] * key(data, K_FLAG_VP)
        for k in range(6):
            m = data[T_SEA_NEIGHBOURS + 6 * w + k]
            if m >= 0 and state[SEA_OWNER + m] == -1:
                value += 0.1
        return value
    if a < A_TAKE:
        return sea_value(state, data, p, a - A_SEA)
    if a == A_TAKE or a == A_SWAP:  # noqa: SIM109
        return 2.0 if a == A_TAKE else 1.5
    if a < A_CARD:  # the swap's card back: own city's, else the most plentiful
        r = a - A_PUT
        return float(state[HAND + p * R + r]) + 10.0 * own_alignment(state, data, p, r)
    if a < A_NO_STEAL:  # the 2:1 card
        return float(produced_pips(state, data, p, a - A_CARD))
    return -1.0  # no steal


@leaf(inline="always")
def _value(state, data, seat, a, params, can_settle, n_roads, mask):
    """Greedy value of legal action ``a`` for ``seat``."""
    if a >= A_DONATE:
        return troy_value(state, data, seat, a, params)
    if A_STEAL <= a < A_OFFER:  # the most public VP: buildings, Longest Road, flags
        victim = a - A_STEAL
        return float(public_victory_points(state, data, victim) + ship_vp(state, data, victim))
    v = action_value(state, data, seat, a, params, can_settle, n_roads, mask)
    if A_TRADE <= a < A_ROBBER and v < 0:
        give, get = (a - A_TRADE) // R, (a - A_TRADE) % R
        ratio = trade_ratio(state, data, seat, give)
        if ship_affordable_after(state, data, seat, give, ratio, get):
            v = params[P_SHIP] - 1.0
    return v


@leaf
def greedy_action(state, data, seat, params, rng, buf):
    """The best-valued legal action (first on ties); a setup placement with ``temperature``
    > 0 is drawn from the base greedy's softmax (strategies/catan/greedy.py) with the seat's
    ``rng``."""
    n = legal_actions(state, data, buf)
    can_settle = False
    n_roads = 0
    n_places = 0
    for i in range(n):
        can_settle |= buf[i] < A_CITY
        n_roads += A_ROAD <= buf[i] < A_ROLL
        n_places += buf[i] < A_ROLL
    mask = places_mask(state, data, seat, n_places)
    values = stack_float64(MAX_ACTIONS)
    for i in range(n):
        values[i] = _value(state, data, seat, buf[i], params, can_settle, n_roads, mask)
    return pick_action(values, n, is_opening(state), params, rng, buf)
