"""Celtae chunk loop: one compiled function plays every game of a chunk and fills the result
arrays; ``play(setup, seeds)`` is its Python wrapper (the GameDecl's ``play``).

Per-seat results: ``score`` = the sum of the score lines A..K (``SCORE_COMPONENTS``), the leader
(role) and its final side, and the extras: the rulebook's tie-breaks ``tb_discs_tribe`` and
``tb_tiles`` (then ``tb_random`` under ``final_tiebreak = "random"``), and for information
``short_refills`` (A-19: refills that left fewer than 3 active workers), ``discs_placed``,
``tribe``, ``flipped`` and ``turn_order`` (0 = the first player, drawn at random; step 19).
Solo: ``win`` = 1 when the score reaches ``solo_target``.
"""

import numpy as np

from sim.core.kernel import counted, leaf
from sim.core.results import ChunkResult
from sim.core.rng import seed_streams
from sim.core.split_compile import loop_callees, prepare
from sim.games.celtae.decisions import DECISION_KINDS, decision_kind
from sim.games.celtae.params import G_SOLO_TARGET, setup_data
from sim.games.celtae.rules import components, current_player, init_state, is_over, legal_actions
from sim.games.celtae.rules_scoring import N_COMPONENTS, discs_placed, scores, tiebreaks
from sim.games.celtae.rules_turn import advance
from sim.games.celtae.scratch import stack_int64
from sim.games.celtae.state import (
    FIRST,
    MAX_ACTIONS,
    P_LEADER,
    P_SHORT,
    P_SIDE,
    P_TIEBREAK,
    P_TRIBE_N,
    PLAYERS,
    PW,
    REASON,
    ROUND,
    STATE_LEN,
    TURNS,
)
from strategies.celtae import (
    choose_listed,
    choose_listed_plain,
    determinize,
    greedy_action,
    greedy_listed,
    kind_of,
    random_action,
)
from strategies.search import chunk_loop, search_parts

SCORE_COMPONENTS = (
    "citadels",  # A
    "bonus_tiles",  # B
    "druid_tiles",  # C
    "armies",  # D
    "garrison",  # E
    "tribe",  # F
    "board",  # G
    "all_cubes",  # H
    "leftover",  # I
    "progress",  # J
    "leader",  # K
)
TIEBREAK = ("tb_discs_tribe", "tb_tiles", "tb_random")
PLAYER_EXTRAS = (*TIEBREAK, "short_refills", "discs_placed", "tribe", "flipped", "turn_order")
ROLES_RANDOM, ROLES_DRAFT, ROLES_FIXED = 0, 1, 2


@leaf
def write_results(s, data, g, rounds, turns, end_reason, score, comps, role, side, extras, win):
    """Copy one finished game's outcome into row ``g`` of the result arrays."""
    rounds[g] = s[ROUND]
    turns[g] = s[TURNS]
    end_reason[g] = s[REASON]
    line = stack_int64(N_COMPONENTS)
    for seat in range(score.shape[1]):
        b = PLAYERS + seat * PW
        total = components(s, data, seat, line)
        score[g, seat] = total
        for k in range(N_COMPONENTS):
            comps[g, seat, k] = line[k]
        role[g, seat] = s[b + P_LEADER]
        side[g, seat] = s[b + P_SIDE]
        tb1, tb2 = tiebreaks(s, data, seat)
        extras[g, seat, 0] = tb1
        extras[g, seat, 1] = tb2
        extras[g, seat, 2] = s[b + P_TIEBREAK]
        extras[g, seat, 3] = s[b + P_SHORT]
        extras[g, seat, 4] = discs_placed(s, data, seat)
        extras[g, seat, 5] = s[b + P_TRIBE_N]
        extras[g, seat, 6] = s[b + P_SIDE]
        extras[g, seat, 7] = (seat - s[FIRST]) % score.shape[1]
        win[g, seat] = 1.0 if total >= data.rules[G_SOLO_TARGET] else 0.0


