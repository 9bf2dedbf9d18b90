"""Celtic Trader's reads of the board and the seats, shared by the turn flow, Celtic Quest's rules
and the bots: who decides, the Roman spots, carrying capacity, demand and upgrade costs, role
bonuses and scores, the small tests the legal actions are built from. Where the data's rule
``R_QUEST`` is set, a few read Celtic Quest's own state through its queries (sim/games/
celtic_quest/queries.py, tiles.py, scoring.py), which import nothing of this engine. Rule
references (§) point into rules/celtic-trader.md.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.layout import ENCH, SPOT_OUT
from sim.games.celtic_quest.queries import capacity_bonus
from sim.games.celtic_quest.queries import upgrade_cost as quest_upgrade_cost
from sim.games.celtic_quest.scoring import score
from sim.games.celtic_quest.tiles import has_roman_spot_enchanted
from sim.games.celtic_trader.params import (
    K_HUB,
    MAX_DEG,
    N_CAPS,
    N_LEVELS,
    N_RES,
    O_ADJ,
    O_ADJ_COST,
    O_CARRY_X,
    O_CARRY_Y,
    O_COL_VALUE,
    O_DEG,
    O_ROLE_BONUS,
    O_ROLE_RP_VP,
    O_RULES,
    O_SEC_BAST,
    O_SEC_KIND,
    O_SEC_ROMAN,
    O_SEC_TILE,
    O_SPOT_RES,
    O_UPG_COST,
    QUEST_HOOKS,
    R_ARM_SPOTS,
    R_HUB_SPOTS,
    R_QUEST,
    R_RAISE_ANY,
)
from sim.games.celtic_trader.state import (
    CONQ,
    CUR,
    DELIVERED,
    DEMAND,
    NP,
    OVER,
    P_CARRIED,
    P_CARRY,
    P_MOVE,
    P_ROLE,
    P_RP,
    P_VP,
    PLAYERS,
    PW,
    SPOT,
)


@leaf
def current_player(state):
    """Seat that decides next; -1 once the game is over."""
    if state[OVER]:
        return -1
    return state[CUR]


@leaf
def is_over(state):
    return state[OVER] != 0


@leaf
def has_roman_spot(state, data, sec):
    """Whether the section has a Roman spot now (a Romanised bastion's spots change, §4.9)."""
    b = data[O_SEC_BAST + sec]
    if b >= 0 and state[CONQ + b]:
        if data[O_SEC_KIND + sec] == K_HUB:
            return data[O_RULES + R_HUB_SPOTS] > 0
        return data[O_RULES + R_ARM_SPOTS] > 0 and data[O_SEC_ROMAN + sec] == 1
    # Celtic Quest
    if QUEST_HOOKS and data[O_RULES + R_QUEST] and state[ENCH + data[O_SEC_TILE + sec]]:
        return has_roman_spot_enchanted(data, sec)
    return data[O_SEC_ROMAN + sec] == 1


@leaf
def capacity(state, data, seat):
    """(X max carried, Y free pick-ups) of a seat."""
    lvl = state[PLAYERS + seat * PW + P_CARRY]
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:  # Celtic Quest: quests and carried crystals
        dx, dy = capacity_bonus(state, seat)
        return data[O_CARRY_X + lvl] + dx, data[O_CARRY_Y + lvl] + dy
    return data[O_CARRY_X + lvl], data[O_CARRY_Y + lvl]


@leaf
def demand_value(state, data, b, r):
    return data[O_COL_VALUE + (state[DEMAND + b * N_RES + r])]


@leaf
def role_bonus(state, data, seat):
    """Role card bonus if the game ended now (§6): upgrade tables plus RP for the Trusted."""
    pb = PLAYERS + seat * PW
    role = state[pb + P_ROLE]
    if role < 0:
        return 0
    total = 0
    for c in range(3):
        total += data[
            O_ROLE_BONUS + role * N_CAPS * N_LEVELS + c * N_LEVELS + (state[pb + P_MOVE + c])
        ]
    total += data[O_ROLE_RP_VP + role] * state[pb + P_RP]
    return total


@leaf
def scores(state, data, out):
    """out[:n] = each seat's score if the game ended now (VP + role bonus); returns n."""
    n = state[NP]
    for seat in range(n):
        if QUEST_HOOKS and data[O_RULES + R_QUEST]:  # Celtic Quest: §6
            out[seat] = score(state, data, seat)
        else:
            out[seat] = state[PLAYERS + seat * PW + P_VP] + role_bonus(state, data, seat)
    return n


@leaf
def upgrade_cost(state, data, pb, lvl):
    """RP to reach capability level ``lvl``."""
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:  # Celtic Quest: Anvil-type discounts
        return quest_upgrade_cost(state, data, (pb - PLAYERS) // PW, lvl)
    return data[O_UPG_COST + lvl]


@leaf
def _upgrade_affordable(state, data, pb, c):
    lvl = state[pb + P_MOVE + c]
    return lvl < 4 and state[pb + P_RP] >= upgrade_cost(state, data, pb, lvl + 1)


@leaf
def _any_upgrade(state, data, pb):
    for c in range(3):  # noqa: SIM110  (numba: plain loop)
        if _upgrade_affordable(state, data, pb, c):
            return True
    return False


@leaf
def _deliverable(state, pb, r):
    return state[pb + P_CARRIED + r] > 0 and (state[DELIVERED] >> r) & 1 == 0


@leaf
def _any_deliverable(state, pb):
    for r in range(N_RES):  # noqa: SIM110  (numba: plain loop)
        if _deliverable(state, pb, r):
            return True
    return False


@leaf
def _spot_empty(state, data, sp, r):
    """The spot is one of resource ``r``, in play and empty (a drawn token may go there)."""
    if data[O_SPOT_RES + sp] != r or state[SPOT + sp] != 0:
        return False
    return data[O_RULES + R_QUEST] == 0 or state[SPOT_OUT + sp] == 0  # Celtic Quest: in play


@leaf
def _raise_ok(state, data, b, r):
    if state[CONQ + b]:
        return False
    return data[O_RULES + R_RAISE_ANY] != 0 or state[DEMAND + b * N_RES + r] < 4


@leaf
def _edge_cost(data, u, v):
    for k in range(data[O_DEG + u]):
        if data[O_ADJ + u * MAX_DEG + k] == v:
            return data[O_ADJ_COST + u * MAX_DEG + k]
    return -1
