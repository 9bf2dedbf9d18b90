"""The Great Wall invariants, checked after every step by ``menhir check`` and the property
tests: the base game's (catan/invariants.py: cards, pieces, distance rule, roads, development
cards, holders, VP recount with the penalty hook) and the scenario's own.

``state_check`` adds: riders conserved by numeral (bag, territories, battlefields and hexes
hold ``riders_per_numeral`` of each numeral in play, none of the others); the per-hex rider
count equals its numerals' sum and every occupied hex has been marked as once occupied; only
path hexes hold riders; no battlefield above its capacity nor above its wall's level (it would
have broken through); wall levels within [0, max]; one fortress per seat, on its site, owned by
the wall's owner; penalty tokens sum to the breaches and each seat's VP adjustment is minus its
tokens times the penalty; the breach counter under the defeat limit unless the game ended by it
(and a ``wall_breached`` end has no winner); the harbour access equals the buildings on
harbours whose sea hex is free of the pirate. ``transition_check`` (base plus): a wall never
drops except by a breach (the breach counter goes up), and the counter never goes down. The
checked loop keeps the base game's costly board recount until a step changes the board, as the
base loop does (its ``ledger_check`` is ``state_check`` given that recount).
"""

import numpy as np
from numba import njit

from sim.core.check import C_CAPPED, C_ENDS, C_INPUT, C_LEGAL, C_SCORE, GAME_BASE, GENERIC
from sim.core.rng import seed_streams
from sim.core.split_compile import checked_halves, prepare
from sim.games.catan import invariants as base_inv
from sim.games.catan import state as S
from sim.games.catan.params import D_SLOT_VERTICES, G_N_HEX, G_N_SLOTS
from sim.games.catan_great_wall import state as G
from sim.games.catan_great_wall.params import (
    D_PATH,
    D_PATH_LEN,
    D_SLOT_SEA,
    D_W,
    D_WALL_VERTEX,
    W_BREACH_LIMIT,
    W_CAPACITY,
    W_MAX_LEVEL,
    W_N_WALLS,
    W_NUMERALS,
    W_PENALTY,
    W_RIDERS_PER,
    compile_data,
)
from sim.games.catan_great_wall.play import write_results
from sim.games.catan_great_wall.rules import (
    current_player,
    init_state,
    is_over,
    legal_actions,
    step,
    victory_points,
)
from strategies.catan_great_wall import choose_action, choose_plain, greedy_action
from strategies.search import checked_loop

GW_INVARIANTS = (
    "riders conserved by numeral",
    "hex rider counters right",
    "riders only on attack paths",
    "battlefields within capacity and level",
    "wall levels within bounds",
    "fortresses one per seat on their sites",
    "penalty tokens match the breaches",
    "breach counter and defeat consistent",
    "harbour access right under the pirate",
    "walls drop only by a breach",
)
INVARIANTS = base_inv.INVARIANTS + GW_INVARIANTS
N_BASE = len(base_inv.INVARIANTS)
(
    E_RIDERS,
    E_HEX_COUNT,
    E_OFF_PATH,
    E_FIELD,
    E_LEVEL,
    E_FORTRESS,
    E_PENALTY,
    E_BREACHES,
    E_PORTS,
    E_WALL_DROP,
) = range(N_BASE + 1, N_BASE + 1 + len(GW_INVARIANTS))
OK = 0
N_ROWS = 1 + len(GENERIC) + len(INVARIANTS)
K = G.MAX_NUMERALS


@njit(cache=True)
def state_check(s, data):
    """0, or the number (1-based, ``INVARIANTS``) of the first invariant ``s`` breaks."""
    lengths, flags = base_inv.fresh_recount(s, data)
    return ledger_check(s, data, lengths, flags)


@njit(cache=True)
def ledger_check(s, data, lengths, flags):
    """``state_check`` given the base game's ``board_recount`` of ``s``'s board (kept by the
    checked loop until the board changes: sim/games/catan/invariants.py)."""
    code = base_inv.ledger_check(s, data, lengths, flags)
    if code != OK:
        return code
    return wall_check(s, data)


