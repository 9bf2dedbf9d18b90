"""The Great Wall readable trace: one game replayed with the same kernels and streams as the
chunk loop, one line per event. The base game's lines (catan/trace.py) describe the base
actions; the scenario adds the fortresses, the riders drawn on each build and their territory,
each rider's march to a battlefield, every breach (which riders crossed onto which hexes, the
wall's new level, the penalty, the breach count), walls raised, the pirate and the Knight's
actions, and the collective defeat. Events are read off the action and the difference between
the states before and after each ``step``.
"""

import numpy as np

from sim.core.results import ChunkResult
from sim.core.rng import new_streams, seed_streams
from sim.games.catan import state as S
from sim.games.catan.params import dev_names, resource_names, terrain_names
from sim.games.catan.trace import _board_lines
from sim.games.catan.trace import _event as _base_event
from sim.games.catan.trace import _Names as _BaseNames
from sim.games.catan_great_wall import state as G
from sim.games.catan_great_wall.decisions import DECISION_KINDS, decision_kind
from sim.games.catan_great_wall.params import board_for, compile_data
from sim.games.catan_great_wall.play import PLAYER_EXTRAS, SCORE_COMPONENTS, finish, write_results
from sim.games.catan_great_wall.rules import current_player, init_state, is_over, step
from strategies.catan_great_wall import choose_action, choose_plain
from strategies.search import chunk_loop

NUMERALS = ("I", "II", "III", "IV", "V")


class _Names(_BaseNames):
    def __init__(self, params, players):
        self.res = resource_names()
        self.terr = terrain_names()
        self.dev = dev_names()
        self.board, self.info = board_for(players)
        self.walls = [w["id"] for w in self.info["walls"]]

    def sea(self, i) -> str:
        q, r = self.info["sea"][i]
        return f"sea ({q},{r})"


def _riders(a, b, at, n) -> np.ndarray:
    return (b[at : at + n] - a[at : at + n]).astype(int)


def _gw_lines(a, b, action, names, p) -> list[str]:
    """The scenario's own effects of one step."""
    lines: list[str] = []
    who = f"seat {p}"
    n_walls = len(names.walls)
    K = G.MAX_NUMERALS
    if G.A_FORTRESS <= action < G.A_WALL:
        w = action - G.A_FORTRESS
        v = names.board.vertex_id(*names.info["walls"][w]["fortress_vertex"])
        lines.append(f"{who} places its fortress at {names.walls[w]} on {names.vertex(a, v)}")
    elif action == G.A_WALL:
        w = int(np.flatnonzero(b[G.LEVEL : G.LEVEL + n_walls] != a[G.LEVEL : G.LEVEL + n_walls])[0])
        lines.append(f"{who} raises wall {names.walls[w]} to level {int(b[G.LEVEL + w])}")
    elif G.A_PIRATE <= action < G.A_K_MOVE:
        lines.append(f"{who} moves the pirate to {names.sea(action - G.A_PIRATE)}")
    elif G.A_K_MOVE <= action < G.A_K_REMOVE:
        t, u = divmod(action - G.A_K_MOVE, K)
        lines.append(f"{who}'s knight moves a rider from territory {NUMERALS[t]} to {NUMERALS[u]}")
    elif G.A_K_REMOVE <= action < G.A_K_DONE:
        h = action - G.A_K_REMOVE
        lines.append(f"{who}'s knight sends a rider on {names.hex(a, h)} back to the bag")
    elif action == G.A_K_DONE:
        lines.append(f"{who}'s knight takes no further action")
    elif action == G.A_NO_STEAL:
        lines.append(f"{who} takes no card with the pirate")
    # riders drawn from the bag (a build)
    drawn = -_riders(a, b, G.BAG, K)
    if action < S.A_ROAD and drawn.sum() > 0:
        for k in np.flatnonzero(drawn > 0):
            lines.append(f"  {who} draws a rider {NUMERALS[k]}: onto territory {NUMERALS[k]}")
    if action == S.A_ROLL and b[S.DICE] != 7:
        for w in range(n_walls):
            before = int(a[G.FIELD + w * K : G.FIELD + (w + 1) * K].sum())
            after = int(b[G.FIELD + w * K : G.FIELD + (w + 1) * K].sum())
            path = [names.board.hex_id(q, r) for q, r in names.info["walls"][w]["attack_path"]]
            placed = [
                f"{names.hex(b, h)} x{int(b[G.HEX_RIDERS + h] - a[G.HEX_RIDERS + h])}"
                for h in path
                if b[G.HEX_RIDERS + h] > a[G.HEX_RIDERS + h]
            ]
            if not placed and after > before:
                lines.append(
                    f"  a rider reaches battlefield {names.walls[w]} ({after} there, "
                    f"wall level {int(b[G.LEVEL + w])})"
                )
            elif placed:
                owner = int(a[G.WALL_OWNER + w])
                lines.append(
                    f"  a rider reaches battlefield {names.walls[w]}: {before + 1} riders, "
                    f"more than the wall's level {int(a[G.LEVEL + w])}"
                )
                lines.append(
                    f"  BREACH of {names.walls[w]}: riders cross onto {', '.join(placed)}; "
                    f"the wall falls to level {int(b[G.LEVEL + w])}, seat {owner} takes a "
                    f"penalty ({int(b[G.PENALTY + owner])} in all); breaches {int(b[G.BREACHES])}"
                )
    if b[S.OVER] and b[S.REASON] == G.R_WALL_BREACHED and not a[S.OVER]:
        lines.append("  the wall has fallen: China is sacked, everybody loses")
    return lines


