"""The compiled chunk loop of Celtic Trader and its Python wrapper ``play(setup, seeds)``."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

import sim.games.celtic_quest.scoring as quest  # its result columns
from sim.core.gamedata import compiled_for
from sim.core.kernel import counted, leaf
from sim.core.results import ChunkResult
from sim.core.rng import seed_streams
from sim.core.specialize import specialized
from sim.core.split_compile import loop_callees, prepare
from sim.games.celtic_trader.board import role_bonus
from sim.games.celtic_trader.decisions import DECISION_KINDS, decision_kind
from sim.games.celtic_trader.params import O_RULES, QUEST_HOOKS, R_QUEST, compile_data
from sim.games.celtic_trader.rules import (
    advance,
    current_player,
    init_state,
    is_over,
    legal_actions,
)
from sim.games.celtic_trader.state import (
    BUF_LEN,
    P_ROLE,
    P_VP,
    PLAYERS,
    PW,
    REASON,
    ROLES_DRAFT,
    ROLES_FIXED,
    ROLES_RANDOM,
    ROUND,
    STATE_LEN,
    TURNS,
)
from strategies.celtic_quest.hidden import determinize
from strategies.celtic_trader import choose_action, choose_plain, policy
from strategies.celtic_trader.greedy import forget_search
from strategies.search import SEARCH_CODE, chunk_loop


@leaf
def write_results(state, data, g, rounds, turns, end_reason, score, components, role, extras):
    """Row ``g`` of the result arrays from a finished state (Celtic Quest: its own columns)."""
    rounds[g] = state[ROUND]
    turns[g] = state[TURNS]
    end_reason[g] = state[REASON]
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        quest.write_results(state, data, g, score, components, role, extras)
        return
    for seat in range(score.shape[1]):
        pb = PLAYERS + seat * PW
        vp = state[pb + P_VP]
        bonus = role_bonus(state, data, seat)
        components[g, seat, 0] = vp
        components[g, seat, 1] = bonus
        score[g, seat] = vp + bonus
        role[g, seat] = state[pb + P_ROLE]


@counted  # the search, inlined, allocates
def _play_kernel(
    data, n_players, role_mode, fixed_roles, bot_codes, bot_params, seeds,
    rounds, turns, end_reason, score, components, role, extras, actions, streams, a, buf,
):  # fmt: skip
    """Play one game per seed; ``streams``, ``a`` and ``buf`` are its work arrays (made
    by :func:`play`, so that the loop allocates nothing and counts no references)."""
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, role_mode, fixed_roles, streams[0], a)
        forget_search(buf)  # the greedy's kept search is of this game's map only
        while not is_over(a):
            seat = current_player(a)
            act = choose_action(
                a, data, seat, bot_codes[seat], bot_params[seat], streams[1 + seat], buf
            )
            actions[g, seat, decision_kind(a, act)] += 1
            advance(a, act, data, streams[0])  # step in place: the loop keeps no earlier state
        write_results(a, data, g, rounds, turns, end_reason, score, components, role, extras)


@leaf
def _play_kernel_plain(
    data, n_players, role_mode, fixed_roles, bot_codes, bot_params, seeds,
    rounds, turns, end_reason, score, components, role, extras, actions, streams, a, buf,
):  # fmt: skip
    """:func:`_play_kernel` for random and greedy seats (never compiles the search)."""
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, role_mode, fixed_roles, streams[0], a)
        forget_search(buf)  # the greedy's kept search is of this game's map only
        while not is_over(a):
            seat = current_player(a)
            act = choose_plain(
                a, data, seat, bot_codes[seat], bot_params[seat], streams[1 + seat], buf
            )
            actions[g, seat, decision_kind(a, act)] += 1
            advance(a, act, data, streams[0])  # step in place: the loop keeps no earlier state
        write_results(a, data, g, rounds, turns, end_reason, score, components, role, extras)


@lru_cache(maxsize=64)
def _data_for(items: tuple):
    return compile_data(dict(items))


def data_for(params) -> tuple:
    """Compiled data of a resolved parameter mapping (cached per distinct variant)."""
    return _data_for(tuple(sorted(params.items())))


def setup_data(setup) -> np.ndarray:
    """Compiled data of a setup: its parameters and its data-file overrides (once per variant)."""
    return compiled_for(setup, lambda s: compile_data(dict(s.params), s.raw_data()))


def chunk_data(setup, seeds):
    """``(first, stop, data)``: runs of a chunk's games that share compiled data. On the fixed
    map the whole chunk shares the setup's data; with ``map_mode = "generated"`` each game has
    its own map (sim/games/celtic_trader/mapmode.py)."""
    if setup.params.get("map_mode", "fixed") != "generated":
        yield 0, len(seeds), setup_data(setup)
        return
    from sim.games.celtic_trader.mapmode import generated_data

    for g in range(len(seeds)):
        yield g, g + 1, generated_data(setup, int(seeds[g]))


def game_data(setup, seed: int) -> np.ndarray:
    """Compiled data of the game of ``setup`` with seed ``seed`` (its own map if generated)."""
    return next(chunk_data(setup, np.array([seed % 2**64], np.uint64)))[2]


def role_mode_of(setup) -> tuple[int, np.ndarray]:
    """(role_mode, fixed_roles) kernel arguments of a setup."""
    if isinstance(setup.roles, str):
        mode = ROLES_DRAFT if setup.roles == "draft" else ROLES_RANDOM
        return mode, np.zeros(setup.players, np.int64)
    return ROLES_FIXED, setup.role_ids()


def trader_kernel(kernel):
    """``kernel`` as Celtic Trader plays it: compiled without Celtic Quest's hooks."""
    return specialized(kernel, {"QUEST_HOOKS": False}, "trader")


