"""Celtae's greedy pursues every leader's condition, at the values the data gives it (issue 35).

Measured with experiments/configs/celtae_leaders.toml at 3 players (20,000 greedy games, seed 5,
leaders dealt at random): before issue 35, Viriate earned leader points in 1.2% of its games and
Ambiorix in 2.3% (greedy fought only when it could win at once and never stored force); after,
Viriate earns them in 10.7% of its games, Ambiorix in 11.9%, Avaros in 32.1%, Diviciacos in
32.9% and the others in 81% to 98%. The floor asserted here, 6%, is a little over half the
weakest share measured after and five times Viriate's share before, so the test fails on the old
bot and leaves room for tuning; with 3,000 games each leader has about 1,100 seats, and 6% lies
more than five standard errors below 10.7%.
"""

import numpy as np
import polars as pl
import pytest

from sim.core.registry import make_setup
from sim.core.results import to_frames
from sim.games.celtae.params import ROLE_IDS
from sim.games.celtae.play import play

EARN_FLOOR = 0.06
SEEDS = np.arange(3000, dtype=np.uint64)
PAIRED = np.arange(300, dtype=np.uint64)


def _players(players=3, roles="random", data=None, seeds=SEEDS):
    setup = make_setup("celtae", players, {}, "greedy", roles, data=data)
    return to_frames(setup, seeds, seeds, play(setup, seeds))[1]


def _decisions(frame):
    acts = [c for c in frame.columns if c.startswith("act_")]
    return frame.sort("game", "seat").select("game", "seat", *acts)


def test_greedy_earns_every_leaders_points_in_a_clear_share_of_its_games():
    players = _players()
    share = players.group_by("role").agg(earn=(pl.col("pts_leader") > 0).mean())
    shares = dict(zip(share["role"], share["earn"], strict=True))
    assert set(shares) == set(ROLE_IDS)
    low = {role: round(v, 3) for role, v in shares.items() if v < EARN_FLOOR}
    assert not low, f"leaders whose condition greedy meets in < {EARN_FLOOR:.0%} of games: {low}"


@pytest.mark.parametrize(
    ("leader", "path", "values"),
    [
        ("viriate", "leaders.viriate.A.army_2pt", [1, 0]),  # side A: one 2-point army, or none
        ("ambiorix", "leaders.ambiorix.A.army_2pt", [1, 2]),
        ("avaros", "leaders.avaros.A.cubes_placed", [2, 1]),
        ("diviciacos", "leaders.diviciacos.A.druid_2pt", [1, 2]),
        ("vercingetorix", "leaders.vercingetorix.B.discs_north", [3, 2]),
        ("caratacos", "leaders.caratacos.A.tribe_excl_druids", [3, 4]),
        ("cartimandua", "leaders.cartimandua.A.bonus_tiles", [1, 2]),
        ("boadicee", "leaders.boadicee.B.discs_placed", [7, 6]),
    ],
)
def test_a_leader_condition_value_changes_greedys_decisions(leader, path, values):
    """Paired games (same seeds, the leader at seat 0): changing one value of its condition in
    the data changes the decisions (the act_* counts) of the seat holding it in at least a fifth
    of the games. Measured over these 300 pairs: 24% (Boadicée's side B, read only by the flip
    and the pursuit of B) to 87% (Avaros)."""
    roles = [leader] + [r for r in ("boadicee", "caratacos", "viriate") if r != leader][:2]
    base, changed = (
        _decisions(_players(roles=roles, data={path: v}, seeds=PAIRED)) for v in values
    )
    seat0 = pl.col("seat") == 0
    a = base.filter(seat0).drop("game", "seat").to_numpy()
    b = changed.filter(seat0).drop("game", "seat").to_numpy()
    differ = (a != b).any(axis=1).mean()
    assert differ >= 0.2, f"{path} {values}: greedy's decisions differ in {differ:.0%} of games"


def test_side_b_worth_no_more_than_side_a_is_never_chosen():
    """``leaders.points_b`` lowered to side A's points: B can never pay, so greedy never flips
    (with the rulebook's 3 points it flips in a share of games: the value is read, not a test
    for > 0)."""
    flips = _players(seeds=PAIRED)["act_flip_to_b"].sum()
    assert flips > 0
    same = _players(data={"leaders.points_b": 1}, seeds=PAIRED)["act_flip_to_b"].sum()
    assert same == 0
