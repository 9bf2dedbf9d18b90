"""Celtica readable trace: one game replayed with the same kernels and streams as the chunk loop,
one line per event (deals, cards played, druid moves, fragments taken and returned, XP and
sacred draws, reshuffles, the end, the final exchanges and the amulets), then a summary line.

The trace shows every hand (it is the designer's view, not a player's). Events are read off the
difference between the state before and after each ``step``, so the log cannot drift from the
rules: it describes what the kernels did.
"""

import numpy as np

from sim.core.results import ChunkResult
from sim.core.rng import new_streams, seed_streams
from sim.games.celtica.decisions import DECISION_KINDS, decision_kind
from sim.games.celtica.params import colour_names, compile_data, track_labels, type_names
from sim.games.celtica.play import PLAYER_EXTRAS, SCORE_COMPONENTS, write_results
from sim.games.celtica.rules import current_player, init_state, is_over, step
from sim.games.celtica.state import (
    A_DRAW,
    A_PASS,
    A_RETURN,
    A_TAKE,
    A_XDONE,
    A_XSWAP,
    A_XTAKE,
    DISPLAY,
    DRUID_SHUFFLES,
    END_REASONS,
    FRAG,
    FRAG_SHUFFLES,
    HAND,
    MAX_ACTIONS,
    MAX_TYPES,
    N_COLOURS,
    OVER,
    PH_DIG,
    PH_EXCHANGE,
    PH_PLAY,
    PH_RUIN,
    PH_SACRED,
    PHASE,
    POS,
    REASON,
    RESERVE_N,
    RETURNED_N,
    ROUND,
    SEAT,
    STARTER,
    STATE_LEN,
    TURNS,
    XP,
    XP_SHUFFLES,
)
from strategies.celtica import choose_action


class _Names:
    def __init__(self, params):
        self.colours = colour_names()
        self.types = type_names()
        self.places = track_labels(params)
        self.n_types = params["fragments_per_amulet"]

    def cards(self, row) -> str:
        parts = [f"{int(n)} {self.colours[c]}" for c, n in enumerate(row) if n]
        return ", ".join(parts) or "none"

    def frags(self, row) -> str:
        parts = [
            f"{self.types[t]}x{int(n)}" if n > 1 else self.types[t]
            for t, n in enumerate(row[: self.n_types])
            if n
        ]
        return " ".join(parts) or "none"


def _hand(s, seat):
    return s[HAND + seat * N_COLOURS : HAND + (seat + 1) * N_COLOURS]


def _xp(s, seat):
    return s[XP + seat * N_COLOURS : XP + (seat + 1) * N_COLOURS]


def _frag(s, seat):
    return s[FRAG + seat * MAX_TYPES : FRAG + (seat + 1) * MAX_TYPES]


def _display(s):
    return s[DISPLAY : DISPLAY + MAX_TYPES]


def _board(s, names, n_druids) -> str:
    pos = ", ".join(f"{names.colours[c]} {int(s[POS + c])}" for c in range(n_druids))
    return (
        f"druids: {pos} | display: {names.frags(_display(s))} | reserve {int(s[RESERVE_N])}"
        f", returned {int(s[RETURNED_N])}"
    )


def _deal_lines(s, names, players) -> list[str]:
    lines = [f"round {int(s[ROUND])}: seat {int(s[STARTER])} starts; hands dealt"]
    for p in range(players):
        lines.append(
            f"  seat {p} hand: {names.cards(_hand(s, p))}; XP: {names.cards(_xp(s, p))}"
            f"; fragments: {names.frags(_frag(s, p))}"
        )
    return lines


def _expected_display(a, action, swap_to_display):
    """The display after ``action`` but before any refill."""
    d = _display(a).astype(np.int64)
    if a[PHASE] == PH_DIG:
        d[action - A_TAKE] -= 1
    elif a[PHASE] == PH_EXCHANGE and action != A_XDONE:
        if action >= A_XSWAP:
            d[(action - A_XSWAP) & 15] -= 1
            if swap_to_display:
                d[(action - A_XSWAP) >> 4] += 1
        else:
            d[action - A_XTAKE] -= 1
    return d


def _chance_lines(a, b, action, names, swap_to_display) -> list[str]:
    """Reshuffles, XP draws and display refills that happened inside one step."""
    seat = int(a[SEAT])
    lines = []
    if b[FRAG_SHUFFLES] > a[FRAG_SHUFFLES]:
        lines.append("  the returned pile is reshuffled into the reserve")
    if b[DRUID_SHUFFLES] > a[DRUID_SHUFFLES]:
        lines.append("  the Druid discard is reshuffled into a new draw pile")
    if b[XP_SHUFFLES] > a[XP_SHUFFLES]:
        lines.append("  the XP discard is reshuffled into a new XP pile")
    gained_xp = _xp(b, seat).astype(np.int64) - _xp(a, seat)
    if gained_xp.max() > 0:  # XP hands grow only from ruins
        lines.append(f"  seat {seat} draws XP: {names.cards(np.maximum(gained_xp, 0))}")
    added = _display(b).astype(np.int64) - _expected_display(a, action, swap_to_display)
    if added.sum() > 0:
        lines.append(f"  display refilled with {names.frags(added)} (reserve {int(b[RESERVE_N])})")
    return lines


