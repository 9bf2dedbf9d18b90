"""Celtae rules, final scoring (rules/celtae.md §6): the score lines A to K, the progress card
conditions (including the solo comparisons with Solitairix), the leader conditions of sides A
and B, and the tie-breaks. ``scores`` and ``components`` are kernel entry points; the greedy
bot reads the same quantities (``leader_feature``, ``progress_count``, ``progress_met``).
"""

from sim.core.kernel import leaf
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
    G_COMPLETION_PTS,
    G_CUBES,
    G_DISCS,
    G_LEADER_A_PTS,
    G_LEADER_B_PTS,
    G_LEFTOVER_DIV,
    G_PAWN_PTS,
    N_LEADER_FEATURES,
    NON_DRUID_WORKERS,
    O_ANY_COUNTS_DRUIDS,
    O_MAJORITY_ZERO_OK,
    O_NEUTRAL_CUBES_COUNT,
    O_SOLO_GARRISON_VS_SOLITAIRIX_OFF,
    O_SOLO_MAJORITY_VS_SOLITAIRIX_OFF,
    PF_ARMY_TILES,
    PF_BONUS_TILES,
    PF_DISCS_COLOUR,
    PF_DISCS_REGION,
    PF_DRUID_TILES,
    PF_DRUID_WORKERS,
    PF_WORKERS,
    T_DISC_PTS,
    T_LEADER_MIN,
    T_PC_ARG,
    T_PC_FEATURE,
    T_PC_MIN,
    T_PC_SOLO_MIN,
    T_TRIBE_PTS,
)
from sim.games.celtae.rules_shared import SOLITAIRIX, n_blocks, pb
from sim.games.celtae.scratch import stack_int64
from sim.games.celtae.state import (
    CIT_CAP,
    CIT_DISCS,
    CIT_FILLED,
    DRUID,
    GARRISON,
    GARRISON_SLOTS,
    HEADER_LEN,
    MAX_PCARDS,
    MAX_PLAYERS,
    N_CITADELS,
    N_COLOURS,
    NP,
    P_ARMY1,
    P_ARMY2,
    P_BONUS_TILES,
    P_CUBES,
    P_DISCS,
    P_DRUID1,
    P_DRUID2,
    P_FORCE,
    P_HAND_N,
    P_LEADER,
    P_SIDE,
    P_TRIBE,
    P_TRIBE_N,
    PCARD,
    PCARD_PAWNS,
    SIDE_B,
    SOLO,
    STATE_LEN,
)

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


@leaf
def discs_placed(s, data, seat):
    return data.rules[G_DISCS] - s[pb(seat) + P_DISCS]


@leaf
def discs_in_region(s, seat, region):
    n = 0
    for c in range(N_COLOURS):
        n += s[CIT_DISCS + (region * N_COLOURS + c) * MAX_PLAYERS + seat]
    return n


@leaf
def discs_of_colour(s, seat, c):
    return (
        s[CIT_DISCS + c * MAX_PLAYERS + seat] + s[CIT_DISCS + (N_COLOURS + c) * MAX_PLAYERS + seat]
    )


@leaf
def cubes_in_region(s, seat, region):
    n = 0
    for k in range(GARRISON_SLOTS):
        if s[GARRISON + region * GARRISON_SLOTS + k] == seat:
            n += 1
    return n


@leaf
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


@leaf
def leader_features(s, data, seat, out):
    """Every leader quantity: ``out[f] = leader_feature(..., f)``."""
    for f in range(N_LEADER_FEATURES):
        out[f] = leader_feature(s, data, seat, f)


@leaf
def leader_met(s, data, seat, side, feats):
    leader = s[pb(seat) + P_LEADER]
    if leader < 0:
        return False
    for f in range(N_LEADER_FEATURES):
        if feats[f] < data.tab[T_LEADER_MIN + ((leader) * 2 + side) * N_LEADER_FEATURES + f]:
            return False
    return True


@leaf
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


@leaf
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


@leaf
def progress_met_seats(s, data, card, met):
    """``met[seat]`` = :func:`progress_met` for every seat, each seat's quantity counted once
    (a majority card otherwise counts every rival's for every seat asked)."""
    n = s[NP]
    if s[SOLO]:
        for seat in range(n):
            met[seat] = progress_met(s, data, seat, card)
        return
    counts = stack_int64(MAX_PLAYERS)
    for seat in range(n):
        counts[seat] = progress_count(s, data, seat, card)
    need = data.tab[T_PC_MIN + card]
    floor = 0 if data.rules[O_MAJORITY_ZERO_OK] else 1
    for seat in range(n):
        own = counts[seat]
        if need > 0:
            met[seat] = own >= need
            continue
        ok = own >= floor
        for other in range(n):
            if other != seat and counts[other] > own:
                ok = False
        met[seat] = ok


@leaf
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
    feats = stack_int64(N_LEADER_FEATURES)
    leader_features(s, data, seat, feats)
    side = s[b + P_SIDE]
    if leader_met(s, data, seat, side, feats):
        out[C_LEADER] = rules[G_LEADER_B_PTS] if side == SIDE_B else rules[G_LEADER_A_PTS]
    total = 0
    for k in range(N_COMPONENTS):
        total += out[k]
    return total


@leaf
def scores(state, data, out):
    """Each seat's score if the game ended now (lines A..K); returns the seat count."""
    comp = stack_int64(N_COMPONENTS)
    for seat in range(state[NP]):
        out[seat] = components(state, data, seat, comp)
    return state[NP]


@leaf
def tiebreaks(s, data, seat):
    """§6 tie-breaks: (discs on citadels + tribe workers), (army tiles + druid tiles)."""
    b = pb(seat)
    first = discs_placed(s, data, seat) + s[b + P_TRIBE_N]
    second = s[b + P_ARMY1] + s[b + P_ARMY2] + s[b + P_DRUID1] + s[b + P_DRUID2]
    return first, second


@leaf
def check_state_len(s):
    return s.shape[0] == STATE_LEN and HEADER_LEN > 0
