"""Celtic Quest's deliveries at a bastion (rules/celtic-quest.md §4.6): Celtic Trader's deliveries
and pay (sim/games/celtic_trader/delivery.py), then rings and Harp-type quests.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.items import discard_item, item_drops
from sim.games.celtic_quest.layout import (
    A_RING,
    I_RING,
    PH_QUEST_DRAW,
    QP_DELIV_RP,
    QP_HARP_PAID,
    QP_ITEMS,
    QP_RING_USED,
    QP_TRIBES,
    X_HARP_PER_VISIT,
    X_RING_PER_VISIT,
    X_RING_RP,
)
from sim.games.celtic_quest.queries import qp, xr
from sim.games.celtic_quest.quests import may_draw_quest
from sim.games.celtic_trader.delivery import _deliver, legal_actions_deliver
from sim.games.celtic_trader.params import O_SEC_BAST
from sim.games.celtic_trader.state import (
    A_DELIVER,
    CUR,
    DELIVERED,
    MAX_DELIVER,
    P_NCARRY,
    P_POS,
    PH_DELIVER,
    PHASE,
    PLAYERS,
    PW,
    VISIT_PAID,
)
from sim.games.celtic_trader.supply import _pay


@leaf
def at_bastion(s, data):
    """§4.6 at a Celtic bastion: True with the phase set when the seat may deliver (DELIVER)
    or draw a quest (QUEST_DRAW), False when there is nothing to do."""
    seat = s[CUR]
    pb = PLAYERS + seat * PW
    if s[pb + P_NCARRY] > 0:
        s[DELIVERED] = 0
        s[VISIT_PAID] = 0
        s[qp(seat) + QP_RING_USED] = 0
        s[qp(seat) + QP_HARP_PAID] = 0
        s[PHASE] = PH_DELIVER
        return True
    if may_draw_quest(s, data, seat):
        s[PHASE] = PH_QUEST_DRAW
        return True
    return False


@leaf
def deliver_actions(s, data, out):
    """Deliveries as Celtic Trader lists them (1..MAX_DELIVER tokens of a type: quests add to
    Carrying X beyond Celtic Trader's 3), then each again with 1..j rings, j the rings the seat
    may spend on it (B7: one per token, at most those in its pouch; lever ``per_delivery``: one
    per visit). A delivery of k tokens with R rings held lists min(k, R) ring choices."""
    n = legal_actions_deliver(s, data, out)
    seat = s[CUR]
    q = qp(seat)
    rings = s[q + QP_ITEMS + I_RING]
    if rings > 0 and xr(data, X_RING_PER_VISIT) and s[q + QP_RING_USED] > 0:
        rings = 0
    if rings > 0 and xr(data, X_RING_PER_VISIT):
        rings = 1
    m = n
    if rings > 0:
        for i in range(1, m):
            a = out[i] - A_DELIVER
            k = a % MAX_DELIVER + 1
            top = k if k < rings else rings
            for j in range(top):
                out[n] = ring_action(a, j + 1)
                n += 1
    return item_drops(s, out, n)


@leaf
def ring_action(a, j):
    """The action delivering ``a`` (= r * MAX_DELIVER + k - 1) with ``j`` rings (j >= 1)."""
    return A_RING + a * MAX_DELIVER + j - 1


@leaf
def deliver(s, data, action):
    """A delivery (§4.6): Celtic Trader's pay, then the rings chosen and Harp-type quests."""
    seat = s[CUR]
    q = qp(seat)
    use = 0
    a = action - A_DELIVER
    if action >= A_RING:
        a = (action - A_RING) // MAX_DELIVER
        use = (action - A_RING) % MAX_DELIVER + 1
    k = a % MAX_DELIVER + 1
    b = data[O_SEC_BAST + s[PLAYERS + seat * PW + P_POS]]
    s[q + QP_TRIBES] |= 1 << b
    _deliver(s, data, seat, A_DELIVER + a)
    extra = 0
    if use > 0:
        for _ in range(use):
            s[q + QP_ITEMS + I_RING] -= 1
            discard_item(s, data, I_RING)
        s[q + QP_RING_USED] += use
        extra += use * xr(data, X_RING_RP)
    harp = s[q + QP_DELIV_RP]
    if harp > 0:
        if xr(data, X_HARP_PER_VISIT):
            if s[q + QP_HARP_PAID] == 0:
                extra += harp
                s[q + QP_HARP_PAID] = 1
        else:
            extra += k * harp
    if extra > 0:
        _pay(s, data, seat, extra)
