"""Celtic Trader on a generated map: the parameter ``map_mode = "generated"``.

Each game builds its own map from the Celtic Quest tile catalogue with the map building of
celtic-quest.md §3.1 (``sim.games.celtic_quest.mapgen``), seeded from the game's seed through a
stream of its own, so the chance and bot streams (and every game of ``map_mode = "fixed"``) draw
exactly what they drew before. The map reaches the compiled kernels as that game's own data
array: the same sections (the catalogue's tiles and networks, which are Celtic Trader's), the
layout's road edges, the bastion charts computed by §3.3 and the role start sections.

On a generated map a few sections may be off the Stone Circle's roads (at most 2 resource spots,
§3.1): their tokens are the face-down tokens of §3.2, never picked up and so never refilled,
which is what the engine does with a spot nobody can reach. A role start section off the Stone
Circle's roads is replaced by the Stone Circle (Celtic Quest RULING B21: starts are limited to
sections connected to the Stone Circle).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.datafile import DataFileError
from sim.games.celtic_quest.mapgen import (
    COLUMN_VALUES,
    RESOURCES,
    MapGraph,
    generate_map,
    load_catalogue,
    section_graph,
)
from sim.games.celtic_trader.params import compile_data

MAP_STREAM = 0x4D41505F47454E  # "MAP_GEN": the map's seed stream, apart from chance and bots


def map_rng(game_seed: int) -> np.random.Generator:
    """The random stream that builds the map of the game with seed ``game_seed``."""
    return np.random.default_rng([int(game_seed) % 2**64, MAP_STREAM])


def game_map(players: int, game_seed: int, columns=COLUMN_VALUES) -> tuple[Any, MapGraph]:
    """(generated map, its section graph) of the game with seed ``game_seed``; the charts use
    the demand ``columns``."""
    cat = load_catalogue()
    built = generate_map(cat, map_rng(game_seed), players)
    return built, section_graph(cat, built.layout, columns)


def generated_raw(raw: dict, graph: MapGraph) -> dict:
    """``raw`` (Celtic Trader data) with the map, charts and role starts of ``graph``."""
    sections = [[s[0], s[1], s[2], list(s[3])] for s in graph.sections]
    if raw["map"]["sections"] != sections or tuple(raw["game"]["resources"]) != RESOURCES:
        raise DataFileError(
            "map_mode = 'generated' builds the map from the Celtic Quest tiles "
            "(sim/games/celtic_quest/tiles.toml): map.sections and game.resources must keep "
            "their shipped values"
        )
    charts = {name: (hub, arms, graph.start_demand[i]) for i, (name, hub, arms) in
              enumerate(graph.bastions)}  # fmt: skip
    bastions = []
    for b in raw["bastions"]:
        if b["name"] not in charts:
            raise DataFileError(f"map_mode = 'generated': no tile of the bastion {b['name']}")
        hub, arms, demand = charts[b["name"]]
        bastions.append({**b, "hub": hub, "arms": list(arms), "start_demand": list(demand)})
    sc = graph.stone_circle
    roles = [
        {**r, "start": [s if s in graph.connected else sc for s in r["start"]]}
        for r in raw["roles"]
    ]
    out = dict(raw)
    out["map"] = {**raw["map"], "edges": [list(e) for e in graph.edges], "stone_circle": sc}
    out["bastions"] = bastions
    out["roles"] = roles
    return out


def generated_data(setup, game_seed: int) -> np.ndarray:
    """Compiled data of one game of ``setup`` on its own generated map."""
    raw = setup.raw_data()
    _, graph = game_map(setup.players, game_seed, tuple(raw["game"]["demand_columns"]))
    return compile_data(dict(setup.params), generated_raw(raw, graph))
