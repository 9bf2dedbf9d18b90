"""Catan rules: small readers and shared procedures.

Whose decision it is, the pieces on the board, victory points and scores (§6), costs and the
bank, the harbour ratios, paying for a build and taking cards from the bank.
"""

from sim.core.kernel import leaf
from sim.games.catan.params import (
    D_COSTS,
    G_BANK_RATIO,
    G_CITIES,
    G_EXTRA_VP,
    G_GENERIC_RATIO,
    G_LA_VP,
    G_LR_VP,
    G_SETTLEMENTS,
    G_SPECIAL_RATIO,
)
from sim.games.catan.state import (
    BANK,
    CITIES_LEFT,
    DEV,
    DEV_NEW,
    GENERIC,
    HAND,
    HAND_N,
    LA_HOLDER,
    LR_HOLDER,
    N_DEV,
    N_RES,
    NP,
    OVER,
    PORTS,
    SEAT,
    SETTLE_LEFT,
    VICTORY_POINT,
    WINNER,
)


@leaf
def current_player(state):
    """The seat that decides next; -1 once the game is over."""
    return -1 if state[OVER] else state[SEAT]


@leaf
def is_over(state):
    return state[OVER] != 0


@leaf
def settlements_on_board(state, data, p):
    return data[G_SETTLEMENTS] - state[SETTLE_LEFT + p]


@leaf
def cities_on_board(state, data, p):
    return data[G_CITIES] - state[CITIES_LEFT + p]


@leaf
def vp_cards(state, p):
    """Victory Point cards held, bought this turn or before (§4.1: they count at once)."""
    return state[DEV + p * N_DEV + VICTORY_POINT] + state[DEV_NEW + p * N_DEV + VICTORY_POINT]


@leaf
def victory_points(state, data, p):
    """VP of seat ``p`` counting hidden VP cards (§6)."""
    vp = settlements_on_board(state, data, p) + 2 * cities_on_board(state, data, p)
    vp += vp_cards(state, p)
    if state[LR_HOLDER] == p:
        vp += data[G_LR_VP]
    if state[LA_HOLDER] == p:
        vp += data[G_LA_VP]
    if data[G_EXTRA_VP] >= 0:  # scenario hook (params.G_EXTRA_VP)
        vp += state[data[G_EXTRA_VP] + p]
    return vp


@leaf
def public_victory_points(state, data, p):
    """VP that every player can see (VP cards stay hidden)."""
    return victory_points(state, data, p) - vp_cards(state, p)


@leaf
def scores(state, data, out):
    """Each seat's VP (if the game ended now), the VP-target winner ranked first whatever the
    others hold (only the active player can win, §6); returns the seat count."""
    for s in range(state[NP]):
        out[s] = victory_points(state, data, s)
        if s == state[WINNER]:
            out[s] += 1000
    return state[NP]


@leaf
def can_afford(state, data, p, row):
    for r in range(N_RES):  # noqa: SIM110  (numba: plain loop)
        if state[HAND + p * N_RES + r] < data[D_COSTS + N_RES * row + r]:
            return False
    return True


@leaf
def bank_total(state):
    n = 0
    for r in range(N_RES):
        n += state[BANK + r]
    return n


@leaf
def trade_ratio(state, data, p, r):
    """Cards of resource ``r`` that ``p`` gives for one card (§4.5): bank or best harbour."""
    ratio = data[G_BANK_RATIO]
    if state[PORTS + p * (N_RES + 1) + GENERIC] and data[G_GENERIC_RATIO] < ratio:
        ratio = data[G_GENERIC_RATIO]
    if state[PORTS + p * (N_RES + 1) + r] and data[G_SPECIAL_RATIO] < ratio:
        ratio = data[G_SPECIAL_RATIO]
    return ratio


@leaf
def _pay(out, data, p, row):
    for r in range(N_RES):
        c = data[D_COSTS + N_RES * row + r]
        out[HAND + p * N_RES + r] -= c
        out[BANK + r] += c
        out[HAND_N + p] -= c


@leaf
def _take_from_bank(out, p, r, k):
    out[BANK + r] -= k
    out[HAND + p * N_RES + r] += k
    out[HAND_N + p] += k
