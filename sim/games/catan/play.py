"""Catan chunk loop: one compiled function plays every game of a chunk and fills the result
arrays; ``play(setup, seeds)`` is its Python wrapper (the GameDecl's ``play``).

Per-seat results: ``score`` = victory points (hidden VP cards included) with the components
``buildings``, ``vp_cards``, ``longest_road`` and ``largest_army``; extras ``knights``,
``road_length``, ``turns_taken`` and ``fewer_turns`` (minus the turns taken: the tie-break of
§6 for games stopped by the safety cap). Only the active player can win (§6), so the win column
of a game that reached the VP target is the winner's alone, whatever the other scores.
"""

import numpy as np

from sim.core.kernel import counted, leaf, work_arrays
from sim.core.results import ChunkResult, rank_and_win
from sim.core.rng import seed_streams
from sim.core.split_compile import loop_callees, policy_and_rules, prepare
from sim.games.catan.decisions import DECISION_KINDS, decision_kind
from sim.games.catan.params import G_LA_VP, G_LR_VP, compile_data
from sim.games.catan.rules import advance, current_player, init_state, is_over, scores
from sim.games.catan.rules_shared import (
    cities_on_board,
    settlements_on_board,
    victory_points,
    vp_cards,
)
from sim.games.catan.state import (
    KNIGHTS,
    LA_HOLDER,
    LR_HOLDER,
    MAX_ACTIONS,
    REASON,
    ROAD_LEN,
    ROUND,
    STATE_LEN,
    TURNS,
    TURNS_TAKEN,
    WINNER,
)
from strategies.catan import (
    choose_action,
    choose_plain,
    determinize,
    greedy_action,
    random_action,
)
from strategies.search import chunk_loop, rules_half_parts

SCORE_COMPONENTS = ("buildings", "vp_cards", "longest_road", "largest_army")
PLAYER_EXTRAS = ("knights", "road_length", "turns_taken", "fewer_turns")
TIEBREAK = ("fewer_turns",)


@leaf
def write_results(state, data, g, rounds, turns, end_reason, winner, score, components, extras):
    """Copy one finished game's outcome into row ``g`` of the result arrays."""
    rounds[g] = state[ROUND]
    turns[g] = state[TURNS]
    end_reason[g] = state[REASON]
    winner[g] = state[WINNER]
    for s in range(score.shape[1]):
        score[g, s] = victory_points(state, data, s)
        components[g, s, 0] = settlements_on_board(state, data, s) + 2 * cities_on_board(
            state, data, s
        )
        components[g, s, 1] = vp_cards(state, s)
        components[g, s, 2] = data[G_LR_VP] if state[LR_HOLDER] == s else 0
        components[g, s, 3] = data[G_LA_VP] if state[LA_HOLDER] == s else 0
        extras[g, s, 0] = state[KNIGHTS + s]
        extras[g, s, 1] = state[ROAD_LEN + s]
        extras[g, s, 2] = state[TURNS_TAKEN + s]
        extras[g, s, 3] = -state[TURNS_TAKEN + s]


@counted  # the search, inlined, allocates
def _play_kernel(
    data,
    n_players,
    codes,
    params,
    seeds,
    rounds,
    turns,
    end_reason,
    winner,
    score,
    components,
    extras,
    actions,
    streams,
    a,
    buf,
):
    """Play one game per seed; ``streams``, ``a`` and ``buf`` are its work arrays (made
    by :func:`play`, so that the loop allocates nothing and counts no references)."""
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            act = choose_action(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            actions[g, seat, decision_kind(a, data, act)] += 1
            advance(a, act, data, streams[0])  # step in place: the loop keeps no earlier state
        write_results(a, data, g, rounds, turns, end_reason, winner, score, components, extras)


@leaf
def _play_kernel_plain(
    data,
    n_players,
    codes,
    params,
    seeds,
    rounds,
    turns,
    end_reason,
    winner,
    score,
    components,
    extras,
    actions,
    streams,
    a,
    buf,
):
    """:func:`_play_kernel` for random and greedy seats (never compiles the search)."""
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            act = choose_plain(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            actions[g, seat, decision_kind(a, data, act)] += 1
            advance(a, act, data, streams[0])  # step in place: the loop keeps no earlier state
        write_results(a, data, g, rounds, turns, end_reason, winner, score, components, extras)


def finish(result: ChunkResult, winner: np.ndarray, params) -> ChunkResult:
    """Apply the ``cap_tiebreak`` lever to the tie-break column and set the win column."""
    if params["cap_tiebreak"] == "shared":
        result.extras[:, :, PLAYER_EXTRAS.index("fewer_turns")] = 0
    result.win = win_shares(result.score, result.extras, winner)
    return result


def win_shares(score: np.ndarray, extras: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """The win column: the VP-target winner alone, else (safety cap) by VP then the
    ``fewer_turns`` tie-break (all 0 when the lever shares the win)."""
    keys = np.concatenate(
        [score[:, :, None], extras[:, :, PLAYER_EXTRAS.index("fewer_turns")][:, :, None]], axis=2
    ).astype(np.int64)
    _, win = rank_and_win(keys)
    for g in np.flatnonzero(winner >= 0):
        win[g] = 0.0
        win[g, winner[g]] = 1.0
    return win


def compile_halves(args, search):
    """The loop's kernels in two halves (sim/core/split_compile.py): the greedy and random
    policies here, the rules in a second process (about 6 and 5 s cold), and the loop's
    small callees here (:func:`loop_callees`)."""
    here, rules = policy_and_rules(
        args, search, [greedy_action, random_action], init_state, advance, determinize
    )
    side = loop_callees(args, write_results, decision_kind, with_data=True)
    if search:  # the search's small kernels too: the rules' half ends first (issue 42)
        rules = [*rules, *rules_half_parts(args, scores, is_over)]
    return [*here, *side], rules


def play(setup, seeds) -> ChunkResult:
    """Play one game per seed of an already validated Setup."""
    data = compile_data(dict(setup.params), setup.players)
    codes, params = setup.bot_arrays()
    kernel = chunk_loop(codes, _play_kernel, _play_kernel_plain)
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    result = ChunkResult.empty(
        len(seeds), setup.players, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS), len(DECISION_KINDS)
    )
    winner = np.full(len(seeds), -1, np.int64)
    args = (
        data, setup.players, codes, params, seeds, result.rounds, result.turns,
        result.end_reason, winner, result.score, result.components, result.extras,
        result.actions, *work_arrays(setup.players, STATE_LEN, MAX_ACTIONS),
    )  # fmt: skip
    prepare(kernel, args, compile_halves, kernel is _play_kernel)
    kernel(*args)
    return finish(result, winner, setup.params)
