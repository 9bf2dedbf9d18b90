"""Catan: Troy data: load and validate ``catan_troy.toml``, build its boards with the base game's
geometry (sim/games/catan/board.py), declare every parameter (the §12 levers and the base rules
that still apply), and compile one variant.

The compiled data is the base game's flat int64 array (sim/games/catan/params.py, so every base
kernel reads it unchanged: the Troy board, no development cards, no robber) followed by the
scenario's own tables at offsets ``T_*`` (layout below).
"""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from sim.core.datafile import DataFileError, data_error, read_data_file
from sim.core.gamedata import GameData
from sim.core.params import Param, ParamError, ParamSet
from sim.games.catan import params as base
from sim.games.catan.board import NEIGHBOURS, Board, BoardError, build_board, hex_corners
from sim.games.catan.params import CostParam, parse_cost
from sim.games.catan.state import DESERT, GENERIC, MAX_HEX, MAX_PLAYERS, MAX_SLOTS, N_RES
from sim.games.catan_troy.state import MAX_SEA, MAX_STACK, MAX_TRACK, N_KINDS

DATA_FILE = Path(__file__).with_name("catan_troy.toml")

# Scalars of the scenario (data[T_RULES + k]).
(
    K_N_SEA,
    K_SEA_PEOPLE_START,
    K_THRESHOLD,
    K_COUNTED,
    K_DONATION_MAX,
    K_TOKENS_PER_DONATION,
    K_DONATIONS_PER_TURN,
    K_SHIP_TOKENS,
    K_SHIPS,
    K_FLAG_VP,
    K_TAKE_USES,
    K_SWAP_USES,
    K_SEA_PEOPLE_AFTER_SHIP,
    K_CANCELS_FLAG,
    K_CARDS_TROY,
    K_CARDS_MYCENAE,
    K_TRACK_LEN,
    K_ACTIVE_TURN_WIN,
    K_CARDS_REMOVED,
    K_TOKEN_TIEBREAK,
    N_KEYS,
) = range(21)

T_RULES = base.DATA_LEN
T_ALIGN = T_RULES + N_KEYS  # (N_RES,) +1 a point for Troy, -1 for Mycenae, 0 neutral
T_ROW_INIT = T_ALIGN + N_RES  # (N_RES,) the support row at the start
T_SHIP_COST = T_ROW_INIT + N_RES  # (N_RES,) resources of a ship
T_STACK = T_SHIP_COST + N_RES  # (MAX_STACK,) ship kinds, top (built first) to bottom
T_TRADE_CARDS = T_STACK + MAX_STACK  # (N_RES,) 2:1 trade cards at the start
T_TRACK = T_TRADE_CARDS + N_RES  # (MAX_TRACK,) event-track values by battles won
T_HEX_TERRAIN = T_TRACK + MAX_TRACK  # (MAX_HEX,) fixed terrain id (unnumbered: DESERT)
T_HEX_NUMBER = T_HEX_TERRAIN + MAX_HEX  # (MAX_HEX,) fixed number token, 0 = unnumbered
T_SLOT_TYPE = T_HEX_NUMBER + MAX_HEX  # (MAX_SLOTS,) harbour type per slot (lever)
T_SEA_VERTICES = T_SLOT_TYPE + MAX_SLOTS  # (MAX_SEA, 6) board vertices on a sea hex, -1 padded
T_SEA_NEIGHBOURS = T_SEA_VERTICES + MAX_SEA * 6  # (MAX_SEA, 6) adjacent sea hexes in play
TROY_DATA_LEN = T_SEA_NEIGHBOURS + MAX_SEA * 6

TABLES = {
    "troy_rules": (T_RULES, (N_KEYS,)),
    "align": (T_ALIGN, (N_RES,)),
    "row_initial": (T_ROW_INIT, (N_RES,)),
    "ship_cost": (T_SHIP_COST, (N_RES,)),
    "stack": (T_STACK, (MAX_STACK,)),
    "trade_cards": (T_TRADE_CARDS, (N_RES,)),
    "track": (T_TRACK, (MAX_TRACK,)),
    "hex_terrain": (T_HEX_TERRAIN, (MAX_HEX,)),
    "hex_number": (T_HEX_NUMBER, (MAX_HEX,)),
    "slot_type": (T_SLOT_TYPE, (MAX_SLOTS,)),
    "sea_vertices": (T_SEA_VERTICES, (MAX_SEA, 6)),
    "sea_neighbours": (T_SEA_NEIGHBOURS, (MAX_SEA, 6)),
}


