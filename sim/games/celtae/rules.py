"""Celtae rules kernels: setup, the phase machine of atomic decisions, Solitairix and scoring.

Kernel API (sim/games/README.md): ``init_state``, ``current_player``, ``is_over``,
``legal_actions``, ``step`` (pure: copies ``state`` into ``out`` and changes only ``out``),
``scores`` and ``components``. Every decision of rules/celtae.md §7 is one action; the engine
settles everything else itself (automatic phases, a decision with one option, a declined
optional step), so a bot is only asked when it has a real choice.

Chance (bag draws, deck draws and reshuffles, Solitairix's card) comes from the ``rng`` argument.
"""

import numpy as np
from numba import njit

from sim.core.rng import draw_from_histogram, randint, shuffle
from sim.games.celtae.params import (
    ANY_WORKER,
    F_ARMY1,
    F_ARMY2,
    F_BONUS_TILES,
    F_CUBES_PLACED,
    F_DISCS_NORTH,
    F_DISCS_PLACED,
    F_DISCS_SOUTH,
    F_DRUID1,
    F_DRUID2,
    F_TRIBE_EXCL_DRUIDS,
    G_ALL_CUBES_PTS,
    G_ARMY_ONES,
    G_ARMY_TWOS,
    G_BONUS_FORCE,
    G_BUILDERS,
    G_CARD_FORCE_CAP,
    G_COMPLETION_PTS,
    G_COPIES,
    G_CUBES,
    G_DISCARD_START,
    G_DISCS,
    G_DRUID_CARD_COST,
    G_DRUID_ONES,
    G_DRUID_TWOS,
    G_FARMERS,
    G_FLIP_AT,
    G_FORCE_MAX,
    G_HAND_START,
    G_LEADER_A_PTS,
    G_LEADER_B_PTS,
    G_LEFTOVER_DIV,
    G_MAX_RECRUITS,
    G_MIN_PAY,
    G_N_THREE,
    G_N_TWO,
    G_NOBLES,
    G_PAWN_PTS,
    G_REFRESH_COST,
    G_RESERVE,
    G_ROUND_CAP,
    G_SOLDIERS,
    G_TOKENS_START,
    G_TOKENS_TOTAL,
    G_TRACK,
    G_TRIBE_CAP,
    N_LEADER_FEATURES,
    N_PROGRESS,
    NON_DRUID_WORKERS,
    O_ANY_COUNTS_DRUIDS,
    O_BONUS_RECRUIT_NO_CAP,
    O_BUILD_ANYWAY,
    O_DRUID_OVERFLOW_RESERVE,
    O_DRUIDS_PAY_TILES,
    O_FLIP_TURN_ORDER,
    O_MAJORITY_ZERO_OK,
    O_MOVE3_FREE,
    O_NEUTRAL_CUBES_COUNT,
    O_ONE_TOKEN,
    O_OVERFLOW_TO_BOX,
    O_REFRESH_MAX,
    O_REFRESH_NEEDS_SWAP,
    O_REFRESH_REVERSED,
    O_RESHUFFLE,
    O_SOLO_ADJACENCY,
    O_SOLO_GARRISON_ANY,
    O_SOLO_GARRISON_VS_SOLITAIRIX_OFF,
    O_SOLO_MAJORITY_VS_SOLITAIRIX_OFF,
    O_SOLO_REFRESH_SWAPS,
    O_TIEBREAK_RANDOM,
    O_TOKEN_NO_MOVE,
    O_TOKEN_REGION_CHOICE,
    PF_ARMY_TILES,
    PF_BONUS_TILES,
    PF_DISCS_COLOUR,
    PF_DISCS_REGION,
    PF_DRUID_TILES,
    PF_DRUID_WORKERS,
    PF_WORKERS,
    T_ADJACENT,
    T_ARMY_POINTS,
    T_ARMY_STRENGTH,
    T_BONUS_EFFECTS,
    T_CIT_CAP,
    T_CIT_NEUTRAL,
    T_DISC_COST,
    T_DISC_PTS,
    T_DRUID_POINTS,
    T_DRUID_REQ,
    T_FORCE_DELTA,
    T_GARRISON_ICON,
    T_GARRISON_NEUTRAL,
    T_LEADER_MIN,
    T_MARKET_COST,
    T_PC_ARG,
    T_PC_FEATURE,
    T_PC_MIN,
    T_PC_SLOTS,
    T_PC_SOLO_MIN,
    T_POSITION_REGION,
    T_SETUP_TYPES,
    T_SOLO_ACTIONS,
    T_SOLO_DISCARD,
    T_SOLO_SWAP,
    T_TRIBE_PTS,
)
from sim.games.celtae.state import (
    A_BUILD,
    A_CARD,
    A_CHOOSE,
    A_CULT,
    A_GARR,
    A_LEADER,
    A_MOVE,
    A_NO,
    A_PAWN,
    A_SIDE_A,
    A_SIDE_B,
    A_STOP,
    A_SWAP,
    A_TAKE2,
    A_WORKER,
    A_YES,
    ACTIVE,
    AU_ACTION,
    AU_AFTER_EVENT,
    AU_END_TURN,
    AU_SETUP_NEXT,
    AU_SOLO_REST,
    AU_SOLO_START,
    B_CARDS,
    B_FORCE,
    B_RECRUIT,
    B_TOKEN,
    BAG,
    BOXED_DRUIDS,
    BOXED_WORKERS,
    BUILD_CIT,
    BUILDER,
    CAP_CHECK,
    CENTRE,
    CIT_BONUS,
    CIT_CAP,
    CIT_DISCS,
    CIT_DONE,
    CIT_FILLED,
    COMBAT_ICON,
    DECK,
    DECK_N,
    DISC_ARG,
    DISC_LEFT,
    DISC_MODE,
    DISC_STOP,
    DISCARD,
    DISCARD_N,
    DM_ANY,
    DM_COLOUR,
    DM_ICON,
    DOUBLE,
    DRUID,
    DSEAT,
    DTOP,
    EXTRA,
    FARMER,
    FIGHT_PILE_EMPTIED,
    FINAL,
    FIRST,
    FLIP_LEFT,
    FLIP_PENDING,
    FLIP_SEAT,
    GARRISON,
    GARRISON_SLOTS,
    HEADER_LEN,
    K_BUILD,
    K_COMBAT,
    K_CULTIVATE,
    K_RECRUIT,
    KIND,
    MARKET,
    MARKET_SIZE,
    MAX_ACTIONS,
    MAX_PCARDS,
    MAX_PILE,
    MAX_PLAYERS,
    N_BAGTYPES,
    N_CARDS,
    N_CITADELS,
    N_COLOURS,
    N_ICONS,
    N_LEADERS,
    N_PILES,
    N_POSITIONS,
    N_WTYPES,
    NO_MOVE,
    NOBLE,
    NP,
    OFFER,
    OVER,
    P_ACTIVE,
    P_ARMY1,
    P_ARMY2,
    P_BONUS_TILES,
    P_CUBES,
    P_DISCS,
    P_DRUID1,
    P_DRUID2,
    P_FORCE,
    P_HAND,
    P_HAND_N,
    P_LEADER,
    P_SHORT,
    P_SIDE,
    P_TIEBREAK,
    P_TOKENS,
    P_TOKENS_NEW,
    P_TRIBE,
    P_TRIBE_N,
    PAWN,
    PAWNS_DISCARDED,
    PCARD,
    PCARD_CAP,
    PCARD_PAWNS,
    PH_BRECRUIT,
    PH_BUILD,
    PH_CHOOSE,
    PH_CULT,
    PH_DISCARD,
    PH_DRAFT,
    PH_DRUID,
    PH_FIGHT,
    PH_FLIP,
    PH_GARRISON,
    PH_MOVE,
    PH_ORDER,
    PH_OVER,
    PH_OVERFLOW,
    PH_PAWN,
    PH_RECRUIT,
    PH_REFILL,
    PH_REFRESH,
    PH_SWAP,
    PH_TAKE2,
    PH_TOKEN,
    PHASE,
    PILE_END,
    PILE_PAWN,
    PILE_POS,
    PILES,
    PLAYERS,
    PW,
    R_MAX,
    R_TRACK_EMPTY,
    R_TURN_CAP,
    REASON,
    RECRUITED,
    REFRESHES,
    REGION,
    RESERVE,
    RESHUFFLES,
    RESUME,
    ROUND,
    RS_BUILD,
    RS_COMBAT,
    RS_DRUID,
    RS_PILE_COMBAT,
    RS_PILE_ORDER,
    RS_SETUP,
    RS_TRACK,
    SEAT,
    SETUP_LEFT,
    SIDE_A,
    SIDE_B,
    SLOTS,
    SOLDIER,
    SOLO,
    SOLO_ACTING,
    SOLO_CARD,
    SOLO_FACE,
    SOLO_SECTION,
    SP_CB_NORTH,
    SP_COMBAT,
    SP_RECRUIT,
    SPACE,
    SPACES,
    STATE_LEN,
    SWAP_FORCED,
    TEUTATES,
    TOKEN_RESERVE,
    TOKENS_USED,
    TRACK,
    TRIGGERED,
    TURNS,
)

