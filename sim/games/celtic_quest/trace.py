"""A Celtic Quest game as text: every decision, then what changed because of it.

The game is the one the compiled loop plays for the seed (same data, streams and kernels). A
decision of the shared rules is worded as Celtic Trader's trace words it; Celtic Quest's own
decisions are worded here. After each decision, one line per effect read from the state
before and after: tokens drawn, RP and VP paid, capabilities, carried tokens, crystals, items,
quests held and completed, tiles enchanted, crystals placed, Romans placed and removed,
bastions conquered, the spell track and the supply.
"""

from __future__ import annotations

import numpy as np

from sim.core.results import ChunkResult
from sim.core.rng import seed_streams
from sim.games.celtic_quest import layout as Q
from sim.games.celtic_quest.decisions import DECISION_KINDS
from sim.games.celtic_quest.params import load_raw
from sim.games.celtic_quest.play import (
    SCORE_COMPONENTS,
    fixed_destinies,
    game_data,
    map_layout,
    map_seed,
)
from sim.games.celtic_quest.setup import setup as quest_setup
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader import trace as trader_trace
from sim.games.celtic_trader.decisions import decision_kind
from sim.games.celtic_trader.params import (
    CAP_NAMES,
    O_RULES,
    O_SEC_TILE,
    O_SPOT_RES,
    O_SPOT_SEC,
    R_NSPOT,
    bastion_names,
    resource_names,
    section_names,
)
from sim.games.celtic_trader.play import write_results
from sim.games.celtic_trader.rules import current_player, init_state, is_over, step
from sim.games.celtic_trader.setup import setup_state
from strategies.celtic_trader import choose_action, choose_plain
from strategies.search import chunk_loop

ITEM_NAMES = ("gold", "bread", "ring", "elixir")


def _names():
    raw = load_raw()
    return [d["id"] for d in raw["destinies"]], [q["id"] for q in raw["quests"]]


def _tile_names(data) -> list[str]:
    secs = section_names()
    names: list[str] = []
    for i, s in enumerate(secs):
        t = int(data[O_SEC_TILE + i])
        if t == len(names):
            names.append(s.split(".")[0].rstrip("ab") if "." in s or s[-1] in "ab" else s)
    return names


def describe_action(state: np.ndarray, data: np.ndarray, action: int) -> str:
    """The decision ``action`` taken in ``state``, in words."""
    sec, res = section_names(), resource_names()
    destinies, quests = _names()
    tiles = _tile_names(data)
    ph = int(state[S.PHASE])
    q = Q.QPLAYERS + int(state[S.CUR]) * Q.QPW
    if ph <= S.PH_TURN_END and action < Q.A_Q and not (ph == S.PH_DELIVER and action >= Q.A_RING):
        trader_trace._DATA_CACHE["data"] = data
        return trader_trace.describe_action(state, action)
    if ph == Q.PH_DESTINY:
        return f"keeps the destiny {destinies[int(state[q + Q.QP_ALT0 + action - Q.A_DESTINY])]}"
    if ph == Q.PH_RETURN:
        kinds = trader_trace._kind_names()
        return f"puts the {kinds[int(state[S.PENDING + action - S.A_ORDER])]} token back (Talisman)"
    if ph == Q.PH_ENCHANT:
        return f"enchants {tiles[action - Q.A_TILE]}"
    if ph == Q.PH_CRYSTAL_SPOT:
        return f"puts the drawn crystal on {tiles[action - Q.A_TILE]}"
    if ph == Q.PH_ITEM_DROP:
        return f"gives up a {ITEM_NAMES[action - Q.A_ITEM]} (pouch full)"
    if ph in (Q.PH_GOLD_RELOC, Q.PH_RAVEN):
        if action == S.A_PASS:
            return "leaves the Roman where it is" if ph == Q.PH_GOLD_RELOC else "moves no Roman"
        if ph == Q.PH_RAVEN:
            return f"Raven: takes the Roman on {sec[action - S.A_SEC]}"
        return f"moves the Roman to {sec[action - Q.A_ROMAN]}"
    if ph in (Q.PH_QUEST_DONE, Q.PH_QUEST_DISCARD):
        if action == S.A_PASS:
            return "completes no quest" if ph == Q.PH_QUEST_DONE else "keeps its quest"
        quest = quests[int(state[q + Q.QP_HELD + action - Q.A_QUEST])]
        return f"completes the quest {quest}" if ph == Q.PH_QUEST_DONE else f"discards {quest}"
    if ph == Q.PH_QUEST_DRAW:
        return "draws a quest" if action == Q.A_YES else "draws no quest"
    if ph == Q.PH_CRYSTALS:
        return (
            "delivers no crystal"
            if action == S.A_PASS
            else f"delivers {action - Q.A_CRYSTALS} crystal(s)"
        )
    if action >= Q.A_RING:
        a, j = divmod(action - Q.A_RING, S.MAX_DELIVER)
        k, r = a % S.MAX_DELIVER + 1, a // S.MAX_DELIVER
        return f"delivers {k} {res[r]} with {j + 1} ring{'s' if j else ''}"
    if action >= Q.A_DROP_ITEM and action < Q.A_DROP_CRYSTAL:
        return f"discards a {ITEM_NAMES[action - Q.A_DROP_ITEM]}"
    if action == Q.A_DROP_CRYSTAL:
        return "discards a crystal"
    if action == Q.A_BREAD:
        return "eats a bread (+1 tile)"
    if action in (Q.A_CRYSTAL, Q.A_CRYSTAL_ELIXIR):
        return "picks up a crystal" + (" with an elixir" if action == Q.A_CRYSTAL_ELIXIR else "")
    if action >= Q.A_ELIXIR:
        return f"picks up {res[int(data[O_SPOT_RES + action - Q.A_ELIXIR])]} with an elixir"
    if action >= Q.A_SHIELD:
        return f"moves to {sec[action - Q.A_SHIELD]} passing its Roman (Shield)"
    verb = "starts on" if ph == S.PH_START else "moves to"
    return f"{verb} {sec[action - Q.A_GOLD]} passing its Roman with a gold"


