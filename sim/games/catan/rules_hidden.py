"""Catan rules: hidden information for the search bots (``determinize``, §7)."""

from sim.core.kernel import copy_state, leaf
from sim.core.rng import draw_from_histogram
from sim.core.scratch import stack_int64
from sim.games.catan.state import DECK, DEV, DEV_NEW, HAND, HAND_N, MAX_PLAYERS, N_DEV, N_RES, NP
from sim.games.catan.trade import known_held

HELD_LEN = 2 * MAX_PLAYERS  # determinize: unplayed and new development cards per seat


@leaf
def determinize(state, data, seat, rng, out):
    """A copy of ``state`` whose hidden parts are re-dealt at random, consistent with what
    ``seat`` sees (§7): the other players' resource hands (sizes kept) from the cards they hold
    together (the bank and ``seat``'s hand are public to it, so that total is known), and their
    unplayed development cards (held and bought this turn, counts kept) from those cards plus
    the deck. A pending domestic offer stays consistent: the cards it shows a seat holds
    (trade.known_held) stay in that hand."""
    copy_state(state, out)
    n = state[NP]
    pool = stack_int64(N_RES)
    for r in range(N_RES):
        pool[r] = 0
    total = 0
    kept = stack_int64(MAX_PLAYERS)
    for o in range(n):
        kept[o] = 0
        if o == seat:
            continue
        for r in range(N_RES):
            keep = known_held(state, o, r)
            kept[o] += keep
            pool[r] += out[HAND + o * N_RES + r] - keep
            total += out[HAND + o * N_RES + r] - keep
            out[HAND + o * N_RES + r] = keep
    for o in range(n):
        if o == seat:
            continue
        for _ in range(out[HAND_N + o] - kept[o]):
            r = draw_from_histogram(rng, pool, total)
            pool[r] -= 1
            total -= 1
            out[HAND + o * N_RES + r] += 1
    dpool = stack_int64(N_DEV)
    held = stack_int64(HELD_LEN)  # held[j * MAX_PLAYERS + o]: o's cards in DEV (j 0), DEV_NEW (1)
    for i in range(HELD_LEN):
        held[i] = 0
    dtotal = 0
    for d in range(N_DEV):
        dpool[d] = out[DECK + d]
        dtotal += out[DECK + d]
    for o in range(n):
        if o == seat:
            continue
        for j in range(2):
            base = (DEV if j == 0 else DEV_NEW) + o * N_DEV
            for d in range(N_DEV):
                k = out[base + d]
                held[j * MAX_PLAYERS + o] += k
                dpool[d] += k
                dtotal += k
                out[base + d] = 0
    for o in range(n):
        if o == seat:
            continue
        for j in range(2):
            base = (DEV if j == 0 else DEV_NEW) + o * N_DEV
            for _ in range(held[j * MAX_PLAYERS + o]):
                d = draw_from_histogram(rng, dpool, dtotal)
                dpool[d] -= 1
                dtotal -= 1
                out[base + d] += 1
    for d in range(N_DEV):
        out[DECK + d] = dpool[d]
