"""The Celtic Quest greedy bot: Celtic Trader's greedy bot for the shared rules, plus quests,
crystals, items and destinies.

Movement, deliveries, token placements and upgrades are Celtic Trader's greedy choices
(strategies/celtic_trader/greedy.py), which read the shared state; a choice that Celtic Quest
does not allow (a spot gone with its enchanted tile) falls back to ending the movement or to
the first legal action. On top of it the bot picks up crystals where it stands, carries a
completed quest's pair or its crystals to the Stone Circle (turning aside for a near second
crystal when its estimate says so), always completes quests and discards the impossible ones,
draws one when it can plausibly complete it, delivers every crystal, uses its rings, passes
Romans with a gold or a Shield-type quest, eats a bread when a goal is just beyond its MP,
picks up with an elixir when a pick-up would end its movement, moves a Roman with a
Raven-type quest when that opens its route or hems in the leader, and keeps the destiny card
its data values most. It reads only its own destiny and quest cards and what every player sees
(the state's other hidden cards are never looked at).
"""

import numpy as np

from sim.core.kernel import leaf
from sim.games.celtic_quest.delivery import ring_action
from sim.games.celtic_quest.layout import (
    A_BREAD,
    A_CRYSTAL,
    A_CRYSTAL_ELIXIR,
    A_DESTINY,
    A_ELIXIR,
    A_GOLD,
    A_ITEM,
    A_QUEST,
    A_ROMAN,
    A_SHIELD,
    A_TILE,
    A_YES,
    ENCH,
    GOLD_ROMAN,
    I_BREAD,
    I_RING,
    ITEM_DRAWN,
    MAX_DESTINIES,
    MAX_HELD,
    MAX_TSEC,
    N_ITEMS,
    NEXT,
    NX_ENTER,
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
    QP_ALT0,
    QP_BREADS_USED,
    QP_CRYST,
    QP_CRYST_DONE,
    QP_CRYST_VP_PLUS,
    QP_DESTINY,
    QP_DONE_MASK,
    QP_HELD,
    QP_ITEMS,
    QP_QUEST_VP,
    SPELL,
    SPOT_OUT,
    TCRYST,
    X_BREAD_MP,
    X_BREADS_PER_TURN,
    X_CRYSTAL_STEPS,
    X_CRYSTALS,
    X_DESTINY_BASIC,
    X_DESTINY_BEST_BASIC,
    X_DESTINY_CRYSTAL_VP,
    X_DESTINY_QUESTS_VP,
    X_DESTINY_RP_VP,
    X_DESTINY_TOWN_VP,
    X_DESTINY_TRIBE_VP,
    X_DESTINY_UPG,
    X_ELIXIR_PICKS,
    X_N_QUESTS,
    X_NTILES,
    X_QUEST_NEED,
    X_RING_RP,
    X_RULES,
    X_SPELL_END,
    X_SPELL_VP,
    X_TILE_NSEC,
    X_TILE_SECS,
)
from sim.games.celtic_quest.queries import move_points, qp, quest_possible, quest_ready
from sim.games.celtic_quest.tiles import rep
from sim.games.celtic_trader.board import capacity
from sim.games.celtic_trader.params import (
    FAR,
    MAX_SEC,
    MAX_SPOTS,
    N_BAST,
    N_CAPS,
    N_LEVELS,
    N_RES,
    O_DIST,
    O_RULES,
    O_SEC_TILE,
    O_SPOT_RES,
    O_SPOT_SEC,
    O_UPG_COST,
    R_NSEC,
    R_NSPOT,
    R_SC,
    R_SUPPLY,
)
from sim.games.celtic_trader.rules import legal_actions
from sim.games.celtic_trader.state import (
    A_DELIVER,
    A_DISCARD,
    A_ORDER,
    A_PASS,
    A_SEC,
    A_SPOT,
    ACTS,
    DELIVERED,
    MAX_ACTIONS,
    MAX_DELIVER,
    MOVE_ENDED,
    MP,
    N_CONQ,
    N_PENDING,
    NP,
    P_CARRIED,
    P_MOVE,
    P_NCARRY,
    P_POS,
    P_VP,
    PENDING,
    PH_CLAIM,
    PH_DELIVER,
    PH_MOVE,
    PH_START,
    PH_TURN_END,
    PHASE,
    PLAN_LEN,
    PLAYERS,
    PW,
    ROMAN,
    SPOT,
    SUPPLY,
    T_CYCLE,
    T_ORDERS,
    T_ROMAN,
    T_ROMANISE,
    TURNS,
)
from strategies.celtic_trader import greedy as trader_greedy

MAX_TURN_ACTIONS = 60  # movement decisions in one turn beyond which the bot ends its movement


@leaf
def _listed(buf, n, action):
    """Is ``action`` among the legal actions listed in ``buf[:n]``?"""
    for i in range(n):  # noqa: SIM110  (numba: plain loop)
        if buf[i] == action:
            return True
    return False


@leaf
def _is_legal(state, data, buf, action):
    return _listed(buf, legal_actions(state, data, buf), action)


