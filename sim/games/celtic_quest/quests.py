"""Celtic Quest's quests (rules/celtic-quest.md §4.5, §4.6): their abilities, completing, discarding
and drawing them, the crystals delivered, and the Stone Circle's steps after the claim.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.enchantment import advance_spell
from sim.games.celtic_quest.layout import (
    AB_ANVIL,
    AB_CARRY_PLUS,
    AB_CRYST_VP,
    AB_DELIV_RP,
    AB_DRAW_EXTRA,
    AB_EXTRA_MP,
    AB_FREE_ENTRY,
    AB_PICK_PLUS,
    AB_RAVEN,
    AB_SHIELD,
    MAX_HELD,
    NEXT,
    NX_UPGRADE,
    PH_CRYSTALS,
    PH_ENCHANT,
    PH_QUEST_DISCARD,
    PH_QUEST_DRAW,
    QP_ANVIL,
    QP_CARRY_PLUS,
    QP_CRYST,
    QP_CRYST_DONE,
    QP_CRYST_VP_PLUS,
    QP_DELIV_RP,
    QP_DONE_MASK,
    QP_DRAW_EXTRA,
    QP_EXTRA_MP,
    QP_FREE_HILLS,
    QP_FREE_WOODS,
    QP_HELD,
    QP_NDONE,
    QP_PENDING_MASK,
    QP_PICK_PLUS,
    QP_QUEST_VP,
    QP_RAVEN,
    QP_SHIELD,
    QPILE,
    QPILE_N,
    QPILE_TOP,
    QUEST_OUT,
    TERRAIN_HILLS,
    TERRAIN_WOODS,
    X_CRYSTAL_STEPS,
    X_QUEST_ABILITY,
    X_QUEST_AMOUNT,
    X_QUEST_NEED,
    X_QUEST_TERRAIN,
    X_QUEST_VP,
    X_QUEST_VP_SUPPLY,
    X_QUESTS_HELD,
    X_SAME_VISIT,
)
from sim.games.celtic_quest.queries import held_count, qp, quest_possible, quest_ready, xr
from sim.games.celtic_quest.tiles import any_enchantable
from sim.games.celtic_trader.state import (
    CUR,
    DISC,
    P_CARRIED,
    P_NCARRY,
    P_RP,
    P_VP,
    PHASE,
    PLAYERS,
    PW,
)
from sim.games.celtic_trader.supply import _pay


@leaf
def gain_ability(s, data, seat, quest):
    q = qp(seat)
    a = data[X_QUEST_ABILITY + quest]
    amount = data[X_QUEST_AMOUNT + quest]
    if a == AB_EXTRA_MP:
        s[q + QP_EXTRA_MP] += amount
    elif a == AB_DRAW_EXTRA:
        s[q + QP_DRAW_EXTRA] += 1 if amount == 0 else amount
    elif a == AB_FREE_ENTRY:
        if data[X_QUEST_TERRAIN + quest] & TERRAIN_WOODS:
            s[q + QP_FREE_WOODS] = 1
        if data[X_QUEST_TERRAIN + quest] & TERRAIN_HILLS:
            s[q + QP_FREE_HILLS] = 1
    elif a == AB_CARRY_PLUS:
        s[q + QP_CARRY_PLUS] += amount
    elif a == AB_PICK_PLUS:
        s[q + QP_PICK_PLUS] += amount
    elif a == AB_DELIV_RP:
        s[q + QP_DELIV_RP] += amount
    elif a == AB_SHIELD:
        s[q + QP_SHIELD] += 1 if amount == 0 else amount
    elif a == AB_ANVIL:
        s[q + QP_ANVIL] += amount
    elif a == AB_RAVEN:
        s[q + QP_RAVEN] += 1 if amount == 0 else amount
    elif a == AB_CRYST_VP:
        s[q + QP_CRYST_VP_PLUS] += amount


@leaf
def completable(s, data, seat):
    q = qp(seat)
    for i in range(MAX_HELD):
        quest = s[q + QP_HELD + i]
        if quest >= 0 and quest_ready(s, data, seat, quest):
            return True
    return False


@leaf
def complete_quest(s, data, slot):
    """§4.5 step 1: show the quest, discard its two resources, place it face up (its ability
    works from now on, B16), its VP counted at the end (B5) or taken now (lever); then the
    seat enchants a tile (True: phase set) if any can be."""
    seat = s[CUR]
    pb = PLAYERS + seat * PW
    q = qp(seat)
    quest = s[q + QP_HELD + slot]
    s[q + QP_HELD + slot] = -1
    for j in range(2):
        r = data[X_QUEST_NEED + quest * 2 + j]
        s[pb + P_CARRIED + r] -= 1
        s[pb + P_NCARRY] -= 1
        s[DISC + r] += 1
    s[q + QP_NDONE] += 1
    s[q + QP_DONE_MASK] |= 1 << quest
    vp = data[X_QUEST_VP + quest]
    if xr(data, X_QUEST_VP_SUPPLY):
        before = s[pb + P_RP]
        _pay(s, data, seat, vp)
        got = s[pb + P_RP] - before
        s[pb + P_RP] -= got
        s[pb + P_VP] += got
    else:
        s[q + QP_QUEST_VP] += vp
    if xr(data, X_SAME_VISIT):
        gain_ability(s, data, seat, quest)
    else:
        s[q + QP_PENDING_MASK] |= 1 << quest
    if any_enchantable(s, data):
        s[NEXT] = NX_UPGRADE
        s[PHASE] = PH_ENCHANT
        return True
    return False


@leaf
def discardable(s, data, seat):
    q = qp(seat)
    for i in range(MAX_HELD):
        quest = s[q + QP_HELD + i]
        if quest >= 0 and not quest_possible(s, data, seat, quest):
            return True
    return False


@leaf
def discard_quest(s, slot):
    s[qp(s[CUR]) + QP_HELD + slot] = -1
    s[QUEST_OUT] += 1


@leaf
def may_draw_quest(s, data, seat):
    return s[QPILE_N] > 0 and held_count(s, seat) < xr(data, X_QUESTS_HELD)


@leaf
def draw_quest(s):
    seat = s[CUR]
    q = qp(seat)
    for i in range(MAX_HELD):
        if s[q + QP_HELD + i] < 0:
            s[q + QP_HELD + i] = s[QPILE + s[QPILE_TOP]]
            s[QPILE_TOP] += 1
            s[QPILE_N] -= 1
            return


@leaf
def deliver_crystals(s, data, k):
    """§4.5 step 6 (B14): the batch goes to the VP box, then the marker moves; True if the
    spell track ended the game."""
    q = qp(s[CUR])
    s[q + QP_CRYST] -= k
    s[q + QP_CRYST_DONE] += k
    return advance_spell(s, data, k * xr(data, X_CRYSTAL_STEPS))


@leaf
def sc_step(s, data, start):
    """The Stone Circle's steps after the claim (§4.5 steps 4-6) from ``start`` (4, 5 or 6):
    True with the phase set at the first one the seat may take, False when none is left."""
    seat = s[CUR]
    if start <= 4 and discardable(s, data, seat):
        s[PHASE] = PH_QUEST_DISCARD
        return True
    if start <= 5 and may_draw_quest(s, data, seat):
        s[PHASE] = PH_QUEST_DRAW
        return True
    if s[qp(seat) + QP_CRYST] > 0:
        s[PHASE] = PH_CRYSTALS
        return True
    return False