RIVER_FROM = 3  # PROVISIONAL geometry: the step NE (3) -> SE (0) crosses the river
SOLITAIRIX = 1  # Solitairix's player block in the solo game


# ---------------------------------------------------------------------------------------------
# Small accessors
# ---------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def pb(seat):
    return PLAYERS + seat * PW


@njit(cache=True)
def n_blocks(s):
    """Player blocks in use: the players, plus Solitairix's in the solo game."""
    return 2 if s[SOLO] else s[NP]


@njit(cache=True)
def active_count(s, seat):
    n = 0
    for i in range(ACTIVE):
        if s[pb(seat) + P_ACTIVE + i] >= 0:
            n += 1
    return n


@njit(cache=True)
def active_of(s, seat, t):
    n = 0
    for i in range(ACTIVE):
        if s[pb(seat) + P_ACTIVE + i] == t:
            n += 1
    return n


@njit(cache=True)
def strength(s, seat, t):
    """Workers of type ``t`` strengthening an action: active + tribe (+ tribe druids for
    farmers, builders and soldiers, §4.6); tokens are added by the caller (EXTRA)."""
    b = pb(seat)
    n = active_of(s, seat, t) + s[b + P_TRIBE + t]
    if t <= SOLDIER:
        n += s[b + P_TRIBE + DRUID]
    return n


@njit(cache=True)
def relevant_type(kind):
    if kind == K_CULTIVATE:
        return FARMER
    if kind == K_BUILD:
        return BUILDER
    if kind == K_COMBAT:
        return SOLDIER
    return NOBLE


@njit(cache=True)
def bag_total(s):
    n = 0
    for t in range(N_BAGTYPES):
        n += s[BAG + t]
    return n


@njit(cache=True)
def space_of(kind, region):
    if kind in (K_CULTIVATE, K_BUILD):
        return SP_CB_NORTH + region
    if kind == K_RECRUIT:
        return SP_RECRUIT
    return SP_COMBAT


@njit(cache=True)
def usable_tokens(s, seat):
    b = pb(seat)
    return s[b + P_TOKENS] - s[b + P_TOKENS_NEW]


@njit(cache=True)
def pile_top(s, pile):
    """Tile id on top of ``pile``, -1 if empty."""
    if s[PILE_POS + pile] >= s[PILE_END + pile]:
        return -1
    return s[PILES + pile * MAX_PILE + s[PILE_POS + pile]]


@njit(cache=True)
def pile_left(s, pile):
    return s[PILE_END + pile] - s[PILE_POS + pile]


@njit(cache=True)
def cards_of_colour(s, seat, c):
    b = pb(seat) + P_HAND + c * N_ICONS
    return s[b] + s[b + 1] + s[b + 2]


@njit(cache=True)
def cards_of_icon(s, seat, i):
    n = 0
    for c in range(N_COLOURS):
        n += s[pb(seat) + P_HAND + c * N_ICONS + i]
    return n


@njit(cache=True)
def build_pay(s, data, seat, extra):
    """Cards a Build costs now: max(min_pay, printed cost - builders), §4.7.2."""
    b = pb(seat)
    placed = data.rules[G_DISCS] - s[b + P_DISCS]
    if s[b + P_DISCS] <= 0:
        return 1 << 20
    return max(
        data.rules[G_MIN_PAY], data.tab[T_DISC_COST + placed] - strength(s, seat, BUILDER) - extra
    )


@njit(cache=True)
def can_build_colour(s, data, seat, region, c, extra):
    cit = region * N_COLOURS + c
    if s[CIT_FILLED + cit] >= s[CIT_CAP + cit]:
        return False
    pay = build_pay(s, data, seat, extra)
    return cards_of_colour(s, seat, c) >= pay


@njit(cache=True)
def can_build(s, data, seat, region, extra):
    for c in range(N_COLOURS):  # noqa: SIM110 (a loop compiles; any() over a generator may not)
        if can_build_colour(s, data, seat, region, c, extra):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Chance and shared procedures (§4.11)
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def draw_card(s, data, rng):
    """Top card of the deck (reshuffling the discard pile per the switch), -1 if none."""
    if s[DECK_N] == 0:
        mode = data.rules[O_RESHUFFLE]
        if mode == 2 or s[DISCARD_N] == 0:
            return -1
        keep = -1
        if mode == 0 and s[DTOP] >= 0:
            keep = s[DTOP]
        for k in range(N_CARDS):
            n = s[DISCARD + k] - (1 if k == keep else 0)
            s[DECK + k] += n
            s[DECK_N] += n
            s[DISCARD + k] -= n
            s[DISCARD_N] -= n
        if keep < 0:
            s[DTOP] = -1
        s[RESHUFFLES] += 1
        if s[DECK_N] == 0:
            return -1
    k = draw_from_histogram(rng, s[DECK : DECK + N_CARDS], s[DECK_N])
    s[DECK + k] -= 1
    s[DECK_N] -= 1
    return k


@njit(cache=True)
def to_hand(s, seat, card):
    s[pb(seat) + P_HAND + card] += 1
    s[pb(seat) + P_HAND_N] += 1


@njit(cache=True)
def discard_from_hand(s, seat, card):
    s[pb(seat) + P_HAND + card] -= 1
    s[pb(seat) + P_HAND_N] -= 1
    s[DISCARD + card] += 1
    s[DISCARD_N] += 1
    s[DTOP] = card


@njit(cache=True)
def slide_refill(s, data, region, rng):
    """Slide the market's cards left keeping their order, then refill left to right."""
    base = MARKET + region * MARKET_SIZE
    j = 0
    for i in range(MARKET_SIZE):
        if s[base + i] >= 0:
            s[base + j] = s[base + i]
            j += 1
    for i in range(j, MARKET_SIZE):
        s[base + i] = draw_card(s, data, rng)


@njit(cache=True)
def bag_draw(s, rng):
    """One worker drawn from the bag, -1 if the bag is empty (A-19)."""
    total = bag_total(s)
    if total == 0:
        return -1
    t = draw_from_histogram(rng, s[BAG : BAG + N_BAGTYPES], total)
    s[BAG + t] -= 1
    return t


@njit(cache=True)
def to_bag(s, t):
    """A worker returned to the bag; druids never enter it (they go to the box)."""
    if t == DRUID:
        s[BOXED_DRUIDS] += 1
    elif t >= 0:
        s[BAG + t] += 1


@njit(cache=True)
def refresh_space(s, data, space, rng):
    """§4.5.2: space -> bag, centre -> space (slot k -> k, or reversed), 3 bag draws -> centre."""
    for k in range(SLOTS):
        to_bag(s, s[SPACES + space * SLOTS + k])
    rev = data.rules[O_REFRESH_REVERSED]
    for k in range(SLOTS):
        src = SLOTS - 1 - k if rev else k
        s[SPACES + space * SLOTS + k] = s[CENTRE + src]
    for k in range(SLOTS):
        s[CENTRE + k] = bag_draw(s, rng)


@njit(cache=True)
def gain_force(s, data, seat, n):
    b = pb(seat) + P_FORCE
    s[b] = min(s[b] + n, data.rules[G_FORCE_MAX])
    if s[b] < 0:
        s[b] = 0


@njit(cache=True)
def crosses(pos, d):
    for k in range(d):  # noqa: SIM110
        if (pos + k) % N_POSITIONS == RIVER_FROM:
            return True
    return False


