"""Invariants of Celtic Quest checked after EVERY step of many random and greedy games.

The compiled checked loop of ``menhir check`` (sim/games/celtic_quest/invariants.py) plays the
games like the bulk runner and, at each step, checks that the bot's action is legal, that
``step`` left its input untouched, and Celtic Quest's invariants: every token kind conserved
(resources, Romans, the druid, crystals, items, quest cards), RP + VP within the supply, carried
tokens and crystals within Carrying X, positions on the map (never a section merged away by an
enchantment), and what never goes back (spell track, enchantments, quests, crystals delivered);
at the end, that each score is the sum of its four components and that the game ended by a
rule. Every game plays on a generated map, and each map is re-checked by the independent map
checker of test_mapgen.py.

"No bot reads a hidden card": re-dealing what the greedy bot's seat cannot see (the others'
destinies and quests, the quest pile: strategies/celtic_quest/hidden.py ``determinize``) never
changes its choice.
"""

import numpy as np
import pytest

from sim.core.check import C_ENDS, GAME_BASE, NO_CORRUPTION, check_games, invariant_names
from sim.core.registry import make_setup
from sim.core.rng import derive_game_seeds, seed_streams
from sim.games.celtic_quest import invariants as I
from sim.games.celtic_quest import layout as Q
from sim.games.celtic_quest.mapgen import generate_map, load_catalogue
from sim.games.celtic_quest.play import fixed_destinies, game_data
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.mapmode import map_rng
from sim.games.celtic_trader.params import N_RES, O_RULES, O_SPOT_RES, R_BAG_RES, R_NSPOT
from sim.games.celtic_trader.rules import current_player, init_state, is_over, step
from strategies.celtic_quest.hidden import determinize
from strategies.celtic_trader import choose_action, policy
from tests.games.celtic_quest.test_mapgen import check_layout, unconnected_spots

MAX_STEPS = 200_000
ERRORS = invariant_names("celtic_quest")  # "ok", the generic invariants, then Celtic Quest's
CAT = load_catalogue()
GAMES_PER_MAP = 25


def _assert_clean(first_code, first_step, seeds):
    bad = np.flatnonzero(first_code)
    assert bad.size == 0, (
        f"game seed {seeds[bad[0]]}, step {first_step[bad[0]]}: "
        f"{ERRORS[first_code[bad[0]]]} ({bad.size} games)"
    )


def play_checked(players, bots, n_games, root, params=None):
    """Play ``n_games`` checked games (the compiled loop of ``menhir check``), GAMES_PER_MAP
    on each generated map (the map of the first game's seed); every map is checked by the
    independent checker. Returns (first violation per game, its step, seeds, counts)."""
    names = bots.split(",")  # seat i plays names[i % len(names)]
    bots = ",".join(names[i % len(names)] for i in range(players))
    setup = make_setup("celtic_quest", players, params or {}, bots)
    codes, values = setup.bot_arrays()
    fixed = fixed_destinies(setup)
    seeds = derive_game_seeds(root, players, np.arange(n_games))
    first_code = np.zeros(n_games, np.int64)
    first_step = np.zeros(n_games, np.int64)
    counts = np.zeros((I.N_ROWS, 2), np.int64)
    for start in range(0, n_games, GAMES_PER_MAP):
        map_seed = int(seeds[start])
        if setup.params["map_mode"] == "generated":
            built = generate_map(CAT, map_rng(map_seed), players)
            assert check_layout(built.layout) == [], map_seed
            assert len(unconnected_spots(built.layout)) <= setup.params["unconnected_spots_max"]
        data = game_data(setup, map_seed)
        bag = data[O_RULES + R_BAG_RES]
        spots = data[O_SPOT_RES : O_SPOT_RES + data[O_RULES + R_NSPOT]]
        # 7 playing tokens per type: 3 on the map's spots, 4 in the bag (§2, §3.2)
        assert np.bincount(spots, minlength=N_RES).tolist() == [3] * N_RES and bag == 4
        stop = min(start + GAMES_PER_MAP, n_games)
        I.checked_kernel(
            data, players, fixed, codes, values, seeds[start:stop], MAX_STEPS, NO_CORRUPTION,
            first_code[start:stop], first_step[start:stop], counts,
        )  # fmt: skip
    return first_code, first_step, seeds, counts


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_invariants_hold_after_every_step(players, bots):
    first_code, first_step, seeds, counts = play_checked(players, bots, 1000, root=11)
    _assert_clean(first_code, first_step, seeds)
    # every invariant was checked after every step of every game
    steps = int(first_step.sum())
    assert counts[GAME_BASE + 1 :, 0].min() == steps + len(seeds)
    assert counts[C_ENDS, 0] == len(seeds) and first_step.min() > players


