"""The chunk loop's fast paths (issue 20) against the kernel API they stand in for.

``play`` advances one state in place (``rules_turn.advance``), takes each decision's options from
the settle that stopped there and gives them to ``greedy_listed``; greedy asks
``progress_met_seats`` for every seat at once. Each is checked here, decision by decision over
whole games of every player count, against ``step``, ``legal_actions``, ``greedy_action`` and
``progress_met``: a compiled loop counts the mismatches of each kind.
"""

import numpy as np
import pytest

from sim.core.kernel import counted, leaf
from sim.core.registry import make_setup
from sim.core.rng import seed_streams
from sim.core.scratch import stack_float64, stack_int32, stack_int64, stack_uint64
from sim.games.celtae.params import setup_data
from sim.games.celtae.play import role_mode_of
from sim.games.celtae.rules import current_player, init_state, is_over, legal_actions, step
from sim.games.celtae.rules_scoring import progress_met, progress_met_seats
from sim.games.celtae.rules_turn import advance, step_listed
from sim.games.celtae.state import MAX_ACTIONS, MAX_PCARDS, MAX_PLAYERS, NP, PCARD, STATE_LEN
from strategies.celtae import GREEDY_CODE, choose_action, choose_listed
from strategies.celtae.greedy import greedy_action

SEEDS = np.arange(1, 41, dtype=np.uint64) * np.uint64(104729)
# what the loop compares; the count of each mismatch kind is returned in this order
CHECKS = (
    "step_listed's state differs from step's",
    "step_listed's options differ from legal_actions",
    "advance (in place) differs from step",
    "choose_listed (greedy) differs from greedy_action",
    "progress_met_seats differs from progress_met",
    "step_listed wrote its input",
)


@counted  # the dispatch inlines the search, which allocates
def _compare(
    data, n_players, role_mode, fixed, codes, params, seeds,
    streams, chance, a, b, c, before, listed, legal, buf, found,
):  # fmt: skip
    """Play every seed with the seats' bots through ``step``, comparing the fast paths at every
    decision; ``found[k]`` counts mismatches of ``CHECKS[k]``, ``found[-1]`` the decisions."""
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, role_mode, fixed, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            rng = streams[1 + seat]
            if codes[seat] == GREEDY_CODE:  # greedy draws nothing: both may be asked
                n = legal_actions(a, data, listed)
                fast = choose_listed(a, data, seat, codes[seat], params[seat], rng, listed, n)
                if fast != greedy_action(a, data, seat, params[seat], rng, buf):
                    found[3] += 1
            for j in range(MAX_PCARDS):
                card = a[PCARD + j]
                if card < 0:
                    continue
                met = stack_int64(MAX_PLAYERS)
                progress_met_seats(a, data, card, met)
                for other in range(a[NP]):
                    if met[other] != progress_met(a, data, other, card):
                        found[4] += 1
            act = choose_action(a, data, seat, codes[seat], params[seat], rng, buf)
            for i in range(STATE_LEN):
                before[i] = a[i]
            for i in range(4):  # the same chance for step_listed and advance as for step
                chance[0, i] = streams[0, i]
                chance[1, i] = streams[0, i]
            step(a, act, data, streams[0], b)
            m = step_listed(a, act, data, chance[0], c, listed)
            for i in range(STATE_LEN):
                if a[i] != before[i]:
                    found[5] += 1
                    break
            for i in range(STATE_LEN):
                if c[i] != b[i]:
                    found[0] += 1
                    break
            n = 0 if is_over(b) else legal_actions(b, data, legal)
            if m != n:
                found[1] += 1
            else:
                for k in range(n):
                    if listed[k] != legal[k]:
                        found[1] += 1
                        break
            advance(before, act, data, chance[1], buf)
            for i in range(STATE_LEN):
                if before[i] != b[i]:
                    found[2] += 1
                    break
            found[found.shape[0] - 1] += 1
            for i in range(STATE_LEN):
                a[i] = b[i]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_fast_paths_match_the_kernel_api(players):
    bots = "greedy" if players == 1 else ["greedy", "random", "greedy", "random"][:players]
    setup = make_setup("celtae", players, {}, bots)
    data = setup_data(setup)
    codes, params = setup.bot_arrays()
    mode, fixed = role_mode_of(setup)
    found = np.zeros(len(CHECKS) + 1, np.int64)
    state = [np.zeros(STATE_LEN, np.int32) for _ in range(4)]
    actions = [np.zeros(MAX_ACTIONS, np.int32) for _ in range(3)]
    streams = np.zeros((1 + players, 4), np.uint64)
    chance = np.zeros((2, 4), np.uint64)
    _compare(
        data, players, mode, fixed, codes, params, SEEDS, streams, chance, *state, *actions, found
    )
    assert found[-1] > 100 * len(SEEDS)  # decisions compared
    assert dict(zip(CHECKS, found[:-1].tolist(), strict=True)) == dict.fromkeys(CHECKS, 0)


@leaf
def _scratch_sums(n):
    """Fill four stack arrays and read them back: their lengths and the values written."""
    i32 = stack_int32(MAX_ACTIONS)
    i64 = stack_int64(MAX_PLAYERS)
    f64 = stack_float64(7)
    u64 = stack_uint64(4)  # the search's seed streams
    for k in range(u64.shape[0]):
        u64[k] = np.uint64(0xFFFFFFFFFFFFFFF0) + np.uint64(k)
    for k in range(i32.shape[0]):
        i32[k] = k * n
    for k in range(i64.shape[0]):
        i64[k] = (1 << 40) + k
    for k in range(f64.shape[0]):
        f64[k] = 0.5 * k
    total = 0.0
    for k in range(i32.shape[0]):
        total += i32[k]
    for k in range(f64.shape[0]):
        total += f64[k]
    return i32.shape[0], i64.shape[0], f64.shape[0], total, i64[MAX_PLAYERS - 1], u64[3]


def test_stack_arrays_hold_what_is_written_in_a_leaf_kernel():
    n32, n64, nf, total, last, top = _scratch_sums(3)
    assert (n32, n64, nf) == (MAX_ACTIONS, MAX_PLAYERS, 7)
    assert top == 0xFFFFFFFFFFFFFFF3  # unsigned: above int64's range
    assert total == 3 * sum(range(MAX_ACTIONS)) + 0.5 * sum(range(7))
    assert last == (1 << 40) + MAX_PLAYERS - 1
