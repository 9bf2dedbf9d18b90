"""Catan's data file and board geometry (rules/catan-base.md §2, §9, §12): counts, symmetric
adjacency, degrees, harbour slots, the spiral, and the loader's errors."""

import itertools

import numpy as np
import pytest

from sim.core.datafile import DataFileError
from sim.core.params import ParamError
from sim.games.catan import params as P
from sim.games.catan import state as S
from sim.games.catan.board import BoardError, build_board, hex_corners

BOARDS = ("standard", "large")
# (hexes, vertices, edges, harbour slots)
COUNTS = {"standard": (19, 54, 72, 9), "large": (30, 80, 109, 11)}


@pytest.mark.parametrize("name", BOARDS)
def test_counts(name):
    b = P.boards(name)
    assert (b.n_hexes, b.n_vertices, b.n_edges, b.n_slots) == COUNTS[name]
    # Euler on the planar graph of the island: V - E + F = 2 with F = hexes + the outside.
    assert b.n_vertices - b.n_edges + b.n_hexes + 1 == 2


@pytest.mark.parametrize("name", BOARDS)
def test_every_adjacency_is_symmetric(name):
    b = P.boards(name)
    for v in range(b.n_vertices):
        for k in range(3):
            w, e = b.vertex_vertices[v, k], b.vertex_edges[v, k]
            assert (w < 0) == (e < 0)
            if w < 0:
                continue
            assert v in b.vertex_vertices[w], "vertex adjacency is not symmetric"
            assert sorted(b.edge_vertices[e]) == sorted([v, w]), "vertex->edge disagrees"
    for e in range(b.n_edges):
        a, c = b.edge_vertices[e]
        assert e in b.vertex_edges[a] and e in b.vertex_edges[c], "edge->vertex not symmetric"
    for h in range(b.n_hexes):
        for v in b.hex_vertices[h]:
            assert h in b.vertex_hexes[v], "hex->vertex not symmetric"
        for n in b.hex_neighbours[h]:
            if n >= 0:
                assert h in b.hex_neighbours[n], "hex adjacency not symmetric"
                assert len(set(b.hex_vertices[h]) & set(b.hex_vertices[n])) == 2
    for v in range(b.n_vertices):
        for h in b.vertex_hexes[v]:
            if h >= 0:
                assert v in b.hex_vertices[h]


@pytest.mark.parametrize("name", BOARDS)
def test_degrees_in_range(name):
    b = P.boards(name)
    v_deg = (b.vertex_vertices[: b.n_vertices] >= 0).sum(axis=1)
    h_deg = (b.vertex_hexes[: b.n_vertices] >= 0).sum(axis=1)
    assert v_deg.min() == 2 and v_deg.max() == 3
    assert h_deg.min() == 1 and h_deg.max() == 3
    assert v_deg.sum() == 2 * b.n_edges
    assert h_deg.sum() == 6 * b.n_hexes
    # a coast vertex touching one hex has degree 2; an inland vertex (3 hexes) has degree 3
    assert all(v_deg[h_deg == 3] == 3) and all(v_deg[h_deg == 1] == 2)
    n_deg = (b.hex_neighbours[: b.n_hexes] >= 0).sum(axis=1)
    assert n_deg.min() >= 2 and n_deg.max() == 6
    # every edge joins distinct vertices, and no edge is listed twice
    assert len({tuple(sorted(e)) for e in b.edge_vertices.tolist()}) == b.n_edges
    assert all(a != c for a, c in b.edge_vertices)


def test_standard_board_matches_section_9():
    b = P.boards("standard")
    centre = b.hex_id(0, 0)
    assert (b.hex_neighbours[centre] >= 0).sum() == 6
    # the first spiral row is the §9.2 path as written, starting at the top-left corner hex
    assert b.hexes[b.spiral[0, 0]] == (0, -2) and b.hexes[b.spiral[0, -1]] == (0, 0)
    assert b.spiral.shape == (6, 19)
    # a 60-degree turn maps the corner (0, -2) to (2, -2): (q, r) -> (-r, q + r)
    assert b.hexes[b.spiral[1, 0]] == (2, -2)
    for k in range(6):
        assert sorted(b.spiral[k]) == list(range(19)) and b.spiral[k, -1] == centre
    # harbour slot 0: sea (0, -3), vertices S(0, -3) and N(0, -2)
    pair = {b.vertex_id(0, -3, "S"), b.vertex_id(0, -2, "N")}
    assert set(b.slot_vertices[0]) == pair
    assert (b.vertex_slot >= 0).sum() == 18
    # every harbour vertex is a coast vertex (it touches fewer than 3 land hexes)
    for v in np.flatnonzero(b.vertex_slot >= 0):
        assert (b.vertex_hexes[v] >= 0).sum() < 3


