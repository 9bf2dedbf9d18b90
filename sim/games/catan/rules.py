"""Catan rules kernels: pure ``@leaf`` functions over the flat state (state.py).

``step(state, action, data, rng, out)`` copies ``state`` into ``out`` and applies one decision
there; it never writes ``state``. Chance (the board shuffles, dice, development-card draws and
the card taken by a steal) comes only from the ``rng`` argument. Rule references are to
rules/catan-base.md (§ sections, A-numbered resolutions, B-numbered scenarios).

Turn shape (a phase machine, one decision per action)::

    SETUP_SETTLE -> SETUP_ROAD  (snake order: seats 0..n-1 then n-1..0 from the first player)
    PRE_ROLL: roll, or play one development card first
      roll 7 -> DISCARD (each seat over the threshold, one card per action) -> ROBBER -> STEAL
      else production -> MAIN
    MAIN: build, buy, maritime trade, play one development card, end the turn
      domestic offer -> TRADE (the others answer, the proposer picks; trade.py) -> MAIN
      Knight -> ROBBER -> STEAL; Road Building -> ROAD_BUILDING; Year of Plenty -> YOP
    end of turn -> SBP (5-6 players: each other seat builds or passes) -> next PRE_ROLL

The win is checked after every action taken in the active player's own turn, and when a turn
starts (§5); never in setup or in the Special Building Phase (§4.2).
"""

from sim.core.kernel import leaf
from sim.core.rng import draw_from_histogram, randint, shuffle
from sim.core.scratch import stack_int32, stack_int64
from sim.games.catan.params import (
    C_CITY,
    C_DEV,
    C_ROAD,
    C_SETTLEMENT,
    D_COSTS,
    D_DEV_DECK,
    D_EDGE_VERTICES,
    D_HARBOUR_POOL,
    D_HEX_NEIGHBOURS,
    D_HEX_VERTICES,
    D_SPIRAL,
    D_TERRAIN_POOL,
    D_TOKENS,
    D_VERTEX_EDGES,
    D_VERTEX_HEXES,
    D_VERTEX_SLOT,
    D_VERTEX_VERTICES,
    G_BANK,
    G_BANK_RATIO,
    G_CITIES,
    G_DECK_N,
    G_DISCARD,
    G_EXTRA_VP,
    G_GENERIC_RATIO,
    G_HEX_BLOCK,
    G_LA_MIN,
    G_LA_VP,
    G_LR_MIN,
    G_LR_VP,
    G_N_HEX,
    G_N_SLOTS,
    G_N_TOKENS,
    G_N_VERT,
    G_RANDOM_NUMBERS,
    G_ROADS,
    G_ROTATIONS,
    G_ROUND_CAP,
    G_SBP,
    G_SETTLEMENTS,
    G_SPECIAL_RATIO,
    G_START_SEAT,
    G_VP_TARGET,
)
from sim.games.catan.state import (
    A_BUY,
    A_CITY,
    A_DISCARD,
    A_END,
    A_KNIGHT,
    A_MONO,
    A_OFFER,
    A_PICK,
    A_ROAD,
    A_ROAD_BUILDING,
    A_ROBBER,
    A_ROLL,
    A_SETTLE,
    A_STEAL,
    A_TRADE,
    A_YOP,
    BANK,
    CITIES_LEFT,
    CUR,
    DECK,
    DECK_N,
    DESERT,
    DEV,
    DEV_NEW,
    DEV_PLAYED,
    DICE,
    DISCARD_OWED,
    E_OWNER,
    FREE_ROADS,
    GENERIC,
    HAND,
    HAND_N,
    HEX_NUMBER,
    HEX_TERRAIN,
    KNIGHT,
    KNIGHTS,
    LA_HOLDER,
    LAPSED,
    LAST_VERTEX,
    LR_HOLDER,
    MAX_E,
    MAX_HEX,
    MAX_PLAYERS,
    MAX_ROADS,
    MAX_SLOTS,
    MAX_V,
    MONOPOLY,
    N_DEV,
    N_RES,
    N_TERRAINS,
    NP,
    OFFERS_MADE,
    OVER,
    PH_DISCARD,
    PH_MAIN,
    PH_OVER,
    PH_PRE_ROLL,
    PH_ROAD_BUILDING,
    PH_ROBBER,
    PH_SBP,
    PH_SETUP_ROAD,
    PH_SETUP_SETTLE,
    PH_STEAL,
    PH_TRADE,
    PH_YOP,
    PHASE,
    PLAYED,
    PORTS,
    R_TURN_CAP,
    R_VP_TARGET,
    REASON,
    RET_PHASE,
    ROAD_BUILDING,
    ROAD_LEN,
    ROADS_LEFT,
    ROBBER,
    ROUND,
    SBP_LEFT,
    SEAT,
    SETTLE_LEFT,
    SETUP_STEP,
    SLOT_TYPE,
    START,
    TURNS,
    TURNS_TAKEN,
    V_CITY,
    V_OWNER,
    VICTORY_POINT,
    WINNER,
    YEAR_OF_PLENTY,
    YOP_LEFT,
)
from sim.games.catan.trade import known_held, list_offers, make_offer, trade_actions, trade_step

MAX_NUMBER_TRIES = 100_000  # random number placement: reshuffles before giving up the 6/8 rule
TRAIL_STACK = MAX_ROADS + 2  # longest-road search: the trail's vertices (one more than its roads)
HELD_LEN = 2 * MAX_PLAYERS  # determinize: unplayed and new development cards per seat

# ---------------------------------------------------------------------------------------------
# Small readers
# ---------------------------------------------------------------------------------------------


