"""Catan readable trace: one game replayed with the same kernels and streams as the chunk loop,
one line per event (board, setup placements, rolls and what each seat received, discards,
robber moves and steals, builds, trades, development cards bought and played, Longest Road and
Largest Army changes, Special Building Phase), then a summary line.

The trace is the designer's view, not a player's: it shows the card a steal took and the card a
purchase drew. Events are read off the action and the difference between the state before and
after each ``step``, so the log cannot drift from the rules: it describes what the kernels did.
"""

import numpy as np

from sim.core.results import ChunkResult
from sim.core.rng import new_streams, seed_streams
from sim.games.catan import state as S
from sim.games.catan.decisions import DECISION_KINDS, decision_kind
from sim.games.catan.params import boards, compile_data, dev_names, resource_names, terrain_names
from sim.games.catan.play import PLAYER_EXTRAS, SCORE_COMPONENTS, finish, write_results
from sim.games.catan.rules import current_player, init_state, is_over, step
from sim.games.catan.rules_shared import victory_points
from sim.games.catan.trade import get_count, give_count, offer_get, offer_give
from strategies.catan import choose_action, choose_plain
from strategies.search import chunk_loop


class _Names:
    def __init__(self, params):
        self.res = resource_names()
        self.terr = terrain_names()
        self.dev = dev_names()
        self.board = boards(params["board"])

    def cards(self, row) -> str:
        parts = [f"{int(n)} {self.res[r]}" for r, n in enumerate(row) if n]
        return ", ".join(parts) or "nothing"

    def hex(self, s, h) -> str:
        q, r = self.board.hexes[h]
        t = int(s[S.HEX_TERRAIN + h])
        num = int(s[S.HEX_NUMBER + h])
        return f"{self.terr[t]}{' ' + str(num) if num else ''} ({q},{r})"

    def vertex(self, s, v) -> str:
        q, r, side = self.board.vertices[v]
        around = [self.hex(s, h) for h in self.board.vertex_hexes[v] if h >= 0]
        return f"v{v} [{q},{r},{side}] by {', '.join(around)}"

    def edge(self, e) -> str:
        a, b = self.board.edge_vertices[e]
        return f"road e{e} (v{a}-v{b})"


def _hand(s, p):
    return s[S.HAND + p * S.N_RES : S.HAND + (p + 1) * S.N_RES]


def _board_lines(s, names, n_hex, n_slots) -> list[str]:
    lines = ["board:"]
    for h in range(n_hex):
        robber = " (robber)" if s[S.ROBBER] == h else ""
        lines.append(f"  hex {h}: {names.hex(s, h)}{robber}")
    for slot in range(n_slots):
        t = int(s[S.SLOT_TYPE + slot])
        kind = "3:1 generic" if t == S.GENERIC else f"2:1 {names.res[t]}"
        a, b = names.board.slot_vertices[slot]
        lines.append(f"  harbour {slot}: {kind} at v{a}, v{b}")
    return lines


def _offer_text(offer, names) -> str:
    give, get = offer_give(offer), offer_get(offer)
    return f"{give_count(offer)} {names.res[give]} for {get_count(offer)} {names.res[get]}"


def _trade_event(a, action, names) -> str:
    """The line of a domestic-trade decision (trade.py)."""
    p = int(a[S.SEAT])
    if S.A_OFFER <= action < S.A_ACCEPT:
        return f"seat {p} offers {_offer_text(action, names)}"
    offer = int(a[S.OFFER])
    if action == S.A_ACCEPT:
        return f"  seat {p} accepts"
    if action == S.A_DECLINE:
        return f"  seat {p} declines"
    if action == S.A_CANCEL:
        return f"  seat {p} trades with nobody"
    return f"  seat {p} trades {_offer_text(offer, names)} with seat {action - S.A_TRADE_WITH}"


