"""Celtic Trader invariants, checked after every step by ``menhir check`` and the tests.

``state_check`` is the state's own validator: every token is conserved across bag, discard, map,
carried, in-hand and out of play; RP + VP in play never exceed the supply (with the 10-point
markers used so far); carried tokens agree with their counter and the carrying capacity.
``checked`` is the compiled checked loop (sim/core/check.py). Celtic Quest, played by the same
kernels, is checked by the same loop: where the data says ``R_QUEST`` the three checks are
Celtic Quest's (sim/games/celtic_quest/checks.py) and the state is the longer quest state.
"""

import numpy as np
from numba import njit

import sim.games.celtic_quest.checks as quest_checks
from sim.core.check import C_CAPPED, C_ENDS, C_INPUT, C_LEGAL, C_SCORE, GAME_BASE, GENERIC
from sim.core.rng import seed_streams
from sim.core.split_compile import checked_halves, prepare
from sim.games.celtic_quest.layout import QSTATE_LEN
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.params import (
    N_RES,
    O_CARRY_X,
    O_RULES,
    O_SPOT_RES,
    QUEST_HOOKS,
    R_BAG_RES,
    R_CYCLE,
    R_NSPOT,
    R_ORDERS,
    R_QUEST,
    R_ROMANISATION,
    R_ROMANS_TOTAL,
    R_SUPPLY,
    R_TEN_VALUE,
    R_TENS,
)
from sim.games.celtic_trader.play import chunk_data, role_mode_of, trader_kernel, write_results
from sim.games.celtic_trader.rules import current_player, init_state, is_over, legal_actions, step
from strategies.celtic_trader import choose_action, choose_plain, policy
from strategies.search import checked_loop

INVARIANTS = (
    "tokens conserved",
    "RP + VP never exceed the supply",
    "carried tokens consistent",
)
TOKENS, SUPPLY, CARRY = range(1, len(INVARIANTS) + 1)
OK = 0
N_ROWS = 1 + len(GENERIC) + len(INVARIANTS)


@njit(cache=True)
def state_check(s, data):
    """0, or the number (1-based, ``INVARIANTS``) of the first invariant ``s`` breaks."""
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        return quest_checks.state_check(s, data)
    n_players = s[S.NP]
    n_spots = data[O_RULES + R_NSPOT]
    for k in range(S.N_KINDS):
        count = s[S.BAG + k] + s[S.DISC + k]
        for i in range(s[S.N_PENDING]):
            if s[S.PENDING + i] == k:
                count += 1
        if s[S.HELD] == k:
            count += 1
        if k < N_RES:
            for sp in range(n_spots):
                if data[O_SPOT_RES + sp] == k:
                    count += s[S.SPOT + sp]
            for p in range(n_players):
                count += s[S.PLAYERS + p * S.PW + S.P_CARRIED + k]
            total = 3 + data[O_RULES + R_BAG_RES]
        elif k == S.T_ROMAN:
            for sec in range(48):
                count += s[S.ROMAN + sec]
            count += s[S.ROMANS_OUT] + s[S.ROMANS_BOX]
            total = data[O_RULES + R_ROMANS_TOTAL]
        elif k == S.T_CYCLE:
            total = data[O_RULES + R_CYCLE]
        elif k == S.T_ORDERS:
            total = data[O_RULES + R_ORDERS]
        elif k == S.T_ROMANISE:
            total = data[O_RULES + R_ROMANISATION]
        else:
            total = 0  # Celtic Quest's kinds (druid, crystal, items): never in this game
        if count != total or s[S.BAG + k] < 0 or s[S.DISC + k] < 0:
            return TOKENS
    points = 0
    for p in range(n_players):
        pb = S.PLAYERS + p * S.PW
        points += s[pb + S.P_RP] + s[pb + S.P_VP]
        n = 0
        for r in range(N_RES):
            n += s[pb + S.P_CARRIED + r]
        if n != s[pb + S.P_NCARRY] or n > data[O_CARRY_X + s[pb + S.P_CARRY]]:
            return CARRY
    used_tens = data[O_RULES + R_TENS] - s[S.TENS_LEFT]
    supply = data[O_RULES + R_SUPPLY] + data[O_RULES + R_TEN_VALUE] * used_tens
    if s[S.SUPPLY] < 0 or points + s[S.SUPPLY] != supply or points > supply:
        return SUPPLY
    return OK


