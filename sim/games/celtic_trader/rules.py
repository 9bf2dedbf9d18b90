"""Celtic Trader rules as pure numba kernels (the kernel API of sim/games/README.md).

``step`` copies the state into ``out`` and applies one atomic action there; everything that
needs no decision (bag draws, automatic placements, end of turn, the next seat's start) is then
played on until the next decision, so the state handed back always waits for ``current_player``.
Private helpers named ``_...`` work in place on that output buffer.

Rule references (§) point into rules/celtic-trader.md.

The same kernels play Celtic Quest (rules/celtic-quest.md), which is Celtic Trader plus quests,
destinies, items, crystals and enchantment: where the data's rule ``R_QUEST`` is set, the turn
flow calls Celtic Quest's own rules (sim/games/celtic_quest/rules.py, module ``quest``) at the
places marked "Celtic Quest". With ``R_QUEST`` = 0 no branch of it runs.
"""

from sim.core.kernel import leaf
from sim.core.rng import draw_from_histogram, randint
from sim.games.celtic_quest.layout import (
    A_CRYSTALS,
    A_DESTINY,
    A_DROP_ITEM,
    A_GOLD,
    A_ITEM,
    A_QUEST,
    A_ROMAN,
    A_TILE,
    A_YES,
    ENCH,
    GOLD_ROMAN,
    NEXT,
    NX_ENTER,
    NX_MOVE,
    NX_TOKENS,
    PH_CRYSTAL_SPOT,
    PH_CRYSTALS,
    PH_DESTINY,
    PH_ENCHANT,
    PH_GOLD_RELOC,
    PH_ITEM_DROP,
    PH_QUEST_DISCARD,
    PH_QUEST_DONE,
    PH_QUEST_DRAW,
    PH_RAVEN,
    PH_RETURN,
    SPOT_OUT,
)
from sim.games.celtic_trader.params import (
    K_ARM,
    K_HUB,
    MAX_DEG,
    N_BAST,
    N_CAPS,
    N_LEVELS,
    N_RES,
    O_ADJ,
    O_ADJ_COST,
    O_BAST_ARMS,
    O_BAST_HUB,
    O_BAST_NARMS,
    O_CARRY_X,
    O_CARRY_Y,
    O_COL_VALUE,
    O_DEG,
    O_MOVE_VAL,
    O_ROLE_BONUS,
    O_ROLE_RP_VP,
    O_ROLE_START,
    O_RULES,
    O_SEC_BAST,
    O_SEC_KIND,
    O_SEC_ROMAN,
    O_SEC_SPOTS,
    O_SEC_TILE,
    O_SPOT_RES,
    O_START_COL,
    O_TRADE_VAL,
    O_UPG_COST,
    R_ARM_SPOTS,
    R_BAG_RES,
    R_CAP_ROUNDS,
    R_CYCLE,
    R_DRAWS,
    R_HUB_SPOTS,
    R_NSEC,
    R_NSPOT,
    R_ORDERS,
    R_PER_VISIT,
    R_QUEST,
    R_RAISE_ANY,
    R_RELOC_FIRST,
    R_ROLES_IN_PLAY,
    R_ROMANISATION,
    R_ROMANS,
    R_ROMANS_TOTAL,
    R_SC,
    R_START_FIXED,
    R_SUPPLY,
    R_TEN_VALUE,
    R_TENS,
    R_TURN_LIMIT,
)
from sim.games.celtic_trader.state import (
    A_BAST,
    A_CLAIM,
    A_DELIVER,
    A_DISCARD,
    A_ORDER,
    A_PASS,
    A_ROLE,
    A_SEC,
    A_SPOT,
    A_UPGRADE,
    ACTS,
    BAG,
    CONQ,
    CUR,
    DELIVERED,
    DEMAND,
    DISC,
    DRAWN_LOG,
    DRAWS_LEFT,
    DRAWS_TOTAL,
    END_ALL_CONQUERED,
    END_SUPPLY,
    END_TURN_CAP,
    END_TURN_LIMIT,
    HELD,
    MAX_DELIVER,
    MOVE_ENDED,
    MP,
    N_CONQ,
    N_DRAWN_LOG,
    N_KINDS,
    N_PENDING,
    NP,
    OVER,
    P_CARRIED,
    P_CARRY,
    P_FIRST_DONE,
    P_MOVE,
    P_NCARRY,
    P_POS,
    P_ROLE,
    P_RP,
    P_TENS,
    P_TRADE,
    P_VP,
    PENDING,
    PH_CLAIM,
    PH_DELIVER,
    PH_MOVE,
    PH_ORDER,
    PH_ORDERS,
    PH_OVER,
    PH_RAISE,
    PH_RELOCATE,
    PH_ROLE,
    PH_ROMAN,
    PH_ROMANISE,
    PH_SPOT,
    PH_START,
    PH_TURN_END,
    PH_UPGRADE,
    PHASE,
    PICKS,
    PLAYERS,
    PW,
    REASON,
    RELOC_NEXT,
    ROLE_MODE,
    ROLES_DRAFT,
    ROLES_FIXED,
    ROMAN,
    ROMANS_BOX,
    ROMANS_OUT,
    ROUND,
    SPOT,
    SUPPLY,
    T_CYCLE,
    T_DRUID,
    T_ORDERS,
    T_ROMAN,
    T_ROMANISE,
    TAKEN,
    TENS_LEFT,
    TOKEN,
    TRIGGER,
    TURNS,
    VISIT_PAID,
)

