"""Helpers for building Celtic Trader positions by hand and stepping them in tests."""

from functools import lru_cache

import numpy as np

from sim.core.rng import seed_stream
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.params import (
    O_CARRY_X,
    O_MOVE_VAL,
    O_SPOT_RES,
    O_SPOT_SEC,
    ROLE_IDS,
    bastion_names,
    default_data,
    resource_names,
    section_names,
)
from sim.games.celtic_trader.rules import legal_actions, step
from sim.games.celtic_trader.setup import setup_state
from sim.games.celtic_trader.turn import begin_turn

SEC = {n: i for i, n in enumerate(section_names())}
RES = {n: i for i, n in enumerate(resource_names())}
BAS = {n: i for i, n in enumerate(bastion_names())}
ROLE = {r: i for i, r in enumerate(ROLE_IDS)}
KIND = {**RES, "roman": S.T_ROMAN, "cycle": S.T_CYCLE, "orders": S.T_ORDERS,
        "romanisation": S.T_ROMANISE}  # fmt: skip
COLUMNS = (1, 2, 4, 6, 8)


def rng(seed: int = 1) -> np.ndarray:
    st = np.zeros(4, np.uint64)
    seed_stream(st, np.uint64(seed))
    return st


def table(players=2, roles=None, **params):
    """(data, state): the §3 set-up with fixed roles, before the first turn."""
    data = default_data(players, **params)
    s = np.zeros(S.STATE_LEN, np.int32)
    roles = roles or ROLE_IDS[:players]
    fixed = np.array([ROLE[r] for r in roles], np.int64)
    setup_state(data, players, S.ROLES_FIXED, fixed, s)
    return data, s


def pb(seat: int) -> int:
    return S.pbase(seat)


@lru_cache(maxsize=1)
def _data2():
    return default_data(2)


def spot(sec: str, res: str) -> int:
    data = _data2()
    for sp in range(24):
        if data[O_SPOT_SEC + sp] == SEC[sec] and data[O_SPOT_RES + sp] == RES[res]:
            return sp
    raise KeyError((sec, res))


def spots_of(res: str) -> list[int]:
    data = _data2()
    return [sp for sp in range(24) if data[O_SPOT_RES + sp] == RES[res]]


def moving(s, data, seat, sec, move=0, carry=0, trade=0):
    """A copy of ``s`` where ``seat`` starts its movement phase on ``sec``."""
    s = s.copy()
    b = pb(seat)
    s[S.CUR] = seat
    s[S.PHASE] = S.PH_MOVE
    s[b + S.P_POS] = SEC[sec]
    s[b + S.P_FIRST_DONE] = 1
    s[b + S.P_MOVE] = move
    s[b + S.P_CARRY] = carry
    s[b + S.P_TRADE] = trade
    s[S.MP] = data[O_MOVE_VAL + move]
    s[S.PICKS] = 0
    s[S.MOVE_ENDED] = 0
    return s


def legal(s, data) -> set[int]:
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    n = legal_actions(s, data, buf)
    return set(buf[:n].tolist())


def act(s, data, action, seed=1):
    """Step a legal action (checked) and return the new state; the input is left unchanged."""
    assert action in legal(s, data), f"action {action} not legal in phase {s[S.PHASE]}"
    before = s.copy()
    out = np.empty_like(s)
    step(s, action, data, rng(seed), out)
    assert np.array_equal(before, s)
    return out


def start_turn(s, data, seat, seed=1):
    """A copy of ``s`` where ``seat``'s turn has just begun (played on to its first decision)."""
    s = s.copy()
    s[S.CUR] = seat
    begin_turn(s, data, rng(seed))
    return s


def set_bag(s, **counts):
    s[S.BAG : S.BAG + S.N_KINDS] = 0
    for name, k in counts.items():
        s[S.BAG + KIND[name]] = k


def demand(s, bastion, res) -> int:
    return COLUMNS[s[S.DEMAND + BAS[bastion] * 6 + RES[res]]]


def set_demand(s, bastion, res, value):
    s[S.DEMAND + BAS[bastion] * 6 + RES[res]] = COLUMNS.index(value)


def carry(s, seat, **tokens):
    b = pb(seat)
    for name, k in tokens.items():
        s[b + S.P_CARRIED + RES[name]] = k
    s[b + S.P_NCARRY] = int(s[b + S.P_CARRIED : b + S.P_CARRIED + 6].sum())


def carried(s, seat) -> dict[str, int]:
    b = pb(seat)
    return {n: int(s[b + S.P_CARRIED + i]) for n, i in RES.items() if s[b + S.P_CARRIED + i]}


def x_max(data, s, seat):
    return int(data[O_CARRY_X + (s[pb(seat) + S.P_CARRY])])


MOVE = S.A_SEC  # + section
PICK = S.A_SPOT  # + spot


def to(sec: str) -> int:
    return S.A_SEC + SEC[sec]


def pick(sec: str, res: str) -> int:
    return S.A_SPOT + spot(sec, res)


def deliver(res: str, k: int) -> int:
    return S.A_DELIVER + RES[res] * S.MAX_DELIVER + k - 1
