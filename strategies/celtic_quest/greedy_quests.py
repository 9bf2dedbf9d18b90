"""Celtic Quest greedy bot: its quests: the tokens kept for them, the trips to fetch a
quest's token and home to the Stone Circle, the quests completed or discarded and
whether to draw one (the rounds a quest takes against the rounds left).
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.layout import (
    A_QUEST,
    A_YES,
    MAX_HELD,
    PH_QUEST_DISCARD,
    PH_QUEST_DONE,
    QP_CRYST,
    QP_DONE_MASK,
    QP_HELD,
    SPELL,
    SPOT_OUT,
    X_N_QUESTS,
    X_QUEST_NEED,
    X_RULES,
    X_SPELL_END,
)
from sim.games.celtic_quest.queries import move_points, qp, quest_possible, quest_ready
from sim.games.celtic_quest.quests import completable
from sim.games.celtic_trader.board import capacity
from sim.games.celtic_trader.params import (
    FAR,
    N_BAST,
    O_RULES,
    O_SPOT_RES,
    O_SPOT_SEC,
    R_NSPOT,
    R_SC,
    R_SUPPLY,
)
from sim.games.celtic_trader.state import (
    A_PASS,
    A_SPOT,
    MOVE_ENDED,
    MP,
    N_CONQ,
    NP,
    P_CARRIED,
    P_NCARRY,
    P_POS,
    PLAYERS,
    PW,
    ROMAN,
    SPOT,
    SUPPLY,
    TURNS,
)
from strategies.celtic_quest.greedy_items import _bread_for
from strategies.celtic_quest.greedy_routes import _dist, _first_step, _listed, _search


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
def _heading_home(state, data, seat):
    """The seat has a reason to go to the Stone Circle now: a quest it can complete there, or
    crystals to deliver."""
    return state[qp(seat) + QP_CRYST] > 0 or completable(state, data, seat)


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
def _quest_card_choice(state, data, seat, ph):
    """At PH_QUEST_DONE the first held quest the seat can complete, at PH_QUEST_DISCARD the
    first it no longer can (:func:`quest_possible`); A_PASS if none."""
    q = qp(seat)
    for i in range(MAX_HELD):
        quest = state[q + QP_HELD + i]
        if quest < 0:
            continue
        if ph == PH_QUEST_DONE and quest_ready(state, data, seat, quest):
            return A_QUEST + i
        if ph == PH_QUEST_DISCARD and not quest_possible(state, data, seat, quest):
            return A_QUEST + i
    return A_PASS


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
