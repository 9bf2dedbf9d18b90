"""Celtica chunk loop: one compiled function plays every game of a chunk and fills the result
arrays; ``play(setup, seeds)`` is its Python wrapper (the GameDecl's ``play``).

Per-seat results: ``score`` = complete amulets (the only score component), and the extras
``incomplete_1..incomplete_10`` (incomplete amulet sizes, largest first, 0 padded) that
``sim.core.results`` uses as tie-breaks, then ``fragments`` and ``xp_unused`` (information only).
"""

import numpy as np

from sim.core.kernel import counted, leaf
from sim.core.results import ChunkResult
from sim.core.rng import seed_streams
from sim.core.split_compile import loop_callees, policy_and_rules, prepare
from sim.games.celtica.decisions import DECISION_KINDS, decision_kind
from sim.games.celtica.params import G_TYPES, compile_data
from sim.games.celtica.rules import (
    advance,
    amulet_sizes,
    current_player,
    fragment_count,
    init_state,
    is_over,
    xp_count,
)
from sim.games.celtica.state import (
    MAX_ACTIONS,
    MAX_LAYERS,
    REASON,
    ROUND,
    STATE_LEN,
    TURNS,
)
from strategies.celtica import (
    choose_action,
    choose_plain,
    determinize,
    greedy_action,
    random_action,
)
from strategies.search import chunk_loop

SCORE_COMPONENTS = ("amulets",)
INCOMPLETE = tuple(f"incomplete_{j}" for j in range(1, MAX_LAYERS + 1))
PLAYER_EXTRAS = (*INCOMPLETE, "fragments", "xp_unused")
X_FRAGMENTS = MAX_LAYERS
X_XP = MAX_LAYERS + 1


@counted
def write_results(state, data, g, rounds, turns, end_reason, score, components, extras):
    """Copy one finished game's outcome into row ``g`` of the result arrays."""
    rounds[g] = state[ROUND]
    turns[g] = state[TURNS]
    end_reason[g] = state[REASON]
    types = data.rules[G_TYPES]
    sizes = np.zeros(MAX_LAYERS, np.int64)
    for s in range(score.shape[1]):
        top = amulet_sizes(state, data, s, sizes)
        complete = 0
        while complete < top and sizes[complete] == types:
            complete += 1
        score[g, s] = complete
        components[g, s, 0] = complete
        for j in range(MAX_LAYERS):
            extras[g, s, j] = sizes[complete + j] if complete + j < top else 0
        extras[g, s, X_FRAGMENTS] = fragment_count(state, s)
        extras[g, s, X_XP] = xp_count(state, s)


@counted  # the search, inlined, allocates
def _play_kernel(
    data, n_players, codes, params, seeds, rounds, turns, end_reason, score, components, extras,
    actions, streams, a, buf,
):  # fmt: skip
    """Play one game per seed; ``streams``, ``a`` and ``buf`` are its work arrays (made
    by :func:`play`, so that the loop allocates nothing and counts no references)."""
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            act = choose_action(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            actions[g, seat, decision_kind(a, act)] += 1
            advance(a, act, data, streams[0])  # step in place: the loop keeps no earlier state
        write_results(a, data, g, rounds, turns, end_reason, score, components, extras)


@leaf
def _play_kernel_plain(
    data, n_players, codes, params, seeds, rounds, turns, end_reason, score, components, extras,
    actions, streams, a, buf,
):  # fmt: skip
    """:func:`_play_kernel` for random and greedy seats (never compiles the search)."""
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            act = choose_plain(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            actions[g, seat, decision_kind(a, act)] += 1
            advance(a, act, data, streams[0])  # step in place: the loop keeps no earlier state
        write_results(a, data, g, rounds, turns, end_reason, score, components, extras)


def compile_halves(args, search):
    """The loop's kernels in two halves (sim/core/split_compile.py): the greedy and random
    policies here, the rules in a second process (about 4 and 4 s cold), and the loop's
    small callees here (:func:`loop_callees`)."""
    here, rules = policy_and_rules(
        args, search, [greedy_action, random_action], init_state, advance, determinize
    )
    side = loop_callees(args, write_results, decision_kind, with_data=False)
    return [*here, *side], rules


def play(setup, seeds) -> ChunkResult:
    """Play one game per seed of an already validated Setup."""
    data = compile_data(dict(setup.params))
    codes, params = setup.bot_arrays()
    kernel = chunk_loop(codes, _play_kernel, _play_kernel_plain)
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    result = ChunkResult.empty(
        len(seeds), setup.players, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS), len(DECISION_KINDS)
    )
    args = (
        data, setup.players, codes, params, seeds, result.rounds, result.turns,
        result.end_reason, result.score, result.components, result.extras, result.actions,
        np.zeros((1 + setup.players, 4), np.uint64), np.zeros(STATE_LEN, np.int32),
        np.zeros(MAX_ACTIONS, np.int32),
    )  # fmt: skip
    prepare(kernel, args, compile_halves, kernel is _play_kernel)
    kernel(*args)
    return result
