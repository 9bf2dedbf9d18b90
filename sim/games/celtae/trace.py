"""Celtae readable trace: one game replayed with the same kernels and streams as the chunk loop,
one line per decision (who chose what), followed by every rule effect it caused, one line each
and indented under it (payments, force, tokens, forced choices, workers moved, market refills,
crossings, Solitairix's turns, the end), then the score by component and a summary line.

The trace shows every hand (it is the designer's view, not a player's). The effects are read off
the state before and after each sub-step of ``step`` (trace_effects), and the replay of those
sub-steps must end in the state ``step`` made, so the log cannot drift from the rules.
"""

import numpy as np

from sim.core.results import ChunkResult
from sim.core.rng import new_streams, seed_streams
from sim.games.celtae.decisions import DECISION_KINDS, decision_kind
from sim.games.celtae.params import KINDS, names, setup_data
from sim.games.celtae.play import (
    PLAYER_EXTRAS,
    SCORE_COMPONENTS,
    role_mode_of,
    write_results,
)
from sim.games.celtae.rules import current_player, init_state, is_over, step
from sim.games.celtae.state import (
    A_BUILD,
    A_CARD,
    A_CHOOSE,
    A_CULT,
    A_GARR,
    A_LEADER,
    A_MOVE,
    A_NO,
    A_PAWN,
    A_SIDE_B,
    A_STOP,
    A_SWAP,
    A_TAKE2,
    A_WORKER,
    A_YES,
    ACTIVE,
    AU_SOLO_REST,
    AU_SOLO_START,
    CENTRE,
    END_REASONS,
    MARKET,
    MAX_ACTIONS,
    N_ICONS,
    OVER,
    P_ACTIVE,
    P_ARMY1,
    P_ARMY2,
    P_BONUS_TILES,
    P_CUBES,
    P_DISCS,
    P_DRUID1,
    P_DRUID2,
    P_FORCE,
    P_HAND,
    P_LEADER,
    P_SIDE,
    P_TOKENS,
    P_TRIBE,
    PAWN,
    PCARD,
    PH_BRECRUIT,
    PH_BUILD,
    PH_DISCARD,
    PH_DRUID,
    PH_FIGHT,
    PH_GARRISON,
    PH_ORDER,
    PH_OVERFLOW,
    PH_PAWN,
    PH_RECRUIT,
    PH_REFILL,
    PH_REFRESH,
    PH_SWAP,
    PH_TAKE2,
    PH_TOKEN,
    PHASE,
    PLAYERS,
    PW,
    REASON,
    ROUND,
    SOLO,
    SPACES,
    STATE_LEN,
    TRACK,
    TURNS,
)
from sim.games.celtae.trace_effects import (
    POSITIONS,
    SPACE_NAMES,
    WORKERS,
    effects,
    substeps,
)
from strategies.celtae import choose_action, choose_plain
from strategies.search import chunk_loop


class _Names:
    def __init__(self):
        self.colours = names("colours")
        self.icons = names("icons")
        self.leaders = names("leaders")
        self.regions = names("regions")

    def card(self, k: int) -> str:
        if k < 0:
            return "-"
        return f"{self.colours[k // N_ICONS]} {self.icons[k % N_ICONS]}"

    def hand(self, s, seat) -> str:
        b = PLAYERS + seat * PW + P_HAND
        parts = [f"{self.card(k)}x{int(s[b + k])}" for k in range(12) if s[b + k]]
        return ", ".join(parts) or "empty"


def _workers(row) -> str:
    return " ".join(WORKERS[t] if t >= 0 else "-" for t in row)


def _tribe(s, seat) -> str:
    b = PLAYERS + seat * PW + P_TRIBE
    parts = [f"{WORKERS[t]}x{int(s[b + t])}" for t in range(5) if s[b + t]]
    return " ".join(parts) or "empty"


_STOPS = {
    PH_DISCARD: "stops discarding",
    PH_BUILD: "does not build",
    PH_PAWN: "discards the progress pawn",
    PH_TAKE2: "takes no market card",
    PH_RECRUIT: "stops recruiting",
    PH_REFILL: "stops taking workers",
    PH_OVERFLOW: "keeps the tribe",
}
_YES_NO = {
    PH_REFRESH: ("refreshes the action space", "does not refresh"),
    PH_SWAP: ("swaps", "does not swap"),
    PH_TOKEN: ("plays a bonus token as an extra worker", "plays no more tokens"),
    PH_FIGHT: ("fights the top army tile", "does not fight"),
    PH_GARRISON: ("garrisons", "places no garrison cube"),
    PH_ORDER: ("joins the Druidic Order", "does not join the Druidic Order"),
    PH_DRUID: ("takes a druid", "takes no druid"),
}


