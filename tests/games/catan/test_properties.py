"""Invariants over many whole random games, checked after EVERY step.

The compiled loop of ``menhir check`` (sim/games/catan/invariants.py) checks, per step:
``step`` leaves its input untouched; every resource card is in a hand or the bank (and the
hand-size counters are right); nothing is negative; the pieces on the board match the supply
counters and stay within the limits; the distance rule holds; every road touches its owner's
network; the development cards are all somewhere; the Largest Army and Longest Road holders are
consistent with the Knights and road lengths; the state's VP equal a recount from the board;
the legal set is never empty. Per game: it ends by a rule within a step
bound, and a VP-target end has the active player at the target.

A plain-Python loop replays other games step by step and compares every seat's road length,
after every road and settlement, with an independent brute-force recount (``brute_longest``).
"""

from collections import defaultdict

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.core.check import C_CAPPED, NO_CORRUPTION, check_games, invariant_names
from sim.core.kernel import work_arrays
from sim.core.registry import make_setup
from sim.core.results import ChunkResult
from sim.core.rng import derive_game_seeds, seed_streams
from sim.games.catan import state as S
from sim.games.catan.decisions import DECISION_KINDS
from sim.games.catan.invariants import (
    INVARIANTS,
    board_changes,
    board_recount,
    checked_kernel,
    state_check,
)
from sim.games.catan.play import PLAYER_EXTRAS, SCORE_COMPONENTS, _play_kernel
from sim.games.catan.rules import current_player, init_state, is_over, step
from sim.games.catan.rules_longest import road_length
from strategies.catan import choose_action
from tests.games.catan.helpers import board, data_for

MAX_STEPS = 50_000
ERRORS = invariant_names("catan")  # "ok", the generic invariants, then Catan's own


def play_checked(data, n_players, codes, params, seeds, errors, steps, reasons, rounds):
    """Play one game per seed with every invariant checked after every step (the compiled loop
    of ``menhir check``); fill the per-game arrays. A game that ends at the safety cap is not an
    error here (some levers make that the expected end): ``reasons`` says how each game ended.
    """
    counts = np.zeros((len(ERRORS), 2), np.int64)
    checked_kernel(
        data, n_players, codes, params, seeds, MAX_STEPS, NO_CORRUPTION, errors, steps, counts
    )
    n = len(seeds)
    result = ChunkResult.empty(
        n, n_players, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS), len(DECISION_KINDS)
    )
    _play_kernel(
        data, n_players, codes, params, seeds, result.rounds, result.turns, result.end_reason,
        np.zeros(n, np.int64), result.score, result.components, result.extras, result.actions,
        *work_arrays(n_players, S.STATE_LEN, S.MAX_ACTIONS),
    )  # fmt: skip
    reasons[:] = result.end_reason
    rounds[:] = result.rounds
    assert ((errors == C_CAPPED) == (reasons == S.R_TURN_CAP)).all()
    errors[errors == C_CAPPED] = 0


def _run(players, n_games, root=7, **overrides):
    data = data_for(players, **overrides)
    codes = np.zeros(players, np.int64)  # random
    params = np.zeros((players, 1), np.float64)
    seeds = derive_game_seeds(root, players, np.arange(n_games))
    errors = np.zeros(n_games, np.int64)
    steps = np.zeros(n_games, np.int64)
    reasons = np.zeros(n_games, np.int64)
    rounds = np.zeros(n_games, np.int64)
    play_checked(data, players, codes, params, seeds, errors, steps, reasons, rounds)
    return errors, steps, reasons, rounds


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_invariants_after_every_step_random_games(players):
    errors, steps, reasons, rounds = _run(players, 300)  # 1,200 over the four counts
    bad = np.flatnonzero(errors)
    assert not bad.size, f"game {bad[0]}: {ERRORS[errors[bad[0]]]}"
    assert (reasons == S.R_VP_TARGET).all(), "a random game hit the safety cap"
    assert steps.max() < MAX_STEPS and rounds.min() >= 1


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides",
    [
        {"number_placement": "random_no_red_adjacent", "start_seat": 2},
        {"bank_per_resource": 4, "discard_threshold": 3},  # shortages and many discards
        {"roads": 5, "settlements": 2, "cities": 1, "vp_target": 5},  # piece limits bite
        {"board": "large", "special_building_phase": True, "longest_road_min": 3},
    ],
)
def test_invariants_under_levers(overrides):
    errors, _, reasons, _ = _run(4, 60, root=3, **overrides)
    bad = np.flatnonzero(errors)
    assert not bad.size, f"game {bad[0]}: {ERRORS[errors[bad[0]]]}"
    if overrides.get("bank_per_resource", 19) >= 19:  # a 4-card bank may starve random bots
        assert (reasons == S.R_VP_TARGET).all()


