"""Celtic Trader's set-up table (§3 of rules/celtic-trader.md) written into a state buffer: the
first part of both games' set-up (Celtic Quest adds its own in sim/games/celtic_quest/setup.py).
"""

from sim.core.kernel import leaf
from sim.games.celtic_trader.params import (
    N_BAST,
    N_RES,
    O_RULES,
    O_START_COL,
    R_BAG_RES,
    R_CYCLE,
    R_NSPOT,
    R_ORDERS,
    R_ROMANISATION,
    R_ROMANS,
    R_ROMANS_TOTAL,
    R_SUPPLY,
    R_TENS,
)
from sim.games.celtic_trader.state import (
    BAG,
    DEMAND,
    HELD,
    NP,
    P_POS,
    P_ROLE,
    PLAYERS,
    PW,
    ROLE_MODE,
    ROLES_FIXED,
    ROMANS_BOX,
    ROUND,
    SPOT,
    SUPPLY,
    T_CYCLE,
    T_ORDERS,
    T_ROMAN,
    T_ROMANISE,
    TAKEN,
    TENS_LEFT,
    TOKEN,
)


@leaf
def setup_state(data, n_players, role_mode, fixed_roles, out):
    """The set-up table of §3 in ``out``, before the first player's first turn starts."""
    for i in range(out.shape[0]):
        out[i] = 0
    out[NP] = n_players
    out[ROUND] = 1
    out[SUPPLY] = data[O_RULES + R_SUPPLY]
    out[TENS_LEFT] = data[O_RULES + R_TENS]
    out[TOKEN] = -1
    out[HELD] = -1
    out[ROLE_MODE] = role_mode
    for r in range(N_RES):
        out[BAG + r] = data[O_RULES + R_BAG_RES]
    out[BAG + T_ROMAN] = data[O_RULES + R_ROMANS]
    out[BAG + T_CYCLE] = data[O_RULES + R_CYCLE]
    out[BAG + T_ORDERS] = data[O_RULES + R_ORDERS]
    out[BAG + T_ROMANISE] = data[O_RULES + R_ROMANISATION]
    out[ROMANS_BOX] = data[O_RULES + R_ROMANS_TOTAL] - data[O_RULES + R_ROMANS]
    for sp in range(data[O_RULES + R_NSPOT]):
        out[SPOT + sp] = 1
    for b in range(N_BAST):
        for r in range(N_RES):
            out[DEMAND + b * N_RES + r] = data[O_START_COL + b * N_RES + r]
    for seat in range(n_players):
        pb = PLAYERS + seat * PW
        out[pb + P_POS] = -1
        out[pb + P_ROLE] = -1
        if role_mode == ROLES_FIXED:
            out[pb + P_ROLE] = fixed_roles[seat]
            out[TAKEN + fixed_roles[seat]] = 1
