"""Celtic Quest's greedy bot uses the game as it is now (issue 35).

Games are stepped one decision at a time, as the bulk runner plays them; at each of the
greedy bot's movement decisions the move it plans (``planned_move``, before the bot's own
legality fallback) is compared with the rules' legal actions.
"""

import numpy as np

from sim.core.registry import make_setup
from sim.core.rng import derive_game_seeds, seed_streams
from sim.games.celtic_quest import layout as Q
from sim.games.celtic_quest.play import fixed_destinies, game_data
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.rules import (
    current_player,
    init_state,
    is_over,
    legal_actions,
    step,
)
from strategies.celtic_quest.greedy import planned_move
from strategies.celtic_trader import choose_action


def _play(players, n_games, root, on_move=None):
    """Play ``n_games`` greedy games; ``on_move(state, data, seat, values, rng, buf)`` is
    called before each movement decision (on copies of the bot's stream and buffer)."""
    setup = make_setup("celtic_quest", players, {}, "greedy")
    codes, values = setup.bot_arrays()
    fixed = fixed_destinies(setup)
    for seed in derive_game_seeds(root, players, np.arange(n_games)):
        data = game_data(setup, int(seed))
        streams = np.zeros((1 + players, 4), np.uint64)
        seed_streams(streams, np.uint64(seed))
        a = np.zeros(Q.QSTATE_LEN, np.int32)
        b = np.zeros(Q.QSTATE_LEN, np.int32)
        buf = np.zeros(S.BUF_LEN, np.int32)
        init_state(data, players, S.ROLES_RANDOM, fixed, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            rng = streams[1 + seat]
            if on_move is not None and a[S.PHASE] == S.PH_MOVE:
                on_move(a, data, seat, values[seat], rng.copy(), buf.copy())
            act = int(choose_action(a, data, seat, codes[seat], values[seat], rng, buf))
            step(a, act, data, streams[0], b)
            a, b = b, a


def test_every_planned_move_is_legal_on_the_enchanted_map():
    """The planner searches the map as enchantments left it (merged networks, Spirit-type
    costs): its planned move is legal at every movement decision, including the many made
    after a tile was enchanted (before issue 35: 0.6% of decisions, 14% of games)."""
    legal = np.zeros(S.BUF_LEN, np.int32)
    seen = {"moves": 0, "enchanted": 0, "illegal": []}

    def check(state, data, seat, values, rng, buf):
        planned = int(planned_move(state, data, seat, values, rng, buf))
        n = legal_actions(state, data, legal)
        seen["moves"] += 1
        seen["enchanted"] += bool(state[Q.ENCH : Q.ENCH + Q.MAX_TILES].any())
        if planned not in legal[:n]:
            seen["illegal"].append((int(state[S.TURNS]), planned))

    _play(4, 120, root=35, on_move=check)
    assert seen["moves"] > 20_000
    assert seen["enchanted"] > seen["moves"] // 3  # most moves are on an enchanted map
    assert seen["illegal"] == [], f"{len(seen['illegal'])} illegal planned moves"