# ---------------------------------------------------------------------------------------------
# small queries
# ---------------------------------------------------------------------------------------------


@leaf
def current_player(state):
    """Seat that decides next; -1 once the game is over."""
    if state[OVER]:
        return -1
    return state[CUR]


@leaf
def is_over(state):
    return state[OVER] != 0


@leaf
def has_roman_spot(state, data, sec):
    """Whether the section has a Roman spot now (a Romanised bastion's spots change, §4.9)."""
    b = data[O_SEC_BAST + sec]
    if b >= 0 and state[CONQ + b]:
        if data[O_SEC_KIND + sec] == K_HUB:
            return data[O_RULES + R_HUB_SPOTS] > 0
        return data[O_RULES + R_ARM_SPOTS] > 0 and data[O_SEC_ROMAN + sec] == 1
    if data[O_RULES + R_QUEST] and state[ENCH + data[O_SEC_TILE + sec]]:  # Celtic Quest
        return quest.has_roman_spot_enchanted(data, sec)
    return data[O_SEC_ROMAN + sec] == 1


@leaf
def capacity(state, data, seat):
    """(X max carried, Y free pick-ups) of a seat."""
    lvl = state[PLAYERS + seat * PW + P_CARRY]
    if data[O_RULES + R_QUEST]:  # Celtic Quest: quests and carried crystals
        dx, dy = quest.capacity_bonus(state, seat)
        return data[O_CARRY_X + lvl] + dx, data[O_CARRY_Y + lvl] + dy
    return data[O_CARRY_X + lvl], data[O_CARRY_Y + lvl]


@leaf
def demand_value(state, data, b, r):
    return data[O_COL_VALUE + (state[DEMAND + b * N_RES + r])]


@leaf
def role_bonus(state, data, seat):
    """Role card bonus if the game ended now (§6): upgrade tables plus RP for the Trusted."""
    pb = PLAYERS + seat * PW
    role = state[pb + P_ROLE]
    if role < 0:
        return 0
    total = 0
    for c in range(3):
        total += data[
            O_ROLE_BONUS + role * N_CAPS * N_LEVELS + c * N_LEVELS + (state[pb + P_MOVE + c])
        ]
    total += data[O_ROLE_RP_VP + role] * state[pb + P_RP]
    return total


@leaf
def scores(state, data, out):
    """out[:n] = each seat's score if the game ended now (VP + role bonus); returns n."""
    n = state[NP]
    for seat in range(n):
        if data[O_RULES + R_QUEST]:  # Celtic Quest: §6
            out[seat] = quest.score(state, data, seat)
        else:
            out[seat] = state[PLAYERS + seat * PW + P_VP] + role_bonus(state, data, seat)
    return n