def test_large_board_is_symmetric_under_the_half_turn():
    b = P.boards("large")
    assert b.spiral.shape == (2, 30)
    land = set(b.hexes)
    assert {(-1 - q, -r) for q, r in land} == land
    assert [len([h for h in b.hexes if h[1] == r]) for r in range(-3, 4)] == [3, 4, 5, 6, 5, 4, 3]
    assert (b.vertex_slot >= 0).sum() == 22


@pytest.mark.parametrize("name", BOARDS)
def test_spiral_tokens_never_put_6_next_to_8(name):
    """§9.2: for every desert position and every rotation (the large board's order was chosen
    to keep this true with its two deserts)."""
    b = P.boards(name)
    terrains, tokens, _ = P.board_pools(name)
    deserts = terrains[S.DESERT]
    for k in range(b.spiral.shape[0]):
        for des in itertools.combinations(range(b.n_hexes), deserts):
            number = {}
            rest = iter(tokens)
            for h in b.spiral[k]:
                if h not in des:
                    number[int(h)] = next(rest)
            for h, n in number.items():
                if n in (6, 8):
                    for m in b.hex_neighbours[h]:
                        assert number.get(int(m)) not in (6, 8), (name, k, des)


def test_token_and_terrain_pools_match_section_2():
    terr34, tok34, harb34 = P.board_pools("standard")
    terr56, tok56, harb56 = P.board_pools("large")
    assert terr34 == [4, 3, 4, 4, 3, 1]  # forest, hills, pasture, fields, mountains, desert
    assert terr56 == [6, 5, 6, 6, 5, 2]
    assert sorted(tok34) == sorted([2, 12] + [3, 4, 5, 6, 8, 9, 10, 11] * 2)
    assert sorted(tok56) == sorted([2, 12] * 2 + [3, 4, 5, 6, 8, 9, 10, 11] * 3)
    assert harb34 == [1, 1, 1, 1, 1, 4] and harb56 == [1, 1, 2, 1, 1, 5]


def test_defaults_are_the_rulebook_numbers():
    d4, d6 = P.PARAMS.defaults(4), P.PARAMS.defaults(6)
    assert d4["vp_target"] == 10 and d4["discard_threshold"] == 7
    assert d4["bank_per_resource"] == 19 and d6["bank_per_resource"] == 24
    deck = ("knight", "road_building", "year_of_plenty", "monopoly", "victory_point")
    assert [d4[f"dev_{k}"] for k in deck] == [14, 2, 2, 2, 5]
    assert [d6[f"dev_{k}"] for k in deck] == [20, 3, 3, 3, 5]
    assert (d4["roads"], d4["settlements"], d4["cities"]) == (15, 5, 4)
    assert d4["cost_road"] == "1,1,0,0,0" and d4["cost_settlement"] == "1,1,1,1,0"
    assert d4["cost_city"] == "0,0,0,2,3" and d4["cost_dev_card"] == "0,0,1,1,1"
    assert (d4["bank_ratio"], d4["generic_harbour_ratio"], d4["special_harbour_ratio"]) == (
        4,
        3,
        2,
    )
    assert (d4["longest_road_min"], d4["longest_road_vp"]) == (5, 2)
    assert (d4["largest_army_min"], d4["largest_army_vp"]) == (3, 2)
    assert d4["number_placement"] == "spiral" and d4["domestic_trade"] is True
    assert not d4["special_building_phase"] and d6["special_building_phase"]
    assert P.PARAMS.defaults(3)["board"] == "standard" and P.PARAMS.defaults(5)["board"] == "large"
    assert d4["start_seat"] == 0


def test_every_section_12_lever_is_declared():
    names = set(P.PARAMS.names())
    for lever in (
        "vp_target",
        "discard_threshold",
        "bank_per_resource",
        "dev_knight",
        "dev_victory_point",
        "cost_road",
        "cost_city",
        "roads",
        "settlements",
        "cities",
        "bank_ratio",
        "generic_harbour_ratio",
        "special_harbour_ratio",
        "longest_road_min",
        "longest_road_vp",
        "largest_army_min",
        "largest_army_vp",
        "number_placement",
        "domestic_trade",
        "trade_offers_per_turn",
        "special_building_phase",
        "start_seat",
    ):
        assert lever in names


