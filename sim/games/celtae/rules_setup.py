"""Celtae rules, setup (rules/celtae.md §3, steps 1-20, and the solo setup of §3.3).

``init_state`` lays out the board, the piles, the citadels and bonus tiles, the deck and
markets, the progress cards, the leaders and the starting hands, in the order of the random
draws of §8 (R1-R15). The leader pick and the starting discard of step 20 are decisions: the
turn machine (rules_turn, ``_setup_next``) asks for them, from the last player counter-
clockwise, before the first turn.
"""

from sim.core.kernel import leaf
from sim.core.rng import randint, shuffle
from sim.games.celtae.params import (
    G_ARMY_ONES,
    G_ARMY_TWOS,
    G_BUILDERS,
    G_COPIES,
    G_CUBES,
    G_DISCS,
    G_DRUID_ONES,
    G_DRUID_TWOS,
    G_FARMERS,
    G_HAND_START,
    G_N_THREE,
    G_N_TWO,
    G_NOBLES,
    G_RESERVE,
    G_SOLDIERS,
    G_TOKENS_START,
    G_TOKENS_TOTAL,
    G_TRACK,
    N_PROGRESS,
    O_TIEBREAK_RANDOM,
    T_BONUS_EFFECTS,
    T_CIT_CAP,
    T_CIT_NEUTRAL,
    T_GARRISON_NEUTRAL,
    T_PC_SLOTS,
    T_SETUP_TYPES,
)
from sim.games.celtae.rules_shared import SOLITAIRIX, bag_draw, draw_card, pb, to_hand
from sim.games.celtae.rules_turn import settle
from sim.games.celtae.scratch import stack_int64
from sim.games.celtae.state import (
    ACTIVE,
    AU_SETUP_NEXT,
    BAG,
    BUILDER,
    CIT_BONUS,
    CIT_CAP,
    CIT_DONE,
    CIT_FILLED,
    COMBAT_ICON,
    DECK,
    DECK_N,
    DTOP,
    FARMER,
    FIRST,
    GARRISON,
    GARRISON_SLOTS,
    KIND,
    MARKET,
    MARKET_SIZE,
    MAX_PCARDS,
    MAX_PILE,
    MAX_PLAYERS,
    N_CARDS,
    N_COLOURS,
    N_LEADERS,
    N_PILES,
    NOBLE,
    NP,
    OFFER,
    P_ACTIVE,
    P_CUBES,
    P_DISCS,
    P_LEADER,
    P_TIEBREAK,
    P_TOKENS,
    PAWN,
    PCARD,
    PCARD_CAP,
    PHASE,
    PILE_END,
    PILE_PAWN,
    PILE_POS,
    PILES,
    RESERVE,
    ROUND,
    SEAT,
    SETUP_LEFT,
    SLOTS,
    SOLDIER,
    SOLO,
    SOLO_CARD,
    SOLO_FACE,
    SOLO_SECTION,
    SPACES,
    TEUTATES,
    TOKEN_RESERVE,
    TRACK,
)

TILE_IDS = 16  # room for the tile ids of one point value in _make_piles (4 and 6 are used)


