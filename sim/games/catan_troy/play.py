"""Catan: Troy chunk loop: one compiled function plays every game of a chunk and fills the result
arrays; ``play(setup, seeds)`` is its Python wrapper (the GameDecl's ``play``).

Per-seat results: ``score`` = VP with the components ``buildings``, ``longest_road``, ``ships``
(flag ships) and ``track`` (the marker of the seat's city); role and side = the decision card
(troy or mycenae). Extras: ``commerce_tokens``, ``ships_built``, ``donations`` and ``donated``
(donations made and the cards they gave), ``road_length``, ``turns_taken``, ``fewer_turns``
and ``tiebreak``, the tie-break of the game's end: commerce tokens after an event-track end
(§5.2), minus the turns taken after the safety cap, 0 otherwise. A VP-target win is the
winner's alone (§5.1).
"""

import numpy as np

from sim.core.kernel import counted, leaf, work_arrays
from sim.core.results import ChunkResult, rank_and_win
from sim.core.rng import seed_streams
from sim.core.split_compile import loop_callees, policy_and_rules, prepare
from sim.games.catan.params import G_LR_VP
from sim.games.catan.rules_shared import cities_on_board, settlements_on_board
from sim.games.catan.state import LR_HOLDER, REASON, ROAD_LEN, ROUND, TURNS, TURNS_TAKEN, WINNER
from sim.games.catan_troy.decisions import DECISION_KINDS, decision_kind
from sim.games.catan_troy.params import K_TOKEN_TIEBREAK, T_RULES, compile_data
from sim.games.catan_troy.rules import (
    advance,
    current_player,
    init_state,
    is_over,
    scores,
    ship_vp,
    track_vp,
    victory_points,
)
from sim.games.catan_troy.state import (
    DONATED,
    GIFTS,
    MAX_ACTIONS,
    R_EVENT_TRACK,
    R_TURN_CAP,
    SHIPS_BUILT,
    SIDE,
    STATE_LEN,
    TOKENS,
)
from strategies.catan_troy import (
    choose_action,
    choose_plain,
    determinize,
    greedy_action,
)
from strategies.search import chunk_loop, rules_half_parts

SCORE_COMPONENTS = ("buildings", "longest_road", "ships", "track")
PLAYER_EXTRAS = (
    "commerce_tokens",
    "ships_built",
    "donations",
    "donated",
    "road_length",
    "turns_taken",
    "fewer_turns",
    "tiebreak",
)
TIEBREAK = ("tiebreak",)


@leaf
def write_results(
    state, data, g, rounds, turns, end_reason, winner, score, components, extras, role
):  # fmt: skip
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
        components[g, s, 1] = data[G_LR_VP] if state[LR_HOLDER] == s else 0
        components[g, s, 2] = ship_vp(state, data, s)
        components[g, s, 3] = track_vp(state, data, s)
        extras[g, s, 0] = state[TOKENS + s]
        extras[g, s, 1] = state[SHIPS_BUILT + s]
        extras[g, s, 2] = state[GIFTS + s]
        extras[g, s, 3] = state[DONATED + s]
        extras[g, s, 4] = state[ROAD_LEN + s]
        extras[g, s, 5] = state[TURNS_TAKEN + s]
        extras[g, s, 6] = -state[TURNS_TAKEN + s]
        tb = 0
        if state[REASON] == R_EVENT_TRACK and data[T_RULES + K_TOKEN_TIEBREAK]:
            tb = state[TOKENS + s]
        elif state[REASON] == R_TURN_CAP:
            tb = -state[TURNS_TAKEN + s]
        extras[g, s, 7] = tb
        role[g, s] = state[SIDE + s]


@counted  # the search, inlined, allocates
def _play_kernel(
    data, n_players, codes, params, seeds, rounds, turns, end_reason, winner, score, components,
    extras, role, actions, streams, a, buf,
):  # fmt: skip
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
        write_results(
            a, data, g, rounds, turns, end_reason, winner, score, components, extras, role
        )


@leaf
def _play_kernel_plain(
    data, n_players, codes, params, seeds, rounds, turns, end_reason, winner, score, components,
    extras, role, actions, streams, a, buf,
):  # fmt: skip
    """:func:`_play_kernel` for random and greedy seats (never compiles the search)."""
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            act = choose_plain(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            actions[g, seat, decision_kind(a, data, act)] += 1
            advance(a, act, data, streams[0])  # step in place: the loop keeps no earlier state
        write_results(
            a, data, g, rounds, turns, end_reason, winner, score, components, extras, role
        )


def compile_halves(args, search):
    """The loop's kernels in two halves (sim/core/split_compile.py): the greedy policy here,
    the rules in a second process (about 8 and 7 s cold), and the loop's
    small callees here (:func:`loop_callees`)."""
    here, rules = policy_and_rules(args, search, [greedy_action], init_state, advance, determinize)
    side = loop_callees(args, write_results, decision_kind, with_data=True)
    if search:  # the search's small kernels too: the rules' half ends first (issue 42)
        rules = [*rules, *rules_half_parts(args, scores, is_over, own_evaluate=True)]
    return [*here, *side], rules


def finish(result: ChunkResult, winner: np.ndarray, params) -> ChunkResult:
    """Side columns from the decision cards, the ``cap_tiebreak`` lever, and the win column:
    the VP-target winner alone, else by VP then the end's tie-break (ties share the win)."""
    result.side[:] = result.role
    if params["cap_tiebreak"] == "shared":
        capped = result.end_reason == R_TURN_CAP
        result.extras[capped, :, PLAYER_EXTRAS.index("tiebreak")] = 0
    keys = np.concatenate(
        [
            result.score[:, :, None],
            result.extras[:, :, PLAYER_EXTRAS.index("tiebreak")][:, :, None],
        ],
        axis=2,
    ).astype(np.int64)
    _, win = rank_and_win(keys)
    for g in np.flatnonzero(winner >= 0):
        win[g] = 0.0
        win[g, winner[g]] = 1.0
    result.win = win
    return result


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
    role = np.zeros((len(seeds), setup.players), np.int16)
    args = (
        data, setup.players, codes, params, seeds, result.rounds, result.turns,
        result.end_reason, winner, result.score, result.components, result.extras, role,
        result.actions, *work_arrays(setup.players, STATE_LEN, MAX_ACTIONS),
    )  # fmt: skip
    prepare(kernel, args, compile_halves, kernel is _play_kernel)
    kernel(*args)
    result.role = role
    return finish(result, winner, setup.params)
