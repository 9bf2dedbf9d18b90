"""The Great Wall greedy bot (code 1): the base Catan greedy values (strategies/catan/greedy.py)
for the base game's actions, adjusted for the wall, and values of its own for the scenario's.

It reads only what its seat may know: its own hand and development cards and the public board
(buildings, riders on territories, battlefields and hexes, wall levels, the breach count, the
pirate). Never another hand or the deck.

- a settlement or city place loses the pips of its hexes that riders occupy (they produce
  nothing) and ``threat`` per pip of its hexes on an attack path whose wall is at risk;
- the fortress site: the base place value of its one hex, less ``threat`` per pip of the arrows
  that feed its battlefield;
- raising its wall: ``wall`` times how near the next breach is (riders that may still arrive
  before it, the pips of the arrows feeding the battlefield from territories holding riders),
  more as the breach count nears the defeat; a maritime trade that makes the wall affordable
  when that is urgent;
- a Knight: worth a card when it can remove a rider from one of its hexes or steer riders away
  from its wall; its actions remove the rider costing it the most pips, move riders from the
  territory that feeds its wall most to the one that feeds it least, and send the pirate to the
  sea hex touching most opponents' buildings (harbours: the pirate blocks their trade);
- the pirate on a 7: the same sea hex choice; the steal: base (the leader by public VP).
"""

from sim.core.kernel import leaf
from sim.core.params import Param, ParamSet
from sim.core.scratch import stack_float64
from sim.games.catan.params import D_VERTEX_HEXES, G_N_HEX, G_N_VERT
from sim.games.catan.rules import trade_ratio
from sim.games.catan.state import (
    A_CITY,
    A_KNIGHT,
    A_ROAD,
    A_ROBBER,
    A_ROLL,
    A_SETTLE,
    A_TRADE,
    HAND,
    HEX_NUMBER,
    N_RES,
    PHASE,
    V_CITY,
    V_OWNER,
)
from sim.games.catan_great_wall.params import (
    D_ARROWS,
    D_PATH,
    D_PATH_LEN,
    D_SEA_VERTICES,
    D_W,
    D_WALL_VERTEX,
    W_BREACH_LIMIT,
    W_N_WALLS,
    W_NUMERALS,
)
from sim.games.catan_great_wall.rules import (
    can_raise_wall,
    field_riders,
    legal_actions,
    territory_riders,
    wall_cost,
    wall_of,
)
from sim.games.catan_great_wall.state import (
    A_FORTRESS,
    A_K_DONE,
    A_K_MOVE,
    A_K_REMOVE,
    A_NO_STEAL,
    A_PIRATE,
    A_WALL,
    BREACHES,
    GW_MAX_ACTIONS,
    HEX_RIDERS,
    LEVEL,
    MAX_NUMERALS,
    MAX_PATH,
    PH_FORTRESS,
)
from strategies.catan.greedy import GREEDY_PARAMS as BASE_PARAMS
from strategies.catan.greedy import (
    NEG,
    P_DEV,
    P_PROD,
    action_value,
    is_opening,
    pick_action,
    pips,
    place_value,
    places_mask,
)

GREEDY_PARAMS = ParamSet(
    (
        *BASE_PARAMS.params,
        Param(
            "wall",
            "float",
            60.0,
            "value of a wall level when the next rider breaks through",
            low=0.0,
            high=1000.0,
        ),  # fmt: skip
        Param(
            "threat",
            "float",
            0.5,
            "cost per pip of a hex behind a wall at risk",
            low=0.0,
            high=100.0,
        ),  # fmt: skip
    )
)
P_WALL = len(BASE_PARAMS)
P_THREAT = P_WALL + 1
K = MAX_NUMERALS


