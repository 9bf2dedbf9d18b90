"""Catan: Troy invariants, checked after every step by ``menhir check`` and the property tests.

``state_check`` runs the base game's own validator (sim/games/catan/invariants.py: cards, pieces,
distance rule, roads, Longest Road, ...) on a view of the state where the cards of the support
row and those a battle removed are counted with the bank (so "resource cards conserved" covers
the row), then the scenario's: the row's counter; commerce tokens conserved (earned by
donations, spent on ships); ships conserved (each seat's ships are the top of its stack, one per
sea hex, every ship placed by the rule); 2:1 trade cards conserved; the decision cards dealt
from the deck; the trading ratios follow the ships, the Sea People and the harbours; the Sea
People on a sea hex in play and no robber; the markers within the track; a donation within its
limits; a VP-target end with the active player at the target (track VP included), an
event-track end with a marker at its end. ``transition_check`` adds: ships never leave the sea
and a marker never moves back. ``checked`` is the compiled checked loop (sim/core/check.py); it
keeps the base game's costly board recount until a step changes the board, as the base loop
does (its ``ledger_check`` is ``state_check`` given that recount).
"""

import numpy as np
from numba import njit

from sim.core.check import C_CAPPED, C_ENDS, C_INPUT, C_LEGAL, C_SCORE, GAME_BASE, GENERIC
from sim.core.rng import seed_streams
from sim.core.split_compile import checked_halves, prepare
from sim.games.catan import state as S
from sim.games.catan.invariants import INVARIANTS as BASE_INVARIANTS
from sim.games.catan.invariants import fresh_recount, recount_after
from sim.games.catan.invariants import ledger_check as base_ledger_check
from sim.games.catan.invariants import transition_check as base_transition_check
from sim.games.catan.params import G_VP_TARGET
from sim.games.catan_troy import state as T
from sim.games.catan_troy.params import (
    K_CARDS_MYCENAE,
    K_CARDS_TROY,
    K_DONATION_MAX,
    K_DONATIONS_PER_TURN,
    K_N_SEA,
    K_SHIP_TOKENS,
    K_SHIPS,
    K_TOKENS_PER_DONATION,
    K_TRACK_LEN,
    T_SEA_NEIGHBOURS,
    T_SEA_VERTICES,
    T_STACK,
    T_TRADE_CARDS,
    compile_data,
)
from sim.games.catan_troy.play import write_results
from sim.games.catan_troy.rules import (
    current_player,
    init_state,
    is_over,
    key,
    legal_actions,
    refresh_ports,
    step,
    victory_points,
)
from strategies.catan_troy import choose_action, choose_plain, greedy_action
from strategies.search import checked_loop

INVARIANTS = (
    *BASE_INVARIANTS,
    "support row counter right",
    "commerce tokens conserved",
    "ships conserved and placed by the rule",
    "2:1 trade cards conserved",
    "decision cards dealt from the deck",
    "trading ratios follow ships, Sea People and harbours",
    "Sea People on a sea hex in play, no robber",
    "markers within the event track, never moving back",
    "a donation within its limits",
    "an end has its reason (target VP, or a marker at the track's end)",
)
N_BASE = len(BASE_INVARIANTS)
(
    E_ROW,
    E_TOKENS,
    E_SHIPS,
    E_CARDS_21,
    E_SIDES,
    E_PORTS,
    E_SEA_PEOPLE,
    E_TRACK,
    E_DONATION,
    E_END,
) = range(N_BASE + 1, len(INVARIANTS) + 1)
OK = 0
N_ROWS = 1 + len(GENERIC) + len(INVARIANTS)


@njit(cache=True)
def _base_view(s, view):
    """The state as the base validator sees it: row and removed cards with the bank, and no
    end (the base end check counts base VP only; the scenario checks its ends itself)."""
    for i in range(s.shape[0]):
        view[i] = s[i]
    for r in range(S.N_RES):
        view[S.BANK + r] += s[T.ROW + r] + s[T.REMOVED + r]
    view[S.OVER] = 0


