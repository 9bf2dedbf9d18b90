"""Invariants of Celtic Trader checked after EVERY step of many random and greedy games.

A compiled loop plays the games like the bulk runner and, at each step, checks that the chosen
action is legal, that ``step`` left its input untouched, and the game's invariants
(sim/games/celtic_trader/invariants.py: every token is conserved across bag, discard, map,
carried, in-hand and out of play, RP + VP in play never exceed the supply), and that the game
ends; at the end, that the score is the sum of its components.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba import njit

from sim.core.registry import make_setup
from sim.core.rng import seed_streams
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.invariants import (
    CARRY,
    INVARIANTS,
    SUPPLY,
    TOKENS,
    score_check,
    state_check,
)
from sim.games.celtic_trader.params import PARAMS
from sim.games.celtic_trader.play import data_for
from sim.games.celtic_trader.rules import (
    current_player,
    init_state,
    is_over,
    legal_actions,
    step,
)
from strategies.celtic_trader import choose_action

# error codes written by the checker (0 = fine): the game's invariants
# (sim/games/celtic_trader/invariants.py), then the loop's own
OK = 0
ILLEGAL, MUTATED, NO_END, SCORE, NO_ACTIONS = range(len(INVARIANTS) + 1, len(INVARIANTS) + 6)
NAMES = ("ok", *INVARIANTS, "illegal action", "step mutated its input", "game did not end",
         "score != components", "no legal action")  # fmt: skip
MAX_STEPS = 200_000


@njit(cache=True)
def _check_games(data, n_players, role_mode, codes, params, seeds, errors, rounds):
    streams = np.zeros((1 + n_players, 4), np.uint64)
    a = np.zeros(S.STATE_LEN, np.int32)
    b = np.zeros(S.STATE_LEN, np.int32)
    copy = np.zeros(S.STATE_LEN, np.int32)
    buf = np.zeros(S.BUF_LEN, np.int32)
    legal = np.zeros(S.MAX_ACTIONS, np.int32)
    fixed = np.zeros(n_players, np.int64)
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, role_mode, fixed, streams[0], a)
        err = state_check(a, data)
        steps = 0
        while err == OK and not is_over(a):
            seat = current_player(a)
            act = choose_action(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            n = legal_actions(a, data, legal)
            if n < 1:
                err = NO_ACTIONS
                break
            found = False
            for i in range(n):
                if legal[i] == act:
                    found = True
            if not found:
                err = ILLEGAL
                break
            copy[:] = a
            step(a, act, data, streams[0], b)
            for i in range(S.STATE_LEN):
                if a[i] != copy[i]:
                    err = MUTATED
            a, b = b, a
            if err == OK:
                err = state_check(a, data)
            steps += 1
            if steps > 200_000:
                err = NO_END
        if err == OK:
            if not score_check(a, data):
                err = SCORE
            if a[S.REASON] == S.END_TURN_CAP:
                err = NO_END
        errors[g] = err
        rounds[g] = a[S.ROUND]


def check(players, bots, games, role_mode=S.ROLES_RANDOM, overrides=None, first_seed=0):
    """Play ``games`` checked games; return (error codes, rounds)."""
    names = bots.split(",")
    bots = ",".join(names[i % len(names)] for i in range(players))
    setup = make_setup("celtic_trader", players, overrides or {}, bots)
    data = data_for(setup.params)
    codes, values = setup.bot_arrays()
    seeds = (np.arange(games, dtype=np.uint64) + np.uint64(first_seed)) * np.uint64(7919)
    errors = np.zeros(games, np.int8)
    rounds = np.zeros(games, np.int32)
    _check_games(data, players, role_mode, codes, values, seeds, errors, rounds)
    return errors, rounds


def _assert_clean(errors):
    bad = np.flatnonzero(errors)
    assert bad.size == 0, f"game {bad[0]}: {NAMES[errors[bad[0]]]} ({bad.size} games)"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_invariants_hold_after_every_step(players, bots):
    errors, rounds = check(players, bots, 700, S.ROLES_RANDOM, first_seed=players * 10_000)
    _assert_clean(errors)
    errors2, _ = check(players, bots, 300, S.ROLES_DRAFT, first_seed=players * 20_000)
    _assert_clean(errors2)
    assert rounds.min() >= 1 and rounds.max() < 500


def test_mixed_bots_and_levers():
    errors, _ = check(4, "greedy,random,random,greedy", 400, first_seed=5)
    _assert_clean(errors)
    levers = {
        "start_mode": "fixed",
        "first_placement_on_roman": "relocate_first",
        "demand_raise_target": "any",
        "trading_bonus": "per_visit",
        "roles_in_play": 5,
    }
    errors, _ = check(5, "greedy,random", 400, S.ROLES_DRAFT, levers, first_seed=6)
    _assert_clean(errors)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 5),
    romans=st.integers(0, 14),
    draws=st.integers(1, 4),
    orders=st.integers(0, 3),
    romanisation=st.integers(1, 3),
    bag_res=st.integers(0, 8),
    supply=st.integers(20, 300),
    tens=st.integers(0, 10),
    cost=st.integers(0, 12),
    bots=st.sampled_from(["random", "greedy", "greedy,random"]),
)
def test_invariants_hold_for_any_declared_parameters(
    players, romans, draws, orders, romanisation, bag_res, supply, tens, cost, bots
):
    overrides = {
        "romans_in_play": romans,
        "draws_per_turn": draws,
        "orders_tokens": orders,
        "romanisation_tokens": romanisation,
        "resource_in_bag_per_type": bag_res,
        "supply_points": supply,
        "ten_markers": tens,
        "upgrade_cost_2": cost,
    }
    assert set(overrides) <= set(PARAMS.names())
    errors, _ = check(players, bots, 30, S.ROLES_RANDOM, overrides)
    _assert_clean(errors)


def test_checker_catches_brokenstate_check():
    setup = make_setup("celtic_trader", 3, {}, "random")
    data = data_for(setup.params)
    s = np.zeros(S.STATE_LEN, np.int32)
    st_ = np.zeros(4, np.uint64)
    init_state(data, 3, S.ROLES_RANDOM, np.zeros(3, np.int64), st_, s)
    assert state_check(s, data) == OK
    lost = s.copy()
    lost[S.BAG + S.T_ROMAN] -= 1
    assert state_check(lost, data) == TOKENS
    rich = s.copy()
    rich[S.PLAYERS + S.P_RP] += 5
    assert state_check(rich, data) == SUPPLY
    heavy = s.copy()
    heavy[S.PLAYERS + S.P_CARRIED] += 2
    heavy[S.PLAYERS + S.P_NCARRY] += 2
    heavy[S.SPOT] = 0  # tokens conserved, but 2 carried with Carrying 1/0
    heavy[S.SPOT + 1] = 0
    assert state_check(heavy, data) in (TOKENS, CARRY)
