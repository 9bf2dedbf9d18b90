"""Invariants over many whole random games, checked after EVERY step.

A compiled loop checks, per step: ``step`` leaves its input untouched; every resource card is
in a hand or the bank (and the hand-size counters are right); nothing is negative; the pieces on
the board match the supply counters and stay within the limits; the distance rule holds; every
road touches its owner's network; the development cards are all somewhere; the Largest Army and
Longest Road holders are consistent with the Knights and road lengths; the state's VP equal a
recount from the board; the legal set is never empty. Per game: it ends by a rule within a step
bound, and a VP-target end has the active player at the target.

A plain-Python loop replays other games step by step and compares every seat's road length,
after every road and settlement, with an independent brute-force recount (``brute_longest``).
"""

from collections import defaultdict

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba import njit

from sim.core.rng import derive_game_seeds, seed_streams
from sim.games.catan import params as P
from sim.games.catan import state as S
from sim.games.catan.rules import (
    current_player,
    init_state,
    is_over,
    legal_actions,
    road_edges,
    road_length,
    road_ok,
    step,
    victory_points,
)
from strategies.catan import choose_action
from tests.games.catan.helpers import board, data_for

MAX_STEPS = 50_000
(
    OK,
    E_INPUT_WRITTEN,
    E_CARDS,
    E_COUNTERS,
    E_NEGATIVE,
    E_PIECES,
    E_DISTANCE,
    E_ROAD_LOOSE,
    E_DEV,
    E_ARMY,
    E_ROAD_HOLDER,
    E_ROAD_LEN,
    E_VP,
    E_NO_ACTION,
    E_ILLEGAL,
    E_NO_END,
    E_WINNER,
    E_ROAD_SET,
) = range(18)
ERRORS = [
    "ok",
    "step wrote into its input",
    "resource cards not conserved",
    "hand-size counter wrong",
    "negative count",
    "pieces do not match the supply or exceed the limits",
    "distance rule broken",
    "a road not connected to its owner's network",
    "development cards not conserved",
    "largest army holder wrong",
    "longest road holder wrong",
    "road length counter wrong",
    "VP recount differs from the state",
    "no legal action",
    "illegal action chosen",
    "game did not end",
    "VP-target end without the active player at the target",
    "road_edges differs from road_ok over every edge",
]


