"""Celtic Quest's score (rules/celtic-quest.md §6, §9): the VP box, crystals, quests and the destiny
bonus, and the row of results a finished game writes. Imports nothing of the engine.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.layout import (
    MAX_DESTINIES,
    QP_CRYST_DONE,
    QP_CRYST_VP_PLUS,
    QP_DESTINY,
    QP_NDONE,
    QP_QUEST_VP,
    QP_TRIBES,
    SPELL,
    X_DESTINY_BASIC,
    X_DESTINY_BEST_BASIC,
    X_DESTINY_CRYSTAL_VP,
    X_DESTINY_QUESTS_VP,
    X_DESTINY_RP_VP,
    X_DESTINY_TOWN_VP,
    X_DESTINY_TRIBE_VP,
    X_DESTINY_UPG,
    X_SPELL_VP,
)
from sim.games.celtic_quest.queries import qp
from sim.games.celtic_trader.params import N_BAST
from sim.games.celtic_trader.state import N_CONQ, P_MOVE, P_RP, P_VP, PLAYERS, PW


@leaf
def destiny_bonus_of(s, data, seat, d):
    """VP the destiny card ``d`` gives ``seat`` if the game ended now (§9 bonus types)."""
    pb = PLAYERS + seat * PW
    q = qp(seat)
    total = 0
    for c in range(3):
        total += data[X_DESTINY_UPG + d * 15 + c * 5 + s[pb + P_MOVE + c]]
    total += data[X_DESTINY_RP_VP + d] * s[pb + P_RP]
    nd = s[q + QP_NDONE]
    total += data[X_DESTINY_QUESTS_VP + d * 5 + (nd if nd < 4 else 4)]
    total += data[X_DESTINY_CRYSTAL_VP + d] * s[q + QP_CRYST_DONE]
    total += data[X_DESTINY_TOWN_VP + d] * s[N_CONQ]
    tribes = 0
    for b in range(N_BAST):
        tribes += (s[q + QP_TRIBES] >> b) & 1
    total += data[X_DESTINY_TRIBE_VP + d] * tribes
    return total


@leaf
def destiny_bonus(s, data, seat):
    d = s[qp(seat) + QP_DESTINY]
    if d < 0:
        return 0
    if data[X_DESTINY_BEST_BASIC + d] == 0:
        return destiny_bonus_of(s, data, seat, d)
    best = 0
    for other in range(MAX_DESTINIES):
        if data[X_DESTINY_BASIC + other]:
            v = destiny_bonus_of(s, data, seat, other)
            if v > best:
                best = v
    return best


@leaf
def components(s, data, seat, out):
    """out[0:4] = VP box, crystals, quests, destiny (§6); returns their sum."""
    pb = PLAYERS + seat * PW
    q = qp(seat)
    out[0] = s[pb + P_VP]
    out[1] = s[q + QP_CRYST_DONE] * data[X_SPELL_VP + s[SPELL]]
    out[2] = s[q + QP_QUEST_VP] + s[q + QP_CRYST_VP_PLUS] * s[q + QP_CRYST_DONE]
    out[3] = destiny_bonus(s, data, seat)
    return out[0] + out[1] + out[2] + out[3]


@leaf
def score(s, data, seat):
    pb = PLAYERS + seat * PW
    q = qp(seat)
    return (
        s[pb + P_VP]
        + s[q + QP_CRYST_DONE] * data[X_SPELL_VP + s[SPELL]]
        + s[q + QP_QUEST_VP]
        + s[q + QP_CRYST_VP_PLUS] * s[q + QP_CRYST_DONE]
        + destiny_bonus(s, data, seat)
    )


@leaf
def write_results(s, data, g, score, comps, role, extras):
    """Row ``g`` of Celtic Quest's result arrays: the score by component (VP box, crystals,
    quests, destiny), the destiny as the role, and the quests completed (the tie-break)."""
    for seat in range(score.shape[1]):
        score[g, seat] = components(s, data, seat, comps[g, seat])
        role[g, seat] = s[qp(seat) + QP_DESTINY]
        extras[g, seat, 0] = s[qp(seat) + QP_NDONE]