def _action_line(a, b, action, names) -> str:
    seat = int(a[SEAT])
    phase = a[PHASE]
    if phase == PH_PLAY:
        if action == A_PASS:
            return f"seat {seat} passes for the rest of the round"
        c, kd, kx = action >> 10, (action >> 5) & 31, action & 31
        cards = f"{kd} {names.colours[c]}" + (f" + {kx} XP" if kx else "")
        before, after = int(a[POS + c]), int(b[POS + c])
        if before == after:
            return f"seat {seat} plays {cards}: the {names.colours[c]} druid is home, no effect"
        return (
            f"seat {seat} plays {cards}: {names.colours[c]} druid {before} -> {after} "
            f"({names.places[after]})"
        )
    if phase == PH_DIG:
        return f"seat {seat} takes {names.types[action - A_TAKE]}"
    if phase == PH_RUIN:
        return f"seat {seat} returns {names.types[action - A_RETURN]}"
    if phase == PH_SACRED:
        if action == A_DRAW:
            drawn = np.maximum(_hand(b, seat) - _hand(a, seat), 0)
            return f"seat {seat} draws a Druid card at the sacred place: {names.cards(drawn)}"
        return f"seat {seat} declines the sacred-place draw"
    if action == A_XDONE:
        return f"seat {seat} stops exchanging"
    if action >= A_XSWAP:
        give, take = (action - A_XSWAP) >> 4, (action - A_XSWAP) & 15
        return f"seat {seat} swaps {names.types[give]} for {names.types[take]} (XP)"
    return f"seat {seat} takes {names.types[action - A_XTAKE]} for XP"


def trace(setup, seed: int) -> tuple[list[str], ChunkResult]:
    """Play one game of ``setup`` from ``seed`` and describe it; same seed, same lines."""
    params = dict(setup.params)
    data = compile_data(params)
    codes, bot_params = setup.bot_arrays()
    players = setup.players
    names = _Names(params)
    n_druids = params["druids"]
    swap_to_display = params["swap_goes_to"] == "display"
    streams = new_streams(players)
    seed_streams(streams, np.uint64(seed))
    a = np.zeros(STATE_LEN, np.int32)
    b = np.zeros(STATE_LEN, np.int32)
    buf = np.zeros(MAX_ACTIONS, np.int32)
    init_state(data, players, streams[0], a)
    bots = ", ".join(f"seat {s} {spec}" for s, spec in enumerate(setup.bots))
    lines = [f"Celtica, {players} players: {bots}", _board(a, names, n_druids)]
    counts = np.zeros((players, len(DECISION_KINDS)), np.int32)
    lines += _deal_lines(a, names, players)
    while not is_over(a):
        seat = int(current_player(a))
        act = int(
            choose_action(a, data, seat, codes[seat], bot_params[seat], streams[1 + seat], buf)
        )
        counts[seat, decision_kind(a, act)] += 1
        step(a, np.int32(act), data, streams[0], b)
        lines.append(_action_line(a, b, act, names))
        lines += _chance_lines(a, b, act, names, swap_to_display)
        if a[PHASE] != PH_EXCHANGE and (b[PHASE] == PH_EXCHANGE or b[OVER]):
            lines.append(
                f"game ends ({END_REASONS[int(b[REASON])]}), hands discarded; "
                + _board(b, names, n_druids)
            )
            if b[PHASE] == PH_EXCHANGE:
                lines.append(f"final exchanges, seat {int(b[SEAT])} first")
        elif b[ROUND] != a[ROUND]:
            lines += _deal_lines(b, names, players)
            lines.append("  " + _board(b, names, n_druids))
        a, b = b, a
    result = ChunkResult.empty(
        1, players, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS), len(DECISION_KINDS)
    )
    result.actions[0] = counts
    write_results(
        a,
        data,
        0,
        result.rounds,
        result.turns,
        result.end_reason,
        result.score,
        result.components,
        result.extras,
    )
    for p in range(players):
        sizes = [int(v) for v in result.extras[0, p, :10] if v]
        lines.append(
            f"seat {p}: fragments {names.frags(_frag(a, p))}; "
            f"{int(result.score[0, p])} complete amulet(s), incomplete {sizes or '-'}, "
            f"{int(result.extras[0, p, 11])} XP unused"
        )
    lines.append(
        f"end: {END_REASONS[int(result.end_reason[0])]} after {int(a[ROUND])} round(s), "
        f"{int(a[TURNS])} turns"
    )
    return lines, result
