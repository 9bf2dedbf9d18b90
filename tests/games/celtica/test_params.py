"""Celtica's data file, parameter declarations, rule levers and command line."""

import numpy as np
import pytest
from click.testing import CliRunner

from experiments.cli import cli
from sim.core.batch import play_batch
from sim.core.params import ParamError
from sim.core.registry import SetupError, get_game, make_setup
from sim.games.celtica import params as P
from sim.games.celtica import state as S
from sim.games.celtica.rules import current_player, is_over
from tests.games.celtica.helpers import (
    BROWN,
    RED,
    WHITE,
    apply,
    data_for,
    frag,
    legal,
    make_state,
    play,
    xp_hand,
)


def test_defaults_are_the_rulebook_numbers():
    d = P.PARAMS.defaults(4)
    assert d["druids"] == 5 and d["druid_cards_per_colour"] == 12 and d["hand_size"] == 5
    assert d["xp_cards_per_colour"] * 5 == 20 and d["amulets"] * d["fragments_per_amulet"] == 90
    assert d["display_size"] == 9 and d["start_fragments"] == 2
    assert (d["xp_swap_price"], d["xp_take_price"], d["ruin_xp_reward"]) == (1, 2, 1)
    track = P.parse_track(d["track"])
    assert len(track) == 19 and track[-1] == ("finish", 4)
    assert sorted(v for s, v in track if s == "ruin") == [1, 2, 2, 2, 3]
    assert sum(s == "sacred" for s, _ in track) == 5
    assert track[1] == ("village", 1), "the white druid reaches the village with 2 cards"
    assert track[15:18] == [("sacred", 0), ("ruin", 2), ("ruin", 3)], "«C.»: sacred, ruins 2, 3"
    assert all(v <= 9 for _, v in track)


def test_every_section_12_lever_is_declared():
    names = set(P.PARAMS.names())
    for lever in (
        "overshoot",
        "end_trigger",
        "fragment_end_rule",
        "swap_goes_to",
        "start_seat",
        "round_starter",
        "track",
        "sacred_draw",
        "ruin_xp_reward",
        "xp_swap_price",
        "xp_take_price",
        "xp_requires_druid_in_hand",
        "druids",
        "druid_cards_per_colour",
        "xp_cards_per_colour",
        "hand_size",
        "display_size",
        "start_fragments",
        "amulets",
        "fragments_per_amulet",
    ):
        assert lever in names, lever
    assert P.PARAMS.get("overshoot").choices == ("stop_at_finish", "forbid")
    assert P.PARAMS.get("swap_goes_to").choices == ("display", "returned_pile")


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"track": "sacred,ruin:2"}, "track"),  # the finish must be a dig site
        ({"track": "finish:4,village:1,dig:2"}, "track"),  # finish only last
        ({"track": "castle:x,finish:4"}, "track"),
        ({"track": "volcano:3,finish:4"}, "track"),
        ({"track": ",".join(["sacred"] * 40 + ["finish:4"])}, "track"),
        ({"track": 7}, "track"),
        ({"overshoot": "bounce"}, "overshoot"),
        ({"amulets": 11}, "amulets"),
        ({"hand_size": 0}, "hand_size"),
        ({"no_such_rule": 1}, "no_such_rule"),
    ],
)
def test_bad_overrides_are_one_line_errors_naming_the_key(overrides, key):
    with pytest.raises(ParamError) as err:
        make_setup("celtica", 3, overrides, "greedy")
    assert key in str(err.value) and "\n" not in str(err.value)


def test_player_counts_and_bots():
    with pytest.raises(SetupError):
        make_setup("celtica", 6)
    with pytest.raises(SetupError):
        make_setup("celtica", 1)
    game = get_game("celtica")
    codes = {b.name: b.code for b in game.bots}
    assert codes["random"] == 0 and codes["greedy"] == 1 and game.roles == ()
    assert codes.get("search", 2) == 2, "code 2 is the search bot's"
    assert game.tiebreak == tuple(f"incomplete_{j}" for j in range(1, 11))
    codes, params = make_setup("celtica", 2, {}, "random,greedy:xp_gain=2.5").bot_arrays()
    assert codes.tolist() == [0, 1] and params[1, 1] == 2.5


def test_overshoot_forbid_removes_moves_past_the_finish():
    stop, forbid = data_for(2), data_for(2, overshoot="forbid")
    s = make_state(stop, 2, pos={RED: 17}, hands={0: {RED: 3}, 1: {RED: 1}})
    assert play(RED, 3) in legal(s, stop)
    assert play(RED, 3) not in legal(s, forbid) and play(RED, 2) in legal(s, forbid)
    moved = apply(s, play(RED, 3), stop)
    assert moved[S.POS + RED] == 19 and moved[S.PENDING] == 4, "stops on the finish and digs"


def test_end_trigger_immediate_ends_when_the_first_druid_arrives():
    data = data_for(2, end_trigger="immediate")
    s = make_state(data, 2, pos={RED: 18}, hands={0: {RED: 1, WHITE: 2}, 1: {BROWN: 3}})
    s = apply(s, play(RED, 1), data)
    for t in range(4):
        s = apply(s, S.A_TAKE + t, data)
    assert is_over(s) and s[S.REASON] == S.R_FIRST_HOME and s[S.HELD_N] == 0


