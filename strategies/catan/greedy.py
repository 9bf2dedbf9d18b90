"""Catan greedy bot (code 1): one-step values over production by number probability, resource
diversity, harbours, pieces and VP; its weights are bot parameters.

It reads only what its seat may know: its own hand and development cards, the public board
(buildings, roads, robber, numbers, harbours), the bank, every player's public VP, Knights and
hand size. Never the other hands' contents or the deck's order.

Values, per action (the highest is played; ties go to the first listed):

- a place for a settlement: the pips of its hexes (a 6 or an 8 is 5 pips, a 2 or a 12 is 1,
  halved under the robber) times ``production``, plus ``diversity`` for each resource the seat
  does not produce yet, plus ``harbour`` on a harbour vertex;
- build: city and settlement ``vp`` plus the place's value; a development card ``dev``; a road
  ``road`` plus the best settlement place it opens, only when no settlement can be built;
- a maritime trade only when it makes a city, settlement (with a place for it) or development
  card affordable, or a road when the seat has no place to settle;
- development cards: a Knight when the robber sits on one of the seat's hexes or it takes
  Largest Army; Year of Plenty and Monopoly for what the next build lacks; Road Building when
  two roads can be placed;
- domestic trade (strategies/catan/greedy_trade.py): offers that raise its hand value by more
  than ``trade_margin``, accepts what helps it more than the proposer, trades with the
  accepting seat furthest behind;
- the robber goes where it costs the opponents the most pips and the seat nothing; the steal
  takes from the opponent with the most public VP; discards give up the most plentiful cards.

Openings (issue 35). With ``temperature`` > 0 a setup placement (settlement, road, and the
Great Wall's fortress site) is drawn from a softmax over the legal placements' values instead
of taking the best: weight ``exp((value - best) / (temperature * production))``, so the
temperature is counted in the value of one pip of production (a place one pip worse than the
best is ``exp(-1 / temperature)`` times as likely: 14% at the default 0.5, 2% two pips worse;
places of equal value, e.g. the roads from a settlement, are equally likely). On a fixed board a
bot that always takes the best place plays the same opening in every game, which makes the seat
spread a property of one opening; players differ in how they weigh a pip, a resource or a
harbour by about that much. The draw comes from the seat's own stream (``rng``), so it never
moves the dice; ``temperature=0`` draws nothing and is the deterministic bot of before (ties to
the first listed). Decisions after the setup always take the best value. Measured (issue 35,
``menhir ladder -p 4 -n 2000``, seed 0, against ``temperature=0``): 0.5 wins 0.500 [0.469,
0.530] of the decided Great Wall games and 0.485 [0.463, 0.507] in Troy; 1.0 wins 0.393 and
0.446 (too weak). At 0.5 each of 2,000 games on the fixed boards had its own opening
(benchmarks/openings.py).
"""

import math

import numpy as np

from sim.core.kernel import leaf
from sim.core.params import Param, ParamSet
from sim.core.rng import uniform
from sim.core.scratch import stack_float64, stack_int64
from sim.games.catan.params import (
    C_CITY,
    C_DEV,
    C_ROAD,
    C_SETTLEMENT,
    D_COSTS,
    D_EDGE_VERTICES,
    D_HEX_VERTICES,
    D_VERTEX_HEXES,
    D_VERTEX_SLOT,
    G_LA_MIN,
    G_N_VERT,
)
from sim.games.catan.rules import legal_actions
from sim.games.catan.rules_placement import any_road_ok, distance_ok, settle_ok
from sim.games.catan.rules_shared import (
    can_afford,
    public_victory_points,
    settlements_on_board,
    trade_ratio,
    victory_points,
)
from sim.games.catan.state import (
    A_ACCEPT,
    A_BUY,
    A_CITY,
    A_DECLINE,
    A_DISCARD,
    A_END,
    A_KNIGHT,
    A_MONO,
    A_OFFER,
    A_PICK,
    A_ROAD,
    A_ROAD_BUILDING,
    A_ROBBER,
    A_ROLL,
    A_SETTLE,
    A_STEAL,
    A_TRADE,
    A_YOP,
    BANK,
    CITIES_LEFT,
    CUR,
    DECK_N,
    DEV,
    DEV_NEW,
    HAND,
    HEX_NUMBER,
    HEX_TERRAIN,
    KNIGHTS,
    LA_HOLDER,
    LAPSED,
    MAX_ACTIONS,
    N_DEV,
    N_RES,
    NP,
    OFFER,
    OFFERS_MADE,
    PH_MAIN,
    PH_SETUP_ROAD,
    PH_TRADE,
    PHASE,
    PORTS,
    ROADS_LEFT,
    ROBBER,
    SETTLE_LEFT,
    SLOT_TYPE,
    TURNS,
    V_CITY,
    V_OWNER,
)
from sim.games.catan.trade import can_accept, get_count, list_offers, offer_get
from strategies.catan.greedy_trade import (
    N_GET_BOUNDS,
    answer_value,
    build_table,
    get_bounds,
    offer_value,
)

