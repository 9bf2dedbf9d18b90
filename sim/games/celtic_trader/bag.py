"""The bag of Celtic Trader's engine (§4.3, §4.4 of rules/celtic-trader.md): drawing the tokens
owed this turn and taking one out of the drawn hand, in place on a state buffer.
"""

from sim.core.kernel import leaf
from sim.core.rng import draw_from_histogram
from sim.games.celtic_trader.state import (
    BAG,
    DRAWN_LOG,
    DRAWS_LEFT,
    DRAWS_TOTAL,
    N_DRAWN_LOG,
    N_KINDS,
    N_PENDING,
    PENDING,
)


@leaf
def _bag_total(s):
    t = 0
    for k in range(N_KINDS):
        t += s[BAG + k]
    return t


@leaf
def _draw_up(s, rng):
    """Draw the tokens still owed this turn (all of the bag if it holds fewer)."""
    while s[DRAWS_LEFT] > 0:
        total = _bag_total(s)
        if total == 0:
            return
        k = draw_from_histogram(rng, s[BAG : BAG + N_KINDS], total)
        s[BAG + k] -= 1
        s[PENDING + s[N_PENDING]] = k
        s[N_PENDING] += 1
        s[DRAWS_TOTAL] += 1
        if s[N_DRAWN_LOG] < 8:
            s[DRAWN_LOG + s[N_DRAWN_LOG]] = k
            s[N_DRAWN_LOG] += 1
        s[DRAWS_LEFT] -= 1


@leaf
def _pop_pending(s, i):
    k = s[PENDING + i]
    n = s[N_PENDING]
    for j in range(i, n - 1):
        s[PENDING + j] = s[PENDING + j + 1]
    s[PENDING + n - 1] = 0
    s[N_PENDING] = n - 1
    return k