@counted  # the search, inlined, allocates
def _play_kernel(
    data, n_players, role_mode, fixed_roles, codes, params, seeds,
    rounds, turns, end_reason, score, comps, role, side, extras, win, actions,
    streams, a, buf,
):  # fmt: skip
    """Play one game per seed; ``streams``, ``a`` (the state, advanced in place) and ``buf``
    are its work arrays (made by :func:`play`, so that the loop allocates nothing and counts no
    references)."""
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, role_mode, fixed_roles, streams[0], a)
        n = 0 if is_over(a) else legal_actions(a, data, buf)
        while not is_over(a):
            seat = current_player(a)
            rng = streams[1 + seat]
            act = choose_listed(a, data, seat, codes[seat], params[seat], rng, buf, n)
            actions[g, seat, decision_kind(a, act)] += 1
            n = advance(a, act, data, streams[0], buf)
        write_results(a, data, g, rounds, turns, end_reason, score, comps, role, side, extras, win)


@leaf
def _play_kernel_plain(
    data, n_players, role_mode, fixed_roles, codes, params, seeds,
    rounds, turns, end_reason, score, comps, role, side, extras, win, actions,
    streams, a, buf,
):  # fmt: skip
    """:func:`_play_kernel` for random and greedy seats (never compiles the search)."""
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, role_mode, fixed_roles, streams[0], a)
        n = 0 if is_over(a) else legal_actions(a, data, buf)
        while not is_over(a):
            seat = current_player(a)
            rng = streams[1 + seat]
            act = choose_listed_plain(a, data, seat, codes[seat], params[seat], rng, buf, n)
            actions[g, seat, decision_kind(a, act)] += 1
            n = advance(a, act, data, streams[0], buf)
        write_results(a, data, g, rounds, turns, end_reason, score, comps, role, side, extras, win)


def role_mode_of(setup) -> tuple[int, np.ndarray]:
    """(role_mode, fixed_roles) kernel arguments of a setup."""
    if isinstance(setup.roles, str):
        mode = ROLES_DRAFT if setup.roles == "draft" else ROLES_RANDOM
        return mode, np.zeros(max(setup.players, 1), np.int64)
    return ROLES_FIXED, setup.role_ids()


def compile_halves(args, search):
    """The loop's kernels in two halves (sim/core/split_compile.py): the policies and the
    loop's small callees (:func:`loop_callees`: the results, decision kinds and seeding) here,
    the rules and the search's re-deal in a second process (about 8 and 10 s
    cold: ``init_state`` plays the setup, and with it most of the rules). The re-deal moved
    there once the second process finished first (issue 42, lazy emission: the search's cold
    start 17.3 s against 18.8-19.2 s), and so did the search's small kernels (the rules'
    queries, its position hash, rollout values and race statistics: 0.9 s that the loop's
    own compile met on one core after both halves) and, with the search, the loop's small
    callees."""
    data, n_players, mode, fixed, _, params, *_, streams, a, buf = args
    seat_args = (a, data, 0, params[0], streams[1], buf)
    policies = [(greedy_listed, (*seat_args, 0)), (random_action, seat_args)]
    if search:
        policies.insert(0, (greedy_action, seat_args))
    side = loop_callees(args, write_results, decision_kind, False, seeds_at=6)
    here = policies if search else [*policies, *side]
    rules = [
        (init_state, (data, n_players, mode, fixed, streams[0], a)),
        (advance, (a, 0, data, streams[0], buf)),
    ]
    if search:  # and the search's small kernels: this half ends first (issue 42)
        queries = [(is_over, (a,)), (current_player, (a,)), (kind_of, (a, data, 0))]
        small = [*queries, *search_parts(a, streams[1], scores, data)]
        rules += [(determinize, (a, data, 0, streams[0], a)), *small, *side]
    return here, rules


def play(setup, seeds) -> ChunkResult:
    """Play one game per seed of an already validated Setup."""
    data = setup_data(setup)
    codes, params = setup.bot_arrays()
    kernel = chunk_loop(codes, _play_kernel, _play_kernel_plain)
    mode, fixed = role_mode_of(setup)
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    n = len(seeds)
    res = ChunkResult.empty(
        n, setup.players, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS), len(DECISION_KINDS)
    )
    win = np.zeros((n, setup.players), np.float64)
    args = (
        data, setup.players, mode, fixed, codes, params, seeds,
        res.rounds, res.turns, res.end_reason, res.score, res.components, res.role, res.side,
        res.extras, win, res.actions,
        np.zeros((1 + setup.players, 4), np.uint64), np.zeros(STATE_LEN, np.int32),
        np.zeros(MAX_ACTIONS, np.int32),
    )  # fmt: skip
    prepare(kernel, args, compile_halves, kernel is _play_kernel)
    kernel(*args)
    if setup.players == 1:
        res.win = win
    return res
