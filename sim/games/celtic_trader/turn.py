"""The turn flow of Celtic Trader's engine, which plays both Celtic Trader and Celtic Quest: the
start of a turn, the draw and the resolution of the drawn tokens, the movement, the actions
after it, the end of a turn and the hand-over to the next seat (rules/celtic-trader.md §4,
§5). Everything here works in place on the output buffer of ``step`` (sim/games/
celtic_trader/rules.py).

Where the data's rule ``R_QUEST`` is set, the flow calls Celtic Quest's hooks
(sim/games/celtic_quest/rules.py, module ``quest``) at the places marked "Celtic Quest"; with
``R_QUEST`` = 0 no branch of it runs. The import goes one way: Celtic Quest's rules use this
engine's primitives (board, bag, conquest, supply, delivery), never this flow.
"""

import sim.games.celtic_quest.rules as quest
from sim.core.kernel import leaf
from sim.core.rng import randint
from sim.games.celtic_quest.layout import PH_QUEST_DONE, T_DRUID
from sim.games.celtic_trader.bag import _draw_up, _pop_pending
from sim.games.celtic_trader.board import _any_upgrade, _raise_ok, _spot_empty, has_roman_spot
from sim.games.celtic_trader.conquest import _conquer, _end_game, _place_roman
from sim.games.celtic_trader.delivery import _raise_demand
from sim.games.celtic_trader.params import (
    N_BAST,
    N_RES,
    O_MOVE_VAL,
    O_ROLE_START,
    O_RULES,
    O_SEC_BAST,
    QUEST_HOOKS,
    R_CAP_ROUNDS,
    R_DRAWS,
    R_NSEC,
    R_NSPOT,
    R_QUEST,
    R_RELOC_FIRST,
    R_ROLES_IN_PLAY,
    R_SC,
    R_START_FIXED,
    R_TURN_LIMIT,
)
from sim.games.celtic_trader.state import (
    ACTS,
    BAG,
    CONQ,
    CUR,
    DELIVERED,
    DISC,
    DRAWS_LEFT,
    END_SUPPLY,
    END_TURN_CAP,
    END_TURN_LIMIT,
    HELD,
    MOVE_ENDED,
    MP,
    N_DRAWN_LOG,
    N_KINDS,
    N_PENDING,
    NP,
    OVER,
    P_FIRST_DONE,
    P_MOVE,
    P_NCARRY,
    P_POS,
    P_ROLE,
    P_RP,
    PENDING,
    PH_CLAIM,
    PH_DELIVER,
    PH_MOVE,
    PH_ORDER,
    PH_ORDERS,
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
    RELOC_NEXT,
    ROLE_MODE,
    ROLES_DRAFT,
    ROMAN,
    ROUND,
    SPOT,
    T_CYCLE,
    T_ORDERS,
    T_ROMAN,
    T_ROMANISE,
    TAKEN,
    TOKEN,
    TRIGGER,
    TURNS,
    VISIT_PAID,
)


@leaf
def begin_turn(s, data, rng):
    """IN PLACE: start the turn of seat ``s[CUR]`` and play on to its first decision (used by
    ``init_state``, and by tests that build a position by hand)."""
    _begin_turn(s, data, rng)
    _settle(s, data, rng)


@leaf
def _begin_turn(s, data, rng):
    """Start of the current seat's turn: role pick on its first turn, Roman relocation."""
    s[ACTS] = 0
    s[PICKS] = 0
    s[MOVE_ENDED] = 0
    s[MP] = 0
    pb = PLAYERS + s[CUR] * PW
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:  # Celtic Quest: destinies are dealt at setup
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
def _start_draw(s, data, rng):
    s[DRAWS_LEFT] = data[O_RULES + R_DRAWS]
    s[N_PENDING] = 0
    s[N_DRAWN_LOG] = 0
    # Celtic Quest: Talisman-type quests draw more, put some back
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        s[DRAWS_LEFT] = quest.draws_this_turn(s, data)
        _draw_up(s, rng)
        if quest.must_return(s, data):
            return
        _continue(s, data, rng)
        return
    _draw_up(s, rng)
    _continue(s, data, rng)


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
    if QUEST_HOOKS and k >= T_DRUID:  # Celtic Quest's tokens (never in a Celtic Trader bag)
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
        # Celtic Quest: a Talisman return waited for these draws
        if QUEST_HOOKS and data[O_RULES + R_QUEST]:
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
    # Celtic Quest: a Raven-type quest first; Horse-type MP
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
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
    # Celtic Quest: quests first at the Stone Circle (§4.5, §4.6)
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
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
    if QUEST_HOOKS and data[O_RULES + R_QUEST] and quest.sc_step(s, data, 4):
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
