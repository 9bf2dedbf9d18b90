"""Celtic Trader as a whole: declaration, parameters, determinism, trace and bot strength."""

import numpy as np
import pytest

from sim.core.batch import play_batch, trace_game
from sim.core.params import ParamError
from sim.core.registry import get_game, make_setup
from sim.games.celtic_trader.params import PARAMS


def test_declaration_matches_the_contract():
    g = get_game("celtic_trader")
    assert g.roles == ("fastest", "trusted", "haggler", "strongest", "wanderer", "versatile")
    assert g.end_reasons == ("all_conquered", "supply_exhausted", "turn_limit", "turn_cap")
    assert g.score_components == ("vp", "role")
    assert [(b.name, b.code) for b in g.bots] == [("random", 0), ("greedy", 1), ("search", 2)]
    assert g.role_modes == ("random", "draft") and (g.min_players, g.max_players) == (2, 5)
    assert [PARAMS.defaults(p)["romans_in_play"] for p in (2, 3, 4, 5)] == [14, 13, 12, 11]
    assert PARAMS.defaults(4)["turn_limit"] == 0


@pytest.mark.parametrize(
    "overrides, fragment",
    [
        ({"romans": 3}, "unknown parameter 'romans'"),
        ({"romans_in_play": 15}, "'romans_in_play' = 15"),
        ({"roles_in_play": 4}, "'roles_in_play' = 4"),
        ({"start_mode": "anywhere"}, "'start_mode' = 'anywhere'"),
        ({"turn_limit": -1}, "'turn_limit' = -1"),
    ],
)
def test_bad_parameters_are_one_line_errors(overrides, fragment):
    with pytest.raises(ParamError) as err:
        make_setup("celtic_trader", 3, overrides, "random")
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_bad_bot_parameter_is_an_error():
    with pytest.raises(ParamError, match="claim_weight"):
        make_setup("celtic_trader", 2, {}, "greedy:claim_weight=-1")


def test_same_seed_same_results_and_byte_identical_trace():
    setup = make_setup("celtic_trader", 4, {}, "greedy,random,greedy,random")
    a = play_batch(setup, range(40), root_seed=3)
    b = play_batch(setup, range(40), root_seed=3)
    assert a[0].equals(b[0]) and a[1].equals(b[1])
    first, _ = trace_game(setup, 77)
    second, _ = trace_game(setup, 77)
    assert "\n".join(first).encode() == "\n".join(second).encode()
    assert first != trace_game(setup, 78)[0]
    text = "\n".join(first)
    for word in ("draws", "moves to", "takes the role", "round 2, seat 0", "end:"):
        assert word in text


def test_turn_limit_and_parameters_change_the_game():
    base = make_setup("celtic_trader", 3, {}, "greedy")
    fast = make_setup("celtic_trader", 3, {"romans_in_play": 14, "turn_limit": 6}, "greedy")
    g0, _ = play_batch(base, range(100), root_seed=4)
    g1, _ = play_batch(fast, range(100), root_seed=4)
    assert (g1["rounds"] <= 6).all() and (g1["end_reason"] == "turn_limit").any()
    assert g0["rounds"].mean() > g1["rounds"].mean()


def test_greedy_beats_random_in_two_player_games_with_seats_swapped():
    share = 0.0
    for bots, seat in (("greedy,random", 0), ("random,greedy", 1)):
        _, table = play_batch(make_setup("celtic_trader", 2, {}, bots), range(200), root_seed=8)
        share += float(table.filter(table["seat"] == seat)["win"].sum())
    assert share / 400 >= 0.85


def test_greedy_weights_are_bot_parameters():
    a = make_setup("celtic_trader", 2, {}, "greedy")
    b = make_setup("celtic_trader", 2, {}, "greedy:pickup_weight=0:claim_weight=0")
    _, ta = play_batch(a, range(60), root_seed=9)
    _, tb = play_batch(b, range(60), root_seed=9)
    assert not np.array_equal(ta["score"].to_numpy(), tb["score"].to_numpy())