def test_compile_data_shapes_and_values():
    data = P.default_data(4)
    assert data.dtype == np.int64 and data.shape == (P.DATA_LEN,)
    assert data[P.G_N_HEX] == 19 and data[P.G_N_VERT] == 54
    assert data[P.G_N_EDGE] == 72 and data[P.G_DECK_N] == 25
    assert list(P.table(data, "costs")[P.C_CITY]) == [0, 0, 0, 2, 3]
    b = P.boards("standard")
    for name in ("hex_vertices", "hex_neighbours", "vertex_hexes", "vertex_vertices"):
        arr = getattr(b, name)
        t = P.table(data, name)
        assert (t[: arr.shape[0]] == arr).all() and (t[arr.shape[0] :] == -1).all()
    assert (P.table(data, "edge_vertices")[:72] == b.edge_vertices).all()
    assert (P.table(data, "vertex_edges")[:54] == b.vertex_edges).all()
    assert (P.table(data, "spiral")[:6, :19] == b.spiral).all()
    assert (P.table(data, "vertex_slot")[:54] == b.vertex_slot).all()
    offsets = sorted(off for off, _ in P.TABLES.values())
    sizes = {off: int(np.prod(shape)) for off, shape in P.TABLES.values()}
    for a, c in zip(offsets, offsets[1:], strict=False):
        assert a + sizes[a] == c, "tables overlap or leave a gap"
    assert offsets[-1] + sizes[offsets[-1]] == P.DATA_LEN
    big = P.default_data(6)
    assert big[P.G_N_HEX] == 30 and big[P.G_DECK_N] == 34
    assert big[P.G_SBP] == 1 and big[P.G_ROTATIONS] == 2
    cheap = P.default_data(4, cost_city="0,0,0,2,2", board="large")
    assert list(P.table(cheap, "costs")[P.C_CITY]) == [0, 0, 0, 2, 2] and cheap[P.G_N_HEX] == 30


@pytest.mark.parametrize(
    "key,value",
    [
        ("cost_road", "1,1,0,0"),
        ("cost_road", "a,1,0,0,0"),
        ("vp_target", 2),
        ("number_placement", "zigzag"),
        ("domestic_trade", "often"),
        ("trade_offers_per_turn", -1),
        ("board", "huge"),
    ],
)
def test_bad_overrides_are_one_line_errors(key, value):
    with pytest.raises(ParamError) as exc:
        P.PARAMS.resolve(4, {key: value})
    assert key in str(exc.value) and "\n" not in str(exc.value)


def test_start_seat_must_be_a_seat():
    with pytest.raises(ParamError, match="start_seat"):
        P.default_data(3, start_seat=3)


def test_board_errors_name_the_problem():
    land = [[0, 0], [1, 0]]
    rot = {"matrix": [1, 0, 0, 1], "offset": [0, 0], "order": 1}
    build_board("ok", land, [], land, rot)
    with pytest.raises(BoardError, match="twice"):
        build_board("x", [[0, 0], [0, 0]], [], land, rot)
    with pytest.raises(BoardError, match="spiral"):
        build_board("x", land, [], [[0, 0]], rot)
    slot = {"sea": [0, -1], "vertices": [[0, 0, "N"], [0, -1, "S"]]}
    build_board("ok", land, [slot], land, rot)
    with pytest.raises(BoardError, match="land hex"):
        build_board("x", land, [{"sea": [1, 0], "vertices": slot["vertices"]}], land, rot)
    with pytest.raises(BoardError, match="touch its sea"):
        bad = {"sea": [0, -1], "vertices": [[0, 0, "S"], [0, 1, "N"]]}
        build_board("x", land, [bad], land, rot)
    turn = {"matrix": [0, -1, 1, 1], "offset": [0, 0], "order": 6}
    with pytest.raises(BoardError, match="off the board"):
        build_board("x", land, [], land, turn)
    assert hex_corners(0, 0)[0] == (0, 0, "N")


def test_data_file_errors_name_file_and_key(tmp_path, monkeypatch):
    text = P.DATA_FILE.read_text()
    with pytest.raises(DataFileError, match=r"catan.toml: 'dev_deck' is missing"):
        P.GAME_DATA.read(text.replace("[dev_deck]", "[dev_deckx]"), "catan.toml")
    bad = tmp_path / "catan.toml"  # the board geometry is read from the data file itself
    bad.write_text(text.replace("forest = 4, hills = 3", "forest = 5, hills = 3"))
    monkeypatch.setattr(P, "DATA_FILE", bad)
    P.boards.cache_clear()
    P._board_pools.cache_clear()
    try:
        with pytest.raises(DataFileError, match=r"boards.standard.terrain_pool"):
            P.GAME_DATA.read(bad.read_text(), "catan.toml")
    finally:
        monkeypatch.undo()
        P.boards.cache_clear()
        P._board_pools.cache_clear()
        P.load_raw()
