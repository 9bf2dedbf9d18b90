"""Building Catan states by hand for the scenario tests, and checking their bookkeeping.

``make_state`` starts from a dealt board (``init_state`` with a fixed seed, so terrain and
numbers are real) and then places what a scenario needs; ``check_books`` verifies the
conservation laws and the counters kept beside the histograms.
"""

import numpy as np

from sim.core.rng import new_streams, seed_streams
from sim.games.catan import params as P
from sim.games.catan import rules
from sim.games.catan import state as S
from sim.games.catan.rules_longest import road_length
from sim.games.catan.rules_shared import victory_points

LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)
FOREST, HILLS, PASTURE, FIELDS, MOUNTAINS, DESERT = range(6)


def data_for(players=4, **overrides):
    return P.compile_data(P.PARAMS.resolve(players, overrides), players)


def rng(seed=1):
    streams = new_streams(1)
    seed_streams(streams, np.uint64(seed))
    return streams[0].copy()


def board(players=4, **overrides):
    return P.boards(P.PARAMS.resolve(players, overrides)["board"])


def play_games(data, players, seeds, decide):
    """Play one game per seed (``derive_game_seeds``), each decision ``decide(a, seat, stream)
    -> action`` (``stream``: the seat's own), stepping into a second state."""
    for seed in seeds:
        streams = np.zeros((1 + players, 4), np.uint64)
        seed_streams(streams, seed)
        a = np.zeros(S.STATE_LEN, np.int32)
        out = np.zeros(S.STATE_LEN, np.int32)
        rules.init_state(data, players, streams[0], a)
        while not rules.is_over(a):
            seat = rules.current_player(a)
            act = decide(a, seat, streams[1 + seat])
            rules.step(a, np.int32(act), data, streams[0], out)
            a, out = out, a


def dealt(data, players, seed=1):
    s = np.zeros(S.STATE_LEN, np.int32)
    rules.init_state(data, players, rng(seed), s)
    return s


def make_state(
    data,
    players=4,
    phase=S.PH_MAIN,
    cur=0,
    seat=None,
    hands=None,
    settlements=None,
    cities=None,
    roads=None,
    dev=None,
    dev_new=None,
    knights=None,
    robber=None,
    harbours=None,
    seed=1,
):
    """A consistent mid-game state on the board dealt by ``seed``. ``hands``: {seat: {res: n}}
    (taken from the bank); ``settlements``/``cities``: {seat: [vertex, ...]};
    ``roads``: {seat: [edge, ...]}; ``dev``/``dev_new``: {seat: {kind: n}} (taken from the
    deck); ``knights``: {seat: n}; ``harbours``: {slot: type} (type 5 = generic)."""
    s = dealt(data, players, seed)
    for slot, t in (harbours or {}).items():
        s[S.SLOT_TYPE + slot] = t
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
            slot = P.table(data, "vertex_slot")[v]
            if slot >= 0:
                s[S.PORTS + p * (S.N_RES + 1) + s[S.SLOT_TYPE + slot]] = 1
    for p, vs in (cities or {}).items():
        for v in vs:
            s[S.V_OWNER + v] = p
            s[S.V_CITY + v] = 1
            s[S.CITIES_LEFT + p] -= 1
            slot = P.table(data, "vertex_slot")[v]
            if slot >= 0:
                s[S.PORTS + p * (S.N_RES + 1) + s[S.SLOT_TYPE + slot]] = 1
    for p, es in (roads or {}).items():
        for e in es:
            s[S.E_OWNER + e] = p
            s[S.ROADS_LEFT + p] -= 1
    for p, row in (hands or {}).items():
        for r, n in row.items():
            s[S.HAND + p * S.N_RES + r] += n
            s[S.BANK + r] -= n
            s[S.HAND_N + p] += n
    for table, base in ((dev, S.DEV), (dev_new, S.DEV_NEW)):
        for p, row in (table or {}).items():
            for d, n in row.items():
                s[base + p * S.N_DEV + d] += n
                s[S.DECK + d] -= n
                s[S.DECK_N] -= n
    for p, n in (knights or {}).items():
        s[S.KNIGHTS + p] = n
        s[S.PLAYED + S.KNIGHT] += n
        s[S.DECK + S.KNIGHT] -= n
        s[S.DECK_N] -= n
    if robber is not None:
        s[S.ROBBER] = robber
    for p in range(players):
        s[S.ROAD_LEN + p] = road_length(s, data, p)
    return s


def check_books(s, data):
    """Cards, pieces and counters are consistent (a subset of the property-test checks)."""
    players = s[S.NP]
    bank = data[P.G_BANK]
    for r in range(S.N_RES):
        held = sum(int(s[S.HAND + p * S.N_RES + r]) for p in range(players))
        assert held + s[S.BANK + r] == bank, f"resource {r}: {held + s[S.BANK + r]} in play"
    for p in range(players):
        assert s[S.HAND_N + p] == s[S.HAND + p * S.N_RES : S.HAND + (p + 1) * S.N_RES].sum()
    assert (s[S.HAND : S.HAND + S.MAX_PLAYERS * S.N_RES] >= 0).all()
    assert (s[S.BANK : S.BANK + S.N_RES] >= 0).all()
    deck = s[S.DECK : S.DECK + S.N_DEV] + s[S.PLAYED : S.PLAYED + S.N_DEV]
    for p in range(players):
        deck += s[S.DEV + p * S.N_DEV : S.DEV + (p + 1) * S.N_DEV]
        deck += s[S.DEV_NEW + p * S.N_DEV : S.DEV_NEW + (p + 1) * S.N_DEV]
    assert (deck == P.table(data, "dev_deck")).all(), "development cards not conserved"
    assert s[S.PLAYED + S.KNIGHT] == s[S.KNIGHTS : S.KNIGHTS + players].sum()
    assert s[S.DECK_N] == s[S.DECK : S.DECK + S.N_DEV].sum()


def legal(s, data):
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    n = rules.legal_actions(s, data, buf)
    return sorted(int(a) for a in buf[:n])


def apply(s, action, data, seed=1):
    """``step`` into a fresh buffer; asserts the action is legal, the input untouched and the
    books balanced."""
    assert int(action) in legal(s, data), f"action {action} is not legal"
    before = s.copy()
    out = np.zeros_like(s)
    rules.step(s, np.int32(action), data, rng(seed), out)
    assert (s == before).all(), "step wrote into its input"
    check_books(out, data)
    return out


def hand(s, seat):
    return s[S.HAND + seat * S.N_RES : S.HAND + (seat + 1) * S.N_RES]


def vp(s, data, seat):
    return int(victory_points(s, data, seat))


def roll(s, data, total):
    """Step ``A_ROLL`` with the first chance seed whose dice sum to ``total``."""
    for seed in range(1, 2000):
        out = np.zeros_like(s)
        rules.step(s, np.int32(S.A_ROLL), data, rng(seed), out)
        if out[S.DICE] == total:
            return apply(s, S.A_ROLL, data, seed)
    raise AssertionError(f"no seed rolls {total}")


def set_hex(s, h, terrain, number):
    s[S.HEX_TERRAIN + h] = terrain
    s[S.HEX_NUMBER + h] = number


def clear_number(s, data, number, keep):
    """Turn every other hex showing ``number`` into a 0 (it no longer produces)."""
    for h in range(data[P.G_N_HEX]):
        if h != keep and s[S.HEX_NUMBER + h] == number:
            s[S.HEX_NUMBER + h] = 0