def test_fragment_end_rule_alternative_ends_on_an_empty_reserve():
    held = {t: 9 for t in range(9)}
    held[0] = 7  # one O1 in the reserve, one in the returned pile, one on display
    for rule, ends in (("all_gone", False), ("display_or_reserve_empty", True)):
        data = data_for(2, fragment_end_rule=rule)
        s = make_state(
            data,
            2,
            pos={RED: 1},
            hands={0: {RED: 1}, 1: {RED: 1}},
            frags={0: held},
            reserve={0: 1},
            returned={0: 1},
        )
        s = apply(s, play(RED, 1), data)  # 1 -> 2, the village: take 1, refill the last one
        s = apply(s, S.A_TAKE + 3, data)
        assert s[S.RESERVE_N] == 0 and s[S.RETURNED_N] == 1
        assert is_over(s) == ends and (s[S.REASON] == S.R_NO_FRAGMENTS) == ends


def test_swap_goes_to_returned_pile_lever():
    data = data_for(2, swap_goes_to="returned_pile")
    s = make_state(data, 2, phase=S.PH_EXCHANGE, xp={0: {RED: 1}}, frags={0: {0: 2}})
    s = apply(s, S.A_XSWAP + 0 * 16 + 4, data)
    assert s[S.RETURNED + 0] == 1 and s[S.DISPLAY + 0] == 1 and frag(s, 0)[4] == 1
    assert xp_hand(s, 0).sum() == 0


def test_xp_without_druid_lever_lets_an_xp_only_player_play_or_pass():
    strict, loose = data_for(2), data_for(2, xp_requires_druid_in_hand=False)
    s = make_state(strict, 2, seat=1, hands={0: {RED: 2}}, xp={1: {BROWN: 2}})
    assert play(BROWN, 0, 1) not in legal(s, strict)
    assert set(legal(s, loose)) == {play(BROWN, 0, 1), play(BROWN, 0, 2), S.A_PASS}
    passed = apply(s, S.A_PASS, loose)
    assert current_player(passed) == 0 and passed[S.PASSED + 1] == 1


def test_sacred_draw_zero_and_random_start_seat():
    data = data_for(2, sacred_draw=0)
    s = make_state(data, 2, hands={0: {RED: 1}, 1: {RED: 1}})
    s = apply(s, play(RED, 1), data)  # 0 -> 1, a sacred place: nothing to decide
    assert s[S.PHASE] == S.PH_PLAY and current_player(s) == 1
    setup = make_setup("celtica", 4, {"start_seat": "random"}, "random")
    lines = [get_game("celtica").trace(setup, seed)[0][2] for seed in range(12)]
    starters = {line.split("seat ")[1][0] for line in lines}
    assert len(starters) > 1 and all(line.startswith("round 1: seat") for line in lines)


def test_ruin_offset_shifts_every_ruin():
    base, harsh, mild = data_for(3), data_for(3, ruin_offset=2), data_for(3, ruin_offset=-2)
    ruins = base.loc_kind == S.K_RUIN
    assert (harsh.loc_value[ruins] == base.loc_value[ruins] + 2).all()
    assert mild.loc_value[ruins].tolist() == [0, 0, 0, 0, 1]
    assert (harsh.loc_value[~ruins] == base.loc_value[~ruins]).all()
    assert harsh.rules[P.G_MAX_RUIN] == 5


def test_a_sweepable_lever_changes_the_games():
    base = make_setup("celtica", 3, {}, "greedy")
    short = make_setup("celtica", 3, {"track": "castle:3,ruin:1,castle:3,finish:4"}, "greedy")
    g1, _ = play_batch(base, range(100), root_seed=2)
    g2, _ = play_batch(short, range(100), root_seed=2)
    assert g2["turns"].mean() < g1["turns"].mean()


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


def test_cli_play_trace_and_errors(runner):
    args = ["play", "celtica", "--players", "3", "--seed", "5", "--trace"]
    first = runner.invoke(cli, args)
    assert first.exit_code == 0, first.output
    assert first.output == runner.invoke(cli, args).output
    assert "plays" in first.output and "amulets=" in first.output and "rank 1" in first.output
    bad = runner.invoke(cli, ["play", "celtica", "--set", "track=sacred,ruin:2"])
    assert bad.exit_code == 2 and "track" in bad.output
    assert len(bad.output.strip().splitlines()) == 1


def test_data_file_is_the_source_of_the_defaults():
    raw = P.load_raw()
    assert raw["track"]["locations"][-1] == "finish:4"
    assert P.PARAMS.get("track").default == ",".join(raw["track"]["locations"])
    data = data_for(4)
    assert data.rules[P.G_FINISH] == 19 and data.loc_kind[19] == S.K_DIG
    assert np.count_nonzero(data.loc_kind == S.K_SACRED) == 5
