"""The Great Wall data: load and validate ``catan_great_wall.toml``, build the board of each
player count with the base game's geometry (catan/board.py), declare every parameter (the base
game's levers with this scenario's defaults, and every lever of the spec's §12), and compile one
variant: the base game's flat data array (catan/params.py, its VP and production hooks pointed
at this scenario's state fields) followed by the scenario's own tables (the ``D_*`` offsets).
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
from sim.games.catan.board import Board, BoardError, build_board, hex_corners
from sim.games.catan.state import GENERIC, MAX_HEX, MAX_SLOTS, N_RES
from sim.games.catan_great_wall.state import (
    EXTRA_VP,
    HEX_RIDERS,
    MAX_NUMERALS,
    MAX_PATH,
    MAX_SEA,
    MAX_WALLS,
)

DATA_FILE = Path(__file__).with_name("catan_great_wall.toml")
REQUIRED = ("game", "rules", "bank", "dev_deck", "wall_costs", "board")

# Scalar rules of the scenario, at the start of its part of the data array.
(
    W_BREACH_LIMIT,
    W_PENALTY,
    W_CAPACITY,
    W_MAX_LEVEL,
    W_DROP,
    W_RIDERS_PER,
    W_NUMERALS,
    W_PER_BUILD,
    W_FILL,
    W_FIRST_TURN,
    W_KNIGHT_ACTIONS,
    W_STEAL_ANY,
    W_SETUP_RES,
    W_BOARD_MODE,
    W_N_WALLS,
    W_N_SEA,
    W_PIRATE_START,
    N_W,
) = range(18)
FILL_NUMBER, FILL_PROBABILITY, FILL_PATH = range(3)

D_W = base.DATA_LEN
D_WALL_COSTS = D_W + N_W  # (MAX_PATH, N_RES): section n+1's cost in row n
D_WALL_VERTEX = D_WALL_COSTS + MAX_PATH * N_RES  # (MAX_WALLS,) fortress vertex
D_PATH_LEN = D_WALL_VERTEX + MAX_WALLS  # (MAX_WALLS,)
D_PATH = D_PATH_LEN + MAX_WALLS  # (MAX_WALLS, MAX_PATH) hex ids, wall to inland
D_ARROWS = D_PATH + MAX_WALLS * MAX_PATH  # (MAX_NUMERALS, 2, 2) (number, wall) per arrow
D_FIX_TERRAIN = D_ARROWS + MAX_NUMERALS * 4  # (MAX_HEX,)
D_FIX_NUMBER = D_FIX_TERRAIN + MAX_HEX  # (MAX_HEX,) 0 = desert
D_HEX_THIRD = D_FIX_NUMBER + MAX_HEX  # (MAX_HEX,) 0, 1, 2: west, middle, east third
D_SLOT_TYPE = D_HEX_THIRD + MAX_HEX  # (MAX_SLOTS,)
D_SLOT_SEA = D_SLOT_TYPE + MAX_SLOTS  # (MAX_SLOTS,) sea index of each harbour
D_SEA_VERTICES = D_SLOT_SEA + MAX_SLOTS  # (MAX_SEA, 6) board vertices of each sea hex
GW_DATA_LEN = D_SEA_VERTICES + MAX_SEA * 6

GW_TABLES = {
    "wall_rules": (D_W, (N_W,)),
    "wall_costs": (D_WALL_COSTS, (MAX_PATH, N_RES)),
    "wall_vertex": (D_WALL_VERTEX, (MAX_WALLS,)),
    "path_len": (D_PATH_LEN, (MAX_WALLS,)),
    "path": (D_PATH, (MAX_WALLS, MAX_PATH)),
    "arrows": (D_ARROWS, (MAX_NUMERALS, 2, 2)),
    "fix_terrain": (D_FIX_TERRAIN, (MAX_HEX,)),
    "fix_number": (D_FIX_NUMBER, (MAX_HEX,)),
    "hex_third": (D_HEX_THIRD, (MAX_HEX,)),
    "slot_type": (D_SLOT_TYPE, (MAX_SLOTS,)),
    "slot_sea": (D_SLOT_SEA, (MAX_SLOTS,)),
    "sea_vertices": (D_SEA_VERTICES, (MAX_SEA, 6)),
}


def table(data: np.ndarray, name: str) -> np.ndarray:
    """A read-only view of one table (the scenario's or the base game's)."""
    if name not in GW_TABLES:
        return base.table(data, name)
    offset, shape = GW_TABLES[name]
    view = data[offset : offset + int(np.prod(shape))].reshape(shape)
    view.flags.writeable = False
    return view


def _fail(key: str, what: str) -> DataFileError:
    return data_error(DATA_FILE, key, what)


def load_raw() -> dict[str, Any]:
    return GAME_DATA.read()


def _choices(raw: dict, key: str) -> tuple:
    values = raw["rules"][key]
    if not isinstance(values, list) or not values:
        raise _fail(f"rules.{key}", "must list the allowed values, the default first")
    return tuple(values)


def _validate(raw: dict[str, Any]) -> None:
    """The scenario's own checks of a data file (its numbers are checked as parameters)."""
    terrains = base.terrain_names()
    for i, h in enumerate(raw["board"]["hexes"]):
        if len(h) != 4 or h[2] not in terrains:
            raise _fail(f"board.hexes[{i}]", "must be [q, r, terrain, number]")
    walls = [w["id"] for w in raw["board"]["wall_sections"]]
    if len(walls) > MAX_WALLS or len(set(walls)) != len(walls):
        raise _fail("board.wall_sections", f"at most {MAX_WALLS}, distinct ids")
    for w in raw["board"]["wall_sections"]:
        if not 1 <= len(w["attack_path"]) <= MAX_PATH:
            raise _fail(f"board.wall_sections.{w['id']}", f"1 to {MAX_PATH} path hexes")
    terr = raw["board"]["rallying_territories"]
    if len(terr) > MAX_NUMERALS:
        raise _fail("board.rallying_territories", f"at most {MAX_NUMERALS}")
    for t in terr:
        if len(t["arrows"]) != 2 or any(a[1] not in walls for a in t["arrows"]):
            raise _fail(f"board.rallying_territories.{t['id']}", "two arrows to wall sections")
    for n in raw["game"]["player_counts"] + [5]:
        board_for(n)


