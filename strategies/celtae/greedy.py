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

The bot lives in one module per decision family; this one holds its declaration and the policy
(which decision is asked, and the choice for each):

- greedy_weights: the tunable parameters and their indices;
- greedy_leader: the leader sides' costs and values, the flip to B, the draft preference;
- greedy_values: the worth of a card, the market, force and the progress cards' bonuses;
- greedy_actions: the estimates of Build, Combat, Recruit, Cultivate and a swap;
- greedy_choices: the small decisions inside an action (tokens, discards, recruits, pawns).
"""

from sim.core.kernel import leaf
from sim.core.registry import BotDecl
from sim.games.celtae.params import (
    G_DRUID_CARD_COST,
    N_LEADER_FEATURES,
    T_FORCE_DELTA,
    T_GARRISON_ICON,
)
from sim.games.celtae.rules_options import legal_actions
from sim.games.celtae.rules_shared import active_of, strength
from sim.games.celtae.scratch import stack_float64
from sim.games.celtae.state import (
    A_BUILD,
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
    BUILDER,
    CENTRE,
    DRUID,
    EXTRA,
    GARRISON_SLOTS,
    K_BUILD,
    KIND,
    MARKET_SIZE,
    N_ICONS,
    N_POSITIONS,
    NOBLE,
    OFFER,
    P_ACTIVE,
    P_HAND_N,
    P_TRIBE,
    PAWN,
    PCARD,
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
    REGION,
    SLOTS,
    SPACE,
    SPACES,
)
from strategies.celtae.greedy_actions import (
    action_value,
    action_values,
    best_at,
    build_lead,
    build_value,
)
from strategies.celtae.greedy_choices import (
    _discard_choice,
    _pawn_value,
    _recruit_choice,
    _relevant,
    _token_helps,
    _worker_keep,
    _worker_need,
)
from strategies.celtae.greedy_leader import DRAFT_ORDER, flip_to_b, leader_units
from strategies.celtae.greedy_values import (
    PB_LEN,
    card_worth,
    force_worth,
    market_worth,
    progress_bonuses,
)
from strategies.celtae.greedy_weights import GREEDY_PARAMS, NEG, W_CUBE, W_TOKEN, _pb

GREEDY_DECL = BotDecl(
    "greedy",
    1,
    "turn planner: closed-form estimates of each reachable action, pursues its leader's condition "
    "at the points the data gives it, flips to B when B's estimated points are higher",
    GREEDY_PARAMS,
)


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
