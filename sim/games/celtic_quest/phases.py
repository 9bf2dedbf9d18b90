"""The legal actions of Celtic Quest's own phases (layout.PH_*): destiny, token return,
enchantment, crystal spot, item drop, Roman relocation, Raven, quests and crystals.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.layout import (
    A_CRYSTALS,
    A_DESTINY,
    A_ITEM,
    A_QUEST,
    A_TILE,
    A_YES,
    GOLD_ROMAN,
    ITEM_DRAWN,
    MAX_CARRIED_CRYSTALS,
    MAX_HELD,
    N_ITEMS,
    PH_CRYSTAL_SPOT,
    PH_CRYSTALS,
    PH_DESTINY,
    PH_ENCHANT,
    PH_GOLD_RELOC,
    PH_ITEM_DROP,
    PH_QUEST_DISCARD,
    PH_QUEST_DONE,
    PH_QUEST_DRAW,
    PH_RAVEN,
    PH_RETURN,
    QP_CRYST,
    QP_HELD,
    QP_ITEMS,
    X_CRYSTAL_ALL,
    X_NTILES,
)
from sim.games.celtic_quest.movement import roman_targets
from sim.games.celtic_quest.queries import qp, quest_possible, quest_ready, xr
from sim.games.celtic_quest.tiles import can_enchant, crystal_spot_free
from sim.games.celtic_trader.params import O_RULES, R_NSEC
from sim.games.celtic_trader.state import (
    A_ORDER,
    A_PASS,
    A_SEC,
    CUR,
    N_PENDING,
    PENDING,
    PHASE,
    ROMAN,
)


@leaf
def legal(s, data, out):
    """Fill out[:n] with the legal actions of a Celtic Quest phase (layout.PH_*); return n."""
    ph = s[PHASE]
    seat = s[CUR]
    q = qp(seat)
    n = 0
    if ph == PH_DESTINY:
        out[0] = A_DESTINY
        out[1] = A_DESTINY + 1
        return 2
    if ph == PH_RETURN:
        for i in range(s[N_PENDING]):
            dup = False
            for j in range(i):
                if s[PENDING + j] == s[PENDING + i]:
                    dup = True
            if not dup:
                out[n] = A_ORDER + i
                n += 1
        return n
    if ph == PH_ENCHANT or ph == PH_CRYSTAL_SPOT:  # noqa: SIM109
        for t in range(xr(data, X_NTILES)):
            ok = can_enchant(s, data, t) if ph == PH_ENCHANT else crystal_spot_free(s, data, t)
            if ok:
                out[n] = A_TILE + t
                n += 1
        return n
    if ph == PH_ITEM_DROP:
        for i in range(N_ITEMS):
            if s[q + QP_ITEMS + i] > 0 or i == s[ITEM_DRAWN]:
                out[n] = A_ITEM + i
                n += 1
        return n
    out[0] = A_PASS
    n = 1
    if ph == PH_GOLD_RELOC:
        return roman_targets(s, data, out, n, s[GOLD_ROMAN])
    if ph == PH_RAVEN:
        for sec in range(data[O_RULES + R_NSEC]):
            if s[ROMAN + sec]:
                out[n] = A_SEC + sec
                n += 1
        return n
    if ph == PH_QUEST_DONE or ph == PH_QUEST_DISCARD:  # noqa: SIM109
        for i in range(MAX_HELD):
            quest = s[q + QP_HELD + i]
            if quest < 0:
                continue
            if ph == PH_QUEST_DONE:
                ok = quest_ready(s, data, seat, quest)
            else:
                ok = not quest_possible(s, data, seat, quest)
            if ok:
                out[n] = A_QUEST + i
                n += 1
        return n
    if ph == PH_QUEST_DRAW:
        out[1] = A_YES
        return 2
    if ph == PH_CRYSTALS:
        k = s[q + QP_CRYST]
        if k > MAX_CARRIED_CRYSTALS:
            k = MAX_CARRIED_CRYSTALS
        if xr(data, X_CRYSTAL_ALL):
            out[1] = A_CRYSTALS + k
            return 2
        for j in range(1, k + 1):
            out[n] = A_CRYSTALS + j
            n += 1
        return n
    return n