def describe(s, action: int, nm: _Names) -> str:
    """One decision in words, read against the state it was taken in."""
    ph = int(s[PHASE])
    a = int(action)
    if a >= A_LEADER:
        return f"takes leader {nm.leaders[a - A_LEADER]}"
    if a >= A_WORKER:
        w = WORKERS[a - A_WORKER]
        verb = {
            PH_RECRUIT: "recruits a",
            PH_BRECRUIT: "recruits (bonus) a",
            PH_REFILL: "takes from the centre a",
            PH_OVERFLOW: "discards from the tribe a",
        }.get(ph, "picks a")
        return f"{verb} {w}"
    if a >= A_GARR:
        k, c = divmod(a - A_GARR, 4)
        return f"garrisons slot {k + 1}, paying a {nm.colours[c]} card"
    if a >= A_TAKE2:
        i, j = divmod(a - A_TAKE2, 6)
        return f"takes market slots {i + 1} and {j + 1} (bonus)"
    if a == A_STOP:
        return _STOPS.get(ph, "stops")
    if a >= A_CARD:
        return f"discards {nm.card(a - A_CARD)}"
    if a >= A_BUILD:
        return f"builds on the {nm.colours[a - A_BUILD]} citadel"
    if a >= A_CULT:
        mask = a - A_CULT
        slots = [str(k + 2) for k in range(5) if mask & (1 << k)]
        return "cultivates: slot 1" + (" + " + ", ".join(slots) if slots else " only")
    if a >= A_SWAP:
        i, j = divmod(a - A_SWAP, 3)
        return f"swaps active worker {i + 1} with space slot {j + 1}"
    if a in (A_YES, A_NO):
        yes, no = _YES_NO.get(ph, ("yes", "no"))
        return yes if a == A_YES else no
    if a >= A_CHOOSE:
        code = a - A_CHOOSE
        token, rest = divmod(code, 8)
        kind, region = divmod(rest, 2)
        via = " (bonus token: any space)" if token else ""
        return f"chooses {KINDS[kind]} in the {nm.regions[region]}{via}"
    if a >= A_SIDE_B:
        return "flips the leader to side B"
    if a >= A_PAWN + 8:
        return "keeps side A"
    if a >= A_PAWN:
        card = int(s[PCARD + a - A_PAWN])
        return f"places a progress pawn on card P{card + 1:02d}"
    if a == A_MOVE:
        return "does not move (bonus token)"
    return f"moves the pawn {a - A_MOVE} to {POSITIONS[(int(s[PAWN]) + a - A_MOVE) % 4]}"


def _player_line(s, seat, nm) -> str:
    b = PLAYERS + seat * PW
    leader = int(s[b + P_LEADER])
    name = nm.leaders[leader] if leader >= 0 else "-"
    return (
        f"  seat {seat}: {name} side {'AB'[int(s[b + P_SIDE])]}, force {int(s[b + P_FORCE])}, "
        f"tokens {int(s[b + P_TOKENS])}, "
        f"active [{_workers(s[b + P_ACTIVE : b + P_ACTIVE + ACTIVE])}]"
        f", tribe {_tribe(s, seat)}, discs {int(s[b + P_DISCS])}, cubes {int(s[b + P_CUBES])}, "
        f"armies {int(s[b + P_ARMY1])}x1 {int(s[b + P_ARMY2])}x2, druid tiles "
        f"{int(s[b + P_DRUID1])}x1 {int(s[b + P_DRUID2])}x2, bonus tiles "
        f"{int(s[b + P_BONUS_TILES])}; hand {nm.hand(s, seat)}"
    )


def step_lines(state, action, data, rng, out, nm) -> list[str]:
    """``step(state, action, data, rng, out)``, returning the lines of every rule effect it made
    (indented under the decision). The effects come from a sub-step replay on a copy of the
    chance stream, which must end where ``step`` itself ends: if not, the trace stops with an
    error rather than tell a story the kernels did not play."""
    copy = rng.copy()
    subs = substeps(state, action, data, copy)
    step(state, action, data, rng, out)
    if not (np.array_equal(subs[-1].after, out) and np.array_equal(copy, rng)):
        raise RuntimeError("the trace's sub-step replay drifted from step (rules_turn.settle)")
    return _sub_lines(subs, nm, data)