@leaf
def feed_pips(state, data, w, loaded_only):
    """Pips of the arrows leading to battlefield ``w`` (from territories holding riders)."""
    total = 0
    for t in range(data[D_W + W_NUMERALS]):
        if loaded_only and territory_riders(state, t) == 0:
            continue
        for j in range(2):
            if data[D_ARROWS + 4 * t + 2 * j + 1] == w:
                total += pips(data[D_ARROWS + 4 * t + 2 * j])
    return total


@leaf
def territory_feed(data, t, w):
    """Pips of territory ``t``'s arrows to battlefield ``w``."""
    total = 0
    for j in range(2):
        if data[D_ARROWS + 4 * t + 2 * j + 1] == w:
            total += pips(data[D_ARROWS + 4 * t + 2 * j])
    return total


@leaf
def risk(state, data, w):
    """How near wall ``w``'s next breach is, 0 to about 1."""
    gap = state[LEVEL + w] - field_riders(state, w)  # riders that may still arrive safely
    if gap < 0:
        gap = 0
    return feed_pips(state, data, w, True) / 5.0 / (1.0 + gap)


@leaf
def _hex_risk(state, data, h):
    for w in range(data[D_W + W_N_WALLS]):
        for i in range(data[D_PATH_LEN + w]):
            if data[D_PATH + MAX_PATH * w + i] == h:
                return risk(state, data, w)
    return 0.0


@leaf
def place_penalty(state, data, v, params):
    """What riders on, or threatening, the hexes of vertex ``v`` cost a building there."""
    cost = 0.0
    for k in range(3):
        h = data[D_VERTEX_HEXES + 3 * v + k]
        if h < 0:
            continue
        pp = float(pips(state[HEX_NUMBER + h]))
        if state[HEX_RIDERS + h] > 0:
            cost += pp * params[P_PROD]
        else:
            cost += pp * params[P_THREAT] * _hex_risk(state, data, h)
    return cost


@leaf
def own_hex_pips(state, data, p, h):
    """Pips ``p`` loses while hex ``h`` is blocked (a city counts twice)."""
    total = 0
    for v in range(data[G_N_VERT]):
        if state[V_OWNER + v] != p:
            continue
        for k in range(3):
            if data[D_VERTEX_HEXES + 3 * v + k] == h:
                total += pips(state[HEX_NUMBER + h]) * (1 + state[V_CITY + v])
    return total


@leaf
def pirate_value(state, data, p, sea):
    value = 0.0
    for k in range(6):
        v = data[D_SEA_VERTICES + 6 * sea + k]
        if v >= 0:
            owner = state[V_OWNER + v]
            if owner >= 0 and owner != p:
                value += 1.0
            elif owner == p:
                value -= 2.0
    return value


@leaf
def doom(state, data):
    """How much a breach weighs now: more as the breach count nears the defeat, and much more
    when the next breach anywhere ends the game for everybody."""
    b = state[BREACHES]
    limit = max(1, data[D_W + W_BREACH_LIMIT])
    if b + 1 >= limit:
        return 4.0
    return 1.0 + 2.0 * b / limit


@leaf
def wall_value(state, data, p, params):
    w = wall_of(state, data, p)
    if w < 0:
        return NEG
    return params[P_WALL] * risk(state, data, w) * doom(state, data)


@leaf
def territory_danger(state, data, t, own):
    """Pips of territory ``t``'s arrows, each weighed by how near its battlefield's breach is
    (twice for the seat's own wall ``own``)."""
    total = 0.0
    for j in range(2):
        w = data[D_ARROWS + 4 * t + 2 * j + 1]
        gap = max(0, state[LEVEL + w] - field_riders(state, w))
        weight = 2.0 if w == own else 1.0
        total += pips(data[D_ARROWS + 4 * t + 2 * j]) * weight / (1.0 + gap)
    return total * doom(state, data)