@njit(cache=True)
def transition_check(before, after, data):
    """0: Celtic Trader has no invariant over one step beyond the state's own."""
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        return quest_checks.transition_check(before, after, data)
    return 0


@njit(cache=True)
def score_check(s, data):
    """True if every seat's score equals the sum of its components (RP, VP)."""
    if QUEST_HOOKS and data[O_RULES + R_QUEST]:
        return quest_checks.score_check(s, data)
    n = s[S.NP]
    z = np.zeros(1, np.int32)
    zr = np.zeros(1, np.int8)
    score = np.zeros((1, n), np.int32)
    comp = np.zeros((1, n, 2), np.int32)
    role = np.zeros((1, n), np.int16)
    write_results(s, data, 0, z, z, zr, score, comp, role, np.zeros((1, n, 0), np.int32))
    for p in range(n):  # noqa: SIM110 (a loop compiles; all() over a generator may not)
        if score[0, p] != comp[0, p, 0] + comp[0, p, 1]:
            return False
    return True


@njit(cache=True)
def checked_kernel(
    data, n_players, role_mode, fixed_roles, codes, params, seeds, max_steps, corrupt,
    first_code, first_step, counts,
):  # fmt: skip
    """Play one game per seed; after every step check every invariant (sim/core/check.py).
    ``counts`` has one row per generic and game invariant (Celtic Trader's or Celtic Quest's)."""
    state_len = QSTATE_LEN if data[O_RULES + R_QUEST] else S.STATE_LEN
    streams = np.zeros((1 + n_players, 4), np.uint64)
    a = np.zeros(state_len, np.int32)
    b = np.zeros(state_len, np.int32)
    before = np.zeros(state_len, np.int32)
    buf = np.zeros(S.BUF_LEN, np.int32)
    legal = np.zeros(S.MAX_ACTIONS, np.int32)
    n_game = counts.shape[0] - 1 - GAME_BASE
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, role_mode, fixed_roles, streams[0], a)
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
            act = choose_action(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            n = legal_actions(a, data, legal)
            counts[C_LEGAL, 0] += 1
            found = False
            for i in range(n):
                if legal[i] == act:
                    found = True
            if not found:
                err = C_LEGAL
                break
            for i in range(state_len):
                before[i] = a[i]
            step(a, act, data, streams[0], b)
            steps += 1
            if g == corrupt[0] and steps == corrupt[1]:
                b[corrupt[2]] += corrupt[3]
            counts[C_INPUT, 0] += 1
            for i in range(state_len):
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
            if a[S.REASON] == S.END_TURN_CAP:
                err = C_CAPPED
        first_code[g] = err
        first_step[g] = steps
        if err != 0:
            counts[err, 1] += 1


def loop_halves(args, copy) -> tuple:
    """The checked loop's kernels (each as ``copy`` gives it) in two halves for
    sim/core/split_compile.py."""
    data, n_players, mode, fixed, _, params, *_ = args
    rules = (copy(init_state), (mode, fixed), copy(step))
    return checked_halves(data, n_players, params, [copy(policy)], *rules)


def compile_halves(args, search) -> tuple:
    """Celtic Trader's halves: its copies of the kernels (play.trader_kernel)."""
    return loop_halves(args, trader_kernel)


def checked(setup, seeds, max_steps, corrupt):
    """(first violation per game, its step, counts) for one chunk of seeds (sim/core/check.py)."""
    codes, values = setup.bot_arrays()
    mode, fixed = role_mode_of(setup)
    seeds = np.ascontiguousarray(seeds, np.uint64)
    n = seeds.shape[0]
    first_code = np.zeros(n, np.int64)
    first_step = np.zeros(n, np.int64)
    counts = np.zeros((N_ROWS, 2), np.int64)
    kernel = trader_kernel(checked_loop(codes, checked_kernel, choose_plain))
    for i, j, data in chunk_data(setup, seeds):
        bad = corrupt.copy()
        if bad[0] >= 0:
            bad[0] -= i  # the kernel counts games from the start of its run
        args = (
            data, setup.players, mode, fixed, codes, values, seeds[i:j], max_steps, bad,
            first_code[i:j], first_step[i:j], counts,
        )  # fmt: skip
        prepare(kernel, args, compile_halves, False)
        kernel(*args)
    return first_code, first_step, counts
