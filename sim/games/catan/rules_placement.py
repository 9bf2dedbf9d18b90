"""Catan rules: where a road or a settlement may go (§3, the distance rule)."""

from sim.core.kernel import leaf
from sim.core.scratch import stack_int32
from sim.games.catan.params import D_EDGE_VERTICES, D_VERTEX_EDGES, D_VERTEX_VERTICES, G_N_VERT
from sim.games.catan.state import A_ROAD, E_OWNER, V_OWNER


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
