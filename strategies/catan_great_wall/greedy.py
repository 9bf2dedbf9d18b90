"""The Great Wall greedy bot (code 1): the base Catan greedy values (strategies/catan/greedy.py)
for the base game's actions, adjusted for the wall, and values of its own for the scenario's.

It reads only what its seat may know: its own hand and development cards and the public board
(buildings, riders on territories, battlefields and hexes, the bag's contents by elimination,
wall levels, the breach count, the pirate). Never another hand or the deck.

- a settlement or city place loses the pips of its hexes that riders occupy (they produce
  nothing) and ``threat`` per pip of its hexes on an attack path whose wall is at risk;
- the fortress site: the base place value of its one hex, less ``threat`` per pip of the arrows
  that feed its battlefield;
- raising its wall (issue 35: by the threat, before a rider waits): ``wall_threat`` times the
  breach the next level saves within ``wall_horizon`` rounds times what a breach costs, ``vp``
  per VP. The riders expected on its battlefield come from the data and the public state: each
  arrow to it fires with its attack number's roll probability on every roll and moves a rider
  while its territory holds one, those waiting there and those the builds to come draw from
  the bag (``riders_per_build`` a build, the numeral in proportion to the bag, at the pace of
  builds so far), up to the ``battlefield_capacity``; the breach chance (Poisson) is that more
  than the level stand there. A breach costs ``penalty_per_breach`` VP plus the shared defeat
  brought nearer: ``vp_target / players`` over the breaches left before ``breaches_to_lose``.
  A maritime trade that makes the wall affordable when that is urgent;
- a Knight: worth a card when it can remove a rider from one of its hexes or steer riders away
  from its wall; its actions remove the rider costing it the most pips, move riders from the
  territory that feeds its wall most to the one that feeds it least, and send the pirate to the
  sea hex touching most opponents' buildings (harbours: the pirate blocks their trade);
- the pirate on a 7: the same sea hex choice; the steal: base (the leader by public VP).

Defaults (issue 35, benchmarks/walls_ships.py, 400 greedy games, 4 players, seed 35):
``wall_threat`` 2 (everybody lost 4% of the games, breaches at a level-0 wall 39%); at 1: 33%
and 64%; the greedy of before, which valued the wall only by riders already waiting: 48% and
77% (2,000 games). ``wall_horizon`` 3 rounds.
"""

import math

from sim.core.kernel import leaf
from sim.core.params import Param, ParamSet
from sim.core.scratch import stack_float64
from sim.games.catan.params import D_VERTEX_HEXES, G_N_HEX, G_N_VERT, G_VP_TARGET
from sim.games.catan.rules_shared import trade_ratio
from sim.games.catan.state import (
    A_ACCEPT,
    A_CITY,
    A_KNIGHT,
    A_OFFER,
    A_ROAD,
    A_ROBBER,
    A_ROLL,
    A_SETTLE,
    A_TRADE,
    HAND,
    HEX_NUMBER,
    N_RES,
    NP,
    PHASE,
    ROUND,
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
    W_CAPACITY,
    W_N_WALLS,
    W_NUMERALS,
    W_PENALTY,
    W_PER_BUILD,
    W_RIDERS_PER,
)
from sim.games.catan_great_wall.rules import (
    bag_riders,
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
    BAG,
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
    P_VP,
    action_value,
    answer_offer,
    is_answer,
    is_opening,
    pick_action,
    pips,
    place_value,
    places_mask,
    value_offers,
)

# Issue 35: the wall's threat term (``wall_value``). Defaults measured with
# benchmarks/walls_ships.py (2,000 greedy games, 4 and 6 players, seed 35; the module docstring)
WALL_THREAT_DEFAULT = 2.0
WALL_HORIZON_DEFAULT = 3.0

