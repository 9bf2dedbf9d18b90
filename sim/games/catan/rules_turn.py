"""Catan rules: the turn flow: a turn's start and end (the Special Building Phase, §4.2), the win
check (§5), ``step`` and ``advance`` (one decision of any phase).
"""

from sim.core.kernel import copy_state, leaf
from sim.core.rng import randint
from sim.games.catan.params import D_VERTEX_HEXES, G_ROUND_CAP, G_SBP, G_VP_TARGET
from sim.games.catan.rules_build import _after_card, _build, _play_dev
from sim.games.catan.rules_longest import _place_road, _place_settlement
from sim.games.catan.rules_placement import any_road_ok
from sim.games.catan.rules_roll import _is_victim, _next_discarder, _roll
from sim.games.catan.rules_shared import (
    _take_from_bank,
    bank_total,
    trade_ratio,
    victory_points,
)
from sim.games.catan.state import (
    A_DISCARD,
    A_END,
    A_KNIGHT,
    A_OFFER,
    A_PICK,
    A_ROAD,
    A_ROBBER,
    A_ROLL,
    A_SETTLE,
    A_STEAL,
    A_TRADE,
    BANK,
    CUR,
    DEV,
    DEV_NEW,
    DEV_PLAYED,
    DICE,
    DISCARD_OWED,
    FREE_ROADS,
    HAND,
    HAND_N,
    HEX_TERRAIN,
    LAPSED,
    LAST_VERTEX,
    N_DEV,
    N_RES,
    NP,
    OFFERS_MADE,
    OVER,
    PH_DISCARD,
    PH_MAIN,
    PH_OVER,
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
    R_TURN_CAP,
    R_VP_TARGET,
    REASON,
    RET_PHASE,
    ROADS_LEFT,
    ROBBER,
    ROUND,
    SBP_LEFT,
    SEAT,
    SETUP_STEP,
    START,
    TURNS,
    TURNS_TAKEN,
    WINNER,
    YOP_LEFT,
)
from sim.games.catan.trade import make_offer, trade_step


@leaf
def _start_turn(out, data, p):
    """Seat ``p`` starts a turn: its bought cards become playable; the safety cap."""
    out[CUR] = p
    out[SEAT] = p
    out[PHASE] = PH_PRE_ROLL
    out[DEV_PLAYED] = 0
    out[DICE] = 0
    out[OFFERS_MADE] = 0
    out[LAPSED] = 0
    out[TURNS] += 1
    out[TURNS_TAKEN + p] += 1
    if p == out[START]:
        out[ROUND] += 1
    for d in range(N_DEV):
        out[DEV + p * N_DEV + d] += out[DEV_NEW + p * N_DEV + d]
        out[DEV_NEW + p * N_DEV + d] = 0
    if out[ROUND] > data[G_ROUND_CAP] and victory_points(out, data, p) < data[G_VP_TARGET]:
        out[ROUND] = data[G_ROUND_CAP]
        out[TURNS] -= 1
        out[TURNS_TAKEN + p] -= 1
        out[OVER] = 1
        out[REASON] = R_TURN_CAP
        out[PHASE] = PH_OVER
        out[SEAT] = -1


@leaf
def _end_turn(out, data):
    n = out[NP]
    if data[G_SBP] and n > 1:
        out[PHASE] = PH_SBP
        out[SBP_LEFT] = n - 1
        out[SEAT] = (out[CUR] + 1) % n
    else:
        _start_turn(out, data, (out[CUR] + 1) % n)


@leaf
def _check_win(out, data):
    """§5: the active player wins as soon as he has the target VP in his own turn."""
    phase = out[PHASE]
    if out[OVER] != 0:
        return
    if phase == PH_SETUP_SETTLE or phase == PH_SETUP_ROAD or phase == PH_SBP:  # noqa: SIM109
        return
    p = out[CUR]
    if victory_points(out, data, p) >= data[G_VP_TARGET]:
        out[OVER] = 1
        out[REASON] = R_VP_TARGET
        out[WINNER] = p
        out[PHASE] = PH_OVER
        out[SEAT] = -1


@leaf
def step(state, action, data, rng, out):
    """Apply one legal ``action`` of the deciding seat to ``state``, writing only into ``out``."""
    copy_state(state, out)
    advance(out, action, data, rng)