@leaf
def copy_state(state, out):
    """``out[:] = state`` as a plain loop (numba's slice assignment is slower)."""
    for i in range(state.shape[0]):
        out[i] = state[i]


@leaf
def current_player(state):
    """The seat that decides next; -1 once the game is over."""
    return -1 if state[OVER] else state[SEAT]


@leaf
def is_over(state):
    return state[OVER] != 0


@leaf
def settlements_on_board(state, data, p):
    return data[G_SETTLEMENTS] - state[SETTLE_LEFT + p]


@leaf
def cities_on_board(state, data, p):
    return data[G_CITIES] - state[CITIES_LEFT + p]


@leaf
def vp_cards(state, p):
    """Victory Point cards held, bought this turn or before (§4.1: they count at once)."""
    return state[DEV + p * N_DEV + VICTORY_POINT] + state[DEV_NEW + p * N_DEV + VICTORY_POINT]


@leaf
def victory_points(state, data, p):
    """VP of seat ``p`` counting hidden VP cards (§6)."""
    vp = settlements_on_board(state, data, p) + 2 * cities_on_board(state, data, p)
    vp += vp_cards(state, p)
    if state[LR_HOLDER] == p:
        vp += data[G_LR_VP]
    if state[LA_HOLDER] == p:
        vp += data[G_LA_VP]
    if data[G_EXTRA_VP] >= 0:  # scenario hook (params.G_EXTRA_VP)
        vp += state[data[G_EXTRA_VP] + p]
    return vp


@leaf
def public_victory_points(state, data, p):
    """VP that every player can see (VP cards stay hidden)."""
    return victory_points(state, data, p) - vp_cards(state, p)


@leaf
def scores(state, data, out):
    """Each seat's VP (if the game ended now), the VP-target winner ranked first whatever the
    others hold (only the active player can win, §6); returns the seat count."""
    for s in range(state[NP]):
        out[s] = victory_points(state, data, s)
        if s == state[WINNER]:
            out[s] += 1000
    return state[NP]


@leaf
def can_afford(state, data, p, row):
    for r in range(N_RES):  # noqa: SIM110  (numba: plain loop)
        if state[HAND + p * N_RES + r] < data[D_COSTS + N_RES * row + r]:
            return False
    return True


@leaf
def bank_total(state):
    n = 0
    for r in range(N_RES):
        n += state[BANK + r]
    return n


@leaf
def trade_ratio(state, data, p, r):
    """Cards of resource ``r`` that ``p`` gives for one card (§4.5): bank or best harbour."""
    ratio = data[G_BANK_RATIO]
    if state[PORTS + p * (N_RES + 1) + GENERIC] and data[G_GENERIC_RATIO] < ratio:
        ratio = data[G_GENERIC_RATIO]
    if state[PORTS + p * (N_RES + 1) + r] and data[G_SPECIAL_RATIO] < ratio:
        ratio = data[G_SPECIAL_RATIO]
    return ratio


@leaf
def has_road_at(state, data, p, v):
    for k in range(3):
        e = data[D_VERTEX_EDGES + 3 * v + k]
        if e >= 0 and state[E_OWNER + e] == p:
            return True
    return False


@leaf
def road_ok(state, data, p, e):
    """May ``p`` put a road on edge ``e`` (§3): empty, touching own building or own road, not
    through a vertex holding an opponent's building."""
    if state[E_OWNER + e] != -1:
        return False
    for k in range(2):
        v = data[D_EDGE_VERTICES + 2 * e + k]
        owner = state[V_OWNER + v]
        if owner == p:
            return True
        if owner == -1 and has_road_at(state, data, p, v):
            return True
    return False


@leaf
def road_end_ok(state, data, p, v):
    """May a new road of ``p`` start from vertex ``v``: own building, or own road at an
    empty vertex (never through an opponent's building)?"""
    owner = state[V_OWNER + v]
    if owner == p:
        return True
    if owner != -1:
        return False
    return has_road_at(state, data, p, v)


@leaf
def road_edges(state, data, p, out, n, first_only):
    """Append ``A_ROAD + e`` for every edge where ``p`` may build (the same set as
    :func:`road_ok` over all edges, found from the vertices of ``p``'s network); with
    ``first_only`` stop at the first. Returns the new count."""
    for v in range(data[G_N_VERT]):
        if not road_end_ok(state, data, p, v):
            continue
        for k in range(3):
            e = data[D_VERTEX_EDGES + 3 * v + k]
            if e < 0 or state[E_OWNER + e] != -1:
                continue
            w = data[D_VERTEX_VERTICES + 3 * v + k]
            if w < v and road_end_ok(state, data, p, w):
                continue  # already listed from w
            out[n] = A_ROAD + e
            n += 1
            if first_only:
                return n
    return n


@leaf
def any_road_ok(state, data, p):
    """Is there an edge where ``p`` may build a road?"""
    buf = stack_int32(1)
    return road_edges(state, data, p, buf, 0, True) > 0


@leaf
def distance_ok(state, data, v):
    """Vertex ``v`` is empty and no adjacent vertex holds a building (the distance rule)."""
    if state[V_OWNER + v] != -1:
        return False
    for k in range(3):
        w = data[D_VERTEX_VERTICES + 3 * v + k]
        if w >= 0 and state[V_OWNER + w] != -1:
            return False
    return True


@leaf
def setup_settle_ok(state, data, v):
    """A setup settlement: the distance rule, and a free edge for its road (a decision where
    the spec is silent: a vertex whose every edge already holds a road is not offered)."""
    if not distance_ok(state, data, v):
        return False
    for k in range(3):
        e = data[D_VERTEX_EDGES + 3 * v + k]
        if e >= 0 and state[E_OWNER + e] == -1:
            return True
    return False


