"""Compiled invariant checks for Celtae, run after every step of many games.

``check_games`` plays ``seeds`` with the given bots and returns an error code per game (0 = every
invariant held after every step); ``describe`` names a code. A compiled loop keeps thousands of
games per player count affordable.
"""

import numpy as np
from numba import njit

from sim.core.rng import seed_stream, seed_streams
from sim.games.celtae.params import (
    G_CUBES,
    G_DISCS,
    G_FORCE_MAX,
    G_RESERVE,
    G_TOKENS_TOTAL,
    G_TRACK,
    G_TRIBE_CAP,
    O_BONUS_RECRUIT_NO_CAP,
    T_CIT_NEUTRAL,
)
from sim.games.celtae.rules import (
    N_COMPONENTS,
    components,
    current_player,
    determinize,
    init_state,
    is_over,
    legal_actions,
    n_blocks,
    step,
)
from sim.games.celtae.state import (
    ACTIVE,
    BAG,
    BOXED_DRUIDS,
    BOXED_WORKERS,
    CENTRE,
    CIT_CAP,
    CIT_DISCS,
    CIT_FILLED,
    DECK,
    DECK_N,
    DISCARD,
    DISCARD_N,
    DRUID,
    GARRISON,
    MARKET,
    MAX_ACTIONS,
    MAX_PLAYERS,
    N_CARDS,
    N_WTYPES,
    P_ACTIVE,
    P_ARMY1,
    P_ARMY2,
    P_CUBES,
    P_DISCS,
    P_DRUID1,
    P_DRUID2,
    P_FORCE,
    P_HAND,
    P_HAND_N,
    P_TOKENS,
    P_TRIBE,
    P_TRIBE_N,
    PAWNS_DISCARDED,
    PCARD_PAWNS,
    PH_MOVE,
    PH_PAWN,
    PHASE,
    PILE_PAWN,
    PILE_POS,
    PLAYERS,
    PW,
    RESERVE,
    SOLO,
    SOLO_CARD,
    SPACES,
    STATE_LEN,
    TOKEN_RESERVE,
    TRACK,
)

NON_DRUID_WORKERS = 56  # 16 farmers + 16 builders + 16 soldiers + 8 nobles
DRUIDS = 10
CARDS = 60
MAX_STEPS = 100_000

ERRORS = (
    "ok",
    "step modified its input",
    "non-druid workers not conserved",
    "druids not conserved",
    "cards not conserved",
    "card counters disagree",
    "discs not conserved",
    "cubes not conserved",
    "tokens not conserved",
    "progress pawns not conserved",
    "tiles not conserved",
    "bad active/tribe",
    "force out of range",
    "score differs from its components",
    "game did not end",
    "illegal action offered (fewer than 2 options)",
    "tribe over the cap at the start of a turn",
    "the bot chose an action that is not legal",
    "greedy's choice changed when hidden cards and tiles were re-dealt (it peeked)",
)


def describe(code: int) -> str:
    return ERRORS[code]


