"""The variable map of Celtic Quest (rules/celtic-quest.md §3.1-§3.3, §9, §11 Q1, Q2, Q18, Q19).

Generated maps are re-checked by an independent checker that reads ``tiles.toml`` itself and
replays each layout tile by tile.
"""

from __future__ import annotations

import heapq
import tomllib
from collections import Counter

import numpy as np
import pytest

from sim.core.datafile import DataFileError
from sim.games.celtic_quest.mapgen import (
    BUILT,
    STUCK,
    TILES_FILE,
    TOO_MANY_UNCONNECTED,
    Placement,
    build_once,
    chart_value,
    ct_layout,
    generate_map,
    legal_placements,
    load_catalogue,
    parse_catalogue,
    section_graph,
)
from sim.games.celtic_trader.mapmode import generated_raw
from sim.games.celtic_trader.params import MAX_SEC, O_DIST, PARAMS, compile_data, load_raw

SIDES = ("E", "NE", "NW", "W", "SW", "SE")
STEP = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
COLUMNS = (1, 2, 4, 6, 8)
RES = ("deer", "cloth", "wheat", "fish", "ore", "grape")

RAW = tomllib.loads(TILES_FILE.read_text())
TILES = {t["id"]: t for t in RAW["tiles"]}
CAT = load_catalogue()


# ---------------------------------------------------------------------------------------------
# the catalogue (§9 design properties)
# ---------------------------------------------------------------------------------------------


def test_catalogue_has_the_design_properties_of_the_spec():
    tiles = RAW["tiles"]
    assert len(tiles) == 24
    spots = [s for t in tiles for net in t.get("green", []) for s in net["resource_spots"]]
    assert len(spots) == 18 and Counter(spots) == {r: 3 for r in RES}
    fish_tiles = [t for t in tiles for n in t.get("green", []) if "fish" in n["resource_spots"]]
    assert len(fish_tiles) == 3 and all(t["enchantable"] for t in fish_tiles)
    enchantable = [t["id"] for t in tiles if t.get("enchantable")]
    assert len(enchantable) == 12 and {"REG", "CAN"} <= set(enchantable)
    crystals = sum(n.get("crystal_spots", 0) for t in tiles for n in t.get("enchanted", []))
    crystals += sum(t.get("crystal_spots", 0) for t in tiles if t["kind"] == "bastion_enchanted")
    assert crystals == 12
    terrain = Counter(x for t in tiles for x in t["terrain"])
    assert terrain == {"woods": 5, "hills": 5}
    assert [t["id"] for t in tiles if len(t.get("green", [])) == 2] == ["T01", "T04", "T07"]
    roads = {t["id"]: sum(len(n["edges"]) for n in t.get("green", [])) for t in tiles}
    assert [i for i, n in roads.items() if n == 1] == ["T08", "T12"]
    assert [t["id"] for t in tiles if t.get("set_aside_at_setup")] == ["REG_E", "CAN_E"]
    assert len(CAT.stack) == 21 and CAT.stone_circle.id == "SC"
    for t in tiles:  # RULING B19: the enchanted side has the same road sides, all connected
        if t.get("enchanted"):
            (back,) = t["enchanted"]
            assert sorted(back["edges"]) == sorted(e for n in t["green"] for e in n["edges"])
    assert TILES["REG_E"]["arms"] == TILES["REG"]["arms"]
    assert TILES["CAN_E"]["arms"] == TILES["CAN"]["arms"]


# ---------------------------------------------------------------------------------------------
# an independent checker of a layout
# ---------------------------------------------------------------------------------------------


def _nets(tile_id: str) -> list[list[int]]:
    """Road networks of a tile by side index (a bastion's arms are one network: the hub)."""
    t = TILES[tile_id]
    if "arms" in t:
        return [[SIDES.index(s) for s in t["arms"]]]
    return [[SIDES.index(s) for s in n["edges"]] for n in t["green"]]


def _road(p: Placement) -> dict[int, int]:
    """Absolute side -> network index of a placed tile."""
    return {(s + p.rotation) % 6: i for i, net in enumerate(_nets(p.tile)) for s in net}


