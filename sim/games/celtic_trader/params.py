"""Celtic Trader data: load and validate ``celtic_trader.toml``, declare the parameters, and
compile everything into the one flat int32 array that the kernels read (fields at the ``O_*``
offsets).

The loader also precomputes what never changes during play: the road graph as padded adjacency
lists, static all-pairs distances and next-hop tables (Romans are the only dynamic obstacle, and
the greedy bot searches around them at run time).
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

from sim.core.datafile import DataFileError, data_error
from sim.core.gamedata import GameData
from sim.core.params import Param, ParamSet

DATA_FILE = Path(__file__).with_name("celtic_trader.toml")

# Fixed capacities of the state layout (state.py); the loader checks the map fits.
MAX_SEC = 48
MAX_SPOTS = 24
MAX_DEG = 8
N_RES = 6
N_BAST = 6
N_ROLES = 6
N_CAPS = 3  # movement, trading, carrying
N_LEVELS = 5
MAX_PLAYERS = 5
MAX_SUPPLY = 300
MAX_TEN_MARKERS = 10

ROLE_IDS = ("fastest", "trusted", "haggler", "strongest", "wanderer", "versatile")
CAP_NAMES = ("movement", "trading", "carrying")

# Indices into Data.rules (int64): the scalar rules of one variant.
(
    R_NSEC,
    R_NSPOT,
    R_SC,
    R_DRAWS,
    R_SUPPLY,
    R_TENS,
    R_TEN_VALUE,
    R_CAP_ROUNDS,
    R_TURN_LIMIT,
    R_ROLES_IN_PLAY,
    R_START_FIXED,
    R_RELOC_FIRST,
    R_RAISE_ANY,
    R_PER_VISIT,
    R_ROMANS,
    R_ROMANS_TOTAL,
    R_BAG_RES,
    R_ORDERS,
    R_ROMANISATION,
    R_CYCLE,
    R_HUB_SPOTS,
    R_ARM_SPOTS,
    R_QUEST,  # 1: the game is Celtic Quest (its tables follow the data, celtic_quest/layout.py)
    N_RULES,
) = range(24)

# Celtic Quest's hooks are compiled into the rules and bots that test ``QUEST_HOOKS and
# data[O_RULES + R_QUEST]``: Celtic Quest plays on these kernels. Celtic Trader's own loops are
# copies compiled with it False (sim/core/specialize.py), which never compile Celtic Quest's code.
QUEST_HOOKS = True

# Section kinds (data[O_SEC_KIND + sec]).
K_PLAIN, K_HUB, K_ARM, K_SC = 0, 1, 2, 3

# The compiled data of one variant is ONE flat int32 array (a tuple of arrays costs a reference
# count per array on every kernel call). Each field sits at offset O_<NAME>; 2-D and 3-D fields
# are row-major, e.g. ``data[O_ADJ + u * MAX_DEG + k]``.
DATA_LAYOUT = (  # (name, size)
    ("rules", N_RULES),  # scalar rules, R_* indices
    ("sec_kind", MAX_SEC),  # K_*
    ("sec_bast", MAX_SEC),  # bastion of a hub/arm, else -1
    ("sec_tile", MAX_SEC),  # tile index
    ("sec_roman", MAX_SEC),  # 1 if the section has a Roman spot (Celtic side)
    ("sec_spots", MAX_SEC * 2),  # resource spot ids on the section, -1 padded
    ("adj", MAX_SEC * MAX_DEG),  # neighbour sections, -1 padded
    ("adj_cost", MAX_SEC * MAX_DEG),  # MP to enter that neighbour (0 or 1)
    ("deg", MAX_SEC),
    ("spot_sec", MAX_SPOTS),
    ("spot_res", MAX_SPOTS),
    ("bast_hub", N_BAST),
    ("bast_arms", N_BAST * 3),  # -1 padded
    ("bast_narms", N_BAST),
    ("start_col", N_BAST * N_RES),  # start column index 0..4
    ("col_value", 5),  # RP of each demand column
    ("upg_cost", N_LEVELS),  # cost to reach level i
    ("move_val", N_LEVELS),
    ("trade_val", N_LEVELS),
    ("carry_x", N_LEVELS),
    ("carry_y", N_LEVELS),
    ("role_bonus", N_ROLES * N_CAPS * N_LEVELS),  # VP by upgrades bought
    ("role_rp_vp", N_ROLES),  # VP per RP held at the end
    ("role_start", N_ROLES * 3),  # start sections
    ("dist", MAX_SEC * MAX_SEC),  # static MP distance ignoring Romans (FAR if none)
    ("next_hop", MAX_SEC * MAX_SEC),  # first section on a shortest static path
    # turns to carry a token from a section to each bastion's hub at each movement level,
    # ceil(dist / move): the greedy bot's token values divide by it (one lookup, no division)
    ("hub_turns", N_LEVELS * MAX_SEC * N_BAST),
)
_offsets = {}
_at = 0
for _name, _size in DATA_LAYOUT:
    _offsets[_name] = _at
    _at += _size
DATA_LEN = _at
O_RULES = _offsets["rules"]
O_SEC_KIND = _offsets["sec_kind"]
O_SEC_BAST = _offsets["sec_bast"]
O_SEC_TILE = _offsets["sec_tile"]
O_SEC_ROMAN = _offsets["sec_roman"]
O_SEC_SPOTS = _offsets["sec_spots"]
O_ADJ = _offsets["adj"]
O_ADJ_COST = _offsets["adj_cost"]
O_DEG = _offsets["deg"]
O_SPOT_SEC = _offsets["spot_sec"]
O_SPOT_RES = _offsets["spot_res"]
O_BAST_HUB = _offsets["bast_hub"]
O_BAST_ARMS = _offsets["bast_arms"]
O_BAST_NARMS = _offsets["bast_narms"]
O_START_COL = _offsets["start_col"]
O_COL_VALUE = _offsets["col_value"]
O_UPG_COST = _offsets["upg_cost"]
O_MOVE_VAL = _offsets["move_val"]
O_TRADE_VAL = _offsets["trade_val"]
O_CARRY_X = _offsets["carry_x"]
O_CARRY_Y = _offsets["carry_y"]
O_ROLE_BONUS = _offsets["role_bonus"]
O_ROLE_RP_VP = _offsets["role_rp_vp"]
O_ROLE_START = _offsets["role_start"]
O_DIST = _offsets["dist"]
O_NEXT_HOP = _offsets["next_hop"]
O_HUB_TURNS = _offsets["hub_turns"]


FAR = 1000  # distance of an unreachable section


def _fail(key: str, what: str) -> DataFileError:
    return data_error(DATA_FILE, key, what)


def load_raw() -> dict[str, Any]:
    """The parsed shipped data file (validated), cached for the process."""
    return GAME_DATA.read()


def _non_decreasing(values) -> bool:
    return all(a <= b for a, b in zip(values, values[1:], strict=False))


def _validate(raw: dict[str, Any]) -> None:
    """The game's own checks of a data file (shipped, variant file or overridden)."""
    g, tok = raw["game"], raw["tokens"]
    if not 2 <= g["players_min"] <= MAX_PLAYERS:
        raise _fail("game.players_min", f"must be a player count within 2..{MAX_PLAYERS}")
    if not g["players_min"] <= g["players_max"] <= MAX_PLAYERS:
        raise _fail("game.players_max", f"must be within players_min..{MAX_PLAYERS}")
    if not 1 <= g["supply_points"] <= MAX_SUPPLY:
        raise _fail("game.supply_points", f"must be in [1, {MAX_SUPPLY}]")
    if g["ten_markers"] > MAX_TEN_MARKERS:
        raise _fail("game.ten_markers", f"at most {MAX_TEN_MARKERS}")
    if not 1 <= g["draws_per_turn"] <= 4:
        raise _fail("game.draws_per_turn", "must be in [1, 4]")
    if not 1 <= g["safety_cap_rounds"] <= 100_000:
        raise _fail("game.safety_cap_rounds", "must be in [1, 100000]")
    if g["ten_marker_value"] > 1000:
        raise _fail("game.ten_marker_value", "at most 1000")
    if any(v > 100 for v in g["demand_columns"]) or not _non_decreasing(g["demand_columns"]):
        raise _fail("game.demand_columns", "must not decrease, values at most 100")
    for key, high in (
        ("resource_per_type", 20),
        ("resource_on_map_per_type", 20),
        ("resource_in_bag_per_type", 20),
        ("roman", 20),
        ("cycle", 3),
        ("orders", 3),
        ("romanisation", 3),
    ):
        if tok[key] > high:
            raise _fail(f"tokens.{key}", f"at most {high}")
    removed = tok["roman_removed_by_players"]
    if any(not 0 <= v <= tok["roman"] for v in removed.values()):
        raise _fail("tokens.roman_removed_by_players", f"each in [0, {tok['roman']}]")
    res = raw["game"]["resources"]
    if len(res) != N_RES:
        raise _fail("game.resources", f"must list {N_RES} resources")
    if len(raw["game"]["demand_columns"]) != 5:
        raise _fail("game.demand_columns", "must have 5 columns")
    caps = raw["capabilities"]
    for key in ("upgrade_cost", "movement", "trading", "carrying_x", "carrying_y"):
        if len(caps[key]) != N_LEVELS:
            raise _fail(f"capabilities.{key}", f"must have {N_LEVELS} levels")
        if not _non_decreasing(caps[key]) or any(v > 100 for v in caps[key]):
            raise _fail(f"capabilities.{key}", "a track must not decrease, values at most 100")
    if caps["carrying_x"][0] < 1 or caps["movement"][0] < 1:
        raise _fail("capabilities", "level 0 must allow 1 MP and 1 token carried")
    if caps["carrying_x"][-1] > 3:  # one deliver action per count carried of a type (state.py)
        raise _fail("capabilities.carrying_x", "at most 3 tokens carried")
    sections = raw["map"]["sections"]
    if len(sections) > MAX_SEC:
        raise _fail("map.sections", f"at most {MAX_SEC} sections")
    names = [s[0] for s in sections]
    if len(set(names)) != len(names):
        raise _fail("map.sections", "has duplicate section ids")
    n_spots = 0
    for s in sections:
        if len(s[3]) > 2:
            raise _fail("map.sections", f"section {s[0]}: at most 2 resource spots")
        for r in s[3]:
            if r not in res:
                raise _fail("map.sections", f"section {s[0]}: unknown resource '{r}'")
        n_spots += len(s[3])
    if n_spots > MAX_SPOTS:
        raise _fail("map.sections", f"at most {MAX_SPOTS} resource spots")
    for a, b, c in raw["map"]["edges"]:
        if a not in names or b not in names:
            raise _fail("map.edges", f"edge [{a}, {b}] names an unknown section")
        if c not in (0, 1):
            raise _fail("map.edges", f"edge [{a}, {b}] cost must be 0 or 1")
    if len(raw["bastions"]) != N_BAST:
        raise _fail("bastions", f"must list {N_BAST} bastions")
    for b in raw["bastions"]:
        if b["hub"] not in names or any(a not in names for a in b["arms"]):
            raise _fail("bastions", f"{b['name']}: unknown hub or arm section")
        if not 1 <= len(b["arms"]) <= 3:
            raise _fail("bastions", f"{b['name']}: 1 to 3 arms")
        cols = raw["game"]["demand_columns"]
        if any(v not in cols for v in b["start_demand"]) or len(b["start_demand"]) != N_RES:
            raise _fail("bastions", f"{b['name']}: start_demand must be {N_RES} column values")
    if tuple(r["id"] for r in raw["roles"]) != ROLE_IDS:
        raise _fail("roles", f"must be, in order: {', '.join(ROLE_IDS)}")
    for r in raw["roles"]:
        if len(r["start"]) != 3 or any(s not in names for s in r["start"]):
            raise _fail("roles", f"{r['id']}: start must be 3 known sections")
        for cap in CAP_NAMES:
            if len(r[cap]) != N_LEVELS or not _non_decreasing(r[cap]) or max(r[cap]) > 1000:
                raise _fail(
                    f"roles.{r['id']}.{cap}",
                    f"a bonus track of {N_LEVELS} values that does not decrease, at most 1000",
                )
        if r["rp_as_vp"] > 100:
            raise _fail(f"roles.{r['id']}.rp_as_vp", "at most 100")