@njit(cache=True)
def _check(s, data):
    """0 if the state is consistent, else an E_* code."""
    r = data
    n = s[S.NP]
    for i in range(S.HAND, S.HAND + S.MAX_PLAYERS * S.N_RES):
        if s[i] < 0:
            return E_NEGATIVE
    for res in range(S.N_RES):
        if s[S.BANK + res] < 0:
            return E_NEGATIVE
        total = s[S.BANK + res]
        for p in range(n):
            total += s[S.HAND + p * S.N_RES + res]
        if total != r[P.G_BANK]:
            return E_CARDS
    for p in range(n):
        k = 0
        for res in range(S.N_RES):
            k += s[S.HAND + p * S.N_RES + res]
        if k != s[S.HAND_N + p]:
            return E_COUNTERS
    # pieces
    for p in range(n):
        roads = 0
        for e in range(r[P.G_N_EDGE]):
            if s[S.E_OWNER + e] == p:
                roads += 1
        settl = 0
        cities = 0
        for v in range(r[P.G_N_VERT]):
            if s[S.V_OWNER + v] == p:
                if s[S.V_CITY + v]:
                    cities += 1
                else:
                    settl += 1
        if (
            s[S.ROADS_LEFT + p] < 0
            or s[S.SETTLE_LEFT + p] < 0
            or s[S.CITIES_LEFT + p] < 0
            or roads != r[P.G_ROADS] - s[S.ROADS_LEFT + p]
            or settl != r[P.G_SETTLEMENTS] - s[S.SETTLE_LEFT + p]
            or cities != r[P.G_CITIES] - s[S.CITIES_LEFT + p]
        ):
            return E_PIECES
        # VP recount from the board, independent of the supply counters
        vp = settl + 2 * cities
        vp += (
            s[S.DEV + p * S.N_DEV + S.VICTORY_POINT] + s[S.DEV_NEW + p * S.N_DEV + S.VICTORY_POINT]
        )
        if s[S.LR_HOLDER] == p:
            vp += r[P.G_LR_VP]
        if s[S.LA_HOLDER] == p:
            vp += r[P.G_LA_VP]
        if vp != victory_points(s, data, p):
            return E_VP
        if s[S.ROAD_LEN + p] != road_length(s, data, p):
            return E_ROAD_LEN
    # distance rule
    for v in range(r[P.G_N_VERT]):
        if s[S.V_OWNER + v] < 0:
            continue
        for k in range(3):
            w = data[P.D_VERTEX_VERTICES + 3 * v + k]
            if w >= 0 and s[S.V_OWNER + w] >= 0:
                return E_DISTANCE
    # every road touches its owner's building, or its owner's road at a vertex it may pass
    for e in range(r[P.G_N_EDGE]):
        p = s[S.E_OWNER + e]
        if p < 0:
            continue
        ok = False
        for j in range(2):
            v = data[P.D_EDGE_VERTICES + 2 * e + j]
            if s[S.V_OWNER + v] == p:
                ok = True
            for k in range(3):
                f = data[P.D_VERTEX_EDGES + 3 * v + k]
                if f >= 0 and f != e and s[S.E_OWNER + f] == p:
                    ok = True
        if not ok:
            return E_ROAD_LOOSE
    # development cards: each in the deck, a hand (bought this turn or before) or played
    deck_n = 0
    for d in range(S.N_DEV):
        if s[S.DECK + d] < 0:
            return E_NEGATIVE
        deck_n += s[S.DECK + d]
        total = s[S.DECK + d] + s[S.PLAYED + d]
        for p in range(n):
            total += s[S.DEV + p * S.N_DEV + d] + s[S.DEV_NEW + p * S.N_DEV + d]
        if total != data[P.D_DEV_DECK + d]:
            return E_DEV
    knights = 0
    for p in range(n):
        knights += s[S.KNIGHTS + p]
    if deck_n != s[S.DECK_N] or knights != s[S.PLAYED + S.KNIGHT]:
        return E_DEV
    # Largest Army: the holder has the minimum and no one has more; no holder: no one has it
    la = s[S.LA_HOLDER]
    for p in range(n):
        if la < 0 and s[S.KNIGHTS + p] >= r[P.G_LA_MIN]:
            return E_ARMY
        if la >= 0 and s[S.KNIGHTS + p] > s[S.KNIGHTS + la]:
            return E_ARMY
    if la >= 0 and s[S.KNIGHTS + la] < r[P.G_LA_MIN]:
        return E_ARMY
    # Longest Road: the holder is among the longest and long enough; no holder: no unique
    # longest road of the minimum length
    lr = s[S.LR_HOLDER]
    best = 0
    n_best = 0
    for p in range(n):
        if s[S.ROAD_LEN + p] > best:
            best = s[S.ROAD_LEN + p]
            n_best = 1
        elif s[S.ROAD_LEN + p] == best:
            n_best += 1
    if lr >= 0 and (s[S.ROAD_LEN + lr] != best or best < r[P.G_LR_MIN]):
        return E_ROAD_HOLDER
    if lr < 0 and best >= r[P.G_LR_MIN] and n_best == 1:
        return E_ROAD_HOLDER
    # the fast road enumeration lists exactly the edges the plain rule allows, once each
    listed = np.zeros(S.MAX_ACTIONS, np.int32)
    for p in range(n):
        k = road_edges(s, data, p, listed, 0, False)
        allowed = 0
        for e in range(r[P.G_N_EDGE]):
            if road_ok(s, data, p, e):
                allowed += 1
        if k != allowed:
            return E_ROAD_SET
        for i in range(k):
            if not road_ok(s, data, p, listed[i] - S.A_ROAD):
                return E_ROAD_SET
    return OK


@njit(cache=True)
def play_checked(data, n_players, codes, params, seeds, errors, steps, reasons, rounds):
    """Play one game per seed with every check after every step; fill the per-game arrays."""
    streams = np.zeros((1 + n_players, 4), np.uint64)
    a = np.zeros(S.STATE_LEN, np.int32)
    b = np.zeros(S.STATE_LEN, np.int32)
    before = np.zeros(S.STATE_LEN, np.int32)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    legal = np.zeros(S.MAX_ACTIONS, np.int32)
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, streams[0], a)
        err = _check(a, data)
        k = 0
        while err == OK and not is_over(a):
            nl = legal_actions(a, data, legal)
            if nl < 1:
                err = E_NO_ACTION
                break
            seat = current_player(a)
            act = choose_action(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            found = False
            for i in range(nl):
                if legal[i] == act:
                    found = True
            if not found:
                err = E_ILLEGAL
                break
            for i in range(S.STATE_LEN):
                before[i] = a[i]
            step(a, act, data, streams[0], b)
            for i in range(S.STATE_LEN):
                if a[i] != before[i]:
                    err = E_INPUT_WRITTEN
            a, b = b, a
            if err == OK:
                err = _check(a, data)
            k += 1
            if k > 50_000:
                err = E_NO_END
        if err == OK and a[S.REASON] == S.R_VP_TARGET:
            w = a[S.WINNER]
            if w != a[S.CUR] or victory_points(a, data, w) < data[P.G_VP_TARGET]:
                err = E_WINNER
        errors[g] = err
        steps[g] = k
        reasons[g] = a[S.REASON]
        rounds[g] = a[S.ROUND]


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
