"""Catan rules: the longest road (§4.3, A3) and the largest army, and placing the pieces that
change the longest road (a road, a settlement).
"""

from sim.core.kernel import leaf
from sim.core.scratch import stack_int32, stack_int64
from sim.games.catan.params import (
    D_EDGE_VERTICES,
    D_VERTEX_EDGES,
    D_VERTEX_SLOT,
    D_VERTEX_VERTICES,
    G_LA_MIN,
    G_LR_MIN,
    G_N_VERT,
)
from sim.games.catan.rules_placement import has_road_at
from sim.games.catan.state import (
    E_OWNER,
    KNIGHTS,
    LA_HOLDER,
    LR_HOLDER,
    MAX_E,
    MAX_ROADS,
    MAX_V,
    N_RES,
    NP,
    PORTS,
    ROAD_LEN,
    ROADS_LEFT,
    SETTLE_LEFT,
    SLOT_TYPE,
    V_OWNER,
)

TRAIL_STACK = MAX_ROADS + 2  # longest-road search: the trail's vertices (one more than its roads)


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