def _reached(placed: dict) -> set:
    """(position, network) pairs joined to the Stone Circle's network by roads."""
    start = ((0, 0), 0)
    if (0, 0) not in placed:
        return set()
    seen, todo = {start}, [start]
    while todo:
        pos, n = todo.pop()
        road = _road(placed[pos])
        for d, m in road.items():
            if m != n:
                continue
            npos = (pos[0] + STEP[d][0], pos[1] + STEP[d][1])
            if npos in placed:
                other = _road(placed[npos]).get((d + 3) % 6)
                if other is not None and (npos, other) not in seen:
                    seen.add((npos, other))
                    todo.append((npos, other))
    return seen


def check_layout(layout) -> list[str]:
    """Every broken rule of §3.1 in a finished layout (empty if legal)."""
    errors = []
    wanted = sorted(t["id"] for t in RAW["tiles"] if not t.get("set_aside_at_setup"))
    if sorted(p.tile for p in layout) != wanted:
        errors.append("not every tile placed exactly once")
    if layout[0] != Placement("SC", 0, 0, 0):
        errors.append("the Stone Circle is not first, in the middle")
    placed: dict = {}
    for p in layout:
        pos = (p.q, p.r)
        if pos in placed:
            errors.append(f"{p.tile}: position taken")
        if not 0 <= p.rotation < 6:
            errors.append(f"{p.tile}: rotation {p.rotation}")
        if placed:
            reached = _reached(placed)
            road = _road(p)
            neighbours = toward = 0
            for d in range(6):
                npos = (p.q + STEP[d][0], p.r + STEP[d][1])
                if npos not in placed:
                    continue
                neighbours += 1
                other = _road(placed[npos]).get((d + 3) % 6)
                if (d in road) != (other is not None):
                    errors.append(f"{p.tile}: roads not aligned on side {SIDES[d]}")
                if d in road and other is not None and (npos, other) in reached:
                    toward += 1
            if not neighbours:
                errors.append(f"{p.tile}: not adjacent to a placed tile")
            if not toward:
                errors.append(f"{p.tile}: no road to the Stone Circle")
        placed[pos] = p
    return errors


def unconnected_spots(layout) -> list[tuple[str, str]]:
    placed = {(p.q, p.r): p for p in layout}
    reached = _reached(placed)
    return [
        (p.tile, r)
        for pos, p in placed.items()
        for i, net in enumerate(TILES[p.tile].get("green", []))
        if (pos, i) not in reached
        for r in net["resource_spots"]
    ]


def chart_values(graph) -> list[tuple[int, ...]]:
    """§3.3 recomputed by Dijkstra on the graph's edges: nearest in-play spot of each resource."""
    nbrs: dict = {}
    for a, b, c in graph.edges:
        nbrs.setdefault(a, []).append((b, c))
        nbrs.setdefault(b, []).append((a, c))
    spots = {s[0]: s[3] for s in graph.sections}
    out = []
    for _, hub, _ in graph.bastions:
        dist, heap = {hub: 0}, [(0, hub)]
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist[u]:
                continue
            for v, c in nbrs.get(u, []):
                if d + c < dist.get(v, 10**9):
                    dist[v] = d + c
                    heapq.heappush(heap, (d + c, v))
        row = []
        for r in RES:
            ds = [
                dist[s] for s, rs in spots.items() if r in rs and s in dist and s in graph.connected
            ]
            row.append(COLUMNS[min(min(ds, default=99), 5) - 1])
        out.append(tuple(row))
    return out


# ---------------------------------------------------------------------------------------------
# scenarios
# ---------------------------------------------------------------------------------------------


def test_q1_chart_column_from_distance():
    assert [chart_value(d) for d in (1, 2, 3, 4, 5, 7)] == [1, 2, 4, 6, 8, 8]