GREEDY_PARAMS = ParamSet(
    (
        Param("production", "float", 1.0, "value of one pip of production", low=0.0, high=100.0),
        Param(
            "diversity", "float", 1.5, "value of a resource not produced yet", low=0.0, high=100.0
        ),
        Param("harbour", "float", 1.0, "value of a harbour vertex", low=0.0, high=100.0),
        Param("vp", "float", 20.0, "value of one victory point", low=0.0, high=1000.0),
        Param("dev", "float", 12.0, "value of a development card", low=0.0, high=1000.0),
        Param(
            "road", "float", 2.0, "value of a road (plus the place it opens)", low=0.0, high=100.0
        ),
        Param(
            "temperature",
            "float",
            0.5,
            "setup placements drawn from a softmax over their values, in pips of production "
            "(0 = always the best: the same opening on a fixed board)",
            low=0.0,
            high=100.0,
        ),
        Param(
            "trade_margin",
            "float",
            1.0,
            "a domestic offer is made only when it raises the bot's hand value by more than this "
            "(strategies/catan/greedy_trade.py)",
            low=0.0,
            high=1000.0,
        ),
    )
)
P_PROD, P_DIV, P_HARB, P_VP, P_DEV, P_ROAD, P_TEMP, P_TRADE_MARGIN = range(8)
NEG = -1e18
# The trade and build decision greedy keeps after an offer, in the last words of the action
# buffer (no listing is that long: tests/games/catan/test_kept_decision.py): the offer (0:
# none), the turn, the seat, the offers made with it, the best value and first action among
# the decision's actions that are not offers (K_BEST: a float64 over two words), and the
# seat's hidden cards (its hand, its development cards held and bought this turn).
N_OWN = N_RES + 2 * N_DEV
K_LEN = 8 + N_OWN + 1
KEPT = MAX_ACTIONS - K_LEN - (MAX_ACTIONS & 1)
K_OFFER, K_TURN, K_SEAT, K_MADE, K_ACTION, K_BEST = range(KEPT, KEPT + 6)
K_OWN = KEPT + 8
MANY_PLACES = 8  # places valued in one decision above which one board scan is cheaper


@leaf
def soft_scale(params):
    """The softmax's scale: the temperature times the value of one pip (1 if that is 0)."""
    unit = params[P_PROD]
    return params[P_TEMP] * (unit if unit > 0.0 else 1.0)


@leaf
def soft_weight(value, best, scale):
    """A placement's softmax weight relative to the best value's (1 for the best)."""
    return math.exp((value - best) / scale)


@leaf
def is_opening(state):
    """A setup placement (settlement or road before the first roll)?"""
    return state[PHASE] <= PH_SETUP_ROAD


@leaf
def pick_action(values, n, soft, params, rng, buf):
    """``buf[i]`` of the best ``values[i]`` (first on ties); with ``soft`` (a setup placement)
    and ``temperature`` > 0, drawn from the softmax over them with the seat's ``rng``. The
    Catan games' greedy bots value their legal actions once and pick through this."""
    best = NEG
    best_a = buf[0]
    for i in range(n):
        if values[i] > best:
            best = values[i]
            best_a = buf[i]
    if not soft or params[P_TEMP] <= 0.0 or n <= 1:
        return best_a
    scale = soft_scale(params)
    total = 0.0
    for i in range(n):
        total += soft_weight(values[i], best, scale)
    r = uniform(rng) * total
    for i in range(n):
        r -= soft_weight(values[i], best, scale)
        if r < 0.0:
            return buf[i]
    return best_a


@leaf
def pips(number):
    if number < 2 or number == 7 or number > 12:
        return 0
    return 6 - abs(7 - number)