def played_loops() -> tuple:
    """``(every_bot_loop, plain_loop)`` as Celtic Trader plays them (its copies)."""
    return trader_kernel(_play_kernel), trader_kernel(_play_kernel_plain)


def loop_halves(args, search, copy) -> tuple:
    """The loops' kernels (each as ``copy`` gives it) in two halves for
    sim/core/split_compile.py: the policy here, the rules in a second process (Celtic Trader
    about 6 and 6 s cold, Celtic Quest 22 and 14)."""
    data, n_players, mode, fixed, _, params, *_, streams, a, buf = args
    here = [
        (copy(policy), (a, data, 0, params[0], streams[1], buf)),
        (copy(legal_actions), (a, data, buf)),
    ]
    rules = [
        (copy(init_state), (data, n_players, mode, fixed, streams[0], a)),
        (copy(advance), (a, 0, data, streams[0])),
    ]
    if search:
        rules.append((copy(determinize), (a, data, 0, streams[0], a)))
    return here, rules


def side_parts(args, copy) -> list:
    """The loop's small callees (sim.core.split_compile.loop_callees, each as ``copy`` gives
    it), and the greedy's reset of its kept search."""
    callees = loop_callees(args, copy(write_results), copy(decision_kind), False, seeds_at=6)
    return [*callees, (copy(forget_search), (args[-1],))]


def compile_halves(args, search) -> tuple:
    """Celtic Trader's halves: its copies of the kernels (:func:`trader_kernel`), the small
    callees here (this half ends first)."""
    here, rules = loop_halves(args, search, trader_kernel)
    return [*here, *side_parts(args, trader_kernel)], rules


def play(setup, seeds) -> ChunkResult:
    """Play one game per seed (uint64) with the setup's bots; fill a ChunkResult."""
    codes, values = setup.bot_arrays()
    kernel = trader_kernel(chunk_loop(codes, _play_kernel, _play_kernel_plain))
    mode, fixed = role_mode_of(setup)
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    res = ChunkResult.empty(seeds.shape[0], setup.players, 2, n_kinds=len(DECISION_KINDS))
    res.role[:] = -1
    streams = np.zeros((1 + setup.players, 4), np.uint64)
    a = np.zeros(STATE_LEN, np.int32)
    buf = np.zeros(BUF_LEN, np.int32)
    for i, j, data in chunk_data(setup, seeds):
        args = (
            data, setup.players, mode, fixed, codes, values, seeds[i:j], res.rounds[i:j],
            res.turns[i:j], res.end_reason[i:j], res.score[i:j], res.components[i:j],
            res.role[i:j], res.extras[i:j], res.actions[i:j], streams, a, buf,
        )  # fmt: skip
        prepare(kernel, args, compile_halves, SEARCH_CODE in codes)
        kernel(*args)
    return res
