"""Celtic Quest greedy bot: the destiny card kept: each card's value from its own data
(upgrades, RP, quests, crystals, towns and tribes at an even share of the game).
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.layout import (
    A_DESTINY,
    MAX_DESTINIES,
    QP_ALT0,
    X_CRYSTALS,
    X_DESTINY_BASIC,
    X_DESTINY_BEST_BASIC,
    X_DESTINY_CRYSTAL_VP,
    X_DESTINY_QUESTS_VP,
    X_DESTINY_RP_VP,
    X_DESTINY_TOWN_VP,
    X_DESTINY_TRIBE_VP,
    X_DESTINY_UPG,
    X_N_QUESTS,
    X_RULES,
)
from sim.games.celtic_quest.queries import qp
from sim.games.celtic_trader.params import N_BAST, N_CAPS, N_LEVELS, O_RULES, O_UPG_COST, R_SUPPLY
from sim.games.celtic_trader.state import NP


@leaf
def _card_value(state, data, d):
    """VP destiny card ``d`` would give a seat taking an even share of the game, from the
    card's own data: its share of the supply in RP (supply_points / players) buys the
    upgrades its tables pay most VP per RP for (at the data's upgrade costs), and what is
    left is held at its rp_as_vp; its quests_vp at an even share of the quest cards (the
    table's last entry at most), crystal_vp_each at an even share of the crystals, and
    roman_town_vp_each and tribe_vp_each at every bastion (the most a game gives)."""
    players = state[NP]
    rp = data[O_RULES + R_SUPPLY] // players
    lv0 = 0
    lv1 = 0
    lv2 = 0
    v = 0
    rate = data[X_DESTINY_RP_VP + d]
    for _ in range(N_CAPS * (N_LEVELS - 1)):
        best = -1
        best_r = 0.0
        for c in range(N_CAPS):
            lvl = lv0 if c == 0 else (lv1 if c == 1 else lv2)
            if lvl >= N_LEVELS - 1:
                continue
            cost = data[O_UPG_COST + lvl + 1]
            if cost > rp:
                continue
            at = X_DESTINY_UPG + d * N_CAPS * N_LEVELS + c * N_LEVELS
            gain = data[at + lvl + 1] - data[at + lvl]
            r = gain / max(cost, 1) if gain > 0 else 0.0
            if r > best_r and r > rate:
                best_r = r
                best = c
        if best < 0:
            break
        lvl = lv0 if best == 0 else (lv1 if best == 1 else lv2)
        at = X_DESTINY_UPG + d * N_CAPS * N_LEVELS + best * N_LEVELS
        v += data[at + lvl + 1] - data[at + lvl]
        rp -= data[O_UPG_COST + lvl + 1]
        if best == 0:
            lv0 += 1
        elif best == 1:
            lv1 += 1
        else:
            lv2 += 1
    v += rate * rp
    quests = data[X_RULES + X_N_QUESTS] // players
    if quests > 4:
        quests = 4
    v += data[X_DESTINY_QUESTS_VP + d * 5 + quests]
    v += data[X_DESTINY_CRYSTAL_VP + d] * (data[X_RULES + X_CRYSTALS] // players)
    v += (data[X_DESTINY_TOWN_VP + d] + data[X_DESTINY_TRIBE_VP + d]) * N_BAST
    return v


@leaf
def _destiny_value(state, data, d):
    """:func:`_card_value` of card ``d``; for a card scoring as the best basic card (the
    Luckiest), the best basic card's."""
    if data[X_DESTINY_BEST_BASIC + d] == 0:
        return _card_value(state, data, d)
    best = 0
    for other in range(MAX_DESTINIES):
        if data[X_DESTINY_BASIC + other]:
            v = _card_value(state, data, other)
            if v > best:
                best = v
    return best


@leaf
def _destiny_choice(state, data, seat):
    """Of the two destiny cards dealt, the one :func:`_destiny_value` values most (the first
    on a tie)."""
    q = qp(seat)
    a0 = state[q + QP_ALT0]
    a1 = state[q + QP_ALT0 + 1]
    v0 = _destiny_value(state, data, a0)
    return A_DESTINY + (1 if _destiny_value(state, data, a1) > v0 else 0)
