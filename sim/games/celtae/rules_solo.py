"""Celtae rules, Solitairix's turn in the solo game (rules/celtae.md §4.12): A) draw a card and
move, B) rotate the solo tile, C) choose the action, D) swap or refresh, E) perform it and
discard the card. Solitairix makes no decision; the human places the pawns its crossings
trigger (rules_progress). The solo setup (§3.3) is in rules_setup, the solo scoring in
rules_scoring.
"""

from sim.core.kernel import leaf
from sim.games.celtae.params import (
    O_SOLO_ADJACENCY,
    O_SOLO_GARRISON_ANY,
    O_SOLO_REFRESH_SWAPS,
    T_ADJACENT,
    T_GARRISON_ICON,
    T_POSITION_REGION,
    T_SOLO_ACTIONS,
    T_SOLO_DISCARD,
    T_SOLO_SWAP,
)
from sim.games.celtae.rules_progress import _progress_event, take_tile
from sim.games.celtae.rules_shared import (
    SOLITAIRIX,
    crosses,
    draw_card,
    pb,
    pile_top,
    refresh_space,
    slide_refill,
    space_of,
)
from sim.games.celtae.state import (
    AU_END_TURN,
    AU_SOLO_REST,
    CIT_CAP,
    CIT_DISCS,
    CIT_DONE,
    CIT_FILLED,
    DISCARD,
    DISCARD_N,
    DRUID,
    DTOP,
    GARRISON,
    GARRISON_SLOTS,
    K_BUILD,
    K_COMBAT,
    K_CULTIVATE,
    K_RECRUIT,
    MARKET,
    MARKET_SIZE,
    MAX_PLAYERS,
    N_COLOURS,
    N_ICONS,
    N_POSITIONS,
    P_ACTIVE,
    P_BONUS_TILES,
    P_CUBES,
    P_DISCS,
    P_TRIBE,
    P_TRIBE_N,
    PAWN,
    PAWNS_DISCARDED,
    PHASE,
    PILE_PAWN,
    RESERVE,
    SLOTS,
    SOLO_CARD,
    SOLO_FACE,
    SOLO_SECTION,
    SPACES,
)


@leaf
def _solo_start(s, data, rng):
    """A) draw a card, move 1 (2 if its colour matches the top discard); a crossing lets the
    player place the pawn (and decide the flip) before the rest of Solitairix's turn."""
    card = draw_card(s, data, rng)
    s[SOLO_CARD] = card
    top = s[DTOP]
    d = 1
    if card >= 0 and top >= 0 and card // N_ICONS == top // N_ICONS:
        d = 2
    start = s[PAWN]
    s[PAWN] = (start + d) % N_POSITIONS
    s[PHASE] = AU_SOLO_REST
    if crosses(start, d):
        _progress_event(s)


@leaf
def _solo_possible(s, data, kind, region, card):
    x = pb(SOLITAIRIX)
    if kind == K_BUILD:
        if card < 0 or s[x + P_DISCS] == 0:
            return False
        cit = region * N_COLOURS + card // N_ICONS
        return s[CIT_FILLED + cit] < s[CIT_CAP + cit]
    if kind == K_COMBAT:
        return pile_top(s, region) >= 0
    if kind == K_RECRUIT:
        return pile_top(s, 2 + region) >= 0
    return True


@leaf
def _solo_rest(s, data, rng):
    """B) rotate the solo tile, C) choose the action, D) swap, E) perform, discard the card."""
    card = s[SOLO_CARD]
    top = s[DTOP]
    rot = 1
    if card >= 0 and top >= 0 and card % N_ICONS == top % N_ICONS:
        rot = 2
    s[SOLO_SECTION] = (s[SOLO_SECTION] + rot) % 4
    section = s[SOLO_FACE] * 4 + s[SOLO_SECTION]
    region = data.tab[T_POSITION_REGION + s[PAWN]]
    kind = K_CULTIVATE
    for j in range(4):
        k = data.tab[T_SOLO_ACTIONS + (section) * 4 + j]
        if k < 0:
            break
        if (
            data.rules[O_SOLO_ADJACENCY]
            and data.tab[T_ADJACENT + (s[PAWN]) * 4 + space_of(k, region)] == 0
        ):
            continue
        if _solo_possible(s, data, k, region, card):
            kind = k
            break
    space = space_of(kind, region)
    swap = data.tab[T_SOLO_SWAP + section]
    x = pb(SOLITAIRIX)
    if swap == 0:
        refresh_space(s, data, space, rng)
        if data.rules[O_SOLO_REFRESH_SWAPS]:
            swap = 1
    if swap > 0:
        idx = SPACES + space * SLOTS + (swap - 1)
        mine = s[x + P_ACTIVE]
        s[x + P_ACTIVE] = s[idx]
        s[idx] = mine
    if kind == K_CULTIVATE:
        base = MARKET + region * MARKET_SIZE
        mask = data.tab[T_SOLO_DISCARD + section]
        for i in range(MARKET_SIZE):
            if mask & (1 << i) and s[base + i] >= 0:
                c = s[base + i]
                s[DISCARD + c] += 1
                s[DISCARD_N] += 1
                s[DTOP] = c
                s[base + i] = -1
        slide_refill(s, data, region, rng)
    elif kind == K_BUILD:
        cit = region * N_COLOURS + card // N_ICONS
        s[x + P_DISCS] -= 1
        s[CIT_FILLED + cit] += 1
        s[CIT_DISCS + cit * MAX_PLAYERS + SOLITAIRIX] += 1
        if s[CIT_FILLED + cit] == s[CIT_CAP + cit]:
            s[CIT_DONE + cit] = SOLITAIRIX
            s[x + P_BONUS_TILES] += 1
    elif kind == K_COMBAT:
        if take_tile(s, data, SOLITAIRIX, region):
            s[PILE_PAWN + region] = 0  # discarded, not placed
            s[PAWNS_DISCARDED] += 1
        if card >= 0 and s[x + P_CUBES] > 0:
            for rr in range(2):
                r = region if rr == 0 else 1 - region
                if rr == 1 and not data.rules[O_SOLO_GARRISON_ANY]:
                    break
                placed = False
                for k in range(GARRISON_SLOTS):
                    g = r * GARRISON_SLOTS + k
                    if s[GARRISON + g] == -1 and data.tab[T_GARRISON_ICON + g] == card % N_ICONS:
                        s[GARRISON + g] = SOLITAIRIX
                        s[x + P_CUBES] -= 1
                        placed = True
                        break
                if placed:
                    break
    else:
        pile = 2 + region
        if take_tile(s, data, SOLITAIRIX, pile):
            s[PILE_PAWN + pile] = 0  # discarded, not placed
            s[PAWNS_DISCARDED] += 1
        if s[RESERVE + region] > 0:
            s[RESERVE + region] -= 1
            s[x + P_TRIBE + DRUID] += 1
            s[x + P_TRIBE_N] += 1
    if card >= 0:
        s[DISCARD + card] += 1
        s[DISCARD_N] += 1
        s[DTOP] = card
    s[SOLO_CARD] = -1
    s[PHASE] = AU_END_TURN