def describe_effects(a: np.ndarray, b: np.ndarray, data: np.ndarray) -> list[str]:
    """One line per change from state ``a`` to ``b`` (after one decision)."""
    out: list[str] = []
    res, sec, bas = resource_names(), section_names(), bastion_names()
    kinds = trader_trace._kind_names()
    tiles = _tile_names(data)
    drawn = int(b[S.DRAWS_TOTAL] - a[S.DRAWS_TOTAL])
    if drawn > 0:
        log = [kinds[int(k)] for k in b[S.DRAWN_LOG : S.DRAWN_LOG + b[S.N_DRAWN_LOG]]]
        out.append(f"draws {drawn} token(s): {', '.join(log[-drawn:])}")
    n = int(b[S.NP])
    for seat in range(n):
        pa, qa = S.pbase(seat), Q.QPLAYERS + seat * Q.QPW
        for name, off in (("RP", S.P_RP), ("VP", S.P_VP)):
            d = int(b[pa + off] - a[pa + off])
            if d:
                out.append(f"seat {seat} {'+' if d > 0 else ''}{d} {name} (now {b[pa + off]})")
        for c, cap in enumerate(CAP_NAMES):
            if b[pa + S.P_MOVE + c] != a[pa + S.P_MOVE + c]:
                out.append(f"seat {seat} {cap} level {b[pa + S.P_MOVE + c]}")
        for i, item in enumerate(ITEM_NAMES):
            d = int(b[qa + Q.QP_ITEMS + i] - a[qa + Q.QP_ITEMS + i])
            if d:
                out.append(
                    f"seat {seat} {'gains' if d > 0 else 'uses or gives up'} {abs(d)} {item}"
                )
        d = int(b[qa + Q.QP_CRYST] - a[qa + Q.QP_CRYST])
        if d:
            out.append(f"seat {seat} carries {b[qa + Q.QP_CRYST]} crystal(s)")
        if b[qa + Q.QP_CRYST_DONE] != a[qa + Q.QP_CRYST_DONE]:
            out.append(f"seat {seat} has delivered {b[qa + Q.QP_CRYST_DONE]} crystal(s)")
        if b[qa + Q.QP_NDONE] != a[qa + Q.QP_NDONE]:
            out.append(f"seat {seat} quest completed ({b[qa + Q.QP_NDONE]} in all), ability active")
        for j in range(Q.MAX_HELD):
            if b[qa + Q.QP_HELD + j] != a[qa + Q.QP_HELD + j] and b[qa + Q.QP_HELD + j] >= 0:
                out.append(f"seat {seat} now holds a quest (hidden)")
        if b[qa + Q.QP_DESTINY] != a[qa + Q.QP_DESTINY] and a[qa + Q.QP_DESTINY] < 0:
            out.append(f"seat {seat} keeps a destiny (hidden)")
    for t in range(int(data[Q.X_RULES + Q.X_NTILES])):
        if b[Q.ENCH + t] and not a[Q.ENCH + t]:
            out.append(f"{tiles[t]} is enchanted")
        d = int(b[Q.TCRYST + t] - a[Q.TCRYST + t])
        if d > 0:
            out.append(f"{d} crystal(s) placed on {tiles[t]}")
    for sp in range(len(b[Q.SPOT_OUT : Q.SPOT_OUT + S.MAX_SPOTS])):
        if b[Q.SPOT_OUT + sp] in (2, 3) and a[Q.SPOT_OUT + sp] not in (2, 3):
            what = "its token leaves the game" if b[Q.SPOT_OUT + sp] == 2 else "it was empty"
            out.append(f"the {res[int(data[O_SPOT_RES + sp])]} spot is gone ({what})")
        elif b[S.SPOT + sp] and not a[S.SPOT + sp]:
            out.append(f"a {res[int(data[O_SPOT_RES + sp])]} token is placed on its spot")
    for s_ in range(len(sec)):
        if b[S.ROMAN + s_] != a[S.ROMAN + s_]:
            out.append(f"Roman {'placed on' if b[S.ROMAN + s_] else 'removed from'} {sec[s_]}")
    for bb in range(len(bas)):
        if b[S.CONQ + bb] and not a[S.CONQ + bb]:
            out.append(f"{bas[bb]} is conquered (Roman town)")
    if b[Q.SPELL] != a[Q.SPELL]:
        out.append(f"spell track: box {b[Q.SPELL]}")
    if b[Q.QUEST_OUT] != a[Q.QUEST_OUT]:
        out.append("a quest is discarded (out of the game)")
    if b[S.SUPPLY] != a[S.SUPPLY]:
        out.append(f"supply: {b[S.SUPPLY]} points left")
    if b[S.TURNS] != a[S.TURNS]:
        out.append(f"-- round {b[S.ROUND]}, seat {b[S.CUR]} to play")
    return out