def table(data: np.ndarray, name: str) -> np.ndarray:
    """A read-only view of one table (the scenario's or the base game's) of the data."""
    if name in base.TABLES:
        return base.table(data, name)
    offset, shape = TABLES[name]
    view = data[offset : offset + int(np.prod(shape))].reshape(shape)
    view.flags.writeable = False
    return view


REQUIRED = ("game", "rules", "pieces", "costs", "bank", "support", "ships", "board")
LAYOUTS = ("none", "provisional_layout")


def _fail(key: str, what: str) -> DataFileError:
    return data_error(DATA_FILE, key, what)


def load_raw() -> dict[str, Any]:
    """The parsed, validated shipped data file (cached for the process)."""
    return GAME_DATA.read()


def _names_ok(values: Any, names: list[str], key: str) -> None:
    if not isinstance(values, list) or any(v not in names for v in values):
        raise _fail(key, f"must be a list of {', '.join(names)}")


def _validate(raw: dict[str, Any]) -> None:
    """The game's own checks of a data file; its numbers are checked as parameter defaults."""
    g = raw["game"]
    if g["resources"] != base.resource_names():
        raise _fail("game.resources", f"must be {', '.join(base.resource_names())}")
    if len(g["ship_kinds"]) != N_KINDS:
        raise _fail("game.ship_kinds", f"must name {N_KINDS} ship kinds")
    _names_ok(raw["ships"]["stack"], g["ship_kinds"], "ships.stack")
    if not 1 <= len(raw["ships"]["stack"]) <= MAX_STACK:
        raise _fail("ships.stack", f"must hold 1 to {MAX_STACK} ships")
    for key in ("support.troy_resources", "support.mycenae_resources"):
        section, name = key.split(".")
        _names_ok(raw[section][name], g["resources"], key)
    if set(raw["support"]["troy_resources"]) & set(raw["support"]["mycenae_resources"]):
        raise _fail("support.mycenae_resources", "a resource scores for one city only")
    track = raw["support"]["event_track_values"]
    if not 2 <= len(track) <= MAX_TRACK or track[0] != 0:
        raise _fail("support.event_track_values", f"2 to {MAX_TRACK} values starting at 0")
    for players in (4, 6):
        boards(players, "none")
        boards(players, "provisional_layout")


def _by_players(v4: Any, v56: Any) -> dict[int, Any]:
    return {4: v4, 5: v56, 6: v56}


@cache
def _board_raw() -> dict[str, Any]:
    return read_data_file(DATA_FILE, ("game", "board"))


def _columns_key(players: int) -> str:
    return "4" if players <= 4 else "5_6"