@leaf
def produces(state, data, p, res):
    """Does ``p`` have a building next to a hex of resource ``res``?"""
    for v in range(data[G_N_VERT]):
        if state[V_OWNER + v] != p:
            continue
        for k in range(3):
            h = data[D_VERTEX_HEXES + 3 * v + k]
            if h >= 0 and state[HEX_TERRAIN + h] == res and state[HEX_NUMBER + h] > 0:
                return True
    return False


@leaf
def produced_mask(state, data, p):
    """Bit ``r`` set when ``p`` has a building next to a numbered hex of resource ``r``."""
    mask = 0
    for v in range(data[G_N_VERT]):
        if state[V_OWNER + v] != p:
            continue
        for k in range(3):
            h = data[D_VERTEX_HEXES + 3 * v + k]
            if h >= 0 and state[HEX_NUMBER + h] > 0 and state[HEX_TERRAIN + h] < N_RES:
                mask |= 1 << state[HEX_TERRAIN + h]
    return mask


@leaf
def places_mask(state, data, p, n_places):
    """The ``mask`` of :func:`place_value_in` for a decision valuing ``n_places`` places: one
    scan of the board (:func:`produced_mask`) when there are many (a setup settlement weighs
    some fifty), else -1: each place's diversity test scans until it finds the resource (a
    city or two, a few roads: cheaper than a whole scan)."""
    return produced_mask(state, data, p) if n_places > MANY_PLACES else -1


@leaf
def place_value_in(state, data, p, v, params, mask):
    """Value of a settlement of ``p`` on vertex ``v`` (production, diversity, harbour);
    ``mask``: :func:`produced_mask` of ``p``, or -1 to test each resource with
    :func:`produces`."""
    value = 0.0
    for k in range(3):
        h = data[D_VERTEX_HEXES + 3 * v + k]
        if h < 0:
            continue
        t = state[HEX_TERRAIN + h]
        pp = float(pips(state[HEX_NUMBER + h]))
        if h == state[ROBBER]:
            pp *= 0.5
        value += pp * params[P_PROD]
        if t < N_RES:
            new = not (mask >> t) & 1 if mask >= 0 else not produces(state, data, p, t)
            if new:
                value += params[P_DIV]
    if data[D_VERTEX_SLOT + v] >= 0 and state[SLOT_TYPE + data[D_VERTEX_SLOT + v]] >= 0:
        value += params[P_HARB]
    return value


@leaf
def place_value(state, data, p, v, params):
    """Value of a settlement of ``p`` on vertex ``v`` (production, diversity, harbour)."""
    return place_value_in(state, data, p, v, params, -1)


@leaf
def _affordable_after(state, data, p, give, ratio, get, row):
    """Could ``p`` pay cost ``row`` after trading ``ratio`` of ``give`` for one ``get``?"""
    for r in range(N_RES):
        have = state[HAND + p * N_RES + r]
        if r == give:
            have -= ratio
        if r == get:
            have += 1
        if have < data[D_COSTS + N_RES * row + r]:
            return False
    return True


@leaf
def _lacking(state, data, p):
    """The resource ``p`` lacks most for a settlement, else a city, else a card (or -1)."""
    for row in (C_SETTLEMENT, C_CITY, C_DEV):
        best, best_r = 0, -1
        for r in range(N_RES):
            gap = data[D_COSTS + N_RES * row + r] - state[HAND + p * N_RES + r]
            if gap > best and state[BANK + r] > 0:
                best, best_r = gap, r
        if best_r >= 0:
            return best_r
    return -1


@leaf
def _robbed(state, data, p):
    """Is the robber on a hex where ``p`` has a building?"""
    h = state[ROBBER]
    if h < 0:
        return False
    for k in range(6):  # noqa: SIM110  (numba: plain loop)
        if state[V_OWNER + data[D_HEX_VERTICES + 6 * h + k]] == p:
            return True
    return False


@leaf
def _best_open_place(state, data, p, e, params, mask):
    """Best settlement place a new road on ``e`` opens (0 if none)."""
    best = 0.0
    for j in range(2):
        v = data[D_EDGE_VERTICES + 2 * e + j]
        if distance_ok(state, data, v):
            best = max(best, place_value_in(state, data, p, v, params, mask))
    return best


@leaf
def _place_open(state, data, p):
    """Has ``p`` a settlement left and a vertex where it may build one?"""
    if state[SETTLE_LEFT + p] == 0:
        return False
    for v in range(data[G_N_VERT]):  # noqa: SIM110  (numba: plain loop)
        if settle_ok(state, data, p, v):
            return True
    return False


