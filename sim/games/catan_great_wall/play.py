"""The Great Wall chunk loop: one compiled function plays every game of a chunk and fills the
result arrays; ``play(setup, seeds)`` is its Python wrapper (the GameDecl's ``play``).

Per-seat results: ``score`` = net victory points with the components ``buildings``,
``vp_cards``, ``longest_road``, ``knight`` (Mightiest Knight) and ``wall`` (minus the penalty
tokens' VP); extras ``knights``, ``road_length``, ``turns_taken``, ``fewer_turns``,
``wall_level`` (the seat's wall at the end) and ``penalties`` (tokens taken). A game ended by
the collective defeat (``wall_breached``) has every win 0: everybody lost; the ranks still
order the best losers by VP (§5).
"""

import numpy as np

from sim.core.kernel import counted, leaf, work_arrays
from sim.core.results import ChunkResult
from sim.core.rng import seed_streams
from sim.core.split_compile import loop_callees, policy_and_rules, prepare
from sim.games.catan.params import G_LA_VP, G_LR_VP
from sim.games.catan.play import win_shares
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
    REASON,
    ROAD_LEN,
    ROUND,
    TURNS,
    TURNS_TAKEN,
    WINNER,
)
from sim.games.catan_great_wall.decisions import DECISION_KINDS, decision_kind
from sim.games.catan_great_wall.params import compile_data
from sim.games.catan_great_wall.rules import advance, current_player, init_state, is_over, wall_of
from sim.games.catan_great_wall.state import (
    EXTRA_VP,
    GW_MAX_ACTIONS,
    GW_STATE_LEN,
    LEVEL,
    PENALTY,
    R_WALL_BREACHED,
)
from strategies.catan_great_wall import (
    choose_action,
    choose_plain,
    determinize,
    greedy_action,
)
from strategies.search import chunk_loop

SCORE_COMPONENTS = ("buildings", "vp_cards", "longest_road", "knight", "wall")
PLAYER_EXTRAS = (
    "knights",
    "road_length",
    "turns_taken",
    "fewer_turns",
    "wall_level",
    "penalties",
)
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
        components[g, s, 4] = state[EXTRA_VP + s]
        extras[g, s, 0] = state[KNIGHTS + s]
        extras[g, s, 1] = state[ROAD_LEN + s]
        extras[g, s, 2] = state[TURNS_TAKEN + s]
        extras[g, s, 3] = -state[TURNS_TAKEN + s]
        w = wall_of(state, data, s)
        extras[g, s, 4] = state[LEVEL + w] if w >= 0 else 0
        extras[g, s, 5] = state[PENALTY + s]


@counted  # the search, inlined, allocates
def _play_kernel(
    data, n_players, codes, params, seeds, rounds, turns, end_reason, winner, score,
    components, extras, actions, streams, a, buf,
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
        write_results(a, data, g, rounds, turns, end_reason, winner, score, components, extras)


@leaf
def _play_kernel_plain(
    data, n_players, codes, params, seeds, rounds, turns, end_reason, winner, score,
    components, extras, actions, streams, a, buf,
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
        write_results(a, data, g, rounds, turns, end_reason, winner, score, components, extras)


def finish(result: ChunkResult, winner: np.ndarray, params) -> ChunkResult:
    """The win column: the base game's (the VP-target winner alone; at the safety cap by VP,
    then fewer turns unless the lever shares it), and 0 for everybody after the defeat."""
    fewer = PLAYER_EXTRAS.index("fewer_turns")
    if params["cap_tiebreak"] == "shared":
        result.extras[:, :, fewer] = 0
    result.win = win_shares(result.score, result.extras[:, :, : fewer + 1], winner)
    result.win[result.end_reason == R_WALL_BREACHED] = 0.0
    return result


def compile_halves(args, search):
    """The loop's kernels in two halves (sim/core/split_compile.py): the greedy policy here,
    the rules in a second process (about 9 and 8 s cold), and the loop's
    small callees there (:func:`loop_callees`)."""
    here, rules = policy_and_rules(args, search, [greedy_action], init_state, advance, determinize)
    side = loop_callees(args, write_results, decision_kind, with_data=True)
    return here, [*rules, *side]


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
        result.actions, *work_arrays(setup.players, GW_STATE_LEN, GW_MAX_ACTIONS),
    )  # fmt: skip
    prepare(kernel, args, compile_halves, kernel is _play_kernel)
    kernel(*args)
    return finish(result, winner, setup.params)