def test_safety_cap_ends_as_turn_cap():
    errors, _, reasons, rounds = _run(4, 10, safety_cap_rounds=3)
    assert not errors.any()
    assert (reasons == S.R_TURN_CAP).all() and (rounds == 3).all()


# ---------------------------------------------------------------------------------------------
# Longest road against an independent brute force
# ---------------------------------------------------------------------------------------------


def brute_longest(s, b, p):
    """Plain-Python longest trail of seat ``p``: every trail by exhaustive recursion over its
    road edges (board.py's edge list), never continuing through an opponent's building."""
    adj = defaultdict(list)
    for e, (u, w) in enumerate(b.edges):
        if s[S.E_OWNER + e] == p:
            adj[u].append((e, w))
            adj[w].append((e, u))

    def blocked(v):
        return s[S.V_OWNER + v] not in (-1, p)

    def extend(v, used):
        best = 0
        for e, w in adj[v]:
            if e not in used:
                more = 0 if blocked(w) else extend(w, used | {e})
                best = max(best, 1 + more)
        return best

    return max((extend(v, frozenset()) for v in adj), default=0)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_longest_road_matches_brute_force(players):
    data = data_for(players, longest_road_min=3)
    b = board(players)
    params = np.zeros((players, 1), np.float64)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    checked = 0
    for seed in derive_game_seeds(99, players, np.arange(60)):
        streams = np.zeros((1 + players, 4), np.uint64)
        seed_streams(streams, seed)
        a = np.zeros(S.STATE_LEN, np.int32)
        out = np.zeros(S.STATE_LEN, np.int32)
        init_state(data, players, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            act = int(choose_action(a, data, seat, 0, params[seat], streams[1 + seat], buf))
            step(a, np.int32(act), data, streams[0], out)
            placed = S.A_SETTLE <= act < S.A_CITY or S.A_ROAD <= act < S.A_ROLL
            a, out = out, a
            if placed:
                for p in range(players):
                    assert a[S.ROAD_LEN + p] == brute_longest(a, b, p), (seed, p)
                checked += 1
    assert checked > 500


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edges=st.sets(st.integers(0, 71), min_size=1, max_size=15),
    blockers=st.sets(st.integers(0, 53), max_size=6),
    seed=st.integers(0, 3),
)
def test_road_length_kernel_equals_brute_force_on_random_networks(edges, blockers, seed):
    """Dense random networks (cycles, forks, opponent buildings anywhere, also on the road):
    the kernel's odd-degree start rule must agree with the exhaustive recount."""
    data = data_for(4)
    b = board(4)
    s = np.zeros(S.STATE_LEN, np.int32)
    init_state(data, 4, np.array([1, 2, 3, 4 + seed], np.uint64), s)
    for e in edges:
        s[S.E_OWNER + e] = 0
    for v in blockers:
        s[S.V_OWNER + v] = 1 + v % 3
    assert road_length(s, data, 0) == brute_longest(s, b, 0)


# ---------------------------------------------------------------------------------------------
# The checked loop recounts roads only after a step that changed the board: still as strong
# ---------------------------------------------------------------------------------------------


def replay_states(players, seed, n_steps):
    """The states after steps 1..n_steps of game ``seed`` (random bots, as ``menhir check``
    plays it), each with whether its step changed the board (``board_changes``)."""
    data = data_for(players)
    params = np.zeros((players, 1), np.float64)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    streams = np.zeros((1 + players, 4), np.uint64)
    seed_streams(streams, np.uint64(seed))
    a = np.zeros(S.STATE_LEN, np.int32)
    init_state(data, players, streams[0], a)
    states = []
    for _ in range(n_steps):
        seat = current_player(a)
        act = choose_action(a, data, seat, 0, params[seat], streams[1 + seat], buf)
        out = np.zeros(S.STATE_LEN, np.int32)
        step(a, np.int32(act), data, streams[0], out)
        seats = np.zeros(S.MAX_PLAYERS, np.int64)
        states.append((out, board_changes(a, out, data, seats)))
        a = out
    return data, states


def corrupted_verdict(players, seed, at_step, index, delta):
    report = check_games(
        make_setup("catan", players, {}, "random"), 3, seed=seed - 1, chunk=3,
        corrupt=(1, at_step, index, delta),
    )  # fmt: skip
    return report.first()


SEED = 4242


@pytest.mark.parametrize(
    "cell, delta, name",
    [
        (S.ROAD_LEN + 1, 1, "road length counter right"),
        (S.ROAD_LEN + 2, -1, "road length counter right"),
        (S.LR_HOLDER, 1, "longest road holder right"),
    ],
)
def test_a_corrupted_road_field_is_caught_between_board_changes(cell, delta, name):
    """A step that builds nothing keeps the recount of the last change; a road field corrupted
    after such a step is still caught, as the full validator catches it."""
    data, states = replay_states(4, SEED, 120)
    quiet = [k for k, (s, changed) in enumerate(states, 1) if k > 40 and not changed]
    at = quiet[0]
    s = states[at - 1][0].copy()
    assert s[S.ROAD_LEN + 1] > 0 and s[S.ROAD_LEN + 2] > 0 and s[S.LR_HOLDER] == -1
    s[cell] += delta
    assert INVARIANTS[state_check(s, data) - 1] == name
    assert corrupted_verdict(4, SEED, at, cell, delta) == (SEED, at, name)


