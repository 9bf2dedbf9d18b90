"""The Celtic Trader greedy bot: plans each movement once, from Roman-aware shortest paths.

At the first movement decision of a turn it runs one 0-1 breadth-first search from its section
(Roman sections end a path: they can be reached but not crossed), scores every goal (deliver
the carried tokens at a Celtic bastion, fetch a token, visit the Stone Circle) as
value / (1 + turns to get there), and writes the path to the best goal into a small plan memory
in the tail of its action buffer. Later movement actions of the turn are read from that plan;
the plan is keyed on (turn, seat, actions taken, position, MP, tokens carried), so a stale or
foreign buffer (a search bot's scratch buffer) is never trusted. Token draws, upgrades, claims
and deliveries are decided by short rules that favour its own role card.

The numeric weights are bot parameters (``greedy:claim_weight=0.8``), read from ``params`` in
declared order; the bot uses no randomness of its own.
"""

import numpy as np
from numba import int64, uint64

from sim.core.kernel import leaf
from sim.core.rng import mix64
from sim.games.celtic_quest.layout import (
    ENCH,
    QP_DESTINY,
    QP_FREE_HILLS,
    QP_FREE_WOODS,
    X_DESTINY_RP_VP,
    X_DESTINY_UPG,
    X_NTILES,
    X_SEC_MERGE,
    X_TILE_NSEC,
    X_TILE_SECS,
)
from sim.games.celtic_quest.layout import MAX_TSEC as Q_MAX_TSEC
from sim.games.celtic_quest.movement import entry_cost, step_cost
from sim.games.celtic_quest.queries import qp, xr
from sim.games.celtic_quest.queries import upgrade_cost as quest_upgrade_cost
from sim.games.celtic_quest.tiles import rep
from sim.games.celtic_trader.board import capacity, has_roman_spot
from sim.games.celtic_trader.params import (
    FAR,
    K_ARM,
    MAX_DEG,
    MAX_SEC,
    N_BAST,
    N_CAPS,
    N_LEVELS,
    N_RES,
    O_ADJ,
    O_ADJ_COST,
    O_BAST_ARMS,
    O_BAST_HUB,
    O_BAST_NARMS,
    O_COL_VALUE,
    O_DEG,
    O_DIST,
    O_HUB_TURNS,
    O_MOVE_VAL,
    O_NEXT_HOP,
    O_ROLE_BONUS,
    O_ROLE_RP_VP,
    O_ROLE_START,
    O_RULES,
    O_SEC_BAST,
    O_SEC_KIND,
    O_SEC_SPOTS,
    O_SEC_TILE,
    O_SPOT_RES,
    O_SPOT_SEC,
    O_TRADE_VAL,
    O_UPG_COST,
    QUEST_HOOKS,
    R_NSEC,
    R_NSPOT,
    R_QUEST,
    R_RAISE_ANY,
    R_ROLES_IN_PLAY,
    R_SC,
    R_SUPPLY,
)
from sim.games.celtic_trader.state import (
    A_BAST,
    A_CLAIM,
    A_DELIVER,
    A_ORDER,
    A_PASS,
    A_ROLE,
    A_SEC,
    A_SPOT,
    A_UPGRADE,
    ACTS,
    BUF_LEN,
    CONQ,
    DELIVERED,
    DEMAND,
    KEPT_SEARCHES,
    MAX_ACTIONS,
    MAX_DELIVER,
    MOVE_ENDED,
    MP,
    N_CONQ,
    N_PENDING,
    P_CARRIED,
    P_MOVE,
    P_NCARRY,
    P_POS,
    P_ROLE,
    P_RP,
    P_TRADE,
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
    PH_UPGRADE,
    PHASE,
    PICKS,
    PLAN_LEN,
    PLAYERS,
    PW,
    ROMAN,
    SPOT,
    SUPPLY,
    TAKEN,
    TOKEN,
    TURNS,
)
from strategies.celtic_trader.decl import (
    G_CLAIM,
    G_END_CLAIM,
    G_ENDGAME,
    G_MIN_TOKEN,
    G_PICKUP,
    G_U_CARRY,
    G_U_MOVE,
    G_U_TRADE,
    GREEDY_PARAMS,
)

