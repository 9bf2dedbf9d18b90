"""Celtae greedy bot: closed-form estimates of the four actions (Build, Combat, Recruit,
Cultivate) and of a swap, at every reachable position, and the best one from a position.
"""

from sim.core.kernel import leaf
from sim.games.celtae.params import (
    F_BONUS_TILES,
    F_CUBES_PLACED,
    F_DISCS_NORTH,
    F_DISCS_PLACED,
    F_DISCS_SOUTH,
    F_DRUID1,
    F_DRUID2,
    F_TRIBE_EXCL_DRUIDS,
    G_CARD_FORCE_CAP,
    G_COMPLETION_PTS,
    G_DISCS,
    G_MAX_RECRUITS,
    G_MIN_PAY,
    G_TRIBE_CAP,
    T_ADJACENT,
    T_ARMY_STRENGTH,
    T_DISC_COST,
    T_DISC_PTS,
    T_DRUID_POINTS,
    T_DRUID_REQ,
    T_GARRISON_ICON,
    T_POSITION_REGION,
    T_TRIBE_PTS,
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
from sim.games.celtae.scratch import stack_float64
from sim.games.celtae.state import (
    ACTIVE,
    B_CARDS,
    B_FORCE,
    B_RECRUIT,
    B_TOKEN,
    BUILDER,
    CIT_BONUS,
    CIT_CAP,
    CIT_DISCS,
    CIT_FILLED,
    FARMER,
    GARRISON,
    GARRISON_SLOTS,
    K_BUILD,
    K_COMBAT,
    K_CULTIVATE,
    K_RECRUIT,
    MAX_PLAYERS,
    N_COLOURS,
    N_ICONS,
    NOBLE,
    P_ACTIVE,
    P_CUBES,
    P_DISCS,
    P_FORCE,
    P_HAND_N,
    P_TRIBE,
    P_TRIBE_N,
    SLOTS,
    SOLDIER,
    SPACES,
)
from strategies.celtae.greedy_values import (
    PB_LEN,
    PB_REGION,
    army_worth,
    force_worth,
    progress_bonuses,
)
from strategies.celtae.greedy_weights import NEG, W_CARD, W_CUBE, W_FORCE, W_TOKEN, W_WORKER, _pb


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
