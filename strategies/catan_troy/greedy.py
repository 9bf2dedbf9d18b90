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
- the coast (issue 35): a seat with no sea access (no building on a coast, no ship) that holds
  a ship's commerce tokens (``ship_commerce_tokens``: they buy nothing else) and has ships left
  adds ``coast`` times its next ship's worth to a settlement place on a sea hex free of ships,
  and that over one plus the roads still missing to a road that brings it nearer such a place
  (a breadth-first search through no opponent's road or building). Not in the setup: a
  coastal opening bonus cost greedy 0.37-0.44 against ``coast=0`` (`menhir ladder catan_troy
  -p 4 -n 1000`), while in play ``coast=1`` wins 0.500 [0.469, 0.531] against ``coast=0``
  and 0.510 against ``coast=3``; inland-start seats that build a ship: 53% -> 67% (400 games,
  benchmarks/walls_ships.py);
- take and swap: a free card (the swap puts back a card of its own city, else its most
  plentiful);
- the 2:1 card: the resource it produces most; the Sea People: where it hurts the opponents
  (their ships, then their buildings) and never on its own ship; the steal: the opponent with the
  most public VP.
"""

from sim.core.kernel import leaf
from sim.core.params import Param, ParamSet
from sim.core.scratch import stack_float64, stack_int64
from sim.games.catan.params import (
    C_CITY,
    C_SETTLEMENT,
    D_COSTS,
    D_EDGE_VERTICES,
    D_VERTEX_EDGES,
    D_VERTEX_HEXES,
    D_VERTEX_VERTICES,
    G_N_VERT,
)
from sim.games.catan.rules_placement import distance_ok
from sim.games.catan.rules_shared import public_victory_points, trade_ratio
from sim.games.catan.state import (
    A_ACCEPT,
    A_CITY,
    A_OFFER,
    A_ROAD,
    A_ROBBER,
    A_ROLL,
    A_SETTLE,
    A_STEAL,
    A_TRADE,
    E_OWNER,
    HAND,
    HEX_NUMBER,
    HEX_TERRAIN,
    MAX_V,
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
    answer_offer,
    is_answer,
    is_opening,
    pick_action,
    pips,
    places_mask,
    value_offers,
)

# Issue 35: a coastal place opens the first ship (``coast_value``). Default measured with
# benchmarks/walls_ships.py and `menhir ladder catan_troy` against coast=0 (the module docstring)
COAST_DEFAULT = 1.0

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
        Param(
            "coast",
            "float",
            COAST_DEFAULT,
            "share of its next ship's value that a seat with no ship and no coastal building "
            "gives a settlement place (or the road to it) on a sea hex a ship may take",
            low=0.0,
            high=100.0,
        ),
    )  # fmt: skip
)
P_SUPPORT, P_TOKEN, P_SHIP = len(BASE_PARAMS), len(BASE_PARAMS) + 1, len(BASE_PARAMS) + 2
P_COAST = P_SHIP + 1


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
def sea_access(state, data, p):
    """May ``p`` put a ship somewhere (its building on a coast or its ship next to a free sea
    hex)? Without it the seat's commerce tokens buy nothing."""
    for w in range(key(data, K_N_SEA)):  # noqa: SIM110  (numba: plain loop)
        if ship_hex_ok(state, data, p, w):
            return True
    return False


@leaf
def ship_worth(state, data, p, params):
    """Value of ``p``'s next ship (the top of its stack): ``ship``, plus ``vp`` per VP of a
    flag; 0 when its stack is empty."""
    built = state[SHIPS_BUILT + p]
    if built >= key(data, K_SHIPS):
        return 0.0
    value = params[P_SHIP]
    if data[T_STACK + built] == KIND_FLAG:
        value += params[P_VP] * key(data, K_FLAG_VP)
    return value


@leaf
def coast_value(state, data, p, v, params):
    """A building on vertex ``v`` that would open ``p``'s first ship: ``coast`` times the next
    ship's worth when ``v`` is a corner of a sea hex holding no ship (the caller checks that
    ``p`` has no sea access yet)."""
    for w in range(key(data, K_N_SEA)):
        if state[SEA_OWNER + w] != -1:
            continue
        for k in range(6):
            if data[T_SEA_VERTICES + 6 * w + k] == v:
                return params[P_COAST] * ship_worth(state, data, p, params)
    return 0.0


@leaf
def coast_distances(state, data, p, dist):
    """``dist[v]``: roads from vertex ``v`` to the nearest free settlement place on a sea hex
    holding no ship (-1: none reachable), through no opponent's road or building."""
    queue = stack_int64(MAX_V)
    head, tail = 0, 0
    for v in range(data[G_N_VERT]):
        dist[v] = -1
    for w in range(key(data, K_N_SEA)):
        if state[SEA_OWNER + w] != -1:
            continue
        for k in range(6):
            v = data[T_SEA_VERTICES + 6 * w + k]
            if v >= 0 and dist[v] < 0 and state[V_OWNER + v] < 0 and distance_ok(state, data, v):
                dist[v] = 0
                queue[tail] = v
                tail += 1
    while head < tail:
        v = queue[head]
        head += 1
        if state[V_OWNER + v] >= 0 and state[V_OWNER + v] != p:
            continue
        for k in range(3):
            e = data[D_VERTEX_EDGES + 3 * v + k]
            u = data[D_VERTEX_VERTICES + 3 * v + k]
            if e < 0 or u < 0 or dist[u] >= 0:
                continue
            if state[E_OWNER + e] >= 0 and state[E_OWNER + e] != p:
                continue
            dist[u] = dist[v] + 1
            queue[tail] = u
            tail += 1


@leaf
def road_coast_value(state, data, p, e, params, dist):
    """A road on ``e`` that brings ``p`` nearer a coastal place: the coast value of that place
    over one plus the roads still missing to it."""
    x = data[D_EDGE_VERTICES + 2 * e]
    y = data[D_EDGE_VERTICES + 2 * e + 1]
    if dist[x] < 0 or (dist[y] >= 0 and dist[y] < dist[x]):
        x, y = y, x
    if dist[x] < 0 or (dist[y] >= 0 and dist[y] <= dist[x]):
        return 0.0  # no nearer
    return params[P_COAST] * ship_worth(state, data, p, params) / (1.0 + dist[x])


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
def _value(state, data, seat, a, params, can_settle, n_roads, mask, inland, dist):
    """Greedy value of legal action ``a`` for ``seat``; ``inland``: the seat has no sea access
    and ships left to build (a coastal place is worth part of the next ship)."""
    if a >= A_DONATE:
        return troy_value(state, data, seat, a, params)
    if A_STEAL <= a < A_OFFER:  # the most public VP: buildings, Longest Road, flags
        victim = a - A_STEAL
        return float(public_victory_points(state, data, victim) + ship_vp(state, data, victim))
    v = action_value(state, data, seat, a, params, can_settle, n_roads, mask)
    if inland and a < A_CITY:  # a settlement
        v += coast_value(state, data, seat, a - A_SETTLE, params)
    elif inland and A_ROAD <= a < A_ROLL and not can_settle:
        v += road_coast_value(state, data, seat, a - A_ROAD, params, dist)
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
    if is_answer(state, seat):  # an answer to an offer: the base greedy's
        return answer_offer(state, data, seat, params)
    n = legal_actions(state, data, buf)
    can_settle = False
    n_roads = 0
    n_places = 0
    for i in range(n):
        can_settle |= buf[i] < A_CITY
        n_roads += A_ROAD <= buf[i] < A_ROLL
        n_places += buf[i] < A_ROLL
    mask = places_mask(state, data, seat, n_places)
    inland = (
        params[P_COAST] > 0.0
        and n_places > 0
        and not is_opening(state)
        and state[TOKENS + seat] >= key(data, K_SHIP_TOKENS)
        and ship_worth(state, data, seat, params) > 0.0
        and not sea_access(state, data, seat)
    )
    dist = stack_int64(MAX_V)
    if inland and n_roads > 0 and not can_settle:
        coast_distances(state, data, seat, dist)
    values = stack_float64(MAX_ACTIONS)
    for i in range(n):
        if not A_OFFER <= buf[i] < A_ACCEPT:  # the offers: value_offers, after the others
            values[i] = _value(
                state, data, seat, buf[i], params, can_settle, n_roads, mask, inland, dist
            )
    value_offers(state, data, seat, params, buf, n, values)
    return pick_action(values, n, is_opening(state), params, rng, buf)