@njit(cache=True)
def recruit_worker(s, seat, t):
    """Move one active worker of type ``t`` into the tribe."""
    b = pb(seat)
    for i in range(ACTIVE):
        if s[b + P_ACTIVE + i] == t:
            s[b + P_ACTIVE + i] = -1
            break
    s[b + P_TRIBE + t] += 1
    s[b + P_TRIBE_N] += 1


# ---------------------------------------------------------------------------------------------
# Setup (§3)
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
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
    perm = np.empty(4, np.int64)
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
    ids = np.arange(N_LEADERS)
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


@njit(cache=True)
def _make_piles(s, first_pile, ones, twos, n_ones, n_twos, rng):
    """Two identical piles (North then South): 1-point tiles on top of 2-point tiles."""
    a = np.arange(n_ones)
    b = np.arange(n_ones, n_ones + n_twos)
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


@njit(cache=True)
def _lay_out_progress(s, data, rng):
    twos = np.empty(13, np.int64)
    threes = np.empty(13, np.int64)
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


# ---------------------------------------------------------------------------------------------
# Public kernel API
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def is_over(s):
    return s[OVER] != 0


@njit(cache=True)
def current_player(s):
    if s[OVER]:
        return -1
    return s[DSEAT]


@njit(cache=True)
def legal_actions(s, data, out):
    """Fill ``out[:n]`` with the legal actions of the deciding seat; returns n (>= 2 between
    steps: the engine resolves forced and empty choices itself)."""
    ph = s[PHASE]
    seat = s[DSEAT]
    b = pb(seat)
    n = 0
    if ph == PH_DRAFT:
        for k in range(N_LEADERS):
            if s[OFFER + k]:
                out[n] = A_LEADER + k
                n += 1
    elif ph == PH_DISCARD:
        mode = s[DISC_MODE]
        for k in range(N_CARDS if s[DISC_LEFT] > 0 else 0):
            if s[b + P_HAND + k] == 0:
                continue
            if mode == DM_COLOUR and k // N_ICONS != s[DISC_ARG]:
                continue
            if mode == DM_ICON and s[DISC_ARG] >= 0 and k % N_ICONS != s[DISC_ARG]:
                continue
            out[n] = A_CARD + k
            n += 1
        if n > 0 and s[DISC_STOP]:
            out[n] = A_STOP
            n += 1
    elif ph == PH_MOVE:
        if data.rules[O_TOKEN_NO_MOVE] and usable_tokens(s, seat) > 0:
            out[n] = A_MOVE
            n += 1
        for d in range(1, 4):
            if (
                d == 3
                and not data.rules[O_MOVE3_FREE]
                and s[b + P_FORCE] < -data.tab[T_FORCE_DELTA + 2]
            ):
                continue
            out[n] = A_MOVE + d
            n += 1
    elif ph == PH_PAWN:
        for j in range(MAX_PCARDS):
            if s[PCARD + j] >= 0 and s[PCARD_PAWNS + j] < s[PCARD_CAP + j]:
                out[n] = A_PAWN + j
                n += 1
    elif ph == PH_FLIP:
        out[0] = A_SIDE_A
        out[1] = A_SIDE_B
        n = 2
    elif ph == PH_CHOOSE:
        n = _choose_options(s, data, seat, out)
    elif ph == PH_REFRESH:
        if _refresh_open(s, data, seat):
            guard = _guard_build(s, data)  # issue 19 #16: keep an announced Build possible
            for yes in range(2):
                if not guard or _build_ok_after_refresh(s, data, seat, yes == 0):
                    out[n] = A_YES if yes == 0 else A_NO
                    n += 1
    elif ph == PH_SWAP:
        n = _swap_options(s, data, seat, out)
    elif ph == PH_TOKEN:
        if extra_tokens_left(s, data, seat, 0) > 0:
            out[0] = A_YES
            n = 1
            if not _guard_build(s, data) or can_build(s, data, seat, s[REGION], s[EXTRA]):
                out[1] = A_NO
                n = 2
    elif ph == PH_CULT:
        n = _cult_options(s, data, seat, out)
    elif ph == PH_BUILD:
        for c in range(N_COLOURS):
            if can_build_colour(s, data, seat, s[REGION], c, s[EXTRA]):
                out[n] = A_BUILD + c
                n += 1
    elif ph == PH_TAKE2:
        base = MARKET + s[REGION] * MARKET_SIZE
        for i in range(MARKET_SIZE):
            if s[base + i] < 0:
                continue
            for j in range(i + 1, MARKET_SIZE):
                if s[base + j] >= 0:
                    out[n] = A_TAKE2 + i * MARKET_SIZE + j
                    n += 1
        if n == 0:
            for i in range(MARKET_SIZE):
                if s[base + i] >= 0:
                    out[n] = A_TAKE2 + i * MARKET_SIZE + i
                    n += 1
    elif ph in (PH_BRECRUIT, PH_RECRUIT):
        for t in range(N_WTYPES):
            if active_of(s, seat, t) > 0:
                out[n] = A_WORKER + t
                n += 1
        if ph == PH_RECRUIT and s[RECRUITED] > 0 and n > 0:
            out[n] = A_STOP
            n += 1
    elif ph == PH_FIGHT:
        top = pile_top(s, s[REGION])
        if top >= 0 and s[b + P_FORCE] >= data.tab[T_ARMY_STRENGTH + top]:
            out[0] = A_YES
            out[1] = A_NO
            n = 2
    elif ph == PH_GARRISON:
        if s[b + P_CUBES] > 0:
            for k in range(GARRISON_SLOTS):
                g = s[REGION] * GARRISON_SLOTS + k
                if s[GARRISON + g] != -1:
                    continue
                icon = data.tab[T_GARRISON_ICON + g]
                for c in range(N_COLOURS):
                    if s[b + P_HAND + c * N_ICONS + icon] > 0:
                        out[n] = A_GARR + k * 4 + c
                        n += 1
            if n > 0:
                out[n] = A_NO
                n += 1
    elif ph == PH_ORDER:
        if _order_possible(s, data, seat):
            out[0] = A_YES
            out[1] = A_NO
            n = 2
    elif ph == PH_DRUID:
        cost = (s[b + P_TRIBE + DRUID] + 1) * data.rules[G_DRUID_CARD_COST]
        if s[RESERVE + s[REGION]] > 0 and s[b + P_HAND_N] >= cost:
            out[0] = A_YES
            out[1] = A_NO
            n = 2
    elif ph == PH_REFILL:
        if active_count(s, seat) < ACTIVE:
            for t in range(N_BAGTYPES):
                for k in range(SLOTS):
                    if s[CENTRE + k] == t:
                        out[n] = A_WORKER + t
                        n += 1
                        break
    elif ph == PH_OVERFLOW and s[CAP_CHECK] and s[b + P_TRIBE_N] > data.rules[G_TRIBE_CAP]:
        for t in range(N_WTYPES):
            if s[b + P_TRIBE + t] > 0:
                out[n] = A_WORKER + t
                n += 1
    return n


@njit(cache=True)
def _choose_options(s, data, seat, out):
    """Step 2 choices: adjacent actions, then (with a usable token) any other space (§4.5)."""
    n = 0
    pos = s[PAWN]
    pos_region = data.tab[T_POSITION_REGION + pos]
    tokens = usable_tokens(s, seat)
    for token in range(2):
        if token == 1 and tokens == 0:
            break
        if token == 0 and s[NO_MOVE]:
            continue
        for kind in range(4):
            for region in range(2):
                space = space_of(kind, region)
                if kind <= K_BUILD:
                    if region != (space - SP_CB_NORTH):
                        continue
                    adjacent_ok = data.tab[T_ADJACENT + (pos) * 4 + space] == 1
                else:
                    if region != pos_region and not (
                        token == 1 and data.rules[O_TOKEN_REGION_CHOICE]
                    ):
                        continue
                    adjacent_ok = (
                        data.tab[T_ADJACENT + (pos) * 4 + space] == 1 and region == pos_region
                    )
                if token == 0 and not adjacent_ok:
                    continue
                if token == 1 and adjacent_ok and not s[NO_MOVE]:
                    continue  # already reachable without spending a token
                if (
                    kind == K_BUILD
                    and not data.rules[O_BUILD_ANYWAY]
                    and not _build_reachable(s, data, seat, region, space, token)
                ):
                    continue
                out[n] = A_CHOOSE + token * 8 + kind * 2 + region
                n += 1
    return n