def column(q: int, r: int) -> int:
    return q + r // 2


@cache
def board_for(players: int) -> tuple[Board, dict]:
    """The board of a player count (the columns in play) and what it holds: the wall
    sections, territories, sea hexes and harbours in play, as ids of this board."""
    raw = read_data_file(DATA_FILE, REQUIRED)
    bd = raw["board"]
    cols = set(bd["columns_in_play"][str(players)])
    land = [(h[0], h[1]) for h in bd["hexes"] if column(h[0], h[1]) in cols]
    land_set = set(land)
    harbours = [h for h in bd["harbours"] if players in h["players"]]
    try:
        board = build_board(
            f"great_wall_{players}",
            [list(h) for h in land],
            [{"sea": h["sea"], "vertices": h["vertices"]} for h in harbours],
            [list(h) for h in land],
            {"matrix": [1, 0, 0, 1], "offset": [0, 0], "order": 1},
        )
    except (BoardError, KeyError, TypeError, ValueError) as exc:
        raise _fail("board", f"is not a consistent board at {players} players: {exc}") from None
    neighbours = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
    sea = [
        tuple(s)
        for s in bd["sea"]
        if any((s[0] + dq, s[1] + dr) in land_set for dq, dr in neighbours)
    ]
    walls = [w for w in bd["wall_sections"] if players in w["players"]]
    terrs = [t for t in bd["rallying_territories"] if players in t["players"]]
    for w in walls:
        for q, r in w["attack_path"]:
            if (q, r) not in land_set:
                raise _fail(f"board.wall_sections.{w['id']}", f"path hex {[q, r]} not in play")
    info = {
        "terrain": {(h[0], h[1]): h[2] for h in bd["hexes"]},
        "number": {(h[0], h[1]): h[3] for h in bd["hexes"]},
        "sea": sea,
        "harbours": harbours,
        "walls": walls,
        "territories": terrs,
        "pirate_start": tuple(bd["pirate_start"]),
        "cols": sorted(cols),
    }
    return board, info


