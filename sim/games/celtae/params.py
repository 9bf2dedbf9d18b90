"""Celtae data: load and validate ``celtae.toml``, declare every parameter (the §12 levers and the
27 rule switches of §10), and compile one variant into the flat arrays (:class:`Data`) the
kernels read.

List-valued levers (disc costs, market costs, army strengths) are parameters too, written as a
TOML list or a comma-separated string (``--set disc_costs=1,1,2,2,3,3,4,4,5``).
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from sim.core.datafile import DataFileError, data_error
from sim.core.gamedata import GameData, compiled_for
from sim.core.params import Param, ParamError, ParamSet
from sim.games.celtae.state import (
    MAX_PCARDS,
    MAX_PILE,
    N_COLOURS,
    N_ICONS,
    N_LEADERS,
)

DATA_FILE = Path(__file__).with_name("celtae.toml")

# Indices into Data.rules (int64): the scalar rules of one variant.
(
    G_PLAYERS,
    G_TRACK,
    G_RESERVE,
    G_FLIP_AT,
    G_TRIBE_CAP,
    G_MAX_RECRUITS,
    G_HAND_START,
    G_DISCARD_START,
    G_TOKENS_START,
    G_TOKENS_TOTAL,
    G_REFRESH_COST,
    G_FORCE_MAX,
    G_CARD_FORCE_CAP,
    G_BONUS_FORCE,
    G_COMPLETION_PTS,
    G_LEADER_A_PTS,
    G_LEADER_B_PTS,
    G_LEFTOVER_DIV,
    G_ALL_CUBES_PTS,
    G_PAWN_PTS,
    G_DRUID_CARD_COST,
    G_COPIES,
    G_DISCS,
    G_CUBES,
    G_SOLO_TARGET,
    G_ROUND_CAP,
    G_N_TWO,
    G_N_THREE,
    G_ARMY_ONES,
    G_ARMY_TWOS,
    G_DRUID_ONES,
    G_DRUID_TWOS,
    G_MIN_PAY,
    G_NOBLES,
    G_FARMERS,
    G_BUILDERS,
    G_SOLDIERS,
    G_DRUIDS_TOTAL,
    # rule switches (0 = the spec's default resolution)
    O_MOVE3_FREE,
    O_FORCE_NO_CAP,
    O_REFRESH_MAX,
    O_REFRESH_NEEDS_SWAP,
    O_REFRESH_REVERSED,
    O_BUILD_ANYWAY,
    O_TOKEN_NO_MOVE,
    O_TOKEN_REGION_CHOICE,
    O_ONE_TOKEN,
    O_MAJORITY_ZERO_OK,
    O_ANY_COUNTS_DRUIDS,
    O_DRUIDS_PAY_TILES,
    O_OVERFLOW_TO_BOX,
    O_DRUID_OVERFLOW_RESERVE,
    O_BONUS_RECRUIT_NO_CAP,
    O_RESHUFFLE,  # 0 all but top, 1 all, 2 none
    O_FLIP_TURN_ORDER,
    O_NEUTRAL_CUBES_COUNT,
    O_TIEBREAK_RANDOM,
    O_SOLO_ADJACENCY,
    O_SOLO_REFRESH_SWAPS,
    O_SOLO_GARRISON_ANY,
    O_SOLO_GARRISON_VS_SOLITAIRIX_OFF,
    O_SOLO_MAJORITY_VS_SOLITAIRIX_OFF,
    N_RULES,
) = range(63)

# Features counted for progress cards and leaders (index into a player's feature vector).
(
    F_ARMY1,
    F_ARMY2,
    F_DRUID1,
    F_DRUID2,
    F_CUBES_PLACED,
    F_DISCS_NORTH,
    F_DISCS_SOUTH,
    F_DISCS_PLACED,
    F_TRIBE_EXCL_DRUIDS,
    F_BONUS_TILES,
    N_LEADER_FEATURES,
) = range(11)

# Progress card features (Data.pc_feature) and their argument (Data.pc_arg).
(
    PF_DISCS_COLOUR,
    PF_DISCS_REGION,
    PF_WORKERS,  # arg: worker type 0..3, 5 = any (druids counted per the switch), 6 = non-druid
    PF_BONUS_TILES,
    PF_DRUID_WORKERS,
    PF_DRUID_TILES,
    PF_ARMY_TILES,
    PF_GARRISON_REGION,
) = range(8)
PF_NAMES = (
    "discs_colour",
    "discs_region",
    "workers",
    "bonus_tiles",
    "druid_workers",
    "druid_tiles",
    "army_tiles",
    "garrison_region",
)
ANY_WORKER = 5  # "most recruited workers": druids counted per most_workers_any_counts_druids
NON_DRUID_WORKERS = 6  # "5 workers, druids not included" (P10, P23): never druids, any switch
N_PROGRESS = 26

# The tables of one variant, packed into one int64 array (``Data.tab``) at these offsets: a
# single array keeps the kernels' calls cheap (numba reference-counts every array argument).
TABLES = (
    ("force_delta", 3),  # force change for a move of 1, 2, 3
    ("market_cost", 6),  # farmers per market slot
    ("disc_cost", 9),  # card cost under each disc, leftmost first
    ("disc_pts", 9),  # point icon under each disc slot (scored when empty)
    ("tribe_pts", 16),  # point icon under each tribe slot
    ("setup_types", 15),  # worker type per space slot then centre slot, -1 = bag draw
    ("position_region", 4),
    ("adjacent", 16),  # [position * 4 + space] = 1 if adjacent
    ("cit_cap", 8),  # usable slots (neutral ones included) at this player count
    ("cit_neutral", 8),  # neutral discs at this player count
    ("bonus_effects", 4),  # the bonus effects of one region's tiles (shuffled per region)
    ("garrison_icon", 10),  # icon per garrison slot, region-major
    ("garrison_neutral", 10),  # 1 = the slot holds a neutral cube at this player count
    ("army_strength", 10),  # tiles 0..3 one-point, 4..9 two-point
    ("army_points", 10),
    ("druid_req", 40),  # [tile * 4 + type] farmers, builders, soldiers, nobles required
    ("druid_points", 10),
    ("pc_slots", 26),
    ("pc_feature", 26),
    ("pc_arg", 26),
    ("pc_min", 26),  # 0 = majority card, else the threshold
    ("pc_solo_min", 26),  # solo minimum of the "most workers" cards
    ("leader_min", 8 * 2 * 10),  # [(leader * 2 + side) * N_LEADER_FEATURES + feature]
    ("solo_actions", 32),  # [section * 4 + j] kinds tried in order (face A 0..3, B 4..7), -1 pad
    ("solo_swap", 8),  # 0 refresh, 1 first, 2 middle, 3 last
    ("solo_discard", 8),  # bitmask over market positions 0..5
)
_offsets = {}
_at = 0
for _name, _size in TABLES:
    _offsets[_name] = _at
    _at += _size
TAB_LEN = _at
(
    T_FORCE_DELTA,
    T_MARKET_COST,
    T_DISC_COST,
    T_DISC_PTS,
    T_TRIBE_PTS,
    T_SETUP_TYPES,
    T_POSITION_REGION,
    T_ADJACENT,
    T_CIT_CAP,
    T_CIT_NEUTRAL,
    T_BONUS_EFFECTS,
    T_GARRISON_ICON,
    T_GARRISON_NEUTRAL,
    T_ARMY_STRENGTH,
    T_ARMY_POINTS,
    T_DRUID_REQ,
    T_DRUID_POINTS,
    T_PC_SLOTS,
    T_PC_FEATURE,
    T_PC_ARG,
    T_PC_MIN,
    T_PC_SOLO_MIN,
    T_LEADER_MIN,
    T_SOLO_ACTIONS,
    T_SOLO_SWAP,
    T_SOLO_DISCARD,
) = (_offsets[name] for name, _ in TABLES)

Data = namedtuple("Data", ["rules", "tab"])  # int64 (N_RULES,) scalars, int64 (TAB_LEN,) tables


def table(data: Data, name: str) -> np.ndarray:
    """One table of ``data`` as a view (reshaped for the 2-D and 3-D ones); for Python code."""
    size = dict(TABLES)[name]
    view = data.tab[_offsets[name] : _offsets[name] + size]
    shapes = {"adjacent": (4, 4), "druid_req": (10, 4), "leader_min": (8, 2, N_LEADER_FEATURES)}
    shapes["solo_actions"] = (8, 4)
    return view.reshape(shapes[name]) if name in shapes else view


SWAPS = ("refresh", "first", "middle", "last")
KINDS = ("cultivate", "build", "combat", "recruit")
BONUSES = ("bonus_token", "recruit_one", "take_two_cards", "gain_three_force")
WORKER_LETTERS = {"F": 0, "B": 1, "S": 2, "N": 3}


def _fail(key: str, what: str) -> DataFileError:
    return data_error(DATA_FILE, key, what)


def load_raw() -> dict[str, Any]:
    """The parsed, validated shipped data file (cached for the process)."""
    return GAME_DATA.read()


def _check(ok: bool, key: str, what: str) -> None:
    if not ok:
        raise _fail(key, what)


def _validate_components(raw: dict[str, Any]) -> None:
    """Values the kernels read directly (not through a parameter): names and index ranges."""
    names = raw["names"]
    workers, icons, regions = names["workers"], names["icons"], names["regions"]
    marks = ("all", "3/4", "4")
    rondel = raw["rondel"]
    for key in ("cb_north_adjacent", "cb_south_adjacent", "recruit_adjacent", "combat_adjacent"):
        _check(all(0 <= v < 4 for v in rondel[key]), f"rondel.{key}", "positions in [0, 3]")
    _check(rondel["start"] < 4 and rondel["river_from"] < 4, "rondel", "start in [0, 3]")
    _check(all(r in regions for r in rondel["position_region"]), "rondel", "known regions")
    for key, slots in raw["worker_setup"].items():
        _check(all(t in workers or t == "random" for t in slots), f"worker_setup.{key}",
               f"worker types ({', '.join(workers)}) or 'random'")  # fmt: skip
    for key, high in (("nobles", 30), ("druids", 30), ("farmers", 40), ("builders", 40)):
        _check(raw["workers"][key] <= high, f"workers.{key}", f"at most {high}")
    _check(raw["workers"]["soldiers"] <= 40, "workers.soldiers", "at most 40")
    for region in regions:
        for slots in raw["citadels"][region]:
            _check(all(m in marks for m in slots), f"citadels.{region}", "slots all, 3/4 or 4")
        for icon, mark in raw["garrisons"][region]:
            _check(icon in icons and mark in marks, f"garrisons.{region}", "icon and all|3/4|4")
    _check(all(b in BONUSES for b in raw["citadels"]["bonus_tiles_per_region"]),
           "citadels.bonus_tiles_per_region", f"one of {', '.join(BONUSES)}")  # fmt: skip
    board = raw["player_board"]
    _check(board["discs"] <= len(board["disc_costs"]), "player_board.discs",
           f"at most {len(board['disc_costs'])} (one cost per disc)")  # fmt: skip
    _check(board["garrison_cubes"] <= 10, "player_board.garrison_cubes", "at most 10")
    _check(len(board["tribe_slot_points"]) <= 16, "player_board.tribe_slot_points", "16 slots")
    _check(raw["cards"]["copies_per_colour_and_icon"] <= 20, "cards", "at most 20 copies")
    tokens = raw["bonus_tokens"]
    _check(tokens["per_player"] <= tokens["total"] <= 40, "bonus_tokens", "per_player <= total")
    for tiles in (raw["druid_tiles"]["one_point"], raw["druid_tiles"]["two_point"]):
        _check(all(t and set(t) <= set(WORKER_LETTERS) for t in tiles), "druid_tiles",
               "worker letters F, B, S, N")  # fmt: skip
    for card in raw["progress_cards"]["cards"]:
        _check(card[1] in (2, 3), "progress_cards.cards", f"{card[0]}: 2 or 3 slots")
        _check(card[4] <= 30 and card[5] <= 30, "progress_cards.cards", f"{card[0]}: minimum")
    features = raw["leaders"]["features"]
    for leader in names["leaders"]:
        for side in ("A", "B"):
            for f, v in raw["leaders"][leader][side].items():
                _check(f in features and v <= 30, f"leaders.{leader}.{side}.{f}",
                       "a known feature, at most 30")  # fmt: skip
    for key in ("face_a", "face_b"):
        for acts, swap, discard in raw["solo"][key]:
            _check(all(a in KINDS for a in acts) and swap in SWAPS, f"solo.{key}",
                   f"actions of {', '.join(KINDS)}; swap one of {', '.join(SWAPS)}")  # fmt: skip
            _check(all(1 <= d <= 6 for d in discard), f"solo.{key}", "market slots 1 to 6")


def _validate(raw: dict[str, Any]) -> None:
    """The game's own checks of a data file; most numbers are checked as parameter defaults."""
    names = raw["names"]
    if len(names["colours"]) != N_COLOURS or len(names["icons"]) != N_ICONS:
        raise _fail("names", f"must name {N_COLOURS} colours and {N_ICONS} icons")
    if len(names["leaders"]) != N_LEADERS:
        raise _fail("names.leaders", f"must name {N_LEADERS} leaders")
    if len(raw["progress_cards"]["cards"]) != N_PROGRESS:
        raise _fail("progress_cards.cards", f"must list {N_PROGRESS} cards")
    for card in raw["progress_cards"]["cards"]:
        if card[2] not in PF_NAMES:
            raise _fail("progress_cards.cards", f"{card[0]}: unknown feature {card[2]!r}")
        workers = ("any", "non_druid", *names["workers"])
        if card[2] == "workers" and card[3] not in workers:
            raise _fail(
                "progress_cards.cards",
                f"{card[0]}: unknown worker {card[3]!r}; allowed: {', '.join(workers)}",
            )
    _validate_components(raw)