@leaf
def init_state(data, n_players, role_mode, fixed_roles, rng, out):
    """Set up a game of ``n_players`` (1 = solo against Solitairix) into ``out``."""
    s = out
    s[:] = 0
    rules = data.rules
    solo = n_players == 1
    s[NP] = n_players
    s[SOLO] = 1 if solo else 0
    blocks = 2 if solo else n_players
    s[FIRST] = 0 if solo else randint(rng, n_players)
    s[SEAT] = s[FIRST]
    s[TEUTATES] = -1 if solo else s[FIRST]
    s[PAWN] = 0
    s[TRACK] = rules[G_TRACK]
    s[ROUND] = 1
    s[DTOP] = -1
    s[KIND] = -1
    s[COMBAT_ICON] = -1
    s[SOLO_CARD] = -1

    # workers (step 7): four farmer/builder/soldier sets leave the pool whatever the count
    s[BAG + FARMER] = rules[G_FARMERS] - 4
    s[BAG + BUILDER] = rules[G_BUILDERS] - 4
    s[BAG + SOLDIER] = rules[G_SOLDIERS] - 4
    s[BAG + NOBLE] = rules[G_NOBLES]
    for seat in range(MAX_PLAYERS):
        b = pb(seat)
        for i in range(ACTIVE):
            s[b + P_ACTIVE + i] = -1
        s[b + P_LEADER] = -1
    for seat in range(n_players):
        b = pb(seat)
        s[b + P_ACTIVE + 0] = FARMER
        s[b + P_ACTIVE + 1] = BUILDER
        s[b + P_ACTIVE + 2] = SOLDIER
    if solo:  # Solitairix keeps one of the second set at random, the other two join the bag
        keep = randint(rng, 3)
        s[pb(SOLITAIRIX) + P_ACTIVE] = keep
        for t in range(3):
            if t != keep:
                s[BAG + t] += 1
        s[SOLO_FACE] = randint(rng, 2)
        s[SOLO_SECTION] = randint(rng, 4)

    # depicted workers, then bag draws in the spec's fill order (steps 8-10)
    for k in range(15):
        t = data.tab[T_SETUP_TYPES + k]
        if t >= 0:
            s[BAG + t] -= 1
            s[SPACES + k] = t
        else:
            s[SPACES + k] = -2  # to draw
    order = (1, 2, 0, 3, 4)  # CB_SOUTH, RECRUIT, CB_NORTH, COMBAT, centre (§8 R2)
    for sp in order:
        for k in range(SLOTS):
            idx = sp * SLOTS + k
            if s[SPACES + idx] == -2:
                s[SPACES + idx] = bag_draw(s, rng)

    # druids (step 6), piles (steps 11-12), pile pawns (step 5)
    s[RESERVE + 0] = rules[G_RESERVE]
    s[RESERVE + 1] = rules[G_RESERVE]
    _make_piles(s, 0, rules[G_ARMY_ONES], rules[G_ARMY_TWOS], 4, 6, rng)
    _make_piles(s, 2, rules[G_DRUID_ONES], rules[G_DRUID_TWOS], 4, 6, rng)
    for p in range(N_PILES):
        s[PILE_PAWN + p] = 1

    # citadels and bonus tiles (steps 4, 13)
    perm = stack_int64(4)
    for r in range(2):
        for k in range(4):
            perm[k] = data.tab[T_BONUS_EFFECTS + k]
        shuffle(rng, perm, 4)
        for c in range(N_COLOURS):
            cit = r * N_COLOURS + c
            s[CIT_CAP + cit] = data.tab[T_CIT_CAP + cit]
            s[CIT_FILLED + cit] = data.tab[T_CIT_NEUTRAL + cit]
            s[CIT_BONUS + cit] = perm[c]
            s[CIT_DONE + cit] = -1
    for g in range(2 * GARRISON_SLOTS):
        s[GARRISON + g] = -2 if data.tab[T_GARRISON_NEUTRAL + g] else -1

    # tokens (step 14), boards (step 3)
    s[TOKEN_RESERVE] = rules[G_TOKENS_TOTAL]
    for seat in range(blocks):
        b = pb(seat)
        s[b + P_DISCS] = rules[G_DISCS]
        s[b + P_CUBES] = rules[G_CUBES]
        if seat < n_players:
            give = min(rules[G_TOKENS_START], s[TOKEN_RESERVE])
            s[b + P_TOKENS] = give
            s[TOKEN_RESERVE] -= give
            if rules[O_TIEBREAK_RANDOM]:
                s[b + P_TIEBREAK] = 1 + randint(rng, 1 << 20)

    # deck and markets (steps 15-16)
    for k in range(N_CARDS):
        s[DECK + k] = rules[G_COPIES]
    s[DECK_N] = N_CARDS * rules[G_COPIES]
    for r in range(2):
        for i in range(MARKET_SIZE):
            s[MARKET + r * MARKET_SIZE + i] = draw_card(s, data, rng)

    # progress cards (step 17): two-slot cards are 0..12 of the 26 in slot order, three-slot 13..
    _lay_out_progress(s, data, rng)

    # leaders (step 20) and starting hands (first player clockwise)
    ids = stack_int64(N_LEADERS)
    for k in range(N_LEADERS):
        ids[k] = k
    shuffle(rng, ids, N_LEADERS)
    shown = 3 if solo else n_players + 1
    if role_mode == 2:
        for seat in range(n_players):
            s[pb(seat) + P_LEADER] = fixed_roles[seat]
    elif role_mode == 0:
        for seat in range(n_players):
            s[pb(seat) + P_LEADER] = ids[seat]
    else:
        for k in range(shown):
            s[OFFER + ids[k]] = 1
    for k in range(n_players):
        seat = (s[FIRST] + k) % n_players
        for _ in range(rules[G_HAND_START]):
            card = draw_card(s, data, rng)
            if card >= 0:
                to_hand(s, seat, card)
    s[SETUP_LEFT] = n_players
    s[PHASE] = AU_SETUP_NEXT
    settle(s, data, rng)


@leaf
def _make_piles(s, first_pile, ones, twos, n_ones, n_twos, rng):
    """Two identical piles (North then South): 1-point tiles on top of 2-point tiles (tile ids
    0..n_ones-1, then n_ones.. for the 2-point ones; at most TILE_IDS of each)."""
    a = stack_int64(TILE_IDS)
    b = stack_int64(TILE_IDS)
    for k in range(n_ones):
        a[k] = k
    for k in range(n_twos):
        b[k] = n_ones + k
    shuffle(rng, a, n_ones)
    shuffle(rng, b, n_twos)
    for r in range(2):
        pile = first_pile + r
        base = PILES + pile * MAX_PILE
        k = 0
        for i in range(ones):
            s[base + k] = a[r * ones + i]
            k += 1
        for i in range(twos):
            s[base + k] = b[r * twos + i]
            k += 1
        s[PILE_POS + pile] = 0
        s[PILE_END + pile] = k


@leaf
def _lay_out_progress(s, data, rng):
    twos = stack_int64(13)
    threes = stack_int64(13)
    n2 = 0
    n3 = 0
    for i in range(N_PROGRESS):
        if data.tab[T_PC_SLOTS + i] == 2:
            twos[n2] = i
            n2 += 1
        else:
            threes[n3] = i
            n3 += 1
    shuffle(rng, twos, n2)
    shuffle(rng, threes, n3)
    k = 0
    for i in range(data.rules[G_N_TWO]):
        s[PCARD + k] = twos[i]
        k += 1
    for i in range(data.rules[G_N_THREE]):
        s[PCARD + k] = threes[i]
        k += 1
    for j in range(MAX_PCARDS):
        if j < k:
            s[PCARD_CAP + j] = data.tab[T_PC_SLOTS + s[PCARD + j]]
        else:
            s[PCARD + j] = -1
            s[PCARD_CAP + j] = 0