@leaf
def _legal_or_first(state, data, buf, action):
    """``action`` if legal, else the first legal action (A_PASS where the phase has it)."""
    n = legal_actions(state, data, buf)
    for i in range(n):
        if buf[i] == action:
            return action
    return buf[0]


@leaf
def _dist(data, a, b):
    return data[O_DIST + a * MAX_SEC + b]


@leaf
def _card_value(state, data, d):
    """VP destiny card ``d`` would give a seat taking an even share of the game, from the
    card's own data: its share of the supply in RP (supply_points / players) buys the
    upgrades its tables pay most VP per RP for (at the data's upgrade costs), and what is
    left is held at its rp_as_vp; its quests_vp at an even share of the quest cards (the
    table's last entry at most), crystal_vp_each at an even share of the crystals, and
    roman_town_vp_each and tribe_vp_each at every bastion (the most a game gives)."""
    players = state[NP]
    rp = data[O_RULES + R_SUPPLY] // players
    lv0 = 0
    lv1 = 0
    lv2 = 0
    v = 0
    rate = data[X_DESTINY_RP_VP + d]
    for _ in range(N_CAPS * (N_LEVELS - 1)):
        best = -1
        best_r = 0.0
        for c in range(N_CAPS):
            lvl = lv0 if c == 0 else (lv1 if c == 1 else lv2)
            if lvl >= N_LEVELS - 1:
                continue
            cost = data[O_UPG_COST + lvl + 1]
            if cost > rp:
                continue
            at = X_DESTINY_UPG + d * N_CAPS * N_LEVELS + c * N_LEVELS
            gain = data[at + lvl + 1] - data[at + lvl]
            r = gain / max(cost, 1) if gain > 0 else 0.0
            if r > best_r and r > rate:
                best_r = r
                best = c
        if best < 0:
            break
        lvl = lv0 if best == 0 else (lv1 if best == 1 else lv2)
        at = X_DESTINY_UPG + d * N_CAPS * N_LEVELS + best * N_LEVELS
        v += data[at + lvl + 1] - data[at + lvl]
        rp -= data[O_UPG_COST + lvl + 1]
        if best == 0:
            lv0 += 1
        elif best == 1:
            lv1 += 1
        else:
            lv2 += 1
    v += rate * rp
    quests = data[X_RULES + X_N_QUESTS] // players
    if quests > 4:
        quests = 4
    v += data[X_DESTINY_QUESTS_VP + d * 5 + quests]
    v += data[X_DESTINY_CRYSTAL_VP + d] * (data[X_RULES + X_CRYSTALS] // players)
    v += (data[X_DESTINY_TOWN_VP + d] + data[X_DESTINY_TRIBE_VP + d]) * N_BAST
    return v


@leaf
def _destiny_value(state, data, d):
    """:func:`_card_value` of card ``d``; for a card scoring as the best basic card (the
    Luckiest), the best basic card's."""
    if data[X_DESTINY_BEST_BASIC + d] == 0:
        return _card_value(state, data, d)
    best = 0
    for other in range(MAX_DESTINIES):
        if data[X_DESTINY_BASIC + other]:
            v = _card_value(state, data, other)
            if v > best:
                best = v
    return best


@leaf
def _heading_home(state, data, seat):
    """The seat has a reason to go to the Stone Circle now: a quest it can complete there, or
    crystals to deliver."""
    q = qp(seat)
    if state[q + QP_CRYST] > 0:
        return True
    for i in range(MAX_HELD):
        quest = state[q + QP_HELD + i]
        if quest >= 0 and quest_ready(state, data, seat, quest):
            return True
    return False


@leaf
def _reserved(state, data, seat, r):
    """Tokens of ``r`` the seat keeps for its quests: one per held quest that needs it, while
    the seat has room for the quest's other token or already carries it."""
    pb = PLAYERS + seat * PW
    q = qp(seat)
    x_max, _ = capacity(state, data, seat)
    room = state[pb + P_NCARRY] < x_max
    k = 0
    for i in range(MAX_HELD):
        quest = state[q + QP_HELD + i]
        if quest < 0:
            continue
        r1 = data[X_QUEST_NEED + quest * 2]
        r2 = data[X_QUEST_NEED + quest * 2 + 1]
        if r != r1 and r != r2:
            continue
        other = r2 if r == r1 else r1
        if room or state[pb + P_CARRIED + other] > 0:
            k += 1
    return k


@leaf
def _search(state, data, seat, buf, pos):
    """Celtic Trader's greedy search from ``pos`` on the map as it is now (enchanted tiles
    merged; Roman sections reached, never crossed): its distance and parent arrays, in the
    buffer's scratch."""
    trader_greedy.search_from(state, data, seat, pos, buf)
    dist = buf[trader_greedy.SC_DIST : trader_greedy.SC_DIST + MAX_SEC]
    par = buf[trader_greedy.SC_PAR : trader_greedy.SC_PAR + MAX_SEC]
    return dist, par


@leaf
def _first_step(state, data, buf, n, pos, target, par):
    """The legal first move toward ``target`` along the search's parents, if the path crosses
    no Roman and the target holds none; -1 otherwise (``buf[:n]``: the legal actions)."""
    if target == pos or state[ROMAN + target]:
        return -1
    node = target
    while par[node] != pos:
        node = par[node]
        if node < 0:
            return -1
    if not _listed(buf, n, A_SEC + node):
        return -1
    return A_SEC + node


@leaf
def _bread_reach(state, data, seat, buf, n):
    """MP the seat can still add this turn by eating its breads: ``bread_extra_tiles`` (the
    data's) per bread held, within ``breads_per_turn`` (0: no limit); 0 if A_BREAD is not
    legal (``buf[:n]``: the legal actions)."""
    extra = data[X_RULES + X_BREAD_MP]
    if extra <= 0 or not _listed(buf, n, A_BREAD):
        return 0
    q = qp(seat)
    k = state[q + QP_ITEMS + I_BREAD]
    limit = data[X_RULES + X_BREADS_PER_TURN]
    if limit > 0 and limit - state[q + QP_BREADS_USED] < k:
        k = limit - state[q + QP_BREADS_USED]
    return extra * k


@leaf
def _bread_for(state, data, seat, buf, n, d):
    """A_BREAD when a goal ``d`` MP away is beyond the MP left but within what the seat's
    breads add (:func:`_bread_reach`): one bread is eaten per decision, the next decision
    eats another if still short; -1 otherwise."""
    if d <= state[MP] or d >= FAR:
        return -1
    if d <= state[MP] + _bread_reach(state, data, seat, buf, n):
        return A_BREAD
    return -1


@leaf
def _bread_for_plan(state, data, seat, params, buf, n):
    """A_BREAD when a bread raises the value of Celtic Trader's best goal this turn (a goal
    its MP miss by at most a bread's ``bread_extra_tiles`` becomes reachable now): asked when
    the turn's plan is (re)made, never along a valid plan; -1 otherwise."""
    extra = data[X_RULES + X_BREAD_MP]
    if extra <= 0 or state[MOVE_ENDED] or not _listed(buf, n, A_BREAD):
        return -1
    if trader_greedy._plan_valid(state, seat, buf[MAX_ACTIONS : MAX_ACTIONS + PLAN_LEN]):
        return -1
    pb = PLAYERS + seat * PW
    pos = state[pb + P_POS]
    mp = state[MP]
    ncarry = state[pb + P_NCARRY]
    _, _, now = trader_greedy._best_goal(state, data, seat, pos, mp, 0, ncarry, params, buf, True)
    _, _, fed = trader_greedy._best_goal(
        state, data, seat, pos, mp + extra, 0, ncarry, params, buf, False
    )
    return A_BREAD if fed > now else -1


@leaf
def _with_elixir(state, data, seat, buf, a):
    """A pick-up ``a`` (a resource spot or a crystal) that would end the movement (the rules
    offer the elixir only then) is taken with an elixir when that frees a pick-up
    (``elixir_free_pickups`` > 0 in the data) and MP are left to move on; the turn's plan is
    then made again from there. Any other action is returned as it is."""
    if data[X_RULES + X_ELIXIR_PICKS] <= 0 or state[MP] <= 0:
        return a
    if A_SPOT <= a < A_SPOT + MAX_SPOTS:
        e = A_ELIXIR + a - A_SPOT
    elif a == A_CRYSTAL:
        e = A_CRYSTAL_ELIXIR
    else:
        return a
    if not _is_legal(state, data, buf, e):
        return a
    buf[MAX_ACTIONS + trader_greedy.PL_MAGIC] = 0  # plan again after the free pick-up
    return e


@leaf
def _go_home(state, data, seat, buf, n):
    """A move toward the Stone Circle on a Roman-free path (a bread first when the Stone
    Circle is just beyond the MP left), A_PASS there, -1 if none."""
    pos = state[PLAYERS + seat * PW + P_POS]
    sc = data[O_RULES + R_SC]
    if pos == sc:
        return A_PASS
    dist, par = _search(state, data, seat, buf, pos)
    if dist[sc] >= FAR:
        return -1
    a = _bread_for(state, data, seat, buf, n, dist[sc])
    if a >= 0:
        return a
    if state[MP] == 0:
        return -1  # (only free steps remain: Celtic Trader's plan takes them)
    return _first_step(state, data, buf, n, pos, sc, par)


@leaf
def _fetch_for_quest(state, data, seat, buf, n):
    """Go for (or pick up) the nearest token a held quest still needs, if the seat has room and
    reaches it this turn on a Roman-free path (eating a bread when it is just beyond the MP
    left); -1 otherwise."""
    pb = PLAYERS + seat * PW
    pos = state[pb + P_POS]
    x_max, _ = capacity(state, data, seat)
    if state[pb + P_NCARRY] >= x_max or state[MOVE_ENDED]:
        return -1
    dist, par = _search(state, data, seat, buf, pos)
    best_sp = -1
    best_d = 1 << 30
    for sp in range(data[O_RULES + R_NSPOT]):
        if state[SPOT + sp] == 0 or state[SPOT_OUT + sp]:
            continue
        r = data[O_SPOT_RES + sp]
        if state[pb + P_CARRIED + r] >= _reserved(state, data, seat, r):
            continue
        sec = data[O_SPOT_SEC + sp]
        if sec != pos and state[ROMAN + sec]:
            continue
        d = 0 if sec == pos else dist[sec]
        if d < best_d:
            best_d = d
            best_sp = sp
    if best_sp < 0:
        return -1
    if best_d > state[MP]:
        return _bread_for(state, data, seat, buf, n, best_d)
    sec = data[O_SPOT_SEC + best_sp]
    if sec == pos:
        return A_SPOT + best_sp if _listed(buf, n, A_SPOT + best_sp) else -1
    if state[MP] == 0:
        return -1
    return _first_step(state, data, buf, n, pos, sec, par)


@leaf
def crystal_value(state, data, seat):
    """VP one more crystal delivered is worth to the seat at the end: the spell track's value
    at the box it reaches once every crystal now on the map or carried is delivered (crystals
    score at the final box), plus its destiny's and its quests' VP per crystal (the data's
    spell_vp, crystal_spell_steps, spell end, crystal_vp_each and crystal_vp_plus)."""
    q = qp(seat)
    in_play = 0
    for t in range(data[X_RULES + X_NTILES]):
        in_play += state[TCRYST + t]
    for p in range(state[NP]):
        in_play += state[qp(p) + QP_CRYST]
    end = data[X_RULES + X_SPELL_END]
    box = state[SPELL] + data[X_RULES + X_CRYSTAL_STEPS] * in_play
    if box > end:
        box = end
    v = data[X_SPELL_VP + box] + state[q + QP_CRYST_VP_PLUS]
    d = state[q + QP_DESTINY]
    if d >= 0:
        v += data[X_DESTINY_CRYSTAL_VP + d]
    return v


@leaf
def _droppable(state, data, seat):
    """The carried resource worth least (Celtic Trader's token value from here) among those
    no held quest keeps, or -1."""
    pb = PLAYERS + seat * PW
    pos = state[pb + P_POS]
    best = -1
    best_v = 1e18
    for r in range(N_RES):
        if state[pb + P_CARRIED + r] <= _reserved(state, data, seat, r):
            continue
        v = trader_greedy._token_value(state, data, seat, pos, r, state[pb + P_MOVE])
        if v < best_v:
            best_v = v
            best = r
    return best


@leaf
def _make_room_for_crystal(state, data, seat, buf, n):
    """On a tile holding a crystal with no room to carry it: discard the carried resource
    worth least, if the crystal is worth more (:func:`crystal_value` against Celtic Trader's
    token value); -1 otherwise."""
    pb = PLAYERS + seat * PW
    pos = state[pb + P_POS]
    t = data[O_SEC_TILE + pos]
    if state[TCRYST + t] <= 0 or state[ENCH + t] == 0:
        return -1
    x_max, _ = capacity(state, data, seat)
    if state[pb + P_NCARRY] < x_max:
        return -1
    r = _droppable(state, data, seat)
    if r < 0:
        return -1
    v = trader_greedy._token_value(state, data, seat, pos, r, state[pb + P_MOVE])
    if crystal_value(state, data, seat) <= v or not _listed(buf, n, A_DISCARD + r):
        return -1
    return A_DISCARD + r


@leaf
def _crystal_goal(state, data, seat, params, buf, n):
    """A move toward the crystal worth most, if it beats Celtic Trader's best goal; -1 else.

    A crystal's worth is :func:`crystal_value` discounted like Celtic Trader's deliveries, by
    the turns before it scores: to reach its tile, then to carry it to the Stone Circle. With
    no room, a carried resource no quest keeps will make room on arrival. A crystal on the
    seat's own tile is picked up by :func:`planned_move` before this is asked. A bread is
    eaten first when it brings a crystal worth more within this turn's reach."""
    pb = PLAYERS + seat * PW
    pos = state[pb + P_POS]
    mp = state[MP]
    if state[MOVE_ENDED] or mp == 0:
        return -1
    if trader_greedy._plan_valid(state, seat, buf[MAX_ACTIONS : MAX_ACTIONS + PLAN_LEN]):
        return -1  # on the way along this turn's plan, chosen over the crystals when made
    x_max, _ = capacity(state, data, seat)
    if state[pb + P_NCARRY] >= x_max and _droppable(state, data, seat) < 0:
        return -1
    value = crystal_value(state, data, seat)
    if value <= 0:
        return -1
    dist, par = _search(state, data, seat, buf, pos)
    move = move_points(state, data, seat)
    sc = data[O_RULES + R_SC]
    reach = _bread_reach(state, data, seat, buf, n)
    best = -1
    best_score = 0.0
    best_fed = 0.0  # the best crystal that a bread brings within this turn's reach
    for t in range(data[X_RULES + X_NTILES]):
        if state[TCRYST + t] <= 0 or state[ENCH + t] == 0:
            continue
        for j in range(data[X_TILE_NSEC + t]):
            sec = data[X_TILE_SECS + t * MAX_TSEC + j]
            if rep(state, data, sec) != sec or sec == pos or state[ROMAN + sec]:
                continue
            d = dist[sec]
            if d >= FAR:
                continue
            there = trader_greedy._turns(d, mp, move)
            home = (_dist(data, sec, sc) + move - 1) // move
            score = value / (1.0 + there + home)
            if score > best_score:
                best_score = score
                best = sec
            if mp < d <= mp + reach:
                fed = value / (1.0 + home)
                if fed > best_fed:
                    best_fed = fed
    if best < 0 and best_fed <= 0.0:
        return -1
    _, _, goal = trader_greedy._best_goal(  # (the scratch holds the search from pos)
        state, data, seat, pos, mp, 0, state[pb + P_NCARRY], params, buf, False
    )
    if best_fed > goal and best_fed > best_score:
        return A_BREAD
    if best < 0 or best_score <= goal:
        return -1
    return _first_step(state, data, buf, n, pos, best, par)


@leaf
def _quest_ready_held(state, data, seat):
    """The seat holds a quest it can complete now (it carries the quest's pair)."""
    q = qp(seat)
    for i in range(MAX_HELD):
        quest = state[q + QP_HELD + i]
        if quest >= 0 and quest_ready(state, data, seat, quest):
            return True
    return False


@leaf
def _second_crystal(state, data, seat, buf, n):
    """Carrying k crystals home (and no quest to complete): a move toward another crystal
    when the k + 1 crystals delivered after that detour are worth more than the k delivered
    on the way home now, each :func:`crystal_value` discounted by the turns before it scores
    (as :func:`_crystal_goal`: to the crystal's tile, then on to the Stone Circle); -1
    otherwise. With no room, the crystal must be worth more than a carried resource no quest
    keeps (:func:`_make_room_for_crystal` drops it there)."""
    q = qp(seat)
    k = state[q + QP_CRYST]
    if k == 0 or state[MOVE_ENDED] or state[MP] == 0 or _quest_ready_held(state, data, seat):
        return -1
    pb = PLAYERS + seat * PW
    pos = state[pb + P_POS]
    x_max, _ = capacity(state, data, seat)
    if state[pb + P_NCARRY] >= x_max and _droppable(state, data, seat) < 0:
        return -1
    value = crystal_value(state, data, seat)
    if value <= 0:
        return -1
    dist, par = _search(state, data, seat, buf, pos)
    sc = data[O_RULES + R_SC]
    mp = state[MP]
    move = move_points(state, data, seat)
    d_home = dist[sc] if dist[sc] < FAR else _dist(data, pos, sc) + move
    best_score = k * value / (1.0 + trader_greedy._turns(d_home, mp, move))
    best = -1
    for t in range(data[X_RULES + X_NTILES]):
        if state[TCRYST + t] <= 0 or state[ENCH + t] == 0:
            continue
        for j in range(data[X_TILE_NSEC + t]):
            sec = data[X_TILE_SECS + t * MAX_TSEC + j]
            if rep(state, data, sec) != sec or sec == pos or state[ROMAN + sec]:
                continue
            d = dist[sec]
            if d >= FAR:
                continue
            there = trader_greedy._turns(d, mp, move)
            left = mp - d if d <= mp else 0
            home = trader_greedy._turns(_dist(data, sec, sc), left, move)
            score = (k + 1) * value / (1.0 + there + home)
            if score > best_score:
                best_score = score
                best = sec
    if best < 0:
        return -1
    return _first_step(state, data, buf, n, pos, best, par)


@leaf
def planned_move(state, data, seat, params, rng, buf):
    """The movement action the bot plans, before any legality check (tests check that it is
    always legal: the plans are made on the map as it is now)."""
    if state[ACTS] > MAX_TURN_ACTIONS:
        return A_PASS  # a safety net: free (0 MP) moves never loop
    # listed once for the checks up to Celtic Trader's greedy (searches keep to the scratch)
    n = legal_actions(state, data, buf)
    if _listed(buf, n, A_CRYSTAL):
        return _with_elixir(state, data, seat, buf, A_CRYSTAL)
    a = _make_room_for_crystal(state, data, seat, buf, n)
    if a >= 0:
        return a
    if _heading_home(state, data, seat):
        a = _second_crystal(state, data, seat, buf, n)
        if a >= 0:
            return a
        a = _go_home(state, data, seat, buf, n)
        if a >= 0:
            return a
    else:
        a = _fetch_for_quest(state, data, seat, buf, n)
        if a >= 0:
            return _with_elixir(state, data, seat, buf, a)
        a = _crystal_goal(state, data, seat, params, buf, n)
        if a >= 0:
            return a
    a = _bread_for_plan(state, data, seat, params, buf, n)
    if a >= 0:
        return a
    a = trader_greedy.greedy_action(state, data, seat, params, rng, buf)
    return _with_elixir(state, data, seat, buf, _pass_roman(state, data, buf, a))


@leaf
def _pass_roman(state, data, buf, a):
    """A planned step onto a Roman would end the whole turn there (no pick-up, no delivery):
    take it passing the Roman with a Shield-type quest (free) or else a gold, when legal."""
    if a < A_SEC or a >= A_SEC + MAX_SEC or state[ROMAN + a - A_SEC] == 0:
        return a
    v = a - A_SEC
    n = legal_actions(state, data, buf)
    if _listed(buf, n, A_SHIELD + v):
        return A_SHIELD + v
    if _listed(buf, n, A_GOLD + v):
        return A_GOLD + v
    return a


@leaf
def _move(state, data, seat, params, rng, buf):
    a = planned_move(state, data, seat, params, rng, buf)
    if _is_legal(state, data, buf, a):
        return a
    return A_PASS


@leaf
def _nearest_tile(state, data, seat, buf, n):
    """Among the A_TILE actions buf[:n], the tile nearest the seat (static road distance)."""
    pos = state[PLAYERS + seat * PW + P_POS]
    if pos < 0:
        pos = data[O_RULES + R_SC]
    best = buf[0]
    best_d = 1 << 30
    for i in range(n):
        sec = data[X_TILE_SECS + (buf[i] - A_TILE) * MAX_TSEC]
        d = _dist(data, pos, sec)
        if d < best_d:
            best_d = d
            best = buf[i]
    return best


@leaf
def _return_choice(state):
    """The drawn token least wanted: a Roman, Romanisation, orders, the cycle, then others."""
    best = 0
    best_p = -1
    for i in range(state[N_PENDING]):
        k = state[PENDING + i]
        p = 0
        if k == T_ROMAN:
            p = 5
        elif k == T_ROMANISE:
            p = 4
        elif k == T_ORDERS:
            p = 3
        elif k == T_CYCLE:
            p = 2
        if p > best_p:
            best_p = p
            best = i
    return best


@leaf
def _public_vp(state, data, p):
    """VP of seat ``p`` that every player sees: claimed, completed quests' printed VP, and
    crystals delivered at the spell track's value now (destinies stay hidden)."""
    q = qp(p)
    return (
        state[PLAYERS + p * PW + P_VP]
        + state[q + QP_QUEST_VP]
        + state[q + QP_CRYST_DONE] * data[X_SPELL_VP + state[SPELL]]
    )


@leaf
def _public_leader(state, data, seat):
    """The other seat furthest ahead by :func:`_public_vp`, if ahead of the seat; else -1."""
    best = -1
    best_v = _public_vp(state, data, seat)
    for p in range(state[NP]):
        if p != seat and _public_vp(state, data, p) > best_v:
            best_v = _public_vp(state, data, p)
            best = p
    return best


@leaf
def _raven_target(state, data, seat, params, buf, sec):
    """(where the Roman on ``sec`` goes, the seat's best-goal score once it is there): a
    Roman spot far from the seat or one near the seat leading by :func:`_public_leader`
    (the latter on a tie), whichever leaves Celtic Trader's best goal of the coming
    movement worth more; a spot that would complete a conquest is never chosen; (-1, -1.0)
    if none is left."""
    leader = _public_leader(state, data, seat)
    best_to = -1
    best_s = -1.0
    for c in range(2):
        if c == 0:
            to = trader_greedy._roman_spot_choice(state, data, seat, sec, True)
        elif leader >= 0:
            to = trader_greedy._roman_spot_choice(state, data, leader, sec, False)
        else:
            continue
        if to < 0 or trader_greedy._completes_conquest(state, data, to):
            continue
        state[ROMAN + sec] = 0  # (the Roman moved, in place; put back below)
        state[ROMAN + to] = 1
        score = _best_goal_now(state, data, seat, params, buf)
        state[ROMAN + to] = 0
        state[ROMAN + sec] = 1
        if score > best_s or (c == 1 and score == best_s):
            best_s = score
            best_to = to
    return best_to, best_s


@leaf
def _best_goal_now(state, data, seat, params, buf):
    """Celtic Trader's best-goal score of the seat's coming movement (its full move points)
    from where it stands, on the map as it is now."""
    pos = state[PLAYERS + seat * PW + P_POS]
    move = move_points(state, data, seat)
    ncarry = state[PLAYERS + seat * PW + P_NCARRY]
    _, _, score = trader_greedy._best_goal(
        state, data, seat, pos, move, 0, ncarry, params, buf, True
    )
    return score


@leaf
def _raven_choice(state, data, seat, params, buf):
    """Before its movement, a Raven-type quest may move one Roman: the Roman whose move
    (:func:`_raven_target`) raises the value of Celtic Trader's best goal most (a Roman on
    its route or its goal); if none does, the Roman whose move next to the seat leading by
    :func:`_public_leader` takes most sections from that seat's next movement
    (:func:`_leader_reach`) without lowering its own goal; A_PASS if neither."""
    now = _best_goal_now(state, data, seat, params, buf)
    best = A_PASS
    best_gain = 0.0
    for sec in range(data[O_RULES + R_NSEC]):
        if state[ROMAN + sec] == 0:
            continue
        to, score = _raven_target(state, data, seat, params, buf, sec)
        if to >= 0 and score - now > best_gain:
            best_gain = score - now
            best = A_SEC + sec
    if best != A_PASS:
        return best
    leader = _public_leader(state, data, seat)
    if leader < 0:
        return A_PASS
    reach = _leader_reach(state, data, leader, buf)
    for sec in range(data[O_RULES + R_NSEC]):
        if state[ROMAN + sec] == 0:
            continue
        to, score = _raven_target(state, data, seat, params, buf, sec)
        near = trader_greedy._roman_spot_choice(state, data, leader, sec, False)
        if to < 0 or to != near or score < now:
            continue
        state[ROMAN + sec] = 0  # (in place; put back below)
        state[ROMAN + to] = 1
        r = _leader_reach(state, data, leader, buf)
        state[ROMAN + to] = 0
        state[ROMAN + sec] = 1
        if reach - r > best_gain:
            best_gain = reach - r
            best = A_SEC + sec
    return best


@leaf
def _leader_reach(state, data, leader, buf):
    """Sections the leading seat reaches in its next movement (its move points, Romans
    reached but never crossed): what a Roman near it takes away (public information)."""
    pos = state[PLAYERS + leader * PW + P_POS]
    if pos < 0:
        return 0
    trader_greedy.search_from(state, data, leader, pos, buf)
    move = move_points(state, data, leader)
    k = 0
    for sec in range(data[O_RULES + R_NSEC]):
        if buf[trader_greedy.SC_DIST + sec] <= move:
            k += 1
    return k


@leaf
def _rounds_left(state, data):
    """Rounds the game looks to have left: each end (the spell track's end box, the supply,
    every bastion Romanised) at the pace it has moved so far in the rounds played; the
    nearest. FAR before a round is over or while nothing has moved."""
    played = state[TURNS] / state[NP]
    if played < 1.0:
        return float(FAR)
    left = float(FAR)
    paces = (
        (float(state[SPELL]), float(data[X_RULES + X_SPELL_END] - state[SPELL])),
        (float(data[O_RULES + R_SUPPLY] - state[SUPPLY]), float(state[SUPPLY])),
        (float(state[N_CONQ]), float(N_BAST - state[N_CONQ])),
    )
    for done, rest in paces:
        if done > 0.0 and rest * played / done < left:
            left = rest * played / done
    return left


@leaf
def _quest_rounds(state, data, seat, quest):
    """Rounds the seat needs to complete ``quest`` from where it stands: out to the farthest
    token it still lacks (the nearest of each type on the map, road distances; a type with
    no token out waits a round for a draw) and back to the Stone Circle, at its move
    points; FAR if a type has no spot left (:func:`quest_possible`)."""
    if not quest_possible(state, data, seat, quest):
        return FAR
    pb = PLAYERS + seat * PW
    pos = state[pb + P_POS]
    sc = data[O_RULES + R_SC]
    if pos < 0:
        pos = sc
    move = move_points(state, data, seat)
    r1 = data[X_QUEST_NEED + quest * 2]
    r2 = data[X_QUEST_NEED + quest * 2 + 1]
    trip = _dist(data, pos, sc)
    wait = 0
    for j in range(2):
        r = r1 if j == 0 else r2
        need = 2 if r1 == r2 else 1
        if state[pb + P_CARRIED + r] >= need:
            continue
        best = FAR
        for sp in range(data[O_RULES + R_NSPOT]):
            if data[O_SPOT_RES + sp] != r or state[SPOT + sp] == 0 or state[SPOT_OUT + sp]:
                continue
            sec = data[O_SPOT_SEC + sp]
            d = _dist(data, pos, sec) + _dist(data, sec, sc)
            if d < best:
                best = d
        if best >= FAR:
            wait = 1
        elif best > trip:
            trip = best
    return wait + (trip + move - 1) // move


@leaf
def _draw_quest_choice(state, data, seat):
    """A_YES when a drawn quest is more likely than not one the seat completes in time: over
    the quest cards no seat has completed and the seat does not hold (the pile's order is
    hidden), the share whose :func:`_quest_rounds` fit in :func:`_rounds_left`; else
    A_PASS."""
    left = _rounds_left(state, data)
    q = qp(seat)
    done = 0
    for p in range(state[NP]):
        done |= state[qp(p) + QP_DONE_MASK]
    n = 0
    ok = 0
    for quest in range(data[X_RULES + X_N_QUESTS]):
        if (done >> quest) & 1:
            continue
        held = False
        for i in range(MAX_HELD):
            if state[q + QP_HELD + i] == quest:
                held = True
        if held:
            continue
        n += 1
        if _quest_rounds(state, data, seat, quest) <= left:
            ok += 1
    return A_YES if 2 * ok > n else A_PASS


@leaf
def _quest_phase(state, data, seat, params, buf):
    ph = state[PHASE]
    q = qp(seat)
    if ph == PH_DESTINY:
        a0 = state[q + QP_ALT0]
        a1 = state[q + QP_ALT0 + 1]
        v0 = _destiny_value(state, data, a0)
        return A_DESTINY + (1 if _destiny_value(state, data, a1) > v0 else 0)
    if ph == PH_RETURN:
        return A_ORDER + _return_choice(state)
    if ph == PH_ENCHANT or ph == PH_CRYSTAL_SPOT:  # noqa: SIM109
        n = legal_actions(state, data, buf)
        return _nearest_tile(state, data, seat, buf, n)
    if ph == PH_ITEM_DROP:
        drawn = state[ITEM_DRAWN]
        best = drawn
        most = state[q + QP_ITEMS + drawn] + 1
        for i in range(N_ITEMS):
            if state[q + QP_ITEMS + i] > most:
                most = state[q + QP_ITEMS + i]
                best = i
        return A_ITEM + best
    if ph == PH_RAVEN:
        return _raven_choice(state, data, seat, params, buf)
    if ph == PH_GOLD_RELOC:
        pos = state[PLAYERS + seat * PW + P_POS]
        if state[NEXT] == NX_ENTER and pos != state[GOLD_ROMAN]:  # the Raven's Roman
            to, _ = _raven_target(state, data, seat, params, buf, state[GOLD_ROMAN])
            return A_PASS if to < 0 else A_ROMAN + to
        sec = trader_greedy._roman_spot_choice(state, data, seat, state[GOLD_ROMAN], True)
        if sec < 0 or trader_greedy._completes_conquest(state, data, sec):
            return A_PASS
        return A_ROMAN + sec
    if ph == PH_QUEST_DONE or ph == PH_QUEST_DISCARD:  # noqa: SIM109
        for i in range(MAX_HELD):
            quest = state[q + QP_HELD + i]
            if quest < 0:
                continue
            if ph == PH_QUEST_DONE and quest_ready(state, data, seat, quest):
                return A_QUEST + i
            if ph == PH_QUEST_DISCARD and not quest_possible(state, data, seat, quest):
                return A_QUEST + i
        return A_PASS
    if ph == PH_QUEST_DRAW:
        return _draw_quest_choice(state, data, seat)
    if ph == PH_CRYSTALS:
        n = legal_actions(state, data, buf)
        return buf[n - 1]  # every crystal carried
    return A_PASS


@leaf
def _start(state, data, seat, params, buf):
    """The start section with the best first goal (Celtic Trader's goal search)."""
    n = legal_actions(state, data, buf)
    best = buf[0]
    best_score = -1e18
    move = data[trader_greedy.O_MOVE_VAL + state[PLAYERS + seat * PW + trader_greedy.P_MOVE]]
    for i in range(n):
        a = buf[i]
        if a >= A_SEC + MAX_SEC:
            continue  # (a start passing a Roman with a gold: the plain sections suffice)
        sec = a - A_SEC
        if state[trader_greedy.ROMAN + sec]:
            score = -1e9
        else:
            _, _, score = trader_greedy._best_goal(
                state, data, seat, sec, move, 0, 0, params, buf, True
            )
        if score > best_score:
            best_score = score
            best = a
    return best


@leaf
def greedy_action(state, data, seat, params, rng, buf):
    """The Celtic Quest greedy bot's action (``buf``: int32, state.BUF_LEN)."""
    ph = state[PHASE]
    if ph > PH_TURN_END:
        return _quest_phase(state, data, seat, params, buf)
    if ph == PH_MOVE:
        return _move(state, data, seat, params, rng, buf)
    if ph == PH_START:
        return _start(state, data, seat, params, buf)
    q = qp(seat)
    if ph == PH_CLAIM:
        d = state[q + QP_DESTINY]
        if d >= 0 and data[X_DESTINY_RP_VP + d] > 0:
            return A_PASS
    if ph == PH_DELIVER:
        return _deliver(state, data, seat, buf)
    a = trader_greedy.greedy_action(state, data, seat, params, rng, buf)
    return _legal_or_first(state, data, buf, a)


@leaf
def _deliver(state, data, seat, buf):
    """Deliver every token of a type not kept for a quest, spending the rings worth most now
    (``_rings_to_use``)."""
    pb = PLAYERS + seat * PW
    for r in range(N_RES):
        k = min(state[pb + P_CARRIED + r] - _reserved(state, data, seat, r), MAX_DELIVER)
        if k > 0 and (state[DELIVERED] >> r) & 1 == 0:
            a = A_DELIVER + r * MAX_DELIVER + k - 1
            j = _rings_to_use(state, data, seat, buf, a)
            if j > 0:
                return ring_action(a - A_DELIVER, j)
            return a
    return A_PASS


@leaf
def _rings_to_use(state, data, seat, buf, a):
    """How many rings to spend on delivery ``a`` (0: none), by the bot's estimate of a ring:
    ``ring_rp`` (the data's bonus) on this delivery now, against ``ring_rp`` times the share of
    the spell track still ahead if kept for a later delivery (the game may end first). Every
    legal count j (1..min(k, rings held), the rules' limit) is weighed:
    ``j * now + (held - j) * later``."""
    held = state[qp(seat) + QP_ITEMS + I_RING]
    if held == 0:
        return 0
    n = legal_actions(state, data, buf)
    now = float(data[X_RULES + X_RING_RP])
    end = data[X_RULES + X_SPELL_END]
    later = now * (end - state[SPELL]) / (end + 1.0)
    best = 0
    best_v = held * later
    for j in range(1, held + 1):
        if not _listed(buf, n, ring_action(a - A_DELIVER, j)):
            break
        v = j * now + (held - j) * later
        if v > best_v:
            best_v = v
            best = j
    return best


def greedy_defaults() -> np.ndarray:
    return trader_greedy.greedy_defaults()
