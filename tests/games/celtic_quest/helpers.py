"""Helpers for building Celtic Quest positions by hand and stepping them in tests.

Celtic Quest is played by the Celtic Trader kernels (a Celtic Trader state followed by the quest
block of ``celtic_quest/layout.py``), so these mirror tests/games/celtic_trader/helpers.py on
the fixed map (``map_mode = "fixed"``: the Celtic Trader layout of the catalogue's tiles) unless
a test passes the data of a generated map.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from sim.core.registry import make_setup
from sim.core.rng import seed_stream
from sim.games.celtic_quest import layout as Q
from sim.games.celtic_quest.compile import ITEM_IDS, fixed_graph
from sim.games.celtic_quest.delivery import ring_action
from sim.games.celtic_quest.enchantment import enchant as quest_enchant
from sim.games.celtic_quest.params import load_raw
from sim.games.celtic_quest.play import game_data
from sim.games.celtic_quest.queries import capacity_bonus
from sim.games.celtic_quest.quests import gain_ability
from sim.games.celtic_quest.scoring import components as quest_components
from sim.games.celtic_quest.scoring import score as quest_score
from sim.games.celtic_quest.setup import setup as quest_setup
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.params import (
    O_CARRY_X,
    O_CARRY_Y,
    O_MOVE_VAL,
    O_RULES,
    O_SEC_TILE,
    O_SPOT_RES,
    O_SPOT_SEC,
    R_NSEC,
    R_NSPOT,
    bastion_names,
    resource_names,
)
from sim.games.celtic_trader.rules import legal_actions, step
from sim.games.celtic_trader.setup import setup_state
from sim.games.celtic_trader.turn import begin_turn

RAW = load_raw()
COLUMNS = (1, 2, 4, 6, 8)
FIXED = fixed_graph(COLUMNS)
SEC = {s[0]: i for i, s in enumerate(FIXED.sections)}  # the same ids on every map
TILE = {}  # tile id -> tile index of the fixed map (order of first section)
for _s in FIXED.sections:
    TILE.setdefault(_s[1], len(TILE))
RES = {n: i for i, n in enumerate(resource_names())}
BAS = {n: i for i, n in enumerate(bastion_names())}
QUEST = {q["id"]: i for i, q in enumerate(RAW["quests"])}
DESTINY = {d["id"]: i for i, d in enumerate(RAW["destinies"])}
ITEM = {n: i for i, n in enumerate(ITEM_IDS)}
KIND = {**RES, "roman": S.T_ROMAN, "cycle": S.T_CYCLE, "orders": S.T_ORDERS,
        "romanisation": S.T_ROMANISE, "druid": Q.T_DRUID, "crystal": Q.T_CRYSTAL,
        **{n: Q.T_GOLD + i for n, i in ITEM.items()}}  # fmt: skip
BASIC = tuple(d["id"] for d in RAW["destinies"] if d["tier"] == "basic")
BUF = max(S.BUF_LEN, Q.Q_MAX_ACTIONS)


def rng(seed: int = 1) -> np.ndarray:
    st = np.zeros(4, np.uint64)
    seed_stream(st, np.uint64(seed))
    return st


@lru_cache(maxsize=32)
def _data(players: int, items: tuple) -> np.ndarray:
    params = dict(items)
    params.setdefault("map_mode", "fixed")
    seed = params.pop("map_seed", 0)
    return game_data(make_setup("celtic_quest", players, params, "random"), seed)


def quest_data(players: int = 2, **params) -> np.ndarray:
    """Compiled data of a game (fixed map unless ``map_mode="generated", map_seed=...``); a
    fresh copy, so a test may not change another's."""
    return _data(players, tuple(sorted(params.items()))).copy()


def table(players=2, destinies=None, seed=1, **params):
    """(data, state): the §3 set-up with fixed destinies, before the first turn: what
    ``init_state`` builds before it starts seat 0's turn (quests dealt from a pile shuffled
    with ``seed``)."""
    data = quest_data(players, **params)
    s = np.zeros(Q.QSTATE_LEN, np.int32)
    names = destinies or BASIC[:players]
    fixed = np.array([DESTINY[d] if d is not None else -1 for d in names], np.int64)
    setup_state(data, players, S.ROLES_RANDOM, fixed, s)
    quest_setup(data, players, fixed, rng(seed), s)
    return data, s


def pb(seat: int) -> int:
    return S.pbase(seat)


def qp(seat: int) -> int:
    return Q.QPLAYERS + seat * Q.QPW


def spot(data, sec: str, res: str) -> int:
    for sp in range(data[O_RULES + R_NSPOT]):
        if data[O_SPOT_SEC + sp] == SEC[sec] and data[O_SPOT_RES + sp] == RES[res]:
            return sp
    raise KeyError((sec, res))


def spots_of(data, res: str) -> list[int]:
    return [sp for sp in range(data[O_RULES + R_NSPOT]) if data[O_SPOT_RES + sp] == RES[res]]


