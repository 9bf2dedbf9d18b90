"""Celtic Quest greedy bot: its crystals: what one more crystal is worth, room made for
one, a move toward the best crystal and the detour for a second one on the way home.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.layout import (
    A_BREAD,
    ENCH,
    MAX_TSEC,
    QP_CRYST,
    QP_CRYST_VP_PLUS,
    QP_DESTINY,
    SPELL,
    TCRYST,
    X_CRYSTAL_STEPS,
    X_DESTINY_CRYSTAL_VP,
    X_NTILES,
    X_RULES,
    X_SPELL_END,
    X_SPELL_VP,
    X_TILE_NSEC,
    X_TILE_SECS,
)
from sim.games.celtic_quest.queries import move_points, qp
from sim.games.celtic_quest.quests import completable
from sim.games.celtic_quest.tiles import rep
from sim.games.celtic_trader.board import capacity
from sim.games.celtic_trader.params import FAR, N_RES, O_RULES, O_SEC_TILE, R_SC
from sim.games.celtic_trader.state import (
    A_DISCARD,
    MAX_ACTIONS,
    MOVE_ENDED,
    MP,
    NP,
    P_CARRIED,
    P_MOVE,
    P_NCARRY,
    P_POS,
    PLAN_LEN,
    PLAYERS,
    PW,
    ROMAN,
)
from strategies.celtic_quest.greedy_items import _bread_reach
from strategies.celtic_quest.greedy_quests import _reserved
from strategies.celtic_quest.greedy_routes import _dist, _first_step, _listed, _search
from strategies.celtic_trader import greedy as trader_greedy


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
def _crystal_site(state, data, t, j, pos, dist):
    """Section ``j`` of the crystal tile ``t`` as a place to fetch its crystal from, or -1:
    a position of the map now, not the seat's own, without a Roman, reachable (``dist``)."""
    sec = data[X_TILE_SECS + t * MAX_TSEC + j]
    if rep(state, data, sec) != sec or sec == pos or state[ROMAN + sec] or dist[sec] >= FAR:
        return -1
    return sec


@leaf(inline="always")
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
            sec = _crystal_site(state, data, t, j, pos, dist)
            if sec < 0:
                continue
            d = dist[sec]
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


@leaf(inline="always")
def _second_crystal(state, data, seat, buf, n):
    """Carrying k crystals home (and no quest to complete): a move toward another crystal
    when the k + 1 crystals delivered after that detour are worth more than the k delivered
    on the way home now, each :func:`crystal_value` discounted by the turns before it scores
    (as :func:`_crystal_goal`: to the crystal's tile, then on to the Stone Circle); -1
    otherwise. With no room, the crystal must be worth more than a carried resource no quest
    keeps (:func:`_make_room_for_crystal` drops it there)."""
    q = qp(seat)
    k = state[q + QP_CRYST]
    if k == 0 or state[MOVE_ENDED] or state[MP] == 0 or completable(state, data, seat):
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
            sec = _crystal_site(state, data, t, j, pos, dist)
            if sec < 0:
                continue
            d = dist[sec]
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
