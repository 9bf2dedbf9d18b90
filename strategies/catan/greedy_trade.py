"""The greedy bot's domestic trade (sim/games/catan/trade.py), from the estimates it builds by.

A hand's value to seat ``p`` is, over the builds ``p`` could still make (a road with road
pieces left, a settlement with a piece left, a city with a city piece and a settlement to
upgrade, a development card while the deck lasts), the build's
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
from sim.core.scratch import stack_float64, stack_int64
from sim.games.catan.params import (
    C_CITY,
    C_ROAD,
    C_SETTLEMENT,
    D_COSTS,
    G_VP_TARGET,
)
from sim.games.catan.rules_shared import public_victory_points, settlements_on_board
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
N_GET_BOUNDS = 2 * N_RES  # get_bounds: 1 or 2 cards of each resource


@leaf
def build_weight(state, data, p, params, row):
    """The greedy value of build ``row`` for ``p``, 0 when ``p`` cannot make it."""
    if row == C_ROAD:
        return params[P_ROAD] if state[ROADS_LEFT + p] > 0 else 0.0
    if row == C_SETTLEMENT:  # with a piece left (roads may open a place: none looked for)
        return params[P_VP] if state[SETTLE_LEFT + p] > 0 else 0.0
    if row == C_CITY:
        if state[CITIES_LEFT + p] > 0 and settlements_on_board(state, data, p) > 0:
            return 2.0 * params[P_VP]
        return 0.0
    return params[P_DEV] if state[DECK_N] > 0 else 0.0


@leaf
def _need(data, row):
    n = 0
    for r in range(N_RES):
        n += data[D_COSTS + N_RES * row + r]
    return n


@leaf
def _covered(have, cost):
    return min(max(have, 0), cost)


@leaf
def build_table(state, data, p, params, weights, needs):
    """``weights[row]`` = :func:`build_weight` and ``needs[row]`` = the cards build ``row``
    costs, for the 4 builds: what every :func:`gain_with` of one decision shares."""
    for row in range(4):
        weights[row] = build_weight(state, data, p, params, row)
        needs[row] = _need(data, row)


@leaf(inline="always")  # called per offer: passing its arrays cost more than its sum
def gain_with(state, data, p, own, weights, needs, out_r, out_n, in_r, in_n):
    """:func:`gain_of` from a :func:`build_table` of ``p`` (the same sum in the same order)."""
    gain = 0.0
    for row in range(4):
        w = weights[row]
        need = needs[row]
        if w <= 0.0 or need == 0:
            continue
        c_out = data[D_COSTS + N_RES * row + out_r]
        c_in = data[D_COSTS + N_RES * row + in_r]
        h_out = state[HAND + p * N_RES + out_r] if own else 0
        h_in = state[HAND + p * N_RES + in_r] if own else 0
        d = _covered(h_out - out_n, c_out) - _covered(h_out, c_out)
        d += _covered(h_in + in_n, c_in) - _covered(h_in, c_in)
        gain += w * d / need
    return gain


@leaf
def get_bounds(state, data, p, weights, needs, n, out):
    """``out[2 * r + n - 1]`` for each resource ``r`` = the gain of getting ``n`` (1 or 2)
    cards of ``r``, giving none: an upper bound of every offer asking for them; returns the
    largest. Each term is :func:`gain_with`'s with the given cards' share (never positive)
    left out, summed in the same order, and rounding is monotone, so no such offer's gain
    exceeds it, bit for bit. Getting 2 is bounded by no less than getting 1."""
    top = 0.0  # a gain with nothing given is never negative
    for r in range(N_RES):
        out[2 * r + n - 1] = gain_with(state, data, p, True, weights, needs, r, 0, r, n)
        top = max(top, out[2 * r + n - 1])
    return top


@leaf
def gain_of(state, data, p, params, own, out_r, out_n, in_r, in_n):
    """The change of the value (module docstring) of ``p``'s hand (``own``; else of an empty
    hand) when ``out_n`` cards of ``out_r`` leave it and ``in_n`` of ``in_r`` (another
    resource) come in: only the two resources' covered shares of each build change."""
    weights = stack_float64(4)
    needs = stack_int64(4)
    build_table(state, data, p, params, weights, needs)
    return gain_with(state, data, p, own, weights, needs, out_r, out_n, in_r, in_n)


@leaf
def own_gain(state, data, p, params, out_r, out_n, in_r, in_n):
    """The change of ``p``'s own hand value when it gives ``out_n`` ``out_r`` and gets
    ``in_n`` ``in_r``."""
    return gain_of(state, data, p, params, True, out_r, out_n, in_r, in_n)


@leaf
def public_gain(state, data, p, params, out_r, out_n, in_r, in_n):
    """``p``'s gain as the others estimate it: the cards it gets less the cards it gives,
    each valued alone (its hand is hidden)."""
    got = gain_of(state, data, p, params, False, out_r, 0, in_r, in_n)
    given = gain_of(state, data, p, params, False, in_r, 0, out_r, out_n)
    return got - given


@leaf
def offer_value(state, data, p, a, params, weights, needs):
    """Greedy value of making offer ``a``: its own gain (from ``p``'s :func:`build_table`)
    less the margin, -1 if not above or if ``a`` is the offer that just lapsed."""
    if a == state[LAPSED]:
        return -1.0
    give, get = offer_give(a), offer_get(a)
    gain = gain_with(state, data, p, True, weights, needs, give, give_count(a), get, get_count(a))
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
        if mine <= 0.0:  # the proposer's gain (two more hand values) only when it could matter
            return -1.0
        theirs = public_gain(
            state, data, state[CUR], params, give, give_count(offer), get, get_count(offer)
        )
        return 1.0 if mine > theirs else -1.0
    s = a - A_TRADE_WITH  # the furthest behind first
    return 1.0 + max(0.0, float(data[G_VP_TARGET] - public_victory_points(state, data, s)))