@njit(cache=True)
def check_state(s, data, n_players):
    rules = data.rules
    blocks = n_blocks(s)
    # non-druid workers: bag, centre, spaces, actives, tribes, boxed sets and boxed overflow
    boxed_sets = 6 if n_players == 1 else 3 * (4 - n_players)
    w = boxed_sets + s[BOXED_WORKERS]
    for t in range(4):
        if s[BAG + t] < 0:
            return 2
        w += s[BAG + t]
    for k in range(3):
        if s[CENTRE + k] >= 0:
            w += 1
    for k in range(12):
        if s[SPACES + k] >= 0:
            w += 1
    druids = s[RESERVE] + s[RESERVE + 1] + (DRUIDS - 2 * rules[G_RESERVE]) + s[BOXED_DRUIDS]
    for seat in range(MAX_PLAYERS):
        b = PLAYERS + seat * PW
        tribe = 0
        for t in range(N_WTYPES):
            if s[b + P_TRIBE + t] < 0:
                return 11
            tribe += s[b + P_TRIBE + t]
        if tribe != s[b + P_TRIBE_N]:
            return 11
        for i in range(ACTIVE):
            a = s[b + P_ACTIVE + i]
            if a == DRUID or a > DRUID:
                return 11
            if a >= 0:
                w += 1
        w += tribe - s[b + P_TRIBE + DRUID]
        druids += s[b + P_TRIBE + DRUID]
    if w != NON_DRUID_WORKERS:
        return 2
    if druids != DRUIDS:
        return 3
    # cards
    c = s[DECK_N] + s[DISCARD_N]
    deck = 0
    disc = 0
    for k in range(N_CARDS):
        if s[DECK + k] < 0 or s[DISCARD + k] < 0:
            return 5
        deck += s[DECK + k]
        disc += s[DISCARD + k]
    if deck != s[DECK_N] or disc != s[DISCARD_N]:
        return 5
    for k in range(12):
        if s[MARKET + k] >= 0:
            c += 1
    if s[SOLO_CARD] >= 0:
        c += 1
    for seat in range(MAX_PLAYERS):
        b = PLAYERS + seat * PW
        h = 0
        for k in range(N_CARDS):
            if s[b + P_HAND + k] < 0:
                return 5
            h += s[b + P_HAND + k]
        if h != s[b + P_HAND_N]:
            return 5
        c += h
    if c != CARDS:
        return 4
    # discs and cubes
    for seat in range(blocks):
        b = PLAYERS + seat * PW
        placed = 0
        for cit in range(8):
            placed += s[CIT_DISCS + cit * MAX_PLAYERS + seat]
        if placed + s[b + P_DISCS] != rules[G_DISCS] or s[b + P_DISCS] < 0:
            return 6
        on_board = 0
        for g in range(10):
            if s[GARRISON + g] == seat:
                on_board += 1
        if on_board + s[b + P_CUBES] != rules[G_CUBES] or s[b + P_CUBES] < 0:
            return 7
    for cit in range(8):
        total = data.tab[T_CIT_NEUTRAL + cit]
        for seat in range(MAX_PLAYERS):
            total += s[CIT_DISCS + cit * MAX_PLAYERS + seat]
        if total != s[CIT_FILLED + cit] or total > s[CIT_CAP + cit]:
            return 6
    # tokens
    tok = s[TOKEN_RESERVE]
    for seat in range(MAX_PLAYERS):
        tok += s[PLAYERS + seat * PW + P_TOKENS]
    if tok != rules[G_TOKENS_TOTAL]:
        return 8
    # progress pawns: track + on cards + beside piles + discarded
    pawns = s[TRACK] + s[PAWNS_DISCARDED] + (1 if s[PHASE] == PH_PAWN else 0)  # in hand
    for j in range(8):
        pawns += s[PCARD_PAWNS + j]
    for p in range(4):
        pawns += s[PILE_PAWN + p]
    if pawns != rules[G_TRACK] + 4:
        return 9
    # tiles: taken from the piles = held by the players
    armies = s[PILE_POS] + s[PILE_POS + 1]
    druid_tiles = s[PILE_POS + 2] + s[PILE_POS + 3]
    for seat in range(MAX_PLAYERS):
        b = PLAYERS + seat * PW
        armies -= s[b + P_ARMY1] + s[b + P_ARMY2]
        druid_tiles -= s[b + P_DRUID1] + s[b + P_DRUID2]
    if armies != 0 or druid_tiles != 0:
        return 10
    for seat in range(n_players):
        f = s[PLAYERS + seat * PW + P_FORCE]
        if f < 0 or f > rules[G_FORCE_MAX]:
            return 12
    return 0


@njit(cache=True)
def check_games(data, n_players, role_mode, fixed_roles, codes, params, seeds, choose):
    errors = np.zeros(seeds.shape[0], np.int64)
    streams = np.zeros((1 + n_players, 4), np.uint64)
    a = np.zeros(STATE_LEN, np.int32)
    b = np.zeros(STATE_LEN, np.int32)
    before = np.zeros(STATE_LEN, np.int32)
    buf = np.zeros(MAX_ACTIONS, np.int32)
    legal = np.zeros(MAX_ACTIONS, np.int32)
    comp = np.zeros(N_COMPONENTS, np.int64)
    hidden = np.zeros(STATE_LEN, np.int32)
    spare = np.zeros(4, np.uint64)
    shuffler = np.zeros(4, np.uint64)
    seed_stream(shuffler, np.uint64(12345))
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, role_mode, fixed_roles, streams[0], a)
        err = check_state(a, data, n_players)
        steps = 0
        while err == 0 and not is_over(a):
            if legal_actions(a, data, legal) < 2:
                err = 15
                break
            if a[PHASE] == PH_MOVE and not a[SOLO] and not data.rules[O_BONUS_RECRUIT_NO_CAP]:
                for seat in range(n_players):
                    if a[PLAYERS + seat * PW + P_TRIBE_N] > data.rules[G_TRIBE_CAP]:
                        err = 16
            seat = current_player(a)
            n_legal = legal_actions(a, data, legal)
            spare[:] = streams[1 + seat]
            act = choose(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            found = False
            for k in range(n_legal):
                if legal[k] == act:
                    found = True
            if not found:
                err = 17
                break
            if codes[seat] == 1:
                determinize(a, data, seat, shuffler, hidden)
                if choose(hidden, data, seat, codes[seat], params[seat], spare, buf) != act:
                    err = 18
                    break
            before[:] = a
            step(a, act, data, streams[0], b)
            for i in range(STATE_LEN):
                if a[i] != before[i]:
                    err = 1
            if err == 0:
                err = check_state(b, data, n_players)
            a, b = b, a
            steps += 1
            if steps > MAX_STEPS:
                err = 14
        if err == 0:
            for seat in range(n_players):
                total = components(a, data, seat, comp)
                acc = 0
                for k in range(N_COMPONENTS):
                    acc += comp[k]
                if acc != total:
                    err = 13
        errors[g] = err
    return errors
