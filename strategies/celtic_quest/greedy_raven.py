"""Celtic Quest greedy bot: the Roman moved by a Raven-type quest (to open its route or
hem in the seat leading in public VP) and where a Roman moved by the Raven or passed with
a gold goes.
"""

from sim.core.kernel import leaf
from sim.games.celtic_quest.layout import (
    A_ROMAN,
    GOLD_ROMAN,
    NEXT,
    NX_ENTER,
    QP_CRYST_DONE,
    QP_QUEST_VP,
    SPELL,
    X_SPELL_VP,
)
from sim.games.celtic_quest.queries import move_points, qp
from sim.games.celtic_trader.params import O_RULES, R_NSEC
from sim.games.celtic_trader.state import (
    A_PASS,
    A_SEC,
    NP,
    P_NCARRY,
    P_POS,
    P_VP,
    PLAYERS,
    PW,
    ROMAN,
)
from strategies.celtic_trader import greedy as trader_greedy


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


@leaf(inline="always")
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


@leaf(inline="always")
def _roman_relocation(state, data, seat, params, buf):
    """Where the Roman moved by a Raven-type quest (:func:`_raven_target`) or passed with a
    gold (Celtic Trader's Roman spot choice, never one completing a conquest) goes; A_PASS if
    none."""
    pos = state[PLAYERS + seat * PW + P_POS]
    if state[NEXT] == NX_ENTER and pos != state[GOLD_ROMAN]:  # the Raven's Roman
        to, _ = _raven_target(state, data, seat, params, buf, state[GOLD_ROMAN])
        return A_PASS if to < 0 else A_ROMAN + to
    sec = trader_greedy._roman_spot_choice(state, data, seat, state[GOLD_ROMAN], True)
    if sec < 0 or trader_greedy._completes_conquest(state, data, sec):
        return A_PASS
    return A_ROMAN + sec