@leaf
def _trade_for_wall(state, data, p, give, get, params):
    """A maritime trade that makes the wall affordable, when raising it is urgent."""
    w = wall_of(state, data, p)
    if (
        w < 0
        or can_raise_wall(state, data, p)
        or wall_value(state, data, p, params) < params[P_DEV]
    ):
        return False
    level = state[LEVEL + w]
    if level >= 5:
        return False
    ratio = trade_ratio(state, data, p, give)
    for r in range(N_RES):
        have = state[HAND + p * N_RES + r]
        if r == give:
            have -= ratio
        if r == get:
            have += 1
        if have < wall_cost(data, level, r):
            return False
    return True


@leaf
def knight_worth(state, data, p):
    """Can a Knight's rider actions help ``p`` now?"""
    for h in range(data[G_N_HEX]):
        if state[HEX_RIDERS + h] > 0 and own_hex_pips(state, data, p, h) > 0:
            return True
    w = wall_of(state, data, p)
    if w >= 0 and risk(state, data, w) > 0.5:
        return True
    if doom(state, data) < 4.0:
        return False
    for x in range(data[D_W + W_N_WALLS]):  # noqa: SIM110  (the next breach ends the game)
        if risk(state, data, x) > 0.5:
            return True
    return False


@leaf
def gw_value(state, data, p, a, params):
    """Value of a scenario action."""
    if a == A_NO_STEAL:
        return -1.0  # below every steal (a victim's public VP): greedy always takes a card
    if a == A_K_DONE:
        return 0.0
    if a >= A_K_REMOVE:
        h = a - A_K_REMOVE
        return float(own_hex_pips(state, data, p, h)) * params[P_PROD] - 0.5
    if a >= A_K_MOVE:
        w = wall_of(state, data, p)
        t = (a - A_K_MOVE) // K
        u = (a - A_K_MOVE) % K
        return territory_danger(state, data, t, w) - territory_danger(state, data, u, w) - 0.5
    if a >= A_PIRATE:
        return pirate_value(state, data, p, a - A_PIRATE)
    if a == A_WALL:
        return wall_value(state, data, p, params)
    w = a - A_FORTRESS  # fortress site
    v = data[D_WALL_VERTEX + w]
    return place_value(state, data, p, v, params) - params[P_THREAT] * feed_pips(
        state, data, w, False
    )


@leaf(inline="always")
def _value(state, data, seat, a, params, can_settle, n_roads, mask):
    """Greedy value of legal action ``a`` for ``seat``."""
    if a >= A_FORTRESS:
        return gw_value(state, data, seat, a, params)
    v = action_value(state, data, seat, a, params, can_settle, n_roads, mask)
    if a < A_ROAD:
        vert = a - A_SETTLE if a < A_CITY else a - A_CITY
        v -= place_penalty(state, data, vert, params)
    elif a == A_KNIGHT and v < 0 and knight_worth(state, data, seat):
        v = params[P_DEV]
    elif A_TRADE <= a < A_ROBBER and v < 0:
        give = (a - A_TRADE) // N_RES
        get = (a - A_TRADE) % N_RES
        if _trade_for_wall(state, data, seat, give, get, params):
            v = params[P_DEV] - 1.0
    return v


@leaf
def greedy_action(state, data, seat, params, rng, buf):
    """The best-valued legal action (first on ties); a setup placement (fortress site,
    settlement, road) with ``temperature`` > 0 is drawn from the base greedy's softmax
    (strategies/catan/greedy.py) with the seat's ``rng``."""
    n = legal_actions(state, data, buf)
    can_settle = False
    n_roads = 0
    n_places = 0
    for i in range(n):
        if A_SETTLE <= buf[i] < A_CITY:
            can_settle = True
        elif A_ROAD <= buf[i] < A_ROLL:
            n_roads += 1
        n_places += buf[i] < A_ROLL
    mask = places_mask(state, data, seat, n_places)
    values = stack_float64(GW_MAX_ACTIONS)
    for i in range(n):
        values[i] = _value(state, data, seat, buf[i], params, can_settle, n_roads, mask)
    return pick_action(
        values, n, is_opening(state) or state[PHASE] == PH_FORTRESS, params, rng, buf
    )
