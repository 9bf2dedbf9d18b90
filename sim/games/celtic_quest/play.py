"""Celtic Quest's games: each game's data (its own map), and ``play(setup, seeds)``.

The games are played by Celtic Trader's compiled chunk loop (sim/games/celtic_trader/play.py),
which runs Celtic Quest's rules where the data says so; only the arrays differ (a longer state,
four score components, the quests completed as a player column).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sim.core.gamedata import compiled_for
from sim.core.results import ChunkResult
from sim.core.split_compile import prepare
from sim.games.celtic_quest.compile import compile_quest, fixed_graph
from sim.games.celtic_quest.decisions import DECISION_KINDS
from sim.games.celtic_quest.layout import QSTATE_LEN
from sim.games.celtic_quest.mapgen import generate_map, load_catalogue, section_graph
from sim.games.celtic_trader.mapmode import map_rng
from sim.games.celtic_trader.state import BUF_LEN, ROLES_RANDOM

SCORE_COMPONENTS = ("vp", "crystals", "quests", "destiny")
# quests completed by the seat; the tie-break's copy of it (0 under tie_break = "shared")
PLAYER_EXTRAS = ("quests_completed", "tiebreak_quests")
TIEBREAK = ("tiebreak_quests",)
LOOPS_MODULE = "sim.games.celtic_trader.play"  # the module of the chunk loops that play it


def game_graph(setup, game_seed: int):
    """The section graph of the game with seed ``game_seed``: its own generated map (§3.1-3.3,
    on a random stream of its own), or the fixed Celtic Trader layout."""
    raw = setup.raw_data()
    columns = tuple(raw["game"]["demand_columns"])
    if setup.params["map_mode"] != "generated":
        return fixed_graph(columns)
    return map_graph(setup, map_seed(setup, game_seed))


def map_seed(setup, game_seed: int) -> int:
    """The seed of the map a game plays: its own, or map k of the variant's pool."""
    pool = setup.params["map_pool"]
    return int(game_seed) % 2**64 if pool == 0 else int(game_seed) % pool


def map_layout(setup, seed: int):
    """(catalogue, generated map) of the map with seed ``seed`` (§3.1): placements uniform
    among the legal ones (``map_placement = "random"``), or each chosen by the bot of the seat
    drawing the tile (``"players"``, strategies/celtic_quest/placement.py)."""
    cat = replace(load_catalogue(), unconnected_max=setup.params["unconnected_spots_max"])
    choose = None
    if setup.params["map_placement"] == "players":
        from strategies.celtic_quest.placement import placer

        choose = placer(cat, setup.bot_arrays()[0])
    return cat, generate_map(cat, map_rng(seed), setup.players, choose)


def map_graph(setup, seed: int):
    raw = setup.raw_data()
    cat, built = map_layout(setup, seed)
    return section_graph(cat, built.layout, tuple(raw["game"]["demand_columns"]))


def _compile(setup, graph) -> np.ndarray:
    return compile_quest(dict(setup.params), setup.raw_data(), setup.players, graph)


_PLAYER_POOLS: dict = {}  # pools of maps placed by the seats' bots, by variant and bots


def _pool(setup) -> dict[int, np.ndarray]:
    """The variant's pool: the compiled data of each map built so far, by map number (kept
    once per process); with ``map_placement = "players"`` the maps depend on the seats' bots
    too."""
    if setup.params["map_placement"] != "players":
        return compiled_for(setup, lambda s: {})
    key = (setup.game, setup.players, setup.data_key(), tuple(setup.bot_arrays()[0].tolist()))
    if key not in _PLAYER_POOLS:
        if len(_PLAYER_POOLS) >= 16:
            _PLAYER_POOLS.clear()
        _PLAYER_POOLS[key] = {}
    return _PLAYER_POOLS[key]


def game_data(setup, seed: int) -> np.ndarray:
    """Compiled data of the game of ``setup`` with seed ``seed``. A pool's map is built the
    first time a game plays it (map k depends only on the variant and k): a short run, a test
    or a worker's chunk builds only the maps its games play, not the whole pool (256 maps,
    0.7 s per variant)."""
    if setup.params["map_mode"] == "generated" and setup.params["map_pool"] > 0:
        pool = _pool(setup)
        k = map_seed(setup, seed)
        if k not in pool:
            pool[k] = _compile(setup, map_graph(setup, k))
        return pool[k]
    return _compile(setup, game_graph(setup, seed))


def build_pool(setup) -> None:
    """Build every map of the variant's pool now (``menhir bench``: before its timing)."""
    if setup.params["map_mode"] == "generated":
        for k in range(setup.params["map_pool"]):
            game_data(setup, k)


