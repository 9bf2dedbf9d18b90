"""Celtae greedy bot (code 1): a turn planner with closed-form action estimates.

At the move the bot estimates, for every reachable action (the spaces adjacent to each
position it can reach, and any space through a bonus token), what the action would bring in
points-equivalents, and moves toward the best; the choice step picks that action again, and the
small decisions inside an action follow the same values:

- a card is worth ``card_value``, more when its colour can still build and its icon fits an
  empty garrison slot; a point of force is worth ``force_value``, or, while the bot's force is
  short of a region's top army, that army's worth per point of its strength (so it stores force
  toward a fight: moves of 1, and charges);
- Build: the disc slot's point icon, the citadel's completion (``citadel_completion_points``
  plus the discs that start scoring), the citadel bonus, progress cards on that colour or region,
  the leader's condition, minus the cards paid;
- Combat: a fight it can afford this turn (the army tile's points, the leader's condition, a
  2-point tile it uncovers, a garrison cube if a matching card and a free slot exist, minus the
  cards and force spent), else a charge: cards of one icon discarded for force toward the top
  army while their force is worth more than the cards;
- Recruit: tribe point icons and stronger future actions per worker, plus a druid tile when the
  tribe holds its workers;
- Cultivate: the cards it can take with its farmers.

The leader (issue 35): the bot aims at the side whose points (``leaders.points_a`` /
``points_b`` in the data), discounted by ``flip_odds`` per estimated turn of work still missing
(:func:`side_cost`, from the leader's condition in the data, the army strengths, the druid
tiles' workers and the citadels' free slots), are higher; each unit toward that side is worth
its points times ``leader_weight`` over the units missing. At 3 pawns left it flips to B when B's
estimate is higher. Progress pawns go to the card the bot meets with the largest lead, or away
from cards its rivals meet. The bot reads only its own hand and the public board.
"""

import numpy as np

from sim.core.kernel import leaf
from sim.core.params import Param, ParamSet
from sim.core.registry import BotDecl
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
    G_COMPLETION_PTS,
    G_DISCS,
    G_DRUID_CARD_COST,
    G_DRUID_ONES,
    G_FLIP_AT,
    G_LEADER_A_PTS,
    G_LEADER_B_PTS,
    G_MAX_RECRUITS,
    G_MIN_PAY,
    G_TRIBE_CAP,
    N_LEADER_FEATURES,
    PF_DISCS_COLOUR,
    PF_DISCS_REGION,
    T_ADJACENT,
    T_ARMY_POINTS,
    T_ARMY_STRENGTH,
    T_DISC_COST,
    T_DISC_PTS,
    T_DRUID_POINTS,
    T_DRUID_REQ,
    T_FORCE_DELTA,
    T_GARRISON_ICON,
    T_LEADER_MIN,
    T_PC_ARG,
    T_PC_FEATURE,
    T_PC_MIN,
    T_POSITION_REGION,
    T_TRIBE_PTS,
)
from sim.games.celtae.rules_options import legal_actions
from sim.games.celtae.rules_scoring import (
    leader_feature,
    progress_count,
    progress_met,
    progress_met_seats,
)
from sim.games.celtae.rules_shared import (
    active_of,
    cards_of_colour,
    cards_of_icon,
    pile_left,
    pile_top,
    space_of,
    strength,
    usable_tokens,
)
from sim.games.celtae.scratch import stack_float64, stack_int64
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
    A_SIDE_A,
    A_SIDE_B,
    A_STOP,
    A_SWAP,
    A_TAKE2,
    A_WORKER,
    A_YES,
    ACTIVE,
    B_CARDS,
    B_FORCE,
    B_RECRUIT,
    B_TOKEN,
    BUILDER,
    CENTRE,
    CIT_BONUS,
    CIT_CAP,
    CIT_DISCS,
    CIT_FILLED,
    DISC_ARG,
    DISC_MODE,
    DM_ANY,
    DM_COLOUR,
    DM_ICON,
    DRUID,
    EXTRA,
    FARMER,
    GARRISON,
    GARRISON_SLOTS,
    K_BUILD,
    K_COMBAT,
    K_CULTIVATE,
    K_RECRUIT,
    KIND,
    MARKET,
    MARKET_SIZE,
    MAX_PCARDS,
    MAX_PLAYERS,
    N_COLOURS,
    N_ICONS,
    N_POSITIONS,
    NOBLE,
    NP,
    OFFER,
    P_ACTIVE,
    P_CUBES,
    P_DISCS,
    P_FORCE,
    P_HAND,
    P_HAND_N,
    P_LEADER,
    P_SIDE,
    P_TRIBE,
    P_TRIBE_N,
    PAWN,
    PCARD,
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
    PILE_POS,
    PLAYERS,
    PW,
    RECRUITED,
    REGION,
    SIDE_A,
    SIDE_B,
    SLOTS,
    SOLDIER,
    SPACE,
    SPACES,
    TRACK,
)

