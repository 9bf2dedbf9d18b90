"""Celtae greedy bot: the small decisions inside an action: bonus tokens, discards, recruits and
workers kept, and where a progress pawn goes.
"""

from sim.core.kernel import leaf
from sim.games.celtae.params import (
    G_CARD_FORCE_CAP,
    G_DISCS,
    G_MAX_RECRUITS,
    G_MIN_PAY,
    G_TRIBE_CAP,
    N_LEADER_FEATURES,
    T_DISC_COST,
    T_DRUID_REQ,
    T_PC_MIN,
)
from sim.games.celtae.rules_scoring import progress_count, progress_met_seats
from sim.games.celtae.rules_shared import active_of, pile_top, strength
from sim.games.celtae.scratch import stack_float64, stack_int64
from sim.games.celtae.state import (
    A_CARD,
    A_STOP,
    A_WORKER,
    BUILDER,
    DISC_ARG,
    DISC_MODE,
    DM_ANY,
    DM_COLOUR,
    DM_ICON,
    DRUID,
    EXTRA,
    FARMER,
    K_BUILD,
    K_COMBAT,
    K_CULTIVATE,
    KIND,
    MAX_PLAYERS,
    N_ICONS,
    NOBLE,
    NP,
    P_DISCS,
    P_HAND,
    P_TRIBE,
    P_TRIBE_N,
    PH_RECRUIT,
    PHASE,
    RECRUITED,
    REGION,
    SOLDIER,
)
from strategies.celtae.greedy_actions import charge_plan, fight_plan
from strategies.celtae.greedy_leader import leader_units
from strategies.celtae.greedy_values import card_worth
from strategies.celtae.greedy_weights import NEG, _pb


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
