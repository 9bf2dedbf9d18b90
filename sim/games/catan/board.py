"""Catan board geometry, built once from the axial coordinates of rules/catan-base.md §9.

A board is given by its land hexes ``(q, r)`` (pointy-top, ``r`` southward, ``q`` eastward) and
its harbour slots; everything else is derived here, in plain Python, into flat numpy arrays that
the kernels index: hexes, vertices (canonical ``(q, r, "N"|"S")``), edges (pairs of adjacent
vertices that a land hex touches at both ends) and every adjacency between them.

Ids are stable: hexes in the data file's ``land`` order, vertices and edges in reading order
(top to bottom, left to right), so a vertex id means the same corner in every run. Adjacency rows
are padded with -1 to a fixed width (a vertex has at most 3 neighbours, 3 edges and 3 hexes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Hex = tuple[int, int]
Vertex = tuple[int, int, str]

# Hex neighbours in the order E, SE, SW, W, NW, NE (§9.1).
NEIGHBOURS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def hex_corners(q: int, r: int) -> list[Vertex]:
    """The six corners of hex (q, r), clockwise from the top: N, NE, SE, S, SW, NW (§9.1)."""
    return [
        (q, r, "N"),
        (q + 1, r - 1, "S"),
        (q, r + 1, "N"),
        (q, r, "S"),
        (q - 1, r + 1, "N"),
        (q, r - 1, "S"),
    ]


def vertex_touching_hexes(v: Vertex) -> list[Hex]:
    """All three hexes (land or not) that meet at vertex ``v`` (§9.1)."""
    q, r, side = v
    if side == "N":
        return [(q, r), (q, r - 1), (q + 1, r - 1)]
    return [(q, r), (q - 1, r + 1), (q, r + 1)]


def vertex_neighbours(v: Vertex) -> list[Vertex]:
    """The three vertices adjacent to ``v`` (on the board or not), §9.1."""
    q, r, side = v
    if side == "N":
        return [(q + 1, r - 1, "S"), (q, r - 1, "S"), (q + 1, r - 2, "S")]
    return [(q, r + 1, "N"), (q - 1, r + 1, "N"), (q - 1, r + 2, "N")]


def _screen(v: Vertex) -> tuple[float, float]:
    """(y, x) of a vertex for reading order: rows of hexes 1.5 apart, corners 1 above/below."""
    q, r, side = v
    return (1.5 * r + (-1.0 if side == "N" else 1.0), q + r / 2)


@dataclass(frozen=True)
class Board:
    """One board's geometry. Arrays are int64; adjacency rows are padded with -1."""

    name: str
    hexes: tuple[Hex, ...]  # land hexes, id = index
    vertices: tuple[Vertex, ...]  # id = index
    edges: tuple[tuple[int, int], ...]  # (vertex id, vertex id), smaller first
    hex_vertices: np.ndarray  # (H, 6) corners N, NE, SE, S, SW, NW
    hex_neighbours: np.ndarray  # (H, 6) land neighbours E, SE, SW, W, NW, NE or -1
    vertex_hexes: np.ndarray  # (V, 3) land hexes touching the vertex
    vertex_vertices: np.ndarray  # (V, 3) adjacent vertices joined by a board edge
    vertex_edges: np.ndarray  # (V, 3) the edge to vertex_vertices[v, k] (same column)
    edge_vertices: np.ndarray  # (E, 2)
    slot_sea: tuple[Hex, ...]  # harbour slots: the sea hex
    slot_vertices: np.ndarray  # (S, 2) harbour slots: the two vertices
    vertex_slot: np.ndarray  # (V,) harbour slot at the vertex or -1
    spiral: np.ndarray  # (K, H) hex ids in spiral order, one row per allowed rotation

    @property
    def n_hexes(self) -> int:
        return len(self.hexes)

    @property
    def n_vertices(self) -> int:
        return len(self.vertices)

    @property
    def n_edges(self) -> int:
        return len(self.edges)

    @property
    def n_slots(self) -> int:
        return len(self.slot_sea)

    def vertex_id(self, q: int, r: int, side: str) -> int:
        return self.vertices.index((q, r, side))

    def hex_id(self, q: int, r: int) -> int:
        return self.hexes.index((q, r))

    def edge_id(self, a: int, b: int) -> int:
        return self.edges.index((min(a, b), max(a, b)))


class BoardError(ValueError):
    """The board data is inconsistent; the message says what is wrong."""


def _rotate(h: Hex, matrix: list[int], offset: list[int]) -> Hex:
    a, b, c, d = matrix
    q, r = h
    return (a * q + b * r + offset[0], c * q + d * r + offset[1])


