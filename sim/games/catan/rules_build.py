"""Catan rules: building and development cards (§4, §4.1): a paid build or card purchase (MAIN
or the Special Building Phase), playing a card, and the return from Road Building or Year of
Plenty.
"""

from sim.core.kernel import leaf
from sim.core.rng import randint
from sim.games.catan.params import C_CITY, C_DEV, C_ROAD, C_SETTLEMENT
from sim.games.catan.rules_longest import _place_road, _place_settlement, update_largest_army
from sim.games.catan.rules_shared import _pay
from sim.games.catan.state import (
    A_BUY,
    A_CITY,
    A_KNIGHT,
    A_MONO,
    A_ROAD,
    A_ROAD_BUILDING,
    A_SETTLE,
    A_YOP,
    CITIES_LEFT,
    CUR,
    DECK,
    DECK_N,
    DEV,
    DEV_NEW,
    DEV_PLAYED,
    FREE_ROADS,
    HAND,
    HAND_N,
    KNIGHT,
    KNIGHTS,
    MONOPOLY,
    N_DEV,
    N_RES,
    NP,
    PH_ROAD_BUILDING,
    PH_ROBBER,
    PH_YOP,
    PHASE,
    PLAYED,
    RET_PHASE,
    ROAD_BUILDING,
    ROADS_LEFT,
    SEAT,
    SETTLE_LEFT,
    V_CITY,
    YEAR_OF_PLENTY,
    YOP_LEFT,
)


@leaf
def _after_card(out, data):
    """Return from a Road Building or Year of Plenty card to the phase it was played in."""
    out[PHASE] = out[RET_PHASE]
    out[SEAT] = out[CUR]


@leaf
def _build(out, data, p, action, rng):
    """A paid build or purchase (MAIN or SBP)."""
    if action == A_BUY:
        _pay(out, data, p, C_DEV)
        r = randint(rng, out[DECK_N])
        kind = 0
        for d in range(N_DEV):
            r -= out[DECK + d]
            if r < 0:
                kind = d
                break
        out[DECK + kind] -= 1
        out[DECK_N] -= 1
        out[DEV_NEW + p * N_DEV + kind] += 1
    elif action >= A_ROAD:
        _pay(out, data, p, C_ROAD)
        _place_road(out, data, p, action - A_ROAD)
    elif action >= A_CITY:
        v = action - A_CITY
        _pay(out, data, p, C_CITY)
        out[V_CITY + v] = 1
        out[CITIES_LEFT + p] -= 1
        out[SETTLE_LEFT + p] += 1
    else:
        _pay(out, data, p, C_SETTLEMENT)
        _place_settlement(out, data, p, action - A_SETTLE)


@leaf
def _play_dev(out, data, p, action):
    base = DEV + p * N_DEV
    out[DEV_PLAYED] = 1
    out[RET_PHASE] = out[PHASE]
    kind = KNIGHT
    if action == A_ROAD_BUILDING:
        kind = ROAD_BUILDING
    elif action == A_YOP:
        kind = YEAR_OF_PLENTY
    elif action != A_KNIGHT:
        kind = MONOPOLY
    out[PLAYED + kind] += 1
    if action == A_KNIGHT:
        out[base + KNIGHT] -= 1
        out[KNIGHTS + p] += 1
        update_largest_army(out, data, p)
        out[PHASE] = PH_ROBBER
    elif action == A_ROAD_BUILDING:
        out[base + ROAD_BUILDING] -= 1
        out[FREE_ROADS] = min(2, out[ROADS_LEFT + p])
        out[PHASE] = PH_ROAD_BUILDING
    elif action == A_YOP:
        out[base + YEAR_OF_PLENTY] -= 1
        out[YOP_LEFT] = 2
        out[PHASE] = PH_YOP
    else:
        res = action - A_MONO
        out[base + MONOPOLY] -= 1
        for s in range(out[NP]):
            if s != p:
                k = out[HAND + s * N_RES + res]
                out[HAND + s * N_RES + res] = 0
                out[HAND_N + s] -= k
                out[HAND + p * N_RES + res] += k
                out[HAND_N + p] += k