@cache
def boards(players: int, harbours: str) -> Board:
    """The Troy board in play at ``players`` (4: the right third folded) with the lever's
    harbours (none by default, A23), built by the base game's geometry."""
    raw = _board_raw()
    bd = raw["board"]
    key = _columns_key(players)
    cols = bd[f"columns_{key}"]
    land = [[q, r] for q, r, _, _ in bd["hexes"] if q + r // 2 in cols]
    slots = [
        {"sea": h["sea"], "vertices": h["vertices"]}
        for h in bd["harbour_layout"]
        if harbours == "provisional_layout" and players in h["players"]
    ]
    identity = {"matrix": [1, 0, 0, 1], "offset": [0, 0], "order": 1}
    try:
        board = build_board(f"troy_{key}", land, slots, land, identity)
    except (BoardError, KeyError, TypeError, ValueError) as exc:
        raise _fail("board", f"is not a consistent board: {exc}") from None
    for h in bd["hexes"]:
        if h[2] not in raw["game"]["terrains"] or h[3] not in (0, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
            raise _fail("board.hexes", f"{h}: unknown terrain or number")
    return board


@cache
def sea_hexes(players: int) -> tuple[tuple[int, int], ...]:
    """The sea hexes in play (every one a ship hex, A17), in the data file's order."""
    sea = tuple((int(q), int(r)) for q, r in _board_raw()["board"][f"sea_{_columns_key(players)}"])
    if len(sea) > MAX_SEA or len(set(sea)) != len(sea):
        raise _fail(f"board.sea_{_columns_key(players)}", f"at most {MAX_SEA} distinct sea hexes")
    return sea


def sea_tables(players: int) -> tuple[np.ndarray, np.ndarray]:
    """(sea hex -> its board vertices, sea hex -> adjacent sea hexes), -1 padded to 6."""
    board = boards(players, "none")
    sea = sea_hexes(players)
    index = {h: i for i, h in enumerate(sea)}
    verts = np.full((MAX_SEA, 6), -1, np.int64)
    nbrs = np.full((MAX_SEA, 6), -1, np.int64)
    vid = {v: i for i, v in enumerate(board.vertices)}
    for i, (q, r) in enumerate(sea):
        if (q, r) in board.hexes:
            raise _fail(f"board.sea_{_columns_key(players)}", f"{[q, r]} is a land hex")
        on_board = [vid[c] for c in hex_corners(q, r) if c in vid]
        verts[i, : len(on_board)] = on_board
        near = [index[(q + dq, r + dr)] for dq, dr in NEIGHBOURS if (q + dq, r + dr) in index]
        nbrs[i, : len(near)] = near
    return verts, nbrs


def param_set(raw: dict[str, Any]) -> ParamSet:
    """The declared parameters (every §12 lever and the base rules Troy keeps), defaults from
    ``raw``."""
    g, ru, pc, co, su, sh = (
        raw["game"],
        raw["rules"],
        raw["pieces"],
        raw["costs"],
        raw["support"],
        raw["ships"],
    )
    sbp_min = ru["special_building_phase_min_players"]

    def count(name, default, doc, low=0, high=100):
        return Param(name, "int", default, doc, low=low, high=high)

    def choice(name, values, doc):
        return Param(name, "str", values[0], doc, choices=tuple(values))

    def cost(name, values, doc):
        return CostParam(name, "str", ",".join(str(c) for c in values), doc)

    def shared(name, default, doc=None):
        """A base parameter's declaration (range, kind) with Troy's default."""
        p = base.PARAMS.get(name)
        return dataclasses.replace(p, default=default, doc=doc or p.doc)

    params = [
        shared("vp_target", ru["vp_target"], "VP to win on one's own turn (track VP count)"),
        shared("discard_threshold", ru["discard_threshold"]),
        shared(
            "bank_per_resource",
            _by_players(raw["bank"]["per_resource_4"], raw["bank"]["per_resource_5_6"]),
            "resource cards of each kind (bank and support row together)",
        ),
        *(
            shared(f"cost_{k}", ",".join(str(c) for c in co[k]))
            for k in ("road", "settlement", "city")
        ),
        cost("ship_cost", co["ship"], "resources of a ship (lumber,brick,wool,grain,ore)"),
        count("ship_cost_tokens", co["ship_commerce_tokens"], "commerce tokens of a ship", 0, 20),
        *(shared(k, pc[k]) for k in ("roads", "settlements", "cities")),
        shared("bank_ratio", ru["bank_ratio"]),
        shared(
            "generic_harbour_ratio",
            ru["generic_harbour_ratio"],
            "trade through a 3:1 ship (or a generic harbour of the lever): N for 1",
        ),
        shared(
            "special_harbour_ratio",
            ru["special_harbour_ratio"],
            "trade of the resource of a 2:1 ship's card (or special harbour): N for 1",
        ),
        shared(
            "longest_road_min",
            ru["longest_road_min"],
            "road length that first takes Longest Road (ships never count)",
        ),
        shared("longest_road_vp", ru["longest_road_vp"]),
        Param(
            "event_track_values",
            "str",
            ",".join(str(v) for v in su["event_track_values"]),
            "VP of a city's marker by battles won, comma-separated from 0; a marker on the "
            "last space ends the game",
            provisional=True,
        ),
        count(
            "battle_threshold",
            _by_players(su["battle_threshold_4"], su["battle_threshold_5_6"]),
            "support-row size at a turn's end that starts a battle",
            1,
            100,
        ),
        count(
            "battle_counted",
            _by_players(su["battle_counted_4"], su["battle_counted_5_6"]),
            "cards of the row revealed and counted in a battle (the rest stay)",
            1,
            100,
        ),
        Param(
            "troy_resources",
            "str",
            ",".join(su["troy_resources"]),
            "resources that score a point for Troy in a battle (comma-separated)",
        ),
        Param(
            "mycenae_resources",
            "str",
            ",".join(su["mycenae_resources"]),
            "resources that score a point for Mycenae (the others are neutral)",
        ),
        cost("support_row_initial", su["row_initial"], "cards of the support row at the start"),
        count(
            "donation_max_cards", su["donation_max_cards"], "cards in one donation, at most", 1, 20
        ),
        count(
            "tokens_per_donation",
            su["tokens_per_donation"],
            "commerce tokens a donation earns",
            0,
            20,
        ),
        count("donations_per_turn", su["donations_per_turn"], "donations per turn (A1)", 0, 20),
        count("ships_per_player", sh["per_player"], "ship tokens per player", 0, MAX_STACK),
        Param(
            "ship_stack",
            "str",
            ",".join(sh["stack"]),
            "ship kinds top to bottom (built in that order): " + ", ".join(g["ship_kinds"]),
            provisional=True,
        ),
        count("flag_vp", sh["flag_vp"], "VP of a flag ship", 0, 10),
        cost(
            "two_to_one_cards",
            sh["two_to_one_cards"],
            "2:1 trade cards per resource at the start (lumber,brick,wool,grain,ore)",
        ),
        count(
            "take_uses_per_turn", sh["take_uses_per_turn"], "uses of each take ship a turn", 0, 10
        ),
        count(
            "swap_uses_per_turn", sh["swap_uses_per_turn"], "uses of each swap ship a turn", 0, 10
        ),
        Param(
            "sea_people_moves_after_ship",
            "bool",
            sh["sea_people_moves_after_ship"],
            "the builder moves the Sea People after every ship",
        ),
        Param(
            "sea_people_cancels_flag_vp",
            "bool",
            sh["sea_people_cancels_flag_vp"],
            "a flag ship under the Sea People loses its VP (A11)",
        ),
        count(
            "decision_cards_troy",
            _by_players(su["decision_cards_4"]["troy"], su["decision_cards_5_6"]["troy"]),
            "Troy decision cards shuffled for the deal",
            0,
            MAX_PLAYERS,
        ),
        count(
            "decision_cards_mycenae",
            _by_players(su["decision_cards_4"]["mycenae"], su["decision_cards_5_6"]["mycenae"]),
            "Mycenae decision cards shuffled for the deal",
            0,
            MAX_PLAYERS,
        ),
        Param(
            "ship_hexes",
            "str",
            sh["ship_hexes"][0],
            "sea hexes that take ships (A17): every sea hex in play",
            choices=tuple(sh["ship_hexes"]),
            provisional=True,
        ),
        choice(
            "tie_break",
            ru["tie_break"],
            "an event-track end: VP ties go to more commerce tokens, or the win is shared (A18)",
        ),  # fmt: skip
        choice(
            "battle_cards_to",
            ru["battle_cards_to"],
            "the counted cards of a battle go back to the bank or leave the game (A5)",
        ),
        Param(
            "harbours",
            "str",
            ru["harbours"][0],
            "no harbours (A23), or the spec's provisional layout",
            choices=tuple(ru["harbours"]),
            provisional=True,
        ),
        choice(
            "battle_win_timing",
            ru["battle_win_timing"],
            "a player a battle brings to the VP target wins at the start of his next turn, or "
            "the active player wins at once (A8)",
        ),
        shared(
            "special_building_phase",
            {n: n >= sbp_min for n in range(g["players_min"], g["players_max"] + 1)},
            "after each turn the other players may build roads, settlements, cities and ships",
        ),
        shared(
            "domestic_trade",
            ru["domestic_trade"],
            "player-to-player trading of resource cards (§4.2, A21; commerce tokens are never "
            "traded; none in the Special Building Phase, A14)",
        ),
        shared("trade_offers_per_turn", ru["trade_offers_per_turn"]),
        shared("start_seat", g["start_seat"]),
        shared("cap_tiebreak", g["cap_tiebreak"][0]),
        shared("safety_cap_rounds", g["safety_cap_rounds"]),
    ]
    return ParamSet(tuple(params))


GAME_DATA = GameData(DATA_FILE, REQUIRED, _validate, param_set)
PARAMS = param_set(load_raw())

# base parameters that Troy passes through unchanged
SHARED = (
    "vp_target",
    "discard_threshold",
    "bank_per_resource",
    "cost_road",
    "cost_settlement",
    "cost_city",
    "roads",
    "settlements",
    "cities",
    "bank_ratio",
    "generic_harbour_ratio",
    "special_harbour_ratio",
    "longest_road_min",
    "longest_road_vp",
    "special_building_phase",
    "domestic_trade",
    "trade_offers_per_turn",
    "start_seat",
    "cap_tiebreak",
    "safety_cap_rounds",
)
BOARD_TABLES = (
    "spiral",
    "hex_vertices",
    "hex_neighbours",
    "vertex_hexes",
    "vertex_vertices",
    "vertex_edges",
    "edge_vertices",
    "vertex_slot",
    "slot_vertices",
)


def resource_names() -> list[str]:
    return list(load_raw()["game"]["resources"])


def terrain_names() -> list[str]:
    return list(load_raw()["game"]["terrains"])


def kind_names() -> list[str]:
    return list(load_raw()["game"]["ship_kinds"])


def side_names() -> list[str]:
    return list(load_raw()["game"]["sides"])


def _bad(name: str, value: Any, what: str) -> ParamError:
    return ParamError(f"parameter '{name}' = {value!r} is not allowed: {what}")


def _resource_list(params: dict[str, Any], name: str) -> list[int]:
    names = resource_names()
    parts = [p.strip() for p in str(params[name]).split(",") if p.strip()]
    if any(p not in names for p in parts) or len(set(parts)) != len(parts):
        raise _bad(name, params[name], f"distinct resources among {', '.join(names)}")
    return [names.index(p) for p in parts]


def _int_list(params: dict[str, Any], name: str, low: int, high: int, n_max: int) -> list[int]:
    try:
        values = [int(p) for p in str(params[name]).split(",")]
    except ValueError:
        values = []
    if not values or len(values) > n_max or any(not low <= v <= high for v in values):
        raise _bad(name, params[name], f"1 to {n_max} comma-separated integers in [{low}, {high}]")
    return values


def stack_kinds(params: dict[str, Any]) -> list[int]:
    """The ship stack (kind ids, top first) cut to ``ships_per_player``."""
    kinds = kind_names()
    parts = [p.strip() for p in str(params["ship_stack"]).split(",")]
    if not parts or len(parts) > MAX_STACK or any(p not in kinds for p in parts):
        raise _bad("ship_stack", params["ship_stack"], f"1 to {MAX_STACK} of {', '.join(kinds)}")
    if params["ships_per_player"] > len(parts):
        raise _bad(
            "ships_per_player", params["ships_per_player"], f"at most the {len(parts)} of the stack"
        )
    return [kinds.index(p) for p in parts[: params["ships_per_player"]]]


def compile_data(params: dict[str, Any], players: int | None = None) -> np.ndarray:
    """The arrays of one variant: the base game's (Troy board, no development cards) and the
    scenario's tables."""
    players = 4 if players is None else players
    raw = _board_raw()
    board = boards(players, params["harbours"])
    n_troy, n_myc = params["decision_cards_troy"], params["decision_cards_mycenae"]
    if n_troy + n_myc < players:
        raise _bad("decision_cards_troy", n_troy, f"with Mycenae's {n_myc}, one card a player")
    if params["battle_counted"] > params["battle_threshold"]:
        raise _bad("battle_counted", params["battle_counted"], "at most the battle_threshold")
    track = _int_list(params, "event_track_values", 0, 100, MAX_TRACK)
    if len(track) < 2 or track[0] != 0:
        raise _bad("event_track_values", params["event_track_values"], "from 0, 2 values or more")
    stack = stack_kinds(params)
    troy, myc = (
        _resource_list(params, "troy_resources"),
        _resource_list(params, "mycenae_resources"),
    )
    if set(troy) & set(myc):
        raise _bad("mycenae_resources", params["mycenae_resources"], "none of troy_resources")
    row = parse_cost(params["support_row_initial"])
    if max(row) > params["bank_per_resource"]:
        raise _bad("support_row_initial", params["support_row_initial"], "within the bank")

    # the base arrays: shared rules, no development cards, then the Troy board over the base one
    shared = {k: params[k] for k in SHARED}
    shared.update({f"dev_{k}": 0 for k in base.dev_names()})
    shared["board"] = "standard" if players <= 4 else "large"
    data = np.concatenate([base.compile_data(base.PARAMS.resolve(players, shared), players),
                           np.full(TROY_DATA_LEN - base.DATA_LEN, -1, np.int64)])  # fmt: skip

    def put(name: str, values: np.ndarray) -> None:
        offset, shape = base.TABLES[name] if name in base.TABLES else TABLES[name]
        full = np.full(shape, -1, np.int64)
        full[tuple(slice(0, n) for n in values.shape)] = values
        data[offset : offset + full.size] = full.reshape(-1)

    for name in BOARD_TABLES:
        put(name, np.asarray(getattr(board, name), np.int64))
    terrain_of = {t: i for i, t in enumerate(raw["game"]["terrains"][:DESERT])}
    fixed = {(q, r): (terrain_of.get(t, DESERT), n) for q, r, t, n in raw["board"]["hexes"]}
    hex_terrain = np.array([fixed[h][0] for h in board.hexes], np.int64)
    hex_number = np.array([fixed[h][1] for h in board.hexes], np.int64)
    pool = np.bincount(hex_terrain, minlength=DESERT + 1)
    tokens = hex_number[hex_terrain != DESERT]
    data[base.G_N_HEX] = board.n_hexes
    data[base.G_N_VERT] = board.n_vertices
    data[base.G_N_EDGE] = board.n_edges
    data[base.G_N_SLOTS] = board.n_slots
    data[base.G_N_TOKENS] = len(tokens)
    data[base.G_ROTATIONS] = 1
    data[base.G_RANDOM_NUMBERS] = 0
    put("terrain_pool", pool)
    put("tokens", tokens)
    put("harbour_pool", np.zeros(N_RES + 1, np.int64))

    names = [*resource_names(), "generic"]
    slot_types = [
        GENERIC if h["type"] == "generic" else names.index(h["type"])
        for h in raw["board"]["harbour_layout"]
        if params["harbours"] == "provisional_layout" and players in h["players"]
    ]
    sea_verts, sea_nbrs = sea_tables(players)
    sea = sea_hexes(players)
    start = tuple(raw["board"]["sea_people_start"])
    if start not in sea:
        raise _fail("board.sea_people_start", "must be a sea hex in play")
    keys = np.zeros(N_KEYS, np.int64)
    keys[K_N_SEA] = len(sea)
    keys[K_SEA_PEOPLE_START] = sea.index(start)
    keys[K_THRESHOLD] = params["battle_threshold"]
    keys[K_COUNTED] = params["battle_counted"]
    keys[K_DONATION_MAX] = params["donation_max_cards"]
    keys[K_TOKENS_PER_DONATION] = params["tokens_per_donation"]
    keys[K_DONATIONS_PER_TURN] = params["donations_per_turn"]
    keys[K_SHIP_TOKENS] = params["ship_cost_tokens"]
    keys[K_SHIPS] = len(stack)
    keys[K_FLAG_VP] = params["flag_vp"]
    keys[K_TAKE_USES] = params["take_uses_per_turn"]
    keys[K_SWAP_USES] = params["swap_uses_per_turn"]
    keys[K_SEA_PEOPLE_AFTER_SHIP] = bool(params["sea_people_moves_after_ship"])
    keys[K_CANCELS_FLAG] = bool(params["sea_people_cancels_flag_vp"])
    keys[K_CARDS_TROY] = n_troy
    keys[K_CARDS_MYCENAE] = n_myc
    keys[K_TRACK_LEN] = len(track)
    keys[K_ACTIVE_TURN_WIN] = params["battle_win_timing"] == "active_turn"
    keys[K_CARDS_REMOVED] = params["battle_cards_to"] == "removed"
    keys[K_TOKEN_TIEBREAK] = params["tie_break"] == "commerce_tokens"
    align = np.zeros(N_RES, np.int64)
    align[troy] = 1
    align[myc] = -1
    put("troy_rules", keys)
    put("align", align)
    put("row_initial", np.array(row, np.int64))
    put("ship_cost", np.array(parse_cost(params["ship_cost"]), np.int64))
    put("stack", np.array(stack, np.int64))
    put("trade_cards", np.array(parse_cost(params["two_to_one_cards"]), np.int64))
    put("track", np.array(track, np.int64))
    put("hex_terrain", hex_terrain)
    put("hex_number", hex_number)
    put("slot_type", np.array(slot_types, np.int64))
    put("sea_vertices", sea_verts)
    put("sea_neighbours", sea_nbrs)
    return data


def default_data(players: int = 4, **overrides) -> np.ndarray:
    """Compiled data of the default rules (plus overrides): handy for tests and the REPL."""
    return compile_data(PARAMS.resolve(players, overrides), players)