@leaf
def _maritime_value(state, data, p, a, params):
    """A maritime trade's value: ``dev`` - 1 when it makes a city, a settlement (with a place
    for it) or a development card affordable, else ``road`` - 1 when it makes a road
    affordable and the seat has no place to settle (a road is how it gets one), else -1.
    Without the road, 3-player games stalled at the safety cap (0.24% of them): nobody
    produced brick, the bank held it all and no trade ever aimed at a road."""
    give = (a - A_TRADE) // N_RES
    get = (a - A_TRADE) % N_RES
    ratio = trade_ratio(state, data, p, give)
    place = -1  # _place_open's answer (1 or 0) once asked: a scan of every vertex, done once
    for row in (C_CITY, C_SETTLEMENT, C_DEV, C_ROAD):
        if can_afford(state, data, p, row) or not _affordable_after(
            state, data, p, give, ratio, get, row
        ):
            continue
        if row == C_CITY and (
            state[CITIES_LEFT + p] == 0 or settlements_on_board(state, data, p) == 0
        ):
            continue
        if row == C_SETTLEMENT:
            place = int(_place_open(state, data, p))
            if place == 0:
                continue
        if row == C_DEV and state[DECK_N] == 0:
            continue
        if row == C_ROAD:
            if state[ROADS_LEFT + p] == 0 or state[SETTLE_LEFT + p] == 0:
                continue
            if place < 0:
                place = int(_place_open(state, data, p))
            if place == 1 or not any_road_ok(state, data, p):
                continue
            return params[P_ROAD] - 1.0
        return params[P_DEV] - 1.0
    return -1.0


@leaf
def action_value(state, data, p, a, params, can_settle, n_roads, mask):
    """Greedy value of legal action ``a`` for seat ``p``, who produces the resources of
    ``mask`` (:func:`places_mask`)."""
    if a == A_END or a == A_ROLL:  # noqa: SIM109
        return 0.0
    if a < A_CITY:  # settlement (setup or paid)
        return params[P_VP] + place_value_in(state, data, p, a - A_SETTLE, params, mask)
    if a < A_ROAD:  # city: the production it doubles
        v = a - A_CITY
        return 2.0 * params[P_VP] + place_value_in(state, data, p, v, params, mask)
    if a < A_ROLL:  # road
        e = a - A_ROAD
        if can_settle:
            return -1.0
        return params[P_ROAD] + _best_open_place(state, data, p, e, params, mask)
    if a == A_BUY:
        return params[P_DEV]
    if a == A_KNIGHT:
        if _robbed(state, data, p):
            return params[P_DEV]
        holder = state[LA_HOLDER]
        mine = state[KNIGHTS + p] + 1
        if (
            holder != p
            and mine >= data[G_LA_MIN]
            and (holder < 0 or mine > state[KNIGHTS + holder])
        ):
            return 2.0 * params[P_VP]
        return -1.0
    if a == A_ROAD_BUILDING:
        return params[P_DEV] if n_roads >= 2 else -1.0
    if a == A_YOP:
        return params[P_DEV]
    if a < A_PICK:  # monopoly on the resource the next build lacks
        return params[P_DEV] if a - A_MONO == _lacking(state, data, p) else -1.0
    if a < A_DISCARD:  # Year of Plenty pick
        return 1.0 if a - A_PICK == _lacking(state, data, p) else 0.0
    if a < A_TRADE:  # discard the most plentiful
        return float(state[HAND + p * N_RES + a - A_DISCARD])
    if a < A_ROBBER:  # maritime trade: only to make a build affordable
        return _maritime_value(state, data, p, a, params)
    if a < A_STEAL:  # robber: opponents' pips lost, never on own hexes
        h = a - A_ROBBER
        value = 0.0
        pp = float(pips(state[HEX_NUMBER + h]))
        for k in range(6):
            owner = state[V_OWNER + data[D_HEX_VERTICES + 6 * h + k]]
            if owner == p:
                return -100.0
            if owner >= 0:
                value += pp * (1 + state[V_CITY + data[D_HEX_VERTICES + 6 * h + k]])
        return value
    if a >= A_ACCEPT:
        return answer_value(state, data, p, a, params)
    if a >= A_OFFER:  # one offer alone (greedy_action values a decision's offers at once)
        weights = stack_float64(4)
        needs = stack_int64(4)
        build_table(state, data, p, params, weights, needs)
        return offer_value(state, data, p, a, params, weights, needs)
    victim = a - A_STEAL
    return float(public_victory_points(state, data, victim))