def _event(a, b, action, names, data) -> list[str]:
    p = int(a[S.SEAT])
    if action >= G.A_FORTRESS:
        lines = _gw_lines(a, b, action, names, p)
    else:
        lines = _base_event(a, b, action, names, data)
        lines[1:1] = _gw_lines(a, b, action, names, p)
    return lines


def trace(setup, seed):
    """(lines, ChunkResult) of the game the chunk loop plays for ``seed``."""
    data = compile_data(dict(setup.params), setup.players)
    n = setup.players
    names = _Names(setup.params, n)
    codes, params = setup.bot_arrays()
    choose = chunk_loop(codes, choose_action, choose_plain)  # greedy never compiles the search
    streams = new_streams(n)
    seed_streams(streams, np.uint64(seed))
    a = np.zeros(G.GW_STATE_LEN, np.int32)
    b = np.zeros(G.GW_STATE_LEN, np.int32)
    buf = np.zeros(G.GW_MAX_ACTIONS, np.int32)
    result = ChunkResult.empty(1, n, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS), len(DECISION_KINDS))
    init_state(data, n, streams[0], a)
    lines = [f"catan_great_wall, {n} players, seed {seed}"]
    lines += _board_lines(a, names, names.board.n_hexes, names.board.n_slots)
    for w, wall in enumerate(names.info["walls"]):
        path = ", ".join(names.hex(a, names.board.hex_id(q, r)) for q, r in wall["attack_path"])
        lines.append(f"  wall {names.walls[w]}: attack path {path}")
    while not is_over(a):
        seat = current_player(a)
        act = choose(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
        result.actions[0, seat, decision_kind(a, data, act)] += 1
        step(a, act, data, streams[0], b)
        lines += _event(a, b, int(act), names, data)
        a, b = b, a
    winner = np.full(1, -1, np.int64)
    write_results(
        a, data, 0, result.rounds, result.turns, result.end_reason, winner, result.score,
        result.components, result.extras,
    )  # fmt: skip
    finish(result, winner, setup.params)
    for s in range(n):
        parts = ", ".join(
            f"{c} {int(result.components[0, s, j])}" for j, c in enumerate(SCORE_COMPONENTS)
        )
        lines.append(f"seat {s}: {int(result.score[0, s])} VP ({parts})")
    reason = G.END_REASONS[int(a[S.REASON])]
    who = f", seat {int(a[S.WINNER])} wins" if a[S.WINNER] >= 0 else ""
    if reason == "wall_breached":
        who = ", nobody wins"
    lines.append(
        f"game over: {reason}{who} after {int(a[S.ROUND])} rounds, {int(a[S.TURNS])} turns"
    )
    return lines, result