def test_q2_celtic_trader_map_is_a_correct_celtic_quest_setup():
    raw = load_raw()
    layout = ct_layout(load_catalogue())
    assert len(layout) == 22 and not check_layout_positions_clash(layout)
    graph = section_graph(CAT, layout)
    # the same sections (tile, Roman spot, resource spots), in the same order
    assert [list(s[:3]) + [list(s[3])] for s in graph.sections] == raw["map"]["sections"]

    # the same adjacency
    def undirected(edges):
        return Counter((frozenset((a, b)), c) for a, b, c in edges)

    assert undirected(graph.edges) == undirected(raw["map"]["edges"])
    assert [(h, list(a)) for _, h, a in graph.bastions] == [
        (b["hub"], b["arms"]) for b in raw["bastions"]
    ]
    # every section connected: 0 face-down tokens
    assert graph.unconnected_spots == () and len(graph.connected) == len(graph.sections)
    # the charts are Celtic Trader's start demand (e.g. Iceni deer 2, cloth 4, wheat 1, fish 1,
    # ore 2, grape 6)
    assert [list(c) for c in graph.start_demand] == [b["start_demand"] for b in raw["bastions"]]
    assert graph.start_demand[3] == (2, 4, 1, 1, 2, 6)
    assert chart_values(graph) == list(graph.start_demand)
    # compiled for the engine, the distances are Celtic Trader's
    params = PARAMS.resolve(4, {})
    ours, theirs = compile_data(params, generated_raw(raw, graph)), compile_data(params)
    dist = slice(O_DIST, O_DIST + MAX_SEC * MAX_SEC)
    assert np.array_equal(ours[dist], theirs[dist])


def check_layout_positions_clash(layout) -> bool:
    return len({(p.q, p.r) for p in layout}) != len(layout)


def test_q18_map_legality():
    sc = [Placement("SC", 0, 0, 0)]
    legal = legal_placements(CAT, sc, "T12")
    assert ((-1, 0), 0) in legal  # its E road meets the Stone Circle's W road
    assert ((1, 0), 0) not in legal  # A: its W side has no road, the circle's E side has one
    with_t01 = [*sc, Placement("T01", 1, 0, 0)]
    # B: aligned with T01's NE road, whose network does not reach the Stone Circle
    assert ((2, -1), 4) not in legal_placements(CAT, with_t01, "T12")
    # the independent checker agrees
    assert check_layout([*sc, Placement("T12", -1, 0, 0)]) == ["not every tile placed exactly once"]
    assert "T12: roads not aligned on side W" in check_layout([*sc, Placement("T12", 1, 0, 0)])
    assert "T12: no road to the Stone Circle" in check_layout(
        [*with_t01, Placement("T12", 2, -1, 4)]
    )


def _first_build(seed: int):
    return build_once(CAT, np.random.default_rng(seed), 4)


def test_q19_unconnected_resource_spots():
    three = next(s for s in range(2000) if _first_build(s)[0] == TOO_MANY_UNCONNECTED)
    _, layout, _, n_off = _first_build(three)
    assert n_off == 3 == len(unconnected_spots(layout))
    assert len(section_graph(CAT, layout).unconnected_spots) == 3
    assert check_layout(layout) == []  # legal tile by tile, yet the finished map must be adjusted
    rebuilt = generate_map(CAT, three, 4)
    assert rebuilt.too_many_unconnected >= 1 and rebuilt.builds >= 2
    assert rebuilt.layout != layout and len(unconnected_spots(rebuilt.layout)) <= 2
    two = next(s for s in range(2000) if _first_build(s)[0] == BUILT and _first_build(s)[3] == 2)
    kept = generate_map(CAT, two, 4)
    assert kept.builds == 1 and kept.layout == _first_build(two)[1]
    graph = section_graph(CAT, kept.layout)
    assert len(graph.unconnected_spots) == 2  # the game is set up with 2 tokens face down
    assert all(s not in graph.connected for s, _ in graph.unconnected_spots)
    assert sorted((s.rstrip("ab"), r) for s, r in graph.unconnected_spots) == sorted(
        unconnected_spots(kept.layout)
    )


# ---------------------------------------------------------------------------------------------
# properties of generated maps
# ---------------------------------------------------------------------------------------------


def test_every_generated_map_is_legal():
    for seed in range(1000):
        built = generate_map(CAT, seed, 2 + seed % 4)
        assert check_layout(built.layout) == [], seed
        off = unconnected_spots(built.layout)
        assert len(off) <= 2, seed
        graph = section_graph(CAT, built.layout)
        assert len(graph.unconnected_spots) == len(off)
        assert len(graph.start_demand) == 6
        for chart in graph.start_demand:  # one marker per resource, in a column
            assert len(chart) == len(RES) and set(chart) <= set(COLUMNS)
        assert chart_values(graph) == list(graph.start_demand), seed
        n = 2 + seed % 4
        assert built.placed_by == (-1, *(i % n for i in range(21)))