# plan memory layout, in buf[MAX_ACTIONS : MAX_ACTIONS + PLAN_LEN]
PLAN_MEMORY = (MAX_ACTIONS, MAX_ACTIONS + PLAN_LEN)  # what the search copies per rollout
PL_MAGIC, PL_TURNS, PL_SEAT, PL_ACTS, PL_POS, PL_MP, PL_NCARRY = range(7)
PL_KIND, PL_TARGET, PL_N, PL_IDX = 7, 8, 9, 10
PL_PATH = 16
MAGIC = 0x5EED7C1
# scratch (BFS) after the plan
SC_DIST = MAX_ACTIONS + PLAN_LEN
SC_PAR = SC_DIST + MAX_SEC
SC_Q = SC_PAR + MAX_SEC
Q_LEN = 8 * MAX_SEC
# the key of the search the scratch holds: a tag, its section, the Roman sections as bits, and
# in Celtic Quest the enchanted tiles as bits and the seat's free terrains (Spirit-type quests)
SC_KEY = SC_Q + Q_LEN
KEY_TAG = 0x0BF5
# earlier searches, each under its key (searches from the positions of every seat, and in the
# search bot's rollouts the same positions again and again): N_SLOTS slots of [key (6), two
# unused, dist, par], each key kept in the one slot its hash names (_slot)
N_SLOTS = KEPT_SEARCHES
SLOT_LEN = 8 + 2 * MAX_SEC
SC_SLOTS = SC_KEY + 8
assert SC_SLOTS + N_SLOTS * SLOT_LEN <= BUF_LEN, "greedy scratch must fit in the action buffer"
assert N_SLOTS & (N_SLOTS - 1) == 0, "_slot takes the hash's bits: N_SLOTS is a power of two"
SLOT_SHIFT = np.uint64(64 - (N_SLOTS.bit_length() - 1))
assert MAX_SEC <= 60, "the Roman sections of a key fit in two int32 of 30 bits"

GOAL_NONE, GOAL_DELIVER, GOAL_PICK, GOAL_SC = 0, 1, 2, 3


@leaf
def _bfs_quest(state, data, seat, src, dist, par, q):
    """Celtic Quest's :func:`_bfs` on the map as it is now: positions are sections with every
    enchanted tile's networks merged into one (``rep``), and a step costs what the
    seat's Spirit-type quests make it cost (``entry_cost``), as the rules' moves do."""
    n = data[O_RULES + R_NSEC]
    for i in range(n):
        dist[i] = FAR
        par[i] = -1
    dist[src] = 0
    half = Q_LEN // 2
    head = half
    tail = half
    q[tail] = src
    tail += 1
    qs = qp(seat)
    free = state[qs + QP_FREE_WOODS] != 0 or state[qs + QP_FREE_HILLS] != 0
    while head < tail:
        u = q[head]
        head += 1
        if u != src and state[ROMAN + u]:
            continue
        du = dist[u]
        t = data[O_SEC_TILE + u]
        merged = state[ENCH + t] != 0
        for j in range(data[X_TILE_NSEC + t] if merged else 1):
            w = data[X_TILE_SECS + t * Q_MAX_TSEC + j] if merged else u
            if merged and data[X_SEC_MERGE + w] != u:
                continue
            for k in range(data[O_DEG + w]):
                v = rep(state, data, data[O_ADJ + w * MAX_DEG + k])
                if v == u:
                    continue
                c = data[O_ADJ_COST + w * MAX_DEG + k]
                if free:
                    c = entry_cost(state, data, seat, v, c)
                if du + c < dist[v]:
                    dist[v] = du + c
                    par[v] = u
                    if c == 0 and head > 0:
                        head -= 1
                        q[head] = v
                    elif tail < Q_LEN:
                        q[tail] = v
                        tail += 1


@leaf
def _bfs(state, data, src, dist, par, q):
    """0-1 BFS from ``src``: sections holding a Roman are reached but never crossed."""
    n = data[O_RULES + R_NSEC]
    for i in range(n):
        dist[i] = FAR
        par[i] = -1
    dist[src] = 0
    half = Q_LEN // 2
    head = half
    tail = half
    q[tail] = src
    tail += 1
    while head < tail:
        u = q[head]
        head += 1
        if u != src and state[ROMAN + u]:
            continue
        du = dist[u]
        for k in range(data[O_DEG + u]):
            v = data[O_ADJ + u * MAX_DEG + k]
            c = data[O_ADJ_COST + u * MAX_DEG + k]
            if du + c < dist[v]:
                dist[v] = du + c
                par[v] = u
                if c == 0 and head > 0:
                    head -= 1
                    q[head] = v
                elif tail < Q_LEN:
                    q[tail] = v
                    tail += 1


@leaf
def forget_search(buf):
    """Drop the search kept in ``buf``'s scratch: a game's first call (the next game may have
    another map, and the key does not name the map)."""
    buf[SC_KEY] = 0
    for i in range(N_SLOTS):
        buf[SC_SLOTS + i * SLOT_LEN] = 0


