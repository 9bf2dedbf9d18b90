"""Celtae invariants, checked after every step by ``menhir check`` and the property tests.

``state_check`` is the state's own validator: the 56 non-druid workers (bag, centre, action
spaces, active workers, tribes, box) and the 10 druids (reserves, tribes, box) are each somewhere
exactly once; so are the 60 cards (deck, discard pile, markets, hands, Solitairix's drawn card),
every player's 9 discs and 4 cubes, the 10 bonus tokens and the progress pawns; the tiles taken
from the piles are the tiles the players hold; counters agree with their histograms; force stays
on its track; a seat is asked only when it has at least 2 options; no tribe is above the cap when
a turn starts. ``checked`` is the compiled checked loop (sim/core/check.py).
"""

import numpy as np
from numba import njit

from sim.core.check import C_CAPPED, C_ENDS, C_INPUT, C_LEGAL, C_SCORE, GAME_BASE, GENERIC
from sim.core.rng import seed_streams
from sim.core.split_compile import checked_halves, prepare
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
    setup_data,
)
from sim.games.celtae.play import role_mode_of
from sim.games.celtae.rules import (
    components,
    current_player,
    init_state,
    is_over,
    legal_actions,
    step,
)
from sim.games.celtae.rules_scoring import N_COMPONENTS
from sim.games.celtae.rules_shared import n_blocks
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
    NP,
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
    PH_OVER,
    PH_PAWN,
    PHASE,
    PILE_PAWN,
    PILE_POS,
    PLAYERS,
    PW,
    R_TURN_CAP,
    REASON,
    RESERVE,
    SOLO,
    SOLO_CARD,
    SPACES,
    STATE_LEN,
    TOKEN_RESERVE,
    TRACK,
)
from strategies.celtae import choose_action, choose_plain, greedy_action, random_action
from strategies.search import checked_loop

NON_DRUID_WORKERS = 56  # 16 farmers + 16 builders + 16 soldiers + 8 nobles
DRUIDS = 10
CARDS = 60

INVARIANTS = (
    "non-druid workers conserved",
    "druids conserved",
    "cards conserved",
    "card counters agree with their histograms",
    "discs conserved",
    "cubes conserved",
    "bonus tokens conserved",
    "progress pawns conserved",
    "tiles taken are the tiles held",
    "active workers and tribes well formed",
    "force on its track",
    "a decision has at least 2 options",
    "no tribe over the cap when a turn starts",
)
(
    WORKERS,
    DRUIDS_LOST,
    CARDS_LOST,
    COUNTERS,
    DISCS,
    CUBES,
    TOKENS,
    PAWNS,
    TILES,
    WORKERS_SHAPE,
    FORCE,
    FEW_OPTIONS,
    TRIBE_CAP,
) = range(1, len(INVARIANTS) + 1)
N_ROWS = 1 + len(GENERIC) + len(INVARIANTS)


