"""``menhir check`` (sim/core/check.py, experiments/check_cli.py): a small sample of checked games
per game is clean, and a deliberately broken rule is reported with its seed, step and a replay
command that works."""

import functools
import shlex

import numpy as np
import pytest
from click.testing import CliRunner

import sim.core.check as check_mod
from experiments.cli import cli
from sim.core.check import check_games, invariant_names, replay_command
from sim.core.registry import make_setup
from sim.games.catan import state as catan_state
from sim.games.celtae import state as celtae_state
from sim.games.celtic_trader import state as trader_state
from sim.games.celtica import state as celtica_state

GAMES = ("celtic_trader", "celtica", "celtae", "catan")
PLAYERS = {"celtic_trader": 3, "celtica": 3, "celtae": 2, "catan": 4}

# One cell per game whose +1 loses nothing but breaks a conservation law, and the invariant
# that must catch it.
BROKEN = {
    "celtae": (celtae_state.BAG, "non-druid workers conserved"),
    "celtic_trader": (trader_state.BAG + trader_state.T_ROMAN, "tokens conserved"),
    "celtica": (celtica_state.RESERVE, "fragments conserved"),
    "catan": (catan_state.BANK, "resource cards conserved"),
}


def test_every_game_has_an_invariants_module():
    assert set(BROKEN) == set(GAMES)
    for game in GAMES:
        names = invariant_names(game)
        assert names[0] == "ok" and len(set(names)) == len(names) > len(check_mod.GENERIC) + 1