@dataclasses.dataclass(frozen=True)
class IntListParam(Param):
    """A list of integers, written as a TOML list or ``"1,2,3"``; stored as that string."""

    length: int = 0
    item_low: int = 0
    item_high: int = 100

    def allowed(self) -> str:
        return f"{self.length} comma-separated integers in [{self.item_low}, {self.item_high}]"

    def validate(self, value: Any) -> Any:
        bad = ParamError(f"parameter '{self.name}' = {value!r} is not allowed: {self.allowed()}")
        if isinstance(value, list | tuple):
            items = list(value)
        elif isinstance(value, str):
            try:
                items = [int(t) for t in value.split(",")]
            except ValueError:
                raise bad from None
        else:
            raise bad
        if len(items) != self.length or any(
            isinstance(v, bool) or not isinstance(v, int) for v in items
        ):
            raise bad
        if any(not self.item_low <= v <= self.item_high for v in items):
            raise bad
        return ",".join(str(v) for v in items)


def int_list(text: str) -> list[int]:
    return [int(t) for t in text.split(",")]


def _by_players(values: list[int]) -> dict[int, int]:
    return {n: values[n - 1] for n in range(1, 5)}


def param_set(raw: dict[str, Any]) -> ParamSet:
    """The declared parameters, their defaults read from ``raw``."""
    g, mv, wk, cards = raw["game"], raw["move"], raw["workers"], raw["cards"]
    board, armies, druids = raw["player_board"], raw["armies"], raw["druid_tiles"]
    prog, cit, score, opts = raw["progress"], raw["citadels"], raw["scoring"], raw["rule_options"]

    def ilist(name, values, doc, low=0, high=100, provisional=False):
        text = ",".join(str(v) for v in values)
        return IntListParam(
            name, "str", text, doc, provisional=provisional,
            length=len(values), item_low=low, item_high=high,
        )  # fmt: skip

    def num(name, default, doc, low, high, provisional=False):
        return Param(name, "int", default, doc, low=low, high=high, provisional=provisional)

    params = [
        num("tribe_cap", wk["tribe_cap"], "tribe size at the end of an action", 1, 16),
        num("max_recruits", wk["max_recruits"], "most workers recruited per action", 1, 3),
        num("starting_hand", cards["starting_hand"], "cards dealt before the leader pick", 0, 10),
        num("starting_discard", cards["starting_discard"], "cards discarded at setup", 0, 10),
        num("starting_tokens", raw["bonus_tokens"]["per_player"], "bonus tokens each", 0, 2),
        ilist("move_force_delta", mv["force_delta"], "force change for moves of 1/2/3", -10, 10),
        num("refresh_cost", mv["refresh_cost"], "force paid to refresh a space", 0, 10),
        ilist("market_farmer_cost", raw["market"]["farmer_cost_by_slot"],
              "farmers per market slot (slot 1 first)", 0, 6),
        ilist("disc_costs", board["disc_costs"], "card cost under each disc, leftmost first",
              0, 12, provisional=True),
        num("min_build_payment", 1, "cards a build costs at least", 0, 5),
        num("force_per_card_cap", cards["force_per_card_cap"], "most force per combat card", 1, 10),
        ilist("army_strengths_1pt", armies["one_point_strengths"],
              "strengths of the four 1-point Roman armies", 0, 30, provisional=True),
        ilist("army_strengths_2pt", armies["two_point_strengths"],
              "strengths of the six 2-point Roman armies", 0, 30, provisional=True),
        num("army_pile_1pt", _by_players(armies["pile_one_point"]),
            "1-point armies per pile", 0, 2, provisional=True),
        num("army_pile_2pt", _by_players(armies["pile_two_point"]),
            "2-point armies per pile", 0, 3, provisional=True),
        num("druid_pile_1pt", _by_players(druids["pile_one_point"]),
            "1-point druid tiles per pile", 0, 2, provisional=True),
        num("druid_pile_2pt", _by_players(druids["pile_two_point"]),
            "2-point druid tiles per pile", 0, 3, provisional=True),
        num("druid_card_cost_per_druid", druids["druid_card_cost_per_druid"],
            "cards per druid owned (new one included) to take a druid worker", 0, 5),
        num("druid_reserve", _by_players(raw["druid_reserve"]["per_region"]),
            "druid workers per region reserve", 0, 5, provisional=True),
        num("progress_track_pawns", _by_players(prog["track_pawns"]),
            "pawns on the progress track", 1, 12, provisional=True),
        num("progress_two_slot_cards", _by_players(prog["two_slot_cards"]),
            "2-slot progress cards laid out", 0, 8, provisional=True),
        num("progress_three_slot_cards", _by_players(prog["three_slot_cards"]),
            "3-slot progress cards laid out", 0, 8, provisional=True),
        num("progress_points_per_pawn", prog["points_per_pawn"], "points per pawn", 0, 5),
        num("leader_flip_at", prog["leader_flip_when_remaining"],
            "track pawns left when leaders may flip", 0, 12),
        num("leader_points_a", raw["leaders"]["points_a"], "points of a met side A", 0, 10),
        num("leader_points_b", raw["leaders"]["points_b"], "points of a met side B", 0, 10),
        num("bonus_force", cit["bonus_force"], "force of the +3 force bonus", 0, 10),
        num("citadel_completion_points", cit["completion_points"],
            "points of a bonus tile taken on completion", 0, 5),
        num("all_cubes_placed_points", score["all_cubes_placed_points"],
            "points for all 4 cubes on the board", 0, 5),
        num("leftover_divisor", score["leftover_divisor"], "(force + cards) per point", 1, 20),
        num("force_track_max", mv["force_max"], "top of the force track", 3, 99,
            provisional=True),
        num("solo_target", raw["solo"]["target"], "solo win target (easy 25, hard 35)", 0, 100),
        num("safety_cap_rounds", g["safety_cap_rounds"], "safety cap, ends as turn_cap",
            1, 100_000),
    ]  # fmt: skip
    for name, values in opts.items():
        kind = {bool: "bool", int: "int", str: "str"}[type(values[0])]
        params.append(
            Param(
                name,
                kind,
                values[0],
                f"rule switch (rules/celtae.md §10); alternatives: {values[1:] or 'none'}",
                choices=tuple(values),
                provisional=True,
            )
        )
    return ParamSet(tuple(params))