@leaf(inline="always")
def _holds(buf, at, src, lo, hi, ench, free):
    """Does the key at ``buf[at:]`` name the search from ``src`` with these Romans (``lo``,
    ``hi``), enchanted tiles and free terrains?"""
    return (
        buf[at] == KEY_TAG
        and buf[at + 1] == src
        and buf[at + 2] == lo
        and buf[at + 3] == hi
        and buf[at + 4] == ench
        and buf[at + 5] == free
    )


@leaf(inline="always")
def _slot(src, lo, hi, ench, free):
    """The slot that keeps the search of this key: the top bits of its hash (the Roman
    sections in one word, then the section, the enchanted tiles and the free terrains)."""
    romans = mix64(uint64(lo) | (uint64(hi) << uint64(30)))
    rest = uint64(src) | (uint64(ench) << uint64(8)) | (uint64(free) << uint64(48))
    return int64(mix64(romans ^ rest) >> SLOT_SHIFT)


@leaf
def search_from(state, data, seat, src, buf):
    """:func:`_bfs` from ``src`` into the buffer's scratch (``SC_DIST``, ``SC_PAR``), unless
    the scratch already holds it. The search depends only on ``src``, the map and the
    sections holding a Roman, so it is kept under that key; Celtic Quest's greedy searches
    from a section and then Celtic Trader's planner searches again from the same one. In
    Celtic Quest (:func:`_bfs_quest`) it also depends on the enchanted tiles and on the
    seat's Spirit-type quests, which join the key. Earlier searches are kept too, each in the
    slot its key's hash names (:func:`_slot`), and copied back when asked again: the search
    bot's rollouts start from the same position again and again (issue 42: its games/s +8%,
    greedy's +3%, with the last 8 kept in turn; 32 slots, one looked at per search, gave the
    search 1.02 times the games/s in Celtic Trader and 1.04 in Celtic Quest; 128 were slower)."""
    lo = 0
    hi = 0
    for u in range(data[O_RULES + R_NSEC]):
        if state[ROMAN + u] != 0:
            if u < 30:
                lo |= 1 << u
            else:
                hi |= 1 << (u - 30)
    ench = 0
    free = 0
    is_quest = data[O_RULES + R_QUEST] != 0
    if QUEST_HOOKS and is_quest:
        for t in range(xr(data, X_NTILES)):
            if state[ENCH + t]:
                ench |= 1 << t
        qs = qp(seat)
        free = (1 if state[qs + QP_FREE_WOODS] else 0) | (2 if state[qs + QP_FREE_HILLS] else 0)
    if _holds(buf, SC_KEY, src, lo, hi, ench, free):
        return
    n = data[O_RULES + R_NSEC]
    o = SC_SLOTS + _slot(src, lo, hi, ench, free) * SLOT_LEN
    if _holds(buf, o, src, lo, hi, ench, free):
        for j in range(n):
            buf[SC_DIST + j] = buf[o + 8 + j]
            buf[SC_PAR + j] = buf[o + 8 + MAX_SEC + j]
        for j in range(6):
            buf[SC_KEY + j] = buf[o + j]
        return
    if QUEST_HOOKS and is_quest:
        _bfs_quest(
            state,
            data,
            seat,
            src,
            buf[SC_DIST : SC_DIST + MAX_SEC],
            buf[SC_PAR : SC_PAR + MAX_SEC],
            buf[SC_Q : SC_Q + Q_LEN],
        )
    else:
        _bfs(
            state,
            data,
            src,
            buf[SC_DIST : SC_DIST + MAX_SEC],
            buf[SC_PAR : SC_PAR + MAX_SEC],
            buf[SC_Q : SC_Q + Q_LEN],
        )
    buf[SC_KEY] = KEY_TAG
    buf[SC_KEY + 1] = src
    buf[SC_KEY + 2] = lo
    buf[SC_KEY + 3] = hi
    buf[SC_KEY + 4] = ench
    buf[SC_KEY + 5] = free
    for j in range(6):
        buf[o + j] = buf[SC_KEY + j]
    for j in range(n):
        buf[o + 8 + j] = buf[SC_DIST + j]
        buf[o + 8 + MAX_SEC + j] = buf[SC_PAR + j]


@leaf
def _step_mp(state, data, seat, a, b):
    """MP of the step from ``a`` to the adjacent ``b``: the map's road cost, or in Celtic Quest
    what the rules' move costs now (enchanted tiles merged, Spirit-type quests)."""
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        _, c = step_cost(state, data, seat, a, b)
        return c
    return data[O_DIST + a * MAX_SEC + b]


