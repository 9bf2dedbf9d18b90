"""Great Wall greedy (issue 35): it raises its wall by the threat, read from the data and the
public state (the arrows' roll probabilities, riders waiting and in the bag, the battlefield
against the level and capacity, the penalty, the breaches left before the shared defeat), so
before a rider waits; the threat's levers change its wall decisions in paired games."""

import numpy as np
import polars as pl

from sim.core.batch import play_batch
from sim.core.registry import make_setup
from sim.games.catan_great_wall import params as P
from sim.games.catan_great_wall import state as G
from sim.games.catan_great_wall.rules import wall_of
from sim.games.catan_great_wall.state import R_WALL_BREACHED
from strategies.catan_great_wall.greedy import (
    GREEDY_PARAMS,
    P_WALL_HORIZON,
    P_WALL_THREAT,
    arrivals,
    wall_value,
)
from tests.games.catan_great_wall.helpers import (
    after_setup,
    data_for,
    main_phase,
    put_field,
    put_territory,
    territory,
)

DEFAULTS = np.array([p.default for p in GREEDY_PARAMS], np.float64)
CLEAR_SHARE = 0.2  # tests/strategies/test_levers.py: a clear share of the paired games
GAMES = 200


def _quiet_start(players=4, **overrides):
    """Seat 0 in its trade and build phase after the setup: no rider out of the bag."""
    data = data_for(players, **overrides)
    s = main_phase(after_setup(data, players), 0)
    assert sum(territory(s, t) for t in range(data[P.D_W + P.W_NUMERALS])) == 0
    return data, s


def test_wall_valued_before_any_rider_waits():
    data, s = _quiet_start()
    w = wall_of(s, data, 0)
    assert arrivals(s, data, w, DEFAULTS[P_WALL_HORIZON]) > 0.0  # riders the bag will send
    assert wall_value(s, data, 0, DEFAULTS) > 0.0
    off = DEFAULTS.copy()
    off[P_WALL_THREAT] = 0.0
    assert wall_value(s, data, 0, off) == 0.0


def test_wall_value_follows_the_data():
    data, s = _quiet_start()
    default = wall_value(s, data, 0, DEFAULTS)
    penalty = int(data[P.D_W + P.W_PENALTY])
    dearer = data_for(4, penalty_per_breach=2 * penalty + 1)
    assert wall_value(s, dearer, 0, DEFAULTS) > default
    near = s.copy()
    near[G.BREACHES] = data[P.D_W + P.W_BREACH_LIMIT] - 1  # the next breach ends the game
    assert wall_value(near, data, 0, DEFAULTS) > default
    w = wall_of(s, data, 0)
    waiting = s.copy()
    for t in range(data[P.D_W + P.W_NUMERALS]):
        put_territory(waiting, t, 2)
    assert wall_value(waiting, data, 0, DEFAULTS) > default
    full = s.copy()  # a wall at the battlefield's capacity can never be breached
    full[G.LEVEL + w] = data[P.D_W + P.W_CAPACITY]
    put_field(full, w, 1)
    assert wall_value(full, data, 0, DEFAULTS) == 0.0


def _tables(params, bots="greedy", players=4):
    setup = make_setup("catan_great_wall", players, params, bots)
    games, table = play_batch(setup, range(GAMES), root_seed=35)
    return games.sort("game"), table.sort(["game", "seat"])


def _changed_share(a, b, column):
    """Share of the paired games where some seat's ``column`` differs."""
    diff = (
        a.select("game", "seat", column)
        .join(b.select("game", "seat", column), on=["game", "seat"], suffix="_b")
        .group_by("game")
        .agg((pl.col(column) != pl.col(f"{column}_b")).any().alias("changed"))
    )
    return diff["changed"].mean()


def test_threat_levers_change_greedy_wall_decisions():
    defaults = make_setup("catan_great_wall", 4, {}, "greedy").params
    _, base = _tables({})
    for lever, value in (
        ("penalty_per_breach", 0),
        ("penalty_per_breach", 2 * defaults["penalty_per_breach"] + 1),
        ("breaches_to_lose", defaults["breaches_to_lose"] + 2),
    ):
        _, other = _tables({lever: value})
        share = _changed_share(base, other, "act_build_wall")
        assert share >= CLEAR_SHARE, f"{lever}={value}: wall decisions changed in {share:.2f}"


def test_the_threat_term_keeps_the_wall_standing():
    """Against the same bot with no threat term, paired games: fewer defeats for everybody,
    walls raised in most games, and penalties taken fall."""
    games, table = _tables({})
    games0, table0 = _tables({}, "greedy:wall_threat=0")
    lost = (games["end_reason"] == G.END_REASONS[R_WALL_BREACHED]).mean()
    lost0 = (games0["end_reason"] == G.END_REASONS[R_WALL_BREACHED]).mean()
    assert lost < lost0 - 0.1, f"everybody lost {lost:.2f}, {lost0:.2f} with no threat term"
    assert table["penalties"].mean() < table0["penalties"].mean()
    assert table["act_build_wall"].mean() > table0["act_build_wall"].mean()
