"""A readable log of one Celtic Trader game, replayed with the same compiled kernels.

Each action is written as the deciding seat's choice; what the rules did on their own in the
same step (tokens drawn, automatic placements, conquests, payments, end of turn) is read from the
difference between the state before and after, so the trace cannot drift from the rules.
"""

from __future__ import annotations

import numpy as np

from sim.core.results import ChunkResult
from sim.core.rng import seed_streams
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.decisions import DECISION_KINDS, decision_kind
from sim.games.celtic_trader.params import (
    CAP_NAMES,
    O_RULES,
    O_SPOT_RES,
    O_SPOT_SEC,
    R_NSEC,
    R_NSPOT,
    ROLE_IDS,
    bastion_names,
    resource_names,
    section_names,
)
from sim.games.celtic_trader.play import game_data, role_mode_of, write_results
from sim.games.celtic_trader.rules import current_player, init_state, is_over, step
from strategies.celtic_trader import choose_action

END_NAMES = ("all_conquered", "supply_exhausted", "turn_limit", "turn_cap")


def _kind_names() -> list[str]:
    return [*resource_names(), "Roman", "cycle", "orders", "Romanisation"]


def describe_action(state: np.ndarray, action: int) -> str:
    """The decision ``action`` taken in ``state``, in words."""
    sec, res, bas = section_names(), resource_names(), bastion_names()
    kinds = _kind_names()
    ph = int(state[S.PHASE])
    pb = S.pbase(int(state[S.CUR]))
    if ph == S.PH_MOVE:
        if action == S.A_PASS:
            return "ends movement"
        if action < S.A_SPOT:
            return f"moves to {sec[action - S.A_SEC]}"
        if action < S.A_BAST:
            return f"picks up {res[_spot_res(action - S.A_SPOT)]}"
        return f"discards {res[action - S.A_DISCARD]}"
    if ph == S.PH_DELIVER:
        if action == S.A_PASS:
            return "delivers nothing more"
        a = action - S.A_DELIVER
        return f"delivers {a % 3 + 1} {res[a // 3]}"
    if ph == S.PH_UPGRADE:
        if action == S.A_PASS:
            return "buys no more upgrades"
        c = action - S.A_UPGRADE
        return f"upgrades {CAP_NAMES[c]} to level {int(state[pb + S.P_MOVE + c]) + 1}"
    if ph == S.PH_CLAIM:
        if action == S.A_PASS:
            return "claims no VP"
        return f"claims {action - S.A_CLAIM} VP"
    if ph == S.PH_ORDER:
        return f"resolves the {kinds[int(state[S.PENDING + action - S.A_ORDER])]} token first"
    if ph == S.PH_SPOT:
        sp = action - S.A_SPOT
        return f"places the {res[_spot_res(sp)]} token on {sec[_spot_sec(sp)]}"
    if ph == S.PH_RAISE:
        return f"raises {res[int(state[S.TOKEN])]} demand at {bas[action - S.A_BAST]}"
    if ph == S.PH_ROMAN:
        return f"places the Roman on {sec[action - S.A_SEC]}"
    if ph == S.PH_RELOCATE:
        if action == S.A_PASS:
            return "leaves the Roman on its section"
        return f"moves the Roman from its section to {sec[action - S.A_SEC]}"
    if ph == S.PH_ORDERS:
        return f"orders: removes the Roman from {sec[action - S.A_SEC]}"
    if ph == S.PH_ROMANISE:
        return f"Romanisation: chooses {bas[action - S.A_BAST]}"
    if ph == S.PH_START:
        return f"starts on {sec[action - S.A_SEC]}"
    if ph == S.PH_ROLE:
        return f"takes the role {ROLE_IDS[action - S.A_ROLE]} (open draft)"
    return f"action {action}"


_DATA_CACHE: dict = {}


def _spot_res(sp: int) -> int:
    return int(_DATA_CACHE["data"][O_SPOT_RES + sp])


def _spot_sec(sp: int) -> int:
    return int(_DATA_CACHE["data"][O_SPOT_SEC + sp])


