"""What a Celtic Quest seat cannot see, re-dealt for the search bot's rollouts (``determinize``).

The other seats' destiny cards and uncompleted quests, and the order of the quest pile, are
hidden (rules/celtic-quest.md §7). A rollout from the true state would read them; the search
bot instead plays each rollout on a copy where those cards are dealt again at random from the
cards the seat cannot see: the destinies it does not hold (its own, and the discarded second
cards it never saw, are left out / in as the deal allows), and the quests not face up.
On a Celtic Trader state (no hidden card) it is a plain copy and draws nothing.
"""

import numpy as np
from numba import njit

from sim.core.kernel import copy_part
from sim.core.rng import shuffle
from sim.games.celtic_quest.layout import (
    MAX_HELD,
    QP_DESTINY,
    QP_HELD,
    QPILE,
    QPILE_N,
    QPILE_TOP,
    X_DESTINY_DECK,
    X_DESTINY_PROXY,
    X_N_DESTINY_DECK,
    X_RULES,
)
from sim.games.celtic_quest.queries import qp
from sim.games.celtic_trader.params import O_RULES, QUEST_HOOKS, R_QUEST
from sim.games.celtic_trader.state import NP, P_ROLE, PLAYERS, PW


@njit(cache=True)
def determinize(state, data, seat, rng, out):
    copy_part(out, state, 0, state.shape[0])
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        _deal_unseen(state, data, seat, rng, out)


@njit(cache=True)
def _deal_unseen(state, data, seat, rng, out):
    """``out`` (a copy of ``state``) with what ``seat`` cannot see dealt again."""
    n = state[NP]
    # destinies: the others' cards again, from the deck without the seat's own card
    nd = data[X_RULES + X_N_DESTINY_DECK]
    own = state[qp(seat) + QP_DESTINY]
    pool = np.empty(nd, np.int64)
    m = 0
    for i in range(nd):
        card = data[X_DESTINY_DECK + i]
        if card != own:
            pool[m] = card
            m += 1
    shuffle(rng, pool, m)
    k = 0
    for other in range(n):
        if other == seat or state[qp(other) + QP_DESTINY] < 0 or k >= m:
            continue
        out[qp(other) + QP_DESTINY] = pool[k]
        out[PLAYERS + other * PW + P_ROLE] = data[X_DESTINY_PROXY + pool[k]]
        k += 1
    # quests: the others' held quests and the pile, dealt again
    top = state[QPILE_TOP]
    left = state[QPILE_N]
    qpool = np.empty(left + MAX_HELD * n, np.int64)
    m = 0
    for i in range(left):
        qpool[m] = state[QPILE + top + i]
        m += 1
    for other in range(n):
        if other == seat:
            continue
        for j in range(MAX_HELD):
            quest = state[qp(other) + QP_HELD + j]
            if quest >= 0:
                qpool[m] = quest
                m += 1
    shuffle(rng, qpool, m)
    k = 0
    for other in range(n):
        if other == seat:
            continue
        for j in range(MAX_HELD):
            if state[qp(other) + QP_HELD + j] >= 0:
                out[qp(other) + QP_HELD + j] = qpool[k]
                k += 1
    for i in range(left):
        out[QPILE + top + i] = qpool[k + i]
