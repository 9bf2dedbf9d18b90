"""Catan rules: the legal actions of every phase (the deciding seat's options)."""

from sim.core.kernel import leaf
from sim.games.catan.params import (
    C_CITY,
    C_DEV,
    C_ROAD,
    C_SETTLEMENT,
    D_VERTEX_EDGES,
    G_N_HEX,
    G_N_VERT,
)
from sim.games.catan.rules_placement import any_road_ok, road_edges, settle_ok, setup_settle_ok
from sim.games.catan.rules_roll import _is_victim
from sim.games.catan.rules_shared import bank_total, can_afford, trade_ratio
from sim.games.catan.state import (
    A_BUY,
    A_CITY,
    A_DISCARD,
    A_END,
    A_KNIGHT,
    A_MONO,
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
    DECK_N,
    DEV,
    DEV_PLAYED,
    E_OWNER,
    HAND,
    KNIGHT,
    LAST_VERTEX,
    MONOPOLY,
    N_DEV,
    N_RES,
    NP,
    PH_DISCARD,
    PH_MAIN,
    PH_PRE_ROLL,
    PH_ROAD_BUILDING,
    PH_ROBBER,
    PH_SBP,
    PH_SETUP_ROAD,
    PH_SETUP_SETTLE,
    PH_STEAL,
    PH_TRADE,
    PH_YOP,
    PHASE,
    ROAD_BUILDING,
    ROADS_LEFT,
    ROBBER,
    SEAT,
    SETTLE_LEFT,
    V_CITY,
    V_OWNER,
    YEAR_OF_PLENTY,
)
from sim.games.catan.trade import list_offers, trade_actions


@leaf
def _dev_plays(state, data, p, out, n):
    """Append the development cards ``p`` may play now (one per turn, not one bought this
    turn: DEV holds only cards owned since before the turn)."""
    if state[DEV_PLAYED]:
        return n
    base = DEV + p * N_DEV
    if state[base + KNIGHT] > 0:
        out[n] = A_KNIGHT
        n += 1
    if (
        state[base + ROAD_BUILDING] > 0
        and state[ROADS_LEFT + p] > 0
        and any_road_ok(state, data, p)
    ):
        out[n] = A_ROAD_BUILDING
        n += 1
    if state[base + YEAR_OF_PLENTY] > 0 and bank_total(state) > 0:
        out[n] = A_YOP
        n += 1
    if state[base + MONOPOLY] > 0:
        for res in range(N_RES):
            out[n] = A_MONO + res
            n += 1
    return n


@leaf
def _builds(state, data, p, out, n):
    """Append the roads, settlements, cities and the card purchase ``p`` can pay for."""
    if state[ROADS_LEFT + p] > 0 and can_afford(state, data, p, C_ROAD):
        n = road_edges(state, data, p, out, n, False)
    if state[SETTLE_LEFT + p] > 0 and can_afford(state, data, p, C_SETTLEMENT):
        for v in range(data[G_N_VERT]):
            if settle_ok(state, data, p, v):
                out[n] = A_SETTLE + v
                n += 1
    if state[CITIES_LEFT + p] > 0 and can_afford(state, data, p, C_CITY):
        for v in range(data[G_N_VERT]):
            if state[V_OWNER + v] == p and state[V_CITY + v] == 0:
                out[n] = A_CITY + v
                n += 1
    if state[DECK_N] > 0 and can_afford(state, data, p, C_DEV):
        out[n] = A_BUY
        n += 1
    return n


@leaf
def legal_actions(state, data, out):
    """Fill ``out[:n]`` with the deciding seat's legal actions; return n >= 1."""
    phase = state[PHASE]
    p = state[SEAT]
    n = 0
    if phase == PH_SETUP_SETTLE:
        for v in range(data[G_N_VERT]):
            if setup_settle_ok(state, data, v):
                out[n] = A_SETTLE + v
                n += 1
    elif phase == PH_SETUP_ROAD:
        v = state[LAST_VERTEX]
        for k in range(3):
            e = data[D_VERTEX_EDGES + 3 * v + k]
            if e >= 0 and state[E_OWNER + e] == -1:
                out[n] = A_ROAD + e
                n += 1
    elif phase == PH_PRE_ROLL:
        out[n] = A_ROLL
        n += 1
        n = _dev_plays(state, data, p, out, n)
    elif phase == PH_MAIN:
        n = _builds(state, data, p, out, n)
        out[n] = A_END
        n += 1
        n = _dev_plays(state, data, p, out, n)
        for give in range(N_RES):
            if state[HAND + p * N_RES + give] >= trade_ratio(state, data, p, give):
                for get in range(N_RES):
                    if get != give and state[BANK + get] > 0:
                        out[n] = A_TRADE + give * N_RES + get
                        n += 1
        n = list_offers(state, data, p, out, n)
    elif phase == PH_TRADE:
        n = trade_actions(state, data, out)
    elif phase == PH_SBP:
        n = _builds(state, data, p, out, n)
        out[n] = A_END
        n += 1
    elif phase == PH_DISCARD:
        for res in range(N_RES):
            if state[HAND + p * N_RES + res] > 0:
                out[n] = A_DISCARD + res
                n += 1
    elif phase == PH_ROBBER:
        for h in range(data[G_N_HEX]):
            if h != state[ROBBER]:
                out[n] = A_ROBBER + h
                n += 1
    elif phase == PH_STEAL:
        for s in range(state[NP]):
            if _is_victim(state, data, s):
                out[n] = A_STEAL + s
                n += 1
    elif phase == PH_ROAD_BUILDING:
        n = road_edges(state, data, p, out, n, False)
    elif phase == PH_YOP:
        for res in range(N_RES):
            if state[BANK + res] > 0:
                out[n] = A_PICK + res
                n += 1
    return n