@leaf
def _turns(d, mp, move):
    """Turns before arriving ``d`` MP away with ``mp`` left now and ``move`` per turn."""
    if d <= mp:
        return 0
    return 1 + (d - mp + move - 1) // move


@leaf
def _progress(state, data):
    """0..1: how close the game looks to its end (bastions Romanised, supply spent)."""
    a = state[N_CONQ] / N_BAST
    b = 1.0 - state[SUPPLY] / max(1.0, float(data[O_RULES + R_SUPPLY]))
    return max(a, b)


# A claim at the Stone Circle turns 1 RP into 1 VP: a fixed rate of the rules (not a data
# value; rules.py's claim step), against which a role's rp_as_vp is weighed.
CLAIM_VP_PER_RP = 1


@leaf
def _rp_unit(state, data, seat):
    """What one RP is worth to this seat, in VP: the role's ``rp_as_vp`` (RP held at the end),
    or the 1 VP a claim at the Stone Circle gives (the rules' fixed rate), whichever is more.

    Every RP the bot earns, keeps or spends is weighed at this rate, so a role card that makes
    RP worth 2 VP changes what its holder delivers and buys, not only its score.
    """
    return max(float(CLAIM_VP_PER_RP), float(_rp_vp_rate(state, data, seat)))


@leaf
def _token_value(state, data, seat, sec, r, move_level):
    """Expected RP of a token of type ``r`` picked up on ``sec``: the best Celtic bastion's pay,
    discounted by the turns needed to carry it there (at the seat's movement level), in VP at
    the seat's RP rate."""
    pb = PLAYERS + seat * PW
    trade = data[O_TRADE_VAL + (state[pb + P_TRADE])]
    return _token_value_with(state, data, sec, r, move_level, trade, _rp_unit(state, data, seat))


@leaf(inline="always")  # once per spot of every goal search: its call cost more than it
def _token_value_with(state, data, sec, r, move_level, trade, unit):
    """:func:`_token_value` given the seat's trade bonus and RP unit (one goal search reads
    them once for all its spots)."""
    turns = O_HUB_TURNS + (move_level * MAX_SEC + sec) * N_BAST
    best = 0.0
    for b in range(N_BAST):
        if state[CONQ + b]:
            continue
        v = data[O_COL_VALUE + (state[DEMAND + b * N_RES + r])] + trade
        val = v / (1.0 + data[turns + b])
        if val > best:
            best = val
    return best * unit


@leaf
def _sc_value(state, data, seat, params):
    """Value of ending this turn on the Stone Circle: good upgrades, then RP claimed as VP."""
    pb = PLAYERS + seat * PW
    rp = state[pb + P_RP]
    total = 0.0
    # what greedy would buy, in order (levels bought virtually)
    lv0 = state[pb + P_MOVE]
    lv1 = state[pb + P_MOVE + 1]
    lv2 = state[pb + P_MOVE + 2]
    left = 1.0 - _progress(state, data)
    weight = _claim_weight(state, data, seat, params)
    for _ in range(12):
        best = -1
        best_net = 0.0
        for c in range(3):
            lvl = lv0 if c == 0 else (lv1 if c == 1 else lv2)
            if lvl >= 4 or _upg_cost(state, data, seat, lvl + 1) > rp:
                continue
            net = _virtual_net(state, data, seat, c, lvl, params, left)
            if net > best_net:
                best_net = net
                best = c
        if best < 0:
            break
        lvl = lv0 if best == 0 else (lv1 if best == 1 else lv2)
        rp -= _upg_cost(state, data, seat, lvl + 1)
        total += best_net + _upg_cost(state, data, seat, lvl + 1) * weight
        if best == 0:
            lv0 += 1
        elif best == 1:
            lv1 += 1
        else:
            lv2 += 1
    return total + rp * weight


@leaf
def _upg_cost(state, data, seat, lvl):
    """RP to reach ``lvl``: the data's upgrade cost (in Celtic Quest less the seat's
    Anvil-type discounts, Celtic Quest's ``upgrade_cost``)."""
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        return quest_upgrade_cost(state, data, seat, lvl)
    return data[O_UPG_COST + lvl]


@leaf
def _bonus_step(state, data, seat, c, lvl):
    """VP the seat's card adds for raising capability ``c`` from ``lvl``: its role's bonus
    table, in Celtic Quest its destiny card's own table (destinies.*.movement etc.)."""
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        d = state[qp(seat) + QP_DESTINY]
        if d < 0:
            return 0
        at = X_DESTINY_UPG + d * N_CAPS * N_LEVELS + c * N_LEVELS
        return data[at + lvl + 1] - data[at + lvl]
    role = state[PLAYERS + seat * PW + P_ROLE]
    if role < 0:
        return 0
    at = O_ROLE_BONUS + role * N_CAPS * N_LEVELS + c * N_LEVELS
    return data[at + lvl + 1] - data[at + lvl]


