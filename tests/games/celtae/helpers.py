"""Compiled invariant checks for Celtae, run after every step of many games.

``check_games`` plays ``seeds`` with the given bots and returns an error code per game (0 = every
invariant held after every step); ``describe`` names a code. The invariants themselves live in
``sim/games/celtae/invariants.py`` (also used by ``menhir check``); this loop adds the checks on
the bots: the chosen action is legal, and greedy's choice does not change when what its seat
cannot see is re-dealt (it never peeks). A compiled loop keeps thousands of games per player count
affordable.
"""

import numpy as np
from numba import njit

from sim.core.rng import seed_stream, seed_streams
from sim.games.celtae.invariants import INVARIANTS, score_check, state_check
from sim.games.celtae.rules import (
    current_player,
    determinize,
    init_state,
    is_over,
    legal_actions,
    step,
)
from sim.games.celtae.state import MAX_ACTIONS, STATE_LEN

MAX_STEPS = 100_000

ERRORS = (
    "ok",
    *INVARIANTS,
    "step modified its input",
    "score differs from its components",
    "game did not end",
    "the bot chose an action that is not legal",
    "greedy's choice changed when hidden cards and tiles were re-dealt (it peeked)",
)
E_INPUT, E_SCORE, E_NO_END, E_ILLEGAL, E_PEEK = range(len(INVARIANTS) + 1, len(ERRORS))


def describe(code: int) -> str:
    return ERRORS[code]


@njit(cache=True)
def check_games(data, n_players, role_mode, fixed_roles, codes, params, seeds, choose):
    errors = np.zeros(seeds.shape[0], np.int64)
    streams = np.zeros((1 + n_players, 4), np.uint64)
    a = np.zeros(STATE_LEN, np.int32)
    b = np.zeros(STATE_LEN, np.int32)
    before = np.zeros(STATE_LEN, np.int32)
    buf = np.zeros(MAX_ACTIONS, np.int32)
    legal = np.zeros(MAX_ACTIONS, np.int32)
    hidden = np.zeros(STATE_LEN, np.int32)
    spare = np.zeros(4, np.uint64)
    shuffler = np.zeros(4, np.uint64)
    seed_stream(shuffler, np.uint64(12345))
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, role_mode, fixed_roles, streams[0], a)
        err = state_check(a, data)
        steps = 0
        while err == 0 and not is_over(a):
            seat = current_player(a)
            n_legal = legal_actions(a, data, legal)
            spare[:] = streams[1 + seat]
            act = choose(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            found = False
            for k in range(n_legal):
                if legal[k] == act:
                    found = True
            if not found:
                err = E_ILLEGAL
                break
            if codes[seat] == 1:
                determinize(a, data, seat, shuffler, hidden)
                if choose(hidden, data, seat, codes[seat], params[seat], spare, buf) != act:
                    err = E_PEEK
                    break
            before[:] = a
            step(a, act, data, streams[0], b)
            for i in range(STATE_LEN):
                if a[i] != before[i]:
                    err = E_INPUT
            if err == 0:
                err = state_check(b, data)
            a, b = b, a
            steps += 1
            if steps > MAX_STEPS:
                err = E_NO_END
        if err == 0 and not score_check(a, data):
            err = E_SCORE
        errors[g] = err
    return errors