@leaf
def position_values(state, data, params, out):
    """Each seat's position in greedy's own units, the search's ``evaluate`` for the setup
    (issue 35): ``vp`` per VP, ``production`` per pip of the hexes its buildings touch (a
    city's twice, under the robber half), ``diversity`` per resource it produces and
    ``harbour`` per harbour it reaches; returns the seat count."""
    n = state[NP]
    for s in range(n):
        out[s] = params[P_VP] * victory_points(state, data, s)
        mask = produced_mask(state, data, s)
        for r in range(N_RES):
            if (mask >> r) & 1:
                out[s] += params[P_DIV]
        for k in range(N_RES + 1):
            if state[PORTS + s * (N_RES + 1) + k] > 0:
                out[s] += params[P_HARB]
    for v in range(data[G_N_VERT]):
        o = state[V_OWNER + v]
        if o < 0:
            continue
        for k in range(3):
            h = data[D_VERTEX_HEXES + 3 * v + k]
            if h < 0:
                continue
            pp = float(pips(state[HEX_NUMBER + h])) * (1 + state[V_CITY + v])
            if h == state[ROBBER]:
                pp *= 0.5
            out[o] += pp * params[P_PROD]
    return n


@leaf
def _settle_possible(state, data, p, buf, n):
    for i in range(n):  # noqa: SIM110  (numba: plain loop)
        if A_SETTLE <= buf[i] < A_CITY:
            return True
    return False


@leaf
def value_offers(state, data, seat, params, buf, n, values):
    """The values of the offers among ``buf[:n]`` (listed together), once every other action
    of ``values`` is valued: each offer's :func:`offer_value` from one build table where it
    could be picked, else -1.

    The offers are valued by what they ask for, the highest :func:`get_bounds` first, and
    none is valued once the next bound cannot beat the best value so far (an earlier action
    or an offer already valued). An offer left at -1 is worth less than that best, and the
    pick takes the first best, so it is the same as valuing every offer (issue 42: the
    offers were a third of greedy's time)."""
    first = 0
    while first < n and not A_OFFER <= buf[first] < A_ACCEPT:
        first += 1
    end = first
    while end < n and A_OFFER <= buf[end] < A_ACCEPT:
        end += 1
    if first == end:
        return
    best = 0.0  # an offer not above 0 is worth -1 anyway
    for i in range(first):
        best = max(best, values[i])
    groups = stack_int64(MAX_ACTIONS)  # each offer's get_bounds index
    for i in range(first, end):
        values[i] = -1.0
        groups[i] = 2 * offer_get(buf[i]) + get_count(buf[i]) - 1
    weights = stack_float64(4)
    needs = stack_int64(4)
    build_table(state, data, seat, params, weights, needs)
    bounds = stack_float64(N_GET_BOUNDS)  # per resource and count asked
    margin = params[P_TRADE_MARGIN]
    if get_bounds(state, data, seat, weights, needs, 2, bounds) - margin < best:
        return  # not even 2 cards asked for could beat the best action
    get_bounds(state, data, seat, weights, needs, 1, bounds)
    for _ in range(N_GET_BOUNDS):
        k = 0
        for j in range(1, N_GET_BOUNDS):
            if bounds[j] > bounds[k]:
                k = j
        if bounds[k] - margin < best:  # NEG once every bound is taken
            return
        bounds[k] = NEG
        for i in range(first, end):
            if groups[i] == k:
                values[i] = offer_value(state, data, seat, buf[i], params, weights, needs)
                best = max(best, values[i])


@leaf
def answer_offer(state, data, seat, params):
    """A seat's answer to the pending offer (not the proposer's): what valuing its legal
    actions picks, without listing them. A_ACCEPT, legal when it holds the cards asked for,
    is worth 1 when :func:`answer_value` accepts and -1 else; A_DECLINE, always legal, 0.
    These answers were 45% of a game's decisions (issue 42)."""
    if can_accept(state, seat, state[OFFER]) and (
        answer_value(state, data, seat, A_ACCEPT, params) > 0.0
    ):
        return A_ACCEPT
    return A_DECLINE


@leaf
def is_answer(state, seat):
    """Does ``seat`` answer a pending offer (PH_TRADE, not the proposer)?"""
    return state[PHASE] == PH_TRADE and seat != state[CUR]