def section_names(raw: dict | None = None) -> list[str]:
    return [s[0] for s in (raw or load_raw())["map"]["sections"]]


def resource_names(raw: dict | None = None) -> list[str]:
    return list((raw or load_raw())["game"]["resources"])


def bastion_names(raw: dict | None = None) -> list[str]:
    return [b["name"] for b in (raw or load_raw())["bastions"]]


def param_set(raw: dict[str, Any]) -> ParamSet:
    """The declared parameters, their defaults read from ``raw``."""
    g, tok, caps = raw["game"], raw["tokens"], raw["capabilities"]
    removed = {int(k): v for k, v in tok["roman_removed_by_players"].items()}
    romans = {p: tok["roman"] - removed[p] for p in range(g["players_min"], g["players_max"] + 1)}
    cost = caps["upgrade_cost"]
    params = [
        Param("romans_in_play", "int", romans, "Roman tokens in the bag", low=0, high=tok["roman"]),
        Param(
            "turn_limit",
            "int",
            0,
            "round limit standing in for the time limit (0 = off)",
            low=0,
            high=100_000,
        ),
        Param(
            "roles_in_play",
            "int",
            6,
            "role cards in play (5 leaves the Versatile out)",
            choices=(5, 6),
        ),
        Param(
            "start_mode",
            "str",
            "choose",
            "first placement: choose among the role's 3 start sections, or fixed (first listed)",
            choices=("choose", "fixed"),
            provisional=True,
        ),
        Param(
            "first_placement_on_roman",
            "str",
            "stop",
            "first placement on a Roman ends the turn, or relocate_first",
            choices=("stop", "relocate_first"),
        ),
        Param(
            "demand_raise_target",
            "str",
            "below_8",
            "bastion whose demand rises: one below column 8 if any, or any Celtic bastion",
            choices=("below_8", "any"),
        ),
        Param(
            "trading_bonus",
            "str",
            "per_token",
            "Trading bonus per delivered token or once per visit",
            choices=("per_token", "per_visit"),
        ),
        Param(
            "map_mode",
            "str",
            "fixed",
            "map: the fixed Celtic Trader layout, or generated: every game builds its own map "
            "from the Celtic Quest tiles (celtic-quest.md 3.1-3.3), seeded by the game's seed",
            choices=("fixed", "generated"),
        ),
        Param("draws_per_turn", "int", g["draws_per_turn"], "tokens drawn per turn", low=1, high=4),
        Param(
            "supply_points",
            "int",
            g["supply_points"],
            "RP/VP supply points",
            low=1,
            high=MAX_SUPPLY,
        ),
        Param("ten_markers", "int", g["ten_markers"], "'+10' markers", low=0, high=MAX_TEN_MARKERS),
        Param(
            "safety_cap_rounds",
            "int",
            g["safety_cap_rounds"],
            "safety cap (rounds), ends as turn_cap",
            low=1,
            high=100_000,
            provisional=True,
        ),
        Param(
            "resource_in_bag_per_type",
            "int",
            tok["resource_in_bag_per_type"],
            "resource tokens of each type in the bag at setup",
            low=0,
            high=20,
        ),
        Param("orders_tokens", "int", tok["orders"], "orders tokens in the bag", low=0, high=3),
        Param(
            "romanisation_tokens",
            "int",
            tok["romanisation"],
            "Romanisation tokens in the bag",
            low=0,
            high=3,
        ),
        *(
            Param(
                f"upgrade_cost_{i}",
                "int",
                cost[i],
                f"RP to buy capability level {i}",
                low=0,
                high=100,
            )
            for i in range(1, N_LEVELS)
        ),
    ]
    return ParamSet(tuple(params))


