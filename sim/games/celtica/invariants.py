"""Celtica invariants, checked after every step by ``menhir check`` and the property tests.

``state_check`` is the state's own validator: all 90 fragments (display, reserve, returned pile,
players), the Druid cards and the XP cards are each somewhere exactly once; the counters kept
beside the histograms are right; nothing is negative; the display never exceeds its size.
``transition_check``: druids never move back. ``checked`` is the compiled checked loop
(sim/core/check.py).
"""

import numpy as np
from numba import njit

from sim.core.check import C_CAPPED, C_ENDS, C_INPUT, C_LEGAL, C_SCORE, GAME_BASE, GENERIC
from sim.core.rng import seed_streams
from sim.core.split_compile import checked_halves, prepare
from sim.games.celtica import params as P
from sim.games.celtica import state as S
from sim.games.celtica.params import compile_data
from sim.games.celtica.play import write_results
from sim.games.celtica.rules import current_player, init_state, is_over, legal_actions, step
from strategies.celtica import choose_action, choose_plain, greedy_action, random_action
from strategies.search import checked_loop

INVARIANTS = (
    "fragments conserved",
    "Druid cards conserved",
    "XP cards conserved",
    "counters agree with their histograms",
    "nothing negative",
    "display within its size",
    "druids never move back",
)
(
    E_FRAGMENTS,
    E_CARDS,
    E_XP,
    E_COUNTERS,
    E_NEGATIVE,
    E_DISPLAY,
    E_DRUID_BACK,
) = range(1, len(INVARIANTS) + 1)
OK = 0
N_ROWS = 1 + len(GENERIC) + len(INVARIANTS)


@njit(cache=True)
def state_check(s, data):
    """0, or the number (1-based, ``INVARIANTS``) of the first invariant ``s`` breaks."""
    r = data.rules
    n = s[S.NP]
    for i in range(s.shape[0]):
        if s[i] < -1:
            return E_NEGATIVE
    for t in range(S.MAX_TYPES):
        total = s[S.DISPLAY + t] + s[S.RESERVE + t] + s[S.RETURNED + t]
        for p in range(n):
            total += s[S.FRAG + p * S.MAX_TYPES + t]
        if total != (r[P.G_COPIES] if t < r[P.G_TYPES] else 0):
            return E_FRAGMENTS
    held = 0
    for c in range(S.N_COLOURS):
        cards = s[S.PILE + c] + s[S.DISCARD + c]
        xp = s[S.XP_PILE + c] + s[S.XP_DISCARD + c]
        for p in range(n):
            cards += s[S.HAND + p * S.N_COLOURS + c]
            xp += s[S.XP + p * S.N_COLOURS + c]
            held += s[S.HAND + p * S.N_COLOURS + c]
        if cards != (r[P.G_CARDS] if c < r[P.G_DRUIDS] else 0):
            return E_CARDS
        if xp != (r[P.G_XP_CARDS] if c < r[P.G_DRUIDS] else 0):
            return E_XP
    sums = np.zeros(7, np.int64)
    for t in range(S.MAX_TYPES):
        sums[0] += s[S.DISPLAY + t]
        sums[1] += s[S.RESERVE + t]
        sums[2] += s[S.RETURNED + t]
    for c in range(S.N_COLOURS):
        sums[3] += s[S.PILE + c]
        sums[4] += s[S.DISCARD + c]
        sums[5] += s[S.XP_PILE + c]
        sums[6] += s[S.XP_DISCARD + c]
    if (
        sums[0] != s[S.DISPLAY_N]
        or sums[1] != s[S.RESERVE_N]
        or sums[2] != s[S.RETURNED_N]
        or sums[3] != s[S.PILE_N]
        or sums[4] != s[S.DISCARD_N]
        or sums[5] != s[S.XP_PILE_N]
        or sums[6] != s[S.XP_DISCARD_N]
        or held != s[S.HELD_N]
    ):
        return E_COUNTERS
    if s[S.DISPLAY_N] > r[P.G_DISPLAY]:
        return E_DISPLAY
    return OK


@njit(cache=True)
def transition_check(before, after, data):
    """0, or ``E_DRUID_BACK`` if a druid moved back along the track."""
    for c in range(S.N_COLOURS):
        if after[S.POS + c] < before[S.POS + c]:
            return E_DRUID_BACK
    return OK