def test_same_seed_same_map():
    for seed in (0, 7, 2**40 + 3):
        assert generate_map(CAT, seed, 3) == generate_map(CAT, seed, 3)
        rng = np.random.default_rng(seed)
        assert generate_map(CAT, rng, 3) == generate_map(CAT, seed, 3)
    layouts = {generate_map(CAT, s, 4).layout for s in range(20)}
    assert len(layouts) == 20


def test_bad_player_count_is_an_error():
    with pytest.raises(ValueError, match="n_players"):
        generate_map(CAT, 1, 6)


def test_build_rates_of_the_spec():
    """§3.1 item 4: 96.3 % built directly, 0.26 % stuck, 3.45 % over 2 unconnected spots;
    accepted maps 33.6 / 44.9 / 21.5 % with 0 / 1 / 2 unconnected spots."""
    rng = np.random.default_rng(2024)
    n = 5000
    outcomes, offs = Counter(), Counter()
    for _ in range(n):
        outcome, _, _, n_off = build_once(CAT, rng, 4)
        outcomes[outcome] += 1
        if outcome == BUILT:
            offs[n_off] += 1
    assert abs(outcomes[TOO_MANY_UNCONNECTED] / n - 0.0345) < 0.015
    assert outcomes[STUCK] / n < 0.01
    built = outcomes[BUILT]
    for k, share in ((0, 0.336), (1, 0.449), (2, 0.215)):
        assert abs(offs[k] / built - share) < 0.04, (k, offs[k] / built)


def test_the_checker_rejects_broken_layouts():
    layout = generate_map(CAT, 5, 4).layout
    assert check_layout(layout) == []
    assert "not every tile placed exactly once" in check_layout(layout[:-1])
    last = layout[-1]
    far = Placement(last.tile, 9, 9, last.rotation)
    assert f"{last.tile}: not adjacent to a placed tile" in check_layout([*layout[:-1], far])
    assert "the Stone Circle is not first, in the middle" in check_layout(layout[1:] + layout[:1])


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda r: r["tiles"][1]["green"][0].update(edges=["E", "UP"]), "tiles.T01.green.0.edges"),
        (lambda r: r["tiles"][2]["green"][0].update(edges=["E", "E"]), "names a side twice"),
        (lambda r: r["tiles"][1]["green"][1].update(edges=["E"]), "two networks share a side"),
        (lambda r: r["tiles"][3]["green"][0].update(resource_spots=["gold"]), "resources are"),
        (lambda r: r["tiles"][4].update(id="T03"), "duplicate ids"),
        (lambda r: r["tiles"][5].update(ct_position=[0, 0]), "share a ct_position"),
        (lambda r: r["tiles"][16].update(kind="plain"), "a bastion has arms"),
    ],
)
def test_a_broken_catalogue_is_a_one_line_error(change, fragment):
    raw = tomllib.loads(TILES_FILE.read_text())
    change(raw)
    with pytest.raises(DataFileError) as err:
        parse_catalogue(raw)
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_a_pool_builds_only_the_maps_its_games_play_and_the_same_data():
    """A variant's pool of generated maps is filled as games need its maps (map k from seed k):
    a short run builds only its games' maps, and each is the map a full build gives."""
    from sim.core.registry import make_setup
    from sim.games.celtic_quest import play

    setup = make_setup("celtic_quest", 3, {"map_pool": 64}, "random")
    seeds = [5, 69, 12]  # 69 plays map 5 again
    datas = [play.game_data(setup, s) for s in seeds]
    pool = play._pool(setup)
    assert sorted(pool) == [5, 12]
    assert datas[0] is datas[1]
    for k in (5, 12):
        assert np.array_equal(pool[k], play._compile(setup, play.map_graph(setup, k)))


def test_bench_builds_the_whole_pool_before_its_timing(monkeypatch):
    """``menhir bench`` times games, not map building: its warm-up builds the pool first."""
    from sim.core import bench
    from sim.core.registry import make_setup
    from sim.games.celtic_quest import play

    setup = make_setup("celtic_quest", 2, {"map_pool": 40}, "random")
    seen = []
    real = bench.play_batch

    def batch(s, seeds, root_seed):
        seen.append(len(play._pool(s)))
        return real(s, seeds, root_seed=root_seed)

    monkeypatch.setattr(bench, "play_batch", batch)
    bench.games_per_second(setup, 0.01)
    assert seen[0] < 40 and seen[1:] and all(n == 40 for n in seen[1:]), seen
