"""Celtae greedy bot: the worth of what an action brings: a card, the market, a point of force
(toward a region's top army) and the progress cards' bonuses.
"""

from sim.core.kernel import leaf
from sim.games.celtae.params import (
    F_ARMY1,
    F_ARMY2,
    G_ARMY_ONES,
    PF_DISCS_COLOUR,
    PF_DISCS_REGION,
    T_ARMY_POINTS,
    T_ARMY_STRENGTH,
    T_PC_ARG,
    T_PC_FEATURE,
)
from sim.games.celtae.rules_scoring import progress_met
from sim.games.celtae.rules_shared import pile_left, pile_top
from sim.games.celtae.state import (
    CIT_CAP,
    CIT_FILLED,
    GARRISON,
    GARRISON_SLOTS,
    MARKET,
    MARKET_SIZE,
    MAX_PCARDS,
    N_COLOURS,
    N_ICONS,
    P_CUBES,
    P_FORCE,
    PCARD,
    PCARD_PAWNS,
    PILE_POS,
    REGION,
)
from strategies.celtae.greedy_weights import W_CARD, W_FORCE, _pb


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
