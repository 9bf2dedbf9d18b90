"""Catan: Troy readable trace: one game replayed with the same kernels and streams as the chunk
loop. Base events (placements, rolls, production, discards, builds, trades, steals, Longest
Road) are described by the base game's trace (sim/games/catan/trace.py); the scenario adds the
decision cards, donations, commerce tokens, ships and their advantages, the Sea People, the
battles for Troy with the cards they counted, the event track and its end.

The trace is the designer's view, not a player's: it shows the hidden decision cards and the
cards given to, taken from and counted in the support row.
"""

import numpy as np

from sim.core.results import ChunkResult
from sim.core.rng import new_streams, seed_streams
from sim.games.catan import state as S
from sim.games.catan.trace import _event as base_event
from sim.games.catan.trace import _Names
from sim.games.catan_troy import state as T
from sim.games.catan_troy.decisions import DECISION_KINDS, decision_kind
from sim.games.catan_troy.params import (
    boards,
    compile_data,
    kind_names,
    load_raw,
    resource_names,
    sea_hexes,
    side_names,
)
from sim.games.catan_troy.play import PLAYER_EXTRAS, SCORE_COMPONENTS, finish, write_results
from sim.games.catan_troy.rules import current_player, init_state, is_over, step, victory_points
from strategies.catan_troy import choose_action, choose_plain
from strategies.search import chunk_loop


class _TroyNames(_Names):
    """The base trace's names on the Troy board (Troy and Mycenae by name)."""

    def __init__(self, params, players):
        self.res = resource_names()
        self.board = boards(players, params["harbours"])
        self.sea = sea_hexes(players)
        self.kinds = kind_names()
        self.sides = side_names()
        fixed = {(q, r): t for q, r, t, _ in load_raw()["board"]["hexes"]}
        self.hex_names = [fixed[h] for h in self.board.hexes]

    def hex(self, s, h) -> str:
        q, r = self.board.hexes[h]
        num = int(s[S.HEX_NUMBER + h])
        return f"{self.hex_names[h]}{' ' + str(num) if num else ''} ({q},{r})"

    def sea_hex(self, w) -> str:
        q, r = self.sea[w]
        return f"sea ({q},{r})"


def _row(s) -> np.ndarray:
    return s[T.ROW : T.ROW + S.N_RES]


def _setup_lines(s, names, n) -> list[str]:
    lines = ["board:"]
    for h in range(names.board.n_hexes):
        lines.append(f"  hex {h}: {names.hex(s, h)}")
    for slot in range(names.board.n_slots):
        t = int(s[S.SLOT_TYPE + slot])
        kind = "3:1 generic" if t == S.GENERIC else f"2:1 {names.res[t]}"
        a, b = names.board.slot_vertices[slot]
        lines.append(f"  harbour {slot}: {kind} at v{a}, v{b}")
    lines.append(f"  the Sea People on {names.sea_hex(int(s[T.SEA_PEOPLE]))}")
    lines.append(f"support row: {names.cards(_row(s))}")
    cards = ", ".join(f"seat {p} {names.sides[int(s[T.SIDE + p])]}" for p in range(n))
    lines.append(f"decision cards (secret): {cards}")
    return lines


def _scenario_event(a, b, action, names) -> list[str]:
    """Lines for a step by one of the scenario's actions (or the Sea People's move)."""
    p = int(a[S.SEAT])
    who = f"seat {p}"
    if int(a[S.PHASE]) == S.PH_ROBBER:
        return [f"{who} moves the Sea People to {names.sea_hex(action - T.A_SEA)}"]
    if action == T.A_NO_STEAL:
        return [f"{who} steals nothing"]
    if T.A_DONATE <= action < T.A_SHIP:
        line = f"{who} donates 1 {names.res[action - T.A_DONATE]} (row {int(b[T.ROW_N])})"
        if b[T.TOKENS + p] != a[T.TOKENS + p]:
            line += f", +{int(b[T.TOKENS + p] - a[T.TOKENS + p])} commerce token"
        return [line]
    if T.A_SHIP <= action < T.A_SEA:
        w = action - T.A_SHIP
        kind = names.kinds[int(b[T.SEA_KIND + w])]
        return [
            f"{who} builds ship {int(b[T.SHIPS_BUILT + p])} ({kind}) on {names.sea_hex(w)}"
            f" ({int(b[T.TOKENS + p])} commerce tokens left)"
        ]
    if T.A_CARD <= action < T.A_NO_STEAL:
        return [f"{who} takes the 2:1 {names.res[action - T.A_CARD]} card"]
    got = b[S.HAND + p * S.N_RES : S.HAND + (p + 1) * S.N_RES].astype(np.int64)
    got = got - a[S.HAND + p * S.N_RES : S.HAND + (p + 1) * S.N_RES]
    if action == T.A_TAKE:
        return [f"{who} takes {names.cards(got)} from the support row (take ship)"]
    if action == T.A_SWAP:
        return [f"{who} takes {names.cards(got)} from the support row (swap ship)"]
    return [f"{who} puts 1 {names.res[action - T.A_PUT]} back into the support row"]


