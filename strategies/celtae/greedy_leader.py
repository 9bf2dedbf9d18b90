"""Celtae greedy bot: the leader (issue 35): each side's estimated cost in turns of work, its value,
the units a move brings toward it, the flip to side B and the draft preference.
"""

import numpy as np

from sim.core.kernel import leaf
from sim.games.celtae.params import (
    F_ARMY1,
    F_ARMY2,
    F_BONUS_TILES,
    F_CUBES_PLACED,
    F_DISCS_NORTH,
    F_DISCS_PLACED,
    F_DISCS_SOUTH,
    F_DRUID1,
    F_DRUID2,
    F_TRIBE_EXCL_DRUIDS,
    G_ARMY_ONES,
    G_CARD_FORCE_CAP,
    G_DRUID_ONES,
    G_FLIP_AT,
    G_LEADER_A_PTS,
    G_LEADER_B_PTS,
    G_MAX_RECRUITS,
    N_LEADER_FEATURES,
    T_ARMY_POINTS,
    T_ARMY_STRENGTH,
    T_DRUID_POINTS,
    T_DRUID_REQ,
    T_LEADER_MIN,
)
from sim.games.celtae.rules_scoring import leader_feature
from sim.games.celtae.rules_shared import pile_left, strength
from sim.games.celtae.scratch import stack_float64, stack_int64
from sim.games.celtae.state import (
    CIT_CAP,
    CIT_FILLED,
    N_COLOURS,
    NOBLE,
    P_FORCE,
    P_LEADER,
    P_SIDE,
    PH_FLIP,
    PHASE,
    PILE_POS,
    SIDE_A,
    SIDE_B,
    SOLDIER,
    TRACK,
)
from strategies.celtae.greedy_weights import W_LEADER, W_ODDS, _pb

INFEASIBLE = 1e6  # turns of work: a leader side the piles can no longer complete
# The draft preference, most wins first, measured with greedy on randomly dealt leaders over
# 20,000 games at each of 2, 3 and 4 players: boadicee, cartimandua, vercingetorix, caratacos,
# diviciacos, ambiorix, avaros, viriate (win rates 0.40 down to 0.27).
DRAFT_ORDER = np.array([7, 6, 4, 5, 2, 3, 1, 0], np.int64)


@leaf
def leader_gap(s, data, seat, side, feats):
    """Units missing to meet the leader's side (0 = met)."""
    leader = s[_pb(seat) + P_LEADER]
    if leader < 0:
        return 0
    gap = 0
    for f in range(N_LEADER_FEATURES):
        miss = data.tab[T_LEADER_MIN + ((leader) * 2 + side) * N_LEADER_FEATURES + f] - feats[f]
        if miss > 0:
            gap += miss
    return gap


@leaf
def side_b_open(s, data, seat):
    """Whether side B can still score for ``seat``: flipped already, or the flip is still ahead
    (or being decided now)."""
    if s[_pb(seat) + P_SIDE] == SIDE_B:
        return True
    at = data.rules[G_FLIP_AT]
    if at <= 0:
        return False
    return s[TRACK] > at or (s[TRACK] == at and s[PHASE] == PH_FLIP)


ARMY_TILES = T_ARMY_POINTS - T_ARMY_STRENGTH  # entries of the army tables
DRUID_TILES = (T_DRUID_POINTS - T_DRUID_REQ) // 4  # entries of the druid tables
N_CITADELS = 2 * N_COLOURS  # one per colour and region


@leaf
def tiles_in_reach(s, first_pile, ones_per_pile, miss1, miss2):
    """For ``miss1`` 1-point and ``miss2`` 2-point tiles wanted from the two piles starting at
    ``first_pile`` (each dealt ``ones_per_pile`` 1-point tiles on top of its 2-point ones, so
    the make-up of what is left is public): the number of 1-point tiles to take beyond
    ``miss1`` to uncover a 2-point one (the fewest over a pile), or -1 if the piles no longer
    hold the tiles wanted."""
    ones = 0
    twos = 0
    above = 1 << 20
    for r in range(2):
        left = pile_left(s, first_pile + r)
        o = min(left, max(0, ones_per_pile - s[PILE_POS + first_pile + r]))
        ones += o
        twos += left - o
        if left > o and o < above:
            above = o
    if miss1 > ones or miss2 > twos:
        return -1
    return max(0, above - miss1) if miss2 > 0 else 0