@leaf
def settle_ok(state, data, p, v):
    """A settlement after setup: the distance rule and one of ``p``'s roads at ``v``."""
    if not has_road_at(state, data, p, v):
        return False
    return distance_ok(state, data, v)


# ---------------------------------------------------------------------------------------------
# Longest road (§4.3, A3) and largest army
# ---------------------------------------------------------------------------------------------


@leaf
def _road_degree(state, data, p, v):
    d = 0
    for k in range(3):
        e = data[D_VERTEX_EDGES + 3 * v + k]
        if e >= 0 and state[E_OWNER + e] == p:
            d += 1
    return d


@leaf
def _longest_trail_from(state, data, p, start, used, stack_v, stack_k, stack_e, seen):
    """Longest trail of ``p``'s roads starting at ``start`` (iterative depth-first search over
    every trail; ``used`` flags the edges of the current trail and is all zero again on return;
    every vertex reached is flagged in ``seen``)."""
    best = 0
    depth = 0
    stack_v[0] = start
    stack_k[0] = 0
    seen[start] = 1
    while depth >= 0:
        v = stack_v[depth]
        owner = state[V_OWNER + v]
        advanced = False
        if depth == 0 or owner == -1 or owner == p:  # else blocked: a trail may end there
            while stack_k[depth] < 3:
                k = stack_k[depth]
                stack_k[depth] = k + 1
                e = data[D_VERTEX_EDGES + 3 * v + k]
                if e >= 0 and state[E_OWNER + e] == p and used[e] == 0:
                    used[e] = 1
                    depth += 1
                    w = data[D_VERTEX_VERTICES + 3 * v + k]
                    stack_v[depth] = w
                    stack_k[depth] = 0
                    stack_e[depth] = e
                    seen[w] = 1
                    if depth > best:
                        best = depth
                    advanced = True
                    break
        if not advanced:
            if depth > 0:
                used[stack_e[depth]] = 0
            depth -= 1
    return best


@leaf
def road_length(state, data, p):
    """Longest trail in ``p``'s road network (§4.3): no edge twice, never through a vertex
    holding an opponent's building (it may end there).

    A longest trail can always start at a vertex of odd degree in the network or at an
    opponent's building (at an even, open end one more edge would extend it), so the search
    starts only there; pieces of the network without such a vertex (all even: a circuit uses
    every edge) are searched from any of their vertices.
    """
    return _longest_in(state, data, p, stack_int32(1), True, 0)


@leaf
def road_length_with(state, data, p, e, before):
    """``p``'s longest trail once ``p``'s new road ``e`` is on the board, ``before`` being the
    longest trail without it. A new road only adds trails, and the trails without it are at
    most ``before`` long, so only the piece of the network holding ``e`` (found by a flood
    over ``p``'s roads, through any vertex: whole pieces) is searched again, from the same
    starts as :func:`road_length`; the other pieces are not (3% of Troy's search time), nor
    a piece with no more roads than ``before``."""
    piece = stack_int32(MAX_V)  # 1 for the vertices of e's piece
    for w in range(MAX_V):
        piece[w] = 0
    todo = stack_int64(MAX_V)
    n_todo = 0
    for j in range(2):
        w = data[D_EDGE_VERTICES + 2 * e + j]
        if piece[w] == 0:
            piece[w] = 1
            todo[n_todo] = w
            n_todo += 1
    ends = 0  # the piece's roads, counted at both ends
    while n_todo > 0:
        n_todo -= 1
        u = todo[n_todo]
        for k in range(3):
            f = data[D_VERTEX_EDGES + 3 * u + k]
            if f >= 0 and state[E_OWNER + f] == p:
                ends += 1
                w = data[D_VERTEX_VERTICES + 3 * u + k]
                if piece[w] == 0:
                    piece[w] = 1
                    todo[n_todo] = w
                    n_todo += 1
    if ends // 2 <= before:  # no trail of the piece is longer than its roads
        return before
    return _longest_in(state, data, p, piece, False, before)


@leaf
def _longest_in(state, data, p, piece, whole, best):
    """The longest trail of ``p`` in the vertices flagged in ``piece`` (all if ``whole``), or
    ``best`` if none is longer; the starts of :func:`road_length`."""
    used = stack_int32(MAX_E)
    seen = stack_int32(MAX_V)
    for e in range(MAX_E):
        used[e] = 0
    for v in range(MAX_V):
        seen[v] = 0
    stack_v = stack_int64(TRAIL_STACK)
    stack_k = stack_int64(TRAIL_STACK)
    stack_e = stack_int64(TRAIL_STACK)
    n_vert = data[G_N_VERT]
    for start in range(n_vert):
        if not whole and piece[start] == 0:
            continue
        d = _road_degree(state, data, p, start)
        if d == 0:
            continue
        owner = state[V_OWNER + start]
        if d % 2 == 1 or (owner != -1 and owner != p):
            length = _longest_trail_from(
                state, data, p, start, used, stack_v, stack_k, stack_e, seen
            )
            if length > best:
                best = length
    for start in range(n_vert):
        in_piece = whole or piece[start] == 1
        if in_piece and seen[start] == 0 and _road_degree(state, data, p, start) > 0:
            length = _longest_trail_from(
                state, data, p, start, used, stack_v, stack_k, stack_e, seen
            )
            if length > best:
                best = length
    return best