def _cost_param(n: int, cost: list[int]) -> base.CostParam:
    return base.CostParam(
        f"cost_wall_{n}",
        "str",
        ",".join(str(c) for c in cost),
        f"cost of wall section {n}, raising a wall from level {n - 1} to {n} "
        "(lumber,brick,wool,grain,ore)",
        provisional=True,
    )


def parse_attack_numbers(text: str) -> list[list[int]]:
    pairs = [p.strip() for p in str(text).split(";")]
    out = []
    for p in pairs:
        nums = [x.strip() for x in p.split(",")]
        if len(nums) != 2 or not all(x.isdigit() and int(x) in range(2, 13) for x in nums):
            raise ValueError(text)
        if 7 in (int(nums[0]), int(nums[1])):
            raise ValueError(text)
        out.append([int(x) for x in nums])
    if len(out) != MAX_NUMERALS:
        raise ValueError(text)
    return out


@dataclasses.dataclass(frozen=True)
class AttackParam(Param):
    """The two attack numbers of each rallying territory I-V, ``a,b;c,d;...``."""

    def allowed(self) -> str:
        return "5 pairs 'a,b' separated by ';' (territories I-V), numbers 2-12 but not 7"

    def validate(self, value: Any) -> Any:
        try:
            pairs = parse_attack_numbers(value)
        except ValueError:
            raise ParamError(
                f"parameter '{self.name}' = {value!r} is not allowed: {self.allowed()}"
            ) from None
        return ";".join(f"{a},{b}" for a, b in pairs)


BASE_DROPPED = ("board", "number_placement", "largest_army_min", "largest_army_vp")


def param_set(raw: dict[str, Any]) -> ParamSet:
    """Every parameter: the base game's (scenario defaults where it sets them) and §12's."""
    ru, bank, deck = raw["rules"], raw["bank"], raw["dev_deck"]

    def by_players(v4, v6, v5=None):
        return {4: v4, 5: v6 if v5 is None else v5, 6: v6}

    base_defaults = {
        "vp_target": ru["vp_target"],
        "longest_road_vp": ru["longest_road_vp"],
        "bank_per_resource": by_players(bank["per_resource_4"], bank["per_resource_6"]),
    }
    for k, kind in enumerate(base.dev_names()):
        base_defaults[f"dev_{kind}"] = by_players(deck["cards_4"][k], deck["cards_6"][k])
    params = []
    for p in base.PARAMS:
        if p.name in BASE_DROPPED:
            continue
        if p.name in base_defaults:
            p = dataclasses.replace(p, default=base_defaults[p.name])
        params.append(p)

    def count(name, default, doc, low=0, high=100, provisional=False):
        return Param(name, "int", default, doc, low=low, high=high, provisional=provisional)

    def choice(name, doc):
        values = _choices(raw, name)
        return Param(name, "str", values[0], doc, choices=values)

    bl = {int(k): v for k, v in ru["breaches_to_lose"].items()}
    nu = {int(k): v for k, v in ru["numerals_in_play"].items()}
    terr = raw["board"]["rallying_territories"]
    attack = ";".join(f"{t['arrows'][0][0]},{t['arrows'][1][0]}" for t in terr)
    params += [
        count("mightiest_knight_vp", ru["mightiest_knight_vp"], "VP of Mightiest Knight", 0, 10),
        count("min_knights", ru["min_knights"], "Knights that first take Mightiest Knight", 1, 30),
        count(
            "breaches_to_lose",
            bl,
            "breaches of the wall in total that end the game with every player beaten (§5)",
            1,
            50,
        ),  # fmt: skip
        count(
            "penalty_per_breach",
            ru["penalty_per_breach"],
            "VP lost by a fortress's owner per breach of its wall",
            0,
            10,
        ),  # fmt: skip
        count(
            "battlefield_capacity",
            ru["battlefield_capacity"],
            "riders a battlefield holds at most (A1)",
            1,
            20,
        ),  # fmt: skip
        count("wall_max_level", ru["wall_max_level"], "highest wall level (sections)", 0, 5),
        count(
            "wall_drop_per_breach",
            ru["wall_drop_per_breach"],
            "levels a wall loses at a breach",
            0,
            5,
        ),  # fmt: skip
        count("riders_per_numeral", ru["riders_per_numeral"], "riders of each numeral", 0, 30),
        count(
            "numerals_in_play",
            nu,
            "rider numerals (and territories) in play: I..N",
            1,
            MAX_NUMERALS,
        ),  # fmt: skip
        count(
            "riders_per_build",
            ru["riders_per_build"],
            "riders drawn per settlement or city built",
            0,
            5,
        ),  # fmt: skip
        AttackParam(
            "attack_numbers",
            "str",
            attack,
            "the two attack numbers of territories I-V, each on the arrow to its "
            "battlefield in the data file's order",
            provisional=True,
        ),  # fmt: skip
        choice(
            "successive_fill_order",
            "free hexes at a successive breach: by highest "
            "printed number, by probability, or in path order (A5)",
        ),  # fmt: skip
        choice(
            "attack_path_deserts", "a desert on an attack path takes a rider, or is skipped (A7)"
        ),  # fmt: skip
        choice(
            "first_turn",
            "who plays first: the first regular placer or the high roller "
            "who placed the first fortress (A12)",
        ),  # fmt: skip
        count(
            "knight_actions",
            ru["knight_actions"],
            "distinct actions out of three a Knight allows (A9)",
            0,
            3,
        ),  # fmt: skip
        choice(
            "gw_6p_decks",
            "at 5-6 players: the extension's 24 cards per resource and "
            "28 development cards, or the base 19 and 19 (A13; overrides bank_per_resource "
            "and dev_* at 5-6 players)",
        ),  # fmt: skip
        Param(
            "pirate_steal_any_player",
            "bool",
            ru["pirate_steal_any_player"],
            "the pirate steals from any other player; false: only from one with a "
            "building on the pirate's sea hex (A10)",
        ),  # fmt: skip
        choice(
            "setup_resources", "starting resources from the second regular settlement, or none"
        ),  # fmt: skip
        choice(
            "board_mode",
            "the fixed board, or terrain and numbers shuffled within each "
            "third of the board (fortress columns kept)",
        ),  # fmt: skip
    ]
    for n in range(1, MAX_PATH + 1):
        params.append(_cost_param(n, raw["wall_costs"][f"section_{n}"]))
    return ParamSet(tuple(params))