def sections_of(data, tile: str) -> list[int]:
    return [sec for sec in range(data[O_RULES + R_NSEC]) if data[O_SEC_TILE + sec] == TILE[tile]]


def moving(s, data, seat, sec, move=0, carry=0, trade=0):
    """A copy of ``s`` where ``seat`` starts its movement phase on ``sec`` (its per-turn item
    counters cleared, its MP those of the engine: Movement plus Horse-type quests)."""
    s = s.copy()
    b = pb(seat)
    s[S.CUR] = seat
    s[S.PHASE] = S.PH_MOVE
    s[b + S.P_POS] = SEC[sec]
    s[b + S.P_FIRST_DONE] = 1
    s[b + S.P_MOVE] = move
    s[b + S.P_CARRY] = carry
    s[b + S.P_TRADE] = trade
    q = qp(seat)
    for f in (Q.QP_SHIELD_USED, Q.QP_RAVEN_USED, Q.QP_BREADS_USED, Q.QP_FREE_PICKS):
        s[q + f] = 0
    s[S.MP] = data[O_MOVE_VAL + move] + s[q + Q.QP_EXTRA_MP]
    s[S.PICKS] = 0
    s[S.MOVE_ENDED] = 0
    return s


def legal(s, data) -> set[int]:
    buf = np.zeros(BUF, np.int32)
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


def bag(s) -> dict[str, int]:
    return {n: int(s[S.BAG + k]) for n, k in KIND.items() if s[S.BAG + k]}


def disc(s) -> dict[str, int]:
    return {n: int(s[S.DISC + k]) for n, k in KIND.items() if s[S.DISC + k]}


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


def pouch(s, seat) -> dict[str, int]:
    q = qp(seat)
    return {n: int(s[q + Q.QP_ITEMS + i]) for n, i in ITEM.items() if s[q + Q.QP_ITEMS + i]}


def set_pouch(s, seat, **items):
    q = qp(seat)
    s[q + Q.QP_ITEMS : q + Q.QP_ITEMS + Q.N_ITEMS] = 0
    for name, k in items.items():
        s[q + Q.QP_ITEMS + ITEM[name]] = k


def hold(s, seat, quest_id: str | None):
    """The seat's one uncompleted quest is ``quest_id`` (None: it holds none)."""
    q = qp(seat)
    s[q + Q.QP_HELD : q + Q.QP_HELD + Q.MAX_HELD] = -1
    if quest_id is not None:
        s[q + Q.QP_HELD] = QUEST[quest_id]


def held(s, seat) -> list[int]:
    q = qp(seat)
    return [int(x) for x in s[q + Q.QP_HELD : q + Q.QP_HELD + Q.MAX_HELD] if x >= 0]


def completed(s, data, seat, *quest_ids):
    """Mark quests completed earlier (face up, printed VP counted at the end, ability on), as
    the engine's completion does."""
    q = qp(seat)
    for name in quest_ids:
        i = QUEST[name]
        s[q + Q.QP_NDONE] += 1
        s[q + Q.QP_DONE_MASK] |= 1 << i
        s[q + Q.QP_QUEST_VP] += data[Q.X_QUEST_VP + i]
        gain_ability(s, data, seat, i)


def capacity(s, data, seat) -> tuple[int, int]:
    """(X, Y) of the seat: its Carrying level plus Pack/Sack-type quests and the elixirs used
    this turn, less the crystals it carries (they take room among the X)."""
    lvl = s[pb(seat) + S.P_CARRY]
    dx, dy = capacity_bonus(s, seat)
    return int(data[O_CARRY_X + lvl] + dx), int(data[O_CARRY_Y + lvl] + dy)


def components(s, data, seat) -> list[int]:
    """[VP box, crystals, quests, destiny] of §6 as the engine scores them."""
    out = np.zeros(4, np.int32)
    total = quest_components(s, data, seat, out)
    assert total == out.sum() == quest_score(s, data, seat)
    return out.tolist()


def to(sec: str) -> int:
    return S.A_SEC + SEC[sec]


def gold_to(sec: str) -> int:
    return Q.A_GOLD + SEC[sec]


def roman_to(sec: str) -> int:
    return Q.A_ROMAN + SEC[sec]


def pick(data, sec: str, res: str) -> int:
    return S.A_SPOT + spot(data, sec, res)


def deliver(res: str, k: int) -> int:
    return S.A_DELIVER + RES[res] * S.MAX_DELIVER + k - 1


def deliver_rings(res: str, k: int, j: int) -> int:
    """Deliver ``k`` tokens of ``res`` spending ``j`` rings (1 <= j <= k)."""
    return ring_action(RES[res] * S.MAX_DELIVER + k - 1, j)


def tile(name: str) -> int:
    return Q.A_TILE + TILE[name]


def enchant(s, data, *tiles):
    """Enchant tiles in place, as a druid or a completed quest does (§4.3)."""
    for name in tiles:
        quest_enchant(s, data, TILE[name])