GREEDY_PARAMS = ParamSet(
    (
        Param("card_value", "float", 0.4, "points-equivalent of a card in hand", low=0, high=10),
        Param(
            "force_value", "float", 0.15, "points-equivalent of a point of force", low=0, high=10
        ),
        Param("token_value", "float", 0.5, "points-equivalent of a bonus token", low=0, high=10),
        Param("worker_value", "float", 0.35, "value of a tribe worker beyond its icon", 0, 10),
        Param("cube_value", "float", 1.0, "value of a garrison cube on the board", low=0, high=10),
        Param(
            "leader_weight",
            "float",
            1.5,
            "share of the leader's points (from the data) credited to each missing unit closed",
            0,
            10,
        ),
        Param(
            "flip_odds",
            "float",
            0.6,
            "estimated chance of doing each turn of work a leader side still misses before the end",
            low=0,
            high=1,
        ),
    )
)
W_CARD, W_FORCE, W_TOKEN, W_WORKER, W_CUBE, W_LEADER, W_ODDS = range(7)
GREEDY_DECL = BotDecl(
    "greedy",
    1,
    "turn planner: closed-form estimates of each reachable action, pursues its leader's condition "
    "at the points the data gives it, flips to B when B's estimated points are higher",
    GREEDY_PARAMS,
)
NEG = -1e9
INFEASIBLE = 1e6  # turns of work: a leader side the piles can no longer complete
# The draft preference, most wins first, measured with greedy on randomly dealt leaders over
# 20,000 games at each of 2, 3 and 4 players: boadicee, cartimandua, vercingetorix, caratacos,
# diviciacos, ambiorix, avaros, viriate (win rates 0.40 down to 0.27).
DRAFT_ORDER = np.array([7, 6, 4, 5, 2, 3, 1, 0], np.int64)


@leaf(inline="always")
def _pb(seat):
    return PLAYERS + seat * PW


# ---------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------


@leaf
def card_worth(s, seat, card, w):
    """A card's value: base, plus use for building (colour) and garrisons (icon)."""
    colour = card // N_ICONS
    icon = card % N_ICONS
    v = w[W_CARD]
    free = 0
    for r in range(2):
        cit = r * N_COLOURS + colour
        free += s[CIT_CAP + cit] - s[CIT_FILLED + cit]
    if free > 0:
        v += 0.15
    if s[_pb(seat) + P_CUBES] > 0:
        for g in range(2 * GARRISON_SLOTS):
            if s[GARRISON + g] == -1 and (g % GARRISON_SLOTS) % N_ICONS == icon:
                v += 0.05
                break
    return v


@leaf
def market_worth(s, seat, w, worth):
    """``worth[i]`` = :func:`card_worth` of the card in slot ``i`` of the acting region's market
    (0 for an empty slot): once per decision instead of once per option that takes it."""
    base = MARKET + s[REGION] * MARKET_SIZE
    for i in range(MARKET_SIZE):
        card = s[base + i]
        worth[i] = card_worth(s, seat, card, w) if card >= 0 else 0.0


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


