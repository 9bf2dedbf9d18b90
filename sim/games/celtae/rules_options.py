"""Celtae rules, the options of every decision (rules/celtae.md §7, D1-D24) during setup step 20
and the three steps of a turn (§4.3 move, §4.5 choose / refresh / swap, §4.7 perform, §4.9
tokens, §4.10 leader flip).

``legal_actions`` lists the options of the phase waiting for a decision. The helpers below it
are the legality filters of step 2: which action spaces the pawn (or a bonus token) reaches,
and, before an announced Build, only the refresh, swap and token choices that keep that Build
possible (§4.5, issue 19 #16); then the Cultivate picks within the farmer budget (§4.7.1) and
whether the Druidic Order is possible (§4.7.4).
"""

from sim.core.kernel import leaf
from sim.games.celtae.params import (
    G_DRUID_CARD_COST,
    G_REFRESH_COST,
    G_TRIBE_CAP,
    O_BUILD_ANYWAY,
    O_DRUIDS_PAY_TILES,
    O_MOVE3_FREE,
    O_ONE_TOKEN,
    O_REFRESH_MAX,
    O_REFRESH_NEEDS_SWAP,
    O_TOKEN_NO_MOVE,
    O_TOKEN_REGION_CHOICE,
    T_ADJACENT,
    T_ARMY_STRENGTH,
    T_DRUID_REQ,
    T_FORCE_DELTA,
    T_GARRISON_ICON,
    T_MARKET_COST,
    T_POSITION_REGION,
)
from sim.games.celtae.rules_shared import (
    active_count,
    active_of,
    can_build,
    can_build_colour,
    pb,
    pile_top,
    space_of,
    strength,
    usable_tokens,
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
    BUILDER,
    CAP_CHECK,
    CENTRE,
    DISC_ARG,
    DISC_LEFT,
    DISC_MODE,
    DISC_STOP,
    DM_COLOUR,
    DM_ICON,
    DRUID,
    DSEAT,
    EXTRA,
    FARMER,
    GARRISON,
    GARRISON_SLOTS,
    K_BUILD,
    KIND,
    MARKET,
    MARKET_SIZE,
    MAX_PCARDS,
    N_BAGTYPES,
    N_CARDS,
    N_COLOURS,
    N_ICONS,
    N_LEADERS,
    N_WTYPES,
    NO_MOVE,
    NOBLE,
    OFFER,
    P_ACTIVE,
    P_CUBES,
    P_FORCE,
    P_HAND,
    P_HAND_N,
    P_TRIBE,
    P_TRIBE_N,
    PAWN,
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
    PH_OVERFLOW,
    PH_PAWN,
    PH_RECRUIT,
    PH_REFILL,
    PH_REFRESH,
    PH_SWAP,
    PH_TAKE2,
    PH_TOKEN,
    PHASE,
    RECRUITED,
    REFRESHES,
    REGION,
    RESERVE,
    SLOTS,
    SOLO,
    SP_CB_NORTH,
    SPACE,
    SPACES,
    SWAP_FORCED,
    TOKENS_USED,
)


@leaf
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


@leaf
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


@leaf
def extra_tokens_left(s, data, seat, spent):
    """Tokens ``seat`` can still spend as an extra worker this turn once ``spent`` more are
    spent (§4.9; at most one per action under ``tokens_per_action_max = one``)."""
    left = usable_tokens(s, seat) - spent
    if data.rules[O_ONE_TOKEN]:
        return 1 if left > 0 and s[TOKENS_USED] + spent == 0 else 0
    return left


@leaf
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


@leaf
def _refresh_open(s, data, seat):
    return (
        s[REFRESHES] < data.rules[O_REFRESH_MAX]
        and s[pb(seat) + P_FORCE] >= data.rules[G_REFRESH_COST]
    )


@leaf
def _build_ok(s, data, seat, delta):
    """The announced Build stays possible after a swap changing the builders by ``delta``,
    counting the tokens still playable as extra builders (§4.5-4.9: it must be performed)."""
    extra = s[EXTRA] + extra_tokens_left(s, data, seat, 0) + delta
    return can_build(s, data, seat, s[REGION], extra)


@leaf
def _build_ok_after_refresh(s, data, seat, refresh):
    """The announced Build stays possible if the player refreshes (``refresh``) or not, and
    then swaps at best. A refresh brings the centre's 3 workers, which are visible."""
    space_base = SPACES + s[SPACE] * SLOTS
    if refresh:
        forced = s[SWAP_FORCED] or data.rules[O_REFRESH_NEEDS_SWAP]
        return _build_ok(s, data, seat, _swap_builder_delta(s, seat, CENTRE, forced))
    return _build_ok(s, data, seat, _swap_builder_delta(s, seat, space_base, s[SWAP_FORCED]))


@leaf
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


@leaf
def _guard_build(s, data):
    """1 while the options before an announced Build must keep it possible (issue 19 #16)."""
    return s[KIND] == K_BUILD and not data.rules[O_BUILD_ANYWAY]


@leaf
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


@leaf
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


@leaf
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