@leaf
def update_longest_road(out, data, who, v, e):
    """Recompute ROAD_LEN and award the card: after a road ``e``, ``who`` is its builder (a road
    can only lengthen its owner's network, and only in its own piece); after a settlement on
    ``v``, the seats with a road at ``v`` other than its owner (only their trails can be cut
    there). The other arguments are -1: (who, -1, e) or (-1, v, -1).

    The holder keeps it while his road is still among the longest and long enough; otherwise
    a unique longest road of at least the minimum takes it, else it is set aside (A3). Without
    a break this is the plain rule: another player needs a strictly longer road.
    """
    n = out[NP]
    for s in range(n):
        if s == who:  # a new road: its own piece of the network only
            out[ROAD_LEN + s] = road_length_with(out, data, s, e, out[ROAD_LEN + s])
        elif v >= 0 and s != out[V_OWNER + v] and has_road_at(out, data, s, v):
            out[ROAD_LEN + s] = road_length(out, data, s)
    best = 0
    n_best = 0
    arg = -1
    for s in range(n):
        length = out[ROAD_LEN + s]
        if length > best:
            best = length
            n_best = 1
            arg = s
        elif length == best:
            n_best += 1
    holder = out[LR_HOLDER]
    minimum = data[G_LR_MIN]
    if holder >= 0 and out[ROAD_LEN + holder] >= minimum and out[ROAD_LEN + holder] == best:
        return
    if best >= minimum and n_best == 1:
        out[LR_HOLDER] = arg
    else:
        out[LR_HOLDER] = -1


@leaf
def update_largest_army(out, data, p):
    """After ``p`` plays a Knight: the first to the minimum takes the card, then only a player
    with strictly more Knights than the holder."""
    holder = out[LA_HOLDER]
    if holder == p or out[KNIGHTS + p] < data[G_LA_MIN]:
        return
    if holder < 0 or out[KNIGHTS + p] > out[KNIGHTS + holder]:
        out[LA_HOLDER] = p


# ---------------------------------------------------------------------------------------------
# Setup (§3)
# ---------------------------------------------------------------------------------------------


@leaf
def red_adjacent(state, data):
    """Does a 6 or 8 token sit next to another 6 or 8?"""
    for h in range(data[G_N_HEX]):
        a = state[HEX_NUMBER + h]
        if a != 6 and a != 8:
            continue
        for k in range(6):
            m = data[D_HEX_NEIGHBOURS + 6 * h + k]
            if m >= 0:
                b = state[HEX_NUMBER + m]
                if b == 6 or b == 8:
                    return True
    return False


@leaf
def place_numbers(data, rng, out):
    """Number tokens (§3.1): along the spiral rotated by a random allowed turn, skipping
    deserts; or (lever ``number_placement``) shuffled until no 6 is next to an 8."""
    n_hex = data[G_N_HEX]
    n_tok = data[G_N_TOKENS]
    for h in range(MAX_HEX):
        out[HEX_NUMBER + h] = 0
    if data[G_RANDOM_NUMBERS] == 0:
        k = randint(rng, data[G_ROTATIONS])
        t = 0
        for i in range(n_hex):
            h = data[D_SPIRAL + MAX_HEX * k + i]
            if out[HEX_TERRAIN + h] != DESERT and t < n_tok:
                out[HEX_NUMBER + h] = data[D_TOKENS + t]
                t += 1
        return
    tokens = stack_int64(MAX_HEX)
    for t in range(MAX_HEX):
        tokens[t] = 0
    for _ in range(MAX_NUMBER_TRIES):
        for t in range(n_tok):
            tokens[t] = data[D_TOKENS + t]
        shuffle(rng, tokens, n_tok)
        t = 0
        for h in range(n_hex):
            if out[HEX_TERRAIN + h] != DESERT and t < n_tok:
                out[HEX_NUMBER + h] = tokens[t]
                t += 1
        if not red_adjacent(out, data):
            return


@leaf
def init_state(data, n_players, rng, out):
    """Setup (§3) into ``out``: shuffled terrain, numbers and harbours, the robber on the
    desert, bank and deck, pieces; the first player places the first settlement."""
    r = data
    for i in range(out.shape[0]):
        out[i] = 0
    out[NP] = n_players
    start = r[G_START_SEAT]
    out[START] = start
    out[CUR] = start
    out[SEAT] = start
    out[PHASE] = PH_SETUP_SETTLE
    out[LR_HOLDER] = -1
    out[LA_HOLDER] = -1
    out[WINNER] = -1
    out[LAST_VERTEX] = -1
    out[RET_PHASE] = PH_MAIN
    for v in range(MAX_V):
        out[V_OWNER + v] = -1
    for e in range(MAX_E):
        out[E_OWNER + e] = -1
    for s in range(MAX_SLOTS):
        out[SLOT_TYPE + s] = -1
    for res in range(N_RES):
        out[BANK + res] = r[G_BANK]
    for d in range(N_DEV):
        out[DECK + d] = data[D_DEV_DECK + d]
    out[DECK_N] = r[G_DECK_N]
    for s in range(n_players):
        out[ROADS_LEFT + s] = r[G_ROADS]
        out[SETTLE_LEFT + s] = r[G_SETTLEMENTS]
        out[CITIES_LEFT + s] = r[G_CITIES]

    n_hex = r[G_N_HEX]
    terr = stack_int64(MAX_HEX)
    for h in range(MAX_HEX):
        terr[h] = 0
    i = 0
    for t in range(N_TERRAINS):
        for _ in range(data[D_TERRAIN_POOL + t]):
            terr[i] = t
            i += 1
    shuffle(rng, terr, n_hex)
    out[ROBBER] = -1
    for h in range(n_hex):
        out[HEX_TERRAIN + h] = terr[h]
        if terr[h] == DESERT and out[ROBBER] < 0:
            out[ROBBER] = h  # the first desert (two at 5-6 players)
    for h in range(n_hex, MAX_HEX):
        out[HEX_TERRAIN + h] = DESERT
    place_numbers(data, rng, out)

    n_slots = r[G_N_SLOTS]
    harb = stack_int64(MAX_SLOTS)
    for s in range(MAX_SLOTS):
        harb[s] = 0
    i = 0
    for t in range(N_RES + 1):
        for _ in range(data[D_HARBOUR_POOL + t]):
            harb[i] = t
            i += 1
    shuffle(rng, harb, n_slots)
    for s in range(n_slots):
        out[SLOT_TYPE + s] = harb[s]