@pytest.mark.parametrize(
    "cell, delta, name",
    [
        (S.ROAD_LEN, 1, "road length counter right"),
        (S.E_OWNER, 0, "pieces match the supply, within the limits"),  # a road from nowhere
    ],
)
def test_a_corrupted_road_field_is_caught_after_a_board_change(cell, delta, name):
    data, states = replay_states(4, SEED, 120)
    built = [k for k, (s, changed) in enumerate(states, 1) if k > 40 and changed]
    at = built[0]
    s = states[at - 1][0]
    if cell == S.E_OWNER:  # the first empty edge, given to seat 0
        cell = S.E_OWNER + int(np.flatnonzero(s[S.E_OWNER : S.E_OWNER + 72] == -1)[0])
        delta = 1
    bad = s.copy()
    bad[cell] += delta
    assert INVARIANTS[state_check(bad, data) - 1] == name
    assert corrupted_verdict(4, SEED, at, cell, delta) == (SEED, at, name)


def test_the_checked_loop_recounts_on_few_steps():
    """The saving is real: most steps of a random game change no building or road."""
    _, states = replay_states(4, SEED, 600)
    changed = sum(c for _, c in states)
    assert 10 < changed < 0.2 * len(states)


@pytest.mark.parametrize("players", [3, 6])
def test_the_kept_board_results_equal_a_full_recount_after_every_step(players):
    """What the checked loop keeps (recounted after a board change, the longest road only for
    the seats the change may concern) equals a full recount of every seat, at every step of
    whole random games."""
    data = data_for(players)
    seats = np.zeros(S.MAX_PLAYERS, np.int64)
    kept = np.zeros(S.MAX_PLAYERS, np.int64)
    kept_flags = np.zeros(3, np.int64)
    full = np.zeros(S.MAX_PLAYERS, np.int64)
    full_flags = np.zeros(3, np.int64)
    listed = np.zeros(S.MAX_ACTIONS, np.int32)
    params = np.zeros((players, 1), np.float64)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    partial = 0
    for seed in derive_game_seeds(5, players, np.arange(4)):
        streams = np.zeros((1 + players, 4), np.uint64)
        seed_streams(streams, seed)
        a = np.zeros(S.STATE_LEN, np.int32)
        init_state(data, players, streams[0], a)
        seats[:] = 1
        board_recount(a, data, seats, kept, kept_flags, listed)
        while not is_over(a):
            seat = current_player(a)
            act = int(choose_action(a, data, seat, 0, params[seat], streams[1 + seat], buf))
            b = np.zeros(S.STATE_LEN, np.int32)
            step(a, np.int32(act), data, streams[0], b)
            seats[:] = 0
            if board_changes(a, b, data, seats):
                partial += int(seats[:players].sum() < players)
                board_recount(b, data, seats, kept, kept_flags, listed)
            seats[:] = 1
            board_recount(b, data, seats, full, full_flags, listed)
            assert (kept[:players] == full[:players]).all() and (kept_flags == full_flags).all()
            assert (full[:players] == b[S.ROAD_LEN : S.ROAD_LEN + players]).all()
            a = b
    assert partial > 20  # road steps recounted one seat only


def test_a_road_length_kept_for_another_seat_is_still_compared():
    """After a step that placed one seat's road, the other seats' lengths come from the kept
    recount; a corrupted counter of one of them is caught."""
    data, states = replay_states(4, SEED, 200)
    prev = None
    for k, (s, changed) in enumerate(states, 1):
        if k > 40 and changed and prev is not None:
            moved = np.flatnonzero(
                prev[S.E_OWNER : S.E_OWNER + 72] != s[S.E_OWNER : S.E_OWNER + 72]
            )
            same_buildings = (
                prev[S.V_OWNER : S.V_OWNER + 54] == s[S.V_OWNER : S.V_OWNER + 54]
            ).all()
            if moved.size == 1 and same_buildings:
                builder = s[S.E_OWNER + moved[0]]
                other = next(q for q in range(4) if q != builder and s[S.ROAD_LEN + q] > 0)
                break
        prev = s
    cell = S.ROAD_LEN + other
    bad = s.copy()
    bad[cell] += 1
    assert INVARIANTS[state_check(bad, data) - 1] == "road length counter right"
    assert corrupted_verdict(4, SEED, k, cell, 1) == (SEED, k, "road length counter right")