@njit(cache=True)
def extra_tokens_left(s, data, seat, spent):
    """Tokens ``seat`` can still spend as an extra worker this turn once ``spent`` more are
    spent (§4.9; at most one per action under ``tokens_per_action_max = one``)."""
    left = usable_tokens(s, seat) - spent
    if data.rules[O_ONE_TOKEN]:
        return 1 if left > 0 and s[TOKENS_USED] + spent == 0 else 0
    return left


@njit(cache=True)
def _swap_builder_delta(s, seat, base, forced):
    """Best change of the builder count a swap with the 3 workers at ``s[base:base + 3]`` can
    make (0 = no swap; a forced swap may have to lose a builder)."""
    b = pb(seat)
    best = -2
    for i in range(ACTIVE):
        a = s[b + P_ACTIVE + i]
        if a < 0:
            continue
        for k in range(SLOTS):
            w = s[base + k]
            if w < 0 or w == a:
                continue
            d = (1 if w == BUILDER else 0) - (1 if a == BUILDER else 0)
            if d > best:
                best = d
    if best == -2 or (not forced and best < 0):
        return 0  # no swap changes anything, or declining it is best
    return best


@njit(cache=True)
def _refresh_open(s, data, seat):
    return (
        s[REFRESHES] < data.rules[O_REFRESH_MAX]
        and s[pb(seat) + P_FORCE] >= data.rules[G_REFRESH_COST]
    )


@njit(cache=True)
def _build_ok(s, data, seat, delta):
    """The announced Build stays possible after a swap changing the builders by ``delta``,
    counting the tokens still playable as extra builders (§4.5-4.9: it must be performed)."""
    extra = s[EXTRA] + extra_tokens_left(s, data, seat, 0) + delta
    return can_build(s, data, seat, s[REGION], extra)


@njit(cache=True)
def _build_ok_after_refresh(s, data, seat, refresh):
    """The announced Build stays possible if the player refreshes (``refresh``) or not, and
    then swaps at best. A refresh brings the centre's 3 workers, which are visible."""
    space_base = SPACES + s[SPACE] * SLOTS
    if refresh:
        forced = s[SWAP_FORCED] or data.rules[O_REFRESH_NEEDS_SWAP]
        return _build_ok(s, data, seat, _swap_builder_delta(s, seat, CENTRE, forced))
    return _build_ok(s, data, seat, _swap_builder_delta(s, seat, space_base, s[SWAP_FORCED]))


@njit(cache=True)
def _build_reachable(s, data, seat, region, space, token):
    """Whether a Build announced now on ``space`` (spending ``token`` tokens to reach it) can be
    performed after the optional refresh, swap and extra-worker tokens (§4.5, T07)."""
    extra = s[EXTRA] + extra_tokens_left(s, data, seat, token)
    delta = _swap_builder_delta(s, seat, SPACES + space * SLOTS, 0)
    if _refresh_open(s, data, seat):
        d = _swap_builder_delta(s, seat, CENTRE, data.rules[O_REFRESH_NEEDS_SWAP])
        if d > delta:
            delta = d
    return can_build(s, data, seat, region, extra + delta)


@njit(cache=True)
def _guard_build(s, data):
    """1 while the options before an announced Build must keep it possible (issue 19 #16)."""
    return s[KIND] == K_BUILD and not data.rules[O_BUILD_ANYWAY]


@njit(cache=True)
def _swap_options(s, data, seat, out):
    """Swaps that change something: one per (active type, space type) pair, plus no swap. In the
    solo game one per (active type, space slot): which of two alike workers leaves the space
    decides what Solitairix's positional swap finds there later (issue 19 #18). Before an
    announced Build only the swaps that keep it possible (issue 19 #16)."""
    n = 0
    b = pb(seat)
    space = s[SPACE]
    guard = _guard_build(s, data)
    seen = 0
    for i in range(ACTIVE):
        a = s[b + P_ACTIVE + i]
        if a < 0:
            continue
        for j in range(SLOTS):
            w = s[SPACES + space * SLOTS + j]
            if w < 0 or w == a:
                continue
            bit = 1 << (a * N_WTYPES + (j if s[SOLO] else w))
            if seen & bit:
                continue
            seen |= bit
            if guard:
                d = (1 if w == BUILDER else 0) - (1 if a == BUILDER else 0)
                if not _build_ok(s, data, seat, d):
                    continue
            out[n] = A_SWAP + i * SLOTS + j
            n += 1
    if n > 0 and not s[SWAP_FORCED] and (not guard or _build_ok(s, data, seat, 0)):
        out[n] = A_NO
        n += 1
    return n


@njit(cache=True)
def _cult_options(s, data, seat, out):
    """Subsets of market slots 2..6 (bits 0..4) within the farmer budget; at least one card."""
    base = MARKET + s[REGION] * MARKET_SIZE
    farmers = strength(s, seat, FARMER) + s[EXTRA]
    n = 0
    for mask in range(32):
        cost = 0
        ok = True
        for k in range(5):
            if mask & (1 << k):
                if s[base + 1 + k] < 0:
                    ok = False
                    break
                cost += data.tab[T_MARKET_COST + 1 + k]
        if ok and cost <= farmers:
            out[n] = A_CULT + mask
            n += 1
    if n == 1:
        return 0  # only the empty pick: nothing to decide
    return n


@njit(cache=True)
def _order_possible(s, data, seat):
    top = pile_top(s, 2 + s[REGION])
    if top < 0:
        return False
    b = pb(seat)
    short = 0
    for t in range(4):
        miss = data.tab[T_DRUID_REQ + (top) * 4 + t] - s[b + P_TRIBE + t]
        if miss > 0:
            if t == NOBLE or not data.rules[O_DRUIDS_PAY_TILES]:
                return False
            short += miss
    return short <= s[b + P_TRIBE + DRUID]


# ---------------------------------------------------------------------------------------------
# step: apply one action, then settle the automatic part of the game
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def copy_state(state, out):
    """``out[:] = state`` as a plain loop (numba's slice assignment is several times slower)."""
    for i in range(state.shape[0]):
        out[i] = state[i]


@njit(cache=True)
def step(state, action, data, rng, out):
    """Pure transition: ``out`` = ``state`` after ``action`` and every automatic consequence."""
    copy_state(state, out)
    apply(out, action, data, rng)
    settle(out, data, rng)


@njit(cache=True)
def decline_action(phase):
    if phase == PH_CULT:
        return A_CULT
    if phase in (PH_DISCARD, PH_PAWN, PH_BUILD, PH_TAKE2):
        return A_STOP
    if phase in (PH_BRECRUIT, PH_RECRUIT, PH_REFILL):
        return A_STOP
    if phase == PH_OVERFLOW:
        return A_STOP
    return A_NO


@njit(cache=True)
def settle(s, data, rng):
    """Run the automatic phases and resolve choices with zero or one option, until a seat has a
    real decision or the game is over."""
    buf = np.empty(MAX_ACTIONS, np.int32)
    while True:
        ph = s[PHASE]
        if ph == PH_OVER:
            return
        if ph == AU_SETUP_NEXT:
            _setup_next(s, data)
        elif ph == AU_ACTION:
            _start_action(s, data, rng)
        elif ph == AU_END_TURN:
            _end_turn(s, data)
        elif ph == AU_SOLO_START:
            _solo_start(s, data, rng)
        elif ph == AU_SOLO_REST:
            _solo_rest(s, data, rng)
        elif ph == AU_AFTER_EVENT:
            s[PHASE] = AU_SOLO_REST if s[SOLO_ACTING] else PH_CHOOSE
            s[DSEAT] = s[SEAT]
        else:
            n = legal_actions(s, data, buf)
            if n >= 2:
                return
            apply(s, buf[0] if n == 1 else decline_action(ph), data, rng)


