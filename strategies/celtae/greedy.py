"""Celtae greedy bot (code 1): a turn planner with closed-form action estimates.

At the move the bot estimates, for every reachable action (the spaces adjacent to each
position it can reach, and any space through a bonus token), what the action would bring in
points-equivalents, and moves toward the best; the choice step picks that action again, and the
small decisions inside an action follow the same values:

- a card is worth ``card_value``, more when its colour can still build and its icon fits an
  empty garrison slot; a point of force is worth ``force_value``;
- Build: the disc slot's point icon, the citadel's completion (bonus tile plus the discs that
  start scoring), the citadel bonus, progress cards on that colour or region, the leader's
  condition, minus the cards paid;
- Combat: the army tile's points and a garrison cube (if a matching card and a free slot exist),
  minus the cards and force spent; only fights it can afford this turn;
- Recruit: tribe point icons and stronger future actions per worker, plus a druid tile when the
  tribe holds its workers;
- Cultivate: the cards it can take with its farmers.

The leader matters: ``leader_weight`` is added to every step toward the leader's condition, and
the bot flips to side B at 3 pawns left when it already meets B or is at most ``flip_margin``
units short of it. Progress pawns go to the card the bot meets with the largest lead, or
away from cards its rivals meet. The bot reads only its own hand and the public board.
"""

import numpy as np

from sim.core.kernel import leaf
from sim.core.params import Param, ParamSet
from sim.core.registry import BotDecl
from sim.games.celtae.params import (
    F_ARMY1,
    F_ARMY2,
    F_CUBES_PLACED,
    F_DISCS_NORTH,
    F_DISCS_PLACED,
    F_DISCS_SOUTH,
    F_DRUID1,
    F_DRUID2,
    F_TRIBE_EXCL_DRUIDS,
    G_CARD_FORCE_CAP,
    G_DISCS,
    G_DRUID_CARD_COST,
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
    leader_features,
    progress_count,
    progress_met,
    progress_met_seats,
)
from sim.games.celtae.rules_shared import (
    active_of,
    cards_of_colour,
    cards_of_icon,
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
    PLAYERS,
    PW,
    RECRUITED,
    REGION,
    SLOTS,
    SOLDIER,
    SPACE,
    SPACES,
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
            "leader_weight", "float", 0.8, "value of a step toward the leader's condition", 0, 10
        ),
        Param(
            "flip_margin", "float", 1.0, "units short of side B it still flips at", low=0, high=20
        ),
    )
)
W_CARD, W_FORCE, W_TOKEN, W_WORKER, W_CUBE, W_LEADER, W_FLIP = range(7)
GREEDY_DECL = BotDecl(
    "greedy",
    1,
    "turn planner: closed-form estimates of each reachable action, leader-aware, flips to B when "
    "close to its condition",
    GREEDY_PARAMS,
)
NEG = -1e9
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
def leader_wants(s, data, seat, feature):
    """1 if one more unit of ``feature`` brings the leader closer to its current side's goal."""
    leader = s[_pb(seat) + P_LEADER]
    if leader < 0:
        return 0.0
    have = leader_feature(s, data, seat, feature)
    for side in range(2):
        if have < data.tab[T_LEADER_MIN + ((leader) * 2 + side) * N_LEADER_FEATURES + feature]:
            return 1.0
    return 0.0


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
def build_lead(s, data, seat, region, w):
    """The leader's part of :func:`build_value` (it does not depend on the colour)."""
    feat = F_DISCS_NORTH if region == 0 else F_DISCS_SOUTH
    return w[W_LEADER] * max(
        leader_wants(s, data, seat, feat), leader_wants(s, data, seat, F_DISCS_PLACED)
    )