@leaf
def _rp_are_vp(state, data, seat):
    """The seat's RP held at the end are worth at least what a claim gives (the Trusted's
    role, or in Celtic Quest a destiny with destinies.*.rp_as_vp)."""
    return _rp_vp_rate(state, data, seat) >= CLAIM_VP_PER_RP


@leaf
def _rp_vp_rate(state, data, seat):
    """VP per RP held at the end: the role's rp_as_vp (in Celtic Quest the destiny's)."""
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        d = state[qp(seat) + QP_DESTINY]
        return data[X_DESTINY_RP_VP + d] if d >= 0 else 0
    role = state[PLAYERS + seat * PW + P_ROLE]
    return data[O_ROLE_RP_VP + role] if role >= 0 else 0


@leaf
def _virtual_net(state, data, seat, c, lvl, params, left):
    """Net value of raising capability ``c`` from ``lvl`` (``left``: 1 - _progress)."""
    inc = float(_bonus_step(state, data, seat, c, lvl))
    if c == 0:
        util = params[G_U_MOVE]
    elif c == 1:
        util = params[G_U_TRADE] * (data[O_TRADE_VAL + (lvl + 1)] - data[O_TRADE_VAL + lvl])
    else:
        util = params[G_U_CARRY]
    return (
        inc
        + util * left * left
        - _upg_cost(state, data, seat, lvl + 1) * _rp_unit(state, data, seat)
    )


@leaf
def _claim_weight(state, data, seat, params):
    if _rp_are_vp(state, data, seat):
        return 0.0  # RP held already count as much as a claim would give
    if _progress(state, data) >= params[G_ENDGAME]:
        return params[G_END_CLAIM]
    return params[G_CLAIM]


@leaf
def _best_goal(state, data, seat, pos, mp, ended, ncarry, params, buf, bfs):
    """(kind, target, score) of the best goal from ``pos``; BFS into the scratch if ``bfs``."""
    dist = buf[SC_DIST : SC_DIST + MAX_SEC]
    if bfs:
        search_from(state, data, seat, pos, buf)
    pb = PLAYERS + seat * PW
    move = data[O_MOVE_VAL + (state[pb + P_MOVE])]
    if ended:
        mp = 0
    trade = data[O_TRADE_VAL + (state[pb + P_TRADE])]
    x_max, _ = capacity(state, data, seat)
    best_kind = GOAL_NONE
    best_target = -1
    best_score = 0.0
    # deliver what is carried
    if ncarry > 0:
        for b in range(N_BAST):
            if state[CONQ + b]:
                continue
            hub = data[O_BAST_HUB + b]
            d = dist[hub]
            if d >= FAR:
                d = data[O_DIST + pos * MAX_SEC + hub] + move
            gain = 0.0
            for r in range(N_RES):
                k = state[pb + P_CARRIED + r]
                if k > 0:
                    gain += k * (data[O_COL_VALUE + (state[DEMAND + b * N_RES + r])] + trade)
            score = gain * _rp_unit(state, data, seat) / (1.0 + _turns(d, mp, move))
            if score > best_score:
                best_score = score
                best_kind = GOAL_DELIVER
                best_target = hub
    # fetch a token
    if ncarry < x_max:
        unit = _rp_unit(state, data, seat)
        move_level = state[pb + P_MOVE]
        for sp in range(data[O_RULES + R_NSPOT]):
            if state[SPOT + sp] == 0:
                continue
            sec = data[O_SPOT_SEC + sp]
            d = dist[sec]
            if d >= FAR or state[ROMAN + sec] and sec != pos:
                continue
            if ended and sec != pos:
                continue
            v = _token_value_with(state, data, sec, data[O_SPOT_RES + sp], move_level, trade, unit)
            score = params[G_PICKUP] * v / (1.0 + _turns(d, mp, move))
            if score > best_score:
                best_score = score
                best_kind = GOAL_PICK
                best_target = sp
    # the Stone Circle
    sc = data[O_RULES + R_SC]
    if state[pb + P_RP] > 0:
        d = dist[sc]
        if d >= FAR:
            d = data[O_DIST + pos * MAX_SEC + sc] + move
        score = _sc_value(state, data, seat, params) / (1.0 + _turns(d, mp, move))
        if score > best_score:
            best_score = score
            best_kind = GOAL_SC
            best_target = sc
    return best_kind, best_target, best_score


