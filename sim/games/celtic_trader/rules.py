"""Celtic Trader rules as pure numba kernels (the kernel API of sim/games/README.md).

``step`` copies the state into ``out`` and applies one atomic action there; everything that
needs no decision (bag draws, automatic placements, end of turn, the next seat's start) is then
played on until the next decision, so the state handed back always waits for ``current_player``.
Private helpers named ``_...`` work in place on that output buffer.

Rule references (§) point into rules/celtic-trader.md.

The same kernels play Celtic Quest (rules/celtic-quest.md), which is Celtic Trader plus quests,
destinies, items, crystals and enchantment: where the data's rule ``R_QUEST`` is set, the
decisions call Celtic Quest's own rules (sim/games/celtic_quest/rules.py, module ``quest``) at
the places marked "Celtic Quest". With ``R_QUEST`` = 0 no branch of it runs.

The engine is one layer with one owner; its modules here, bottom up, each importing only those
listed before it (and, below them all, Celtic Quest's reads of its own state: queries, tiles,
scoring in sim/games/celtic_quest/):

- board: reads of the board and the seats (Roman spots, capacity, costs, scores);
- setup: the set-up table (§3);
- bag, conquest, supply, delivery: the primitives both games' rules use (draws, Romans and
  conquest, the RP/VP supply, deliveries and demand charts); Celtic Quest's rules import these,
  never what follows;
- turn: the turn flow (§4, §5), calling Celtic Quest's hooks;
- rules (here): ``init_state``, ``legal_actions``, ``step``, ``advance`` and the decisions.
"""

import sim.games.celtic_quest.rules as quest
from sim.core.kernel import leaf
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
)
from sim.games.celtic_trader.bag import _pop_pending
from sim.games.celtic_trader.board import (
    _any_deliverable,
    _any_upgrade,
    _edge_cost,
    _raise_ok,
    _spot_empty,
    _upgrade_affordable,
    capacity,
    current_player,
    has_roman_spot,
    is_over,
    scores,
    upgrade_cost,
)
from sim.games.celtic_trader.conquest import _conquer, _place_roman
from sim.games.celtic_trader.delivery import _deliver, _raise_demand, legal_actions_deliver
from sim.games.celtic_trader.params import (
    MAX_DEG,
    N_BAST,
    N_RES,
    O_ADJ,
    O_ADJ_COST,
    O_DEG,
    O_ROLE_START,
    O_RULES,
    O_SEC_SPOTS,
    O_SPOT_RES,
    QUEST_HOOKS,
    R_NSEC,
    R_NSPOT,
    R_QUEST,
    R_ROLES_IN_PLAY,
    R_SC,
)
from sim.games.celtic_trader.setup import setup_state
from sim.games.celtic_trader.state import (
    A_BAST,
    A_CLAIM,
    A_DISCARD,
    A_ORDER,
    A_PASS,
    A_ROLE,
    A_SEC,
    A_SPOT,
    A_UPGRADE,
    ACTS,
    CONQ,
    CUR,
    DISC,
    HELD,
    MOVE_ENDED,
    MP,
    N_PENDING,
    OVER,
    P_CARRIED,
    P_MOVE,
    P_NCARRY,
    P_POS,
    P_ROLE,
    P_RP,
    P_VP,
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
    ROMAN,
    SPOT,
    SUPPLY,
    T_ROMAN,
    T_ROMANISE,
    TAKEN,
    TOKEN,
)
from sim.games.celtic_trader.turn import (
    _after_move,
    _after_role,
    _claim_done,
    _continue,
    _end_turn,
    _enter_claim,
    _enter_move,
    _enter_upgrade,
    _place_player,
    _resolve,
    _settle,
    _start_draw,
    begin_turn,
)

__all__ = [  # the kernel API (sim/games/README.md)
    "advance",
    "current_player",
    "init_state",
    "is_over",
    "legal_actions",
    "scores",
    "step",
]


@leaf
def init_state(data, n_players, role_mode, fixed_roles, rng, out):
    """Set up a game into ``out`` (§3) and play on to seat 0's first decision."""
    setup_state(data, n_players, role_mode, fixed_roles, out)
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:  # Celtic Quest: fixed_roles = destinies (-1: dealt)
        quest.setup(data, n_players, fixed_roles, rng, out)
    begin_turn(out, data, rng)


@leaf
def legal_actions(state, data, out):
    """Fill out[:n] with the legal action ids of the current decision; return n (>= 1)."""
    ph = state[PHASE]
    seat = state[CUR]
    pb = PLAYERS + seat * PW
    n = 0
    # Celtic Quest: its phases, and its movement and deliveries
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
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
        if QUEST_HOOKS and data[O_RULES + R_QUEST]:  # Celtic Quest: items discarded on demand
            n = quest.item_drops(state, out, n)
        return n
    if ph == PH_CLAIM:
        out[0] = A_PASS
        n = 1
        for k in range(1, state[pb + P_RP] + 1):
            out[n] = A_CLAIM + k
            n += 1
        if QUEST_HOOKS and data[O_RULES + R_QUEST]:  # Celtic Quest: items discarded on demand
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


@leaf(inline="always")
def _apply(s, action, data, rng):
    """The decision itself, in place."""
    s[ACTS] += 1
    ph = s[PHASE]
    seat = s[CUR]
    pb = PLAYERS + seat * PW
    if (
        QUEST_HOOKS
        and data[O_RULES + R_QUEST]
        and (ph > PH_TURN_END or ph == PH_MOVE or ph == PH_DELIVER)  # noqa: SIM109
    ):
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
    # Celtic Quest (upgrade, claim)
    if QUEST_HOOKS and data[O_RULES + R_QUEST] and quest.is_item_drop(action):
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
        if QUEST_HOOKS and action >= A_GOLD:  # Celtic Quest: first placement past a Roman, gold
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


@leaf(inline="always")
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