def _list(counts) -> str:
    return ", ".join(f"{int(n)} {name}" for name, n in counts if n) or "none"


def setup_lines(setup, seed: int, s: np.ndarray, data: np.ndarray) -> list[str]:
    """The table as set up (§3), before the first turn: the map and its tokens, the bastion
    charts, the bag, supply, crystals and spell track, each seat's items, destiny and quests,
    and the quest pile. The designer's view: the secret cards are shown."""
    res, sec, kinds = resource_names(), section_names(), trader_trace._kind_names()
    destinies, quests = _names()
    n = int(s[S.NP])
    if setup.params["map_mode"] == "generated":
        _, built = map_layout(setup, map_seed(setup, seed))
        tiles = ", ".join(f"{p.tile} ({p.q},{p.r}) r{p.rotation}" for p in built.layout)
        lines = [f"map: generated in {built.builds} build(s): {tiles}"]
    else:
        lines = ["map: the fixed Celtic Trader layout"]
    on_map, face_down = [], []
    for sp in range(int(data[O_RULES + R_NSPOT])):
        where = f"{res[int(data[O_SPOT_RES + sp])]} on {sec[int(data[O_SPOT_SEC + sp])]}"
        if s[Q.SPOT_OUT + sp]:
            face_down.append(where)
        elif s[S.SPOT + sp]:
            on_map.append(where)
    lines.append(f"resource tokens on the map ({len(on_map)}): {', '.join(on_map) or 'none'}")
    lines.append(f"face-down tokens (out of play): {', '.join(face_down) or 'none'}")
    lines += trader_trace.setup_lines(s, data)[1:]  # the bastion charts
    bag = [(kinds[k], s[S.BAG + k]) for k in range(S.N_KINDS)]
    lines.append(f"bag ({int(sum(n_ for _, n_ in bag))} tokens): {_list(bag)}")
    lines.append(
        f"supply {s[S.SUPPLY]} points, {s[S.TENS_LEFT]} '+10' markers; "
        f"{s[Q.CRYSTAL_SUPPLY]} crystals off the map; spell track box {s[Q.SPELL]}"
    )
    for seat in range(n):
        q = Q.QPLAYERS + seat * Q.QPW
        items = s[q + Q.QP_ITEMS : q + Q.QP_ITEMS + Q.N_ITEMS]
        items = _list(zip(ITEM_NAMES, items, strict=True))
        if s[q + Q.QP_DESTINY] >= 0:
            destiny = f"destiny {destinies[int(s[q + Q.QP_DESTINY])]}"
        else:
            pair = [destinies[int(d)] for d in s[q + Q.QP_ALT0 : q + Q.QP_ALT0 + 2] if d >= 0]
            destiny = f"destiny to keep: {' or '.join(pair)}"
        held = [quests[int(x)] for x in s[q + Q.QP_HELD : q + Q.QP_HELD + Q.MAX_HELD] if x >= 0]
        lines.append(
            f"seat {seat}: items {items}; {destiny}; quests {', '.join(held) or 'none'} (secret)"
        )
    top, left = int(s[Q.QPILE_TOP]), int(s[Q.QPILE_N])
    pile = [quests[int(x)] for x in s[Q.QPILE + top : Q.QPILE + top + left]]
    lines.append(f"quest pile ({left}, top first): {', '.join(pile) or 'empty'}")
    return lines