GREEDY_PARAMS = ParamSet(
    (
        *BASE_PARAMS.params,
        Param(
            "wall_threat",
            "float",
            WALL_THREAT_DEFAULT,
            "weight of a wall level's threat term: the chance it saves a breach before the "
            "horizon times what a breach costs (the penalty, the shared defeat nearer)",
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
        Param(
            "wall_horizon",
            "float",
            WALL_HORIZON_DEFAULT,
            "rounds ahead the threat on a wall is counted over (rolls and builds to come)",
            low=0.0,
            high=100.0,
        ),  # fmt: skip
    )
)
P_WALL_THREAT = len(BASE_PARAMS)
P_THREAT = P_WALL_THREAT + 1
P_WALL_HORIZON = P_WALL_THREAT + 2
K = MAX_NUMERALS
DICE_OUTCOMES = 36.0  # two six-sided dice: a number's pips out of 36


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
def arrivals(state, data, w, rounds):
    """Riders expected to reach battlefield ``w`` within ``rounds`` rounds: each arrow to it
    fires with its number's roll probability on every roll (``players`` rolls a round), and
    moves a rider only while its territory has one: those waiting there plus those the builds
    to come draw from the bag (its public contents: ``riders_per_build`` per build, the
    numeral in proportion to the bag, at the pace of builds so far: riders drawn per round,
    the round in progress counting one build)."""
    n = state[NP]
    rolls = rounds * n
    in_bag = bag_riders(state)
    drawn = data[D_W + W_RIDERS_PER] * data[D_W + W_NUMERALS] - in_bag
    per_round = (drawn + data[D_W + W_PER_BUILD]) / (state[ROUND] + 1.0)
    draws = min(float(in_bag), per_round * rounds)
    total = 0.0
    for t in range(data[D_W + W_NUMERALS]):
        fires_here = 0.0
        fires_all = 0.0
        for j in range(2):
            f = rolls * pips(data[D_ARROWS + 4 * t + 2 * j]) / DICE_OUTCOMES
            fires_all += f
            if data[D_ARROWS + 4 * t + 2 * j + 1] == w:
                fires_here += f
        if fires_here == 0.0:
            continue
        supply = float(territory_riders(state, t))
        if in_bag > 0:
            supply += draws * state[BAG + t] / in_bag
        total += fires_here * min(1.0, supply / fires_all)
    return min(total, float(data[D_W + W_CAPACITY] - field_riders(state, w)))


@leaf
def breach_chance(level, field, capacity, lam):
    """Chance that more riders than ``level`` stand on a battlefield holding ``field`` when
    ``lam`` riders are expected (Poisson); none once the level reaches the capacity."""
    if level >= capacity:
        return 0.0
    need = level - field + 1  # arrivals that break through
    if need <= 0:
        return 1.0
    term = math.exp(-lam)
    below = term
    for i in range(1, need):
        term *= lam / i
        below += term
    return max(0.0, 1.0 - below)


@leaf
def breach_cost(state, data):
    """What a breach of its own wall costs a seat, in VP: the penalty, plus the shared defeat
    brought nearer (a fair share of the VP target, ``vp_target / players``, over the breaches
    still allowed: all of it when the next breach ends the game for everybody)."""
    left = max(1, data[D_W + W_BREACH_LIMIT] - state[BREACHES])
    return data[D_W + W_PENALTY] + data[G_VP_TARGET] / (state[NP] * float(left))


@leaf
def wall_value(state, data, p, params):
    """Raising its wall one level: ``wall_threat`` times the breach it saves within
    ``wall_horizon`` rounds (the breach chance at the present level less the next) times a
    breach's cost, ``vp`` per VP."""
    w = wall_of(state, data, p)
    if w < 0:
        return NEG
    level = state[LEVEL + w]
    field = field_riders(state, w)
    cap = data[D_W + W_CAPACITY]
    lam = arrivals(state, data, w, params[P_WALL_HORIZON])
    saved = breach_chance(level, field, cap, lam) - breach_chance(level + 1, field, cap, lam)
    return params[P_WALL_THREAT] * saved * breach_cost(state, data) * params[P_VP]


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
    if is_answer(state, seat):  # an answer to an offer: the base greedy's
        return answer_offer(state, data, seat, params)
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
        if not A_OFFER <= buf[i] < A_ACCEPT:  # the offers: value_offers, after the others
            values[i] = _value(state, data, seat, buf[i], params, can_settle, n_roads, mask)
    value_offers(state, data, seat, params, buf, n, values)
    return pick_action(
        values, n, is_opening(state) or state[PHASE] == PH_FORTRESS, params, rng, buf
    )