def _battle_lines(a, b, names) -> list[str]:
    """The battles fought at the end of a turn (§4.5): the counted cards, the points, the
    markers."""
    fought = int(b[T.BATTLES] - a[T.BATTLES])
    if not fought:
        return []
    counted = (b[S.BANK : S.BANK + S.N_RES].astype(np.int64) - a[S.BANK : S.BANK + S.N_RES]) + (
        b[T.REMOVED : T.REMOVED + S.N_RES].astype(np.int64) - a[T.REMOVED : T.REMOVED + S.N_RES]
    )
    moved = [
        f"{names.sides[c]} marker {int(a[T.TRACK + c])} -> {int(b[T.TRACK + c])}"
        for c in range(2)
        if b[T.TRACK + c] != a[T.TRACK + c]
    ]
    return [
        f"  battle for Troy ({fought}): counted {names.cards(counted)}; "
        f"{', '.join(moved) or 'a tie, no marker moves'}; row {int(b[T.ROW_N])} left",
    ]


def _event(a, b, action, names, data) -> list[str]:
    if action >= T.A_DONATE or int(a[S.PHASE]) == S.PH_ROBBER:
        lines = _scenario_event(a, b, action, names)
    else:  # the base description, without its round line (it counts base VP only)
        lines = [x for x in base_event(a, b, action, names, data) if not x.startswith("round ")]
    if action == S.A_END and int(a[S.PHASE]) == S.PH_MAIN:
        lines[1:1] = _battle_lines(a, b, names)
    if b[S.OVER] and b[S.REASON] == T.R_EVENT_TRACK and not a[S.OVER]:
        lines.append("  a marker reached the end of the event track: the Trojan War is over")
    if (
        not b[S.OVER]
        and b[S.PHASE] == S.PH_PRE_ROLL
        and (a[S.PHASE] != S.PH_PRE_ROLL or a[S.CUR] != b[S.CUR])
        and a[S.TURNS] != b[S.TURNS]
    ):
        vps = ", ".join(f"{int(victory_points(b, data, s))}" for s in range(int(b[S.NP])))
        track = ", ".join(f"{names.sides[c]} {int(b[T.TRACK + c])}" for c in range(2))
        lines.append(
            f"round {int(b[S.ROUND])}, turn {int(b[S.TURNS])}: seat {int(b[S.CUR])} "
            f"(VP {vps}; row {int(b[T.ROW_N])}; markers {track})"
        )
    return lines


def trace(setup, seed):
    """(lines, ChunkResult) of the game the chunk loop plays for ``seed``."""
    data = compile_data(dict(setup.params), setup.players)
    n = setup.players
    names = _TroyNames(setup.params, n)
    codes, params = setup.bot_arrays()
    choose = chunk_loop(codes, choose_action, choose_plain)  # greedy never compiles the search
    streams = new_streams(n)
    seed_streams(streams, np.uint64(seed))
    a = np.zeros(T.STATE_LEN, np.int32)
    b = np.zeros(T.STATE_LEN, np.int32)
    buf = np.zeros(T.MAX_ACTIONS, np.int32)
    result = ChunkResult.empty(1, n, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS), len(DECISION_KINDS))
    init_state(data, n, streams[0], a)
    lines = [f"catan_troy, {n} players, seed {seed}", *_setup_lines(a, names, n)]
    while not is_over(a):
        seat = current_player(a)
        act = choose(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
        result.actions[0, seat, decision_kind(a, data, act)] += 1
        step(a, act, data, streams[0], b)
        lines += _event(a, b, int(act), names, data)
        a, b = b, a
    winner = np.full(1, -1, np.int64)
    role = np.zeros((1, n), np.int16)
    write_results(
        a, data, 0, result.rounds, result.turns, result.end_reason, winner, result.score,
        result.components, result.extras, role,
    )  # fmt: skip
    result.role = role
    finish(result, winner, setup.params)
    for s in range(n):
        parts = ", ".join(
            f"{c} {int(result.components[0, s, j])}" for j, c in enumerate(SCORE_COMPONENTS)
        )
        side = names.sides[int(role[0, s])]
        tokens = int(a[T.TOKENS + s])
        lines.append(
            f"seat {s} ({side}): {int(result.score[0, s])} VP ({parts}), {tokens} commerce tokens"
        )
    reason = T.END_REASONS[int(a[S.REASON])]
    who = f", seat {int(a[S.WINNER])} wins" if a[S.WINNER] >= 0 else ""
    lines.append(
        f"game over: {reason}{who} after {int(a[S.ROUND])} rounds, {int(a[S.TURNS])} turns"
    )
    return lines, result
