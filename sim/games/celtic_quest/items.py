"""Celtic Quest's items (rules/celtic-quest.md §4.10, B3, B4): discarding a used or given-up item,
the on-demand discards offered beside other actions, and the choice when a drawn item would
overfill the pouch.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.layout import (
    A_DROP_ITEM,
    ITEM_DRAWN,
    ITEMS_OUT,
    N_ITEMS,
    QP_ITEMS,
    T_GOLD,
    X_ITEMS_REMOVED,
)
from sim.games.celtic_quest.queries import qp, xr
from sim.games.celtic_trader.state import CUR, DISC, HELD


@leaf
def discard_item(s, data, i):
    """A used or given-up item: to the discard pile (B3), or out of the game (lever)."""
    if xr(data, X_ITEMS_REMOVED):
        s[ITEMS_OUT + i] += 1
    else:
        s[DISC + T_GOLD + i] += 1


@leaf
def drop_item_choice(s, data, i):
    """PH_ITEM_DROP: keep the drawn item unless ``i`` is it; ``i`` goes to the discard pile."""
    seat = s[CUR]
    drawn = s[ITEM_DRAWN]
    s[qp(seat) + QP_ITEMS + drawn] += 1
    s[qp(seat) + QP_ITEMS + i] -= 1
    discard_item(s, data, i)
    s[HELD] = -1
    s[ITEM_DRAWN] = -1


@leaf
def item_drops(s, out, n):
    """Append a discard of each kind of item the seat holds (§4.10: items are "*défaussé une
    fois utilisé ou sur demande*", on demand: offered beside the after-movement actions, at
    the Stone Circle and at a bastion, as well as in movement); returns n."""
    q = qp(s[CUR])
    for i in range(N_ITEMS):
        if s[q + QP_ITEMS + i] > 0:
            out[n] = A_DROP_ITEM + i
            n += 1
    return n


@leaf
def is_item_drop(action):
    return A_DROP_ITEM <= action < A_DROP_ITEM + N_ITEMS


@leaf
def drop_item(s, data, i):
    """Discard one item ``i`` from the seat's pouch (the phase goes on)."""
    s[qp(s[CUR]) + QP_ITEMS + i] -= 1
    discard_item(s, data, i)