@njit(cache=True)
def wall_check(s, data):
    """0, or the first broken invariant of the scenario's own (``GW_INVARIANTS``)."""
    n = s[S.NP]
    n_walls = data[D_W + W_N_WALLS]
    n_hex = data[G_N_HEX]
    for k in range(K):
        total = s[G.BAG + k]
        for t in range(K):
            total += s[G.TERR + t * K + k]
        for w in range(n_walls):
            total += s[G.FIELD + w * K + k]
        for h in range(n_hex):
            total += s[G.HEX_R + h * K + k]
        want = data[D_W + W_RIDERS_PER] if k < data[D_W + W_NUMERALS] else 0
        if total != want:
            return E_RIDERS
    for i in range(G.PIRATE, G.GW_STATE_LEN):  # nothing negative but owners and the VP hook
        if s[i] < 0 and not (G.EXTRA_VP <= i < G.PENALTY or G.WALL_OWNER <= i < G.BAG):
            return base_inv.E_NEGATIVE
    on_path = np.zeros(G.MAX_HEX, np.int64)
    for w in range(n_walls):
        for i in range(data[D_PATH_LEN + w]):
            on_path[data[D_PATH + G.MAX_PATH * w + i]] = 1
    for h in range(n_hex):
        m = 0
        for k in range(K):
            m += s[G.HEX_R + h * K + k]
        if m != s[G.HEX_RIDERS + h] or (m > 0 and s[G.HEX_EVER + h] == 0):
            return E_HEX_COUNT
        if m > 0 and on_path[h] == 0:
            return E_OFF_PATH
    for w in range(n_walls):
        f = 0
        for k in range(K):
            f += s[G.FIELD + w * K + k]
        if f > data[D_W + W_CAPACITY] or f > s[G.LEVEL + w]:
            return E_FIELD
        if s[G.LEVEL + w] < 0 or s[G.LEVEL + w] > data[D_W + W_MAX_LEVEL]:
            return E_LEVEL
    placed = 0
    for w in range(n_walls):
        o = s[G.WALL_OWNER + w]
        if o >= 0:
            placed += 1
            if s[S.V_OWNER + data[D_WALL_VERTEX + w]] != o:
                return E_FORTRESS
            for x in range(n_walls):
                if x != w and s[G.WALL_OWNER + x] == o:
                    return E_FORTRESS
    if s[S.PHASE] != G.PH_FORTRESS and placed != n:
        return E_FORTRESS
    tokens = 0
    for p in range(n):
        tokens += s[G.PENALTY + p]
        if s[G.EXTRA_VP + p] != -s[G.PENALTY + p] * data[D_W + W_PENALTY]:
            return E_PENALTY
    if tokens != s[G.BREACHES]:
        return E_PENALTY
    defeat = s[S.OVER] != 0 and s[S.REASON] == G.R_WALL_BREACHED
    if defeat != (s[G.BREACHES] >= data[D_W + W_BREACH_LIMIT]):
        return E_BREACHES
    if defeat and s[S.WINNER] != -1:
        return E_BREACHES
    for p in range(n):
        for t in range(S.N_RES + 1):
            has = 0
            for slot in range(data[G_N_SLOTS]):
                if data[D_SLOT_SEA + slot] == s[G.PIRATE] or s[S.SLOT_TYPE + slot] != t:
                    continue
                for j in range(2):
                    if s[S.V_OWNER + data[D_SLOT_VERTICES + 2 * slot + j]] == p:
                        has = 1
            if s[S.PORTS + p * (S.N_RES + 1) + t] != has:
                return E_PORTS
    return OK


