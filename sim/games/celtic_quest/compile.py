"""Compile one Celtic Quest game's data: a Celtic Trader data array for its map (rule
``R_QUEST`` set) followed by the quest tables of ``layout.XDATA_LAYOUT``.

The Celtic Trader part is built by Celtic Trader's own compiler from a Celtic Trader data file
whose numbers are Celtic Quest's (supply, tokens, capabilities, Roman town spots) and whose map
is the game's layout (``mapgen``: generated per game, or the fixed Celtic Trader layout).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from sim.games.celtic_quest.layout import (
    MAX_DESTINIES,
    MAX_QUESTS,
    MAX_SPELL,
    MAX_TILES,
    MAX_TSEC,
    N_ITEMS,
    N_XRULES,
    QDATA_LEN,
    QUEST_ABILITY_IDS,
    TERRAIN_HILLS,
    TERRAIN_WOODS,
    X_ADVANCED_DRAW,
    X_BREAD_MP,
    X_BREADS_PER_TURN,
    X_CRYSTAL_ALL,
    X_CRYSTAL_SPOTS,
    X_CRYSTAL_STEPS,
    X_CRYSTALS,
    X_DRUID_STEPS,
    X_DRUIDS,
    X_ELIXIR_CRYSTALS,
    X_ELIXIR_PICKS,
    X_HARP_PER_VISIT,
    X_ITEMS_REMOVED,
    X_N_DESTINY_DECK,
    X_N_QUESTS,
    X_NTILES,
    X_POUCH,
    X_QUEST_VP_SUPPLY,
    X_QUESTS_DEALT,
    X_QUESTS_HELD,
    X_RING_PER_VISIT,
    X_RING_RP,
    X_SAME_VISIT,
    X_SPELL_END,
    X_TIE_MOST_QUESTS,
    XDATA_LAYOUT,
)
from sim.games.celtic_quest.mapgen import (
    Catalogue,
    MapGraph,
    ct_layout,
    load_catalogue,
    section_graph,
)
from sim.games.celtic_quest.params import START_RULES, destiny_deck
from sim.games.celtic_trader import params as trader
from sim.games.celtic_trader.mapmode import generated_raw

ITEM_IDS = ("gold", "bread", "ring", "elixir")  # layout.I_* order
TERRAIN_BITS = {"": 0, "woods": TERRAIN_WOODS, "hills": TERRAIN_HILLS}

# Celtic Trader parameters and where Celtic Quest holds each (the same name unless listed)
_TRADER_PARAMS = (
    "romans_in_play",
    "turn_limit",
    "first_placement_on_roman",
    "demand_raise_target",
    "trading_bonus",
    "draws_per_turn",
    "supply_points",
    "ten_markers",
    "safety_cap_rounds",
    "resource_in_bag_per_type",
    "orders_tokens",
    "romanisation_tokens",
    *(f"upgrade_cost_{i}" for i in range(1, 5)),
)


def trader_raw(raw: dict[str, Any]) -> dict[str, Any]:
    """Celtic Trader's shipped data with Celtic Quest's numbers (``raw``) where they apply."""
    ct = trader.load_raw()
    g, tok, caps, ench = raw["game"], raw["tokens"], raw["capabilities"], raw["enchantment"]
    out = dict(ct)
    out["game"] = {
        **ct["game"],
        **{
            k: g[k]
            for k in (
                "supply_points",
                "ten_markers",
                "ten_marker_value",
                "draws_per_turn",
                "demand_columns",
                "safety_cap_rounds",
            )
        },
    }
    out["tokens"] = {
        **ct["tokens"],
        **{
            k: tok[k]
            for k in (
                "resource_per_type",
                "resource_on_map_per_type",
                "resource_in_bag_per_type",
                "roman",
                "roman_removed_by_players",
                "cycle",
                "orders",
                "romanisation",
            )
        },
    }
    out["capabilities"] = {
        **ct["capabilities"],
        **{k: caps[k] for k in ("upgrade_cost", "movement", "trading", "carrying_x", "carrying_y")},
    }
    out["map"] = {
        **ct["map"],
        "roman_town_hub_spots": ench["roman_town_hub_spots"],
        "roman_town_arm_spots": ench["roman_town_arm_spots"],
    }
    return out


def trader_params(params: dict[str, Any]) -> dict[str, Any]:
    out = {name: params[name] for name in _TRADER_PARAMS}
    out.update(roles_in_play=6, start_mode="choose", map_mode="fixed")
    return out


@lru_cache(maxsize=4)
def fixed_graph(columns: tuple[int, ...]) -> MapGraph:
    cat = load_catalogue()
    return section_graph(cat, ct_layout(cat), columns)


def quest_tables(
    params: dict[str, Any], raw: dict[str, Any], ct_raw: dict[str, Any], graph: MapGraph,
    players: int, cat: Catalogue,
) -> np.ndarray:  # fmt: skip
    """The quest tables (``XDATA_LAYOUT``) of one game, flat."""
    names = [s[0] for s in graph.sections]
    tiles = []
    for s in graph.sections:
        if s[1] not in tiles:
            tiles.append(s[1])
    by_id = cat.by_id
    bast_names = [b["name"] for b in ct_raw["bastions"]]
    v: dict[str, np.ndarray] = {}
    x = np.zeros(N_XRULES, np.int32)
    tile_ench = np.zeros(MAX_TILES, np.int32)
    tile_terrain = np.zeros(MAX_TILES, np.int32)
    tile_bast = np.full(MAX_TILES, -1, np.int32)
    tile_nsec = np.zeros(MAX_TILES, np.int32)
    tile_secs = np.full((MAX_TILES, MAX_TSEC), -1, np.int32)
    sec_roman_e = np.zeros(trader.MAX_SEC, np.int32)
    sec_merge = np.arange(trader.MAX_SEC, dtype=np.int32)
    sec_connected = np.zeros(trader.MAX_SEC, np.int32)
    enchantable_left = params["enchantable_tiles"]
    spots_roman = raw["enchantment"]
    for t, tid in enumerate(tiles):
        tile = by_id[tid]
        secs = [i for i, s in enumerate(graph.sections) if s[1] == tid]
        tile_nsec[t] = len(secs)
        tile_secs[t, : len(secs)] = secs
        for terr in tile.terrain:
            tile_terrain[t] |= TERRAIN_BITS[terr]
        if tile.bastion is not None:
            tile_bast[t] = bast_names.index(tile.bastion)
        if tile.enchantable and enchantable_left > 0:
            tile_ench[t] = 1
            enchantable_left -= 1
        for j, sec in enumerate(secs):
            if tile.arms:
                sec_roman_e[sec] = 0 if j == 0 else spots_roman["bastion_roman_spots_per_arm"]
            else:
                sec_merge[sec] = secs[0]
                sec_roman_e[sec] = spots_roman["plain_roman_spots"] if j == 0 else 0
    for i, name in enumerate(names):
        sec_connected[i] = name in graph.connected
    x[X_NTILES] = len(tiles)
    x[X_SPELL_END] = params["spell_track_length"]
    x[X_CRYSTALS] = params["crystals"]
    x[X_POUCH] = params["pouch_limit"]
    x[X_ITEMS_REMOVED] = params["items_after_use"] == "removed_from_game"
    x[X_RING_PER_VISIT] = params["ring_bonus"] == "per_delivery"
    x[X_HARP_PER_VISIT] = params["harp_bonus"] == "per_delivery"
    x[X_CRYSTAL_ALL] = params["crystal_delivery"] == "all_or_none"
    x[X_QUEST_VP_SUPPLY] = params["quest_vp_source"] == "supply"
    x[X_ADVANCED_DRAW] = params["advanced_destiny_draw"] if params["advanced"] else 1
    deck = destiny_deck(raw, params["advanced"], params["luckiest"])
    ids = [d["id"] for d in raw["destinies"]]
    x[X_N_DESTINY_DECK] = len(deck)
    x[X_N_QUESTS] = len(raw["quests"])
    x[X_QUESTS_DEALT] = params["quests_dealt"]
    x[X_QUESTS_HELD] = params["quests_held"]
    x[X_RING_RP] = params["ring_extra_rp"]
    x[X_BREAD_MP] = params["bread_extra_tiles"]
    x[X_ELIXIR_PICKS] = params["elixir_free_pickups"]
    x[X_ELIXIR_CRYSTALS] = params["elixir_on_crystals"]
    x[X_BREADS_PER_TURN] = params["breads_per_turn"]
    x[X_SAME_VISIT] = params["ability_same_visit"]
    x[X_TIE_MOST_QUESTS] = params["tie_break"] == "most_quests"
    x[X_DRUID_STEPS] = raw["enchantment"]["druid_spell_steps"]
    x[X_CRYSTAL_STEPS] = raw["enchantment"]["crystal_spell_steps"]
    x[X_CRYSTAL_SPOTS] = raw["enchantment"]["crystal_spots_per_tile"]
    x[X_DRUIDS] = params["druid_tokens"]
    v["xrules"] = x
    v["tile_enchantable"] = tile_ench
    v["tile_terrain"] = tile_terrain
    v["tile_bast"] = tile_bast
    v["tile_nsec"] = tile_nsec
    v["tile_secs"] = tile_secs
    v["sec_roman_e"] = sec_roman_e
    v["sec_merge"] = sec_merge
    v["sec_connected"] = sec_connected
    spell = list(raw["spell_track"]["crystal_vp"])
    spell += [spell[-1]] * (MAX_SPELL + 1 - len(spell))
    v["spell_vp"] = np.array(spell[: MAX_SPELL + 1], np.int32)
    v["destiny_deck"] = np.array([ids.index(d) for d in deck] + [0] * (MAX_DESTINIES - len(deck)))
    nd = MAX_DESTINIES
    v["destiny_start"] = np.zeros(nd, np.int32)
    v["destiny_upg"] = np.zeros((nd, 3, 5), np.int32)
    for key in ("rp_vp", "crystal_vp", "town_vp", "tribe_vp", "best_basic", "basic"):
        v[f"destiny_{key}"] = np.zeros(nd, np.int32)
    v["destiny_quests_vp"] = np.zeros((nd, 5), np.int32)
    v["destiny_proxy"] = np.full(nd, -1, np.int32)
    for i, d in enumerate(raw["destinies"]):
        v["destiny_start"][i] = START_RULES.index(d["start"])
        for c, cap in enumerate(("movement", "trading", "carrying")):
            v["destiny_upg"][i, c] = d[cap]
        v["destiny_rp_vp"][i] = d["rp_as_vp"]
        v["destiny_quests_vp"][i] = d["quests_vp"]
        v["destiny_crystal_vp"][i] = d["crystal_vp_each"]
        v["destiny_town_vp"][i] = d["roman_town_vp_each"]
        v["destiny_tribe_vp"][i] = d["tribe_vp_each"]
        v["destiny_best_basic"][i] = d["best_basic"]
        v["destiny_basic"][i] = d["tier"] == "basic"
        if d["id"] in trader.ROLE_IDS:
            v["destiny_proxy"][i] = trader.ROLE_IDS.index(d["id"])
    res = list(raw["game"]["resources"])
    nq = MAX_QUESTS
    v["quest_need"] = np.zeros((nq, 2), np.int32)
    for key in ("vp", "ability", "amount", "terrain"):
        v[f"quest_{key}"] = np.zeros(nq, np.int32)
    for i, q in enumerate(raw["quests"]):
        v["quest_need"][i] = [res.index(r) for r in q["needs"]]
        v["quest_vp"][i] = q["vp"]
        v["quest_ability"][i] = QUEST_ABILITY_IDS.index(q["ability"])
        v["quest_amount"][i] = q["amount"]
        v["quest_terrain"][i] = TERRAIN_BITS[q["terrain"]]
    items = {it["id"]: it for it in raw["items"]}
    start = np.zeros((trader.MAX_PLAYERS, N_ITEMS), np.int32)
    for seat in range(players):
        for i, item in enumerate(ITEM_IDS):
            start[seat, i] = items[item]["start_by_seat"][seat]
    v["item_start"] = start
    # §3 item 4: below 5 players the items no seat starts with leave the game; at 5 (revised
    # ruling, lever five_player_items) they go into the bag
    unused = [items[item]["count"] - int(start[:, i].sum()) for i, item in enumerate(ITEM_IDS)]
    to_bag = players >= 5 and params["five_player_items"] == "bag"
    v["item_bag"] = np.array(unused if to_bag else [0] * N_ITEMS, np.int32)
    flat = [np.asarray(v[name], np.int32).reshape(-1) for name, _ in XDATA_LAYOUT]
    for (name, size), arr in zip(XDATA_LAYOUT, flat, strict=True):
        assert arr.size == size, name
    return np.concatenate(flat)


def compile_quest(
    params: dict[str, Any], raw: dict[str, Any], players: int, graph: MapGraph
) -> np.ndarray:
    """The data array of one game on the map ``graph``."""
    ct_raw = generated_raw(trader_raw(raw), graph)
    data = trader.compile_data(trader_params(params), ct_raw)
    data[trader.O_RULES + trader.R_QUEST] = 1
    out = np.concatenate(
        [data, quest_tables(params, raw, ct_raw, graph, players, load_catalogue())]
    )
    assert out.size == QDATA_LEN
    return out