GAME_DATA = GameData(DATA_FILE, REQUIRED, _validate, param_set)
PARAMS = param_set(load_raw())


def compile_data(params: dict[str, Any], players: int | None = None) -> np.ndarray:
    """The base data of the scenario's board followed by the scenario's tables."""
    players = 4 if players is None else players
    board, info = board_for(players)
    raw = load_raw()
    bp = dict(params)
    bp["board"] = "standard"  # unused: the board is passed
    bp["number_placement"] = "spiral"
    bp["largest_army_min"] = params["min_knights"]
    bp["largest_army_vp"] = params["mightiest_knight_vp"]
    if players >= 5 and params["gw_6p_decks"] == "base_only":
        bp["bank_per_resource"] = raw["bank"]["per_resource_4"]
        for k, kind in enumerate(base.dev_names()):
            bp[f"dev_{kind}"] = raw["dev_deck"]["cards_4"][k]
    terrains = base.terrain_names()
    resources = base.resource_names()
    t_of = [terrains.index(info["terrain"][h]) for h in board.hexes]
    n_of = [int(info["number"][h]) for h in board.hexes]
    pool_t = [t_of.count(t) for t in range(len(terrains))]
    tokens = [n for n in n_of if n > 0]
    h_types = [
        GENERIC if h["type"] == "generic" else resources.index(h["type"]) for h in info["harbours"]
    ]
    pool_h = [h_types.count(t) for t in range(N_RES + 1)]
    data = base.compile_data(bp, players, board=board, pools=(pool_t, tokens, pool_h))
    data[base.G_EXTRA_VP] = EXTRA_VP
    data[base.G_HEX_BLOCK] = HEX_RIDERS

    walls = info["walls"]
    wall_ids = [w["id"] for w in walls]
    n_num = params["numerals_in_play"]
    terrs = info["territories"]
    if n_num > len(terrs):
        raise ParamError(
            f"parameter 'numerals_in_play' = {n_num} is not allowed: at most {len(terrs)} "
            f"territories at {players} players"
        )
    attack = parse_attack_numbers(params["attack_numbers"])
    out = np.full(GW_DATA_LEN, -1, np.int64)
    out[: base.DATA_LEN] = data
    w = out[D_W : D_W + N_W]
    w[W_BREACH_LIMIT] = params["breaches_to_lose"]
    w[W_PENALTY] = params["penalty_per_breach"]
    w[W_CAPACITY] = params["battlefield_capacity"]
    w[W_MAX_LEVEL] = params["wall_max_level"]
    w[W_DROP] = params["wall_drop_per_breach"]
    w[W_RIDERS_PER] = params["riders_per_numeral"]
    w[W_NUMERALS] = n_num
    w[W_PER_BUILD] = params["riders_per_build"]
    w[W_FILL] = ("highest_number", "highest_probability", "path_order").index(
        params["successive_fill_order"]
    )
    w[W_FIRST_TURN] = params["first_turn"] == "fortress_starter"
    w[W_KNIGHT_ACTIONS] = params["knight_actions"]
    w[W_STEAL_ANY] = bool(params["pirate_steal_any_player"])
    w[W_SETUP_RES] = params["setup_resources"] == "none"
    w[W_BOARD_MODE] = params["board_mode"] == "shuffle_thirds"
    w[W_N_WALLS] = len(walls)
    w[W_N_SEA] = len(info["sea"])
    w[W_PIRATE_START] = info["sea"].index(info["pirate_start"])
    if len(walls) != players:
        raise ParamError(f"The Great Wall has {len(walls)} fortress sites at {players} players")

    def put(name, values):
        offset, shape = GW_TABLES[name]
        full = np.full(shape, -1, np.int64)
        values = np.asarray(values, np.int64)
        if values.size:
            full[tuple(slice(0, n) for n in values.shape)] = values
        out[offset : offset + full.size] = full.reshape(-1)

    put("wall_costs", [base.parse_cost(params[f"cost_wall_{n}"]) for n in range(1, 6)])
    put("wall_vertex", [board.vertex_id(*w["fortress_vertex"]) for w in walls])
    skip = params["attack_path_deserts"] == "skip"
    paths = []
    for wall in walls:
        path = [
            board.hex_id(q, r)
            for q, r in wall["attack_path"]
            if not (skip and info["terrain"][(q, r)] == "desert")
        ]
        paths.append(path)
    put("path_len", [len(p) for p in paths])
    full_paths = np.full((len(walls), MAX_PATH), -1, np.int64)
    for i, p in enumerate(paths):
        full_paths[i, : len(p)] = p
    put("path", full_paths)
    arrows = np.full((MAX_NUMERALS, 2, 2), -1, np.int64)
    for k in range(n_num):
        for j in range(2):
            target = terrs[k]["arrows"][j][1]
            if target not in wall_ids:
                raise ParamError(
                    f"territory {terrs[k]['id']}'s arrow leads to {target}, not in play"
                )
            arrows[k, j] = (attack[k][j], wall_ids.index(target))
    put("arrows", arrows)
    put("fix_terrain", t_of)
    put("fix_number", n_of)
    thirds = [column(q, r) // 2 for q, r in board.hexes]
    put("hex_third", thirds)
    put("slot_type", h_types)
    put("slot_sea", [info["sea"].index(tuple(h["sea"])) for h in info["harbours"]])
    vid = {v: i for i, v in enumerate(board.vertices)}
    sea_v = np.full((len(info["sea"]), 6), -1, np.int64)
    for i, (q, r) in enumerate(info["sea"]):
        corners = [vid[c] for c in hex_corners(q, r) if c in vid]
        sea_v[i, : len(corners)] = corners
    put("sea_vertices", sea_v)
    assert len(info["sea"]) <= MAX_SEA
    return out


def default_data(players: int = 4, **overrides) -> np.ndarray:
    return compile_data(PARAMS.resolve(players, overrides), players)