@njit(cache=True)
def _ships_ok(s, data):
    n = s[S.NP]
    n_sea = key(data, K_N_SEA)
    kinds = np.zeros((n, T.N_KINDS), np.int64)
    cards = np.zeros(S.N_RES, np.int64)
    for w in range(T.MAX_SEA):
        p = s[T.SEA_OWNER + w]
        if p < 0:
            if s[T.SEA_KIND + w] != -1 or s[T.SEA_CARD + w] != -1:
                return E_SHIPS
            continue
        if w >= n_sea or p >= n:
            return E_SHIPS
        kinds[p, s[T.SEA_KIND + w]] += 1
        if s[T.SEA_CARD + w] >= 0:
            if s[T.SEA_KIND + w] != T.KIND_TWO:
                return E_CARDS_21
            cards[s[T.SEA_CARD + w]] += 1
        # placed by the rule: a building on a corner, or a chain of own ships reaching one
        if not _reaches_coast(s, data, p, w):
            return E_SHIPS
    for p in range(n):
        built = s[T.SHIPS_BUILT + p]
        if built < 0 or built > key(data, K_SHIPS):
            return E_SHIPS
        for i in range(built):
            kinds[p, data[T_STACK + i]] -= 1
        for k in range(T.N_KINDS):
            if kinds[p, k] != 0:
                return E_SHIPS
    for r in range(S.N_RES):
        if s[T.TRADE_CARDS + r] < 0 or s[T.TRADE_CARDS + r] + cards[r] != data[T_TRADE_CARDS + r]:
            return E_CARDS_21
    return OK


@njit(cache=True)
def _reaches_coast(s, data, p, start):
    """Is ship ``start`` of ``p`` joined by ``p``'s ships to a sea hex with ``p``'s building on
    a corner (every ship was placed next to one or the other)?"""
    seen = np.zeros(T.MAX_SEA, np.int64)
    stack = np.zeros(T.MAX_SEA, np.int64)
    top = 1
    stack[0] = start
    seen[start] = 1
    while top > 0:
        top -= 1
        w = stack[top]
        for k in range(6):
            v = data[T_SEA_VERTICES + 6 * w + k]
            if v >= 0 and s[S.V_OWNER + v] == p:
                return True
        for k in range(6):
            m = data[T_SEA_NEIGHBOURS + 6 * w + k]
            if m >= 0 and seen[m] == 0 and s[T.SEA_OWNER + m] == p:
                seen[m] = 1
                stack[top] = m
                top += 1
    return False


@njit(cache=True)
def state_check(s, data):
    """0, or the number (1-based, ``INVARIANTS``) of the first invariant ``s`` breaks."""
    lengths, flags = fresh_recount(s, data)  # the view has the same board
    return ledger_check(s, data, lengths, flags)


@njit(cache=True)
def ledger_check(s, data, lengths, flags):
    """``state_check`` given the base game's ``board_recount`` of ``s``'s board (kept by the
    checked loop until the board changes: sim/games/catan/invariants.py; the view has the
    same board)."""
    view = np.empty(s.shape[0], np.int32)
    _base_view(s, view)
    code = base_ledger_check(view, data, lengths, flags)
    if code != OK:
        return code
    return troy_check(s, data)


@njit(cache=True)
def troy_check(s, data):
    """0, or the first broken invariant of the scenario's own (after the base game's)."""
    n = s[S.NP]
    # the support row
    total = 0
    for r in range(S.N_RES):
        if s[T.ROW + r] < 0 or s[T.REMOVED + r] < 0:
            return E_ROW
        total += s[T.ROW + r]
    if total != s[T.ROW_N]:
        return E_ROW
    # commerce tokens: one batch per donation, a price per ship
    for p in range(n):
        earned = s[T.GIFTS + p] * key(data, K_TOKENS_PER_DONATION)
        spent = s[T.SHIPS_BUILT + p] * key(data, K_SHIP_TOKENS)
        if s[T.TOKENS + p] < 0 or s[T.TOKENS + p] != earned - spent:
            return E_TOKENS
        if s[T.GIFTS + p] > s[T.DONATED + p]:
            return E_TOKENS
    code = _ships_ok(s, data)
    if code != OK:
        return code
    # decision cards
    dealt = np.zeros(2, np.int64)
    for p in range(n):
        c = s[T.SIDE + p]
        if c < 0 or c > 1:
            return E_SIDES
        dealt[c] += 1
    if dealt[0] > key(data, K_CARDS_TROY) or dealt[1] > key(data, K_CARDS_MYCENAE):
        return E_SIDES
    # trading ratios: a recount from the ships, the Sea People and the harbours
    ports = np.empty(s.shape[0], np.int32)
    for i in range(s.shape[0]):
        ports[i] = s[i]
    refresh_ports(ports, data)
    for i in range(S.PORTS, S.PORTS + S.MAX_PLAYERS * (S.N_RES + 1)):
        if ports[i] != s[i]:
            return E_PORTS
    sp = s[T.SEA_PEOPLE]
    if sp < 0 or sp >= key(data, K_N_SEA) or s[S.ROBBER] != -1:
        return E_SEA_PEOPLE
    last = key(data, K_TRACK_LEN) - 1
    if s[T.TRACK] < 0 or s[T.TRACK + 1] < 0 or s[T.TRACK] > last or s[T.TRACK + 1] > last:
        return E_TRACK
    if s[T.TRACK] + s[T.TRACK + 1] > s[T.BATTLES]:
        return E_TRACK
    if s[T.DONATING] < 0 or s[T.DONATING] > key(data, K_DONATION_MAX):
        return E_DONATION
    if s[T.DONATIONS] > key(data, K_DONATIONS_PER_TURN):
        return E_DONATION
    if s[S.OVER]:
        reason = s[S.REASON]
        w = s[S.WINNER]
        if reason == T.R_VP_TARGET and (
            w != s[S.CUR] or victory_points(s, data, w) < data[G_VP_TARGET]
        ):
            return E_END
        if reason == T.R_EVENT_TRACK and s[T.TRACK] < last and s[T.TRACK + 1] < last:
            return E_END
    elif s[T.TRACK] >= last or s[T.TRACK + 1] >= last:
        return E_END
    return OK