@leaf(inline="always")
def _plan_move(state, data, seat, params, buf):
    """Choose the turn's goal and write the path toward it into the plan memory."""
    pb = PLAYERS + seat * PW
    pos = state[pb + P_POS]
    mp = state[MP]
    ended = state[MOVE_ENDED]
    kind, target, _ = _best_goal(
        state, data, seat, pos, mp, ended, state[pb + P_NCARRY], params, buf, True
    )
    plan = buf[MAX_ACTIONS : MAX_ACTIONS + PLAN_LEN]
    plan[PL_KIND] = kind
    plan[PL_TARGET] = target
    plan[PL_N] = 0
    plan[PL_IDX] = 0
    if kind != GOAL_NONE and not ended:
        goal = target if kind != GOAL_PICK else data[O_SPOT_SEC + target]
        dist = buf[SC_DIST : SC_DIST + MAX_SEC]
        par = buf[SC_PAR : SC_PAR + MAX_SEC]
        n = 0
        if dist[goal] < FAR:
            # walk back from the goal, then keep the prefix affordable this turn
            node = goal
            tmp = buf[SC_Q : SC_Q + MAX_SEC]
            while node != pos and node >= 0 and n < MAX_SEC:
                tmp[n] = node
                n += 1
                node = par[node]
            m = 0
            used = 0
            for i in range(n - 1, -1, -1):
                nxt = tmp[i]
                prev = pos if m == 0 else plan[PL_PATH + m - 1]
                c = _step_mp(state, data, seat, prev, nxt)
                if used + c > mp or m >= PLAN_LEN - PL_PATH:
                    break
                used += c
                plan[PL_PATH + m] = nxt
                m += 1
            n = m
        else:
            # no Roman-free path: follow the static shortest path (may stop on a Roman)
            node = pos
            used = 0
            is_quest = data[O_RULES + R_QUEST] != 0
            while node != goal and n < PLAN_LEN - PL_PATH:
                nxt = data[O_NEXT_HOP + node * MAX_SEC + goal]
                if nxt < 0:
                    break
                if QUEST_HOOKS and is_quest:
                    # Celtic Quest: the hop as a position of the map now, if one step away
                    nxt = rep(state, data, nxt)
                    base, _ = step_cost(state, data, seat, node, nxt)
                    if nxt == node or base < 0:
                        break
                c = _step_mp(state, data, seat, node, nxt)
                if used + c > mp:
                    break
                used += c
                plan[PL_PATH + n] = nxt
                n += 1
                node = nxt
                if state[ROMAN + nxt]:
                    break
        plan[PL_N] = n
    plan[PL_MAGIC] = MAGIC
    plan[PL_TURNS] = state[TURNS]
    plan[PL_SEAT] = seat


@leaf
def _plan_valid(state, seat, plan):
    pb = PLAYERS + seat * PW
    return (
        plan[PL_MAGIC] == MAGIC
        and plan[PL_TURNS] == state[TURNS]
        and plan[PL_SEAT] == seat
        and plan[PL_ACTS] == state[ACTS]
        and plan[PL_POS] == state[pb + P_POS]
        and plan[PL_MP] == state[MP]
        and plan[PL_NCARRY] == state[pb + P_NCARRY]
    )


@leaf
def _expect(state, plan, pos, mp, ncarry):
    plan[PL_ACTS] = state[ACTS] + 1
    plan[PL_POS] = pos
    plan[PL_MP] = mp
    plan[PL_NCARRY] = ncarry


@leaf
def follows_plan(state, data, seat, buf):
    """Is greedy's next pick a later step of a move it planned at an earlier decision of this
    movement (the search's ``follow``)? Measured (issue 42, 4 players, every seat searching,
    30 games): such steps were 116 of a game's 188 movement decisions and 37% of the search's
    time, and the search overruled greedy in 1.1% of them (3.5% of first steps)."""
    plan = buf[MAX_ACTIONS : MAX_ACTIONS + PLAN_LEN]
    return state[PHASE] == PH_MOVE and _plan_valid(state, seat, plan) and plan[PL_IDX] > 0


@leaf
def _pick_here(state, data, seat, params, want_spot, strict):
    """A spot on the current section worth picking up now, or -1."""
    pb = PLAYERS + seat * PW
    pos = state[pb + P_POS]
    x_max, _ = capacity(state, data, seat)
    if state[pb + P_NCARRY] >= x_max:
        return -1
    best = -1
    best_v = params[G_MIN_TOKEN] if strict else -1.0
    for j in range(2):
        sp = data[O_SEC_SPOTS + pos * 2 + j]
        if sp < 0 or state[SPOT + sp] == 0:
            continue
        if sp == want_spot:
            return sp
        v = _token_value(state, data, seat, pos, data[O_SPOT_RES + sp], state[pb + P_MOVE])
        if v >= best_v:
            best_v = v
            best = sp
    return best


