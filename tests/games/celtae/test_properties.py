"""Celtae invariants over many whole games, checked after EVERY step by a compiled loop
(tests/games/celtae/helpers.py) over the invariants of sim/games/celtae/invariants.py.

Per step: ``step`` leaves its input untouched; the 56 non-druid workers (bag, centre, action
spaces, active workers, tribes, box) and the 10 druids (reserves, tribes, box) are each somewhere
exactly once; so are the 60 cards (deck, discard pile, markets, hands, Solitairix's drawn card),
every player's 9 discs and 4 cubes, the 10 bonus tokens and the progress pawns; the tiles taken
from the piles are the tiles the players hold; counters agree with their histograms; force stays
on its track; the bot's action is legal; greedy's action does not change when what its seat
cannot see is re-dealt (it never peeks). Per turn: no tribe above the cap. Per game: it ends
within a step bound, and the score equals the sum of its lines A..K.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.core.registry import make_setup
from sim.games.celtae.params import PARAMS, data_for
from sim.games.celtae.play import role_mode_of
from strategies.celtae import choose_action
from tests.games.celtae.helpers import check_games, describe

GAMES = 1000


def run_checks(players, bots, roles="random", params=None, games=GAMES, first_seed=0):
    setup = make_setup("celtae", players, params or {}, bots, roles)
    codes, values = setup.bot_arrays()
    mode, fixed = role_mode_of(setup)
    seeds = np.arange(first_seed, first_seed + games, dtype=np.uint64)
    data = data_for(setup.params, players)
    errors = check_games(data, players, mode, fixed, codes, values, seeds, choose_action)
    bad = np.flatnonzero(errors)
    return [(int(seeds[g]), describe(int(errors[g]))) for g in bad[:5]]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_invariants_hold_after_every_step(players, bots):
    roles = "draft" if bots == "greedy" else "random"
    assert run_checks(players, bots, roles) == []


@pytest.mark.parametrize("players", [2, 4])
def test_invariants_with_mixed_bots_and_fixed_leaders(players):
    leaders = ["viriate", "avaros", "diviciacos", "ambiorix"][:players]
    assert run_checks(players, ["greedy", "random"] * (players // 2), leaders, games=300) == []


SWITCHES = [p for p in PARAMS if p.choices and len(p.choices) > 1]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(1, 4),
    flips=st.lists(st.sampled_from(SWITCHES), min_size=1, max_size=6, unique=True),
    bots=st.sampled_from(["random", "greedy"]),
    seed=st.integers(0, 10**6),
)
def test_invariants_hold_under_any_rule_switches(players, flips, bots, seed):
    """Every rule switch of §10 set to an alternative (several at once) keeps the books."""
    params = {p.name: p.choices[1] for p in flips}
    assert run_checks(players, bots, params=params, games=40, first_seed=seed) == []


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    tribe_cap=st.integers(3, 10),
    refresh_cost=st.integers(0, 3),
    max_recruits=st.integers(1, 3),
    track=st.integers(1, 12),
    seed=st.integers(0, 10**6),
)
def test_invariants_hold_under_swept_levers(
    players, tribe_cap, refresh_cost, max_recruits, track, seed
):
    params = {
        "tribe_cap": tribe_cap,
        "refresh_cost": refresh_cost,
        "max_recruits": max_recruits,
        "progress_track_pawns": track,
        "leader_flip_at": min(3, track - 1),
    }
    assert run_checks(players, "greedy", params=params, games=40, first_seed=seed) == []