@njit(cache=True)
def transition_check(before, after, data):
    """0, or the first broken invariant of a step: buildings, roads (base) and ships never leave
    the board; markers never move back."""
    code = base_transition_check(before, after, data)
    if code != OK:
        return code
    for w in range(T.MAX_SEA):
        if before[T.SEA_OWNER + w] >= 0 and (
            after[T.SEA_OWNER + w] != before[T.SEA_OWNER + w]
            or after[T.SEA_KIND + w] != before[T.SEA_KIND + w]
        ):
            return E_SHIPS
    for c in range(2):
        if after[T.TRACK + c] < before[T.TRACK + c]:
            return E_TRACK
    return OK


@njit(cache=True)
def score_check(s, data):
    """True if every seat's score (VP) equals the sum of its four components."""
    n = s[S.NP]
    z = np.zeros(1, np.int32)
    zr = np.zeros(1, np.int8)
    winner = np.zeros(1, np.int64)
    score = np.zeros((1, n), np.int32)
    comp = np.zeros((1, n, 4), np.int32)
    extras = np.zeros((1, n, 8), np.int32)
    role = np.zeros((1, n), np.int16)
    write_results(s, data, 0, z, z, zr, winner, score, comp, extras, role)
    for p in range(n):
        if score[0, p] != comp[0, p, 0] + comp[0, p, 1] + comp[0, p, 2] + comp[0, p, 3]:
            return False
    return True


@njit(cache=True)
def checked_kernel(
    data, n_players, codes, params, seeds, max_steps, corrupt, first_code, first_step, counts,
):  # fmt: skip
    """Play one game per seed; after every step check every invariant (sim/core/check.py)."""
    streams = np.zeros((1 + n_players, 4), np.uint64)
    a = np.zeros(T.STATE_LEN, np.int32)
    b = np.zeros(T.STATE_LEN, np.int32)
    before = np.zeros(T.STATE_LEN, np.int32)
    buf = np.zeros(T.MAX_ACTIONS, np.int32)
    legal = np.zeros(T.MAX_ACTIONS, np.int32)
    listed = np.zeros(S.MAX_ACTIONS, np.int32)
    seats = np.zeros(S.MAX_PLAYERS, np.int64)
    n_game = len(INVARIANTS)
    for g in range(seeds.shape[0]):
        seed_streams(streams, seeds[g])
        init_state(data, n_players, streams[0], a)
        for k in range(1, n_game + 1):
            counts[GAME_BASE + k, 0] += 1
        lengths, flags = fresh_recount(a, data)  # board_recount of a's board, kept
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
            if not found or n < 1:
                err = C_LEGAL
                break
            for i in range(T.STATE_LEN):
                before[i] = a[i]
            step(a, act, data, streams[0], b)
            steps += 1
            if g == corrupt[0] and steps == corrupt[1]:
                b[corrupt[2]] += corrupt[3]
            counts[C_INPUT, 0] += 1
            for i in range(T.STATE_LEN):
                if a[i] != before[i]:
                    err = C_INPUT
            for k in range(1, n_game + 1):
                counts[GAME_BASE + k, 0] += 1
            if err == 0:
                code = transition_check(a, b, data)
                if code == 0:
                    recount_after(a, b, data, seats, lengths, flags, listed)
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
            if a[S.REASON] == T.R_TURN_CAP:
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