@leaf(inline="always")
def _move_action(state, data, seat, params, buf):
    """Next movement action from the plan (planning once per turn, and after a free pick-up
    reached the goal)."""
    plan = buf[MAX_ACTIONS : MAX_ACTIONS + PLAN_LEN]
    pb = PLAYERS + seat * PW
    if not _plan_valid(state, seat, plan):
        _plan_move(state, data, seat, params, buf)
    pos = state[pb + P_POS]
    ncarry = state[pb + P_NCARRY]
    _, y_free = capacity(state, data, seat)
    kind = plan[PL_KIND]
    idx = plan[PL_IDX]
    n = plan[PL_N]
    ended = state[MOVE_ENDED]
    if idx < n and not ended:
        # a free pick-up on the way (it does not end the movement)
        if state[PICKS] < y_free and kind != GOAL_PICK:
            sp = _pick_here(state, data, seat, params, -1, True)
            if sp >= 0:
                _expect(state, plan, pos, state[MP], ncarry + 1)
                return A_SPOT + sp
        nxt = plan[PL_PATH + idx]
        c = _step_mp(state, data, seat, pos, nxt)
        plan[PL_IDX] = idx + 1
        _expect(state, plan, nxt, state[MP] - c, ncarry)
        return A_SEC + nxt
    # at the end of the path
    want = plan[PL_TARGET] if kind == GOAL_PICK else -1
    strict = kind != GOAL_PICK
    sp = _pick_here(state, data, seat, params, want, strict)
    if sp >= 0:
        x_max, _ = capacity(state, data, seat)
        if kind == GOAL_PICK or kind == GOAL_NONE or ncarry + 1 < x_max:  # noqa: SIM109
            if kind == GOAL_PICK and sp == want and state[PICKS] < y_free and state[MP] > 0:
                plan[PL_MAGIC] = 0  # free pick-up at the goal: plan again afterwards
            else:
                _expect(state, plan, pos, state[MP], ncarry + 1)
                plan[PL_KIND] = GOAL_NONE
            return A_SPOT + sp
    return A_PASS


@leaf
def _roman_spot_choice(state, data, seat, exclude, far):
    """An empty Roman spot far from (``far``) or near the seat that completes no conquest."""
    pos = state[PLAYERS + seat * PW + P_POS]
    best = -1
    best_key = -1e9
    for sec in range(data[O_RULES + R_NSEC]):
        if sec == exclude or state[ROMAN + sec] or not has_roman_spot(state, data, sec):
            continue
        key = 0.0
        if pos >= 0:
            key = (
                float(data[O_DIST + pos * MAX_SEC + sec])
                if far
                else -float(data[O_DIST + pos * MAX_SEC + sec])
            )
        if _completes_conquest(state, data, sec):
            key -= 1000.0
        if key > best_key:
            best_key = key
            best = sec
    return best


@leaf
def _completes_conquest(state, data, sec):
    b = data[O_SEC_BAST + sec]
    if b < 0 or state[CONQ + b] or data[O_SEC_KIND + sec] != K_ARM:
        return False
    for j in range(data[O_BAST_NARMS + b]):
        a = data[O_BAST_ARMS + b * 3 + j]
        if a != sec and state[ROMAN + a] == 0:
            return False
    return True


@leaf
def _order_choice(state):
    """Resolve resources first, then Romans, Romanisation, orders, and the cycle last."""
    best = 0
    best_p = -1
    for i in range(state[N_PENDING]):
        k = state[PENDING + i]
        if k < N_RES:
            p = 5
        elif k == 6:
            p = 4
        elif k == 9:
            p = 3
        elif k == 8:
            p = 2
        else:
            p = 1
        if p > best_p:
            best_p = p
            best = i
    return A_ORDER + best


@leaf(inline="always")
def _start_choice(state, data, seat, params, buf):
    pb = PLAYERS + seat * PW
    role = state[pb + P_ROLE]
    move = data[O_MOVE_VAL + (state[pb + P_MOVE])]
    best = data[O_ROLE_START + role * 3 + 0]
    best_score = -1e18
    for j in range(3):
        sec = data[O_ROLE_START + role * 3 + j]
        if state[ROMAN + sec]:
            score = -1e9  # a Roman there ends the first turn at once
        else:
            _, _, score = _best_goal(state, data, seat, sec, move, 0, 0, params, buf, True)
        if score > best_score:
            best_score = score
            best = sec
    return A_SEC + best