GAME_DATA = GameData(
    DATA_FILE,
    ("game", "tokens", "capabilities", "map", "bastions", "roles"),
    _validate,
    param_set,
)
PARAMS = param_set(load_raw())


def graph_arrays(names, edges):
    """Padded adjacency lists ``(adj, adj_cost, deg)`` of sections ``names`` joined by the
    undirected ``edges`` ``[a, b, cost]`` (each edge listed from both ends, in edge order)."""
    idx = {s: i for i, s in enumerate(names)}
    adj = np.full((MAX_SEC, MAX_DEG), -1, np.int32)
    adj_cost = np.zeros((MAX_SEC, MAX_DEG), np.int32)
    deg = np.zeros(MAX_SEC, np.int32)
    for a, b, c in edges:
        for u, v in ((idx[a], idx[b]), (idx[b], idx[a])):
            adj[u, deg[u]] = v
            adj_cost[u, deg[u]] = c
            deg[u] += 1
    return adj, adj_cost, deg


def static_distances(adj, adj_cost, deg, n, sources=None):
    """All-pairs 0-1 shortest paths (no Romans) and next-hop table, by 0-1 BFS from each node
    (from the ``sources`` only when given: the other rows stay FAR / -1)."""
    dist = np.full((MAX_SEC, MAX_SEC), FAR, np.int32)
    hop = np.full((MAX_SEC, MAX_SEC), -1, np.int32)
    links = [
        list(zip(adj[u, : deg[u]].tolist(), adj_cost[u, : deg[u]].tolist(), strict=True))
        for u in range(n)
    ]
    for src in range(n) if sources is None else sources:
        d = [FAR] * MAX_SEC
        d[src] = 0
        first = [-1] * MAX_SEC
        dq = deque([src])
        while dq:
            u = dq.popleft()
            for v, c in links[u]:
                if d[u] + c < d[v]:
                    d[v] = d[u] + c
                    first[v] = v if u == src else first[u]
                    if c == 0:
                        dq.appendleft(v)
                    else:
                        dq.append(v)
        dist[src] = d
        hop[src] = first
        hop[src, src] = src
    return dist, hop