@njit(cache=True)
def _setup_next(s, data):
    """Next seat of the leader pick and starting discard: from the last player counter-
    clockwise (step 20); then the first player's turn."""
    n = s[NP]
    if s[SETUP_LEFT] == 0:
        s[SEAT] = s[FIRST]
        s[DSEAT] = s[FIRST]
        s[PHASE] = PH_MOVE
        return
    k = n - s[SETUP_LEFT]  # 0 = the last player
    seat = (s[FIRST] + n - 1 - k) % n
    s[SETUP_LEFT] -= 1
    s[DSEAT] = seat
    if s[pb(seat) + P_LEADER] < 0:
        s[PHASE] = PH_DRAFT
    else:
        _begin_discard(s, DM_ANY, 0, data.rules[G_DISCARD_START], 0, RS_SETUP)


@njit(cache=True)
def _begin_discard(s, mode, arg, count, stop_ok, resume):
    s[DISC_MODE] = mode
    s[DISC_ARG] = arg
    s[DISC_LEFT] = count
    s[DISC_STOP] = stop_ok
    s[RESUME] = resume
    s[PHASE] = PH_DISCARD
    if count <= 0:
        s[DISC_LEFT] = 0


@njit(cache=True)
def apply(s, action, data, rng):
    ph = s[PHASE]
    seat = s[DSEAT]
    b = pb(seat)
    if ph == PH_DRAFT:
        leader = action - A_LEADER
        s[b + P_LEADER] = leader
        s[OFFER + leader] = 0
        if s[SOLO]:
            for k in range(N_LEADERS):
                s[OFFER + k] = 0
        _begin_discard(s, DM_ANY, 0, data.rules[G_DISCARD_START], 0, RS_SETUP)
        if s[DISC_LEFT] == 0:
            s[PHASE] = AU_SETUP_NEXT
    elif ph == PH_DISCARD:
        if action == A_STOP or s[DISC_LEFT] == 0:
            _discard_done(s, data)
            return
        card = action - A_CARD
        discard_from_hand(s, seat, card)
        s[DISC_LEFT] -= 1
        if s[DISC_MODE] == DM_ICON:
            s[DISC_ARG] = card % N_ICONS
            s[COMBAT_ICON] = card % N_ICONS
            per = min(strength(s, seat, SOLDIER) + s[EXTRA], data.rules[G_CARD_FORCE_CAP])
            gain_force(s, data, seat, per)
        if s[DISC_LEFT] == 0:
            _discard_done(s, data)
    elif ph == PH_MOVE:
        d = action - A_MOVE
        if d == 0:
            s[NO_MOVE] = 1
            s[PHASE] = PH_CHOOSE
            return
        gain_force(s, data, seat, data.tab[T_FORCE_DELTA + d - 1])
        start = s[PAWN]
        s[PAWN] = (start + d) % N_POSITIONS
        s[PHASE] = PH_CHOOSE
        if crosses(start, d):
            _progress_event(s)
    elif ph == PH_PAWN:
        if action != A_STOP:
            s[PCARD_PAWNS + action - A_PAWN] += 1
        else:
            s[PAWNS_DISCARDED] += 1
        _pawn_done(s, data)
    elif ph == PH_FLIP:
        side = SIDE_B if action == A_SIDE_B else SIDE_A
        if data.rules[O_FLIP_TURN_ORDER]:
            s[b + P_SIDE] = side
        else:
            s[FLIP_PENDING + seat] = side
        _next_flip(s)
    elif ph == PH_CHOOSE:
        code = action - A_CHOOSE
        token = code // 8
        kind = (code % 8) // 2
        region = code % 2
        s[KIND] = kind
        s[REGION] = region
        s[SPACE] = space_of(kind, region)
        if token:
            _spend_token(s, seat)
        s[PHASE] = PH_REFRESH
    elif ph == PH_REFRESH:
        if action == A_YES:
            gain_force(s, data, seat, -data.rules[G_REFRESH_COST])
            refresh_space(s, data, s[SPACE], rng)
            s[REFRESHES] += 1
            if data.rules[O_REFRESH_NEEDS_SWAP]:
                s[SWAP_FORCED] = 1
        else:
            s[PHASE] = PH_SWAP
    elif ph == PH_SWAP:
        if action != A_NO:
            code = action - A_SWAP
            i = code // SLOTS
            j = code % SLOTS
            idx = SPACES + s[SPACE] * SLOTS + j
            mine = s[b + P_ACTIVE + i]
            s[b + P_ACTIVE + i] = s[idx]
            s[idx] = mine
        s[PHASE] = PH_TOKEN
    elif ph == PH_TOKEN:
        if action == A_YES:
            _spend_token(s, seat)
            s[EXTRA] += 1
        else:
            s[PHASE] = AU_ACTION
    elif ph == PH_CULT:
        mask = action - A_CULT
        base = MARKET + s[REGION] * MARKET_SIZE
        for k in range(5):
            if mask & (1 << k):
                to_hand(s, seat, s[base + 1 + k])
                s[base + 1 + k] = -1
        slide_refill(s, data, s[REGION], rng)
        s[PHASE] = AU_END_TURN
    elif ph == PH_BUILD:
        if action == A_STOP:
            s[PHASE] = AU_END_TURN
            return
        c = action - A_BUILD
        s[BUILD_CIT] = s[REGION] * N_COLOURS + c
        _begin_discard(s, DM_COLOUR, c, build_pay(s, data, seat, s[EXTRA]), 0, RS_BUILD)
    elif ph == PH_TAKE2:
        if action != A_STOP:
            code = action - A_TAKE2
            i = code // MARKET_SIZE
            j = code % MARKET_SIZE
            base = MARKET + s[REGION] * MARKET_SIZE
            to_hand(s, seat, s[base + i])
            s[base + i] = -1
            if j != i:
                to_hand(s, seat, s[base + j])
                s[base + j] = -1
            slide_refill(s, data, s[REGION], rng)
        s[PHASE] = AU_END_TURN
    elif ph == PH_BRECRUIT:
        if action != A_STOP:
            recruit_worker(s, seat, action - A_WORKER)
        s[CAP_CHECK] = 0 if data.rules[O_BONUS_RECRUIT_NO_CAP] else 1
        s[PHASE] = PH_REFILL
    elif ph == PH_FIGHT:
        if action == A_YES:
            pile = s[REGION]
            gain_force(s, data, seat, -data.tab[T_ARMY_STRENGTH + pile_top(s, pile)])
            if take_tile(s, data, seat, pile):
                s[FIGHT_PILE_EMPTIED] = 1
            s[PHASE] = PH_GARRISON
        else:
            s[PHASE] = AU_END_TURN
    elif ph == PH_GARRISON:
        if action != A_NO:
            code = action - A_GARR
            k = code // 4
            c = code % 4
            g = s[REGION] * GARRISON_SLOTS + k
            discard_from_hand(s, seat, c * N_ICONS + data.tab[T_GARRISON_ICON + g])
            s[GARRISON + g] = seat
            s[b + P_CUBES] -= 1
        if s[FIGHT_PILE_EMPTIED]:
            _begin_pile_pawn(s, s[REGION], RS_PILE_COMBAT)
        else:
            s[PHASE] = AU_END_TURN
    elif ph == PH_RECRUIT:
        if action == A_STOP:
            s[PHASE] = PH_ORDER
            return
        recruit_worker(s, seat, action - A_WORKER)
        s[RECRUITED] += 1
        if s[RECRUITED] >= s[R_MAX]:
            s[PHASE] = PH_ORDER
    elif ph == PH_ORDER:
        if action == A_YES:
            _druidic_order(s, data, seat)
        else:
            s[PHASE] = PH_REFILL
    elif ph == PH_DRUID:
        if action == A_YES:
            cost = (s[b + P_TRIBE + DRUID] + 1) * data.rules[G_DRUID_CARD_COST]
            _begin_discard(s, DM_ANY, 0, cost, 0, RS_DRUID)
            if cost == 0:
                _discard_done(s, data)
        else:
            s[PHASE] = PH_REFILL
    elif ph == PH_REFILL:
        if action == A_STOP:
            if active_count(s, seat) < ACTIVE:
                s[b + P_SHORT] += 1
            s[PHASE] = PH_OVERFLOW
            return
        t = action - A_WORKER
        for k in range(SLOTS):
            if s[CENTRE + k] == t:
                s[CENTRE + k] = bag_draw(s, rng)
                break
        for i in range(ACTIVE):
            if s[b + P_ACTIVE + i] < 0:
                s[b + P_ACTIVE + i] = t
                break
    elif ph == PH_OVERFLOW:
        if action == A_STOP:
            s[PHASE] = AU_END_TURN
            return
        t = action - A_WORKER
        s[b + P_TRIBE + t] -= 1
        s[b + P_TRIBE_N] -= 1
        if t == DRUID:
            if data.rules[O_DRUID_OVERFLOW_RESERVE]:
                s[RESERVE + s[REGION]] += 1
            else:
                s[BOXED_DRUIDS] += 1
        elif data.rules[O_OVERFLOW_TO_BOX]:
            s[BOXED_WORKERS] += 1
        else:
            s[BAG + t] += 1


