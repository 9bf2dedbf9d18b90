"""Deliveries and the demand charts (§4.4, §4.7 of rules/celtic-trader.md): the legal deliveries,
paying one, and raising a chart, in place on a state buffer.
"""

from sim.core.kernel import leaf
from sim.games.celtic_trader.board import _deliverable
from sim.games.celtic_trader.params import (
    N_RES,
    O_COL_VALUE,
    O_RULES,
    O_SEC_BAST,
    O_TRADE_VAL,
    R_PER_VISIT,
)
from sim.games.celtic_trader.state import (
    A_DELIVER,
    A_PASS,
    CUR,
    DELIVERED,
    DEMAND,
    DISC,
    MAX_DELIVER,
    P_CARRIED,
    P_NCARRY,
    P_POS,
    P_TRADE,
    PLAYERS,
    PW,
    VISIT_PAID,
)
from sim.games.celtic_trader.supply import _pay


@leaf
def legal_actions_deliver(state, data, out):
    """The deliveries (§4.7): each type not delivered yet in this visit, 1..carried tokens."""
    pb = PLAYERS + state[CUR] * PW
    out[0] = A_PASS
    n = 1
    for r in range(N_RES):
        if _deliverable(state, pb, r):
            for k in range(min(state[pb + P_CARRIED + r], MAX_DELIVER)):
                out[n] = A_DELIVER + r * MAX_DELIVER + k
                n += 1
    return n


@leaf
def _deliver(s, data, seat, action):
    """Deliver k tokens of one type (§4.7): the original value pays every token."""
    pb = PLAYERS + seat * PW
    a = action - A_DELIVER
    r = a // MAX_DELIVER
    k = a % MAX_DELIVER + 1
    i = DEMAND + data[O_SEC_BAST + (s[pb + P_POS])] * N_RES + r
    value = data[O_COL_VALUE + (s[i])]
    trade = data[O_TRADE_VAL + (s[pb + P_TRADE])]
    if data[O_RULES + R_PER_VISIT]:
        gain = k * value
        if s[VISIT_PAID] == 0:
            gain += trade
            s[VISIT_PAID] = 1
    else:
        gain = k * (value + trade)
    s[i] = max(0, s[i] - k)
    s[pb + P_CARRIED + r] -= k
    s[pb + P_NCARRY] -= k
    s[DISC + r] += k
    s[DELIVERED] |= 1 << r
    _pay(s, data, seat, gain)


@leaf
def _raise_demand(s, b, r):
    i = DEMAND + b * N_RES + r
    if s[i] < 4:
        s[i] += 1