@leaf
def advance(out, action, data, rng):
    """:func:`step` in place: ``out`` becomes the state after ``action``. For the search bot's
    rollouts and the chunk loop, which keep no earlier position (saves step's copy); ``step``
    itself stays pure.
    It reads each field before it writes it, as step read ``state``."""
    p = out[SEAT]
    phase = out[PHASE]
    n = out[NP]
    if phase == PH_SETUP_SETTLE:
        v = action - A_SETTLE
        _place_settlement(out, data, p, v)
        out[LAST_VERTEX] = v
        if out[SETUP_STEP] >= n:  # second settlement: one card per adjacent terrain (§3.5)
            for k in range(3):
                h = data[D_VERTEX_HEXES + 3 * v + k]
                if h >= 0:
                    res = out[HEX_TERRAIN + h]
                    if res < N_RES and out[BANK + res] > 0:
                        _take_from_bank(out, p, res, 1)
        out[PHASE] = PH_SETUP_ROAD
    elif phase == PH_SETUP_ROAD:
        _place_road(out, data, p, action - A_ROAD)
        i = out[SETUP_STEP] + 1
        out[SETUP_STEP] = i
        out[LAST_VERTEX] = -1
        if i >= 2 * n:
            out[ROUND] = 0
            _start_turn(out, data, out[START])
        else:
            order = i if i < n else 2 * n - 1 - i
            out[SEAT] = (out[START] + order) % n
            out[PHASE] = PH_SETUP_SETTLE
    elif phase == PH_PRE_ROLL:
        if action == A_ROLL:
            _roll(out, data, rng)
        else:
            _play_dev(out, data, p, action)
    elif phase == PH_MAIN:
        if action == A_END:
            _end_turn(out, data)
        elif action >= A_TRADE and action < A_ROBBER:
            give = (action - A_TRADE) // N_RES
            get = (action - A_TRADE) % N_RES
            ratio = trade_ratio(out, data, p, give)
            out[HAND + p * N_RES + give] -= ratio
            out[BANK + give] += ratio
            out[BANK + get] -= 1
            out[HAND + p * N_RES + get] += 1
            out[HAND_N + p] += 1 - ratio
        elif action >= A_KNIGHT and action < A_PICK:
            _play_dev(out, data, p, action)
        elif action >= A_OFFER:
            make_offer(out, data, action)
        else:
            _build(out, data, p, action, rng)
    elif phase == PH_TRADE:
        trade_step(out, data, action)
    elif phase == PH_SBP:
        if action == A_END:
            out[SBP_LEFT] -= 1
            if out[SBP_LEFT] == 0:
                _start_turn(out, data, (out[CUR] + 1) % n)
            else:
                out[SEAT] = (p + 1) % n
        else:
            _build(out, data, p, action, rng)
    elif phase == PH_DISCARD:
        res = action - A_DISCARD
        out[HAND + p * N_RES + res] -= 1
        out[HAND_N + p] -= 1
        out[BANK + res] += 1
        out[DISCARD_OWED + p] -= 1
        if out[DISCARD_OWED + p] == 0:
            nxt = _next_discarder(out, p)
            if nxt >= 0:
                out[SEAT] = nxt
            else:
                out[SEAT] = out[CUR]
                out[PHASE] = PH_ROBBER
    elif phase == PH_ROBBER:
        out[ROBBER] = action - A_ROBBER
        victims = False
        for s in range(n):
            if _is_victim(out, data, s):
                victims = True
        out[PHASE] = PH_STEAL if victims else out[RET_PHASE]
    elif phase == PH_STEAL:
        victim = action - A_STEAL
        r = randint(rng, out[HAND_N + victim])
        res = 0
        for i in range(N_RES):
            r -= out[HAND + victim * N_RES + i]
            if r < 0:
                res = i
                break
        out[HAND + victim * N_RES + res] -= 1
        out[HAND_N + victim] -= 1
        out[HAND + p * N_RES + res] += 1
        out[HAND_N + p] += 1
        out[PHASE] = out[RET_PHASE]
    elif phase == PH_ROAD_BUILDING:
        _place_road(out, data, p, action - A_ROAD)
        out[FREE_ROADS] -= 1
        if out[FREE_ROADS] == 0 or out[ROADS_LEFT + p] == 0 or not any_road_ok(out, data, p):
            out[FREE_ROADS] = 0
            _after_card(out, data)
    elif phase == PH_YOP:
        _take_from_bank(out, p, action - A_PICK, 1)
        out[YOP_LEFT] -= 1
        if out[YOP_LEFT] == 0 or bank_total(out) == 0:
            out[YOP_LEFT] = 0
            _after_card(out, data)
    _check_win(out, data)
