"""Building Troy states by hand for the scenario tests, and stepping them with the books checked.

``make_state`` starts from the dealt Troy board (``init_state`` with a fixed seed) and places
what a scenario needs; ``apply`` steps one legal action into a fresh buffer and checks that the
input is untouched and every invariant of ``menhir check`` holds after it.
"""

import numpy as np

from sim.core.rng import new_streams, seed_streams
from sim.games.catan import state as S
from sim.games.catan.rules_longest import road_length
from sim.games.catan_troy import params as P
from sim.games.catan_troy import rules
from sim.games.catan_troy import state as T
from sim.games.catan_troy.invariants import INVARIANTS, state_check

LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)


def data_for(players=4, **overrides):
    return P.compile_data(P.PARAMS.resolve(players, overrides), players)


def rng(seed=1):
    streams = new_streams(1)
    seed_streams(streams, np.uint64(seed))
    return streams[0].copy()


def board(players=4, harbours="none"):
    return P.boards(players, harbours)


def vertex(players, q, r, side):
    return board(players).vertex_id(q, r, side)


def sea(players, q, r):
    return P.sea_hexes(players).index((q, r))


def make_state(
    data, players=4, phase=S.PH_MAIN, cur=0, seat=None, hands=None, settlements=None,
    cities=None, roads=None, sides=None, tokens=None, ships=None, row=None, track=None,
    sea_people=None, seed=1,
):  # fmt: skip
    """A consistent mid-game state on the Troy board.

    ``hands``: {seat: {res: n}} (from the bank); ``settlements``/``cities``: {seat: [vertex]};
    ``roads``: {seat: [edge]}; ``sides``: {seat: 0 Troy or 1 Mycenae}; ``tokens``: {seat: n}
    (as if earned by n one-card donations); ``ships``: {seat: [sea hex]} built in stack order;
    ``row``: {res: n} the support row (the initial row goes back to the bank first);
    ``track``: (Troy, Mycenae) battles won."""
    s = np.zeros(T.STATE_LEN, np.int32)
    rules.init_state(data, players, rng(seed), s)
    s[S.PHASE] = phase
    s[S.CUR] = cur
    s[S.SEAT] = cur if seat is None else seat
    s[S.ROUND] = 1
    s[S.TURNS] = 1
    s[S.SETUP_STEP] = 2 * players
    for p, vs in (settlements or {}).items():
        for v in vs:
            s[S.V_OWNER + v] = p
            s[S.SETTLE_LEFT + p] -= 1
    for p, vs in (cities or {}).items():
        for v in vs:
            s[S.V_OWNER + v] = p
            s[S.V_CITY + v] = 1
            s[S.CITIES_LEFT + p] -= 1
    for p, row_p in (hands or {}).items():
        for r, n in row_p.items():
            s[S.HAND + p * S.N_RES + r] += n
            s[S.BANK + r] -= n
            s[S.HAND_N + p] += n
    for p, c in (sides or {}).items():
        s[T.SIDE + p] = c
    for p, n in (tokens or {}).items():
        s[T.TOKENS + p] += n
        s[T.GIFTS + p] += n
        s[T.DONATED + p] += n
        for _ in range(n):  # the donated cards: one brick each, into the row
            s[S.BANK + BRICK] -= 1
            s[T.ROW + BRICK] += 1
            s[T.ROW_N] += 1
    stack = P.table(data, "stack")
    for p, ws in (ships or {}).items():
        for w in ws:
            kind = int(stack[s[T.SHIPS_BUILT + p]])
            s[T.SEA_OWNER + w] = p
            s[T.SEA_KIND + w] = kind
            s[T.SHIPS_BUILT + p] += 1
            s[T.GIFTS + p] += 2  # the tokens it cost, earned by two donations
            s[T.DONATED + p] += 2
            s[S.BANK + BRICK] -= 2
            s[T.ROW + BRICK] += 2
            s[T.ROW_N] += 2
    if row is not None:
        for r in range(S.N_RES):
            s[S.BANK + r] += s[T.ROW + r]
            s[T.ROW + r] = 0
        s[T.ROW_N] = 0
        for r, n in row.items():
            s[S.BANK + r] -= n
            s[T.ROW + r] += n
            s[T.ROW_N] += n
    if track is not None:
        s[T.TRACK], s[T.TRACK + 1] = track
        s[T.BATTLES] = sum(track)
    if sea_people is not None:
        s[T.SEA_PEOPLE] = sea_people
    for p, es in (roads or {}).items():
        for e in es:
            s[S.E_OWNER + e] = p
            s[S.ROADS_LEFT + p] -= 1
    for p in range(players):
        s[S.ROAD_LEN + p] = road_length(s, data, p)
    rules.refresh_ports(s, data)
    return s


def legal(s, data):
    buf = np.zeros(T.MAX_ACTIONS, np.int32)
    n = rules.legal_actions(s, data, buf)
    return sorted(int(a) for a in buf[:n])


def check(s, data):
    code = state_check(s, data)
    assert code == 0, f"invariant broken: {INVARIANTS[code - 1]}"


def apply(s, action, data, seed=1):
    """``step`` into a fresh buffer; asserts the action is legal, the input untouched and
    every invariant holding after it."""
    assert int(action) in legal(s, data), f"action {action} is not legal"
    before = s.copy()
    out = np.zeros_like(s)
    rules.step(s, np.int32(action), data, rng(seed), out)
    assert (s == before).all(), "step wrote into its input"
    check(out, data)
    return out


def hand(s, seat):
    return s[S.HAND + seat * S.N_RES : S.HAND + (seat + 1) * S.N_RES]


def row(s):
    return s[T.ROW : T.ROW + S.N_RES]


def vp(s, data, seat):
    return int(rules.victory_points(s, data, seat))


def spread(players, n, avoid=()):
    """``n`` vertices of the board, pairwise apart (the distance rule), none next to ``avoid``."""
    b = board(players)
    taken = list(avoid)
    out = []
    for v in range(b.n_vertices):
        near = {int(w) for w in b.vertex_vertices[v] if w >= 0} | {v}
        if not near & set(taken):
            out.append(v)
            taken.append(v)
            if len(out) == n:
                return out
    raise AssertionError("board too small")


def edge(players, a, b_):
    return board(players).edge_id(a, b_)
