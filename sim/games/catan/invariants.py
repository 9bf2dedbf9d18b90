"""Catan invariants, checked after every step by ``menhir check`` and the property tests.

``state_check`` is the state's own validator: every resource card in a hand or the bank (and
the hand-size counters right); nothing negative; the pieces on the board match the supply and
stay within the limits; the distance rule; every road connected to its owner's network; the
development cards all somewhere; the Largest Army and Longest Road holders consistent with
the Knights and road lengths (and each road length its recount); the VP equal a recount from
the board; the fast road enumeration equals the plain rule; a VP-target end has the active
player at the target; a pending domestic offer consistent (trade.py). ``transition_check``: a
building or road never leaves the board, and a city stays its owner's; a step answering,
taking or cancelling a domestic offer leaves the bank alone and changes the hands of the
proposer and at most one other seat (resources are conserved by the first invariant).
``checked`` is the compiled checked loop (sim/core/check.py).

The costly checks read only the owners of the vertices and edges (``board_recount``): each
seat's longest road recount, the road enumeration, the distance rule and the roads' connection.
The checked loop redoes them only after a step that changed one of those cells
(``board_changes``: about 1 step in 20 in random games), the longest road only for the seats it
may concern, and otherwise compares the state with the results kept from the last change: the
checks are the same, since the same board gives the same results. ``state_check`` does both
parts on any state.
"""

import numpy as np
from numba import njit

from sim.core.check import C_CAPPED, C_ENDS, C_INPUT, C_LEGAL, C_SCORE, GAME_BASE, GENERIC
from sim.core.rng import seed_streams
from sim.core.split_compile import checked_halves, prepare
from sim.games.catan import params as P
from sim.games.catan import state as S
from sim.games.catan.params import compile_data
from sim.games.catan.play import write_results
from sim.games.catan.rules import current_player, init_state, is_over, legal_actions, step
from sim.games.catan.rules_longest import road_length
from sim.games.catan.rules_placement import road_edges, road_ok
from sim.games.catan.rules_shared import victory_points
from sim.games.catan.trade import offer_get, offer_give
from strategies.catan import choose_action, choose_plain, greedy_action, random_action
from strategies.search import checked_loop

INVARIANTS = (
    "resource cards conserved",
    "hand-size counters right",
    "nothing negative",
    "pieces match the supply, within the limits",
    "distance rule holds",
    "every road connected to its owner's network",
    "development cards conserved",
    "largest army holder right",
    "longest road holder right",
    "road length counter right",
    "VP recount equals the state",
    "road enumeration equals the plain rule",
    "a VP-target end has the active player at the target",
    "buildings and roads never leave the board",
    "a pending domestic offer is consistent",
    "a domestic trade moves cards between the proposer and one seat only",
)
(
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
    E_ROAD_SET,
    E_WINNER,
    E_BOARD_LEFT,
    E_OFFER,
    E_TRADE,
) = range(1, len(INVARIANTS) + 1)
OK = 0
N_ROWS = 1 + len(GENERIC) + len(INVARIANTS)


# What ``board_recount`` finds (``flags``), kept by the checked loop until the board changes
F_ENUMERATION, F_DISTANCE, F_CONNECTED = range(3)