@leaf
def side_cost(s, data, seat, side, feats):
    """Estimated turns of work still missing for the leader's ``side``: a Build per disc; a
    Recruit per ``1 + nobles`` tribe workers; for bonus tiles the Builds that fill the citadels
    closest to complete; for army tiles (and garrison cubes, each after a won fight) at least
    the force still to raise (the mean strength of each missing tile by
    its points, and of the 1-point tiles still lying above the 2-point ones, read from the data,
    minus the force held) at a move of 1 and one card a turn; for druid tiles the Recruit plus
    the mean workers its tiles show, by points, at the workers a Recruit takes. ``INFEASIBLE``
    when the piles no longer hold the tiles."""
    b = _pb(seat)
    leader = s[b + P_LEADER]
    mins = T_LEADER_MIN + (leader * 2 + side) * N_LEADER_FEATURES
    cost = 0.0
    miss = stack_int64(N_LEADER_FEATURES)
    for f in range(N_LEADER_FEATURES):
        miss[f] = max(0, data.tab[mins + f] - feats[f])
    for f in (F_DISCS_NORTH, F_DISCS_SOUTH, F_DISCS_PLACED):
        cost += miss[f]  # one Build each
    if miss[F_TRIBE_EXCL_DRUIDS] > 0:  # a Recruit takes 1 + nobles workers
        per_turn = min(data.rules[G_MAX_RECRUITS], 1 + strength(s, seat, NOBLE))
        cost += miss[F_TRIBE_EXCL_DRUIDS] / per_turn
    if miss[F_BONUS_TILES] > 0:  # the Builds that complete the emptiest-to-fill citadels
        room = stack_int64(N_CITADELS)
        for c in range(N_CITADELS):
            room[c] = s[CIT_CAP + c] - s[CIT_FILLED + c]
            if room[c] <= 0:
                room[c] = 1 << 20
        for _ in range(miss[F_BONUS_TILES]):
            j = 0
            for c in range(1, N_CITADELS):
                if room[c] < room[j]:
                    j = c
            if room[j] >= 1 << 20:
                return INFEASIBLE
            cost += room[j]
            room[j] = 1 << 20
    cubes = miss[F_CUBES_PLACED]  # each cube follows a won fight: counted as a 1-point army
    if miss[F_ARMY1] + miss[F_ARMY2] + cubes > 0:
        want1 = miss[F_ARMY1] + cubes
        extra = tiles_in_reach(s, 0, data.rules[G_ARMY_ONES], miss[F_ARMY1], miss[F_ARMY2])
        if extra < 0 or want1 + miss[F_ARMY2] > pile_left(s, 0) + pile_left(s, 1):
            return INFEASIBLE
        extra = max(0, extra - cubes)
        mean = stack_float64(3)  # mean strength by points (1, 2)
        count = stack_float64(3)
        for k in range(3):
            mean[k] = 0.0
            count[k] = 0.0
        for t in range(ARMY_TILES):
            k = data.tab[T_ARMY_POINTS + t]
            if 0 < k < 3:
                mean[k] += data.tab[T_ARMY_STRENGTH + t]
                count[k] += 1.0
        for k in range(1, 3):
            mean[k] /= max(1.0, count[k])
        force = miss[F_ARMY2] * mean[2] + (want1 + extra) * mean[1] - s[b + P_FORCE]
        rate = 1.0 + min(strength(s, seat, SOLDIER), data.rules[G_CARD_FORCE_CAP])
        cost += max(float(want1 + miss[F_ARMY2] + extra), force / rate)
    if miss[F_DRUID1] + miss[F_DRUID2] > 0:
        extra = tiles_in_reach(s, 2, data.rules[G_DRUID_ONES], miss[F_DRUID1], miss[F_DRUID2])
        if extra < 0:
            return INFEASIBLE
        per_turn = min(data.rules[G_MAX_RECRUITS], 1 + strength(s, seat, NOBLE))
        workers = stack_float64(3)  # mean workers shown by points (1, 2)
        count = stack_float64(3)
        for k in range(3):
            workers[k] = 0.0
            count[k] = 0.0
        for t in range(DRUID_TILES):
            k = data.tab[T_DRUID_POINTS + t]
            if 0 < k < 3:
                for w_type in range(4):
                    workers[k] += data.tab[T_DRUID_REQ + t * 4 + w_type]
                count[k] += 1.0
        for k in range(1, 3):
            turns = 1.0 + workers[k] / max(1.0, count[k]) / per_turn
            cost += miss[F_DRUID1 if k == 1 else F_DRUID2] * turns
    return cost