@leaf
def _role_choice(state, data):
    """Open draft: the role with the largest bonus table; RP held at the end valued at 40 RP
    a game (about what a player ends with), times the VP each is worth."""
    best = -1
    best_v = -1
    for r in range(data[O_RULES + R_ROLES_IN_PLAY]):
        if state[TAKEN + r]:
            continue
        v = 40 * data[O_ROLE_RP_VP + r]
        for c in range(3):
            v += data[O_ROLE_BONUS + r * N_CAPS * N_LEVELS + c * N_LEVELS + 4]
        if v > best_v:
            best_v = v
            best = r
    return A_ROLE + best


@leaf
def greedy_action(state, data, seat, params, rng, buf):
    """The greedy bot's action (``buf``: int32, state.BUF_LEN; ``params``: GREEDY_PARAMS)."""
    ph = state[PHASE]
    pb = PLAYERS + seat * PW
    if ph == PH_MOVE:
        return _move_action(state, data, seat, params, buf)
    if ph == PH_DELIVER:
        for r in range(N_RES):
            k = state[pb + P_CARRIED + r]
            if k > 0 and (state[DELIVERED] >> r) & 1 == 0:
                return A_DELIVER + r * MAX_DELIVER + k - 1
        return A_PASS
    if ph == PH_UPGRADE:
        best = -1
        best_net = 0.0
        left = 1.0 - _progress(state, data)
        for c in range(3):
            lvl = state[pb + P_MOVE + c]
            if lvl >= 4 or _upg_cost(state, data, seat, lvl + 1) > state[pb + P_RP]:
                continue
            net = _virtual_net(state, data, seat, c, lvl, params, left)
            if net > best_net:
                best_net = net
                best = c
        if best < 0:
            return A_PASS
        return A_UPGRADE + best
    if ph == PH_CLAIM:
        if _rp_are_vp(state, data, seat):
            return A_PASS  # holding is worth at least the claim, and RP can still buy upgrades
        return A_CLAIM + state[pb + P_RP]
    if ph == PH_ORDER:
        return _order_choice(state)
    pos = state[pb + P_POS]
    if ph == PH_SPOT:
        r = state[TOKEN]
        best = -1
        best_d = 1 << 30
        for sp in range(data[O_RULES + R_NSPOT]):
            if data[O_SPOT_RES + sp] == r and state[SPOT + sp] == 0:
                d = 0 if pos < 0 else data[O_DIST + pos * MAX_SEC + (data[O_SPOT_SEC + sp])]
                if d < best_d:
                    best_d = d
                    best = sp
        return A_SPOT + best
    if ph == PH_RAISE:
        r = state[TOKEN]
        best = -1
        best_key = -1e18
        for b in range(N_BAST):
            if state[CONQ + b]:
                continue
            if state[DEMAND + b * N_RES + r] >= 4 and data[O_RULES + R_RAISE_ANY] == 0:
                continue
            key = 0.0
            if pos >= 0:
                key = -float(data[O_DIST + pos * MAX_SEC + (data[O_BAST_HUB + b])])
            key += 10.0 * state[pb + P_CARRIED + r]
            if key > best_key:
                best_key = key
                best = b
        return A_BAST + best
    if ph == PH_ROMAN:
        return A_SEC + _roman_spot_choice(state, data, seat, -1, True)
    if ph == PH_RELOCATE:
        sec = _roman_spot_choice(state, data, seat, pos, True)
        if sec < 0 or _completes_conquest(state, data, sec):
            return A_PASS
        return A_SEC + sec
    if ph == PH_ORDERS:
        best = -1
        best_d = 1 << 30
        for sec in range(data[O_RULES + R_NSEC]):
            if state[ROMAN + sec]:
                d = 0 if pos < 0 else data[O_DIST + pos * MAX_SEC + sec]
                if d < best_d:
                    best_d = d
                    best = sec
        return A_SEC + best
    if ph == PH_ROMANISE:
        best = -1
        best_d = -1
        for b in range(N_BAST):
            if state[CONQ + b] == 0:
                d = 0 if pos < 0 else data[O_DIST + pos * MAX_SEC + (data[O_BAST_HUB + b])]
                if d > best_d:
                    best_d = d
                    best = b
        return A_BAST + best
    if ph == PH_START:
        return _start_choice(state, data, seat, params, buf)
    if ph == PH_ROLE:
        return _role_choice(state, data)
    return A_PASS


def greedy_defaults() -> np.ndarray:
    """The default greedy parameter row (float64), for tests and scripts."""
    return np.array([p.default for p in GREEDY_PARAMS], np.float64)