@njit(cache=True)
def board_recount(s, data, seats, lengths, flags, listed):
    """The part of the validator that reads only the board (``NP``, ``V_OWNER``, ``E_OWNER``):
    the longest road of each seat ``p`` with ``seats[p]`` set recounted into ``lengths[p]``;
    ``flags``: the fast road enumeration lists exactly the edges the plain rule allows (every
    seat), the distance rule holds, every road touches its owner's network (``listed``:
    scratch of ``MAX_ACTIONS``)."""
    n = s[S.NP]
    enumeration_right = True
    for p in range(n):
        if seats[p]:
            roads = 0
            for e in range(data[P.G_N_EDGE]):
                if s[S.E_OWNER + e] == p:
                    roads += 1
            # more roads than any supply holds breaks "pieces match the supply" first; the
            # search stack of road_length is sized for the supply: not run on such a state
            lengths[p] = road_length(s, data, p) if roads <= S.MAX_ROADS else -1
        if enumeration_right:
            k = road_edges(s, data, p, listed, 0, False)
            allowed = 0
            for e in range(data[P.G_N_EDGE]):
                if road_ok(s, data, p, e):
                    allowed += 1
            if k != allowed:
                enumeration_right = False
            for i in range(k):
                if not road_ok(s, data, p, listed[i] - S.A_ROAD):
                    enumeration_right = False
    flags[F_ENUMERATION] = enumeration_right
    # distance rule
    distance_right = True
    for v in range(data[P.G_N_VERT]):
        if s[S.V_OWNER + v] < 0:
            continue
        for k in range(3):
            w = data[P.D_VERTEX_VERTICES + 3 * v + k]
            if w >= 0 and s[S.V_OWNER + w] >= 0:
                distance_right = False
    flags[F_DISTANCE] = distance_right
    # every road touches its owner's building, or its owner's road at a vertex it may pass
    connected = True
    for e in range(data[P.G_N_EDGE]):
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
            connected = False
    flags[F_CONNECTED] = connected


@njit(cache=True)
def board_changes(a, b, data, seats):
    """Did the step from ``a`` to ``b`` change what ``board_recount`` reads? Sets ``seats[p]``
    for each seat whose longest road may differ: every seat if a building or the seat count
    changed, else the old and new owner of each changed edge (a seat's recount reads only its
    own roads and the buildings)."""
    n = b[S.NP]
    changed = a[S.NP] != n
    for v in range(data[P.G_N_VERT]):
        if a[S.V_OWNER + v] != b[S.V_OWNER + v]:
            changed = True
            break
    if changed:
        for p in range(S.MAX_PLAYERS):
            seats[p] = 1
        return True
    for e in range(data[P.G_N_EDGE]):
        before = a[S.E_OWNER + e]
        after = b[S.E_OWNER + e]
        if before != after:
            changed = True
            if 0 <= before < S.MAX_PLAYERS:
                seats[before] = 1
            if 0 <= after < S.MAX_PLAYERS:
                seats[after] = 1
    return changed


@njit(cache=True)
def recount_after(a, b, data, seats, lengths, flags, listed):
    """Bring the kept ``board_recount`` results (``lengths``, ``flags``) from ``a``'s board to
    ``b``'s, recounting only if the step from ``a`` to ``b`` changed the board, and the longest
    road only for the seats it may concern (``seats``: scratch)."""
    seats[:] = 0
    if board_changes(a, b, data, seats):
        board_recount(b, data, seats, lengths, flags, listed)


@njit(cache=True)
def fresh_recount(s, data):
    """``board_recount`` of every seat on ``s``'s board: (``lengths``, ``flags``)."""
    seats = np.ones(S.MAX_PLAYERS, np.int64)
    lengths = np.zeros(S.MAX_PLAYERS, np.int64)
    flags = np.zeros(3, np.int64)
    listed = np.zeros(S.MAX_ACTIONS, np.int32)
    board_recount(s, data, seats, lengths, flags, listed)
    return lengths, flags


@njit(cache=True)
def state_check(s, data):
    """0, or the number (1-based, ``INVARIANTS``) of the first invariant ``s`` breaks."""
    lengths, flags = fresh_recount(s, data)
    return ledger_check(s, data, lengths, flags)