@leaf
def _own_word(state, p, i):
    """Word ``i`` of ``p``'s hidden cards: its hand, then its development cards held, then
    those bought this turn (what a search's deal re-deals for every seat but its own)."""
    if i < N_RES:
        return state[HAND + p * N_RES + i]
    if i < N_RES + N_DEV:
        return state[DEV + p * N_DEV + i - N_RES]
    return state[DEV_NEW + p * N_DEV + i - N_RES - N_DEV]


@leaf
def keep_decision(state, buf, offer, best, best_a):
    """Keep the trade and build decision that made ``offer``: after it lapses, the seat
    decides again in the same position, but for the offers made and the one that lapsed
    (:func:`kept_decision`)."""
    buf[K_OFFER] = offer
    buf[K_TURN] = state[TURNS]
    buf[K_SEAT] = state[CUR]
    buf[K_MADE] = state[OFFERS_MADE] + 1
    buf[K_ACTION] = best_a
    buf[K_BEST : K_BEST + 2].view(np.float64)[0] = best
    for i in range(N_OWN):
        buf[K_OWN + i] = _own_word(state, state[CUR], i)


@leaf
def kept_decision(state, buf):
    """Is this trade and build decision the kept one's position again? It is when the kept
    offer lapsed (or was cancelled) and nothing else happened: it is the last offer that
    lapsed (it had not lapsed before it was made: greedy never repeats one), in the same turn,
    and the only offer since; and every decision of greedy but an answer keeps a new one or
    drops it, so only the answers to the offer came between (a trade is the proposer's
    decision). A rollout of the search starts from the kept words of its real decision, in a
    position whose hidden cards are dealt again: the seat's own are compared too (greedy reads
    no other seat's: tests/games/catan/test_bots.py)."""
    if not (
        buf[K_OFFER] != 0
        and buf[K_OFFER] == state[LAPSED]
        and buf[K_TURN] == state[TURNS]
        and buf[K_SEAT] == state[CUR]
        and buf[K_MADE] == state[OFFERS_MADE]
    ):
        return False
    for i in range(N_OWN):  # noqa: SIM110  (numba: plain loop)
        if buf[K_OWN + i] != _own_word(state, state[CUR], i):
            return False
    return True


@leaf
def greedy_action(state, data, seat, params, rng, buf):
    """The best-valued legal action (first on ties); a setup placement with ``temperature``
    > 0 is drawn from the softmax (the module docstring) with the seat's ``rng``.

    After an offer that lapsed, the seat decides again in the same position: its actions
    that are not offers are worth what they were, so the kept best of them
    (:func:`keep_decision`) stands for them and only the offers are listed and valued again
    (issue 42: 180 of a game's 359 trade and build decisions, 4 players; the same picks)."""
    if is_answer(state, seat):
        return answer_offer(state, data, seat, params)
    values = stack_float64(MAX_ACTIONS)
    main = state[PHASE] == PH_MAIN
    if main and kept_decision(state, buf):
        buf[0] = buf[K_ACTION]
        values[0] = buf[K_BEST : K_BEST + 2].view(np.float64)[0]
        n = list_offers(state, data, seat, buf, 1)
    else:
        n = legal_actions(state, data, buf)
        can_settle = _settle_possible(state, data, seat, buf, n)
        n_roads = 0
        n_places = 0
        for i in range(n):
            if A_ROAD <= buf[i] < A_ROLL:
                n_roads += 1
            n_places += buf[i] < A_ROLL
        mask = places_mask(state, data, seat, n_places)
        for i in range(n):
            if not A_OFFER <= buf[i] < A_ACCEPT:  # the offers: value_offers, after the others
                values[i] = action_value(
                    state, data, seat, buf[i], params, can_settle, n_roads, mask
                )
    value_offers(state, data, seat, params, buf, n, values)
    action = pick_action(values, n, is_opening(state), params, rng, buf)
    if main and A_OFFER <= action < A_ACCEPT:
        best_i = 0  # the first best that is not an offer (the offers are listed last)
        for i in range(n):
            if A_OFFER <= buf[i] < A_ACCEPT:
                break
            if values[i] > values[best_i]:
                best_i = i
        keep_decision(state, buf, action, values[best_i], buf[best_i])
    else:  # only the answers to the offer (above) may come between it and its lapse
        buf[K_OFFER] = 0
    return action