def chunk_data(setup, seeds):
    """``(first, stop, data)`` runs of a chunk's games that share their data (the whole chunk
    on the fixed map, else one game at a time)."""
    if setup.params["map_mode"] != "generated":
        yield 0, len(seeds), compiled_for(setup, lambda s: _compile(s, game_graph(s, 0)))
        return
    for g in range(len(seeds)):
        yield g, g + 1, game_data(setup, int(seeds[g]))


def fixed_destinies(setup) -> np.ndarray:
    """The kernel's ``fixed_roles``: each seat's destiny index, or -1 where it is dealt."""
    if isinstance(setup.roles, str):
        return np.full(setup.players, -1, np.int64)
    return setup.role_ids()


def new_result(n: int, players: int) -> ChunkResult:
    return ChunkResult.empty(
        n, players, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS), len(DECISION_KINDS)
    )


def compile_halves(args, search) -> tuple:
    """The halves of Celtic Trader's loops as Celtic Quest plays them (its kernels themselves,
    with the quest hooks) for sim/core/split_compile.py. Celtic Quest's greedy (22 s cold)
    calls Celtic Trader's last, so Celtic Trader's compiles first on the other side, and the
    cache has it when Celtic Quest's reaches it. Without the search Celtic Quest's greedy
    compiles here and the rules there (24 s cold before, 20 s after), with the search the
    other way round. This half also takes the loop's small callees, which the loop compiled
    on one core after both halves: its results, kinds and seeding, and without the search the
    set-up (compiled first, so the rules' ``init_state`` finds it in the cache), with it the
    search's own cached kernels (strategies.search.search_parts), the rules' small queries, and
    the search's closures and the numba kernels it calls (strategies.search.closure_parts:
    only this process can compile them), so that after both halves the loop compiles only
    itself. Issue 42, empty cache, ``bench.start_time``: without the search 16.5-17.3 s, then
    14.8-15.1 s; with it, three interleaved runs each, 20.3-21.0 s with both greedies' halves
    swapped (Celtic Trader's here with the rules) and the small callees left to the loop,
    18.2-19.8 s, then 16.1-17.5 s; with the closures here and the second process ending as
    soon as its kernels are cached, 15.3-16.6 s."""
    from sim.games.celtic_quest.setup import setup as quest_setup
    from sim.games.celtic_trader.play import loop_halves, side_parts
    from sim.games.celtic_trader.rules import current_player, is_over, scores
    from sim.games.celtic_trader.setup import setup_state
    from strategies.celtic_trader import kind_of, search_action
    from strategies.celtic_trader.greedy import follows_plan
    from strategies.celtic_trader.greedy import greedy_action as trader_greedy
    from strategies.search import closure_parts, search_parts

    def same(kernel):  # Celtic Quest plays the kernels themselves, not Celtic Trader's copies
        return kernel

    here, rules = loop_halves(args, search, same)
    data, n_players, mode, fixed, _, params, *_, streams, a, buf = args
    trader = (trader_greedy, (a, data, 0, params[0], streams[1], buf))
    if search:
        searching = [
            (kind_of, (a, data, 0)),
            (is_over, (a,)),
            (current_player, (a,)),
            (follows_plan, (a, data, 0, buf)),
            *search_parts(a, streams[1], scores, data),
            *closure_parts(search_action, a, data, params[0]),
        ]
        return [*rules, *side_parts(args, same), *searching], [trader, here[0]]
    set_up = [
        (setup_state, (data, n_players, mode, fixed, a)),
        (quest_setup, (data, n_players, fixed, streams[0], a)),
    ]
    return [*set_up, *here, *side_parts(args, same)], [trader, *rules]


def play(setup, seeds) -> ChunkResult:
    """Play one game per seed (uint64) with the setup's bots; fill a ChunkResult."""
    from sim.games.celtic_trader.play import _play_kernel, _play_kernel_plain
    from strategies.search import chunk_loop

    codes, values = setup.bot_arrays()
    kernel = chunk_loop(codes, _play_kernel, _play_kernel_plain)
    fixed = fixed_destinies(setup)
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    res = new_result(seeds.shape[0], setup.players)
    streams = np.zeros((1 + setup.players, 4), np.uint64)
    a = np.zeros(QSTATE_LEN, np.int32)
    buf = np.zeros(BUF_LEN, np.int32)
    for i, j, data in chunk_data(setup, seeds):
        args = (
            data, setup.players, ROLES_RANDOM, fixed, codes, values, seeds[i:j], res.rounds[i:j],
            res.turns[i:j], res.end_reason[i:j], res.score[i:j], res.components[i:j],
            res.role[i:j], res.extras[i:j], res.actions[i:j], streams, a, buf,
        )  # fmt: skip
        prepare(kernel, args, compile_halves, kernel is _play_kernel)
        kernel(*args)
    res.extras[:, :, 1] = res.extras[:, :, 0] if setup.params["tie_break"] == "most_quests" else 0
    return res