# ---------------------------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------------------------


@leaf
def _dev_plays(state, data, p, out, n):
    """Append the development cards ``p`` may play now (one per turn, not one bought this
    turn: DEV holds only cards owned since before the turn)."""
    if state[DEV_PLAYED]:
        return n
    base = DEV + p * N_DEV
    if state[base + KNIGHT] > 0:
        out[n] = A_KNIGHT
        n += 1
    if (
        state[base + ROAD_BUILDING] > 0
        and state[ROADS_LEFT + p] > 0
        and any_road_ok(state, data, p)
    ):
        out[n] = A_ROAD_BUILDING
        n += 1
    if state[base + YEAR_OF_PLENTY] > 0 and bank_total(state) > 0:
        out[n] = A_YOP
        n += 1
    if state[base + MONOPOLY] > 0:
        for res in range(N_RES):
            out[n] = A_MONO + res
            n += 1
    return n


@leaf
def _builds(state, data, p, out, n):
    """Append the roads, settlements, cities and the card purchase ``p`` can pay for."""
    if state[ROADS_LEFT + p] > 0 and can_afford(state, data, p, C_ROAD):
        n = road_edges(state, data, p, out, n, False)
    if state[SETTLE_LEFT + p] > 0 and can_afford(state, data, p, C_SETTLEMENT):
        for v in range(data[G_N_VERT]):
            if settle_ok(state, data, p, v):
                out[n] = A_SETTLE + v
                n += 1
    if state[CITIES_LEFT + p] > 0 and can_afford(state, data, p, C_CITY):
        for v in range(data[G_N_VERT]):
            if state[V_OWNER + v] == p and state[V_CITY + v] == 0:
                out[n] = A_CITY + v
                n += 1
    if state[DECK_N] > 0 and can_afford(state, data, p, C_DEV):
        out[n] = A_BUY
        n += 1
    return n


@leaf
def legal_actions(state, data, out):
    """Fill ``out[:n]`` with the deciding seat's legal actions; return n >= 1."""
    phase = state[PHASE]
    p = state[SEAT]
    n = 0
    if phase == PH_SETUP_SETTLE:
        for v in range(data[G_N_VERT]):
            if setup_settle_ok(state, data, v):
                out[n] = A_SETTLE + v
                n += 1
    elif phase == PH_SETUP_ROAD:
        v = state[LAST_VERTEX]
        for k in range(3):
            e = data[D_VERTEX_EDGES + 3 * v + k]
            if e >= 0 and state[E_OWNER + e] == -1:
                out[n] = A_ROAD + e
                n += 1
    elif phase == PH_PRE_ROLL:
        out[n] = A_ROLL
        n += 1
        n = _dev_plays(state, data, p, out, n)
    elif phase == PH_MAIN:
        n = _builds(state, data, p, out, n)
        out[n] = A_END
        n += 1
        n = _dev_plays(state, data, p, out, n)
        for give in range(N_RES):
            if state[HAND + p * N_RES + give] >= trade_ratio(state, data, p, give):
                for get in range(N_RES):
                    if get != give and state[BANK + get] > 0:
                        out[n] = A_TRADE + give * N_RES + get
                        n += 1
        n = list_offers(state, data, p, out, n)
    elif phase == PH_TRADE:
        n = trade_actions(state, data, out)
    elif phase == PH_SBP:
        n = _builds(state, data, p, out, n)
        out[n] = A_END
        n += 1
    elif phase == PH_DISCARD:
        for res in range(N_RES):
            if state[HAND + p * N_RES + res] > 0:
                out[n] = A_DISCARD + res
                n += 1
    elif phase == PH_ROBBER:
        for h in range(data[G_N_HEX]):
            if h != state[ROBBER]:
                out[n] = A_ROBBER + h
                n += 1
    elif phase == PH_STEAL:
        for s in range(state[NP]):
            if _is_victim(state, data, s):
                out[n] = A_STEAL + s
                n += 1
    elif phase == PH_ROAD_BUILDING:
        n = road_edges(state, data, p, out, n, False)
    elif phase == PH_YOP:
        for res in range(N_RES):
            if state[BANK + res] > 0:
                out[n] = A_PICK + res
                n += 1
    return n


@leaf
def _is_victim(state, data, s):
    """May the active player steal from ``s`` (§4.4c, A2): another player with a building on
    the robber's hex and at least one card."""
    if s == state[CUR] or state[HAND_N + s] == 0:
        return False
    h = state[ROBBER]
    if h < 0:
        return False
    for k in range(6):  # noqa: SIM110  (numba: plain loop)
        if state[V_OWNER + data[D_HEX_VERTICES + 6 * h + k]] == s:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Effects (write into ``out`` only)
# ---------------------------------------------------------------------------------------------


@leaf
def _pay(out, data, p, row):
    for r in range(N_RES):
        c = data[D_COSTS + N_RES * row + r]
        out[HAND + p * N_RES + r] -= c
        out[BANK + r] += c
        out[HAND_N + p] -= c