@njit(cache=True)
def _spend_token(s, seat):
    b = pb(seat)
    s[b + P_TOKENS] -= 1
    s[TOKEN_RESERVE] += 1
    s[TOKENS_USED] += 1


@njit(cache=True)
def _discard_done(s, data):
    r = s[RESUME]
    seat = s[DSEAT]
    if r == RS_SETUP:
        s[PHASE] = AU_SETUP_NEXT
    elif r == RS_BUILD:
        _place_disc(s, data, seat)
    elif r == RS_COMBAT:
        s[PHASE] = PH_FIGHT
    elif r == RS_DRUID:
        s[RESERVE + s[REGION]] -= 1
        s[pb(seat) + P_TRIBE + DRUID] += 1
        s[pb(seat) + P_TRIBE_N] += 1
        s[PHASE] = PH_REFILL


@njit(cache=True)
def _place_disc(s, data, seat):
    """Build steps 4-6: the leftmost disc, the citadel's bonus, completion (§4.7.2, §4.8)."""
    b = pb(seat)
    cit = s[BUILD_CIT]
    s[b + P_DISCS] -= 1
    s[CIT_FILLED + cit] += 1
    s[CIT_DISCS + cit * MAX_PLAYERS + seat] += 1
    if s[CIT_FILLED + cit] == s[CIT_CAP + cit]:
        s[CIT_DONE + cit] = seat
        s[b + P_BONUS_TILES] += 1
    effect = s[CIT_BONUS + cit]
    s[PHASE] = AU_END_TURN
    if effect == B_TOKEN:
        if s[TOKEN_RESERVE] > 0:
            s[TOKEN_RESERVE] -= 1
            s[b + P_TOKENS] += 1
            s[b + P_TOKENS_NEW] += 1
    elif effect == B_FORCE:
        gain_force(s, data, seat, data.rules[G_BONUS_FORCE])
    elif effect == B_CARDS:
        s[PHASE] = PH_TAKE2
    elif effect == B_RECRUIT:
        s[PHASE] = PH_BRECRUIT


@njit(cache=True)
def _druidic_order(s, data, seat):
    """Recruit step 4a-4d: return the tile's workers from the tribe, take the tile."""
    b = pb(seat)
    pile = 2 + s[REGION]
    top = pile_top(s, pile)
    for t in range(4):
        need = data.tab[T_DRUID_REQ + (top) * 4 + t]
        have = min(need, s[b + P_TRIBE + t])
        s[b + P_TRIBE + t] -= have
        s[b + P_TRIBE_N] -= have
        s[BAG + t] += have
        short = need - have  # only with druids_can_pay_druid_tiles: druids go to the box
        s[b + P_TRIBE + DRUID] -= short
        s[b + P_TRIBE_N] -= short
        s[BOXED_DRUIDS] += short
    if take_tile(s, data, seat, pile):
        _begin_pile_pawn(s, pile, RS_PILE_ORDER)
    else:
        s[PHASE] = PH_DRUID


@njit(cache=True)
def take_tile(s, data, owner, pile):
    """Move the top tile of ``pile`` (army piles 0-1, druid piles 2-3) to ``owner``; True if it
    was the pile's last tile and the pile's progress pawn is still beside it."""
    t = pile_top(s, pile)
    b = pb(owner)
    if pile < 2:
        s[b + (P_ARMY1 if data.tab[T_ARMY_POINTS + t] == 1 else P_ARMY2)] += 1
    else:
        s[b + (P_DRUID1 if data.tab[T_DRUID_POINTS + t] == 1 else P_DRUID2)] += 1
    s[PILE_POS + pile] += 1
    return pile_left(s, pile) == 0 and s[PILE_PAWN + pile] == 1


@njit(cache=True)
def _begin_pile_pawn(s, pile, resume):
    """The last tile of a pile: its progress pawn goes onto a card of the taker's choice."""
    s[PILE_PAWN + pile] = 0
    s[RESUME] = resume
    s[PHASE] = PH_PAWN


@njit(cache=True)
def _progress_event(s):
    """A river crossing (§4.4): the Teutates holder (solo: the player) places the top pawn."""
    if s[TRACK] == 0:
        return
    s[TRACK] -= 1
    s[RESUME] = RS_TRACK
    s[DSEAT] = 0 if s[SOLO] else s[TEUTATES]
    s[PHASE] = PH_PAWN


@njit(cache=True)
def _pawn_done(s, data):
    r = s[RESUME]
    if r == RS_TRACK:
        if not s[SOLO]:
            s[TEUTATES] = (s[TEUTATES] + 1) % s[NP]
        if s[TRACK] == 0:
            s[TRIGGERED] = 1
        if s[TRACK] == data.rules[G_FLIP_AT] and data.rules[G_FLIP_AT] > 0:
            s[FLIP_LEFT] = s[NP]
            s[FLIP_SEAT] = s[SEAT] if not s[SOLO_ACTING] else 0
            s[DSEAT] = s[FLIP_SEAT]
            s[PHASE] = PH_FLIP
        else:
            s[PHASE] = AU_AFTER_EVENT
    elif r == RS_PILE_COMBAT:
        s[DSEAT] = s[SEAT]
        s[PHASE] = AU_END_TURN
    elif r == RS_PILE_ORDER:
        s[DSEAT] = s[SEAT]
        s[PHASE] = PH_DRUID


@njit(cache=True)
def _next_flip(s):
    s[FLIP_LEFT] -= 1
    if s[FLIP_LEFT] > 0:
        s[FLIP_SEAT] = (s[FLIP_SEAT] + 1) % s[NP]
        s[DSEAT] = s[FLIP_SEAT]
        return
    for seat in range(s[NP]):  # simultaneous decisions are revealed together
        if s[FLIP_PENDING + seat] == SIDE_B:
            s[pb(seat) + P_SIDE] = SIDE_B
        s[FLIP_PENDING + seat] = 0
    s[PHASE] = AU_AFTER_EVENT


@njit(cache=True)
def _start_action(s, data, rng):
    """Step 3 begins: the mandatory first part of the chosen action."""
    seat = s[SEAT]
    kind = s[KIND]
    if kind == K_CULTIVATE:
        base = MARKET + s[REGION] * MARKET_SIZE
        if s[base] >= 0:
            to_hand(s, seat, s[base])
            s[base] = -1
        s[PHASE] = PH_CULT
    elif kind == K_BUILD:
        s[PHASE] = PH_BUILD
    elif kind == K_COMBAT:
        _begin_discard(s, DM_ICON, -1, 1 << 20, 1, RS_COMBAT)
    else:
        nobles = strength(s, seat, NOBLE) + s[EXTRA]
        s[R_MAX] = min(data.rules[G_MAX_RECRUITS], 1 + nobles)
        s[RECRUITED] = 0
        s[CAP_CHECK] = 1
        s[PHASE] = PH_RECRUIT


@njit(cache=True)
def _reset_turn(s):
    s[KIND] = -1
    s[NO_MOVE] = 0
    s[REFRESHES] = 0
    s[SWAP_FORCED] = 0
    s[TOKENS_USED] = 0
    s[EXTRA] = 0
    s[R_MAX] = 0
    s[RECRUITED] = 0
    s[COMBAT_ICON] = -1
    s[FIGHT_PILE_EMPTIED] = 0
    s[CAP_CHECK] = 0