def trace(setup, seed: int) -> tuple[list[str], ChunkResult]:
    """Play one game (the same game the compiled loop plays for ``seed``) and log it."""
    from sim.games.celtic_quest.play import new_result

    data = game_data(setup, seed)
    codes, values = setup.bot_arrays()
    choose = chunk_loop(codes, choose_action, choose_plain)  # greedy never compiles the search
    fixed = fixed_destinies(setup)
    streams = np.zeros((1 + setup.players, 4), np.uint64)
    seed_streams(streams, np.uint64(seed % 2**64))
    a = np.zeros(Q.QSTATE_LEN, np.int32)
    b = np.zeros(Q.QSTATE_LEN, np.int32)
    buf = np.zeros(S.BUF_LEN, np.int32)
    before = np.zeros(Q.QSTATE_LEN, np.int32)  # the table before the first turn (§3)
    setup_state(data, setup.players, S.ROLES_RANDOM, fixed, before)
    quest_setup(data, setup.players, fixed, streams[0].copy(), before)
    init_state(data, setup.players, S.ROLES_RANDOM, fixed, streams[0], a)
    destinies, _ = _names()
    lines = [
        f"Celtic Quest, {setup.players} players, seed {seed}, bots "
        + ", ".join(str(x) for x in setup.bots),
        *setup_lines(setup, seed, before, data),
        *(f"    {x}" for x in describe_effects(before, a, data)),
    ]
    counts = np.zeros((setup.players, len(DECISION_KINDS)), np.int32)
    while not is_over(a):
        seat = current_player(a)
        act = int(choose(a, data, seat, codes[seat], values[seat], streams[1 + seat], buf))
        lines.append(f"  seat {seat} {describe_action(a, data, act)}")
        counts[seat, decision_kind(a, act)] += 1
        step(a, act, data, streams[0], b)
        lines += [f"    {x}" for x in describe_effects(a, b, data)]
        a, b = b, a
    res = new_result(1, setup.players)
    res.actions[0] = counts
    write_results(a, data, 0, res.rounds, res.turns, res.end_reason, res.score,
                  res.components, res.role, res.extras)  # fmt: skip
    res.extras[:, :, 1] = res.extras[:, :, 0] if setup.params["tie_break"] == "most_quests" else 0
    for s_ in range(setup.players):
        parts = " + ".join(
            f"{res.components[0, s_, i]} {name}" for i, name in enumerate(SCORE_COMPONENTS)
        )
        lines.append(
            f"final: seat {s_} ({destinies[res.role[0, s_]]}) {res.score[0, s_]} = {parts}; "
            f"{res.extras[0, s_, 0]} quest(s) completed"
        )
    lines.append(f"end: {Q.END_REASONS[a[S.REASON]]} after {a[S.ROUND]} rounds, {a[S.TURNS]} turns")
    return lines, res
