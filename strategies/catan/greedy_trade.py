"""The greedy bot's domestic trade (sim/games/catan/trade.py), from the estimates it builds by.

A hand's value to seat ``p`` is, over the builds ``p`` could still make (a road with road
pieces left, a settlement with a piece left and a free place next to its roads, a city with a
city piece and a settlement to upgrade, a development card while the deck lasts), the build's
greedy value (``road``, ``vp``, twice ``vp``, ``dev``) times the share of its cost the hand
covers. A trade's gain to a seat is the change of that value.

- Offer: the gain to itself, minus ``trade_margin``; offered only when above 0 (ending the
  turn is worth 0, and every build is worth more than an offer's gain can be), and not again
  right after it lapsed or was cancelled this turn (state LAPSED).
- Answer: accept when its own gain is positive and exceeds the proposer's gain as it estimates
  it from public information only: the value of the cards he asks for less that of the cards
  he gives, each valued alone against his possible builds (it never reads his hand).
- Pick: the accepting seat with the fewest public VP (the furthest behind); cancel only when
  none can trade.
"""

from sim.core.kernel import leaf
from sim.games.catan.params import (
    C_CITY,
    C_DEV,
    C_ROAD,
    C_SETTLEMENT,
    D_COSTS,
    G_N_VERT,
    G_VP_TARGET,
)
from sim.games.catan.rules import public_victory_points, settle_ok, settlements_on_board
from sim.games.catan.state import (
    A_ACCEPT,
    A_CANCEL,
    A_DECLINE,
    A_TRADE_WITH,
    CITIES_LEFT,
    CUR,
    DECK_N,
    HAND,
    LAPSED,
    N_RES,
    OFFER,
    ROADS_LEFT,
    SETTLE_LEFT,
)
from sim.games.catan.trade import get_count, give_count, offer_get, offer_give

# greedy's parameter indices (strategies/catan/greedy.py: P_PROD, P_DIV, P_HARB, P_VP, P_DEV,
# P_ROAD, P_TEMP, P_TRADE_MARGIN)
P_VP, P_DEV, P_ROAD, P_TRADE_MARGIN = 3, 4, 5, 7


@leaf
def _settle_place(state, data, p):
    for v in range(data[G_N_VERT]):  # noqa: SIM110  (numba: plain loop)
        if settle_ok(state, data, p, v):
            return True
    return False


@leaf
def build_weight(state, data, p, params, row):
    """The greedy value of build ``row`` for ``p``, 0 when ``p`` cannot make it."""
    if row == C_ROAD:
        return params[P_ROAD] if state[ROADS_LEFT + p] > 0 else 0.0
    if row == C_SETTLEMENT:
        if state[SETTLE_LEFT + p] > 0 and _settle_place(state, data, p):
            return params[P_VP]
        return 0.0
    if row == C_CITY:
        if state[CITIES_LEFT + p] > 0 and settlements_on_board(state, data, p) > 0:
            return 2.0 * params[P_VP]
        return 0.0
    return params[P_DEV] if state[DECK_N] > 0 else 0.0


@leaf
def hand_value(state, data, p, params, own, out_r, out_n, in_r, in_n, weights):
    """The value (module docstring) of ``p``'s hand (``own``) or of an empty one, less
    ``out_n`` cards of ``out_r`` and plus ``in_n`` of ``in_r``; ``weights`` from
    :func:`build_weight` by cost row."""
    value = 0.0
    for row in range(4):
        w = weights[row]
        if w <= 0.0:
            continue
        need = 0
        have = 0
        for r in range(N_RES):
            c = data[D_COSTS + N_RES * row + r]
            h = state[HAND + p * N_RES + r] if own else 0
            if r == out_r:
                h -= out_n
            if r == in_r:
                h += in_n
            need += c
            have += min(max(h, 0), c)
        if need > 0:
            value += w * have / need
    return value


@leaf
def _weights(state, data, p, params):
    return (
        build_weight(state, data, p, params, C_ROAD),
        build_weight(state, data, p, params, C_SETTLEMENT),
        build_weight(state, data, p, params, C_CITY),
        build_weight(state, data, p, params, C_DEV),
    )


@leaf
def own_gain(state, data, p, params, out_r, out_n, in_r, in_n):
    """The change of ``p``'s own hand value when it gives ``out_n`` ``out_r`` and gets
    ``in_n`` ``in_r``."""
    w = _weights(state, data, p, params)
    after = hand_value(state, data, p, params, True, out_r, out_n, in_r, in_n, w)
    before = hand_value(state, data, p, params, True, -1, 0, -1, 0, w)
    return after - before


@leaf
def public_gain(state, data, p, params, out_r, out_n, in_r, in_n):
    """``p``'s gain as the others estimate it: the cards it gets less the cards it gives,
    each valued alone (its hand is hidden)."""
    w = _weights(state, data, p, params)
    got = hand_value(state, data, p, params, False, -1, 0, in_r, in_n, w)
    given = hand_value(state, data, p, params, False, -1, 0, out_r, out_n, w)
    return got - given


@leaf
def offer_value(state, data, p, a, params):
    """Greedy value of making offer ``a``: its own gain less the margin, -1 if not above
    or if ``a`` is the offer that just lapsed."""
    if a == state[LAPSED]:
        return -1.0
    give, get = offer_give(a), offer_get(a)
    gain = own_gain(state, data, p, params, give, give_count(a), get, get_count(a))
    v = gain - params[P_TRADE_MARGIN]
    return v if v > 0.0 else -1.0


@leaf
def answer_value(state, data, p, a, params):
    """Greedy value of an answer or a pick ``a`` while an offer is pending."""
    offer = state[OFFER]
    give, get = offer_give(offer), offer_get(offer)
    if a == A_DECLINE or a == A_CANCEL:  # noqa: SIM109
        return 0.0
    if a == A_ACCEPT:
        mine = own_gain(state, data, p, params, get, get_count(offer), give, give_count(offer))
        theirs = public_gain(
            state, data, state[CUR], params, give, give_count(offer), get, get_count(offer)
        )
        return 1.0 if mine > 0.0 and mine > theirs else -1.0
    s = a - A_TRADE_WITH  # the furthest behind first
    return 1.0 + max(0.0, float(data[G_VP_TARGET] - public_victory_points(state, data, s)))