def compile_data(params: dict[str, Any], raw: dict[str, Any] | None = None) -> np.ndarray:
    """The arrays of one variant (``params`` resolved, ``raw`` its data; default: shipped)."""
    raw = raw or load_raw()
    g, tok, caps, m = raw["game"], raw["tokens"], raw["capabilities"], raw["map"]
    res = g["resources"]
    names = section_names(raw)
    idx = {s: i for i, s in enumerate(names)}
    n = len(names)

    sec_kind = np.zeros(MAX_SEC, np.int32)
    sec_bast = np.full(MAX_SEC, -1, np.int32)
    sec_tile = np.full(MAX_SEC, -1, np.int32)
    sec_roman = np.zeros(MAX_SEC, np.int32)
    sec_spots = np.full((MAX_SEC, 2), -1, np.int32)
    spot_sec = np.full(MAX_SPOTS, -1, np.int32)
    spot_res = np.full(MAX_SPOTS, -1, np.int32)
    tiles: dict[str, int] = {}
    n_spots = 0
    for i, (_, tile, roman, spots) in enumerate(m["sections"]):
        sec_tile[i] = tiles.setdefault(tile, len(tiles))
        sec_roman[i] = 1 if roman else 0
        for j, r in enumerate(spots):
            sec_spots[i, j] = n_spots
            spot_sec[n_spots] = i
            spot_res[n_spots] = res.index(r)
            n_spots += 1
    sc = idx[m["stone_circle"]]
    sec_kind[sc] = K_SC

    adj, adj_cost, deg = graph_arrays(names, m["edges"])

    cols = g["demand_columns"]
    bast_hub = np.zeros(N_BAST, np.int32)
    bast_arms = np.full((N_BAST, 3), -1, np.int32)
    bast_narms = np.zeros(N_BAST, np.int32)
    start_col = np.zeros((N_BAST, N_RES), np.int32)
    for b, bd in enumerate(raw["bastions"]):
        hub = idx[bd["hub"]]
        bast_hub[b] = hub
        sec_kind[hub] = K_HUB
        sec_bast[hub] = b
        for j, a in enumerate(bd["arms"]):
            bast_arms[b, j] = idx[a]
            sec_kind[idx[a]] = K_ARM
            sec_bast[idx[a]] = b
        bast_narms[b] = len(bd["arms"])
        start_col[b] = [cols.index(v) for v in bd["start_demand"]]

    upg_cost = np.array([0] + [params[f"upgrade_cost_{i}"] for i in range(1, N_LEVELS)], np.int32)
    role_bonus = np.zeros((N_ROLES, N_CAPS, N_LEVELS), np.int32)
    role_rp_vp = np.zeros(N_ROLES, np.int32)
    role_start = np.zeros((N_ROLES, 3), np.int32)
    for i, rd in enumerate(raw["roles"]):
        for c, cap in enumerate(CAP_NAMES):
            role_bonus[i, c] = rd[cap]
        role_rp_vp[i] = rd["rp_as_vp"]
        role_start[i] = [idx[s] for s in rd["start"]]

    dist, hop = static_distances(adj, adj_cost, deg, n)
    move_val = np.array(caps["movement"], np.int32)
    hub_dist = dist[:, bast_hub].astype(np.int64)  # (MAX_SEC, N_BAST)
    hub_turns = (hub_dist[None] + move_val[:, None, None] - 1) // move_val[:, None, None]

    rules = np.zeros(N_RULES, np.int32)
    rules[R_NSEC] = n
    rules[R_NSPOT] = n_spots
    rules[R_SC] = sc
    rules[R_DRAWS] = params["draws_per_turn"]
    rules[R_SUPPLY] = params["supply_points"]
    rules[R_TENS] = params["ten_markers"]
    rules[R_TEN_VALUE] = g["ten_marker_value"]
    rules[R_CAP_ROUNDS] = params["safety_cap_rounds"]
    rules[R_TURN_LIMIT] = params["turn_limit"]
    rules[R_ROLES_IN_PLAY] = params["roles_in_play"]
    rules[R_START_FIXED] = params["start_mode"] == "fixed"
    rules[R_RELOC_FIRST] = params["first_placement_on_roman"] == "relocate_first"
    rules[R_RAISE_ANY] = params["demand_raise_target"] == "any"
    rules[R_PER_VISIT] = params["trading_bonus"] == "per_visit"
    rules[R_ROMANS] = params["romans_in_play"]
    rules[R_ROMANS_TOTAL] = tok["roman"]
    rules[R_BAG_RES] = params["resource_in_bag_per_type"]
    rules[R_ORDERS] = params["orders_tokens"]
    rules[R_ROMANISATION] = params["romanisation_tokens"]
    rules[R_CYCLE] = tok["cycle"]
    rules[R_HUB_SPOTS] = m["roman_town_hub_spots"]
    rules[R_ARM_SPOTS] = m["roman_town_arm_spots"]

    values = dict(
        rules=rules,
        sec_kind=sec_kind,
        sec_bast=sec_bast,
        sec_tile=sec_tile,
        sec_roman=sec_roman,
        sec_spots=sec_spots,
        adj=adj,
        adj_cost=adj_cost,
        deg=deg,
        spot_sec=spot_sec,
        spot_res=spot_res,
        bast_hub=bast_hub,
        bast_arms=bast_arms,
        bast_narms=bast_narms,
        start_col=start_col,
        col_value=np.array(cols, np.int32),
        upg_cost=upg_cost,
        move_val=move_val,
        trade_val=np.array(caps["trading"], np.int32),
        carry_x=np.array(caps["carrying_x"], np.int32),
        carry_y=np.array(caps["carrying_y"], np.int32),
        role_bonus=role_bonus,
        role_rp_vp=role_rp_vp,
        role_start=role_start,
        dist=dist,
        next_hop=hop,
        hub_turns=hub_turns,
    )
    data = np.zeros(DATA_LEN, np.int32)
    for name, size in DATA_LAYOUT:
        flat = np.asarray(values[name]).reshape(-1)
        assert flat.size == size, name
        data[_offsets[name] : _offsets[name] + size] = flat
    return data


def default_data(players: int = 4, **overrides) -> np.ndarray:
    """Compiled data of the default rules (plus overrides): handy for tests and the REPL."""
    return compile_data(PARAMS.resolve(players, overrides))
