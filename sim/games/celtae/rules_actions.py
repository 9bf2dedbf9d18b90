"""Celtae rules, performing a decision: setup step 20 (leader pick, starting discard) and the
three steps of a turn (rules/celtae.md §4.3 move, §4.5 choose / refresh / swap, §4.7 the four
actions, §4.8 citadel bonuses, §4.9 bonus tokens).

``apply`` performs one decision of the phase machine. Its helpers: the card-discard procedure
(starting hands, Build payment, Combat discards, the druid worker's cost), spending a token,
placing a disc and taking the citadel's bonus (Build steps 4-6), the Druidic Order (Recruit
step 4) and the mandatory start of each action (step 3). The progress pawns and the leader
flip are in rules_progress.
"""

from sim.core.kernel import leaf
from sim.games.celtae.params import (
    G_BONUS_FORCE,
    G_CARD_FORCE_CAP,
    G_DISCARD_START,
    G_DRUID_CARD_COST,
    G_MAX_RECRUITS,
    G_REFRESH_COST,
    O_BONUS_RECRUIT_NO_CAP,
    O_DRUID_OVERFLOW_RESERVE,
    O_FLIP_TURN_ORDER,
    O_OVERFLOW_TO_BOX,
    O_REFRESH_NEEDS_SWAP,
    T_ARMY_STRENGTH,
    T_DRUID_REQ,
    T_FORCE_DELTA,
    T_GARRISON_ICON,
)
from sim.games.celtae.rules_progress import (
    _begin_pile_pawn,
    _next_flip,
    _pawn_done,
    _progress_event,
    take_tile,
)
from sim.games.celtae.rules_shared import (
    active_count,
    bag_draw,
    build_pay,
    crosses,
    discard_from_hand,
    gain_force,
    pb,
    pile_top,
    recruit_worker,
    refresh_space,
    slide_refill,
    space_of,
    strength,
    to_hand,
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
    A_SIDE_B,
    A_STOP,
    A_SWAP,
    A_TAKE2,
    A_WORKER,
    A_YES,
    ACTIVE,
    AU_ACTION,
    AU_END_TURN,
    AU_SETUP_NEXT,
    B_CARDS,
    B_FORCE,
    B_RECRUIT,
    B_TOKEN,
    BAG,
    BOXED_DRUIDS,
    BOXED_WORKERS,
    BUILD_CIT,
    CAP_CHECK,
    CENTRE,
    CIT_BONUS,
    CIT_CAP,
    CIT_DISCS,
    CIT_DONE,
    CIT_FILLED,
    COMBAT_ICON,
    DISC_ARG,
    DISC_LEFT,
    DISC_MODE,
    DISC_STOP,
    DM_ANY,
    DM_COLOUR,
    DM_ICON,
    DRUID,
    DSEAT,
    EXTRA,
    FIGHT_PILE_EMPTIED,
    FLIP_PENDING,
    GARRISON,
    GARRISON_SLOTS,
    K_BUILD,
    K_COMBAT,
    K_CULTIVATE,
    KIND,
    MARKET,
    MARKET_SIZE,
    MAX_PLAYERS,
    N_COLOURS,
    N_ICONS,
    N_LEADERS,
    N_POSITIONS,
    NO_MOVE,
    NOBLE,
    OFFER,
    P_ACTIVE,
    P_BONUS_TILES,
    P_CUBES,
    P_DISCS,
    P_LEADER,
    P_SHORT,
    P_SIDE,
    P_TOKENS,
    P_TOKENS_NEW,
    P_TRIBE,
    P_TRIBE_N,
    PAWN,
    PAWNS_DISCARDED,
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
    R_MAX,
    RECRUITED,
    REFRESHES,
    REGION,
    RESERVE,
    RESUME,
    RS_BUILD,
    RS_COMBAT,
    RS_DRUID,
    RS_PILE_COMBAT,
    RS_PILE_ORDER,
    RS_SETUP,
    SEAT,
    SIDE_A,
    SIDE_B,
    SLOTS,
    SOLDIER,
    SOLO,
    SPACE,
    SPACES,
    SWAP_FORCED,
    TOKEN_RESERVE,
    TOKENS_USED,
)


@leaf
def _begin_discard(s, mode, arg, count, stop_ok, resume):
    s[DISC_MODE] = mode
    s[DISC_ARG] = arg
    s[DISC_LEFT] = count
    s[DISC_STOP] = stop_ok
    s[RESUME] = resume
    s[PHASE] = PH_DISCARD
    if count <= 0:
        s[DISC_LEFT] = 0


@leaf
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


@leaf
def _spend_token(s, seat):
    b = pb(seat)
    s[b + P_TOKENS] -= 1
    s[TOKEN_RESERVE] += 1
    s[TOKENS_USED] += 1


@leaf
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


@leaf
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


@leaf
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


@leaf
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