@leaf
def _take_from_bank(out, p, r, k):
    out[BANK + r] -= k
    out[HAND + p * N_RES + r] += k
    out[HAND_N + p] += k


@leaf
def _place_settlement(out, data, p, v):
    out[V_OWNER + v] = p
    out[SETTLE_LEFT + p] -= 1
    s = data[D_VERTEX_SLOT + v]
    if s >= 0:
        out[PORTS + p * (N_RES + 1) + out[SLOT_TYPE + s]] = 1
    update_longest_road(out, data, -1, v, -1)  # a settlement can break another player's road


@leaf
def _place_road(out, data, p, e):
    out[E_OWNER + e] = p
    out[ROADS_LEFT + p] -= 1
    update_longest_road(out, data, p, -1, e)


@leaf
def hex_blocked(state, data, h):
    """Does hex ``h`` produce nothing now: the robber, or a scenario's blockers (G_HEX_BLOCK)?"""
    if h == state[ROBBER]:
        return True
    return data[G_HEX_BLOCK] >= 0 and state[data[G_HEX_BLOCK] + h] > 0


@leaf
def _yield_of(out, data, h, dice):
    """The resource hex ``h`` produces on a roll of ``dice``, -1 if none."""
    res = out[HEX_TERRAIN + h]
    if out[HEX_NUMBER + h] != dice or res < 0 or res >= N_RES or hex_blocked(out, data, h):
        return -1
    return res


@leaf
def produce(out, data, dice):
    """Production for a roll of ``dice`` (§4.3), resource by resource: if the bank cannot pay
    everyone owed a resource, nobody gets it, unless exactly one player is owed it: he takes
    what is left. (One pass over the hexes counts what every resource owes; resources touch
    separate cards and bank piles, so settling them together is settling them in turn.)"""
    n_hex = data[G_N_HEX]
    total = stack_int64(N_RES)
    mask = stack_int64(N_RES)
    only = stack_int64(N_RES)
    for res in range(N_RES):
        total[res] = 0
        mask[res] = 0
        only[res] = -1
    for h in range(n_hex):
        res = _yield_of(out, data, h, dice)
        if res < 0:
            continue
        for k in range(6):
            v = data[D_HEX_VERTICES + 6 * h + k]
            owner = out[V_OWNER + v]
            if owner >= 0:
                total[res] += 1 + out[V_CITY + v]
                mask[res] |= 1 << owner
                only[res] = owner
    paid = False
    for res in range(N_RES):
        if total[res] == 0:
            continue
        if total[res] <= out[BANK + res]:
            paid = True
        else:
            if mask[res] == (1 << only[res]):
                _take_from_bank(out, only[res], res, out[BANK + res])
            total[res] = 0  # nobody else is paid this resource
    if not paid:
        return
    for h in range(n_hex):
        res = _yield_of(out, data, h, dice)
        if res < 0 or total[res] == 0:
            continue
        for k in range(6):
            v = data[D_HEX_VERTICES + 6 * h + k]
            owner = out[V_OWNER + v]
            if owner >= 0:
                _take_from_bank(out, owner, res, 1 + out[V_CITY + v])


@leaf
def _next_discarder(out, after):
    """First seat after ``after`` (clockwise from the active player's order) still owing
    discards, or -1."""
    n = out[NP]
    cur = out[CUR]
    # seats in order cur, cur+1, ...; continue after position of ``after``
    pos = (after - cur) % n
    for i in range(pos + 1, n):
        s = (cur + i) % n
        if out[DISCARD_OWED + s] > 0:
            return s
    return -1


@leaf
def roll_dice(rng):
    d1 = randint(rng, 6) + 1
    d2 = randint(rng, 6) + 1
    return d1 + d2


@leaf
def _roll(out, data, rng):
    resolve_roll(out, data, roll_dice(rng))


@leaf
def resolve_roll(out, data, dice):
    """Production, or on a 7 the discards and the robber (a scenario acts between the dice
    and this)."""
    out[DICE] = dice
    if dice != 7:
        produce(out, data, dice)
        out[PHASE] = PH_MAIN
        return
    out[RET_PHASE] = PH_MAIN
    owing = False
    for s in range(out[NP]):
        if out[HAND_N + s] > data[G_DISCARD]:
            out[DISCARD_OWED + s] = out[HAND_N + s] // 2
            owing = True
    if owing:
        first = out[CUR] if out[DISCARD_OWED + out[CUR]] > 0 else _next_discarder(out, out[CUR])
        out[SEAT] = first
        out[PHASE] = PH_DISCARD
    else:
        out[PHASE] = PH_ROBBER


@leaf
def _start_turn(out, data, p):
    """Seat ``p`` starts a turn: its bought cards become playable; the safety cap."""
    out[CUR] = p
    out[SEAT] = p
    out[PHASE] = PH_PRE_ROLL
    out[DEV_PLAYED] = 0
    out[DICE] = 0
    out[OFFERS_MADE] = 0
    out[LAPSED] = 0
    out[TURNS] += 1
    out[TURNS_TAKEN + p] += 1
    if p == out[START]:
        out[ROUND] += 1
    for d in range(N_DEV):
        out[DEV + p * N_DEV + d] += out[DEV_NEW + p * N_DEV + d]
        out[DEV_NEW + p * N_DEV + d] = 0
    if out[ROUND] > data[G_ROUND_CAP] and victory_points(out, data, p) < data[G_VP_TARGET]:
        out[ROUND] = data[G_ROUND_CAP]
        out[TURNS] -= 1
        out[TURNS_TAKEN + p] -= 1
        out[OVER] = 1
        out[REASON] = R_TURN_CAP
        out[PHASE] = PH_OVER
        out[SEAT] = -1