@leaf
def condition_features(s, data, seat, leader, feats):
    """``feats[f]`` = :func:`leader_feature` for the features ``leader``'s condition names (either
    side), 0 for the others (whose minimum is 0): only what the condition reads is counted."""
    mins = T_LEADER_MIN + leader * 2 * N_LEADER_FEATURES
    for f in range(N_LEADER_FEATURES):
        feats[f] = 0
        if data.tab[mins + f] > 0 or data.tab[mins + N_LEADER_FEATURES + f] > 0:
            feats[f] = leader_feature(s, data, seat, f)


@leaf
def side_values(s, data, seat, w, feats):
    """(side A's, side B's) estimated leader points: a side's points discounted by ``flip_odds``
    per turn of work still missing (:func:`side_cost`); 0 for a side that can no longer score."""
    b = _pb(seat)
    odds = w[W_ODDS]
    va = 0.0
    vb = 0.0
    if s[b + P_SIDE] != SIDE_B:
        va = data.rules[G_LEADER_A_PTS] * odds ** side_cost(s, data, seat, SIDE_A, feats)
    if side_b_open(s, data, seat):
        vb = data.rules[G_LEADER_B_PTS] * odds ** side_cost(s, data, seat, SIDE_B, feats)
    return va, vb


@leaf
def leader_units(s, data, seat, w, out):
    """``out[f]`` = points-equivalent of one more unit of leader feature ``f`` toward the side
    the bot aims at (the higher of :func:`side_values`): that side's points (``leaders.points_a``
    / ``points_b``, times ``leader_weight``) shared over the units it still misses; side B
    counts only what it adds over a side A already met. 0 for a feature that side does not need
    (any more)."""
    for f in range(N_LEADER_FEATURES):
        out[f] = 0.0
    b = _pb(seat)
    leader = s[b + P_LEADER]
    if leader < 0:
        return
    feats = stack_int64(N_LEADER_FEATURES)
    condition_features(s, data, seat, leader, feats)
    va, vb = side_values(s, data, seat, w, feats)
    side = SIDE_B if vb > va else SIDE_A
    gap = leader_gap(s, data, seat, side, feats)
    if gap == 0 or max(va, vb) <= 0.0:
        return
    pts = float(data.rules[G_LEADER_B_PTS] if side == SIDE_B else data.rules[G_LEADER_A_PTS])
    if side == SIDE_B and s[b + P_SIDE] != SIDE_B and leader_gap(s, data, seat, SIDE_A, feats) == 0:
        pts -= data.rules[G_LEADER_A_PTS]  # flipping gives up the side A already met
    mins = T_LEADER_MIN + (leader * 2 + side) * N_LEADER_FEATURES
    for f in range(N_LEADER_FEATURES):
        if feats[f] < data.tab[mins + f]:
            out[f] = w[W_LEADER] * pts / gap


@leaf
def flip_to_b(s, data, seat, w):
    """Side B pays when its estimated points (:func:`side_values`) beat side A's."""
    feats = stack_int64(N_LEADER_FEATURES)
    condition_features(s, data, seat, s[_pb(seat) + P_LEADER], feats)
    va, vb = side_values(s, data, seat, w, feats)
    return vb > va