def _event(a, b, action, names, data) -> list[str]:
    """Lines for one step from state ``a`` to state ``b`` by ``action``."""
    p = int(a[S.SEAT])
    phase = int(a[S.PHASE])
    who = f"seat {p}"
    lines: list[str] = []
    if phase == S.PH_SETUP_SETTLE:
        got = _hand(b, p) - _hand(a, p)
        lines.append(f"{who} places a settlement on {names.vertex(a, action - S.A_SETTLE)}")
        if got.any():
            lines.append(f"  {who} takes {names.cards(got)}")
    elif action == S.A_ROLL:
        lines.append(f"{who} rolls {int(b[S.DICE])}")
        for s in range(int(a[S.NP])):
            got = _hand(b, s) - _hand(a, s)
            if got.any():
                lines.append(f"  seat {s} receives {names.cards(got)}")
        if b[S.PHASE] == S.PH_DISCARD:
            owed = [
                f"seat {s} {int(b[S.DISCARD_OWED + s])}"
                for s in range(int(a[S.NP]))
                if b[S.DISCARD_OWED + s]
            ]
            lines.append(f"  must discard: {', '.join(owed)}")
    elif phase == S.PH_DISCARD:
        lines.append(f"{who} discards 1 {names.res[action - S.A_DISCARD]}")
    elif phase == S.PH_ROBBER:
        lines.append(f"{who} moves the robber to {names.hex(a, action - S.A_ROBBER)}")
    elif phase == S.PH_STEAL:
        victim = action - S.A_STEAL
        took = _hand(b, p) - _hand(a, p)
        lines.append(f"{who} steals {names.cards(took)} from seat {victim}")
    elif action >= S.A_OFFER:
        lines.append(_trade_event(a, action, names))
    elif action == S.A_END:
        lines.append(f"{who} ends {'the special building' if phase == S.PH_SBP else 'the turn'}")
    elif action == S.A_BUY:
        new = b[S.DEV_NEW + p * S.N_DEV : S.DEV_NEW + (p + 1) * S.N_DEV]
        old = a[S.DEV_NEW + p * S.N_DEV : S.DEV_NEW + (p + 1) * S.N_DEV]
        kind = int(np.argmax(new - old))
        lines.append(f"{who} buys a development card ({names.dev[kind]})")
    elif S.A_TRADE <= action < S.A_ROBBER:
        give, get = divmod(action - S.A_TRADE, S.N_RES)
        n = int(a[S.HAND + p * S.N_RES + give] - b[S.HAND + p * S.N_RES + give])
        lines.append(f"{who} trades {n} {names.res[give]} for 1 {names.res[get]}")
    elif action == S.A_KNIGHT:
        lines.append(f"{who} plays a knight ({int(b[S.KNIGHTS + p])} played)")
    elif action == S.A_ROAD_BUILDING:
        lines.append(f"{who} plays road building")
    elif action == S.A_YOP:
        lines.append(f"{who} plays year of plenty")
    elif S.A_MONO <= action < S.A_PICK:
        r = action - S.A_MONO
        n = int(b[S.HAND + p * S.N_RES + r] - a[S.HAND + p * S.N_RES + r])
        lines.append(f"{who} plays monopoly on {names.res[r]} and takes {n}")
    elif S.A_PICK <= action < S.A_DISCARD:
        lines.append(f"{who} takes 1 {names.res[action - S.A_PICK]} from the bank")
    elif S.A_ROAD <= action < S.A_ROLL:
        free = " (free)" if phase in (S.PH_SETUP_ROAD, S.PH_ROAD_BUILDING) else ""
        lines.append(f"{who} builds {names.edge(action - S.A_ROAD)}{free}")
    elif S.A_CITY <= action < S.A_ROAD:
        lines.append(f"{who} builds a city on {names.vertex(a, action - S.A_CITY)}")
    else:
        lines.append(f"{who} builds a settlement on {names.vertex(a, action - S.A_SETTLE)}")
    if b[S.LR_HOLDER] != a[S.LR_HOLDER]:
        h = int(b[S.LR_HOLDER])
        text = "set aside" if h < 0 else f"to seat {h} (length {int(b[S.ROAD_LEN + h])})"
        lines.append(f"  longest road {text}")
    if b[S.LA_HOLDER] != a[S.LA_HOLDER]:
        lines.append(f"  largest army to seat {int(b[S.LA_HOLDER])}")
    if b[S.PHASE] == S.PH_SBP and a[S.PHASE] != S.PH_SBP and a[S.SBP_LEFT] == 0:
        # entered from the turn's end; a return from a step inside the phase (Troy's Sea People
        # after a ship built in it) finds the phase already under way (seats still to build)
        lines.append("  special building phase")
    if (
        not b[S.OVER]
        and b[S.PHASE] == S.PH_PRE_ROLL
        and (a[S.PHASE] != S.PH_PRE_ROLL or a[S.CUR] != b[S.CUR])
        and a[S.TURNS] != b[S.TURNS]
    ):
        vps = ", ".join(f"{int(victory_points(b, data, s))}" for s in range(int(b[S.NP])))
        lines.append(
            f"round {int(b[S.ROUND])}, turn {int(b[S.TURNS])}: seat {int(b[S.CUR])} (VP {vps})"
        )
    return lines


def trace(setup, seed):
    """(lines, ChunkResult) of the game the chunk loop plays for ``seed``."""
    data = compile_data(dict(setup.params), setup.players)
    names = _Names(setup.params)
    codes, params = setup.bot_arrays()
    choose = chunk_loop(codes, choose_action, choose_plain)  # greedy never compiles the search
    n = setup.players
    streams = new_streams(n)
    seed_streams(streams, np.uint64(seed))
    a = np.zeros(S.STATE_LEN, np.int32)
    b = np.zeros(S.STATE_LEN, np.int32)
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    result = ChunkResult.empty(1, n, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS), len(DECISION_KINDS))
    init_state(data, n, streams[0], a)
    lines = [f"catan, {n} players, seed {seed}"]
    lines += _board_lines(a, names, names.board.n_hexes, names.board.n_slots)
    while not is_over(a):
        seat = current_player(a)
        act = choose(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
        result.actions[0, seat, decision_kind(a, data, act)] += 1
        step(a, act, data, streams[0], b)
        lines += _event(a, b, int(act), names, data)
        a, b = b, a
    winner = np.full(1, -1, np.int64)
    write_results(
        a,
        data,
        0,
        result.rounds,
        result.turns,
        result.end_reason,
        winner,
        result.score,
        result.components,
        result.extras,
    )
    finish(result, winner, setup.params)
    for s in range(n):
        parts = ", ".join(
            f"{c} {int(result.components[0, s, j])}" for j, c in enumerate(SCORE_COMPONENTS)
        )
        lines.append(f"seat {s}: {int(result.score[0, s])} VP ({parts})")
    reason = S.END_REASONS[int(a[S.REASON])]
    who = f", seat {int(a[S.WINNER])} wins" if a[S.WINNER] >= 0 else ""
    lines.append(
        f"game over: {reason}{who} after {int(a[S.ROUND])} rounds, {int(a[S.TURNS])} turns"
    )
    return lines, result
