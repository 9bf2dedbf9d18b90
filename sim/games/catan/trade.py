"""Domestic (player-to-player) trade, rules/catan-base.md §5 and A4 (lever ``domestic_trade``).

"Only between the active player and another player, at any agreed terms. Giving cards away, or
trading a resource for the same resource, is not allowed." The model bounds the terms to a
fixed set of offers, each one action id (state.py: ``A_OFFER + (shape * 5 + give) * 5 + get``):

    shape 0: 1 card of ``give`` for 1 of ``get``     shape 1: 2 for 1     shape 2: 1 for 2

with ``give != get`` (never the same resource) and both sides non-empty (never a gift). An
offer is listed only in the active player's trade and build phase (PH_MAIN, so never in the
Special Building Phase, B10), while he has made fewer than ``trade_offers_per_turn`` offers
this turn, holds the cards he gives, and some other seat holds at least as many cards as he
asks for (hand sizes are public).

After an offer (PH_TRADE) every other seat in turn order from the proposer answers: A_ACCEPT
(legal only when it holds the cards it would give) or A_DECLINE. Then the proposer trades with
one accepting seat (A_TRADE_WITH + s) or cancels (A_CANCEL); with no acceptance the offer lapses
and the trade and build phase goes on. The offer and the answers are public; the hands stay
hidden (``known_held``: what the pending offer reveals of them, kept by determinize).
"""

from sim.core.kernel import leaf
from sim.games.catan.params import G_DOMESTIC, G_OFFERS_PER_TURN
from sim.games.catan.state import (
    A_ACCEPT,
    A_CANCEL,
    A_DECLINE,
    A_OFFER,
    A_TRADE_WITH,
    ACCEPTS,
    CUR,
    HAND,
    HAND_N,
    LAPSED,
    N_RES,
    N_SHAPES,
    NP,
    OFFER,
    OFFERS_MADE,
    PH_MAIN,
    PH_TRADE,
    PHASE,
    SEAT,
)


@leaf
def offer_action(shape, give, get):
    """The action id of offer ``shape`` giving ``give`` for ``get``."""
    return A_OFFER + (shape * N_RES + give) * N_RES + get


@leaf
def offer_give(offer):
    """The resource the proposer gives in ``offer`` (an action id)."""
    return ((offer - A_OFFER) // N_RES) % N_RES


@leaf
def offer_get(offer):
    """The resource the proposer asks for."""
    return (offer - A_OFFER) % N_RES


@leaf
def give_count(offer):
    """Cards the proposer gives (2 in the 2-for-1 shape, else 1)."""
    return 2 if (offer - A_OFFER) // (N_RES * N_RES) == 1 else 1


@leaf
def get_count(offer):
    """Cards the proposer asks for (2 in the 1-for-2 shape, else 1)."""
    return 2 if (offer - A_OFFER) // (N_RES * N_RES) == 2 else 1


@leaf
def is_offer(action):
    return A_OFFER <= action < A_ACCEPT


@leaf
def can_accept(state, s, offer):
    """Does seat ``s`` hold the cards it would give for ``offer``?"""
    return state[HAND + s * N_RES + offer_get(offer)] >= get_count(offer)


@leaf
def can_pay(state, p, offer):
    """Does the proposer ``p`` hold the cards he offers?"""
    return state[HAND + p * N_RES + offer_give(offer)] >= give_count(offer)


@leaf
def list_offers(state, data, p, out, n):
    """Append the offers ``p`` may make now (the module docstring); returns the new count."""
    if data[G_DOMESTIC] == 0 or state[OFFERS_MADE] >= data[G_OFFERS_PER_TURN]:
        return n
    most = 0  # the largest other hand: no offer asks for more cards than that
    for s in range(state[NP]):
        if s != p and state[HAND_N + s] > most:
            most = state[HAND_N + s]
    if most == 0:
        return n
    for shape in range(N_SHAPES):
        first = offer_action(shape, 0, 0)  # the shape's counts, shared by its offers
        if get_count(first) > most:
            continue
        for give in range(N_RES):
            if state[HAND + p * N_RES + give] < give_count(first):
                continue
            for get in range(N_RES):
                if get != give:
                    out[n] = offer_action(shape, give, get)
                    n += 1
    return n


@leaf
def trade_actions(state, data, out):
    """The legal actions while an offer is pending (PH_TRADE); returns n >= 1."""
    p = state[SEAT]
    offer = state[OFFER]
    if p != state[CUR]:
        n = 0
        if can_accept(state, p, offer):
            out[n] = A_ACCEPT
            n += 1
        out[n] = A_DECLINE
        return n + 1
    n = 0  # public information only: an acceptance shows the cards (determinize keeps them)
    for s in range(state[NP]):
        if (state[ACCEPTS] >> s) & 1:
            out[n] = A_TRADE_WITH + s
            n += 1
    out[n] = A_CANCEL
    return n + 1


@leaf
def _next_responder(out, after):
    """The seat after ``after`` in turn order from the proposer, or -1 after the last."""
    n = out[NP]
    cur = out[CUR]
    nxt = (after + 1) % n
    return -1 if nxt == cur else nxt


@leaf
def _close(out, traded):
    """The offer is done: back to the proposer's trade and build phase."""
    if not traded:
        out[LAPSED] = out[OFFER]
    out[OFFER] = 0
    out[ACCEPTS] = 0
    out[PHASE] = PH_MAIN
    out[SEAT] = out[CUR]


@leaf
def _answered(out, p):
    """Seat ``p`` has answered: the next seat answers, or the proposer picks (or, with no
    acceptance, the offer lapses)."""
    s = _next_responder(out, p)
    if s >= 0:
        out[SEAT] = s
    elif out[ACCEPTS] == 0:
        _close(out, False)
    else:
        out[SEAT] = out[CUR]


@leaf
def make_offer(out, data, action):
    """The active player offers ``action`` (PH_MAIN -> PH_TRADE)."""
    out[OFFER] = action
    out[ACCEPTS] = 0
    out[OFFERS_MADE] += 1
    out[PHASE] = PH_TRADE
    _answered(out, out[CUR])


@leaf
def _move(out, src, dst, r, k):
    out[HAND + src * N_RES + r] -= k
    out[HAND_N + src] -= k
    out[HAND + dst * N_RES + r] += k
    out[HAND_N + dst] += k


@leaf
def exchange(out, p, s, offer):
    """The trade of ``offer`` between proposer ``p`` and seat ``s`` (cards only change hands:
    the bank is untouched)."""
    _move(out, p, s, offer_give(offer), give_count(offer))
    _move(out, s, p, offer_get(offer), get_count(offer))


@leaf
def trade_step(out, data, action):
    """Apply an answer, a pick or a cancel (PH_TRADE), in place."""
    p = out[SEAT]
    if action == A_ACCEPT or action == A_DECLINE:  # noqa: SIM109
        if action == A_ACCEPT:
            out[ACCEPTS] |= 1 << p
        _answered(out, p)
    elif action == A_CANCEL:
        _close(out, False)
    else:
        exchange(out, p, action - A_TRADE_WITH, out[OFFER])
        _close(out, True)


@leaf
def known_held(state, o, r):
    """Cards of ``r`` that every seat knows ``o`` holds: while an offer is pending, the
    proposer holds what he offers and each accepting seat what it would give."""
    if state[PHASE] != PH_TRADE:
        return 0
    offer = state[OFFER]
    k = 0
    if o == state[CUR] and r == offer_give(offer):
        k += give_count(offer)
    if (state[ACCEPTS] >> o) & 1 and r == offer_get(offer):
        k += get_count(offer)
    return k