@leaf
def army_worth(s, data, region, units):
    """Points-equivalent of the top army of ``region``'s pile: its points, the leader unit of its
    kind, and, for a 1-point tile with 2-point tiles below it (the pile's make-up is public: its
    1-point tiles lie on top), a share of the leader unit of the 2-point kind it opens the way to.
    0 for an empty pile."""
    top = pile_top(s, region)
    if top < 0:
        return 0.0
    pts = data.tab[T_ARMY_POINTS + top]
    v = float(pts)
    if pts == 1:
        v += units[F_ARMY1]
        ones_left = max(1, data.rules[G_ARMY_ONES] - s[PILE_POS + region])
        if pile_left(s, region) > ones_left:
            v += units[F_ARMY2] / ones_left
    else:
        v += units[F_ARMY2]
    return v


@leaf
def force_worth(s, data, seat, region, w, units):
    """Points-equivalent of a point of force: ``force_value``, or what the top army of
    ``region`` (both regions when ``region`` < 0) is worth per point of its strength while the
    seat's force is short of it."""
    fw = w[W_FORCE]
    for r in range(2):
        if region >= 0 and r != region:
            continue
        top = pile_top(s, r)
        if top < 0 or s[_pb(seat) + P_FORCE] >= data.tab[T_ARMY_STRENGTH + top]:
            continue
        ratio = army_worth(s, data, r, units) / data.tab[T_ARMY_STRENGTH + top]
        if ratio > fw:
            fw = ratio
    return fw


PB_REGION = N_COLOURS  # progress_bonuses: colours 0..4, then the two regions
PB_LEN = N_COLOURS + 2


@leaf
def progress_bonuses(s, data, seat, out):
    """Pawns on laid-out cards counting discs of a colour (``out[colour]``) or of a region
    (``out[PB_REGION + region]``), more while ``seat`` does not meet the card: one pass over the
    cards for every colour and region (each card's condition is checked once)."""
    for k in range(PB_LEN):
        out[k] = 0.0
    for j in range(MAX_PCARDS):
        card = s[PCARD + j]
        if card < 0:
            continue
        feature = data.tab[T_PC_FEATURE + card]
        if feature == PF_DISCS_COLOUR:
            k = data.tab[T_PC_ARG + card]
        elif feature == PF_DISCS_REGION:
            k = PB_REGION + data.tab[T_PC_ARG + card]
        else:
            continue
        pawns = s[PCARD_PAWNS + j] + 1
        if not progress_met(s, data, seat, card):
            out[k] += 0.5 * pawns
        else:
            out[k] += 0.15 * pawns


@leaf
def build_lead(region, units):
    """The leader's part of :func:`build_value` (it does not depend on the colour): a disc in
    ``region`` and a disc placed."""
    feat = F_DISCS_NORTH if region == 0 else F_DISCS_SOUTH
    return units[feat] + units[F_DISCS_PLACED]


@leaf
def build_value(s, data, seat, region, colour, builders, w, bonuses, lead, units):
    """Value of building on ``colour`` in ``region`` now, with ``builders``; NEG if impossible.
    ``bonuses`` from :func:`progress_bonuses`, ``lead`` from :func:`build_lead`, ``units`` from
    :func:`leader_units` (completing the citadel gains a bonus tile)."""
    b = _pb(seat)
    cit = region * N_COLOURS + colour
    if s[CIT_FILLED + cit] >= s[CIT_CAP + cit] or s[b + P_DISCS] == 0:
        return NEG
    placed = data.rules[G_DISCS] - s[b + P_DISCS]
    pay = max(data.rules[G_MIN_PAY], data.tab[T_DISC_COST + placed] - builders)
    if cards_of_colour(s, seat, colour) < pay:
        return NEG
    v = 0.6 + data.tab[T_DISC_PTS + placed]
    if s[CIT_FILLED + cit] + 1 == s[CIT_CAP + cit]:
        v += data.rules[G_COMPLETION_PTS] + s[CIT_DISCS + cit * MAX_PLAYERS + seat] + 0.6
        v += units[F_BONUS_TILES]
    effect = s[CIT_BONUS + cit]
    if effect == B_TOKEN:
        v += w[W_TOKEN]
    elif effect == B_FORCE:
        v += 3 * w[W_FORCE]
    elif effect == B_CARDS:
        v += 2 * w[W_CARD]
    elif effect == B_RECRUIT:
        v += w[W_WORKER] + 0.2
    v += bonuses[colour]
    v += bonuses[PB_REGION + region]
    v += lead
    v -= pay * w[W_CARD]
    return v