def describe_changes(before: np.ndarray, after: np.ndarray) -> list[str]:
    """What the rules did in one step besides the chosen action, from the state difference."""
    sec, res, bas = section_names(), resource_names(), bastion_names()
    kinds = _kind_names()
    data = _DATA_CACHE["data"]
    out: list[str] = []
    cols = (1, 2, 4, 6, 8)
    for seat in range(int(before[S.NP])):
        pb = S.pbase(seat)
        rp = int(after[pb + S.P_RP] - before[pb + S.P_RP])
        if rp > 0:
            out.append(f"seat {seat} gains {rp} RP (RP {after[pb + S.P_RP]})")
        tens = int(after[pb + S.P_TENS] - before[pb + S.P_TENS])
        if tens:
            out.append(f"seat {seat} exchanges 10 points for a '+10' marker")
    if after[S.TURNS] != before[S.TURNS] and not after[S.OVER]:
        out.append(f"round {after[S.ROUND]}, seat {after[S.CUR]}")
    for seat in range(int(before[S.NP])):
        pb = S.pbase(seat)
        if before[pb + S.P_ROLE] < 0 <= after[pb + S.P_ROLE]:
            out.append(f"seat {seat} takes the role {ROLE_IDS[after[pb + S.P_ROLE]]}")
    new = int(after[S.DRAWS_TOTAL] - before[S.DRAWS_TOTAL])
    if new > 0:
        end = int(after[S.N_DRAWN_LOG])
        names = [kinds[k] for k in after[S.DRAWN_LOG + max(0, end - new) : S.DRAWN_LOG + end]]
        out.append(f"seat {after[S.CUR]} draws {', '.join(names)}")
    for sp in range(int(data[O_RULES + R_NSPOT])):
        if before[S.SPOT + sp] == 0 and after[S.SPOT + sp] == 1:
            out.append(f"{res[data[O_SPOT_RES + sp]]} token placed on {sec[data[O_SPOT_SEC + sp]]}")
    for s in range(int(data[O_RULES + R_NSEC])):
        if before[S.ROMAN + s] == 0 and after[S.ROMAN + s] == 1:
            out.append(f"Roman on {sec[s]}")
        elif before[S.ROMAN + s] == 1 and after[S.ROMAN + s] == 0:
            out.append(f"Roman leaves {sec[s]}")
    for b in range(6):
        if before[S.CONQ + b] == 0 and after[S.CONQ + b] == 1:
            out.append(f"{bas[b]} is Romanised")
            continue
        for r in range(6):
            i = S.DEMAND + b * 6 + r
            if before[i] != after[i]:
                out.append(f"{bas[b]} {res[r]} demand {cols[before[i]]} -> {cols[after[i]]}")
    if before[S.TRIGGER] == 0 and after[S.TRIGGER] == 1:
        out.append("the RP/VP supply is exhausted: the game ends after this turn")
    return out


def map_lines(setup, seed: int) -> list[str]:
    """The generated map of a game: its layout (tile, position, rotation) and face-down tokens."""
    from sim.games.celtic_trader.mapmode import game_map

    built, graph = game_map(setup.players, seed)
    tiles = ", ".join(f"{p.tile} ({p.q},{p.r}) r{p.rotation}" for p in built.layout)
    off = ", ".join(f"{r} on {s}" for s, r in graph.unconnected_spots) or "none"
    return [f"map: generated in {built.builds} build(s): {tiles}", f"face-down tokens: {off}"]


def trace(setup, seed: int) -> tuple[list[str], ChunkResult]:
    """Play one game (the same game the compiled loop plays for ``seed``) and log it."""
    data = game_data(setup, seed)
    _DATA_CACHE["data"] = data
    codes, values = setup.bot_arrays()
    mode, fixed = role_mode_of(setup)
    streams = np.zeros((1 + setup.players, 4), np.uint64)
    seed_streams(streams, np.uint64(seed % 2**64))
    a = np.zeros(S.STATE_LEN, np.int32)
    b = np.zeros(S.STATE_LEN, np.int32)
    buf = np.zeros(S.BUF_LEN, np.int32)
    init_state(data, setup.players, mode, fixed, streams[0], a)
    lines = [
        f"Celtic Trader, {setup.players} players, seed {seed}, bots "
        + ", ".join(str(x) for x in setup.bots)
    ]
    kinds = _kind_names()
    counts = np.zeros((setup.players, len(DECISION_KINDS)), np.int32)
    before = a.copy()  # the setup itself, without the first seat's role pick and draws
    before[S.TURNS] = -1
    before[S.DRAWS_TOTAL] = 0
    for s in range(setup.players):
        before[S.pbase(s) + S.P_ROLE] = -1
    for k in range(int(a[S.N_DRAWN_LOG])):
        before[S.BAG + a[S.DRAWN_LOG + k]] += 1
    bag = ", ".join(
        f"{before[S.BAG + k]} {kinds[k]}" for k in range(S.N_KINDS) if before[S.BAG + k]
    )
    if setup.params.get("map_mode") == "generated":
        lines += map_lines(setup, seed)
    lines.append(f"setup: 18 resources on the map; bag: {bag}")
    lines += [f"  {x}" for x in describe_changes(before, a)]
    while not is_over(a):
        seat = current_player(a)
        act = int(choose_action(a, data, seat, codes[seat], values[seat], streams[1 + seat], buf))
        lines.append(f"  seat {seat} {describe_action(a, act)}")
        counts[seat, decision_kind(a, act)] += 1
        step(a, act, data, streams[0], b)
        lines += [f"  {x}" for x in describe_changes(a, b)]
        a, b = b, a
    res = ChunkResult.empty(1, setup.players, 2, n_kinds=len(DECISION_KINDS))
    res.actions[0] = counts
    write_results(a, data, 0, res.rounds, res.turns, res.end_reason, res.score,
                  res.components, res.role)  # fmt: skip
    scores = ", ".join(
        f"seat {s} {res.score[0, s]} ({res.components[0, s, 0]} VP + "
        f"{res.components[0, s, 1]} role)"
        for s in range(setup.players)
    )
    lines.append(f"final: {scores}")
    lines.append(f"end: {END_NAMES[a[S.REASON]]} after {a[S.ROUND]} rounds, {a[S.TURNS]} turns")
    return lines, res