@njit(cache=True)
def ledger_check(s, data, lengths, flags):
    """``state_check`` given the results of ``board_recount`` on ``s``'s board (the same
    invariants, in the same order)."""
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
    # pieces (one pass over the board, counted per seat)
    pieces_of = np.zeros((3, S.MAX_PLAYERS), np.int64)  # roads, settlements, cities
    for e in range(r[P.G_N_EDGE]):
        o = s[S.E_OWNER + e]
        if 0 <= o < n:
            pieces_of[0, o] += 1
    for v in range(r[P.G_N_VERT]):
        o = s[S.V_OWNER + v]
        if 0 <= o < n:
            pieces_of[2 if s[S.V_CITY + v] else 1, o] += 1
    for p in range(n):
        roads = pieces_of[0, p]
        settl = pieces_of[1, p]
        cities = pieces_of[2, p]
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
        if r[P.G_EXTRA_VP] >= 0:  # scenario hook: e.g. Great Wall penalty tokens
            vp += s[r[P.G_EXTRA_VP] + p]
        if vp != victory_points(s, data, p):
            return E_VP
        if s[S.ROAD_LEN + p] != lengths[p]:
            return E_ROAD_LEN
    if not flags[F_DISTANCE]:
        return E_DISTANCE
    if not flags[F_CONNECTED]:
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
    if not flags[F_ENUMERATION]:
        return E_ROAD_SET
    # a VP-target end: the active player reached the target on his own turn
    if s[S.OVER] and s[S.REASON] == S.R_VP_TARGET:
        w = s[S.WINNER]
        if w != s[S.CUR] or victory_points(s, data, w) < r[P.G_VP_TARGET]:
            return E_WINNER
    return offer_check(s, data)


@njit(cache=True)
def offer_check(s, data):
    """0, or ``E_OFFER``: outside PH_TRADE no offer is pending; in it the offer is one of the
    model's (never a resource for itself), domestic trade is on, the proposer is the active
    player and has not accepted his own offer; offers this turn within the bound."""
    if s[S.OFFERS_MADE] < 0 or s[S.OFFERS_MADE] > data[P.G_OFFERS_PER_TURN]:
        return E_OFFER
    if s[S.PHASE] != S.PH_TRADE:
        return OK if s[S.OFFER] == 0 and s[S.ACCEPTS] == 0 else E_OFFER
    offer = s[S.OFFER]
    if data[P.G_DOMESTIC] == 0 or not (S.A_OFFER <= offer < S.A_ACCEPT):
        return E_OFFER
    if offer_give(offer) == offer_get(offer):
        return E_OFFER
    if (s[S.ACCEPTS] >> s[S.CUR]) & 1 or s[S.ACCEPTS] >= (1 << s[S.NP]):
        return E_OFFER
    return OK


@njit(cache=True)
def transition_check(before, after, data):
    """0, or ``E_BOARD_LEFT`` if a building or road left the board or changed owner, or a city
    became a settlement again."""
    for v in range(data[P.G_N_VERT]):
        if before[S.V_OWNER + v] >= 0 and (
            after[S.V_OWNER + v] != before[S.V_OWNER + v]
            or after[S.V_CITY + v] < before[S.V_CITY + v]
        ):
            return E_BOARD_LEFT
    for e in range(data[P.G_N_EDGE]):
        if before[S.E_OWNER + e] >= 0 and after[S.E_OWNER + e] != before[S.E_OWNER + e]:
            return E_BOARD_LEFT
    if before[S.PHASE] == S.PH_TRADE:  # an answer, a pick or a cancel: no card to the bank
        for r in range(S.N_RES):
            if after[S.BANK + r] != before[S.BANK + r]:
                return E_TRADE
        changed = 0
        for p in range(before[S.NP]):
            for r in range(S.N_RES):
                if after[S.HAND + p * S.N_RES + r] != before[S.HAND + p * S.N_RES + r]:
                    if p != before[S.CUR]:
                        changed += 1
                    break
        if changed > 1:
            return E_TRADE
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
    extras = np.zeros((1, n, 4), np.int32)
    write_results(s, data, 0, z, z, zr, winner, score, comp, extras)
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
    a = np.zeros(S.STATE_LEN, np.int32)
    b = np.zeros(S.STATE_LEN, np.int32)
    before = np.zeros(S.STATE_LEN, np.int32)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    legal = np.zeros(S.MAX_ACTIONS, np.int32)
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
            if a[S.REASON] == S.R_TURN_CAP:
                err = C_CAPPED
        first_code[g] = err
        first_step[g] = steps
        if err != 0:
            counts[err, 1] += 1


def compile_halves(args, search):
    """The checked loop's kernels in two halves (sim/core/split_compile.py)."""
    data, n_players, _, params, *_ = args
    return checked_halves(
        data, n_players, params, [greedy_action, random_action], init_state, (), step
    )


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