@pytest.mark.parametrize("game", list(GAMES))
def test_a_sample_of_checked_games_is_clean(game):
    result = CliRunner().invoke(
        cli, ["check", game, "--games", "30", "--players", str(PLAYERS[game]), "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    assert "0 with a violation" in result.output
    for name in invariant_names(game)[1:]:
        assert name in result.output
    assert "replay" not in result.output
    assert "ended at the safety cap (not a violation): 0 of 30 games (0%), within" in result.output


@pytest.mark.parametrize(
    "game, players, bots",
    [
        ("celtae", 1, "greedy"),
        ("celtae", 4, "greedy,random,greedy,random"),
        ("celtic_trader", 5, "greedy"),
        ("celtica", 2, "greedy"),
        ("catan", 5, "greedy,random,greedy,random,greedy"),
    ],
)
def test_greedy_samples_check_every_invariant(game, players, bots):
    report = check_games(make_setup(game, players, {}, bots), 24, seed=100, jobs=1, chunk=10)
    assert report.violations == 0, report.lines()
    assert (report.counts[1:, 0] > 0).all()  # every invariant was checked
    assert report.counts[check_mod.C_SCORE, 0] == report.counts[check_mod.C_ENDS, 0] == 24


@pytest.mark.parametrize("game", list(GAMES))
def test_a_broken_rule_is_reported_with_seed_step_and_replay(game):
    index, name = BROKEN[game]
    setup = make_setup(game, PLAYERS[game], {}, "random")
    # game 13 of seeds 40.. (seed 53) loses a piece at its 7th step; chunks of 5 games
    report = check_games(setup, 20, seed=40, chunk=5, corrupt=(13, 7, index, 1))
    assert report.violations == 1
    assert report.first() == (53, 7, name)
    row = report.names.index(name)
    assert report.counts[row, 1] == 1 and report.counts[row, 0] > 20
    text = "\n".join(report.lines())
    assert f"first violation: seed 53, step 7: {name}" in text
    assert f"replay: {replay_command(setup, 53)}" in text


def test_the_command_exits_1_and_its_replay_command_replays(monkeypatch):
    index, name = BROKEN["celtae"]
    broken = functools.partial(check_games, corrupt=(2, 5, index, 1))
    monkeypatch.setattr(check_mod, "check_games", broken)
    runner = CliRunner()
    result = runner.invoke(
        cli, ["check", "celtae", "--games", "6", "--players", "2", "--seed", "9", "--no-progress"]
    )
    assert result.exit_code == 1, result.output
    assert f"first violation: seed 11, step 5: {name}" in result.output
    replay = result.output.split("replay: ")[1].strip()
    assert replay == "menhir play celtae --players 2 --seed 11 --bots random,random --trace"
    played = runner.invoke(cli, shlex.split(replay)[1:])
    assert played.exit_code == 0, played.output
    assert "celtae 2p seed=11" in played.output


def test_replay_command_carries_non_default_settings():
    levers = {"most_workers_any_counts_druids": True, "tribe_cap": 6}
    setup = make_setup("celtae", 3, levers, "greedy,random,random")
    command = replay_command(setup, 7)
    assert command.startswith("menhir play celtae --players 3 --seed 7 --bots greedy,random,random")
    assert "--set most_workers_any_counts_druids=true" in command
    assert "--set tribe_cap=6" in command and command.endswith("--trace")
    played = CliRunner().invoke(cli, shlex.split(command)[1:])
    assert played.exit_code == 0, played.output


def test_check_parallel_jobs_give_the_same_report():
    setup = make_setup("celtica", 2, {}, "random")
    one = check_games(setup, 40, seed=3, chunk=10)
    two = check_games(setup, 40, seed=3, chunk=10, jobs=2)
    assert (one.counts == two.counts).all() and (one.first_code == two.first_code).all()


def test_a_game_without_invariants_is_a_user_error(monkeypatch):
    from sim.core import registry

    monkeypatch.setitem(registry.GAME_MODULES, "fake_dice", "tests.core.fake_game")
    result = CliRunner().invoke(cli, ["check", "fake_dice", "--games", "2"])
    assert result.exit_code == 2 and "no checked mode" in result.output


def test_user_errors_exit_2():
    runner = CliRunner()
    result = runner.invoke(cli, ["check", "chess"])
    assert result.exit_code == 2 and "unknown game" in result.output
    result = runner.invoke(cli, ["check", "celtae", "--set", "no_such_lever=1"])
    assert result.exit_code == 2 and "no_such_lever" in result.output


# ---------------------------------------------------------------------------------------------
# Games that end at the safety cap: counted on their own line, never as violations
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_games_ended_at_the_safety_cap_are_counted_apart(game):
    setup = make_setup(game, PLAYERS[game], {"safety_cap_rounds": 3}, "random")
    report = check_games(setup, 6, seed=20, chunk=4)
    assert report.violations == 0 and report.first() is None, report.lines()
    assert report.capped == 6 and report.first_capped()[0] == 20
    assert report.counts[check_mod.C_CAPPED].tolist() == [6, 6]
    assert report.counts[check_mod.C_ENDS].tolist() == [6, 0]  # each ended: no violation
    assert report.counts[check_mod.C_SCORE].tolist() == [6, 0]  # and was scored right
    text = "\n".join(report.lines())
    assert "6 of 6 games (100%), above the 0.1% allowed" in text
    assert "first capped game: seed 20" in text and "first violation" not in text
    assert f"replay: {replay_command(setup, 20)}" in text
    assert "--set safety_cap_rounds=3" in replay_command(setup, 20)


def test_the_command_fails_only_above_the_allowed_share_of_capped_games():
    runner = CliRunner()
    args = ["check", "catan", "--players", "3", "--games", "4", "--seed", "7", "--no-progress"]
    args += ["--set", "safety_cap_rounds=3"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 1, result.output
    assert "0 with a violation" in result.output and "first violation" not in result.output
    assert "4 of 4 games (100%), above the 0.1% allowed" in result.output
    assert "first capped game: seed 7" in result.output
    result = runner.invoke(cli, [*args, "--max-capped", "100"])
    assert result.exit_code == 0, result.output
    assert "4 of 4 games (100%), within the 100% allowed" in result.output
    result = runner.invoke(cli, [*args, "--max-capped", "101"])
    assert result.exit_code == 2 and "--max-capped" in result.output


def test_a_share_of_capped_games_within_the_limit_passes():
    """1 capped game in 1,000 is 0.1%: within the default limit, above a lower one; a capped
    game is not a violation, and a violation is not a capped game."""
    setup = make_setup("catan", 3, {}, "random")
    names = invariant_names("catan")
    codes = np.zeros(1000, np.int64)
    codes[[10, 20]] = check_mod.C_CAPPED, check_mod.C_LEGAL
    report = check_mod.CheckReport(
        setup, names, np.arange(5, 1005, dtype=np.uint64), codes, np.full(1000, 9, np.int64),
        np.zeros((len(names), 2), np.int64),
    )  # fmt: skip
    assert report.capped == 1 and report.violations == 1
    assert report.first_capped() == (15, 9) and report.first() == (25, 9, names[2])
    assert not report.too_many_capped() and report.too_many_capped(0.09)
    assert "1 of 1,000 games (0.1%), within the 0.1% allowed" in "\n".join(report.lines())


def test_a_game_past_max_steps_is_a_violation():
    result = CliRunner().invoke(
        cli, ["check", "catan", "--players", "4", "--games", "2", "--max-steps", "50",
              "--no-progress"],
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    name = check_mod.GENERIC[check_mod.C_ENDS - 1]
    assert "2 with a violation" in result.output
    assert f"first violation: seed 0, step 50: {name}" in result.output
    assert "ended at the safety cap (not a violation): 0 of 2 games" in result.output


def test_check_help_states_the_capped_games_rule():
    result = CliRunner().invoke(cli, ["check", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "--max-capped PERCENT" in text and "(default 0.1)" in text
    assert "safety cap" in text and "broke no rule" in text


class Done:
    """A finished future: its value (hashable by identity, as a real future is)."""

    def __init__(self, value):
        self.value = value


class InProcessBackend:
    """The backend interface check_games uses, playing each chunk at once, in this process."""

    capacity = 2

    def submit(self, fn, *args):
        return Done(fn(*args))

    def wait_any(self, futures):
        return futures[:1]

    def result(self, future):
        return future.value


def test_parallel_checks_compile_once_in_the_parent_first(monkeypatch):
    """With workers, the parent checks one game before any chunk goes out: the kernels compile
    once there (on both cores of a cold cache), and the workers load them."""
    calls = []
    real = check_mod._run

    def parent_run(setup, seeds, max_steps, corrupt):
        calls.append(("parent", len(seeds)))
        return real(setup, seeds, max_steps, corrupt)

    def worker(setup, seeds, max_steps, corrupt):
        calls.append(("worker", len(seeds)))
        return real(setup, seeds, max_steps, corrupt)

    monkeypatch.setattr(check_mod, "_run", parent_run)
    setup = make_setup("celtica", 2, {}, "random")
    two = check_games(setup, 40, seed=3, chunk=10, backend=InProcessBackend(), worker=worker)
    assert calls[0] == ("parent", 1) and calls[1:] == [("worker", 10)] * 4
    one = check_games(setup, 40, seed=3, chunk=10)
    assert (one.counts == two.counts).all() and (one.first_code == two.first_code).all()