GAME_DATA = GameData(
    DATA_FILE,
    ("game", "names", "rondel", "workers", "citadels", "progress_cards", "leaders"),
    _validate,
    param_set,
)
PARAMS = param_set(load_raw())
ROLE_IDS = tuple(load_raw()["names"]["leaders"])


def names(key: str) -> list[str]:
    return list(load_raw()["names"][key])


def _mark_used(mark: str, players: int) -> bool:
    n = max(players, 2)  # solo uses the 2-player components
    return mark == "all" or (mark == "3/4" and n >= 3) or (mark == "4" and n == 4)


def compile_data(params: dict[str, Any], players: int, raw: dict | None = None) -> Data:
    """The arrays of one variant (``params`` resolved for ``players``, ``raw`` its data)."""
    raw = raw or load_raw()
    p = params
    wtype = {w: i for i, w in enumerate(raw["names"]["workers"])}
    colours = raw["names"]["colours"]
    icons = raw["names"]["icons"]
    regions = raw["names"]["regions"]

    cap = np.zeros(8, np.int64)
    neutral = np.zeros(8, np.int64)
    for r, region in enumerate(regions):
        for c, slots in enumerate(raw["citadels"][region]):
            cap[r * 4 + c] = len(slots)
            neutral[r * 4 + c] = sum(not _mark_used(m, players) for m in slots)
    g_icon = np.zeros(10, np.int64)
    g_neutral = np.zeros(10, np.int64)
    for r, region in enumerate(regions):
        for k, (icon, mark) in enumerate(raw["garrisons"][region]):
            g_icon[r * 5 + k] = icons.index(icon)
            g_neutral[r * 5 + k] = not _mark_used(mark, players)

    setup = []
    ws = raw["worker_setup"]
    for key in ("cb_north", "cb_south", "recruit", "combat", "centre"):
        setup += [-1 if t == "random" else wtype[t] for t in ws[key]]

    rondel = raw["rondel"]
    adjacent = np.zeros((4, 4), np.int64)
    for s, key in enumerate(("cb_north", "cb_south", "recruit", "combat")):
        for pos in rondel[f"{key}_adjacent"]:
            adjacent[pos, s] = 1
    pos_region = np.array([regions.index(r) for r in rondel["position_region"]], np.int64)

    ones, twos = int_list(p["army_strengths_1pt"]), int_list(p["army_strengths_2pt"])
    army_strength = np.array(ones + twos, np.int64)
    army_points = np.array([1] * len(ones) + [2] * len(twos), np.int64)
    dt = raw["druid_tiles"]
    druid_req = np.zeros((10, 4), np.int64)
    for i, req in enumerate(dt["one_point"] + dt["two_point"]):
        for letter in req:
            druid_req[i, WORKER_LETTERS[letter]] += 1
    druid_points = np.array([1] * len(dt["one_point"]) + [2] * len(dt["two_point"]), np.int64)

    pcs = raw["progress_cards"]["cards"]
    pc_slots = np.array([c[1] for c in pcs], np.int64)
    pc_feature = np.array([PF_NAMES.index(c[2]) for c in pcs], np.int64)
    pc_arg = np.zeros(N_PROGRESS, np.int64)
    for i, c in enumerate(pcs):
        arg = c[3]
        if arg in colours:
            pc_arg[i] = colours.index(arg)
        elif arg in regions:
            pc_arg[i] = regions.index(arg)
        elif arg == "any":
            pc_arg[i] = ANY_WORKER
        elif arg == "non_druid":
            pc_arg[i] = NON_DRUID_WORKERS
        elif arg in wtype:
            pc_arg[i] = wtype[arg]
    pc_min = np.array([c[4] for c in pcs], np.int64)
    pc_solo_min = np.array([c[5] for c in pcs], np.int64)

    ld = raw["leaders"]
    features = ld["features"]
    leader_min = np.zeros((N_LEADERS, 2, N_LEADER_FEATURES), np.int64)
    for li, leader in enumerate(raw["names"]["leaders"]):
        for side, key in enumerate(("A", "B")):
            for f, v in ld[leader][key].items():
                leader_min[li, side, features.index(f)] = v

    solo_actions = np.full((8, 4), -1, np.int64)
    solo_swap = np.zeros(8, np.int64)
    solo_discard = np.zeros(8, np.int64)
    for face, key in enumerate(("face_a", "face_b")):
        for k, (acts, swap, discard) in enumerate(raw["solo"][key]):
            i = face * 4 + k
            for j, a in enumerate(acts):
                solo_actions[i, j] = KINDS.index(a)
            solo_swap[i] = SWAPS.index(swap)
            for pos in discard:
                solo_discard[i] |= 1 << (pos - 1)

    tribe_pts = np.zeros(16, np.int64)
    tp = raw["player_board"]["tribe_slot_points"]
    tribe_pts[: len(tp)] = tp

    rules = np.zeros(N_RULES, np.int64)
    rules[G_PLAYERS] = players
    rules[G_TRACK] = p["progress_track_pawns"]
    rules[G_RESERVE] = p["druid_reserve"]
    rules[G_FLIP_AT] = p["leader_flip_at"]
    rules[G_TRIBE_CAP] = p["tribe_cap"]
    rules[G_MAX_RECRUITS] = p["max_recruits"]
    rules[G_HAND_START] = p["starting_hand"]
    rules[G_DISCARD_START] = min(p["starting_discard"], p["starting_hand"])
    rules[G_TOKENS_START] = p["starting_tokens"]
    rules[G_TOKENS_TOTAL] = raw["bonus_tokens"]["total"]
    rules[G_REFRESH_COST] = p["refresh_cost"]
    rules[G_FORCE_MAX] = 1_000_000 if p["force_overflow"] == "no_cap" else p["force_track_max"]
    rules[G_CARD_FORCE_CAP] = p["force_per_card_cap"]
    rules[G_BONUS_FORCE] = p["bonus_force"]
    rules[G_COMPLETION_PTS] = p["citadel_completion_points"]
    rules[G_LEADER_A_PTS] = p["leader_points_a"]
    rules[G_LEADER_B_PTS] = p["leader_points_b"]
    rules[G_LEFTOVER_DIV] = p["leftover_divisor"]
    rules[G_ALL_CUBES_PTS] = p["all_cubes_placed_points"]
    rules[G_PAWN_PTS] = p["progress_points_per_pawn"]
    rules[G_DRUID_CARD_COST] = p["druid_card_cost_per_druid"]
    rules[G_COPIES] = raw["cards"]["copies_per_colour_and_icon"]
    rules[G_DISCS] = raw["player_board"]["discs"]
    rules[G_CUBES] = raw["player_board"]["garrison_cubes"]
    rules[G_SOLO_TARGET] = p["solo_target"]
    rules[G_ROUND_CAP] = p["safety_cap_rounds"]
    n_two, n_three = p["progress_two_slot_cards"], p["progress_three_slot_cards"]
    if n_two + n_three > MAX_PCARDS or n_two > 13 or n_three > 13:
        raise ParamError(
            f"progress cards laid out: {n_two} + {n_three} is not allowed: at most "
            f"{MAX_PCARDS} cards, 13 of each kind"
        )
    rules[G_N_TWO], rules[G_N_THREE] = n_two, n_three
    for key, gk, n_tiles in (
        ("army_pile_1pt", G_ARMY_ONES, len(ones)),
        ("army_pile_2pt", G_ARMY_TWOS, len(twos)),
        ("druid_pile_1pt", G_DRUID_ONES, len(dt["one_point"])),
        ("druid_pile_2pt", G_DRUID_TWOS, len(dt["two_point"])),
    ):
        if 2 * p[key] > n_tiles:
            raise ParamError(f"parameter '{key}' = {p[key]}: two piles need {2 * p[key]} tiles")
        rules[gk] = p[key]
    if p["army_pile_1pt"] + p["army_pile_2pt"] > MAX_PILE:
        raise ParamError("army piles hold at most 5 tiles")
    if p["druid_pile_1pt"] + p["druid_pile_2pt"] > MAX_PILE:
        raise ParamError("druid piles hold at most 5 tiles")
    rules[G_MIN_PAY] = p["min_build_payment"]
    w = raw["workers"]
    rules[G_NOBLES], rules[G_FARMERS] = w["nobles"], w["farmers"]
    rules[G_BUILDERS], rules[G_SOLDIERS], rules[G_DRUIDS_TOTAL] = (
        w["builders"], w["soldiers"], w["druids"],
    )  # fmt: skip

    rules[O_MOVE3_FREE] = not p["move_3_requires_force"]
    rules[O_FORCE_NO_CAP] = p["force_overflow"] == "no_cap"
    rules[O_REFRESH_MAX] = p["refresh_max_per_turn"]
    rules[O_REFRESH_NEEDS_SWAP] = not p["refresh_without_swap_allowed"]
    rules[O_REFRESH_REVERSED] = p["refresh_centre_to_space_order"] == "reversed"
    rules[O_BUILD_ANYWAY] = not p["build_only_if_legal"]
    rules[O_TOKEN_NO_MOVE] = not p["token_any_space_still_moves_pawn"]
    rules[O_TOKEN_REGION_CHOICE] = p["token_any_space_region"] == "player_choice"
    rules[O_ONE_TOKEN] = p["tokens_per_action_max"] == "one"
    rules[O_MAJORITY_ZERO_OK] = not p["majority_requires_at_least_one"]
    rules[O_ANY_COUNTS_DRUIDS] = p["most_workers_any_counts_druids"]
    rules[O_DRUIDS_PAY_TILES] = p["druids_can_pay_druid_tiles"]
    rules[O_OVERFLOW_TO_BOX] = p["tribe_overflow_nondruid_to"] == "box"
    rules[O_DRUID_OVERFLOW_RESERVE] = p["tribe_overflow_druid_to"] == "reserve"
    rules[O_BONUS_RECRUIT_NO_CAP] = not p["bonus_recruit_applies_tribe_cap"]
    rules[O_RESHUFFLE] = ("discard_pile_except_top", "discard_pile_all", "none").index(
        p["deck_reshuffle"]
    )
    rules[O_FLIP_TURN_ORDER] = p["leader_flip_decision"] == "turn_order"
    rules[O_NEUTRAL_CUBES_COUNT] = p["neutral_cubes_in_majority"]
    rules[O_TIEBREAK_RANDOM] = p["final_tiebreak"] == "random"
    rules[O_SOLO_ADJACENCY] = p["solo_requires_adjacency"]
    rules[O_SOLO_REFRESH_SWAPS] = p["solo_refresh_icon_also_swaps"]
    rules[O_SOLO_GARRISON_ANY] = p["solo_garrison_region"] == "any_region"
    rules[O_SOLO_GARRISON_VS_SOLITAIRIX_OFF] = not p["solo_garrison_majority_vs_solitairix"]
    rules[O_SOLO_MAJORITY_VS_SOLITAIRIX_OFF] = not p["solo_majority_cards_vs_solitairix"]

    bonus = [BONUSES.index(b) for b in raw["citadels"]["bonus_tiles_per_region"]]
    tables = {
        "force_delta": int_list(p["move_force_delta"]),
        "market_cost": int_list(p["market_farmer_cost"]),
        "disc_cost": int_list(p["disc_costs"]),
        "disc_pts": raw["player_board"]["empty_disc_slot_points"],
        "tribe_pts": tribe_pts,
        "setup_types": setup,
        "position_region": pos_region,
        "adjacent": adjacent.ravel(),
        "cit_cap": cap,
        "cit_neutral": neutral,
        "bonus_effects": bonus,
        "garrison_icon": g_icon,
        "garrison_neutral": g_neutral,
        "army_strength": army_strength,
        "army_points": army_points,
        "druid_req": druid_req.ravel(),
        "druid_points": druid_points,
        "pc_slots": pc_slots,
        "pc_feature": pc_feature,
        "pc_arg": pc_arg,
        "pc_min": pc_min,
        "pc_solo_min": pc_solo_min,
        "leader_min": leader_min.ravel(),
        "solo_actions": solo_actions.ravel(),
        "solo_swap": solo_swap,
        "solo_discard": solo_discard,
    }
    tab = np.zeros(TAB_LEN, np.int64)
    for name, size in TABLES:
        values = np.asarray(tables[name], np.int64)
        if values.shape != (size,):
            raise DataFileError(f"{DATA_FILE.name}: table '{name}' has {values.size} values")
        tab[_offsets[name] : _offsets[name] + size] = values
    return Data(rules=rules, tab=tab)


@lru_cache(maxsize=64)
def _cached(items: tuple, players: int) -> Data:
    return compile_data(dict(items), players)


def data_for(params, players: int) -> Data:
    """Compiled data of a resolved parameter mapping (cached per distinct variant)."""
    return _cached(tuple(sorted(params.items())), players)


def setup_data(setup) -> Data:
    """Compiled data of a setup: its parameters and its data-file overrides (once per variant)."""
    return compiled_for(setup, lambda s: compile_data(dict(s.params), s.players, s.raw_data()))


def default_data(players: int = 4, **overrides) -> Data:
    """Compiled data of the default rules (plus overrides): handy for tests and the REPL."""
    return compile_data(PARAMS.resolve(players, overrides), players)