@leaf
def upgrade_cost(state, data, pb, lvl):
    """RP to reach capability level ``lvl``."""
    if data[O_RULES + R_QUEST]:  # Celtic Quest: Anvil-type discounts
        return quest.upgrade_cost(state, data, (pb - PLAYERS) // PW, lvl)
    return data[O_UPG_COST + lvl]


@leaf
def _upgrade_affordable(state, data, pb, c):
    lvl = state[pb + P_MOVE + c]
    return lvl < 4 and state[pb + P_RP] >= upgrade_cost(state, data, pb, lvl + 1)


@leaf
def _any_upgrade(state, data, pb):
    for c in range(3):  # noqa: SIM110  (numba: plain loop)
        if _upgrade_affordable(state, data, pb, c):
            return True
    return False


@leaf
def _deliverable(state, pb, r):
    return state[pb + P_CARRIED + r] > 0 and (state[DELIVERED] >> r) & 1 == 0


@leaf
def _any_deliverable(state, pb):
    for r in range(N_RES):  # noqa: SIM110  (numba: plain loop)
        if _deliverable(state, pb, r):
            return True
    return False


@leaf
def _spot_empty(state, data, sp, r):
    """The spot is one of resource ``r``, in play and empty (a drawn token may go there)."""
    if data[O_SPOT_RES + sp] != r or state[SPOT + sp] != 0:
        return False
    return data[O_RULES + R_QUEST] == 0 or state[SPOT_OUT + sp] == 0  # Celtic Quest: in play


@leaf
def _raise_ok(state, data, b, r):
    if state[CONQ + b]:
        return False
    return data[O_RULES + R_RAISE_ANY] != 0 or state[DEMAND + b * N_RES + r] < 4


@leaf
def _edge_cost(data, u, v):
    for k in range(data[O_DEG + u]):
        if data[O_ADJ + u * MAX_DEG + k] == v:
            return data[O_ADJ_COST + u * MAX_DEG + k]
    return -1


# ---------------------------------------------------------------------------------------------
# setup
# ---------------------------------------------------------------------------------------------


@leaf
def setup_state(data, n_players, role_mode, fixed_roles, out):
    """The set-up table of §3 in ``out``, before the first player's first turn starts."""
    for i in range(out.shape[0]):
        out[i] = 0
    out[NP] = n_players
    out[ROUND] = 1
    out[SUPPLY] = data[O_RULES + R_SUPPLY]
    out[TENS_LEFT] = data[O_RULES + R_TENS]
    out[TOKEN] = -1
    out[HELD] = -1
    out[ROLE_MODE] = role_mode
    for r in range(N_RES):
        out[BAG + r] = data[O_RULES + R_BAG_RES]
    out[BAG + T_ROMAN] = data[O_RULES + R_ROMANS]
    out[BAG + T_CYCLE] = data[O_RULES + R_CYCLE]
    out[BAG + T_ORDERS] = data[O_RULES + R_ORDERS]
    out[BAG + T_ROMANISE] = data[O_RULES + R_ROMANISATION]
    out[ROMANS_BOX] = data[O_RULES + R_ROMANS_TOTAL] - data[O_RULES + R_ROMANS]
    for sp in range(data[O_RULES + R_NSPOT]):
        out[SPOT + sp] = 1
    for b in range(N_BAST):
        for r in range(N_RES):
            out[DEMAND + b * N_RES + r] = data[O_START_COL + b * N_RES + r]
    for seat in range(n_players):
        pb = PLAYERS + seat * PW
        out[pb + P_POS] = -1
        out[pb + P_ROLE] = -1
        if role_mode == ROLES_FIXED:
            out[pb + P_ROLE] = fixed_roles[seat]
            out[TAKEN + fixed_roles[seat]] = 1


@leaf
def begin_turn(s, data, rng):
    """IN PLACE: start the turn of seat ``s[CUR]`` and play on to its first decision (used by
    ``init_state``, and by tests that build a position by hand)."""
    _begin_turn(s, data, rng)
    _settle(s, data, rng)


@leaf
def init_state(data, n_players, role_mode, fixed_roles, rng, out):
    """Set up a game into ``out`` (§3) and play on to seat 0's first decision."""
    setup_state(data, n_players, role_mode, fixed_roles, out)
    if data[O_RULES + R_QUEST]:  # Celtic Quest: fixed_roles = destinies (-1: dealt)
        quest.setup(data, n_players, fixed_roles, rng, out)
    begin_turn(out, data, rng)


# ---------------------------------------------------------------------------------------------
# turn flow (in place on the output buffer)
# ---------------------------------------------------------------------------------------------


@leaf
def _end_game(s, reason):
    s[OVER] = 1
    s[REASON] = reason
    s[PHASE] = PH_OVER


@leaf
def _begin_turn(s, data, rng):
    """Start of the current seat's turn: role pick on its first turn, Roman relocation."""
    s[ACTS] = 0
    s[PICKS] = 0
    s[MOVE_ENDED] = 0
    s[MP] = 0
    pb = PLAYERS + s[CUR] * PW
    if data[O_RULES + R_QUEST]:  # Celtic Quest: destinies are dealt at setup
        if not quest.begin_turn(s, data):
            _after_role(s, data, rng)
        return
    if s[pb + P_ROLE] < 0:
        n_roles = data[O_RULES + R_ROLES_IN_PLAY]
        if s[ROLE_MODE] == ROLES_DRAFT:
            s[PHASE] = PH_ROLE
            return
        # blind pick (§4.2, A1): one of the remaining face-down cards
        free = 0
        for r in range(n_roles):
            if s[TAKEN + r] == 0:
                free += 1
        k = randint(rng, free)
        for r in range(n_roles):
            if s[TAKEN + r] == 0:
                if k == 0:
                    s[pb + P_ROLE] = r
                    s[TAKEN + r] = 1
                    break
                k -= 1
    _after_role(s, data, rng)


@leaf
def _after_role(s, data, rng):
    pos = s[PLAYERS + s[CUR] * PW + P_POS]
    if pos >= 0 and s[ROMAN + pos]:
        s[PHASE] = PH_RELOCATE  # §4.5.6: may move the Roman it stands on
        s[RELOC_NEXT] = 0
        return
    _start_draw(s, data, rng)


@leaf
def _bag_total(s):
    t = 0
    for k in range(N_KINDS):
        t += s[BAG + k]
    return t


@leaf
def _draw_up(s, rng):
    """Draw the tokens still owed this turn (all of the bag if it holds fewer)."""
    while s[DRAWS_LEFT] > 0:
        total = _bag_total(s)
        if total == 0:
            return
        k = draw_from_histogram(rng, s[BAG : BAG + N_KINDS], total)
        s[BAG + k] -= 1
        s[PENDING + s[N_PENDING]] = k
        s[N_PENDING] += 1
        s[DRAWS_TOTAL] += 1
        if s[N_DRAWN_LOG] < 8:
            s[DRAWN_LOG + s[N_DRAWN_LOG]] = k
            s[N_DRAWN_LOG] += 1
        s[DRAWS_LEFT] -= 1


@leaf
def _start_draw(s, data, rng):
    s[DRAWS_LEFT] = data[O_RULES + R_DRAWS]
    s[N_PENDING] = 0
    s[N_DRAWN_LOG] = 0
    if data[O_RULES + R_QUEST]:  # Celtic Quest: Talisman-type quests draw more, put some back
        s[DRAWS_LEFT] = quest.draws_this_turn(s, data)
        _draw_up(s, rng)
        if quest.must_return(s, data):
            return
        _continue(s, data, rng)
        return
    _draw_up(s, rng)
    _continue(s, data, rng)


@leaf
def _pop_pending(s, i):
    k = s[PENDING + i]
    n = s[N_PENDING]
    for j in range(i, n - 1):
        s[PENDING + j] = s[PENDING + j + 1]
    s[PENDING + n - 1] = 0
    s[N_PENDING] = n - 1
    return k


@leaf
def _continue(s, data, rng):
    """Resolve drawn tokens until one needs a choice; then start the movement phase."""
    while True:
        if s[OVER]:
            return
        n = s[N_PENDING]
        if n == 0:
            _start_movement(s, data, rng)
            return
        if n >= 2:
            first = s[PENDING]
            for i in range(1, n):
                if s[PENDING + i] != first:
                    s[PHASE] = PH_ORDER  # D4: order of resolution
                    return
        k = _pop_pending(s, 0)
        if not _resolve(s, data, rng, k):
            return


@leaf
def _resolve(s, data, rng, k):
    """Resolve one drawn token (§4.4); False when the drawer must choose (phase set)."""
    if k >= T_DRUID:  # Celtic Quest's tokens (never in a Celtic Trader bag)
        return quest.resolve(s, data, k)
    if k < N_RES:
        empty = -1
        n_empty = 0
        for sp in range(data[O_RULES + R_NSPOT]):
            if _spot_empty(s, data, sp, k):
                n_empty += 1
                empty = sp
        if n_empty == 1:
            s[SPOT + empty] = 1
            return True
        if n_empty > 1:
            s[TOKEN] = k
            s[HELD] = k
            s[PHASE] = PH_SPOT
            return False
        s[DISC + k] += 1
        target = -1
        n_target = 0
        for b in range(N_BAST):
            if _raise_ok(s, data, b, k):
                n_target += 1
                target = b
        if n_target == 1:
            _raise_demand(s, target, k)
        elif n_target > 1:
            s[TOKEN] = k
            s[PHASE] = PH_RAISE
            return False
        return True
    if k == T_ROMAN:
        free = -1
        n_free = 0
        for sec in range(data[O_RULES + R_NSEC]):
            if s[ROMAN + sec] == 0 and has_roman_spot(s, data, sec):
                n_free += 1
                free = sec
        if n_free == 0:
            s[DISC + T_ROMAN] += 1
            return True
        if n_free == 1:
            _place_roman(s, data, free)
            return True
        s[HELD] = T_ROMAN
        s[PHASE] = PH_ROMAN
        return False
    if k == T_CYCLE:
        for j in range(N_KINDS):
            s[BAG + j] += s[DISC + j]
            s[DISC + j] = 0
        s[BAG + T_CYCLE] += 1
        _draw_up(s, rng)
        if data[O_RULES + R_QUEST]:  # Celtic Quest: a Talisman return waited for these draws
            return not quest.must_return(s, data)
        return True
    if k == T_ORDERS:
        s[DISC + T_ORDERS] += 1
        only = -1
        n_on = 0
        for sec in range(data[O_RULES + R_NSEC]):
            if s[ROMAN + sec]:
                n_on += 1
                only = sec
        if n_on == 1:
            s[ROMAN + only] = 0
            s[DISC + T_ROMAN] += 1
        elif n_on > 1:
            s[PHASE] = PH_ORDERS
            return False
        return True
    # Romanisation token
    only = -1
    n_celtic = 0
    for b in range(N_BAST):
        if s[CONQ + b] == 0:
            n_celtic += 1
            only = b
    if n_celtic == 1:
        s[DISC + T_ROMANISE] += 1
        _conquer(s, data, only)
        return True
    s[HELD] = T_ROMANISE
    s[PHASE] = PH_ROMANISE
    return False


@leaf
def _raise_demand(s, b, r):
    i = DEMAND + b * N_RES + r
    if s[i] < 4:
        s[i] += 1


@leaf
def _place_roman(s, data, sec):
    s[ROMAN + sec] = 1
    _check_conquest(s, data, sec)


@leaf
def _check_conquest(s, data, sec):
    """A Celtic bastion whose every road (arm) holds a Roman is conquered at once (§4.9)."""
    b = data[O_SEC_BAST + sec]
    if b < 0 or s[CONQ + b] or data[O_SEC_KIND + sec] != K_ARM:
        return
    for j in range(data[O_BAST_NARMS + b]):
        if s[ROMAN + data[O_BAST_ARMS + b * 3 + j]] == 0:
            return
    _conquer(s, data, b)


@leaf
def _conquer(s, data, b):
    """Conquest procedure (§4.9): one Roman on the tile leaves the game, the others are
    discarded, the chart leaves the game; the last Celtic bastion ends the game at once."""
    count = 0
    hub = data[O_BAST_HUB + b]
    if s[ROMAN + hub]:
        count += 1
        s[ROMAN + hub] = 0
    for j in range(data[O_BAST_NARMS + b]):
        a = data[O_BAST_ARMS + b * 3 + j]
        if s[ROMAN + a]:
            count += 1
            s[ROMAN + a] = 0
    if count > 0:
        s[ROMANS_OUT] += 1
        s[DISC + T_ROMAN] += count - 1
    s[CONQ + b] = 1
    s[N_CONQ] += 1
    if data[O_RULES + R_QUEST]:  # Celtic Quest: the Roman town side has no crystal spot
        quest.on_conquest(s, data, b)
    if s[N_CONQ] == N_BAST:
        _end_game(s, END_ALL_CONQUERED)


@leaf
def _start_movement(s, data, rng):
    pb = PLAYERS + s[CUR] * PW
    if s[pb + P_POS] < 0:  # first turn: choose a start section of the role (§4.2, D2)
        if data[O_RULES + R_START_FIXED]:
            _place_player(s, data, rng, data[O_ROLE_START + (s[pb + P_ROLE]) * 3 + 0])
        else:
            s[PHASE] = PH_START
        return
    _enter_move(s, data)


@leaf
def _place_player(s, data, rng, sec):
    pb = PLAYERS + s[CUR] * PW
    s[pb + P_POS] = sec
    s[pb + P_FIRST_DONE] = 1
    if s[ROMAN + sec]:
        if data[O_RULES + R_RELOC_FIRST]:
            s[PHASE] = PH_RELOCATE
            s[RELOC_NEXT] = 1
        else:
            _end_turn(s, data, rng)  # A23: placement counts as entering the Roman's section
        return
    _enter_move(s, data)


@leaf
def _enter_move(s, data):
    pb = PLAYERS + s[CUR] * PW
    if data[O_RULES + R_QUEST]:  # Celtic Quest: a Raven-type quest first; Horse-type MP
        if quest.raven_offered(s, data):
            return
        s[MP] = quest.move_points(s, data, s[CUR])
        s[PICKS] = 0
        s[MOVE_ENDED] = 0
        s[PHASE] = PH_MOVE
        return
    s[MP] = data[O_MOVE_VAL + (s[pb + P_MOVE])]
    s[PICKS] = 0
    s[MOVE_ENDED] = 0
    s[PHASE] = PH_MOVE


@leaf
def _after_move(s, data, rng):
    """Phase 3 (§4.6, §4.7) where the movement ended, if anything can be done there."""
    pb = PLAYERS + s[CUR] * PW
    pos = s[pb + P_POS]
    if data[O_RULES + R_QUEST]:  # Celtic Quest: quests first at the Stone Circle (§4.5, §4.6)
        if pos == data[O_RULES + R_SC]:
            if quest.completable(s, data, s[CUR]):
                s[PHASE] = PH_QUEST_DONE
            else:
                _enter_upgrade(s, data, rng)
            return
        b = data[O_SEC_BAST + pos]
        if b < 0 or s[CONQ + b] or not quest.at_bastion(s, data):
            _end_turn(s, data, rng)
        return
    if pos == data[O_RULES + R_SC]:
        _enter_upgrade(s, data, rng)
        return
    b = data[O_SEC_BAST + pos]
    if b >= 0 and s[CONQ + b] == 0 and s[pb + P_NCARRY] > 0:
        s[DELIVERED] = 0
        s[VISIT_PAID] = 0
        s[PHASE] = PH_DELIVER
        return
    _end_turn(s, data, rng)


@leaf
def _enter_upgrade(s, data, rng):
    pb = PLAYERS + s[CUR] * PW
    if _any_upgrade(s, data, pb):
        s[PHASE] = PH_UPGRADE
    else:
        _enter_claim(s, data, rng)


@leaf
def _enter_claim(s, data, rng):
    pb = PLAYERS + s[CUR] * PW
    if s[pb + P_RP] > 0:
        s[PHASE] = PH_CLAIM
    else:
        _claim_done(s, data, rng)


@leaf
def _claim_done(s, data, rng):
    """After the claim: the turn ends (Celtic Quest: its Stone Circle steps 4-6 first)."""
    if data[O_RULES + R_QUEST] and quest.sc_step(s, data, 4):
        return
    _end_turn(s, data, rng)


@leaf
def _end_turn(s, data, rng):
    """Mark the active turn as over; :func:`_settle` hands over to the next seat.

    (Handing over here directly would make the turn flow mutually recursive, which numba's
    cache cannot load back.)"""
    s[PHASE] = PH_TURN_END


@leaf
def _settle(s, data, rng):
    """Play on through ended turns until a seat faces a decision or the game is over."""
    while s[PHASE] == PH_TURN_END and s[OVER] == 0:
        _next_turn(s, data, rng)


@leaf
def _next_turn(s, data, rng):
    """End of the active turn: E2 (supply), then next seat; E3 and the cap after a round."""
    s[TURNS] += 1
    if s[TRIGGER]:
        _end_game(s, END_SUPPLY)
        return
    nxt = s[CUR] + 1
    if nxt == s[NP]:
        nxt = 0
        limit = data[O_RULES + R_TURN_LIMIT]
        if limit > 0 and s[ROUND] >= limit:
            _end_game(s, END_TURN_LIMIT)
            return
        if s[ROUND] >= data[O_RULES + R_CAP_ROUNDS]:
            _end_game(s, END_TURN_CAP)
            return
        s[ROUND] += 1
    s[CUR] = nxt
    _begin_turn(s, data, rng)


@leaf
def _pay(s, data, seat, amount):
    """Pay RP from the supply (§4.8, A16): exhaustion triggers the end; "+10" exchanges are made
    automatically (active seat first, then clockwise); a shortfall left after them is lost."""
    pb = PLAYERS + seat * PW
    sup = s[SUPPLY]
    if amount <= sup:
        s[SUPPLY] = sup - amount
        s[pb + P_RP] += amount
        if s[SUPPLY] == 0:
            s[TRIGGER] = 1
        return
    s[TRIGGER] = 1
    s[pb + P_RP] += sup
    amount -= sup
    s[SUPPLY] = 0
    ten = data[O_RULES + R_TEN_VALUE]
    n = s[NP]
    while amount > 0 and s[TENS_LEFT] > 0:
        ex = -1
        for i in range(n):
            p = PLAYERS + ((seat + i) % n) * PW
            if s[p + P_RP] + s[p + P_VP] - ten * s[p + P_TENS] >= ten:
                ex = p
                break
        if ex < 0:
            return
        s[ex + P_TENS] += 1
        s[TENS_LEFT] -= 1
        s[SUPPLY] += ten
        paid = min(amount, s[SUPPLY])
        s[SUPPLY] -= paid
        s[pb + P_RP] += paid
        amount -= paid


# ---------------------------------------------------------------------------------------------
# the public kernels
# ---------------------------------------------------------------------------------------------


@leaf
def legal_actions(state, data, out):
    """Fill out[:n] with the legal action ids of the current decision; return n (>= 1)."""
    ph = state[PHASE]
    seat = state[CUR]
    pb = PLAYERS + seat * PW
    n = 0
    if data[O_RULES + R_QUEST]:  # Celtic Quest: its phases, and its movement and deliveries
        if ph > PH_TURN_END:
            return quest.legal(state, data, out)
        if ph == PH_MOVE:
            return quest.move_actions(state, data, out)
        if ph == PH_DELIVER:
            return quest.deliver_actions(state, data, out)
        if ph == PH_START:
            return quest.start_actions(state, data, out)
    if ph == PH_MOVE:
        out[0] = A_PASS
        n = 1
        pos = state[pb + P_POS]
        ended = state[MOVE_ENDED]
        mp = state[MP]
        for k in range(data[O_DEG + pos]):
            c = data[O_ADJ_COST + pos * MAX_DEG + k]
            if c == 0 or (ended == 0 and c <= mp):
                out[n] = A_SEC + data[O_ADJ + pos * MAX_DEG + k]
                n += 1
        x_max, _ = capacity(state, data, seat)
        if state[pb + P_NCARRY] < x_max:
            for j in range(2):
                sp = data[O_SEC_SPOTS + pos * 2 + j]
                if sp >= 0 and state[SPOT + sp]:
                    out[n] = A_SPOT + sp
                    n += 1
        for r in range(N_RES):
            if state[pb + P_CARRIED + r] > 0:
                out[n] = A_DISCARD + r
                n += 1
        return n
    if ph == PH_DELIVER:
        return legal_actions_deliver(state, data, out)
    if ph == PH_UPGRADE:
        out[0] = A_PASS
        n = 1
        for c in range(3):
            if _upgrade_affordable(state, data, pb, c):
                out[n] = A_UPGRADE + c
                n += 1
        if data[O_RULES + R_QUEST]:  # Celtic Quest: items discarded on demand
            n = quest.item_drops(state, out, n)
        return n
    if ph == PH_CLAIM:
        out[0] = A_PASS
        n = 1
        for k in range(1, state[pb + P_RP] + 1):
            out[n] = A_CLAIM + k
            n += 1
        if data[O_RULES + R_QUEST]:  # Celtic Quest: items discarded on demand
            n = quest.item_drops(state, out, n)
        return n
    if ph == PH_ORDER:
        for i in range(state[N_PENDING]):
            dup = False
            for j in range(i):
                if state[PENDING + j] == state[PENDING + i]:
                    dup = True
            if not dup:
                out[n] = A_ORDER + i
                n += 1
        return n
    if ph == PH_SPOT:
        r = state[TOKEN]
        for sp in range(data[O_RULES + R_NSPOT]):
            if _spot_empty(state, data, sp, r):
                out[n] = A_SPOT + sp
                n += 1
        return n
    if ph == PH_RAISE:
        r = state[TOKEN]
        for b in range(N_BAST):
            if _raise_ok(state, data, b, r):
                out[n] = A_BAST + b
                n += 1
        return n
    if ph == PH_ROMAN or ph == PH_RELOCATE:  # noqa: SIM109
        pos = state[pb + P_POS]
        if ph == PH_RELOCATE:
            out[0] = A_PASS
            n = 1
        for sec in range(data[O_RULES + R_NSEC]):
            if state[ROMAN + sec] == 0 and has_roman_spot(state, data, sec):
                out[n] = A_SEC + sec
                n += 1
        return n
    if ph == PH_ORDERS:
        for sec in range(data[O_RULES + R_NSEC]):
            if state[ROMAN + sec]:
                out[n] = A_SEC + sec
                n += 1
        return n
    if ph == PH_ROMANISE:
        for b in range(N_BAST):
            if state[CONQ + b] == 0:
                out[n] = A_BAST + b
                n += 1
        return n
    if ph == PH_START:
        role = state[pb + P_ROLE]
        for j in range(3):
            sec = data[O_ROLE_START + role * 3 + j]
            dup = False
            for i in range(j):
                if data[O_ROLE_START + role * 3 + i] == sec:
                    dup = True
            if not dup:
                out[n] = A_SEC + sec
                n += 1
        return n
    if ph == PH_ROLE:
        for r in range(data[O_RULES + R_ROLES_IN_PLAY]):
            if state[TAKEN + r] == 0:
                out[n] = A_ROLE + r
                n += 1
        return n
    out[0] = A_PASS  # game over: a harmless no-op keeps n >= 1
    return 1


@leaf
def legal_actions_deliver(state, data, out):
    """The deliveries (§4.7): each type not delivered yet in this visit, 1..carried tokens."""
    pb = PLAYERS + state[CUR] * PW
    out[0] = A_PASS
    n = 1
    for r in range(N_RES):
        if _deliverable(state, pb, r):
            for k in range(min(state[pb + P_CARRIED + r], MAX_DELIVER)):
                out[n] = A_DELIVER + r * MAX_DELIVER + k
                n += 1
    return n


@leaf
def step(state, action, data, rng, out):
    """Apply one legal action: PURE, reads ``state`` and writes only ``out``.

    Chance (bag draws, blind role picks) comes from ``rng``. The action must be one that
    ``legal_actions`` lists for ``state``.
    """
    for i in range(state.shape[0]):  # an explicit loop: numba's out[:] = state is 8x slower
        out[i] = state[i]
    advance(out, action, data, rng)


@leaf
def advance(s, action, data, rng):
    """:func:`step` in place: ``s`` becomes the state after ``action``. For the search bot's
    rollouts and the chunk loop, which keep no earlier position (saves step's copy); ``step``
    itself stays pure."""
    if s[OVER]:
        return
    _apply(s, action, data, rng)
    _settle(s, data, rng)


@leaf
def _apply(s, action, data, rng):
    """The decision itself, in place."""
    s[ACTS] += 1
    ph = s[PHASE]
    seat = s[CUR]
    pb = PLAYERS + seat * PW
    if data[O_RULES + R_QUEST] and (ph > PH_TURN_END or ph == PH_MOVE or ph == PH_DELIVER):  # noqa: SIM109
        _apply_quest(s, action, data, rng)  # Celtic Quest
        return
    if ph == PH_MOVE:
        if action == A_PASS:
            _after_move(s, data, rng)
        elif action < A_SPOT:
            pos = s[pb + P_POS]
            t = action - A_SEC
            s[MP] -= _edge_cost(data, pos, t)
            s[pb + P_POS] = t
            if s[ROMAN + t]:
                _end_turn(s, data, rng)  # §4.5.2: a Roman ends the whole turn
        elif action < A_BAST:
            sp = action - A_SPOT
            r = data[O_SPOT_RES + sp]
            s[SPOT + sp] = 0
            s[pb + P_CARRIED + r] += 1
            s[pb + P_NCARRY] += 1
            s[PICKS] += 1
            _, y_free = capacity(s, data, seat)
            if s[PICKS] > y_free:
                s[MOVE_ENDED] = 1
        else:
            r = action - A_DISCARD
            s[pb + P_CARRIED + r] -= 1
            s[pb + P_NCARRY] -= 1
            s[DISC + r] += 1
        return
    if ph == PH_DELIVER:
        if action == A_PASS:
            _end_turn(s, data, rng)
            return
        _deliver(s, data, seat, action)
        if not _any_deliverable(s, pb):
            _end_turn(s, data, rng)
        return
    if data[O_RULES + R_QUEST] and quest.is_item_drop(action):  # Celtic Quest (upgrade, claim)
        quest.drop_item(s, data, action - A_DROP_ITEM)
        return
    if ph == PH_UPGRADE:
        if action == A_PASS:
            _enter_claim(s, data, rng)
            return
        c = action - A_UPGRADE
        lvl = s[pb + P_MOVE + c] + 1
        cost = upgrade_cost(s, data, pb, lvl)
        s[pb + P_RP] -= cost
        s[SUPPLY] += cost
        s[pb + P_MOVE + c] = lvl
        if not _any_upgrade(s, data, pb):
            _enter_claim(s, data, rng)
        return
    if ph == PH_CLAIM:
        if action != A_PASS:
            k = action - A_CLAIM
            s[pb + P_RP] -= k
            s[pb + P_VP] += k
        _claim_done(s, data, rng)
        return
    if ph == PH_ORDER:
        k = _pop_pending(s, action - A_ORDER)
        if _resolve(s, data, rng, k):
            _continue(s, data, rng)
        return
    if ph == PH_SPOT:
        s[SPOT + action - A_SPOT] = 1
        s[HELD] = -1
        s[TOKEN] = -1
        _continue(s, data, rng)
        return
    if ph == PH_RAISE:
        _raise_demand(s, action - A_BAST, s[TOKEN])
        s[TOKEN] = -1
        _continue(s, data, rng)
        return
    if ph == PH_ROMAN:
        s[HELD] = -1
        _place_roman(s, data, action - A_SEC)
        _continue(s, data, rng)
        return
    if ph == PH_ORDERS:
        s[ROMAN + action - A_SEC] = 0
        s[DISC + T_ROMAN] += 1
        _continue(s, data, rng)
        return
    if ph == PH_ROMANISE:
        s[HELD] = -1
        s[DISC + T_ROMANISE] += 1
        _conquer(s, data, action - A_BAST)
        _continue(s, data, rng)
        return
    if ph == PH_RELOCATE:
        if action != A_PASS:
            pos = s[pb + P_POS]
            s[ROMAN + pos] = 0
            _place_roman(s, data, action - A_SEC)
            if s[OVER]:
                return
        if s[RELOC_NEXT] == 0:
            _start_draw(s, data, rng)
        else:
            _enter_move(s, data)
        return
    if ph == PH_START:
        if action >= A_GOLD:  # Celtic Quest: first placement passing a Roman with a gold
            quest.place_with_gold(s, data, action - A_GOLD)
            s[NEXT] = NX_ENTER
            s[PHASE] = PH_GOLD_RELOC
            return
        _place_player(s, data, rng, action - A_SEC)
        return
    if ph == PH_ROLE:
        r = action - A_ROLE
        s[pb + P_ROLE] = r
        s[TAKEN + r] = 1
        _after_role(s, data, rng)
        return


@leaf
def _deliver(s, data, seat, action):
    """Deliver k tokens of one type (§4.7): the original value pays every token."""
    pb = PLAYERS + seat * PW
    a = action - A_DELIVER
    r = a // MAX_DELIVER
    k = a % MAX_DELIVER + 1
    i = DEMAND + data[O_SEC_BAST + (s[pb + P_POS])] * N_RES + r
    value = data[O_COL_VALUE + (s[i])]
    trade = data[O_TRADE_VAL + (s[pb + P_TRADE])]
    if data[O_RULES + R_PER_VISIT]:
        gain = k * value
        if s[VISIT_PAID] == 0:
            gain += trade
            s[VISIT_PAID] = 1
    else:
        gain = k * (value + trade)
    s[i] = max(0, s[i] - k)
    s[pb + P_CARRIED + r] -= k
    s[pb + P_NCARRY] -= k
    s[DISC + r] += k
    s[DELIVERED] |= 1 << r
    _pay(s, data, seat, gain)


# ---------------------------------------------------------------------------------------------
# Celtic Quest's decisions: its rules (quest.*) with this module's turn flow around them
# ---------------------------------------------------------------------------------------------


@leaf
def _apply_quest(s, action, data, rng):
    """A decision of Celtic Quest in a movement, delivery or Celtic Quest phase, in place."""
    ph = s[PHASE]
    pb = PLAYERS + s[CUR] * PW
    if ph == PH_MOVE:
        if action == A_PASS:
            _after_move(s, data, rng)
            return
        ended = quest.apply_move(s, data, action)
        if ended == 1:
            _end_turn(s, data, rng)
        elif ended == 2:
            s[NEXT] = NX_MOVE
            s[PHASE] = PH_GOLD_RELOC
        return
    if ph == PH_DELIVER:
        if quest.is_item_drop(action):  # on demand (§4.10): the delivery phase goes on
            quest.drop_item(s, data, action - A_DROP_ITEM)
            return
        if action != A_PASS:
            quest.deliver(s, data, action)
            if _any_deliverable(s, pb):
                return
        if not quest.may_draw_quest(s, data, s[CUR]):
            _end_turn(s, data, rng)
        else:
            s[PHASE] = PH_QUEST_DRAW
        return
    if ph == PH_DESTINY:  # set-up (§4.11): every seat keeps its card, then seat 0 plays
        quest.keep_destiny(s, data, action - A_DESTINY)
        if not quest.destiny_pending(s):
            s[CUR] = 0
            s[ACTS] = 0
            _after_role(s, data, rng)
    elif ph == PH_RETURN:
        quest.return_token(s, action - A_ORDER)
        if not quest.must_return(s, data):
            _continue(s, data, rng)
    elif ph == PH_ENCHANT:
        quest.enchant(s, data, action - A_TILE)
        if s[OVER]:
            return
        if s[NEXT] == NX_TOKENS:
            _continue(s, data, rng)
        else:
            _enter_upgrade(s, data, rng)
    elif ph == PH_CRYSTAL_SPOT:
        quest.place_crystal(s, action - A_TILE)
        _continue(s, data, rng)
    elif ph == PH_ITEM_DROP:
        quest.drop_item_choice(s, data, action - A_ITEM)
        _continue(s, data, rng)
    elif ph == PH_GOLD_RELOC:
        if action == A_PASS:
            s[GOLD_ROMAN] = -1
        else:
            quest.move_roman(s, data, action - A_ROMAN)
            if s[OVER]:
                return
        if s[NEXT] == NX_MOVE:
            s[PHASE] = PH_MOVE
        else:
            _enter_move(s, data)
    elif ph == PH_RAVEN:
        if action == A_PASS:
            _enter_move(s, data)
        else:
            s[GOLD_ROMAN] = action - A_SEC
            s[NEXT] = NX_ENTER
            s[PHASE] = PH_GOLD_RELOC
    elif ph == PH_QUEST_DONE:
        if action == A_PASS or not quest.complete_quest(s, data, action - A_QUEST):
            _enter_upgrade(s, data, rng)
    elif ph == PH_QUEST_DISCARD:
        if action != A_PASS:
            quest.discard_quest(s, action - A_QUEST)
        if not quest.sc_step(s, data, 5):
            _end_turn(s, data, rng)
    elif ph == PH_QUEST_DRAW:
        if action == A_YES:
            quest.draw_quest(s)
        if s[pb + P_POS] != data[O_RULES + R_SC] or not quest.sc_step(s, data, 6):
            _end_turn(s, data, rng)
    elif ph == PH_CRYSTALS:
        if action != A_PASS:
            quest.deliver_crystals(s, data, action - A_CRYSTALS)
            if s[OVER]:
                return
        _end_turn(s, data, rng)


import sim.games.celtic_quest.rules as quest  # noqa: E402  (Celtic Quest's rules call back here)