@njit(cache=True)
def score_check(s, data):
    """True if every seat's score equals the sum of its components (complete amulets)."""
    n = s[S.NP]
    z = np.zeros(1, np.int32)
    zr = np.zeros(1, np.int8)
    score = np.zeros((1, n), np.int32)
    comp = np.zeros((1, n, 1), np.int32)
    extras = np.zeros((1, n, S.MAX_LAYERS + 2), np.int32)
    write_results(s, data, 0, z, z, zr, score, comp, extras)
    for p in range(n):  # noqa: SIM110 (a loop compiles; all() over a generator may not)
        if score[0, p] != comp[0, p, 0]:
            return False
    return True


@njit(cache=True)
def checked_kernel(
    data, n_players, role_mode, fixed_roles, codes, params, seeds, max_steps, corrupt,
    first_code, first_step, counts,
):  # fmt: skip
    """Play one game per seed; after every step check every invariant (sim/core/check.py).
    Celtica has no roles: ``role_mode`` and ``fixed_roles`` keep the common signature."""
    streams = np.zeros((1 + n_players, 4), np.uint64)
    a = np.zeros(S.STATE_LEN, np.int32)
    b = np.zeros(S.STATE_LEN, np.int32)
    before = np.zeros(S.STATE_LEN, np.int32)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    legal = np.zeros(S.MAX_ACTIONS, np.int32)
    n_game = len(INVARIANTS)
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, streams[0], a)
        for k in range(1, n_game + 1):
            counts[GAME_BASE + k, 0] += 1
        code = state_check(a, data)
        err = 0 if code == 0 else GAME_BASE + code
        steps = 0
        while err == 0 and not is_over(a):
            if steps >= max_steps:
                counts[C_ENDS, 0] += 1
                err = C_ENDS
                break
            seat = current_player(a)
            n = legal_actions(a, data, legal)
            act = choose_action(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            counts[C_LEGAL, 0] += 1
            found = False
            for i in range(n):
                if legal[i] == act:
                    found = True
            if not found:
                err = C_LEGAL
                break
            for i in range(S.STATE_LEN):
                before[i] = a[i]
            step(a, act, data, streams[0], b)
            steps += 1
            if g == corrupt[0] and steps == corrupt[1]:
                b[corrupt[2]] += corrupt[3]
            counts[C_INPUT, 0] += 1
            for i in range(S.STATE_LEN):
                if a[i] != before[i]:
                    err = C_INPUT
            for k in range(1, n_game + 1):
                counts[GAME_BASE + k, 0] += 1
            if err == 0:
                code = transition_check(a, b, data)
                if code == 0:
                    code = state_check(b, data)
                if code != 0:
                    err = GAME_BASE + code
            a, b = b, a
        if err == 0:
            counts[C_SCORE, 0] += 1
            if not score_check(a, data):
                err = C_SCORE
        if err == 0:
            counts[C_ENDS, 0] += 1
            counts[C_CAPPED, 0] += 1
            if a[S.REASON] == S.R_TURN_CAP:
                err = C_CAPPED
        first_code[g] = err
        first_step[g] = steps
        if err != 0:
            counts[err, 1] += 1


def compile_halves(args, search):
    """The checked loop's kernels in two halves (sim/core/split_compile.py)."""
    data, n_players, _, _, _, params, *_ = args
    return checked_halves(
        data, n_players, params, [greedy_action, random_action], init_state, (), step
    )


def checked(setup, seeds, max_steps, corrupt):
    """(first violation per game, its step, counts) for one chunk of seeds (sim/core/check.py)."""
    data = compile_data(dict(setup.params))
    codes, values = setup.bot_arrays()
    kernel = checked_loop(codes, checked_kernel, choose_plain)
    n = seeds.shape[0]
    first_code = np.zeros(n, np.int64)
    first_step = np.zeros(n, np.int64)
    counts = np.zeros((N_ROWS, 2), np.int64)
    fixed = np.zeros(max(setup.players, 1), np.int64)
    args = (
        data, setup.players, 0, fixed, codes, values, np.ascontiguousarray(seeds, np.uint64),
        max_steps, corrupt, first_code, first_step, counts,
    )  # fmt: skip
    prepare(kernel, args, compile_halves, False)
    kernel(*args)
    return first_code, first_step, counts