@leaf
def _end_turn(out, data):
    n = out[NP]
    if data[G_SBP] and n > 1:
        out[PHASE] = PH_SBP
        out[SBP_LEFT] = n - 1
        out[SEAT] = (out[CUR] + 1) % n
    else:
        _start_turn(out, data, (out[CUR] + 1) % n)


@leaf
def _after_card(out, data):
    """Return from a Road Building or Year of Plenty card to the phase it was played in."""
    out[PHASE] = out[RET_PHASE]
    out[SEAT] = out[CUR]


@leaf
def _build(out, data, p, action, rng):
    """A paid build or purchase (MAIN or SBP)."""
    if action == A_BUY:
        _pay(out, data, p, C_DEV)
        r = randint(rng, out[DECK_N])
        kind = 0
        for d in range(N_DEV):
            r -= out[DECK + d]
            if r < 0:
                kind = d
                break
        out[DECK + kind] -= 1
        out[DECK_N] -= 1
        out[DEV_NEW + p * N_DEV + kind] += 1
    elif action >= A_ROAD:
        _pay(out, data, p, C_ROAD)
        _place_road(out, data, p, action - A_ROAD)
    elif action >= A_CITY:
        v = action - A_CITY
        _pay(out, data, p, C_CITY)
        out[V_CITY + v] = 1
        out[CITIES_LEFT + p] -= 1
        out[SETTLE_LEFT + p] += 1
    else:
        _pay(out, data, p, C_SETTLEMENT)
        _place_settlement(out, data, p, action - A_SETTLE)


@leaf
def _play_dev(out, data, p, action):
    base = DEV + p * N_DEV
    out[DEV_PLAYED] = 1
    out[RET_PHASE] = out[PHASE]
    kind = KNIGHT
    if action == A_ROAD_BUILDING:
        kind = ROAD_BUILDING
    elif action == A_YOP:
        kind = YEAR_OF_PLENTY
    elif action != A_KNIGHT:
        kind = MONOPOLY
    out[PLAYED + kind] += 1
    if action == A_KNIGHT:
        out[base + KNIGHT] -= 1
        out[KNIGHTS + p] += 1
        update_largest_army(out, data, p)
        out[PHASE] = PH_ROBBER
    elif action == A_ROAD_BUILDING:
        out[base + ROAD_BUILDING] -= 1
        out[FREE_ROADS] = min(2, out[ROADS_LEFT + p])
        out[PHASE] = PH_ROAD_BUILDING
    elif action == A_YOP:
        out[base + YEAR_OF_PLENTY] -= 1
        out[YOP_LEFT] = 2
        out[PHASE] = PH_YOP
    else:
        res = action - A_MONO
        out[base + MONOPOLY] -= 1
        for s in range(out[NP]):
            if s != p:
                k = out[HAND + s * N_RES + res]
                out[HAND + s * N_RES + res] = 0
                out[HAND_N + s] -= k
                out[HAND + p * N_RES + res] += k
                out[HAND_N + p] += k


@leaf
def _check_win(out, data):
    """§5: the active player wins as soon as he has the target VP in his own turn."""
    phase = out[PHASE]
    if out[OVER] != 0:
        return
    if phase == PH_SETUP_SETTLE or phase == PH_SETUP_ROAD or phase == PH_SBP:  # noqa: SIM109
        return
    p = out[CUR]
    if victory_points(out, data, p) >= data[G_VP_TARGET]:
        out[OVER] = 1
        out[REASON] = R_VP_TARGET
        out[WINNER] = p
        out[PHASE] = PH_OVER
        out[SEAT] = -1


@leaf
def step(state, action, data, rng, out):
    """Apply one legal ``action`` of the deciding seat to ``state``, writing only into ``out``."""
    copy_state(state, out)
    advance(out, action, data, rng)