@njit(cache=True)
def _end_turn(s, data):
    """Close the turn (Cultivate's slide and refill are already done) and pass play on (§4.1,
    §5): the round, the end trigger, the final double turns, Solitairix's turn."""
    seat = s[SEAT]
    if not s[SOLO_ACTING]:
        s[pb(seat) + P_TOKENS_NEW] = 0
    _reset_turn(s)
    s[TURNS] += 1
    n = s[NP]
    if s[SOLO]:
        # the human then Solitairix; the final round is 2 human turns then 2 of Solitairix
        if s[FINAL]:
            if s[DOUBLE] == 0:
                s[DOUBLE] = 1
                _begin_turn(s, s[SOLO_ACTING] == 1)
                return
            if s[SOLO_ACTING]:
                _game_over(s, R_TRACK_EMPTY)
                return
            s[DOUBLE] = 0
            _begin_turn(s, True)
            return
        if not s[SOLO_ACTING]:
            _begin_turn(s, True)
            return
        _round_over(s, data)
        return
    last = (s[FIRST] + n - 1) % n
    if s[FINAL]:
        if s[DOUBLE] == 0:
            s[DOUBLE] = 1
            _begin_turn(s, False)
            return
        s[DOUBLE] = 0
        if seat == last:
            _game_over(s, R_TRACK_EMPTY)
            return
        s[SEAT] = (seat + 1) % n
        _begin_turn(s, False)
        return
    if seat == last:
        _round_over(s, data)
        return
    s[SEAT] = (seat + 1) % n
    _begin_turn(s, False)


@njit(cache=True)
def _round_over(s, data):
    s[ROUND] += 1
    if s[TRIGGERED]:
        s[FINAL] = 1
        s[DOUBLE] = 0
    elif s[ROUND] > data.rules[G_ROUND_CAP]:
        _game_over(s, R_TURN_CAP)
        return
    s[SEAT] = s[FIRST]
    _begin_turn(s, False)


@njit(cache=True)
def _begin_turn(s, solitairix):
    if solitairix:
        s[SOLO_ACTING] = 1
        s[SEAT] = 0
        s[DSEAT] = 0
        s[PHASE] = AU_SOLO_START
    else:
        s[SOLO_ACTING] = 0
        s[DSEAT] = s[SEAT]
        s[PHASE] = PH_MOVE


@njit(cache=True)
def _game_over(s, reason):
    s[OVER] = 1
    s[REASON] = reason
    s[PHASE] = PH_OVER
    s[DSEAT] = -1


# ---------------------------------------------------------------------------------------------
# Solitairix (§4.12)
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def _solo_start(s, data, rng):
    """A) draw a card, move 1 (2 if its colour matches the top discard); a crossing lets the
    player place the pawn (and decide the flip) before the rest of Solitairix's turn."""
    card = draw_card(s, data, rng)
    s[SOLO_CARD] = card
    top = s[DTOP]
    d = 1
    if card >= 0 and top >= 0 and card // N_ICONS == top // N_ICONS:
        d = 2
    start = s[PAWN]
    s[PAWN] = (start + d) % N_POSITIONS
    s[PHASE] = AU_SOLO_REST
    if crosses(start, d):
        _progress_event(s)


@njit(cache=True)
def _solo_possible(s, data, kind, region, card):
    x = pb(SOLITAIRIX)
    if kind == K_BUILD:
        if card < 0 or s[x + P_DISCS] == 0:
            return False
        cit = region * N_COLOURS + card // N_ICONS
        return s[CIT_FILLED + cit] < s[CIT_CAP + cit]
    if kind == K_COMBAT:
        return pile_top(s, region) >= 0
    if kind == K_RECRUIT:
        return pile_top(s, 2 + region) >= 0
    return True


@njit(cache=True)
def _solo_rest(s, data, rng):
    """B) rotate the solo tile, C) choose the action, D) swap, E) perform, discard the card."""
    card = s[SOLO_CARD]
    top = s[DTOP]
    rot = 1
    if card >= 0 and top >= 0 and card % N_ICONS == top % N_ICONS:
        rot = 2
    s[SOLO_SECTION] = (s[SOLO_SECTION] + rot) % 4
    section = s[SOLO_FACE] * 4 + s[SOLO_SECTION]
    region = data.tab[T_POSITION_REGION + s[PAWN]]
    kind = K_CULTIVATE
    for j in range(4):
        k = data.tab[T_SOLO_ACTIONS + (section) * 4 + j]
        if k < 0:
            break
        if (
            data.rules[O_SOLO_ADJACENCY]
            and data.tab[T_ADJACENT + (s[PAWN]) * 4 + space_of(k, region)] == 0
        ):
            continue
        if _solo_possible(s, data, k, region, card):
            kind = k
            break
    space = space_of(kind, region)
    swap = data.tab[T_SOLO_SWAP + section]
    x = pb(SOLITAIRIX)
    if swap == 0:
        refresh_space(s, data, space, rng)
        if data.rules[O_SOLO_REFRESH_SWAPS]:
            swap = 1
    if swap > 0:
        idx = SPACES + space * SLOTS + (swap - 1)
        mine = s[x + P_ACTIVE]
        s[x + P_ACTIVE] = s[idx]
        s[idx] = mine
    if kind == K_CULTIVATE:
        base = MARKET + region * MARKET_SIZE
        mask = data.tab[T_SOLO_DISCARD + section]
        for i in range(MARKET_SIZE):
            if mask & (1 << i) and s[base + i] >= 0:
                c = s[base + i]
                s[DISCARD + c] += 1
                s[DISCARD_N] += 1
                s[DTOP] = c
                s[base + i] = -1
        slide_refill(s, data, region, rng)
    elif kind == K_BUILD:
        cit = region * N_COLOURS + card // N_ICONS
        s[x + P_DISCS] -= 1
        s[CIT_FILLED + cit] += 1
        s[CIT_DISCS + cit * MAX_PLAYERS + SOLITAIRIX] += 1
        if s[CIT_FILLED + cit] == s[CIT_CAP + cit]:
            s[CIT_DONE + cit] = SOLITAIRIX
            s[x + P_BONUS_TILES] += 1
    elif kind == K_COMBAT:
        if take_tile(s, data, SOLITAIRIX, region):
            s[PILE_PAWN + region] = 0  # discarded, not placed
            s[PAWNS_DISCARDED] += 1
        if card >= 0 and s[x + P_CUBES] > 0:
            for rr in range(2):
                r = region if rr == 0 else 1 - region
                if rr == 1 and not data.rules[O_SOLO_GARRISON_ANY]:
                    break
                placed = False
                for k in range(GARRISON_SLOTS):
                    g = r * GARRISON_SLOTS + k
                    if s[GARRISON + g] == -1 and data.tab[T_GARRISON_ICON + g] == card % N_ICONS:
                        s[GARRISON + g] = SOLITAIRIX
                        s[x + P_CUBES] -= 1
                        placed = True
                        break
                if placed:
                    break
    else:
        pile = 2 + region
        if take_tile(s, data, SOLITAIRIX, pile):
            s[PILE_PAWN + pile] = 0  # discarded, not placed
            s[PAWNS_DISCARDED] += 1
        if s[RESERVE + region] > 0:
            s[RESERVE + region] -= 1
            s[x + P_TRIBE + DRUID] += 1
            s[x + P_TRIBE_N] += 1
    if card >= 0:
        s[DISCARD + card] += 1
        s[DISCARD_N] += 1
        s[DTOP] = card
    s[SOLO_CARD] = -1
    s[PHASE] = AU_END_TURN


# ---------------------------------------------------------------------------------------------
# Scoring (§6)
# ---------------------------------------------------------------------------------------------

# Score components, in the order of GAME.score_components (categories A to K of §6).
(
    C_CITADELS,
    C_BONUS_TILES,
    C_DRUID_TILES,
    C_ARMIES,
    C_GARRISON,
    C_TRIBE,
    C_BOARD,
    C_ALL_CUBES,
    C_LEFTOVER,
    C_PROGRESS,
    C_LEADER,
    N_COMPONENTS,
) = range(12)


@njit(cache=True)
def discs_placed(s, data, seat):
    return data.rules[G_DISCS] - s[pb(seat) + P_DISCS]


@njit(cache=True)
def discs_in_region(s, seat, region):
    n = 0
    for c in range(N_COLOURS):
        n += s[CIT_DISCS + (region * N_COLOURS + c) * MAX_PLAYERS + seat]
    return n