@njit(cache=True)
def _books(s, data, n_players):
    rules = data.rules
    blocks = n_blocks(s)
    # non-druid workers: bag, centre, spaces, actives, tribes, boxed sets and boxed overflow
    boxed_sets = 6 if n_players == 1 else 3 * (4 - n_players)
    w = boxed_sets + s[BOXED_WORKERS]
    for t in range(4):
        if s[BAG + t] < 0:
            return WORKERS
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
                return WORKERS_SHAPE
            tribe += s[b + P_TRIBE + t]
        if tribe != s[b + P_TRIBE_N]:
            return WORKERS_SHAPE
        for i in range(ACTIVE):
            a = s[b + P_ACTIVE + i]
            if a == DRUID or a > DRUID:
                return WORKERS_SHAPE
            if a >= 0:
                w += 1
        w += tribe - s[b + P_TRIBE + DRUID]
        druids += s[b + P_TRIBE + DRUID]
    if w != NON_DRUID_WORKERS:
        return WORKERS
    if druids != DRUIDS:
        return DRUIDS_LOST
    # cards
    c = s[DECK_N] + s[DISCARD_N]
    deck = 0
    disc = 0
    for k in range(N_CARDS):
        if s[DECK + k] < 0 or s[DISCARD + k] < 0:
            return COUNTERS
        deck += s[DECK + k]
        disc += s[DISCARD + k]
    if deck != s[DECK_N] or disc != s[DISCARD_N]:
        return COUNTERS
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
                return COUNTERS
            h += s[b + P_HAND + k]
        if h != s[b + P_HAND_N]:
            return COUNTERS
        c += h
    if c != CARDS:
        return CARDS_LOST
    # discs and cubes
    for seat in range(blocks):
        b = PLAYERS + seat * PW
        placed = 0
        for cit in range(8):
            placed += s[CIT_DISCS + cit * MAX_PLAYERS + seat]
        if placed + s[b + P_DISCS] != rules[G_DISCS] or s[b + P_DISCS] < 0:
            return DISCS
        on_board = 0
        for g in range(10):
            if s[GARRISON + g] == seat:
                on_board += 1
        if on_board + s[b + P_CUBES] != rules[G_CUBES] or s[b + P_CUBES] < 0:
            return CUBES
    for cit in range(8):
        total = data.tab[T_CIT_NEUTRAL + cit]
        for seat in range(MAX_PLAYERS):
            total += s[CIT_DISCS + cit * MAX_PLAYERS + seat]
        if total != s[CIT_FILLED + cit] or total > s[CIT_CAP + cit]:
            return DISCS
    # tokens
    tok = s[TOKEN_RESERVE]
    for seat in range(MAX_PLAYERS):
        tok += s[PLAYERS + seat * PW + P_TOKENS]
    if tok != rules[G_TOKENS_TOTAL]:
        return TOKENS
    # progress pawns: track + on cards + beside piles + discarded
    pawns = s[TRACK] + s[PAWNS_DISCARDED] + (1 if s[PHASE] == PH_PAWN else 0)  # in hand
    for j in range(8):
        pawns += s[PCARD_PAWNS + j]
    for p in range(4):
        pawns += s[PILE_PAWN + p]
    if pawns != rules[G_TRACK] + 4:
        return PAWNS
    # tiles: taken from the piles = held by the players
    armies = s[PILE_POS] + s[PILE_POS + 1]
    druid_tiles = s[PILE_POS + 2] + s[PILE_POS + 3]
    for seat in range(MAX_PLAYERS):
        b = PLAYERS + seat * PW
        armies -= s[b + P_ARMY1] + s[b + P_ARMY2]
        druid_tiles -= s[b + P_DRUID1] + s[b + P_DRUID2]
    if armies != 0 or druid_tiles != 0:
        return TILES
    for seat in range(n_players):
        f = s[PLAYERS + seat * PW + P_FORCE]
        if f < 0 or f > rules[G_FORCE_MAX]:
            return FORCE
    return 0


@njit(cache=True)
def state_check(s, data):
    """0, or the number (1-based, ``INVARIANTS``) of the first invariant ``s`` breaks."""
    n_players = s[NP]
    err = _books(s, data, n_players)
    if err != 0 or s[PHASE] >= PH_OVER:
        return err
    buf = np.empty(MAX_ACTIONS, np.int32)
    if legal_actions(s, data, buf) < 2:
        return FEW_OPTIONS
    if s[PHASE] == PH_MOVE and not s[SOLO] and not data.rules[O_BONUS_RECRUIT_NO_CAP]:
        for seat in range(n_players):
            if s[PLAYERS + seat * PW + P_TRIBE_N] > data.rules[G_TRIBE_CAP]:
                return TRIBE_CAP
    return 0


@njit(cache=True)
def transition_check(before, after, data):
    """0: Celtae has no invariant over one step beyond the state's own."""
    return 0