@njit(cache=True)
def transition_check(before, after, data):
    """0, or the first broken transition invariant (base, then the wall's)."""
    code = base_inv.transition_check(before, after, data)
    if code != OK:
        return code
    if after[G.BREACHES] < before[G.BREACHES]:
        return E_WALL_DROP
    if after[G.BREACHES] == before[G.BREACHES]:
        for w in range(data[D_W + W_N_WALLS]):
            if after[G.LEVEL + w] < before[G.LEVEL + w]:
                return E_WALL_DROP
    return OK


@njit(cache=True)
def score_check(s, data):
    """True if every seat's score (VP) equals the sum of its five components."""
    n = s[S.NP]
    z = np.zeros(1, np.int32)
    zr = np.zeros(1, np.int8)
    winner = np.zeros(1, np.int64)
    score = np.zeros((1, n), np.int32)
    comp = np.zeros((1, n, 5), np.int32)
    extras = np.zeros((1, n, 6), np.int32)
    write_results(s, data, 0, z, z, zr, winner, score, comp, extras)
    for p in range(n):
        total = 0
        for c in range(5):
            total += comp[0, p, c]
        if score[0, p] != total or score[0, p] != victory_points(s, data, p):
            return False
    return True


@njit(cache=True)
def checked_kernel(
    data, n_players, codes, params, seeds, max_steps, corrupt, first_code, first_step, counts,
):  # fmt: skip
    """Play one game per seed; after every step check every invariant (sim/core/check.py)."""
    streams = np.zeros((1 + n_players, 4), np.uint64)
    a = np.zeros(G.GW_STATE_LEN, np.int32)
    b = np.zeros(G.GW_STATE_LEN, np.int32)
    before = np.zeros(G.GW_STATE_LEN, np.int32)
    buf = np.zeros(G.GW_MAX_ACTIONS, np.int32)
    legal = np.zeros(G.GW_MAX_ACTIONS, np.int32)
    listed = np.zeros(S.MAX_ACTIONS, np.int32)
    seats = np.zeros(S.MAX_PLAYERS, np.int64)
    n_game = len(INVARIANTS)
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, streams[0], a)
        for k in range(1, n_game + 1):
            counts[GAME_BASE + k, 0] += 1
        lengths, flags = base_inv.fresh_recount(a, data)  # board_recount of a's board, kept
        code = ledger_check(a, data, lengths, flags)
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
            if n == 0 or not found:
                err = C_LEGAL
                break
            for i in range(G.GW_STATE_LEN):
                before[i] = a[i]
            step(a, act, data, streams[0], b)
            steps += 1
            if g == corrupt[0] and steps == corrupt[1]:
                b[corrupt[2]] += corrupt[3]
            counts[C_INPUT, 0] += 1
            for i in range(G.GW_STATE_LEN):
                if a[i] != before[i]:
                    err = C_INPUT
            for k in range(1, n_game + 1):
                counts[GAME_BASE + k, 0] += 1
            if err == 0:
                code = transition_check(a, b, data)
                if code == 0:
                    base_inv.recount_after(a, b, data, seats, lengths, flags, listed)
                    code = ledger_check(b, data, lengths, flags)
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
    data, n_players, _, params, *_ = args
    return checked_halves(data, n_players, params, [greedy_action], init_state, (), step)


def checked(setup, seeds, max_steps, corrupt):
    """(first violation per game, its step, counts) for one chunk of seeds (sim/core/check.py)."""
    data = compile_data(dict(setup.params), setup.players)
    codes, values = setup.bot_arrays()
    kernel = checked_loop(codes, checked_kernel, choose_plain)
    n = seeds.shape[0]
    first_code = np.zeros(n, np.int64)
    first_step = np.zeros(n, np.int64)
    counts = np.zeros((N_ROWS, 2), np.int64)
    args = (
        data, setup.players, codes, values, np.ascontiguousarray(seeds, np.uint64), max_steps,
        corrupt, first_code, first_step, counts,
    )  # fmt: skip
    prepare(kernel, args, compile_halves, False)
    kernel(*args)
    return first_code, first_step, counts
