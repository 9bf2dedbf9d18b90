"""Building Great Wall states by hand for the scenario tests.

``after_setup`` plays the fortress placement (seat i takes the i-th wall section in play, as
the high roller starts with seat 0) and then the base setup with the random bot, so the state is
a real start of play; the ``put_*`` helpers move riders out of the bag (riders stay conserved)
and ``books`` asserts every invariant of ``menhir check`` on a state.
"""

import numpy as np

from sim.core.rng import new_streams, seed_streams
from sim.games.catan import state as S
from sim.games.catan_great_wall import invariants as I
from sim.games.catan_great_wall import params as P
from sim.games.catan_great_wall import rules
from sim.games.catan_great_wall import state as G
from strategies.catan_great_wall import random_action

LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)
K = G.MAX_NUMERALS
I_, II, III, IV, V_ = range(5)


def data_for(players=4, **overrides):
    return P.compile_data(P.PARAMS.resolve(players, overrides), players)


def rng(seed=1):
    streams = new_streams(1)
    seed_streams(streams, np.uint64(seed))
    return streams[0].copy()


def info(players=4):
    return P.board_for(players)[1]


def wall(players, wid):
    """In-play index of wall section ``wid`` ('W2' ...)."""
    return [w["id"] for w in info(players)["walls"]].index(wid)


def hexid(players, q, r):
    return P.board_for(players)[0].hex_id(q, r)


def vertex(players, q, r, side):
    return P.board_for(players)[0].vertex_id(q, r, side)


def books(s, data):
    code = I.state_check(s, data)
    assert code == 0, I.INVARIANTS[code - 1]


def legal(s, data):
    buf = np.zeros(G.GW_MAX_ACTIONS, np.int32)
    n = rules.legal_actions(s, data, buf)
    return sorted(int(a) for a in buf[:n])


def apply(s, action, data, seed=1, check=True):
    """``step`` into a fresh buffer: the action legal, the input untouched, the books right."""
    assert int(action) in legal(s, data), f"action {action} is not legal"
    before = s.copy()
    out = np.zeros_like(s)
    rules.step(s, np.int32(action), data, rng(seed), out)
    assert (s == before).all(), "step wrote into its input"
    if check:
        books(out, data)
    return out


def roll(s, data, total, check=True):
    """Step ``A_ROLL`` with the first chance seed whose dice sum to ``total``."""
    for seed in range(1, 2000):
        out = np.zeros_like(s)
        rules.step(s, np.int32(S.A_ROLL), data, rng(seed), out)
        if out[S.DICE] == total:
            return apply(s, S.A_ROLL, data, seed, check)
    raise AssertionError(f"no seed rolls {total}")


def fresh(data, players=4, seed=1):
    s = np.zeros(G.GW_STATE_LEN, np.int32)
    rules.init_state(data, players, rng(seed), s)
    return s


def after_fortresses(data, players=4, seed=1):
    s = fresh(data, players, seed)
    for w in range(players):
        s = apply(s, G.A_FORTRESS + w, data)
    return s


def after_setup(data, players=4, seed=1):
    """Fortresses (seat i on wall i) then the base setup played by the random bot."""
    s = after_fortresses(data, players, seed)
    r = rng(seed + 100)
    buf = np.zeros(G.GW_MAX_ACTIONS, np.int32)
    while s[S.PHASE] in (S.PH_SETUP_SETTLE, S.PH_SETUP_ROAD):
        act = random_action(s, data, s[S.SEAT], np.zeros(1), r, buf)
        s = apply(s, act, data)
    return s


def main_phase(s, cur=0):
    """The same state in ``cur``'s trade and build phase (after the roll)."""
    s = s.copy()
    s[S.PHASE] = S.PH_MAIN
    s[S.CUR] = cur
    s[S.SEAT] = cur
    return s


def pre_roll(s, cur=0):
    s = main_phase(s, cur)
    s[S.PHASE] = S.PH_PRE_ROLL
    return s


def put_territory(s, t, n, numeral=None):
    """``n`` riders of ``numeral`` (default: the territory's own) from the bag onto ``t``."""
    k = t if numeral is None else numeral
    assert s[G.BAG + k] >= n
    s[G.BAG + k] -= n
    s[G.TERR + t * K + k] += n


def put_field(s, w, n, numeral=I_):
    assert s[G.BAG + numeral] >= n
    s[G.BAG + numeral] -= n
    s[G.FIELD + w * K + numeral] += n


def put_hex(s, h, n=1, numeral=I_):
    assert s[G.BAG + numeral] >= n
    s[G.BAG + numeral] -= n
    s[G.HEX_R + h * K + numeral] += n
    s[G.HEX_RIDERS + h] += n
    s[G.HEX_EVER + h] = 1


def riders_on(s, h):
    return int(s[G.HEX_RIDERS + h])


def field(s, w):
    return int(s[G.FIELD + w * K : G.FIELD + (w + 1) * K].sum())


def territory(s, t):
    return int(s[G.TERR + t * K : G.TERR + (t + 1) * K].sum())


def bag(s):
    return int(s[G.BAG : G.BAG + K].sum())


def give(s, seat, cards):
    """Cards {resource: n} from the bank to ``seat``."""
    for r, n in cards.items():
        s[S.HAND + seat * S.N_RES + r] += n
        s[S.BANK + r] -= n
        s[S.HAND_N + seat] += n


def hand(s, seat):
    return s[S.HAND + seat * S.N_RES : S.HAND + (seat + 1) * S.N_RES].copy()


def vp(s, data, seat):
    return int(rules.victory_points(s, data, seat))