@njit(cache=True)
def discs_of_colour(s, seat, c):
    return (
        s[CIT_DISCS + c * MAX_PLAYERS + seat] + s[CIT_DISCS + (N_COLOURS + c) * MAX_PLAYERS + seat]
    )


@njit(cache=True)
def cubes_in_region(s, seat, region):
    n = 0
    for k in range(GARRISON_SLOTS):
        if s[GARRISON + region * GARRISON_SLOTS + k] == seat:
            n += 1
    return n


@njit(cache=True)
def leader_feature(s, data, seat, f):
    """One quantity a leader card compares (``F_*``), for ``seat``."""
    b = pb(seat)
    if f == F_ARMY1:
        return s[b + P_ARMY1]
    if f == F_ARMY2:
        return s[b + P_ARMY2]
    if f == F_DRUID1:
        return s[b + P_DRUID1]
    if f == F_DRUID2:
        return s[b + P_DRUID2]
    if f == F_CUBES_PLACED:
        return data.rules[G_CUBES] - s[b + P_CUBES]
    if f == F_DISCS_NORTH:
        return discs_in_region(s, seat, 0)
    if f == F_DISCS_SOUTH:
        return discs_in_region(s, seat, 1)
    if f == F_DISCS_PLACED:
        return discs_placed(s, data, seat)
    if f == F_TRIBE_EXCL_DRUIDS:
        return s[b + P_TRIBE_N] - s[b + P_TRIBE + DRUID]
    if f == F_BONUS_TILES:
        return s[b + P_BONUS_TILES]
    return 0


@njit(cache=True)
def leader_features(s, data, seat, out):
    """Every leader quantity: ``out[f] = leader_feature(..., f)``."""
    for f in range(N_LEADER_FEATURES):
        out[f] = leader_feature(s, data, seat, f)


@njit(cache=True)
def leader_met(s, data, seat, side, feats):
    leader = s[pb(seat) + P_LEADER]
    if leader < 0:
        return False
    for f in range(N_LEADER_FEATURES):
        if feats[f] < data.tab[T_LEADER_MIN + ((leader) * 2 + side) * N_LEADER_FEATURES + f]:
            return False
    return True


@njit(cache=True)
def progress_count(s, data, seat, card):
    """The quantity a progress card compares, for ``seat`` (Solitairix's block works too)."""
    b = pb(seat)
    f = data.tab[T_PC_FEATURE + card]
    arg = data.tab[T_PC_ARG + card]
    if f == PF_DISCS_COLOUR:
        return discs_of_colour(s, seat, arg)
    if f == PF_DISCS_REGION:
        return discs_in_region(s, seat, arg)
    if f == PF_WORKERS:
        if arg == ANY_WORKER:
            n = s[b + P_TRIBE_N]
            if not data.rules[O_ANY_COUNTS_DRUIDS]:
                n -= s[b + P_TRIBE + DRUID]
            return n
        if arg == NON_DRUID_WORKERS:  # "druids not included" on the card itself (issue 19 #17)
            return s[b + P_TRIBE_N] - s[b + P_TRIBE + DRUID]
        return s[b + P_TRIBE + arg]
    if f == PF_BONUS_TILES:
        return s[b + P_BONUS_TILES]
    if f == PF_DRUID_WORKERS:
        return s[b + P_TRIBE + DRUID]
    if f == PF_DRUID_TILES:
        return s[b + P_DRUID1] + s[b + P_DRUID2]
    if f == PF_ARMY_TILES:
        return s[b + P_ARMY1] + s[b + P_ARMY2]
    return cubes_in_region(s, seat, arg)


@njit(cache=True)
def progress_met(s, data, seat, card):
    """Whether ``seat`` meets a progress card's condition (§6 J, solo rules, A-22, A-29)."""
    own = progress_count(s, data, seat, card)
    need = data.tab[T_PC_MIN + card]
    if need > 0:
        return own >= need
    floor = 0 if data.rules[O_MAJORITY_ZERO_OK] else 1
    if own < floor:
        return False
    if s[SOLO]:
        f = data.tab[T_PC_FEATURE + card]
        if f == PF_WORKERS:
            return own >= data.tab[T_PC_SOLO_MIN + card]
        tile_card = f in (PF_BONUS_TILES, PF_ARMY_TILES, PF_DRUID_TILES, PF_DRUID_WORKERS)
        if tile_card and data.rules[O_SOLO_MAJORITY_VS_SOLITAIRIX_OFF]:
            return True
        return own >= progress_count(s, data, SOLITAIRIX, card)
    for other in range(s[NP]):
        if other != seat and progress_count(s, data, other, card) > own:
            return False
    return True


@njit(cache=True)
def components(s, data, seat, out):
    """Score lines A..K (§6) of ``seat`` if the game ended now; returns the total."""
    b = pb(seat)
    rules = data.rules
    for k in range(N_COMPONENTS):
        out[k] = 0
    for cit in range(N_CITADELS):
        if s[CIT_FILLED + cit] >= s[CIT_CAP + cit]:
            out[C_CITADELS] += s[CIT_DISCS + cit * MAX_PLAYERS + seat]
    out[C_BONUS_TILES] = s[b + P_BONUS_TILES] * rules[G_COMPLETION_PTS]
    out[C_DRUID_TILES] = s[b + P_DRUID1] + 2 * s[b + P_DRUID2]
    out[C_ARMIES] = s[b + P_ARMY1] + 2 * s[b + P_ARMY2]
    blocks = n_blocks(s)
    for r in range(2):
        own = cubes_in_region(s, seat, r)
        if own == 0:
            continue
        best = True
        for other in range(blocks):
            if other == seat:
                continue
            if s[SOLO] and rules[O_SOLO_GARRISON_VS_SOLITAIRIX_OFF]:
                continue
            if cubes_in_region(s, other, r) > own:
                best = False
        if rules[O_NEUTRAL_CUBES_COUNT] and cubes_in_region(s, -2, r) > own:
            best = False
        if best:
            out[C_GARRISON] += own
    tribe = min(s[b + P_TRIBE_N], 16)
    for k in range(tribe):
        out[C_TRIBE] += data.tab[T_TRIBE_PTS + k]
    for k in range(discs_placed(s, data, seat)):
        out[C_BOARD] += data.tab[T_DISC_PTS + k]
    if s[b + P_CUBES] == 0:
        out[C_ALL_CUBES] = rules[G_ALL_CUBES_PTS]
    out[C_LEFTOVER] = (s[b + P_FORCE] + s[b + P_HAND_N]) // rules[G_LEFTOVER_DIV]
    for j in range(MAX_PCARDS):
        card = s[PCARD + j]
        pawns = s[PCARD_PAWNS + j]
        if card < 0 or pawns == 0:
            continue
        if progress_met(s, data, seat, card):
            out[C_PROGRESS] += pawns * rules[G_PAWN_PTS]
        elif s[SOLO]:
            out[C_PROGRESS] -= pawns * rules[G_PAWN_PTS]
    feats = np.zeros(N_LEADER_FEATURES, np.int64)
    leader_features(s, data, seat, feats)
    side = s[b + P_SIDE]
    if leader_met(s, data, seat, side, feats):
        out[C_LEADER] = rules[G_LEADER_B_PTS] if side == SIDE_B else rules[G_LEADER_A_PTS]
    total = 0
    for k in range(N_COMPONENTS):
        total += out[k]
    return total


@njit(cache=True)
def scores(state, data, out):
    """Each seat's score if the game ended now (lines A..K); returns the seat count."""
    comp = np.zeros(N_COMPONENTS, np.int64)
    for seat in range(state[NP]):
        out[seat] = components(state, data, seat, comp)
    return state[NP]


@njit(cache=True)
def tiebreaks(s, data, seat):
    """§6 tie-breaks: (discs on citadels + tribe workers), (army tiles + druid tiles)."""
    b = pb(seat)
    first = discs_placed(s, data, seat) + s[b + P_TRIBE_N]
    second = s[b + P_ARMY1] + s[b + P_ARMY2] + s[b + P_DRUID1] + s[b + P_DRUID2]
    return first, second


@njit(cache=True)
def check_state_len(s):
    return s.shape[0] == STATE_LEN and HEADER_LEN > 0


# ---------------------------------------------------------------------------------------------
# Hidden information (for the search bot and the no-peeking test)
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
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


@njit(cache=True)
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
