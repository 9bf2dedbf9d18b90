"""Celtae rules, shared by every phase: the board vocabulary (rules/celtae.md §4.0), the worker
counts that strengthen an action (§4.6) and the shared procedures of §4.11.

Small accessors of the state (player blocks, active workers, piles, hand counts, what a Build
costs), the chance procedures (deck draws and reshuffles, market slide and refill, bag draws,
the refresh of an action space), force gains, the river crossing test of §4.3, the move of an
active worker into the tribe, and the plain state copy that ``step`` starts from.
"""

from sim.core.kernel import leaf
from sim.core.rng import draw_from_histogram
from sim.games.celtae.params import (
    G_DISCS,
    G_FORCE_MAX,
    G_MIN_PAY,
    O_REFRESH_REVERSED,
    O_RESHUFFLE,
    T_DISC_COST,
)
from sim.games.celtae.state import (
    ACTIVE,
    BAG,
    BOXED_DRUIDS,
    BUILDER,
    CENTRE,
    CIT_CAP,
    CIT_FILLED,
    DECK,
    DECK_N,
    DISCARD,
    DISCARD_N,
    DRUID,
    DTOP,
    FARMER,
    K_BUILD,
    K_COMBAT,
    K_CULTIVATE,
    K_RECRUIT,
    MARKET,
    MARKET_SIZE,
    MAX_PILE,
    N_BAGTYPES,
    N_CARDS,
    N_COLOURS,
    N_ICONS,
    N_POSITIONS,
    NOBLE,
    NP,
    P_ACTIVE,
    P_DISCS,
    P_FORCE,
    P_HAND,
    P_HAND_N,
    P_TOKENS,
    P_TOKENS_NEW,
    P_TRIBE,
    P_TRIBE_N,
    PILE_END,
    PILE_POS,
    PILES,
    PLAYERS,
    PW,
    RESHUFFLES,
    SLOTS,
    SOLDIER,
    SOLO,
    SP_CB_NORTH,
    SP_COMBAT,
    SP_RECRUIT,
    SPACES,
)

RIVER_FROM = 3  # PROVISIONAL geometry: the step NE (3) -> SE (0) crosses the river
SOLITAIRIX = 1  # Solitairix's player block in the solo game


@leaf(inline="always")
def pb(seat):
    return PLAYERS + seat * PW


@leaf
def n_blocks(s):
    """Player blocks in use: the players, plus Solitairix's in the solo game."""
    return 2 if s[SOLO] else s[NP]


@leaf
def active_count(s, seat):
    n = 0
    for i in range(ACTIVE):
        if s[pb(seat) + P_ACTIVE + i] >= 0:
            n += 1
    return n


@leaf
def active_of(s, seat, t):
    n = 0
    for i in range(ACTIVE):
        if s[pb(seat) + P_ACTIVE + i] == t:
            n += 1
    return n


@leaf
def strength(s, seat, t):
    """Workers of type ``t`` strengthening an action: active + tribe (+ tribe druids for
    farmers, builders and soldiers, §4.6); tokens are added by the caller (EXTRA)."""
    b = pb(seat)
    n = active_of(s, seat, t) + s[b + P_TRIBE + t]
    if t <= SOLDIER:
        n += s[b + P_TRIBE + DRUID]
    return n


@leaf
def relevant_type(kind):
    if kind == K_CULTIVATE:
        return FARMER
    if kind == K_BUILD:
        return BUILDER
    if kind == K_COMBAT:
        return SOLDIER
    return NOBLE


@leaf
def bag_total(s):
    n = 0
    for t in range(N_BAGTYPES):
        n += s[BAG + t]
    return n


@leaf
def space_of(kind, region):
    if kind in (K_CULTIVATE, K_BUILD):
        return SP_CB_NORTH + region
    if kind == K_RECRUIT:
        return SP_RECRUIT
    return SP_COMBAT


@leaf
def usable_tokens(s, seat):
    b = pb(seat)
    return s[b + P_TOKENS] - s[b + P_TOKENS_NEW]


@leaf
def pile_top(s, pile):
    """Tile id on top of ``pile``, -1 if empty."""
    if s[PILE_POS + pile] >= s[PILE_END + pile]:
        return -1
    return s[PILES + pile * MAX_PILE + s[PILE_POS + pile]]


@leaf
def pile_left(s, pile):
    return s[PILE_END + pile] - s[PILE_POS + pile]


@leaf
def cards_of_colour(s, seat, c):
    b = pb(seat) + P_HAND + c * N_ICONS
    return s[b] + s[b + 1] + s[b + 2]


@leaf
def cards_of_icon(s, seat, i):
    n = 0
    for c in range(N_COLOURS):
        n += s[pb(seat) + P_HAND + c * N_ICONS + i]
    return n


