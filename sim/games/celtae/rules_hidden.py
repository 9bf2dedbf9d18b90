"""Celtae rules, hidden information (rules/celtae.md §7, "Hidden"): ``determinize`` re-deals
what a seat cannot see (the other players' hands, the deck, the face-down tiles below each
pile's top), for the search bot and the no-peeking test.
"""

import numpy as np

from sim.core.kernel import copy_state, counted
from sim.core.rng import draw_from_histogram, shuffle
from sim.games.celtae.rules_shared import pb
from sim.games.celtae.state import (
    DECK,
    MAX_PILE,
    N_CARDS,
    NP,
    P_HAND,
    P_HAND_N,
    PILE_END,
    PILE_POS,
    PILES,
)


@counted
def determinize(state, data, seat, rng, out):
    """A copy of ``state`` whose hidden parts are re-dealt at random, consistent with what
    ``seat`` sees (§7): the other players' hands (sizes kept) are re-dealt from the unseen cards
    (those hands plus the deck), and the face-down army and druid tiles below each pile's top
    are re-drawn from the unseen tiles of the same point group (the piles' tiles plus the box)."""
    copy_state(state, out)
    n = state[NP]
    pool = np.zeros(N_CARDS, np.int64)
    total = 0
    for k in range(N_CARDS):
        pool[k] = out[DECK + k]
        total += pool[k]
    for other in range(n):
        if other == seat:
            continue
        b = pb(other)
        for k in range(N_CARDS):
            pool[k] += out[b + P_HAND + k]
            total += out[b + P_HAND + k]
            out[b + P_HAND + k] = 0
    for other in range(n):
        if other == seat:
            continue
        b = pb(other)
        for _ in range(out[b + P_HAND_N]):
            k = draw_from_histogram(rng, pool, total)
            pool[k] -= 1
            total -= 1
            out[b + P_HAND + k] += 1
    for k in range(N_CARDS):
        out[DECK + k] = pool[k]
    _redeal_tiles(out, 0, rng)
    _redeal_tiles(out, 2, rng)


@counted
def _redeal_tiles(s, first_pile, rng):
    """Shuffle the unseen tiles of each point group (ids 0..3 and 4..9) of a pile pair."""
    for group in range(2):
        lo = 0 if group == 0 else 4
        hi = 4 if group == 0 else 10
        seen = np.zeros(10, np.int64)
        hidden = np.empty(10, np.int64)
        slots = np.empty(2 * MAX_PILE, np.int64)
        n_slots = 0
        for pile in range(first_pile, first_pile + 2):
            base = PILES + pile * MAX_PILE
            for i in range(s[PILE_END + pile]):
                t = s[base + i]
                seen[t] = 1
                if i > s[PILE_POS + pile] and lo <= t < hi:
                    slots[n_slots] = base + i
                    n_slots += 1
                    seen[t] = 0
        n_hidden = 0
        for t in range(lo, hi):
            if seen[t] == 0:
                hidden[n_hidden] = t
                n_hidden += 1
        shuffle(rng, hidden, n_hidden)
        for j in range(n_slots):
            s[slots[j]] = hidden[j]
