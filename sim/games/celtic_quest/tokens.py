"""The start of a Celtic Quest turn and its bag tokens (rules/celtic-quest.md §4.1, §4.2): the
abilities of last turn's quests, the extra draws of Talisman-type quests and the tokens put
back, and the druid, crystal and item tokens.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.enchantment import advance_spell
from sim.games.celtic_quest.layout import (
    ITEM_DRAWN,
    NEXT,
    NX_TOKENS,
    PH_CRYSTAL_SPOT,
    PH_ENCHANT,
    PH_ITEM_DROP,
    PH_RETURN,
    QP_BREADS_USED,
    QP_DRAW_EXTRA,
    QP_FREE_PICKS,
    QP_ITEMS,
    QP_PENDING_MASK,
    QP_RAVEN_USED,
    QP_SHIELD_USED,
    RETURN_LEFT,
    T_CRYSTAL,
    T_DRUID,
    T_GOLD,
    TCRYST,
    X_DRUID_STEPS,
    X_N_QUESTS,
    X_NTILES,
    X_POUCH,
)
from sim.games.celtic_quest.queries import pouch_count, qp, xr
from sim.games.celtic_quest.quests import gain_ability
from sim.games.celtic_quest.setup import destiny_pending
from sim.games.celtic_quest.tiles import any_enchantable, crystal_spot_free
from sim.games.celtic_trader.bag import _pop_pending
from sim.games.celtic_trader.params import O_RULES, R_DRAWS
from sim.games.celtic_trader.state import (
    BAG,
    CUR,
    DISC,
    DRAWS_LEFT,
    HELD,
    N_PENDING,
    PENDING,
    PHASE,
    T_CYCLE,
)

MAX_PENDING = 4  # drawn tokens held at once (Celtic Trader's state.PENDING slots)


@leaf
def begin_turn(s, data):
    """Per-turn counters; the abilities of last turn's quests (ability_same_visit off); True
    while a seat must still keep one of its two destiny cards (advanced deal: set-up, before
    the first turn, see ``destiny_pending``)."""
    seat = s[CUR]
    q = qp(seat)
    s[q + QP_SHIELD_USED] = 0
    s[q + QP_RAVEN_USED] = 0
    s[q + QP_BREADS_USED] = 0
    s[q + QP_FREE_PICKS] = 0
    pending = s[q + QP_PENDING_MASK]
    if pending:
        for quest in range(xr(data, X_N_QUESTS)):
            if (pending >> quest) & 1:
                gain_ability(s, data, seat, quest)
        s[q + QP_PENDING_MASK] = 0
    return destiny_pending(s)


@leaf
def draws_this_turn(s, data):
    """Tokens to draw (§4.2): the rule's count plus one per Talisman-type quest, which are put
    back unresolved (RETURN_LEFT)."""
    draws = data[O_RULES + R_DRAWS] + s[qp(s[CUR]) + QP_DRAW_EXTRA]
    if draws > MAX_PENDING:
        draws = MAX_PENDING  # the hand holds 4 tokens at most (state.PENDING)
    s[RETURN_LEFT] = draws - data[O_RULES + R_DRAWS]
    return draws


@leaf
def must_return(s, data):
    """True (phase set) while the seat still owes a token back to the bag (B20: chosen after
    seeing all of them, among the tokens not resolved yet); never more than it drew beyond the
    rule's count. When the bag ran short (DRAWS_LEFT draws still owed), the cycle token is among
    the drawn ones (CT §4.4: "after resolving it draw the missing token(s) from the refilled
    bag"): the return waits for those draws, so the seat still chooses among every token it
    drew. Draws that cannot be made (the refilled bag is short too) are the extra ones lost
    first: the seat then returns only what it drew beyond the rule's count."""
    if s[RETURN_LEFT] <= 0:
        return False
    if s[DRAWS_LEFT] > 0:
        for i in range(s[N_PENDING]):
            if s[PENDING + i] == T_CYCLE:
                return False  # the missing draws come once the cycle token is resolved
        drop = s[RETURN_LEFT] if s[RETURN_LEFT] < s[DRAWS_LEFT] else s[DRAWS_LEFT]
        s[DRAWS_LEFT] -= drop
        s[RETURN_LEFT] -= drop
        if s[RETURN_LEFT] <= 0:
            return False
    if s[N_PENDING] == 0:
        s[RETURN_LEFT] = 0
        return False
    s[PHASE] = PH_RETURN
    return True


@leaf
def return_token(s, i):
    k = _pop_pending(s, i)
    s[BAG + k] += 1
    s[RETURN_LEFT] -= 1


@leaf
def resolve(s, data, k):
    """Resolve a Celtic Quest bag token (druid, crystal, item); False when the drawer must
    choose (phase set)."""
    if k == T_DRUID:
        s[DISC + T_DRUID] += 1
        if advance_spell(s, data, xr(data, X_DRUID_STEPS)):
            return True
        if any_enchantable(s, data):  # B: none left, the enchantment is skipped
            s[NEXT] = NX_TOKENS
            s[PHASE] = PH_ENCHANT
            return False
        return True
    if k == T_CRYSTAL:
        n_free = 0
        only = -1
        for t in range(xr(data, X_NTILES)):
            if crystal_spot_free(s, data, t):
                n_free += 1
                only = t
        if n_free == 0:
            s[DISC + T_CRYSTAL] += 1
        elif n_free == 1:
            s[TCRYST + only] += 1
        else:
            s[HELD] = T_CRYSTAL
            s[PHASE] = PH_CRYSTAL_SPOT
            return False
        return True
    # an item (B4): into the drawer's pouch, a 4th one makes him give one up
    seat = s[CUR]
    i = k - T_GOLD
    if pouch_count(s, seat) < xr(data, X_POUCH):
        s[qp(seat) + QP_ITEMS + i] += 1
        return True
    s[HELD] = k
    s[ITEM_DRAWN] = i
    s[PHASE] = PH_ITEM_DROP
    return False


@leaf
def place_crystal(s, t):
    s[HELD] = -1
    s[TCRYST + t] += 1
