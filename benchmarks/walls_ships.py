"""Issue 35 evidence: how the Great Wall and Troy greedy bots play, over fixed-seed games.

usage: python benchmarks/walls_ships.py [--games N] [--seed S] [--players 4,6] [GAME ...]

Great Wall: the share of breaches that hit a level-0 wall, the share of games everybody lost,
each seat's win share. Troy: ships built per seat, commerce tokens held at the end, each seat's
win share, and the seats that started with no coastal building: how many, and the share of those
that built a ship. The tables come from the game's own chunk loop (sim.core.batch.play_chunk);
the breach levels and coastal starts from a step-by-step replay of the same seeds (the trace's
loop), whose win column is checked to match.
"""

import argparse

import numpy as np

from sim.core.batch import play_chunk
from sim.core.registry import make_setup
from sim.core.rng import derive_game_seeds, new_streams, seed_streams
from strategies.search import chunk_loop


def _replay_gw(setup, seeds):
    from sim.games.catan import state as S
    from sim.games.catan_great_wall import state as G
    from sim.games.catan_great_wall.params import compile_data
    from sim.games.catan_great_wall.rules import current_player, init_state, is_over, step
    from strategies.catan_great_wall import choose_action, choose_plain

    data = compile_data(dict(setup.params), setup.players)
    n = setup.players
    codes, params = setup.bot_arrays()
    choose = chunk_loop(codes, choose_action, choose_plain)
    levels = []
    for seed in seeds:
        streams = new_streams(n)
        seed_streams(streams, np.uint64(seed))
        a = np.zeros(G.GW_STATE_LEN, np.int32)
        b = np.zeros(G.GW_STATE_LEN, np.int32)
        buf = np.zeros(G.GW_MAX_ACTIONS, np.int32)
        init_state(data, n, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            act = choose(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            step(a, act, data, streams[0], b)
            if act == S.A_ROLL and b[G.BREACHES] > a[G.BREACHES]:
                for w in range(G.MAX_WALLS):
                    o = a[G.WALL_OWNER + w]
                    if o >= 0 and b[G.PENALTY + o] > a[G.PENALTY + o]:
                        levels.append(int(a[G.LEVEL + w]))
            a, b = b, a
    return np.array(levels)


def _replay_troy(setup, seeds):
    """Per game and seat: no building on a coast at the first roll; none at the end."""
    from sim.games.catan import state as S
    from sim.games.catan_troy import state as T
    from sim.games.catan_troy.params import K_N_SEA, T_SEA_VERTICES, compile_data
    from sim.games.catan_troy.rules import current_player, init_state, is_over, key, step
    from strategies.catan_troy import choose_action, choose_plain

    data = compile_data(dict(setup.params), setup.players)
    n = setup.players
    codes, params = setup.bot_arrays()
    choose = chunk_loop(codes, choose_action, choose_plain)
    inland = np.zeros((len(seeds), n), bool)
    never = np.zeros((len(seeds), n), bool)
    corners = data[T_SEA_VERTICES : T_SEA_VERTICES + 6 * key(data, K_N_SEA)]
    coast = {int(v) for v in corners if v >= 0}
    for g, seed in enumerate(seeds):
        streams = new_streams(n)
        seed_streams(streams, np.uint64(seed))
        a = np.zeros(T.STATE_LEN, np.int32)
        b = np.zeros(T.STATE_LEN, np.int32)
        buf = np.zeros(T.MAX_ACTIONS, np.int32)
        init_state(data, n, streams[0], a)
        seen = False
        while not is_over(a):
            seat = current_player(a)
            act = choose(a, data, seat, codes[seat], params[seat], streams[1 + seat], buf)
            if act == S.A_ROLL and not seen:
                seen = True
                for s in range(n):
                    inland[g, s] = not any(a[S.V_OWNER + v] == s for v in coast)
            step(a, act, data, streams[0], b)
            a, b = b, a
        for s in range(n):
            never[g, s] = not any(a[S.V_OWNER + v] == s for v in coast)
    return inland, never


def measure(game, players, games, seed, bots="greedy", params=None):
    setup = make_setup(game, players, params or {}, bots)
    seeds = derive_game_seeds(seed, 0, np.arange(games))
    r = play_chunk(setup, seeds)
    out = {"game": game, "players": players, "games": games}
    win = r.win
    out["win_share"] = [round(float(x), 3) for x in win.mean(axis=0)]
    if game == "catan_great_wall":
        from sim.games.catan_great_wall.state import R_WALL_BREACHED

        out["everybody_lost"] = round(float((r.end_reason == R_WALL_BREACHED).mean()), 3)
        levels = _replay_gw(setup, seeds)
        out["breaches"] = len(levels)
        out["level0_share"] = round(float((levels == 0).mean()), 3) if len(levels) else None
        out["breach_levels"] = np.bincount(levels, minlength=6).tolist()
    else:
        from sim.games.catan_troy.play import PLAYER_EXTRAS

        ships = r.extras[:, :, PLAYER_EXTRAS.index("ships_built")]
        tokens = r.extras[:, :, PLAYER_EXTRAS.index("commerce_tokens")]
        out["ships_per_seat"] = [round(float(x), 2) for x in ships.mean(axis=0)]
        out["tokens_at_end_per_seat"] = [round(float(x), 2) for x in tokens.mean(axis=0)]
        inland, never = _replay_troy(setup, seeds)
        out["inland_seats"] = int(inland.sum())
        out["never_coastal_seats"] = int(never.sum())
        if never.any():
            out["never_coastal_tokens_at_end"] = round(float(tokens[never].mean()), 2)
        if inland.any():
            out["inland_with_ship"] = round(float((ships[inland] > 0).mean()), 3)
            out["inland_tokens_at_end"] = round(float(tokens[inland].mean()), 2)
        out["coastal_with_ship"] = round(float((ships[~inland] > 0).mean()), 3)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("games_", nargs="*", default=["catan_great_wall", "catan_troy"])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--players", default="4,6")
    a = ap.parse_args()
    for game in a.games_:
        for p in [int(x) for x in a.players.split(",")]:
            print(measure(game, p, a.games, a.seed), flush=True)