@leaf
def build_value(s, data, seat, region, colour, builders, w, bonuses, lead):
    """Value of building on ``colour`` in ``region`` now, with ``builders``; NEG if impossible.
    ``bonuses`` from :func:`progress_bonuses`, ``lead`` from :func:`build_lead`."""
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
        v += 1.0 + s[CIT_DISCS + cit * MAX_PLAYERS + seat] + 0.6
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
def best_build(s, data, seat, region, builders, w, bonuses):
    lead = build_lead(s, data, seat, region, w)
    best = NEG
    for c in range(N_COLOURS):
        v = build_value(s, data, seat, region, c, builders, w, bonuses, lead)
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
def combat_value(s, data, seat, region, soldiers, w):
    top = pile_top(s, region)
    if top < 0:
        return 0.0
    cards, icon = fight_plan(s, data, seat, region, soldiers)
    if cards < 0:
        return 0.05
    b = _pb(seat)
    pts = data.tab[T_ARMY_POINTS + top]
    v = float(pts)
    feat = F_ARMY1 if pts == 1 else F_ARMY2
    v += w[W_LEADER] * leader_wants(s, data, seat, feat)
    v -= cards * w[W_CARD] + data.tab[T_ARMY_STRENGTH + top] * w[W_FORCE]
    if s[b + P_CUBES] > 0 and s[b + P_HAND_N] > cards:
        for k in range(GARRISON_SLOTS):
            g = region * GARRISON_SLOTS + k
            if s[GARRISON + g] == -1 and cards_of_icon(s, seat, data.tab[T_GARRISON_ICON + g]) > 0:
                v += w[W_CUBE] + w[W_LEADER] * leader_wants(s, data, seat, F_CUBES_PLACED)
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
def recruit_value(s, data, seat, region, nobles, w):
    b = _pb(seat)
    r = min(data.rules[G_MAX_RECRUITS], 1 + nobles)
    tribe = s[b + P_TRIBE_N]
    cap = data.rules[G_TRIBE_CAP]
    v = 0.0
    tribe_lead = w[W_LEADER] * leader_wants(s, data, seat, F_TRIBE_EXCL_DRUIDS) * 0.5
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
        feat = F_DRUID1 if pts == 1 else F_DRUID2
        v += w[W_LEADER] * leader_wants(s, data, seat, feat)
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
def action_value(s, data, seat, kind, region, w, bonuses):
    """Estimated value of performing ``kind`` in ``region`` this turn (swap and tokens counted);
    ``bonuses`` from :func:`progress_bonuses` (read by Build only)."""
    space = space_of(kind, region)
    t = FARMER if kind == K_CULTIVATE else BUILDER if kind == K_BUILD else SOLDIER
    if kind == K_RECRUIT:
        t = NOBLE
    bonus = swap_gain(s, seat, space, t) + usable_tokens(s, seat)
    if kind == K_CULTIVATE:
        return cultivate_value(s, data, seat, region, strength(s, seat, FARMER) + bonus, w)
    if kind == K_BUILD:
        return best_build(s, data, seat, region, strength(s, seat, BUILDER) + bonus, w, bonuses)
    if kind == K_COMBAT:
        return combat_value(s, data, seat, region, strength(s, seat, SOLDIER) + bonus, w)
    return recruit_value(s, data, seat, region, strength(s, seat, NOBLE) + bonus, w)


@leaf
def action_values(s, data, seat, w, out):
    """``out[kind * 2 + region]`` = :func:`action_value`; it does not depend on the pawn, so a
    move decision computes the 8 values once for all the positions it can reach."""
    bonuses = stack_float64(PB_LEN)
    progress_bonuses(s, data, seat, bonuses)
    for kind in range(4):
        for region in range(2):
            out[kind * 2 + region] = action_value(s, data, seat, kind, region, w, bonuses)


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
        values = stack_float64(8)
        action_values(s, data, seat, w, values)
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
                v = best_at(data, pos, values) + data.tab[T_FORCE_DELTA + d - 1] * w[W_FORCE]
            if v > best_v:
                best_v = v
                best = a
        return best
    if ph == PH_CHOOSE:
        bonuses = stack_float64(PB_LEN)
        have_bonuses = False
        for k in range(n):
            a = buf[k]
            code = a - A_CHOOSE
            token = code // 8
            kind = (code % 8) // 2
            region = code % 2
            if kind == K_BUILD and not have_bonuses:
                progress_bonuses(s, data, seat, bonuses)
                have_bonuses = True
            v = action_value(s, data, seat, kind, region, w, bonuses) - token * w[W_TOKEN]
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
        lead = build_lead(s, data, seat, s[REGION], w)
        for k in range(n):
            if buf[k] == A_STOP:
                continue
            colour = buf[k] - A_BUILD
            v = build_value(s, data, seat, s[REGION], colour, builders, w, bonuses, lead)
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
        feats = stack_int64(N_LEADER_FEATURES)
        leader_features(s, data, seat, feats)
        gap = leader_gap(s, data, seat, 1, feats)
        return A_SIDE_B if gap <= w[W_FLIP] else A_SIDE_A
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
    if mode == DM_ICON:  # combat: discard only what the fight needs
        soldiers = strength(s, seat, SOLDIER) + s[EXTRA]
        cards, icon = fight_plan(s, data, seat, s[REGION], soldiers)
        if cards <= 0:
            return A_STOP
        if s[DISC_ARG] >= 0:
            icon = s[DISC_ARG]
    best = buf[0]
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