@njit(cache=True)
def score_check(s, data):
    """True if every seat's score equals the sum of its lines A..K."""
    comp = np.zeros(N_COMPONENTS, np.int64)
    for seat in range(s[NP]):
        total = components(s, data, seat, comp)
        acc = 0
        for k in range(N_COMPONENTS):
            acc += comp[k]
        if acc != total:
            return False
    return True


@njit(cache=True)
def checked_kernel(
    data, n_players, role_mode, fixed_roles, codes, params, seeds, max_steps, corrupt,
    first_code, first_step, counts,
):  # fmt: skip
    """Play one game per seed; after every step check every invariant (sim/core/check.py)."""
    streams = np.zeros((1 + n_players, 4), np.uint64)
    a = np.zeros(STATE_LEN, np.int32)
    b = np.zeros(STATE_LEN, np.int32)
    before = np.zeros(STATE_LEN, np.int32)
    buf = np.zeros(MAX_ACTIONS, np.int32)
    legal = np.zeros(MAX_ACTIONS, np.int32)
    n_game = len(INVARIANTS)
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, role_mode, fixed_roles, streams[0], a)
        for k in range(1, n_game + 1):
            counts[GAME_BASE + k, 0] += 1
        code = state_check(a, data)
        err = 0 if code == 0 else GAME_BASE + code
        steps = 0
        while err == 0 and not is_over(a):
            if steps >= max_steps:
                counts[C_ENDS, 0] += 1
                err = C_ENDS
                break
            seat = current_player(a)
            n = legal_actions(a, data, legal)
            act = choose_action(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            counts[C_LEGAL, 0] += 1
            found = False
            for i in range(n):
                if legal[i] == act:
                    found = True
            if not found:
                err = C_LEGAL
                break
            for i in range(STATE_LEN):
                before[i] = a[i]
            step(a, act, data, streams[0], b)
            steps += 1
            if g == corrupt[0] and steps == corrupt[1]:
                b[corrupt[2]] += corrupt[3]
            counts[C_INPUT, 0] += 1
            for i in range(STATE_LEN):
                if a[i] != before[i]:
                    err = C_INPUT
            for k in range(1, n_game + 1):
                counts[GAME_BASE + k, 0] += 1
            if err == 0:
                code = transition_check(a, b, data)
                if code == 0:
                    code = state_check(b, data)
                if code != 0:
                    err = GAME_BASE + code
            a, b = b, a
        if err == 0:
            counts[C_SCORE, 0] += 1
            if not score_check(a, data):
                err = C_SCORE
        if err == 0:
            counts[C_ENDS, 0] += 1
            counts[C_CAPPED, 0] += 1
            if a[REASON] == R_TURN_CAP:
                err = C_CAPPED
        first_code[g] = err
        first_step[g] = steps
        if err != 0:
            counts[err, 1] += 1


def compile_halves(args, search):
    """The checked loop's kernels in two halves (sim/core/split_compile.py)."""
    data, n_players, mode, fixed, _, params, *_ = args
    return checked_halves(
        data, n_players, params, [greedy_action, random_action], init_state, (mode, fixed), step
    )


def checked(setup, seeds, max_steps, corrupt):
    """(first violation per game, its step, counts) for one chunk of seeds (sim/core/check.py)."""
    data = setup_data(setup)
    codes, values = setup.bot_arrays()
    kernel = checked_loop(codes, checked_kernel, choose_plain)
    mode, fixed = role_mode_of(setup)
    n = seeds.shape[0]
    first_code = np.zeros(n, np.int64)
    first_step = np.zeros(n, np.int64)
    counts = np.zeros((N_ROWS, 2), np.int64)
    args = (
        data, setup.players, mode, fixed, codes, values, np.ascontiguousarray(seeds, np.uint64),
        max_steps, corrupt, first_code, first_step, counts,
    )  # fmt: skip
    prepare(kernel, args, compile_halves, False)
    kernel(*args)
    return first_code, first_step, counts
