"""Catan rules: setup (§3): the terrain, number tokens and harbours dealt, the robber on the
desert, the bank, the deck and each seat's pieces.
"""

from sim.core.kernel import leaf
from sim.core.rng import randint, shuffle
from sim.core.scratch import stack_int64
from sim.games.catan.params import (
    D_DEV_DECK,
    D_HARBOUR_POOL,
    D_HEX_NEIGHBOURS,
    D_SPIRAL,
    D_TERRAIN_POOL,
    D_TOKENS,
    G_BANK,
    G_CITIES,
    G_DECK_N,
    G_N_HEX,
    G_N_SLOTS,
    G_N_TOKENS,
    G_RANDOM_NUMBERS,
    G_ROADS,
    G_ROTATIONS,
    G_SETTLEMENTS,
    G_START_SEAT,
)
from sim.games.catan.state import (
    BANK,
    CITIES_LEFT,
    CUR,
    DECK,
    DECK_N,
    DESERT,
    E_OWNER,
    HEX_NUMBER,
    HEX_TERRAIN,
    LA_HOLDER,
    LAST_VERTEX,
    LR_HOLDER,
    MAX_E,
    MAX_HEX,
    MAX_SLOTS,
    MAX_V,
    N_DEV,
    N_RES,
    N_TERRAINS,
    NP,
    PH_MAIN,
    PH_SETUP_SETTLE,
    PHASE,
    RET_PHASE,
    ROADS_LEFT,
    ROBBER,
    SEAT,
    SETTLE_LEFT,
    SLOT_TYPE,
    START,
    V_OWNER,
    WINNER,
)

MAX_NUMBER_TRIES = 100_000  # random number placement: reshuffles before giving up the 6/8 rule


@leaf
def red_adjacent(state, data):
    """Does a 6 or 8 token sit next to another 6 or 8?"""
    for h in range(data[G_N_HEX]):
        a = state[HEX_NUMBER + h]
        if a != 6 and a != 8:
            continue
        for k in range(6):
            m = data[D_HEX_NEIGHBOURS + 6 * h + k]
            if m >= 0:
                b = state[HEX_NUMBER + m]
                if b == 6 or b == 8:
                    return True
    return False


@leaf
def place_numbers(data, rng, out):
    """Number tokens (§3.1): along the spiral rotated by a random allowed turn, skipping
    deserts; or (lever ``number_placement``) shuffled until no 6 is next to an 8."""
    n_hex = data[G_N_HEX]
    n_tok = data[G_N_TOKENS]
    for h in range(MAX_HEX):
        out[HEX_NUMBER + h] = 0
    if data[G_RANDOM_NUMBERS] == 0:
        k = randint(rng, data[G_ROTATIONS])
        t = 0
        for i in range(n_hex):
            h = data[D_SPIRAL + MAX_HEX * k + i]
            if out[HEX_TERRAIN + h] != DESERT and t < n_tok:
                out[HEX_NUMBER + h] = data[D_TOKENS + t]
                t += 1
        return
    tokens = stack_int64(MAX_HEX)
    for t in range(MAX_HEX):
        tokens[t] = 0
    for _ in range(MAX_NUMBER_TRIES):
        for t in range(n_tok):
            tokens[t] = data[D_TOKENS + t]
        shuffle(rng, tokens, n_tok)
        t = 0
        for h in range(n_hex):
            if out[HEX_TERRAIN + h] != DESERT and t < n_tok:
                out[HEX_NUMBER + h] = tokens[t]
                t += 1
        if not red_adjacent(out, data):
            return


@leaf
def init_state(data, n_players, rng, out):
    """Setup (§3) into ``out``: shuffled terrain, numbers and harbours, the robber on the
    desert, bank and deck, pieces; the first player places the first settlement."""
    r = data
    for i in range(out.shape[0]):
        out[i] = 0
    out[NP] = n_players
    start = r[G_START_SEAT]
    out[START] = start
    out[CUR] = start
    out[SEAT] = start
    out[PHASE] = PH_SETUP_SETTLE
    out[LR_HOLDER] = -1
    out[LA_HOLDER] = -1
    out[WINNER] = -1
    out[LAST_VERTEX] = -1
    out[RET_PHASE] = PH_MAIN
    for v in range(MAX_V):
        out[V_OWNER + v] = -1
    for e in range(MAX_E):
        out[E_OWNER + e] = -1
    for s in range(MAX_SLOTS):
        out[SLOT_TYPE + s] = -1
    for res in range(N_RES):
        out[BANK + res] = r[G_BANK]
    for d in range(N_DEV):
        out[DECK + d] = data[D_DEV_DECK + d]
    out[DECK_N] = r[G_DECK_N]
    for s in range(n_players):
        out[ROADS_LEFT + s] = r[G_ROADS]
        out[SETTLE_LEFT + s] = r[G_SETTLEMENTS]
        out[CITIES_LEFT + s] = r[G_CITIES]

    n_hex = r[G_N_HEX]
    terr = stack_int64(MAX_HEX)
    for h in range(MAX_HEX):
        terr[h] = 0
    i = 0
    for t in range(N_TERRAINS):
        for _ in range(data[D_TERRAIN_POOL + t]):
            terr[i] = t
            i += 1
    shuffle(rng, terr, n_hex)
    out[ROBBER] = -1
    for h in range(n_hex):
        out[HEX_TERRAIN + h] = terr[h]
        if terr[h] == DESERT and out[ROBBER] < 0:
            out[ROBBER] = h  # the first desert (two at 5-6 players)
    for h in range(n_hex, MAX_HEX):
        out[HEX_TERRAIN + h] = DESERT
    place_numbers(data, rng, out)

    n_slots = r[G_N_SLOTS]
    harb = stack_int64(MAX_SLOTS)
    for s in range(MAX_SLOTS):
        harb[s] = 0
    i = 0
    for t in range(N_RES + 1):
        for _ in range(data[D_HARBOUR_POOL + t]):
            harb[i] = t
            i += 1
    shuffle(rng, harb, n_slots)
    for s in range(n_slots):
        out[SLOT_TYPE + s] = harb[s]