@leaf
def build_pay(s, data, seat, extra):
    """Cards a Build costs now: max(min_pay, printed cost - builders), §4.7.2."""
    b = pb(seat)
    placed = data.rules[G_DISCS] - s[b + P_DISCS]
    if s[b + P_DISCS] <= 0:
        return 1 << 20
    return max(
        data.rules[G_MIN_PAY], data.tab[T_DISC_COST + placed] - strength(s, seat, BUILDER) - extra
    )


@leaf
def can_build_colour(s, data, seat, region, c, extra):
    cit = region * N_COLOURS + c
    if s[CIT_FILLED + cit] >= s[CIT_CAP + cit]:
        return False
    pay = build_pay(s, data, seat, extra)
    return cards_of_colour(s, seat, c) >= pay


@leaf
def can_build(s, data, seat, region, extra):
    """Whether some colour of ``region`` can take a disc now (:func:`can_build_colour` for any
    colour; the price does not depend on the colour, so it is worked out once)."""
    pay = build_pay(s, data, seat, extra)
    for c in range(N_COLOURS):
        cit = region * N_COLOURS + c
        if s[CIT_FILLED + cit] < s[CIT_CAP + cit] and cards_of_colour(s, seat, c) >= pay:
            return True
    return False


@leaf
def draw_card(s, data, rng):
    """Top card of the deck (reshuffling the discard pile per the switch), -1 if none."""
    if s[DECK_N] == 0:
        mode = data.rules[O_RESHUFFLE]
        if mode == 2 or s[DISCARD_N] == 0:
            return -1
        keep = -1
        if mode == 0 and s[DTOP] >= 0:
            keep = s[DTOP]
        for k in range(N_CARDS):
            n = s[DISCARD + k] - (1 if k == keep else 0)
            s[DECK + k] += n
            s[DECK_N] += n
            s[DISCARD + k] -= n
            s[DISCARD_N] -= n
        if keep < 0:
            s[DTOP] = -1
        s[RESHUFFLES] += 1
        if s[DECK_N] == 0:
            return -1
    k = draw_from_histogram(rng, s[DECK : DECK + N_CARDS], s[DECK_N])
    s[DECK + k] -= 1
    s[DECK_N] -= 1
    return k


@leaf
def to_hand(s, seat, card):
    s[pb(seat) + P_HAND + card] += 1
    s[pb(seat) + P_HAND_N] += 1


@leaf
def discard_from_hand(s, seat, card):
    s[pb(seat) + P_HAND + card] -= 1
    s[pb(seat) + P_HAND_N] -= 1
    s[DISCARD + card] += 1
    s[DISCARD_N] += 1
    s[DTOP] = card


@leaf
def slide_refill(s, data, region, rng):
    """Slide the market's cards left keeping their order, then refill left to right."""
    base = MARKET + region * MARKET_SIZE
    j = 0
    for i in range(MARKET_SIZE):
        if s[base + i] >= 0:
            s[base + j] = s[base + i]
            j += 1
    for i in range(j, MARKET_SIZE):
        s[base + i] = draw_card(s, data, rng)


@leaf
def bag_draw(s, rng):
    """One worker drawn from the bag, -1 if the bag is empty (A-19)."""
    total = bag_total(s)
    if total == 0:
        return -1
    t = draw_from_histogram(rng, s[BAG : BAG + N_BAGTYPES], total)
    s[BAG + t] -= 1
    return t


@leaf
def to_bag(s, t):
    """A worker returned to the bag; druids never enter it (they go to the box)."""
    if t == DRUID:
        s[BOXED_DRUIDS] += 1
    elif t >= 0:
        s[BAG + t] += 1


@leaf
def refresh_space(s, data, space, rng):
    """§4.5.2: space -> bag, centre -> space (slot k -> k, or reversed), 3 bag draws -> centre."""
    for k in range(SLOTS):
        to_bag(s, s[SPACES + space * SLOTS + k])
    rev = data.rules[O_REFRESH_REVERSED]
    for k in range(SLOTS):
        src = SLOTS - 1 - k if rev else k
        s[SPACES + space * SLOTS + k] = s[CENTRE + src]
    for k in range(SLOTS):
        s[CENTRE + k] = bag_draw(s, rng)


@leaf
def gain_force(s, data, seat, n):
    b = pb(seat) + P_FORCE
    s[b] = min(s[b] + n, data.rules[G_FORCE_MAX])
    if s[b] < 0:
        s[b] = 0


@leaf
def crosses(pos, d):
    for k in range(d):  # noqa: SIM110
        if (pos + k) % N_POSITIONS == RIVER_FROM:
            return True
    return False


@leaf
def recruit_worker(s, seat, t):
    """Move one active worker of type ``t`` into the tribe."""
    b = pb(seat)
    for i in range(ACTIVE):
        if s[b + P_ACTIVE + i] == t:
            s[b + P_ACTIVE + i] = -1
            break
    s[b + P_TRIBE + t] += 1
    s[b + P_TRIBE_N] += 1
