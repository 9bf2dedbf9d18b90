"""The variable map of Celtic Quest (rules/celtic-quest.md §3.1-§3.3, §9 G1/G8, RULINGS B17-B18).

Plain Python, run once per game at setup:

- :func:`load_catalogue` reads and checks ``tiles.toml`` (the 24 tiles of §9).
- :func:`generate_map` builds a map the way §3.1 does, seeded: the Stone Circle in the middle,
  the two enchanted bastions set aside, the 21 other tiles shuffled; players draw in seat order
  and place each tile uniformly at random over its legal (position, rotation) pairs; a tile with
  no legal placement goes to the bottom of the stack and the same player draws again; a stuck
  stack, or a finished map with more than 2 resource spots off the Stone Circle's roads, is
  rebuilt from scratch (rejection sampling, ruling G8).
- :func:`section_graph` turns a layout into the Celtic Trader graph format: sections (one per
  road network; bastions a hub plus one arm per road, hub-arm cost 0), edges of cost 1 between
  the sections of adjacent tiles that both have a road on their shared side, the sections
  connected to the Stone Circle, the face-down tokens (resource spots on the other sections,
  §3.2) and the bastion charts (§3.3: column min(d, 5) of the shortest road distance d from the
  bastion to the nearest in-play spot of each resource).

Coordinates are pointy-top axial (q, r); sides E, NE, NW, W, SW, SE are numbered 0-5
counter-clockwise, the side opposite d is d + 3 mod 6 and rotating a tile by k maps side i to
side i + k mod 6.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from sim.core.datafile import DataFileError, data_error, read_data_file
from sim.games.celtic_trader.params import FAR, graph_arrays, static_distances

TILES_FILE = Path(__file__).with_name("tiles.toml")

SIDES = ("E", "NE", "NW", "W", "SW", "SE")
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
RESOURCES = ("deer", "cloth", "wheat", "fish", "ore", "grape")  # Celtic Trader's order
COLUMN_VALUES = (1, 2, 4, 6, 8)  # demand columns 1..5 (§3.3); d > 5 stays in column 5
KINDS = ("stone_circle", "plain", "bastion", "bastion_enchanted")
MAX_BUILDS = 10_000  # a catalogue that never yields a legal map is an error, not a hang

# Outcomes of one build (:func:`build_once`).
BUILT, STUCK, TOO_MANY_UNCONNECTED = "built", "stuck", "too_many_unconnected"


@dataclass(frozen=True)
class Network:
    """One road network of a tile side: its sides (at rotation 0), resource and Roman spots."""

    sides: tuple[int, ...]
    resource_spots: tuple[str, ...]
    roman_spots: int
    crystal_spots: int = 0


@dataclass(frozen=True)
class Tile:
    """One catalogue tile. Bastion tiles have ``arms`` (sides, rotation 0) instead of networks."""

    id: str
    kind: str
    terrain: tuple[str, ...]
    enchantable: bool
    ct_position: tuple[int, int] | None
    green: tuple[Network, ...] = ()
    enchanted: tuple[Network, ...] = ()
    arms: tuple[int, ...] = ()
    bastion: str | None = None
    set_aside: bool = False

    @property
    def networks(self) -> tuple[tuple[int, ...], ...]:
        """The sides of each road network placed on the map (a bastion's arms meet at its hub)."""
        if self.arms:
            return (self.arms,)
        return tuple(n.sides for n in self.green)

    @property
    def road_sides(self) -> tuple[int, ...]:
        return tuple(sorted(s for net in self.networks for s in net))


@dataclass(frozen=True, eq=False)  # compared and hashed by identity (a cache key)
class Catalogue:
    tiles: tuple[Tile, ...]
    unconnected_max: int = 2  # §3.1 item 3: more resource spots off the circle's roads: rebuild

    @cached_property
    def by_id(self) -> dict[str, Tile]:
        return {t.id: t for t in self.tiles}

    def tile(self, tile_id: str) -> Tile:
        return self.by_id[tile_id]

    @property
    def stone_circle(self) -> Tile:
        return next(t for t in self.tiles if t.kind == "stone_circle")

    @property
    def stack(self) -> tuple[str, ...]:
        """The tiles the players place (§3.1 item 1), in catalogue order."""
        return tuple(t.id for t in self.tiles if t.kind != "stone_circle" and not t.set_aside)

    @property
    def map_tiles(self) -> tuple[Tile, ...]:
        """The Stone Circle and the stack: every tile of a built map, in catalogue order."""
        return tuple(t for t in self.tiles if not t.set_aside)


@dataclass(frozen=True)
class Placement:
    """A tile on the map: axial position and rotation (0-5, counter-clockwise steps)."""

    tile: str
    q: int
    r: int
    rotation: int


@dataclass(frozen=True)
class GeneratedMap:
    """A legal map: its layout (in placement order, the Stone Circle first), the seat that
    placed each tile (-1 for the Stone Circle), and how many builds were needed."""

    layout: tuple[Placement, ...]
    placed_by: tuple[int, ...]
    builds: int
    stuck: int
    too_many_unconnected: int


# ---------------------------------------------------------------------------------------------
# the catalogue
# ---------------------------------------------------------------------------------------------


def _sides(path: Path, key: str, names) -> tuple[int, ...]:
    if not isinstance(names, list) or any(n not in SIDES for n in names):
        raise data_error(path, key, f"must be a list of sides among {', '.join(SIDES)}")
    if len(set(names)) != len(names):
        raise data_error(path, key, "names a side twice")
    return tuple(SIDES.index(n) for n in names)


def _networks(path: Path, key: str, items) -> tuple[Network, ...]:
    out = []
    for j, net in enumerate(items):
        where = f"{key}.{j}"
        spots = tuple(net["resource_spots"])
        if any(s not in RESOURCES for s in spots):
            raise data_error(path, f"{where}.resource_spots", f"resources are {RESOURCES}")
        if not 0 <= net["roman_spots"] <= 1:
            raise data_error(path, f"{where}.roman_spots", "must be 0 or 1")
        out.append(
            Network(
                _sides(path, f"{where}.edges", net["edges"]),
                spots,
                net["roman_spots"],
                net.get("crystal_spots", 0),
            )
        )
    used = [s for n in out for s in n.sides]
    if len(used) != len(set(used)):
        raise data_error(path, key, "two networks share a side")
    return tuple(out)


def parse_catalogue(raw: dict, path: Path = TILES_FILE) -> Catalogue:
    """A :class:`Catalogue` from a parsed tile file; a one-line DataFileError if it is wrong."""
    tiles = []
    for i, t in enumerate(raw["tiles"]):
        key = f"tiles.{t.get('id', i)}"
        try:
            if t["kind"] not in KINDS:
                raise data_error(path, f"{key}.kind", f"must be one of {', '.join(KINDS)}")
            pos = t.get("ct_position")
            tile = Tile(
                id=t["id"],
                kind=t["kind"],
                terrain=tuple(t["terrain"]),
                enchantable=bool(t.get("enchantable", False)),
                ct_position=tuple(pos) if pos is not None else None,
                green=_networks(path, f"{key}.green", t.get("green", [])),
                enchanted=_networks(path, f"{key}.enchanted", t.get("enchanted", [])),
                arms=_sides(path, f"{key}.arms", t["arms"]) if "arms" in t else (),
                bastion=t.get("bastion"),
                set_aside=bool(t.get("set_aside_at_setup", False)),
            )
        except (KeyError, TypeError) as exc:
            raise data_error(path, key, f"is malformed ({type(exc).__name__}: {exc})") from None
        if tile.kind.startswith("bastion") != bool(tile.arms) or (tile.arms and tile.green):
            raise data_error(path, key, "a bastion has arms and no networks, other tiles none")
        if not tile.road_sides:
            raise data_error(path, key, "has no road")
        if not tile.set_aside and tile.ct_position is None:
            raise data_error(path, f"{key}.ct_position", "is missing")
        tiles.append(tile)
    ids = [t.id for t in tiles]
    if len(set(ids)) != len(ids):
        raise data_error(path, "tiles", "has duplicate ids")
    if sum(t.kind == "stone_circle" for t in tiles) != 1:
        raise data_error(path, "tiles", "must hold exactly one stone_circle")
    placed = [t.ct_position for t in tiles if not t.set_aside]
    if len(set(placed)) != len(placed):
        raise data_error(path, "tiles", "two tiles share a ct_position")
    building = raw.get("map_building", {})
    most = building.get("unconnected_resource_spots_max", 2)
    if not isinstance(most, int) or most < 0:
        raise data_error(path, "map_building.unconnected_resource_spots_max", "an integer >= 0")
    return Catalogue(tuple(tiles), most)


@lru_cache(maxsize=1)
def load_catalogue() -> Catalogue:
    """The shipped catalogue (``tiles.toml``), checked, cached for the process."""
    return parse_catalogue(read_data_file(TILES_FILE, ("tiles",)))


def ct_layout(catalogue: Catalogue) -> tuple[Placement, ...]:
    """Every map tile at its ``ct_position`` with rotation 0: the Celtic Trader map (§11 Q2)."""
    return tuple(Placement(t.id, *t.ct_position, 0) for t in catalogue.map_tiles)


# ---------------------------------------------------------------------------------------------
# building (§3.1)
# ---------------------------------------------------------------------------------------------


def _mask(sides) -> int:
    return sum(1 << s for s in sides)


def _rotated(sides, k: int) -> tuple[int, ...]:
    return tuple((s + k) % 6 for s in sides)


@lru_cache(maxsize=8)
def _rotations(catalogue: Catalogue) -> dict[str, list[tuple[int, tuple[int, ...]]]]:
    """For each tile and rotation: (road side mask, network index of each side or -1)."""
    out = {}
    for t in catalogue.tiles:
        rows = []
        for k in range(6):
            side_net = [-1] * 6
            for ni, net in enumerate(t.networks):
                for s in _rotated(net, k):
                    side_net[s] = ni
            rows.append((_mask(i for i in range(6) if side_net[i] >= 0), tuple(side_net)))
        out[t.id] = rows
    return out


class _Board:
    """The tiles placed so far, which of their networks reach the Stone Circle, the frontier."""

    def __init__(self, catalogue: Catalogue):
        self.rot = _rotations(catalogue)
        self.side_net: dict[tuple[int, int], tuple[int, ...]] = {}
        self.connected: set[tuple[tuple[int, int], int]] = set()
        self.frontier: set[tuple[int, int]] = set()

    def place(self, tile: str, pos: tuple[int, int], k: int, stone_circle: bool = False) -> None:
        side_net = self.rot[tile][k][1]
        self.side_net[pos] = side_net
        self.frontier.discard(pos)
        q, r = pos
        for dq, dr in DIRECTIONS:
            if (q + dq, r + dr) not in self.side_net:
                self.frontier.add((q + dq, r + dr))
        seeds = [(pos, n) for n in set(side_net) if n >= 0 and stone_circle]
        for d in range(6):
            n = side_net[d]
            if n >= 0 and self._neighbour_node(pos, d) in self.connected:
                seeds.append((pos, n))
        todo = [s for s in seeds if s not in self.connected]
        self.connected.update(todo)
        while todo:  # the new tile may link networks placed earlier to the Stone Circle
            p, n = todo.pop()
            sn = self.side_net[p]
            for d in range(6):
                if sn[d] == n:
                    other = self._neighbour_node(p, d)
                    if other is not None and other not in self.connected:
                        self.connected.add(other)
                        todo.append(other)

    def _neighbour_node(self, pos, d):
        """The (position, network) across side ``d`` of ``pos`` if both have a road there."""
        npos = (pos[0] + DIRECTIONS[d][0], pos[1] + DIRECTIONS[d][1])
        other = self.side_net.get(npos)
        if other is None or other[(d + 3) % 6] < 0 or self.side_net[pos][d] < 0:
            return None
        return npos, other[(d + 3) % 6]

    def legal(self, tile: str) -> list[tuple[tuple[int, int], int]]:
        """Every legal (position, rotation) of ``tile`` (§3.1 item 2), in a fixed order."""
        out = []
        for pos in sorted(self.frontier):
            present = roads = reach = 0
            for d, (dq, dr) in enumerate(DIRECTIONS):
                other = self.side_net.get((pos[0] + dq, pos[1] + dr))
                if other is None:
                    continue
                present |= 1 << d
                n = other[(d + 3) % 6]
                if n >= 0:
                    roads |= 1 << d
                    if ((pos[0] + dq, pos[1] + dr), n) in self.connected:
                        reach |= 1 << d
            # adjacent (the frontier is), aligned on every shared side, one road to the circle
            for k, (mask, _) in enumerate(self.rot[tile]):
                if mask & present == roads and mask & reach:
                    out.append((pos, k))
        return out

    def unconnected_spots(self, catalogue: Catalogue, tiles_at) -> int:
        n = 0
        for pos, tile in tiles_at.items():
            t = catalogue.tile(tile)
            for ni, net in enumerate(t.green):
                if (pos, ni) not in self.connected:
                    n += len(net.resource_spots)
        return n


def legal_placements(
    catalogue: Catalogue, layout: Sequence[Placement], tile: str
) -> list[tuple[tuple[int, int], int]]:
    """Every legal ((q, r), rotation) of ``tile`` next to a partial ``layout`` whose first tile is
    the Stone Circle (§3.1 item 2, examples Q18)."""
    board = _Board(catalogue)
    for i, p in enumerate(layout):
        board.place(p.tile, (p.q, p.r), p.rotation, stone_circle=i == 0)
    return board.legal(tile)


def as_rng(rng_or_seed) -> np.random.Generator:
    if isinstance(rng_or_seed, np.random.Generator):
        return rng_or_seed
    return np.random.default_rng(rng_or_seed)


def build_once(catalogue: Catalogue, rng: np.random.Generator, n_players: int, choose=None):
    """One build of §3.1 items 1-3: ``(outcome, layout, placed_by, unconnected spots)``.

    ``choose(seat, tile, legal, tiles_at, rng)``: the index in ``legal`` of the placement the
    seat drawing ``tile`` makes (``tiles_at``: position -> tile id placed so far); None: uniform
    over the legal placements (the bots' default policy, B17).

    ``outcome`` is BUILT, STUCK (every remaining tile was tried without a legal placement) or
    TOO_MANY_UNCONNECTED (more than ``catalogue.unconnected_max`` = 2 resource spots off the
    Stone Circle's roads).
    """
    sc = catalogue.stone_circle.id
    board = _Board(catalogue)
    board.place(sc, (0, 0), 0, stone_circle=True)
    layout = [Placement(sc, 0, 0, 0)]
    placed_by = [-1]
    tiles_at = {(0, 0): sc}
    stack = [catalogue.stack[i] for i in rng.permutation(len(catalogue.stack))]
    seat = 0
    failed = 0  # tiles drawn in a row without a legal placement
    while stack:
        tile = stack.pop(0)
        legal = board.legal(tile)
        if not legal:
            stack.append(tile)  # to the bottom; the same player draws again
            failed += 1
            if failed == len(stack):
                return STUCK, tuple(layout), tuple(placed_by), -1
            continue
        failed = 0
        if choose is None:
            pos, k = legal[int(rng.integers(len(legal)))]
        else:
            pos, k = legal[choose(seat, tile, legal, tiles_at, rng)]
        board.place(tile, pos, k)
        tiles_at[pos] = tile
        layout.append(Placement(tile, pos[0], pos[1], k))
        placed_by.append(seat)
        seat = (seat + 1) % n_players
    n_off = board.unconnected_spots(catalogue, tiles_at)
    outcome = TOO_MANY_UNCONNECTED if n_off > catalogue.unconnected_max else BUILT
    return outcome, tuple(layout), tuple(placed_by), n_off


def generate_map(catalogue: Catalogue, rng_or_seed, n_players: int, choose=None) -> GeneratedMap:
    """A legal map built as §3.1 says, rebuilt from scratch until legal (ruling G8).

    ``rng_or_seed`` is a ``numpy.random.Generator`` (advanced in place) or a seed for one; the
    same seed always gives the same map. ``choose``: who picks each placement (``build_once``).
    """
    if not 1 <= n_players <= 5:
        raise ValueError(f"n_players = {n_players}: 1 to 5 players place the tiles")
    rng = as_rng(rng_or_seed)
    stuck = over = 0
    for builds in range(1, MAX_BUILDS + 1):
        outcome, layout, placed_by, _ = build_once(catalogue, rng, n_players, choose)
        if outcome == BUILT:
            return GeneratedMap(layout, placed_by, builds, stuck, over)
        stuck += outcome == STUCK
        over += outcome == TOO_MANY_UNCONNECTED
    raise DataFileError(f"{TILES_FILE.name}: no legal map in {MAX_BUILDS} builds")


# ---------------------------------------------------------------------------------------------
# the section graph of a layout (§9 "Building the graph", §3.2, §3.3)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MapGraph:
    """A layout as the Celtic Trader engine reads a map (``celtic_trader.toml`` ``[map]``).

    ``sections`` are ``[id, tile, roman_spot, [resource spots]]`` in catalogue order (the same
    ids on every map: a tile's id, ``T01a``/``T01b`` for the networks of a bridge tile, ``BEL``
    and ``BEL.W`` for a bastion's hub and arms, arms named by their catalogue side); ``edges``
    ``[a, b, cost]``; ``bastions`` ``(name, hub, arms)``; ``start_demand`` one chart per bastion,
    values in the order of :data:`RESOURCES`.
    """

    sections: tuple[tuple, ...]
    edges: tuple[tuple[str, str, int], ...]
    stone_circle: str
    bastions: tuple[tuple[str, str, tuple[str, ...]], ...]
    connected: frozenset[str]
    unconnected_spots: tuple[tuple[str, str], ...]  # (section, resource): face-down tokens
    start_demand: tuple[tuple[int, ...], ...]


def _section_ids(tile: Tile) -> list[str]:
    """Section ids of a tile: one per network (per arm plus the hub for a bastion)."""
    if tile.arms:
        return [tile.id, *(f"{tile.id}.{SIDES[a]}" for a in tile.arms)]
    if len(tile.green) == 1:
        return [tile.id]
    return [f"{tile.id}{chr(ord('a') + i)}" for i in range(len(tile.green))]


def section_graph(
    catalogue: Catalogue, layout: Sequence[Placement], columns: Sequence[int] = COLUMN_VALUES
) -> MapGraph:
    """The section graph of a layout, its face-down tokens and its bastion charts."""
    by_tile = {p.tile: p for p in layout}
    at = {(p.q, p.r): p for p in layout}
    sections, edges, bastions = [], [], []
    side_section: dict[str, list] = {}  # tile -> section id on each absolute side (or None)
    order = [t for t in catalogue.tiles if t.id in by_tile]
    for t in order:
        ids = _section_ids(t)
        k = by_tile[t.id].rotation
        on_side = [None] * 6
        if t.arms:
            sections.append([t.id, t.id, 0, []])
            for a, arm in zip(t.arms, ids[1:], strict=True):
                sections.append([arm, t.id, 1, []])
                edges.append((t.id, arm, 0))
                on_side[(a + k) % 6] = arm
            bastions.append((t.bastion, t.id, tuple(ids[1:])))
        else:
            for sid, net in zip(ids, t.green, strict=True):
                sections.append([sid, t.id, net.roman_spots, list(net.resource_spots)])
                for s in net.sides:
                    on_side[(s + k) % 6] = sid
        side_section[t.id] = on_side
    index = {t.id: i for i, t in enumerate(order)}
    for t in order:
        p = by_tile[t.id]
        for d, (dq, dr) in enumerate(DIRECTIONS):
            other = at.get((p.q + dq, p.r + dr))
            if other is None or index[other.tile] < index[t.id]:
                continue  # each pair of neighbours once, from the earlier tile
            a, b = side_section[t.id][d], side_section[other.tile][(d + 3) % 6]
            if a is not None and b is not None:
                edges.append((a, b, 1))
    names = [s[0] for s in sections]
    adj, cost, deg = graph_arrays(names, edges)
    sc = names.index(catalogue.stone_circle.id)
    hubs = [names.index(hub) for _, hub, _ in bastions]
    dist, _ = static_distances(adj, cost, deg, len(names), [sc, *hubs])
    connected = frozenset(n for i, n in enumerate(names) if dist[sc, i] < FAR)
    off = tuple((s[0], r) for s in sections if s[0] not in connected for r in s[3])
    charts = []
    for h in hubs:
        chart = []
        for res in RESOURCES:  # the nearest in-play spot (§3.3 RULING)
            spots = [i for i, s in enumerate(sections) if res in s[3] and s[0] in connected]
            d = min((int(dist[h, i]) for i in spots), default=FAR)
            chart.append(chart_value(d, columns))
        charts.append(tuple(chart))
    return MapGraph(
        tuple(tuple(s[:3]) + (tuple(s[3]),) for s in sections),
        tuple(edges),
        catalogue.stone_circle.id,
        tuple(bastions),
        connected,
        off,
        tuple(charts),
    )


def chart_value(d: int, columns: Sequence[int] = COLUMN_VALUES) -> int:
    """§3.3 / Q1: the start value of a chart marker at shortest road distance ``d`` >= 1."""
    return columns[min(d, len(columns)) - 1]