@leaf
def advance(out, action, data, rng):
    """:func:`step` in place: ``out`` becomes the state after ``action``. For the search bot's
    rollouts and the chunk loop, which keep no earlier position (saves step's copy); ``step``
    itself stays pure.
    It reads each field before it writes it, as step read ``state``."""
    p = out[SEAT]
    phase = out[PHASE]
    n = out[NP]
    if phase == PH_SETUP_SETTLE:
        v = action - A_SETTLE
        _place_settlement(out, data, p, v)
        out[LAST_VERTEX] = v
        if out[SETUP_STEP] >= n:  # second settlement: one card per adjacent terrain (§3.5)
            for k in range(3):
                h = data[D_VERTEX_HEXES + 3 * v + k]
                if h >= 0:
                    res = out[HEX_TERRAIN + h]
                    if res < N_RES and out[BANK + res] > 0:
                        _take_from_bank(out, p, res, 1)
        out[PHASE] = PH_SETUP_ROAD
    elif phase == PH_SETUP_ROAD:
        _place_road(out, data, p, action - A_ROAD)
        i = out[SETUP_STEP] + 1
        out[SETUP_STEP] = i
        out[LAST_VERTEX] = -1
        if i >= 2 * n:
            out[ROUND] = 0
            _start_turn(out, data, out[START])
        else:
            order = i if i < n else 2 * n - 1 - i
            out[SEAT] = (out[START] + order) % n
            out[PHASE] = PH_SETUP_SETTLE
    elif phase == PH_PRE_ROLL:
        if action == A_ROLL:
            _roll(out, data, rng)
        else:
            _play_dev(out, data, p, action)
    elif phase == PH_MAIN:
        if action == A_END:
            _end_turn(out, data)
        elif action >= A_TRADE and action < A_ROBBER:
            give = (action - A_TRADE) // N_RES
            get = (action - A_TRADE) % N_RES
            ratio = trade_ratio(out, data, p, give)
            out[HAND + p * N_RES + give] -= ratio
            out[BANK + give] += ratio
            out[BANK + get] -= 1
            out[HAND + p * N_RES + get] += 1
            out[HAND_N + p] += 1 - ratio
        elif action >= A_KNIGHT and action < A_PICK:
            _play_dev(out, data, p, action)
        elif action >= A_OFFER:
            make_offer(out, data, action)
        else:
            _build(out, data, p, action, rng)
    elif phase == PH_TRADE:
        trade_step(out, data, action)
    elif phase == PH_SBP:
        if action == A_END:
            out[SBP_LEFT] -= 1
            if out[SBP_LEFT] == 0:
                _start_turn(out, data, (out[CUR] + 1) % n)
            else:
                out[SEAT] = (p + 1) % n
        else:
            _build(out, data, p, action, rng)
    elif phase == PH_DISCARD:
        res = action - A_DISCARD
        out[HAND + p * N_RES + res] -= 1
        out[HAND_N + p] -= 1
        out[BANK + res] += 1
        out[DISCARD_OWED + p] -= 1
        if out[DISCARD_OWED + p] == 0:
            nxt = _next_discarder(out, p)
            if nxt >= 0:
                out[SEAT] = nxt
            else:
                out[SEAT] = out[CUR]
                out[PHASE] = PH_ROBBER
    elif phase == PH_ROBBER:
        out[ROBBER] = action - A_ROBBER
        victims = False
        for s in range(n):
            if _is_victim(out, data, s):
                victims = True
        out[PHASE] = PH_STEAL if victims else out[RET_PHASE]
    elif phase == PH_STEAL:
        victim = action - A_STEAL
        r = randint(rng, out[HAND_N + victim])
        res = 0
        for i in range(N_RES):
            r -= out[HAND + victim * N_RES + i]
            if r < 0:
                res = i
                break
        out[HAND + victim * N_RES + res] -= 1
        out[HAND_N + victim] -= 1
        out[HAND + p * N_RES + res] += 1
        out[HAND_N + p] += 1
        out[PHASE] = out[RET_PHASE]
    elif phase == PH_ROAD_BUILDING:
        _place_road(out, data, p, action - A_ROAD)
        out[FREE_ROADS] -= 1
        if out[FREE_ROADS] == 0 or out[ROADS_LEFT + p] == 0 or not any_road_ok(out, data, p):
            out[FREE_ROADS] = 0
            _after_card(out, data)
    elif phase == PH_YOP:
        _take_from_bank(out, p, action - A_PICK, 1)
        out[YOP_LEFT] -= 1
        if out[YOP_LEFT] == 0 or bank_total(out) == 0:
            out[YOP_LEFT] = 0
            _after_card(out, data)
    _check_win(out, data)


# ---------------------------------------------------------------------------------------------
# Hidden information (search bots)
# ---------------------------------------------------------------------------------------------


@leaf
def determinize(state, data, seat, rng, out):
    """A copy of ``state`` whose hidden parts are re-dealt at random, consistent with what
    ``seat`` sees (§7): the other players' resource hands (sizes kept) from the cards they hold
    together (the bank and ``seat``'s hand are public to it, so that total is known), and their
    unplayed development cards (held and bought this turn, counts kept) from those cards plus
    the deck. A pending domestic offer stays consistent: the cards it shows a seat holds
    (trade.known_held) stay in that hand."""
    copy_state(state, out)
    n = state[NP]
    pool = stack_int64(N_RES)
    for r in range(N_RES):
        pool[r] = 0
    total = 0
    kept = stack_int64(MAX_PLAYERS)
    for o in range(n):
        kept[o] = 0
        if o == seat:
            continue
        for r in range(N_RES):
            keep = known_held(state, o, r)
            kept[o] += keep
            pool[r] += out[HAND + o * N_RES + r] - keep
            total += out[HAND + o * N_RES + r] - keep
            out[HAND + o * N_RES + r] = keep
    for o in range(n):
        if o == seat:
            continue
        for _ in range(out[HAND_N + o] - kept[o]):
            r = draw_from_histogram(rng, pool, total)
            pool[r] -= 1
            total -= 1
            out[HAND + o * N_RES + r] += 1
    dpool = stack_int64(N_DEV)
    held = stack_int64(HELD_LEN)  # held[j * MAX_PLAYERS + o]: o's cards in DEV (j 0), DEV_NEW (1)
    for i in range(HELD_LEN):
        held[i] = 0
    dtotal = 0
    for d in range(N_DEV):
        dpool[d] = out[DECK + d]
        dtotal += out[DECK + d]
    for o in range(n):
        if o == seat:
            continue
        for j in range(2):
            base = (DEV if j == 0 else DEV_NEW) + o * N_DEV
            for d in range(N_DEV):
                k = out[base + d]
                held[j * MAX_PLAYERS + o] += k
                dpool[d] += k
                dtotal += k
                out[base + d] = 0
    for o in range(n):
        if o == seat:
            continue
        for j in range(2):
            base = (DEV if j == 0 else DEV_NEW) + o * N_DEV
            for _ in range(held[j * MAX_PLAYERS + o]):
                d = draw_from_histogram(rng, dpool, dtotal)
                dpool[d] -= 1
                dtotal -= 1
                out[base + d] += 1
    for d in range(N_DEV):
        out[DECK + d] = dpool[d]