def build_board(
    name: str,
    land: list[list[int]],
    harbour_slots: list[dict],
    spiral_path: list[list[int]],
    rotation: dict,
) -> Board:
    """Derive every array of one board from its coordinates; raise BoardError if inconsistent."""
    hexes = tuple((int(q), int(r)) for q, r in land)
    if len(set(hexes)) != len(hexes):
        raise BoardError("a land hex is listed twice")
    hex_index = {h: i for i, h in enumerate(hexes)}

    verts: set[Vertex] = set()
    edge_set: set[frozenset] = set()
    for q, r in hexes:
        c = hex_corners(q, r)
        verts.update(c)
        for i in range(6):
            edge_set.add(frozenset((c[i], c[(i + 1) % 6])))
    vertices = tuple(sorted(verts, key=_screen))
    vid = {v: i for i, v in enumerate(vertices)}
    edges = tuple(sorted(tuple(sorted(vid[v] for v in e)) for e in edge_set))
    eid = {e: i for i, e in enumerate(edges)}

    n_h, n_v, n_e = len(hexes), len(vertices), len(edges)
    hex_vertices = np.array([[vid[v] for v in hex_corners(q, r)] for q, r in hexes], np.int64)
    hex_neighbours = np.full((n_h, 6), -1, np.int64)
    for i, (q, r) in enumerate(hexes):
        for k, (dq, dr) in enumerate(NEIGHBOURS):
            hex_neighbours[i, k] = hex_index.get((q + dq, r + dr), -1)

    vertex_hexes = np.full((n_v, 3), -1, np.int64)
    vertex_vertices = np.full((n_v, 3), -1, np.int64)
    vertex_edges = np.full((n_v, 3), -1, np.int64)
    for i, v in enumerate(vertices):
        touching = [hex_index[h] for h in vertex_touching_hexes(v) if h in hex_index]
        vertex_hexes[i, : len(touching)] = sorted(touching)
        k = 0
        for w in vertex_neighbours(v):
            if w in vid and (min(i, vid[w]), max(i, vid[w])) in eid:
                vertex_vertices[i, k] = vid[w]
                vertex_edges[i, k] = eid[(min(i, vid[w]), max(i, vid[w]))]
                k += 1
    edge_vertices = np.array(edges, np.int64).reshape(n_e, 2)

    slot_sea = []
    slot_vertices = np.zeros((len(harbour_slots), 2), np.int64)
    vertex_slot = np.full(n_v, -1, np.int64)
    for s, slot in enumerate(harbour_slots):
        sea = (int(slot["sea"][0]), int(slot["sea"][1]))
        if sea in hex_index:
            raise BoardError(f"harbour slot {s}: sea hex {list(sea)} is a land hex")
        pair = []
        for q, r, side in slot["vertices"]:
            v = (int(q), int(r), str(side))
            if v not in vid:
                raise BoardError(f"harbour slot {s}: vertex {list(v)} is not on the board")
            if sea not in vertex_touching_hexes(v):
                raise BoardError(f"harbour slot {s}: vertex {list(v)} does not touch its sea hex")
            if vertex_slot[vid[v]] >= 0:
                raise BoardError(f"harbour slot {s}: vertex {list(v)} already has a harbour")
            vertex_slot[vid[v]] = s
            pair.append(vid[v])
        if len(pair) != 2 or (min(pair), max(pair)) not in eid:
            raise BoardError(f"harbour slot {s}: its two vertices must form a board edge")
        slot_vertices[s] = pair
        slot_sea.append(sea)

    path = [(int(q), int(r)) for q, r in spiral_path]
    if sorted(path) != sorted(hexes):
        raise BoardError("the spiral path must list every land hex exactly once")
    order = int(rotation["order"])
    spiral = np.zeros((order, n_h), np.int64)
    current = path
    for k in range(order):
        for i, h in enumerate(current):
            if h not in hex_index:
                raise BoardError(f"the spiral rotation maps a land hex off the board: {list(h)}")
            spiral[k, i] = hex_index[h]
        current = [_rotate(h, rotation["matrix"], rotation["offset"]) for h in current]
    if sorted(current) != sorted(path) or current != path:
        raise BoardError(f"the spiral rotation applied {order} times is not the identity")

    return Board(
        name=name,
        hexes=hexes,
        vertices=vertices,
        edges=edges,
        hex_vertices=hex_vertices,
        hex_neighbours=hex_neighbours,
        vertex_hexes=vertex_hexes,
        vertex_vertices=vertex_vertices,
        vertex_edges=vertex_edges,
        edge_vertices=edge_vertices,
        slot_sea=tuple(slot_sea),
        slot_vertices=slot_vertices,
        vertex_slot=vertex_slot,
        spiral=spiral,
    )
