"""Catan data: load and validate ``catan.toml``, build its boards (board.py), declare every
parameter (the §12 levers), and compile one variant into the one flat int64 array the kernels
read (layout: the ``D_*`` offsets below).

Costs are string parameters, one count per resource in the order lumber, brick, wool, grain,
ore, so a designer sweeps them from a config or ``--set cost_city=0,0,0,2,2``. Values that
differ at 5-6 players (bank, development deck, board, Special Building Phase) are defaults by
player count.
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
from sim.games.catan.board import Board, BoardError, build_board
from sim.games.catan.state import (
    DESERT,
    MAX_E,
    MAX_HEX,
    MAX_PLAYERS,
    MAX_ROADS,
    MAX_SLOTS,
    MAX_V,
    N_DEV,
    N_RES,
    N_TERRAINS,
)

DATA_FILE = Path(__file__).with_name("catan.toml")

# Indices of the scalar rules of one variant (the first N_RULES entries of the data array).
(
    G_VP_TARGET,
    G_DISCARD,
    G_BANK,
    G_BANK_RATIO,
    G_GENERIC_RATIO,
    G_SPECIAL_RATIO,
    G_LR_MIN,
    G_LR_VP,
    G_LA_MIN,
    G_LA_VP,
    G_ROADS,
    G_SETTLEMENTS,
    G_CITIES,
    G_RANDOM_NUMBERS,
    G_SBP,
    G_START_SEAT,
    G_ROUND_CAP,
    G_N_HEX,
    G_N_VERT,
    G_N_EDGE,
    G_N_SLOTS,
    G_N_TOKENS,
    G_ROTATIONS,
    G_DECK_N,
    G_EXTRA_VP,
    G_HEX_BLOCK,
    G_DOMESTIC,
    G_OFFERS_PER_TURN,
    N_RULES,
) = range(29)
# Scenario hooks (-1 in the base game): G_EXTRA_VP is the state offset of a per-seat VP
# adjustment added to every VP count; G_HEX_BLOCK the state offset of a per-hex count that stops
# a hex producing while it is above 0 (sim/games/catan_great_wall: penalties, steppe riders).

# Rows of the cost table.
C_ROAD, C_SETTLEMENT, C_CITY, C_DEV = range(4)

MAX_ROTATIONS = 6  # spiral rotations a board may allow

# The compiled data of one variant is ONE flat int64 array (a kernel call passes one array, not
# a tuple of fifteen: numba reference-counts every array of a tuple argument on every call).
# The G_* rules come first, so ``data[G_X]`` reads a rule; then the tables below, row-major.
D_COSTS = N_RULES  # (4, N_RES) C_* rows
D_DEV_DECK = D_COSTS + 4 * N_RES  # (N_DEV,) cards of each kind
D_TERRAIN_POOL = D_DEV_DECK + N_DEV  # (N_TERRAINS,) terrain hexes of each kind
D_TOKENS = D_TERRAIN_POOL + N_TERRAINS  # (MAX_HEX,) tokens in spiral order (G_N_TOKENS)
D_HARBOUR_POOL = D_TOKENS + MAX_HEX  # (N_RES + 1,) harbours of each type, generic last
D_SPIRAL = D_HARBOUR_POOL + N_RES + 1  # (MAX_ROTATIONS, MAX_HEX) hex ids per rotation
D_HEX_VERTICES = D_SPIRAL + MAX_ROTATIONS * MAX_HEX  # (MAX_HEX, 6)
D_HEX_NEIGHBOURS = D_HEX_VERTICES + MAX_HEX * 6  # (MAX_HEX, 6), -1 padded
D_VERTEX_HEXES = D_HEX_NEIGHBOURS + MAX_HEX * 6  # (MAX_V, 3), -1 padded
D_VERTEX_VERTICES = D_VERTEX_HEXES + MAX_V * 3  # (MAX_V, 3), -1 padded
D_VERTEX_EDGES = D_VERTEX_VERTICES + MAX_V * 3  # (MAX_V, 3), same columns as above
D_EDGE_VERTICES = D_VERTEX_EDGES + MAX_V * 3  # (MAX_E, 2)
D_VERTEX_SLOT = D_EDGE_VERTICES + MAX_E * 2  # (MAX_V,) harbour slot or -1
D_SLOT_VERTICES = D_VERTEX_SLOT + MAX_V  # (MAX_SLOTS, 2)
DATA_LEN = D_SLOT_VERTICES + MAX_SLOTS * 2

# name -> (offset, shape) of every table, for Python readers (tests, trace): see ``table``.
TABLES = {
    "rules": (0, (N_RULES,)),
    "costs": (D_COSTS, (4, N_RES)),
    "dev_deck": (D_DEV_DECK, (N_DEV,)),
    "terrain_pool": (D_TERRAIN_POOL, (N_TERRAINS,)),
    "tokens": (D_TOKENS, (MAX_HEX,)),
    "harbour_pool": (D_HARBOUR_POOL, (N_RES + 1,)),
    "spiral": (D_SPIRAL, (MAX_ROTATIONS, MAX_HEX)),
    "hex_vertices": (D_HEX_VERTICES, (MAX_HEX, 6)),
    "hex_neighbours": (D_HEX_NEIGHBOURS, (MAX_HEX, 6)),
    "vertex_hexes": (D_VERTEX_HEXES, (MAX_V, 3)),
    "vertex_vertices": (D_VERTEX_VERTICES, (MAX_V, 3)),
    "vertex_edges": (D_VERTEX_EDGES, (MAX_V, 3)),
    "edge_vertices": (D_EDGE_VERTICES, (MAX_E, 2)),
    "vertex_slot": (D_VERTEX_SLOT, (MAX_V,)),
    "slot_vertices": (D_SLOT_VERTICES, (MAX_SLOTS, 2)),
}


def table(data: np.ndarray, name: str) -> np.ndarray:
    """A read-only view of one table of the flat data (for Python code, not the kernels)."""
    offset, shape = TABLES[name]
    view = data[offset : offset + int(np.prod(shape))].reshape(shape)
    view.flags.writeable = False
    return view


COST_KEYS = ("road", "settlement", "city", "dev_card")
BOARD_NAMES = ("standard", "large")


def _fail(key: str, what: str) -> DataFileError:
    return data_error(DATA_FILE, key, what)


def _counts(table: dict, names: list[str], key: str) -> list[int]:
    if sorted(table) != sorted(names):
        raise _fail(key, f"must give exactly {', '.join(names)}")
    values = [table[n] for n in names]
    if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values):
        raise _fail(key, "counts must be integers >= 0")
    return values


REQUIRED = ("game", "rules", "pieces", "costs", "bank", "dev_deck", "boards")


def load_raw() -> dict[str, Any]:
    """The parsed, validated shipped data file (cached for the process)."""
    return GAME_DATA.read()


def _validate(raw: dict[str, Any]) -> None:
    """The game's own checks of a data file; its numbers are checked as parameter defaults.

    The board geometry (``boards.*``) is read from the shipped file: a variant data file or an
    override may change every other value, not the board's coordinates (yet).
    """
    g = raw["game"]
    if len(g["resources"]) != N_RES:
        raise _fail("game.resources", f"must name {N_RES} resources")
    if len(g["terrains"]) != N_TERRAINS:
        raise _fail("game.terrains", f"must name {N_TERRAINS} terrains, the desert last")
    if len(g["dev_cards"]) != N_DEV:
        raise _fail("game.dev_cards", f"must name {N_DEV} development card kinds")
    for key in COST_KEYS:
        cost = raw["costs"].get(key)
        if (
            not isinstance(cost, list)
            or len(cost) != N_RES
            or any(not isinstance(c, int) or c < 0 for c in cost)
        ):
            raise _fail(f"costs.{key}", f"must be {N_RES} integers >= 0")
    for key in ("cards_3_4", "cards_5_6"):
        deck = raw["dev_deck"].get(key)
        if not isinstance(deck, list) or len(deck) != N_DEV or any(c < 0 for c in deck):
            raise _fail(f"dev_deck.{key}", f"must be {N_DEV} integers >= 0")
    if sorted(raw["boards"]) != sorted(BOARD_NAMES):
        raise _fail("boards", f"must define {', '.join(BOARD_NAMES)}")
    for name in BOARD_NAMES:
        boards(name)  # raises on inconsistent geometry


@cache
def boards(name: str) -> Board:
    """The geometry of board ``name`` (built once per process)."""
    raw = read_data_file(DATA_FILE, ("game", "boards"))
    key = f"boards.{name}"
    if name not in raw["boards"]:
        raise _fail("boards", f"has no board '{name}'")
    bd = raw["boards"][name]
    for field in (
        "land",
        "terrain_pool",
        "number_tokens_in_spiral_order",
        "spiral_path",
        "spiral_rotation",
        "harbour_pool",
        "harbour_slots",
    ):
        if field not in bd:
            raise _fail(f"{key}.{field}", "is missing")
    try:
        board = build_board(
            name, bd["land"], bd["harbour_slots"], bd["spiral_path"], bd["spiral_rotation"]
        )
    except (BoardError, KeyError, TypeError, ValueError) as exc:
        raise _fail(key, f"is not a consistent board: {exc}") from None
    if board.n_hexes > MAX_HEX or board.n_vertices > MAX_V or board.n_edges > MAX_E:
        raise _fail(key, f"is too large (at most {MAX_HEX} hexes, {MAX_V} vertices, {MAX_E} edges)")
    if board.spiral.shape[0] > MAX_ROTATIONS:
        raise _fail(f"{key}.spiral_rotation", f"order at most {MAX_ROTATIONS}")
    if board.n_slots > MAX_SLOTS:
        raise _fail(f"{key}.harbour_slots", f"at most {MAX_SLOTS} slots")
    terrains = _counts(bd["terrain_pool"], raw["game"]["terrains"], f"{key}.terrain_pool")
    if sum(terrains) != board.n_hexes:
        raise _fail(f"{key}.terrain_pool", f"must hold {board.n_hexes} hexes, one per land hex")
    tokens = bd["number_tokens_in_spiral_order"]
    if len(tokens) != board.n_hexes - terrains[DESERT]:
        raise _fail(
            f"{key}.number_tokens_in_spiral_order", "must hold one token per non-desert hex"
        )
    if any(t not in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12) for t in tokens):
        raise _fail(f"{key}.number_tokens_in_spiral_order", "tokens are 2-6 and 8-12")
    harbours = _counts(
        bd["harbour_pool"], [*raw["game"]["resources"], "generic"], f"{key}.harbour_pool"
    )
    if sum(harbours) != board.n_slots:
        raise _fail(f"{key}.harbour_pool", f"must hold {board.n_slots} harbours, one per slot")
    return board


def board_pools(name: str) -> tuple[list[int], list[int], list[int]]:
    """(terrain counts, number tokens in spiral order, harbour counts with generic last)."""
    terrains, tokens, harbours = _board_pools(name)
    return list(terrains), list(tokens), list(harbours)


@cache
def _board_pools(name: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    boards(name)  # validates the board first
    raw = read_data_file(DATA_FILE, ("game", "boards"))
    bd = raw["boards"][name]
    terrains = tuple(bd["terrain_pool"][t] for t in raw["game"]["terrains"])
    harbours = tuple(bd["harbour_pool"][r] for r in [*raw["game"]["resources"], "generic"])
    return terrains, tuple(bd["number_tokens_in_spiral_order"]), harbours


def parse_cost(text: str) -> list[int]:
    """``"1,1,0,0,0"`` to [1, 1, 0, 0, 0]; anything else is a one-line ParamError."""
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) != N_RES or not all(p.isdigit() and int(p) <= 20 for p in parts):
        raise ValueError(text)
    return [int(p) for p in parts]


@dataclasses.dataclass(frozen=True)
class CostParam(Param):
    """A cost string: one count per resource (lumber, brick, wool, grain, ore)."""

    def allowed(self) -> str:
        return "5 comma-separated counts in [0, 20] (lumber,brick,wool,grain,ore), e.g. '1,1,0,0,0'"

    def validate(self, value: Any) -> Any:
        try:
            cost = parse_cost(value)
        except ValueError:
            raise ParamError(
                f"parameter '{self.name}' = {value!r} is not allowed: {self.allowed()}"
            ) from None
        return ",".join(str(c) for c in cost)


def _by_players(v34: Any, v56: Any) -> dict[int, Any]:
    return {3: v34, 4: v34, 5: v56, 6: v56}


def param_set(raw: dict[str, Any]) -> ParamSet:
    """The declared parameters (every §12 lever), their defaults read from ``raw``."""
    g, ru, pc, co = raw["game"], raw["rules"], raw["pieces"], raw["costs"]
    deck34, deck56 = raw["dev_deck"]["cards_3_4"], raw["dev_deck"]["cards_5_6"]
    sbp_min = ru["special_building_phase_min_players"]

    def count(name, default, doc, low=0, high=100):
        return Param(name, "int", default, doc, low=low, high=high)

    params = [
        count("vp_target", ru["vp_target"], "victory points to win on one's own turn", 3, 30),
        count(
            "discard_threshold",
            ru["discard_threshold"],
            "on a 7, a player holding more cards than this discards half (rounded down)",
            0,
            100,
        ),
        count(
            "bank_per_resource",
            _by_players(raw["bank"]["per_resource_3_4"], raw["bank"]["per_resource_5_6"]),
            "resource cards of each kind in the bank",
            1,
            200,
        ),
    ]
    for k, kind in enumerate(g["dev_cards"]):
        params.append(
            count(
                f"dev_{kind}",
                _by_players(deck34[k], deck56[k]),
                f"{kind.replace('_', ' ')} cards in the development deck",
                0,
                60,
            )
        )
    for key in COST_KEYS:
        params.append(
            CostParam(
                f"cost_{key}",
                "str",
                ",".join(str(c) for c in co[key]),
                f"cost of a {key.replace('_', ' ')} (lumber,brick,wool,grain,ore)",
            )
        )
    params += [
        count("roads", pc["roads"], "road pieces per player", 2, MAX_ROADS),
        count("settlements", pc["settlements"], "settlement pieces per player", 2, 20),
        count("cities", pc["cities"], "city pieces per player", 0, 20),
        count("bank_ratio", ru["bank_ratio"], "maritime trade with the bank: N for 1", 1, 10),
        count(
            "generic_harbour_ratio",
            ru["generic_harbour_ratio"],
            "trade at a generic harbour: N for 1",
            1,
            10,
        ),
        count(
            "special_harbour_ratio",
            ru["special_harbour_ratio"],
            "trade of a harbour's resource at its special harbour: N for 1",
            1,
            10,
        ),
        count(
            "longest_road_min",
            ru["longest_road_min"],
            "road length that first takes Longest Road",
            1,
            MAX_ROADS,
        ),
        count("longest_road_vp", ru["longest_road_vp"], "VP of Longest Road", 0, 10),
        count(
            "largest_army_min",
            ru["largest_army_min"],
            "Knights that first take Largest Army",
            1,
            30,
        ),
        count("largest_army_vp", ru["largest_army_vp"], "VP of Largest Army", 0, 10),
        Param(
            "number_placement",
            "str",
            ru["number_placement"][0],
            "number tokens by the rotated spiral, or shuffled with no 6 next to an 8",
            choices=tuple(ru["number_placement"]),
        ),
        Param(
            "domestic_trade",
            "bool",
            ru["domestic_trade"],
            "player-to-player trading (§5, A4): the active player offers cards for others' "
            "cards in his trade and build phase; false: bots trade only with the bank and "
            "harbours",
        ),
        count(
            "trade_offers_per_turn",
            ru["trade_offers_per_turn"],
            "domestic offers the active player may make per turn (a bound of the model: the "
            "rules set none)",
            0,
            20,
        ),
        Param(
            "special_building_phase",
            "bool",
            {n: n >= sbp_min for n in range(g["players_min"], g["players_max"] + 1)},
            "after each turn the other players may build and buy (§4.2)",
        ),
        count(
            "start_seat",
            g["start_seat"],
            "seat of the first player (A5; must be below the player count)",
            0,
            MAX_PLAYERS - 1,
        ),
        Param(
            "board",
            "str",
            {n: "standard" if n <= 4 else "large" for n in range(3, 7)},
            "the 19-hex standard board or the 30-hex 5-6 player board (PROVISIONAL geometry)",
            choices=BOARD_NAMES,
            provisional=True,
        ),
        Param(
            "cap_tiebreak",
            "str",
            g["cap_tiebreak"][0],
            "games stopped by the safety cap rank by VP, then by fewer turns taken, or share "
            "the win among the VP leaders (§6)",
            choices=tuple(g["cap_tiebreak"]),
        ),
        count(
            "safety_cap_rounds",
            g["safety_cap_rounds"],
            "safety cap (rounds), ends as turn_cap",
            1,
            100_000,
        ),
    ]
    return ParamSet(tuple(params))


GAME_DATA = GameData(DATA_FILE, REQUIRED, _validate, param_set)
PARAMS = param_set(load_raw())


def resource_names() -> list[str]:
    return list(load_raw()["game"]["resources"])


def terrain_names() -> list[str]:
    return list(load_raw()["game"]["terrains"])


def dev_names() -> list[str]:
    return list(load_raw()["game"]["dev_cards"])


def compile_data(
    params: dict[str, Any], players: int | None = None, board: Board | None = None, pools=None
) -> np.ndarray:
    """The arrays of one variant (``params`` is a resolved parameter dict); a scenario passes
    its own ``board`` and ``pools`` (terrain counts, tokens, harbour counts)."""
    if players is not None and params["start_seat"] >= players:
        raise ParamError(
            f"parameter 'start_seat' = {params['start_seat']} is not allowed: "
            f"a seat below {players}"
        )
    if board is None:
        board = boards(params["board"])
        pools = board_pools(params["board"])
    terrains, tokens, harbours = pools
    dev = [params[f"dev_{k}"] for k in dev_names()]

    rules = np.zeros(N_RULES, np.int64)
    rules[G_VP_TARGET] = params["vp_target"]
    rules[G_DISCARD] = params["discard_threshold"]
    rules[G_BANK] = params["bank_per_resource"]
    rules[G_BANK_RATIO] = params["bank_ratio"]
    rules[G_GENERIC_RATIO] = params["generic_harbour_ratio"]
    rules[G_SPECIAL_RATIO] = params["special_harbour_ratio"]
    rules[G_LR_MIN] = params["longest_road_min"]
    rules[G_LR_VP] = params["longest_road_vp"]
    rules[G_LA_MIN] = params["largest_army_min"]
    rules[G_LA_VP] = params["largest_army_vp"]
    rules[G_ROADS] = params["roads"]
    rules[G_SETTLEMENTS] = params["settlements"]
    rules[G_CITIES] = params["cities"]
    rules[G_RANDOM_NUMBERS] = params["number_placement"] != "spiral"
    rules[G_SBP] = bool(params["special_building_phase"])
    rules[G_START_SEAT] = params["start_seat"]
    rules[G_ROUND_CAP] = params["safety_cap_rounds"]
    rules[G_N_HEX] = board.n_hexes
    rules[G_N_VERT] = board.n_vertices
    rules[G_N_EDGE] = board.n_edges
    rules[G_N_SLOTS] = board.n_slots
    rules[G_N_TOKENS] = len(tokens)
    rules[G_ROTATIONS] = board.spiral.shape[0]
    rules[G_DECK_N] = sum(dev)
    rules[G_EXTRA_VP] = -1
    rules[G_HEX_BLOCK] = -1
    rules[G_DOMESTIC] = bool(params["domestic_trade"])
    rules[G_OFFERS_PER_TURN] = params["trade_offers_per_turn"]

    costs = np.array([parse_cost(params[f"cost_{k}"]) for k in COST_KEYS], np.int64)
    data = np.full(DATA_LEN, -1, np.int64)

    def put(name: str, values: np.ndarray) -> None:
        offset, shape = TABLES[name]
        full = np.full(shape, -1, np.int64)
        full[tuple(slice(0, n) for n in values.shape)] = values
        data[offset : offset + full.size] = full.reshape(-1)

    put("rules", rules)
    put("costs", costs)
    put("dev_deck", np.array(dev, np.int64))
    put("terrain_pool", np.array(terrains, np.int64))
    put("tokens", np.array(tokens, np.int64))
    put("harbour_pool", np.array(harbours, np.int64))
    put("spiral", board.spiral)
    put("hex_vertices", board.hex_vertices)
    put("hex_neighbours", board.hex_neighbours)
    put("vertex_hexes", board.vertex_hexes)
    put("vertex_vertices", board.vertex_vertices)
    put("vertex_edges", board.vertex_edges)
    put("edge_vertices", board.edge_vertices)
    put("vertex_slot", board.vertex_slot)
    put("slot_vertices", board.slot_vertices)
    return data


def default_data(players: int = 4, **overrides) -> np.ndarray:
    """Compiled data of the default rules (plus overrides): handy for tests and the REPL."""
    return compile_data(PARAMS.resolve(players, overrides), players)