def _sub_lines(subs, nm, data) -> list[str]:
    """The effects of one step, indented under its decision: a choice the engine made itself
    (the only option) gets its own line, with its effects one step further in."""
    out = []
    prev = -1
    for sub in subs:
        pad = "  "
        if sub.phase == AU_SOLO_START:
            out.append("  Solitairix's turn:")
        elif sub.phase == AU_SOLO_REST and prev != AU_SOLO_START:
            out.append("  Solitairix's turn continues:")
        if sub.phase in (AU_SOLO_START, AU_SOLO_REST):
            pad = "    "
        prev = sub.phase
        if sub.kind == "forced":
            who = "Solitairix" if sub.before[SOLO] and sub.seat == 1 else f"seat {sub.seat}"
            out.append(f"  {who} (only option): {describe(sub.before, sub.action, nm)}")
            pad = "    "
        out.extend(pad + line for line in effects(sub, nm, data))
    return out


def trace(setup, seed: int) -> tuple[list[str], ChunkResult]:
    """Play one game of ``setup`` with ``seed``; return the readable lines and its result."""
    nm = _Names()
    data = setup_data(setup)
    codes, params = setup.bot_arrays()
    choose = chunk_loop(codes, choose_action, choose_plain)  # greedy never compiles the search
    mode, fixed = role_mode_of(setup)
    n = setup.players
    streams = new_streams(n)
    seed_streams(streams, np.uint64(seed))
    a = np.zeros(STATE_LEN, np.int32)
    b = np.zeros(STATE_LEN, np.int32)
    buf = np.zeros(MAX_ACTIONS, np.int32)
    init_state(data, n, mode, fixed, streams[0], a)
    solo = bool(a[SOLO])
    lines = [f"Celtae, {n} player(s){' (solo against Solitairix)' if solo else ''}, seed {seed}"]
    lines.append(f"bots: {', '.join(str(x) for x in setup.bots)}")
    for seat in range(n):
        lines.append(_player_line(a, seat, nm))
    cards = ", ".join(f"P{int(c) + 1:02d}" for c in a[PCARD : PCARD + 8] if c >= 0)
    lines.append(f"progress cards laid out: {cards}; track {int(a[TRACK])} pawns")
    round_seen = -1
    counts = np.zeros((n, len(DECISION_KINDS)), np.int32)
    while not is_over(a):
        if a[ROUND] != round_seen:
            round_seen = int(a[ROUND])
            lines.append(f"-- round {round_seen} --")
        seat = current_player(a)
        act = choose(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
        text = describe(a, act, nm)
        counts[seat, decision_kind(a, act)] += 1
        lines.append(f"seat {seat}: {text}")
        lines.extend(step_lines(a, act, data, streams[0], b, nm))
        if b[TURNS] != a[TURNS] and not b[OVER]:
            m = MARKET
            lines.append(
                f"  pawn at {POSITIONS[int(b[PAWN])]}; centre [{_workers(b[CENTRE : CENTRE + 3])}]"
                f"; spaces "
                + "; ".join(
                    f"{SPACE_NAMES[k]} [{_workers(b[SPACES + 3 * k : SPACES + 3 * k + 3])}]"
                    for k in range(4)
                )
                + "; North market "
                + ", ".join(nm.card(int(c)) for c in b[m : m + 6])
            )
        a, b = b, a
    res = ChunkResult.empty(1, n, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS), len(DECISION_KINDS))
    res.actions[0] = counts
    win = np.zeros((1, n), np.float64)
    write_results(
        a, data, 0, res.rounds, res.turns, res.end_reason, res.score, res.components,
        res.role, res.side, res.extras, win,
    )  # fmt: skip
    if n == 1:
        res.win = win
    lines.append("-- final state --")
    for seat in range(n):
        lines.append(_player_line(a, seat, nm))
        lines.append(f"  seat {seat} scores {int(res.score[0, seat])}:")
        for name, v in zip(SCORE_COMPONENTS, res.components[0, seat], strict=True):
            lines.append(f"    {name} {int(v)}")
    lines.append(
        f"end: {END_REASONS[int(a[REASON])]} after {int(a[ROUND])} rounds, {int(a[TURNS])} turns; "
        f"scores {[int(x) for x in res.score[0]]}"
    )
    return lines, res