@leaf
def best_build(s, data, seat, region, builders, w, bonuses, units):
    lead = build_lead(region, units)
    best = NEG
    for c in range(N_COLOURS):
        v = build_value(s, data, seat, region, c, builders, w, bonuses, lead, units)
        if v > best:
            best = v
    return best


@leaf
def fight_plan(s, data, seat, region, soldiers):
    """(cards to discard, icon) to defeat the region's top army this turn, (-1, -1) if not."""
    top = pile_top(s, region)
    if top < 0:
        return -1, -1
    need = data.tab[T_ARMY_STRENGTH + top] - s[_pb(seat) + P_FORCE]
    if need <= 0:
        return 0, -1
    per = min(soldiers, data.rules[G_CARD_FORCE_CAP])
    if per <= 0:
        return -1, -1
    cards = (need + per - 1) // per
    best_icon = -1
    best_have = 0
    for i in range(N_ICONS):
        have = cards_of_icon(s, seat, i)
        if have >= cards and have > best_have:
            best_have = have
            best_icon = i
    if best_icon < 0:
        return -1, -1
    return cards, best_icon


@leaf
def charge_plan(s, data, seat, region, soldiers, w, units):
    """(cards, icon) worth discarding for force toward the top army of ``region`` when it cannot
    be fought this turn: cards of the icon held most, up to the force still missing, while the
    force a card brings (``min(soldiers, force_per_card_cap)`` at :func:`force_worth`) is worth
    more than ``card_value``; (0, -1) if none is."""
    top = pile_top(s, region)
    if top < 0:
        return 0, -1
    per = min(soldiers, data.rules[G_CARD_FORCE_CAP])
    need = data.tab[T_ARMY_STRENGTH + top] - s[_pb(seat) + P_FORCE]
    if per <= 0 or need <= 0:
        return 0, -1
    if per * force_worth(s, data, seat, region, w, units) <= w[W_CARD]:
        return 0, -1
    best_icon = -1
    best_have = 0
    for i in range(N_ICONS):
        have = cards_of_icon(s, seat, i)
        if have > best_have:
            best_have = have
            best_icon = i
    return min(best_have, (need + per - 1) // per), best_icon


@leaf
def combat_value(s, data, seat, region, soldiers, w, units):
    """A fight this turn: the army (:func:`army_worth`) and a garrison cube, minus the cards and
    force spent; otherwise the force a charge (:func:`charge_plan`) stores for a later fight."""
    top = pile_top(s, region)
    if top < 0:
        return 0.0
    cards, icon = fight_plan(s, data, seat, region, soldiers)
    if cards < 0:
        k, icon = charge_plan(s, data, seat, region, soldiers, w, units)
        if k <= 0:
            return 0.05
        per = min(soldiers, data.rules[G_CARD_FORCE_CAP])
        return k * (per * force_worth(s, data, seat, region, w, units) - w[W_CARD])
    b = _pb(seat)
    v = army_worth(s, data, region, units)
    v -= cards * w[W_CARD] + data.tab[T_ARMY_STRENGTH + top] * w[W_FORCE]
    if s[b + P_CUBES] > 0 and s[b + P_HAND_N] > cards:
        for k in range(GARRISON_SLOTS):
            g = region * GARRISON_SLOTS + k
            if s[GARRISON + g] == -1 and cards_of_icon(s, seat, data.tab[T_GARRISON_ICON + g]) > 0:
                v += w[W_CUBE] + units[F_CUBES_PLACED]
                v -= w[W_CARD]
                break
    return v


@leaf
def druid_tile_ready(s, data, seat, region, recruits):
    """Whether the region's top druid tile could be paid after recruiting ``recruits``."""
    top = pile_top(s, 2 + region)
    if top < 0:
        return False
    b = _pb(seat)
    for t in range(4):
        if data.tab[T_DRUID_REQ + (top) * 4 + t] > s[b + P_TRIBE + t] + min(
            active_of(s, seat, t), recruits
        ):
            return False
    return True


@leaf
def recruit_value(s, data, seat, region, nobles, w, units):
    b = _pb(seat)
    r = min(data.rules[G_MAX_RECRUITS], 1 + nobles)
    tribe = s[b + P_TRIBE_N]
    cap = data.rules[G_TRIBE_CAP]
    v = 0.0
    tribe_lead = units[F_TRIBE_EXCL_DRUIDS]  # recruits are active workers, never druids
    for k in range(r):
        slot = tribe + k
        if slot < cap:
            v += data.tab[T_TRIBE_PTS + slot] + w[W_WORKER]
            v += tribe_lead
        else:
            v -= 0.2
    if druid_tile_ready(s, data, seat, region, r):
        top = pile_top(s, 2 + region)
        pts = data.tab[T_DRUID_POINTS + top]
        v += pts + 0.3
        v += units[F_DRUID1 if pts == 1 else F_DRUID2]
    return v


@leaf
def cultivate_value(s, data, seat, region, farmers, w):
    n1 = 3 if farmers >= 3 else farmers
    n2 = min(2, (farmers - n1) // 2)
    cards = 1 + n1 + n2
    v = cards * w[W_CARD]
    if s[_pb(seat) + P_HAND_N] >= 12:
        v *= 0.5
    return v


@leaf
def swap_gain(s, seat, space, t):
    """1 if a swap can bring a worker of type ``t`` from ``space`` into the active workers."""
    has_other = False
    for i in range(ACTIVE):
        a = s[_pb(seat) + P_ACTIVE + i]
        if a >= 0 and a != t:
            has_other = True
    if not has_other:
        return 0
    for j in range(SLOTS):
        if s[SPACES + space * SLOTS + j] == t:
            return 1
    return 0


@leaf
def action_value(s, data, seat, kind, region, w, bonuses, units):
    """Estimated value of performing ``kind`` in ``region`` this turn (swap and tokens counted);
    ``bonuses`` from :func:`progress_bonuses` (read by Build only), ``units`` from
    :func:`leader_units`."""
    space = space_of(kind, region)
    t = FARMER if kind == K_CULTIVATE else BUILDER if kind == K_BUILD else SOLDIER
    if kind == K_RECRUIT:
        t = NOBLE
    bonus = swap_gain(s, seat, space, t) + usable_tokens(s, seat)
    if kind == K_CULTIVATE:
        return cultivate_value(s, data, seat, region, strength(s, seat, FARMER) + bonus, w)
    if kind == K_BUILD:
        builders = strength(s, seat, BUILDER) + bonus
        return best_build(s, data, seat, region, builders, w, bonuses, units)
    if kind == K_COMBAT:
        return combat_value(s, data, seat, region, strength(s, seat, SOLDIER) + bonus, w, units)
    return recruit_value(s, data, seat, region, strength(s, seat, NOBLE) + bonus, w, units)


@leaf
def action_values(s, data, seat, w, units, out):
    """``out[kind * 2 + region]`` = :func:`action_value`; it does not depend on the pawn, so a
    move decision computes the 8 values once for all the positions it can reach."""
    bonuses = stack_float64(PB_LEN)
    progress_bonuses(s, data, seat, bonuses)
    for kind in range(4):
        for region in range(2):
            out[kind * 2 + region] = action_value(s, data, seat, kind, region, w, bonuses, units)


@leaf
def best_at(data, pos, values):
    """Best adjacent action value from position ``pos``, from :func:`action_values`."""
    region = data.tab[T_POSITION_REGION + pos]
    best = NEG
    for kind in range(4):
        space = space_of(kind, region)
        if data.tab[T_ADJACENT + (pos) * 4 + space] == 0:
            continue
        v = values[kind * 2 + region]
        if v > best:
            best = v
    return best


# ---------------------------------------------------------------------------------------------
# The policy
# ---------------------------------------------------------------------------------------------


@leaf
def greedy_action(s, data, seat, w, rng, buf):
    return greedy_listed(s, data, seat, w, rng, buf, legal_actions(s, data, buf))


@leaf
def greedy_listed(s, data, seat, w, rng, buf, n):
    """The policy, given the options ``buf[:n]`` already listed (rules_turn.step_listed)."""
    ph = s[PHASE]
    b = _pb(seat)
    best = buf[0]
    best_v = NEG
    if ph == PH_MOVE:
        units = stack_float64(N_LEADER_FEATURES)
        leader_units(s, data, seat, w, units)
        values = stack_float64(8)
        action_values(s, data, seat, w, units, values)
        fw = force_worth(s, data, seat, -1, w, units)
        for k in range(n):
            a = buf[k]
            d = a - A_MOVE
            if d == 0:
                v = -w[W_TOKEN]
                for j in range(8):
                    if values[j] - w[W_TOKEN] > v:
                        v = values[j] - w[W_TOKEN]
            else:
                pos = (s[PAWN] + d) % N_POSITIONS
                v = best_at(data, pos, values) + data.tab[T_FORCE_DELTA + d - 1] * fw
            if v > best_v:
                best_v = v
                best = a
        return best
    if ph == PH_CHOOSE:
        bonuses = stack_float64(PB_LEN)
        have_bonuses = False
        units = stack_float64(N_LEADER_FEATURES)
        leader_units(s, data, seat, w, units)
        for k in range(n):
            a = buf[k]
            code = a - A_CHOOSE
            token = code // 8
            kind = (code % 8) // 2
            region = code % 2
            if kind == K_BUILD and not have_bonuses:
                progress_bonuses(s, data, seat, bonuses)
                have_bonuses = True
            v = action_value(s, data, seat, kind, region, w, bonuses, units) - token * w[W_TOKEN]
            if v > best_v:
                best_v = v
                best = a
        return best
    if ph == PH_REFRESH:
        t = _relevant(s[KIND])
        space = s[SPACE]
        on_space = 0
        in_centre = 0
        for k in range(SLOTS):
            if s[SPACES + space * SLOTS + k] == t:
                on_space += 1
            if s[CENTRE + k] == t:
                in_centre += 1
        if on_space == 0 and in_centre > 0 and active_of(s, seat, t) < ACTIVE:
            return A_YES
        return A_NO
    if ph == PH_SWAP:
        t = _relevant(s[KIND])
        for k in range(n):
            a = buf[k]
            if a == A_NO:
                v = 0.0
            else:
                code = a - A_SWAP
                mine = s[b + P_ACTIVE + code // SLOTS]
                theirs = s[SPACES + s[SPACE] * SLOTS + code % SLOTS]
                v = (theirs == t) * 1.0 - (mine == t) * 1.0
                v += 0.1 * (theirs == NOBLE) - 0.1 * (mine == NOBLE)
            if v > best_v:
                best_v = v
                best = a
        return best
    if ph == PH_TOKEN:
        return A_YES if _token_helps(s, data, seat) else A_NO
    if ph == PH_CULT:
        worth = stack_float64(MARKET_SIZE)
        market_worth(s, seat, w, worth)
        for k in range(n):
            mask = buf[k] - A_CULT
            v = 0.0
            for j in range(5):
                if mask & (1 << j):
                    v += worth[1 + j] + 0.01
            if v > best_v:
                best_v = v
                best = buf[k]
        return best
    if ph == PH_BUILD:
        builders = strength(s, seat, BUILDER) + s[EXTRA]
        bonuses = stack_float64(PB_LEN)
        progress_bonuses(s, data, seat, bonuses)
        units = stack_float64(N_LEADER_FEATURES)
        leader_units(s, data, seat, w, units)
        lead = build_lead(s[REGION], units)
        for k in range(n):
            if buf[k] == A_STOP:
                continue
            colour = buf[k] - A_BUILD
            v = build_value(s, data, seat, s[REGION], colour, builders, w, bonuses, lead, units)
            if v > best_v:
                best_v = v
                best = buf[k]
        return best
    if ph == PH_DISCARD:
        return _discard_choice(s, data, seat, n, w, buf)
    if ph == PH_TAKE2:
        worth = stack_float64(MARKET_SIZE)
        market_worth(s, seat, w, worth)
        for k in range(n):
            code = buf[k] - A_TAKE2
            i = code // MARKET_SIZE
            j = code % MARKET_SIZE
            v = worth[i] + worth[j]
            if v > best_v:
                best_v = v
                best = buf[k]
        return best
    if ph == PH_FIGHT:
        return A_YES
    if ph == PH_GARRISON:
        for k in range(n):
            a = buf[k]
            if a == A_NO:
                v = w[W_CUBE] * 0.0
            else:
                code = a - A_GARR
                g = s[REGION] * GARRISON_SLOTS + code // 4
                card = (code % 4) * N_ICONS + data.tab[T_GARRISON_ICON + g]
                v = w[W_CUBE] - card_worth(s, seat, card, w) + 0.01
            if v > best_v:
                best_v = v
                best = a
        return best
    if ph in (PH_RECRUIT, PH_BRECRUIT):
        return _recruit_choice(s, data, seat, n, w, buf)
    if ph == PH_ORDER:
        return A_YES
    if ph == PH_DRUID:
        cost = (s[b + P_TRIBE + DRUID] + 1) * data.rules[G_DRUID_CARD_COST]
        return A_YES if cost <= 2 or s[b + P_HAND_N] - cost >= 3 else A_NO
    if ph == PH_REFILL:
        for k in range(n):
            t = buf[k] - A_WORKER
            v = _worker_need(s, data, seat, t)
            if v > best_v:
                best_v = v
                best = buf[k]
        return best
    if ph == PH_OVERFLOW:
        for k in range(n):
            t = buf[k] - A_WORKER
            v = -_worker_keep(s, seat, t)
            if v > best_v:
                best_v = v
                best = buf[k]
        return best
    if ph == PH_PAWN:
        for k in range(n):
            a = buf[k]
            if a == A_STOP:
                continue
            j = a - A_PAWN
            v = _pawn_value(s, data, seat, s[PCARD + j])
            if v > best_v:
                best_v = v
                best = a
        return best
    if ph == PH_FLIP:
        return A_SIDE_B if flip_to_b(s, data, seat, w) else A_SIDE_A
    if ph == PH_DRAFT:
        for k in range(8):
            if s[OFFER + DRAFT_ORDER[k]]:
                return A_LEADER + DRAFT_ORDER[k]
    return best


@leaf
def _relevant(kind):
    if kind == K_CULTIVATE:
        return FARMER
    if kind == K_BUILD:
        return BUILDER
    if kind == K_COMBAT:
        return SOLDIER
    return NOBLE


@leaf
def _token_helps(s, data, seat):
    kind = s[KIND]
    region = s[REGION]
    extra = s[EXTRA]
    if kind == K_CULTIVATE:
        return strength(s, seat, FARMER) + extra < 7
    if kind == K_BUILD:
        builders = strength(s, seat, BUILDER) + extra
        placed = data.rules[G_DISCS] - s[_pb(seat) + P_DISCS]
        if placed >= data.rules[G_DISCS]:
            return False
        return data.tab[T_DISC_COST + placed] - builders > data.rules[G_MIN_PAY]
    if kind == K_COMBAT:
        soldiers = strength(s, seat, SOLDIER) + extra
        if soldiers >= data.rules[G_CARD_FORCE_CAP]:
            return False
        now, _ = fight_plan(s, data, seat, region, soldiers)
        more, _ = fight_plan(s, data, seat, region, soldiers + 1)
        return more >= 0 and (now < 0 or more < now)
    nobles = strength(s, seat, NOBLE) + extra
    return 1 + nobles < data.rules[G_MAX_RECRUITS]


@leaf
def _discard_choice(s, data, seat, n, w, buf):
    """Which card to discard (or stop), by the discard's purpose."""
    mode = s[DISC_MODE]
    best = buf[0]
    if mode == DM_ICON:  # combat: discard what the fight needs, or a charge toward it
        soldiers = strength(s, seat, SOLDIER) + s[EXTRA]
        cards, icon = fight_plan(s, data, seat, s[REGION], soldiers)
        if cards < 0:
            units = stack_float64(N_LEADER_FEATURES)
            leader_units(s, data, seat, w, units)
            cards, icon = charge_plan(s, data, seat, s[REGION], soldiers, w, units)
        if cards <= 0:
            return A_STOP
        if s[DISC_ARG] >= 0:
            icon = s[DISC_ARG]
        best = A_STOP
    best_v = -NEG
    for k in range(n):
        a = buf[k]
        if a == A_STOP:
            continue
        card = a - A_CARD
        if mode == DM_ICON and card % N_ICONS != icon:
            continue
        v = card_worth(s, seat, card, w)
        if mode in (DM_COLOUR, DM_ANY):
            v -= 0.01 * s[_pb(seat) + P_HAND + card]  # keep a spread of icons
        if v < best_v:
            best_v = v
            best = a
    return best


@leaf
def _worker_need(s, data, seat, t):
    """How much the bot wants one more active worker of type ``t``."""
    if t == NOBLE:
        return 1.2 if strength(s, seat, NOBLE) < 2 else 0.4
    v = 1.0 - 0.3 * active_of(s, seat, t)
    if t == BUILDER:
        v += 0.2
    return v


@leaf
def _worker_keep(s, seat, t):
    if t == DRUID:
        return 3.0
    if t == NOBLE:
        return 2.0
    return 1.0 + 0.1 * s[_pb(seat) + P_TRIBE + t]


@leaf
def _recruit_choice(s, data, seat, n, w, buf):
    """Recruit workers a druid tile needs first, then the rest while the tribe has room."""
    b = _pb(seat)
    region = s[REGION]
    top = pile_top(s, 2 + region)
    if s[PHASE] == PH_RECRUIT and s[RECRUITED] > 0 and s[b + P_TRIBE_N] >= data.rules[G_TRIBE_CAP]:
        for k in range(n):
            if buf[k] == A_STOP:
                return A_STOP
    best = buf[0]
    best_v = NEG
    for k in range(n):
        a = buf[k]
        if a == A_STOP:
            v = -0.5
        else:
            t = a - A_WORKER
            v = 0.5
            if top >= 0 and t < 4 and data.tab[T_DRUID_REQ + (top) * 4 + t] > s[b + P_TRIBE + t]:
                v += 1.0
            if t == NOBLE:
                v += 0.3
        if v > best_v:
            best_v = v
            best = a
    return best


@leaf
def _pawn_value(s, data, seat, card):
    """Place a pawn where this seat meets the card and rivals do not."""
    met = stack_int64(MAX_PLAYERS)
    progress_met_seats(s, data, card, met)
    mine = 1.0 if met[seat] else 0.0
    others = 0.0
    for other in range(s[NP]):
        if other != seat and met[other]:
            others += 1.0
    near = 0.0
    if mine == 0.0:
        need = data.tab[T_PC_MIN + card]
        own = progress_count(s, data, seat, card)
        if need > 0 and own + 1 >= need:
            near = 0.4
    return mine + near - 0.5 * others
