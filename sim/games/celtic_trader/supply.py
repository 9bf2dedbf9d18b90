"""The RP/VP supply (§4.8, A16 of rules/celtic-trader.md): paying a seat from the supply, with the
"+10" exchanges made automatically, in place on a state buffer.
"""

from sim.core.kernel import leaf
from sim.games.celtic_trader.params import O_RULES, R_TEN_VALUE
from sim.games.celtic_trader.state import (
    NP,
    P_RP,
    P_TENS,
    P_VP,
    PLAYERS,
    PW,
    SUPPLY,
    TENS_LEFT,
    TRIGGER,
)


@leaf
def _pay(s, data, seat, amount):
    """Pay RP from the supply (§4.8, A16): exhaustion triggers the end; "+10" exchanges are made
    automatically (active seat first, then clockwise); a shortfall left after them is lost."""
    pb = PLAYERS + seat * PW
    sup = s[SUPPLY]
    if amount <= sup:
        s[SUPPLY] = sup - amount
        s[pb + P_RP] += amount
        if s[SUPPLY] == 0:
            s[TRIGGER] = 1
        return
    s[TRIGGER] = 1
    s[pb + P_RP] += sup
    amount -= sup
    s[SUPPLY] = 0
    ten = data[O_RULES + R_TEN_VALUE]
    n = s[NP]
    while amount > 0 and s[TENS_LEFT] > 0:
        ex = -1
        for i in range(n):
            p = PLAYERS + ((seat + i) % n) * PW
            if s[p + P_RP] + s[p + P_VP] - ten * s[p + P_TENS] >= ten:
                ex = p
                break
        if ex < 0:
            return
        s[ex + P_TENS] += 1
        s[TENS_LEFT] -= 1
        s[SUPPLY] += ten
        paid = min(amount, s[SUPPLY])
        s[SUPPLY] -= paid
        s[pb + P_RP] += paid
        amount -= paid
