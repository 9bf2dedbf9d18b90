"""Catan rules: the roll (§4): dice, production, the discards on a 7, and who the robber may
steal from.
"""

from sim.core.kernel import leaf
from sim.core.rng import randint
from sim.core.scratch import stack_int64
from sim.games.catan.params import D_HEX_VERTICES, G_DISCARD, G_HEX_BLOCK, G_N_HEX
from sim.games.catan.rules_shared import _take_from_bank
from sim.games.catan.state import (
    BANK,
    CUR,
    DICE,
    DISCARD_OWED,
    HAND_N,
    HEX_NUMBER,
    HEX_TERRAIN,
    N_RES,
    NP,
    PH_DISCARD,
    PH_MAIN,
    PH_ROBBER,
    PHASE,
    RET_PHASE,
    ROBBER,
    SEAT,
    V_CITY,
    V_OWNER,
)


@leaf
def _is_victim(state, data, s):
    """May the active player steal from ``s`` (§4.4c, A2): another player with a building on
    the robber's hex and at least one card."""
    if s == state[CUR] or state[HAND_N + s] == 0:
        return False
    h = state[ROBBER]
    if h < 0:
        return False
    for k in range(6):  # noqa: SIM110  (numba: plain loop)
        if state[V_OWNER + data[D_HEX_VERTICES + 6 * h + k]] == s:
            return True
    return False


@leaf
def hex_blocked(state, data, h):
    """Does hex ``h`` produce nothing now: the robber, or a scenario's blockers (G_HEX_BLOCK)?"""
    if h == state[ROBBER]:
        return True
    return data[G_HEX_BLOCK] >= 0 and state[data[G_HEX_BLOCK] + h] > 0


@leaf
def _yield_of(out, data, h, dice):
    """The resource hex ``h`` produces on a roll of ``dice``, -1 if none."""
    res = out[HEX_TERRAIN + h]
    if out[HEX_NUMBER + h] != dice or res < 0 or res >= N_RES or hex_blocked(out, data, h):
        return -1
    return res


@leaf
def produce(out, data, dice):
    """Production for a roll of ``dice`` (§4.3), resource by resource: if the bank cannot pay
    everyone owed a resource, nobody gets it, unless exactly one player is owed it: he takes
    what is left. (One pass over the hexes counts what every resource owes; resources touch
    separate cards and bank piles, so settling them together is settling them in turn.)"""
    n_hex = data[G_N_HEX]
    total = stack_int64(N_RES)
    mask = stack_int64(N_RES)
    only = stack_int64(N_RES)
    for res in range(N_RES):
        total[res] = 0
        mask[res] = 0
        only[res] = -1
    for h in range(n_hex):
        res = _yield_of(out, data, h, dice)
        if res < 0:
            continue
        for k in range(6):
            v = data[D_HEX_VERTICES + 6 * h + k]
            owner = out[V_OWNER + v]
            if owner >= 0:
                total[res] += 1 + out[V_CITY + v]
                mask[res] |= 1 << owner
                only[res] = owner
    paid = False
    for res in range(N_RES):
        if total[res] == 0:
            continue
        if total[res] <= out[BANK + res]:
            paid = True
        else:
            if mask[res] == (1 << only[res]):
                _take_from_bank(out, only[res], res, out[BANK + res])
            total[res] = 0  # nobody else is paid this resource
    if not paid:
        return
    for h in range(n_hex):
        res = _yield_of(out, data, h, dice)
        if res < 0 or total[res] == 0:
            continue
        for k in range(6):
            v = data[D_HEX_VERTICES + 6 * h + k]
            owner = out[V_OWNER + v]
            if owner >= 0:
                _take_from_bank(out, owner, res, 1 + out[V_CITY + v])


@leaf
def _next_discarder(out, after):
    """First seat after ``after`` (clockwise from the active player's order) still owing
    discards, or -1."""
    n = out[NP]
    cur = out[CUR]
    # seats in order cur, cur+1, ...; continue after position of ``after``
    pos = (after - cur) % n
    for i in range(pos + 1, n):
        s = (cur + i) % n
        if out[DISCARD_OWED + s] > 0:
            return s
    return -1


@leaf
def roll_dice(rng):
    d1 = randint(rng, 6) + 1
    d2 = randint(rng, 6) + 1
    return d1 + d2


@leaf
def _roll(out, data, rng):
    resolve_roll(out, data, roll_dice(rng))


@leaf
def resolve_roll(out, data, dice):
    """Production, or on a 7 the discards and the robber (a scenario acts between the dice
    and this)."""
    out[DICE] = dice
    if dice != 7:
        produce(out, data, dice)
        out[PHASE] = PH_MAIN
        return
    out[RET_PHASE] = PH_MAIN
    owing = False
    for s in range(out[NP]):
        if out[HAND_N + s] > data[G_DISCARD]:
            out[DISCARD_OWED + s] = out[HAND_N + s] // 2
            owing = True
    if owing:
        first = out[CUR] if out[DISCARD_OWED + out[CUR]] > 0 else _next_discarder(out, out[CUR])
        out[SEAT] = first
        out[PHASE] = PH_DISCARD
    else:
        out[PHASE] = PH_ROBBER
