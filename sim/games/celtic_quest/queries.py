"""Celtic Quest's small queries on a seat's quest block: its index, the data's rules, quests held
and possible, items in the pouch, and what quests change in Celtic Trader's numbers (carrying
capacity, upgrade costs, movement points). They import nothing of the engine, so Celtic
Trader's board reads (sim/games/celtic_trader/board.py) call them. Rule references (§) point
into rules/celtic-quest.md.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.layout import (
    MAX_HELD,
    N_ITEMS,
    QP_ANVIL,
    QP_CARRY_PLUS,
    QP_CRYST,
    QP_EXTRA_MP,
    QP_FREE_PICKS,
    QP_HELD,
    QP_ITEMS,
    QP_PICK_PLUS,
    QPLAYERS,
    QPW,
    SPOT_OUT,
    X_QUEST_NEED,
    X_RULES,
)
from sim.games.celtic_trader.params import O_MOVE_VAL, O_RULES, O_SPOT_RES, O_UPG_COST, R_NSPOT
from sim.games.celtic_trader.state import P_CARRIED, P_MOVE, PLAYERS, PW


@leaf
def qp(seat):
    """Index of a seat's quest block."""
    return QPLAYERS + seat * QPW


@leaf
def xr(data, i):
    return data[X_RULES + i]


@leaf
def held_count(state, seat):
    q = qp(seat)
    n = 0
    for i in range(MAX_HELD):
        if state[q + QP_HELD + i] >= 0:
            n += 1
    return n


@leaf
def pouch_count(state, seat):
    q = qp(seat)
    n = 0
    for i in range(N_ITEMS):
        n += state[q + QP_ITEMS + i]
    return n


@leaf
def quest_possible(state, data, seat, quest):
    """§4.5 step 4 (B15): False when a needed resource the seat does not carry has no face-up
    spot left (spots on enchanted tiles are gone, face-down ones are out of play)."""
    pb = PLAYERS + seat * PW
    for j in range(2):
        r = data[X_QUEST_NEED + quest * 2 + j]
        if state[pb + P_CARRIED + r] > 0:
            continue
        found = False
        for sp in range(data[O_RULES + R_NSPOT]):
            if data[O_SPOT_RES + sp] == r and state[SPOT_OUT + sp] == 0:
                found = True
                break
        if not found:
            return False
    return True


@leaf
def quest_ready(state, data, seat, quest):
    """The seat carries both resources of the quest (two of one kind if it needs the pair)."""
    pb = PLAYERS + seat * PW
    r1 = data[X_QUEST_NEED + quest * 2]
    r2 = data[X_QUEST_NEED + quest * 2 + 1]
    if r1 == r2:
        return state[pb + P_CARRIED + r1] >= 2
    return state[pb + P_CARRIED + r1] > 0 and state[pb + P_CARRIED + r2] > 0


@leaf
def capacity_bonus(state, seat):
    """(carrying X bonus, Y bonus) of the quests and the crystals carried (§4.4): crystals take
    room among the X tokens carried."""
    q = qp(seat)
    return state[q + QP_CARRY_PLUS] - state[q + QP_CRYST], state[q + QP_PICK_PLUS] + state[
        q + QP_FREE_PICKS
    ]


@leaf
def upgrade_cost(state, data, seat, lvl):
    """RP to reach ``lvl``, less the Anvil-type discounts (never below 0)."""
    c = data[O_UPG_COST + lvl] - state[qp(seat) + QP_ANVIL]
    return c if c > 0 else 0


@leaf
def move_points(state, data, seat):
    pb = PLAYERS + seat * PW
    return data[O_MOVE_VAL + state[pb + P_MOVE]] + state[qp(seat) + QP_EXTRA_MP]