@pytest.mark.parametrize(
    "players, bots, params",
    [
        (4, "greedy,random", {"map_mode": "fixed"}),
        (3, "greedy", {"advanced": True, "quest_vp_source": "supply", "tie_break": "shared"}),
        (
            5,
            "random,greedy",
            {"items_after_use": "removed_from_game", "harp_bonus": "per_delivery"},
        ),
        (4, "greedy", {"ring_bonus": "per_delivery", "elixir_on_crystals": False}),
        (2, "greedy", {"crystal_delivery": "all_or_none", "ability_same_visit": False}),
        (4, "random", {"druid_tokens": 3, "crystals": 4, "enchantable_tiles": 3}),
        (3, "greedy", {"quests_dealt": 3, "quests_held": 3, "pouch_limit": 5}),
    ],
)
def test_invariants_hold_under_levers(players, bots, params):
    first_code, first_step, seeds, _ = play_checked(players, bots, 100, root=5, params=params)
    _assert_clean(first_code, first_step, seeds)


@pytest.mark.parametrize(
    "cell, delta, broken",
    [
        (Q.CRYSTAL_SUPPLY, 1, I.CRYSTALS),
        (S.BAG + S.T_DRUID, 1, I.TOKENS),
        (S.DISC + 2, -1, I.TOKENS),
        (Q.ITEMS_OUT + Q.I_RING, 1, I.ITEMS),
        (Q.QUEST_OUT, 1, I.QUESTS),
        (S.SUPPLY, -3, I.SUPPLY),
        (Q.QPLAYERS + Q.QP_CRYST, 5, I.CRYSTALS),
        (S.PLAYERS + S.P_POS, 60, I.MAP),
        (Q.SPELL, -1, I.PROGRESS),
    ],
)
def test_the_checker_reports_a_broken_state(cell, delta, broken):
    """A cell corrupted after step 40 of game 0 is reported as the invariant it breaks."""
    setup = make_setup("celtic_quest", 3, {}, "greedy")
    seed = 7
    report = check_games(setup, 1, seed, corrupt=(0, 40, cell, delta))
    assert report.first() == (seed, 40, ERRORS[GAME_BASE + broken])
    assert check_games(setup, 1, seed).violations == 0


# ---------------------------------------------------------------------------------------------
# no bot reads a hidden card
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_greedy_choice_ignores_the_hidden_cards(players):
    """At every decision of several greedy games, the greedy choice on the true state equals
    the choice on states where the others' destinies and quests and the quest pile are dealt
    again (same bot stream, same plan memory)."""
    setup = make_setup("celtic_quest", players, {}, "greedy")
    codes, values = setup.bot_arrays()
    fixed = fixed_destinies(setup)
    redeal = np.zeros(4, np.uint64)
    seed_streams(redeal.reshape(1, 4), np.uint64(99 + players))
    positions = changed = 0
    for seed in range(4):
        data = game_data(setup, seed)
        streams = np.zeros((1 + players, 4), np.uint64)
        seed_streams(streams, np.uint64(seed))
        a = np.zeros(Q.QSTATE_LEN, np.int32)
        b = np.zeros(Q.QSTATE_LEN, np.int32)
        other = np.zeros(Q.QSTATE_LEN, np.int32)
        buf = np.zeros(S.BUF_LEN, np.int32)
        init_state(data, players, S.ROLES_RANDOM, fixed, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            saved_buf, saved_rng = buf.copy(), streams[1 + seat].copy()
            rng = streams[1 + seat]
            act = int(choose_action(a, data, seat, codes[seat], values[seat], rng, buf))
            for _ in range(2):
                determinize(a, data, seat, redeal, other)
                b_buf, b_rng = saved_buf.copy(), saved_rng.copy()
                alt = int(policy(other, data, seat, values[seat], b_rng, b_buf))
                assert alt == act, f"seed {seed}: seat {seat}'s choice read a hidden card"
                positions += 1
                changed += not np.array_equal(other, a)
            step(a, act, data, streams[0], b)
            a, b = b, a
    assert positions > 500
    assert changed > positions // 2  # the re-deal did change what the seat cannot see
